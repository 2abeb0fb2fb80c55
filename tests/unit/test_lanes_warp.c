/*
 * test_lanes_warp.c — warp operations in the lane form
 * (src/compiler/msl/emit_lanes.c, emit_warp.c): votes (vote.sync all, any,
 * uni, ballot), redux.sync and bar.warp.sync over the constant full mask.
 *
 * The MSL shows each takes the lane form (MC_LANES_BEGIN; a vote reads
 * its SIMD-group's predicates, MC_LANE_VOTE, or a uniform predicate,
 * MC_LANE_VOTE_U; redux.sync combines its SIMD-group's values,
 * MC_LANE_REDUX and MC_LANE_REDUX_U; __syncwarp is MC_LANES_WARP_BARRIER), with
 * or without a barrier in the kernel, and that a partial mask keeps the
 * per-thread form.  Then by execution on the
 * software device, in both forms (a kernel declaring an unused 1 KB local
 * array keeps the per-thread form), against a host model of the GPU: a
 * warp whose lanes diverge (odd and even lanes compute their value on
 * either side of a branch) and reconverge before the votes, three warps
 * with a mixed, an all-true and an all-false predicate; a uniform
 * predicate's ballot; redux.sync add, min.s32, max.u32 and xor of the
 * same divergent values, and add of a uniform one; and lanes that exchange shared memory across
 * __syncwarp in the order a lane loop would get wrong (lane t reads lane
 * t ^ 31's slot, which a later lane writes).
 */
#include "harness.h"
#include "test_core_util.h"

#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
#define REGS "  .reg .pred %p<16>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<8>;\n"
/* %r1 = tid, %r2 = &sm[tid], %rd3 = &out[tid] */
#define PROLOGUE                                                              \
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"         \
   "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n" \
   "  mov.u32 %r4, sm;\n  shl.b32 %r5, %r1, 2;\n  add.s32 %r2, %r4, %r5;\n"
#define KERNEL(body)                                                          \
   HEAD ".visible .entry k(.param .u64 out)\n{\n" REGS                        \
   "  .shared .align 4 .b32 sm[1024];\n" PROLOGUE body "  ret;\n}\n"
/* The same kernel kept in the per-thread form: the lane form keeps at most
 * 512 bytes of local memory per lane (emit_lanes.c). */
#define KERNEL_PER_THREAD(body) KERNEL("  .local .align 4 .b32 keep[256];\n" body)

enum { N = 96 };   /* three warps */

/* x = odd lane ? t * 5 : t + 7 (a divergent branch, reconverged); p by
 * warp: x % 3 == 0, true, false.  out[t] = ballot(p), out[N + t] = all |
 * any << 1 | uni << 2, out[2N + t] = ballot(ntid.x == 96) (uniform). */
#define VOTES(mask) "  bar.sync 0;\n" VOTES_ONLY(mask)
#define VOTES_ONLY(mask)                                                      \
   "  and.b32 %r6, %r1, 1;\n  setp.eq.u32 %p1, %r6, 0;\n  @%p1 bra EVEN;\n"  \
   "  mul.lo.u32 %r7, %r1, 5;\n  bra.uni JOIN;\n"                             \
   "EVEN:\n  add.u32 %r7, %r1, 7;\n"                                          \
   "JOIN:\n  shr.u32 %r8, %r1, 5;\n  rem.u32 %r9, %r7, 3;\n  setp.eq.u32 %p2, %r9, 0;\n" \
   "  setp.eq.u32 %p3, %r8, 1;\n  or.pred %p2, %p2, %p3;\n"                 \
   "  setp.ne.u32 %p4, %r8, 2;\n  and.pred %p2, %p2, %p4;\n"                \
   "  vote.sync.ballot.b32 %r10, %p2, " mask ";\n"                           \
   "  vote.sync.all.pred %p5, %p2, " mask ";\n"                              \
   "  vote.sync.any.pred %p6, %p2, " mask ";\n"                              \
   "  vote.sync.uni.pred %p7, %p2, " mask ";\n"                              \
   "  selp.u32 %r11, 1, 0, %p5;\n  selp.u32 %r12, 2, 0, %p6;\n  selp.u32 %r13, 4, 0, %p7;\n" \
   "  or.b32 %r14, %r11, %r12;\n  or.b32 %r14, %r14, %r13;\n"               \
   "  mov.u32 %r15, %ntid.x;\n  setp.eq.u32 %p8, %r15, 96;\n"               \
   "  vote.sync.ballot.b32 %r16, %p8, " mask ";\n"                           \
   "  st.global.u32 [%rd3], %r10;\n  st.global.u32 [%rd3+384], %r14;\n  st.global.u32 [%rd3+768], %r16;\n"
static const char votes_ptx[] = KERNEL(VOTES("0xffffffff"));
static const char votes_ptx_per_thread[] = KERNEL_PER_THREAD(VOTES("0xffffffff"));
static const char votes_partial_ptx[] = KERNEL(VOTES("0xffff"));
/* no barrier: the votes are the only synchronisation */
static const char votes_only_ptx[] = KERNEL(VOTES_ONLY("0xffffffff"));

