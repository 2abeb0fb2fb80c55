/*
 * test_resume.c — barriers as resume points on the software device
 * (src/compiler/msl/emit_resume.c, the passes in the entry that
 * src/metal/soft/msl_scan.c generates): which kernels get them, values
 * and local memory that live across barriers in loops, every block shape,
 * and barriers that not every thread reaches, reported as the fiber
 * scheduler reports them; full-mask warp shuffles as resume points (32-
 * and 64-bit values, every mode, in a loop with a barrier), and shuffles
 * in divergent code, which keep fibers and stay correct; shuffles each
 * SIMD-group reaches as one but the block does not (`if (tid.x / 32 ==
 * 0)` after a divergent loop, a loop of per-warp trip count), resumed per
 * thread, in block shapes whose SIMD-groups are rows of x and, run as
 * fibers, in one whose are not (Volta's rule pairing two shuffle
 * instructions).  Expected values
 * come from a host model of the kernel (exact integer arithmetic; the
 * shuffles after the pseudo-code of PTX ISA 9.0 shfl.sync).
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

/* A warp shuffle over the full mask that every thread reaches: a resume
 * point. */
static const char shuffle_ptx[] = HEAD
   ".visible .entry sh(.param .u64 out)\n{\n"
   "   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n   mov.u32 %r1, %tid.x;\n"
   "   bar.sync 0;\n   shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\n"
   "   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r2;\n   ret;\n}\n";

/* Several shuffles a round, every mode (up with its predicate, down,
 * butterfly, idx with a uniform and a per-lane source, 8-lane segments), a
 * 64-bit value shuffled as two halves, in a loop with a barrier: a is
 * lin * 0x9e3779b1 + ctaid, d = a << 32 | (lin ^ 0x5a5a); each round
 *   t1 = up(a, 1, c 0) (p: in range), t2 = down(a, 3), t3 = bfly(t1, 5),
 *   t4 = idx(t2, k), t5 = idx(a, 3 * lin, c 0x181f: 8-lane segments),
 *   d += 3 * bfly(d, 2), a = (a ^ t3) + t4 + 7 * t5 + !p.
 * out[16 * (ctaid * n + lin)]: a, then d. */
static const char shuffles_ptx[] = HEAD
   ".visible .entry sx(.param .u64 out, .param .u32 rounds)\n{\n"
   "   .reg .pred %p<4>;\n   .reg .b32 %r<48>;\n   .reg .b64 %rd<12>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n   ld.param.u32 %r20, [rounds];\n"
   "   mov.u32 %r1, %tid.x;\n   mov.u32 %r2, %tid.y;\n   mov.u32 %r3, %tid.z;\n"
   "   mov.u32 %r4, %ntid.x;\n   mov.u32 %r5, %ntid.y;\n   mov.u32 %r6, %ntid.z;\n"
   "   mad.lo.u32 %r7, %r3, %r5, %r2;\n   mad.lo.u32 %r7, %r7, %r4, %r1;\n"
   "   mul.lo.u32 %r8, %r4, %r5;\n   mul.lo.u32 %r8, %r8, %r6;\n"
   "   mov.u32 %r9, %ctaid.x;\n   mad.lo.u32 %r10, %r7, 0x9e3779b1, %r9;\n   xor.b32 %r11, %r7, 0x5a5a;\n"
   "   cvt.u64.u32 %rd2, %r10;\n   shl.b64 %rd2, %rd2, 32;\n   cvt.u64.u32 %rd3, %r11;\n   or.b64 %rd4, %rd2, %rd3;\n"
   "   mul.lo.u32 %r12, %r7, 3;\n   mov.u32 %r17, 0;\n"
   "LOOP:\n"
   "   setp.ge.u32 %p1, %r17, %r20;\n   @%p1 bra DONE;\n"
   "   shfl.sync.up.b32 %r21|%p2, %r10, 1, 0, -1;\n"
   "   shfl.sync.down.b32 %r22, %r10, 3, 31, -1;\n"
   "   shfl.sync.bfly.b32 %r23, %r21, 5, 31, -1;\n"
   "   shfl.sync.idx.b32 %r24, %r22, %r17, 31, -1;\n"
   "   shfl.sync.idx.b32 %r25, %r10, %r12, 0x181f, -1;\n"
   "   mov.b64 {%r26, %r27}, %rd4;\n"
   "   shfl.sync.bfly.b32 %r28, %r26, 2, 31, -1;\n   shfl.sync.bfly.b32 %r29, %r27, 2, 31, -1;\n"
   "   mov.b64 %rd5, {%r28, %r29};\n   mul.lo.u64 %rd6, %rd5, 3;\n   add.u64 %rd4, %rd4, %rd6;\n"
   "   selp.u32 %r30, 0, 1, %p2;\n   xor.b32 %r31, %r10, %r23;\n   add.u32 %r31, %r31, %r24;\n"
   "   mad.lo.u32 %r31, %r25, 7, %r31;\n   add.u32 %r10, %r31, %r30;\n"
   "   bar.sync 0;\n   add.u32 %r17, %r17, 1;\n   bra LOOP;\n"
   "DONE:\n"
   "   mad.lo.u32 %r40, %r9, %r8, %r7;\n   mul.wide.u32 %rd7, %r40, 16;\n   add.s64 %rd8, %rd1, %rd7;\n"
   "   st.global.u32 [%rd8], %r10;\n   st.global.u64 [%rd8+8], %rd4;\n   ret;\n}\n";

