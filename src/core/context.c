/*
 * context.c — contexts: the primary context of each device (retained and
 * released by reference count, as cuDevicePrimaryCtxRetain/Release do), the
 * thread-local current context, and sticky errors.
 *
 * A kernel fault or trap poisons its context (CUDA's sticky errors): every
 * later operation in it fails with the same error until the primary
 * context is reset (cudaDeviceReset).
 *
 * Contexts made by cuCtxCreate are built as a primary one is and torn down
 * by cuCtxDestroy with the memory allocated in them (arena.c records the
 * owner); the object stays, marked destroyed, so that a stale handle or a
 * thread that still has it current is told so, and the next creation on
 * the same device rebuilds it in place.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(context);

/* The thread's context stack (cuCtxPushCurrent/PopCurrent): the current
 * context is its top, the ones it covers are below[0, nbelow). */
enum { CTX_STACK_MAX = 64 };
static _Thread_local core_ctx *current_ctx;
static _Thread_local core_ctx *below[CTX_STACK_MAX];
static _Thread_local unsigned nbelow;

/* Each context counts the threads that have it current (`holders`):
 * cuCtxDestroy refuses one that another thread has current, as NVIDIA's
 * driver does.  A thread that exits stops holding its current context
 * (the key's destructor). */
static pthread_key_t holder_key;
static pthread_once_t holder_once = PTHREAD_ONCE_INIT;

static void holder_exit(void *c)
{
   __atomic_sub_fetch(&((core_ctx *)c)->holders, 1, __ATOMIC_ACQ_REL);
}

static void holder_make_key(void) { pthread_key_create(&holder_key, holder_exit); }

static void make_current(core_ctx *c)
{
   if (c == current_ctx)
      return;
   pthread_once(&holder_once, holder_make_key);
   if (current_ctx)
      __atomic_sub_fetch(&current_ctx->holders, 1, __ATOMIC_ACQ_REL);
   if (c)
      __atomic_add_fetch(&c->holders, 1, __ATOMIC_ACQ_REL);
   current_ctx = c;
   pthread_setspecific(holder_key, c);
}

core_ctx *core_ctx_current(void) { return current_ctx; }

void core_ctx_set_current(core_ctx *c)
{
   if (c)
      make_current(c);
   else
      core_ctx_pop(NULL);   /* CUDA: setting NULL pops the stack */
}

int core_ctx_push(core_ctx *c)
{
   if (current_ctx) {
      if (nbelow == CTX_STACK_MAX)
         return CORE_ERROR_OUT_OF_MEMORY;
      below[nbelow++] = current_ctx;
   }
   make_current(c);
   return CORE_SUCCESS;
}

core_ctx *core_ctx_pop(core_ctx **out)
{
   core_ctx *c = current_ctx;
   make_current(nbelow ? below[--nbelow] : NULL);
   if (out)
      *out = c;
   return c;
}

bool core_check_ctx(const core_ctx *c) { return c && c->magic == CORE_MAGIC_CTX; }

/* Builds a context in c's memory (zeroed first).  A primary context
 * revived after a reset is rebuilt at the same address, keeping the
 * libraries loaded in it (`keep`). */
static int ctx_init(core_ctx *c, core_device *d, core_module *keep)
{
   int holders = c->holders;   /* threads that have it current keep it */
   memset(c, 0, sizeof(*c));
   c->holders = holders;
   c->magic = CORE_MAGIC_CTX;
   c->dev = d;
   c->is_primary = true;
   c->flags = core_device_primary_flags(d);
   pthread_mutex_init(&c->lock, NULL);
   pthread_mutex_init(&c->devrt_lock, NULL);
   pthread_mutex_init(&c->streams_lock, NULL);
   core_printf_init(c);
   c->l2_fetch_granularity = 64;   /* NVIDIA's default (H200) */
   c->heap_size = 8u << 20;         /* cudaLimitMallocHeapSize: CUDA's default */
   c->devrt_pending = 2048;         /* cudaLimitDevRuntimePendingLaunchCount: CUDA's default */
   /* the trap flag, then (at +16) the grid workspace of ordinary launches (launch.c) */
   int r = core_mem_alloc_internal(d, 32, &c->status_word);
   if (r == CORE_SUCCESS)
      r = core_mem_alloc_internal(d, MC_ATOM_LOCKS * sizeof(uint32_t), &c->atom_locks);
   if (r == CORE_SUCCESS)
      r = core_stream_create_null(c, &c->null_stream);
   if (r != CORE_SUCCESS) {
      if (c->atom_locks)
         core_mem_free_internal(d, c->atom_locks);
      if (c->status_word)
         core_mem_free_internal(d, c->status_word);
      core_printf_destroy(c);
      pthread_mutex_destroy(&c->streams_lock);
      pthread_mutex_destroy(&c->devrt_lock);
      pthread_mutex_destroy(&c->lock);
      c->magic = CORE_MAGIC_DEAD;
      return r;
   }
   memset((void *)(uintptr_t)c->status_word, 0, 32);
   /* Every lock starts free; kernels leave them free (prelude/atom.metal). */
   memset((void *)(uintptr_t)c->atom_locks, 0, MC_ATOM_LOCKS * sizeof(uint32_t));
   c->id = core_ptds_ctx_born();
   c->modules = keep;
   return CORE_SUCCESS;
}

