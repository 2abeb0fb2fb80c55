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
 * only from one side of the branch and one only from the other), and a
 * use after a loop of a value the loop defines, when a divergent branch
 * on the loop's cycle lets threads leave it at different iterations
 * (temporal divergence: each thread has its own last iteration's value).
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
 * S is reached uniformly when it is not control dependent (Ferrante,
 * Ottenstein and Warren, 1987: S post-dominates a successor of the branch
 * but not the branch), directly or through other branches, on a branch
 * that counts: one on a divergent condition.  A uniform branch after a
 * divergent one (`if (warp == 0)` after a grid-stride loop) does not make
 * what it controls depend on the divergent one.  Strong loads (.volatile, .relaxed, .acquire: IR_F_VOLATILE) may see
 * another thread's store between two threads' loads, so a function with
 * one gets no as a whole.
 *
 * ir_find_warp_divergence asks the first question of the threads of one
 * SIMD-group (32 consecutive threads), for launches whose SIMD-groups are
 * each inside one row of x (blockDim.x a multiple of 32, or a 1-D block):
 * there tid.y and tid.z are the group's, and tid.x / 32 too (tid.x shifted
 * right by 5 or more, divided by a multiple of 32, masked to clear its low
 * 5 bits, compared with a constant on a multiple of 32: tid.x < 32k, tid.x
 * <= 32k + 31 and their converses).  So `if (threadIdx.x / 32 == 0)` and
 * `if (threadIdx.x < 32)` are branches every SIMD-group takes as one; with ir_blocks_reached_uniformly it finds the shuffles
 * every lane of a group reaches together although the block's groups do
 * not (emit_resume.c).
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

/* The states of a value in the analysis: the same in every thread (of
 * the block, or of the SIMD-group in the warp form), exactly %tid.x (warp
 * form only: the lanes' values differ, but tid.x / 32 does not), or
 * different. */
enum { V_SAME, V_TIDX, V_DIFF };

static bool is_const(const ir_def *d, uint64_t *v)
{
   if (!d || d->parent->op != IR_CONST)
      return false;
   *v = d->parent->imm;
   return true;
}

/* A value a SIMD-group shares although its operand is %tid.x: tid.x
 * shifted right by 5 or more, divided by a multiple of 32, masked with
 * its low 5 bits cleared, or compared with a constant on a multiple of 32.  The SIMD-groups are rows of 32 threads of
 * x (the launch guarantees it: emit_resume.c), so tid.x of a group's
 * lanes differ only in those bits. */
static bool quantises_tidx(const ir_instr *i, const uint8_t *st)
{
   uint64_t c;
   if (i->nsrcs != 2)
      return false;
   const ir_def *a = i->srcs[0].def, *b = i->srcs[1].def;
   switch (i->op) {
   case IR_SHR:
      return a && st[a->index] == V_TIDX && is_const(b, &c) && c >= 5;
   case IR_DIV:
      return a && st[a->index] == V_TIDX && is_const(b, &c) && c && (c & 31) == 0 && !ptx_type_is_float(i->type);
   case IR_AND:
      return (a && st[a->index] == V_TIDX && is_const(b, &c) && (c & 31) == 0) ||
             (b && st[b->index] == V_TIDX && is_const(a, &c) && (c & 31) == 0);
   case IR_SETP: {
      /* tid.x < 32k is tid.x / 32 < k, tid.x <= 32k + 31 is tid.x / 32 <= k
       * (an integer comparison with a constant below 2^31: signed or
       * unsigned alike) */
      if (!ptx_type_is_int(i->type) && !ptx_type_is_bits(i->type))
         return false;
      bool tid_left = a && st[a->index] == V_TIDX && is_const(b, &c);
      if (!tid_left && !(b && st[b->index] == V_TIDX && is_const(a, &c)))
         return false;
      if (c >= 0x80000000u)
         return false;
      unsigned cmp = i->sub;
      if (!tid_left)   /* c OP tid.x: tid.x OP' c */
         cmp = cmp == IR_CMP_LT ? IR_CMP_GT : cmp == IR_CMP_LE ? IR_CMP_GE : cmp == IR_CMP_GT ? IR_CMP_LT
             : cmp == IR_CMP_GE ? IR_CMP_LE : cmp;
      if (cmp == IR_CMP_LT || cmp == IR_CMP_GE)
         return (c & 31) == 0;
      if (cmp == IR_CMP_LE || cmp == IR_CMP_GT)
         return (c & 31) == 31;
      return false;
   }
   default:
      return false;
   }
}

