/*
 * test_resume.c — barriers as resume points on the software device
 * (src/compiler/msl/emit_resume.c, the passes in the entry that
 * src/metal/soft/msl_scan.c generates): which kernels get them, values
 * and local memory that live across barriers in loops, every block shape,
 * and barriers that not every thread reaches, reported as the fiber
 * scheduler reports them.  Expected values come from a host model of the
 * kernel (exact integer arithmetic).
 */
#include "harness.h"
#include "test_core_util.h"

#include "compiler/compiler.h"
#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

typedef struct dim3 { uint32_t x, y, z; } dim3;

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Each round every thread publishes val in shared memory and, after a
 * barrier, takes its neighbour's: val = (val + 3 * s[(lin + 1) % n]) ^
 * loc[0], then loc[0] = val and a second barrier.  loc[1] holds lin from
 * the start.  out[ctaid * n + lin] = val ^ (loc[1] << 16).  val, the loop
 * counter, the addresses and the local array all live across barriers. */
static const char rotate_ptx[] = HEAD
   ".visible .entry rot(.param .u64 out, .param .u32 rounds)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<32>;\n   .reg .b64 %rd<8>;\n"
   "   .shared .align 4 .b32 s[1024];\n   .local .align 4 .b32 loc[2];\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n   ld.param.u32 %r20, [rounds];\n"
   "   mov.u32 %r1, %tid.x;\n   mov.u32 %r2, %tid.y;\n   mov.u32 %r3, %tid.z;\n"
   "   mov.u32 %r4, %ntid.x;\n   mov.u32 %r5, %ntid.y;\n   mov.u32 %r6, %ntid.z;\n"
   "   mad.lo.u32 %r7, %r3, %r5, %r2;\n   mad.lo.u32 %r7, %r7, %r4, %r1;\n"
   "   mul.lo.u32 %r8, %r4, %r5;\n   mul.lo.u32 %r8, %r8, %r6;\n"
   "   mov.u32 %r9, %ctaid.x;\n   mad.lo.u32 %r10, %r7, 7, %r9;\n"
   "   st.local.u32 [loc], %r10;\n   st.local.u32 [loc+4], %r7;\n"
   "   mov.u32 %r11, s;\n   shl.b32 %r12, %r7, 2;\n   add.u32 %r13, %r11, %r12;\n"
   "   add.u32 %r14, %r7, 1;\n   rem.u32 %r14, %r14, %r8;\n   shl.b32 %r15, %r14, 2;\n   add.u32 %r16, %r11, %r15;\n"
   "   mov.u32 %r17, 0;\n"
   "LOOP:\n"
   "   setp.ge.u32 %p1, %r17, %r20;\n   @%p1 bra DONE;\n"
   "   st.shared.u32 [%r13], %r10;\n   bar.sync 0;\n"
   "   ld.shared.u32 %r18, [%r16];\n   ld.local.u32 %r19, [loc];\n"
   "   mad.lo.u32 %r10, %r18, 3, %r10;\n   xor.b32 %r10, %r10, %r19;\n   st.local.u32 [loc], %r10;\n"
   "   bar.sync 0;\n   add.u32 %r17, %r17, 1;\n   bra LOOP;\n"
   "DONE:\n"
   "   ld.local.u32 %r21, [loc+4];\n   shl.b32 %r22, %r21, 16;\n   xor.b32 %r23, %r10, %r22;\n"
   "   mad.lo.u32 %r24, %r9, %r8, %r7;\n   mul.wide.u32 %rd3, %r24, 4;\n   add.s64 %rd4, %rd1, %rd3;\n"
   "   st.global.u32 [%rd4], %r23;\n   ret;\n}\n";

/* Threads below 16 wait at one bar.sync, the others at another: legal on
 * an NVIDIA GPU from sm_70 on, not in Metal. */
static const char divergent_ptx[] = HEAD
   ".visible .entry dv(.param .u64 out)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n   setp.lt.u32 %p1, %r1, 16;\n   @%p1 bra A;\n"
   "   bar.sync 0;\n   st.global.u32 [%rd1], %r1;\n   bra B;\n"
   "A:\n   bar.sync 0;\n   st.global.u32 [%rd1+4], %r1;\n"
   "B:\n   ret;\n}\n";

/* A warp shuffle: every lane's value is needed at once, so fibers. */
static const char shuffle_ptx[] = HEAD
   ".visible .entry sh(.param .u64 out)\n{\n"
   "   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n   mov.u32 %r1, %tid.x;\n"
   "   bar.sync 0;\n   shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\n"
   "   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r2;\n   ret;\n}\n";

