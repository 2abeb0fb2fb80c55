/*
 * lower_exit.c — threads that leave a kernel early stay for its barriers.
 *
 * PTX (ISA 9.0 §9.7.13.1, bar.sync): threads that exited do not count at
 * later barriers, so `if (i >= n) return; ...; __syncthreads();` is a
 * correct CUDA kernel.  Metal requires every thread of the threadgroup to
 * reach each threadgroup_barrier (metal-semantics D8), so a thread that
 * returns early must stay alive, masked off, and go through the barriers
 * the others execute (ARCHITECTURE §4).
 *
 * Algorithm.  reach[b]: a barrier (bar.sync, bar.red, or a call of a
 * function with one) is reachable from block b.  An early exit is an edge
 * u → w of a conditional branch on a divergent condition (one that may
 * differ between the threads of a block) where reach[u] and not reach[w]
 * while the other successor o has reach[o]: threads that go to w will
 * never meet a barrier again, the others will.  (A uniform branch sends
 * every thread the same way: a loop's last iteration leaving for the
 * final ret is no early exit.)  Each early exit is rewritten so the
 * leaving threads follow the others, with a per-thread predicate `alive`
 * (true at entry) turned off:
 *   A. w only ends the thread (ret/exit and nothing else, as nvcc's shared
 *      return block): the branch becomes `br o` and
 *      alive' = alive && (the condition that chose o);
 *   B. otherwise the threads first run w's region R (the blocks reachable
 *      from w, none of which reaches a barrier), still alive, and each
 *      ret/exit of R becomes `br o` with alive' = false.  R must be entered
 *      only through u → w (the value o's phis take from u then dominates
 *      R); other shapes are refused with a message.
 * `alive` is then put in SSA form (phis on the iterated dominance
 * frontier of the blocks that change it), and every instruction that has
 * an effect or reads memory or other lanes (loads, stores, atomics, calls,
 * printf, warp operations) in a block where alive may be false gets the
 * guard alive (and-ed with its own); ir_lower_predicates, which runs next,
 * branches around it.  Barriers are not guarded; bar.red counts a dead
 * thread as neutral (popc/or: false, and: true).  A dead thread computes
 * everything else (so it takes the same branches as the others wherever
 * they do not depend on memory it no longer reads: loop counters, the
 * block size, parameters); its loads give zero.
 *
 * Divergence comes from divergence.c (ir_find_divergence).
 *
 * Loops.  An early exit whose threads, sent back to o, could never end
 * (the loop's only ways out are early exits: a loop with a barrier whose
 * exit test depends on the thread, as nvopencc's and LSR's rewritten
 * induction variables make it, `for (a = tid + s; a <= tid + e; a += 32)`)
 * becomes a vote instead: u's branch takes the way to o while any live
 * thread's condition does, so every thread leaves at the same iteration,
 * and the kernel fails with MC_STATUS_LOOP_EXIT (naming this) when the
 * live threads did not all choose alike (IR_BAR_RED_EXIT: the barrier
 * and the counts).  A thread's own exit would need its values frozen at
 * its last iteration while the others go on: not done.
 *
 * Known limits: a barrier reached only in control flow that depends on
 * memory the dead thread can no longer read (it takes a different path
 * and the barrier is reported by the software device, or hangs a GPU); a
 * trap that only dead threads reach still fires.
 *
 * Precondition: guards not yet lowered (runs first in the pipeline);
 * callees built (ir_link_calls).  Kernels only: ret in a .func returns.
 * Preserves IR_META_CFG.
 */
#include "ir.h"

#include <string.h>

/* ---- barriers ---- */

static bool func_has_barrier(ir_module *m, const ir_func *f, unsigned depth);

static const ir_func *callee_of(ir_module *m, const ir_instr *i)
{
   ir_foreach_func(g, m)
      if (i->sym && !strcmp(g->name, i->sym))
         return g;
   return NULL;
}

