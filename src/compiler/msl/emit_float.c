/*
 * emit_float.c — floating-point instructions, comparisons and conversions.
 * f32 values are uint bit containers read with mc_f() and written back with
 * mc_u(); f16 and bf16 values are ushort containers and f16x2/bf16x2 uint
 * containers holding two lanes (low half first), computed one lane at a
 * time through the prelude's exact integer conversions (no MSL half or
 * bfloat: the software device's clang 14 has neither).  Every NaN result
 * is NVIDIA's canonical NaN (mc_canon), .ftz flushes subnormal inputs and
 * results, .sat clamps to [0, 1].  Directed rounding (.rz .rm .rp), which
 * MSL lacks, calls the exact helpers of prelude/round.metal.
 */
#include "emit_internal.h"

#include <stdarg.h>
#include <stdio.h>

static bool is_f16(ptx_type t) { return t == PTX_T_F16; }

/* A float operand as an MSL float/half expression, flushed if .ftz. */
static void fin(emitter *e, const ir_instr *i, const ir_def *d)
{
   bool h = is_f16(i->type), ftz = i->flags & IR_F_FTZ;
   strbuf_puts(e->out, h ? "mc_h2f(" : "mc_f(");
   if (ftz)
      strbuf_puts(e->out, h ? "mc_ftz16(" : "mc_ftz(");
   e->nan_blind_use = msl_is_nan_blind(i);   /* its operands' NaN bits are not seen (nan_loose.c) */
   emit_val(e, d);
   e->nan_blind_use = false;
   strbuf_puts(e->out, ftz ? "))" : ")");
}

/* Writes vN = wrap(<float expression>) with .ftz/.sat on the result;
 * the expression is given as a format whose %F are float operands. */
static void fset(emitter *e, const ir_instr *i, const char *fmt, ...)
{
   bool h = is_f16(i->type), ftz = i->flags & IR_F_FTZ, sat = i->flags & IR_F_SAT;
   bool canon = h || !e->nan_loose || !e->nan_loose[i->def.index];   /* W or L: raw (nan_loose.c) */
   va_list ap;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   if (sat)
      strbuf_puts(e->out, h ? "mc_sat16(" : "mc_sat(");
   if (ftz)
      strbuf_puts(e->out, h ? "mc_ftz16(" : "mc_ftz(");
   strbuf_puts(e->out, h ? "mc_canon16(mc_f2h(" : canon ? "mc_canon(mc_u(" : "(mc_u(");
   va_start(ap, fmt);
   for (const char *p = fmt; *p; p++) {
      if (*p == '%' && p[1] == 'F') {
         fin(e, i, va_arg(ap, const ir_def *));
         p++;
      } else if (*p == '%' && p[1] == 's') {
         strbuf_puts(e->out, va_arg(ap, const char *));
         p++;
      } else {
         strbuf_putc(e->out, *p);
      }
   }
   va_end(ap);
   strbuf_puts(e->out, "))");
   if (ftz)
      strbuf_puts(e->out, ")");
   if (sat)
      strbuf_puts(e->out, ")");
   strbuf_puts(e->out, ";\n");
}

static void emit_fbin(emitter *e, const ir_instr *i, const char *op)
{
   fset(e, i, "%F %s %F", S(i, 0), op, S(i, 1));
}

/* ir_instr.sub of a float MIN/MAX: PTX's .NaN and .xorsign.abs (the same
 * values in ir/build_float.c). */
enum { FMINMAX_NAN = 1, FMINMAX_XORSIGN_ABS = 2 };

static const char *tf(bool b) { return b ? "true" : "false"; }

/* The rest of a statement, in emit_fmt_v's format. */
static void emit_fmt(emitter *e, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   emit_fmt_v(e, fmt, ap);
   va_end(ap);
}

static bool is_directed(ir_rnd r) { return r == IR_RND_RZ || r == IR_RND_RM || r == IR_RND_RP; }

