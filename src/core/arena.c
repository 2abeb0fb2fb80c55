/*
 * arena.c — device memory: Metal buffers (chunks) at fixed places of one
 * reserved CPU address range, sub-allocated.
 *
 * ARCHITECTURE §3: a CUDA device pointer is the CPU address of the byte, so
 * host code, managed memory and pointer queries work directly; kernels turn
 * it into a GPU address by adding the delta (gpu_address - contents) of the
 * chunk that holds it.
 *
 * Why chunks (issue 15, finding 10): one buffer as large as the device's
 * working set (10-36 GB on common Macs), made resident on every dispatch,
 * wires all of it.  Instead the arena reserves one contiguous CPU range of
 * that size (PROT_NONE, nothing committed) and creates buffers over parts
 * of it as allocations need them (mtl_buffer_new_at: Metal's
 * newBufferWithBytesNoCopy on the committed pages; the software device maps
 * its memory object there), so only memory that exists is declared to
 * dispatches (core_arena_use) or put in the residency set.  The range is
 * cut into fixed slots of 2^shift bytes (METALCUDA_ARENA_CHUNK_MB, default
 * 1 GB, rounded to a power of two); a chunk covers one slot, or for an
 * allocation larger than a slot several consecutive ones.  The first chunk
 * is made at creation, the next ones when no free range fits.  Chunks are
 * never given back before the arena ends (a later allocation reuses them).
 *
 * Kernels translate with a table in device memory (the first bytes of the
 * first chunk): entry i is the delta of the chunk over slot i, entry
 * nslots the delta of every address outside the arena (registered host
 * memory, wild pointers), and a kernel computes
 *    gpu = a + table[min((a - amem) >> shift, nslots)]
 * (prelude/base.metal mc_gpu; the clamp keeps a wild pointer's lookup
 * inside the table).  Slots with no chunk yet hold the outside delta.  An
 * entry changes only from "no chunk" to its chunk's delta, before any
 * pointer into that chunk exists, so a running kernel never sees it move.
 *
 * The outside delta is the reservation's size: the range reserved is twice
 * the arena, its upper half never host memory, so no host memory lies at a
 * CUDA address of the arena plus it, and a registered host pointer p
 * (cuMemHostGetDevicePointer: p - outside delta) never aliases device
 * memory; a wild pointer lands, as before, at an address that is usually
 * unmapped.
 *
 * The software device places each chunk's GPU view where it is asked
 * (mtl_buffer_new_at's gpu_hint): at the chunk's address plus the outside
 * delta, in the reservation's upper half.  Every address then has one
 * delta, and its kernels, compiled with __MC_SOFT_ONE_DELTA, skip the table
 * and address global memory as gmem + (a - amem), a base pointer plus an
 * offset that the host compiler vectorises across threads (a table read per
 * access made SAXPY 5x and a stencil 11x slower there: bench/chunks.sh).
 * With METALCUDA_SOFT_SCATTER=1 it ignores the hint: every chunk its own
 * delta, as an Apple GPU's gpuAddress may be, and kernels read the table,
 * so a translator that uses the wrong chunk's delta fails
 * (tests/unit/test_arena_chunks.c).
 *
 * The allocator keeps two address-sorted arrays: live allocations with the
 * size asked for (binary search answers "which allocation holds this
 * pointer") and free ranges (first fit, coalesced on free, never across
 * two chunks: an allocation lies in one buffer, so a blit and a
 * useResource see all of it).  Every allocation is 256-byte aligned, as
 * cudaMalloc guarantees; large ones start at one of eight offsets in a
 * page in turn (colouring, below).  Operations are O(n) in the number of ranges,
 * which is fine for the thousands of allocations programs make.
 *
 * Validation (METALCUDA_VALIDATE=1, devices that can protect pages: the
 * software one): each chunk's GPU view is inaccessible except the pages of
 * live allocations (and the table); each allocation ends where its last
 * page ends (256-byte rounding aside) and is followed by at least one
 * inaccessible page, and a freed one stays inaccessible and is never handed
 * out again.  A kernel that reads or writes outside every live allocation
 * therefore faults, and core_mem_describe says where the address lies.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

LOG_CHANNEL(memory);

#define ARENA_ALIGN 256u

#ifdef MAP_NORESERVE
#define ARENA_NORESERVE MAP_NORESERVE
#else
#define ARENA_NORESERVE 0
#endif

typedef struct range {
   uint64_t base, size;
   uint32_t kind;             /* live allocations: CORE_MEM_* (pointer queries, which free fits) */
   uint32_t flags;            /* live allocations: the flags it was made with */
   uint32_t pad;              /* live allocations: bytes of its block before base (colour) */
   uint64_t owner;            /* live allocations: the id of the created context (cuCtxCreate)
                               * current at the allocation, which frees it at its end; 0: none */
} range;

