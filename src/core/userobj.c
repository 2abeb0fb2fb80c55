/*
 * userobj.c — user objects (cuUserObjectCreate) and the references graphs
 * hold to them.
 *
 * A user object is a reference count and a destructor callback.  The
 * program holds references (cuUserObjectRetain/Release), and so do graphs
 * (cuGraphRetainUserObject); a graph's references are copied into its
 * clones, its child-graph nodes' graphs and the graph an executable graph
 * keeps, so each of those drops its own when destroyed.  An executable
 * graph drops its references only once its launches have completed
 * (core_graph_exec_destroy waits for them), so the destructor never runs
 * while launched work that references the object still runs.
 *
 * As CUDA's, destructors run on one shared internal thread (started on
 * first use), in the order their objects lost their last reference: the
 * release that drops it returns at once, whatever the destructor does.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

bool core_check_user_object(const core_user_object *o) { return o && o->magic == CORE_MAGIC_USER_OBJECT; }

int core_user_object_create(void *data, void (*fn)(void *), uint32_t refs, core_user_object **out)
{
   core_user_object *o = mc_calloc(1, sizeof(*o));
   if (!o)
      return CORE_ERROR_OUT_OF_MEMORY;
   o->magic = CORE_MAGIC_USER_OBJECT;
   o->fn = fn;
   o->data = data;
   o->refs = refs;
   *out = o;
   return CORE_SUCCESS;
}

void core_user_object_retain(core_user_object *o, uint32_t n) { __atomic_add_fetch(&o->refs, n, __ATOMIC_RELAXED); }

static pthread_mutex_t dtor_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dtor_cv = PTHREAD_COND_INITIALIZER;
static core_user_object *dtor_head, *dtor_tail;   /* objects whose destructor is due (dtor_lock) */
static bool dtor_started;                         /* dtor_lock */

static void *destructor_thread(void *arg)
{
   (void)arg;
   pthread_mutex_lock(&dtor_lock);
   for (;;) {
      while (!dtor_head)
         pthread_cond_wait(&dtor_cv, &dtor_lock);
      core_user_object *o = dtor_head;
      dtor_head = o->next;
      if (!dtor_head)
         dtor_tail = NULL;
      pthread_mutex_unlock(&dtor_lock);
      o->fn(o->data);
      free(o);
      pthread_mutex_lock(&dtor_lock);
   }
   return NULL;
}

bool core_start_thread(void *(*fn)(void *))
{
   pthread_t t;
   pthread_attr_t a;
   pthread_attr_init(&a);
   pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
   bool ok = pthread_create(&t, &a, fn, NULL) == 0;
   pthread_attr_destroy(&a);
   return ok;
}

/* Hands o to the destructor thread; false if it cannot be started. */
static bool queue_destructor(core_user_object *o)
{
   pthread_mutex_lock(&dtor_lock);
   if (!dtor_started)
      dtor_started = core_start_thread(destructor_thread);
   if (dtor_started) {
      o->next = NULL;
      if (dtor_tail)
         dtor_tail->next = o;
      else
         dtor_head = o;
      dtor_tail = o;
      pthread_cond_signal(&dtor_cv);
   }
   pthread_mutex_unlock(&dtor_lock);
   return dtor_started;
}

void core_user_object_release(core_user_object *o, uint32_t n)
{
   if (__atomic_sub_fetch(&o->refs, n, __ATOMIC_ACQ_REL) != 0)
      return;
   o->magic = CORE_MAGIC_DEAD;
   if (!queue_destructor(o)) {   /* no thread: run it here rather than never */
      o->fn(o->data);
      free(o);
   }
}

/* ---- a graph's references ---- */

static core_graph_uref *find_ref(core_graph *g, const core_user_object *o)
{
   for (uint32_t i = 0; i < g->nurefs; i++)
      if (g->urefs[i].obj == o)
         return &g->urefs[i];
   return NULL;
}

/* Adds n references of o to g's count (the caller already holds them). */
static int add_refs(core_graph *g, core_user_object *o, uint32_t n)
{
   core_graph_uref *r = find_ref(g, o);
   if (r) {
      r->count += n;
      return CORE_SUCCESS;
   }
   if (g->nurefs == g->cap_urefs) {
      uint32_t nc = g->cap_urefs ? g->cap_urefs * 2 : 4;
      core_graph_uref *v = mc_realloc(g->urefs, nc * sizeof(*v));
      if (!v)
         return CORE_ERROR_OUT_OF_MEMORY;
      g->urefs = v;
      g->cap_urefs = nc;
   }
   g->urefs[g->nurefs++] = (core_graph_uref){ o, n };
   return CORE_SUCCESS;
}

int core_graph_retain_user_object(core_graph *g, core_user_object *o, uint32_t n, bool move)
{
   if (!move)   /* new references, before the graph counts them */
      core_user_object_retain(o, n);
   int r = add_refs(g, o, n);
   if (r != CORE_SUCCESS && !move)
      core_user_object_release(o, n);
   return r;
}

int core_graph_release_user_object(core_graph *g, core_user_object *o, uint32_t n)
{
   core_graph_uref *r = find_ref(g, o);
   if (!r || r->count < n)
      return CORE_ERROR_INVALID_VALUE;   /* more than the graph holds */
   r->count -= n;
   if (r->count == 0)
      *r = g->urefs[--g->nurefs];
   core_user_object_release(o, n);
   return CORE_SUCCESS;
}

int core_graph_urefs_copy(const core_graph *g, core_graph *c)
{
   for (uint32_t i = 0; i < g->nurefs; i++) {
      int r = core_graph_retain_user_object(c, g->urefs[i].obj, g->urefs[i].count, false);
      if (r != CORE_SUCCESS)
         return r;
   }
   return CORE_SUCCESS;
}

void core_graph_urefs_drop(core_graph *g)
{
   core_graph_uref *v = g->urefs;
   uint32_t n = g->nurefs;
   g->urefs = NULL;
   g->nurefs = g->cap_urefs = 0;
   for (uint32_t i = 0; i < n; i++)
      core_user_object_release(v[i].obj, v[i].count);
   free(v);
}
