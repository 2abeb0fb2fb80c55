/*
 * build_float.c — floating-point instructions: add/sub/mul/mad/fma/div,
 * abs/neg/min/max, rcp/sqrt/rsqrt, the .approx transcendentals, copysign,
 * testp, and the conversions that involve bf16, f16x2, bf16x2 or directed
 * rounding into a float.
 *
 * Types: f32, f64, and the 16-bit lane types f16, bf16 and their packed
 * pairs f16x2, bf16x2 (32-bit values, one operation per half; PTX ISA 9.0
 * §9.7.4).  Rounding modes, .ftz and .sat are carried on the IR
 * instruction and the emitter implements them exactly: .rz/.rm/.rp exist
 * for f32 and f64 only (the 16-bit forms take .rn); .relu on fma and cvt
 * and .satfinite on cvt are clamps of the rounded 16-bit lanes.  f64 has neither .ftz nor .sat
 * on arithmetic (PTX ISA 9.0 §9.7.3: subnormals are always kept), except
 * rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64.
 */
#include "build.h"

/* ir_instr.sub of a float MIN/MAX: PTX's .NaN and .xorsign.abs (the same
 * values in msl/emit_float.c). */
enum { FMINMAX_NAN = 1, FMINMAX_XORSIGN_ABS = 2 };

static bool is_directed(ir_rnd r) { return r == IR_RND_RZ || r == IR_RND_RM || r == IR_RND_RP; }

bool bld_float_ok(build_ctx *c, ptx_type t)
{
   if (t == PTX_T_F64)
      return !bld_has(c, PTX_MOD_SAT) && (!bld_has(c, PTX_MOD_FTZ) || bld_has(c, PTX_MOD_APPROX)) ? true
                                                                                                : bld_refuse(c);
   if (t != PTX_T_F32 && !bld_is_lane16(t))
      return bld_refuse(c);
   /* f16/bf16 arithmetic rounds to nearest only (.rn); .ftz and .sat exist
    * for f16 and f16x2, not for bf16. */
   if (t != PTX_T_F32 && is_directed(bld_rnd(c)))
      return bld_refuse(c);
   if ((t == PTX_T_BF16 || t == PTX_T_BF16X2) && (bld_has(c, PTX_MOD_FTZ) || bld_has(c, PTX_MOD_SAT)))
      return bld_refuse(c);
   return true;
}

/* add/sub/mul/mad/div in a float type. */
bool bld_tr_float_arith(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (op == IR_DIV) {
      if (t == PTX_T_F64)   /* div.rnd.f64; without a modifier: .rn */
         return bld_float_ok(c, t) && ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP) &&
                bld_simple_alu(c, IR_DIV, 2);
      if (t != PTX_T_F32)
         return bld_float_ok(c, t) && bld_refuse(c);
      if (!bld_has(c, PTX_MOD_APPROX) && !bld_has(c, PTX_MOD_FULL) && bld_rnd(c) == IR_RND_NONE)
         return ir_error(c->m, c->line, "%s: div.f32 needs .approx, .full or a rounding modifier", bld_spelled(c));
      return bld_float_ok(c, t) &&
             ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_FULL, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_FTZ) &&
             bld_simple_alu(c, IR_DIV, 2);
   }
   if (op == IR_MAD) {
      /* mad.rnd.f32 is fma.rnd.f32 (PTX ISA §9.7.3.6, sm_20 and later);
       * mad.f32 without one (sm_1x PTX) the ISA says is JIT-compiled as
       * fma.rn.ftz.f32, and an H100 computes fma.rn.f32 for it under
       * .target sm_20, fma.rn.ftz.f32 under sm_1x (bld_legacy_ftz): the
       * builder's default rounding, .rn */
      return bld_float_ok(c, t) &&
             ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_FTZ, PTX_MOD_SAT) &&
             bld_simple_alu(c, IR_FMA, 3);
   }
   return bld_float_ok(c, t) &&
          ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_FTZ, PTX_MOD_SAT) &&
          bld_simple_alu(c, op, 2);
}

/* abs/neg{.ftz}, min/max{.ftz}{.NaN}{.xorsign.abs} (PTX ISA §9.7.3.10-11:
 * .xorsign and .abs come together). */
