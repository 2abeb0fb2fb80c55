/*
 * validate.c — checks the IR's invariants after every pass (debug builds).
 *
 * A pile of independent checks; every failure is collected with the
 * instruction or block it concerns, then the function is printed with the
 * errors and the process aborts (a broken invariant is our bug, never the
 * user's input).  Checks:
 *   - list links and block ownership of every instruction;
 *   - sources point at live defs and sit on their use lists, and every use
 *     list entry points back (use-list symmetry);
 *   - source counts and bit sizes against ir_op_infos[] and the op's rules;
 *   - exactly one terminator, last, with the right number of successors;
 *     predecessor/successor symmetry when IR_META_CFG is claimed;
 *   - phis first in their block, one source per predecessor;
 *   - SSA dominance of every use when IR_META_DOM is claimed;
 *   - no guards once ir_lower_predicates has run;
 *   - after the structurizer: every reachable block appears once in the
 *     tree, breaks target enclosing blocks and continues enclosing loops.
 */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NDEBUG

typedef struct vctx {
   ir_func *f;
   strbuf errs;
   uint32_t nerrs;
   const char *pass;
} vctx;

static void verr(vctx *v, const ir_instr *i, const ir_block *b, const char *fmt, ...) MC_PRINTF(4, 5);
static void verr(vctx *v, const ir_instr *i, const ir_block *b, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   if (i)
      strbuf_printf(&v->errs, "  instr #%u (%s, def %%%u) in block_%u: ", i->index,
                    ir_op_infos[i->op].name, i->def.index, i->block ? i->block->index : 9999);
   else if (b)
      strbuf_printf(&v->errs, "  block_%u: ", b->index);
   strbuf_vprintf(&v->errs, fmt, ap);
   strbuf_putc(&v->errs, '\n');
   va_end(ap);
   v->nerrs++;
}

static bool on_use_list(const ir_src *s)
{
   ir_foreach_use(u, s->def)
      if (u == s)
         return true;
   return false;
}

static void check_src(vctx *v, ir_instr *i, ir_src *s, const char *what)
{
   if (!s->def) {
      verr(v, i, NULL, "%s has no value", what);
      return;
   }
   if (!s->def->parent || !s->def->parent->block)
      verr(v, i, NULL, "%s uses %%%u whose instruction was removed", what, s->def->index);
   if (s->parent != i)
      verr(v, i, NULL, "%s has a wrong parent", what);
   if (!on_use_list(s))
      verr(v, i, NULL, "%s is missing from the use list of %%%u", what, s->def->index);
}

static uint8_t sbits(const ir_instr *i, uint32_t k) { return i->srcs[k].def ? i->srcs[k].def->bits : 0; }

static void check_bits(vctx *v, ir_instr *i)
{
   uint8_t d = i->def.bits;
   switch (i->op) {
   case IR_ADD: case IR_SUB: case IR_AND: case IR_OR: case IR_XOR: case IR_MIN: case IR_MAX:
   case IR_DIV: case IR_REM: case IR_COPYSIGN:
      if (sbits(i, 0) != d || sbits(i, 1) != d)
         verr(v, i, NULL, "operand sizes %u, %u do not match result %u", sbits(i, 0), sbits(i, 1), d);
      break;
   case IR_SETP:
      if (d != 1 || sbits(i, 0) != sbits(i, 1))
         verr(v, i, NULL, "setp needs equal operands and a 1-bit result");
      break;
   case IR_SELECT:
      if (sbits(i, 0) != 1 || sbits(i, 1) != d || sbits(i, 2) != d)
         verr(v, i, NULL, "select needs a 1-bit condition and arms of the result size");
      break;
   case IR_SHL: case IR_SHR:
      if (sbits(i, 0) != d || sbits(i, 1) != 32)
         verr(v, i, NULL, "shift needs a value of the result size and a 32-bit amount");
      break;
   case IR_CBR:
      if (sbits(i, 0) != 1)
         verr(v, i, NULL, "branch condition is not 1 bit");
      break;
   case IR_LOAD: case IR_STORE: case IR_CVTA:
      if (sbits(i, 0) != 32 && sbits(i, 0) != 64)
         verr(v, i, NULL, "address must be 32 or 64 bits, is %u", sbits(i, 0));
      break;
   case IR_CVT:
      if (d != (ptx_type_bits[i->type] < 8 ? 8 : ptx_type_bits[i->type]) ||
          sbits(i, 0) != (ptx_type_bits[i->type2] < 8 ? 8 : ptx_type_bits[i->type2]))
         verr(v, i, NULL, "cvt sizes (%u <- %u) do not match .%s.%s", d, sbits(i, 0),
              ptx_type_names[i->type], ptx_type_names[i->type2]);
      break;
   case IR_PHI: case IR_COPY:
      for (uint32_t k = 0; k < i->nsrcs; k++)
         if (sbits(i, k) != d || i->srcs[k].def->ncomp != i->def.ncomp)
            verr(v, i, NULL, "source %u has %u bits, result %u", k, sbits(i, k), d);
      break;
   default:
      break;
   }
}

