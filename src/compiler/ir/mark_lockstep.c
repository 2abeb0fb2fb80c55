/*
 * mark_lockstep.c — the accesses through which the threads of a warp talk
 * without synchronising, and where the warp must therefore meet.
 *
 * An NVIDIA GPU runs a converged warp in lockstep: each instruction is done
 * by every active lane before the next one starts.  Warp-synchronous code
 * (CUDA's early reduction and scan samples, LULESH, much legacy scientific
 * code) relies on it: in `s[t] = s[t] + s[t + 16]` on volatile shared
 * memory, every lane's loads happen before any lane's store.  A machine
 * that runs the lanes one after another between barriers (the software
 * device) computes something else.  This pass marks (IR_F_LOCKSTEP) the
 * instructions before which the warp's active lanes must meet; the emitter
 * puts a meet there (a no-op on a GPU, whose SIMD-groups are lockstep
 * already) and around the loops that hold them (emit.c).
 *
 * Marked:
 *  1. volatile and strong accesses (ld/st .volatile, .relaxed, .acquire,
 *     .release) to shared, global or generic memory: what legacy code
 *     writes for exactly this purpose;
 *  2. fences (membar, fence): code that orders its own accesses for the
 *     other lanes expects them to see the order, as lockstep gives;
 *  3. plain (weak) shared accesses that carry a value between lanes with
 *     no barrier or warp operation in between, where lockstep and one lane
 *     after another differ — nvcc keeps such a store before a load it
 *     cannot prove independent, so the GPU gives the lockstep result.
 *     Lanes run in ascending order between meeting points, so with
 *     per-lane slots (%tid.x or %laneid times a constant, plus terms
 *     uniform in the block) only a later access to a higher lane's bytes
 *     differs: `s[t] = v; w = s[t + 1]` (read after write), `s[t] =
 *     s[t - 1]` (write after read), two stores a slot apart; so does any
 *     access to one slot for the whole block, and, in a kernel that uses
 *     no warp operation (shuffle, vote, __syncwarp ...: code that never
 *     synchronises a warp itself is the code that relies on lockstep),
 *     every read after write whose addresses are not proven apart.  A write after read of
 *     addresses not proven apart is left alone: `s[t] += s[t + d]` with a
 *     variable d is every barrier-synchronised tree reduction, and a row
 *     per thread at a loop-carried address is common in CUB, neither of
 *     which can go wrong in sequence;
 *  4. atomics whose result decides whether a loop ends (a spin lock, a
 *     compare-and-swap loop) get IR_F_SPIN instead: a lane spinning there
 *     must let the lane it waits for run, as Volta's independent thread
 *     scheduling does, which the meet at the loop's latch gives.  No meet
 *     before the atomic: any order of a warp's atomics is one a GPU may
 *     take, and lanes run one after another mostly find the value they
 *     read still there, where a meet before each compare-and-swap would
 *     make all but one of the warp's lanes fail and go round again (32
 *     rounds of meets for a warp's counter).
 *
 * Not covered (README "Known gaps"): plain global memory (every kernel
 * stores one buffer and loads another it cannot prove apart); a write
 * after read whose addresses are not proven apart; in a kernel that uses
 * warp operations, a read after write not proven apart.
 *
 * It also numbers the blocks (ir_block.meet_order) in the order the lanes
 * waiting at different meets go, and gives each loop header the highest
 * number of its loop (loop_meet_end: the latch's place; see
 * compute_meet_order).
 *
 * Precondition: SSA after lower_predicates (no guards) and infer_spaces,
 * a reducible CFG, IR_META_CFG.  Changes only instruction flags and
 * meet_order; computes dominance.
 */
#include "ir.h"

#include <string.h>

/* ---- addresses ---- */

/* An address as base + a constant offset. */
typedef struct addr_form {
   const ir_def *base;
   int64_t off;
} addr_form;

static const ir_def *strip_copies(const ir_def *d)
{
   while (d->parent->op == IR_COPY)
      d = d->parent->srcs[0].def;
   return d;
}

