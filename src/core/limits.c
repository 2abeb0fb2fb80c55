/*
 * limits.c — a context's limits (cuCtxSetLimit/GetLimit), flags
 * (cuCtxSetFlags) and cache preference (cuCtxSetCacheConfig).
 *
 * Each limit is answered with what is true of this runtime (values that
 * match NVIDIA's were observed on an H200, driver 580, CUDA 13.0):
 *
 *   stack size          accepted and read back rounded up to 16 bytes, as
 *                       NVIDIA does; every kernel's local memory is sized
 *                       from its PTX, so any stack suffices;
 *   printf FIFO size    printf.c (fixed once a kernel has printed);
 *   malloc heap size    the device heap (core_ctx_heap): 8 MB unless set,
 *                       as CUDA's; settable until a kernel that uses
 *                       malloc or free has been launched in the context,
 *                       after that CORE_ERROR_INVALID_VALUE (CUDA's
 *                       documented answer).  Read back as set: the heap
 *                       keeps its header and metadata inside it;
 *   dev runtime sync depth
 *                       CUDA 12's device runtime cannot wait for children:
 *                       CORE_ERROR_UNSUPPORTED_LIMIT both ways (what an
 *                       H200 answers);
 *   dev runtime pending launch count
 *                       the records of a module's device-side launch queue
 *                       (devrt.c): 2048 unless set, as CUDA's; at least 1;
 *   max L2 fetch granularity
 *                       a hint CUDA documents as such (0 to 128 bytes):
 *                       kept and read back, no effect on Metal;
 *   persisting L2 cache size
 *                       the device has no persisting L2 (its attribute
 *                       MAX_PERSISTING_L2_CACHE_SIZE is 0): reads 0,
 *                       setting 0 is accepted, more is unsupported;
 *   shared memory size, CIG enabled, CIG shared memory fallback
 *                       read-only here: the per-block shared memory, 0
 *                       (no CUDA-in-graphics contexts) and 0; setting
 *                       one is CORE_ERROR_NOT_PERMITTED, as NVIDIA's
 *                       driver answers for the shared memory size.
 */
#include "core.h"

#include <stdint.h>
#include <string.h>

LOG_CHANNEL(context);

static int limit_unsupported(const char *what)
{
   LOG_WARN("%s: not supported by this device", what);
   return CORE_ERROR_UNSUPPORTED_LIMIT;
}

static int set_locked(core_ctx *c, int limit, size_t value)
{
   switch (limit) {
   case CORE_LIMIT_STACK_SIZE:
      if (value > SIZE_MAX - 15)
         return CORE_ERROR_INVALID_VALUE;   /* cannot be rounded up */
      c->stack_limit = ALIGN_UP(value, 16);
      return CORE_SUCCESS;
   case CORE_LIMIT_MALLOC_HEAP_SIZE:
      if (c->heap) {
         LOG_WARN("cudaLimitMallocHeapSize: a kernel that uses malloc has run in this context; its heap stays");
         return CORE_ERROR_INVALID_VALUE;
      }
      c->heap_size = value;
      return CORE_SUCCESS;
   case CORE_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
      return limit_unsupported("cudaLimitDevRuntimeSyncDepth: CUDA 12's device runtime has no device-side wait");
   case CORE_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
      if (value < 1 || value > UINT32_MAX / 8192)
         return CORE_ERROR_INVALID_VALUE;
      c->devrt_pending = (uint32_t)value;
      return CORE_SUCCESS;
   case CORE_LIMIT_MAX_L2_FETCH_GRANULARITY:
      if (value > 128)
         return CORE_ERROR_INVALID_VALUE;
      c->l2_fetch_granularity = value;
      return CORE_SUCCESS;
   case CORE_LIMIT_PERSISTING_L2_CACHE_SIZE:
      return value ? limit_unsupported("cudaLimitPersistingL2CacheSize: a persisting L2 cache") : CORE_SUCCESS;
   case CORE_LIMIT_SHMEM_SIZE:
   case CORE_LIMIT_CIG_ENABLED:
   case CORE_LIMIT_CIG_SHMEM_FALLBACK_ENABLED:
      return CORE_ERROR_NOT_PERMITTED;
   default:
      return CORE_ERROR_INVALID_VALUE;
   }
}