/* A loop whose trip count differs between warps (w + 1 for warp w):
 * v = 5 * lin + 1, each trip v += 3 * bfly(v, 1) + k.  Its branch is
 * divergent in the block but not in a SIMD-group: its shuffle is a resume
 * point of each group. */
static const char warp_trips_ptx[] = HEAD
   ".visible .entry dw(.param .u64 out)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<12>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n   shr.u32 %r2, %r1, 5;\n   mad.lo.u32 %r3, %r1, 5, 1;\n   mov.u32 %r4, 0;\n"
   "L:\n   shfl.sync.bfly.b32 %r5, %r3, 1, 31, -1;\n   mad.lo.u32 %r3, %r5, 3, %r3;\n   add.u32 %r3, %r3, %r4;\n"
   "   add.u32 %r4, %r4, 1;\n   setp.le.u32 %p1, %r4, %r2;\n   @%p1 bra L;\n"
   "   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r3;\n   ret;\n}\n";

/* Temporal divergence: the first loop counts i to w + 1 (warp w) on a
 * divergent branch; the second, a do-while on i < that count, is entered
 * by every thread and runs a different number of times in each warp,
 * though its condition looks uniform.  v = lin + 7, each trip
 * v += bfly(v, 1) + k. */
static const char temporal_ptx[] = HEAD
   ".visible .entry tw(.param .u64 out)\n{\n"
   "   .reg .pred %p<3>;\n   .reg .b32 %r<12>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n   shr.u32 %r2, %r1, 5;\n   add.u32 %r3, %r1, 7;\n   mov.u32 %r4, 0;\n"
   "L1:\n   add.u32 %r4, %r4, 1;\n   setp.le.u32 %p1, %r4, %r2;\n   @%p1 bra L1;\n"
   "   mov.u32 %r6, 0;\n"
   "L2:\n   shfl.sync.bfly.b32 %r5, %r3, 1, 31, -1;\n   add.u32 %r3, %r3, %r5;\n   add.u32 %r3, %r3, %r6;\n"
   "   add.u32 %r6, %r6, 1;\n   setp.lt.u32 %p2, %r6, %r4;\n   @%p2 bra L2;\n"
   "   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r3;\n   ret;\n}\n";

/* tw with the first loop counting to lane + 1: the second's trip count
 * (a value the first loop defines, used after it) differs inside a
 * SIMD-group although its condition looks uniform (temporal divergence).
 * Only compiled: its lanes would leave the shuffle's loop apart. */
static const char temporal_lane_ptx[] = HEAD
   ".visible .entry tl(.param .u64 out)\n{\n"
   "   .reg .pred %p<3>;\n   .reg .b32 %r<12>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n   and.b32 %r2, %r1, 31;\n   add.u32 %r3, %r1, 7;\n   mov.u32 %r4, 0;\n"
   "L1:\n   add.u32 %r4, %r4, 1;\n   setp.le.u32 %p1, %r4, %r2;\n   @%p1 bra L1;\n"
   "   mov.u32 %r6, 0;\n"
   "L2:\n   shfl.sync.bfly.b32 %r5, %r3, 1, 31, -1;\n   add.u32 %r3, %r3, %r5;\n   add.u32 %r3, %r3, %r6;\n"
   "   add.u32 %r6, %r6, 1;\n   setp.lt.u32 %p2, %r6, %r4;\n   @%p2 bra L2;\n"
   "   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r3;\n   ret;\n}\n";

/* A shuffle over a member mask other than the constant full one. */
static const char half_mask_ptx[] = HEAD
   ".visible .entry hm(.param .u64 out)\n{\n"
   "   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n   mov.u32 %r1, %tid.x;\n"
   "   shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xffff;\n"
   "   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r2;\n   ret;\n}\n";

/* rotate_ptx with a loop of per-thread trip count before its barrier loop
 * (its count feeds the result, so that the loop stays): such a loop would
 * cost the lane form an iteration of every lane for its last lane's
 * count (msl/emit_lanes.c's cost model), so this kernel keeps the
 * per-thread form and its barriers are resume points.  Only compiled. */
