/*
 * test_lanes_runs.c — the software device's lane loops in both of their
 * forms (prelude base.metal, lane form): by default
 * (src/metal/soft/compile.c lanes_by_runs) a lane loop walks the runs of
 * consecutive active lanes of each mask word or segment, mc_on true;
 * masked, every lane, mc_on its mask bit.
 * METALCUDA_SOFT_LANE_LOOPS=runs / masked picks the form on any machine.
 *
 * By execution on the software device in each form, against a host model:
 * a 48 x 2 block (segments of 48, 16 and 32 lanes: rows and 64-lane mask
 * words) stores with every lane active, exchanges shared memory across a
 * barrier, stores under a branch on tid.x that leaves some segments whole
 * and others partial, and under a branch on odd t (runs of one lane); a
 * value an odd lane sets and even lanes keep crosses the barrier.  The
 * MSL shows that the two branches with plain arms take no lane loops of
 * their own (emit_lanes.c, "runs"), and that only lane loops with long
 * branches say so (MC_LANES_FOR_POS_IF, not forced to vectorise where
 * lane loops walk runs).
 */
#include "harness.h"
#include "test_core_util.h"

#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

enum { NX = 48, NY = 2, N = NX * NY };

/* out[t] = 3t + 1; out[2N + t] = 7 (N - 1 - t) through shared memory
 * after a barrier; out[N + t] = t ^ 85 where tid.x < 40, else untouched;
 * out[3N + t] = t where t is odd, else untouched; out[4N + t] = v after
 * the barrier, v = t + 2000 where t is odd, else 1000. */
static const char runs_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry k(.param .u64 out)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n"
   "  .shared .align 4 .b32 sm[96];\n"
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
   "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %ntid.x;\n"
   "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
   "  mul.wide.u32 %rd2, %r4, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
   "  mad.lo.u32 %r5, %r4, 3, 1;\n  st.global.u32 [%rd3], %r5;\n"
   "  mov.u32 %r6, sm;\n  shl.b32 %r7, %r4, 2;\n  add.s32 %r8, %r6, %r7;\n"
   "  mul.lo.u32 %r9, %r4, 7;\n  st.shared.u32 [%r8], %r9;\n"
   "  mov.u32 %r16, 1000;\n  and.b32 %r17, %r4, 1;\n  setp.eq.u32 %p2, %r17, 0;\n  @%p2 bra EVEN;\n"
   "  add.u32 %r16, %r4, 2000;\n  st.global.u32 [%rd3+1152], %r4;\n"
   "EVEN:\n  bar.sync 0;\n"
   "  st.global.u32 [%rd3+1536], %r16;\n"
   "  mov.u32 %r15, 95;\n  sub.u32 %r10, %r15, %r4;\n  shl.b32 %r11, %r10, 2;\n"
   "  add.s32 %r12, %r6, %r11;\n  ld.shared.u32 %r13, [%r12];\n"
   "  st.global.u32 [%rd3+768], %r13;\n"
   "  setp.ge.u32 %p1, %r1, 40;\n  @%p1 bra SKIP;\n"
   "  xor.b32 %r14, %r4, 85;\n  st.global.u32 [%rd3+384], %r14;\n"
   "SKIP:\n  ret;\n}\n";

/* The two divergent branches (odd t, tid.x < 40) have plain arms: each
 * lane takes its arm with an `if` inside the lane loop of the code around
 * it (emit_lanes.c, "runs"), one lane loop on either side of the barrier;
 * the form before it had a loop for the condition, a ballot and a loop for
 * the arm: 5 loops and 2 ballots.  The breaks to the end of the branches'
 * BLOCKs are nothing there. */
TEST(plain_branches_run_in_the_lane_loop_of_the_code_around_them)
{
   char *msl = tc_msl_of(runs_ptx);
   const char *body = msl ? strstr(msl, "kernel void") : NULL;
   CHECK(body);
   if (body) {
      CHECK(strstr(body, "MC_LANES_BEGIN") != NULL);
      CHECK_INT(tc_count(body, "MC_LANES_FOR"), 2);
      CHECK_INT(tc_count(body, "mc_lm_ballot("), 0);
      CHECK_INT(tc_count(body, "MC_LANES_BARRIER();"), 1);
      CHECK_INT(tc_count(body, "break;"), 0);
   }
   free(msl);
}

/* Positional lane loops stay the forced, vectorised kind
 * (MC_LANES_FOR_POS) unless more than eight instructions are under their
 * lanes' branches (emit_lanes.c BRANCHY_MAX: MC_LANES_FOR_POS_IF, not
 * forced where lane loops walk runs): a store of tid.x to shared memory,
 * a barrier, the word w back to out[tid.x], straight or, where tid.x < 40,
 * after nine operations on w (branchy_want). */
#define LOOPS_PTX(ARM)                                                                                 \
   ".version 9.0\n.target sm_75\n.address_size 64\n"                                                 \
   ".visible .entry k(.param .u64 out)\n{\n"                                                          \
   "  .reg .pred %p<2>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"                                  \
   "  .shared .align 4 .b32 sm[65];\n"                                                                \
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"                                  \
   "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sm;\n  shl.b32 %r3, %r1, 2;\n  add.s32 %r4, %r2, %r3;\n"    \
   "  st.shared.u32 [%r4], %r1;\n"                                                                    \
   "  bar.sync 0;\n"                                                                                  \
   "  ld.shared.u32 %r5, [%r4];\n"                                                                    \
   "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n" ARM                                  \
   "  st.global.u32 [%rd3], %r5;\n"                                                                   \
   "SKIP:\n  ret;\n}\n"