static bool is_barrier(ir_module *m, const ir_instr *i, unsigned depth)
{
   if (i->op == IR_BAR || i->op == IR_BAR_RED)
      return true;
   if (i->op != IR_CALL || depth > 64)
      return false;
   const ir_func *g = callee_of(m, i);
   /* a recursive function has no barrier (link_calls.c refuses them) */
   return g && !g->scc && func_has_barrier(m, g, depth + 1);
}

static bool block_has_barrier(ir_module *m, const ir_block *b)
{
   ir_foreach_instr(i, b)
      if (is_barrier(m, i, 0))
         return true;
   return false;
}

static bool func_has_barrier(ir_module *m, const ir_func *f, unsigned depth)
{
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (is_barrier(m, i, depth))
            return true;
   return false;
}

/* reach[b->index]: a barrier is reachable from the start of b. */
static bool *barrier_reach(ir_func *f)
{
   bool *reach = arena_alloc(f->module->ar, f->blocks.len * sizeof(bool));
   if (!reach)
      return NULL;
   ir_foreach_block(b, f)
      reach[b->index] = block_has_barrier(f->module, b);
   for (bool changed = true; changed;) {
      changed = false;
      ir_foreach_block(b, f) {
         if (reach[b->index])
            continue;
         ir_foreach_succ(s, b)
            if (reach[(*s)->index]) {
               reach[b->index] = changed = true;
               break;
            }
      }
   }
   return reach;
}

/* ---- finding the early exits ---- */

typedef struct plan {
   ir_block *u, *w, *o;
   ir_def *cond;              /* u's branch condition */
   bool o_on_true;            /* o is u's true successor */
   bool trivial;              /* A: w only ends the thread */
   bool *region;              /* B: w's region R, by block index (< nregion) */
   uint32_t nregion;
   bool single;               /* B: R is entered only by u → w */
   ir_block **exits;          /* B: the ret/exit blocks of R (or of its copy) */
   uint32_t nexits;
} plan;

static bool ends_thread(const ir_block *b)
{
   ir_instr *t = ir_block_terminator((ir_block *)b);
   return t && (t->op == IR_RET || t->op == IR_EXIT);
}

/* w is a ret/exit with nothing else that matters (phis without uses). */
static bool trivial_exit(const ir_block *w)
{
   if (!ends_thread(w) || ir_block_terminator((ir_block *)w)->nsrcs)
      return false;
   ir_foreach_instr(i, w)
      if (i != w->last && (i->op != IR_PHI || ir_def_has_uses(&i->def)))
         return false;
   return true;
}

/* R, the blocks reachable from w (arena array by block index), and whether
 * R is entered only by u → w. */
static bool find_region(ir_func *f, plan *p)
{
   ir_block **stack = arena_alloc(f->module->ar, (f->blocks.len + 1) * sizeof(*stack));
   bool *in_r = p->region = arena_alloc(f->module->ar, f->blocks.len * sizeof(bool));
   if (!stack || !in_r)
      return ir_error(f->module, 0, "out of memory");
   uint32_t sp = 0;
   stack[sp++] = p->w;
   in_r[p->w->index] = true;
   while (sp) {
      ir_block *b = stack[--sp];
      ir_foreach_succ(s, b)
         if (!in_r[(*s)->index]) {
            in_r[(*s)->index] = true;
            stack[sp++] = *s;
         }
   }
   p->nregion = f->blocks.len;
   p->single = true;
   ir_foreach_block(b, f) {
      if (!in_r[b->index])
         continue;
      ir_foreach_pred(q, b)
         if (!in_r[(*q)->index] && !(*q == p->u && b == p->w))
            p->single = false;
   }
   return true;
}

/* The early exits of f, in *out (arena array); their count. */
static uint32_t find_plans(ir_func *f, const bool *reach, const bool *div, plan **out)
{
   plan *plans = arena_alloc(f->module->ar, (f->blocks.len + 1) * sizeof(*plans));
   uint32_t n = 0;
   if (!plans)
      return 0;
   ir_foreach_block(u, f) {
      ir_instr *t = ir_block_terminator(u);
      if (!reach[u->index] || !t || t->op != IR_CBR || u->succs.len != 2 || !div[t->srcs[0].def->index])
         continue;
      for (int side = 0; side < 2; side++) {
         ir_block *w = u->succs.data[side], *o = u->succs.data[1 - side];
         if (reach[w->index] || !reach[o->index])
            continue;
         plans[n++] = (plan){ .u = u, .w = w, .o = o, .cond = t->srcs[0].def, .o_on_true = side == 1,
                              .trivial = trivial_exit(w) };
      }
   }
   *out = plans;
   return n;
}