static char *rotate_divergent_ptx(void)
{
   static const char pre[] = "   mov.u32 %r30, 0;\nPRE:\n   add.u32 %r30, %r30, 1;\n"
                             "   setp.lt.u32 %p1, %r30, %r7;\n   @%p1 bra PRE;\n   xor.b32 %r10, %r10, %r30;\n";
   const char *at = strstr(rotate_ptx, "   mov.u32 %r17, 0;\nLOOP:");
   char *s = at ? malloc(sizeof(rotate_ptx) + sizeof(pre)) : NULL;
   if (!s)
      return NULL;
   size_t n = (size_t)(at - rotate_ptx);
   memcpy(s, rotate_ptx, n);
   memcpy(s + n, pre, sizeof(pre) - 1);
   strcpy(s + n + sizeof(pre) - 1, at);
   return s;
}

/* The MSL of a kernel in lane form (msl/emit_lanes.c) opens its body so. */
static bool in_lane_form(const char *msl) { return strstr(msl, "\n    MC_LANES_BEGIN\n") != NULL; }

/* Barrier kernels go to the lane form where it pays (emit_lanes.c), and
 * their barriers are resume points where it does not. */
TEST(barrier_kernels_take_the_lane_form_or_resume_points)
{
   char *src = rotate_divergent_ptx();
   CHECK(src);
   char *rot = tc_msl_of(rotate_ptx), *rotd = src ? tc_msl_of(src) : NULL, *sx = tc_msl_of(shuffles_ptx);
   CHECK(rot && rotd && sx);
   bool rot_lanes = rot && in_lane_form(rot) && !strstr(rot, "__mc_rs_");
   bool sx_lanes = sx && in_lane_form(sx) && !strstr(sx, "__mc_rs_");
   bool rotd_marked = rotd && !in_lane_form(rotd) && strstr(rotd, "__mc_rs_yield(2u)") && strstr(rotd, "__MC_RS_LABEL(2)");
   /* Metal's compiler must see the plain barrier: the markup is all inside #ifdef */
   bool plain = rotd && strstr(rotd, "#ifdef __MC_SOFT_RESUME\n") && strstr(rotd, "threadgroup_barrier(");
   free(src);
   free(rot);
   free(rotd);
   free(sx);
   CHECK_MSG(rot_lanes, "the barrier-only kernel is not in lane form");
   CHECK_MSG(sx_lanes, "the kernel of 7 full-mask shuffles and a barrier is not in lane form");
   CHECK_MSG(rotd_marked, "the barrier kernel with a loop of per-thread trip count has no resume points");
   CHECK(plain);
}

TEST(only_shuffles_every_lane_of_a_warp_reaches_alike_get_resume_points)
{
   char *sh = tc_msl_of(shuffle_ptx);
   char *dw = tc_msl_of(warp_trips_ptx), *tw = tc_msl_of(temporal_ptx), *hm = tc_msl_of(half_mask_ptx);
   char *tl = tc_msl_of(temporal_lane_ptx);
   CHECK(sh && dw && tw && hm && tl);
   bool sh_lanes = in_lane_form(sh) && !strstr(sh, "__mc_rs_");   /* a barrier and a shuffle */
   bool dw_marked = strstr(dw, "__mc_rs_tpc()") != NULL, tw_marked = strstr(tw, "__mc_rs_tpc()") != NULL;
   bool tl_marked = strstr(tl, "__mc_rs_") != NULL;
   bool hm_marked = strstr(hm, "__mc_rs_") != NULL;
   free(sh);
   free(dw);
   free(tw);
   free(hm);
   free(tl);
   CHECK_MSG(sh_lanes, "a barrier and a full-mask shuffle every thread reaches are not in lane form");
   CHECK_MSG(dw_marked, "a shuffle in a loop of per-warp trip count got no per-thread resume points");
   CHECK_MSG(tw_marked, "a shuffle in a loop of per-warp trip count (after a loop of per-warp trip count) got no per-thread resume points");
   CHECK_MSG(!tl_marked, "a shuffle in a loop whose trip count comes out of a loop of per-lane trip count got resume points");
   CHECK_MSG(!hm_marked, "a shuffle over a partial member mask got resume points");
}

/* A kernel whose threads never wait for one another: 20 bytes of
 * parameters (two pointers and a u32). */
static const char independent_ptx[] = HEAD
   ".visible .entry ind(.param .u64 out, .param .u64 in, .param .u32 n)\n{\n"
   "   .reg .b32 %r<4>;\n   .reg .b64 %rd<6>;\n"
   "   ld.param.u64 %rd1, [out];\n   ld.param.u32 %r2, [n];\n   mov.u32 %r1, %tid.x;\n"
   "   add.u32 %r3, %r1, %r2;\n   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n"
   "   st.global.u32 [%rd3], %r3;\n   ret;\n}\n";

/* The hint to the software device of whether a per-thread-form kernel's
 * threads wait for one another (msl/emit.c emit_thread_sync_hint): with
 * its parameter bytes where they never do, MC_THREADS_WAIT where they
 * wait outside resume points (a partial-mask shuffle), none in the lane form or with resume points (whose entries
 * need both the loop and the thread function). */
