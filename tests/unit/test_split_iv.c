/*
 * test_split_iv.c — a thread-varying induction variable with a uniform
 * step as its start plus a uniform count (src/compiler/ir/opt_split_iv.c).
 *
 * The pass on its own: a grid-stride loop's counter leaves the loop
 * header's divergent phis (a uniform count takes its place), while a
 * saturating step, a per-thread step and a uniform counter stay as they
 * are.  Then by execution on the software device, against a host model of
 * the same loops: sums of the counter, the counter read after the loop (each
 * thread its own last value), 32-bit wraparound past INT_MAX, a 64-bit
 * counter with a negative step, and a barrier after the loop (which makes
 * the grid-stride kernel take the lane form, where the sum's phi and the
 * value coming round share one array: emit_lanes.c plan_shared_arrays).
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
#define REGS "  .reg .pred %p<8>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<16>;\n"

/* out[3 g .. 3 g + 2] = the sum of 3 i + 1 over the thread's i, its number
 * of iterations and i after the loop, for i = g, g + S ... below n (g the
 * global thread index, S the grid's size in threads; STEP says how i moves
 * on). */
#define GRID_STRIDE(STEP)                                                      \
   HEAD ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n" REGS         \
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n  ld.param.u32 %r9, [n];\n" \
   "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %nctaid.x;\n" \
   "  mad.lo.s32 %r5, %r2, %r3, %r1;\n  mul.lo.s32 %r6, %r3, %r4;\n  mov.u32 %r10, %r5;\n"         \
   "  mov.u32 %r7, 0;\n  mov.u32 %r8, 0;\n"                                   \
   "LOOP:\n  setp.ge.s32 %p1, %r5, %r9;\n  @%p1 bra DONE;\n"                  \
   "  mad.lo.s32 %r11, %r5, 3, 1;\n  add.s32 %r7, %r7, %r11;\n  add.s32 %r8, %r8, 1;\n" STEP \
   "  bra.uni LOOP;\n"                                                        \
   "DONE:\n  bar.sync 0;\n  mul.lo.s32 %r12, %r10, 3;\n  mul.wide.u32 %rd2, %r12, 4;\n  add.s64 %rd3, %rd1, %rd2;\n" \
   "  st.global.u32 [%rd3], %r7;\n  st.global.u32 [%rd3+4], %r8;\n  st.global.u32 [%rd3+8], %r5;\n  ret;\n}\n"

static const char grid_stride_ptx[] = GRID_STRIDE("  add.s32 %r5, %r5, %r6;\n");
static const char saturating_ptx[] = GRID_STRIDE("  add.sat.s32 %r5, %r5, %r6;\n");
static const char own_step_ptx[] = GRID_STRIDE("  add.s32 %r5, %r5, %r1;\n  add.s32 %r5, %r5, 1;\n");

/* The loop headers' phis after the pipeline: how many, and how many differ
 * between threads. */
typedef struct header_phis {
   uint32_t all, divergent;
} header_phis;

static bool header_phis_of(const char *ptx, header_phis *out)
{
   arena ar;
   arena_init(&ar, 0);
   memset(out, 0, sizeof(*out));
   ir_func *f = tc_ir_of(&ar, ptx, "k");
   bool *div = f ? ir_find_divergence(f) : NULL;
   if (div)
      ir_foreach_block(b, f) {
         if (!b->is_loop_header)
            continue;
         ir_foreach_instr(i, b) {
            if (i->op != IR_PHI)
               break;
            out->all++;
            out->divergent += div[i->def.index];
         }
      }
   arena_free_all(&ar);
   return div != NULL;
}

TEST(a_grid_stride_counter_becomes_a_uniform_count)
{
   header_phis h;
   CHECK(header_phis_of(grid_stride_ptx, &h));
   /* i, the sum and the iteration count before; after, the sum stays
    * divergent (it adds i) and the others are uniform: the count k and the
    * iteration counter (it only counts) */
   CHECK_INT(h.all, 3);
   CHECK_INT(h.divergent, 1);
}