bool bld_tr_float_abs_neg_min_max(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (!bld_float_ok(c, t))
      return false;
   if (op == IR_ABS || op == IR_NEG)
      return ONLY_MODS(c, PTX_MOD_FTZ) && bld_simple_alu(c, op, nsrc);
   if (t == PTX_T_F64)   /* min/max.f64 take no modifier */
      return ONLY_MODS(c) && bld_simple_alu(c, op, nsrc);
   if (!ONLY_MODS(c, PTX_MOD_FTZ, PTX_MOD_NAN, PTX_MOD_XORSIGN, PTX_MOD_ABS) || !bld_need_opnds(c, 3))
      return false;
   if (bld_has(c, PTX_MOD_XORSIGN) != bld_has(c, PTX_MOD_ABS))
      return ir_error(c->m, c->line, "%s: .xorsign and .abs go together", bld_spelled(c));
   uint8_t sub = (uint8_t)((bld_has(c, PTX_MOD_NAN) ? FMINMAX_NAN : 0) |
                           (bld_has(c, PTX_MOD_XORSIGN) ? FMINMAX_XORSIGN_ABS : 0));
   uint8_t bits = bld_type_bits(t);
   ir_def *s[2] = { bld_src(c, 1, t, bits), bld_src(c, 2, t, bits) };
   return bld_alu(c, op, t, bits, s, 2, sub, t);
}

/* rcp.rnd.f64, sqrt.rnd.f64, rcp.approx.ftz.f64, rsqrt.approx{.ftz}.f64
 * (PTX ISA 9.0 §9.7.3.15-18); no other f64 unary form exists. */
static bool tr_f64_unary(build_ctx *c, ir_op op)
{
   bool approx = bld_has(c, PTX_MOD_APPROX), ftz = bld_has(c, PTX_MOD_FTZ);
   bool ok = op == IR_RSQRT ? approx
           : op == IR_RCP   ? (approx ? ftz : bld_rnd(c) != IR_RND_NONE && !ftz)
           : op == IR_SQRT  ? !approx && !ftz && bld_rnd(c) != IR_RND_NONE
                            : false;
   if (!ok)
      return bld_refuse(c);
   return ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_FTZ, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP) &&
          bld_simple_alu(c, op, 1);
}

bool bld_tr_float_unary(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (t == PTX_T_F64)
      return tr_f64_unary(c, op);
   if (t != PTX_T_F32)
      return bld_float_ok(c, t) && bld_refuse(c);
   bool approx_only = op == IR_SIN || op == IR_COS || op == IR_LG2 || op == IR_EX2 ||
                      op == IR_TANH || op == IR_RSQRT;
   if (approx_only && !bld_has(c, PTX_MOD_APPROX))
      return bld_refuse(c);
   if (!approx_only && !bld_has(c, PTX_MOD_APPROX) && bld_rnd(c) == IR_RND_NONE)
      return ir_error(c->m, c->line, "%s: needs .approx or a rounding modifier", bld_spelled(c));
   return bld_float_ok(c, t) &&
          ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_FTZ) &&
          bld_simple_alu(c, op, 1);
}

static ir_def *clamp_lane(build_ctx *c, ir_def *h, bool bf16);

/* fma.rn{.ftz}.relu.{f16,f16x2,bf16,bf16x2} (sm_80, PTX ISA §9.7.4.5):
 * the fma rounded as without .relu, then per lane a negative result +0
 * and a NaN the canonical 0x7fff (clamp_lane). */
