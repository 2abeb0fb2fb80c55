/*
 * split_irreducible.c — makes every CFG reducible by node splitting, so the
 * structurizer (which needs single-entry loops) can handle any PTX.
 *
 * An irreducible region is found from a retreating edge b → s whose target
 * does not dominate its source: R is the set of blocks on cycles through
 * that edge, i.e. reachable from s and reaching b without passing a strict
 * dominator of s.  R has several entries (blocks with a predecessor outside
 * R).  One entry H is kept as the loop header; the rest of the region,
 * S = R \ {H}, is copied to S', and every edge from outside R into S is
 * moved to the copy.  Now S is entered only through H (H dominates R: a
 * natural loop), and S' — entered only from outside — leads into H or out
 * of the region; it may itself be irreducible, so the pass repeats.
 *
 * Node splitting keeps the semantics of every path: the copy S' is an exact
 * image of S (edges S'→S' mirror S→S, S'→H and S'→exits mirror S's), so a
 * path through the new CFG is a path of the old one with some blocks
 * replaced by their copies.  The cost is code size, exponential in the
 * worst case, so growth is capped and a function past the cap is refused.
 *
 * The IR is in SSA form already; the copies get fresh defs.  A value
 * defined in S and used past the region (dominated by its def before the
 * split) may now arrive from the def or from its copy: those uses are
 * rewritten by a backward search from the use that places phis where
 * both versions meet (the same on-demand search as build.c's SSA
 * construction, run over a complete CFG).
 */
#include "ir.h"

#include <string.h>

enum { ROLE_OUTSIDE, ROLE_HEADER, ROLE_SPLIT, ROLE_COPY };

/* Per block, through pass_data (kept across renumbering). */
typedef struct split_block {
   uint8_t role;
   ir_block *copy;            /* ROLE_SPLIT: its copy in S' */
   /* repair search: start value for the def being repaired, stamped */
   uint32_t stamp;
   ir_def *start;
} split_block;

typedef struct split_ctx {
   ir_func *f;
   arena *ar;
   ir_def **def_copy;         /* def index → its copy (defs of S only) */
   uint32_t ndefs;            /* defs before this round's copying */
   uint32_t stamp;
   ir_def *orig, *copy;       /* the def being repaired and its copy */
   bool failed;
} split_ctx;

static split_block *info(const ir_block *b) { return b->pass_data; }
static bool in_split(const ir_block *b) { return info(b)->role == ROLE_SPLIT; }
static bool in_region(const ir_block *b) { return info(b)->role == ROLE_SPLIT || info(b)->role == ROLE_HEADER; }

static bool attach_info(split_ctx *sc)
{
   ir_foreach_block(b, sc->f) {
      split_block *i = arena_alloc(sc->ar, sizeof(*i));
      if (!i)
         return false;
      b->pass_data = i;
   }
   return true;
}

/* An edge b → s with s not dominating b (needs dominance). */
static bool find_irreducible_edge(ir_func *f, ir_block **from, ir_block **to)
{
   ir_foreach_block(b, f) {
      if (b->rpo == UINT32_MAX)
         continue;
      ir_foreach_succ(s, b) {
         if ((*s)->rpo <= b->rpo && !ir_dominates(*s, b)) {
            *from = b;
            *to = *s;
            return true;
         }
      }
   }
   return false;
}

/* Flood from `start` along succs (forward) or preds, skipping blocks whose
 * pass_flags have bit `stop` and marking `mark`. */
static bool flood(split_ctx *sc, ir_block *start, bool forward, uint8_t stop, uint8_t mark)
{
   ir_block **stack = arena_alloc(sc->ar, (sc->f->blocks.len + 1) * sizeof(*stack));
   if (!stack)
      return false;
   uint32_t sp = 0;
   start->pass_flags |= mark;
   stack[sp++] = start;
   while (sp) {
      ir_block *b = stack[--sp];
      ir_block_vec *next = forward ? &b->succs : &b->preds;
      vec_foreach(ir_block *, n, next) {
         if ((*n)->rpo == UINT32_MAX || ((*n)->pass_flags & (stop | mark)))
            continue;
         (*n)->pass_flags |= mark;
         stack[sp++] = *n;
      }
   }
   return true;
}

enum { F_SDOM = 1, F_FWD = 2, F_BWD = 4 };

/* Marks the region of the edge b → s; returns its header (the entry first
 * in reverse postorder) or NULL. */
