/*
 * test_arena.c — the device memory arena (src/core/arena.c): alignment,
 * reuse and coalescing of freed ranges, pointer lookup, the CPU/GPU address
 * delta, large allocations' offsets in a page, invalid frees, exhaustion
 * and fault injection; allocation kinds
 * and the registry of host memory (core/memory.c), the default memory
 * pool (core/mempool.c).
 */
#include "harness.h"

#include "core/core.h"

#include <stdlib.h>
#include <string.h>

static core_device *dev(void)
{
   return core_init() == CORE_SUCCESS ? core_device_get(0) : NULL;
}

TEST(allocations_are_aligned_distinct_and_writable)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t before = core_mem_in_use(d);
   uint64_t p[64];
   for (int k = 0; k < 64; k++) {
      CHECK_INT(core_mem_alloc(d, (size_t)(k * 37 + 1), &p[k]), CORE_SUCCESS);
      CHECK_MSG(p[k] % 256 == 0, "allocation %d at %#llx is not 256-byte aligned", k, (unsigned long long)p[k]);
      memset((void *)(uintptr_t)p[k], k, (size_t)(k * 37 + 1));
   }
   for (int k = 0; k < 64; k++) {
      const uint8_t *b = (const uint8_t *)(uintptr_t)p[k];
      for (int j = 0; j < k * 37 + 1; j++)
         CHECK_MSG(b[j] == (uint8_t)k, "allocation %d byte %d overwritten: %u", k, j, b[j]);
   }
   for (int k = 0; k < 64; k++)
      CHECK_INT(core_mem_free(d, p[k]), CORE_SUCCESS);
   CHECK_U64(core_mem_in_use(d), before);
}

TEST(lookup_finds_the_allocation_and_its_requested_size)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t p, base, size;
   CHECK_INT(core_mem_alloc(d, 1000, &p), CORE_SUCCESS);
   CHECK(core_mem_lookup(d, p, 1000, &base, &size));
   CHECK_U64(base, p);
   CHECK_U64(size, 1000);
   CHECK(core_mem_lookup(d, p + 999, 1, &base, NULL));
   CHECK(!core_mem_lookup(d, p + 999, 2, NULL, NULL));     /* runs past the end */
   CHECK(!core_mem_lookup(d, p + 1000, 1, NULL, NULL));
   CHECK(!core_mem_lookup(d, p - 1, 1, NULL, NULL));
   CHECK_INT(core_mem_free(d, p), CORE_SUCCESS);
   CHECK(!core_mem_lookup(d, p, 1, NULL, NULL));            /* stale */
}

TEST(invalid_frees_are_refused)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t p;
   CHECK_INT(core_mem_alloc(d, 512, &p), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, p + 8), CORE_ERROR_INVALID_VALUE);      /* interior pointer */
   CHECK_INT(core_mem_free(d, 0x1234), CORE_ERROR_INVALID_VALUE);     /* foreign pointer */
   CHECK_INT(core_mem_free(d, p), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, p), CORE_ERROR_INVALID_VALUE);          /* double free */
}

TEST(freed_ranges_coalesce_for_a_larger_allocation)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t a, b, c, big;
   CHECK_INT(core_mem_alloc(d, 4096, &a), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 4096, &b), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 4096, &c), CORE_SUCCESS);
   CHECK_U64(b, a + 4096);
   CHECK_U64(c, b + 4096);
   /* Free in an order that needs merging on both sides. */
   CHECK_INT(core_mem_free(d, a), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, c), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, b), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 3 * 4096, &big), CORE_SUCCESS);
   CHECK_U64(big, a);   /* first fit lands in the merged hole */
   CHECK_INT(core_mem_free(d, big), CORE_SUCCESS);
}

/* Large allocations start at different offsets in a page, each a multiple
 * of 512, consecutive ones at least 1 KB apart (arena.c "colouring");
 * freeing them gives back every byte, their padding included: the same
 * blocks hold one allocation of all their sizes again. */
