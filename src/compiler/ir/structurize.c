/*
 * structurize.c — turns the CFG of every function into structured control
 * flow (loops, blocks with breaks, ifs), because MSL has no goto
 * (metal-semantics D1).
 *
 * Algorithm: Norman Ramsey, "Beyond Relooper: Recursive Translation of
 * Unstructured Control Flow to Structured Control Flow" (ICFP 2022).  It
 * walks the dominator tree of a reducible CFG:
 *
 *   doTree(X):   if X is a loop header: loop { nodeWithin(X, merges(X)) }
 *                else nodeWithin(X, merges(X))
 *   nodeWithin(X, y1 < ... < yn):      (merge children of X, by RPO)
 *                block { nodeWithin(X, y1..yn-1) }  doTree(yn)
 *   nodeWithin(X, none):  X's code, then its terminator:
 *                goto T → branch(X, T); if c then branch(X,T) else branch(X,F)
 *   branch(X, T): back edge (T is a loop header above)  → continue T's loop
 *                 T a merge node                          → break out of the
 *                                                           block T follows
 *                 otherwise (X is T's only forward pred)  → doTree(T) inline
 *
 * A merge node has two or more forward in-edges.  Every path in the result
 * ends in an explicit break/continue/return, so falling off the end of a
 * loop body leaves the loop (as in WebAssembly).  The output is linear in
 * the size of the CFG: no code is duplicated.  Phi copies are placed on
 * each branch as EDGE nodes (out of SSA at emission).
 *
 * The CFG must be reducible: ir_split_irreducible (split_irreducible.c),
 * which runs before this pass, makes it so by node splitting.  A CFG still
 * irreducible here is an internal error, reported naming the block.
 *
 * Precondition: IR_META_CFG (computes dominance itself).  Produces
 * IR_META_STRUCTURED; changes no instruction.
 */
#include "ir.h"

typedef struct cf_builder {
   ir_func *f;
   arena *ar;
   uint32_t next_id;
   bool failed;
} cf_builder;

/* Enclosing constructs while building (innermost first). */
typedef struct cf_ctx {
   enum { CTX_LOOP, CTX_BLOCK } kind;
   ir_block *label;    /* loop header, or the merge node the block precedes */
   ir_cf *node;
   const struct cf_ctx *next;
} cf_ctx;

static ir_cf *cf_new(cf_builder *cb, ir_cf_kind kind)
{
   ir_cf *n = arena_alloc(cb->ar, sizeof(*n));
   if (!n) {
      cb->failed = true;
      return NULL;
   }
   n->kind = kind;
   n->id = ++cb->next_id;
   return n;
}

static void cf_append(ir_cf *parent, ir_cf *child)
{
   if (!parent || !child)
      return;
   if (parent->last)
      parent->last->next = child;
   else
      parent->first = child;
   parent->last = child;
}

static bool is_merge_node(const ir_block *b)
{
   uint32_t forward = 0;
   ir_foreach_pred(p, b)
      if ((*p)->rpo != UINT32_MAX && (*p)->rpo < b->rpo)
         forward++;
   return forward >= 2;
}

static bool block_has_phis(const ir_block *b) { return b->first && b->first->op == IR_PHI; }

static ir_cf *do_tree(cf_builder *cb, ir_block *x, const cf_ctx *ctx);

static ir_cf *do_branch(cf_builder *cb, ir_block *src, ir_block *tgt, const cf_ctx *ctx)
{
   ir_cf *seq = cf_new(cb, IR_CF_SEQ);
   if (!seq)
      return NULL;
   if (block_has_phis(tgt)) {
      ir_cf *e = cf_new(cb, IR_CF_EDGE);
      if (e) {
         e->from = src;
         e->to = tgt;
      }
      cf_append(seq, e);
   }
   if (tgt->rpo <= src->rpo) {
      for (const cf_ctx *c = ctx; c; c = c->next) {
         if (c->kind == CTX_LOOP && c->label == tgt) {
            ir_cf *k = cf_new(cb, IR_CF_CONTINUE);
            if (k)
               k->target = c->node;
            cf_append(seq, k);
            return seq;
         }
      }
      ir_die(cb->f, "structurize: back edge to %u has no enclosing loop", tgt->index);
   }
   if (is_merge_node(tgt)) {
      for (const cf_ctx *c = ctx; c; c = c->next) {
         if (c->kind == CTX_BLOCK && c->label == tgt) {
            ir_cf *k = cf_new(cb, IR_CF_BREAK);
            if (k)
               k->target = c->node;
            cf_append(seq, k);
            return seq;
         }
      }
      ir_die(cb->f, "structurize: edge to merge node %u has no enclosing block", tgt->index);
   }
   cf_append(seq, do_tree(cb, tgt, ctx));
   return seq;
}

