/*
 * test_lockstep.c — warp-synchronous code (src/compiler/ir/mark_lockstep.c,
 * the meets of src/compiler/msl/emit.c, the scheduler's meets in
 * src/metal/soft/fiber.c).
 *
 * The pass is checked on its own — which accesses it marks, and that the
 * forms that need no meet (a barrier between, a thread's own slot,
 * different shared arrays, a tree reduction's variable stride) stay
 * unmarked, so that those kernels keep running as fast as before — and the
 * emitted MSL for the meets, their elision and the loop latch, and the
 * lane form's (msl/emit_lanes.c), which keeps the marked accesses in
 * lockstep by ending its lane loops instead (and keeps the meets for its
 * one-lane build: tests/run.sh's cuda layer runs tests/cuda/warp_sync so,
 * under validation).  Then by execution on the
 * software device, in both forms (a kernel declaring an unused 1 KB local
 * array keeps the per-thread form): plain shared memory exchanged between
 * lanes with no barrier (a shift to the next lane, write after read; a
 * flag all lanes write, read after write) and a volatile scan whose steps
 * read lower lanes' slots in a loop, whose lockstep results a host model
 * computes.
 */
#include "harness.h"
#include "test_core_util.h"

#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
#define REGS "  .reg .pred %p<8>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<8>;\n"
/* %r1 = tid, %r2 = &sm[tid], %rd3 = &out[tid] */
#define PROLOGUE                                                              \
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"         \
   "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n" \
   "  mov.u32 %r4, sm;\n  shl.b32 %r5, %r1, 2;\n  add.s32 %r2, %r4, %r5;\n"
#define KERNEL(body)                                                          \
   HEAD ".visible .entry k(.param .u64 out)\n{\n" REGS                        \
   "  .shared .align 4 .b32 sm[1024];\n  .shared .align 4 .b32 other[1024];\n" PROLOGUE body "  ret;\n}\n"
/* The same kernel kept in the per-thread form: the lane form keeps at most
 * 512 bytes of local memory per lane (emit_lanes.c). */
#define KERNEL_PER_THREAD(body) KERNEL("  .local .align 4 .b32 keep[256];\n" body)

/* ---- which instructions the pass marks ---- */

/* s[t] = t; out[t] = s[t ^ 1] */
#define XOR_NEIGHBOUR                                                         \
   "  st.shared.u32 [%r2], %r1;\n  xor.b32 %r6, %r1, 1;\n  shl.b32 %r7, %r6, 2;\n  add.s32 %r8, %r4, %r7;\n" \
   "  ld.shared.u32 %r9, [%r8];\n  st.global.u32 [%rd3], %r9;\n"

typedef struct marks {
   uint32_t loads, stores, fences, atomics;
   uint32_t spins;   /* atomics a loop spins on (IR_F_SPIN: the loop meets at its latch) */
} marks;

static bool marks_of(const char *ptx, marks *out)
{
   arena ar;
   arena_init(&ar, 0);
   memset(out, 0, sizeof(*out));
   ir_func *f = tc_ir_of(&ar, ptx, "k");
   if (f)
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b) {
            if (i->flags & IR_F_LOCKSTEP) {
               out->loads += i->op == IR_LOAD;
               out->stores += i->op == IR_STORE;
               out->fences += i->op == IR_MEMBAR;
               out->atomics += i->op == IR_ATOM;
            }
            out->spins += i->op == IR_ATOM && (i->flags & IR_F_SPIN);
         }
   arena_free_all(&ar);
   return f != NULL;
}

#define CHECK_MARKS(ptx, l, s, fe, a)                                         \
   do {                                                                      \
      marks mk_;                                                             \
      CHECK(marks_of(ptx, &mk_));                                            \
      CHECK_INT(mk_.loads, l);                                               \
      CHECK_INT(mk_.stores, s);                                              \
      CHECK_INT(mk_.fences, fe);                                             \
      CHECK_INT(mk_.atomics, a);                                             \
   } while (0)