static ir_block *mark_region(split_ctx *sc, ir_block *b, ir_block *s)
{
   ir_foreach_block(x, sc->f) {
      x->pass_flags = 0;
      info(x)->role = ROLE_OUTSIDE;
      info(x)->copy = NULL;
   }
   for (ir_block *d = s->idom; d; d = d->idom)
      d->pass_flags |= F_SDOM;
   if (!flood(sc, s, true, F_SDOM, F_FWD) || !flood(sc, b, false, F_SDOM, F_BWD))
      return NULL;
   ir_foreach_block(x, sc->f)
      if ((x->pass_flags & (F_FWD | F_BWD)) == (F_FWD | F_BWD))
         info(x)->role = ROLE_SPLIT;
   ir_block *header = NULL;
   ir_foreach_block(x, sc->f) {
      if (!in_split(x))
         continue;
      ir_foreach_pred(p, x)
         if ((*p)->rpo != UINT32_MAX && !in_split(*p) && (!header || x->rpo < header->rpo))
            header = x;
   }
   if (header)
      info(header)->role = ROLE_HEADER;
   return header;
}

static ir_def *map_def(split_ctx *sc, ir_def *d)
{
   if (d && d->index < sc->ndefs && sc->def_copy[d->index])
      return sc->def_copy[d->index];
   return d;
}

static ir_block *map_block(ir_block *b)
{
   return in_split(b) ? info(b)->copy : b;
}

/* A detached copy of i with a fresh def; sources are set later. */
static ir_instr *copy_instr(split_ctx *sc, ir_instr *i)
{
   ir_instr *c = ir_instr_create(sc->f, i->op, i->nsrcs, i->def.bits, i->def.ncomp);
   if (!c)
      return NULL;
   ir_instr keep = *c;
   *c = *i;
   c->block = NULL;
   c->prev = c->next = NULL;
   c->index = keep.index;
   c->def = keep.def;
   c->srcs = keep.srcs;
   memset(&c->guard, 0, sizeof(c->guard));
   memset(&c->old, 0, sizeof(c->old));
   if (ir_instr_has_def(i))
      sc->def_copy[i->def.index] = &c->def;
   return c;
}

static void copy_src(split_ctx *sc, ir_src *to, ir_instr *parent, const ir_src *from)
{
   if (from->def)
      ir_src_set(to, parent, map_def(sc, from->def));
}

/* Sources of a copied phi: an edge from a block of S now comes from its
 * copy; edges from outside R stay; edges from H go to the original only. */
static void copy_phi_srcs(split_ctx *sc, ir_instr *c, const ir_instr *i)
{
   uint32_t n = 0;
   for (uint32_t k = 0; k < i->nsrcs; k++) {
      ir_block *p = i->srcs[k].pred;
      if (info(p)->role == ROLE_HEADER)
         continue;
      /* a value from outside R keeps its def (the SSA repair below
       * rewrites it if that def is in S and has a copy now) */
      if (in_split(p))
         copy_src(sc, &c->srcs[n], c, &i->srcs[k]);
      else if (i->srcs[k].def)
         ir_src_set(&c->srcs[n], c, i->srcs[k].def);
      c->srcs[n++].pred = map_block(p);
   }
   c->nsrcs = n;
}

/* Copies S: blocks and instructions (every def first, so sources can map
 * to copies defined later in the walk), then sources and edges. */
static bool copy_split_blocks(split_ctx *sc)
{
   ir_func *f = sc->f;
   uint32_t nblocks = f->blocks.len;
   for (uint32_t k = 0; k < nblocks; k++) {
      ir_block *b = f->blocks.data[k];
      if (!in_split(b))
         continue;
      ir_block *c = ir_block_create(f, NULL);
      split_block *ci = arena_alloc(sc->ar, sizeof(*ci));
      if (!c || !ci)
         return false;
      ci->role = ROLE_COPY;
      c->pass_data = ci;
      info(b)->copy = c;
      ir_foreach_instr(i, b) {
         ir_instr *ni = copy_instr(sc, i);
         if (!ni)
            return false;
         ir_instr_append(c, ni);
      }
   }
   for (uint32_t k = 0; k < nblocks; k++) {
      ir_block *b = f->blocks.data[k];
      if (!in_split(b))
         continue;
      ir_block *c = info(b)->copy;
      for (ir_instr *i = b->first, *ni = c->first; i; i = i->next, ni = ni->next) {
         if (i->op == IR_PHI) {
            copy_phi_srcs(sc, ni, i);
            continue;
         }
         for (uint32_t s = 0; s < i->nsrcs; s++)
            copy_src(sc, &ni->srcs[s], ni, &i->srcs[s]);
         copy_src(sc, &ni->guard, ni, &i->guard);
         copy_src(sc, &ni->old, ni, &i->old);
      }
      ir_foreach_succ(s, b)
         vec_push(sc->ar, &c->succs, map_block(*s));
   }
   return true;
}