/* ---- rewriting the control flow ---- */

static ir_instr *new_instr(ir_func *f, ir_op op, uint32_t nsrcs, uint8_t bits, uint32_t line)
{
   ir_instr *i = ir_instr_create(f, op, nsrcs, bits, 1);
   if (i) {
      i->line = line;
      i->type = bits == 1 ? PTX_T_PRED : PTX_T_B32;
   }
   return i;
}

/* b's terminator becomes `br to`. */
static bool branch_to(ir_func *f, ir_block *b, ir_block *to)
{
   ir_instr *t = ir_block_terminator(b);
   ir_instr *br = new_instr(f, IR_BR, 0, 0, t ? t->line : 0);
   if (!br)
      return false;
   if (t)
      ir_instr_remove(t);
   ir_instr_append(b, br);
   ir_block_clear_succs(b);
   ir_block_add_succ(b, to);
   return true;
}

/* Gives every phi of `to` a source for the new predecessor `from`: the
 * value it takes from `like`. */
static bool copy_phi_sources(ir_func *f, ir_block *to, ir_block *from, ir_block *like)
{
   ir_foreach_instr(phi, to) {
      if (phi->op != IR_PHI)
         break;
      ir_src *srcs = arena_alloc(f->module->ar, (phi->nsrcs + 1) * sizeof(*srcs));
      if (!srcs)
         return false;
      ir_def *extra = NULL;
      for (uint32_t k = 0; k < phi->nsrcs; k++) {
         ir_def *d = phi->srcs[k].def;
         ir_block *pred = phi->srcs[k].pred;
         if (pred == like)
            extra = d;
         ir_src_clear(&phi->srcs[k]);
         ir_src_set(&srcs[k], phi, d);
         srcs[k].pred = pred;
      }
      if (!extra)
         ir_die(f, "lower_exit: phi %%%u has no source from block_%u", phi->def.index, like->index);
      ir_src_set(&srcs[phi->nsrcs], phi, extra);
      srcs[phi->nsrcs].pred = from;
      phi->srcs = srcs;
      phi->nsrcs++;
   }
   return true;
}

static bool in_region(const plan *p, const ir_block *b)
{
   return b->index < p->nregion && p->region[b->index];
}

/* ---- copying a region entered from several places ---- */

enum { MAX_COPIED = 4096 };   /* instructions copied per kernel */

static void copy_fields(ir_instr *to, const ir_instr *from)
{
   to->sub = from->sub;
   to->rnd = from->rnd;
   to->space = from->space;
   to->flags = from->flags;
   to->type = from->type;
   to->type2 = from->type2;
   to->line = from->line;
   to->imm = from->imm;
   to->sym = from->sym;
}

static ir_def *mapped(ir_instr **map, ir_def *d)
{
   return d && map[d->parent->index] ? &map[d->parent->index]->def : d;
}

/* The sources of copy c of instruction i; a phi keeps the sources coming
 * from inside R (and from u, at w). */
static void copy_srcs(ir_instr *c, ir_instr *i, ir_instr **map, ir_block **bmap, const plan *p)
{
   uint32_t n = 0;
   for (uint32_t k = 0; k < i->nsrcs; k++) {
      ir_block *pred = i->srcs[k].pred;
      if (i->op == IR_PHI && !(pred && bmap[pred->index]) && !(pred == p->u && i->block == p->w))
         continue;
      ir_src_set(&c->srcs[n], c, mapped(map, i->srcs[k].def));
      c->srcs[n++].pred = pred && bmap[pred->index] ? bmap[pred->index] : pred;
   }
   c->nsrcs = n;
   if (i->guard.def)
      ir_src_set(&c->guard, c, mapped(map, i->guard.def));
   if (i->old.def)
      ir_src_set(&c->old, c, mapped(map, i->old.def));
}

