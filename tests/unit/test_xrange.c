/*
 * test_xrange.c — a kernel's opening test as the range of the software
 * device's loop over threads (src/compiler/msl/emit_xrange.c, the
 * prelude's mc_xtest_runs and mc_xrange_and, msl_scan.c
 * gen_x_range_loop): which kernels get it, and that exactly the threads
 * passing the test run — for every comparison, signed and unsigned, either
 * operand order, either side returning, with the tested value wrapping
 * around 2^31 and 2^32 inside a block (2^63 and 2^64 for 64-bit tests);
 * and for tests of several leaves
 * (a stencil's ORs of row and x tests, an AND with a NOT, three x tests
 * leaving up to four runs of a row).  Expected values: the tests
 * evaluated per thread on the host.
 */
#include "harness.h"
#include "test_core_util.h"

#include "compiler/compiler.h"
#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; */
static const char saxpy_ptx[] = HEAD
   ".visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<6>;\n   .reg .f32 %f<5>;\n   .reg .b64 %rd<8>;\n"
   "   ld.param.u32 %r2, [n];\n   ld.param.f32 %f1, [a];\n   ld.param.u64 %rd1, [x];\n"
   "   ld.param.u64 %rd2, [y];\n   mov.u32 %r3, %ctaid.x;\n   mov.u32 %r4, %ntid.x;\n"
   "   mov.u32 %r5, %tid.x;\n   mad.lo.s32 %r1, %r3, %r4, %r5;\n   setp.ge.s32 %p1, %r1, %r2;\n"
   "   @%p1 bra $DONE;\n   cvta.to.global.u64 %rd3, %rd2;\n   cvta.to.global.u64 %rd4, %rd1;\n"
   "   mul.wide.s32 %rd5, %r1, 4;\n   add.s64 %rd6, %rd4, %rd5;\n   ld.global.f32 %f2, [%rd6];\n"
   "   add.s64 %rd7, %rd3, %rd5;\n   ld.global.f32 %f3, [%rd7];\n   fma.rn.f32 %f4, %f2, %f1, %f3;\n"
   "   st.global.f32 [%rd7], %f4;\n$DONE:\n   ret;\n}\n";

/* The same test on threadIdx.y, after a load, and on a value loaded: no
 * range (the loop cannot know who passes before running them). */
static const char tid_y_ptx[] = HEAD
   ".visible .entry ty(.param .u64 out, .param .u32 n)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   ld.param.u32 %r2, [n];\n   mov.u32 %r1, %tid.y;\n"
   "   setp.ge.u32 %p1, %r1, %r2;\n   @%p1 bra $DONE;\n   mul.wide.u32 %rd2, %r1, 4;\n"
   "   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r1;\n$DONE:\n   ret;\n}\n";

static const char loaded_n_ptx[] = HEAD
   ".visible .entry ln(.param .u64 out)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   ld.global.u32 %r2, [%rd1];\n   mov.u32 %r1, %tid.x;\n"
   "   setp.ge.u32 %p1, %r1, %r2;\n   @%p1 bra $DONE;\n   mul.wide.u32 %rd2, %r1, 4;\n"
   "   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3+4], %r1;\n$DONE:\n   ret;\n}\n";

/* Four tests of x: more runs than the loop takes (mc_xrange), no range. */
static const char four_x_ptx[] = HEAD
   ".visible .entry x4(.param .u64 out, .param .u32 n)\n{\n"
   "   .reg .pred %p<8>;\n   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   ld.param.u32 %r2, [n];\n   mov.u32 %r1, %tid.x;\n"
   "   setp.eq.u32 %p1, %r1, %r2;\n   setp.eq.u32 %p2, %r1, 7;\n   setp.eq.u32 %p3, %r1, 9;\n"
   "   setp.eq.u32 %p4, %r1, 11;\n   or.pred %p5, %p1, %p2;\n   or.pred %p6, %p3, %p4;\n"
   "   or.pred %p7, %p5, %p6;\n   @%p7 bra $DONE;\n   mul.wide.u32 %rd2, %r1, 4;\n"
   "   add.s64 %rd3, %rd1, %rd2;\n   st.global.u32 [%rd3], %r1;\n$DONE:\n   ret;\n}\n";