/* Runs and forgets the context-local storage destructors (NVIDIA's runtime
 * frees its per-context state in them), outside the lock: a destructor may
 * call back into the driver. */
static void cls_run_dtors(core_ctx *c)
{
   pthread_mutex_lock(&c->lock);
   core_cls_entry *e = c->cls;
   uint32_t n = c->ncls;
   c->cls = NULL;
   c->ncls = c->cap_cls = 0;
   pthread_mutex_unlock(&c->lock);
   for (uint32_t i = n; i-- > 0;)
      if (e[i].dtor)
         e[i].dtor(c, e[i].key, e[i].value);
   free(e);
}

/* Tears a context down to the RESET state: its storage destructors run,
 * its work completes, its streams, events and modules go, but not the
 * libraries (cuLibraryLoadData: they outlive contexts in CUDA, and
 * NVIDIA's runtime keeps using its library handles after
 * cudaDeviceReset).  The object stays: a primary context's handle is
 * valid for the life of the process (NVIDIA's is: cuCtxGetCurrent returns
 * it after a reset and the next retain brings it back at that address),
 * and threads that had it current keep it current; calls made in it fail
 * with CUDA_ERROR_INVALID_CONTEXT until it is retained again. */
static void ctx_teardown(core_ctx *c)
{
   cls_run_dtors(c);
   core_ptds_ctx_gone(c->id);      /* exiting threads leave its streams alone now */
   core_streams_synchronize_all(c);
   core_module *keep = NULL;
   while (c->modules) {
      core_module *m = c->modules;
      if (m->library) {
         c->modules = m->next;
         m->next = keep;
         keep = m;
      } else {
         core_module_unload(m);
      }
   }
   c->modules = keep;
   for (core_module *m = keep; m; m = m->next)
      core_module_reset(m);
   core_streams_destroy_all(c);
   core_stream_free_null(c->null_stream);
   c->null_stream = NULL;
   core_events_destroy_all(c);      /* after the streams: no marker pending */
   core_printf_destroy(c);
   if (c->heap)
      core_mem_free_internal(c->dev, c->heap);
   c->heap = 0;
   core_mem_free_internal(c->dev, c->status_word);
   core_mem_free_internal(c->dev, c->atom_locks);
   c->status_word = c->atom_locks = 0;
   c->refcount = 0;
   c->magic = CORE_MAGIC_CTX_RESET;
   pthread_mutex_destroy(&c->streams_lock);
   pthread_mutex_destroy(&c->devrt_lock);
   pthread_mutex_destroy(&c->lock);
}

/* The device's primary context object: made (and built) on first use,
 * rebuilt in place if it was reset and `revive` is set. */
static int primary_get(core_device *d, bool revive, core_ctx **out)
{
   pthread_mutex_t *lock = core_device_lock(d);
   pthread_mutex_lock(lock);
   core_ctx **slot = core_device_primary_slot(d);
   int r = CORE_SUCCESS;
   if (!*slot) {
      core_ctx *c = mc_calloc(1, sizeof(*c));
      if (!c)
         r = CORE_ERROR_OUT_OF_MEMORY;
      else if ((r = ctx_init(c, d, NULL)) != CORE_SUCCESS)
         free(c);
      else
         *slot = c;
   } else if (revive && (*slot)->magic == CORE_MAGIC_CTX_RESET) {
      core_ctx *c = *slot;
      r = ctx_init(c, d, c->modules);
      if (r != CORE_SUCCESS)
         c->magic = CORE_MAGIC_CTX_RESET;   /* still the handle; retry at the next retain */
   }
   *out = *slot;
   pthread_mutex_unlock(lock);
   return r;
}

int core_ctx_primary(core_device *d, core_ctx **out) { return primary_get(d, true, out); }

int core_ctx_primary_handle(core_device *d, core_ctx **out) { return primary_get(d, false, out); }

bool core_ctx_known(const core_ctx *c) { return c && (c->magic == CORE_MAGIC_CTX || c->magic == CORE_MAGIC_CTX_RESET); }