/* Drops the sources of b's phis that come from block `from`. */
static void drop_phi_sources(ir_block *b, const ir_block *from)
{
   ir_foreach_instr(phi, b) {
      if (phi->op != IR_PHI)
         break;
      uint32_t o = 0;
      for (uint32_t k = 0; k < phi->nsrcs; k++) {
         ir_def *d = phi->srcs[k].def;
         ir_block *pred = phi->srcs[k].pred;
         ir_src_clear(&phi->srcs[k]);
         if (pred == from)
            continue;
         ir_src_set(&phi->srcs[o], phi, d);
         phi->srcs[o++].pred = pred;
      }
      phi->nsrcs = o;
   }
}

/* R is also entered from elsewhere (nvcc merges the code before a return):
 * the edge u → w gets its own copy of R, entered only from u. */
static bool copy_region(ir_func *f, plan *p, uint32_t *copied)
{
   arena *ar = f->module->ar;
   uint32_t nb = p->nregion;
   ir_block **bmap = arena_alloc(ar, f->blocks.len * sizeof(*bmap));
   ir_instr **map = arena_alloc(ar, (f->ninstrs + 1) * sizeof(*map));
   if (!bmap || !map)
      return ir_error(f->module, 0, "out of memory");
   for (uint32_t k = 0; k < nb; k++) {
      ir_block *b = f->blocks.data[k];
      if (!p->region[k])
         continue;
      if (!(bmap[k] = ir_block_create(f, NULL)))
         return ir_error(f->module, 0, "out of memory");
      ir_foreach_instr(i, b) {
         if (++*copied > MAX_COPIED)
            return ir_error(f->module, i->line, "early returns before a barrier share too much code to copy");
         ir_instr *c = ir_instr_create(f, i->op, i->nsrcs, i->def.bits, i->def.ncomp);
         if (!c)
            return ir_error(f->module, 0, "out of memory");
         copy_fields(c, i);
         ir_instr_append(bmap[k], c);
         map[i->index] = c;
      }
   }
   for (uint32_t k = 0; k < nb; k++) {
      if (!p->region[k])
         continue;
      ir_block *b = f->blocks.data[k];
      ir_foreach_instr(i, b)
         copy_srcs(map[i->index], i, map, bmap, p);
      ir_foreach_succ(t, b)
         ir_block_add_succ(bmap[k], bmap[(*t)->index]);
   }
   /* u now enters the copy; w loses u's phi values. */
   for (uint32_t k = 0; k < p->u->succs.len; k++)
      if (p->u->succs.data[k] == p->w)
         p->u->succs.data[k] = bmap[p->w->index];
   drop_phi_sources(p->w, p->u);
   for (uint32_t k = 0; k < nb; k++)
      p->region[k] = false;
   p->w = bmap[p->w->index];
   ir_func_compute_preds(f);
   return true;
}

/* B: the ret/exit blocks of R, or of u's copy of R.  Regions are found
 * before any change (a rewritten exit would lead into the rest of the
 * kernel, a copy adds blocks). */
static bool collect_exits(ir_func *f, plan *p, uint32_t *copied)
{
   if (p->trivial)
      return true;
   uint32_t first = f->blocks.len;
   if (!p->single && !copy_region(f, p, copied))
      return false;
   ir_foreach_block(x, f)
      p->nexits += (p->single ? in_region(p, x) : x->index >= first) && ends_thread(x);
   p->exits = arena_alloc(f->module->ar, (p->nexits + 1) * sizeof(*p->exits));
   if (!p->exits)
      return ir_error(f->module, 0, "out of memory");
   uint32_t n = 0;
   ir_foreach_block(x, f)
      if ((p->single ? in_region(p, x) : x->index >= first) && ends_thread(x))
         p->exits[n++] = x;
   return true;
}

/* kill[b]: 1 = alive &= the condition that kept the thread (A, at u),
 * 2 = alive = false (B, at a former ret/exit). */