static bool tr_fma_relu(build_ctx *c, ptx_type t)
{
   if (!bld_is_lane16(t) || bld_rnd(c) != IR_RND_RN || bld_has(c, PTX_MOD_SAT))
      return bld_refuse(c);
   if (!bld_float_ok(c, t) || !ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_FTZ, PTX_MOD_RELU) || !bld_need_opnds(c, 4))
      return false;
   uint8_t bits = bld_type_bits(t);
   ir_def *s[3];
   for (unsigned k = 0; k < 3; k++)
      if (!(s[k] = bld_src(c, k + 1, t, bits)))
         return false;
   ir_instr *i = bld_emit(c, IR_FMA, 3, bits, 1);
   if (!i)
      return false;
   i->type = t;
   i->rnd = IR_RND_RN;
   i->flags = (uint16_t)(bld_flags(c) & ~IR_F_RELU);
   for (unsigned k = 0; k < 3; k++)
      bld_set_src(i, k, s[k]);
   bool bf16 = t == PTX_T_BF16 || t == PTX_T_BF16X2;
   ir_def *d = &i->def;
   if (bits == 16) {
      d = clamp_lane(c, d, bf16);
   } else {
      ir_def *lo = clamp_lane(c, bld_resize(c, d, 16, false), bf16);
      ir_def *hi = bld_op2(c, IR_SHR, PTX_T_U32, d, bld_const(c, 32, 16));
      hi = clamp_lane(c, bld_resize(c, hi, 16, false), bf16);
      hi = bld_op2(c, IR_SHL, PTX_T_U32, bld_resize(c, hi, 32, false), bld_const(c, 32, 16));
      d = bld_op2(c, IR_OR, PTX_T_U32, hi, bld_resize(c, lo, 32, false));
   }
   return d && bld_write(c, c->in->opnds[0], d, t);
}

bool bld_tr_fma(build_ctx *c)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (bld_has(c, PTX_MOD_RELU))
      return tr_fma_relu(c, t);
   if (bld_rnd(c) == IR_RND_NONE && t != PTX_T_F64)
      return ir_error(c->m, c->line, "%s: fma needs a rounding modifier", bld_spelled(c));
   return bld_float_ok(c, t) &&
          ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_FTZ, PTX_MOD_SAT) &&
          bld_simple_alu(c, IR_FMA, 3);
}

bool bld_tr_copysign(build_ctx *c)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_F32 && t != PTX_T_F64)
      return bld_float_ok(c, t) && bld_refuse(c);
   return ONLY_MODS(c) && bld_simple_alu(c, IR_COPYSIGN, 2);
}

/* ---- testp ---- */

/* a <cmp> limit, unsigned 32- or 64-bit (as a). */
static ir_def *setp_uint(build_ctx *c, ir_def *a, uint64_t limit, ir_cmp cmp)
{
   if (!a)
      return NULL;
   ir_def *p = bld_op2(c, IR_SETP, a->bits == 64 ? PTX_T_U64 : PTX_T_U32, a, bld_const(c, a->bits, limit));
   if (p)
      p->parent->sub = (uint8_t)cmp;
   return p;
}

/* testp.class.{f32,f64} p, a (PTX ISA §9.7.3.5): a class test of the
 * bits, built from integer operations on |a| = a without its sign bit
 * (f32 constants shown; f64 scales them to its format):
 *   finite |a| < inf, infinite |a| == inf, number |a| <= inf,
 *   notanumber |a| > inf, subnormal |a| - 1 < 0x7fffff (unsigned: zero
 *   wraps around), normal |a| - 2^-126 < inf - 2^-126 or |a| == 0: an
 *   H200 counts ±0 as normal (tests/ptx/cases/testp_normal_f32.ptx). */
bool bld_tr_testp(build_ctx *c)
{
   enum { INF, MIN_NORMAL, INF_MINUS_MIN_NORMAL, FRAC, ONE };
   static const uint64_t k32[] = { 0x7f800000u, 0x00800000u, 0x7f000000u, 0x007fffffu, 1 };
   static const uint64_t k64[] = { 0x7ff0000000000000ull, 0x0010000000000000ull, 0x7fe0000000000000ull,
                                   0x000fffffffffffffull, 1 };
   static const struct { ptx_mod m; ir_cmp cmp; int8_t bias; uint8_t limit; } classes[] = {
      { PTX_MOD_FINITE, IR_CMP_LT, -1, INF },     { PTX_MOD_INFINITE, IR_CMP_EQ, -1, INF },
      { PTX_MOD_NUMBER, IR_CMP_LE, -1, INF },     { PTX_MOD_NOTANUMBER, IR_CMP_GT, -1, INF },
      { PTX_MOD_NORMAL, IR_CMP_LT, MIN_NORMAL, INF_MINUS_MIN_NORMAL }, { PTX_MOD_SUBNORMAL, IR_CMP_LT, ONE, FRAC },
   };
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 2))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_F32 && t != PTX_T_F64)
      return bld_float_ok(c, t) && bld_refuse(c);
   uint8_t n = t == PTX_T_F64 ? 64 : 32;
   ptx_type ut = n == 64 ? PTX_T_U64 : PTX_T_U32;
   const uint64_t *k_ = n == 64 ? k64 : k32;
   for (size_t k = 0; k < ARRAY_SIZE(classes); k++) {
      if (!bld_has(c, classes[k].m))
         continue;
      if (c->in->nmods != 1)
         return bld_refuse(c);
      ir_def *a = bld_src(c, 1, t, n);
      ir_def *v = bld_op2(c, IR_AND, ut, a, bld_const(c, n, n == 64 ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX));
      ir_def *abs = v;
      if (classes[k].bias >= 0)
         v = bld_op2(c, IR_SUB, ut, v, bld_const(c, n, k_[classes[k].bias]));
      ir_def *p = setp_uint(c, v, k_[classes[k].limit], classes[k].cmp);
      if (classes[k].m == PTX_MOD_NORMAL) {
         ir_def *zero = setp_uint(c, abs, 0, IR_CMP_EQ);
         p = bld_op2(c, IR_OR, PTX_T_PRED, p, zero);
      }
      return p && bld_write(c, c->in->opnds[0], p, PTX_T_PRED);
   }
   return ir_error(c->m, c->line, "%s: missing the class to test", bld_spelled(c));
}