TEST(thread_sync_hint_follows_the_kernels_synchronisation)
{
   char *ind = tc_msl_of(independent_ptx), *hm = tc_msl_of(half_mask_ptx);
   char *rot = tc_msl_of(rotate_ptx), *dw = tc_msl_of(warp_trips_ptx);
   CHECK(ind && hm && rot && dw);
   if (ind && hm && rot && dw) {
      CHECK_CONTAINS(ind, "\n    MC_THREADS_INDEPENDENT(20);\n");
      CHECK(!strstr(ind, "    MC_THREADS_WAIT;"));
      CHECK_CONTAINS(hm, "\n    MC_THREADS_WAIT;\n");
      CHECK(!strstr(hm, "    MC_THREADS_INDEPENDENT("));
      CHECK_MSG(!strstr(rot, "    MC_THREADS_") && !strstr(dw, "    MC_THREADS_"),
                "a kernel in lane form or with resume points got a thread hint");
   }
   free(ind);
   free(hm);
   free(rot);
   free(dw);
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

/* shfl.sync's source lane for lane l (PTX ISA 9.0 shfl.sync pseudo-code);
 * l itself when out of range (*in_range false). */
static uint32_t shfl_src(int mode, uint32_t l, uint32_t b, uint32_t c, bool *in_range)
{
   uint32_t bval = b & 31, cval = c & 31, segmask = (c >> 8) & 31;
   int max_lane = (int)((l & segmask) | (cval & ~segmask)), min_lane = (int)(l & segmask), j;
   bool p;
   switch (mode) {
   case 0: j = (int)l - (int)bval; p = j >= max_lane; break;            /* up */
   case 1: j = (int)(l + bval); p = j <= max_lane; break;               /* down */
   case 2: j = (int)(l ^ bval); p = j <= max_lane; break;               /* bfly */
   default: j = min_lane | (int)(bval & ~segmask); p = j <= max_lane; break; /* idx */
   }
   if (in_range)
      *in_range = p;
   return p ? (uint32_t)j : l;
}

/* shuffles_ptx's model for block b of n threads (n a multiple of 32). */
static void shuffles_model(uint32_t b, uint32_t n, uint32_t rounds, uint32_t *a_out, uint64_t *d_out)
{
   uint32_t *a = malloc(n * 4), *t1 = malloc(n * 4), *t2 = malloc(n * 4), *na = malloc(n * 4);
   uint64_t *d = malloc(n * 8), *nd = malloc(n * 8);
   bool *p = malloc(n);
   for (uint32_t l = 0; l < n; l++) {
      a[l] = l * 0x9e3779b1u + b;
      d[l] = (uint64_t)a[l] << 32 | (l ^ 0x5a5a);
   }
   for (uint32_t k = 0; k < rounds; k++) {
      for (uint32_t l = 0; l < n; l++) {
         uint32_t w = l & ~31u, lane = l & 31;
         t1[l] = a[w + shfl_src(0, lane, 1, 0, &p[l])];
         t2[l] = a[w + shfl_src(1, lane, 3, 31, NULL)];
      }
      for (uint32_t l = 0; l < n; l++) {
         uint32_t w = l & ~31u, lane = l & 31;
         uint32_t t3 = t1[w + shfl_src(2, lane, 5, 31, NULL)];
         uint32_t t4 = t2[w + shfl_src(3, lane, k, 31, NULL)];
         uint32_t t5 = a[w + shfl_src(3, lane, 3 * l, 0x181f, NULL)];
         nd[l] = d[l] + 3 * d[w + shfl_src(2, lane, 2, 31, NULL)];
         na[l] = (a[l] ^ t3) + t4 + 7 * t5 + (p[l] ? 0 : 1);
      }
      memcpy(a, na, n * 4);
      memcpy(d, nd, n * 8);
   }
   memcpy(a_out, a, n * 4);
   memcpy(d_out, d, n * 8);
   free(a), free(t1), free(t2), free(na), free(d), free(nd), free(p);
}

TEST(full_mask_shuffles_as_resume_points_give_every_lane_its_value)
{
   static const dim3 shapes[] = { {32, 1, 1}, {256, 1, 1}, {1024, 1, 1}, {8, 4, 2}, {32, 3, 2} };
   const uint32_t blocks = 3, rounds = 40;
   core_ctx *c = tc_ctx();
   CHECK(c);
   for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
      uint32_t n = shapes[s].x * shapes[s].y * shapes[s].z;
      uint64_t p = 0;
      CHECK_INT(core_mem_alloc(c->dev, (size_t)blocks * n * 16, &p), CORE_SUCCESS);
      memset((void *)(uintptr_t)p, 0xde, (size_t)blocks * n * 16);
      uint32_t r = rounds;
      void *args[] = { &p, &r };
      char msg[512];
      int st = run(shuffles_ptx, "sx", (dim3){ blocks, 1, 1 }, shapes[s], args, msg, sizeof(msg));
      CHECK_MSG(st == CORE_SUCCESS, "block %ux%ux%u: status %d: %s", shapes[s].x, shapes[s].y, shapes[s].z, st, msg);
      const uint8_t *o = (const uint8_t *)(uintptr_t)p;
      uint32_t *wa = malloc(n * 4), bad = 0;
      uint64_t *wd = malloc(n * 8);
      for (uint32_t b = 0; b < blocks; b++) {
         shuffles_model(b, n, rounds, wa, wd);
         for (uint32_t l = 0; l < n; l++) {
            uint32_t ga;
            uint64_t gd;
            memcpy(&ga, o + 16 * ((size_t)b * n + l), 4);
            memcpy(&gd, o + 16 * ((size_t)b * n + l) + 8, 8);
            if ((ga != wa[l] || gd != wd[l]) && bad++ < 3)
               printf("    block %ux%ux%u, group %u, thread %u: got %#x %#llx, expected %#x %#llx\n", shapes[s].x,
                      shapes[s].y, shapes[s].z, b, l, ga, (unsigned long long)gd, wa[l], (unsigned long long)wd[l]);
         }
      }
      free(wa);
      free(wd);
      core_mem_free(c->dev, p);
      CHECK_MSG(!bad, "block %ux%ux%u: %u wrong values", shapes[s].x, shapes[s].y, shapes[s].z, bad);
   }
}

