/*
 * mempool.c — the stream-ordered allocator's default pool (cuMemAllocAsync,
 * cuMemFreeAsync, cuDeviceGetDefaultMemPool).
 *
 * A pool hands out arena allocations marked CORE_MEM_FLAG_POOL and counts
 * them for the pool attributes.  Memory goes straight back to the arena
 * when freed (the arena is one buffer already reserved, so there is nothing
 * to keep cached: the release threshold is stored and reported, and
 * trimming has nothing to release).  Stream order of a free is the
 * caller's business: the driver waits for the stream before calling
 * core_mempool_free, so no later allocation reuses memory the stream may
 * still use.
 */
#include "core.h"

LOG_CHANNEL(memory);

#define MAX_POOL_DEVICES 64

struct core_mempool {
   uint32_t magic;
   core_device *dev;
   pthread_mutex_t lock;
   uint64_t release_threshold;
   uint64_t used, used_high;             /* bytes of live allocations */
   bool reuse_follow, reuse_opportunistic, reuse_internal;
};

static core_mempool pools[MAX_POOL_DEVICES];
static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;

core_mempool *core_mempool_default(core_device *d)
{
   int k = core_device_ordinal(d);
   if (k < 0 || k >= MAX_POOL_DEVICES)
      return NULL;
   core_mempool *p = &pools[k];
   pthread_mutex_lock(&pools_lock);
   if (p->magic != CORE_MAGIC_MEMPOOL) {
      p->dev = d;
      pthread_mutex_init(&p->lock, NULL);
      /* CUDA's defaults: reuse allowed in all three ways */
      p->reuse_follow = p->reuse_opportunistic = p->reuse_internal = true;
      p->magic = CORE_MAGIC_MEMPOOL;
   }
   pthread_mutex_unlock(&pools_lock);
   return p;
}

bool core_check_mempool(const core_mempool *p) { return p && p->magic == CORE_MAGIC_MEMPOOL; }
core_device *core_mempool_device(const core_mempool *p) { return p->dev; }

int core_mempool_alloc(core_mempool *p, size_t size, uint64_t *out)
{
   int r = core_mem_alloc_kind(p->dev, size, CORE_MEM_DEVICE, CORE_MEM_FLAG_POOL, out);
   if (r != CORE_SUCCESS)
      return r;
   pthread_mutex_lock(&p->lock);
   p->used += size;
   if (p->used > p->used_high)
      p->used_high = p->used;
   pthread_mutex_unlock(&p->lock);
   return CORE_SUCCESS;
}

int core_mempool_free(core_mempool *p, uint64_t ptr)
{
   uint64_t base, size;
   uint32_t flags;
   if (!core_mem_query(p->dev, ptr, 1, &base, &size, NULL, &flags) || base != ptr || !(flags & CORE_MEM_FLAG_POOL))
      return CORE_ERROR_INVALID_VALUE;
   int r = core_mem_free(p->dev, ptr);
   if (r != CORE_SUCCESS)
      return r;
   pthread_mutex_lock(&p->lock);
   p->used -= size;
   pthread_mutex_unlock(&p->lock);
   return CORE_SUCCESS;
}

int core_mempool_get(core_mempool *p, int attr, uint64_t *value)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&p->lock);
   switch (attr) {
   case CORE_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES: *value = p->reuse_follow; break;
   case CORE_POOL_REUSE_ALLOW_OPPORTUNISTIC: *value = p->reuse_opportunistic; break;
   case CORE_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES: *value = p->reuse_internal; break;
   case CORE_POOL_RELEASE_THRESHOLD: *value = p->release_threshold; break;
   /* nothing is kept reserved beyond what is in use (see above) */
   case CORE_POOL_RESERVED_MEM_CURRENT:
   case CORE_POOL_USED_MEM_CURRENT: *value = p->used; break;
   case CORE_POOL_RESERVED_MEM_HIGH:
   case CORE_POOL_USED_MEM_HIGH: *value = p->used_high; break;
   default: r = CORE_ERROR_INVALID_VALUE; break;
   }
   pthread_mutex_unlock(&p->lock);
   return r;
}

int core_mempool_set(core_mempool *p, int attr, uint64_t value)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&p->lock);
   switch (attr) {
   case CORE_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES: p->reuse_follow = value != 0; break;
   case CORE_POOL_REUSE_ALLOW_OPPORTUNISTIC: p->reuse_opportunistic = value != 0; break;
   case CORE_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES: p->reuse_internal = value != 0; break;
   case CORE_POOL_RELEASE_THRESHOLD: p->release_threshold = value; break;
   /* the high-water marks can only be reset to zero (to the current use) */
   case CORE_POOL_RESERVED_MEM_HIGH:
   case CORE_POOL_USED_MEM_HIGH:
      if (value != 0)
         r = CORE_ERROR_INVALID_VALUE;
      else
         p->used_high = p->used;
      break;
   default: r = CORE_ERROR_INVALID_VALUE; break;
   }
   pthread_mutex_unlock(&p->lock);
   return r;
}