/* LULESH's step: s[t] = min(s[t], s[t + 16]) on volatile shared memory. */
static const char volatile_step[] = KERNEL(
   "  ld.volatile.shared.u32 %r6, [%r2];\n  ld.volatile.shared.u32 %r7, [%r2+64];\n"
   "  min.u32 %r8, %r6, %r7;\n  st.volatile.shared.u32 [%r2], %r8;\n"
   "  ld.relaxed.cta.global.u32 %r9, [%rd3];\n");

TEST(volatile_and_strong_accesses_and_fences_are_meeting_points)
{
   CHECK_MARKS(volatile_step, 3, 1, 0, 0);
   /* 128-bit strong accesses (under the lock table, IR_F_LOCKED) are too */
   CHECK_MARKS(KERNEL("  st.relaxed.gpu.global.v2.u64 [%rd3], {%rd3, %rd3};\n"
                      "  ld.volatile.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%r2];\n"), 1, 1, 0, 0);
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  membar.cta;\n  st.global.u32 [%rd3], %r1;\n"), 0, 0, 1, 0);
}

/* A barrier-synchronised tree: s[t] += s[t + d], d halving, a bar.sync
 * after each level.  Nothing to mark: this is every block reduction. */
static const char tree_reduction[] = KERNEL(
   "  st.shared.u32 [%r2], %r1;\n  bar.sync 0;\n  mov.u32 %r10, 128;\n"
   "LOOP:\n  setp.ge.u32 %p1, %r1, %r10;\n  @%p1 bra SKIP;\n"
   "  shl.b32 %r11, %r10, 2;\n  add.s32 %r12, %r2, %r11;\n"
   "  ld.shared.u32 %r13, [%r12];\n  ld.shared.u32 %r14, [%r2];\n  add.u32 %r15, %r13, %r14;\n"
   "  st.shared.u32 [%r2], %r15;\n"
   "SKIP:\n  bar.sync 0;\n  shr.u32 %r10, %r10, 1;\n  setp.ne.u32 %p2, %r10, 0;\n  @%p2 bra LOOP;\n"
   "  ld.shared.u32 %r16, [%r2];\n  st.global.u32 [%rd3], %r16;\n");

TEST(barrier_synchronised_and_own_slot_code_is_left_alone)
{
   CHECK_MARKS(tree_reduction, 0, 0, 0, 0);
   /* a thread reads back its own slot */
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  ld.shared.u32 %r6, [%r2];\n  st.global.u32 [%rd3], %r6;\n"),
               0, 0, 0, 0);
   /* the neighbour's slot, after a barrier */
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  bar.sync 0;\n  ld.shared.u32 %r6, [%r2+4];\n"
                      "  st.global.u32 [%rd3], %r6;\n"), 0, 0, 0, 0);
   /* another shared array cannot hold what was stored */
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  mov.u32 %r6, other;\n  add.s32 %r7, %r6, %r5;\n"
                      "  ld.shared.u32 %r8, [%r7+4];\n  st.global.u32 [%rd3], %r8;\n"), 0, 0, 0, 0);
   /* the tree unrolled (constant strides): each lane reads above itself */
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  bar.sync 0;\n  ld.shared.u32 %r6, [%r2];\n"
                      "  ld.shared.u32 %r7, [%r2+512];\n  add.u32 %r8, %r6, %r7;\n  st.shared.u32 [%r2], %r8;\n"
                      "  bar.sync 0;\n  ld.shared.u32 %r9, [%r2+256];\n  add.u32 %r10, %r8, %r9;\n"
                      "  st.shared.u32 [%r2], %r10;\n  st.global.u32 [%rd3], %r10;\n"), 0, 0, 0, 0);
   /* a lower lane's slot after a store: that lane has stored, in sequence too */
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  ld.shared.u32 %r6, [%r2+-4];\n  st.global.u32 [%rd3], %r6;\n"),
               0, 0, 0, 0);
   /* a warp shuffle between the two: the lanes meet there */
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  shfl.sync.bfly.b32 %r9, %r1, 1, 31, -1;\n"
                      "  ld.shared.u32 %r6, [%r2+4];\n  add.u32 %r6, %r6, %r9;\n  st.global.u32 [%rd3], %r6;\n"),
               0, 0, 0, 0);
}

