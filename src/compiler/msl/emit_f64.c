/*
 * emit_f64.c — 64-bit floating point: arithmetic, comparisons and every
 * conversion with .f64 on either side.  An f64 value is a ulong holding
 * its bits, and each instruction is a call into prelude/f64.metal, which
 * computes the IEEE 754 result on integers (Metal has no double).  The
 * rounding mode travels as the prelude's mode number; an instruction
 * without one rounds to nearest, as PTX defines.
 */
#include "emit_internal.h"

static bool is_f64(ptx_type t) { return t == PTX_T_F64; }

/* ---- arithmetic ---- */

static bool emit_f64_arith(emitter *e, const ir_instr *i)
{
   static const struct { ir_op op; const char *fn; } rounded[] = {
      { IR_ADD, "mc_d_add" }, { IR_SUB, "mc_d_sub" }, { IR_MUL, "mc_d_mul" }, { IR_DIV, "mc_d_div" },
      { IR_FMA, "mc_d_fma" }, { IR_SQRT, "mc_d_sqrt" },
   };
   int m = rnd_mode((ir_rnd)i->rnd);
   for (size_t k = 0; k < ARRAY_SIZE(rounded); k++) {
      if (rounded[k].op != i->op)
         continue;
      if (i->nsrcs == 3)
         emit_set(e, i, "%s(%V, %V, %V, %u)", rounded[k].fn, S(i, 0), S(i, 1), S(i, 2), (unsigned)m);
      else if (i->nsrcs == 2)
         emit_set(e, i, "%s(%V, %V, %u)", rounded[k].fn, S(i, 0), S(i, 1), (unsigned)m);
      else
         emit_set(e, i, "%s(%V, %u)", rounded[k].fn, S(i, 0), (unsigned)m);
      return true;
   }
   switch (i->op) {
   case IR_RCP:
      if (i->flags & IR_F_APPROX)
         emit_set(e, i, "mc_d_rcp_approx_ftz(%V)", S(i, 0));
      else
         emit_set(e, i, "mc_d_rcp(%V, %u)", S(i, 0), (unsigned)m);
      return true;
   case IR_RSQRT:
      emit_set(e, i, "%s(%V)", (i->flags & IR_F_FTZ) ? "mc_d_rsqrt_approx_ftz" : "mc_d_rsqrt_approx", S(i, 0));
      return true;
   case IR_ABS:   /* a NaN is quieted and keeps its sign, as on an H200 */
      emit_set(e, i, "(mc_d_isnan(%V) ? mc_d_quiet(%V) : %V & 0x7ffffffffffffffful)", S(i, 0), S(i, 0), S(i, 0));
      return true;
   case IR_NEG:
      emit_set(e, i, "(mc_d_isnan(%V) ? mc_d_quiet(%V) : %V ^ 0x8000000000000000ul)", S(i, 0), S(i, 0), S(i, 0));
      return true;
   case IR_MIN: case IR_MAX:
      emit_set(e, i, "mc_d_minmax(%V, %V, %s)", S(i, 0), S(i, 1), i->op == IR_MAX ? "true" : "false");
      return true;
   case IR_COPYSIGN:   /* copysign d, a, b: |b| with a's sign */
      emit_set(e, i, "((%V & 0x7ffffffffffffffful) | (%V & 0x8000000000000000ul))", S(i, 1), S(i, 0));
      return true;
   default:
      return false;
   }
}

/* ---- setp: ordered comparisons from the prelude, unordered ones as
 * their negations ---- */