static bool const_of(const ir_def *d, int64_t *v)
{
   d = strip_copies(d);
   if (d->parent->op != IR_CONST || d->ncomp != 1)
      return false;
   *v = d->bits == 64 ? (int64_t)d->parent->imm : (int64_t)(int32_t)(uint32_t)d->parent->imm;
   return true;
}

static addr_form addr_decompose(const ir_def *d)
{
   addr_form a = { strip_copies(d), 0 };
   for (int depth = 0; depth < 16; depth++) {
      const ir_instr *i = a.base->parent;
      int64_t c;
      if ((i->op == IR_ADD || i->op == IR_SUB) && const_of(i->srcs[1].def, &c)) {
         a.off += i->op == IR_ADD ? c : -c;
         a.base = strip_copies(i->srcs[0].def);
      } else if (i->op == IR_ADD && const_of(i->srcs[0].def, &c)) {
         a.off += c;
         a.base = strip_copies(i->srcs[1].def);
      } else {
         break;
      }
   }
   return a;
}

/* The same pure computation of the same values. */
static bool same_value(const ir_def *a, const ir_def *b, int depth)
{
   a = strip_copies(a);
   b = strip_copies(b);
   if (a == b)
      return true;
   const ir_instr *x = a->parent, *y = b->parent;
   if (depth > 8 || x->op != y->op || x->nsrcs != y->nsrcs || a->bits != b->bits || x->sub != y->sub ||
       x->type != y->type || x->type2 != y->type2 || x->imm != y->imm || x->space != y->space)
      return false;
   if (x->op == IR_CONST)
      return true;
   if (x->op == IR_SREG)
      return true;        /* the same special register of the same thread */
   if (x->op == IR_SYMADDR)
      return x->sym == y->sym || (x->sym && y->sym && strcmp(x->sym, y->sym) == 0);
   if (!ir_op_is(x->op, IR_OP_PURE) || x->op == IR_PHI)
      return false;
   for (uint32_t k = 0; k < x->nsrcs; k++)
      if (!same_value(x->srcs[k].def, y->srcs[k].def, depth + 1))
         return false;
   return true;
}

/* The shared variable an address is computed from, if exactly one. */
static const char *root_symbol(const ir_def *d, int depth)
{
   d = strip_copies(d);
   const ir_instr *i = d->parent;
   if (i->op == IR_SYMADDR)
      return i->sym;
   if (depth > 8 || (i->op != IR_ADD && i->op != IR_SUB && i->op != IR_CVT))
      return NULL;
   const char *a = root_symbol(i->srcs[0].def, depth + 1);
   const char *b = i->op == IR_ADD && i->nsrcs > 1 ? root_symbol(i->srcs[1].def, depth + 1) : NULL;
   return a && b ? NULL : a ? a : b;
}

/* A term that differs in every lane of a warp: %tid.x or %laneid, times a
 * non-zero constant (the index of a per-thread slot).  Returns that
 * constant (bytes between two lanes' slots), 0 when d is no such term. */
static int64_t lane_term(const ir_def *d, int depth)
{
   const ir_instr *i = strip_copies(d)->parent;
   int64_t c;
   if (i->op == IR_SREG)
      return i->sub == IR_SREG_TID_X || i->sub == IR_SREG_LANEID;
   if (depth > 4)
      return 0;
   if (i->op == IR_CVT && i->def.bits >= ptx_type_bits[i->type2] && !ptx_type_is_float(i->type) &&
       !ptx_type_is_float(i->type2))
      return lane_term(i->srcs[0].def, depth + 1);
   if (i->op == IR_SHL && const_of(i->srcs[1].def, &c) && c >= 0 && c < 16)
      return lane_term(i->srcs[0].def, depth + 1) * ((int64_t)1 << c);
   if (i->op == IR_MUL && i->sub != IR_MUL_HI) {
      int k = const_of(i->srcs[1].def, &c) ? 0 : const_of(i->srcs[0].def, &c) ? 1 : -1;
      if (k < 0 || c == 0 || c > (1 << 20) || c < -(1 << 20))
         return 0;
      return c * lane_term(i->srcs[1 - k].def, depth + 1);
   }
   return 0;
}