static uint32_t expected_succs(ir_op op)
{
   switch (op) {
   case IR_BR: return 1;
   case IR_CBR: return 2;
   default: return 0;
   }
}

static void check_block(vctx *v, ir_block *b)
{
   ir_func *f = v->f;
   bool seen_non_phi = false;
   ir_instr *prev = NULL;
   ir_foreach_instr(i, b) {
      if (i->block != b)
         verr(v, i, b, "instruction claims another block");
      if (i->prev != prev)
         verr(v, i, b, "broken prev link");
      prev = i;
      int8_t n = ir_op_infos[i->op].nsrcs;
      if (n >= 0 && (uint32_t)n != i->nsrcs)
         verr(v, i, NULL, "has %u sources, %s takes %d", i->nsrcs, ir_op_infos[i->op].name, n);
      for (uint32_t k = 0; k < i->nsrcs; k++)
         check_src(v, i, &i->srcs[k], "source");
      if (i->guard.def)
         check_src(v, i, &i->guard, "guard");
      if (i->old.def)
         check_src(v, i, &i->old, "old value");
      if (i->guard.def && (f->module->stage & IR_STAGE_NO_GUARDS))
         verr(v, i, NULL, "guard left after ir_lower_predicates");
      if (!ir_op_is(i->op, IR_OP_MAYBE_DEF) && ir_op_is(i->op, IR_OP_HAS_DEF) != (i->def.bits != 0))
         verr(v, i, NULL, "def presence does not match the op");
      ir_foreach_use(u, &i->def)
         if (u->def != &i->def)
            verr(v, i, NULL, "use list entry points elsewhere");
      if (i->op == IR_PHI) {
         if (seen_non_phi)
            verr(v, i, NULL, "phi after a non-phi");
         if (i->nsrcs != b->preds.len)
            verr(v, i, NULL, "phi has %u sources for %u predecessors", i->nsrcs, b->preds.len);
         for (uint32_t k = 0; k < i->nsrcs; k++) {
            bool found = false;
            ir_foreach_pred(p, b)
               found |= *p == i->srcs[k].pred;
            if (!found)
               verr(v, i, NULL, "phi source %u names block_%u which is not a predecessor", k,
                    i->srcs[k].pred ? i->srcs[k].pred->index : 9999);
         }
      } else {
         seen_non_phi = true;
      }
      if (ir_op_is(i->op, IR_OP_TERMINATOR)) {
         if (i->next)
            verr(v, i, NULL, "terminator is not last");
         if (b->succs.len != expected_succs(i->op))
            verr(v, i, NULL, "%u successors for %s", b->succs.len, ir_op_infos[i->op].name);
      }
      check_bits(v, i);
   }
   if (b->last != prev)
      verr(v, NULL, b, "broken last link");
   if (!ir_block_terminator(b))
      verr(v, NULL, b, "no terminator");
   for (uint32_t k = 0; k < b->succs.len; k++)
      for (uint32_t j = k + 1; j < b->succs.len; j++)
         if (b->succs.data[k] == b->succs.data[j])
            verr(v, NULL, b, "duplicate edge to block_%u", b->succs.data[k]->index);
   if (f->valid & IR_META_CFG) {
      ir_foreach_succ(s, b) {
         uint32_t cnt = 0;
         ir_foreach_pred(p, *s)
            cnt += *p == b;
         if (cnt != 1)
            verr(v, NULL, b, "successor block_%u lists it %u times as predecessor", (*s)->index, cnt);
      }
      ir_foreach_pred(p, b) {
         bool found = false;
         ir_foreach_succ(s, *p)
            found |= *s == b;
         if (!found)
            verr(v, NULL, b, "predecessor block_%u does not branch here", (*p)->index);
      }
   }
}