/* Edges from outside R into S move to the copies. */
static void redirect_entries(split_ctx *sc, uint32_t nblocks)
{
   for (uint32_t k = 0; k < nblocks; k++) {
      ir_block *b = sc->f->blocks.data[k];
      if (in_region(b))
         continue;
      for (uint32_t j = 0; j < b->succs.len; j++)
         b->succs.data[j] = map_block(b->succs.data[j]);
   }
}

/* Phis of S lose their sources from outside R (those edges moved). */
static void drop_outside_srcs(ir_instr *phi)
{
   uint32_t o = 0;
   for (uint32_t k = 0; k < phi->nsrcs; k++) {
      ir_block *p = phi->srcs[k].pred;
      ir_def *d = phi->srcs[k].def;
      ir_src_clear(&phi->srcs[k]);
      if (!in_region(p))
         continue;
      if (d)
         ir_src_set(&phi->srcs[o], phi, d);
      phi->srcs[o++].pred = p;
   }
   phi->nsrcs = o;
}

/* Phis outside S gain a source for each new edge from a copy of S. */
static bool add_copy_srcs(split_ctx *sc, ir_instr *phi)
{
   uint32_t extra = 0;
   for (uint32_t k = 0; k < phi->nsrcs; k++)
      extra += in_split(phi->srcs[k].pred);
   if (!extra)
      return true;
   uint32_t n = phi->nsrcs;
   ir_src *srcs = arena_alloc(sc->ar, (n + extra) * sizeof(*srcs));
   if (!srcs)
      return false;
   uint32_t o = n;
   for (uint32_t k = 0; k < n; k++) {
      ir_src *from = &phi->srcs[k];
      ir_def *d = from->def;
      srcs[k].pred = from->pred;
      if (in_split(from->pred)) {
         srcs[o].pred = info(from->pred)->copy;
         if (d)
            ir_src_set(&srcs[o], phi, map_def(sc, d));
         o++;
      }
      ir_src_clear(from);
      if (d)
         ir_src_set(&srcs[k], phi, d);
   }
   phi->srcs = srcs;
   phi->nsrcs = o;
   return true;
}

static bool fix_phis(split_ctx *sc, uint32_t nblocks)
{
   for (uint32_t k = 0; k < nblocks; k++) {
      ir_block *b = sc->f->blocks.data[k];
      ir_foreach_instr(phi, b) {
         if (phi->op != IR_PHI)
            break;
         if (in_split(b))
            drop_outside_srcs(phi);
         else if (!add_copy_srcs(sc, phi))
            return false;
      }
   }
   return true;
}

/* ---- SSA repair ---- */

static ir_def *value_at_start(split_ctx *sc, ir_block *b);

static ir_def *value_at_end(split_ctx *sc, ir_block *b)
{
   if (b == sc->orig->parent->block)
      return sc->orig;
   if (b == sc->copy->parent->block)
      return sc->copy;
   return value_at_start(sc, b);
}

static ir_def *value_at_start(split_ctx *sc, ir_block *b)
{
   split_block *bi = info(b);
   if (bi->stamp == sc->stamp)
      return bi->start;
   if (b->preds.len == 0) {
      /* every path to a use passes the def or its copy (see above) */
      sc->failed = true;
      return NULL;
   }
   /* A single predecessor is not memoised before the search (as in
    * build.c): every reachable cycle has a block with several
    * predecessors, whose phi is, so the search ends there. */
   if (b->preds.len == 1) {
      ir_def *d = value_at_end(sc, b->preds.data[0]);
      bi->stamp = sc->stamp;
      return bi->start = d;
   }
   bi->stamp = sc->stamp;
   ir_instr *phi = ir_instr_create(sc->f, IR_PHI, b->preds.len, sc->orig->bits, sc->orig->ncomp);
   if (!phi) {
      sc->failed = true;
      return NULL;
   }
   phi->type = sc->orig->parent->type;
   ir_instr *at = b->first;
   while (at && at->op == IR_PHI)
      at = at->next;
   if (at)
      ir_instr_insert_before(at, phi);
   else
      ir_instr_append(b, phi);
   bi->start = &phi->def;   /* before the search: loops come back here */
   for (uint32_t k = 0; k < b->preds.len; k++) {
      ir_def *d = value_at_end(sc, b->preds.data[k]);
      if (!d)
         return NULL;
      ir_src_set(&phi->srcs[k], phi, d);
      phi->srcs[k].pred = b->preds.data[k];
   }
   return &phi->def;
}