/* Every lane writes its tid to its warp's slot and reads it back:
 * lockstep gives every lane of a warp the same value, one lane's tid; one
 * after another, each lane would read its own. */
#define FLAG                                                                  \
   "  shr.u32 %r6, %r1, 5;\n  shl.b32 %r7, %r6, 2;\n  mov.u32 %r8, other;\n  add.s32 %r9, %r8, %r7;\n" \
   "  st.shared.u32 [%r9], %r1;\n  ld.shared.u32 %r10, [%r9];\n  st.global.u32 [%rd3], %r10;\n"
static const char flag_ptx[] = KERNEL(FLAG);
static const char flag_ptx_per_thread[] = KERNEL_PER_THREAD(FLAG);

TEST(plain_shared_memory_passed_between_lanes_is_marked)
{
   /* read after write: the next lane's slot */
   CHECK_MARKS(KERNEL("  st.shared.u32 [%r2], %r1;\n  ld.shared.u32 %r6, [%r2+4];\n  st.global.u32 [%rd3], %r6;\n"),
               1, 1, 0, 0);
   /* write after read with a constant distance: s[t] = s[t - 1] */
   CHECK_MARKS(KERNEL("  ld.shared.u32 %r6, [%r2+-4];\n  st.shared.u32 [%r2], %r6;\n"), 1, 1, 0, 0);
   /* a slot every lane writes and reads (uniform address) */
   CHECK_MARKS(KERNEL("  st.shared.u32 [other], %r1;\n  ld.shared.u32 %r6, [other];\n  st.global.u32 [%rd3], %r6;\n"),
               1, 1, 0, 0);
   /* a slot per warp: divergent, but not one per lane */
   CHECK_MARKS(flag_ptx, 1, 1, 0, 0);
   /* a slot whose relation to the stored one is unknown (t ^ 1) */
   CHECK_MARKS(KERNEL(XOR_NEIGHBOUR), 1, 1, 0, 0);
   /* ... unless the kernel synchronises its warps itself (*.sync
    * operations: code written for Volta's independent scheduling, whose
    * exchanges are either proven or synchronised) */
   CHECK_MARKS(KERNEL(XOR_NEIGHBOUR "  activemask.b32 %r20;\n  st.global.u32 [%rd1], %r20;\n"), 0, 0, 0, 0);
}

/* A compare-and-swap loop (its result decides whether the loop ends) and
 * an atomic whose result only picks a slot. */
static const char atomics[] = KERNEL(
   "  ld.global.u32 %r6, [%rd1];\n"
   "CAS:\n  add.u32 %r7, %r6, 1;\n  atom.global.cas.b32 %r8, [%rd1], %r6, %r7;\n"
   "  setp.ne.u32 %p1, %r8, %r6;\n  mov.u32 %r6, %r8;\n  @%p1 bra CAS;\n"
   "  atom.shared.add.u32 %r9, [other], 1;\n  setp.lt.u32 %p2, %r9, 4;\n  @%p2 bra SKIP;\n"
   "  st.global.u32 [%rd3], %r9;\n"
   "SKIP:\n");

static uint32_t spins_of(const char *ptx)
{
   marks mk;
   return marks_of(ptx, &mk) ? mk.spins : 0;
}