typedef struct range_vec {
   range *v;
   uint32_t n, cap;
} range_vec;

/* A buffer over slots [first, first + nslots) of the range. */
typedef struct chunk {
   mtl_buffer *buf;
   uint64_t base, size;       /* CUDA (CPU) range */
   uint64_t delta;            /* gpu_address - contents */
} chunk;

struct core_arena {
   pthread_mutex_t lock;
   mtl_device *mdev;
   uint64_t base, size;       /* CPU (CUDA) address range of the arena */
   uint64_t reserved;         /* bytes reserved at base: 2 * size (see above) */
   uint32_t shift, nslots;    /* slots of 2^shift bytes */
   int32_t *slot_chunk;       /* per slot: index into chunks, -1: none yet */
   chunk *chunks;             /* nslots entries; the first nchunks made */
   uint32_t nchunks;          /* read without the lock (__atomic): chunks only grow */
   uint64_t *table;           /* CPU view of the slot table (nslots + 1 deltas) */
   uint64_t table_cuda, table_bytes;
   uint64_t outside;          /* delta of addresses outside every chunk */
   uint64_t in_use;
   range_vec live, free_list;
   bool validate;             /* page-guarded allocations (see above) */
   uint64_t page;
   range_vec freed;           /* validation: freed allocations, never reused */
   uint32_t colour;           /* where in a page the next large allocation starts */
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

/* log2 of the slot size: METALCUDA_ARENA_CHUNK_MB (default 1024) rounded
 * down to a power of two, at least 1 MB (a multiple of every page size), at
 * most the arena. */
static uint32_t slot_shift_for(uint64_t size)
{
   uint64_t mb = 1024;
   const char *e = getenv("METALCUDA_ARENA_CHUNK_MB");
   if (e && atoll(e) > 0)
      mb = (uint64_t)atoll(e);
   uint32_t shift = 20;
   while (shift < 62 && (1ull << (shift + 1)) <= (mb << 20) && (1ull << (shift + 1)) <= size)
      shift++;
   return shift;
}

/* The chunk that holds CUDA address p (lock not needed: slot_chunk entries
 * are set once, before any address in them is handed out), or NULL. */
static const chunk *chunk_of(const core_arena *a, uint64_t p)
{
   if (p < a->base || p - a->base >= a->size)
      return NULL;
   int32_t k = __atomic_load_n(&a->slot_chunk[(p - a->base) >> a->shift], __ATOMIC_ACQUIRE);
   return k < 0 ? NULL : &a->chunks[k];
}

/* A chunk over the n slots from `first`: commits the pages, makes the
 * buffer, fills its table entries, adds its range to the free list (lock
 * held, or creation). */
static int chunk_new(core_arena *a, uint32_t first, uint32_t n)
{
   uint64_t base = a->base + ((uint64_t)first << a->shift), size = (uint64_t)n << a->shift;
   if (fault_hit())
      return CORE_ERROR_OUT_OF_MEMORY;
   /* committed memory for Metal to wrap (the software device maps its own
    * over it) */
   if (mmap((void *)(uintptr_t)base, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON | MAP_FIXED | ARENA_NORESERVE,
            -1, 0) == MAP_FAILED) {
      LOG_ERR("cannot commit %llu MB of device memory at %#llx", (unsigned long long)(size >> 20),
              (unsigned long long)base);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   char *err = NULL;
   /* the GPU view (where the device lets us place it: the software one) at
    * the outside delta, in the reservation's upper half: one delta for all */
   mtl_buffer *buf = mtl_buffer_new_at(a->mdev, (void *)(uintptr_t)base, size, base + a->outside, &err);
   if (!buf) {
      LOG_ERR("cannot create a device memory chunk (%llu MB): %s", (unsigned long long)(size >> 20),
              err ? err : "unknown error");
      free(err);
      (void)mmap((void *)(uintptr_t)base, size, PROT_NONE, MAP_PRIVATE | MAP_ANON | MAP_FIXED | ARENA_NORESERVE, -1, 0);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   uint32_t k = a->nchunks;
   chunk *c = &a->chunks[k];
   c->buf = buf;
   c->base = base;
   c->size = size;
   c->delta = mtl_buffer_gpu_address(buf) - base;
   if (a->validate)
      mtl_buffer_set_gpu_access(buf, 0, size, false);
   range all = { base, size, 0, 0, 0, 0 };
   uint32_t fi = rv_upper(&a->free_list, base);
   if (!rv_insert(&a->free_list, fi, all)) {
      mtl_buffer_release(buf);
      (void)mmap((void *)(uintptr_t)base, size, PROT_NONE, MAP_PRIVATE | MAP_ANON | MAP_FIXED | ARENA_NORESERVE, -1, 0);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   for (uint32_t s = first; s < first + n; s++) {
      if (a->table)
         __atomic_store_n(&a->table[s], c->delta, __ATOMIC_RELEASE);
      __atomic_store_n(&a->slot_chunk[s], (int32_t)k, __ATOMIC_RELEASE);
   }
   __atomic_store_n(&a->nchunks, k + 1, __ATOMIC_RELEASE);
   LOG_INFO("arena: chunk %u, %llu MB at %#llx, GPU delta %#llx", k, (unsigned long long)(size >> 20),
            (unsigned long long)base, (unsigned long long)c->delta);
   return CORE_SUCCESS;
}

/* Chunks enough for a block of `block` bytes: the first run of free slots
 * long enough (lock held). */
static int grow(core_arena *a, uint64_t block)
{
   uint64_t n = (block + (1ull << a->shift) - 1) >> a->shift;
   for (uint32_t s = 0, run = 0; s < a->nslots; s++) {
      run = a->slot_chunk[s] < 0 ? run + 1 : 0;
      if (run == n)
         return chunk_new(a, s + 1 - run, run);
   }
   return CORE_ERROR_OUT_OF_MEMORY;
}

int core_arena_create(core_device *d, core_arena **out)
{
   core_arena *a = mc_calloc(1, sizeof(*a));
   if (!a)
      return CORE_ERROR_OUT_OF_MEMORY;
   pthread_mutex_init(&a->lock, NULL);
   a->mdev = core_device_mtl(d);
   a->page = (uint64_t)sysconf(_SC_PAGESIZE);
   uint64_t size = arena_size_for(core_device_info(d));
   a->shift = slot_shift_for(size);
   a->nslots = (uint32_t)(size >> a->shift);
   a->size = (uint64_t)a->nslots << a->shift;
   a->reserved = 2 * a->size;
   a->outside = a->size;
   a->slot_chunk = mc_calloc(a->nslots, sizeof(*a->slot_chunk));
   a->chunks = mc_calloc(a->nslots, sizeof(*a->chunks));
   void *r = MAP_FAILED;
   if (a->slot_chunk && a->chunks)
      r = mmap(NULL, a->reserved, PROT_NONE, MAP_PRIVATE | MAP_ANON | ARENA_NORESERVE, -1, 0);
   if (r == MAP_FAILED) {
      LOG_ERR("cannot reserve %llu MB of addresses for device memory", (unsigned long long)(a->reserved >> 20));
      core_arena_destroy(a);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   a->base = (uint64_t)(uintptr_t)r;
   for (uint32_t s = 0; s < a->nslots; s++)
      a->slot_chunk[s] = -1;
   const char *v = getenv("METALCUDA_VALIDATE");
   a->validate = v && *v && strcmp(v, "0") != 0;
   if (chunk_new(a, 0, 1) != CORE_SUCCESS) {
      core_arena_destroy(a);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   if (a->validate && !mtl_buffer_set_gpu_access(a->chunks[0].buf, 0, 0, false)) {
      a->validate = false;
      LOG_WARN("METALCUDA_VALIDATE: this device cannot protect memory; accesses are not checked");
   }
   /* the slot table: the first bytes of the first chunk, whole pages (GPU
    * accessible under validation) */
   a->table_bytes = ALIGN_UP((uint64_t)(a->nslots + 1) * 8, a->page);
   a->table_cuda = a->base;
   a->table = (uint64_t *)(uintptr_t)a->base;
   a->free_list.v[0].base += a->table_bytes;
   a->free_list.v[0].size -= a->table_bytes;
   a->in_use = a->table_bytes;
   if (a->validate)
      mtl_buffer_set_gpu_access(a->chunks[0].buf, 0, a->table_bytes, true);
   for (uint32_t s = 0; s <= a->nslots; s++)
      a->table[s] = s < a->nslots && a->slot_chunk[s] >= 0 ? a->chunks[a->slot_chunk[s]].delta : a->outside;
   LOG_INFO("arena: %llu MB of addresses at %#llx, slots of %llu MB", (unsigned long long)(a->size >> 20),
            (unsigned long long)a->base, (unsigned long long)(1ull << (a->shift - 20)));
   *out = a;
   return CORE_SUCCESS;
}

void core_arena_destroy(core_arena *a)
{
   if (!a)
      return;
   for (uint32_t k = 0; k < a->nchunks; k++)
      mtl_buffer_release(a->chunks[k].buf);
   if (a->base)
      munmap((void *)(uintptr_t)a->base, a->reserved);
   free(a->slot_chunk);
   free(a->chunks);
   free(a->live.v);
   free(a->free_list.v);
   free(a->freed.v);
   pthread_mutex_destroy(&a->lock);
   free(a);
}

/* Allocation colouring.  Large allocations made one after another start at
 * the same offset in a page (each a whole number of pages long), and a CPU
 * takes a load whose address agrees in its low 12 bits with a store still
 * in flight for a dependent one until it knows better ("4K aliasing"): a
 * kernel reading one array and writing another at the same index — a
 * stencil, SAXPY — stalls on every vector of the software device's loops.
 * Each large allocation therefore starts at the next of eight offsets in
 * a page (multiples of 512, the texture alignment reported, 1536 apart:
 * neighbours at least 1 KB apart either way), where the free range found
 * has room for the padding; cudaMalloc promises 256-byte alignment only. */
enum { COLOUR_MIN = 64 * 1024, COLOUR_STEP = 1536, COLOUR_SPAN = 4096 };

/* Whether an allocation of need bytes is coloured (validation's
 * allocations end at a page's end instead). */
static bool coloured(const core_arena *a, uint64_t need)
{
   return need >= COLOUR_MIN && !a->validate;
}

/* Bytes to skip at the start of free range f for an allocation of need
 * bytes, 0 if it is uncoloured or f has no room for them. */
static uint64_t colour_pad(const core_arena *a, const range *f, uint64_t need)
{
   if (!coloured(a, need))
      return 0;
   uint64_t pad = (a->colour - f->base % COLOUR_SPAN + COLOUR_SPAN) % COLOUR_SPAN;
   return f->size >= need + pad ? pad : 0;
}

int core_mem_alloc(core_device *d, size_t size, uint64_t *out)
{
   return core_mem_alloc_kind(d, size, CORE_MEM_DEVICE, 0, out);
}

/* The owner of an allocation the program makes now: the current context if
 * cuCtxCreate made it (CUDA frees a context's memory with it); pools,
 * graphs and metalcuda's own allocations belong to no context. */
static uint64_t owner_now(uint32_t flags)
{
   core_ctx *c = core_ctx_current();
   if (flags & (CORE_MEM_FLAG_POOL | CORE_MEM_FLAG_INTERNAL | CORE_MEM_FLAG_GRAPH))
      return 0;
   return core_check_ctx(c) && !c->is_primary ? c->id : 0;
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
   for (uint32_t k = 0, grown = 0; k <= a->free_list.n; k++) {
      if (k == a->free_list.n) {
         /* nothing fits: new chunk(s), whose range the list now holds */
         if (grown++ || grow(a, block) != CORE_SUCCESS)
            break;
         k = (uint32_t)-1;
         continue;
      }
      range *f = &a->free_list.v[k];
      if (f->size < block || (a->validate && f->base % a->page))
         continue;
      uint64_t pad = colour_pad(a, f, need), used = block + pad;
      /* the size asked for (cuMemGetAddressRange); validation: ending at
       * its last page's end */
      range got = { f->base + pad + (data - need), size, kind, flags, (uint32_t)pad, owner_now(flags) };
      const chunk *c = chunk_of(a, f->base);
      if (a->validate && !mtl_buffer_set_gpu_access(c->buf, f->base - c->base, data, true))
         break;
      uint32_t at = rv_upper(&a->live, got.base);
      if (!rv_insert(&a->live, at, got))
         break;
      f->base += used;
      f->size -= used;
      if (!f->size)
         rv_remove(&a->free_list, k);
      a->in_use += used;
      if (coloured(a, need))
         a->colour = (a->colour + COLOUR_STEP) % COLOUR_SPAN;
      *out = got.base;
      r = CORE_SUCCESS;
      break;
   }
   pthread_mutex_unlock(&a->lock);
   /* hints given to memory freed since do not carry over (umhints.c) */
   if (r == CORE_SUCCESS && kind == CORE_MEM_MANAGED)
      core_um_forget(d, *out, size);
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
      const chunk *c = chunk_of(a, r.base);
      mtl_buffer_set_gpu_access(c->buf, start - c->base, ALIGN_UP(r.base + r.size, a->page) - start, false);
      a->in_use -= ALIGN_UP(ALIGN_UP(r.size, ARENA_ALIGN), a->page) + a->page;
      uint32_t fi = rv_upper(&a->freed, r.base);
      rv_insert(&a->freed, fi, r);
      pthread_mutex_unlock(&a->lock);
      return CORE_SUCCESS;
   }
   r.size = ALIGN_UP(r.size, ARENA_ALIGN) + r.pad;
   r.base -= r.pad;
   r.pad = 0;
   a->in_use -= r.size;
   /* Insert into the free list, merging with neighbours of its chunk. */
   uint32_t fi = rv_upper(&a->free_list, r.base);
   bool merged = false;
   const chunk *c = chunk_of(a, r.base);
   uint64_t cend = c->base + c->size;
   if (fi > 0) {
      range *prev = &a->free_list.v[fi - 1];
      if (prev->base + prev->size == r.base && prev->base >= c->base) {
         prev->size += r.size;
         merged = true;
         if (fi < a->free_list.n && prev->base + prev->size == a->free_list.v[fi].base &&
             a->free_list.v[fi].base < cend) {
            prev->size += a->free_list.v[fi].size;
            rv_remove(&a->free_list, fi);
         }
      }
   }
   if (!merged && fi < a->free_list.n && r.base + r.size == a->free_list.v[fi].base && r.base + r.size < cend) {
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

/* Frees every allocation of the created context `owner` (core_ctx_destroy). */
void core_mem_free_owned(core_device *d, uint64_t owner)
{
   core_arena *a = core_device_arena(d);
   if (!a || !owner)
      return;
   for (;;) {
      uint64_t ptr = 0;
      pthread_mutex_lock(&a->lock);
      for (uint32_t k = 0; k < a->live.n && !ptr; k++)
         if (a->live.v[k].owner == owner)
            ptr = a->live.v[k].base;
      pthread_mutex_unlock(&a->lock);
      if (!ptr || mem_free(d, ptr, CORE_MEM_KIND_ANY, false) != CORE_SUCCESS)
         return;
   }
}

bool core_mem_lookup(core_device *d, uint64_t ptr, uint64_t len, uint64_t *base, uint64_t *size)
{
   return core_mem_query(d, ptr, len, base, size, NULL, NULL);
}

/* The live allocation holding [ptr, ptr + len): false if none. */
static bool live_range(core_device *d, uint64_t ptr, uint64_t len, range *out)
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
         *out = r;
      }
   }
   pthread_mutex_unlock(&a->lock);
   return ok;
}

bool core_mem_query(core_device *d, uint64_t ptr, uint64_t len, uint64_t *base, uint64_t *size, uint32_t *kind,
                    uint32_t *flags)
{
   range r;
   if (!live_range(d, ptr, len, &r))
      return false;
   if (base)
      *base = r.base;
   if (size)
      *size = r.size;
   if (kind)
      *kind = r.kind;
   if (flags)
      *flags = r.flags;
   return true;
}

uint64_t core_mem_owner(core_device *d, uint64_t ptr)
{
   range r;
   return live_range(d, ptr, 1, &r) ? r.owner : 0;
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

uint64_t core_arena_gpu(core_device *d, uint64_t p)
{
   core_arena *a = core_device_arena(d);
   if (!a)
      return p;
   const chunk *c = chunk_of(a, p);
   return p + (c ? c->delta : a->outside);
}

uint64_t core_arena_cuda(core_device *d, uint64_t gpu)
{
   core_arena *a = core_device_arena(d);
   if (!a)
      return gpu;
   uint32_t n = __atomic_load_n(&a->nchunks, __ATOMIC_ACQUIRE);
   for (uint32_t k = 0; k < n; k++) {
      const chunk *c = &a->chunks[k];
      if (gpu - (c->base + c->delta) < c->size)
         return gpu - c->delta;
   }
   return gpu - a->outside;
}

uint64_t core_arena_host_delta(core_device *d)
{
   core_arena *a = core_device_arena(d);
   return a ? a->outside : 0;
}

mtl_buffer *core_arena_chunk(core_device *d, uint64_t p, size_t *off)
{
   core_arena *a = core_device_arena(d);
   const chunk *c = a ? chunk_of(a, p) : NULL;
   if (!c)
      return NULL;
   if (off)
      *off = (size_t)(p - c->base);
   return c->buf;
}

uint32_t core_arena_chunks(core_device *d, uint64_t *deltas, uint32_t max)
{
   core_arena *a = core_device_arena(d);
   uint32_t n = a ? __atomic_load_n(&a->nchunks, __ATOMIC_ACQUIRE) : 0;
   for (uint32_t k = 0; k < n && k < max; k++)
      deltas[k] = a->chunks[k].delta;
   return n;
}

void core_arena_use(core_device *d, mtl_encoder *e)
{
   core_arena *a = core_device_arena(d);
   uint32_t n = a ? __atomic_load_n(&a->nchunks, __ATOMIC_ACQUIRE) : 0;
   for (uint32_t k = 0; k < n; k++)
      mtl_encoder_use_resource(e, a->chunks[k].buf);
}

void core_arena_launch(core_device *d, mc_launch *lb)
{
   core_arena *a = core_device_arena(d);
   if (!a)
      return;
   lb->slots = a->table_cuda + a->chunks[0].delta;
   lb->slot_shift = a->shift;
   lb->nslots = a->nslots;
   lb->amem = a->base;
   lb->gmem = a->base + a->outside;
}

uint64_t core_mem_in_use(core_device *d)
{
   core_arena *a = core_device_arena(d);
   return a ? a->in_use : 0;
}
