/*
 * test_structurize.c — the structurizer, out-of-SSA and predicate lowering,
 * tested by execution.
 *
 * Random control-flow graphs are written as PTX kernels in which every
 * block records its id in a trace, updates a loop-carried checksum (phis),
 * and adds to a counter under a guard (@p).  The branch taken from each
 * block is decided by a linear congruential generator carried through the
 * CFG.  The same walk is simulated on the host: the trace, checksum and
 * counter the software device produces must match exactly.
 *
 * Reducibility is decided independently on the host by T1/T2 reduction
 * (Hecht & Ullman), so the test can count how many irreducible graphs
 * (made reducible by node splitting) it ran: every graph must translate
 * and run.  The CFGs are seeded deterministically, so a failure
 * reproduces.
 */
#include "harness.h"

#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BLOCKS 12
#define MAX_STEPS 200

typedef struct cfg {
   int n;
   /* kind: 0 = goto a, 1 = if (coin) a else b, 2 = return */
   int kind[MAX_BLOCKS], a[MAX_BLOCKS], b[MAX_BLOCKS];
} cfg;

static uint32_t rng_next(uint32_t *s)
{
   *s = *s * 1103515245u + 12345u;
   return *s >> 8;
}

static void random_cfg(cfg *g, uint32_t seed, int n)
{
   uint32_t s = seed;
   g->n = n;
   for (int k = 0; k < n; k++) {
      uint32_t r = rng_next(&s) % 10;
      g->kind[k] = r < 3 ? 0 : r < 9 ? 1 : 2;
      g->a[k] = (int)(rng_next(&s) % (uint32_t)n);
      g->b[k] = (int)(rng_next(&s) % (uint32_t)n);
      /* Bias towards forward edges so most graphs are reducible. */
      if (rng_next(&s) % 3 && k + 1 < n)
         g->a[k] = k + 1 + (int)(rng_next(&s) % (uint32_t)(n - k - 1));
      if (g->kind[k] == 1 && g->a[k] == g->b[k])
         g->b[k] = (g->a[k] + 1) % n;
   }
   g->kind[n - 1] = 2;   /* at least one return */
}

/* ---- independent reducibility check: T1/T2 on the reachable subgraph ---- */

static bool reducible(const cfg *g)
{
   bool edge[MAX_BLOCKS][MAX_BLOCKS] = { { false } };
   bool alive[MAX_BLOCKS] = { false };
   /* reachability from 0 */
   int stack[MAX_BLOCKS], sp = 0;
   stack[sp++] = 0;
   alive[0] = true;
   while (sp) {
      int v = stack[--sp];
      int succ[2], ns = 0;
      if (g->kind[v] == 0) succ[ns++] = g->a[v];
      if (g->kind[v] == 1) { succ[ns++] = g->a[v]; succ[ns++] = g->b[v]; }
      for (int k = 0; k < ns; k++) {
         edge[v][succ[k]] = true;
         if (!alive[succ[k]]) {
            alive[succ[k]] = true;
            stack[sp++] = succ[k];
         }
      }
   }
   for (bool changed = true; changed;) {
      changed = false;
      for (int v = 0; v < g->n; v++) {
         if (!alive[v])
            continue;
         if (edge[v][v]) {   /* T1: drop a self loop */
            edge[v][v] = false;
            changed = true;
         }
         if (v == 0)
            continue;
         int preds = 0, pred = -1;
         for (int u = 0; u < g->n; u++)
            if (alive[u] && edge[u][v]) {
               preds++;
               pred = u;
            }
         if (preds == 1) {   /* T2: merge v into its only predecessor */
            for (int w = 0; w < g->n; w++)
               if (edge[v][w])
                  edge[pred][w] = true;
            for (int w = 0; w < g->n; w++)
               edge[v][w] = edge[w][v] = false;
            alive[v] = false;
            changed = true;
         }
      }
   }
   int left = 0;
   for (int v = 0; v < g->n; v++)
      left += alive[v];
   return left == 1;
}

/* ---- PTX for a CFG ---- */