/* dw's and tw's models for a block of n threads. */
static void warp_trips_model(uint32_t n, bool temporal, uint32_t *out)
{
   uint32_t *v = malloc(n * 4), *nv = malloc(n * 4);
   for (uint32_t l = 0; l < n; l++)
      v[l] = temporal ? l + 7 : 5 * l + 1;
   for (uint32_t w = 0; w < n / 32; w++)
      for (uint32_t k = 0; k <= w; k++) {
         for (uint32_t l = 32 * w; l < 32 * w + 32; l++) {
            uint32_t x = v[32 * w + shfl_src(2, l & 31, 1, 31, NULL)];
            nv[l] = temporal ? v[l] + x + k : v[l] + 3 * x + k;
         }
         memcpy(v + 32 * w, nv + 32 * w, 32 * 4);
      }
   memcpy(out, v, n * 4);
   free(v);
   free(nv);
}

TEST(shuffles_in_loops_of_per_warp_trip_counts_stay_correct)
{
   static const struct { const char *ptx, *name; bool temporal; } k[] = {
      { warp_trips_ptx, "dw", false }, { temporal_ptx, "tw", true },
   };
   const uint32_t n = 128;
   core_ctx *c = tc_ctx();
   CHECK(c);
   for (size_t i = 0; i < ARRAY_SIZE(k); i++) {
      uint64_t p = 0;
      CHECK_INT(core_mem_alloc(c->dev, n * 4, &p), CORE_SUCCESS);
      memset((void *)(uintptr_t)p, 0xde, n * 4);
      void *args[] = { &p };
      char msg[512];
      int st = run(k[i].ptx, k[i].name, (dim3){ 1, 1, 1 }, (dim3){ n, 1, 1 }, args, msg, sizeof(msg));
      CHECK_MSG(st == CORE_SUCCESS, "%s: status %d: %s", k[i].name, st, msg);
      const uint32_t *o = (const uint32_t *)(uintptr_t)p;
      uint32_t want[128], bad = 0;
      warp_trips_model(n, k[i].temporal, want);
      for (uint32_t l = 0; l < n; l++)
         if (o[l] != want[l] && bad++ < 3)
            printf("    %s thread %u: got %#x, expected %#x\n", k[i].name, l, o[l], want[l]);
      core_mem_free(c->dev, p);
      CHECK_MSG(!bad, "%s: %u wrong values", k[i].name, bad);
   }
}

/* The reduction of bench/kernels.cu's reduce_shfl: s = the sum of 3i + 1
 * over i = lin, lin + 7, ... < n (a loop of divergent trip count); each
 * SIMD-group adds down(16) then down(1); lane 0 stores it in ws[lin / 32];
 * a barrier; then, under `if (tid.x >> 5 == 0)`, v = ws[tid.x & 31] for
 * the first nw (lanes of tid.x below the block's SIMD-groups), else 0,
 * v += bfly(v, 1), v += bfly(v, 2), out[lin] = v.  The unused 1 KB local
 * array keeps it in the per-thread form (msl/emit_lanes.c keeps up to 512
 * local bytes per lane), whose resume points this test is about: since
 * its loop gathers nothing, the kernel would otherwise take the lane form. */