static void emit_fminmax(emitter *e, const ir_instr *i, bool is_max)
{
   const char *fl = (i->flags & IR_F_FTZ) ? "mc_ftz" : "";
   emit_set(e, i, "mc_minmax(%s(%V), %s(%V), 0, %s, %s, %s)", fl, S(i, 0), fl, S(i, 1), tf(is_max),
            tf(i->sub & FMINMAX_NAN), tf(i->sub & FMINMAX_XORSIGN_ABS));
}

/* f32 with .rz/.rm/.rp: vN = [sat(][ftz(]fn(a, b.., mode)[)][)]. */
static void emit_f32_rnd(emitter *e, const ir_instr *i, const char *fn)
{
   bool ftz = i->flags & IR_F_FTZ, sat = i->flags & IR_F_SAT;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_printf(e->out, " = %s%s%s(", sat ? "mc_sat(" : "", ftz ? "mc_ftz(" : "", fn);
   for (unsigned k = 0; k < i->nsrcs; k++) {
      strbuf_puts(e->out, ftz ? "mc_ftz(" : "");
      emit_val(e, S(i, k));
      strbuf_puts(e->out, ftz ? "), " : ", ");
   }
   strbuf_printf(e->out, "%d)%s%s;\n", rnd_mode((ir_rnd)i->rnd) | (ftz ? 4 : 0), ftz ? ")" : "", sat ? ")" : "");
}

/* f32 mul/div/fma/rcp.rn.ftz: a result the FPU rounded up to ±2^-126 from
 * below is flushed too (round.metal, MC_FTZ).  Follows the fset of vN. */
static void emit_ftz_edge(emitter *e, const ir_instr *i)
{
   static const struct { ir_op op; const char *fn; } xfns[] = {
      { IR_MUL, "mc_xmul(" }, { IR_DIV, "mc_xdiv(" }, { IR_RCP, "mc_xdiv(0x3f800000u, " }, { IR_FMA, "mc_xfma(" },
   };
   if (!(i->flags & IR_F_FTZ) || (i->flags & (IR_F_APPROX | IR_F_FULL)) || i->type != PTX_T_F32)
      return;
   for (size_t k = 0; k < ARRAY_SIZE(xfns); k++) {
      if (xfns[k].op != i->op)
         continue;
      emit_indent(e);
      strbuf_puts(e->out, "if ((");
      emit_val(e, &i->def);
      strbuf_printf(e->out, " & 0x7fffffffu) == 0x00800000u && mc_tiny(%s", xfns[k].fn);
      for (unsigned n = 0; n < i->nsrcs; n++) {
         strbuf_puts(e->out, n ? ", mc_ftz(" : "mc_ftz(");
         emit_val(e, S(i, n));
         strbuf_puts(e->out, ")");
      }
      strbuf_puts(e->out, i->op == IR_FMA ? ", 0))) " : "))) ");
      emit_val(e, &i->def);
      strbuf_puts(e->out, " &= 0x80000000u;\n");
   }
}

/* ---- 16-bit lanes: f16, bf16, and each half of f16x2, bf16x2 ---- */

static bool is_bf(ptx_type t) { return t == PTX_T_BF16 || t == PTX_T_BF16X2; }
static bool is_packed(ptx_type t) { return t == PTX_T_F16X2 || t == PTX_T_BF16X2; }

/* Operand k of one lane: sel is "" for a scalar, mc_lo16 or mc_hi16. */
static void lane_opnd(emitter *e, const ir_instr *i, unsigned k, const char *sel)
{
   bool ftz = i->flags & IR_F_FTZ;   /* f16 only: the builder refuses .ftz on bf16 */
   strbuf_puts(e->out, ftz ? "mc_ftz16(" : "");
   strbuf_printf(e->out, "%s%s", sel, *sel ? "(" : "");
   emit_val(e, S(i, k));
   strbuf_printf(e->out, "%s%s", *sel ? ")" : "", ftz ? ")" : "");
}

