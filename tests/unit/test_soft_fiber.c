/*
 * test_soft_fiber.c — the software device's fibers (src/metal/soft/fiber.c):
 * the context switch keeps every callee-saved register (and its cost is
 * measured), the library build marks exactly the kernels that reach a
 * barrier or SIMD-group function, and the price of fiber mode against
 * loop mode for the same work is measured.
 *
 * Figures are printed, not checked: machines are shared and noisy.
 */
#include "harness.h"

#include "../../src/metal/mtl.h"
#include "../../src/metal/soft/soft.h"
#include "../../src/util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the raw switch ---- */

static void *main_sp, *fiber_sp;
static volatile uint64_t fiber_rounds;

/* The fiber: computes with its own locals (held in callee-saved registers
 * across the switch) and checks them each round. */
static void ping(void *arg)
{
   uint64_t a = 7, b = 11;
   double x = 0.5;
   for (;;) {
      uint64_t a0 = a, b0 = b;
      double x0 = x;
      soft_fiber_switch(&fiber_sp, main_sp);
      if (a != a0 || b != b0 || x != x0)
         *(volatile int *)arg = 1;           /* a register was lost */
      a = a * 3 + b;
      b ^= a >> 7;
      x = x * 1.25 + 1.0;
      fiber_rounds++;
   }
}

/* The same arithmetic as the main loop below, without switches. */
static uint64_t expected_mix(int n, double *xo)
{
   uint64_t a = 1, b = 2;
   double x = 1.5;
   for (int i = 0; i < n; i++) {
      a = a * 5 + b;
      b ^= a >> 3;
      x = x * 0.999 + 1.0;
   }
   *xo = x;
   return a ^ b;
}

TEST(fiber_switch_keeps_registers_and_costs)
{
   enum { STACK = 64 * 1024, N = 1000000 };
   uint8_t *stack = aligned_alloc(16, STACK);
   CHECK(stack);
   volatile int lost = 0;
   fiber_sp = soft_fiber_prepare(stack + STACK, ping, (void *)&lost);
   if (!fiber_sp) {
      free(stack);
      test_skip("this build switches with ucontext");
      return;
   }
   uint64_t a = 1, b = 2;
   double x = 1.5;
   uint64_t t0 = time_ns();
   for (int i = 0; i < N; i++) {
      soft_fiber_switch(&main_sp, fiber_sp);
      a = a * 5 + b;
      b ^= a >> 3;
      x = x * 0.999 + 1.0;
   }
   uint64_t dt = time_ns() - t0;
   double xe;
   uint64_t ab = expected_mix(N, &xe);
   free(stack);
   CHECK_MSG(!lost, "the fiber lost a register value across a switch");
   CHECK_U64(a ^ b, ab);
   CHECK_MSG(x == xe, "a floating-point register was lost: got %.17g, expected %.17g", x, xe);
   CHECK_U64(fiber_rounds, N - 1);
   printf("  fiber switch: %.1f ns (%d round trips, two switches each)\n", (double)dt / (2.0 * N), N);
}

/* ---- which kernels need fibers ---- */

static mtl_device *soft_device(void)
{
   uint32_t n = mtl_device_count();
   return n ? mtl_device_get(n - 1) : NULL;
}

static mtl_pipeline *pipeline(mtl_device *dev, mtl_library *lib, const char *name)
{
   mtl_function *fn = mtl_function_new(lib, name, NULL);
   mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, NULL) : NULL;
   mtl_function_release(fn);
   return p;
}

static const char kinds_src[] =
   "#include <metal_stdlib>\nusing namespace metal;\n"
   "__attribute__((noinline)) void sync_helper() { threadgroup_barrier(mem_flags::mem_threadgroup); }\n"
   "__attribute__((noinline)) uint plain_helper(uint x) { return x * 3 + 1; }\n"
   "kernel void plain(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{ o[i] = plain_helper(i); }\n"
   "kernel void direct(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{ o[i] = i; threadgroup_barrier(mem_flags::mem_device); }\n"
   "kernel void nested(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{ if (i > 1000000) sync_helper(); o[i] = plain_helper(i); }\n"
   "kernel void simd(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{ o[i] = simd_sum(i); }\n";

TEST(library_marks_the_kernels_that_reach_a_barrier)
{
   mtl_device *dev = soft_device();
   CHECK(dev);
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev, kinds_src, NULL, &err);
   CHECK_MSG(lib, "compile: %s", err ? err : "?");
   static const struct { const char *name; uint32_t flags; } want[] = {
      { "plain", 0 }, { "direct", SOFT_KERNEL_FIBERS }, { "nested", SOFT_KERNEL_FIBERS },
      { "simd", SOFT_KERNEL_FIBERS },
   };
   for (size_t k = 0; k < ARRAY_SIZE(want); k++) {
      mtl_pipeline *p = pipeline(dev, lib, want[k].name);
      CHECK_MSG(p, "no pipeline for %s", want[k].name);
      uint32_t got = ((soft_pipeline *)p)->info.flags;
      mtl_pipeline_release(p);
      CHECK_MSG(got == want[k].flags, "kernel %s: flags %#x, expected %#x", want[k].name, got, want[k].flags);
   }
   mtl_library_release(lib);
}