TEST(large_allocations_start_at_different_offsets_in_a_page)
{
   core_device *d = dev();
   CHECK(d);
   enum { N = 8, SIZE = 1 << 20 };
   uint64_t before = core_mem_in_use(d), p[N], all;
   for (int k = 0; k < N; k++) {
      CHECK_INT(core_mem_alloc(d, SIZE, &p[k]), CORE_SUCCESS);
      CHECK_MSG(p[k] % 512 == 0, "allocation %d at %#llx is not 512-byte aligned", k, (unsigned long long)p[k]);
      memset((void *)(uintptr_t)p[k], k, SIZE);
   }
   for (int k = 1; k < N; k++) {
      uint64_t gap = (p[k] - p[k - 1]) % 4096;
      CHECK_MSG(gap >= 1024 && gap <= 4096 - 1024, "allocations %d and %d are %llu bytes apart in a page", k - 1,
                k, (unsigned long long)gap);
   }
   for (int k = 0; k < N; k++)   /* nothing overlaps */
      CHECK(((const uint8_t *)(uintptr_t)p[k])[0] == k && ((const uint8_t *)(uintptr_t)p[k])[SIZE - 1] == k);
   for (int k = 0; k < N; k++)
      CHECK_INT(core_mem_free(d, p[k]), CORE_SUCCESS);
   CHECK_U64(core_mem_in_use(d), before);
   uint64_t lo = p[0];
   for (int k = 1; k < N; k++)
      lo = p[k] < lo ? p[k] : lo;
   CHECK_INT(core_mem_alloc(d, (size_t)N * SIZE, &all), CORE_SUCCESS);
   CHECK_MSG(all < lo + 4096 && all + 4096 > lo, "the freed blocks did not take the allocation back (%#llx, %#llx)",
             (unsigned long long)all, (unsigned long long)lo);
   CHECK_INT(core_mem_free(d, all), CORE_SUCCESS);
   CHECK_U64(core_mem_in_use(d), before);
}

TEST(gpu_address_differs_from_cpu_address)
{
   core_device *d = dev();
   CHECK(d);
   /* ARCHITECTURE §3: never zero, so a forgotten delta fails. */
   uint64_t delta;
   CHECK(core_arena_chunks(d, &delta, 1) >= 1);
   CHECK_MSG(delta != 0, "CPU and GPU views coincide");
   uint64_t p;
   CHECK_INT(core_mem_alloc(d, 64, &p), CORE_SUCCESS);
   CHECK_U64(core_arena_gpu(d, p), p + delta);
   CHECK_U64(core_arena_cuda(d, p + delta), p);
   CHECK_INT(core_mem_free(d, p), CORE_SUCCESS);
}

TEST(exhaustion_and_zero_size)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t p, free_b, total;
   core_mem_info(d, &free_b, &total);
   CHECK_INT(core_mem_alloc(d, 0, &p), CORE_ERROR_OUT_OF_MEMORY);
   CHECK_INT(core_mem_alloc(d, (size_t)total + 1, &p), CORE_ERROR_OUT_OF_MEMORY);
   CHECK_INT(core_mem_alloc(d, SIZE_MAX, &p), CORE_ERROR_OUT_OF_MEMORY);
}

TEST(fault_injection_fails_cleanly)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t before = core_mem_in_use(d);
   for (long n = 1;; n++) {
      fault_fail_after(n);
      uint64_t p[4] = { 0 };
      int r = CORE_SUCCESS;
      int got = 0;
      for (; got < 4 && r == CORE_SUCCESS; got++)
         r = core_mem_alloc(d, 1024, &p[got]);
      fault_reset();
      if (r != CORE_SUCCESS)
         got--;
      CHECK_MSG(r == CORE_SUCCESS || r == CORE_ERROR_OUT_OF_MEMORY, "n=%ld: unexpected error %d", n, r);
      for (int k = 0; k < got; k++)
         CHECK_INT(core_mem_free(d, p[k]), CORE_SUCCESS);
      CHECK_U64(core_mem_in_use(d), before);
      if (r == CORE_SUCCESS)
         break;
   }
}