TEST(an_atomic_that_decides_whether_a_loop_ends_meets_at_the_latch_only)
{
   CHECK_MARKS(atomics, 0, 0, 0, 0);
   CHECK_INT(spins_of(atomics), 1);
   /* a spinning lane lets the others run at the loop's latch; no meet
    * before the atomic, which would make every lane but one of a warp's
    * compare-and-swap loop fail and go round again */
   char *msl = tc_msl_of(atomics);
   const char *body = msl ? strstr(msl, "kernel void") : NULL;
   CHECK(body);
   if (body) {
      CHECK_INT(tc_count(body, "MC_WARP_MEET("), 1);
      const char *latch = strstr(body, "} while (false);");
      CHECK(latch && strstr(latch, "MC_WARP_MEET(") != NULL);
   }
   free(msl);
}

/* ---- the MSL ---- */

/* The scan's step in a loop: if (lane >= k) s[i] += s[i - k]; out[t] =
 * s[t], in lockstep the sum of the warp's tids up to t. */
#define SCAN                                                                  \
   "  st.volatile.shared.u32 [%r2], %r1;\n  and.b32 %r6, %r1, 31;\n  mov.u32 %r7, 1;\n"                \
   "LOOP:\n  setp.lt.u32 %p1, %r6, %r7;\n  @%p1 bra NEXT;\n"                                          \
   "  shl.b32 %r8, %r7, 2;\n  sub.s32 %r9, %r2, %r8;\n"                                                \
   "  ld.volatile.shared.u32 %r10, [%r9];\n  ld.volatile.shared.u32 %r11, [%r2];\n"                    \
   "  add.u32 %r12, %r10, %r11;\n  st.volatile.shared.u32 [%r2], %r12;\n"                              \
   "NEXT:\n  shl.b32 %r7, %r7, 1;\n  setp.lt.u32 %p2, %r7, 32;\n  @%p2 bra LOOP;\n"                  \
   "  ld.volatile.shared.u32 %r13, [%r2];\n  st.global.u32 [%rd3], %r13;\n"
static const char scan_loop[] = KERNEL(SCAN);
static const char scan_loop_per_thread[] = KERNEL_PER_THREAD(SCAN);

TEST(the_lane_form_keeps_marked_accesses_in_lockstep_by_ending_lane_loops)
{
   char *msl = tc_msl_of(scan_loop);
   const char *body = msl ? strstr(msl, "kernel void") : NULL;
   CHECK(body);
   if (body) {
      CHECK(strstr(body, "MC_LANES_BEGIN") != NULL);
      CHECK_INT(tc_count(body, "MC_WARP_MEET("), 0);
      /* the per-thread form's five meets, for the one-lane build (an Apple
       * GPU's, validation's), which needs them: nothing with lanes */
      CHECK_INT(tc_count(body, "MC_LANES_WARP_MEET("), 5);
      /* in the loop, the two loads share a lane loop and the store has its
       * own: the scan's lane loops, one per group (the write-back of the
       * loads' arrays included) */
      CHECK(tc_count(body, "MC_LANES_FOR") >= 4);
   }
   free(msl);
}