static const char straight_ptx[] = LOOPS_PTX("");
static uint32_t branchy_want(uint32_t t)
{
   if (t >= 40)
      return 0xeeeeeeeeu;   /* not written */
   uint32_t r = ((t * 3 + 7) ^ t) * 5 + t;
   return ((((r ^ 99) + t) * 11) ^ t);
}
static const char branchy_ptx[] =
   LOOPS_PTX("  setp.ge.u32 %p1, %r1, 40;\n  @%p1 bra SKIP;\n"
             "  mul.lo.u32 %r6, %r5, 3;\n  add.u32 %r6, %r6, 7;\n  xor.b32 %r6, %r6, %r1;\n"
             "  mul.lo.u32 %r6, %r6, 5;\n  add.u32 %r6, %r6, %r5;\n  xor.b32 %r6, %r6, 99;\n"
             "  add.u32 %r6, %r6, %r1;\n  mul.lo.u32 %r6, %r6, 11;\n  xor.b32 %r5, %r6, %r5;\n");

/* How often `what` occurs in the lane-form kernel of ptx's MSL; -1 if it
 * is not in lane form. */
static int in_lane_kernel(const char *ptx, const char *what)
{
   char *msl = tc_msl_of(ptx);
   const char *body = msl ? strstr(msl, "kernel void") : NULL;
   int n = body && strstr(body, "MC_LANES_BEGIN") ? (int)tc_count(body, what) : -1;
   free(msl);
   return n;
}

TEST(positional_lane_loops_of_long_branches_are_not_forced_to_vectorise)
{
   CHECK_INT(in_lane_kernel(straight_ptx, "MC_LANES_FOR_POS("), 2);
   CHECK_INT(in_lane_kernel(straight_ptx, "MC_LANES_FOR_POS_IF("), 0);
   CHECK_INT(in_lane_kernel(branchy_ptx, "MC_LANES_FOR_POS("), 1);
   CHECK_INT(in_lane_kernel(branchy_ptx, "MC_LANES_FOR_POS_IF("), 1);
   /* the two branches of runs_ptx have two instructions each */
   CHECK_INT(in_lane_kernel(runs_ptx, "MC_LANES_FOR_POS_IF("), 0);
}

TEST(lane_loops_by_runs_and_by_masks_compute_the_gpus_results)
{
   core_ctx *c = tc_ctx();
   CHECK(c);
   if (!c)
      return;
   uint64_t d = 0;
   CHECK_INT(core_mem_alloc(c->dev, 5 * N * sizeof(uint32_t), &d), CORE_SUCCESS);
   const uint32_t *got = (const uint32_t *)(uintptr_t)d;
   static const char *const forms[2] = { "runs", "masked" };
   char *saved = tc_env_save("METALCUDA_SOFT_LANE_LOOPS");
   for (int f = 0; f < 2; f++) {
      setenv("METALCUDA_SOFT_LANE_LOOPS", forms[f], 1);
      memset((void *)(uintptr_t)d, 0xee, 5 * N * sizeof(uint32_t));
      void *args[] = { &d };
      char msg[512];
      int r = tc_run_ptx(c, runs_ptx, "k", (const uint32_t[3]){ 1, 1, 1 }, (const uint32_t[3]){ NX, NY, 1 },
                         args, msg, sizeof(msg));
      CHECK_INT(r, CORE_SUCCESS);
      if (r != CORE_SUCCESS)
         fprintf(stderr, "    %s\n", msg);
      uint32_t bad = 0;
      for (uint32_t t = 0; t < N; t++) {
         uint32_t want[5] = { 3 * t + 1, t % NX < 40 ? t ^ 85 : 0xeeeeeeeeu, 7 * (N - 1 - t),
                              t & 1 ? t : 0xeeeeeeeeu, t & 1 ? t + 2000 : 1000 };
         for (int k = 0; k < 5; k++)
            if (got[k * N + t] != want[k] && bad++ < 4)
               fprintf(stderr, "    lane loops %s: out[%u] = %#x, want %#x\n", forms[f], k * N + t, got[k * N + t],
                       want[k]);
      }
      CHECK_INT(bad, 0);
      /* a lane loop with a long branch (not forced to vectorise where
       * lane loops walk runs) */
      memset((void *)(uintptr_t)d, 0xee, NX * sizeof(uint32_t));
      r = tc_run_ptx(c, branchy_ptx, "k", (const uint32_t[3]){ 1, 1, 1 }, (const uint32_t[3]){ NX, 1, 1 }, args,
                     msg, sizeof(msg));
      CHECK_INT(r, CORE_SUCCESS);
      for (uint32_t t = 0; t < NX; t++)
         if (got[t] != branchy_want(t) && bad++ < 4)
            fprintf(stderr, "    lane loops %s, long branch: out[%u] = %#x, want %#x\n", forms[f], t, got[t],
                    branchy_want(t));
      CHECK_INT(bad, 0);
   }
   tc_env_restore("METALCUDA_SOFT_LANE_LOOPS", saved);
   core_mem_free(c->dev, d);
}