TEST(saturating_and_per_thread_steps_stay_as_they_are)
{
   header_phis h;
   CHECK(header_phis_of(saturating_ptx, &h));
   CHECK_INT(h.all, 3);
   CHECK_INT(h.divergent, 2);     /* i and the sum */
   CHECK(header_phis_of(own_step_ptx, &h));
   CHECK_INT(h.all, 3);
   CHECK_INT(h.divergent, 2);
}

/* With its counter split, the grid-stride loop gathers nothing, and the
 * kernel (a barrier after the loop) takes the lane form
 * (msl/emit_lanes.c): the execution tests below run that form. */
TEST(the_grid_stride_kernel_takes_the_lane_form)
{
   char *msl = tc_msl_of(grid_stride_ptx);
   CHECK(msl);
   if (msl)
      CHECK_CONTAINS(msl, "MC_LANES_BEGIN");
   free(msl);
}

/* runs ptx's k on grid x block with out (words) and the u32 n; false if the
 * launch failed */
static bool run_k(core_ctx *c, const char *ptx, uint32_t grid, uint32_t block, uint64_t out, uint32_t n)
{
   void *args[] = { &out, &n };
   char msg[512];
   int r = tc_run_ptx(c, ptx, "k", (const uint32_t[3]){ grid, 1, 1 }, (const uint32_t[3]){ block, 1, 1 }, args,
                      msg, sizeof(msg));
   if (r != CORE_SUCCESS)
      fprintf(stderr, "    launch failed (%d): %s\n", r, msg);
   return r == CORE_SUCCESS;
}

TEST(grid_stride_loops_compute_what_the_thread_would)
{
   core_ctx *c = tc_ctx();
   CHECK(c);
   if (!c)
      return;
   enum { GRID = 3, BLOCK = 96, T = GRID * BLOCK };
   uint64_t d = 0;
   CHECK_INT(core_mem_alloc(c->dev, 3 * T * sizeof(uint32_t), &d), CORE_SUCCESS);
   const uint32_t *got = (const uint32_t *)(uintptr_t)d;
   /* n: no iteration for some threads, one for some, several, uneven */
   static const uint32_t ns[] = { 0, 100, T, 1000, 4321 };
   for (size_t v = 0; v < sizeof(ns) / sizeof(ns[0]); v++) {
      memset((void *)got, 0xee, 3 * T * sizeof(uint32_t));
      CHECK(run_k(c, grid_stride_ptx, GRID, BLOCK, d, ns[v]));
      uint32_t bad = 0;
      for (uint32_t g = 0; g < T; g++) {
         uint32_t sum = 0, count = 0, i = g;
         for (; (int32_t)i < (int32_t)ns[v]; i += T)
            sum += 3 * i + 1, count++;
         if ((got[3 * g] != sum || got[3 * g + 1] != count || got[3 * g + 2] != i) && bad++ < 4)
            fprintf(stderr, "    n %u thread %u: sum %u count %u i %u, want %u %u %u\n", ns[v], g, got[3 * g],
                    got[3 * g + 1], got[3 * g + 2], sum, count, i);
      }
      CHECK_INT(bad, 0);
   }
   core_mem_free(c->dev, d);
}

/* out[g] (64 bits) = the xor of i * (c + 1) over m iterations c of the
 * 32-bit i = 0x7ffffff0 + 7 g, i += step (wrapping past INT_MAX and, with
 * a negative step, below INT_MIN), then i after the loop; and the sum of the
 * 64-bit j = (g << 33) | 5, j += step64 (negative), and j after. */