static bool rewrite(ir_func *f, plan *p, uint8_t *kill, plan **keep)
{
   if (p->trivial) {
      ir_foreach_instr_safe(phi, p->w)       /* unused: w only ends the thread */
         if (phi->op == IR_PHI)
            ir_instr_remove(phi);
      kill[p->u->index] = 1;
      keep[p->u->index] = p;
      return branch_to(f, p->u, p->o);
   }
   for (uint32_t k = 0; k < p->nexits; k++) {
      ir_block *x = p->exits[k];
      if (!copy_phi_sources(f, p->o, x, p->u) || !branch_to(f, x, p->o))
         return false;
      kill[x->index] = 2;
   }
   return true;
}

/* ends[b]: b can reach a ret/exit/trap without taking the edge u → w of a
 * plan k not chosen to vote (vote[k] false; np 0: every edge counts). */
static bool *reach_end(ir_func *f, const plan *plans, uint32_t np, const bool *vote)
{
   arena *ar = f->module->ar;
   bool *ends = arena_alloc(ar, f->blocks.len * sizeof(bool));
   ir_block **stack = arena_alloc(ar, (f->blocks.len + 1) * sizeof(*stack));
   if (!ends || !stack)
      return NULL;
   uint32_t sp = 0;
   ir_foreach_block(b, f) {
      ir_instr *t = ir_block_terminator(b);
      if (t && (t->op == IR_RET || t->op == IR_EXIT || t->op == IR_TRAP)) {
         ends[b->index] = true;
         stack[sp++] = b;
      }
   }
   while (sp) {
      ir_block *b = stack[--sp];
      ir_foreach_pred(q, b) {
         bool cut = false;
         for (uint32_t k = 0; k < np && !cut; k++)
            cut = !vote[k] && plans[k].u == *q && plans[k].w == b;
         if (!cut && !ends[(*q)->index]) {
            ends[(*q)->index] = true;
            stack[sp++] = *q;
         }
      }
   }
   return ends;
}

/* Once the early exits lead back into the kernel, every block must still
 * reach an end: a loop whose only way out was an early return (threads
 * leaving it at different iterations) would never end.  (pick_votes makes
 * such exits votes first; this stays as the check.) */
static bool every_block_can_end(ir_func *f, const plan *plans, uint32_t np)
{
   ir_func_compute_preds(f);
   const bool *ends = reach_end(f, NULL, 0, NULL);
   if (!ends)
      return ir_error(f->module, 0, "out of memory");
   for (uint32_t k = 0; k < np; k++)
      if (!ends[plans[k].u->index])
         return ir_error(f->module, ir_block_terminator(plans[k].u)->line,
                         "a loop with a barrier that threads leave at different iterations to return is not "
                         "supported (Metal needs every thread at each barrier, and the returning threads "
                         "cannot tell when the others are done)");
   return true;
}

/* ---- alive in SSA form ---- */

typedef struct ssa {
   ir_func *f;
   ir_def *yes;               /* the constant true */
   ir_def **in, **out;        /* by block index */
   ir_instr **phi;
   uint8_t *kill;
   plan **keep;
} ssa;

static ir_def *pred_op(ir_func *f, ir_op op, ir_def *a, ir_def *b, ir_instr *before)
{
   ir_instr *i = new_instr(f, op, b ? 2 : 1, 1, before->line);
   if (!i)
      return NULL;
   ir_src_set(&i->srcs[0], i, a);
   if (b)
      ir_src_set(&i->srcs[1], i, b);
   ir_instr_insert_before(before, i);
   return &i->def;
}

/* Phis at the iterated dominance frontier of the blocks that change alive
 * (Cytron et al.; the frontier from idoms as in Cooper, Harvey, Kennedy). */
