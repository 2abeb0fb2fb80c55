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

/* One comparison a cmp b of type t (IR_SETP). */
static ir_def *compare(build_ctx *c, ptx_type t, ir_cmp cmp, ir_def *a, ir_def *b)
{
   ir_def *p = bld_op2(c, IR_SETP, t, a, b);
   if (p) {
      p->parent->sub = (uint8_t)cmp;
      p->parent->flags = bld_flags(c);
   }
   return p;
}

/* Half k (0: bits 0-15) of a 32-bit f16x2 value, as a 16-bit f16. */
static ir_def *half_of(build_ctx *c, ir_def *v, unsigned k)
{
   if (v && k)
      v = bld_op2(c, IR_SHR, PTX_T_U32, v, bld_const(c, 32, 16));
   return v ? bld_resize(c, v, 16, false) : NULL;
}

/* A bf16 as the f32 of the same value (its bits are f32's top half), so
 * that bf16 comparisons are exactly f32 ones (sm_90 setp/set .bf16). */
static ir_def *bf16_as_f32(build_ctx *c, ir_def *h)
{
   return bld_op2(c, IR_SHL, PTX_T_B32, bld_resize(c, h, 32, false), bld_const(c, 32, 16));
}

/* setp/set on .f16x2 or .bf16x2: the comparison of each half, r[0] of the
 * lower halves (PTX ISA 9.0 §9.7.4.8: fA[0] = a[0:15]). */
static bool compare_halves(build_ctx *c, ir_cmp cmp, ir_def *a, ir_def *b, ir_def *r[2], bool bf16)
{
   for (unsigned k = 0; k < 2; k++) {
      ir_def *ha = half_of(c, a, k), *hb = half_of(c, b, k);
      r[k] = bf16 ? compare(c, PTX_T_F32, cmp, bf16_as_f32(c, ha), bf16_as_f32(c, hb))
                  : compare(c, PTX_T_F16, cmp, ha, hb);
      if (!r[k])
         return false;
   }
   return true;
}

static bool is_16x2(ptx_type t) { return t == PTX_T_F16X2 || t == PTX_T_BF16X2; }
static bool float_ok(ptx_type t)
{
   return !ptx_type_is_float(t) || t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_BF16;
}

static bool cmp_mods_ok(build_ctx *c)
{
   ptx_type t = c->in->types[c->in->ntypes - 1];   /* the compared type */
   for (unsigned k = 0; k < c->in->nmods; k++) {
      ptx_mod m = c->in->mods[k];
      if (m == PTX_MOD_FTZ && ptx_type_is_float(t) && t != PTX_T_F64)   /* f64 never flushes */
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
   if (!float_ok(t) && !is_16x2(t))
      return bld_refuse(c);
   ir_cmp cmp;
   if (!cmp_of(c, t, &cmp))
      return false;
   unsigned ndst = in->has_pair_dst ? 2 : 1;
   if (is_16x2(t) && ndst != 2)
      return ir_error(c->m, c->line, "%s needs a predicate pair p|q", bld_spelled(c));
   ir_op bop = boolop_of(c);
   unsigned nexp = ndst + 2 + (bop != IR_OP_COUNT);
   if (!bld_need_opnds(c, nexp))
      return false;
   uint8_t bits = bld_type_bits(t);
   ir_def *a = bld_src(c, ndst, t, bits), *b = bld_src(c, ndst + 1, t, bits);
   ir_def *pc = bop != IR_OP_COUNT ? bld_src(c, ndst + 2, PTX_T_PRED, 1) : NULL;
   if (!a || !b || (bop != IR_OP_COUNT && !pc))
      return false;
   if (is_16x2(t)) {   /* p: the lower halves, q: the upper */
      ir_def *r[2];
      if (!compare_halves(c, cmp, a, b, r, t == PTX_T_BF16X2))
         return false;
      for (unsigned k = 0; k < 2; k++) {
         ir_def *p = bop != IR_OP_COUNT ? pred_op(c, bop, r[k], pc) : r[k];
         if (!bld_write(c, in->opnds[k], p, PTX_T_PRED))
            return false;
      }
      return true;
   }
   ir_def *r = t == PTX_T_BF16 ? compare(c, PTX_T_F32, cmp, bf16_as_f32(c, a), bf16_as_f32(c, b))
                               : compare(c, t, cmp, a, b);
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

/* set.cmp[.bop].dtype.stype d, a, b[, {!}c]: d = all ones, or 1.0 for a
 * float dtype, if true.  dtype: u16 s16 u32 s32 f32 f16; with an .f16x2
 * source one result per half (dtype f16x2: 1.0 per half; u32/s32: 0xffff). */
bool bld_tr_set(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_need_types(c, 2) || !cmp_mods_ok(c))
      return false;
   ptx_type dt = in->types[0], st = in->types[1];
   bool pair = is_16x2(st), bf = st == PTX_T_BF16 || st == PTX_T_BF16X2;
   bool dt_ok = pair ? (dt == st || dt == PTX_T_U32 || dt == PTX_T_S32)
                     : (dt == PTX_T_U32 || dt == PTX_T_S32 || dt == PTX_T_U16 || dt == PTX_T_S16 ||
                        (dt == PTX_T_F16 && !bf) || (dt == PTX_T_BF16 && st == PTX_T_BF16) ||
                        (dt == PTX_T_F32 && st != PTX_T_F16 && !bf));   /* as ptxas */
   if (!dt_ok || (!float_ok(st) && !pair))
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
   ir_def *d;
   if (pair) {
      ir_def *r[2], *h[2];
      if (!compare_halves(c, cmp, a, b, r, bf))
         return false;
      uint32_t one = dt == PTX_T_F16X2 ? 0x3c00u : dt == PTX_T_BF16X2 ? 0x3f80u : 0xffffu;
      for (unsigned k = 0; k < 2; k++) {
         ir_def *p = bop != IR_OP_COUNT ? pred_op(c, bop, r[k], pc) : r[k];
         h[k] = bld_select_const(c, p, 32, one << 16 * k);
      }
      d = bld_op2(c, IR_OR, PTX_T_B32, h[0], h[1]);
   } else {
      ir_def *r = bf ? compare(c, PTX_T_F32, cmp, bf16_as_f32(c, a), bf16_as_f32(c, b)) : compare(c, st, cmp, a, b);
      ir_def *p = bop != IR_OP_COUNT ? pred_op(c, bop, r, pc) : r;
      uint8_t db = bld_type_bits(dt);
      d = bld_select_const(c, p, db, dt == PTX_T_F32 ? 0x3f800000u : dt == PTX_T_F16 ? 0x3c00u
                                     : dt == PTX_T_BF16 ? 0x3f80u : ~0ull);
   }
   return d && bld_write(c, in->opnds[0], d, dt);
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

