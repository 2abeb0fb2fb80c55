/*
 * mempool.c — the stream-ordered allocator's pools: each device's default
 * pool, pools made by cuMemPoolCreate, the device's current pool
 * (cuDeviceSetMemPool), and which pool each allocation came from.
 *
 * A pool hands out arena allocations marked CORE_MEM_FLAG_POOL, remembers
 * them (a sorted list per pool: frees and pointer queries find the owner)
 * and counts them for the pool attributes.  Memory goes straight back to
 * the arena when freed (the arena is one buffer already reserved, so there
 * is nothing to keep cached: the release threshold is stored and reported,
 * and trimming has nothing to release).  Stream order of a free is the
 * caller's business: the driver waits for the stream before calling
 * core_mempool_free, so no later allocation reuses memory the stream may
 * still use.
 *
 * A destroyed pool with allocations outstanding stops being a valid handle
 * at once but lives on, unlisted as a handle, until its last allocation is
 * freed (CUDA's rule).  One lock guards every pool: they are few, and the
 * calls short.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(memory);

#define MAX_POOL_DEVICES 64

typedef struct pool_alloc {
   uint64_t base, size;
} pool_alloc;

struct core_mempool {
   uint32_t magic;
   core_device *dev;
   bool is_default;
   bool destroyed;                       /* by cuMemPoolDestroy, allocations still out */
   uint64_t max_size;                    /* 0: as large as the arena */
   uint64_t release_threshold;
   uint64_t used, used_high;             /* bytes of live allocations */
   bool reuse_follow, reuse_opportunistic, reuse_internal;
   pool_alloc *live;                     /* sorted by base */
   uint32_t nlive, cap;
   core_mempool *next;                   /* created pools, destroyed ones included */
};

static core_mempool defaults[MAX_POOL_DEVICES];
static core_mempool *current[MAX_POOL_DEVICES];   /* NULL: the default */
static core_mempool *created;
static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;

static void pool_init(core_mempool *p, core_device *d)
{
   p->dev = d;
   /* CUDA's defaults: reuse allowed in all three ways */
   p->reuse_follow = p->reuse_opportunistic = p->reuse_internal = true;
   p->magic = CORE_MAGIC_MEMPOOL;
}

core_mempool *core_mempool_default(core_device *d)
{
   int k = core_device_ordinal(d);
   if (k < 0 || k >= MAX_POOL_DEVICES)
      return NULL;
   core_mempool *p = &defaults[k];
   pthread_mutex_lock(&pools_lock);
   if (p->magic != CORE_MAGIC_MEMPOOL) {
      pool_init(p, d);
      p->is_default = true;
   }
   pthread_mutex_unlock(&pools_lock);
   return p;
}

/* Under pools_lock: p is a live handle (never dereferenced before it is
 * found among the pools, so a destroyed or foreign pointer is safe). */
static bool pool_valid(const core_mempool *p)
{
   if (!p)
      return false;
   for (int k = 0; k < MAX_POOL_DEVICES; k++)
      if (p == &defaults[k])
         return p->magic == CORE_MAGIC_MEMPOOL;
   for (const core_mempool *q = created; q; q = q->next)
      if (q == p)
         return !q->destroyed;
   return false;
}

bool core_check_mempool(const core_mempool *p)
{
   pthread_mutex_lock(&pools_lock);
   bool ok = pool_valid(p);
   pthread_mutex_unlock(&pools_lock);
   return ok;
}

core_device *core_mempool_device(const core_mempool *p) { return p->dev; }
bool core_mempool_is_default(const core_mempool *p) { return p->is_default; }

int core_mempool_create(core_device *d, uint64_t max_size, core_mempool **out)
{
   if (core_device_ordinal(d) < 0 || core_device_ordinal(d) >= MAX_POOL_DEVICES)
      return CORE_ERROR_INVALID_VALUE;
   core_mempool *p = calloc(1, sizeof(*p));
   if (!p)
      return CORE_ERROR_OUT_OF_MEMORY;
   pool_init(p, d);
   p->max_size = max_size;
   pthread_mutex_lock(&pools_lock);
   p->next = created;
   created = p;
   pthread_mutex_unlock(&pools_lock);
   *out = p;
   return CORE_SUCCESS;
}

/* Under pools_lock: unlink and free a created pool. */
static void pool_release(core_mempool *p)
{
   for (core_mempool **q = &created; *q; q = &(*q)->next)
      if (*q == p) {
         *q = p->next;
         break;
      }
   p->magic = 0;
   free(p->live);
   free(p);
}

int core_mempool_destroy(core_mempool *p)
{
   pthread_mutex_lock(&pools_lock);
   int r = CORE_SUCCESS;
   if (!pool_valid(p) || p->is_default) {   /* a default pool cannot be destroyed */
      r = CORE_ERROR_INVALID_VALUE;
   } else {
      int k = core_device_ordinal(p->dev);
      if (current[k] == p)   /* the default becomes current again */
         current[k] = NULL;
      p->destroyed = true;
      if (!p->nlive)
         pool_release(p);
      else
         LOG_INFO("pool %p destroyed with %u allocations out: freed with the last", (void *)p, p->nlive);
   }
   pthread_mutex_unlock(&pools_lock);
   return r;
}