/* The ushort result of i on one lane.  Arithmetic results take .ftz and
 * .sat; f16 sums and products are exact in float and rounded once
 * (float has more than twice f16's precision), fma and every bf16 result
 * go through round.metal's exact rounding. */
static void emit_lane(emitter *e, const ir_instr *i, const char *sel)
{
   bool bf = is_bf(i->type), arith = i->op != IR_MIN && i->op != IR_MAX && i->op != IR_ABS && i->op != IR_NEG;
   bool ftz = arith && (i->flags & IR_F_FTZ), sat = arith && (i->flags & IR_F_SAT);
   const char *fmt;
   char buf[96];
   switch (i->op) {
   case IR_ADD: fmt = bf ? "mc_add_bf16(%0, %1)" : "mc_canon16(mc_f2h(mc_h2f(%0) + mc_h2f(%1)))"; break;
   case IR_SUB: fmt = bf ? "mc_sub_bf16(%0, %1)" : "mc_canon16(mc_f2h(mc_h2f(%0) - mc_h2f(%1)))"; break;
   case IR_MUL: fmt = bf ? "mc_mul_bf16(%0, %1)" : "mc_canon16(mc_f2h(mc_h2f(%0) * mc_h2f(%1)))"; break;
   case IR_FMA: fmt = bf ? "mc_fma_bf16(%0, %1, %2)" : "mc_fma_f16(%0, %1, %2)"; break;
   case IR_ABS: fmt = bf ? "mc_abs_bf16(%0)" : "mc_abs_f16(%0)"; break;
   case IR_NEG: fmt = bf ? "mc_neg_bf16(%0)" : "mc_neg_f16(%0)"; break;
   case IR_MIN: case IR_MAX:
      snprintf(buf, sizeof(buf), "(ushort)mc_minmax(%%0, %%1, %d, %s, %s, %s)", bf ? 2 : 1, tf(i->op == IR_MAX),
               tf(i->sub & FMINMAX_NAN), tf(i->sub & FMINMAX_XORSIGN_ABS));
      fmt = buf;
      break;
   default:
      ir_die(e->f, "emit_lane: IR op %s on 16-bit float lanes", ir_op_infos[i->op].name);
   }
   strbuf_printf(e->out, "%s%s", sat ? "mc_sat16(" : "", ftz ? "mc_ftz16(" : "");
   for (const char *p = fmt; *p; p++) {
      if (*p == '%' && p[1] >= '0' && p[1] <= '2')
         lane_opnd(e, i, (unsigned)(*++p - '0'), sel);
      else
         strbuf_putc(e->out, *p);
   }
   strbuf_printf(e->out, "%s%s", ftz ? ")" : "", sat ? ")" : "");
}

static void emit_lanes(emitter *e, const ir_instr *i)
{
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   if (!is_packed(i->type)) {
      emit_lane(e, i, "");
   } else {
      strbuf_puts(e->out, "mc_pack16(");
      emit_lane(e, i, "mc_lo16");
      strbuf_puts(e->out, ", ");
      emit_lane(e, i, "mc_hi16");
      strbuf_puts(e->out, ")");
   }
   strbuf_puts(e->out, ";\n");
}

/* ---- integers ---- */

