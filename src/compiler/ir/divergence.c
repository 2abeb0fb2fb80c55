/*
 * divergence.c — which values may differ between the threads of a block
 * (divergence analysis after Karrenberg and Hack, "Whole-Function
 * Vectorization", CGO 2011, simplified).
 *
 * Sources of divergence: the thread index and lane (%tid, %laneid,
 * %warpid), clocks, atomics, warp operations (their results differ by lane
 * or by warp), calls, .func arguments, loads from local memory.  Anything
 * computed from a divergent value is divergent (a load too: from a
 * divergent address), and so is a phi where the two sides of a divergent
 * branch first meet (sync dependence: a join with one predecessor reached
 * only from one side of the branch and one only from the other).
 * Everything else is uniform: parameters, the block and grid shape,
 * constants, loop counters derived from them, loads from uniform addresses.
 *
 * Conservative where it matters: a value it calls uniform is the same in
 * every thread of the block.  Used by lower_exit.c (only a divergent
 * branch can send some threads out early).
 *
 * ir_blocks_reached_uniformly answers a second question for the software
 * device's shuffles as resume points (msl/emit_resume.c): does every
 * thread execute a block the same number of times, none leaving early?
 * A block S is controlled by a branch B when B reaches S and a path from
 * B ends the thread without passing S (S does not post-dominate B).  The
 * branches that count: those on a divergent condition, and every branch
 * reachable from one, whatever its condition (after a loop whose lanes
 * leave at different iterations, a value the analysis calls uniform may
 * differ between them: temporal divergence, which the phi rule above does
 * not see).  S is reached uniformly when no branch that counts controls
 * it.  Strong loads (.volatile, .relaxed, .acquire: IR_F_VOLATILE) may see
 * another thread's store between two threads' loads, so a function with
 * one gets no as a whole.
 *
 * Precondition: IR_META_CFG (predecessors).  Changes nothing but the
 * blocks' pass_flags, which it leaves at zero.
 */
#include "ir.h"

#include <string.h>

static bool divergent_source(const ir_instr *i)
{
   switch (i->op) {
   case IR_SREG:
      return !(i->sub >= IR_SREG_NTID_X && i->sub <= IR_SREG_NCTAID_Z) && i->sub != IR_SREG_WARPSZ &&
             i->sub != IR_SREG_NWARPID && i->sub != IR_SREG_NSMID && i->sub != IR_SREG_GRIDID;
   case IR_LOAD:
      return i->space == IR_SPACE_LOCAL;
   case IR_ARG: case IR_ATOM: case IR_CALL: case IR_VPRINTF: case IR_MALLOC:
      return true;
   default:
      return ir_op_is(i->op, IR_OP_CONVERGENT);   /* warp operations: per lane or per warp */
   }
}

/* Marks (in mark, by block index) the blocks reachable from s without
 * passing through d. */
static void reachable_from(ir_block *s, const ir_block *d, uint8_t *mark, uint8_t bit, ir_block **stack)
{
   uint32_t sp = 0;
   if (s == d || (mark[s->index] & bit))
      return;
   mark[s->index] |= bit;
   stack[sp++] = s;
   while (sp) {
      ir_block *b = stack[--sp];
      ir_foreach_succ(t, b)
         if (*t != d && !(mark[(*t)->index] & bit)) {
            mark[(*t)->index] |= bit;
            stack[sp++] = *t;
         }
   }
}

/* join[b]: b is where the two sides of divergent branch d first meet: a
 * predecessor only one side reaches (or d itself) and one only the other
 * side reaches. */
static void mark_joins(ir_func *f, ir_block *d, bool *join, uint8_t *mark, ir_block **stack)
{
   memset(mark, 0, f->blocks.len);
   reachable_from(d->succs.data[0], d, mark, 1, stack);
   reachable_from(d->succs.data[1], d, mark, 2, stack);
   ir_foreach_block(b, f) {
      if (mark[b->index] != 3)
         continue;
      uint8_t sides = 0;
      ir_foreach_pred(q, b)
         sides |= *q == d ? (uint8_t)(b == d->succs.data[0] ? 1 : 2) : mark[(*q)->index] != 3 ? mark[(*q)->index] : 0;
      if (sides == 3)
         join[b->index] = true;
   }
}

