/*
 * build_float.c — floating-point instructions: add/sub/mul/mad/fma/div,
 * abs/neg/min/max, rcp/sqrt/rsqrt, the .approx transcendentals, copysign.
 * Rounding modes, .ftz and .sat are carried on the IR instruction; the
 * emitter implements them exactly.
 */
#include "build.h"

bool bld_float_ok(build_ctx *c, ptx_type t)
{
   if (t == PTX_T_F64)
      return ir_error(c->m, c->line, "%s: 64-bit floating point is not supported yet", bld_spelled(c));
   if (t != PTX_T_F32 && t != PTX_T_F16)
      return bld_refuse(c);
   ir_rnd r = bld_rnd(c);
   if (r == IR_RND_RZ || r == IR_RND_RM || r == IR_RND_RP)
      return ir_error(c->m, c->line, "%s: directed rounding of arithmetic is not supported yet", bld_spelled(c));
   return true;
}

/* add/sub/mul/mad/div in a float type. */
bool bld_tr_float_arith(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   const ptx_instr *in = c->in;
   if (op == IR_DIV) {
      if (t != PTX_T_F32)
         return bld_float_ok(c, t) && bld_refuse(c);
      if (!bld_has(c, PTX_MOD_APPROX) && !bld_has(c, PTX_MOD_FULL) && bld_rnd(c) == IR_RND_NONE)
         return ir_error(c->m, c->line, "%s: div.f32 needs .approx, .full or a rounding modifier", bld_spelled(c));
      return bld_float_ok(c, t) && ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_FULL, PTX_MOD_RN, PTX_MOD_FTZ) &&
             bld_simple_alu(c, IR_DIV, 2);
   }
   if (op == IR_MAD) {
      if (bld_rnd(c) == IR_RND_NONE && t == PTX_T_F32)
         return ir_error(c->m, c->line, "%s: mad.f32 without a rounding modifier is not supported", bld_spelled(c));
      return bld_float_ok(c, t) && ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_FTZ, PTX_MOD_SAT) && bld_simple_alu(c, IR_FMA, 3);
   }
   (void)in;
   return bld_float_ok(c, t) && ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_FTZ, PTX_MOD_SAT) && bld_simple_alu(c, op, 2);
}

bool bld_tr_float_abs_neg_min_max(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!bld_need_types(c, 1))
      return false;
   return bld_float_ok(c, c->in->types[0]) && ONLY_MODS(c, PTX_MOD_FTZ) && bld_simple_alu(c, op, nsrc);
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
   if (!approx_only && !bld_has(c, PTX_MOD_APPROX) && !bld_has(c, PTX_MOD_RN))
      return ir_error(c->m, c->line, "%s: needs .approx or a rounding modifier", bld_spelled(c));
   return bld_float_ok(c, t) && ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_RN, PTX_MOD_FTZ) &&
          bld_simple_alu(c, op, 1);
}

bool bld_tr_fma(build_ctx *c)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (bld_rnd(c) == IR_RND_NONE && t != PTX_T_F64)
      return ir_error(c->m, c->line, "%s: fma needs a rounding modifier", bld_spelled(c));
   return bld_float_ok(c, t) && ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_FTZ, PTX_MOD_SAT) && bld_simple_alu(c, IR_FMA, 3);
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