TEST(kinds_are_kept_and_free_respects_them)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t dv, hv, mv, base, size;
   uint32_t kind = 99, flags = 99;
   CHECK_INT(core_mem_alloc(d, 100, &dv), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc_kind(d, 300, CORE_MEM_HOST, 0x3, &hv), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc_kind(d, 50, CORE_MEM_MANAGED, 0x1, &mv), CORE_SUCCESS);
   CHECK(core_mem_query(d, dv + 10, 1, &base, &size, &kind, &flags));
   CHECK_U64(base, dv);
   CHECK_INT(kind, CORE_MEM_DEVICE);
   CHECK_INT(flags, 0);
   CHECK(core_mem_query(d, hv + 299, 1, &base, &size, &kind, &flags));
   CHECK_U64(size, 300);
   CHECK_INT(kind, CORE_MEM_HOST);
   CHECK_INT(flags, 0x3);
   CHECK(core_mem_query(d, mv, 50, NULL, NULL, &kind, &flags));
   CHECK_INT(kind, CORE_MEM_MANAGED);
   CHECK_INT(flags, 0x1);
   /* the wrong free call is refused and leaves the allocation alive */
   CHECK_INT(core_mem_free_kind(d, hv, CORE_MEM_KIND_BIT(CORE_MEM_DEVICE)), CORE_ERROR_INVALID_VALUE);
   CHECK(core_mem_lookup(d, hv, 300, NULL, NULL));
   CHECK_INT(core_mem_free_kind(d, dv, CORE_MEM_KIND_BIT(CORE_MEM_HOST)), CORE_ERROR_INVALID_VALUE);
   CHECK_INT(core_mem_free_kind(d, hv, CORE_MEM_KIND_BIT(CORE_MEM_HOST)), CORE_SUCCESS);
   CHECK_INT(core_mem_free_kind(d, mv, CORE_MEM_KIND_BIT(CORE_MEM_DEVICE) | CORE_MEM_KIND_BIT(CORE_MEM_MANAGED)),
             CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, dv), CORE_SUCCESS);
}

/* metalcuda's own memory (module globals, status word, printf FIFO,
 * parameter blocks) reads as device memory but no free of the program's
 * releases it: a program freeing a stale pointer that now lands on one
 * gets an error instead of taking metalcuda's memory away */
TEST(internal_allocations_resist_the_programs_frees)
{
   core_device *d = dev();
   CHECK(d);
   uint64_t iv, base;
   uint32_t kind = 99, flags = 0;
   CHECK_INT(core_mem_alloc_internal(d, 64, &iv), CORE_SUCCESS);
   CHECK(core_mem_query(d, iv + 8, 4, &base, NULL, &kind, &flags));
   CHECK_U64(base, iv);
   CHECK_INT(kind, CORE_MEM_DEVICE);
   CHECK(flags & CORE_MEM_FLAG_INTERNAL);
   CHECK_INT(core_mem_free_kind(d, iv, CORE_MEM_KIND_BIT(CORE_MEM_DEVICE)), CORE_ERROR_INVALID_VALUE);
   CHECK_INT(core_mem_free(d, iv), CORE_ERROR_INVALID_VALUE);
   CHECK(core_mem_lookup(d, iv, 64, NULL, NULL));
   uint64_t dv;
   CHECK_INT(core_mem_alloc(d, 64, &dv), CORE_SUCCESS);
   CHECK_INT(core_mem_free_internal(d, dv), CORE_ERROR_INVALID_VALUE);   /* nor the other way round */
   CHECK_INT(core_mem_free_internal(d, iv), CORE_SUCCESS);
   CHECK(!core_mem_lookup(d, iv, 1, NULL, NULL));
   CHECK_INT(core_mem_free(d, dv), CORE_SUCCESS);
}

