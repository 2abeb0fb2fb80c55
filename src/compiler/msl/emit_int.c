/*
 * emit_int.c — integer instructions.  Arithmetic is done in unsigned types
 * (wrapping), narrow types are widened explicitly first (integer promotion
 * would make ushort*ushort a signed int multiply that can overflow), and
 * shifts by the width or more are spelled out.
 */
#include "emit_internal.h"

static void emit_iadd_sub(emitter *e, const ir_instr *i, const char *op)
{
   if (i->flags & IR_F_SAT)
      emit_set(e, i, "%s(%V, %V)", *op == '+' ? "mc_add_sat_s32" : "mc_sub_sat_s32", S(i, 0), S(i, 1));
   else
      emit_set(e, i, "(%T)((%W)%V %s (%W)%V)", B(i), B(i), S(i, 0), op, B(i), S(i, 1));
}

/* The high half / full product of a*b for integer type t of n bits. */
static void mul_expr(emitter *e, const ir_instr *i, ir_mulmode mode)
{
   ptx_type t = i->type;
   unsigned n = ptx_type_bits[t];
   const ir_def *a = S(i, 0), *b = S(i, 1);
   bool s = is_signed(t);
   switch (mode) {
   case IR_MUL_LO:
      strbuf_printf(e->out, "(%s)((%s)", msl_utype((uint8_t)n), n > 32 ? "ulong" : "uint");
      emit_val(e, a);
      strbuf_printf(e->out, " * (%s)", n > 32 ? "ulong" : "uint");
      emit_val(e, b);
      strbuf_puts(e->out, ")");
      return;
   case IR_MUL_HI:
      if (n == 64) {
         strbuf_puts(e->out, s ? "mc_mulhi_s64(" : "mc_mulhi_u64(");
         emit_val(e, a);
         strbuf_puts(e->out, ", ");
         emit_val(e, b);
         strbuf_puts(e->out, ")");
         return;
      }
      /* the high half of the wide product */
      __attribute__((fallthrough));
   case IR_MUL_WIDE: {
      const char *wide = n == 16 ? "uint" : "ulong", *swide = n == 16 ? "int" : "long";
      const char *st = msl_stype((uint8_t)n);
      if (mode == IR_MUL_HI)
         strbuf_printf(e->out, "(%s)(", msl_utype((uint8_t)n));
      if (s) {
         strbuf_printf(e->out, "as_type<%s>((%s)as_type<%s>(", wide, swide, st);
         emit_val(e, a);
         strbuf_printf(e->out, ") * (%s)as_type<%s>(", swide, st);
         emit_val(e, b);
         strbuf_puts(e->out, "))");
      } else {
         strbuf_printf(e->out, "((%s)", wide);
         emit_val(e, a);
         strbuf_printf(e->out, " * (%s)", wide);
         emit_val(e, b);
         strbuf_puts(e->out, ")");
      }
      if (mode == IR_MUL_HI)
         strbuf_printf(e->out, " >> %u)", n);
      return;
   }
   }
}

static void emit_imul(emitter *e, const ir_instr *i, bool mad)
{
   ir_mulmode mode = (ir_mulmode)i->sub;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   if (!mad) {
      mul_expr(e, i, mode);
   } else if (i->flags & IR_F_SAT) {
      strbuf_puts(e->out, "mc_add_sat_s32(");
      mul_expr(e, i, mode);
      strbuf_puts(e->out, ", ");
      emit_val(e, S(i, 2));
      strbuf_puts(e->out, ")");
   } else {
      strbuf_printf(e->out, "(%s)((%s)", msl_utype(i->def.bits), i->def.bits > 32 ? "ulong" : "uint");
      mul_expr(e, i, mode);
      strbuf_printf(e->out, " + (%s)", i->def.bits > 32 ? "ulong" : "uint");
      emit_val(e, S(i, 2));
      strbuf_puts(e->out, ")");
   }
   strbuf_puts(e->out, ";\n");
}

static void emit_mul24(emitter *e, const ir_instr *i, bool mad)
{
   const char *fn = i->sub == IR_MUL_HI ? "mc_mul24_hi" : "mc_mul24_lo";
   const char *s = is_signed(i->type) ? "true" : "false";
   if (!mad)
      emit_set(e, i, "%s(%V, %V, %s)", fn, S(i, 0), S(i, 1), s);
   else if (i->flags & IR_F_SAT)
      emit_set(e, i, "mc_add_sat_s32(%s(%V, %V, %s), %V)", fn, S(i, 0), S(i, 1), s, S(i, 2));
   else
      emit_set(e, i, "%s(%V, %V, %s) + %V", fn, S(i, 0), S(i, 1), s, S(i, 2));
}

