/*
 * arena.c — device memory: one Metal buffer per device, sub-allocated.
 *
 * ARCHITECTURE §3: a CUDA device pointer is the CPU address of the byte, so
 * host code, managed memory and pointer queries work directly; kernels turn
 * it into a GPU address by adding the arena's delta (gpu_address -
 * contents), which is never zero (the software device maps the buffer
 * twice), so a translator that forgets it fails.
 *
 * The allocator keeps two address-sorted arrays: live allocations with the
 * size asked for (binary
 * search answers "which allocation holds this pointer") and free ranges
 * (first fit, coalesced on free).  Every allocation is 256-byte aligned, as
 * cudaMalloc guarantees.  Operations are O(n) in the number of ranges,
 * which is fine for the thousands of allocations programs make.
 *
 * Validation (METALCUDA_VALIDATE=1, devices that can protect pages: the
 * software one): the arena's GPU view is inaccessible except the pages of
 * live allocations; each allocation ends where its last page ends (256-byte
 * rounding aside) and is followed by at least one inaccessible page, and a
 * freed one stays inaccessible and is never handed out again.  A kernel
 * that reads or writes outside every live allocation therefore faults, and
 * core_mem_describe says where the address lies.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

LOG_CHANNEL(memory);

#define ARENA_ALIGN 256u

typedef struct range {
   uint64_t base, size;
   uint32_t kind;             /* live allocations: CORE_MEM_* (pointer queries, which free fits) */
   uint32_t flags;            /* live allocations: the flags it was made with */
} range;

typedef struct range_vec {
   range *v;
   uint32_t n, cap;
} range_vec;

struct core_arena {
   pthread_mutex_t lock;
   mtl_buffer *buf;
   uint64_t base, size;       /* CPU (CUDA) address range */
   uint64_t delta;
   uint64_t in_use;
   range_vec live, free_list;
   bool validate;             /* page-guarded allocations (see above) */
   uint64_t page;
   range_vec freed;           /* validation: freed allocations, never reused */
};

static bool rv_insert(range_vec *rv, uint32_t at, range r)
{
   if (rv->n == rv->cap) {
      uint32_t ncap = rv->cap ? rv->cap * 2 : 64;
      range *nv = mc_realloc(rv->v, ncap * sizeof(*nv));
      if (!nv)
         return false;
      rv->v = nv;
      rv->cap = ncap;
   }
   memmove(&rv->v[at + 1], &rv->v[at], (rv->n - at) * sizeof(range));
   rv->v[at] = r;
   rv->n++;
   return true;
}

static void rv_remove(range_vec *rv, uint32_t at)
{
   memmove(&rv->v[at], &rv->v[at + 1], (rv->n - at - 1) * sizeof(range));
   rv->n--;
}