TEST(host_registrations_overlap_and_unregister_as_cuda_says)
{
   static char buf[3 * 4096];
   uint64_t p = (uint64_t)(uintptr_t)buf, base, size;
   uint32_t flags;
   CHECK_INT(core_host_register(p, 4096, 0x1), CORE_SUCCESS);
   CHECK_INT(core_host_register(p + 4096, 100, 0), CORE_SUCCESS);     /* adjacent: fine */
   CHECK_INT(core_host_register(p + 4000, 200, 0), CORE_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
   CHECK_INT(core_host_register(p + 4195, 1, 0), CORE_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
   CHECK(core_host_lookup(p + 17, &base, &size, &flags));
   CHECK_U64(base, p);
   CHECK_U64(size, 4096);
   CHECK_INT(flags, 0x1);
   CHECK(!core_host_lookup(p + 4196, NULL, NULL, NULL));
   CHECK_INT(core_host_unregister(p + 8), CORE_ERROR_INVALID_VALUE);  /* inside a range */
   CHECK_INT(core_host_unregister(p + 8192), CORE_ERROR_HOST_MEMORY_NOT_REGISTERED);
   CHECK_INT(core_host_unregister(p), CORE_SUCCESS);
   CHECK_INT(core_host_unregister(p), CORE_ERROR_HOST_MEMORY_NOT_REGISTERED);
   CHECK_INT(core_host_unregister(p + 4096), CORE_SUCCESS);
   CHECK(!core_host_lookup(p + 4096, NULL, NULL, NULL));
}

TEST(the_default_pool_counts_its_allocations)
{
   core_device *d = dev();
   CHECK(d);
   core_mempool *pool = core_mempool_default(d);
   CHECK(core_check_mempool(pool));
   CHECK(core_mempool_default(d) == pool);
   uint64_t used0, used, high, p, q;
   CHECK_INT(core_mempool_get(pool, CORE_POOL_USED_MEM_CURRENT, &used0), CORE_SUCCESS);
   CHECK_INT(core_mempool_alloc(pool, 1000, &p), CORE_SUCCESS);
   CHECK_INT(core_mempool_alloc(pool, 24, &q), CORE_SUCCESS);
   CHECK_INT(core_mempool_get(pool, CORE_POOL_USED_MEM_CURRENT, &used), CORE_SUCCESS);
   CHECK_U64(used, used0 + 1024);
   CHECK_INT(core_mempool_free(d, p + 8), CORE_ERROR_INVALID_VALUE);
   CHECK_INT(core_mempool_free(d, p), CORE_SUCCESS);
   CHECK_INT(core_mempool_get(pool, CORE_POOL_USED_MEM_HIGH, &high), CORE_SUCCESS);
   CHECK(high >= used0 + 1024);
   CHECK_INT(core_mempool_set(pool, CORE_POOL_USED_MEM_HIGH, 5), CORE_ERROR_INVALID_VALUE);
   CHECK_INT(core_mempool_set(pool, CORE_POOL_USED_MEM_HIGH, 0), CORE_SUCCESS);
   CHECK_INT(core_mempool_get(pool, CORE_POOL_USED_MEM_HIGH, &high), CORE_SUCCESS);
   CHECK_U64(high, used0 + 24);
   CHECK_INT(core_mempool_set(pool, CORE_POOL_USED_MEM_CURRENT, 0), CORE_ERROR_INVALID_VALUE);
   CHECK_INT(core_mempool_set(pool, CORE_POOL_RELEASE_THRESHOLD, 12345), CORE_SUCCESS);
   CHECK_INT(core_mempool_get(pool, CORE_POOL_RELEASE_THRESHOLD, &high), CORE_SUCCESS);
   CHECK_U64(high, 12345);
   uint64_t plain;   /* memory of cuMemAlloc is not the pool's */
   CHECK_INT(core_mem_alloc(d, 64, &plain), CORE_SUCCESS);
   CHECK_INT(core_mempool_free(d, plain), CORE_ERROR_INVALID_VALUE);
   CHECK_INT(core_mem_free(d, plain), CORE_SUCCESS);
   CHECK_INT(core_mempool_free(d, q), CORE_SUCCESS);
   CHECK_INT(core_mempool_get(pool, CORE_POOL_USED_MEM_CURRENT, &used), CORE_SUCCESS);
   CHECK_U64(used, used0);
}
