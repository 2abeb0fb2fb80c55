/*
 * build_int.c — integer instructions: add/sub (with .sat), mul/mad (.lo
 * .hi .wide), mul24/mad24, sad, div/rem, abs/neg/min/max, logic, shifts,
 * bit counts, bfe/bfi, bfind, prmt, shf.  Float forms of the shared opcodes
 * go to build_float.c.
 */
#include "build.h"

bool bld_tr_int_add_sub(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (bld_has(c, PTX_MOD_CC) || c->in->op == PTX_OP_ADDC || c->in->op == PTX_OP_SUBC)
      return ir_error(c->m, c->line, "%s: carry chains (.cc) are not supported yet", bld_spelled(c));
   if (!bld_is_int16_64(t))
      return bld_refuse(c);
   if (bld_has(c, PTX_MOD_SAT) && t != PTX_T_S32)
      return bld_refuse(c);
   return ONLY_MODS(c, PTX_MOD_SAT) && bld_simple_alu(c, op, 2);
}

bool bld_tr_int_mul_mad(build_ctx *c, bool mad)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   unsigned nsrc = mad ? 3 : 2;
   if (!bld_is_int16_64(t))
      return bld_refuse(c);
   ir_mulmode mode = bld_has(c, PTX_MOD_HI) ? IR_MUL_HI : bld_has(c, PTX_MOD_WIDE) ? IR_MUL_WIDE : IR_MUL_LO;
   if (!bld_has(c, PTX_MOD_HI) && !bld_has(c, PTX_MOD_WIDE) && !bld_has(c, PTX_MOD_LO))
      return ir_error(c->m, c->line, "%s: integer multiply needs .lo, .hi or .wide", bld_spelled(c));
   if (bld_has(c, PTX_MOD_SAT) && !(mad && mode == IR_MUL_HI && t == PTX_T_S32))
      return bld_refuse(c);
   if (bld_has(c, PTX_MOD_CC))
      return ir_error(c->m, c->line, "%s: carry chains (.cc) are not supported yet", bld_spelled(c));
   if (mode == IR_MUL_WIDE && ptx_type_bits[t] == 64)
      return bld_refuse(c);
   if (!ONLY_MODS(c, PTX_MOD_LO, PTX_MOD_HI, PTX_MOD_WIDE, PTX_MOD_SAT) || !bld_need_opnds(c, nsrc + 1))
      return false;
   uint8_t bits = bld_type_bits(t);
   uint8_t dbits = mode == IR_MUL_WIDE ? (uint8_t)(bits * 2) : bits;
   ptx_type wide_t = t;
   if (mode == IR_MUL_WIDE) {
      static const ptx_type wider[PTX_T_COUNT] = {
         [PTX_T_U16] = PTX_T_U32, [PTX_T_U32] = PTX_T_U64,
         [PTX_T_S16] = PTX_T_S32, [PTX_T_S32] = PTX_T_S64,
      };
      wide_t = wider[t];
   }
   ir_def *s[3];
   s[0] = bld_src(c, 1, t, bits);
   s[1] = bld_src(c, 2, t, bits);
   if (mad)
      s[2] = bld_src(c, 3, wide_t, dbits);
   return bld_alu(c, mad ? IR_MAD : IR_MUL, t, dbits, s, nsrc, (uint8_t)mode, wide_t);
}

bool bld_tr_mul24(build_ctx *c, bool mad)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_U32 && t != PTX_T_S32)
      return bld_refuse(c);
   if (!ONLY_MODS(c, PTX_MOD_LO, PTX_MOD_HI, PTX_MOD_SAT))
      return false;
   if (!bld_has(c, PTX_MOD_LO) && !bld_has(c, PTX_MOD_HI))
      return ir_error(c->m, c->line, "%s: needs .lo or .hi", bld_spelled(c));
   if (bld_has(c, PTX_MOD_SAT) && !(mad && bld_has(c, PTX_MOD_HI) && t == PTX_T_S32))
      return bld_refuse(c);
   unsigned nsrc = mad ? 3 : 2;
   if (!bld_need_opnds(c, nsrc + 1))
      return false;
   ir_def *s[3];
   for (unsigned k = 0; k < nsrc; k++)
      s[k] = bld_src(c, k + 1, t, 32);
   return bld_alu(c, mad ? IR_MAD24 : IR_MUL24, t, 32, s, nsrc,
                   bld_has(c, PTX_MOD_HI) ? IR_MUL_HI : IR_MUL_LO, t);
}

bool bld_tr_int_div_rem(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1))
      return false;
   if (!bld_is_int16_64(c->in->types[0]))
      return bld_refuse(c);
   return ONLY_MODS(c) && bld_simple_alu(c, op, 2);
}

bool bld_tr_int_abs_neg_min_max(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (!bld_is_int16_64(t) || ((op == IR_ABS || op == IR_NEG) && !ptx_type_is_signed(t)))
      return bld_refuse(c);
   return ONLY_MODS(c) && bld_simple_alu(c, op, nsrc);
}

bool bld_tr_logic(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!bld_need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   bool ok = t == PTX_T_PRED || t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64;
   if (op == IR_CNOT && t == PTX_T_PRED)
      ok = false;
   return ok ? ONLY_MODS(c) && bld_simple_alu(c, op, nsrc) : bld_refuse(c);
}

