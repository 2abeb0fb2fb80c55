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
      return bld_tr_carry(c);
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
   if (bld_has(c, PTX_MOD_CC) || c->in->op == PTX_OP_MADC)
      return bld_tr_carry(c);
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


/* ---- carry chains ----
 * PTX ISA 9.0 "Extended-Precision Integer Arithmetic": add.cc/sub.cc write
 * the carry out to CC.CF (for sub, the carry of a + ~b + 1); addc/subc add
 * the carry in (subc: a + ~b + CC.CF), and with .cc write the new one; mad.cc/madc do the same
 * for the addition of a multiply-add.  The flag is an SSA variable; carries
 * are computed with unsigned compares: for s = x + y + cin,
 * cout = (x + y <u x) | (s <u x + y). */

static ir_def *ult(build_ctx *c, ptx_type ut, ir_def *a, ir_def *b)
{
   ir_def *d = bld_op2(c, IR_SETP, ut, a, b);
   if (d)
      d->parent->sub = IR_CMP_LT;
   return d;
}

/* x + y (+ cin when cin != NULL); *cout gets the carry out. */
static ir_def *add_carry(build_ctx *c, ptx_type ut, ir_def *x, ir_def *y, ir_def *cin, ir_def **cout)
{
   ir_def *s1 = bld_op2(c, IR_ADD, ut, x, y);
   ir_def *c1 = ult(c, ut, s1, x);
   if (!cin) {
      *cout = c1;
      return s1;
   }
   ir_def *s = bld_op2(c, IR_ADD, ut, s1, bld_select_const(c, cin, x->bits, 1));
   ir_def *c2 = ult(c, ut, s, s1);
   *cout = bld_op2(c, IR_OR, PTX_T_PRED, c1, c2);
   return s;
}

/* a - b as the hardware computes it, a + ~b + 1 (subc: a + ~b + CC.CF):
 * the flag out is a carry, set when nothing was borrowed, so a chain that
 * mixes sub.cc with addc sees what an NVIDIA GPU gives (an H200:
 * tests/ptx/cases/madc_sub_cc_forms.ptx).  Within a pure sub chain this is
 * the same as passing a borrow. */
static ir_def *sub_carry(build_ctx *c, ptx_type ut, ir_def *a, ir_def *b, ir_def *cin, ir_def **cout)
{
   ir_instr *nb = b ? bld_emit(c, IR_NOT, 1, b->bits, 1) : NULL;
   if (!nb)
      return NULL;
   nb->type = ut;
   bld_set_src(nb, 0, b);
   return add_carry(c, ut, a, &nb->def, cin ? cin : bld_const(c, 1, 1), cout);
}

static void write_cc_guarded(build_ctx *c, ir_def *cc)
{
   if (!cc)
      return;
   if (c->in->guard) {
      /* a guarded instruction leaves CC.CF alone when the guard fails */
      ir_def *old = bld_read_cc(c);
      ir_instr *cp = bld_emit(c, IR_COPY, 1, 1, 1);
      if (!cp || !old)
         return;
      cp->type = PTX_T_PRED;
      bld_set_src(cp, 0, cc);
      bld_guard(c, cp, NULL);
      ir_src_set(&cp->old, cp, old);
      cc = &cp->def;
   }
   bld_write_cc(c, cc);
}

bool bld_tr_carry(build_ctx *c)
{
   const ptx_instr *in = c->in;
   ptx_type t = in->types[0];
   if (t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_U64 && t != PTX_T_S64)
      return bld_refuse(c);
   bool mad = in->op == PTX_OP_MAD || in->op == PTX_OP_MADC;
   bool sub = in->op == PTX_OP_SUB || in->op == PTX_OP_SUBC;
   bool carry_in = in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC || in->op == PTX_OP_MADC;
   bool carry_out = bld_has(c, PTX_MOD_CC);
   if (!bld_need_opnds(c, mad ? 4 : 3) ||
       !ONLY_MODS(c, PTX_MOD_CC, PTX_MOD_LO, PTX_MOD_HI) || (!mad && (bld_has(c, PTX_MOD_LO) || bld_has(c, PTX_MOD_HI))))
      return false;
   if (mad && !bld_has(c, PTX_MOD_LO) && !bld_has(c, PTX_MOD_HI))
      return ir_error(c->m, c->line, "%s: needs .lo or .hi", bld_spelled(c));
   uint8_t bits = bld_type_bits(t);
   ptx_type ut = bits == 64 ? PTX_T_U64 : PTX_T_U32;
   ir_def *a = bld_src(c, 1, t, bits), *b = bld_src(c, 2, t, bits);
   ir_def *cin = carry_in ? bld_read_cc(c) : NULL;
   ir_def *x = a, *y = b, *res, *cout = NULL;
   if (mad) {
      ir_instr *m = a && b ? bld_emit(c, IR_MUL, 2, bits, 1) : NULL;
      if (!m)
         return false;
      m->type = t;
      m->sub = bld_has(c, PTX_MOD_HI) ? IR_MUL_HI : IR_MUL_LO;
      bld_set_src(m, 0, a);
      bld_set_src(m, 1, b);
      x = &m->def;
      y = bld_src(c, 3, t, bits);
   }
   if (!x || !y || (carry_in && !cin))
      return false;
   res = sub ? sub_carry(c, ut, x, y, cin, &cout) : add_carry(c, ut, x, y, cin, &cout);
   if (!res || !bld_write(c, in->opnds[0], res, t))
      return false;
   if (carry_out)
      write_cc_guarded(c, cout);
   return c->m->error == NULL;
}