/* tid.x widened or copied: still exactly tid.x. */
static bool copies_tidx(const ir_instr *i, const uint8_t *st)
{
   const ir_def *a = i->nsrcs >= 1 ? i->srcs[0].def : NULL;
   if (!a || st[a->index] != V_TIDX || i->guard.def)
      return false;
   if (i->op == IR_COPY)
      return true;
   return i->op == IR_CVT && (ptx_type_is_int(i->type) || ptx_type_is_bits(i->type)) &&
          (ptx_type_is_int(i->type2) || ptx_type_is_bits(i->type2)) && ptx_type_bits[i->type] >= 32 &&
          ptx_type_bits[i->type2] >= 32 && !(i->flags & IR_F_SAT);
}

/* The state of i's value from its sources' (warp: the SIMD-group form). */
static uint8_t state_of(const ir_instr *i, const ir_block *b, const uint8_t *st, const bool *join, bool warp)
{
   if (warp && i->op == IR_SREG) {
      if (i->sub == IR_SREG_TID_X)
         return V_TIDX;
      if (i->sub == IR_SREG_TID_Y || i->sub == IR_SREG_TID_Z)
         return V_SAME;           /* one row of x per SIMD-group */
   }
   if (divergent_source(i) || (i->op == IR_PHI && join[b->index]))
      return V_DIFF;
   if (warp && quantises_tidx(i, st))
      return V_SAME;
   if (warp && copies_tidx(i, st))
      return V_TIDX;
   for (uint32_t k = 0; k < i->nsrcs; k++)
      if (i->srcs[k].def && st[i->srcs[k].def->index] != V_SAME)
         return V_DIFF;
   if (i->guard.def && st[i->guard.def->index] != V_SAME)
      return V_DIFF;
   return V_SAME;
}

/* Temporal divergence: d ends a loop (it is on a cycle) on a divergent
 * condition, so its threads leave at different iterations, and a value
 * defined on that cycle is, after the loop, each thread's value of its
 * own last iteration.  Marks (by instruction index) every use outside the
 * cycle of a value defined on it. */
static void mark_temporal(ir_func *f, ir_block *d, const uint32_t *def_block, bool *temporal, uint8_t *mark,
                          ir_block **stack)
{
   memset(mark, 0, f->blocks.len);
   ir_foreach_succ(t, d)
      reachable_from(*t, NULL, mark, 1, stack);   /* forward from d */
   if (!(mark[d->index] & 1))
      return;                                     /* d is on no cycle */
   uint32_t sp = 0;                               /* backward from d */
   mark[d->index] |= 2;
   stack[sp++] = d;
   while (sp) {
      ir_block *b = stack[--sp];
      ir_foreach_pred(q, b)
         if (!(mark[(*q)->index] & 2)) {
            mark[(*q)->index] |= 2;
            stack[sp++] = *q;
         }
   }
   ir_foreach_block(b, f) {
      if (mark[b->index] == 3)
         continue;
      ir_foreach_instr(i, b) {
         for (uint32_t k = 0; k < i->nsrcs; k++) {
            const ir_def *s = i->srcs[k].def;
            if (s && def_block[s->index] < f->blocks.len && mark[def_block[s->index]] == 3)
               temporal[i->index] = true;
         }
         if (i->guard.def && def_block[i->guard.def->index] < f->blocks.len && mark[def_block[i->guard.def->index]] == 3)
            temporal[i->index] = true;
      }
   }
}

