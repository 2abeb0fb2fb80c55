/*
 * emit_instr.c — one MSL statement per IR instruction.
 *
 * Values are bit containers (uchar/ushort/uint/ulong, bool for predicates);
 * each operation reinterprets them as its PTX type says.  C++ undefined
 * behaviour is never relied on: integer arithmetic is done in unsigned
 * types (wrapping), narrow types are widened explicitly before arithmetic
 * (integer promotion would otherwise make ushort*ushort a signed int
 * multiply that can overflow), shifts by the width or more are spelled out,
 * and divisions and float→int conversions go through prelude helpers that
 * define the PTX results.
 */
#include "emit_internal.h"

#include <stdarg.h>
#include <string.h>

/* A tiny formatter: %V value (ir_def *), %s string, %u unsigned, %T/%S the
 * unsigned/signed type of a bit size (unsigned), %W the wide unsigned type
 * used for arithmetic of a bit size (uint up to 32 bits, ulong above). */
static void fmt_v(emitter *e, const char *fmt, va_list ap)
{
   for (const char *p = fmt; *p; p++) {
      if (*p != '%') {
         strbuf_putc(e->out, *p);
         continue;
      }
      switch (*++p) {
      case 'V': emit_val(e, va_arg(ap, const ir_def *)); break;
      case 's': strbuf_puts(e->out, va_arg(ap, const char *)); break;
      case 'u': strbuf_printf(e->out, "%u", va_arg(ap, unsigned)); break;
      case 'x': strbuf_printf(e->out, "0x%xu", va_arg(ap, unsigned)); break;
      case 'T': strbuf_puts(e->out, msl_utype((uint8_t)va_arg(ap, unsigned))); break;
      case 'S': strbuf_puts(e->out, msl_stype((uint8_t)va_arg(ap, unsigned))); break;
      case 'W': strbuf_puts(e->out, va_arg(ap, unsigned) > 32 ? "ulong" : "uint"); break;
      case '%': strbuf_putc(e->out, '%'); break;
      default: mc_die("emit: bad format %%%c", *p);
      }
   }
}

/* "vN = <expr>;" */
static void set(emitter *e, const ir_instr *i, const char *fmt, ...)
{
   va_list ap;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   va_start(ap, fmt);
   fmt_v(e, fmt, ap);
   va_end(ap);
   strbuf_puts(e->out, ";\n");
}

static void stmt(emitter *e, const char *fmt, ...)
{
   va_list ap;
   emit_indent(e);
   va_start(ap, fmt);
   fmt_v(e, fmt, ap);
   va_end(ap);
   strbuf_putc(e->out, '\n');
}

static const ir_def *S(const ir_instr *i, unsigned k) { return i->srcs[k].def; }
static bool is_signed(ptx_type t) { return ptx_type_is_signed(t); }
static unsigned B(const ir_instr *i) { return i->def.bits; }

/* ---- floats ---- */

static bool is_f16(ptx_type t) { return t == PTX_T_F16; }

/* A float operand as an MSL float/half expression, flushed if .ftz. */
static void fin(emitter *e, const ir_instr *i, const ir_def *d)
{
   bool h = is_f16(i->type), ftz = i->flags & IR_F_FTZ;
   strbuf_puts(e->out, h ? "mc_h2f(" : "mc_f(");
   if (ftz)
      strbuf_puts(e->out, h ? "mc_ftz16(" : "mc_ftz(");
   emit_val(e, d);
   strbuf_puts(e->out, ftz ? "))" : ")");
}

/* Writes vN = wrap(<float expression>) with .ftz/.sat on the result;
 * the expression is given as a format whose %F are float operands. */
