/*
 * test_video.c — the translation of PTX's video instructions
 * (build_video.c): the control word the SIMD forms carry into the MSL
 * (selectors, lane mask, signedness, .sat, .add, the secondary operation
 * of the scalar forms; scalar vset carries atype's sign as d's, which its
 * .min/.max compare with on an H200), computed here by hand from the PTX
 * ISA's syntax, and the errors: vmad, not translated, is refused by name
 * and PTX line; bad selectors, .sat with .add, a secondary operation with
 * a merge, and a selector on another instruction are errors.  What the
 * instructions compute (as an H200 does, not as the ISA's pseudocode
 * says) is tests/cuda/video_insns.cu's and tests/ptx's video_* cases'.
 */
#include "harness.h"

#include "compiler/compiler.h"

#include <stdlib.h>
#include <string.h>

/* The MSL of entry k with this body, or the error ("ERROR: ..."). */
static char *translate_body(const char *body)
{
   static const char *head = ".version 9.0\n.target sm_75\n.address_size 64\n"
                             ".visible .entry k(.param .u64 p)\n{\n   .reg .b32 %r<8>;\n   .reg .b64 %rd<2>;\n";
   size_t n = strlen(head) + strlen(body) + 64;
   char *ptx = malloc(n);
   snprintf(ptx, n, "%s%s   st.global.u32 [%%rd1], %%r1;\n   ret;\n}\n", head, body);
   char *err = NULL, *msl = NULL;
   mc_module *m = compiler_module_load(ptx, strlen(ptx), &err);
   free(ptx);
   if (m) {
      mc_kernel_info info;
      msl = compiler_translate_kernel(m, 0, NULL, &info, &err);
      compiler_module_free(m);
   }
   if (msl) {
      free(err);
      return msl;
   }
   size_t len = strlen(err ? err : "?") + 8;
   char *out = malloc(len);
   snprintf(out, len, "ERROR: %s", err ? err : "?");
   free(err);
   return out;
}

#define CHECK_TRANSLATION(body, expect)                                                           \
   do {                                                                                          \
      char *got_ = translate_body(body);                                                         \
      if (!strstr(got_, (expect)))                                                               \
         test_fail_(__FILE__, __LINE__, "%s: '%s' not in:\n%.2000s", (body), (expect), got_); \
      free(got_);                                                                                \
   } while (0)

TEST(simd_forms_carry_their_control_word)
{
   /* defaults: asel .b3210 = 0x688, bsel .b7654 = 0xfac << 12, all lanes; op 3 | quad 0x20 */
   CHECK_TRANSLATION("   vabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r1;\n", "mc_vsimd(");
   CHECK_TRANSLATION("   vabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r1;\n", ", 35u, 0xffac688u)");
   /* .add: | 0x10 */
   CHECK_TRANSLATION("   vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r1;\n", ", 51u, 0xffac688u)");
   /* two lanes: asel .h10 = 0x8, bsel .h32 = 0x1a << 12, mask 3 */
   CHECK_TRANSLATION("   vabsdiff2.u32.u32.u32.add %r1, %r2, %r3, %r1;\n", ", 19u, 0x301a008u)");
   /* lane 0 is the selector's last digit: .b7250 = 0|5<<3|2<<6|7<<9, .b1436 =
    * 6|3<<3|4<<6|1<<9; mask .b20 = 5; d s32, a s32, b u32, .sat */
   CHECK_TRANSLATION("   vadd4.s32.s32.u32.sat %r1.b20, %r2.b7250, %r3.b1436, %r1;\n", ", 32u, 0xd531eea8u)");
   /* vset: 6 + cmp (lt = 2); no dtype: d unsigned; .h1 / .h30 / .h12 */
   CHECK_TRANSLATION("   vset2.s32.u32.lt %r1.h1, %r2.h30, %r3.h12, %r4;\n", ", 8u, 0x1200a018u)");
}

TEST(bad_video_forms_are_errors)
{
   CHECK_TRANSLATION("   vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r1;\n", "cannot be used with the accumulate form");
   CHECK_TRANSLATION("   vadd4.u32.u32.u32 %r1, %r2.b8210, %r3, %r1;\n", "bad lane selector '.b8210' on operand 1");
   CHECK_TRANSLATION("   vadd2.u32.u32.u32 %r1, %r2, %r3.b3210, %r1;\n", "bad lane selector '.b3210' on operand 2");
   CHECK_TRANSLATION("   vadd4.u32.u32.u32 %r1.b02, %r2, %r3, %r1;\n", "bad lane selector '.b02' on operand 0");
   CHECK_TRANSLATION("   vadd4.u32.u32.u32 %r1, %r2, %r3, %r1.b0;\n", "bad lane selector '.b0' on operand 3");
   CHECK_TRANSLATION("   vset4.u32.u32 %r1, %r2, %r3, %r1;\n", "vset needs one comparison");
   CHECK_TRANSLATION("   vadd4.u32.u32.u32.sat %r1, %r2, %r3, %r1;\n   add.u32 %r1, %r2.b0, %r3;\n",
                     "the selector '.b0' on operand 1 belongs to video instructions");
}