static void emit_setp(emitter *e, const ir_instr *i)
{
   static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
   ptx_type t = i->type;
   ir_cmp c = (ir_cmp)i->sub;
   const ir_def *a = S(i, 0), *b = S(i, 1);
   if (!ptx_type_is_float(t)) {
      unsigned n = ptx_type_bits[t];
      if (is_signed(t) && c >= IR_CMP_LT && c <= IR_CMP_GE)
         emit_set(e, i, "(as_type<%S>(%V) %s as_type<%S>(%V))", n, a, ops[c], n, b);
      else
         emit_set(e, i, "(%V %s %V)", a, ops[c], b);
      return;
   }
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   /* fa/fb are printed through fin() so .ftz applies. */
#define FA fin(e, i, a)
#define FB fin(e, i, b)
#define P(s) strbuf_puts(e->out, s)
   switch (c) {
   case IR_CMP_EQ: case IR_CMP_LT: case IR_CMP_LE: case IR_CMP_GT: case IR_CMP_GE:
      P("("); FA; P(" "); P(ops[c]); P(" "); FB; P(")");
      break;
   case IR_CMP_NE:
      P("("); FA; P(" != "); FB; P(" && !isnan("); FA; P(") && !isnan("); FB; P("))");
      break;
   case IR_CMP_EQU:
      P("("); FA; P(" == "); FB; P(" || isnan("); FA; P(") || isnan("); FB; P("))");
      break;
   case IR_CMP_NEU: P("("); FA; P(" != "); FB; P(")"); break;
   case IR_CMP_LTU: P("!("); FA; P(" >= "); FB; P(")"); break;
   case IR_CMP_LEU: P("!("); FA; P(" > "); FB; P(")"); break;
   case IR_CMP_GTU: P("!("); FA; P(" <= "); FB; P(")"); break;
   case IR_CMP_GEU: P("!("); FA; P(" < "); FB; P(")"); break;
   case IR_CMP_NUM: P("(!isnan("); FA; P(") && !isnan("); FB; P("))"); break;
   case IR_CMP_NAN: P("(isnan("); FA; P(") || isnan("); FB; P("))"); break;
   }
#undef FA
#undef FB
#undef P
   strbuf_puts(e->out, ";\n");
}

/* ---- conversions ---- */

static void emit_cvt_int_int(emitter *e, const ir_instr *i)
{
   ptx_type dt = i->type, st = i->type2;
   unsigned D = B(i), Sb = S(i, 0)->bits, dn = ptx_type_bits[dt];
   const ir_def *a = S(i, 0);
   if (!(i->flags & IR_F_SAT)) {
      if (D > Sb && is_signed(st))
         emit_set(e, i, "(%T)(%S)as_type<%S>(%V)", D, D, Sb, a);
      else
         emit_set(e, i, "(%T)%V", D, a);
      return;
   }
   /* .sat: clamp the source value (by its signedness) into the destination
    * type's range. */
   int64_t lo = is_signed(dt) ? -(int64_t)(1ull << (dn - 1)) : 0;
   uint64_t hi = is_signed(dt) ? (1ull << (dn - 1)) - 1 : dn == 64 ? ~0ull : (1ull << dn) - 1;
   if (is_signed(st)) {
      if (hi > (uint64_t)INT64_MAX)   /* signed → u64: only the lower bound */
         emit_set(e, i, "(%T)(as_type<%S>(%V) < 0 ? 0ul : as_type<ulong>((long)as_type<%S>(%V)))", D, Sb, a, Sb, a);
      else {
         emit_indent(e);
         emit_val(e, &i->def);
         strbuf_printf(e->out, " = (%s)as_type<ulong>(mc_clamp_s((long)as_type<%s>(", msl_utype((uint8_t)D),
                       msl_stype((uint8_t)Sb));
         emit_val(e, a);
         strbuf_printf(e->out, "), %lldl, %lldl));\n", (long long)lo, (long long)hi);
      }
   } else {
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_printf(e->out, " = (%s)mc_clamp_u((ulong)", msl_utype((uint8_t)D));
      emit_val(e, a);
      strbuf_printf(e->out, ", 0x%llxul);\n", (unsigned long long)hi);
   }
}