static void fset(emitter *e, const ir_instr *i, const char *fmt, ...)
{
   bool h = is_f16(i->type), ftz = i->flags & IR_F_FTZ, sat = i->flags & IR_F_SAT;
   va_list ap;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   if (sat)
      strbuf_puts(e->out, h ? "mc_sat16(" : "mc_sat(");
   if (ftz)
      strbuf_puts(e->out, h ? "mc_ftz16(" : "mc_ftz(");
   strbuf_puts(e->out, h ? "mc_canon16(mc_f2h(" : "mc_canon(mc_u(");
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

static void emit_fminmax(emitter *e, const ir_instr *i, bool is_min)
{
   bool h = is_f16(i->type), ftz = i->flags & IR_F_FTZ;
   const char *fn = h ? (is_min ? "mc_min_f16" : "mc_max_f16") : (is_min ? "mc_min_f32" : "mc_max_f32");
   const char *fl = h ? "mc_ftz16" : "mc_ftz";
   if (ftz)
      set(e, i, "%s(%s(%V), %s(%V))", fn, fl, S(i, 0), fl, S(i, 1));
   else
      set(e, i, "%s(%V, %V)", fn, S(i, 0), S(i, 1));
}

/* ---- integers ---- */

static void emit_iadd_sub(emitter *e, const ir_instr *i, const char *op)
{
   if (i->flags & IR_F_SAT)
      set(e, i, "%s(%V, %V)", *op == '+' ? "mc_add_sat_s32" : "mc_sub_sat_s32", S(i, 0), S(i, 1));
   else
      set(e, i, "(%T)((%W)%V %s (%W)%V)", B(i), B(i), S(i, 0), op, B(i), S(i, 1));
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
      set(e, i, "%s(%V, %V, %s)", fn, S(i, 0), S(i, 1), s);
   else if (i->flags & IR_F_SAT)
      set(e, i, "mc_add_sat_s32(%s(%V, %V, %s), %V)", fn, S(i, 0), S(i, 1), s, S(i, 2));
   else
      set(e, i, "%s(%V, %V, %s) + %V", fn, S(i, 0), S(i, 1), s, S(i, 2));
}

static void emit_divrem(emitter *e, const ir_instr *i, bool div)
{
   if (ptx_type_is_float(i->type)) {
      fset(e, i, "%F / %F", S(i, 0), S(i, 1));
      return;
   }
   set(e, i, "mc_%s_%s%u(%V, %V)", div ? "div" : "rem", is_signed(i->type) ? "s" : "u", B(i), S(i, 0),
       S(i, 1));
}

static void emit_minmax_int(emitter *e, const ir_instr *i, bool is_min)
{
   const char *op = is_min ? "<" : ">";
   if (is_signed(i->type))
      set(e, i, "(as_type<%S>(%V) %s as_type<%S>(%V) ? %V : %V)", B(i), S(i, 0), op, B(i), S(i, 1), S(i, 0),
          S(i, 1));
   else
      set(e, i, "(%V %s %V ? %V : %V)", S(i, 0), op, S(i, 1), S(i, 0), S(i, 1));
}

static void emit_shift(emitter *e, const ir_instr *i, bool left)
{
   unsigned n = B(i);
   if (left)
      set(e, i, "(%V >= %uu ? (%T)0 : (%T)((%W)%V << %V))", S(i, 1), n, n, n, n, S(i, 0), S(i, 1));
   else if (is_signed(i->type))
      set(e, i, "(%T)(as_type<%S>(%V) >> min(%V, %uu))", n, n, S(i, 0), S(i, 1), n - 1);
   else
      set(e, i, "(%V >= %uu ? (%T)0 : (%T)(%V >> %V))", S(i, 1), n, n, n, S(i, 0), S(i, 1));
}

static void emit_logic(emitter *e, const ir_instr *i, const char *int_op, const char *pred_op)
{
   if (B(i) == 1)
      set(e, i, "(%V %s %V)", S(i, 0), pred_op, S(i, 1));
   else
      set(e, i, "(%T)(%V %s %V)", B(i), S(i, 0), int_op, S(i, 1));
}

/* ---- comparisons ---- */

static void emit_setp(emitter *e, const ir_instr *i)
{
   static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
   ptx_type t = i->type;
   ir_cmp c = (ir_cmp)i->sub;
   const ir_def *a = S(i, 0), *b = S(i, 1);
   if (!ptx_type_is_float(t)) {
      unsigned n = ptx_type_bits[t];
      if (is_signed(t) && c >= IR_CMP_LT && c <= IR_CMP_GE)
         set(e, i, "(as_type<%S>(%V) %s as_type<%S>(%V))", n, a, ops[c], n, b);
      else
         set(e, i, "(%V %s %V)", a, ops[c], b);
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

static int int_round_mode(ir_rnd r)
{
   switch (r) {
   case IR_RND_RZI: return 1;
   case IR_RND_RMI: return 2;
   case IR_RND_RPI: return 3;
   default: return 0;
   }
}

static void emit_cvt_int_int(emitter *e, const ir_instr *i)
{
   ptx_type dt = i->type, st = i->type2;
   unsigned D = B(i), Sb = S(i, 0)->bits, dn = ptx_type_bits[dt];
   const ir_def *a = S(i, 0);
   if (!(i->flags & IR_F_SAT)) {
      if (D > Sb && is_signed(st))
         set(e, i, "(%T)(%S)as_type<%S>(%V)", D, D, Sb, a);
      else
         set(e, i, "(%T)%V", D, a);
      return;
   }
   /* .sat: clamp the source value (by its signedness) into the destination
    * type's range. */
   int64_t lo = is_signed(dt) ? -(int64_t)(1ull << (dn - 1)) : 0;
   uint64_t hi = is_signed(dt) ? (1ull << (dn - 1)) - 1 : dn == 64 ? ~0ull : (1ull << dn) - 1;
   if (is_signed(st)) {
      if (hi > (uint64_t)INT64_MAX)   /* signed → u64: only the lower bound */
         set(e, i, "(%T)(as_type<%S>(%V) < 0 ? 0ul : as_type<ulong>((long)as_type<%S>(%V)))", D, Sb, a, Sb, a);
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
   int mode = int_round_mode((ir_rnd)i->rnd);
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
   if (st == PTX_T_F16) {
      strbuf_puts(e->out, "mc_h2f(");
      emit_val(e, S(i, 0));
      strbuf_puts(e->out, ")");
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

static void emit_cvt_int_float(emitter *e, const ir_instr *i)
{
   ptx_type dt = i->type, st = i->type2;
   unsigned Sb = S(i, 0)->bits;
   bool sat = i->flags & IR_F_SAT;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
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
      strbuf_printf(e->out, ", %d)", int_round_mode(r));
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

/* The MSL type a memory access of PTX type t uses. */
static const char *mem_type(ptx_type t)
{
   unsigned n = ptx_type_bits[t];
   return is_signed(t) ? msl_stype((uint8_t)n) : msl_utype((uint8_t)n);
}

/* Prints a pointer expression to element k of an access in `space`. */
static void ptr_expr(emitter *e, ir_space space, const char *type, bool vol, const ir_def *addr,
                     uint32_t byte_off)
{
   const char *v = vol ? "volatile " : "";
   switch (space) {
   case IR_SPACE_SHARED:
      strbuf_printf(e->out, "reinterpret_cast<%sthreadgroup %s *>(mc_smem + (uint)", v, type);
      break;
   case IR_SPACE_LOCAL:
      strbuf_printf(e->out, "reinterpret_cast<%sthread %s *>(mc_local + (uint)", v, type);
      break;
   case IR_SPACE_PARAM:
      strbuf_printf(e->out, "reinterpret_cast<constant %s *>(mc_param + (uint)", type);
      break;
   default:
      strbuf_printf(e->out, "reinterpret_cast<%sdevice %s *>(mc_L.delta + (ulong)", v, type);
      break;
   }
   emit_val(e, addr);
   if (byte_off)
      strbuf_printf(e->out, " + %uu", byte_off);
   strbuf_puts(e->out, ")");
}

static bool space_available(const emitter *e, ir_space s)
{
   return s == IR_SPACE_SHARED ? e->uses_shared : s == IR_SPACE_LOCAL ? e->f->local_bytes != 0 : true;
}

/* The generic windows, checked in this order (ARCHITECTURE §3). */
static void window_cond(emitter *e, ir_space s, const ir_def *addr)
{
   strbuf_puts(e->out, "((ulong)");
   emit_val(e, addr);
   strbuf_printf(e->out, " - %s < MC_WINDOW_SIZE)", s == IR_SPACE_SHARED ? "MC_SHARED_WINDOW" : "MC_LOCAL_WINDOW");
}

static void emit_load_one(emitter *e, const ir_instr *i, int comp, uint32_t byte_off)
{
   ptx_type t = i->type;
   unsigned n = ptx_type_bits[t], D = i->def.bits;
   const char *mt = mem_type(t);
   bool vol = i->flags & IR_F_VOLATILE;
   ir_space sp = (ir_space)i->space;
   const ir_def *a = S(i, 0);
   emit_indent(e);
   emit_val_comp(e, &i->def, i->def.ncomp > 1 ? comp : -1);
   strbuf_printf(e->out, " = (%s)", msl_utype((uint8_t)D));
   if (is_signed(t) && D > n)
      strbuf_printf(e->out, "(%s)", msl_stype((uint8_t)D));
   strbuf_puts(e->out, "*");
   ptr_expr(e, sp, mt, vol, a, byte_off);
   strbuf_puts(e->out, ";\n");
}

/* Generic accesses are emitted as if/else statements (the windows need a
 * different pointer type each, which a ?: expression cannot mix). */
static void emit_generic_access(emitter *e, const ir_instr *i, int comp, uint32_t byte_off, bool store)
{
   ptx_type t = i->type;
   unsigned n = ptx_type_bits[t], D = i->def.bits;
   const char *mt = mem_type(t);
   bool vol = i->flags & IR_F_VOLATILE;
   const ir_def *a = S(i, 0);
   static const struct { ir_space s; const char *win; } wins[] = {
      { IR_SPACE_SHARED, "MC_SHARED_WINDOW" }, { IR_SPACE_LOCAL, "MC_LOCAL_WINDOW" },
   };
   bool first = true;
   for (size_t k = 0; k <= ARRAY_SIZE(wins); k++) {
      ir_space s = k < ARRAY_SIZE(wins) ? wins[k].s : IR_SPACE_GLOBAL;
      if (!space_available(e, s))
         continue;
      emit_indent(e);
      if (k < ARRAY_SIZE(wins)) {
         strbuf_puts(e->out, first ? "if (" : "} else if (");
         window_cond(e, s, a);
         strbuf_puts(e->out, ") {\n");
      } else {
         strbuf_puts(e->out, first ? "{\n" : "} else {\n");
      }
      first = false;
      e->indent++;
      emit_indent(e);
      /* inside a window the address becomes window-relative */
      const char *v = vol ? "volatile " : "";
      if (store) {
         strbuf_puts(e->out, "*");
      } else {
         emit_val_comp(e, &i->def, i->def.ncomp > 1 ? comp : -1);
         strbuf_printf(e->out, " = (%s)", msl_utype((uint8_t)D));
         if (is_signed(t) && D > n)
            strbuf_printf(e->out, "(%s)", msl_stype((uint8_t)D));
         strbuf_puts(e->out, "*");
      }
      if (s == IR_SPACE_GLOBAL) {
         ptr_expr(e, s, mt, vol, a, byte_off);
      } else {
         strbuf_printf(e->out, "reinterpret_cast<%s%s %s *>(%s + (uint)((ulong)", v,
                       s == IR_SPACE_SHARED ? "threadgroup" : "thread", mt,
                       s == IR_SPACE_SHARED ? "mc_smem" : "mc_local");
         emit_val(e, a);
         strbuf_printf(e->out, " - %s)", wins[k].win);
         if (byte_off)
            strbuf_printf(e->out, " + %uu", byte_off);
         strbuf_puts(e->out, ")");
      }
      if (store) {
         strbuf_printf(e->out, " = (%s)", mt);
         emit_val(e, S(i, 1 + (comp < 0 ? 0 : (unsigned)comp)));
      }
      strbuf_puts(e->out, ";\n");
      e->indent--;
   }
   emit_line(e, "}");
}

static void emit_load(emitter *e, const ir_instr *i)
{
   uint32_t es = ptx_type_bits[i->type] / 8;
   for (unsigned k = 0; k < i->def.ncomp; k++) {
      int comp = i->def.ncomp > 1 ? (int)k : -1;
      if (i->space == IR_SPACE_GENERIC)
         emit_generic_access(e, i, comp, k * es, false);
      else
         emit_load_one(e, i, comp, k * es);
   }
}

static void emit_store(emitter *e, const ir_instr *i)
{
   uint32_t es = ptx_type_bits[i->type] / 8;
   const char *mt = mem_type(i->type);
   for (unsigned k = 0; k + 1 < i->nsrcs; k++) {
      if (i->space == IR_SPACE_GENERIC) {
         emit_generic_access(e, i, (int)k, k * es, true);
         continue;
      }
      emit_indent(e);
      strbuf_puts(e->out, "*");
      ptr_expr(e, (ir_space)i->space, mt, i->flags & IR_F_VOLATILE, S(i, 0), k * es);
      strbuf_printf(e->out, " = (%s)", mt);
      emit_val(e, S(i, 1 + k));
      strbuf_puts(e->out, ";\n");
   }
}

static void emit_param(emitter *e, const ir_instr *i)
{
   ptx_type t = i->type;
   unsigned n = ptx_type_bits[t], D = i->def.bits;
   uint32_t off = (uint32_t)i->imm, esz = n / 8;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_printf(e->out, " = (%s)", msl_utype((uint8_t)D));
   if (is_signed(t) && D > n)
      strbuf_printf(e->out, "(%s)", msl_stype((uint8_t)D));
   if (off % esz == 0) {
      strbuf_printf(e->out, "*reinterpret_cast<constant %s *>(mc_param + %uu);\n", mem_type(t), off);
      return;
   }
   /* Unaligned parameter read: assemble from bytes (little-endian). */
   strbuf_printf(e->out, "as_type<%s>((%s)(", mem_type(t), msl_utype((uint8_t)n));
   for (uint32_t k = 0; k < esz; k++)
      strbuf_printf(e->out, "%s((%s)mc_param[%uu] << %uu)", k ? " | " : "", n > 32 ? "ulong" : "uint",
                    off + k, 8 * k);
   strbuf_puts(e->out, "));\n");
}

static void emit_sreg(emitter *e, const ir_instr *i)
{
   static const char *const names[] = {
      "mc_tid.x", "mc_tid.y", "mc_tid.z", "mc_ntid.x", "mc_ntid.y", "mc_ntid.z",
      "mc_ctaid.x", "mc_ctaid.y", "mc_ctaid.z", "mc_nctaid.x", "mc_nctaid.y", "mc_nctaid.z",
      "(mc_linear & 31u)", "(mc_linear >> 5)",
      "((mc_ntid.x * mc_ntid.y * mc_ntid.z + 31u) >> 5)", "32u",
   };
   set(e, i, "%s", names[i->sub]);
}

static void emit_symaddr(emitter *e, const ir_instr *i)
{
   switch (i->space) {
   case IR_SPACE_GLOBAL:
   case IR_SPACE_CONST:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_printf(e->out, " = mc_L.globals + 0x%llxul;\n", (unsigned long long)i->imm);
      break;
   case IR_SPACE_SHARED:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_printf(e->out, " = 0x%llxul;\n",
                    (unsigned long long)(i->imm + (i->sub ? e->dyn_shared_base : 0)));
      break;
   case IR_SPACE_PARAM:   /* an offset in the parameter blob */
   default:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_printf(e->out, " = 0x%llxul;\n", (unsigned long long)i->imm);
      break;
   }
}

static void emit_cvta(emitter *e, const ir_instr *i)
{
   const char *win = i->space == IR_SPACE_SHARED ? "MC_SHARED_WINDOW"
                   : i->space == IR_SPACE_LOCAL ? "MC_LOCAL_WINDOW" : NULL;
   if (!win)
      set(e, i, "%V", S(i, 0));
   else
      set(e, i, "(%T)((ulong)%V %s %s)", B(i), S(i, 0), i->sub ? "-" : "+", win);
}

static void emit_copy(emitter *e, const ir_instr *i)
{
   for (unsigned k = 0; k < i->def.ncomp; k++) {
      int c = i->def.ncomp > 1 ? (int)k : -1;
      emit_indent(e);
      emit_val_comp(e, &i->def, c);
      strbuf_puts(e->out, " = ");
      if (i->op == IR_SELECT) {
         emit_val(e, S(i, 0));
         strbuf_puts(e->out, " ? ");
         emit_val_comp(e, S(i, 1), c);
         strbuf_puts(e->out, " : ");
         emit_val_comp(e, S(i, 2), c);
      } else {
         emit_val_comp(e, S(i, 0), c);
      }
      strbuf_puts(e->out, ";\n");
   }
}

static void emit_float_unary(emitter *e, const ir_instr *i)
{
   static const struct { ir_op op; const char *fmt; } map[] = {
      { IR_RCP, "1.0f / %F" }, { IR_SQRT, "precise::sqrt(%F)" }, { IR_RSQRT, "rsqrt(%F)" },
      { IR_SIN, "sin(%F)" }, { IR_COS, "cos(%F)" }, { IR_LG2, "log2(%F)" }, { IR_EX2, "exp2(%F)" },
      { IR_TANH, "tanh(%F)" },
   };
   for (size_t k = 0; k < ARRAY_SIZE(map); k++)
      if (map[k].op == i->op) {
         fset(e, i, map[k].fmt, S(i, 0));
         return;
      }
}

void emit_instr(emitter *e, ir_instr *i)
{
   bool fl = ptx_type_is_float(i->type);
   unsigned n = B(i);
   switch (i->op) {
   case IR_CONST: case IR_UNDEF: case IR_PHI:
      break;
   case IR_PARAM: emit_param(e, i); break;
   case IR_SREG: emit_sreg(e, i); break;
   case IR_SYMADDR: emit_symaddr(e, i); break;
   case IR_COPY: case IR_SELECT: emit_copy(e, i); break;
   case IR_VEC:
      for (unsigned k = 0; k < i->nsrcs; k++) {
         emit_indent(e);
         emit_val_comp(e, &i->def, (int)k);
         strbuf_puts(e->out, " = ");
         emit_val(e, S(i, k));
         strbuf_puts(e->out, ";\n");
      }
      break;
   case IR_EXTRACT:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_puts(e->out, " = ");
      emit_val_comp(e, S(i, 0), (int)i->imm);
      strbuf_puts(e->out, ";\n");
      break;
   case IR_ADD: if (fl) emit_fbin(e, i, "+"); else emit_iadd_sub(e, i, "+"); break;
   case IR_SUB: if (fl) emit_fbin(e, i, "-"); else emit_iadd_sub(e, i, "-"); break;
   case IR_MUL: if (fl) emit_fbin(e, i, "*"); else emit_imul(e, i, false); break;
   case IR_MAD: emit_imul(e, i, true); break;
   case IR_FMA: fset(e, i, "fma(%F, %F, %F)", S(i, 0), S(i, 1), S(i, 2)); break;
   case IR_MUL24: emit_mul24(e, i, false); break;
   case IR_MAD24: emit_mul24(e, i, true); break;
   case IR_SAD:
      if (is_signed(i->type))
         set(e, i, "(%T)((as_type<%S>(%V) > as_type<%S>(%V) ? (%W)%V - (%W)%V : (%W)%V - (%W)%V) + (%W)%V)",
             n, n, S(i, 0), n, S(i, 1), n, S(i, 0), n, S(i, 1), n, S(i, 1), n, S(i, 0), n, S(i, 2));
      else
         set(e, i, "(%T)((%V > %V ? (%W)%V - (%W)%V : (%W)%V - (%W)%V) + (%W)%V)", n, S(i, 0), S(i, 1), n,
             S(i, 0), n, S(i, 1), n, S(i, 1), n, S(i, 0), n, S(i, 2));
      break;
   case IR_DIV: emit_divrem(e, i, true); break;
   case IR_REM: emit_divrem(e, i, false); break;
   case IR_ABS:
      if (fl)
         set(e, i, i->type == PTX_T_F16 ? "mc_abs_f16(%s(%V))" : "mc_abs_f32(%s(%V))",
             (i->flags & IR_F_FTZ) ? (i->type == PTX_T_F16 ? "mc_ftz16" : "mc_ftz") : "", S(i, 0));
      else
         set(e, i, "(as_type<%S>(%V) < 0 ? (%T)((%W)0 - (%W)%V) : %V)", n, S(i, 0), n, n, n, S(i, 0), S(i, 0));
      break;
   case IR_NEG:
      if (fl)
         set(e, i, i->type == PTX_T_F16 ? "mc_neg_f16(%s(%V))" : "mc_neg_f32(%s(%V))",
             (i->flags & IR_F_FTZ) ? (i->type == PTX_T_F16 ? "mc_ftz16" : "mc_ftz") : "", S(i, 0));
      else
         set(e, i, "(%T)((%W)0 - (%W)%V)", n, n, n, S(i, 0));
      break;
   case IR_MIN: if (fl) emit_fminmax(e, i, true); else emit_minmax_int(e, i, true); break;
   case IR_MAX: if (fl) emit_fminmax(e, i, false); else emit_minmax_int(e, i, false); break;
   case IR_AND: emit_logic(e, i, "&", "&&"); break;
   case IR_OR: emit_logic(e, i, "|", "||"); break;
   case IR_XOR: emit_logic(e, i, "^", "!="); break;
   case IR_NOT:
      if (n == 1)
         set(e, i, "!%V", S(i, 0));
      else
         set(e, i, "(%T)~(%W)%V", n, n, S(i, 0));
      break;
   case IR_CNOT: set(e, i, "(%V == 0 ? (%T)1 : (%T)0)", S(i, 0), n, n); break;
   case IR_SHL: emit_shift(e, i, true); break;
   case IR_SHR: emit_shift(e, i, false); break;
   case IR_POPC: set(e, i, "(uint)popcount(%V)", S(i, 0)); break;
   case IR_CLZ: set(e, i, "(uint)clz(%V)", S(i, 0)); break;
   case IR_BREV: set(e, i, "reverse_bits(%V)", S(i, 0)); break;
   case IR_BFE:
      set(e, i, "mc_bfe_%s%u(%V, %V, %V)", is_signed(i->type) ? "s" : "u", n, S(i, 0), S(i, 1), S(i, 2));
      break;
   case IR_BFI: set(e, i, "mc_bfi_b%u(%V, %V, %V, %V)", n, S(i, 0), S(i, 1), S(i, 2), S(i, 3)); break;
   case IR_BFIND:
      set(e, i, "mc_bfind_%s%u(%V, %s)", is_signed(i->type) ? "s" : "u", ptx_type_bits[i->type], S(i, 0),
          i->sub ? "true" : "false");
      break;
   case IR_PRMT: set(e, i, "mc_prmt(%V, %V, %V, %u)", S(i, 0), S(i, 1), S(i, 2), (unsigned)i->sub); break;
   case IR_SHF:
      set(e, i, "mc_shf(%V, %V, %V, %s, %s)", S(i, 0), S(i, 1), S(i, 2), (i->sub & IR_SHF_LEFT) ? "true" : "false",
          (i->sub & IR_SHF_CLAMP) ? "true" : "false");
      break;
   case IR_SETP: emit_setp(e, i); break;
   case IR_RCP: case IR_SQRT: case IR_RSQRT: case IR_SIN: case IR_COS: case IR_LG2: case IR_EX2:
   case IR_TANH:
      emit_float_unary(e, i);
      break;
   case IR_COPYSIGN: set(e, i, "((%V & 0x7fffffffu) | (%V & 0x80000000u))", S(i, 1), S(i, 0)); break;
   case IR_CVT: emit_cvt(e, i); break;
   case IR_CVTA: emit_cvta(e, i); break;
   case IR_LOAD: emit_load(e, i); break;
   case IR_STORE: emit_store(e, i); break;
   case IR_BAR: emit_line(e, "threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);"); break;
   case IR_MEMBAR:
      if (i->sub == 0)
         emit_line(e, "atomic_thread_fence(mem_flags::mem_threadgroup | mem_flags::mem_device, "
                      "memory_order_seq_cst, thread_scope_threadgroup);");
      else
         emit_line(e, "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);");
      break;
   default:
      ir_error(e->f->module, i->line, "the MSL emitter has no translation for IR op %s",
               ir_op_infos[i->op].name);
      break;
   }
   (void)stmt;
}
