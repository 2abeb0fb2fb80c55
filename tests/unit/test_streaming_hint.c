/*
 * test_streaming_hint.c — which per-thread kernels the emitter marks as
 * bound by memory (src/compiler/msl/emit.c streaming_bits, the hint
 * MC_THREADS_STREAMING(bits) that src/metal/soft/msl_scan.c turns into a
 * 256-bit row loop on AVX-512 CPUs): SAXPY in f32 (one fma for three
 * accesses) and in f64, with the widest element's width; not a kernel of
 * many fmas per access, nor one with a loop.  Expected values: the
 * definition (at most two floating-point operations per global access,
 * straight-line code), applied by hand to each kernel.
 */
#include "harness.h"
#include "test_core_util.h"

#include "compiler/compiler.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* y[i] = a * x[i] + y[i] for i < n, in type T (f32 or f64; width W bytes) */
#define AXPY(T, W, R)                                                                                      \
   HEAD ".visible .entry axpy(.param .u32 n, .param ." T " a, .param .u64 x, .param .u64 y)\n{\n"         \
   "   .reg .pred %p<2>;\n   .reg .b32 %r<6>;\n   .reg ." T " %" R "<5>;\n   .reg .b64 %rd<8>;\n"      \
   "   ld.param.u32 %r2, [n];\n   ld.param." T " %" R "1, [a];\n   ld.param.u64 %rd1, [x];\n"           \
   "   ld.param.u64 %rd2, [y];\n   mov.u32 %r3, %ctaid.x;\n   mov.u32 %r4, %ntid.x;\n"                  \
   "   mov.u32 %r5, %tid.x;\n   mad.lo.s32 %r1, %r3, %r4, %r5;\n   setp.ge.s32 %p1, %r1, %r2;\n"        \
   "   @%p1 bra $DONE;\n   cvta.to.global.u64 %rd3, %rd2;\n   cvta.to.global.u64 %rd4, %rd1;\n"         \
   "   mul.wide.s32 %rd5, %r1, " W ";\n   add.s64 %rd6, %rd4, %rd5;\n   ld.global." T " %" R "2, [%rd6];\n" \
   "   add.s64 %rd7, %rd3, %rd5;\n   ld.global." T " %" R "3, [%rd7];\n"                                 \
   "   fma.rn." T " %" R "4, %" R "2, %" R "1, %" R "3;\n   st.global." T " [%rd7], %" R "4;\n"            \
   "$DONE:\n   ret;\n}\n"

static const char saxpy_ptx[] = AXPY("f32", "4", "f");
static const char daxpy_ptx[] = AXPY("f64", "8", "fd");

/* out[i] = f(out[i]) with seven dependent fmas: seven for two accesses */
static const char chain_ptx[] = HEAD
   ".visible .entry chain(.param .u64 out)\n{\n"
   "   .reg .b32 %r<4>;\n   .reg .f32 %f<9>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   mov.u32 %r1, %tid.x;\n   mul.wide.u32 %rd2, %r1, 4;\n"
   "   add.s64 %rd3, %rd1, %rd2;\n   ld.global.f32 %f1, [%rd3];\n"
   "   fma.rn.f32 %f2, %f1, %f1, %f1;\n   fma.rn.f32 %f3, %f2, %f2, %f1;\n"
   "   fma.rn.f32 %f4, %f3, %f3, %f1;\n   fma.rn.f32 %f5, %f4, %f4, %f1;\n"
   "   fma.rn.f32 %f6, %f5, %f5, %f1;\n   fma.rn.f32 %f7, %f6, %f6, %f1;\n"
   "   fma.rn.f32 %f8, %f7, %f7, %f1;\n   st.global.f32 [%rd3], %f8;\n   ret;\n}\n";

/* out[i] += 1 repeated n times: a loop around one load and one store */
static const char loop_ptx[] = HEAD
   ".visible .entry lp(.param .u64 out, .param .u32 n)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<5>;\n   .reg .f32 %f<3>;\n   .reg .b64 %rd<4>;\n"
   "   ld.param.u64 %rd1, [out];\n   ld.param.u32 %r2, [n];\n   mov.u32 %r1, %tid.x;\n"
   "   mul.wide.u32 %rd2, %r1, 4;\n   add.s64 %rd3, %rd1, %rd2;\n   mov.u32 %r3, 0;\n"
   "$LOOP:\n   ld.global.f32 %f1, [%rd3];\n   add.f32 %f2, %f1, 0f3F800000;\n"
   "   st.global.f32 [%rd3], %f2;\n   add.s32 %r3, %r3, 1;\n   setp.lt.u32 %p1, %r3, %r2;\n"
   "   @%p1 bra $LOOP;\n   ret;\n}\n";

TEST(kernels_bound_by_memory_are_marked_with_their_element_width)
{
   char *s = tc_msl_of(saxpy_ptx), *d = tc_msl_of(daxpy_ptx), *c = tc_msl_of(chain_ptx), *l = tc_msl_of(loop_ptx);
   CHECK(s && d && c && l);
   if (s && d && c && l) {
      CHECK_CONTAINS(s, "    MC_THREADS_STREAMING(32);\n");
      CHECK_CONTAINS(d, "    MC_THREADS_STREAMING(64);\n");
      CHECK_MSG(!strstr(c, "    MC_THREADS_STREAMING("), "a chain of seven fmas per two accesses was marked");
      CHECK_MSG(!strstr(l, "    MC_THREADS_STREAMING("), "a kernel with a loop was marked");
      CHECK_CONTAINS(c, "MC_THREADS_INDEPENDENT(");   /* the other hint is still there */
   }
   free(s);
   free(d);
   free(c);
   free(l);
}