/* ---- conversions ---- */

/* The cvt forms translated here rather than by bld_tr_cvt: any with .bf16,
 * .f16x2 or .bf16x2, and .rz/.rm/.rp into f32 or f16 from an integer, or
 * into f16 from f32 (f64 is issue 6). */
static bool is_fp8x2(ptx_type t) { return t == PTX_T_E4M3X2 || t == PTX_T_E5M2X2; }

bool bld_cvt_is_float_form(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (in->ntypes != 2)
      return false;
   ptx_type dt = in->types[0], st = in->types[1];
   if (dt == PTX_T_TF32 || bld_has(c, PTX_MOD_RELU) || bld_has(c, PTX_MOD_SATFINITE) || is_fp8x2(dt) ||
       is_fp8x2(st))
      return true;
   if (dt == PTX_T_F64 || st == PTX_T_F64)
      return false;
   if ((bld_is_lane16(dt) && dt != PTX_T_F16) || (bld_is_lane16(st) && st != PTX_T_F16))
      return true;
   return is_directed(bld_rnd(c)) && (dt == PTX_T_F32 || dt == PTX_T_F16) &&
          (ptx_type_is_int(st) || (dt == PTX_T_F16 && st == PTX_T_F32));
}

/* cvt.frnd.{f16x2,bf16x2}.f32 d, a, b: a goes to the upper half, b to the
 * lower (PTX ISA §9.7.9.21). */
/* .satfinite and .relu (sm_80/sm_90) on a rounded f16 or bf16 lane h: an
 * infinity becomes the largest finite value of its sign (.satfinite), a
 * negative result +0 (.relu), a NaN the canonical 0x7fff (both). */
static ir_def *clamp_lane(build_ctx *c, ir_def *h, bool bf16)
{
   bool sat = bld_has(c, PTX_MOD_SATFINITE), relu = bld_has(c, PTX_MOD_RELU);
   if (!h || (!sat && !relu))
      return h;
   uint16_t inf = bf16 ? 0x7f80 : 0x7c00, maxf = bf16 ? 0x7f7f : 0x7bff;
   ir_def *sign = bld_op2(c, IR_AND, PTX_T_B16, h, bld_const(c, 16, 0x8000));
   ir_def *mag = bld_op2(c, IR_AND, PTX_T_B16, h, bld_const(c, 16, 0x7fff));
   ir_def *nan = bld_op2(c, IR_SETP, PTX_T_U16, mag, bld_const(c, 16, inf));
   if (nan)
      nan->parent->sub = IR_CMP_GT;
   if (sat) {
      ir_def *isinf = bld_op2(c, IR_SETP, PTX_T_U16, mag, bld_const(c, 16, inf));
      ir_def *big = bld_op2(c, IR_OR, PTX_T_B16, sign, bld_const(c, 16, maxf));
      if (!isinf || !big)
         return NULL;
      isinf->parent->sub = IR_CMP_EQ;
      h = bld_select(c, isinf, big, h);
   }
   if (relu) {
      ir_def *neg = bld_op2(c, IR_SETP, PTX_T_U16, sign, bld_const(c, 16, 0));
      if (!neg)
         return NULL;
      neg->parent->sub = IR_CMP_NE;
      h = bld_select(c, neg, bld_const(c, 16, 0), h);
   }
   return bld_select(c, nan, bld_const(c, 16, 0x7fff), h);
}