/* Whether address d is different in every lane: one lane term plus terms
 * uniform across the block (a divergent address need not be: s[t / 32]
 * is one slot per warp).  Returns the lane term's constant, 0 if not. */
static int64_t lane_stride(const ir_def *d, const bool *div, int depth)
{
   d = strip_copies(d);
   if (!div[d->index])
      return 0;
   int64_t c = lane_term(d, 0);
   const ir_instr *i = d->parent;
   if (c || depth > 8)
      return c;
   if (i->op == IR_MAD && i->sub == IR_MUL_LO && !ptx_type_is_float(i->type)) {
      /* mad.lo a, b, c: a lane term a * b plus a uniform c */
      int64_t k;
      int which = const_of(i->srcs[1].def, &k) ? 0 : const_of(i->srcs[0].def, &k) ? 1 : -1;
      if (which < 0 || div[strip_copies(i->srcs[2].def)->index] || k == 0 || k > (1 << 20) || k < -(1 << 20))
         return 0;
      return k * lane_term(i->srcs[which].def, 0);
   }
   if (i->op != IR_ADD && i->op != IR_SUB)
      return 0;
   const ir_def *a = i->srcs[0].def, *b = i->srcs[1].def;
   if (!div[strip_copies(b)->index])
      return lane_stride(a, div, depth + 1);
   if (i->op == IR_ADD && !div[strip_copies(a)->index])
      return lane_stride(b, div, depth + 1);
   return 0;
}

static unsigned access_bytes(const ir_instr *i)
{
   unsigned n = i->op == IR_STORE ? i->nsrcs - 1 : i->def.ncomp;
   return ptx_type_bits[i->type] / 8 * n;
}

typedef enum relation {
   REL_UNKNOWN,      /* nothing known */
   REL_APART,        /* never the same bytes in two lanes of a warp */
   REL_LOWER,        /* the later access touches a lower lane's bytes, no higher one's */
   REL_HIGHER,       /* the later access touches a higher lane's bytes */
   REL_SHARED,       /* one slot for every lane */
   REL_UNPROVEN,     /* the same divergent base, lanes' slots not proven apart */
} relation;

/* How the bytes that `first` and then `later` access relate across the
 * lanes of a warp. */
static relation relate(const ir_instr *first, const ir_instr *later, const bool *div)
{
   const ir_def *ax = first->srcs[0].def, *ay = later->srcs[0].def;
   const char *sx = root_symbol(ax, 0), *sy = root_symbol(ay, 0);
   if (sx && sy && strcmp(sx, sy) != 0)
      return REL_APART;
   addr_form fx = addr_decompose(ax), fy = addr_decompose(ay);
   if (!same_value(fx.base, fy.base, 0))
      return REL_UNKNOWN;
   int64_t bx = access_bytes(first), by = access_bytes(later), delta = fy.off - fx.off;
   bool overlap = fx.off < fy.off + by && fy.off < fx.off + bx;
   if (!div[fx.base->index])     /* every lane the same address */
      return overlap ? REL_SHARED : REL_APART;
   int64_t stride = lane_stride(fx.base, div, 0);
   if (!stride)
      return REL_UNPROVEN;
   /* lane t's later access meets lane t + k's first one: -by < delta - k stride < bx */
   relation r = REL_APART;
   for (int64_t k = -31; k <= 31; k++)
      if (k && delta - k * stride > -by && delta - k * stride < bx) {
         if (k > 0)
            return REL_HIGHER;
         r = REL_LOWER;
      }
   return r;
}

/* ---- paths without a meeting point ---- */

/* Where every lane of the warp is known to have met (or the block). */
static bool is_meeting_point(const ir_instr *i)
{
   return i->op == IR_BAR || i->op == IR_BAR_RED || i->op == IR_NBAR || ir_op_is(i->op, IR_OP_CONVERGENT);
}