TEST(an_opening_test_of_the_x_index_becomes_the_loops_range)
{
   char *sx = tc_msl_of(saxpy_ptx), *ty = tc_msl_of(tid_y_ptx), *ln = tc_msl_of(loaded_n_ptx);
   char *x4 = tc_msl_of(four_x_ptx);
   CHECK(sx && ty && ln && x4);
   if (sx && ty && ln && x4) {
      CHECK_CONTAINS(sx, "    MC_THREADS_X_RANGE(mc_xrange_");
      CHECK_INT(tc_count(sx, "if (MC_XTEST("), 1);
      CHECK_CONTAINS(sx, "    mc_xtest_runs(r, ");
      CHECK_MSG(!strstr(ty, "MC_THREADS_X_RANGE(mc_") && !strstr(ty, "if (MC_XTEST("),
                "a test of tid.y got an x range");
      CHECK_MSG(!strstr(ln, "MC_THREADS_X_RANGE(mc_") && !strstr(ln, "if (MC_XTEST("),
                "a test against a loaded value got an x range");
      CHECK_MSG(!strstr(x4, "MC_THREADS_X_RANGE(mc_") && !strstr(x4, "if (MC_XTEST("),
                "four tests of x got an x range");
   }
   free(x4);
   free(sx);
   free(ty);
   free(ln);
}

static const char *const cmp_name[6] = { "eq", "ne", "lt", "le", "gt", "ge" };

/* Kernels k<c>0 and k<c>1: w = u + blockIdx.x * blockDim.x + threadIdx.x
 * (32 bits, or 64 as `size_t i = blockIdx.x * (size_t)blockDim.x +
 * threadIdx.x` compiles); the test `w cmp n` (or `n cmp w`, swapped)
 * returns on true (or on false); a thread that goes on writes 1 to
 * out[blockIdx.x * blockDim.x + threadIdx.x].  The comparison in both
 * signednesses, the operand order and the returning side varying between
 * them.  A module per comparison and width: a loaded kernel's library
 * holds a TLS slot, and more than glibc's spare slots at once make it
 * resize the thread's table, which LeakSanitizer takes for a leak. */
static bool variant_swapped(int c, int s) { return ((c + s) & 1) != 0; }
static bool variant_exits_on_true(int c, int s) { return ((c / 2 + s) & 1) == 0; }

static char *range_module(int c, unsigned bits)
{
   strbuf b = {0};
   strbuf_puts(&b, HEAD);
   const char *w = bits == 64 ? "   mul.wide.u32 %rd6, %r3, %r4;\n   add.s64 %rd7, %rd6, %rd4;\n"
                                "   cvt.u64.u32 %rd8, %r5;\n   add.s64 %rd9, %rd7, %rd8;\n"
                              : "   mad.lo.s32 %r6, %r3, %r4, %r1;\n   add.s32 %r7, %r6, %r5;\n";
   for (int s = 0; s < 2; s++) {
      const char *wv = bits == 64 ? "%rd9" : "%r7", *nv = bits == 64 ? "%rd5" : "%r2";
      strbuf_printf(&b,
         ".visible .entry k%d%d(.param .u64 out, .param .u%u u, .param .u%u n)\n{\n"
         "   .reg .pred %%p<2>;\n   .reg .b32 %%r<10>;\n   .reg .b64 %%rd<12>;\n"
         "   ld.param.u64 %%rd1, [out];\n   ld.param.u%u %s, [u];\n   ld.param.u%u %s, [n];\n"
         "   mov.u32 %%r3, %%ctaid.x;\n   mov.u32 %%r4, %%ntid.x;\n   mov.u32 %%r5, %%tid.x;\n%s"
         "   setp.%s.%s%u %%p1, %s, %s;\n   @%s%%p1 bra $DONE;\n"
         "   mad.lo.s32 %%r8, %%r3, %%r4, %%r5;\n   mul.wide.u32 %%rd2, %%r8, 4;\n"
         "   add.s64 %%rd3, %%rd1, %%rd2;\n   mov.u32 %%r9, 1;\n   st.global.u32 [%%rd3], %%r9;\n"
         "$DONE:\n   ret;\n}\n",
         c, s, bits, bits, bits, bits == 64 ? "%rd4" : "%r1", bits, nv, w, cmp_name[c], s ? "s" : "u", bits,
         variant_swapped(c, s) ? nv : wv, variant_swapped(c, s) ? wv : nv, variant_exits_on_true(c, s) ? "" : "!");
   }
   return strbuf_take(&b);
}