bool bld_tr_shift(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 3))
      return false;
   ptx_type t = c->in->types[0];
   bool ok = t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64;
   if (op == IR_SHR)
      ok = ok || bld_is_int16_64(t);
   if (!ok || !ONLY_MODS(c))
      return ok ? false : bld_refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s[2] = { bld_src(c, 1, t, bits), bld_src(c, 2, PTX_T_U32, 32) };
   return bld_alu(c, op, t, bits, s, 2, 0, t);
}

/* popc, clz: .b32/.b64 source, .u32 result; brev: same type. */
bool bld_tr_bitcount(build_ctx *c, ir_op op)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 2) || !ONLY_MODS(c))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_B32 && t != PTX_T_B64)
      return bld_refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s = bld_src(c, 1, t, bits);
   if (op == IR_BREV)
      return bld_alu(c, op, t, bits, &s, 1, 0, t);
   return bld_alu(c, op, t, 32, &s, 1, 0, PTX_T_U32);
}

bool bld_tr_bfe_bfi(build_ctx *c, bool insert)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, insert ? 5 : 4) || !ONLY_MODS(c))
      return false;
   ptx_type t = c->in->types[0];
   bool ok = insert ? (t == PTX_T_B32 || t == PTX_T_B64)
                    : (t == PTX_T_U32 || t == PTX_T_U64 || t == PTX_T_S32 || t == PTX_T_S64);
   if (!ok)
      return bld_refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s[4];
   unsigned nval = insert ? 2 : 1;
   for (unsigned k = 0; k < nval; k++)
      s[k] = bld_src(c, k + 1, t, bits);
   s[nval] = bld_src(c, nval + 1, PTX_T_U32, 32);
   s[nval + 1] = bld_src(c, nval + 2, PTX_T_U32, 32);
   return bld_alu(c, insert ? IR_BFI : IR_BFE, t, bits, s, nval + 2, 0, t);
}

/* bfind{.shiftamt}.type d, a: position of the most significant non-sign
 * bit, 0xffffffff if none. */
bool bld_tr_bfind(build_ctx *c)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 2) || !ONLY_MODS(c, PTX_MOD_SHIFTAMT))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_U64 && t != PTX_T_S64)
      return bld_refuse(c);
   ir_def *a = bld_src(c, 1, t, bld_type_bits(t));
   return bld_alu(c, IR_BFIND, t, 32, &a, 1, bld_has(c, PTX_MOD_SHIFTAMT), PTX_T_U32);
}

/* prmt.b32{.mode} d, a, b, c: byte permute of the pool {b, a}. */
bool bld_tr_prmt(build_ctx *c)
{
   static const struct { ptx_mod m; ir_prmt p; } modes[] = {
      { PTX_MOD_F4E, IR_PRMT_F4E }, { PTX_MOD_B4E, IR_PRMT_B4E }, { PTX_MOD_RC8, IR_PRMT_RC8 },
      { PTX_MOD_ECL, IR_PRMT_ECL }, { PTX_MOD_ECR, IR_PRMT_ECR }, { PTX_MOD_RC16, IR_PRMT_RC16 },
   };
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 4) ||
       !ONLY_MODS(c, PTX_MOD_F4E, PTX_MOD_B4E, PTX_MOD_RC8, PTX_MOD_ECL, PTX_MOD_ECR, PTX_MOD_RC16))
      return false;
   if (c->in->types[0] != PTX_T_B32)
      return bld_refuse(c);
   ir_prmt mode = IR_PRMT_DEFAULT;
   for (size_t k = 0; k < ARRAY_SIZE(modes); k++)
      if (bld_has(c, modes[k].m))
         mode = modes[k].p;
   ir_def *s[3] = { bld_src(c, 1, PTX_T_B32, 32), bld_src(c, 2, PTX_T_B32, 32), bld_src(c, 3, PTX_T_B32, 32) };
   return bld_alu(c, IR_PRMT, PTX_T_B32, 32, s, 3, (uint8_t)mode, PTX_T_B32);
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b, a}. */
bool bld_tr_shf(build_ctx *c)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 4) ||
       !ONLY_MODS(c, PTX_MOD_L, PTX_MOD_R, PTX_MOD_WRAP, PTX_MOD_CLAMP))
      return false;
   if (c->in->types[0] != PTX_T_B32 || bld_has(c, PTX_MOD_L) == bld_has(c, PTX_MOD_R) ||
       bld_has(c, PTX_MOD_WRAP) == bld_has(c, PTX_MOD_CLAMP))
      return bld_refuse(c);
   uint8_t flags = (uint8_t)((bld_has(c, PTX_MOD_L) ? IR_SHF_LEFT : 0) | (bld_has(c, PTX_MOD_CLAMP) ? IR_SHF_CLAMP : 0));
   ir_def *s[3] = { bld_src(c, 1, PTX_T_B32, 32), bld_src(c, 2, PTX_T_B32, 32), bld_src(c, 3, PTX_T_U32, 32) };
   return bld_alu(c, IR_SHF, PTX_T_B32, 32, s, 3, flags, PTX_T_B32);
}

bool bld_tr_sad(build_ctx *c)
{
   if (!bld_need_types(c, 1) || !bld_is_int16_64(c->in->types[0]))
      return c->in->ntypes == 1 ? bld_refuse(c) : false;
   return ONLY_MODS(c) && bld_simple_alu(c, IR_SAD, 3);
}