static bool place_phis(ssa *s, ir_block **order, uint32_t n)
{
   ir_func *f = s->f;
   arena *ar = f->module->ar;
   uint32_t nb = f->blocks.len;
   ir_block **work = arena_alloc(ar, (nb + 1) * sizeof(*work));
   bool *queued = arena_alloc(ar, nb * sizeof(bool));
   if (!work || !queued)
      return false;
   uint32_t sp = 0;
   for (uint32_t k = 0; k < n; k++)
      if (s->kill[order[k]->index]) {
         work[sp++] = order[k];
         queued[order[k]->index] = true;
      }
   while (sp) {
      ir_block *d = work[--sp];
      /* DF(d): blocks with a predecessor dominated by d that d does not
       * strictly dominate. */
      for (uint32_t k = 0; k < n; k++) {
         ir_block *y = order[k];
         if (s->phi[y->index] || y->preds.len < 2 || (y != d && ir_dominates(d, y)))
            continue;
         bool in_df = false;
         ir_foreach_pred(q, y)
            if ((*q)->rpo != UINT32_MAX && ir_dominates(d, *q))
               in_df = true;
         if (!in_df)
            continue;
         ir_instr *phi = new_instr(f, IR_PHI, y->preds.len, 1, 0);
         if (!phi)
            return false;
         if (y->first)
            ir_instr_insert_before(y->first, phi);
         else
            ir_instr_append(y, phi);
         s->phi[y->index] = phi;
         if (!queued[y->index]) {
            queued[y->index] = true;
            work[sp++] = y;
         }
      }
   }
   return true;
}

/* alive at the end of b, given alive at its start. */
static ir_def *alive_out(ssa *s, ir_block *b, ir_def *in)
{
   ir_instr *t = ir_block_terminator(b);
   if (s->kill[b->index] == 2) {          /* the thread has ended */
      ir_instr *no = new_instr(s->f, IR_CONST, 0, 1, t->line);
      if (!no)
         return NULL;
      ir_instr_insert_before(t, no);
      return &no->def;
   }
   if (s->kill[b->index] == 1) {          /* it goes on only where it did not leave */
      const plan *p = s->keep[b->index];
      ir_def *c = p->o_on_true ? p->cond : pred_op(s->f, IR_NOT, p->cond, NULL, t);
      return c ? pred_op(s->f, IR_AND, in, c, t) : NULL;
   }
   return in;
}

/* in/out of every block in dominator order, then the phis' sources. */
static bool rename_alive(ssa *s, ir_block **order, uint32_t n)
{
   for (uint32_t k = 0; k < n; k++) {
      ir_block *b = order[k];
      ir_def *in = s->phi[b->index] ? &s->phi[b->index]->def : k == 0 ? s->yes : s->out[b->idom->index];
      s->in[b->index] = in;
      if (!(s->out[b->index] = alive_out(s, b, in)))
         return false;
   }
   for (uint32_t k = 0; k < n; k++) {
      ir_block *b = order[k];
      ir_instr *phi = s->phi[b->index];
      if (!phi)
         continue;
      uint32_t j = 0;
      ir_foreach_pred(q, b) {
         ir_src_set(&phi->srcs[j], phi, s->out[(*q)->index]);
         phi->srcs[j++].pred = *q;
      }
   }
   return true;
}

/* ---- exits that become votes ---- */

/* vote[k]: plan k's threads, sent back to o, could never end. */
static bool *pick_votes(ir_func *f, const plan *plans, uint32_t np)
{
   bool *vote = arena_alloc(f->module->ar, (np + 1) * sizeof(bool));
   if (!vote)
      return NULL;
   for (bool changed = true; changed;) {
      changed = false;
      const bool *ends = reach_end(f, plans, np, vote);
      if (!ends)
         return NULL;
      for (uint32_t k = 0; k < np; k++)
         if (!vote[k] && !ends[plans[k].o->index])
            vote[k] = changed = true;
   }
   return vote;
}

/* u's branch on the vote: the way to o while some live thread's condition
 * takes it (live: true here, and-ed with alive by neutral_bar_red). */
