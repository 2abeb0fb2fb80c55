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
void emit_fmt_v(emitter *e, const char *fmt, va_list ap)
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
void emit_set(emitter *e, const ir_instr *i, const char *fmt, ...)
{
   va_list ap;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   va_start(ap, fmt);
   emit_fmt_v(e, fmt, ap);
   va_end(ap);
   strbuf_puts(e->out, ";\n");
}

void emit_stmt(emitter *e, const char *fmt, ...)
{
   va_list ap;
   emit_indent(e);
   va_start(ap, fmt);
   emit_fmt_v(e, fmt, ap);
   va_end(ap);
   strbuf_putc(e->out, '\n');
}

void emit_instr(emitter *e, ir_instr *i)
{
   if (i->op == IR_CONST || i->op == IR_UNDEF || i->op == IR_PHI)
      return;   /* constants are printed inline; phis are edge copies */
   if (e->rec && i->op == IR_SYMADDR && i->space == IR_SPACE_LOCAL) {
      emit_rec_symaddr(e, i);   /* in the recursion stack's frame on top */
      return;
   }
   /* Atomics first: their type (f16, f64 ...) would send them to the
    * arithmetic emitters. */
   const ir_instr *outer = e->cur;
   e->cur = i;   /* i's own def is written raw (emit_val_comp) */
   bool done = emit_atom_op(e, i) || emit_mem_op(e, i) || emit_int_op(e, i) || emit_f64_op(e, i) ||
               emit_float_op(e, i) || emit_warp_op(e, i) || emit_call_op(e, i) || emit_tex_op(e, i);
   e->cur = outer;
   if (!done)
      ir_error(e->f->module, i->line, "the MSL emitter has no translation for IR op %s", ir_op_infos[i->op].name);
}