int core_ctx_retain_primary(core_device *d, core_ctx **out)
{
   int r = core_ctx_primary(d, out);
   if (r == CORE_SUCCESS)
      __atomic_add_fetch(&(*out)->refcount, 1, __ATOMIC_ACQ_REL);
   return r;
}

int core_ctx_release_primary(core_device *d)
{
   pthread_mutex_t *lock = core_device_lock(d);
   pthread_mutex_lock(lock);
   core_ctx **slot = core_device_primary_slot(d);
   core_ctx *c = *slot;
   int r = CORE_SUCCESS;
   bool last = false;
   if (!core_check_ctx(c) || c->refcount <= 0)
      r = CORE_ERROR_INVALID_CONTEXT;
   else
      last = --c->refcount == 0;
   /* NVIDIA destroys the primary context at its last release; we keep its
    * resources until a reset, so that handles stay valid across the
    * release/retain pairs programs make at exit.  Its storage destructors
    * run now, as NVIDIA's driver runs them at that release (observed). */
   pthread_mutex_unlock(lock);
   if (last)
      cls_run_dtors(c);
   return r;
}

bool core_ctx_in_use(const core_ctx *c)
{
   return core_check_ctx(c) && (!c->is_primary || __atomic_load_n(&c->refcount, __ATOMIC_ACQUIRE) > 0);
}

bool core_ctx_primary_active(core_device *d)
{
   core_ctx *c = *core_device_primary_slot(d);
   return core_check_ctx(c) && c->refcount > 0;
}

/* A concurrent retain during the teardown gets the context being torn
 * down, as it got the destroyed one before handles were kept: a program
 * resets a device no other thread is using (NVIDIA's documentation asks
 * that much). */
int core_ctx_reset_primary(core_device *d)
{
   pthread_mutex_t *lock = core_device_lock(d);
   pthread_mutex_lock(lock);
   core_ctx *c = *core_device_primary_slot(d);
   bool live = core_check_ctx(c);
   pthread_mutex_unlock(lock);
   if (live)
      ctx_teardown(c);
   return CORE_SUCCESS;
}

/* Created contexts: the live ones (for core_ctx_created_by_id) and the
 * destroyed ones, kept for their handles (made_lock). */
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;
static core_ctx **live, **dead;
static size_t nlive, cap_live, ndead, cap_dead;

/* Appends c to *v (made_lock held); false when out of memory. */
static bool list_add(core_ctx ***v, size_t *n, size_t *cap, core_ctx *c)
{
   if (*n == *cap) {
      size_t grown = *cap ? 2 * *cap : 8;
      core_ctx **w = realloc(*v, grown * sizeof(*w));
      if (!w)
         return false;
      *v = w;
      *cap = grown;
   }
   (*v)[(*n)++] = c;
   return true;
}

static void live_remove(core_ctx *c)
{
   pthread_mutex_lock(&made_lock);
   for (size_t k = 0; k < nlive; k++)
      if (live[k] == c) {
         live[k] = live[--nlive];
         break;
      }
   pthread_mutex_unlock(&made_lock);
}

core_ctx *core_ctx_created_by_id(uint64_t id)
{
   core_ctx *c = NULL;
   pthread_mutex_lock(&made_lock);
   for (size_t k = 0; k < nlive && !c; k++)
      if (live[k]->id == id)
         c = live[k];
   pthread_mutex_unlock(&made_lock);
   return c;
}

static core_ctx *take_dead(core_device *d)
{
   core_ctx *c = NULL;
   pthread_mutex_lock(&made_lock);
   for (size_t k = 0; k < ndead && !c; k++)
      if (dead[k]->dev == d) {
         c = dead[k];
         dead[k] = dead[--ndead];
      }
   pthread_mutex_unlock(&made_lock);
   return c;
}

/* Keeps a destroyed context; false (out of memory) leaves it to the caller. */
static bool keep_dead(core_ctx *c)
{
   pthread_mutex_lock(&made_lock);
   bool ok = list_add(&dead, &ndead, &cap_dead, c);
   pthread_mutex_unlock(&made_lock);
   return ok;
}