/* s[t] = 100 + t (on either side of a divergent branch, reconverged);
 * __syncwarp; out[t] = s[t ^ 31]: lane t reads a slot a later lane of its
 * warp wrote. */
#define SYNCWARP                                                              \
   "  bar.sync 0;\n"                                                          \
   "  and.b32 %r6, %r1, 1;\n  setp.eq.u32 %p1, %r6, 0;\n  @%p1 bra EVEN;\n"  \
   "  add.u32 %r7, %r1, 100;\n  st.shared.u32 [%r2], %r7;\n  bra.uni JOIN;\n" \
   "EVEN:\n  add.u32 %r7, %r1, 100;\n  st.shared.u32 [%r2], %r7;\n"          \
   "JOIN:\n  bar.warp.sync 0xffffffff;\n"                                     \
   "  xor.b32 %r8, %r1, 31;\n  shl.b32 %r9, %r8, 2;\n  add.s32 %r10, %r4, %r9;\n" \
   "  ld.shared.u32 %r11, [%r10];\n  st.global.u32 [%rd3], %r11;\n"
static const char syncwarp_ptx[] = KERNEL(SYNCWARP);
static const char syncwarp_ptx_per_thread[] = KERNEL_PER_THREAD(SYNCWARP);

/* redux.sync (sm_80): v = x - 40 with x as in VOTES; out[k * N + t] =
 * add, min.s32, max.u32, xor of v over the warp, then add of ntid.x
 * (uniform). */
#define REDUX(mask)                                                           \
   "  bar.sync 0;\n"                                                          \
   "  and.b32 %r6, %r1, 1;\n  setp.eq.u32 %p1, %r6, 0;\n  @%p1 bra EVEN;\n"  \
   "  mul.lo.u32 %r7, %r1, 5;\n  bra.uni JOIN;\n"                             \
   "EVEN:\n  add.u32 %r7, %r1, 7;\n"                                          \
   "JOIN:\n  sub.u32 %r8, %r7, 40;\n"                                         \
   "  redux.sync.add.u32 %r10, %r8, " mask ";\n"                             \
   "  redux.sync.min.s32 %r11, %r8, " mask ";\n"                             \
   "  redux.sync.max.u32 %r12, %r8, " mask ";\n"                             \
   "  redux.sync.xor.b32 %r13, %r8, " mask ";\n"                             \
   "  mov.u32 %r15, %ntid.x;\n  redux.sync.add.u32 %r16, %r15, " mask ";\n"  \
   "  st.global.u32 [%rd3], %r10;\n  st.global.u32 [%rd3+384], %r11;\n  st.global.u32 [%rd3+768], %r12;\n" \
   "  st.global.u32 [%rd3+1152], %r13;\n  st.global.u32 [%rd3+1536], %r16;\n"
#define KERNEL80(body) \
   ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n" REGS \
   "  .shared .align 4 .b32 sm[1024];\n" PROLOGUE body "  ret;\n}\n"
static const char redux_ptx[] = KERNEL80(REDUX("0xffffffff"));
static const char redux_ptx_per_thread[] = KERNEL80("  .local .align 4 .b32 keep[256];\n" REDUX("0xffffffff"));

TEST(full_mask_votes_and_syncwarp_take_the_lane_form)
{
   char *r = tc_msl_of(redux_ptx);
   const char *rb = r ? strstr(r, "kernel void") : NULL;
   CHECK(rb);
   if (rb) {
      CHECK(strstr(rb, "MC_LANES_BEGIN") != NULL);
      CHECK_INT(tc_count(rb, "MC_LANE_REDUX(add, "), 1);
      CHECK_INT(tc_count(rb, "MC_LANE_REDUX(min_s32, "), 1);
      CHECK_INT(tc_count(rb, "MC_LANE_REDUX(max_u32, "), 1);
      CHECK_INT(tc_count(rb, "MC_LANE_REDUX(xor, "), 1);
      CHECK_INT(tc_count(rb, "MC_LANE_REDUX_U(add, "), 1);
   }
   free(r);
   char *v = tc_msl_of(votes_ptx), *s = tc_msl_of(syncwarp_ptx), *part = tc_msl_of(votes_partial_ptx);
   const char *vb = v ? strstr(v, "kernel void") : NULL, *sb = s ? strstr(s, "kernel void") : NULL;
   const char *pb = part ? strstr(part, "kernel void") : NULL;
   CHECK(vb && sb && pb);
   if (vb) {
      CHECK(strstr(vb, "MC_LANES_BEGIN") != NULL);
      CHECK_INT(tc_count(vb, "MC_LANE_VOTE(ballot, "), 1);
      CHECK_INT(tc_count(vb, "MC_LANE_VOTE(all, "), 1);
      CHECK_INT(tc_count(vb, "MC_LANE_VOTE(any, "), 1);
      CHECK_INT(tc_count(vb, "MC_LANE_VOTE(uni, "), 1);
      CHECK_INT(tc_count(vb, "MC_LANE_VOTE_U(ballot, "), 1);
      CHECK_INT(tc_count(vb, "mc_lm_warps_whole("), 5);
   }
   if (sb) {
      CHECK(strstr(sb, "MC_LANES_BEGIN") != NULL);
      CHECK_INT(tc_count(sb, "MC_LANES_WARP_BARRIER("), 1);
      CHECK_INT(tc_count(sb, "simdgroup_barrier("), 0);
   }
   char *vo = tc_msl_of(votes_only_ptx);
   const char *vob = vo ? strstr(vo, "kernel void") : NULL;
   CHECK(vob && strstr(vob, "MC_LANES_BEGIN") && tc_count(vob, "MC_LANE_VOTE(") == 4);
   free(vo);
   if (pb)   /* a partial mask: the per-thread form's mc_vote_* */
      CHECK(strstr(pb, "MC_LANES_BEGIN") == NULL && strstr(pb, "mc_vote_ballot(") != NULL);
   free(v);
   free(s);
   free(part);
}