static void emit_cvt_float_int(emitter *e, const ir_instr *i)
{
   ptx_type dt = i->type, st = i->type2;
   unsigned dn = ptx_type_bits[dt];
   int mode = rnd_mode((ir_rnd)i->rnd);
   bool ftz = (i->flags & IR_F_FTZ) && st == PTX_T_F32;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   const char *fn;
   if (dn == 32)
      fn = is_signed(dt) ? "mc_f2s32" : "mc_f2u32";
   else if (dn == 64)
      fn = is_signed(dt) ? "mc_f2s64" : "mc_f2u64";
   else
      fn = is_signed(dt) ? "mc_f2s_small" : "mc_f2u_small";
   strbuf_printf(e->out, "(%s)%s(mc_round_int(", msl_utype(i->def.bits), fn);
   if (st == PTX_T_F16 || st == PTX_T_BF16) {
      strbuf_puts(e->out, st == PTX_T_F16 ? "mc_h2f(" : "mc_f(mc_bf2u(");
      emit_val(e, S(i, 0));
      strbuf_puts(e->out, st == PTX_T_F16 ? ")" : "))");
   } else {
      strbuf_puts(e->out, ftz ? "mc_f(mc_ftz(" : "mc_f(");
      emit_val(e, S(i, 0));
      strbuf_puts(e->out, ftz ? "))" : ")");
   }
   strbuf_printf(e->out, ", %d)", mode);
   if (dn < 32 && is_signed(dt))
      strbuf_printf(e->out, ", %d, %d", -(1 << (dn - 1)), (1 << (dn - 1)) - 1);
   else if (dn < 32)
      strbuf_printf(e->out, ", %uu", (1u << dn) - 1);
   strbuf_puts(e->out, ");\n");
}

static const char *sat_fn(ptx_type t)
{
   return t == PTX_T_F16 ? "mc_sat16(" : t == PTX_T_BF16 ? "mc_sat_bf16(" : "mc_sat(";
}

static int fmt_of(ptx_type t) { return t == PTX_T_F16 ? 1 : t == PTX_T_BF16 ? 2 : 0; }

static void emit_cvt_int_float(emitter *e, const ir_instr *i)
{
   ptx_type dt = i->type, st = i->type2;
   unsigned Sb = S(i, 0)->bits;
   bool sat = i->flags & IR_F_SAT;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   if (is_directed((ir_rnd)i->rnd) || dt == PTX_T_BF16) {
      /* exact integer rounding (round.metal): no float conversion's double rounding */
      strbuf_printf(e->out, "%s(%s)", sat ? sat_fn(dt) : "", msl_utype(i->def.bits));
      if (is_signed(st))
         strbuf_printf(e->out, "mc_cvt_s64((long)as_type<%s>(", msl_stype((uint8_t)Sb));
      else
         strbuf_puts(e->out, "mc_cvt_u64((ulong)(");
      emit_val(e, S(i, 0));
      strbuf_printf(e->out, "), %d, %d)%s;\n", rnd_mode((ir_rnd)i->rnd), fmt_of(dt), sat ? ")" : "");
      return;
   }
   const char *wrap = dt == PTX_T_F16 ? (sat ? "mc_sat16(mc_f2h(" : "mc_f2h(")
                                      : (sat ? "mc_sat(mc_u(" : "mc_u(");   /* integers are never NaN */
   strbuf_puts(e->out, wrap);
   if (is_signed(st))
      strbuf_printf(e->out, "(float)as_type<%s>(", msl_stype((uint8_t)Sb));
   else
      strbuf_puts(e->out, "(float)(");
   emit_val(e, S(i, 0));
   strbuf_puts(e->out, sat ? ")))" : "))");
   strbuf_puts(e->out, ";\n");
}

