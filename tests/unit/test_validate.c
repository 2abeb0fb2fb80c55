/*
 * test_validate.c — METALCUDA_VALIDATE=1: loads and stores outside every
 * live allocation fail the launch with the kernel, the thread, the address
 * and where it lies (core/arena.c, metal/soft/exec.c), and a program
 * without such accesses runs as before.
 *
 * The variable is set before the core starts (its own test binary for
 * that reason).  Each bad launch poisons the context (CUDA's sticky
 * illegal-address error), so each scenario resets the primary context.
 */
#include "harness.h"
#include "test_core_util.h"

#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* out[tid] = tid for every thread of the block. */
static const char store_tid_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry k(.param .u64 out)\n{\n"
   "   .reg .b32 %r<4>;\n   .reg .b64 %rd<8>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n"
   "   st.global.u32 [%rd3], %r1;\n   ret;\n}\n";

static core_ctx *c;

static core_ctx *validating_ctx(void)
{
   if (!c) {
      setenv("METALCUDA_VALIDATE", "1", 1);
      if (core_init() != CORE_SUCCESS || core_ctx_retain_primary(core_device_get(0), &c) != CORE_SUCCESS)
         c = NULL;
   }
   return c;
}

/* Launches store_tid on `threads` threads with out = p; returns the
 * synchronisation's status and copies the context's message to msg. */
static int launch_at(uint64_t p, uint32_t threads, char *msg, size_t len)
{
   void *args[] = { &p };
   return tc_run_ptx(validating_ctx(), store_tid_ptx, "k", (const uint32_t[3]){ 1, 1, 1 },
                     (const uint32_t[3]){ threads, 1, 1 }, args, msg, len);
}

/* A fresh primary context: the bad launch poisoned this one. */
static void reset(void)
{
   if (c) {
      core_device *d = c->dev;
      core_ctx_release_primary(d);
      core_ctx_reset_primary(d);
      c = NULL;
   }
}

TEST(accesses_inside_allocations_run_as_before)
{
   core_ctx *c = validating_ctx();
   CHECK(c);
   uint64_t p = 0;
   CHECK_INT(core_mem_alloc(c->dev, 64 * 4, &p), CORE_SUCCESS);
   char msg[512];
   CHECK_INT(launch_at(p, 64, msg, sizeof(msg)), CORE_SUCCESS);
   const uint32_t *o = (const uint32_t *)(uintptr_t)p;
   CHECK_INT(o[0], 0);
   CHECK_INT(o[63], 63);
   core_mem_free(c->dev, p);
}

TEST(a_store_past_the_end_names_thread_address_and_allocation)
{
   core_ctx *c = validating_ctx();
   CHECK(c);
   uint64_t p = 0;
   char msg[512], want[128];
   CHECK_INT(core_mem_alloc(c->dev, 256, &p), CORE_SUCCESS);
   /* threads 64..127 write past the 256 bytes: thread 64 is the first */
   CHECK_INT(launch_at(p, 128, msg, sizeof(msg)), CORE_ERROR_ILLEGAL_ADDRESS);
   CHECK_CONTAINS(msg, "kernel 'k' failed");
   CHECK_CONTAINS(msg, "thread (64, 0, 0)");
   snprintf(want, sizeof(want), "CUDA address %#llx is 0 bytes after the end of the 256-byte allocation at %#llx",
            (unsigned long long)(p + 256), (unsigned long long)p);
   CHECK_CONTAINS(msg, want);
   reset();
}

TEST(a_store_to_freed_memory_is_reported_as_such)
{
   core_ctx *c = validating_ctx();
   CHECK(c);
   uint64_t p = 0, q = 0;
   char msg[512], want[128];
   CHECK_INT(core_mem_alloc(c->dev, 4096, &p), CORE_SUCCESS);
   CHECK_INT(core_mem_free(c->dev, p), CORE_SUCCESS);
   /* freed memory is never handed out again */
   CHECK_INT(core_mem_alloc(c->dev, 4096, &q), CORE_SUCCESS);
   CHECK(q != p);
   CHECK_INT(launch_at(p + 8, 32, msg, sizeof(msg)), CORE_ERROR_ILLEGAL_ADDRESS);
   snprintf(want, sizeof(want), "is byte 8 of the 4096-byte allocation at %#llx, which was freed",
            (unsigned long long)p);
   CHECK_CONTAINS(msg, want);
   CHECK_CONTAINS(msg, "thread (0, 0, 0)");
   core_mem_free(c->dev, q);
   reset();
}

/* A 4-byte load from an address that is 2 mod 4: an NVIDIA GPU faults
 * (cudaErrorMisalignedAddress); validation reports it so. */
static const char misaligned_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry mis(.param .u64 out)\n{\n"
   "   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   ld.global.u32 %r1, [%rd1+2];\n   st.global.u32 [%rd1+8], %r1;\n   ret;\n}\n";

TEST(a_misaligned_access_fails_with_the_misaligned_address_error)
{
   core_ctx *c = validating_ctx();
   CHECK(c);
   uint64_t p = 0;
   CHECK_INT(core_mem_alloc(c->dev, 64, &p), CORE_SUCCESS);
   void *args[] = { &p };
   char msg[512];
   CHECK_INT(tc_run_ptx(c, misaligned_ptx, "mis", (const uint32_t[3]){ 1, 1, 1 }, (const uint32_t[3]){ 1, 1, 1 },
                        args, msg, sizeof(msg)),
             CORE_ERROR_MISALIGNED_ADDRESS);
   CHECK_CONTAINS(msg, "kernel 'mis' loaded or stored at an address that is not a multiple");
   reset();
}