static bool run_block(core_ctx *c, const char *ptx, uint64_t out)
{
   void *args[] = { &out };
   char msg[512];
   bool ok = tc_run_ptx(c, ptx, "k", (const uint32_t[3]){ 1, 1, 1 }, (const uint32_t[3]){ N, 1, 1 }, args, msg,
                        sizeof(msg)) == CORE_SUCCESS;
   if (!ok)
      fprintf(stderr, "    %s\n", msg);
   return ok;
}

/* The GPU's votes over each warp's 32 lanes (the host model). */
static bool model_p(uint32_t t)
{
   uint32_t x = t & 1 ? t * 5 : t + 7, w = t >> 5;
   return (x % 3 == 0 || w == 1) && w != 2;
}

TEST(lane_form_votes_and_syncwarp_compute_the_gpus_results)
{
   core_ctx *c = tc_ctx();
   CHECK(c);
   if (!c)
      return;
   uint64_t d = 0;
   CHECK_INT(core_mem_alloc(c->dev, 5 * N * sizeof(uint32_t), &d), CORE_SUCCESS);
   const uint32_t *got = (const uint32_t *)(uintptr_t)d;
   static const char *const form[3] = { "lane form", "per thread", "lane form, no barrier" };
   const char *const votes[3] = { votes_ptx, votes_ptx_per_thread, votes_only_ptx };
   const char *const sync[2] = { syncwarp_ptx, syncwarp_ptx_per_thread };
   const char *const redux[2] = { redux_ptx, redux_ptx_per_thread };
   for (int f = 0; f < 3; f++) {
      memset((void *)(uintptr_t)d, 0xee, 3 * N * sizeof(uint32_t));
      CHECK(run_block(c, votes[f], d));
      uint32_t bad = 0;
      for (uint32_t t = 0; t < N; t++) {
         uint32_t ballot = 0, w0 = t & ~31u;
         for (uint32_t k = 0; k < 32; k++)
            ballot |= model_p(w0 + k) ? 1u << k : 0u;
         uint32_t all = ballot == 0xffffffffu, any = ballot != 0, uni = all || !any;
         uint32_t want[3] = { ballot, all | any << 1 | uni << 2, 0xffffffffu };
         for (int k = 0; k < 3; k++)
            if (got[k * N + t] != want[k] && bad++ < 4)
               fprintf(stderr, "    votes (%s): out[%u] = %#x, want %#x\n", form[f], k * N + t, got[k * N + t],
                       want[k]);
      }
      CHECK_INT(bad, 0);
      if (f == 2)
         break;

      CHECK(run_block(c, sync[f], d));
      bad = 0;
      for (uint32_t t = 0; t < N; t++)
         if (got[t] != 100 + (t ^ 31) && bad++ < 4)
            fprintf(stderr, "    syncwarp (%s): out[%u] = %u, want %u\n", form[f], t, got[t], 100 + (t ^ 31));
      CHECK_INT(bad, 0);

      memset((void *)(uintptr_t)d, 0xee, 5 * N * sizeof(uint32_t));
      CHECK(run_block(c, redux[f], d));
      bad = 0;
      for (uint32_t t = 0; t < N; t++) {
         uint32_t add = 0, umax = 0, x = 0, w0 = t & ~31u;
         int32_t smin = INT32_MAX;
         for (uint32_t k = 0; k < 32; k++) {
            uint32_t u = w0 + k, v = (u & 1 ? u * 5 : u + 7) - 40;
            add += v;
            smin = (int32_t)v < smin ? (int32_t)v : smin;
            umax = v > umax ? v : umax;
            x ^= v;
         }
         uint32_t want[5] = { add, (uint32_t)smin, umax, x, 32 * N };
         for (int k = 0; k < 5; k++)
            if (got[k * N + t] != want[k] && bad++ < 4)
               fprintf(stderr, "    redux (%s): out[%u] = %#x, want %#x\n", form[f], k * N + t, got[k * N + t],
                       want[k]);
      }
      CHECK_INT(bad, 0);
   }
   core_mem_free(c->dev, d);
}