static const char warp_reduce_ptx[] = HEAD
   ".visible .entry wr(.param .u64 out, .param .u32 n)\n{\n"
   "   .reg .pred %p<5>;\n   .reg .b32 %r<30>;\n   .reg .b64 %rd<6>;\n"
   "   .shared .align 4 .b8 ws[128];\n"
   "   .local .align 4 .b8 big[1024];\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n   ld.param.u32 %r20, [n];\n"
   "   mov.u32 %r1, %tid.x;\n   and.b32 %r2, %r1, 31;\n   shr.u32 %r3, %r1, 5;\n"
   "   mov.u32 %r4, %tid.y;\n   mov.u32 %r5, %ntid.x;\n   mad.lo.u32 %r6, %r4, %r5, %r1;\n"
   "   mov.u32 %r7, 0;\n   mov.u32 %r8, %r6;\n   setp.ge.u32 %p1, %r8, %r20;\n   @%p1 bra E1;\n"
   "L1:\n   mad.lo.u32 %r9, %r8, 3, 1;\n   add.u32 %r7, %r7, %r9;\n   add.u32 %r8, %r8, 7;\n"
   "   setp.lt.u32 %p1, %r8, %r20;\n   @%p1 bra L1;\n"
   "E1:\n   shfl.sync.down.b32 %r10, %r7, 16, 31, -1;\n   add.u32 %r7, %r7, %r10;\n"
   "   shfl.sync.down.b32 %r10, %r7, 1, 31, -1;\n   add.u32 %r7, %r7, %r10;\n"
   "   and.b32 %r11, %r6, 31;\n   setp.ne.u32 %p2, %r11, 0;\n   @%p2 bra E2;\n"
   "   shr.u32 %r12, %r6, 5;\n   shl.b32 %r12, %r12, 2;\n   mov.u32 %r13, ws;\n   add.u32 %r13, %r13, %r12;\n"
   "   st.shared.u32 [%r13], %r7;\n"
   "E2:\n   bar.sync 0;\n   setp.ne.u32 %p3, %r3, 0;\n   @%p3 bra E3;\n"
   "   mov.u32 %r14, %ntid.y;\n   mul.lo.u32 %r14, %r14, %r5;\n   shr.u32 %r14, %r14, 5;\n"
   "   mov.u32 %r15, 0;\n   setp.ge.u32 %p4, %r2, %r14;\n   @%p4 bra E4;\n"
   "   shl.b32 %r16, %r2, 2;\n   mov.u32 %r17, ws;\n   add.u32 %r17, %r17, %r16;\n   ld.shared.u32 %r15, [%r17];\n"
   "E4:\n   shfl.sync.bfly.b32 %r18, %r15, 1, 31, -1;\n   add.u32 %r15, %r15, %r18;\n"
   "   shfl.sync.bfly.b32 %r18, %r15, 2, 31, -1;\n   add.u32 %r15, %r15, %r18;\n"
   "   mul.wide.u32 %rd2, %r6, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r15;\n"
   "E3:\n   ret;\n}\n";

/* Volta's rule: rows of even tid.y shuffle 5 tid.x + 7, rows of odd tid.y
 * 3 tid.x + 100, each its own shfl.sync.bfly 1 instruction (one SIMD-group
 * meets at both when a row is 16 threads); out[lin] = the value. */
static const char warp_rows_ptx[] = HEAD
   ".visible .entry wy(.param .u64 out)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<10>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n   mov.u32 %r2, %tid.y;\n   mov.u32 %r3, %ntid.x;\n   mad.lo.u32 %r4, %r2, %r3, %r1;\n"
   "   and.b32 %r5, %r2, 1;\n   setp.ne.u32 %p1, %r5, 0;\n   @%p1 bra ODD;\n"
   "   mad.lo.u32 %r6, %r1, 5, 7;\n   shfl.sync.bfly.b32 %r7, %r6, 1, 31, -1;\n   bra J;\n"
   "ODD:\n   mad.lo.u32 %r6, %r1, 3, 100;\n   shfl.sync.bfly.b32 %r7, %r6, 1, 31, -1;\n"
   "J:\n   mul.wide.u32 %rd2, %r4, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r7;\n   ret;\n}\n";

enum { UNTOUCHED = 0xdededede };

/* warp_reduce_ptx's model, block bx x by (bx * by a multiple of 32). */
static void warp_reduce_model(uint32_t bx, uint32_t by, uint32_t n, uint32_t *out)
{
   uint32_t nt = bx * by, nw = nt / 32, s[1024], t[1024], ws[32], v[1024];
   for (uint32_t l = 0; l < nt; l++) {
      s[l] = 0;
      for (uint32_t i = l; i < n; i += 7)
         s[l] += 3 * i + 1;
   }
   for (uint32_t l = 0; l < nt; l++)
      t[l] = s[l] + s[(l & ~31u) + shfl_src(1, l & 31, 16, 31, NULL)];
   for (uint32_t l = 0; l < nt; l++)
      s[l] = t[l] + t[(l & ~31u) + shfl_src(1, l & 31, 1, 31, NULL)];
   for (uint32_t w = 0; w < nw; w++)
      ws[w] = s[32 * w];
   for (uint32_t l = 0; l < nt; l++) {
      uint32_t lane = l % bx & 31;
      v[l] = lane < nw ? ws[lane] : 0;
   }
   for (uint32_t l = 0; l < nt; l++)
      t[l] = v[l] + v[(l & ~31u) + ((l & 31) ^ 1)];
   for (uint32_t l = 0; l < nt; l++)
      out[l] = l % bx >> 5 ? UNTOUCHED : t[l] + t[(l & ~31u) + ((l & 31) ^ 2)];
}

