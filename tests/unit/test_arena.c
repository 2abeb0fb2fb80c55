/*
 * test_arena.c — the device memory arena (src/core/arena.c): alignment,
 * reuse and coalescing of freed ranges, pointer lookup, the CPU/GPU address
 * delta, invalid frees, exhaustion and fault injection.
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

TEST(gpu_address_differs_from_cpu_address)
{
   core_device *d = dev();
   CHECK(d);
   /* ARCHITECTURE §3: never zero, so a forgotten delta fails. */
   CHECK_MSG(core_arena_delta(d) != 0, "CPU and GPU views coincide");
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