static bool make_vote(ir_func *f, const plan *p)
{
   ir_instr *t = ir_block_terminator(p->u);
   ir_def *to_o = p->o_on_true ? p->cond : pred_op(f, IR_NOT, p->cond, NULL, t);
   ir_instr *live = new_instr(f, IR_CONST, 0, 1, t->line);
   ir_instr *v = new_instr(f, IR_BAR_RED, 2, 1, t->line);
   if (!to_o || !live || !v)
      return ir_error(f->module, 0, "out of memory");
   live->imm = 1;
   ir_instr_insert_before(t, live);
   v->sub = IR_BAR_RED_EXIT;
   ir_src_set(&v->srcs[0], v, to_o);
   ir_src_set(&v->srcs[1], v, &live->def);
   ir_instr_insert_before(t, v);
   ir_def *c = p->o_on_true ? &v->def : pred_op(f, IR_NOT, &v->def, NULL, t);
   if (!c)
      return ir_error(f->module, 0, "out of memory");
   ir_src_set(&t->srcs[0], t, c);
   f->uses_bar_red = true;
   return true;
}

/* Turns the plans that must vote into votes; the others stay in plans
 * (their count in *np). */
static bool apply_votes(ir_func *f, plan *plans, uint32_t *np)
{
   bool *vote = pick_votes(f, plans, *np);
   if (!vote)
      return ir_error(f->module, 0, "out of memory");
   uint32_t kept = 0;
   for (uint32_t k = 0; k < *np; k++) {
      if (!vote[k])
         plans[kept++] = plans[k];
      else if (!make_vote(f, &plans[k]))
         return false;
   }
   *np = kept;
   return true;
}

/* ---- guards ---- */

static bool needs_guard(const ir_instr *i)
{
   if (i->op == IR_BAR || i->op == IR_BAR_RED || i->op == IR_MEMBAR || i->op == IR_PHI ||
       ir_op_is(i->op, IR_OP_TERMINATOR))
      return false;
   return ir_op_is(i->op, IR_OP_MEMORY) || ir_op_is(i->op, IR_OP_SIDE_EFFECT) ||
          ir_op_is(i->op, IR_OP_CONVERGENT);
}

/* i runs only while alive (and its own guard holds); a result it no
 * longer computes is undefined. */
static bool guard(ssa *s, ir_instr *i, ir_def *alive)
{
   ir_func *f = s->f;
   if (i->op == IR_CALL && is_barrier(f->module, i, 0))
      return ir_error(f->module, i->line, "a call of '%s', which has barriers, after an early return is "
                      "not supported yet", i->sym);
   ir_def *g = alive;
   if (i->guard.def) {
      ir_def *own = i->guard.def;
      if (i->flags & IR_F_GUARD_NEG)
         own = pred_op(f, IR_NOT, own, NULL, i);
      g = own ? pred_op(f, IR_AND, alive, own, i) : NULL;
      i->flags &= (uint16_t)~IR_F_GUARD_NEG;
   } else if (i->def.bits && !i->old.def) {
      ir_instr *u = ir_instr_create(f, IR_UNDEF, 0, i->def.bits, i->def.ncomp);
      if (!u)
         return false;
      u->type = i->type;
      ir_instr_insert_before(f->blocks.data[0]->first, u);
      ir_src_set(&i->old, i, &u->def);
   }
   if (!g)
      return false;
   ir_src_set(&i->guard, i, g);
   return true;
}

/* bar.red: a dead thread's predicate is neutral (a vote's live is alive). */
static bool neutral_bar_red(ssa *s, ir_instr *i, ir_def *alive)
{
   ir_def *p = i->srcs[0].def, *r;
   if (i->sub == IR_BAR_RED_EXIT)
      ir_src_set(&i->srcs[1], i, alive);
   if (i->sub == IR_BAR_RED_AND) {
      ir_def *dead = pred_op(s->f, IR_NOT, alive, NULL, i);
      r = dead ? pred_op(s->f, IR_OR, p, dead, i) : NULL;
   } else {
      r = pred_op(s->f, IR_AND, p, alive, i);
   }
   if (!r)
      return false;
   ir_src_set(&i->srcs[0], i, r);
   return true;
}