/* cvt.rna{.satfinite}.tf32.f32 (sm_80/sm_90): f32 rounded to tf32's 10
 * fraction bits, to nearest with ties away from zero (adding half an ulp
 * to the magnitude's bits, which carries into the exponent as it should);
 * the result keeps f32's layout with the low 13 bits zero.  A NaN keeps
 * its sign and top payload bits, quieted (an H200 gives 0xffc00000 for
 * 0xffc00001); .satfinite makes an infinity the largest finite tf32 of
 * its sign. */
static bool cvt_tf32(build_ctx *c)
{
   if (!bld_need_opnds(c, 2) || !ONLY_MODS(c, PTX_MOD_RNA, PTX_MOD_SATFINITE) || !bld_has(c, PTX_MOD_RNA) ||
       c->in->types[1] != PTX_T_F32)
      return bld_refuse(c);
   ir_def *a = bld_src(c, 1, PTX_T_B32, 32);
   ir_def *mag = bld_op2(c, IR_AND, PTX_T_B32, a, bld_const(c, 32, 0x7fffffff));
   ir_def *nan = bld_op2(c, IR_SETP, PTX_T_U32, mag, bld_const(c, 32, 0x7f800000));
   ir_def *r = bld_op2(c, IR_AND, PTX_T_B32, bld_op2(c, IR_ADD, PTX_T_U32, a, bld_const(c, 32, 0x1000)),
                       bld_const(c, 32, 0xffffe000));
   ir_def *isinf_in = bld_op2(c, IR_SETP, PTX_T_U32, mag, bld_const(c, 32, 0x7f800000));
   if (!nan || !r || !isinf_in)
      return false;
   nan->parent->sub = IR_CMP_GT;
   isinf_in->parent->sub = IR_CMP_EQ;
   r = bld_select(c, isinf_in, a, r);   /* an infinity stays itself */
   if (bld_has(c, PTX_MOD_SATFINITE)) {
      ir_def *rmag = bld_op2(c, IR_AND, PTX_T_B32, r, bld_const(c, 32, 0x7fffffff));
      ir_def *isinf = bld_op2(c, IR_SETP, PTX_T_U32, rmag, bld_const(c, 32, 0x7f800000));
      ir_def *big = bld_op2(c, IR_OR, PTX_T_B32, bld_op2(c, IR_AND, PTX_T_B32, r, bld_const(c, 32, 0x80000000)),
                            bld_const(c, 32, 0x7f7fe000));
      if (!isinf || !big)
         return false;
      isinf->parent->sub = IR_CMP_EQ;
      r = bld_select(c, isinf, big, r);
   }
   ir_def *qnan = bld_op2(c, IR_OR, PTX_T_B32, bld_op2(c, IR_AND, PTX_T_B32, a, bld_const(c, 32, 0xffffe000)),
                          bld_const(c, 32, 0x00400000));
   r = bld_select(c, nan, qnan, r);
   return r && bld_write(c, c->in->opnds[0], r, PTX_T_B32);
}

/* fp8 pairs (sm_89): cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a
 * to the upper byte), .f16x2 d, a; cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a.
 * Each byte is an IR_CVT between an fp8 type and f32/f16 (prelude
 * float.metal mc_f2f8, mc_f82h); IR_F_SAT is .satfinite. */
