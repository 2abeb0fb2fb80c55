/*
 * opt_split_iv.c — a thread-varying induction variable with a uniform step
 * becomes its start plus a uniform count:
 *
 *    H:  i = phi(start, i + s)        H:  k = phi(0, k + s)
 *        ... i ...               =>       i' = start + k;  ... i' ...
 *
 * when start differs between threads (divergence.c), s is the same in
 * every thread, and i + s (an add without .sat) is the only value coming
 * round the back edge.  Integer addition wraps, so start + k equals i in
 * every iteration of every thread, whatever the width and signedness (s
 * need not even be uniform for that: uniform, k is too, which is the
 * point).  A grid-stride loop
 * (i = blockIdx.x * blockDim.x + threadIdx.x; i += gridDim.x * blockDim.x)
 * then counts with a uniform k, and i' is the thread's position plus a
 * uniform value: the software device's lane form (msl/emit_lanes.c)
 * recomputes it in each lane loop, where consecutive threads read
 * consecutive elements (vector loads, not gathers), and keeps k once per
 * threadgroup instead of an array of counters.  Elsewhere it changes one
 * add of the loop into another.
 *
 * Only loops whose header has two predecessors (the entry and one back
 * edge) are rewritten.  Precondition: no guards (after
 * ir_lower_predicates), reducible control flow (after
 * ir_split_irreducible), IR_META_CFG.  Preserves IR_META_CFG (no block
 * changes).
 */
#include "ir.h"

/* The value i + s of an integer add without saturation, with s the other
 * operand; NULL if next is not such an add of i. */
static ir_def *step_of(const ir_def *next, const ir_def *i)
{
   const ir_instr *a = next->parent;
   if (a->op != IR_ADD || a->nsrcs != 2 || a->flags || a->guard.def || next->ncomp != 1 ||
       ptx_type_is_float(a->type))
      return NULL;
   if (a->srcs[0].def == i)
      return a->srcs[1].def;
   if (a->srcs[1].def == i)
      return a->srcs[0].def;
   return NULL;
}

static ir_instr *new_op(ir_func *f, ir_op op, uint32_t nsrcs, const ir_instr *like)
{
   ir_instr *i = ir_instr_create(f, op, nsrcs, like->def.bits, 1);
   if (i) {
      i->type = like->type;
      i->line = like->line;
   }
   return i;
}

/* Rewrites phi (in a loop header) as start + k; the entry edge is source
 * e, the back edge source 1 - e. */
static bool split(ir_func *f, ir_instr *phi, uint32_t e)
{
   ir_def *start = phi->srcs[e].def, *next = phi->srcs[1 - e].def;
   ir_instr *add = next->parent;
   ir_def *s = step_of(next, &phi->def);
   ir_instr *zero = new_op(f, IR_CONST, 0, add), *k = new_op(f, IR_PHI, 2, add);
   ir_instr *kn = new_op(f, IR_ADD, 2, add), *i = new_op(f, IR_ADD, 2, add);
   if (!zero || !k || !kn || !i)
      return false;
   /* the constant goes first in the header's predecessor on the entry edge:
    * before its terminator */
   ir_instr_insert_before(ir_block_terminator(phi->srcs[e].pred), zero);
   ir_src_set(&kn->srcs[0], kn, &k->def);
   ir_src_set(&kn->srcs[1], kn, s);
   ir_instr_insert_after(add, kn);
   ir_src_set(&k->srcs[e], k, &zero->def);
   k->srcs[e].pred = phi->srcs[e].pred;
   ir_src_set(&k->srcs[1 - e], k, &kn->def);
   k->srcs[1 - e].pred = phi->srcs[1 - e].pred;
   ir_instr_insert_before(phi, k);
   ir_src_set(&i->srcs[0], i, start);
   ir_src_set(&i->srcs[1], i, &k->def);
   ir_instr *at = phi;
   while (at->next && at->next->op == IR_PHI)
      at = at->next;
   ir_instr_insert_after(at, i);
   ir_def_rewrite_uses(&phi->def, &i->def);
   ir_instr_remove(phi);
   if (!ir_def_has_uses(next))
      ir_instr_remove(add);      /* the old step, if nothing else reads it */
   return true;
}

static bool split_func(ir_func *f)
{
   if (!(f->valid & IR_META_DOM))
      ir_compute_dominance(f);
   bool *div = ir_find_divergence(f), progress = false;
   if (!div)
      return false;
   ir_foreach_block(h, f) {
      if (!h->is_loop_header || h->preds.len != 2)
         continue;
      ir_foreach_instr_safe(phi, h) {
         if (phi->op != IR_PHI)
            break;
         if (phi->nsrcs != 2 || phi->def.ncomp != 1 || phi->def.bits < 32 || !div[phi->def.index])
            continue;
         /* e: the source from outside the loop (its block not dominated by h) */
         uint32_t e = ir_dominates(h, phi->srcs[0].pred) ? 1 : 0;
         if (ir_dominates(h, phi->srcs[e].pred) || !ir_dominates(h, phi->srcs[1 - e].pred))
            continue;
         const ir_def *next = phi->srcs[1 - e].def, *s = step_of(next, &phi->def);
         if (!s || next->bits != phi->def.bits || div[s->index])
            continue;
         if (!split(f, phi, e))
            return ir_error(f->module, phi->line, "out of memory");
         progress = true;
      }
   }
   return progress;
}

bool ir_opt_split_iv(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m)
      progress |= ir_progress(split_func(f), f, IR_META_CFG);
   return progress;
}