/* warp_rows_ptx's model: the partner lane's value (its row's) */
static void warp_rows_model(uint32_t bx, uint32_t by, uint32_t *out)
{
   for (uint32_t l = 0; l < bx * by; l++) {
      uint32_t p = (l & ~31u) + ((l & 31) ^ 1), x = p % bx, y = p / bx;
      out[l] = y & 1 ? 3 * x + 100 : 5 * x + 7;
   }
}

TEST(shuffles_each_simd_group_reaches_as_one_resume_per_thread)
{
   char *wr = tc_msl_of(warp_reduce_ptx), *wy = tc_msl_of(warp_rows_ptx);
   CHECK(wr && wy);
   bool wr_marked = strstr(wr, "__mc_rs_tpc()") && strstr(wr, "__mc_rs_offer(");
   bool wy_marked = strstr(wy, "__mc_rs_tpc()") != NULL;
   free(wr);
   free(wy);
   CHECK_MSG(wr_marked, "the reduction's shuffles under if (tid.x / 32 == 0) got no per-thread resume points");
   CHECK_MSG(wy_marked, "the shuffles under a branch on tid.y got no per-thread resume points");
   /* rows of x (passes) and a 16-wide block (fibers: its SIMD-groups span
    * two rows, so tid.y differs inside one) */
   static const dim3 shapes[] = { { 96, 1, 1 }, { 64, 2, 1 }, { 32, 4, 1 }, { 16, 4, 1 }, { 1024, 1, 1 } };
   const uint32_t n = 5000;
   core_ctx *c = tc_ctx();
   CHECK(c);
   for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
      uint32_t nt = shapes[s].x * shapes[s].y, want[1024];
      for (int k = 0; k < 2; k++) {
         uint64_t p = 0;
         CHECK_INT(core_mem_alloc(c->dev, nt * 4, &p), CORE_SUCCESS);
         memset((void *)(uintptr_t)p, 0xde, nt * 4);
         uint32_t nn = n;
         void *args[] = { &p, &nn };
         char msg[512];
         int st = run(k ? warp_rows_ptx : warp_reduce_ptx, k ? "wy" : "wr", (dim3){ 1, 1, 1 }, shapes[s], args, msg,
                      sizeof(msg));
         CHECK_MSG(st == CORE_SUCCESS, "%s %ux%u: status %d: %s", k ? "wy" : "wr", shapes[s].x, shapes[s].y, st, msg);
         if (k)
            warp_rows_model(shapes[s].x, shapes[s].y, want);
         else
            warp_reduce_model(shapes[s].x, shapes[s].y, n, want);
         const uint32_t *o = (const uint32_t *)(uintptr_t)p;
         uint32_t bad = 0;
         for (uint32_t l = 0; l < nt; l++)
            if (o[l] != want[l] && bad++ < 3)
               printf("    %s %ux%u thread %u: got %#x, expected %#x\n", k ? "wy" : "wr", shapes[s].x, shapes[s].y,
                      l, o[l], want[l]);
         core_mem_free(c->dev, p);
         CHECK_MSG(!bad, "%s %ux%u: %u wrong values", k ? "wy" : "wr", shapes[s].x, shapes[s].y, bad);
      }
   }
}

/* Votes and reductions as resume points: a = lin * 0x9e3779b1, p = bit 7
 * of a or lin >= 64; ballot, all, any, uni of p and redux add, min.s32,
 * max, xor of a over each SIMD-group; a barrier; then, under
 * `if (tid.x >> 5 == 0)`, all of bit 0 of a and redux or of a (else 0).
 * out[8 lin ...] = ballot, all | any << 1 | uni << 2 | all0 << 3, add,
 * min, max, xor, or.  An unused 1 KB local array keeps the per-thread
 * form (the lane form, which takes full-mask votes and reductions, keeps
 * at most 512 bytes per lane: emit_lanes.c; test_lanes_warp.c tests it). */
