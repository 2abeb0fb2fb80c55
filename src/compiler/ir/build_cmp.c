/*
 * build_cmp.c — comparisons and selects: setp (every comparison, .and/.or/
 * .xor combination, predicate pairs), set, selp.
 */
#include "build.h"

static bool cmp_of(build_ctx *c, ptx_type t, ir_cmp *out)
{
   static const struct { ptx_mod m; ir_cmp cmp; bool ints; } map[] = {
      { PTX_MOD_EQ, IR_CMP_EQ, true }, { PTX_MOD_NE, IR_CMP_NE, true },
      { PTX_MOD_LT, IR_CMP_LT, true }, { PTX_MOD_LE, IR_CMP_LE, true },
      { PTX_MOD_GT, IR_CMP_GT, true }, { PTX_MOD_GE, IR_CMP_GE, true },
      { PTX_MOD_LO, IR_CMP_LT, true }, { PTX_MOD_LS, IR_CMP_LE, true },
      { PTX_MOD_HI, IR_CMP_GT, true }, { PTX_MOD_HS, IR_CMP_GE, true },
      { PTX_MOD_EQU, IR_CMP_EQU, false }, { PTX_MOD_NEU, IR_CMP_NEU, false },
      { PTX_MOD_LTU, IR_CMP_LTU, false }, { PTX_MOD_LEU, IR_CMP_LEU, false },
      { PTX_MOD_GTU, IR_CMP_GTU, false }, { PTX_MOD_GEU, IR_CMP_GEU, false },
      { PTX_MOD_NUM, IR_CMP_NUM, false }, { PTX_MOD_NAN_CMP, IR_CMP_NAN, false },
   };
   for (size_t k = 0; k < ARRAY_SIZE(map); k++) {
      if (!bld_has(c, map[k].m))
         continue;
      bool is_lohs = map[k].m == PTX_MOD_LO || map[k].m == PTX_MOD_LS || map[k].m == PTX_MOD_HI ||
                     map[k].m == PTX_MOD_HS;
      /* lo/ls/hi/hs are unsigned comparisons: ptxas rejects them on .bN */
      if ((!map[k].ints && !ptx_type_is_float(t)) || (is_lohs && !ptx_type_is_unsigned(t)))
         return bld_refuse(c);
      *out = map[k].cmp;
      return true;
   }
   return ir_error(c->m, c->line, "%s: missing comparison operator", bld_spelled(c));
}

static ir_op boolop_of(build_ctx *c)
{
   if (bld_has(c, PTX_MOD_AND))
      return IR_AND;
   if (bld_has(c, PTX_MOD_OR))
      return IR_OR;
   if (bld_has(c, PTX_MOD_XOR))
      return IR_XOR;
   return IR_OP_COUNT;
}

static ir_def *pred_op(build_ctx *c, ir_op op, ir_def *a, ir_def *b)
{
   if (!a || (op != IR_NOT && !b))
      return NULL;
   ir_instr *i = bld_emit(c, op, op == IR_NOT ? 1 : 2, 1, 1);
   if (!i)
      return NULL;
   i->type = PTX_T_PRED;
   bld_set_src(i, 0, a);
   if (op != IR_NOT)
      bld_set_src(i, 1, b);
   return &i->def;
}

static bool cmp_mods_ok(build_ctx *c)
{
   for (unsigned k = 0; k < c->in->nmods; k++) {
      ptx_mod m = c->in->mods[k];
      if (m == PTX_MOD_FTZ && ptx_type_is_float(c->in->types[c->in->ntypes - 1]))
         continue;
      if (m == PTX_MOD_AND || m == PTX_MOD_OR || m == PTX_MOD_XOR)
         continue;
      if (m == PTX_MOD_EQ || m == PTX_MOD_NE || m == PTX_MOD_LT || m == PTX_MOD_LE ||
          m == PTX_MOD_GT || m == PTX_MOD_GE || m == PTX_MOD_LO || m == PTX_MOD_LS ||
          m == PTX_MOD_HI || m == PTX_MOD_HS || m == PTX_MOD_EQU || m == PTX_MOD_NEU ||
          m == PTX_MOD_LTU || m == PTX_MOD_LEU || m == PTX_MOD_GTU || m == PTX_MOD_GEU ||
          m == PTX_MOD_NUM || m == PTX_MOD_NAN_CMP)
         continue;
      return bld_refuse(c);
   }
   return true;
}

/* setp.cmp[.bop].type p[|q], a, b[, {!}c]:
 *   p = (a cmp b) bop c;  q = !(a cmp b) bop c. */