int core_ctx_create(core_device *d, unsigned flags, core_ctx **out)
{
   int r = core_ctx_check_flags(flags);
   if (r != CORE_SUCCESS)
      return r;
   core_ctx *c = take_dead(d);
   core_module *keep = c ? c->modules : NULL;   /* libraries' modules, reloaded on use */
   if (!c && !(c = mc_calloc(1, sizeof(*c))))
      return CORE_ERROR_OUT_OF_MEMORY;
   if ((r = ctx_init(c, d, keep)) != CORE_SUCCESS) {
      c->magic = CORE_MAGIC_CTX_DEAD;
      if (!keep_dead(c))
         free(c);
      return r;
   }
   c->is_primary = false;
   c->flags = flags;
   pthread_mutex_lock(&made_lock);
   bool listed = list_add(&live, &nlive, &cap_live, c);
   pthread_mutex_unlock(&made_lock);
   if (!listed) {
      ctx_teardown(c);
      c->magic = CORE_MAGIC_CTX_DEAD;
      if (!keep_dead(c))
         free(c);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   *out = c;
   return CORE_SUCCESS;
}

int core_ctx_destroy(core_ctx *c)
{
   if (!core_check_ctx(c) || c->is_primary)
      return CORE_ERROR_INVALID_CONTEXT;
   if (__atomic_load_n(&c->holders, __ATOMIC_ACQUIRE) > (current_ctx == c ? 1 : 0))
      return CORE_ERROR_INVALID_CONTEXT;   /* current to another thread (an H200 refuses it so) */
   uint64_t id = c->id;
   live_remove(c);
   ctx_teardown(c);
   core_mem_free_owned(c->dev, id);
   c->magic = CORE_MAGIC_CTX_DEAD;
   if (!keep_dead(c))
      LOG_WARN("destroyed context %p kept unlisted (out of memory)", (void *)c);
   return CORE_SUCCESS;
}

bool core_ctx_destroyed(const core_ctx *c) { return c && c->magic == CORE_MAGIC_CTX_DEAD; }

/* ---- context-local storage (NVIDIA's runtime keeps its per-context state here) ---- */

int core_ctx_cls_put(core_ctx *c, void *key, void *value, core_cls_dtor dtor)
{
   if (c->magic != CORE_MAGIC_CTX)   /* reset: nothing can be kept in it */
      return CORE_ERROR_INVALID_CONTEXT;
   pthread_mutex_lock(&c->lock);
   int r = CORE_SUCCESS;
   uint32_t i;
   for (i = 0; i < c->ncls && c->cls[i].key != key; i++)
      ;
   if (i < c->ncls) {
      r = CORE_ERROR_INVALID_HANDLE;   /* already there: kept as it is (NVIDIA's driver) */
   } else if (c->ncls == c->cap_cls) {
      uint32_t cap = c->cap_cls ? 2 * c->cap_cls : 4;
      core_cls_entry *e = realloc(c->cls, cap * sizeof(*e));
      if (!e)
         r = CORE_ERROR_OUT_OF_MEMORY;
      else {
         c->cls = e;
         c->cap_cls = cap;
      }
   }
   if (r == CORE_SUCCESS)
      c->cls[c->ncls++] = (core_cls_entry){key, value, dtor};
   pthread_mutex_unlock(&c->lock);
   return r;
}

int core_ctx_cls_get(core_ctx *c, void *key, void **value)
{
   if (c->magic != CORE_MAGIC_CTX)   /* reset: its storage went with it */
      return CORE_ERROR_INVALID_HANDLE;
   pthread_mutex_lock(&c->lock);
   int r = CORE_ERROR_INVALID_HANDLE;
   for (uint32_t i = 0; i < c->ncls; i++)
      if (c->cls[i].key == key) {
         *value = c->cls[i].value;
         r = CORE_SUCCESS;
         break;
      }
   pthread_mutex_unlock(&c->lock);
   return r;
}

int core_ctx_cls_delete(core_ctx *c, void *key)
{
   if (c->magic != CORE_MAGIC_CTX)
      return CORE_ERROR_INVALID_HANDLE;
   pthread_mutex_lock(&c->lock);
   int r = CORE_ERROR_INVALID_HANDLE;
   for (uint32_t i = 0; i < c->ncls; i++)
      if (c->cls[i].key == key) {
         c->cls[i] = c->cls[--c->ncls];
         r = CORE_SUCCESS;
         break;
      }
   pthread_mutex_unlock(&c->lock);
   return r;
}

int core_ctx_error(core_ctx *c) { return __atomic_load_n(&c->sticky_error, __ATOMIC_ACQUIRE); }

void core_ctx_set_sticky(core_ctx *c, int err, const char *msg)
{
   int expected = CORE_SUCCESS;
   if (__atomic_compare_exchange_n(&c->sticky_error, &expected, err, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
      snprintf(c->sticky_msg, sizeof(c->sticky_msg), "%s", msg ? msg : "");
      LOG_ERR("%s", c->sticky_msg);
   }
}

int core_ctx_synchronize(core_ctx *c) { return core_streams_synchronize_all(c); }