/* Where a use reads its value: a phi source at the end of its predecessor. */
static ir_block *use_block(const ir_src *u)
{
   return u->parent->op == IR_PHI && u->pred ? u->pred : u->parent->block;
}

static bool repair_def(split_ctx *sc, ir_def *orig, ir_def *copy)
{
   sc->orig = orig;
   sc->copy = copy;
   sc->stamp++;   /* block values hold for every use of this def */
   ir_foreach_use_safe(u, orig) {
      ir_block *at = use_block(u);
      if (in_split(at) || info(at)->role == ROLE_COPY)
         continue;
      ir_def *d = u->parent->op == IR_PHI && u->pred ? value_at_end(sc, at) : value_at_start(sc, at);
      if (!d || sc->failed)
         return false;
      if (d != orig) {
         ir_instr *parent = u->parent;
         ir_block *pred = u->pred;
         ir_src_clear(u);
         ir_src_set(u, parent, d);
         u->pred = pred;
      }
   }
   return true;
}

static bool repair_ssa(split_ctx *sc)
{
   ir_foreach_block(b, sc->f) {
      if (!in_split(b))
         continue;
      ir_foreach_instr(i, b)
         if (ir_instr_has_def(i) && sc->def_copy[i->def.index] &&
             sc->def_copy[i->def.index]->parent->block &&
             !repair_def(sc, &i->def, sc->def_copy[i->def.index]))
            return false;
   }
   return true;
}

static uint32_t count_instrs(ir_func *f, bool only_split)
{
   uint32_t n = 0;
   ir_foreach_block(b, f)
      if (!only_split || in_split(b))
         ir_foreach_instr(i, b)
            n++;
   return n;
}

static const char *block_name(ir_block *b)
{
   return b->label ? b->label : "an unlabelled block";
}

static uint32_t block_line(ir_block *b)
{
   ir_foreach_instr(i, b)
      if (i->line)
         return i->line;
   return 0;
}

/* One split; false with an error recorded on failure. */
static bool split_once(split_ctx *sc, ir_block *to)
{
   ir_func *f = sc->f;
   uint32_t nblocks = f->blocks.len;
   sc->ndefs = f->ndefs;
   sc->def_copy = arena_alloc(sc->ar, (sc->ndefs + 1) * sizeof(*sc->def_copy));
   if (!sc->def_copy || !copy_split_blocks(sc))
      return ir_error(f->module, 0, "out of memory");
   redirect_entries(sc, nblocks);
   if (!fix_phis(sc, nblocks))
      return ir_error(f->module, 0, "out of memory");
   ir_func_compute_preds(f);
   /* Copies nothing branches to (S had no entry of its own) go first, so
    * the repair never walks into them. */
   ir_func_remove_unreachable(f);
   ir_func_compute_preds(f);
   if (!repair_ssa(sc))
      return ir_error(f->module, block_line(to),
                      "irreducible control flow at %s: internal error repairing SSA after node splitting",
                      block_name(to));
   return true;
}

static bool split_func(ir_func *f)
{
   split_ctx sc = { f, f->module->ar, NULL, 0, 0, NULL, NULL, false };
   uint32_t budget = 0, rounds = 0;
   for (;;) {
      ir_func_compute_preds(f);
      ir_compute_dominance(f);
      ir_block *from, *to;
      if (!find_irreducible_edge(f, &from, &to))
         return rounds > 0;
      if (!attach_info(&sc))
         return ir_error(f->module, 0, "out of memory");
      if (!rounds)
         budget = 2 * count_instrs(f, false) + 256;
      if (!mark_region(&sc, from, to))
         return ir_error(f->module, block_line(to), "irreducible control flow at %s: no region entry found",
                         block_name(to));
      uint32_t cost = count_instrs(f, true);
      if (cost > budget)
         return ir_error(f->module, block_line(to),
                         "irreducible control flow at %s: node splitting would more than triple the "
                         "function's size (restructure the loop so it has one entry)",
                         block_name(to));
      budget -= cost;
      if (!split_once(&sc, to))
         return false;
      rounds++;
   }
}

bool ir_split_irreducible(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m) {
      if (m->error)
         break;
      progress |= ir_progress(split_func(f), f, IR_META_CFG);
   }
   return progress;
}