static bool add_guards(ssa *s, ir_block **order, uint32_t n)
{
   for (uint32_t k = 0; k < n; k++) {
      ir_block *b = order[k];
      ir_def *alive = s->in[b->index];
      if (alive == s->yes)
         continue;
      ir_foreach_instr_safe(i, b) {
         bool ok = true;
         if (i->op == IR_BAR_RED)
            ok = neutral_bar_red(s, i, alive);
         else if (needs_guard(i))
            ok = guard(s, i, alive);
         if (!ok)
            return false;
      }
   }
   return true;
}

/* ---- the pass ---- */

static bool apply(ir_func *f, plan *plans, uint32_t np)
{
   arena *ar = f->module->ar;
   for (uint32_t k = 0; k < np; k++)
      if (!plans[k].trivial && !find_region(f, &plans[k]))
         return false;
   uint32_t copied = 0;
   for (uint32_t k = 0; k < np; k++)
      if (!collect_exits(f, &plans[k], &copied))
         return false;
   uint32_t nb = f->blocks.len;
   uint8_t *kill = arena_alloc(ar, nb);
   plan **keep = arena_alloc(ar, nb * sizeof(*keep));
   if (!kill || !keep)
      return ir_error(f->module, 0, "out of memory");
   for (uint32_t k = 0; k < np; k++)
      if (!rewrite(f, &plans[k], kill, keep))
         return false;
   if (!every_block_can_end(f, plans, np))
      return false;
   /* Block indices change below: carry kill/keep over by block. */
   for (uint32_t k = 0; k < nb; k++)
      f->blocks.data[k]->pass_data = kill[k] ? (void *)&kill[k] : NULL;
   ir_func_compute_preds(f);
   ir_func_remove_unreachable(f);
   ir_compute_dominance(f);
   ssa s = { .f = f };
   uint32_t n = f->blocks.len;
   s.in = arena_alloc(ar, n * sizeof(ir_def *));
   s.out = arena_alloc(ar, n * sizeof(ir_def *));
   s.phi = arena_alloc(ar, n * sizeof(ir_instr *));
   s.kill = arena_alloc(ar, n);
   s.keep = arena_alloc(ar, n * sizeof(plan *));
   ir_block **order = arena_alloc(ar, (n + 1) * sizeof(*order));
   ir_instr *yes = new_instr(f, IR_CONST, 0, 1, 0);
   if (!s.in || !s.out || !s.phi || !s.kill || !s.keep || !order || !yes)
      return ir_error(f->module, 0, "out of memory");
   yes->imm = 1;
   ir_block *entry = f->blocks.data[0];
   if (entry->preds.len)        /* a phi of alive there would have no entry value */
      return ir_error(f->module, 0, "early return with barriers in a kernel whose first block is a loop "
                      "header is not supported yet");
   if (entry->first)
      ir_instr_insert_before(entry->first, yes);
   else
      ir_instr_append(entry, yes);
   s.yes = &yes->def;
   uint32_t nr = 0;
   ir_foreach_block(b, f) {
      const uint8_t *kp = b->pass_data;
      s.kill[b->index] = kp ? *kp : 0;
      s.keep[b->index] = kp && *kp == 1 ? keep[kp - kill] : NULL;
      b->pass_data = NULL;
      if (b->rpo != UINT32_MAX) {
         order[b->rpo] = b;
         nr++;
      }
   }
   return place_phis(&s, order, nr) && rename_alive(&s, order, nr) && add_guards(&s, order, nr);
}

static bool lower_func(ir_func *f)
{
   if (!f->is_kernel || !f->blocks.len || !func_has_barrier(f->module, f, 0))
      return false;
   ir_func_compute_preds(f);
   bool *reach = barrier_reach(f), *div = ir_find_divergence(f);
   if (!reach || !div)
      return ir_error(f->module, 0, "out of memory");
   plan *plans;
   uint32_t np = find_plans(f, reach, div, &plans);
   if (!np)
      return false;
   if (apply_votes(f, plans, &np) && np)
      apply(f, plans, np);    /* on failure the module has the error */
   return true;
}

bool ir_lower_exit(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m)
      progress |= ir_progress(lower_func(f), f, IR_META_CFG);
   return progress;
}
