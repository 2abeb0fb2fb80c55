/*
 * test_lanes_stride.c — a grid-stride loop in lane form (emit_lanes.c,
 * "conditions in a lane loop of their own" and "the next iteration's
 * loads"): the loop's exit condition, computed from the position and the
 * uniform counter only, is written in a lane loop after the load's, and
 * the stretch the load reads four iterations on (emit_lanes.c
 * PREFETCH_AHEAD: the counter's next value plus three steps) is
 * prefetched ahead of its lane loop.
 *
 * The MSL shows both; execution on the software device, in both lane-loop
 * forms (METALCUDA_SOFT_LANE_LOOPS=runs / masked), against a host model,
 * shows the lanes still leave the loop at their own iterations: 1000
 * elements over a grid of 3 x 64 threads, so lanes run 5 or 6 iterations.
 */
#include "harness.h"
#include "test_core_util.h"

#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

enum { GROUPS = 3, THREADS = 64, GRID = GROUPS * THREADS, ELEMS = 1000 };

/* out[g] = the sum of in[i] for i = g, g + GRID, ... below n; a barrier
 * before the store makes it a lane-form kernel. */
static const char stride_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n"
   "  ld.param.u64 %rd1, [in];\n  cvta.to.global.u64 %rd1, %rd1;\n"
   "  ld.param.u64 %rd2, [out];\n  cvta.to.global.u64 %rd2, %rd2;\n  ld.param.u32 %r1, [n];\n"
   "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %ctaid.x;\n  mov.u32 %r5, %nctaid.x;\n"
   "  mad.lo.s32 %r6, %r4, %r3, %r2;\n  mul.lo.s32 %r7, %r5, %r3;\n  mov.u32 %r8, 0;\n"
   "  setp.ge.s32 %p1, %r6, %r1;\n  @%p1 bra DONE;\n  mov.u32 %r9, %r6;\n"
   "LOOP:\n  mul.wide.s32 %rd3, %r9, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r10, [%rd4];\n"
   "  add.u32 %r8, %r8, %r10;\n  add.s32 %r9, %r9, %r7;\n  setp.lt.s32 %p2, %r9, %r1;\n  @%p2 bra LOOP;\n"
   "DONE:\n  bar.sync 0;\n"
   "  mul.wide.u32 %rd5, %r6, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.u32 [%rd6], %r8;\n"
   "  ret;\n}\n";

static uint32_t elem(uint32_t i) { return i * 2654435761u >> 7; }

/* The lane loop (MC_LANES_FOR_POS ... MC_LANES_END) at or after from. */
static const char *next_loop(const char *from, const char **end)
{
   const char *l = from ? strstr(from, "MC_LANES_FOR_POS(") : NULL;
   *end = l ? strstr(l, "MC_LANES_END") : NULL;
   return *end ? l : NULL;
}

static bool has_between(const char *a, const char *b, const char *what)
{
   const char *p = strstr(a, what);
   return p && p < b;
}

TEST(a_grid_stride_loops_condition_has_its_own_lane_loop_and_its_next_loads_are_prefetched)
{
   char *msl = tc_msl_of(stride_ptx);
   const char *body = msl ? strstr(msl, "kernel void") : NULL;
   CHECK(body && strstr(body, "MC_LANES_BEGIN"));
   if (!body) {
      free(msl);
      return;
   }
   CHECK_INT(tc_count(body, "MC_LANES_PREFETCH("), 1);
   /* the counter four iterations on: its next value plus three steps, in
    * both lanes' addresses */
   const char *pfa = strstr(body, "ulong mc_pf[2];"), *pfe = strstr(body, "MC_LANES_PREFETCH(");
   CHECK(pfa && pfe && pfa < pfe);
   if (pfa && pfe && pfa < pfe) {
      size_t n = (size_t)(pfe - pfa);
      char *seg = strndup(pfa, n);
      CHECK_INT(seg ? tc_count(seg, ")3 * (uint)") : 0, 2);
      free(seg);
   }
   /* after the prefetch: the load's lane loop, without the compare, then
    * the compare's, without a load */
   const char *pf = strstr(body, "MC_LANES_PREFETCH("), *end1 = NULL, *end2 = NULL;
   const char *loop1 = next_loop(pf, &end1), *loop2 = next_loop(end1, &end2);
   CHECK(loop1 && loop2);
   if (loop1 && loop2) {
      CHECK(has_between(loop1, end1, "*reinterpret_cast<device uint *>"));
      CHECK(!has_between(loop1, end1, " < as_type<int>("));
      CHECK(has_between(loop2, end2, " < as_type<int>("));
      CHECK(!has_between(loop2, end2, "reinterpret_cast<device"));
   }
   free(msl);
}

TEST(a_grid_stride_loop_in_lane_form_computes_each_threads_sum)
{
   core_ctx *c = tc_ctx();
   CHECK(c);
   if (!c)
      return;
   uint64_t din = 0, dout = 0;
   /* a grid's stride of sentinels after the elements: a lane that went
    * round once too often adds one */
   CHECK_INT(core_mem_alloc(c->dev, (ELEMS + GRID) * sizeof(uint32_t), &din), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(c->dev, GRID * sizeof(uint32_t), &dout), CORE_SUCCESS);
   uint32_t *in = (uint32_t *)(uintptr_t)din;
   const uint32_t *got = (const uint32_t *)(uintptr_t)dout;
   for (uint32_t i = 0; i < ELEMS + GRID; i++)
      in[i] = i < ELEMS ? elem(i) : 0x100000u + i;
   static const char *const forms[2] = { "runs", "masked" };
   char *saved = tc_env_save("METALCUDA_SOFT_LANE_LOOPS");
   for (int f = 0; f < 2; f++) {
      setenv("METALCUDA_SOFT_LANE_LOOPS", forms[f], 1);
      memset((void *)(uintptr_t)dout, 0xee, GRID * sizeof(uint32_t));
      uint32_t n = ELEMS;
      void *args[] = { &din, &dout, &n };
      char msg[512];
      int r = tc_run_ptx(c, stride_ptx, "k", (const uint32_t[3]){ GROUPS, 1, 1 }, (const uint32_t[3]){ THREADS, 1, 1 },
                         args, msg, sizeof(msg));
      CHECK_INT(r, CORE_SUCCESS);
      if (r != CORE_SUCCESS)
         fprintf(stderr, "    %s\n", msg);
      uint32_t bad = 0;
      for (uint32_t g = 0; g < GRID; g++) {
         uint32_t want = 0;
         for (uint32_t i = g; i < ELEMS; i += GRID)
            want += elem(i);
         if (got[g] != want && bad++ < 4)
            fprintf(stderr, "    lane loops %s: out[%u] = %#x, want %#x\n", forms[f], g, got[g], want);
      }
      CHECK_INT(bad, 0);
   }
   tc_env_restore("METALCUDA_SOFT_LANE_LOOPS", saved);
   core_mem_free(c->dev, din);
   core_mem_free(c->dev, dout);
}