static bool cvt_fp8(build_ctx *c)
{
   const ptx_instr *in = c->in;
   ptx_type dt = in->types[0], st = in->types[1];
   bool to8 = is_fp8x2(dt);
   if (!ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_SATFINITE, PTX_MOD_RELU) || !bld_has(c, PTX_MOD_RN) ||
       (to8 && !bld_has(c, PTX_MOD_SATFINITE)) || (!to8 && (bld_has(c, PTX_MOD_SATFINITE) || dt != PTX_T_F16X2)))
      return bld_refuse(c);
   uint16_t flags = (bld_has(c, PTX_MOD_RELU) ? IR_F_RELU : 0) | (bld_has(c, PTX_MOD_SATFINITE) ? IR_F_SAT : 0);
   ptx_type lane = dt == PTX_T_E4M3X2 || st == PTX_T_E4M3X2 ? PTX_T_E4M3 : PTX_T_E5M2;
   ir_def *hi, *lo, *d;
   if (to8) {
      if (st == PTX_T_F32) {
         if (!bld_need_opnds(c, 3))
            return false;
         hi = bld_cvt(c, lane, PTX_T_F32, IR_RND_RN, flags, bld_src(c, 1, PTX_T_F32, 32));
         lo = bld_cvt(c, lane, PTX_T_F32, IR_RND_RN, flags, bld_src(c, 2, PTX_T_F32, 32));
      } else if (st == PTX_T_F16X2) {
         if (!bld_need_opnds(c, 2))
            return false;
         ir_def *x = bld_src(c, 1, PTX_T_B32, 32);
         ir_def *xh = bld_resize(c, bld_op2(c, IR_SHR, PTX_T_U32, x, bld_const(c, 32, 16)), 16, false);
         hi = bld_cvt(c, lane, PTX_T_F16, IR_RND_RN, flags, xh);
         lo = bld_cvt(c, lane, PTX_T_F16, IR_RND_RN, flags, bld_resize(c, x, 16, false));
      } else {
         return bld_refuse(c);
      }
      hi = bld_op2(c, IR_SHL, PTX_T_B16, bld_resize(c, hi, 16, false), bld_const(c, 32, 8));
      d = bld_op2(c, IR_OR, PTX_T_B16, hi, bld_resize(c, lo, 16, false));
      return d && bld_write(c, in->opnds[0], d, PTX_T_B16);
   }
   if (!bld_need_opnds(c, 2))
      return false;
   ir_def *x = bld_src(c, 1, PTX_T_B16, 16);
   ir_def *xh = bld_resize(c, bld_op2(c, IR_SHR, PTX_T_U16, x, bld_const(c, 32, 8)), 8, false);
   hi = bld_cvt(c, PTX_T_F16, lane, IR_RND_RN, flags, xh);
   lo = bld_cvt(c, PTX_T_F16, lane, IR_RND_RN, flags, bld_resize(c, x, 8, false));
   hi = bld_op2(c, IR_SHL, PTX_T_B32, bld_resize(c, hi, 32, false), bld_const(c, 32, 16));
   d = bld_op2(c, IR_OR, PTX_T_B32, hi, bld_resize(c, lo, 32, false));
   return d && bld_write(c, in->opnds[0], d, PTX_T_B32);
}

static bool cvt_pair(build_ctx *c, ptx_type dt, ir_rnd r, uint16_t flags)
{
   if (!bld_need_opnds(c, 3))
      return false;
   ptx_type lane = dt == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
   ir_def *hi = clamp_lane(c, bld_cvt(c, lane, PTX_T_F32, r, flags, bld_src(c, 1, PTX_T_F32, 32)), lane == PTX_T_BF16);
   ir_def *lo = clamp_lane(c, bld_cvt(c, lane, PTX_T_F32, r, flags, bld_src(c, 2, PTX_T_F32, 32)), lane == PTX_T_BF16);
   hi = bld_resize(c, hi, 32, false);
   lo = bld_resize(c, lo, 32, false);
   hi = bld_op2(c, IR_SHL, PTX_T_U32, hi, bld_const(c, 32, 16));
   ir_def *d = bld_op2(c, IR_OR, PTX_T_U32, hi, lo);
   return d && bld_write(c, c->in->opnds[0], d, dt);
}