TEST(only_kernels_whose_sole_synchronisation_is_the_barrier_get_resume_points)
{
   char *rot = tc_msl_of(rotate_ptx), *sh = tc_msl_of(shuffle_ptx);
   CHECK(rot && sh);
   bool rot_marked = strstr(rot, "__mc_rs_yield(2u)") && strstr(rot, "__MC_RS_LABEL(2)");
   bool sh_marked = strstr(sh, "__mc_rs_") != NULL;
   /* Metal's compiler must see the plain barrier: the markup is all inside #ifdef */
   bool plain = strstr(rot, "#ifdef __MC_SOFT_RESUME\n") && strstr(rot, "threadgroup_barrier(");
   free(rot);
   free(sh);
   CHECK_MSG(rot_marked, "the barrier-only kernel has no resume points");
   CHECK_MSG(!sh_marked, "a kernel with a warp shuffle got resume points");
   CHECK(plain);
}

static int run(const char *ptx, const char *name, dim3 grid, dim3 block, void **args, char *msg, size_t len)
{
   return tc_run_ptx(tc_ctx(), ptx, name, (const uint32_t[3]){ grid.x, grid.y, grid.z },
                     (const uint32_t[3]){ block.x, block.y, block.z }, args, msg, len);
}

/* The host model of rotate_ptx for block b of n threads. */
static void rotate_model(uint32_t b, uint32_t n, uint32_t rounds, uint32_t *out)
{
   uint32_t *val = malloc(n * sizeof(*val)), *loc0 = malloc(n * sizeof(*loc0)), *nb = malloc(n * sizeof(*nb));
   for (uint32_t l = 0; l < n; l++)
      val[l] = loc0[l] = l * 7u + b;
   for (uint32_t r = 0; r < rounds; r++) {
      for (uint32_t l = 0; l < n; l++)
         nb[l] = val[(l + 1) % n];
      for (uint32_t l = 0; l < n; l++)
         loc0[l] = val[l] = (val[l] + 3u * nb[l]) ^ loc0[l];
   }
   for (uint32_t l = 0; l < n; l++)
      out[l] = val[l] ^ (l << 16);
   free(val);
   free(loc0);
   free(nb);
}

TEST(values_and_local_memory_live_across_barriers_in_every_block_shape)
{
   static const dim3 shapes[] = { {1, 1, 1}, {33, 1, 1}, {256, 1, 1}, {1024, 1, 1}, {8, 4, 2}, {3, 5, 7} };
   const uint32_t blocks = 5, rounds = 6;
   core_ctx *c = tc_ctx();
   CHECK(c);
   for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
      uint32_t n = shapes[s].x * shapes[s].y * shapes[s].z;
      uint64_t p = 0;
      CHECK_INT(core_mem_alloc(c->dev, (size_t)blocks * n * 4, &p), CORE_SUCCESS);
      uint32_t r = rounds;
      void *args[] = { &p, &r };
      char msg[512];
      int st = run(rotate_ptx, "rot", (dim3){ blocks, 1, 1 }, shapes[s], args, msg, sizeof(msg));
      CHECK_MSG(st == CORE_SUCCESS, "block %ux%ux%u: status %d: %s", shapes[s].x, shapes[s].y, shapes[s].z, st, msg);
      const uint32_t *o = (const uint32_t *)(uintptr_t)p;
      uint32_t *want = malloc(n * sizeof(*want)), bad = 0;
      for (uint32_t b = 0; b < blocks; b++) {
         rotate_model(b, n, rounds, want);
         for (uint32_t l = 0; l < n; l++)
            if (o[b * n + l] != want[l] && bad++ < 3)
               printf("    block %ux%ux%u, group %u, thread %u: got %#x, expected %#x\n", shapes[s].x, shapes[s].y,
                      shapes[s].z, b, l, o[b * n + l], want[l]);
      }
      free(want);
      core_mem_free(c->dev, p);
      CHECK_MSG(!bad, "block %ux%ux%u: %u wrong values", shapes[s].x, shapes[s].y, shapes[s].z, bad);
   }
}

TEST(threads_at_different_barriers_fail_the_launch_with_the_reason)
{
   core_ctx *c = tc_ctx();
   CHECK(c);
   uint64_t p = 0;
   CHECK_INT(core_mem_alloc(c->dev, 64, &p), CORE_SUCCESS);
   void *args[] = { &p };
   char msg[512];
   int st = run(divergent_ptx, "dv", (dim3){ 1, 1, 1 }, (dim3){ 64, 1, 1 }, args, msg, sizeof(msg));
   CHECK(st != CORE_SUCCESS);
   CHECK_CONTAINS(msg, "different threadgroup_barrier calls");
   CHECK_CONTAINS(msg, "dv");
   /* the context keeps the error (CUDA's sticky launch failure): a fresh one */
   tc_ctx_reset();
}