TEST(scalar_forms_carry_their_control_word)
{
   /* op | 0x40; a's, b's, d's selector in bits 0-2, 3-5, 6-8 (1-4: .b0-.b3,
    * 5-6: .h0-.h1), the secondary operation in 9-10 (1 add, 2 min, 3 max) */
   CHECK_TRANSLATION("   vadd.s32.u32.s32.sat %r1, %r2.b0, %r3.h0;\n", "mc_vscalar(");
   CHECK_TRANSLATION("   vadd.s32.u32.s32.sat %r1, %r2.b0, %r3.h0;\n", ", 64u, 0xe0000029u)");
   CHECK_TRANSLATION("   vabsdiff.s32.s32.s32.sat.add %r1, %r2, %r3, %r4;\n", ", 67u, 0xf0000200u)");
   CHECK_TRANSLATION("   vmin.u32.u32.u32 %r1.h1, %r2.b3, %r3, %r4;\n", ", 68u, 0x184u)");
   CHECK_TRANSLATION("   vmax.u32.s32.u32.max %r1, %r2, %r3.b2, %r4;\n", ", 69u, 0x10000618u)");
   /* vset: 6 + cmp (lt = 2); d signed as atype is (bit 30); no c: 0 */
   CHECK_TRANSLATION("   vset.s32.u32.lt %r1, %r2, %r3;\n", ", 72u, 0x50000000u)");
   CHECK_TRANSLATION("   vset.u32.s32.ge.max %r1, %r2, %r3, %r4;\n", ", 75u, 0x20000600u)");
}

TEST(bad_scalar_forms_are_errors)
{
   CHECK_TRANSLATION("   vadd.u32.u32.u32.add %r1.b0, %r2, %r3, %r4;\n", "or a merge (d.sel), not both");
   CHECK_TRANSLATION("   vadd.u32.u32.u32.add.min %r1, %r2, %r3, %r4;\n", "or a merge (d.sel), not both");
   CHECK_TRANSLATION("   vadd.u32.u32.u32 %r1, %r2.b4, %r3;\n", "bad lane selector '.b4' on operand 1");
   CHECK_TRANSLATION("   vsub.u32.u32.u32 %r1, %r2, %r3.h2;\n", "bad lane selector '.h2' on operand 2");
   CHECK_TRANSLATION("   vadd.u32.u32.u32 %r1, %r2, %r3, %r4;\n", "expected 3 operands, got 4");
   CHECK_TRANSLATION("   vadd.u32.u32.u32 %r1.b1, %r2, %r3;\n", "expected 4 operands, got 3");
   CHECK_TRANSLATION("   vset.u32.u32.lt.sat %r1, %r2, %r3;\n", "'vset.lt.sat.u32.u32' is not supported yet");
}

TEST(shift_forms_carry_their_control_word)
{
   /* vshl 12, vshr 13 (| 0x40); bit 11 .clamp */
   CHECK_TRANSLATION("   vshr.u32.u32.u32.clamp %r1, %r2, %r3.b0;\n", ", 77u, 0x808u)");
   CHECK_TRANSLATION("   vshl.s32.s32.u32.wrap.add %r1, %r2.h1, %r3, %r4;\n", ", 76u, 0x50000206u)");
   /* vshl.sat: bit 31; d's .h1 = 6 << 6 */
   CHECK_TRANSLATION("   vshl.u32.u32.u32.sat.clamp %r1.h1, %r2, %r3, %r4;\n", ", 76u, 0x80000980u)");
}

TEST(vmad_is_refused_by_name_and_line)
{
   /* line 8 of the module: the head's 7 lines, then the body */
   CHECK_TRANSLATION("   vmad.s32.s32.u32 %r1, %r2.h0, %r3.h0, %r4;\n",
                     "PTX line 8: 'vmad.s32.s32.u32' is not supported yet");
   CHECK_TRANSLATION("   vshr.u32.u32.s32.wrap %r1, %r2, %r3;\n", "'vshr.wrap.u32.u32.s32' is not supported yet");
   CHECK_TRANSLATION("   vshr.u32.u32.u32 %r1, %r2, %r3;\n", "needs .clamp or .wrap");
   /* the negation only vmad takes is never ignored */
   CHECK_TRANSLATION("   vadd.u32.u32.u32 %r1, -%r2, %r3;\n", "a negated operand (operand 1) is not supported");
   CHECK_TRANSLATION("   add.s32 %r1, %r2, -%r3;\n", "a negated operand (operand 2) is not supported");
}