bool bld_tr_cvt_float(build_ctx *c)
{
   const ptx_instr *in = c->in;
   ptx_type dt = in->types[0], st = in->types[1];
   if (dt == PTX_T_TF32)
      return cvt_tf32(c);
   if (is_fp8x2(dt) || is_fp8x2(st))
      return cvt_fp8(c);
   ir_rnd r = bld_rnd(c);
   uint16_t flags = bld_flags(c);
   if (!ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_RNI, PTX_MOD_RZI, PTX_MOD_RMI,
                  PTX_MOD_RPI, PTX_MOD_FTZ, PTX_MOD_SAT, PTX_MOD_RELU, PTX_MOD_SATFINITE))
      return false;
   bool clamp = bld_has(c, PTX_MOD_RELU) || bld_has(c, PTX_MOD_SATFINITE);
   if (clamp && (st != PTX_T_F32 || !bld_is_lane16(dt) || bld_has(c, PTX_MOD_SAT) ||
                 (r != IR_RND_RN && r != IR_RND_RZ)))
      return bld_refuse(c);   /* .relu/.satfinite: f32 to f16, bf16 and their pairs, .rn or .rz */
   bool df = ptx_type_is_float(dt), sf = ptx_type_is_float(st);
   bool int_rnd = r >= IR_RND_RNI, flt_rnd = r >= IR_RND_RN && r <= IR_RND_RP;
   if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) {
      if (st != PTX_T_F32 || !flt_rnd)
         return bld_refuse(c);
      return cvt_pair(c, dt, r, flags);
   }
   if (!bld_need_opnds(c, 2))
      return false;
   /* Supported: integer → f32/f16/bf16, f32 → f16/bf16 (rounded in any
    * mode), bf16 → f32 (exact), bf16 → integer (.rni/.rzi/.rmi/.rpi). */
   bool ok;
   if (!sf)
      ok = df && !int_rnd;
   else if (!df)
      ok = st == PTX_T_BF16 && int_rnd;
   else if (st == PTX_T_F32)
      ok = (dt == PTX_T_F16 || dt == PTX_T_BF16) && !int_rnd;
   else
      ok = st == PTX_T_BF16 && dt == PTX_T_F32 && r == IR_RND_NONE;
   if (!ok)
      return bld_refuse(c);
   ir_def *d = bld_cvt(c, dt, st, r, flags, bld_src(c, 1, st, bld_type_bits(st)));
   if (clamp)
      d = clamp_lane(c, d, dt == PTX_T_BF16);
   return d && bld_write(c, in->opnds[0], d, dt);
}

/* cvt with .f64 on either side (PTX ISA 9.0 §9.7.9.21):
 *   f64 <- integer    .rn .rz .rm .rp (none: .rn; exact up to 32 bits)
 *   integer <- f64    .rni .rzi .rmi .rpi, saturating
 *   f64 <- f32, f16   exact (f32: .ftz flushes a subnormal source)
 *   f32, f16 <- f64   .rn .rz .rm .rp (f32: .ftz flushes the result)
 *   f64 <- f64        .rni .rzi .rmi .rpi, or only .sat
 * and .sat on a float destination clamps to [0, 1].  bf16 and the packed
 * types with f64 are refused. */
bool bld_tr_cvt_f64(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_need_types(c, 2) || !bld_need_opnds(c, 2) ||
       !ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_RNI, PTX_MOD_RZI, PTX_MOD_RMI,
                  PTX_MOD_RPI, PTX_MOD_FTZ, PTX_MOD_SAT))
      return false;
   ptx_type dt = in->types[0], st = in->types[1];
   ir_rnd r = bld_rnd(c);
   bool df = ptx_type_is_float(dt), sf = ptx_type_is_float(st);
   bool int_rnd = r >= IR_RND_RNI, flt_rnd = r >= IR_RND_RN && r <= IR_RND_RP;
   bool ftz = bld_has(c, PTX_MOD_FTZ), sat = bld_has(c, PTX_MOD_SAT);
   bool ok;
   if (!sf)   /* integer → f64 */
      ok = ptx_type_is_int(st) && !int_rnd && !ftz;
   else if (!df)   /* f64 → integer */
      ok = ptx_type_is_int(dt) && int_rnd && !ftz && !sat;
   else if (dt == PTX_T_F64 && st == PTX_T_F64)   /* cvt.sat.f64.f64: the clamp alone */
      ok = (int_rnd || (r == IR_RND_NONE && sat)) && !ftz;
   else if (dt == PTX_T_F64)
      ok = (st == PTX_T_F32 || (st == PTX_T_F16 && !ftz)) && r == IR_RND_NONE;
   else
      ok = (dt == PTX_T_F32 || (dt == PTX_T_F16 && !ftz)) && flt_rnd;
   if (!ok)
      return bld_refuse(c);
   ir_def *d = bld_cvt(c, dt, st, r, bld_flags(c), bld_src(c, 1, st, bld_type_bits(st)));
   return d && bld_write(c, in->opnds[0], d, dt);
}