static void emit_minmax_int(emitter *e, const ir_instr *i, bool is_min)
{
   const char *op = is_min ? "<" : ">";
   if (is_signed(i->type))
      emit_set(e, i, "(as_type<%S>(%V) %s as_type<%S>(%V) ? %V : %V)", B(i), S(i, 0), op, B(i), S(i, 1), S(i, 0),
          S(i, 1));
   else
      emit_set(e, i, "(%V %s %V ? %V : %V)", S(i, 0), op, S(i, 1), S(i, 0), S(i, 1));
}

static void emit_shift(emitter *e, const ir_instr *i, bool left)
{
   unsigned n = B(i);
   if (left)
      emit_set(e, i, "(%V >= %uu ? (%T)0 : (%T)((%W)%V << %V))", S(i, 1), n, n, n, n, S(i, 0), S(i, 1));
   else if (is_signed(i->type))
      emit_set(e, i, "(%T)(as_type<%S>(%V) >> min(%V, %uu))", n, n, S(i, 0), S(i, 1), n - 1);
   else
      emit_set(e, i, "(%V >= %uu ? (%T)0 : (%T)(%V >> %V))", S(i, 1), n, n, n, S(i, 0), S(i, 1));
}

static void emit_logic(emitter *e, const ir_instr *i, const char *int_op, const char *pred_op)
{
   if (B(i) == 1)
      emit_set(e, i, "(%V %s %V)", S(i, 0), pred_op, S(i, 1));
   else
      emit_set(e, i, "(%T)(%V %s %V)", B(i), S(i, 0), int_op, S(i, 1));
}

/* ---- comparisons ---- */

static void emit_int_divrem(emitter *e, const ir_instr *i, bool div)
{
   emit_set(e, i, "mc_%s_%s%u(%V, %V)", div ? "div" : "rem", is_signed(i->type) ? "s" : "u", B(i), S(i, 0), S(i, 1));
}