/* ---- dot products, selects, bit masks ---- */

/* dp4a.atype.btype d, a, b, c / dp2a.{lo,hi}.atype.btype d, a, b, c */
bool bld_tr_dp(build_ctx *c, bool dp4)
{
   const ptx_instr *in = c->in;
   if (!bld_need_types(c, 2) || !bld_need_opnds(c, 4) ||
       !(dp4 ? ONLY_MODS(c) : ONLY_MODS(c, PTX_MOD_LO, PTX_MOD_HI)))
      return false;
   ptx_type at = in->types[0], bt = in->types[1];
   if ((at != PTX_T_U32 && at != PTX_T_S32) || (bt != PTX_T_U32 && bt != PTX_T_S32))
      return bld_refuse(c);
   if (!dp4 && bld_has(c, PTX_MOD_LO) == bld_has(c, PTX_MOD_HI))
      return ir_error(c->m, c->line, "%s: needs .lo or .hi", bld_spelled(c));
   /* the accumulator and result are .u32 only when both inputs are */
   ptx_type dt = at == PTX_T_U32 && bt == PTX_T_U32 ? PTX_T_U32 : PTX_T_S32;
   ir_def *s[3] = { bld_src(c, 1, at, 32), bld_src(c, 2, bt, 32), bld_src(c, 3, dt, 32) };
   uint8_t sub = (uint8_t)((at == PTX_T_S32 ? IR_DP_A_SIGNED : 0) | (bt == PTX_T_S32 ? IR_DP_B_SIGNED : 0) |
                           (bld_has(c, PTX_MOD_HI) ? IR_DP_HI : 0));
   return bld_alu(c, dp4 ? IR_DP4A : IR_DP2A, dt, 32, s, 3, sub, dt);
}

/* slct.dtype.{s32,f32} d, a, b, c: d = c >= 0 ? a : b */
bool bld_tr_slct(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_need_types(c, 2) || !bld_need_opnds(c, 4) || !ONLY_MODS(c, PTX_MOD_FTZ))
      return false;
   ptx_type dt = in->types[0], ct = in->types[1];
   if ((ct != PTX_T_S32 && ct != PTX_T_F32) || ptx_type_bits[dt] < 16 || dt == PTX_T_F64 ||
       (bld_has(c, PTX_MOD_FTZ) && ct != PTX_T_F32))
      return bld_refuse(c);
   uint8_t bits = bld_type_bits(dt);
   ir_def *s[3] = { bld_src(c, 1, dt, bits), bld_src(c, 2, dt, bits), bld_src(c, 3, ct, 32) };
   for (unsigned k = 0; k < 3; k++)
      if (!s[k])
         return false;
   ir_instr *i = bld_emit(c, IR_SLCT, 3, bits, 1);
   if (!i)
      return false;
   i->type = dt;
   i->type2 = ct;
   i->flags = bld_flags(c);
   for (unsigned k = 0; k < 3; k++)
      bld_set_src(i, k, s[k]);
   return bld_write(c, in->opnds[0], &i->def, dt);
}

