/*
 * cfg.c — reverse postorder, dominators, loop headers, reducibility.
 *
 * Dominators use Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
 * Algorithm" (2001): iterate idom[b] = intersect(processed preds) in RPO
 * until nothing changes.  On the CFGs PTX produces it converges in two or
 * three sweeps and needs no extra data structures.
 *
 * A loop header is the target of a retreating edge (an edge to a block that
 * is on the DFS stack).  In a reducible CFG every retreating edge is a back
 * edge: its target dominates its source.  A retreating edge whose target
 * does not dominate its source makes the CFG irreducible.
 *
 * Unreachable blocks get rpo = UINT32_MAX and no idom.
 */
#include "ir.h"

#include <string.h>

/* Iterative DFS computing postorder; marks retreating edges' targets. */
static uint32_t compute_rpo(ir_func *f, ir_block **order)
{
   arena *ar = f->module->ar;
   uint32_t n = f->blocks.len;
   ir_block **stack = arena_alloc(ar, (n + 1) * sizeof(*stack));
   uint32_t *next_succ = arena_alloc(ar, (n + 1) * sizeof(*next_succ));
   if (!stack || !next_succ)
      return 0;
   enum { WHITE, GREY, BLACK };
   ir_foreach_block(b, f) {
      b->pass_flags = WHITE;
      b->rpo = UINT32_MAX;
      b->is_loop_header = false;
   }
   uint32_t sp = 0, post = 0;
   ir_block *entry = f->blocks.data[0];
   stack[sp++] = entry;
   entry->pass_flags = GREY;
   next_succ[entry->index] = 0;
   while (sp) {
      ir_block *b = stack[sp - 1];
      uint32_t k = next_succ[b->index]++;
      if (k < b->succs.len) {
         ir_block *s = b->succs.data[k];
         if (s->pass_flags == WHITE) {
            s->pass_flags = GREY;
            next_succ[s->index] = 0;
            stack[sp++] = s;
         } else if (s->pass_flags == GREY) {
            s->is_loop_header = true;
         }
         continue;
      }
      b->pass_flags = BLACK;
      order[post++] = b;
      sp--;
   }
   /* order[] is postorder; reverse it in place. */
   for (uint32_t i = 0; i < post / 2; i++) {
      ir_block *t = order[i];
      order[i] = order[post - 1 - i];
      order[post - 1 - i] = t;
   }
   for (uint32_t i = 0; i < post; i++)
      order[i]->rpo = i;
   return post;
}

static ir_block *intersect(ir_block *a, ir_block *b)
{
   while (a != b) {
      while (a->rpo > b->rpo)
         a = a->idom;
      while (b->rpo > a->rpo)
         b = b->idom;
   }
   return a;
}

void ir_compute_dominance(ir_func *f)
{
   arena *ar = f->module->ar;
   if (!(f->valid & IR_META_CFG))
      ir_func_compute_preds(f);
   ir_block **order = arena_alloc(ar, (f->blocks.len + 1) * sizeof(*order));
   if (!order || !f->blocks.len)
      return;
   uint32_t n = compute_rpo(f, order);
   ir_foreach_block(b, f) {
      b->idom = NULL;
      b->dom_children.len = 0;
   }
   ir_block *entry = order[0];
   entry->idom = entry;
   for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t i = 1; i < n; i++) {
         ir_block *b = order[i], *nidom = NULL;
         ir_foreach_pred(p, b) {
            if ((*p)->rpo == UINT32_MAX || !(*p)->idom)
               continue;
            nidom = nidom ? intersect(*p, nidom) : *p;
         }
         if (nidom && b->idom != nidom) {
            b->idom = nidom;
            changed = true;
         }
      }
   }
   /* Children in RPO order (the structurizer relies on it). */
   for (uint32_t i = 1; i < n; i++)
      vec_push(ar, &order[i]->idom->dom_children, order[i]);
   entry->idom = NULL;
   f->valid |= IR_META_DOM;
}

bool ir_dominates(const ir_block *a, const ir_block *b)
{
   if (b->rpo == UINT32_MAX)
      return false;
   while (b && b->rpo > a->rpo)
      b = b->idom;
   return b == a;
}

void ir_find_irreducible(ir_func *f, ir_block **irreducible_at)
{
   *irreducible_at = NULL;
   ir_foreach_block(b, f) {
      if (b->rpo == UINT32_MAX)
         continue;
      ir_foreach_succ(s, b) {
         /* A retreating edge in RPO terms goes to a block not later than
          * its source; it must be a back edge to a dominator. */
         if ((*s)->rpo <= b->rpo && !ir_dominates(*s, b)) {
            *irreducible_at = *s;
            return;
         }
      }
   }
}