static void emit_cvt_float_float(emitter *e, const ir_instr *i)
{
   ptx_type dt = i->type, st = i->type2;
   bool ftz = i->flags & IR_F_FTZ, sat = i->flags & IR_F_SAT;
   ir_rnd r = (ir_rnd)i->rnd;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   if (st == PTX_T_BF16) {   /* → f32: exact; an H200 keeps NaN payloads, except with .ftz */
      emit_fmt(e, "%s%s(mc_bf2u(%V))%s%s;\n", sat ? "mc_sat(" : "", ftz ? "mc_canon(mc_ftz" : "", S(i, 0),
               ftz ? ")" : "", sat ? ")" : "");
      return;
   }
   if (st == PTX_T_F32 && (dt == PTX_T_BF16 || is_directed(r))) {   /* f32 → f16/bf16 in any mode */
      emit_fmt(e, "%s%s(%s(%V), %u)%s;\n", sat ? sat_fn(dt) : "", dt == PTX_T_BF16 ? "mc_f2bf_rnd" : "mc_f2h_rnd",
               ftz ? "mc_ftz" : "", S(i, 0), (unsigned)rnd_mode(r), sat ? ")" : "");
      return;
   }
   unsigned close = 0;
   if (sat) {
      strbuf_puts(e->out, dt == PTX_T_F16 ? "mc_sat16(" : "mc_sat(");
      close++;
   }
   if (ftz && dt == PTX_T_F32) {
      strbuf_puts(e->out, "mc_ftz(");
      close++;
   }
   strbuf_puts(e->out, dt == PTX_T_F16 ? "mc_canon16(mc_f2h(" : "mc_canon(mc_u(");
   close += 2;
   if (r >= IR_RND_RNI) {
      strbuf_puts(e->out, "mc_round_int(");
   }
   if (st == PTX_T_F16) {
      strbuf_puts(e->out, "mc_h2f(");
      emit_val(e, S(i, 0));
      strbuf_puts(e->out, ")");
   } else {
      strbuf_puts(e->out, ftz ? "mc_f(mc_ftz(" : "mc_f(");
      emit_val(e, S(i, 0));
      strbuf_puts(e->out, ftz ? "))" : ")");
   }
   if (r >= IR_RND_RNI)
      strbuf_printf(e->out, ", %d)", rnd_mode(r));
   while (close--)
      strbuf_putc(e->out, ')');
   strbuf_puts(e->out, ";\n");
}

static void emit_cvt(emitter *e, const ir_instr *i)
{
   bool df = ptx_type_is_float(i->type), sf = ptx_type_is_float(i->type2);
   if (!df && !sf)
      emit_cvt_int_int(e, i);
   else if (sf && !df)
      emit_cvt_float_int(e, i);
   else if (!sf && df)
      emit_cvt_int_float(e, i);
   else
      emit_cvt_float_float(e, i);
}

/* ---- memory ---- */

static void emit_float_unary(emitter *e, const ir_instr *i)
{
   /* sin/cos/lg2/ex2/rcp/rsqrt.approx.f32: the H200's SFU bit for bit
    * (prelude/sfu.metal), .ftz included (it changes subnormal inputs and
    * results only, and nothing for sin/cos) */
   bool ftz = i->flags & IR_F_FTZ;
   if (i->op == IR_RCP && (i->flags & IR_F_APPROX)) {
      emit_set(e, i, "mc_rcp_approx(%V, %s)", S(i, 0), ftz ? "true" : "false");
      return;
   }
   switch (i->op) {
   case IR_RSQRT: emit_set(e, i, "mc_rsqrt_approx(%V, %s)", S(i, 0), ftz ? "true" : "false"); return;
   case IR_SIN: emit_set(e, i, "mc_sin_approx(%V)", S(i, 0)); return;
   case IR_COS: emit_set(e, i, "mc_cos_approx(%V)", S(i, 0)); return;
   case IR_LG2: emit_set(e, i, "mc_lg2_approx(%V, %s)", S(i, 0), ftz ? "true" : "false"); return;
   case IR_EX2: emit_set(e, i, "mc_ex2_approx(%V, %s)", S(i, 0), ftz ? "true" : "false"); return;
   default: break;
   }
   static const struct { ir_op op; const char *fmt; } map[] = {
      { IR_RCP, "1.0f / %F" }, { IR_SQRT, "precise::sqrt(%F)" },
      { IR_TANH, "tanh(%F)" },
   };
   for (size_t k = 0; k < ARRAY_SIZE(map); k++)
      if (map[k].op == i->op) {
         fset(e, i, map[k].fmt, S(i, 0));
         return;
      }
}