static bool is_plain_shared(const ir_instr *i)
{
   return (i->op == IR_LOAD || i->op == IR_STORE) && i->space == IR_SPACE_SHARED && !(i->flags & IR_F_VOLATILE);
}

typedef struct walk {
   ir_func *f;
   const bool *div;
   bool modern;               /* the function uses warp operations (mark_func) */
   uint8_t *seen;             /* by block index */
   ir_block **stack;
   bool progress;
} walk;

static void mark(walk *w, ir_instr *i)
{
   if (!(i->flags & IR_F_LOCKSTEP)) {
      i->flags |= IR_F_LOCKSTEP;
      w->progress = true;
   }
}

/* Whether `later`, run after `first` with no meeting point between,
 * carries data between lanes differently in lockstep and one lane after
 * another (lanes run in ascending order between meeting points).  With
 * per-lane slots, that is when `later` touches a higher lane's bytes: it
 * reads what that lane stores only in lockstep (read after write), or
 * that lane's store comes after it only in sequence (write after read,
 * write after write).  A read after write of addresses not proven apart
 * counts too; a write after one does not — `s[t] += s[t + d]` with a
 * variable d is every barrier-synchronised tree reduction, and a row of
 * shared memory per thread at a loop-carried address is common in CUB,
 * neither of which can go wrong in sequence.  Two stores of one slot by
 * every lane (a flag) leave what a GPU may: one lane's last write. */
static bool exchanges(const ir_instr *first, const ir_instr *later, const bool *div, bool modern)
{
   if (first->op == IR_LOAD && later->op == IR_LOAD)
      return false;
   relation r = relate(first, later, div);
   if (first->op == IR_STORE && later->op == IR_LOAD)
      return r == REL_HIGHER || r == REL_SHARED || (!modern && (r == REL_UNKNOWN || r == REL_UNPROVEN));
   if (first->op == IR_STORE && r == REL_SHARED)
      return first->srcs[0].def != later->srcs[0].def;
   return r == REL_HIGHER || r == REL_SHARED;
}

/* Checks from..end of a block; false when a meeting point ends the path. */
static bool scan_from(walk *w, ir_instr *from, ir_instr *first)
{
   for (ir_instr *i = from; i; i = i->next) {
      if (is_meeting_point(i))
         return false;
      if (is_plain_shared(i) && exchanges(first, i, w->div, w->modern)) {
         mark(w, first);
         mark(w, i);
      }
   }
   return true;
}

/* Every access reachable from `first` before the warp meets. */
static void walk_from(walk *w, ir_instr *first)
{
   memset(w->seen, 0, w->f->blocks.len);
   uint32_t sp = 0;
   if (scan_from(w, first->next, first))
      vec_foreach(ir_block *, s, &first->block->succs) {
         if (!w->seen[(*s)->index]) {
            w->seen[(*s)->index] = 1;
            w->stack[sp++] = *s;
         }
      }
   while (sp) {
      ir_block *b = w->stack[--sp];
      if (!b->first || !scan_from(w, b->first, first))
         continue;
      ir_foreach_succ(s, b)
         if (!w->seen[(*s)->index]) {
            w->seen[(*s)->index] = 1;
            w->stack[sp++] = *s;
         }
   }
}

/* ---- spin loops ---- */

static bool block_reaches(walk *w, ir_block *from, const ir_block *to)
{
   memset(w->seen, 0, w->f->blocks.len);
   uint32_t sp = 0;
   w->stack[sp++] = from;
   w->seen[from->index] = 1;
   while (sp) {
      ir_block *b = w->stack[--sp];
      if (b == to)
         return true;
      ir_foreach_succ(s, b)
         if (!w->seen[(*s)->index]) {
            w->seen[(*s)->index] = 1;
            w->stack[sp++] = *s;
         }
   }
   return false;
}

/* A conditional branch that leaves a loop: one side comes back to it, the
 * other never does. */
