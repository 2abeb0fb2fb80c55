/*
 * build_float.c — floating-point instructions: add/sub/mul/mad/fma/div,
 * abs/neg/min/max, rcp/sqrt/rsqrt, the .approx transcendentals, copysign,
 * testp, and the conversions that involve bf16, f16x2, bf16x2 or directed
 * rounding into a float.
 *
 * Types: f32, and the 16-bit lane types f16, bf16 and their packed pairs
 * f16x2, bf16x2 (32-bit values, one operation per half; PTX ISA 9.0
 * §9.7.4).  f64 is issue 6.  Rounding modes, .ftz and .sat are carried on
 * the IR instruction and the emitter implements them exactly: .rz/.rm/.rp
 * exist for f32 only (the 16-bit forms take .rn), and .relu/.satfinite are
 * refused until they are implemented.
 */
#include "build.h"

/* ir_instr.sub of a float MIN/MAX: PTX's .NaN and .xorsign.abs (the same
 * values in msl/emit_float.c). */
enum { FMINMAX_NAN = 1, FMINMAX_XORSIGN_ABS = 2 };

static bool is_lane16(ptx_type t)
{
   return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
}

static bool is_directed(ir_rnd r) { return r == IR_RND_RZ || r == IR_RND_RM || r == IR_RND_RP; }

bool bld_float_ok(build_ctx *c, ptx_type t)
{
   if (t == PTX_T_F64)
      return ir_error(c->m, c->line, "%s: 64-bit floating point is not supported yet", bld_spelled(c));
   if (t != PTX_T_F32 && !is_lane16(t))
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
      if (t != PTX_T_F32)
         return bld_float_ok(c, t) && bld_refuse(c);
      if (!bld_has(c, PTX_MOD_APPROX) && !bld_has(c, PTX_MOD_FULL) && bld_rnd(c) == IR_RND_NONE)
         return ir_error(c->m, c->line, "%s: div.f32 needs .approx, .full or a rounding modifier", bld_spelled(c));
      return bld_float_ok(c, t) &&
             ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_FULL, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_FTZ) &&
             bld_simple_alu(c, IR_DIV, 2);
   }
   if (op == IR_MAD) {
      /* mad.rnd.f32 is fma.rnd.f32 (PTX ISA §9.7.3.6, sm_20 and later). */
      if (bld_rnd(c) == IR_RND_NONE && t == PTX_T_F32)
         return ir_error(c->m, c->line, "%s: mad.f32 without a rounding modifier is not supported", bld_spelled(c));
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

bool bld_tr_float_unary(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
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

bool bld_tr_fma(build_ctx *c)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
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
   if (t != PTX_T_F32)
      return bld_float_ok(c, t) && bld_refuse(c);
   return ONLY_MODS(c) && bld_simple_alu(c, IR_COPYSIGN, 2);
}

/* ---- testp ---- */

/* a <cmp> limit, unsigned 32-bit. */
static ir_def *setp_u32(build_ctx *c, ir_def *a, uint32_t limit, ir_cmp cmp)
{
   ir_def *p = bld_op2(c, IR_SETP, PTX_T_U32, a, bld_const(c, 32, limit));
   if (p)
      p->parent->sub = (uint8_t)cmp;
   return p;
}

/* testp.class.f32 p, a (PTX ISA §9.7.3.5): a class test of the bits,
 * built from integer operations on |a| = a & 0x7fffffff:
 *   finite |a| < inf, infinite |a| == inf, number |a| <= inf,
 *   notanumber |a| > inf, subnormal |a| - 1 < 0x7fffff (unsigned: zero
 *   wraps around), normal |a| - 2^-126 < inf - 2^-126 or |a| == 0: an
 *   H200 counts ±0 as normal (tests/ptx/cases/testp_normal_f32.ptx). */
bool bld_tr_testp(build_ctx *c)
{
   static const struct { ptx_mod m; ir_cmp cmp; uint32_t bias, limit; } classes[] = {
      { PTX_MOD_FINITE, IR_CMP_LT, 0, 0x7f800000u },     { PTX_MOD_INFINITE, IR_CMP_EQ, 0, 0x7f800000u },
      { PTX_MOD_NUMBER, IR_CMP_LE, 0, 0x7f800000u },     { PTX_MOD_NOTANUMBER, IR_CMP_GT, 0, 0x7f800000u },
      { PTX_MOD_NORMAL, IR_CMP_LT, 0x00800000u, 0x7f000000u }, { PTX_MOD_SUBNORMAL, IR_CMP_LT, 1, 0x007fffffu },
   };
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 2))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_F32)
      return bld_float_ok(c, t) && bld_refuse(c);
   for (size_t k = 0; k < ARRAY_SIZE(classes); k++) {
      if (!bld_has(c, classes[k].m))
         continue;
      if (c->in->nmods != 1)
         return bld_refuse(c);
      ir_def *a = bld_src(c, 1, t, 32);
      ir_def *v = bld_op2(c, IR_AND, PTX_T_U32, a, bld_const(c, 32, 0x7fffffffu));
      ir_def *abs = v;
      if (classes[k].bias)
         v = bld_op2(c, IR_SUB, PTX_T_U32, v, bld_const(c, 32, classes[k].bias));
      ir_def *p = setp_u32(c, v, classes[k].limit, classes[k].cmp);
      if (classes[k].m == PTX_MOD_NORMAL) {
         ir_def *zero = setp_u32(c, abs, 0, IR_CMP_EQ);
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
bool bld_cvt_is_float_form(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (in->ntypes != 2)
      return false;
   ptx_type dt = in->types[0], st = in->types[1];
   if (dt == PTX_T_F64 || st == PTX_T_F64)
      return false;
   if ((is_lane16(dt) && dt != PTX_T_F16) || (is_lane16(st) && st != PTX_T_F16))
      return true;
   return is_directed(bld_rnd(c)) && (dt == PTX_T_F32 || dt == PTX_T_F16) &&
          (ptx_type_is_int(st) || (dt == PTX_T_F16 && st == PTX_T_F32));
}

/* cvt.frnd.{f16x2,bf16x2}.f32 d, a, b: a goes to the upper half, b to the
 * lower (PTX ISA §9.7.9.21). */
static bool cvt_pair(build_ctx *c, ptx_type dt, ir_rnd r, uint16_t flags)
{
   if (!bld_need_opnds(c, 3))
      return false;
   ptx_type lane = dt == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
   ir_def *hi = bld_cvt(c, lane, PTX_T_F32, r, flags, bld_src(c, 1, PTX_T_F32, 32));
   ir_def *lo = bld_cvt(c, lane, PTX_T_F32, r, flags, bld_src(c, 2, PTX_T_F32, 32));
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
   ir_rnd r = bld_rnd(c);
   uint16_t flags = bld_flags(c);
   if (!ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_RZ, PTX_MOD_RM, PTX_MOD_RP, PTX_MOD_RNI, PTX_MOD_RZI, PTX_MOD_RMI,
                  PTX_MOD_RPI, PTX_MOD_FTZ, PTX_MOD_SAT))
      return false;
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
   return d && bld_write(c, in->opnds[0], d, dt);
}