static int get_locked(core_ctx *c, int limit, size_t *value)
{
   core_sm_model m;
   switch (limit) {
   case CORE_LIMIT_STACK_SIZE: *value = c->stack_limit; return CORE_SUCCESS;
   case CORE_LIMIT_MALLOC_HEAP_SIZE: *value = c->heap_size; return CORE_SUCCESS;
   case CORE_LIMIT_PERSISTING_L2_CACHE_SIZE:
   case CORE_LIMIT_CIG_ENABLED:
   case CORE_LIMIT_CIG_SHMEM_FALLBACK_ENABLED: *value = 0; return CORE_SUCCESS;
   case CORE_LIMIT_DEV_RUNTIME_SYNC_DEPTH: return CORE_ERROR_UNSUPPORTED_LIMIT;
   case CORE_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *value = c->devrt_pending; return CORE_SUCCESS;
   case CORE_LIMIT_MAX_L2_FETCH_GRANULARITY: *value = c->l2_fetch_granularity; return CORE_SUCCESS;
   case CORE_LIMIT_SHMEM_SIZE:
      core_device_sm_model(c->dev, &m);
      *value = m.shared_per_block_optin;
      return CORE_SUCCESS;
   default: return CORE_ERROR_INVALID_VALUE;
   }
}

int core_ctx_set_limit(core_ctx *c, int limit, size_t value)
{
   if (limit == CORE_LIMIT_PRINTF_FIFO_SIZE)
      return core_printf_set_fifo_size(c, value);
   pthread_mutex_lock(&c->printf_lock);
   int r = set_locked(c, limit, value);
   pthread_mutex_unlock(&c->printf_lock);
   return r;
}

int core_ctx_get_limit(core_ctx *c, int limit, size_t *value)
{
   if (limit == CORE_LIMIT_PRINTF_FIFO_SIZE) {
      *value = core_printf_fifo_size(c);
      return CORE_SUCCESS;
   }
   pthread_mutex_lock(&c->printf_lock);
   int r = get_locked(c, limit, value);
   pthread_mutex_unlock(&c->printf_lock);
   return r;
}

int core_ctx_heap(core_ctx *c, uint64_t *heap, uint64_t *size)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&c->printf_lock);
   if (!c->heap && c->heap_size) {
      r = core_mem_alloc_internal(c->dev, c->heap_size, &c->heap);
      if (r == CORE_SUCCESS)
         memset((void *)(uintptr_t)c->heap, 0, c->heap_size);   /* every class and bit free */
      else
         LOG_ERR("cannot make the device heap of %zu bytes (cudaLimitMallocHeapSize)", c->heap_size);
   }
   *heap = c->heap;
   *size = c->heap_size;
   pthread_mutex_unlock(&c->printf_lock);
   return r;
}

/* The flags CUDA defines (cuda.h's CUctx_flags).  Scheduling (spin, yield,
 * blocking sync) chooses how a waiting host thread waits: every choice
 * waits for the same work, so any is honoured by our waits.
 * LMEM_RESIZE_TO_MAX keeps local memory between launches: ours is sized per
 * kernel and never shrinks.  SYNC_MEMOPS makes synchronous copies
 * synchronise: ours are (core_memcpy).  MAP_HOST is always on (CUDA 11+).
 * Coredumps are not produced here: refused. */
enum {
   CTX_SCHED_MASK = 0x07,
   CTX_COREDUMP = 0x20 | 0x40,
   CTX_FLAGS_MASK = 0xff,
};

int core_ctx_check_flags(unsigned flags)
{
   unsigned sched = flags & CTX_SCHED_MASK;
   if ((flags & ~(unsigned)CTX_FLAGS_MASK) || (sched != 0 && sched != 1 && sched != 2 && sched != 4))
      return CORE_ERROR_INVALID_VALUE;
   if (flags & CTX_COREDUMP) {
      LOG_WARN("context flags %#x: coredumps are not supported", flags);
      return CORE_ERROR_NOT_SUPPORTED;
   }
   return CORE_SUCCESS;
}

int core_ctx_set_flags(core_ctx *c, unsigned flags)
{
   int r = core_ctx_check_flags(flags);
   if (r != CORE_SUCCESS)
      return r;
   if (c->is_primary)
      core_device_set_primary_flags(c->dev, flags);
   else
      __atomic_store_n(&c->flags, flags, __ATOMIC_RELEASE);
   return CORE_SUCCESS;
}

/* A preference between L1 and shared memory, which CUDA may ignore (it
 * does on devices whose shared memory size is fixed, as Metal's is). */
int core_ctx_set_cache_config(core_ctx *c, int config)
{
   if (config < 0 || config > 3)
      return CORE_ERROR_INVALID_VALUE;
   __atomic_store_n(&c->cache_config, config, __ATOMIC_RELEASE);
   return CORE_SUCCESS;
}
