/*
 * mempool.c — the stream-ordered allocator's pools: each device's default
 * pool (cuDeviceGetDefaultMemPool), pools the program creates
 * (cuMemPoolCreate), and the one cuMemAllocAsync takes from
 * (cuDeviceSetMemPool).
 *
 * A pool hands out arena allocations marked CORE_MEM_FLAG_POOL and counts
 * them for the pool attributes; which pool made an allocation is kept by
 * address, so that a free returns it to that pool.  Memory goes straight
 * back to the arena when freed (the arena is one buffer already reserved,
 * so there is nothing to keep cached: the release threshold is stored and
 * reported, and trimming has nothing to release).  Stream order of a free
 * is the caller's business: the driver waits for the stream before calling
 * core_mempool_free, so no later allocation reuses memory the stream may
 * still use.  A destroyed pool with allocations outstanding lives on,
 * unusable, until the last of them is freed (CUDA's rule).
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(memory);

#define MAX_POOL_DEVICES 64

struct core_mempool {
   uint32_t magic;
   core_device *dev;
   pthread_mutex_t lock;
   uint64_t release_threshold;
   uint64_t used, used_high;             /* bytes of live allocations */
   uint64_t max_size;                    /* 0: no limit */
   bool reuse_follow, reuse_opportunistic, reuse_internal;
   bool is_default, dead;
   size_t props_size;
   uint8_t props[CORE_POOL_PROPS_MAX];
};

static core_mempool pools[MAX_POOL_DEVICES];
static core_mempool *current[MAX_POOL_DEVICES];   /* NULL: the default */
static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static arena owners_arena;
static u64map owners;                              /* allocation -> pool */
static bool owners_ready;

static void pool_init(core_mempool *p, core_device *d)
{
   p->dev = d;
   pthread_mutex_init(&p->lock, NULL);
   /* CUDA's defaults: reuse allowed in all three ways */
   p->reuse_follow = p->reuse_opportunistic = p->reuse_internal = true;
   p->magic = CORE_MAGIC_MEMPOOL;
}

core_mempool *core_mempool_default(core_device *d)
{
   int k = core_device_ordinal(d);
   if (k < 0 || k >= MAX_POOL_DEVICES)
      return NULL;
   core_mempool *p = &pools[k];
   pthread_mutex_lock(&pools_lock);
   if (p->magic != CORE_MAGIC_MEMPOOL) {
      pool_init(p, d);
      p->is_default = true;
   }
   pthread_mutex_unlock(&pools_lock);
   return p;
}

int core_mempool_create(core_device *d, uint64_t max_size, const void *props, size_t props_size, core_mempool **out)
{
   if (props_size > CORE_POOL_PROPS_MAX || core_device_ordinal(d) >= MAX_POOL_DEVICES)
      return CORE_ERROR_INVALID_VALUE;
   core_mempool *p = mc_calloc(1, sizeof(*p));
   if (!p)
      return CORE_ERROR_OUT_OF_MEMORY;
   pool_init(p, d);
   p->max_size = max_size;
   memcpy(p->props, props, props_size);
   p->props_size = props_size;
   *out = p;
   return CORE_SUCCESS;
}

/* Frees a destroyed pool (pools_lock held). */
static void pool_release(core_mempool *p)
{
   p->magic = CORE_MAGIC_DEAD;
   pthread_mutex_destroy(&p->lock);
   free(p);
}

int core_mempool_destroy(core_mempool *p)
{
   if (p->is_default)
      return CORE_ERROR_INVALID_VALUE;
   pthread_mutex_lock(&pools_lock);
   int k = core_device_ordinal(p->dev);
   if (current[k] == p)
      current[k] = NULL;
   pthread_mutex_lock(&p->lock);
   bool in_use = p->used != 0;
   p->dead = true;
   pthread_mutex_unlock(&p->lock);
   if (!in_use)
      pool_release(p);
   pthread_mutex_unlock(&pools_lock);
   return CORE_SUCCESS;
}