static bool host_cmp(int c, bool is_signed, unsigned bits, uint64_t a, uint64_t b)
{
   bool lt, eq = a == b;
   if (bits == 32)
      lt = is_signed ? (int32_t)(uint32_t)a < (int32_t)(uint32_t)b : (uint32_t)a < (uint32_t)b;
   else
      lt = is_signed ? (int64_t)a < (int64_t)b : a < b;
   switch (c) {
   case 0: return eq;
   case 1: return !eq;
   case 2: return lt;
   case 3: return lt || eq;
   case 4: return !lt && !eq;
   default: return !lt;
   }
}

/* Whether the thread whose value is w goes on in kernel k<c><s> (w and n
 * of `bits` bits). */
static bool goes_on(int c, int s, unsigned bits, uint64_t w, uint64_t n)
{
   bool t = variant_swapped(c, s) ? host_cmp(c, s, bits, n, w) : host_cmp(c, s, bits, w, n);
   return variant_exits_on_true(c, s) ? !t : t;
}

enum { GRID = 3, BLOCK = 100, NT = GRID * BLOCK };

static uint32_t range_reported;   /* mismatches reported, at most 16 in all */

/* Runs k<c><s> of `bits` bits on u and n; the threads whose result is not
 * the host's (the first few reported). */
static uint32_t range_run(core_ctx *c, core_kernel *k, int cmp, int s, unsigned bits, uint64_t u, uint64_t n,
                          uint64_t out)
{
   uint32_t *o = (uint32_t *)(uintptr_t)out, u32 = (uint32_t)u, n32 = (uint32_t)n, bad = 0;
   memset(o, 0, NT * 4);
   void *args[] = { &out, bits == 64 ? (void *)&u : &u32, bits == 64 ? (void *)&n : &n32 };
   core_launch_config cfg = { { GRID, 1, 1 }, { BLOCK, 1, 1 }, 0, NULL, args, NULL, 0, false };
   int r = core_launch(k, &cfg);
   if (r == CORE_SUCCESS)
      r = core_ctx_synchronize(c);
   if (r != CORE_SUCCESS) {
      test_fail_(__FILE__, __LINE__, "k%d%d (%u bits): status %d: %s", cmp, s, bits, r, c->sticky_msg);
      return NT;
   }
   uint64_t mask = bits == 64 ? ~(uint64_t)0 : 0xffffffffu;
   for (uint32_t t = 0; t < NT; t++) {
      uint32_t want = goes_on(cmp, s, bits, (u + t) & mask, n & mask);
      if (o[t] != want && bad++ < 4 && range_reported++ < 16)
         test_fail_(__FILE__, __LINE__, "setp.%s.%s%u%s, %s: u %#llx n %#llx thread %u: ran %u, expected %u", cmp_name[cmp],
                   s ? "s" : "u", bits, variant_swapped(cmp, s) ? " (n first)" : "",
                   variant_exits_on_true(cmp, s) ? "returns on true" : "returns on false",
                   (unsigned long long)(u & mask), (unsigned long long)(n & mask), t, o[t], want);
   }
   return bad;
}