bool *ir_find_divergence(ir_func *f)
{
   arena *ar = f->module->ar;
   bool *div = arena_alloc(ar, (f->ndefs + 1) * sizeof(bool));
   bool *join = arena_alloc(ar, f->blocks.len * sizeof(bool));
   uint8_t *mark = arena_alloc(ar, f->blocks.len + 1);
   ir_block **stack = arena_alloc(ar, (f->blocks.len + 1) * sizeof(*stack));
   if (!div || !join || !mark || !stack)
      return NULL;
   for (bool changed = true; changed;) {
      changed = false;
      ir_foreach_block(b, f) {
         ir_foreach_instr(i, b) {
            if (i->op == IR_CBR && div[i->srcs[0].def->index] && b->succs.len == 2 && !(b->pass_flags & 1)) {
               b->pass_flags |= 1;               /* its joins are marked once */
               mark_joins(f, b, join, mark, stack);
               changed = true;
            }
            if (!i->def.bits || div[i->def.index])
               continue;
            if (i->op == IR_BAR_RED)
               continue;         /* the whole block's answer, whatever its inputs */
            bool d = divergent_source(i) || (i->op == IR_PHI && join[b->index]);
            for (uint32_t k = 0; k < i->nsrcs && !d; k++)
               d = i->srcs[k].def && div[i->srcs[k].def->index];
            if (i->guard.def && div[i->guard.def->index])
               d = true;
            if (d)
               div[i->def.index] = changed = true;
         }
      }
   }
   ir_foreach_block(b, f)
      b->pass_flags = 0;
   return div;
}

/* Marks in seen the blocks reachable from b's successors without entering
 * avoid (NULL: none); true once an exit (a block without successors) or
 * target (NULL: none) is met. */
static bool reach(const ir_block *b, const ir_block *avoid, const ir_block *target, uint8_t *seen,
                  ir_block **stack)
{
   uint32_t sp = 0;
   bool hit = false;
   ir_foreach_succ(t, b)
      if (*t != avoid && !seen[(*t)->index]) {
         seen[(*t)->index] = 1;
         stack[sp++] = *t;
      }
   while (sp) {
      ir_block *x = stack[--sp];
      if (x == target || (!target && x->succs.len == 0))
         hit = true;
      ir_foreach_succ(t, x)
         if (*t != avoid && !seen[(*t)->index]) {
            seen[(*t)->index] = 1;
            stack[sp++] = *t;
         }
   }
   return hit;
}

bool ir_blocks_reached_uniformly(ir_func *f, const bool *div, const bool *want)
{
   enum { WORK_MAX = 1u << 24 };   /* blocks visited (a few ms); beyond: no */
   arena *ar = f->module->ar;
   uint32_t nb = f->blocks.len;
   uint8_t *counts = arena_alloc(ar, nb + 1), *seen = arena_alloc(ar, nb + 1);
   ir_block **stack = arena_alloc(ar, (nb + 1) * sizeof(*stack));
   if (!counts || !seen || !stack || !div)
      return false;
   memset(counts, 0, nb + 1);
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b)
         if (i->op == IR_LOAD && (i->flags & IR_F_VOLATILE))
            return false;
      const ir_instr *t = b->last;
      if (b->succs.len > 1 &&
          (!t || t->op != IR_CBR || (t->srcs[0].def && div[t->srcs[0].def->index])))
         counts[b->index] = 1;
   }
   /* every branch a counting branch reaches counts too */
   uint64_t work = 0;
   ir_foreach_block(b, f) {
      if (counts[b->index] != 1)
         continue;
      if ((work += nb) > WORK_MAX)
         return false;
      memset(seen, 0, nb + 1);
      reach(b, NULL, NULL, seen, stack);
      ir_foreach_block(x, f)
         if (seen[x->index] && x->succs.len > 1 && !counts[x->index])
            counts[x->index] = 2;
   }
   ir_foreach_block(b, f) {
      if (!counts[b->index])
         continue;
      ir_foreach_block(s, f) {
         if (!want[s->index])
            continue;
         if ((work += 2ull * nb) > WORK_MAX)
            return false;
         memset(seen, 0, nb + 1);
         if (!reach(b, NULL, s, seen, stack))
            continue;                       /* b does not reach s */
         memset(seen, 0, nb + 1);
         if (reach(b, s, NULL, seen, stack))
            return false;                   /* a thread may end without passing s */
      }
   }
   return true;
}