static bool is_loop_exit(walk *w, ir_instr *cbr)
{
   ir_block *b = cbr->block;
   if (b->succs.len != 2)
      return false;
   return block_reaches(w, b->succs.data[0], b) != block_reaches(w, b->succs.data[1], b);
}

/* The atomics a value is computed from (through pure operations): spin
 * points (rule 4). */
static void mark_atomics_feeding(walk *w, const ir_def *d, int depth)
{
   ir_instr *i = strip_copies(d)->parent;
   if (i->op == IR_ATOM) {
      if (!(i->flags & IR_F_SPIN)) {
         i->flags |= IR_F_SPIN;
         w->progress = true;
      }
      return;
   }
   if (depth > 12 || !ir_op_is(i->op, IR_OP_PURE) || i->op == IR_PHI)
      return;
   for (uint32_t k = 0; k < i->nsrcs; k++)
      mark_atomics_feeding(w, i->srcs[k].def, depth + 1);
}

static bool feeds_from_atomic(const ir_def *d, int depth)
{
   const ir_instr *i = strip_copies(d)->parent;
   if (i->op == IR_ATOM)
      return true;
   if (depth > 12 || !ir_op_is(i->op, IR_OP_PURE) || i->op == IR_PHI)
      return false;
   for (uint32_t k = 0; k < i->nsrcs; k++)
      if (feeds_from_atomic(i->srcs[k].def, depth + 1))
         return true;
   return false;
}

/* ---- the order in which lanes waiting at different meets go ---- */

/* A GPU reconverges a warp's diverged lanes before going on: the lanes of
 * an if wait at its join for those of the else, lanes that left a loop
 * wait for the ones still in it.  The software device's scheduler gets the
 * same by releasing the lanes at the meet that comes first in an order
 * where a loop's blocks come before the blocks it exits to, and a branch
 * before its join: the reverse postorder of a depth-first search that
 * takes the edges leaving a loop first (they finish first, so they come
 * last).  The source order of the structured MSL is not such an order
 * (the structurizer may place what follows a loop inside the loop's body,
 * before its latch). */

typedef struct loops {
   uint32_t n, words;         /* loops; 64-bit words per block set */
   uint64_t *in;              /* loop k's blocks: in[k * words ...] */
   ir_block **header;         /* loop k's header */
} loops;

static bool in_loop(const loops *l, uint32_t k, const ir_block *b)
{
   return l->in[(size_t)k * l->words + b->index / 64] >> (b->index % 64) & 1;
}

/* The natural loop of every header (the blocks that reach a back edge's
 * source without passing the header). */
static bool find_loops(walk *w, loops *l)
{
   ir_func *f = w->f;
   uint32_t nb = f->blocks.len;
   l->n = 0;
   l->words = (nb + 63) / 64;
   ir_foreach_block(b, f)
      l->n += b->is_loop_header;
   l->in = arena_alloc(f->module->ar, ((size_t)l->n * l->words + 1) * sizeof(uint64_t));
   l->header = arena_alloc(f->module->ar, (l->n + 1) * sizeof(*l->header));
   if (!l->in || !l->header)
      return false;
   uint32_t k = 0;
   ir_foreach_block(h, f) {
      if (!h->is_loop_header)
         continue;
      l->header[k] = h;
      uint64_t *set = l->in + (size_t)k++ * l->words;
      set[h->index / 64] |= 1ull << (h->index % 64);
      uint32_t sp = 0;
      ir_foreach_pred(t, h) {
         if (!ir_dominates(h, *t) || (set[(*t)->index / 64] >> ((*t)->index % 64) & 1))
            continue;
         set[(*t)->index / 64] |= 1ull << ((*t)->index % 64);
         w->stack[sp++] = *t;
      }
      while (sp) {
         ir_block *b = w->stack[--sp];
         ir_foreach_pred(p, b)
            if ((*p)->rpo != UINT32_MAX && !(set[(*p)->index / 64] >> ((*p)->index % 64) & 1)) {
               set[(*p)->index / 64] |= 1ull << ((*p)->index % 64);
               w->stack[sp++] = *p;
            }
      }
   }
   return true;
}