core_mempool *core_mempool_current(core_device *d)
{
   int k = core_device_ordinal(d);
   if (k < 0 || k >= MAX_POOL_DEVICES)
      return NULL;
   pthread_mutex_lock(&pools_lock);
   core_mempool *p = current[k];
   pthread_mutex_unlock(&pools_lock);
   return p ? p : core_mempool_default(d);
}

int core_mempool_set_current(core_device *d, core_mempool *p)
{
   int k = core_device_ordinal(d);
   pthread_mutex_lock(&pools_lock);
   int r = CORE_SUCCESS;
   if (k < 0 || k >= MAX_POOL_DEVICES || !pool_valid(p) || p->dev != d)   /* local to the device */
      r = CORE_ERROR_INVALID_VALUE;
   else
      current[k] = p->is_default ? NULL : p;
   pthread_mutex_unlock(&pools_lock);
   return r;
}

/* Under pools_lock: the index of the first live allocation at or above base. */
static uint32_t live_lower(const core_mempool *p, uint64_t base)
{
   uint32_t lo = 0, hi = p->nlive;
   while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (p->live[mid].base < base)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

static bool live_add(core_mempool *p, uint64_t base, uint64_t size)
{
   if (p->nlive == p->cap) {
      uint32_t cap = p->cap ? 2 * p->cap : 16;
      pool_alloc *v = realloc(p->live, cap * sizeof(*v));
      if (!v)
         return false;
      p->live = v;
      p->cap = cap;
   }
   uint32_t at = live_lower(p, base);
   memmove(&p->live[at + 1], &p->live[at], (p->nlive - at) * sizeof(*p->live));
   p->live[at] = (pool_alloc){ base, size };
   p->nlive++;
   return true;
}

int core_mempool_alloc(core_mempool *p, size_t size, uint64_t *out)
{
   pthread_mutex_lock(&pools_lock);
   int r = CORE_ERROR_OUT_OF_MEMORY;
   uint64_t ptr;
   /* a pool's maxSize bounds what it holds (cuMemPoolCreate) */
   if (p->max_size && (size > p->max_size || p->used > p->max_size - size))
      goto out;
   r = core_mem_alloc_kind(p->dev, size, CORE_MEM_DEVICE, CORE_MEM_FLAG_POOL, &ptr);
   if (r != CORE_SUCCESS)
      goto out;
   if (!live_add(p, ptr, size)) {
      core_mem_free(p->dev, ptr);
      r = CORE_ERROR_OUT_OF_MEMORY;
      goto out;
   }
   p->used += size;
   if (p->used > p->used_high)
      p->used_high = p->used;
   *out = ptr;
out:
   pthread_mutex_unlock(&pools_lock);
   return r;
}

/* Under pools_lock: the pool of d (destroyed ones included) one of whose
 * allocations starts at ptr, and its index there. */
static bool pool_has(core_mempool *p, core_device *d, uint64_t ptr, uint32_t *index)
{
   if (p->magic != CORE_MAGIC_MEMPOOL || p->dev != d)
      return false;
   uint32_t at = live_lower(p, ptr);
   *index = at;
   return at < p->nlive && p->live[at].base == ptr;
}

static core_mempool *owner_of(core_device *d, uint64_t ptr, uint32_t *index)
{
   int k = core_device_ordinal(d);
   if (k >= 0 && k < MAX_POOL_DEVICES && pool_has(&defaults[k], d, ptr, index))
      return &defaults[k];
   for (core_mempool *p = created; p; p = p->next)
      if (pool_has(p, d, ptr, index))
         return p;
   return NULL;
}

core_mempool *core_mempool_of(core_device *d, uint64_t ptr)
{
   uint64_t base;
   if (!core_mem_query(d, ptr, 1, &base, NULL, NULL, NULL))
      return NULL;
   pthread_mutex_lock(&pools_lock);
   uint32_t at;
   core_mempool *p = owner_of(d, base, &at);
   pthread_mutex_unlock(&pools_lock);
   return p;
}

int core_mempool_free(core_device *d, uint64_t ptr)
{
   pthread_mutex_lock(&pools_lock);
   uint32_t at;
   core_mempool *p = owner_of(d, ptr, &at);
   int r = p ? core_mem_free(d, ptr) : CORE_ERROR_INVALID_VALUE;
   if (r == CORE_SUCCESS) {
      p->used -= p->live[at].size;
      memmove(&p->live[at], &p->live[at + 1], (p->nlive - at - 1) * sizeof(*p->live));
      p->nlive--;
      if (p->destroyed && !p->nlive)   /* its last allocation: the pool goes too */
         pool_release(p);
   }
   pthread_mutex_unlock(&pools_lock);
   return r;
}

int core_mempool_get(core_mempool *p, int attr, uint64_t *value)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&pools_lock);
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
   pthread_mutex_unlock(&pools_lock);
   return r;
}

int core_mempool_set(core_mempool *p, int attr, uint64_t value)
{
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&pools_lock);
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
   pthread_mutex_unlock(&pools_lock);
   return r;
}