static const char votes_ptx[] = ".version 9.0\n.target sm_80\n.address_size 64\n"
   ".visible .entry vr(.param .u64 out)\n{\n"
   "   .reg .pred %p<10>;\n   .reg .b32 %r<30>;\n   .reg .b64 %rd<6>;\n   .local .align 4 .b32 keep[256];\n"
   "   ld.param.u64 %rd1, [out];\n   cvta.to.global.u64 %rd1, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n   mov.u32 %r2, %tid.y;\n   mov.u32 %r3, %ntid.x;\n   mad.lo.u32 %r4, %r2, %r3, %r1;\n"
   "   mul.lo.u32 %r5, %r4, -1640531535;\n   shr.u32 %r20, %r5, 7;\n   and.b32 %r20, %r20, 1;\n"
   "   setp.ne.u32 %p1, %r20, 0;\n   setp.ge.u32 %p9, %r4, 64;\n   or.pred %p1, %p1, %p9;\n"
   "   vote.sync.ballot.b32 %r6, %p1, -1;\n   vote.sync.all.pred %p2, %p1, -1;\n"
   "   vote.sync.any.pred %p3, %p1, -1;\n   vote.sync.uni.pred %p4, %p1, -1;\n"
   "   redux.sync.add.u32 %r7, %r5, -1;\n   redux.sync.min.s32 %r8, %r5, -1;\n"
   "   redux.sync.max.u32 %r9, %r5, -1;\n   redux.sync.xor.b32 %r10, %r5, -1;\n"
   "   selp.u32 %r11, 1, 0, %p2;\n   selp.u32 %r12, 2, 0, %p3;\n   selp.u32 %r13, 4, 0, %p4;\n"
   "   or.b32 %r11, %r11, %r12;\n   or.b32 %r11, %r11, %r13;\n   mov.u32 %r14, 0;\n"
   "   bar.sync 0;\n   shr.u32 %r15, %r1, 5;\n   setp.ne.u32 %p5, %r15, 0;\n   @%p5 bra E;\n"
   "   and.b32 %r16, %r5, 1;\n   setp.ne.u32 %p6, %r16, 0;\n   vote.sync.all.pred %p7, %p6, -1;\n"
   "   selp.u32 %r17, 8, 0, %p7;\n   or.b32 %r11, %r11, %r17;\n   redux.sync.or.b32 %r14, %r5, -1;\n"
   "E:\n   mul.wide.u32 %rd2, %r4, 32;\n   add.s64 %rd3, %rd1, %rd2;\n"
   "   st.global.v4.u32 [%rd3], {%r6, %r11, %r7, %r8};\n   st.global.v4.u32 [%rd3+16], {%r9, %r10, %r14, %r4};\n"
   "   ret;\n}\n";

static void votes_model(uint32_t bx, uint32_t by, uint32_t *out)
{
   uint32_t nt = bx * by;
   for (uint32_t g = 0; g < nt; g += 32) {
      uint32_t ballot = 0, add = 0, max = 0, x = 0, or = 0, b0 = 0;
      int32_t min = INT32_MAX;
      for (uint32_t l = g; l < g + 32; l++) {
         uint32_t a = l * 0x9e3779b1u;
         if ((a >> 7 & 1) || l >= 64)
            ballot |= 1u << (l - g);
         if (a & 1)
            b0 |= 1u << (l - g);
         add += a;
         min = (int32_t)a < min ? (int32_t)a : min;
         max = a > max ? a : max;
         x ^= a;
         or |= a;
      }
      for (uint32_t l = g; l < g + 32; l++) {
         uint32_t *o = out + 8 * l;
         bool stage2 = (l % bx) >> 5 == 0;
         o[0] = ballot;
         o[1] = (ballot == ~0u) | (ballot != 0) << 1 | (ballot == 0 || ballot == ~0u) << 2 |
                (stage2 && b0 == ~0u) << 3;
         o[2] = add;
         o[3] = (uint32_t)min;
         o[4] = max;
         o[5] = x;
         o[6] = stage2 ? or : 0;
         o[7] = l;
      }
   }
}

TEST(votes_and_reductions_as_resume_points_answer_from_the_offers)
{
   char *vr = tc_msl_of(votes_ptx);
   CHECK(vr);
   bool marked = vr && strstr(vr, "__mc_rs_tpc()") && strstr(vr, "__mc_rs_offer(");
   free(vr);
   CHECK_MSG(marked, "votes and reductions got no resume points");
   static const dim3 shapes[] = { { 96, 1, 1 }, { 64, 2, 1 }, { 16, 4, 1 }, { 256, 1, 1 } };
   core_ctx *c = tc_ctx();
   CHECK(c);
   for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
      uint32_t nt = shapes[s].x * shapes[s].y, want[8 * 256];
      uint64_t p = 0;
      CHECK_INT(core_mem_alloc(c->dev, nt * 32, &p), CORE_SUCCESS);
      memset((void *)(uintptr_t)p, 0xde, nt * 32);
      void *args[] = { &p };
      char msg[512];
      int st = run(votes_ptx, "vr", (dim3){ 1, 1, 1 }, shapes[s], args, msg, sizeof(msg));
      CHECK_MSG(st == CORE_SUCCESS, "vr %ux%u: status %d: %s", shapes[s].x, shapes[s].y, st, msg);
      votes_model(shapes[s].x, shapes[s].y, want);
      const uint32_t *o = (const uint32_t *)(uintptr_t)p;
      uint32_t bad = 0;
      for (uint32_t k = 0; k < 8 * nt; k++)
         if (o[k] != want[k] && bad++ < 3)
            printf("    vr %ux%u thread %u word %u: got %#x, expected %#x\n", shapes[s].x, shapes[s].y, k / 8, k % 8,
                   o[k], want[k]);
      core_mem_free(c->dev, p);
      CHECK_MSG(!bad, "vr %ux%u: %u wrong values", shapes[s].x, shapes[s].y, bad);
   }
}