static void emit_f64_setp(emitter *e, const ir_instr *i)
{
   static const struct { const char *fmt; } forms[] = {
      [IR_CMP_EQ] = { "mc_d_cmp(%V, %V, 0)" },        [IR_CMP_LT] = { "mc_d_cmp(%V, %V, 1)" },
      [IR_CMP_LE] = { "mc_d_cmp(%V, %V, 2)" },        [IR_CMP_GT] = { "mc_d_cmp(%2, %1, 1)" },
      [IR_CMP_GE] = { "mc_d_cmp(%2, %1, 2)" },        [IR_CMP_NE] = { "(mc_d_cmp(%V, %V, 1) || mc_d_cmp(%2, %1, 1))" },
      [IR_CMP_EQU] = { "!(mc_d_cmp(%V, %V, 1) || mc_d_cmp(%2, %1, 1))" },
      [IR_CMP_NEU] = { "!mc_d_cmp(%V, %V, 0)" },      [IR_CMP_LTU] = { "!mc_d_cmp(%2, %1, 2)" },
      [IR_CMP_LEU] = { "!mc_d_cmp(%2, %1, 1)" },      [IR_CMP_GTU] = { "!mc_d_cmp(%V, %V, 2)" },
      [IR_CMP_GEU] = { "!mc_d_cmp(%V, %V, 1)" },
      [IR_CMP_NUM] = { "!(mc_d_isnan(%V) || mc_d_isnan(%V))" },
      [IR_CMP_NAN] = { "(mc_d_isnan(%V) || mc_d_isnan(%V))" },
   };
   ir_cmp c = (ir_cmp)i->sub;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   /* %V takes the operands in order a, b; %1/%2 name them explicitly. */
   unsigned next = 0;
   for (const char *p = forms[c].fmt; *p; p++) {
      if (*p == '%' && p[1] == 'V') {
         emit_val(e, S(i, next++ & 1));
         p++;
      } else if (*p == '%' && (p[1] == '1' || p[1] == '2')) {
         emit_val(e, S(i, (unsigned)(p[1] - '1')));
         p++;
      } else {
         strbuf_putc(e->out, *p);
      }
   }
   strbuf_puts(e->out, ";\n");
}

/* ---- conversions ---- */

/* .sat on an f64 result: NaN → +0, then clamp to [0, 1]. */
static const char *sat_open(const ir_instr *i) { return (i->flags & IR_F_SAT) ? "mc_d_sat(" : "("; }

static void emit_f64_cvt(emitter *e, const ir_instr *i)
{
   ptx_type dt = i->type, st = i->type2;
   unsigned m = (unsigned)rnd_mode((ir_rnd)i->rnd);
   bool ftz = i->flags & IR_F_FTZ, sat = i->flags & IR_F_SAT;
   const ir_def *a = S(i, 0);
   if (is_f64(dt) && is_f64(st)) {
      if ((ir_rnd)i->rnd == IR_RND_NONE)   /* cvt.sat.f64.f64 */
         emit_set(e, i, "%s%V)", sat_open(i), a);
      else
         emit_set(e, i, "%smc_d_rint(%V, %u))", sat_open(i), a, m);
   } else if (is_f64(dt) && ptx_type_is_int(st)) {
      unsigned sb = a->bits;
      if (is_signed(st))
         emit_set(e, i, "%smc_d_from_sint((long)as_type<%S>(%V), %u))", sat_open(i), sb, a, m);
      else
         emit_set(e, i, "%smc_d_from_int((ulong)%V, false, %u, 0))", sat_open(i), a, m);
   } else if (is_f64(dt)) {   /* from f32 or f16: exact */
      if (st == PTX_T_F32)
         emit_set(e, i, "%smc_d_widen(%s(%V), 1))", sat_open(i), ftz ? "mc_ftz" : "", a);
      else
         emit_set(e, i, "%smc_d_widen((uint)%V, 2))", sat_open(i), a);
   } else if (ptx_type_is_int(dt)) {
      unsigned n = ptx_type_bits[dt];
      emit_set(e, i, "(%T)%s(%V, %u, %u)", B(i), is_signed(dt) ? "mc_d_to_sint" : "mc_d_to_uint", a, m, n);
   } else {   /* to f32 or f16, rounded */
      bool h = dt == PTX_T_F16;
      emit_set(e, i, "%s%s(%T)mc_d_narrow(%V, %u, %u)%s%s", sat ? (h ? "mc_sat16(" : "mc_sat(") : "",
               ftz ? "mc_ftz(" : "", B(i), a, m, h ? 2u : 1u, ftz ? ")" : "", sat ? ")" : "");
   }
}

bool emit_f64_op(emitter *e, ir_instr *i)
{
   if (i->op == IR_CVT) {
      if (!is_f64(i->type) && !is_f64(i->type2))
         return false;
      emit_f64_cvt(e, i);
      return true;
   }
   if (!is_f64(i->type))
      return false;
   if (i->op == IR_SETP) {
      emit_f64_setp(e, i);
      return true;
   }
   return emit_f64_arith(e, i);
}