static void emit_ptx(strbuf *b, const cfg *g)
{
   strbuf_puts(b, ".version 9.0\n.target sm_75\n.address_size 64\n"
                  ".visible .entry walk(.param .u64 out)\n{\n"
                  "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
                  "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
                  "  mov.u32 %r1, 0;\n  mov.u32 %r2, 12345;\n  mov.u32 %r4, 7;\n  mov.u32 %r5, 0;\n"
                  "  bra.uni B0;\n");
   for (int k = 0; k < g->n; k++) {
      strbuf_printf(b, "B%d:\n", k);
      /* trace[r1] = k; r1++ */
      strbuf_printf(b, "  mul.wide.u32 %%rd2, %%r1, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
                       "  st.global.u32 [%%rd3+12], %d;\n  add.u32 %%r1, %%r1, 1;\n", k);
      /* checksum r4 = r4 * 31 + k (a value carried around every loop) */
      strbuf_printf(b, "  mad.lo.u32 %%r4, %%r4, 31, %d;\n", k);
      strbuf_printf(b, "  setp.ge.u32 %%p1, %%r1, %d;\n  @%%p1 bra DONE;\n", MAX_STEPS);
      /* r2 = lcg(r2); coin = (r2 >> 16) & 1 */
      strbuf_puts(b, "  mad.lo.u32 %r2, %r2, 1664525, 1013904223;\n  shr.u32 %r3, %r2, 16;\n"
                     "  and.b32 %r3, %r3, 1;\n  setp.eq.u32 %p2, %r3, 1;\n");
      /* a guarded update: r5 += k + 1 only when the coin is 1 */
      strbuf_printf(b, "  @%%p2 add.u32 %%r5, %%r5, %d;\n", k + 1);
      switch (g->kind[k]) {
      case 0: strbuf_printf(b, "  bra.uni B%d;\n", g->a[k]); break;
      case 1: strbuf_printf(b, "  @%%p2 bra B%d;\n  bra.uni B%d;\n", g->a[k], g->b[k]); break;
      default: strbuf_puts(b, "  bra.uni DONE;\n"); break;
      }
   }
   strbuf_puts(b, "DONE:\n  st.global.u32 [%rd1], %r1;\n  st.global.u32 [%rd1+4], %r4;\n"
                  "  st.global.u32 [%rd1+8], %r5;\n  ret;\n}\n");
}

/* ---- host simulation ---- */

typedef struct walk_result {
   uint32_t steps, checksum, counter;
   uint32_t trace[MAX_STEPS];
} walk_result;

static void simulate(const cfg *g, walk_result *w)
{
   memset(w, 0, sizeof(*w));
   uint32_t lcg = 12345, sum = 7, cnt = 0, steps = 0;
   int v = 0;
   for (;;) {
      w->trace[steps++] = (uint32_t)v;
      sum = sum * 31 + (uint32_t)v;
      if (steps >= MAX_STEPS)
         break;
      lcg = lcg * 1664525u + 1013904223u;
      bool coin = (lcg >> 16) & 1;
      if (coin)
         cnt += (uint32_t)v + 1;
      if (g->kind[v] == 2)
         break;
      v = g->kind[v] == 0 ? g->a[v] : coin ? g->a[v] : g->b[v];
   }
   w->steps = steps;
   w->checksum = sum;
   w->counter = cnt;
}

static core_ctx *test_ctx(void)
{
   static core_ctx *c;
   if (!c && core_init() == CORE_SUCCESS && core_ctx_retain_primary(core_device_get(0), &c) != CORE_SUCCESS)
      c = NULL;
   return c;
}

