/*
 * test_nan_loose.c — where the emitted MSL canonicalises an f32 NaN
 * (src/compiler/msl/nan_loose.c).
 *
 * The results (what a kernel stores for NaN payloads) are checked against
 * an H200 by tests/ptx/cases/nan_phi_loop.ptx.  Here, the placement: an
 * accumulator's fma inside its loop is written raw and canonicalised where
 * it is stored (or where the arithmetic after the loop is); a phi of two
 * loads keeps their bits; an fma copied into a phi that also takes a load
 * is canonicalised on the copy, and that phi's store is not.
 */
#include "harness.h"
#include "test_core_util.h"

#include <stdlib.h>
#include <string.h>

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
#define KERNEL(body)                                                                                              \
   HEAD ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"                                                 \
   "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .f32 %f<16>;\n  .reg .b64 %rd<16>;\n"                     \
   "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"                                                   \
   "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"                                        \
   "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"                        \
   "  add.s64 %rd7, %rd2, %rd3;\n  ld.global.f32 %f1, [%rd4];\n" body "  ret;\n}\n"

/* acc = fma(x, in[8 + i], acc) four times, then STORE_ACC */
#define ACC_LOOP(after)                                                                                           \
   KERNEL("  mov.f32 %f2, 0f00000000;\n  mov.u32 %r2, 0;\n"                                                       \
          "LOOP:\n  mul.wide.u32 %rd5, %r2, 4;\n  add.s64 %rd6, %rd1, %rd5;\n  ld.global.f32 %f3, [%rd6+32];\n"  \
          "  fma.rn.f32 %f2, %f1, %f3, %f2;\n  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 4;\n"               \
          "  @%p1 bra LOOP;\n" after)

/* The kernel's own text (not the prelude's) and its lines holding needle. */
static const char *body_of(const char *msl)
{
   return msl ? strstr(msl, "kernel void") : NULL;
}

static const char *line_with(const char *s, const char *needle, char *buf, size_t n)
{
   const char *p = s ? strstr(s, needle) : NULL;
   if (!p)
      return NULL;
   const char *b = p, *e = strchr(p, '\n');
   while (b > s && b[-1] != '\n')
      b--;
   size_t len = e ? (size_t)(e - b) : strlen(b);
   if (len >= n)
      len = n - 1;
   memcpy(buf, b, len);
   buf[len] = 0;
   return buf;
}

TEST(an_accumulator_is_canonicalised_where_it_is_stored_not_in_its_loop)
{
   char *msl = tc_msl_of(ACC_LOOP("  st.global.f32 [%rd7], %f2;\n"));
   const char *body = body_of(msl);
   char l[512];
   CHECK(body);
   CHECK(line_with(body, "fma(", l, sizeof(l)) && !strstr(l, "mc_canon"));
   CHECK(line_with(body, "= (uint)mc_canon(", l, sizeof(l)) != NULL);   /* the store */
   CHECK_INT(tc_count(body, "mc_canon("), 1);
   free(msl);
}

TEST(arithmetic_after_the_loop_is_canonicalised_where_it_is_stored)
{
   char *msl = tc_msl_of(ACC_LOOP("  mul.f32 %f4, %f2, 0f40000000;\n  st.global.f32 [%rd7], %f4;\n"));
   const char *body = body_of(msl);
   char l[512];
   CHECK(body);
   CHECK(line_with(body, "fma(", l, sizeof(l)) && !strstr(l, "mc_canon"));
   CHECK(line_with(body, " * ", l, sizeof(l)) && !strstr(l, "mc_canon"));
   CHECK_INT(tc_count(body, "mc_canon("), 1);
   free(msl);
}

/* %f5 = tid even ? in[tid] : in[tid + 1] (a phi of two loads), stored */
#define LOAD_PHI(other)                                                                                           \
   "  and.b32 %r3, %r1, 1;\n  setp.eq.u32 %p2, %r3, 0;\n  @%p2 bra EVEN;\n" other "  bra.uni JOIN;\n"              \
   "EVEN:\n  ld.global.f32 %f5, [%rd4];\n"                                                                         \
   "JOIN:\n  st.global.f32 [%rd7], %f5;\n"

TEST(a_phi_of_loads_keeps_their_bits)
{
   char *msl = tc_msl_of(KERNEL(LOAD_PHI("  ld.global.f32 %f5, [%rd4+4];\n")));
   const char *body = body_of(msl);
   CHECK(body);
   CHECK_INT(tc_count(body, "mc_canon("), 0);
   free(msl);
}

TEST(an_fma_copied_into_a_phi_that_also_takes_a_load_is_canonicalised_on_the_copy)
{
   char *msl = tc_msl_of(KERNEL(LOAD_PHI("  fma.rn.f32 %f5, %f1, %f1, %f1;\n")));
   const char *body = body_of(msl);
   char l[512];
   CHECK(body);
   CHECK_INT(tc_count(body, "mc_canon("), 1);
   CHECK(line_with(body, "mc_canon(", l, sizeof(l)) && !strstr(l, "(uint)mc_canon"));   /* not the store */
   CHECK(line_with(body, "fma(", l, sizeof(l)) && !strstr(l, "mc_canon"));
   free(msl);
}