static bool is_fp8(ptx_type t) { return t == PTX_T_E4M3 || t == PTX_T_E5M2; }

bool emit_float_op(emitter *e, ir_instr *i)
{
   if (i->op == IR_SETP) {
      emit_setp(e, i);
      return true;
   }
   if (i->op == IR_CVT && (is_fp8(i->type) || is_fp8(i->type2))) {   /* build_float.c cvt_fp8 */
      const char *relu = i->flags & IR_F_RELU ? "true" : "false";
      if (is_fp8(i->type))
         emit_set(e, i, i->type2 == PTX_T_F16 ? "(uchar)mc_f2f8(as_type<uint>(mc_h2f(%V)), %s, %s, %s)"
                                               : "(uchar)mc_f2f8(%V, %s, %s, %s)",
                  S(i, 0), i->type == PTX_T_E4M3 ? "true" : "false", i->flags & IR_F_SAT ? "true" : "false", relu);
      else
         emit_set(e, i, "mc_f82h(%V, %s, %s)", S(i, 0), i->type2 == PTX_T_E4M3 ? "true" : "false", relu);
      return true;
   }
   if (i->op == IR_CVT) {
      emit_cvt(e, i);
      return true;
   }
   if (!ptx_type_is_float(i->type))
      return false;
   if (is_lane16(i->type)) {   /* add sub mul fma min max abs neg: the builder allows no other */
      emit_lanes(e, i);
      return true;
   }
   if (is_directed((ir_rnd)i->rnd)) {   /* f32 .rz/.rm/.rp (the builder allows no other type) */
      static const struct { ir_op op; const char *fn; } rnd_fns[] = {
         { IR_ADD, "mc_add_rnd" }, { IR_SUB, "mc_sub_rnd" }, { IR_MUL, "mc_mul_rnd" }, { IR_DIV, "mc_div_rnd" },
         { IR_FMA, "mc_fma_rnd" }, { IR_RCP, "mc_rcp_rnd" }, { IR_SQRT, "mc_sqrt_rnd" },
      };
      for (size_t k = 0; k < ARRAY_SIZE(rnd_fns); k++)
         if (rnd_fns[k].op == i->op) {
            emit_f32_rnd(e, i, rnd_fns[k].fn);
            return true;
         }
   }
   switch (i->op) {
   case IR_ADD: emit_fbin(e, i, "+"); return true;
   case IR_SUB: emit_fbin(e, i, "-"); return true;
   case IR_MUL: emit_fbin(e, i, "*"); emit_ftz_edge(e, i); return true;
   case IR_DIV: fset(e, i, "%F / %F", S(i, 0), S(i, 1)); emit_ftz_edge(e, i); return true;
   case IR_FMA: fset(e, i, "fma(%F, %F, %F)", S(i, 0), S(i, 1), S(i, 2)); emit_ftz_edge(e, i); return true;
   case IR_ABS: emit_set(e, i, "mc_abs_f32(%s(%V))", (i->flags & IR_F_FTZ) ? "mc_ftz" : "", S(i, 0)); return true;
   case IR_NEG: emit_set(e, i, "mc_neg_f32(%s(%V))", (i->flags & IR_F_FTZ) ? "mc_ftz" : "", S(i, 0)); return true;
   case IR_MIN: emit_fminmax(e, i, false); return true;
   case IR_MAX: emit_fminmax(e, i, true); return true;
   case IR_RCP: case IR_SQRT: case IR_RSQRT: case IR_SIN: case IR_COS: case IR_LG2: case IR_EX2: case IR_TANH:
      emit_float_unary(e, i);
      emit_ftz_edge(e, i);
      return true;
   case IR_COPYSIGN:
      emit_set(e, i, "((%V & 0x7fffffffu) | (%V & 0x80000000u))", S(i, 1), S(i, 0));
      return true;
   default:
      return false;
   }
}