bool bld_tr_setp(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_need_types(c, 1) || !cmp_mods_ok(c))
      return false;
   ptx_type t = in->types[0];
   if (t == PTX_T_F64)
      return bld_float_ok(c, t);
   if (ptx_type_is_float(t) && t != PTX_T_F32 && t != PTX_T_F16)
      return bld_refuse(c);
   ir_cmp cmp;
   if (!cmp_of(c, t, &cmp))
      return false;
   unsigned ndst = in->has_pair_dst ? 2 : 1;
   ir_op bop = boolop_of(c);
   unsigned nexp = ndst + 2 + (bop != IR_OP_COUNT);
   if (!bld_need_opnds(c, nexp))
      return false;
   uint8_t bits = bld_type_bits(t);
   ir_def *a = bld_src(c, ndst, t, bits), *b = bld_src(c, ndst + 1, t, bits);
   ir_def *pc = bop != IR_OP_COUNT ? bld_src(c, ndst + 2, PTX_T_PRED, 1) : NULL;
   if (!a || !b || (bop != IR_OP_COUNT && !pc))
      return false;
   ir_instr *i = bld_emit(c, IR_SETP, 2, 1, 1);
   if (!i)
      return false;
   i->type = t;
   i->sub = (uint8_t)cmp;
   i->flags = bld_flags(c);
   bld_set_src(i, 0, a);
   bld_set_src(i, 1, b);
   ir_def *r = &i->def;
   ir_def *p = bop != IR_OP_COUNT ? pred_op(c, bop, r, pc) : r;
   if (!bld_write(c, in->opnds[0], p, PTX_T_PRED))
      return false;
   if (ndst == 2) {
      ir_def *nr = pred_op(c, IR_NOT, r, NULL);
      ir_def *q = bop != IR_OP_COUNT ? pred_op(c, bop, nr, pc) : nr;
      if (!bld_write(c, in->opnds[1], q, PTX_T_PRED))
         return false;
   }
   return true;
}

/* set.cmp[.bop].dtype.stype d, a, b[, {!}c]: d = all ones (or 1.0f) if true. */
bool bld_tr_set(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_need_types(c, 2) || !cmp_mods_ok(c))
      return false;
   ptx_type dt = in->types[0], st = in->types[1];
   if (st == PTX_T_F64)
      return bld_float_ok(c, st);
   if (!(dt == PTX_T_U32 || dt == PTX_T_S32 || dt == PTX_T_F32) ||
       (ptx_type_is_float(st) && st != PTX_T_F32))
      return bld_refuse(c);
   ir_cmp cmp;
   if (!cmp_of(c, st, &cmp))
      return false;
   ir_op bop = boolop_of(c);
   if (!bld_need_opnds(c, 3 + (bop != IR_OP_COUNT)))
      return false;
   uint8_t bits = bld_type_bits(st);
   ir_def *a = bld_src(c, 1, st, bits), *b = bld_src(c, 2, st, bits);
   ir_def *pc = bop != IR_OP_COUNT ? bld_src(c, 3, PTX_T_PRED, 1) : NULL;
   if (!a || !b || (bop != IR_OP_COUNT && !pc))
      return false;
   ir_instr *i = bld_emit(c, IR_SETP, 2, 1, 1);
   if (!i)
      return false;
   i->type = st;
   i->sub = (uint8_t)cmp;
   i->flags = bld_flags(c);
   bld_set_src(i, 0, a);
   bld_set_src(i, 1, b);
   ir_def *p = bop != IR_OP_COUNT ? pred_op(c, bop, &i->def, pc) : &i->def;
   ir_def *one = bld_const(c, 32, dt == PTX_T_F32 ? 0x3f800000u : 0xffffffffu);
   ir_def *zero = bld_const(c, 32, 0);
   ir_instr *sel = bld_emit(c, IR_SELECT, 3, 32, 1);
   if (!p || !one || !zero || !sel)
      return false;
   sel->type = PTX_T_B32;
   bld_set_src(sel, 0, p);
   bld_set_src(sel, 1, one);
   bld_set_src(sel, 2, zero);
   return bld_write(c, in->opnds[0], &sel->def, dt);
}

bool bld_tr_selp(build_ctx *c)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 4) || !ONLY_MODS(c))
      return false;
   ptx_type t = c->in->types[0];
   if (t == PTX_T_PRED || ptx_type_bits[t] < 16)
      return bld_refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s[3] = { bld_src(c, 3, PTX_T_PRED, 1), bld_src(c, 1, t, bits), bld_src(c, 2, t, bits) };
   return bld_alu(c, IR_SELECT, t, bits, s, 3, 0, t);
}