TEST(meets_come_before_the_accesses_and_at_the_latch_of_a_loop)
{
   char *msl = tc_msl_of(scan_loop_per_thread), *plain = tc_msl_of(tree_reduction);
   CHECK(msl && plain);
   /* the first store; in the loop one before the two loads (the second
    * load needs none), one before the store, one at the latch; the load
    * after the loop */
   const char *body = msl ? strstr(msl, "kernel void") : NULL;   /* not the prelude's macro */
   CHECK(body);
   CHECK_INT(tc_count(body, "MC_WARP_MEET("), 5);
   CHECK_INT(tc_count(msl, "} while (false);"), 1);
   /* The ranks (which waiting lanes go first): the store before the loop,
    * the loop's loads and store, the latch, then the load after the loop,
    * wherever the structurizer placed it.  The latch is written after the
    * body; the others in the loop come before it. */
   unsigned long long rank[5] = {0}, store = 0, post = 0, latch = 0;
   const char *p = body;
   for (int k = 0; k < 5 && p; k++) {
      p = strstr(p, "MC_WARP_MEET(");
      if (p && sscanf(p, "MC_WARP_MEET(%llx", &rank[k]) == 1)
         p++;
   }
   const char *latch_at = body ? strstr(body, "} while (false);") : NULL;
   if (latch_at)
      sscanf(strstr(latch_at, "MC_WARP_MEET("), "MC_WARP_MEET(%llx", &latch);
   store = rank[0];
   for (int k = 0; k < 5; k++)
      post = MC_MAX(post, rank[k]);
   CHECK(store < rank[1] && rank[1] < rank[2]);
   CHECK(rank[2] < latch && latch < post);
   CHECK_INT(tc_count(strstr(plain, "kernel void"), "MC_WARP_MEET("), 0);
   CHECK_INT(tc_count(plain, "} while (false);"), 0);
   free(msl);
   free(plain);
}

/* ---- execution ---- */

/* Each lane stores 100 + t, a barrier, then every lane but the warp's
 * first copies its lower neighbour's slot into its own (plain accesses,
 * write after read), and out[t] = s[t].  Lockstep: every load before any
 * store, so out[t] = 100 + t - 1 (lane 0 of each warp keeps its own).
 * One after another, the copies would cascade: out[t] = 100 + the warp's
 * first thread. */
#define SHIFT                                                                 \
   "  add.u32 %r6, %r1, 100;\n  st.shared.u32 [%r2], %r6;\n  bar.sync 0;\n"                           \
   "  and.b32 %r7, %r1, 31;\n  setp.eq.u32 %p1, %r7, 0;\n  @%p1 bra OUT;\n"                          \
   "  ld.shared.u32 %r8, [%r2+-4];\n  st.shared.u32 [%r2], %r8;\n"                                     \
   "OUT:\n  ld.shared.u32 %r9, [%r2];\n  st.global.u32 [%rd3], %r9;\n"
static const char shift_ptx[] = KERNEL(SHIFT);
static const char shift_ptx_per_thread[] = KERNEL_PER_THREAD(SHIFT);

/* Runs ptx over N threads in one block into out; false when it failed. */
static bool run_block(core_ctx *c, const char *ptx, uint32_t n, uint64_t out)
{
   void *args[] = { &out };
   char msg[512];
   bool ok = tc_run_ptx(c, ptx, "k", (const uint32_t[3]){ 1, 1, 1 }, (const uint32_t[3]){ n, 1, 1 }, args, msg,
                        sizeof(msg)) == CORE_SUCCESS;
   if (!ok)
      fprintf(stderr, "    %s\n", msg);
   return ok;
}