TEST(only_the_threads_passing_the_opening_test_run)
{
   /* u: the row's values start below and cross 0, 2^31 and 2^32 (32 bits),
    * 2^63, 2^64 and, without wrapping, 2^32 (64 bits) */
   static const uint64_t us32[] = { 0u, 0x7fffff00u, 0x7fffffd0u, 0xffffff00u, 0xffffffd0u, 0x12345u };
   static const uint64_t us64[] = { 0u, 0x7fffffffffffff00u, 0xffffffffffffff00u, 0xffffffd0u, 0x8000000000000010u };
   core_ctx *c = tc_ctx();
   CHECK(c);
   uint64_t out = 0;
   CHECK_INT(c ? core_mem_alloc(c->dev, NT * 4, &out) : -1, CORE_SUCCESS);
   uint32_t bad = 0, launches = 0;
   for (unsigned bits = 32; out && bits <= 64; bits += 32) {
      const uint64_t *us = bits == 64 ? us64 : us32;
      size_t nu = bits == 64 ? ARRAY_SIZE(us64) : ARRAY_SIZE(us32);
      uint64_t top = bits == 64 ? 0x8000000000000000u : 0x80000000u;
      for (int cmp = 0; cmp < 6; cmp++) {
         char *ptx = range_module(cmp, bits);
         /* both kernels in range form (else this tests nothing new) */
         char *err = NULL;
         mc_module *mm = compiler_module_load(ptx, strlen(ptx), &err);
         for (uint32_t k = 0; k < 2; k++) {
            mc_kernel_info info;
            char *msl = mm ? compiler_translate_kernel(mm, k, NULL, &info, &err) : NULL;
            CHECK_MSG(msl && strstr(msl, "MC_THREADS_X_RANGE(mc_") && strstr(msl, "if (MC_XTEST("),
                      "k%d%u (%u bits): no x range", cmp, k, bits);
            free(msl);
         }
         if (mm)
            compiler_module_free(mm);
         free(err);
         core_module *m = NULL;
         CHECK_INT(core_module_load(c, ptx, strlen(ptx), &m), CORE_SUCCESS);
         for (int s = 0; m && s < 2; s++) {
            char name[8];
            snprintf(name, sizeof(name), "k%d%d", cmp, s);
            core_kernel *k = NULL;
            CHECK_INT(core_module_get_kernel(m, name, &k), CORE_SUCCESS);
            for (size_t iu = 0; k && iu < nu; iu++) {
               uint64_t u = us[iu];
               /* n: the extremes, and values the row's w reach (its start, middle, end and past) */
               const uint64_t ns[] = { 0u, 1u, top - 1u, top, ~(uint64_t)0, u, u + 1u, u + 150u, u + NT - 1u,
                                       u + NT, u - 1u, 0x100000000u };
               for (size_t in = 0; in < ARRAY_SIZE(ns); in++, launches++)
                  bad += range_run(c, k, cmp, s, bits, u, ns[in], out);
            }
         }
         if (m)
            core_module_unload(m);
         free(ptx);
      }
   }
   CHECK_INT(bad, 0);
   CHECK_INT(launches, 12 * (ARRAY_SIZE(us32) + ARRAY_SIZE(us64)) * 12);
   if (out)
      core_mem_free(c->dev, out);
}

/* Tests of several leaves on a grid of 2 x 2 blocks of 100 x 2 threads:
 * w = u + the x index, i = the y index; a thread that goes on writes 1 to
 * out[i * 300 + x].  st: returns if i < 1 || w < n || i >= 3 || w >= h
 * (signed); an: goes on if w > n && !(w == h) (unsigned), returning when
 * false; e3: returns if w == n || w == h || w == g; py: returns if
 * w + 7 * threadIdx.y >= n (unsigned; its runs differ by row). */