/* First index whose base is > addr. */
static uint32_t rv_upper(const range_vec *rv, uint64_t addr)
{
   uint32_t lo = 0, hi = rv->n;
   while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (rv->v[mid].base <= addr)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

static uint64_t arena_size_for(const mtl_device_info *info)
{
   uint64_t size = info->recommended_working_set;
   if (info->max_buffer_length && size > info->max_buffer_length)
      size = info->max_buffer_length;
   const char *e = getenv("METALCUDA_ARENA_MB");
   if (e && atoll(e) > 0)
      size = (uint64_t)atoll(e) << 20;
   if (size < (64ull << 20))
      size = 64ull << 20;
   return size & ~(uint64_t)(ARENA_ALIGN - 1);
}

int core_arena_create(core_device *d, core_arena **out)
{
   core_arena *a = mc_calloc(1, sizeof(*a));
   if (!a)
      return CORE_ERROR_OUT_OF_MEMORY;
   char *err = NULL;
   uint64_t size = arena_size_for(core_device_info(d));
   a->buf = mtl_buffer_new(core_device_mtl(d), size, &err);
   if (!a->buf) {
      LOG_ERR("cannot create the device memory arena (%llu MB): %s", (unsigned long long)(size >> 20),
              err ? err : "unknown error");
      free(err);
      free(a);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   a->base = (uint64_t)(uintptr_t)mtl_buffer_contents(a->buf);
   a->size = size;
   a->delta = mtl_buffer_gpu_address(a->buf) - a->base;
   pthread_mutex_init(&a->lock, NULL);
   range all = { a->base, size, 0, 0 };
   if (!rv_insert(&a->free_list, 0, all)) {
      core_arena_destroy(a);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   const char *v = getenv("METALCUDA_VALIDATE");
   if (v && *v && strcmp(v, "0") != 0) {
      a->page = (uint64_t)sysconf(_SC_PAGESIZE);
      a->validate = mtl_buffer_set_gpu_access(a->buf, 0, size & ~(a->page - 1), false);
      if (!a->validate)
         LOG_WARN("METALCUDA_VALIDATE: this device cannot protect memory; accesses are not checked");
   }
   LOG_INFO("arena: %llu MB at %#llx, GPU delta %#llx", (unsigned long long)(size >> 20),
            (unsigned long long)a->base, (unsigned long long)a->delta);
   *out = a;
   return CORE_SUCCESS;
}

void core_arena_destroy(core_arena *a)
{
   if (!a)
      return;
   if (a->buf)
      mtl_buffer_release(a->buf);
   free(a->live.v);
   free(a->free_list.v);
   free(a->freed.v);
   pthread_mutex_destroy(&a->lock);
   free(a);
}

int core_mem_alloc(core_device *d, size_t size, uint64_t *out)
{
   return core_mem_alloc_kind(d, size, CORE_MEM_DEVICE, 0, out);
}

int core_mem_alloc_kind(core_device *d, size_t size, uint32_t kind, uint32_t flags, uint64_t *out)
{
   core_arena *a = core_device_arena(d);
   if (!a)
      return CORE_ERROR_OUT_OF_MEMORY;
   if (size == 0 || size > a->size || fault_hit())
      return CORE_ERROR_OUT_OF_MEMORY;
   uint64_t need = ALIGN_UP(size, ARENA_ALIGN);
   /* validation: whole pages, then an inaccessible one */
   uint64_t data = a->validate ? ALIGN_UP(need, a->page) : need;
   uint64_t block = a->validate ? data + a->page : need;
   int r = CORE_ERROR_OUT_OF_MEMORY;
   pthread_mutex_lock(&a->lock);
   for (uint32_t k = 0; k < a->free_list.n; k++) {
      range *f = &a->free_list.v[k];
      if (f->size < block || (a->validate && f->base % a->page))
         continue;
      /* the size asked for (cuMemGetAddressRange); validation: ending at
       * its last page's end */
      range got = { f->base + (data - need), size, kind, flags };
      if (a->validate &&
          !mtl_buffer_set_gpu_access(a->buf, f->base - a->base, data, true))
         break;
      uint32_t at = rv_upper(&a->live, got.base);
      if (!rv_insert(&a->live, at, got))
         break;
      f->base += block;
      f->size -= block;
      if (!f->size)
         rv_remove(&a->free_list, k);
      a->in_use += block;
      *out = got.base;
      r = CORE_SUCCESS;
      break;
   }
   pthread_mutex_unlock(&a->lock);
   return r;
}

int core_mem_alloc_internal(core_device *d, size_t size, uint64_t *out)
{
   return core_mem_alloc_kind(d, size, CORE_MEM_DEVICE, CORE_MEM_FLAG_INTERNAL, out);
}

int core_mem_free(core_device *d, uint64_t ptr)
{
   return core_mem_free_kind(d, ptr, CORE_MEM_KIND_ANY);
}

static int mem_free(core_device *d, uint64_t ptr, uint32_t kinds, bool internal);

int core_mem_free_kind(core_device *d, uint64_t ptr, uint32_t kinds) { return mem_free(d, ptr, kinds, false); }

int core_mem_free_internal(core_device *d, uint64_t ptr) { return mem_free(d, ptr, CORE_MEM_KIND_ANY, true); }

static int mem_free(core_device *d, uint64_t ptr, uint32_t kinds, bool internal)
{
   core_arena *a = core_device_arena(d);
   if (!a)
      return CORE_ERROR_INVALID_VALUE;
   pthread_mutex_lock(&a->lock);
   uint32_t at = rv_upper(&a->live, ptr);
   const range *hit = at ? &a->live.v[at - 1] : NULL;
   if (!hit || hit->base != ptr || !(kinds & (1u << hit->kind)) ||
       ((hit->flags & CORE_MEM_FLAG_INTERNAL) != 0) != internal) {
      pthread_mutex_unlock(&a->lock);
      return CORE_ERROR_INVALID_VALUE;
   }
   range r = a->live.v[at - 1];
   rv_remove(&a->live, at - 1);
   if (a->validate) {
      /* inaccessible for good: a later access is a use after free */
      uint64_t start = r.base & ~(a->page - 1);
      mtl_buffer_set_gpu_access(a->buf, start - a->base, ALIGN_UP(r.base + r.size, a->page) - start, false);
      a->in_use -= ALIGN_UP(ALIGN_UP(r.size, ARENA_ALIGN), a->page) + a->page;
      uint32_t fi = rv_upper(&a->freed, r.base);
      rv_insert(&a->freed, fi, r);
      pthread_mutex_unlock(&a->lock);
      return CORE_SUCCESS;
   }
   r.size = ALIGN_UP(r.size, ARENA_ALIGN);
   a->in_use -= r.size;
   /* Insert into the free list, merging with neighbours. */
   uint32_t fi = rv_upper(&a->free_list, r.base);
   bool merged = false;
   if (fi > 0) {
      range *prev = &a->free_list.v[fi - 1];
      if (prev->base + prev->size == r.base) {
         prev->size += r.size;
         merged = true;
         if (fi < a->free_list.n && prev->base + prev->size == a->free_list.v[fi].base) {
            prev->size += a->free_list.v[fi].size;
            rv_remove(&a->free_list, fi);
         }
      }
   }
   if (!merged && fi < a->free_list.n && r.base + r.size == a->free_list.v[fi].base) {
      a->free_list.v[fi].base = r.base;
      a->free_list.v[fi].size += r.size;
      merged = true;
   }
   int res = CORE_SUCCESS;
   if (!merged && !rv_insert(&a->free_list, fi, r))
      res = CORE_ERROR_OUT_OF_MEMORY;   /* the range is lost, not corrupted */
   pthread_mutex_unlock(&a->lock);
   return res;
}

bool core_mem_lookup(core_device *d, uint64_t ptr, uint64_t len, uint64_t *base, uint64_t *size)
{
   return core_mem_query(d, ptr, len, base, size, NULL, NULL);
}

bool core_mem_query(core_device *d, uint64_t ptr, uint64_t len, uint64_t *base, uint64_t *size, uint32_t *kind,
                    uint32_t *flags)
{
   core_arena *a = core_device_arena(d);
   if (!a)
      return false;
   pthread_mutex_lock(&a->lock);
   uint32_t at = rv_upper(&a->live, ptr);
   bool ok = false;
   if (at > 0) {
      range r = a->live.v[at - 1];
      if (ptr >= r.base && len <= r.size && ptr - r.base <= r.size - len) {
         ok = true;
         if (base)
            *base = r.base;
         if (size)
            *size = r.size;
         if (kind)
            *kind = r.kind;
         if (flags)
            *flags = r.flags;
      }
   }
   pthread_mutex_unlock(&a->lock);
   return ok;
}

/* Where address p lies relative to the allocations, for a fault report:
 * "N bytes after the end of the S-byte allocation at B", "inside the
 * S-byte allocation at B, freed", ... */
void core_mem_describe(core_device *d, uint64_t p, char *buf, size_t len)
{
   core_arena *a = core_device_arena(d);
   if (!a || p < a->base || p - a->base >= a->size) {
      snprintf(buf, len, "outside device memory");
      return;
   }
   pthread_mutex_lock(&a->lock);
   uint32_t fi = rv_upper(&a->freed, p);
   uint32_t li = rv_upper(&a->live, p);
   const range *fr = fi ? &a->freed.v[fi - 1] : NULL, *lr = li ? &a->live.v[li - 1] : NULL;
   const range *next = li < a->live.n ? &a->live.v[li] : NULL;
   if (fr && p < fr->base + fr->size && (!lr || lr->base < fr->base))
      snprintf(buf, len, "byte %llu of the %llu-byte allocation at %#llx, which was freed",
               (unsigned long long)(p - fr->base), (unsigned long long)fr->size, (unsigned long long)fr->base);
   else if (lr && p < lr->base + lr->size)
      snprintf(buf, len, "byte %llu of the live %llu-byte allocation at %#llx",
               (unsigned long long)(p - lr->base), (unsigned long long)lr->size, (unsigned long long)lr->base);
   else if (lr && (!next || p - (lr->base + lr->size) <= next->base - p))
      snprintf(buf, len, "%llu bytes after the end of the %llu-byte allocation at %#llx",
               (unsigned long long)(p - (lr->base + lr->size)), (unsigned long long)lr->size,
               (unsigned long long)lr->base);
   else if (next)
      snprintf(buf, len, "%llu bytes before the %llu-byte allocation at %#llx",
               (unsigned long long)(next->base - p), (unsigned long long)next->size,
               (unsigned long long)next->base);
   else
      snprintf(buf, len, "in no allocation");
   pthread_mutex_unlock(&a->lock);
}

void core_mem_info(core_device *d, uint64_t *free_bytes, uint64_t *total)
{
   core_arena *a = core_device_arena(d);
   if (!a) {
      *free_bytes = *total = 0;
      return;
   }
   pthread_mutex_lock(&a->lock);
   *total = a->size;
   *free_bytes = a->size - a->in_use;
   pthread_mutex_unlock(&a->lock);
}

uint64_t core_arena_base(core_device *d)
{
   core_arena *a = core_device_arena(d);
   return a ? a->base : 0;
}

uint64_t core_arena_delta(core_device *d)
{
   core_arena *a = core_device_arena(d);
   return a ? a->delta : 0;
}

mtl_buffer *core_arena_buffer(core_device *d)
{
   core_arena *a = core_device_arena(d);
   return a ? a->buf : NULL;
}

uint64_t core_mem_in_use(core_device *d)
{
   core_arena *a = core_device_arena(d);
   return a ? a->in_use : 0;
}