static const char wrap_ptx[] =
   HEAD ".visible .entry k(.param .u64 out, .param .u32 m, .param .u32 step, .param .u64 step64)\n{\n" REGS
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n  ld.param.u32 %r9, [m];\n"
   "  ld.param.u32 %r6, [step];\n  ld.param.u64 %rd9, [step64];\n"
   "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
   "  mad.lo.s32 %r10, %r2, %r3, %r1;\n  mad.lo.s32 %r5, %r10, 7, 0x7ffffff0;\n"
   "  cvt.u64.u32 %rd4, %r10;\n  shl.b64 %rd5, %rd4, 33;\n  or.b64 %rd5, %rd5, 5;\n  mov.u64 %rd6, 0;\n"
   "  mov.u32 %r7, 0;\n  mov.u32 %r8, 0;\n"
   "LOOP:\n  setp.ge.u32 %p1, %r8, %r9;\n  @%p1 bra DONE;\n"
   "  add.s32 %r11, %r8, 1;\n  mul.lo.s32 %r12, %r5, %r11;\n  xor.b32 %r7, %r7, %r12;\n"
   "  add.s64 %rd6, %rd6, %rd5;\n  mov.u32 %r8, %r11;\n"
   "  add.s32 %r5, %r5, %r6;\n  add.s64 %rd5, %rd5, %rd9;\n  bra.uni LOOP;\n"
   "DONE:\n  bar.sync 0;\n  mul.wide.u32 %rd2, %r10, 32;\n  add.s64 %rd3, %rd1, %rd2;\n"
   "  st.global.u32 [%rd3], %r7;\n  st.global.u32 [%rd3+4], %r5;\n  st.global.u64 [%rd3+8], %rd6;\n"
   "  st.global.u64 [%rd3+16], %rd5;\n  ret;\n}\n";

TEST(wrapping_and_64_bit_counters_compute_what_the_thread_would)
{
   core_ctx *c = tc_ctx();
   CHECK(c);
   if (!c)
      return;
   enum { GRID = 2, BLOCK = 64, T = GRID * BLOCK };
   uint64_t d = 0;
   CHECK_INT(core_mem_alloc(c->dev, 32 * T, &d), CORE_SUCCESS);
   const uint8_t *got = (const uint8_t *)(uintptr_t)d;
   static const struct { uint32_t m, step; uint64_t step64; } cases[] = {
      { 40, 3, (uint64_t)-7 }, { 9, 0x10000001u, (uint64_t)-(int64_t)(1ull << 40) }, { 5, (uint32_t)-0x40000000, 1 },
   };
   for (size_t v = 0; v < sizeof(cases) / sizeof(cases[0]); v++) {
      void *args[] = { &d, (void *)&cases[v].m, (void *)&cases[v].step, (void *)&cases[v].step64 };
      char msg[512];
      CHECK_INT(tc_run_ptx(c, wrap_ptx, "k", (const uint32_t[3]){ GRID, 1, 1 }, (const uint32_t[3]){ BLOCK, 1, 1 },
                           args, msg, sizeof(msg)), CORE_SUCCESS);
      uint32_t bad = 0;
      for (uint32_t g = 0; g < T; g++) {
         uint32_t x = 0, i = 0x7ffffff0u + 7 * g;
         uint64_t s = 0, j = ((uint64_t)g << 33) | 5;
         for (uint32_t k = 0; k < cases[v].m; k++) {
            x ^= i * (k + 1);
            s += j;
            i += cases[v].step;
            j += cases[v].step64;
         }
         uint32_t gx, gi;
         uint64_t gs, gj;
         memcpy(&gx, got + 32 * g, 4);
         memcpy(&gi, got + 32 * g + 4, 4);
         memcpy(&gs, got + 32 * g + 8, 8);
         memcpy(&gj, got + 32 * g + 16, 8);
         if ((gx != x || gi != i || gs != s || gj != j) && bad++ < 4)
            fprintf(stderr, "    case %zu thread %u: %08x %08x %016llx %016llx, want %08x %08x %016llx %016llx\n", v,
                    g, gx, gi, (unsigned long long)gs, (unsigned long long)gj, x, i, (unsigned long long)s,
                    (unsigned long long)j);
      }
      CHECK_INT(bad, 0);
   }
   core_mem_free(c->dev, d);
}