#define MULTI_PROLOGUE(name, params)                                                                   \
   ".visible .entry " name "(.param .u64 out, .param .u32 u" params ")\n{\n"                          \
   "   .reg .pred %p<8>;\n   .reg .b32 %r<24>;\n   .reg .b64 %rd<4>;\n"                                \
   "   ld.param.u64 %rd1, [out];\n   ld.param.u32 %r1, [u];\n"                                          \
   "   mov.u32 %r3, %ctaid.x;\n   mov.u32 %r4, %ntid.x;\n   mov.u32 %r5, %tid.x;\n"                    \
   "   mad.lo.s32 %r6, %r3, %r4, %r1;\n   add.s32 %r7, %r6, %r5;\n"                                   \
   "   mov.u32 %r10, %ctaid.y;\n   mov.u32 %r11, %ntid.y;\n   mov.u32 %r12, %tid.y;\n"                 \
   "   mad.lo.s32 %r13, %r10, %r11, %r12;\n"
#define MULTI_EPILOGUE                                                                                 \
   "   mad.lo.s32 %r8, %r3, %r4, %r5;\n   mov.u32 %r16, %nctaid.x;\n   mul.lo.s32 %r17, %r16, %r4;\n"  \
   "   mad.lo.s32 %r18, %r13, %r17, %r8;\n   mul.wide.u32 %rd2, %r18, 4;\n"                            \
   "   add.s64 %rd3, %rd1, %rd2;\n   mov.u32 %r9, 1;\n   st.global.u32 [%rd3], %r9;\n$DONE:\n   ret;\n}\n"

static const char multi_ptx[] = HEAD
   MULTI_PROLOGUE("st", ", .param .u32 n, .param .u32 h")
   "   ld.param.u32 %r2, [n];\n   ld.param.u32 %r14, [h];\n"
   "   setp.lt.s32 %p1, %r13, 1;\n   setp.lt.s32 %p2, %r7, %r2;\n   or.pred %p3, %p1, %p2;\n"
   "   setp.ge.s32 %p4, %r13, 3;\n   or.pred %p5, %p3, %p4;\n   setp.ge.s32 %p6, %r7, %r14;\n"
   "   or.pred %p7, %p6, %p5;\n   @%p7 bra $DONE;\n"
   MULTI_EPILOGUE
   MULTI_PROLOGUE("an", ", .param .u32 n, .param .u32 h")
   "   ld.param.u32 %r2, [n];\n   ld.param.u32 %r14, [h];\n"
   "   setp.gt.u32 %p1, %r7, %r2;\n   setp.eq.u32 %p2, %r14, %r7;\n   not.pred %p3, %p2;\n"
   "   and.pred %p4, %p1, %p3;\n   @!%p4 bra $DONE;\n"
   MULTI_EPILOGUE
   MULTI_PROLOGUE("e3", ", .param .u32 n, .param .u32 h, .param .u32 g")
   "   ld.param.u32 %r2, [n];\n   ld.param.u32 %r14, [h];\n   ld.param.u32 %r15, [g];\n"
   "   setp.eq.u32 %p1, %r7, %r2;\n   setp.eq.u32 %p2, %r7, %r14;\n   or.pred %p3, %p1, %p2;\n"
   "   setp.eq.u32 %p4, %r15, %r7;\n   or.pred %p5, %p3, %p4;\n   @%p5 bra $DONE;\n"
   MULTI_EPILOGUE
   MULTI_PROLOGUE("py", ", .param .u32 n")
   "   ld.param.u32 %r2, [n];\n   mad.lo.s32 %r19, %r12, 7, %r6;\n   add.s32 %r20, %r19, %r5;\n"
   "   setp.ge.u32 %p1, %r20, %r2;\n   @%p1 bra $DONE;\n"
   MULTI_EPILOGUE;

static bool multi_goes_on(int k, uint32_t w, uint32_t i, uint32_t n, uint32_t h, uint32_t g)
{
   switch (k) {
   case 0: return !(i < 1 || (int32_t)w < (int32_t)n || i >= 3 || (int32_t)w >= (int32_t)h);
   case 1: return w > n && w != h;
   case 2: return !(w == n || w == h || w == g);
   default: return w + 7u * (i % 2u) < n;
   }
}