bool emit_int_op(emitter *e, ir_instr *i)
{
   if (ptx_type_is_float(i->type) && i->op != IR_SLCT)   /* slct.f32 selects bits */
      return false;
   unsigned n = B(i);
   switch (i->op) {
   case IR_ADD: emit_iadd_sub(e, i, "+"); return true;
   case IR_SUB: emit_iadd_sub(e, i, "-"); return true;
   case IR_MUL: emit_imul(e, i, false); return true;
   case IR_MAD: emit_imul(e, i, true); return true;
   case IR_MUL24: emit_mul24(e, i, false); return true;
   case IR_MAD24: emit_mul24(e, i, true); return true;
   case IR_SAD:
      if (is_signed(i->type))
         emit_set(e, i, "(%T)((as_type<%S>(%V) > as_type<%S>(%V) ? (%W)%V - (%W)%V : (%W)%V - (%W)%V) + (%W)%V)",
                  n, n, S(i, 0), n, S(i, 1), n, S(i, 0), n, S(i, 1), n, S(i, 1), n, S(i, 0), n, S(i, 2));
      else
         emit_set(e, i, "(%T)((%V > %V ? (%W)%V - (%W)%V : (%W)%V - (%W)%V) + (%W)%V)", n, S(i, 0), S(i, 1), n,
                  S(i, 0), n, S(i, 1), n, S(i, 1), n, S(i, 0), n, S(i, 2));
      return true;
   case IR_DIV: emit_int_divrem(e, i, true); return true;
   case IR_REM: emit_int_divrem(e, i, false); return true;
   case IR_ABS:
      emit_set(e, i, "(as_type<%S>(%V) < 0 ? (%T)((%W)0 - (%W)%V) : %V)", n, S(i, 0), n, n, n, S(i, 0), S(i, 0));
      return true;
   case IR_NEG: emit_set(e, i, "(%T)((%W)0 - (%W)%V)", n, n, n, S(i, 0)); return true;
   case IR_MIN: emit_minmax_int(e, i, true); return true;
   case IR_MAX: emit_minmax_int(e, i, false); return true;
   case IR_AND: emit_logic(e, i, "&", "&&"); return true;
   case IR_OR: emit_logic(e, i, "|", "||"); return true;
   case IR_XOR: emit_logic(e, i, "^", "!="); return true;
   case IR_NOT:
      if (n == 1)
         emit_set(e, i, "!%V", S(i, 0));
      else
         emit_set(e, i, "(%T)~(%W)%V", n, n, S(i, 0));
      return true;
   case IR_CNOT: emit_set(e, i, "(%V == 0 ? (%T)1 : (%T)0)", S(i, 0), n, n); return true;
   case IR_SHL: emit_shift(e, i, true); return true;
   case IR_SHR: emit_shift(e, i, false); return true;
   case IR_POPC: emit_set(e, i, "(uint)popcount(%V)", S(i, 0)); return true;
   case IR_CLZ: emit_set(e, i, "(uint)clz(%V)", S(i, 0)); return true;
   case IR_BREV: emit_set(e, i, "reverse_bits(%V)", S(i, 0)); return true;
   case IR_BFE:
      emit_set(e, i, "mc_bfe_%s%u(%V, %V, %V)", is_signed(i->type) ? "s" : "u", n, S(i, 0), S(i, 1), S(i, 2));
      return true;
   case IR_BFI: emit_set(e, i, "mc_bfi_b%u(%V, %V, %V, %V)", n, S(i, 0), S(i, 1), S(i, 2), S(i, 3)); return true;
   case IR_BFIND:
      emit_set(e, i, "mc_bfind_%s%u(%V, %s)", is_signed(i->type) ? "s" : "u", ptx_type_bits[i->type], S(i, 0),
               i->sub ? "true" : "false");
      return true;
   case IR_PRMT: emit_set(e, i, "mc_prmt(%V, %V, %V, %u)", S(i, 0), S(i, 1), S(i, 2), (unsigned)i->sub); return true;
   case IR_SHF:
      emit_set(e, i, "mc_shf(%V, %V, %V, %s, %s)", S(i, 0), S(i, 1), S(i, 2), (i->sub & IR_SHF_LEFT) ? "true" : "false",
               (i->sub & IR_SHF_CLAMP) ? "true" : "false");
      return true;
   case IR_DP4A: emit_set(e, i, "mc_dp4a(%V, %V, %V, %uu)", S(i, 0), S(i, 1), S(i, 2), (unsigned)i->sub); return true;
   case IR_DP2A: emit_set(e, i, "mc_dp2a(%V, %V, %V, %uu)", S(i, 0), S(i, 1), S(i, 2), (unsigned)i->sub); return true;
   case IR_SLCT:
      if (i->type2 == PTX_T_F32)   /* NaN compares false: b */
         emit_set(e, i, "(mc_f(%s(%V)) >= 0.0f ? %V : %V)", (i->flags & IR_F_FTZ) ? "mc_ftz" : "", S(i, 2), S(i, 0),
                  S(i, 1));
      else
         emit_set(e, i, "(as_type<int>(%V) >= 0 ? %V : %V)", S(i, 2), S(i, 0), S(i, 1));
      return true;
   case IR_VIDEO:
      emit_set(e, i, "%s(%V, %V, %V, %uu, %x)", (i->sub & IR_VOP_SCALAR) ? "mc_vscalar" : "mc_vsimd", S(i, 0), S(i, 1),
               S(i, 2), (unsigned)i->sub, (unsigned)i->imm);
      return true;
   case IR_LOP3: emit_set(e, i, "mc_lop3(%V, %V, %V, %uu)", S(i, 0), S(i, 1), S(i, 2), (unsigned)i->imm); return true;
   case IR_BMSK: emit_set(e, i, "mc_bmsk(%V, %V, %s)", S(i, 0), S(i, 1), i->sub ? "true" : "false"); return true;
   case IR_SZEXT:
      emit_set(e, i, "mc_szext(%V, %V, %s, %s)", S(i, 0), S(i, 1), i->sub ? "true" : "false",
               is_signed(i->type) ? "true" : "false");
      return true;
   case IR_FNS: emit_set(e, i, "mc_fns(%V, %V, as_type<int>(%V))", S(i, 0), S(i, 1), S(i, 2)); return true;
   case IR_CVT_PACK:
      if (i->nsrcs > 2)
         emit_set(e, i, "mc_cvt_pack(as_type<int>(%V), as_type<int>(%V), %V, %uu, %s)", S(i, 0), S(i, 1), S(i, 2),
                  (unsigned)i->sub, is_signed(i->type) ? "true" : "false");
      else
         emit_set(e, i, "mc_cvt_pack(as_type<int>(%V), as_type<int>(%V), 0u, %uu, %s)", S(i, 0), S(i, 1),
                  (unsigned)i->sub, is_signed(i->type) ? "true" : "false");
      return true;
   default:
      return false;
   }
}