/* The fixed point: a value's state only rises, and a branch on a value
 * that is not V_SAME marks its joins once. */
static bool *find_divergence(ir_func *f, bool warp)
{
   arena *ar = f->module->ar;
   bool *div = arena_alloc(ar, (f->ndefs + 1) * sizeof(bool));
   uint8_t *st = arena_alloc(ar, f->ndefs + 1);
   bool *join = arena_alloc(ar, f->blocks.len * sizeof(bool));
   bool *temporal = arena_alloc(ar, (f->ninstrs + 1) * sizeof(bool));
   uint32_t *def_block = arena_alloc(ar, (f->ndefs + 1) * sizeof(*def_block));
   uint8_t *mark = arena_alloc(ar, f->blocks.len + 1);
   ir_block **stack = arena_alloc(ar, (f->blocks.len + 1) * sizeof(*stack));
   if (!div || !st || !join || !temporal || !def_block || !mark || !stack)
      return NULL;
   for (uint32_t k = 0; k <= f->ndefs; k++)
      def_block[k] = UINT32_MAX;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (i->def.bits && i->def.index <= f->ndefs)
            def_block[i->def.index] = b->index;
   memset(st, V_SAME, f->ndefs + 1);
   memset(temporal, 0, (f->ninstrs + 1) * sizeof(bool));
   for (bool changed = true; changed;) {
      changed = false;
      ir_foreach_block(b, f) {
         ir_foreach_instr(i, b) {
            if (i->op == IR_CBR && (st[i->srcs[0].def->index] != V_SAME || temporal[i->index]) &&
                b->succs.len == 2 && !(b->pass_flags & 1)) {
               b->pass_flags |= 1;               /* its joins and loop are marked once */
               mark_joins(f, b, join, mark, stack);
               mark_temporal(f, b, def_block, temporal, mark, stack);
               changed = true;
            }
            if (!i->def.bits || st[i->def.index] == V_DIFF)
               continue;
            if (i->op == IR_BAR_RED)
               continue;         /* the whole block's answer, whatever its inputs */
            uint8_t s = temporal[i->index] ? V_DIFF : state_of(i, b, st, join, warp);
            if (s > st[i->def.index]) {
               st[i->def.index] = s;
               changed = true;
            }
         }
      }
   }
   ir_foreach_block(b, f)
      b->pass_flags = 0;
   for (uint32_t k = 0; k <= f->ndefs; k++)
      div[k] = st[k] != V_SAME;
   /* a branch after a loop on a condition the loop computed: its
    * condition differs there, whatever it is inside the loop */
   ir_foreach_block(b, f)
      if (b->last && b->last->op == IR_CBR && temporal[b->last->index])
         div[b->last->srcs[0].def->index] = true;
   return div;
}

bool *ir_find_divergence(ir_func *f) { return find_divergence(f, false); }

bool *ir_find_warp_divergence(ir_func *f) { return find_divergence(f, true); }

/* Immediate post-dominators (Cooper, Harvey and Kennedy, "A Simple, Fast
 * Dominance Algorithm", 2001, on the reversed CFG), block index nb being a
 * virtual exit after every block without successors.  False when a block
 * cannot reach an exit (a loop no thread leaves), or out of memory. */