static bool instr_before(const ir_instr *a, const ir_instr *b)
{
   for (const ir_instr *i = a; i; i = i->next)
      if (i == b)
         return true;
   return false;
}

static void check_dominance(vctx *v)
{
   ir_foreach_block(b, v->f) {
      if (b->rpo == UINT32_MAX)
         continue;
      ir_foreach_instr(i, b) {
         for (uint32_t k = 0; k < i->nsrcs; k++) {
            ir_def *d = i->srcs[k].def;
            if (!d || !d->parent->block)
               continue;
            ir_block *db = d->parent->block;
            if (i->op == IR_PHI) {
               if (!ir_dominates(db, i->srcs[k].pred))
                  verr(v, i, NULL, "phi source %%%u does not dominate predecessor block_%u", d->index,
                       i->srcs[k].pred->index);
            } else if (db == b ? !instr_before(d->parent, i) : !ir_dominates(db, b)) {
               verr(v, i, NULL, "use of %%%u not dominated by its definition", d->index);
            }
         }
      }
   }
}

static void check_cf(vctx *v, const ir_cf *n, const ir_cf **stack, uint32_t depth, uint32_t *seen)
{
   for (; n; n = n->next) {
      switch (n->kind) {
      case IR_CF_CODE:
         seen[n->block->index]++;
         break;
      case IR_CF_SEQ:
         check_cf(v, n->first, stack, depth, seen);
         break;
      case IR_CF_LOOP:
      case IR_CF_BLOCK:
         if (depth >= 4096) {
            verr(v, NULL, NULL, "structured tree too deep");
            return;
         }
         stack[depth] = n;
         check_cf(v, n->first, stack, depth + 1, seen);
         break;
      case IR_CF_IF:
         check_cf(v, n->then_cf, stack, depth, seen);
         check_cf(v, n->else_cf, stack, depth, seen);
         break;
      case IR_CF_BREAK:
      case IR_CF_CONTINUE: {
         bool found = false;
         for (uint32_t k = 0; k < depth; k++)
            found |= stack[k] == n->target;
         ir_cf_kind want = n->kind == IR_CF_BREAK ? IR_CF_BLOCK : IR_CF_LOOP;
         if (!found || !n->target || n->target->kind != want)
            verr(v, NULL, NULL, "%s #%u does not target an enclosing %s",
                 n->kind == IR_CF_BREAK ? "break" : "continue", n->target ? n->target->id : 0,
                 want == IR_CF_BLOCK ? "block" : "loop");
         break;
      }
      default:
         break;
      }
   }
}

static void check_structured(vctx *v)
{
   arena *ar = v->f->module->ar;
   uint32_t *seen = arena_alloc(ar, (v->f->blocks.len + 1) * sizeof(*seen));
   const ir_cf **stack = arena_alloc(ar, 4096 * sizeof(*stack));
   if (!seen || !stack)
      return;
   check_cf(v, v->f->cf, stack, 0, seen);
   ir_foreach_block(b, v->f)
      if (b->rpo != UINT32_MAX && seen[b->index] != 1)
         verr(v, NULL, b, "appears %u times in the structured tree", seen[b->index]);
}

static void validate_func(ir_func *f, const char *pass)
{
   vctx v = { .f = f, .pass = pass };
   strbuf_init(&v.errs);
   ir_foreach_block(b, f) {
      if (b->func != f || f->blocks.data[b->index] != b)
         verr(&v, NULL, b, "wrong function or index");
      check_block(&v, b);
   }
   if (f->valid & IR_META_DOM)
      check_dominance(&v);
   if (f->valid & IR_META_STRUCTURED)
      check_structured(&v);
   if (v.nerrs) {
      fprintf(stderr, "metalcuda: IR validation failed after %s in %s (%u errors):\n%s", pass, f->name,
              v.nerrs, v.errs.s ? v.errs.s : "");
      strbuf_free(&v.errs);
      ir_die(f, "invalid IR");
   }
   strbuf_free(&v.errs);
}

void ir_validate(ir_module *m, const char *after_pass)
{
   if (m->error || getenv("METALCUDA_IR_NOVALIDATE"))
      return;
   ir_foreach_func(f, m)
      validate_func(f, after_pass);
}

#else

void ir_validate(ir_module *m, const char *after_pass)
{
   (void)m;
   (void)after_pass;
}

#endif