/* Runs one CFG; returns 1 if it ran and matched, -1 on failure (reported). */
static int run_cfg(const cfg *g, uint32_t seed)
{
   core_ctx *c = test_ctx();
   if (!c) {
      test_fail_(__FILE__, __LINE__, "no device");
      return -1;
   }
   strbuf ptx;
   strbuf_init(&ptx);
   emit_ptx(&ptx, g);
   core_module *m = NULL;
   int r = core_module_load(c, ptx.s, ptx.len, &m);
   core_kernel *k = NULL;
   if (r == CORE_SUCCESS)
      r = core_module_get_kernel(m, "walk", &k);
   if (r == CORE_SUCCESS)
      r = core_kernel_prepare(k);
   if (r != CORE_SUCCESS) {
      test_fail_(__FILE__, __LINE__, "seed %u: CFG failed to translate (%d):\n%s", seed, r, ptx.s);
      strbuf_free(&ptx);
      if (m)
         core_module_unload(m);
      return -1;
   }
   uint64_t out;
   size_t bytes = (3 + MAX_STEPS) * 4;
   int ok = -1;
   if (core_mem_alloc(c->dev, bytes, &out) == CORE_SUCCESS) {
      memset((void *)(uintptr_t)out, 0xde, bytes);
      void *args[] = { &out };
      core_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, NULL, args, NULL, 0, false };
      r = core_launch(k, &cfg);
      if (r == CORE_SUCCESS)
         r = core_ctx_synchronize(c);
      walk_result want;
      simulate(g, &want);
      const uint32_t *got = (const uint32_t *)(uintptr_t)out;
      if (r != CORE_SUCCESS) {
         test_fail_(__FILE__, __LINE__, "seed %u: launch failed (%d)", seed, r);
      } else if (got[0] != want.steps || got[1] != want.checksum || got[2] != want.counter) {
         test_fail_(__FILE__, __LINE__, "seed %u: got steps %u checksum %#x counter %u, expected %u %#x %u\n%s",
                    seed, got[0], got[1], got[2], want.steps, want.checksum, want.counter, ptx.s);
      } else if (memcmp(got + 3, want.trace, want.steps * 4)) {
         test_fail_(__FILE__, __LINE__, "seed %u: trace differs from the host walk", seed);
      } else {
         ok = 1;
      }
      core_mem_free(c->dev, out);
   }
   core_module_unload(m);
   strbuf_free(&ptx);
   return ok;
}

TEST(random_cfgs_execute_like_the_host_walk)
{
   /* Random graphs are mostly reducible: draw until both kinds are filled. */
   int want = getenv("MC_TEST_FULL") ? 300 : 30;
   int reducible_ran = 0, irreducible_ran = 0;
   for (int s = 1; s <= 50 * want && (reducible_ran < want || irreducible_ran < want); s++) {
      cfg g;
      random_cfg(&g, (uint32_t)s * 2654435761u, 3 + s % (MAX_BLOCKS - 2));
      bool red = reducible(&g);
      if ((red && reducible_ran >= want) || (!red && irreducible_ran >= want))
         continue;
      if (run_cfg(&g, (uint32_t)s) < 0)
         return;
      if (red)
         reducible_ran++;
      else
         irreducible_ran++;
   }
   printf("  %d reducible and %d irreducible CFGs ran correctly\n", reducible_ran, irreducible_ran);
   CHECK_MSG(reducible_ran == want && irreducible_ran == want,
             "too few CFGs of each kind (%d reducible, %d irreducible) drawn", reducible_ran, irreducible_ran);
}

/* The shapes programs contain most, written out (loop with break and
 * continue, nested loops, early return from inside a loop). */
TEST(hand_written_shapes)
{
   static const struct { int n; int kind[6], a[6], b[6]; } shapes[] = {
      /* while loop: 0 → 1; 1: if → 2 else 3; 2 → 1; 3 return */
      { 4, { 0, 1, 0, 2 }, { 1, 2, 1, 0 }, { 0, 3, 0, 0 } },
      /* nested loops with an exit from the inner loop to the outer exit */
      { 5, { 0, 1, 1, 0, 2 }, { 1, 2, 3, 1, 0 }, { 0, 4, 4, 0, 0 } },
      /* diamond then return */
      { 4, { 1, 0, 0, 2 }, { 1, 3, 3, 0 }, { 2, 0, 0, 0 } },
      /* loop whose body returns early */
      { 4, { 0, 1, 1, 2 }, { 1, 2, 1, 0 }, { 0, 3, 3, 0 } },
   };
   for (size_t k = 0; k < ARRAY_SIZE(shapes); k++) {
      cfg g = { .n = shapes[k].n };
      memcpy(g.kind, shapes[k].kind, sizeof(shapes[k].kind));
      memcpy(g.a, shapes[k].a, sizeof(shapes[k].a));
      memcpy(g.b, shapes[k].b, sizeof(shapes[k].b));
      CHECK_MSG(reducible(&g), "shape %zu should be reducible", k);
      if (run_cfg(&g, (uint32_t)(1000 + k)) != 1)
         return;
   }
}

