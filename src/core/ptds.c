/*
 * ptds.c — per-thread default streams (cudaStreamPerThread, and the null
 * stream of programs built with --default-stream per-thread): one blocking
 * stream per host thread and context, made on first use and destroyed when
 * the thread exits (its pending work still completes) or with its context.
 *
 * A thread's streams are found by context id, not pointer: a context
 * destroyed and another allocated at the same address must not inherit the
 * old streams.  The registry of live ids, under one lock, lets the
 * thread-exit destructor tell whether a context (and so its stream) still
 * exists: context destruction unregisters the id first, under the same
 * lock, before it frees its streams.
 */
#include "core.h"

#include <stdlib.h>

LOG_CHANNEL(stream);

typedef struct ptds_entry {
   uint64_t ctx_id;
   core_stream *s;
} ptds_entry;

typedef struct ptds_table {
   size_t n, cap;
   ptds_entry *e;
} ptds_table;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *live_ids;          /* registry_lock */
static size_t nlive, live_cap;
static uint64_t next_id = 1;

static pthread_key_t table_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static _Thread_local ptds_table *table;

static bool id_live_locked(uint64_t id)
{
   for (size_t i = 0; i < nlive; i++)
      if (live_ids[i] == id)
         return true;
   return false;
}

uint64_t core_ptds_ctx_born(void)
{
   pthread_mutex_lock(&registry_lock);
   uint64_t id = next_id++;
   if (nlive == live_cap) {
      size_t cap = live_cap ? 2 * live_cap : 8;
      uint64_t *v = mc_realloc(live_ids, cap * sizeof(*v));
      if (v) {
         live_ids = v;
         live_cap = cap;
      }
   }
   /* Without room the id stays unregistered: the thread-exit destructor
    * then leaves the stream to the context's destruction (no leak past it). */
   if (nlive < live_cap)
      live_ids[nlive++] = id;
   pthread_mutex_unlock(&registry_lock);
   return id;
}

void core_ptds_ctx_gone(uint64_t id)
{
   pthread_mutex_lock(&registry_lock);
   for (size_t i = 0; i < nlive; i++)
      if (live_ids[i] == id) {
         live_ids[i] = live_ids[--nlive];
         break;
      }
   pthread_mutex_unlock(&registry_lock);
}

/* Thread exit: destroys the thread's streams whose context still lives. */
static void table_free(void *arg)
{
   ptds_table *t = arg;
   pthread_mutex_lock(&registry_lock);
   for (size_t i = 0; i < t->n; i++)
      if (id_live_locked(t->e[i].ctx_id))
         core_stream_destroy(t->e[i].s);
   pthread_mutex_unlock(&registry_lock);
   free(t->e);
   free(t);
   table = NULL;
}

static void make_key(void) { pthread_key_create(&table_key, table_free); }

static ptds_table *thread_table(void)
{
   if (table)
      return table;
   pthread_once(&key_once, make_key);
   ptds_table *t = mc_calloc(1, sizeof(*t));
   if (t && pthread_setspecific(table_key, t) != 0) {
      free(t);
      t = NULL;
   }
   return table = t;
}

int core_stream_per_thread(core_ctx *c, core_stream **out)
{
   ptds_table *t = thread_table();
   if (!t)
      return CORE_ERROR_OUT_OF_MEMORY;
   for (size_t i = 0; i < t->n; i++)
      if (t->e[i].ctx_id == c->id) {
         *out = t->e[i].s;
         return CORE_SUCCESS;
      }
   if (t->n == t->cap) {
      size_t cap = t->cap ? 2 * t->cap : 4;
      ptds_entry *e = mc_realloc(t->e, cap * sizeof(*e));
      if (!e)
         return CORE_ERROR_OUT_OF_MEMORY;
      t->e = e;
      t->cap = cap;
   }
   core_stream *s;
   int r = core_stream_create(c, 0, 0, &s);
   if (r != CORE_SUCCESS)
      return r;
   s->per_thread = true;
   /* entries of contexts that died are overwritten rather than kept */
   size_t slot = t->n;
   pthread_mutex_lock(&registry_lock);
   for (size_t i = 0; i < t->n; i++)
      if (!id_live_locked(t->e[i].ctx_id)) {
         slot = i;
         break;
      }
   pthread_mutex_unlock(&registry_lock);
   if (slot == t->n)
      t->n++;
   t->e[slot] = (ptds_entry){ c->id, s };
   LOG_TRACE("per-thread default stream %p for context %p", (void *)s, (void *)c);
   *out = s;
   return CORE_SUCCESS;
}