static ir_cf *terminator(cf_builder *cb, ir_block *x, const cf_ctx *ctx)
{
   ir_instr *t = ir_block_terminator(x);
   if (!t)
      ir_die(cb->f, "structurize: block %u has no terminator", x->index);
   switch (t->op) {
   case IR_BR:
      return do_branch(cb, x, x->succs.data[0], ctx);
   case IR_CBR: {
      ir_cf *n = cf_new(cb, IR_CF_IF);
      if (!n)
         return NULL;
      n->cond.def = t->srcs[0].def;   /* not linked: the tree is derived data */
      n->block = x;
      n->then_cf = do_branch(cb, x, x->succs.data[0], ctx);
      n->else_cf = do_branch(cb, x, x->succs.data[1], ctx);
      return n;
   }
   case IR_RET:
   case IR_EXIT: {
      ir_cf *n = cf_new(cb, IR_CF_RETURN);
      if (n)
         n->block = x;
      return n;
   }
   case IR_TRAP: {
      ir_cf *n = cf_new(cb, IR_CF_TRAP);
      if (n)
         n->block = x;
      return n;
   }
   default:
      ir_die(cb->f, "structurize: unexpected terminator %s", ir_op_infos[t->op].name);
   }
}

static ir_cf *node_within(cf_builder *cb, ir_block *x, ir_block **merges, uint32_t n,
                          const cf_ctx *ctx)
{
   ir_cf *seq = cf_new(cb, IR_CF_SEQ);
   if (!seq)
      return NULL;
   if (n == 0) {
      ir_cf *code = cf_new(cb, IR_CF_CODE);
      if (code)
         code->block = x;
      cf_append(seq, code);
      cf_append(seq, terminator(cb, x, ctx));
      return seq;
   }
   ir_block *y = merges[n - 1];
   ir_cf *blk = cf_new(cb, IR_CF_BLOCK);
   if (!blk)
      return NULL;
   cf_ctx inner = { CTX_BLOCK, y, blk, ctx };
   cf_append(blk, node_within(cb, x, merges, n - 1, &inner));
   cf_append(seq, blk);
   cf_append(seq, do_tree(cb, y, ctx));
   return seq;
}

static ir_cf *do_tree(cf_builder *cb, ir_block *x, const cf_ctx *ctx)
{
   if (cb->failed)
      return NULL;
   /* dom_children are in RPO order, so the merge children come sorted. */
   ir_block **merges = arena_alloc(cb->ar, (x->dom_children.len + 1) * sizeof(*merges));
   if (!merges) {
      cb->failed = true;
      return NULL;
   }
   uint32_t n = 0;
   vec_foreach(ir_block *, c, &x->dom_children)
      if (is_merge_node(*c))
         merges[n++] = *c;
   if (!x->is_loop_header)
      return node_within(cb, x, merges, n, ctx);
   ir_cf *loop = cf_new(cb, IR_CF_LOOP);
   if (!loop)
      return NULL;
   cf_ctx inner = { CTX_LOOP, x, loop, ctx };
   cf_append(loop, node_within(cb, x, merges, n, &inner));
   return loop;
}

static bool structurize_func(ir_func *f)
{
   if (f->valid & IR_META_STRUCTURED)
      return false;
   ir_compute_dominance(f);
   ir_block *bad;
   ir_find_irreducible(f, &bad);
   uint32_t bad_line = 0;
   if (bad)
      ir_foreach_instr(i, bad)
         if (!bad_line && i->line)
            bad_line = i->line;
   if (bad)
      return ir_error(f->module, bad_line,
                      "internal error: control flow still irreducible after node splitting "
                      "(entering the loop at %s%s%s)",
                      bad->label ? "label '" : "a block", bad->label ? bad->label : "",
                      bad->label ? "'" : "");
   cf_builder cb = { f, f->module->ar, 0, false };
   f->cf = do_tree(&cb, f->blocks.data[0], NULL);
   if (cb.failed || !f->cf)
      return ir_error(f->module, 0, "out of memory");
   f->valid |= IR_META_STRUCTURED;
   return true;
}

bool ir_structurize(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m)
      progress |= ir_progress(structurize_func(f), f, IR_META_ALL);
   return progress;
}