TEST(tests_of_several_leaves_run_exactly_the_threads_that_pass)
{
   enum { NX = 300, NY = 4 };
   static const char *const names[] = { "st", "an", "e3", "py" };
   static const uint32_t us[] = { 0u, 0x7fffff00u, 0xffffff00u };
   core_ctx *c = tc_ctx();
   CHECK(c);
   core_module *m = NULL;
   CHECK_INT(c ? core_module_load(c, multi_ptx, strlen(multi_ptx), &m) : -1, CORE_SUCCESS);
   char *err = NULL;
   mc_module *mm = compiler_module_load(multi_ptx, strlen(multi_ptx), &err);
   CHECK(mm);
   for (uint32_t k = 0; mm && k < ARRAY_SIZE(names); k++) {
      mc_kernel_info info;
      char *msl = compiler_translate_kernel(mm, k, NULL, &info, &err);
      CHECK_MSG(msl && strstr(msl, "MC_THREADS_X_RANGE(mc_") && strstr(msl, "if (MC_XTEST("), "%s: no x range",
                names[k]);
      /* py's runs differ by row, the others' do not */
      CHECK_MSG(msl && strstr(msl, k == 3 ? ", 1, mc_param, mc_L);" : ", 0, mc_param, mc_L);"),
                "%s: wrong per-row flag", names[k]);
      free(msl);
   }
   if (mm)
      compiler_module_free(mm);
   free(err);
   uint64_t out = 0;
   CHECK_INT(core_mem_alloc(c->dev, NX * NY * 4, &out), CORE_SUCCESS);
   uint32_t *o = (uint32_t *)(uintptr_t)out, bad = 0, launches = 0;
   for (int k = 0; m && out && k < (int)ARRAY_SIZE(names); k++) {
      core_kernel *kn = NULL;
      CHECK_INT(core_module_get_kernel(m, names[k], &kn), CORE_SUCCESS);
      for (size_t iu = 0; kn && iu < ARRAY_SIZE(us); iu++) {
         uint32_t u = us[iu];
         /* values in a row (its ends, a block boundary, inside), before and after it */
         const uint32_t vs[] = { u - 1u, u, u + 5u, u + 99u, u + 100u, u + 250u, u + NX - 1u, u + NX, 0x80000000u };
         for (size_t a = 0; a < ARRAY_SIZE(vs); a++)
            for (size_t b = 0; b < ARRAY_SIZE(vs); b++) {
               uint32_t n = vs[a], h = vs[b], g = vs[(a + b + 3) % ARRAY_SIZE(vs)];
               memset(o, 0, NX * NY * 4);
               void *args[] = { &out, &u, &n, &h, &g };
               core_launch_config cfg = { { 3, 2, 1 }, { 100, 2, 1 }, 0, NULL, args, NULL, 0, false };
               int r = core_launch(kn, &cfg);
               if (r == CORE_SUCCESS)
                  r = core_ctx_synchronize(c);
               CHECK_MSG(r == CORE_SUCCESS, "%s: status %d: %s", names[k], r, c->sticky_msg);
               launches++;
               for (uint32_t i = 0; i < NY; i++)
                  for (uint32_t x = 0; x < NX; x++) {
                     uint32_t want = multi_goes_on(k, u + x, i, n, h, g);
                     if (o[i * NX + x] != want && bad++ < 8)
                        CHECK_MSG(false, "%s: u %#x n %#x h %#x g %#x thread (%u, %u): ran %u, expected %u", names[k],
                                  u, n, h, g, x, i, o[i * NX + x], want);
                  }
            }
      }
   }
   CHECK_INT(bad, 0);
   CHECK_INT(launches, ARRAY_SIZE(names) * ARRAY_SIZE(us) * 81);
   if (out)
      core_mem_free(c->dev, out);
   if (m)
      core_module_unload(m);
}
