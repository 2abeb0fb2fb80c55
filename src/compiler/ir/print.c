/*
 * print.c — textual IR, for METALCUDA_DUMP, ir_die and unit tests.
 *
 *   block_3 (label $L__BB0_2) preds 1 2:
 *     %7:32 = add.s32 %5, %6
 *     %8:1 = setp.lt.s32 %7, %2
 *     cbr %8 -> block_4, block_5
 */
#include "ir.h"

static void print_def(strbuf *out, const ir_def *d)
{
   if (d)
      strbuf_printf(out, "%%%u", d->index);
   else
      strbuf_puts(out, "%null");
}

static const char *const cmp_names[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
                                         "ltu", "leu", "gtu", "geu", "num", "nan" };
static const char *const rnd_names[] = { "", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi" };

static void print_instr(strbuf *out, const ir_instr *i)
{
   strbuf_puts(out, "  ");
   if (i->def.bits) {
      print_def(out, &i->def);
      strbuf_printf(out, ":%u%s%s = ", i->def.bits, i->def.ncomp > 1 ? "x" : "",
                    i->def.ncomp > 1 ? (const char *[]){ "", "", "2", "3", "4" }[i->def.ncomp] : "");
   }
   if (i->guard.def) {
      strbuf_puts(out, (i->flags & IR_F_GUARD_NEG) ? "@!" : "@");
      print_def(out, i->guard.def);
      strbuf_putc(out, ' ');
   }
   strbuf_puts(out, ir_op_infos[i->op].name);
   if (i->op == IR_SETP || i->op == IR_SET)
      strbuf_printf(out, ".%s", cmp_names[i->sub]);
   if ((i->op == IR_MUL || i->op == IR_MAD || i->op == IR_MUL24 || i->op == IR_MAD24) &&
       ptx_type_is_int(i->type))
      strbuf_puts(out, (const char *[]){ ".lo", ".hi", ".wide" }[i->sub]);
   if (i->rnd)
      strbuf_printf(out, ".%s", rnd_names[i->rnd]);
   if (i->flags & IR_F_FTZ)
      strbuf_puts(out, ".ftz");
   if (i->flags & IR_F_SAT)
      strbuf_puts(out, ".sat");
   if (i->flags & IR_F_APPROX)
      strbuf_puts(out, ".approx");
   if (i->flags & IR_F_LOCKED)
      strbuf_puts(out, ".locked");
   if (i->op == IR_LOAD || i->op == IR_STORE || i->op == IR_SYMADDR || i->op == IR_CVTA)
      strbuf_printf(out, ".%s%s", i->op == IR_CVTA && i->sub ? "to." : "", ir_space_names[i->space]);
   if (i->type != PTX_T_NONE)
      strbuf_printf(out, ".%s", ptx_type_names[i->type]);
   if (i->type2 != PTX_T_NONE)
      strbuf_printf(out, ".%s", ptx_type_names[i->type2]);
   switch (i->op) {
   case IR_CONST: strbuf_printf(out, " %#llx", (unsigned long long)i->imm); break;
   case IR_PARAM: strbuf_printf(out, " [param+%llu]", (unsigned long long)i->imm); break;
   case IR_SREG: strbuf_printf(out, " %%%s", ir_sreg_names[i->sub]); break;
   case IR_ARG: strbuf_printf(out, " a%llu", (unsigned long long)i->imm); break;
   case IR_CALL:
      for (uint32_t t = 0; t < ir_call_ntargets(i); t++)
         strbuf_printf(out, "%s%s", t ? "|" : " ", ir_call_target(i, t));
      break;
   case IR_EXTRACT: strbuf_printf(out, " .%llu", (unsigned long long)i->imm); break;
   case IR_VIDEO: strbuf_printf(out, " op %u ctl %#llx", (unsigned)i->sub, (unsigned long long)i->imm); break;
   case IR_SYMADDR:
      strbuf_printf(out, " %s%s+%llu", i->sym, i->sub ? "(dynamic)" : "", (unsigned long long)i->imm);
      break;
   default: break;
   }
   for (uint32_t k = 0; k < i->nsrcs; k++) {
      strbuf_puts(out, k ? ", " : " ");
      print_def(out, i->srcs[k].def);
      if (i->op == IR_PHI && i->srcs[k].pred)
         strbuf_printf(out, "(block_%u)", i->srcs[k].pred->index);
   }
   if (i->old.def) {
      strbuf_puts(out, " old ");
      print_def(out, i->old.def);
   }
   if (i->op == IR_BR || i->op == IR_CBR) {
      strbuf_puts(out, " ->");
      for (uint32_t k = 0; k < i->block->succs.len; k++)
         strbuf_printf(out, "%s block_%u", k ? "," : "", i->block->succs.data[k]->index);
   }
   strbuf_putc(out, '\n');
}

void ir_print_func(strbuf *out, const ir_func *f)
{
   strbuf_printf(out, "%s %s (params %u bytes, shared %u%s, local %u)\n",
                 f->is_kernel ? "kernel" : "func", f->name, f->param_bytes, f->shared_static_bytes,
                 f->uses_dynamic_shared ? " + dynamic" : "", f->local_bytes);
   ir_foreach_block(b, f) {
      strbuf_printf(out, "block_%u", b->index);
      if (b->label)
         strbuf_printf(out, " (%s)", b->label);
      if (b->preds.len) {
         strbuf_puts(out, " preds");
         ir_foreach_pred(p, b)
            strbuf_printf(out, " %u", (*p)->index);
      }
      strbuf_puts(out, ":\n");
      ir_foreach_instr(i, b)
         print_instr(out, i);
   }
}

void ir_print_module(strbuf *out, const ir_module *m)
{
   for (uint32_t k = 0; k < m->globals.len; k++) {
      const ir_global *g = &m->globals.data[k];
      strbuf_printf(out, "global %s %s offset %llu size %llu align %u\n", ir_space_names[g->space],
                    g->name, (unsigned long long)g->offset, (unsigned long long)g->size, g->align);
   }
   ir_foreach_func(f, m)
      ir_print_func(out, f);
}

static void print_cf(strbuf *out, const ir_cf *n, int depth)
{
   for (; n; n = n->next) {
      if (n->kind != IR_CF_SEQ)
         strbuf_printf(out, "%*s", depth * 2, "");
      switch (n->kind) {
      case IR_CF_SEQ: print_cf(out, n->first, depth); break;
      case IR_CF_CODE: strbuf_printf(out, "code block_%u\n", n->block->index); break;
      case IR_CF_LOOP:
      case IR_CF_BLOCK:
         strbuf_printf(out, "%s#%u {\n", n->kind == IR_CF_LOOP ? "loop" : "block", n->id);
         print_cf(out, n->first, depth + 1);
         strbuf_printf(out, "%*s}\n", depth * 2, "");
         break;
      case IR_CF_IF:
         strbuf_printf(out, "if %%%u {\n", n->cond.def ? n->cond.def->index : 0);
         print_cf(out, n->then_cf, depth + 1);
         strbuf_printf(out, "%*s} else {\n", depth * 2, "");
         print_cf(out, n->else_cf, depth + 1);
         strbuf_printf(out, "%*s}\n", depth * 2, "");
         break;
      case IR_CF_EDGE:
         strbuf_printf(out, "edge block_%u -> block_%u\n", n->from->index, n->to->index);
         break;
      case IR_CF_BREAK: strbuf_printf(out, "break #%u\n", n->target->id); break;
      case IR_CF_CONTINUE: strbuf_printf(out, "continue #%u\n", n->target->id); break;
      case IR_CF_RETURN: strbuf_puts(out, "return\n"); break;
      case IR_CF_TRAP: strbuf_puts(out, "trap\n"); break;
      }
   }
}

void ir_print_cf(strbuf *out, const ir_func *f) { print_cf(out, f->cf, 0); }