TEST(lanes_exchanging_plain_shared_memory_get_the_lockstep_results)
{
   core_ctx *c = tc_ctx();
   CHECK(c);
   if (!c)
      return;
   enum { N = 96 };
   uint64_t d = 0;
   CHECK_INT(core_mem_alloc(c->dev, N * sizeof(uint32_t), &d), CORE_SUCCESS);
   const uint32_t *got = (const uint32_t *)(uintptr_t)d;
   static const char *const form[2] = { "lane form", "per thread" };
   const char *const shift[2] = { shift_ptx, shift_ptx_per_thread }, *const flag[2] = { flag_ptx, flag_ptx_per_thread },
                     *const scan[2] = { scan_loop, scan_loop_per_thread };

   for (int f = 0; f < 2; f++) {
      CHECK(run_block(c, shift[f], N, d));
      uint32_t bad = 0;
      for (uint32_t t = 0; t < N; t++) {
         uint32_t want = 100 + (t % 32 == 0 ? t : t - 1);
         if (got[t] != want && bad++ < 4)
            fprintf(stderr, "    shift (%s): out[%u] = %u, want %u\n", form[f], t, got[t], want);
      }
      CHECK_INT(bad, 0);

      CHECK(run_block(c, flag[f], N, d));
      bad = 0;
      for (uint32_t w = 0; w < N / 32; w++)
         for (uint32_t l = 0; l < 32; l++)
            if (got[w * 32 + l] != got[w * 32] && bad++ < 4)
               fprintf(stderr, "    flag (%s): lane %u of warp %u read %u, lane 0 read %u\n", form[f], l, w,
                       got[w * 32 + l], got[w * 32]);
      CHECK_INT(bad, 0);
      /* one of the warp's own threads wrote it */
      for (uint32_t w = 0; w < N / 32; w++)
         CHECK(got[w * 32] >= w * 32 && got[w * 32] < w * 32 + 32);

      /* Hillis and Steele's scan in lockstep: the sum of the warp's tids
       * up to t (one lane after another, lane t would add slots already
       * updated) */
      CHECK(run_block(c, scan[f], N, d));
      bad = 0;
      for (uint32_t t = 0; t < N; t++) {
         uint32_t want = 0;
         for (uint32_t u = t & ~31u; u <= t; u++)
            want += u;
         if (got[t] != want && bad++ < 4)
            fprintf(stderr, "    scan (%s): out[%u] = %u, want %u\n", form[f], t, got[t], want);
      }
      CHECK_INT(bad, 0);
   }
   core_mem_free(c->dev, d);
}

/* Lane 0 of each warp spins on an atomic read of its warp's flag in shared
 * memory until lane 31 sets it (at most 2^20 rounds, then it gives up and
 * stores 0): lanes run in ascending order, so lane 0 finds the flag set
 * only if the loop lets the rest of its warp run (the meet at its latch:
 * IR_F_SPIN), as Volta's independent thread scheduling does. */
static const char spin_flag_ptx[] = KERNEL(
   "  and.b32 %r6, %r1, 31;\n  shr.u32 %r7, %r1, 5;\n  shl.b32 %r8, %r7, 2;\n  mov.u32 %r9, other;\n"
   "  add.s32 %r10, %r9, %r8;\n  setp.ne.u32 %p1, %r6, 0;\n  @%p1 bra READY;\n  st.shared.u32 [%r10], 0;\n"
   "READY:\n  bar.sync 0;\n  setp.eq.u32 %p2, %r6, 31;\n  @%p2 bra SETTER;\n  @%p1 bra DONE;\n"
   "  mov.u32 %r14, 0;\n"
   "SPIN:\n  atom.shared.or.b32 %r11, [%r10], 0;\n  setp.ne.u32 %p4, %r11, 0;\n  @%p4 bra GOT;\n"
   "  add.u32 %r14, %r14, 1;\n  setp.lt.u32 %p5, %r14, 1048576;\n  @%p5 bra SPIN;\n"
   "GOT:\n  st.global.u32 [%rd3], %r11;\n  bra.uni DONE;\n"
   "SETTER:\n  add.u32 %r12, %r1, 1000;\n  atom.shared.exch.b32 %r13, [%r10], %r12;\n"
   "DONE:\n");

TEST(a_lane_spinning_on_an_atomic_lets_the_lane_it_waits_for_run)
{
   CHECK_INT(spins_of(spin_flag_ptx), 1);
   core_ctx *c = tc_ctx();
   CHECK(c);
   if (!c)
      return;
   enum { N = 96 };
   uint64_t d = 0;
   CHECK_INT(core_mem_alloc(c->dev, N * sizeof(uint32_t), &d), CORE_SUCCESS);
   uint32_t *got = (uint32_t *)(uintptr_t)d;
   memset(got, 0xff, N * sizeof(uint32_t));
   CHECK(run_block(c, spin_flag_ptx, N, d));
   for (uint32_t w = 0; w < N / 32; w++)
      CHECK_INT(got[w * 32], w * 32 + 31 + 1000);
   core_mem_free(c->dev, d);
}