TEST(irreducible_cfgs_are_split_and_run)
{
   static const struct { int n; int kind[6], a[6], b[6]; } shapes[] = {
      /* 0 → {1, 2}, 1 → 2, 2 → 1: two entries into the 1-2 cycle */
      { 4, { 1, 1, 1, 2 }, { 1, 2, 1, 0 }, { 2, 3, 3, 0 } },
      /* two entries into the three-block cycle 1 → 2 → 3 → 1 */
      { 5, { 1, 1, 1, 1, 2 }, { 1, 2, 3, 1, 0 }, { 2, 4, 4, 4, 0 } },
      /* an irreducible cycle nested in a natural loop headed by 1 */
      { 6, { 0, 1, 1, 1, 1, 2 }, { 1, 2, 3, 4, 2, 0 }, { 0, 3, 5, 1, 1, 0 } },
   };
   for (size_t k = 0; k < ARRAY_SIZE(shapes); k++) {
      cfg g = { .n = shapes[k].n };
      memcpy(g.kind, shapes[k].kind, sizeof(shapes[k].kind));
      memcpy(g.a, shapes[k].a, sizeof(shapes[k].a));
      memcpy(g.b, shapes[k].b, sizeof(shapes[k].b));
      CHECK_MSG(!reducible(&g), "shape %zu should be irreducible", k);
      if (run_cfg(&g, (uint32_t)(2000 + k)) != 1)
         return;
   }
}

/* Regression: SSA construction lost the value of a variable defined in a
 * loop and used after it (try_remove_trivial_phi returned a phi that the
 * recursion had already removed; found by tests/cuda/loops.cu). */
TEST(value_defined_in_a_loop_used_after_it)
{
   static const char ptx[] =
      ".version 9.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
      "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [n];\n  mov.u32 %r2, 0;\n  mov.u32 %r3, %r1;\n"
      "$L1:\n  setp.eq.s32 %p1, %r3, 5;\n  @%p1 bra $L2;\n  add.s32 %r2, %r2, 1;\n"
      "$L2:\n  add.s32 %r3, %r3, 3;\n  setp.lt.u32 %p3, %r3, 12;\n  @%p3 bra $L1;\n"
      "  add.s32 %r4, %r1, 1;\n  add.s32 %r4, %r4, %r2;\n  st.global.u32 [%rd1], %r4;\n  ret;\n}\n";
   core_ctx *c = test_ctx();
   CHECK(c);
   core_module *m;
   core_kernel *k;
   CHECK_INT(core_module_load(c, ptx, sizeof(ptx) - 1, &m), CORE_SUCCESS);
   CHECK_INT(core_module_get_kernel(m, "k", &k), CORE_SUCCESS);
   uint64_t out;
   CHECK_INT(core_mem_alloc(c->dev, 4, &out), CORE_SUCCESS);
   for (uint32_t n = 0; n < 16; n++) {
      uint32_t r2 = 0, r3 = n;   /* the host walk of the same loop */
      do {
         if (r3 != 5)
            r2++;
         r3 += 3;
      } while (r3 < 12);
      void *args[] = { &out, &n };
      core_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, NULL, args, NULL, 0, false };
      *(volatile uint32_t *)(uintptr_t)out = 0xdeadbeef;
      CHECK_INT(core_launch(k, &cfg), CORE_SUCCESS);
      CHECK_INT(core_ctx_synchronize(c), CORE_SUCCESS);
      CHECK_MSG(*(uint32_t *)(uintptr_t)out == n + 1 + r2, "n=%u: got %u, expected %u", n,
                *(uint32_t *)(uintptr_t)out, n + 1 + r2);
   }
   core_mem_free(c->dev, out);
   core_module_unload(m);
}