core_mempool *core_mempool_current(core_device *d)
{
   int k = core_device_ordinal(d);
   pthread_mutex_lock(&pools_lock);
   core_mempool *p = k >= 0 && k < MAX_POOL_DEVICES ? current[k] : NULL;
   pthread_mutex_unlock(&pools_lock);
   return p ? p : core_mempool_default(d);
}

void core_mempool_set_current(core_device *d, core_mempool *p)
{
   int k = core_device_ordinal(d);
   pthread_mutex_lock(&pools_lock);
   current[k] = p->is_default ? NULL : p;
   pthread_mutex_unlock(&pools_lock);
}

bool core_mempool_is_default(const core_mempool *p) { return p->is_default; }

const void *core_mempool_props(const core_mempool *p, size_t *size)
{
   *size = p->props_size;
   return p->props_size ? p->props : NULL;
}

bool core_check_mempool(const core_mempool *p)
{
   return p && p->magic == CORE_MAGIC_MEMPOOL && !p->dead;
}
core_device *core_mempool_device(const core_mempool *p) { return p->dev; }

int core_mempool_alloc(core_mempool *p, size_t size, uint64_t *out)
{
   pthread_mutex_lock(&p->lock);
   bool over = p->max_size && (size > p->max_size || p->used > p->max_size - size);
   pthread_mutex_unlock(&p->lock);
   if (over)
      return CORE_ERROR_OUT_OF_MEMORY;   /* the pool's maxSize */
   int r = core_mem_alloc_kind(p->dev, size, CORE_MEM_DEVICE, CORE_MEM_FLAG_POOL, out);
   if (r != CORE_SUCCESS)
      return r;
   pthread_mutex_lock(&pools_lock);
   if (!owners_ready) {
      arena_init(&owners_arena, 4096);
      u64map_init(&owners, &owners_arena);
      owners_ready = true;
   }
   void **slot = u64map_slot(&owners, *out, true);
   if (slot)
      *slot = p;
   pthread_mutex_unlock(&pools_lock);
   if (!slot) {
      core_mem_free(p->dev, *out);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   pthread_mutex_lock(&p->lock);
   p->used += size;
   if (p->used > p->used_high)
      p->used_high = p->used;
   pthread_mutex_unlock(&p->lock);
   return CORE_SUCCESS;
}

core_mempool *core_mempool_owner(core_device *d, uint64_t ptr)
{
   uint64_t base;
   uint32_t flags;
   if (!core_mem_query(d, ptr, 1, &base, NULL, NULL, &flags) || !(flags & CORE_MEM_FLAG_POOL))
      return NULL;
   pthread_mutex_lock(&pools_lock);
   void **slot = owners_ready ? u64map_slot(&owners, base, false) : NULL;
   core_mempool *p = slot ? *slot : NULL;
   pthread_mutex_unlock(&pools_lock);
   return p;
}

int core_mempool_free(core_device *d, uint64_t ptr)
{
   uint64_t base, size;
   uint32_t flags;
   if (!core_mem_query(d, ptr, 1, &base, &size, NULL, &flags) || base != ptr || !(flags & CORE_MEM_FLAG_POOL))
      return CORE_ERROR_INVALID_VALUE;
   pthread_mutex_lock(&pools_lock);
   void **slot = owners_ready ? u64map_slot(&owners, ptr, false) : NULL;
   core_mempool *p = slot ? *slot : NULL;
   if (slot)
      *slot = NULL;
   pthread_mutex_unlock(&pools_lock);
   if (!p)
      return CORE_ERROR_INVALID_VALUE;
   int r = core_mem_free(d, ptr);
   if (r != CORE_SUCCESS)
      return r;
   pthread_mutex_lock(&pools_lock);
   pthread_mutex_lock(&p->lock);
   p->used -= size;
   bool gone = p->dead && p->used == 0;
   pthread_mutex_unlock(&p->lock);
   if (gone)
      pool_release(p);
   pthread_mutex_unlock(&pools_lock);
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