/* ---- fiber mode against loop mode ---- */

static const char cost_src[] =
   "#include <metal_stdlib>\nusing namespace metal;\n"
   "kernel void loop_mode(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{ o[i] = i * 3u + 1u; }\n"
   "kernel void one_barrier(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{ o[i] = i * 3u + 1u; threadgroup_barrier(mem_flags::mem_none); }\n"
   "kernel void reduce(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]],\n"
   "                   uint t [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]])\n"
   "{\n"
   "   threadgroup uint v[1024];\n"
   "   v[t] = i;\n"
   "   threadgroup_barrier(mem_flags::mem_threadgroup);\n"
   "   for (uint s = 512; s > 0; s /= 2) {\n"
   "      if (t < s) v[t] += v[t + s];\n"
   "      threadgroup_barrier(mem_flags::mem_threadgroup);\n"
   "   }\n"
   "   if (t == 0) o[g] = v[0];\n"
   "}\n"
   "kernel void warp_reduce(device uint *o [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
   "{\n"
   "   uint s = i;\n"
   "   for (ushort d = 16; d > 0; d /= 2) s += simd_shuffle_down(s, d);\n"
   "   o[i] = s;\n"
   "}\n";

/* Best of three runs of a dispatch of `groups` groups of 1024 threads. */
static double run_ns(mtl_device *dev, mtl_pipeline *p, mtl_buffer *buf, uint32_t groups, bool *ok)
{
   mtl_queue *q = mtl_queue_new(dev, NULL);
   double best = 1e30;
   for (int rep = 0; rep < 4 && q; rep++) {
      mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
      mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
      mtl_encoder_set_pipeline(e, p);
      mtl_encoder_set_buffer(e, buf, 0, 0);
      mtl_encoder_dispatch_threadgroups(e, (mtl_size){ groups, 1, 1 }, (mtl_size){ 1024, 1, 1 });
      mtl_encoder_end(e);
      uint64_t t0 = time_ns();
      mtl_cmdbuf_commit(cb);
      mtl_cmdbuf_wait_until_completed(cb);
      double dt = (double)(time_ns() - t0);
      *ok &= mtl_cmdbuf_get_status(cb) == MTL_CMDBUF_COMPLETED;
      mtl_cmdbuf_release(cb);
      if (rep > 0 && dt < best)          /* the first run warms the stacks up */
         best = dt;
   }
   mtl_queue_release(q);
   return best;
}

/* What kernel k of cost_src leaves in o[i] (reduce: only o[0..groups)). */
static bool expected(int k, uint32_t i, uint32_t groups, uint32_t *want)
{
   if (k < 2) {
      *want = i * 3u + 1u;
      return true;
   }
   if (k == 2) {
      *want = 1024u * (1024u * i) + 523776u;
      return i < groups;
   }
   /* shuffle_down leaves lanes whose source is past the SIMD-group
    * unchanged, so those add their own value */
   uint32_t lane = i % 32, s[32], t[32];
   for (uint32_t l = 0; l < 32; l++)
      s[l] = i - lane + l;
   for (uint32_t d = 16; d > 0; d /= 2) {
      for (uint32_t l = 0; l < 32; l++)
         t[l] = s[l] + (l + d < 32 ? s[l + d] : s[l]);
      memcpy(s, t, sizeof(s));
   }
   *want = s[lane];
   return true;
}

TEST(fiber_mode_cost_against_loop_mode)
{
   mtl_device *dev = soft_device();
   CHECK(dev);
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev, cost_src, NULL, &err);
   CHECK_MSG(lib, "compile: %s", err ? err : "?");
   enum { GROUPS = 64, N = GROUPS * 1024 };
   mtl_buffer *buf = mtl_buffer_new(dev, N * sizeof(uint32_t), NULL);
   CHECK(buf);
   const uint32_t *o = mtl_buffer_contents(buf);
   static const char *const names[] = { "loop_mode", "one_barrier", "reduce", "warp_reduce" };
   double ns[4];
   bool ok = true;
   for (int k = 0; k < 4; k++) {
      mtl_pipeline *p = pipeline(dev, lib, names[k]);
      CHECK(p);
      ns[k] = run_ns(dev, p, buf, GROUPS, &ok) / N;
      mtl_pipeline_release(p);
      uint32_t bad = 0, want;
      for (uint32_t i = 0; i < N; i++)
         if (expected(k, i, GROUPS, &want) && o[i] != want && bad++ < 4)
            printf("    %s: o[%u] = %u, expected %u\n", names[k], i, o[i], want);
      CHECK_MSG(!bad, "kernel %s computed %u wrong values", names[k], bad);
   }
   CHECK(ok);
   printf("  per thread: loop mode %.1f ns, one barrier (fibers) %.1f ns (x%.1f), "
          "1024-thread tree reduction %.1f ns, SIMD-group shuffle reduction %.1f ns\n",
          ns[0], ns[1], ns[1] / ns[0], ns[2], ns[3]);
   mtl_buffer_release(buf);
   mtl_library_release(lib);
}