static bool post_dominators(ir_func *f, uint32_t *ipdom)
{
   arena *ar = f->module->ar;
   uint32_t nb = f->blocks.len, n = 0;
   uint32_t *num = arena_alloc(ar, (nb + 1) * sizeof(*num)), *order = arena_alloc(ar, (nb + 1) * sizeof(*order));
   uint32_t *next = arena_alloc(ar, (nb + 1) * sizeof(*next)), *stack = arena_alloc(ar, (nb + 1) * sizeof(*stack));
   if (!num || !order || !next || !stack)
      return false;
   for (uint32_t k = 0; k <= nb; k++)
      num[k] = UINT32_MAX, next[k] = 0;
   /* postorder of the reversed CFG from the virtual exit: its "successors"
    * are the blocks without successors, a block's are its predecessors */
   uint32_t sp = 0;
   stack[sp++] = nb;
   num[nb] = 0;                                   /* on the stack */
   while (sp) {
      uint32_t x = stack[sp - 1], y = UINT32_MAX;
      if (x == nb) {
         while (next[x] < nb && y == UINT32_MAX) {
            const ir_block *c = f->blocks.data[next[x]++];
            if (c->succs.len == 0 && num[c->index] == UINT32_MAX)
               y = c->index;
         }
      } else {
         const ir_block *bx = f->blocks.data[x];
         while (next[x] < bx->preds.len && y == UINT32_MAX) {
            const ir_block *c = bx->preds.data[next[x]++];
            if (num[c->index] == UINT32_MAX)
               y = c->index;
         }
      }
      if (y != UINT32_MAX) {
         num[y] = 0;
         stack[sp++] = y;
         continue;
      }
      sp--;
      order[n] = x;
      num[x] = n++;
   }
   if (n != nb + 1)
      return false;
   for (uint32_t k = 0; k < nb; k++)
      ipdom[k] = UINT32_MAX;
   ipdom[nb] = nb;
   for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t r = nb; r-- > 0;) {           /* reverse postorder, the exit first */
         uint32_t x = order[r], d = UINT32_MAX;
         const ir_block *bx = f->blocks.data[x];
         if (bx->succs.len == 0)
            d = nb;
         ir_foreach_succ(t, bx) {
            uint32_t c = (*t)->index;
            if (ipdom[c] == UINT32_MAX)
               continue;
            if (d == UINT32_MAX) {
               d = c;
               continue;
            }
            uint32_t a = c;
            while (a != d) {
               while (num[a] < num[d])
                  a = ipdom[a];
               while (num[d] < num[a])
                  d = ipdom[d];
            }
         }
         if (d != UINT32_MAX && ipdom[x] != d) {
            ipdom[x] = d;
            changed = true;
         }
      }
   }
   return true;
}

bool ir_blocks_reached_uniformly(ir_func *f, const bool *div, const bool *want)
{
   arena *ar = f->module->ar;
   uint32_t nb = f->blocks.len, sp = 0;
   uint32_t *ipdom = arena_alloc(ar, (nb + 1) * sizeof(*ipdom));
   bool *varies = arena_alloc(ar, nb + 1), *queued = arena_alloc(ar, nb + 1);
   ir_block **stack = arena_alloc(ar, (nb + 1) * sizeof(*stack));
   if (!ipdom || !varies || !queued || !stack || !div || !post_dominators(f, ipdom))
      return false;
   memset(varies, 0, nb + 1);
   memset(queued, 0, nb + 1);
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b)
         if (i->op == IR_LOAD && (i->flags & IR_F_VOLATILE))
            return false;
      const ir_instr *t = b->last;
      if (b->succs.len > 1 &&
          (!t || t->op != IR_CBR || (t->srcs[0].def && div[t->srcs[0].def->index]))) {
         queued[b->index] = true;
         stack[sp++] = b;
      }
   }
   /* The blocks control dependent on a branch that counts (from each of
    * its successors up the post-dominator tree to the branch's own
    * post-dominator) run a different number of times in different
    * threads; so does what is control dependent on those. */
   while (sp) {
      ir_block *x = stack[--sp];
      ir_foreach_succ(t, x)
         for (uint32_t r = (*t)->index; r != ipdom[x->index] && r != nb; r = ipdom[r]) {
            varies[r] = true;
            ir_block *rb = f->blocks.data[r];
            if (rb->succs.len > 1 && !queued[r]) {
               queued[r] = true;
               stack[sp++] = rb;
            }
         }
   }
   ir_foreach_block(s, f)
      if (want[s->index] && varies[s->index])
         return false;
   return true;
}