/* s leaves a loop that b is in. */
static bool leaves_loop(const loops *l, const ir_block *b, const ir_block *s)
{
   for (uint32_t k = 0; k < l->n; k++)
      if (in_loop(l, k, b) && !in_loop(l, k, s))
         return true;
   return false;
}

static bool compute_meet_order(walk *w)
{
   ir_func *f = w->f;
   uint32_t nb = f->blocks.len;
   ir_compute_dominance(f);
   loops l;
   uint32_t *next = arena_alloc(f->module->ar, (nb + 1) * sizeof(*next));
   ir_block **post = arena_alloc(f->module->ar, (nb + 1) * sizeof(*post));
   if (!next || !post || !find_loops(w, &l))
      return false;
   ir_foreach_block(b, f)
      b->meet_order = UINT32_MAX;
   /* Iterative DFS; next[b] counts the successors tried, exits in a first
    * round (next < succs), the others in a second. */
   memset(w->seen, 0, nb);
   uint32_t sp = 0, npost = 0;
   ir_block *entry = f->blocks.data[0];
   w->stack[sp++] = entry;
   w->seen[entry->index] = 1;
   next[entry->index] = 0;
   while (sp) {
      ir_block *b = w->stack[sp - 1];
      uint32_t ns = b->succs.len, k = next[b->index]++;
      if (k >= 2 * ns) {
         post[npost++] = b;
         sp--;
         continue;
      }
      ir_block *s = b->succs.data[k % ns];
      if ((k < ns) != leaves_loop(&l, b, s) || w->seen[s->index])
         continue;
      w->seen[s->index] = 1;
      next[s->index] = 0;
      w->stack[sp++] = s;
   }
   for (uint32_t i = 0; i < npost; i++)
      post[npost - 1 - i]->meet_order = i;
   ir_foreach_block(b, f)
      b->loop_meet_end = 0;
   for (uint32_t k = 0; k < l.n; k++)
      ir_foreach_block(b, f)
         if (in_loop(&l, k, b) && b->meet_order != UINT32_MAX)
            l.header[k]->loop_meet_end = MC_MAX(l.header[k]->loop_meet_end, b->meet_order);
   return true;
}

/* ---- the pass ---- */

static bool is_direct(const ir_instr *i)
{
   if (i->op == IR_MEMBAR)
      return true;
   if ((i->op != IR_LOAD && i->op != IR_STORE) || !(i->flags & IR_F_VOLATILE))
      return false;
   return i->space == IR_SPACE_SHARED || i->space == IR_SPACE_GLOBAL || i->space == IR_SPACE_GENERIC;
}

static bool mark_func(ir_func *f)
{
   arena *ar = f->module->ar;
   walk w = { .f = f };
   w.div = ir_find_divergence(f);
   w.seen = arena_alloc(ar, f->blocks.len + 1);
   w.stack = arena_alloc(ar, (f->blocks.len + 1) * sizeof(*w.stack));
   if (!w.div || !w.seen || !w.stack)
      return ir_error(f->module, 0, "out of memory");
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         w.modern |= ir_op_is(i->op, IR_OP_CONVERGENT) && i->op != IR_BAR && i->op != IR_BAR_RED;
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b) {
         if (is_direct(i))
            mark(&w, i);
         else if (is_plain_shared(i))
            walk_from(&w, i);
         else if (i->op == IR_CBR && feeds_from_atomic(i->srcs[0].def, 0) && is_loop_exit(&w, i))
            mark_atomics_feeding(&w, i->srcs[0].def, 0);
      }
   }
   if (w.progress && !compute_meet_order(&w))
      return ir_error(f->module, 0, "out of memory");
   return w.progress;
}

bool ir_mark_lockstep(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m) {
      if (m->error)
         break;
      progress |= ir_progress(mark_func(f), f, IR_META_ALL);
   }
   return progress;
}
