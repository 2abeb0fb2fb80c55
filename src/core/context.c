/*
 * context.c — contexts: the primary context of each device (retained and
 * released by reference count, as cuDevicePrimaryCtxRetain/Release do), the
 * thread-local current context, and sticky errors.
 *
 * A kernel fault or trap poisons its context (CUDA's sticky errors): every
 * later operation in it fails with the same error until the primary
 * context is reset (cudaDeviceReset).
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(context);

static _Thread_local core_ctx *current_ctx;

core_ctx *core_ctx_current(void) { return current_ctx; }
void core_ctx_set_current(core_ctx *c) { current_ctx = c; }

bool core_check_ctx(const core_ctx *c) { return c && c->magic == CORE_MAGIC_CTX; }

static int ctx_create(core_device *d, core_ctx **out)
{
   core_ctx *c = mc_calloc(1, sizeof(*c));
   if (!c)
      return CORE_ERROR_OUT_OF_MEMORY;
   c->magic = CORE_MAGIC_CTX;
   c->dev = d;
   c->is_primary = true;
   c->flags = core_device_primary_flags(d);
   pthread_mutex_init(&c->lock, NULL);
   pthread_mutex_init(&c->streams_lock, NULL);
   core_printf_init(c);
   c->l2_fetch_granularity = 64;   /* NVIDIA's default (H200) */
   int r = core_mem_alloc_internal(d, sizeof(uint32_t), &c->status_word);
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
      pthread_mutex_destroy(&c->lock);
      free(c);
      return r;
   }
   *(volatile uint32_t *)(uintptr_t)c->status_word = 0;
   /* Every lock starts free; kernels leave them free (prelude/atom.metal). */
   memset((void *)(uintptr_t)c->atom_locks, 0, MC_ATOM_LOCKS * sizeof(uint32_t));
   c->id = core_ptds_ctx_born();
   *out = c;
   return CORE_SUCCESS;
}

static void ctx_destroy(core_ctx *c)
{
   core_ptds_ctx_gone(c->id);      /* exiting threads leave its streams alone now */
   core_streams_synchronize_all(c);
   while (c->modules)
      core_module_unload(c->modules);
   core_streams_destroy_all(c);
   core_stream_free_null(c->null_stream);
   core_events_destroy_all(c);      /* after the streams: no marker pending */
   core_printf_destroy(c);
   core_mem_free_internal(c->dev, c->status_word);
   core_mem_free_internal(c->dev, c->atom_locks);
   if (current_ctx == c)
      current_ctx = NULL;
   c->magic = CORE_MAGIC_DEAD;
   pthread_mutex_destroy(&c->streams_lock);
   pthread_mutex_destroy(&c->lock);
   free(c);
}

/* The primary context object exists from the first retain until a reset
 * or the last release; its handle stays the same across retains. */
int core_ctx_primary(core_device *d, core_ctx **out)
{
   pthread_mutex_t *lock = core_device_lock(d);
   pthread_mutex_lock(lock);
   core_ctx **slot = core_device_primary_slot(d);
   int r = CORE_SUCCESS;
   if (!*slot)
      r = ctx_create(d, slot);
   *out = *slot;
   pthread_mutex_unlock(lock);
   return r;
}

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
   int r = CORE_SUCCESS;
   if (!*slot || (*slot)->refcount <= 0)
      r = CORE_ERROR_INVALID_CONTEXT;
   else
      (*slot)->refcount--;
   /* NVIDIA keeps the primary context's resources until the last release;
    * we keep them until reset so handles stay valid across release/retain
    * pairs that programs make at exit. */
   pthread_mutex_unlock(lock);
   return r;
}

bool core_ctx_primary_active(core_device *d)
{
   core_ctx *c = *core_device_primary_slot(d);
   return c && c->refcount > 0;
}

int core_ctx_reset_primary(core_device *d)
{
   pthread_mutex_t *lock = core_device_lock(d);
   pthread_mutex_lock(lock);
   core_ctx **slot = core_device_primary_slot(d);
   core_ctx *c = *slot;
   *slot = NULL;
   pthread_mutex_unlock(lock);
   if (c)
      ctx_destroy(c);
   return CORE_SUCCESS;
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