/* lop3.b32 d, a, b, c, immLut */
bool bld_tr_lop3(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 5) || !ONLY_MODS(c))
      return false;
   if (in->types[0] != PTX_T_B32)
      return bld_refuse(c);
   if (in->opnds[4]->kind != PTX_OPND_IMM_INT || in->opnds[4]->u.imm.bits > 0xff)
      return ir_error(c->m, c->line, "lop3: the lookup table must be an immediate 0..255");
   ir_def *s[3] = { bld_src(c, 1, PTX_T_B32, 32), bld_src(c, 2, PTX_T_B32, 32), bld_src(c, 3, PTX_T_B32, 32) };
   for (unsigned k = 0; k < 3; k++)
      if (!s[k])
         return false;
   ir_instr *i = bld_emit(c, IR_LOP3, 3, 32, 1);
   if (!i)
      return false;
   i->type = PTX_T_B32;
   i->imm = in->opnds[4]->u.imm.bits;
   for (unsigned k = 0; k < 3; k++)
      bld_set_src(i, k, s[k]);
   return bld_write(c, in->opnds[0], &i->def, PTX_T_B32);
}

/* bmsk.{clamp,wrap}.b32 d, a, b */
bool bld_tr_bmsk(build_ctx *c)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 3) || !ONLY_MODS(c, PTX_MOD_CLAMP, PTX_MOD_WRAP))
      return false;
   if (c->in->types[0] != PTX_T_B32 || bld_has(c, PTX_MOD_CLAMP) == bld_has(c, PTX_MOD_WRAP))
      return bld_refuse(c);
   ir_def *s[2] = { bld_src(c, 1, PTX_T_U32, 32), bld_src(c, 2, PTX_T_U32, 32) };
   return bld_alu(c, IR_BMSK, PTX_T_B32, 32, s, 2, bld_has(c, PTX_MOD_CLAMP), PTX_T_B32);
}

/* szext.{clamp,wrap}.{u32,s32} d, a, b: sign- or zero-extend a from bit b */
bool bld_tr_szext(build_ctx *c)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 3) || !ONLY_MODS(c, PTX_MOD_CLAMP, PTX_MOD_WRAP))
      return false;
   ptx_type t = c->in->types[0];
   if ((t != PTX_T_U32 && t != PTX_T_S32) || bld_has(c, PTX_MOD_CLAMP) == bld_has(c, PTX_MOD_WRAP))
      return bld_refuse(c);
   ir_def *s[2] = { bld_src(c, 1, t, 32), bld_src(c, 2, PTX_T_U32, 32) };
   return bld_alu(c, IR_SZEXT, t, 32, s, 2, bld_has(c, PTX_MOD_CLAMP), t);
}

/* fns.b32 d, mask, base, offset: the position of the offset-th set bit
 * counting from base (upwards for offset > 0, downwards for < 0). */
bool bld_tr_fns(build_ctx *c)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 4) || !ONLY_MODS(c))
      return false;
   if (c->in->types[0] != PTX_T_B32)
      return bld_refuse(c);
   ir_def *s[3] = { bld_src(c, 1, PTX_T_B32, 32), bld_src(c, 2, PTX_T_U32, 32), bld_src(c, 3, PTX_T_S32, 32) };
   return bld_alu(c, IR_FNS, PTX_T_B32, 32, s, 3, 0, PTX_T_B32);
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and
 * cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c: a and b saturated
 * to the narrow type and packed (a above b); the 8/4/2-bit forms put c's
 * low bits above them. */
bool bld_tr_cvt_pack(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_SAT) || !bld_has(c, PTX_MOD_SAT) || in->ntypes < 2 || in->types[1] != PTX_T_S32)
      return bld_refuse(c);
   ptx_type t = in->types[0];
   bool wide = t == PTX_T_U16 || t == PTX_T_S16;
   unsigned bits = wide ? 16 : t == PTX_T_U8 || t == PTX_T_S8 ? 8 : t == PTX_T_U4 || t == PTX_T_S4 ? 4
                 : t == PTX_T_U2 || t == PTX_T_S2 ? 2 : 0;
   /* 4 and 2 bits (sm_72): the same packing; the IR type only says signed or not */
   if (bits < 8)
      t = t == PTX_T_S4 || t == PTX_T_S2 ? PTX_T_S8 : PTX_T_U8;
   if (!bits || in->ntypes != (wide ? 2u : 3u) || (!wide && in->types[2] != PTX_T_B32))
      return bld_refuse(c);
   unsigned n = wide ? 2 : 3;
   if (!bld_need_opnds(c, n + 1))
      return false;
   ir_def *s[3] = { bld_src(c, 1, PTX_T_S32, 32), bld_src(c, 2, PTX_T_S32, 32),
                    wide ? NULL : bld_src(c, 3, PTX_T_B32, 32) };
   return bld_alu(c, IR_CVT_PACK, t, 32, s, n, (uint8_t)bits, PTX_T_B32);
}
