/*
 * emit_lanes.c — a kernel in lane form: one invocation runs mc_nl threads
 * as lanes under an execution mask (issue 19; the design is in
 * src/metal/soft/README.md, "Lane form").
 *
 * The text is plain MSL for any lane count.  An Apple GPU compiles it with
 * one lane (the prelude's default): every thread is an invocation, and
 * the masks below are flags of its control flow.  The software device
 * compiles it with __MC_SOFT_LANES (compile.c) and calls the kernel once
 * per threadgroup (msl_scan.c): every run of code between barriers is a
 * loop over the threadgroup's threads that the host compiler vectorises,
 * and a barrier is only the end of the loops before it — no fibers, no
 * passes, no saved state.
 *
 * Values (emit_lanes_plan):
 *   LANE_SCALAR  uniform (divergence.c) and computable before the lanes
 *                run: pure operations, the launch shape, loads of read-only
 *                memory, from such operands; computed once per invocation
 *                ahead of its group's lane loop.  A uniform value a loop
 *                defines and code after the loop reads stays per lane
 *                (lanes leave at different iterations).
 *   LANE_LOCAL   used only in the run of code that defines it (a "group",
 *                one lane loop: see "runs" below): a scalar of that lane
 *                loop; so is a phi whose copies are all made there.
 *   LANE_REMAT   cheap integer arithmetic of the thread's position and
 *                uniform values (plan_remat), read only in lane loops
 *                inside its own loop: recomputed in each lane loop that
 *                reads it, where the host compiler sees the position in
 *                the addresses it forms (consecutive, not gathered).
 *   LANE_ARRAY   everything else (other phis, phi sources and branch
 *                conditions read outside lane loops, values used in
 *                other groups): vN[MC_NLANES], zeroed at
 *                the start.  A lane loop that writes arrays keeps the
 *                lane's elements in scalars (mc_wN) and stores them back
 *                with a select on the lane's activity (emit.c names them).
 *                A loop phi dead where its back-edge value is defined
 *                lends that value its array (plan_shared_arrays).
 *
 * Control flow (the structurizer's tree, emit.c's file header) under
 * mc_mask, the lanes that run the current code (prelude mc_lm_*):
 *   CODE    if (any lane) { uniform values; for each lane: if active ... }
 *           (a "run": the code, plain branches and phi copies that share
 *           one lane loop, see below)
 *   IF c    plain arms (no barrier, warp operation, loop or jump out):
 *           `if (c) ... else ...` for each lane inside the run's lane loop;
 *           else the lanes where c holds run `then`, the others `else`; the mask
 *           after is the union of the lanes that came out of both; a
 *           uniform c takes all lanes or none
 *   BLOCK   { mc_bN = none; body; mask |= mc_bN }   BREAK: mc_bN |= mask, mask = none
 *   LOOP    while any lane is in it: body; lanes that fell off the end leave
 *           (mc_bN), lanes that continued (mc_cN) go round again
 *   RETURN  mask = none: the lanes are gone
 * so a jump is a move of lanes between masks, and code with an empty mask
 * is skipped; divergent lanes reconverge where a GPU's do.  Phi copies are
 * made in the lane loop of the run they are in, into the lane's scalar
 * (mc_wN, stored back with a blend for every lane: prelude mc_lsel; a
 * select between two arrays' elements became a load through a selected
 * pointer, which kept clang from vectorising the copy); copies into
 * uniform phis after it.  A run without memory accesses runs for every
 * lane, inactive ones' results dropped by the write-back's select.
 *
 * Barriers: every lane the invocation started with must be at the barrier
 * (else the dispatch fails, as the fiber scheduler's check does for
 * threads); then MC_LANES_BARRIER, threadgroup_barrier with one lane.
 * Lanes reach a barrier together only where no loop around it lets lanes
 * leave or restart it on a divergent condition, and no divergent branch
 * controls it (barriers_meet): other kernels keep the per-thread form.
 *
 * Grid-stride loops: a branch condition computed from the position and
 * uniform values only gets a lane loop of its own after its run's, and a
 * global load at a recomputed address of a uniform loop counter has its
 * next iteration's lines prefetched ahead of the lane loop (the sections
 * "conditions in a lane loop of their own" and "the next iteration's
 * loads").
 *
 * Warp-synchronous code (accesses ir/mark_lockstep.c marks): the lanes
 * are in lockstep where a lane loop ends, so one ends before each marked
 * access where the per-thread form's warp would meet (plan_meets); no
 * fibers.  The lane form is SIMT with reconvergence where a GPU
 * reconverges, which such code assumes.  The meets are still written
 * (MC_LANES_WARP_MEET, ranked and placed as the per-thread form's, the
 * loops' latches included): nothing with lanes, and the fiber scheduler's
 * meet in the one-lane build that validation runs as fibers.
 *
 * Warp operations over the constant full member mask (is_lane_warp): every
 * lane of a SIMD-group must be at one together (mc_lm_warps_whole at run
 * time; syncs_meet on the warp's divergence).  shfl.sync, vote.sync (all,
 * any, uni, ballot) and redux.sync each start a lane loop (which the code
 * after them joins, ends_group) that reads
 * the value arrays of the lane's SIMD-group (emit_warp.c: MC_LANE_SHFL,
 * MC_LANE_VOTE, MC_LANE_REDUX; with one lane, the per-thread form's
 * SIMD-group calls); bar.warp.sync (__syncwarp) is only the end of the
 * lane loops before it (MC_LANES_WARP_BARRIER: simdgroup_barrier with one
 * lane, nothing on the software device), where every lane has done its
 * accesses before any lane goes on, which is all __syncwarp orders.
 *
 * Which kernels (emit_lanes_plan: eligible, syncs_meet, fits): kernels with
 * bar.sync of all threads, marked accesses or such warp operations, and no
 * other synchronisation (the per-thread form pays for every barrier, every
 * meet and every warp operation — a pass or a fiber switch; the lane form
 * for none).  A kernel whose only synchronisation is warp operations
 * takes the lane form only where every thread of the block reaches each
 * alike (syncs_meet on the block's divergence): one that relies on
 * SIMD-groups lying in rows of x (a warp operation under a branch on
 * tid.x / 32 or tid.y) keeps the per-thread form, which runs other launch
 * shapes with fibers, where the lane form would fail the dispatch.
 * Partial masks, match, activemask, %laneid/%warpid,
 * marked atomics and loops that wait on a marked load (spins, which need
 * the lane they wait for to run meanwhile: spins_on_marked_load), calls,
 * named barriers, clocks and large local arrays keep the per-thread form,
 * as does a kernel whose lanes would hold more than LANE_BYTES_MAX bytes
 * (the software device keeps up to 1024 lanes on a worker's stack), and
 * one with a loop that lanes leave at different iterations, no barrier in
 * it, and a load or store whose address is an array (check_costly_loops,
 * costly_loops_gather), unless it has marked accesses, which per thread
 * cost a fiber switch each.
 */
#include "emit_internal.h"
#include "../ptx/ptx.h"

#include <stdio.h>
#include <string.h>

enum {
   LOCAL_LANES_MAX = 512,   /* local bytes per thread the lane form keeps per lane */
   LANE_BYTES_MAX = 2048,   /* all bytes a lane keeps: 2 MB for 1024 threads */
};

static bool is_inline(const ir_def *d) { return d->parent->op == IR_CONST || d->parent->op == IR_UNDEF; }

/* A shfl.sync over the constant full member mask: a permutation within
 * each SIMD-group's 32 lanes. */
static bool is_lane_shfl(const ir_instr *i)
{
   return i->op == IR_SHFL && emit_is_full_mask(i->srcs[3].def);
}

/* A vote (all, any, uni, ballot) or a redux.sync over the constant full
 * member mask: the start of a lane loop, reading the predicates or values
 * of the lane's SIMD-group. */
static bool is_lane_vote(const ir_instr *i)
{
   return (i->op == IR_VOTE || i->op == IR_REDUX) && emit_is_full_mask(i->srcs[1].def) &&
          (i->op != IR_REDUX || i->srcs[0].def->bits == 32);   /* the prelude's are 32-bit */
}

/* bar.warp.sync (__syncwarp) over the constant full member mask: only
 * the end of the lane loops before it. */
static bool is_lane_warp_sync(const ir_instr *i)
{
   return i->op == IR_BAR_WARP && emit_is_full_mask(i->srcs[0].def);
}

/* A warp operation the lane form takes: every lane of each SIMD-group
 * must be at it together (mc_lm_warps_whole, syncs_meet on the warp's
 * divergence). */
static bool is_lane_warp(const ir_instr *i) { return is_lane_shfl(i) || is_lane_vote(i) || is_lane_warp_sync(i); }

/* Where a run of code ends: a barrier, or a warp operation (the start of
 * a loop reading other lanes' values, or, for __syncwarp, nothing). */
static bool is_boundary(const ir_instr *i) { return i->op == IR_BAR || is_lane_warp(i); }

/* Whether the code after a boundary needs a lane loop of its own.  After
 * a barrier or __syncwarp, yes (every lane is past it before any goes
 * on).  After a shuffle, vote or redux.sync, no: its loop reads other
 * lanes' elements of the operand's array, which every lane wrote before
 * the loop, and the code after it reads only the lane's own, so it runs
 * in the same loop (the operation's value is then a scalar of that loop,
 * not an array).  That halves the lane loops of a shuffle reduction
 * (bench/kernels.cu shfl: 32 to 22), with their compile time.  The loop
 * must not write the operand's array meanwhile: plan_shared_arrays gives
 * no such operand's array to another value. */
static bool ends_group(const ir_instr *i) { return i->op == IR_BAR || is_lane_warp_sync(i); }

/* Is d the operand a lane-form warp operation reads from other lanes? */
static bool read_by_other_lanes(const ir_def *d)
{
   ir_foreach_use(u, d)
      if ((is_lane_shfl(u->parent) || is_lane_vote(u->parent)) && u == &u->parent->srcs[0])
         return true;
   return false;
}

/* A warp-synchronous access or fence (ir/mark_lockstep.c) the lane form
 * keeps in lockstep: every lane does the accesses before it, then every
 * lane it (plan_meets).  The other marked operations, atomics a loop
 * spins on, need a lane that waits to let the others run, which the lane
 * form, running a loop until every lane is done with it, cannot. */
static bool is_lockstep_access(const ir_instr *i)
{
   return (i->flags & IR_F_LOCKSTEP) && (i->op == IR_LOAD || i->op == IR_STORE || i->op == IR_MEMBAR);
}

/* Where the warp meets before a lockstep access (is_lockstep_access): the
 * per-thread form's rule on the same state (emit.c emit_meet_needed), a
 * block starting as if after a store (code before it, unmarked accesses at
 * its start).  A lane loop ends there (LANE_MEET_SPLIT) unless nothing in
 * it so far touched memory, a lane loop's start being a meet; the
 * one-lane build meets at every one (emit_lane_meet).  Lanes between two
 * meets run one after another (or a vector of them at a time), which
 * mark_lockstep.c leaves unmarked only where that order and lockstep
 * agree. */
static void plan_meets(const ir_func *f, uint8_t *meet)
{
   memset(meet, 0, f->ninstrs);
   ir_foreach_block(b, f) {
      uint8_t since = MEET_STORES;
      bool touched = false;         /* memory, in the lane loop so far */
      ir_foreach_instr(i, b) {
         if (is_boundary(i)) {
            since = MEET_NONE;      /* every lane met there */
            touched = false;
            continue;
         }
         if (!is_lockstep_access(i)) {
            touched |= ir_op_is(i->op, IR_OP_MEMORY);
            continue;
         }
         if (emit_meet_needed(&since, i))
            meet[i->index] = touched ? LANE_MEET_SPLIT : LANE_MEET_IN_LOOP;
         touched = true;
      }
   }
}

/* A loop that waits on a marked load (a spin: `while (flag == 0);` on
 * volatile memory another lane or SIMD-group sets) needs the lane it waits
 * for to run meanwhile, as the per-thread form's meets let it; the lane
 * form runs the loop to its end for every lane first, and would wait for
 * ever.  Found as a branch inside a loop whose condition depends, through
 * any operations, on a marked load (taint: by def index). */
static bool cf_branches_on(const ir_cf *n, const uint8_t *taint, uint32_t loops)
{
   for (; n; n = n->next) {
      if (n->kind == IR_CF_IF && loops && !is_inline(n->cond.def) && taint[n->cond.def->index])
         return true;
      uint32_t in = loops + (n->kind == IR_CF_LOOP);
      if (cf_branches_on(n->first, taint, in) || cf_branches_on(n->then_cf, taint, in) ||
          cf_branches_on(n->else_cf, taint, in))
         return true;
   }
   return false;
}

static bool spins_on_marked_load(const ir_func *f, uint8_t *taint)
{
   memset(taint, 0, f->ndefs + 1);
   bool any = false, changed = true;
   while (changed) {   /* loop phis: until nothing more is reached */
      changed = false;
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b) {
            if (!i->def.bits || taint[i->def.index])
               continue;
            bool t = i->op == IR_LOAD && is_lockstep_access(i);
            for (uint32_t k = 0; k < i->nsrcs && !t; k++)
               t = !is_inline(i->srcs[k].def) && taint[i->srcs[k].def->index];
            if (t) {
               taint[i->def.index] = 1;
               changed = any = true;
            }
         }
   }
   return any && cf_branches_on(f->cf, taint, 0);
}

static bool eligible(const ir_func *f, bool *block_sync)
{
   if (!f->is_kernel || f->shared_in_device || f->uses_clock || f->uses_nbar || f->uses_bar_red || f->scc)
      return false;
   if (MC_MAX(f->local_total, f->local_bytes) > LOCAL_LANES_MAX)
      return false;
   bool sync = false;   /* what the per-thread form pays for: a barrier, or a fiber switch */
   *block_sync = false;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b) {
         if (i->op == IR_CALL || ((i->flags & IR_F_MEETS) && !is_lockstep_access(i)))
            return false;
         if (i->flags & IR_F_LOCKSTEP)
            sync = *block_sync = true;
         if (i->op == IR_BAR) {
            if (i->nsrcs)
               return false;
            sync = *block_sync = true;
            continue;
         }
         if (is_lane_warp(i)) {
            sync = true;   /* per thread: a pass or a fiber switch each */
            continue;
         }
         if (i->op == IR_SHFL_PRED)
            continue;
         if (ir_op_is(i->op, IR_OP_CONVERGENT))
            return false;
         if (i->op == IR_SREG && (i->sub == IR_SREG_LANEID || i->sub == IR_SREG_WARPID ||
                                  i->sub == IR_SREG_NWARPID))
            return false;
         if (i->op == IR_MMA || i->op == IR_LDMATRIX || i->op == IR_STMATRIX)
            return false;
      }
   return sync;
}

/* ---- which values are arrays ---- */

enum { OUTSIDE_GROUPS = UINT32_MAX - 1 };   /* a use in a branch condition or a phi copy */

typedef struct lanes_plan {
   uint8_t *kind;         /* by def index: LANE_LOCAL, LANE_ARRAY or LANE_SCALAR */
   uint32_t *group;       /* by def index: the group of its def (UINT32_MAX: none yet) */
   uint32_t ngroups;
   uint32_t *block_loop;  /* by block index: the innermost LOOP construct's id + 1 (0: none) */
   uint32_t *loop_parent; /* by construct id: the enclosing LOOP's id + 1 (0: none) */
   uint8_t *pinned;       /* by def index: read outside lane loops, or by other lanes (a shuffle) */
   const uint8_t *meet;   /* by instruction index: a lane loop ends before it (plan_meets) */
   bool runs;             /* lane loops across blocks (plan_list): not in kernels with warp meets */
   uint32_t *edge_group;  /* by block index: the group of the EDGEs into it planned so far
                           * (GROUP_NONE: none yet, GROUP_MIXED: several) */
   uint32_t *edge_seen;   /* by block index: the EDGEs into it planned so far */
   uint32_t *edge_total;  /* by block index: the EDGEs into it */
} lanes_plan;

/* Is loop l (id + 1; 0: the function) around loop `in` (id + 1)? */
static bool loop_encloses(const lanes_plan *p, uint32_t l, uint32_t in)
{
   for (; in; in = p->loop_parent[in - 1])
      if (in == l)
         return true;
   return l == 0;
}

static void find_loops(lanes_plan *p, const ir_cf *n, uint32_t loop)
{
   for (; n; n = n->next) {
      switch (n->kind) {
      case IR_CF_CODE:
         p->block_loop[n->block->index] = loop;
         break;
      case IR_CF_IF:
         find_loops(p, n->then_cf, loop);
         find_loops(p, n->else_cf, loop);
         break;
      case IR_CF_LOOP:
         p->loop_parent[n->id] = loop;
         find_loops(p, n->first, n->id + 1);
         break;
      default:
         find_loops(p, n->first, loop);
         break;
      }
   }
}

/* A uniform value used after a loop that defines it may be each lane's
 * value of its own last iteration (lanes leave at different times): one
 * value for the invocation would be the last lane's.  Such a value, d
 * read inside loop `loop` (id + 1), stays per lane. */
static void keep_per_lane_outside_its_loop(lanes_plan *p, const ir_def *d, uint32_t loop)
{
   if (!is_inline(d) && p->kind[d->index] == LANE_SCALAR &&
       !loop_encloses(p, p->block_loop[d->parent->block->index], loop))
      p->kind[d->index] = LANE_LOCAL;
}

static void keep_loop_values_per_lane(lanes_plan *p, ir_func *f)
{
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b) {
         if (i->op == IR_PHI)
            continue;      /* copied on the edge, while the lane's value is current */
         for (uint32_t k = 0; k < i->nsrcs; k++)
            keep_per_lane_outside_its_loop(p, i->srcs[k].def, p->block_loop[b->index]);
      }
}

static void keep_cond_values_per_lane(lanes_plan *p, const ir_cf *n, uint32_t loop)
{
   for (; n; n = n->next) {
      if (n->kind == IR_CF_IF) {
         keep_per_lane_outside_its_loop(p, n->cond.def, loop);
         keep_cond_values_per_lane(p, n->then_cf, loop);
         keep_cond_values_per_lane(p, n->else_cf, loop);
      } else {
         keep_cond_values_per_lane(p, n->first, n->kind == IR_CF_LOOP ? n->id + 1 : loop);
      }
   }
}

static void mark_src(lanes_plan *p, const ir_def *d, uint32_t group)
{
   if (is_inline(d) || p->kind[d->index] == LANE_SCALAR)
      return;
   if (group == OUTSIDE_GROUPS)
      p->pinned[d->index] = 1;
   if (p->group[d->index] != group)
      p->kind[d->index] = LANE_ARRAY;
}

/* A uniform value (divergence.c) that can be computed once for the
 * SIMD-group, before its lanes run: a pure operation, a special register
 * of the launch's shape, a load of read-only memory, from operands that are
 * such values themselves.  Such an instruction reads and writes no memory
 * that the lanes write, so moving it before the lane loop of its group
 * changes nothing. */
static bool scalar_candidate(const ir_instr *i, const bool *div)
{
   if (!i->def.bits || is_inline(&i->def) || div[i->def.index])
      return false;
   if (i->op == IR_LOAD)
      return i->space == IR_SPACE_PARAM || i->space == IR_SPACE_CONST;
   return i->op == IR_SREG || ir_op_is(i->op, IR_OP_PURE);
}

static bool srcs_scalar(const lanes_plan *p, const ir_instr *i)
{
   for (uint32_t k = 0; k < i->nsrcs; k++)
      if (!is_inline(i->srcs[k].def) && p->kind[i->srcs[k].def->index] != LANE_SCALAR)
         return false;
   return true;
}

/* The uniform values computed once per invocation: candidates whose
 * operands are all such values (a phi's sources too), to a fixed point
 * from "all candidates" down. */
static void plan_scalars(lanes_plan *p, ir_func *f, const bool *div)
{
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (scalar_candidate(i, div))
            p->kind[i->def.index] = LANE_SCALAR;
   keep_loop_values_per_lane(p, f);
   keep_cond_values_per_lane(p, f->cf, 0);
   for (bool changed = true; changed;) {
      changed = false;
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b)
            if (i->def.bits && p->kind[i->def.index] == LANE_SCALAR && !srcs_scalar(p, i)) {
               p->kind[i->def.index] = LANE_LOCAL;
               changed = true;
            }
   }
}

/* ---- runs: lane loops across blocks ---- */

/* A divergent branch whose arms are plain code needs no lane loop of its
 * own: inside the lane loop of the code around it, each lane takes its arm
 * with a C++ `if`, as the per-thread form does.  The lane form had made
 * every such branch a lane loop for its condition, a ballot and a lane
 * loop for each arm; nvcc's unrolled `if (k % n == t) bins[k] = 0`
 * (tests/cuda/lane_divergence's local_kernel) was 68 lane loops, whose
 * volume was most of clang's time on the kernel (bench/README.md).  A
 * "run" is the code that shares one lane loop: the last group of a block,
 * then any plain IFs, BLOCKs and EDGEs (phi copies) after it, then the
 * first group of the next block, up to a boundary (barrier, warp
 * operation) or a construct that is not plain.
 *
 * Plain (plain_node): no barrier or warp operation, no loop, no jump but a
 * break to the innermost BLOCK of the plain code (a `switch (0)`'s break;
 * no lane leaves the run, so the mask stays as it was), no copies into
 * uniform phis, and no load of a uniform value inside an arm (the run's
 * uniform values are computed before its lane loop, whatever the arms'
 * conditions; pure operations and the launch's shape may be, as a pure
 * group already runs every lane).  Kernels with warp meets keep a lane
 * loop per block (plan_meets counts on a block's start being a meet): for
 * them only a block's phi copies join its last group, as before.
 *
 * The plan (plan_list) and the emitter (emit_list) walk the tree alike:
 * both ask joins_run, from the values' kinds that plan_scalars settled. */

enum { GROUP_NONE = UINT32_MAX, GROUP_MIXED = UINT32_MAX - 2 };

/* Does the EDGE n copy into uniform phis (scalar) or into the others? */
static bool edge_copies(const uint8_t *kind, const ir_cf *n, bool scalar)
{
   ir_foreach_instr(phi, n->to) {
      if (phi->op != IR_PHI)
         break;
      if ((kind[phi->def.index] == LANE_SCALAR) == scalar)
         return true;
   }
   return false;
}

/* Does n (a node and what it holds; with list, its siblings after it
 * too) copy into phis that are not uniform? */
static bool array_copies(const uint8_t *kind, const ir_cf *n, bool list)
{
   for (; n; n = list ? n->next : NULL)
      if (n->kind == IR_CF_EDGE ? edge_copies(kind, n, false)
                                : array_copies(kind, n->first, true) || array_copies(kind, n->then_cf, true) ||
                                     array_copies(kind, n->else_cf, true))
         return true;
   return false;
}

/* The BLOCKs whose end a node is at: nothing follows it up to there but
 * the ends of constructs (the last node of the BLOCK's body, of an IF's
 * arm there, ...), so that a break to one of them goes where falling off
 * the node's end goes: nvcc's `if (c) x;` at a BLOCK's end, whose arms
 * both break to it. */
typedef struct tail_blocks {
   const ir_cf *block;
   const struct tail_blocks *up;
} tail_blocks;

static bool in_tail(const tail_blocks *t, const ir_cf *b)
{
   for (; t; t = t->up)
      if (t->block == b)
         return true;
   return false;
}

/* The tail of n in a list whose end is at `tail`. */
static const tail_blocks *tail_of(const ir_cf *n, const tail_blocks *tail) { return n->next ? NULL : tail; }

static bool plain_node(const uint8_t *kind, const ir_cf *n, const ir_cf *inner, const tail_blocks *tail, bool arm);

static bool plain_list(const uint8_t *kind, const ir_cf *n, const ir_cf *inner, const tail_blocks *tail, bool arm)
{
   for (; n; n = n->next)
      if (!plain_node(kind, n, inner, tail_of(n, tail), arm))
         return false;
   return true;
}

/* inner: the innermost BLOCK of the plain code around n (NULL: none);
 * tail: the BLOCKs whose end n is at; arm: n is inside an IF of it. */
static bool plain_node(const uint8_t *kind, const ir_cf *n, const ir_cf *inner, const tail_blocks *tail, bool arm)
{
   switch (n->kind) {
   case IR_CF_SEQ:
      return plain_list(kind, n->first, inner, tail, arm);
   case IR_CF_CODE:
      ir_foreach_instr(i, n->block)
         if (is_boundary(i) || (arm && i->op == IR_LOAD && kind[i->def.index] == LANE_SCALAR))
            return false;
      return true;
   case IR_CF_IF:
      return plain_list(kind, n->then_cf, inner, tail, true) && plain_list(kind, n->else_cf, inner, tail, true);
   case IR_CF_BLOCK: {
      const tail_blocks t = { n, tail };
      return plain_list(kind, n->first, n, &t, arm);
   }
   case IR_CF_EDGE:
      return !edge_copies(kind, n, true);
   case IR_CF_BREAK:
      return n->target == inner || in_tail(tail, n->target);
   default:
      return false;   /* a loop, a continue, a return, a trap */
   }
}

/* Does the IF or BLOCK n (at the end of the BLOCKs `tail`) run inside the
 * open lane loop (or start one)?  Not after a shuffle, vote or redux.sync
 * when it copies into phis: that loop reads other lanes' elements of the
 * operation's operand, which a copy could overwrite. */
static bool joins_run(bool runs, const uint8_t *kind, const ir_cf *n, const tail_blocks *tail, bool after_warp)
{
   return runs && plain_node(kind, n, NULL, tail, false) && !(after_warp && array_copies(kind, n, false));
}

/* The group open at the end of the code walked so far (GROUP_NONE: the
 * next code starts a lane loop), and whether it is the one a shuffle,
 * vote or redux.sync started. */
typedef struct run_state {
   uint32_t open;
   bool after_warp;
} run_state;

static void open_group(lanes_plan *p, run_state *s)
{
   s->open = p->ngroups++;
   s->after_warp = false;
}

/* A block's code: its first group continues the open one (with runs);
 * its last stays open.  A phi is a scalar of the lane loop when every
 * EDGE into its block was planned in the group its block starts in (the
 * join after a plain branch), else an array. */
static void plan_code(lanes_plan *p, const ir_block *b, run_state *s)
{
   if (!p->runs || s->open == GROUP_NONE)
      open_group(p, s);
   uint32_t g = s->open;
   bool after_warp = s->after_warp;
   ir_foreach_instr(i, b) {
      if (ir_op_is(i->op, IR_OP_TERMINATOR))
         continue;
      if (i->op == IR_PHI) {
         if (p->kind[i->def.index] == LANE_SCALAR)
            continue;
         if (p->runs && p->edge_group[b->index] == g && p->edge_seen[b->index] == p->edge_total[b->index])
            p->group[i->def.index] = g;
         else
            p->kind[i->def.index] = LANE_ARRAY;
         continue;
      }
      if (is_lane_warp(i) || p->meet[i->index] == LANE_MEET_SPLIT) {
         g = p->ngroups++;          /* the start of a loop */
         after_warp = is_lane_shfl(i) || is_lane_vote(i);
      }
      for (uint32_t k = 0; k < i->nsrcs; k++)
         mark_src(p, i->srcs[k].def, g);
      if ((is_lane_shfl(i) || is_lane_vote(i)) && !is_inline(i->srcs[0].def) &&
          p->kind[i->srcs[0].def->index] != LANE_SCALAR) {
         p->kind[i->srcs[0].def->index] = LANE_ARRAY;   /* other lanes read it */
         p->pinned[i->srcs[0].def->index] = 1;
      }
      if (i->def.bits)
         p->group[i->def.index] = g;
      if (ends_group(i)) {
         g = p->ngroups++;
         after_warp = false;
      }
   }
   s->open = g;
   s->after_warp = after_warp;
}

/* Phi copies: in the open group (a new one after a warp operation, whose
 * loop they could disturb); the copies into uniform phis come after that
 * lane loop (emit_list), which closes it. */
static void plan_edge(lanes_plan *p, const ir_cf *n, run_state *s)
{
   if (s->open == GROUP_NONE || (s->after_warp && edge_copies(p->kind, n, false)))
      open_group(p, s);
   ir_foreach_instr(phi, n->to) {
      if (phi->op != IR_PHI)
         break;
      for (uint32_t k = 0; k < phi->nsrcs; k++)
         if (phi->srcs[k].pred == n->from)
            mark_src(p, phi->srcs[k].def, p->kind[phi->def.index] == LANE_SCALAR ? OUTSIDE_GROUPS : s->open);
   }
   uint32_t *eg = &p->edge_group[n->to->index];
   *eg = *eg == GROUP_NONE || *eg == s->open ? s->open : GROUP_MIXED;
   p->edge_seen[n->to->index]++;
   if (edge_copies(p->kind, n, true))
      s->open = GROUP_NONE;
}

/* Plain code (joins_run) in the open group. */
static void plan_plain(lanes_plan *p, const ir_cf *n, run_state *s)
{
   switch (n->kind) {
   case IR_CF_CODE:
      plan_code(p, n->block, s);
      break;
   case IR_CF_EDGE:
      plan_edge(p, n, s);
      break;
   case IR_CF_IF:
      mark_src(p, n->cond.def, s->open);
      for (const ir_cf *c = n->then_cf; c; c = c->next)
         plan_plain(p, c, s);
      for (const ir_cf *c = n->else_cf; c; c = c->next)
         plan_plain(p, c, s);
      break;
   default:   /* SEQ, BLOCK; BREAK: nothing */
      for (const ir_cf *c = n->first; c; c = c->next)
         plan_plain(p, c, s);
      break;
   }
}

static void plan_cf(lanes_plan *p, const ir_cf *n, const tail_blocks *tail);

/* The siblings from n (a SEQ's children continue them), at the end of the
 * BLOCKs `tail`, as emit_list writes them. */
static void plan_list(lanes_plan *p, const ir_cf *n, run_state *s, const tail_blocks *tail)
{
   for (; n; n = n->next) {
      const tail_blocks *nt = tail_of(n, tail);
      switch (n->kind) {
      case IR_CF_SEQ:
         plan_list(p, n->first, s, nt);
         break;
      case IR_CF_CODE:
         plan_code(p, n->block, s);
         break;
      case IR_CF_EDGE:
         plan_edge(p, n, s);
         break;
      case IR_CF_IF:
      case IR_CF_BLOCK:
         if (joins_run(p->runs, p->kind, n, nt, s->after_warp)) {
            if (s->open == GROUP_NONE)
               open_group(p, s);
            plan_plain(p, n, s);
            break;
         }
         s->open = GROUP_NONE;
         if (n->kind == IR_CF_IF) {
            mark_src(p, n->cond.def, OUTSIDE_GROUPS);
            plan_cf(p, n->then_cf, nt);
            plan_cf(p, n->else_cf, nt);
         } else {
            const tail_blocks t = { n, nt };
            plan_cf(p, n->first, &t);
         }
         break;
      default:   /* a loop, a jump */
         s->open = GROUP_NONE;
         plan_cf(p, n->first, NULL);
         break;
      }
   }
}

static void plan_cf(lanes_plan *p, const ir_cf *n, const tail_blocks *tail)
{
   run_state s = { GROUP_NONE, false };
   plan_list(p, n, &s, tail);
}

/* By block index, the EDGE nodes into it. */
static void count_edges(lanes_plan *p, const ir_cf *n)
{
   for (; n; n = n->next) {
      if (n->kind == IR_CF_EDGE)
         p->edge_total[n->to->index]++;
      count_edges(p, n->first);
      count_edges(p, n->then_cf);
      count_edges(p, n->else_cf);
   }
}

/* ---- values recomputed where they are read ---- */

/* Index arithmetic from the thread's position: integer operations cheap
 * enough to repeat in every lane loop that reads them rather than keep in
 * an array.  Recomputed, they show the host compiler the position
 * (MC_LANE_TID: a segment's x plus the loop counter) in the addresses they
 * form: a shared-memory tile's row or column is then one vector load or a
 * broadcast, where an array of addresses made every access a gather. */
static bool is_tid(const ir_instr *i)
{
   return i->op == IR_SREG && (i->sub == IR_SREG_TID_X || i->sub == IR_SREG_TID_Y || i->sub == IR_SREG_TID_Z);
}

static bool remat_op(const ir_instr *i)
{
   if (!i->def.bits || i->def.ncomp != 1 || ptx_type_is_float(i->type))
      return false;
   switch (i->op) {
   case IR_SREG:
      return is_tid(i);
   case IR_CVT:
      return !ptx_type_is_float(i->type2);
   case IR_ADD:
   case IR_SUB:
   case IR_MUL:
   case IR_MAD:
   case IR_SHL:
   case IR_SHR:
   case IR_AND:
   case IR_OR:
   case IR_XOR:
   case IR_NOT:
   case IR_COPY:
   case IR_CVTA:
   case IR_SYMADDR:
      return true;
   default:
      return false;
   }
}

enum { REMAT_COST_MAX = 12 };   /* operations a recomputation may repeat */

static bool src_ok_for_remat(const lanes_plan *p, const ir_def *d)
{
   return is_inline(d) || p->kind[d->index] == LANE_SCALAR || p->kind[d->index] == LANE_REMAT;
}

static uint32_t remat_cost(const lanes_plan *p, const ir_instr *i, uint32_t depth)
{
   uint32_t c = 1;
   for (uint32_t k = 0; k < i->nsrcs && c <= REMAT_COST_MAX && depth < REMAT_COST_MAX; k++) {
      const ir_def *d = i->srcs[k].def;
      if (!is_inline(d) && p->kind[d->index] == LANE_REMAT)
         c += remat_cost(p, d->parent, depth + 1);
   }
   return c;
}

/* Which lane values are recomputed (LANE_REMAT): remat_op values that no
 * code outside lane loops and no other lane reads, from operands that are
 * uniform or recomputed themselves, read only inside the loop that defines
 * them (after a loop, a lane's value is its own last iteration's), and
 * cheap; to a fixed point from "all candidates" down.  A candidate that
 * fails goes back to what plan_cf made it (was: by def index), an array
 * only if other groups read it: one read only in its own lane loop had
 * become an array too, a load and a select-store per lane loop for
 * nothing: lane_divergence's two lane-form kernels had 94 and 87 such
 * arrays, about a fifth of their compile time. */
static void plan_remat(lanes_plan *p, ir_func *f, uint8_t *was)
{
   memcpy(was, p->kind, f->ndefs + 1);
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (i->op != IR_PHI && remat_op(i) && p->kind[i->def.index] != LANE_SCALAR && !p->pinned[i->def.index])
            p->kind[i->def.index] = LANE_REMAT;
   for (bool changed = true; changed;) {
      changed = false;
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b) {
            uint32_t use_loop = p->block_loop[b->index];
            for (uint32_t k = 0; k < i->nsrcs; k++) {
               const ir_def *d = i->srcs[k].def;
               if (!is_inline(d) && p->kind[d->index] == LANE_REMAT &&
                   !loop_encloses(p, p->block_loop[d->parent->block->index], use_loop)) {
                  p->kind[d->index] = was[d->index];
                  changed = true;
               }
            }
            if (!i->def.bits || p->kind[i->def.index] != LANE_REMAT)
               continue;
            bool ok = remat_cost(p, i, 0) <= REMAT_COST_MAX;
            for (uint32_t k = 0; k < i->nsrcs && ok; k++)
               ok = src_ok_for_remat(p, i->srcs[k].def);
            if (!ok) {
               p->kind[i->def.index] = was[i->def.index];
               changed = true;
            }
         }
   }
}

/* ---- barriers every lane reaches together ---- */

/* Lanes meet at a barrier only if they reach it in the same pass of the
 * code around it.  Where a loop lets lanes leave or skip to the next
 * iteration on a divergent condition, the code after the jump point runs
 * for some lanes in one iteration and for others in a later one (the
 * structured form puts a loop's exit code inside the loop, after the
 * jump): a barrier there would see part of the lanes.  Such kernels keep
 * the per-thread form, as do kernels with a barrier under a divergent
 * branch.  ok is cleared when a barrier is so placed. */
typedef struct barrier_walk {
   const bool *div;
   bool (*is_sync)(const ir_instr *i);   /* the operations whose lanes must meet */
   const ir_cf **loops;      /* enclosing LOOP and BLOCK constructs, innermost last */
   bool *loop_div;           /* by construct id: the loop has a divergent jump out or to its next iteration */
   uint8_t *costly;          /* by construct id: check_costly_loops' loops (NULL: not asked) */
   uint32_t nloops;
   bool ok;
} barrier_walk;

static bool cond_divergent(const barrier_walk *w, const ir_cf *n)
{
   return !is_inline(n->cond.def) && w->div[n->cond.def->index];
}

static bool cf_has_sync(const barrier_walk *w, const ir_cf *n)
{
   for (; n; n = n->next) {
      if (n->kind == IR_CF_CODE)
         ir_foreach_instr(i, n->block)
            if (w->is_sync(i))
               return true;
      if (cf_has_sync(w, n->first) || cf_has_sync(w, n->then_cf) || cf_has_sync(w, n->else_cf))
         return true;
   }
   return false;
}

/* Marks the loops a jump under a divergent branch (depth > 0) leaves or
 * restarts: every enclosing loop up to and including the target (all of
 * them for a return). */
static void mark_jumps(barrier_walk *w, const ir_cf *n, uint32_t divergent)
{
   for (; n; n = n->next) {
      switch (n->kind) {
      case IR_CF_IF:
         mark_jumps(w, n->then_cf, divergent + cond_divergent(w, n));
         mark_jumps(w, n->else_cf, divergent + cond_divergent(w, n));
         break;
      case IR_CF_BREAK:
      case IR_CF_CONTINUE:
      case IR_CF_RETURN:
      case IR_CF_TRAP:
         if (!divergent)
            break;
         /* the constructs the jump leaves (or, for a continue, restarts),
          * innermost first, up to its target */
         for (uint32_t k = w->nloops; k > 0; k--) {
            const ir_cf *c = w->loops[k - 1];
            if (c->kind == IR_CF_LOOP)
               w->loop_div[c->id] = true;
            if (n->target == c)
               break;
         }
         break;
      case IR_CF_LOOP:
      case IR_CF_BLOCK:
         if (w->nloops >= EMIT_MAX_DEPTH)
            break;       /* the emitter refuses such nesting anyway */
         w->loops[w->nloops++] = n;
         mark_jumps(w, n->first, divergent);
         w->nloops--;
         break;
      default:
         mark_jumps(w, n->first, divergent);
         break;
      }
   }
}

/* The cost side: a loop that lanes leave at different iterations runs,
 * in lane form, as many iterations as its last lane with the masks'
 * bookkeeping, where the per-thread form runs each thread's own count in
 * plain code.  With a gather for each access at every iteration it is
 * 1.4-1.6 times slower in lane form (a grid-stride loop before
 * ir/opt_split_iv.c, bench/README.md).  Such loops without a barrier in
 * them are marked costly; the plan then keeps the lane form only if none
 * of their accesses gathers (costly_loops_gather). */
static void check_costly_loops(barrier_walk *w, const ir_cf *n)
{
   for (; n; n = n->next) {
      if (n->kind == IR_CF_LOOP && w->loop_div[n->id] && !cf_has_sync(w, n->first))
         w->costly[n->id] = 1;
      check_costly_loops(w, n->first);
      check_costly_loops(w, n->then_cf);
      check_costly_loops(w, n->else_cf);
   }
}

static void check_barriers(barrier_walk *w, const ir_cf *n, bool divergent)
{
   for (; n && w->ok; n = n->next) {
      switch (n->kind) {
      case IR_CF_IF:
         check_barriers(w, n->then_cf, divergent || cond_divergent(w, n));
         check_barriers(w, n->else_cf, divergent || cond_divergent(w, n));
         break;
      case IR_CF_LOOP:
         if (cf_has_sync(w, n->first) && w->loop_div[n->id])
            w->ok = false;
         check_barriers(w, n->first, divergent);
         break;
      case IR_CF_CODE:
         if (divergent && cf_has_sync(w, n))
            w->ok = false;
         break;
      default:
         check_barriers(w, n->first, divergent);
         break;
      }
   }
}

static bool is_bar(const ir_instr *i) { return i->op == IR_BAR; }

/* *ok: every lane reaches each operation that is_sync picks together with
 * every other lane that div says computes alike (the threadgroup's for
 * barriers, the SIMD-group's for shuffles). */
static bool syncs_meet(emitter *e, const bool *div, bool (*is_sync)(const ir_instr *), bool *ok, uint8_t *costly)
{
   barrier_walk w = { div, is_sync, NULL, NULL, costly, 0, true };
   w.loops = arena_alloc(e->ar, EMIT_MAX_DEPTH * sizeof(*w.loops));
   w.loop_div = arena_alloc(e->ar, (e->max_cf_id + 1) * sizeof(*w.loop_div));
   if (!w.loops || !w.loop_div)
      return false;
   memset(w.loop_div, 0, (e->max_cf_id + 1) * sizeof(*w.loop_div));
   mark_jumps(&w, e->f->cf, 0);
   check_barriers(&w, e->f->cf, false);
   if (costly)
      check_costly_loops(&w, e->f->cf);
   *ok = w.ok;
   return true;
}

static bool fits(const emitter *e);

/* Does every use of phi come before `def`, in def's block, outside phis
 * (so that def may overwrite the phi's array)? */
static bool phi_dead_at(const ir_instr *phi, const ir_instr *def)
{
   ir_foreach_use(u, &phi->def) {
      const ir_instr *at = u->parent;
      if (at->op == IR_PHI || at->block != def->block)
         return false;
      while (at && at != def)
         at = at->next;
      if (!at)
         return false;     /* after def */
   }
   return true;
}

/* A loop phi's array also holds the value that comes round the back edge
 * when the phi is dead once that value is defined (in the same block,
 * every use before it): the value is written straight into the phi's
 * array, and the copy on the back edge, a blend loop over all lanes at
 * every iteration, disappears.  Lanes that leave keep their last value
 * there, as the value's own array kept it; an array is only written for
 * the lanes that run (the write-back's select). */
static void plan_shared_arrays(emitter *e)
{
   ir_func *f = e->f;
   for (uint32_t k = 0; k < f->ndefs; k++)
      e->lane_store[k] = k;
   if (!(f->valid & IR_META_DOM))
      return;
   ir_foreach_block(h, f) {
      if (!h->is_loop_header)
         continue;
      ir_foreach_instr(phi, h) {
         if (phi->op != IR_PHI)
            break;
         if (e->lane_arr[phi->def.index] != LANE_ARRAY || phi->def.ncomp != 1)
            continue;
         for (uint32_t s = 0; s < phi->nsrcs; s++) {
            const ir_def *d = phi->srcs[s].def;
            if (!ir_dominates(h, phi->srcs[s].pred) || is_inline(d) || d->parent->op == IR_PHI ||
                e->lane_arr[d->index] != LANE_ARRAY || d->bits != phi->def.bits || d->ncomp != 1 ||
                e->lane_store[d->index] != d->index || !phi_dead_at(phi, d->parent) ||
                read_by_other_lanes(&phi->def) || read_by_other_lanes(d))
               continue;
            e->lane_store[d->index] = phi->def.index;
         }
      }
   }
}

/* An address the lane loop computes from the position and uniform values
 * (consecutive or equal in consecutive lanes, which the host compiler
 * turns into vector loads and broadcasts) rather than reads from an
 * array (a gather). */
static bool address_is_cheap(const lanes_plan *p, const ir_def *a)
{
   return is_inline(a) || p->kind[a->index] == LANE_SCALAR || p->kind[a->index] == LANE_REMAT;
}

/* Does a memory access inside a costly loop (check_costly_loops) take its
 * address from an array?  Atomics do not count: each lane's is a scalar
 * read-modify-write in either form, never a vector gather
 * (bench/kernels.cu's histogram: 10.0 ms per thread, 5.0 ms in the lane
 * form on a 2-core Zen 3). */
static bool costly_loops_gather(const lanes_plan *p, ir_func *f, const uint8_t *costly)
{
   ir_foreach_block(b, f) {
      bool in_costly = false;
      for (uint32_t l = p->block_loop[b->index]; l && !in_costly; l = p->loop_parent[l - 1])
         in_costly = costly[l - 1];
      if (!in_costly)
         continue;
      ir_foreach_instr(i, b)
         if (ir_op_is(i->op, IR_OP_MEMORY) && i->op != IR_ATOM && i->op != IR_RED &&
             (i->nsrcs == 0 || !address_is_cheap(p, i->srcs[0].def)))
            return true;
   }
   return false;
}

bool emit_lanes_plan(emitter *e)
{
   bool block_sync;
   if (!eligible(e->f, &block_sync))
      return true;       /* e->lane_arr stays NULL: the per-thread form */
   uint8_t *taint = arena_alloc(e->ar, e->f->ndefs + 1);
   if (!taint)
      return ir_error(e->f->module, 0, "out of memory");
   if (spins_on_marked_load(e->f, taint))
      return true;       /* the per-thread form */
   /* shuffles: lanes of a SIMD-group meet, which the warp's divergence
    * answers (tid.x / 32 is the same in a SIMD-group, at run time checked:
    * mc_lm_warps_whole) */
   bool *div = ir_find_divergence(e->f), *wdiv = ir_find_warp_divergence(e->f), meet = false, wmeet = false;
   uint8_t *costly = arena_alloc(e->ar, e->max_cf_id + 1);
   if (!div || !wdiv || !costly || !syncs_meet(e, div, is_bar, &meet, costly) ||
       !syncs_meet(e, wdiv, is_lane_warp, &wmeet, NULL))
      return ir_error(e->f->module, 0, "out of memory");
   /* A kernel whose only synchronisation is warp operations: only where
    * every thread of the block reaches each alike.  Where only each
    * SIMD-group's do (a branch on tid.x / 32, on tid.y), that holds for
    * launches whose SIMD-groups lie in rows of x, and the per-thread form
    * runs other shapes with fibers (emit_resume.c) where the lane form
    * would fail the dispatch (mc_lm_warps_whole). */
   bool bmeet = true;
   if (!block_sync && !syncs_meet(e, div, is_lane_warp, &bmeet, NULL))
      return ir_error(e->f->module, 0, "out of memory");
   if (!meet || !wmeet || !bmeet)
      return true;       /* e->lane_arr stays NULL: the per-thread form */
   lanes_plan p = { 0 };
   uint32_t n = e->f->ndefs + 1;
   e->lane_meet = arena_alloc(e->ar, e->f->ninstrs + 1);
   if (!e->lane_meet)
      return ir_error(e->f->module, 0, "out of memory");
   plan_meets(e->f, e->lane_meet);
   p.meet = e->lane_meet;
   p.kind = arena_alloc(e->ar, n);
   p.pinned = arena_alloc(e->ar, n);
   p.group = arena_alloc(e->ar, n * sizeof(*p.group));
   e->lane_remat_at = arena_alloc(e->ar, n * sizeof(*e->lane_remat_at));
   if (!p.kind || !p.pinned || !p.group || !e->lane_remat_at)
      return ir_error(e->f->module, 0, "out of memory");
   memset(p.pinned, 0, n);
   memset(e->lane_remat_at, 0, n * sizeof(*e->lane_remat_at));
   uint32_t nb = e->f->blocks.len + 1, nc = e->max_cf_id + 1;
   p.block_loop = arena_alloc(e->ar, nb * sizeof(*p.block_loop));
   p.loop_parent = arena_alloc(e->ar, nc * sizeof(*p.loop_parent));
   if (!p.block_loop || !p.loop_parent)
      return ir_error(e->f->module, 0, "out of memory");
   memset(p.block_loop, 0, nb * sizeof(*p.block_loop));
   memset(p.loop_parent, 0, nc * sizeof(*p.loop_parent));
   find_loops(&p, e->f->cf, 0);
   memset(p.kind, LANE_LOCAL, n);
   memset(p.group, 0xff, n * sizeof(*p.group));
   plan_scalars(&p, e->f, div);
   p.runs = !e->has_lockstep;
   p.edge_group = arena_alloc(e->ar, nb * sizeof(*p.edge_group));
   p.edge_seen = arena_alloc(e->ar, nb * sizeof(*p.edge_seen));
   p.edge_total = arena_alloc(e->ar, nb * sizeof(*p.edge_total));
   if (!p.edge_group || !p.edge_seen || !p.edge_total)
      return ir_error(e->f->module, 0, "out of memory");
   memset(p.edge_group, 0xff, nb * sizeof(*p.edge_group));
   memset(p.edge_seen, 0, nb * sizeof(*p.edge_seen));
   memset(p.edge_total, 0, nb * sizeof(*p.edge_total));
   count_edges(&p, e->f->cf);
   plan_cf(&p, e->f->cf, NULL);
   uint8_t *was = arena_alloc(e->ar, n);
   if (!was)
      return ir_error(e->f->module, 0, "out of memory");
   plan_remat(&p, e->f, was);
   /* (warp-synchronous code per thread runs as fibers meeting at every
    * marked access, which costs more than any loop's bookkeeping) */
   if (!e->has_lockstep && costly_loops_gather(&p, e->f, costly))
      return true;       /* e->lane_arr stays NULL: the per-thread form */
   e->lane_arr = p.kind;
   if (!fits(e)) {
      e->lane_arr = NULL;   /* too large for the software device's stack: per thread */
      return true;
   }
   e->lane_written = arena_alloc(e->ar, n);
   e->lane_store = arena_alloc(e->ar, n * sizeof(*e->lane_store));
   if (!e->lane_written || !e->lane_store)
      return ir_error(e->f->module, 0, "out of memory");
   memset(e->lane_written, 0, n);
   plan_shared_arrays(e);
   return true;
}

/* Bytes a lane holds across groups: its arrays' elements and its local
 * memory.  The software device keeps them for every thread of a
 * threadgroup (up to 1024) on a worker's stack. */
static bool fits(const emitter *e)
{
   uint64_t bytes = MC_MAX(e->f->local_total, e->f->local_bytes);
   ir_foreach_block(b, e->f)
      ir_foreach_instr(i, b)
         if (i->def.bits && e->lane_arr[i->def.index] == LANE_ARRAY)
            bytes += (uint64_t)(i->def.bits == 1 ? 1 : i->def.bits / 8) * i->def.ncomp;
   return bytes <= LANE_BYTES_MAX;
}

/* ---- declarations ---- */

static uint8_t kind_of(const emitter *e, const ir_def *d) { return e->lane_arr[d->index]; }

static void declare(emitter *e, const ir_instr *i, const char *suffix)
{
   const char *t = msl_utype(i->def.bits);
   if (i->def.ncomp == 1) {
      emit_line(e, "%s v%u%s;", t, i->def.index, suffix);
      return;
   }
   for (unsigned k = 0; k < i->def.ncomp; k++)
      emit_line(e, "%s v%u_%u%s;", t, i->def.index, k, suffix);
}

/* The arrays, at the top of the kernel. */
void emit_lanes_declare(emitter *e)
{
   emit_line(e, "MC_LANES_BEGIN");
   if (e->has_local)
      emit_line(e, "alignas(16) uchar mc_local_lanes[MC_NLANES][%u];", MC_MAX(e->f->local_total, e->f->local_bytes));
   ir_foreach_block(b, e->f)
      ir_foreach_instr(i, b) {
         if (!emit_needs_variable(i) || kind_of(e, &i->def) == LANE_LOCAL || kind_of(e, &i->def) == LANE_REMAT ||
             (kind_of(e, &i->def) == LANE_ARRAY && e->lane_store[i->def.index] != i->def.index))
            continue;      /* no array, or another value's */
         declare(e, i, kind_of(e, &i->def) == LANE_ARRAY ? "[MC_NLANES] = {}" : " = 0");
      }
}

/* ---- code ---- */

static void close_lanes(emitter *e)
{
   e->indent--;
   emit_line(e, "MC_LANES_END");
}

/* A lane loop that writes arrays keeps each lane's element in a scalar
 * (mc_wN, emit_val_comp) loaded before the lane's work and stored back
 * after it whether or not the lane ran: the host compiler then writes the
 * arrays with whole vector stores (a select, not a masked store), which
 * the next loop's loads can take from the store buffer.  Masked stores
 * cannot forward, and a loop-carried array then waited for each store to
 * reach the cache.  The select is a call (mc_lsel), whose operands are
 * both read: `on ? w : v[l]` reads v[l] on one side only, a branch that
 * the host compiler vectorises only as a masked load, and where the lane
 * loops walk runs of active lanes (prelude MC_LANES_FOR, CPUs whose masked
 * stores are slow) a loop with no mask to load under.  The arrays
 * start zeroed, so an element is never read uninitialised.  Phis copied
 * in the loop (an EDGE of its run) are written the same way. */
static void for_written(emitter *e, const ir_instr *i, bool load)
{
   for (unsigned k = 0; k < i->def.ncomp; k++) {
      char c[16] = "";
      if (i->def.ncomp > 1)
         snprintf(c, sizeof(c), "_%u", k);
      uint32_t at = e->lane_store[i->def.index];
      if (load)
         emit_line(e, "%s mc_w%u%s = v%u%s[mc_l];", msl_utype(i->def.bits), i->def.index, c, at, c);
      else
         emit_line(e, "v%u%s[mc_l] = mc_lsel(mc_on, mc_w%u%s, v%u%s[mc_l]);", at, c, i->def.index, c, at, c);
   }
}

static bool in_lanes(const emitter *e, const ir_instr *i)
{
   return i->op != IR_PHI && !ir_op_is(i->op, IR_OP_TERMINATOR) && i->op != IR_BAR && i->op != IR_CONST &&
          i->op != IR_UNDEF &&
          !(i->def.bits && (kind_of(e, &i->def) == LANE_SCALAR || kind_of(e, &i->def) == LANE_REMAT));
}

static bool writes_array(const emitter *e, const ir_instr *i)
{
   return in_lanes(e, i) && emit_needs_variable(i) && kind_of(e, &i->def) == LANE_ARRAY;
}

/* The end of the group from `from`: a boundary (run on its own) or a
 * meet (the start of the next group). */
static const ir_instr *group_end(const emitter *e, const ir_instr *from)
{
   for (const ir_instr *i = from; i; i = i->next)
      if (is_boundary(i) || (i != from && e->lane_meet[i->index] == LANE_MEET_SPLIT))
         return i;
   return NULL;
}

/* The end of the group a warp operation w starts (ends_group: the code
 * after it up to the next boundary or meet). */
static const ir_instr *warp_group_end(const emitter *e, const ir_instr *w)
{
   for (const ir_instr *i = w->next; i; i = i->next)
      if (is_boundary(i) || e->lane_meet[i->index] == LANE_MEET_SPLIT)
         return i;
   return NULL;
}

/* A recomputed value d, operands first, once per lane loop. */
static void emit_remat_def(emitter *e, const ir_def *d);

static void emit_remat_srcs(emitter *e, const ir_instr *i)
{
   for (uint32_t k = 0; k < i->nsrcs; k++)
      emit_remat_def(e, i->srcs[k].def);
}

static void emit_remat_def(emitter *e, const ir_def *d)
{
   if (is_inline(d) || kind_of(e, d) != LANE_REMAT || e->lane_remat_at[d->index] == e->lane_loops)
      return;
   e->lane_remat_at[d->index] = e->lane_loops;
   emit_remat_srcs(e, d->parent);
   if (emit_needs_variable(d->parent))
      declare(e, d->parent, " = 0");
   emit_instr(e, (ir_instr *)d->parent);
}

/* A warp meet where the per-thread form has one (plan_meets, and before
 * warp operations in a kernel with marked accesses): nothing with a
 * threadgroup of lanes, whose lane loops end there or keep it in order,
 * the fiber scheduler's meet in the one-lane build (MC_LANES_WARP_MEET),
 * ranked as the per-thread form ranks it. */
static void emit_lane_meet(emitter *e, const char *guard)
{
   emit_line(e, "%sMC_LANES_WARP_MEET(0x%llxul);", guard, (unsigned long long)e->meet_rank++);
}

/* A run (see "runs" above): what shares one lane loop, in order.  An
 * item is a block's instructions [from, to) (n its CODE node) or a plain
 * IF, BLOCK or EDGE node (from and to NULL). */
typedef struct lane_item {
   const ir_cf *n;
   const ir_instr *from, *to;
   const tail_blocks *tail;   /* the BLOCKs whose end the node is at */
} lane_item;

typedef struct lane_run {
   VEC(lane_item) items;
   bool after_warp;   /* the first item starts with a shuffle, vote or redux.sync */
} lane_run;

static void run_add(emitter *e, lane_run *r, const ir_cf *n, const ir_instr *from, const ir_instr *to,
                    const tail_blocks *tail)
{
   if (n->kind == IR_CF_CODE && from == to)
      return;
   if (!vec_push(e->ar, &r->items, ((lane_item){ n, from, to, tail })))
      ir_error(e->f->module, 0, "out of memory");
}

/* What a walk over a run's instructions, conditions and phi copies does
 * (run_walk). */
enum {
   RUN_INFO,      /* the facts below */
   RUN_SCALARS,   /* the uniform values, before the lane loop */
   RUN_LOADS,     /* the lane's elements of the arrays the loop writes */
   RUN_DECLARE,   /* the loop's scalars (LANE_LOCAL values and phis) */
   RUN_REMAT,     /* the recomputed values the loop reads */
   RUN_STORES,    /* the write-back of the arrays' elements */
};

typedef struct run_walk {
   emitter *e;
   int pass;
   bool scalars;   /* RUN_INFO: it has uniform values */
   bool lanes;     /* RUN_INFO: it has work per lane (instructions, copies into arrays or scalars) */
   bool impure;    /* RUN_INFO: it touches memory (else every lane runs it, no mc_on test) */
   bool pos;       /* RUN_INFO: it reads the lane's position (%tid, recomputed values): the lane
                    * loop then walks segments (MC_LANES_FOR_POS), where the host compiler sees x as
                    * the loop counter; the others loop over whole mask words, whose fixed trip
                    * count needs no remainder loop (a smaller, faster compile) */
   unsigned branches;  /* RUN_INFO: the instructions under a lane's own branches (plain IFs) */
   unsigned ifs;   /* the IF nodes around the walk */
   const ir_instr *const *deferred;   /* left to a lane loop of their own (deferrable_cond) */
   uint32_t ndeferred;
} run_walk;

static bool is_deferred(const run_walk *w, const ir_instr *i)
{
   for (uint32_t k = 0; k < w->ndeferred; k++)
      if (w->deferred[k] == i)
         return true;
   return false;
}

static bool reads_remat(const emitter *e, const ir_def *d) { return !is_inline(d) && kind_of(e, d) == LANE_REMAT; }

/* Forced to vectorise (the prelude's positional lane loops: their lanes
 * are independent, which the host compiler cannot see), a loop whose
 * lanes branch has both arms computed for every lane, stores under a
 * branch as masked stores (slow on AMD's CPUs without AVX-512) or as a
 * test and a scalar store per element, loads as gathers or masked loads,
 * divisions as one per element: a quarter to a third of
 * tests/cuda/lane_divergence's lane-form compiles, on loops of 16 to 60
 * instructions under branches (bench/README.md, compile time).  Loops with
 * at most BRANCHY_MAX stay forced, which leaves bench/kernels.cu's kernels
 * as they were: their loops that branch have one to four (the shuffle
 * reduction's store of a warp's sum by its lane 0, the block reduction's
 * tree steps), and left to the cost model the shuffle reduction ran
 * 9.9-10.0 ms against 9.2-9.3 in one loaded run, not settled. */
enum { BRANCHY_MAX = 8 };

/* RUN_LOADS, RUN_STORES: the lane's element of the array of i's value (an
 * instruction's, or a phi's that an EDGE of the run copies into), once. */
static void walk_written(run_walk *w, const ir_instr *i)
{
   bool load = w->pass == RUN_LOADS;
   if (w->e->lane_written[i->def.index] == load)
      return;   /* loaded already, or stored */
   for_written(w->e, i, load);
   w->e->lane_written[i->def.index] = load;
}

static void walk_instr(run_walk *w, const ir_instr *i)
{
   emitter *e = w->e;
   bool lanes = in_lanes(e, i);
   if (w->pass != RUN_INFO && w->pass != RUN_SCALARS && is_deferred(w, i))
      return;
   switch (w->pass) {
   case RUN_INFO:
      w->scalars |= i->op != IR_PHI && i->def.bits && !is_inline(&i->def) && kind_of(e, &i->def) == LANE_SCALAR;
      if (!lanes)
         break;
      w->lanes = true;
      w->impure |= !ir_op_is(i->op, IR_OP_PURE) && i->op != IR_SREG;
      w->branches += w->ifs != 0;
      w->pos |= is_tid(i);
      for (uint32_t k = 0; k < i->nsrcs; k++)
         w->pos |= reads_remat(e, i->srcs[k].def);
      break;
   case RUN_SCALARS:
      if (i->op != IR_PHI && i->def.bits && !is_inline(&i->def) && kind_of(e, &i->def) == LANE_SCALAR)
         emit_instr(e, (ir_instr *)i);
      break;
   case RUN_LOADS:
   case RUN_STORES:
      if (writes_array(e, i))
         walk_written(w, i);
      break;
   case RUN_DECLARE:
      if ((lanes || i->op == IR_PHI) && emit_needs_variable(i) && kind_of(e, &i->def) == LANE_LOCAL)
         declare(e, i, " = 0");
      break;
   case RUN_REMAT:
      if (lanes)
         emit_remat_srcs(e, i);
      break;
   }
}

static void walk_edge(run_walk *w, const ir_cf *n)
{
   emitter *e = w->e;
   ir_foreach_instr(phi, n->to) {
      if (phi->op != IR_PHI)
         break;
      if (kind_of(e, &phi->def) == LANE_SCALAR || !emit_phi_copy_needed(e, phi, n, LANE_ARRAY))
         continue;
      const ir_def *src = NULL;
      for (uint32_t k = 0; k < phi->nsrcs; k++)
         if (phi->srcs[k].pred == n->from)
            src = phi->srcs[k].def;
      switch (w->pass) {
      case RUN_INFO:
         w->lanes = true;
         w->pos |= src && reads_remat(e, src);
         break;
      case RUN_LOADS:
      case RUN_STORES:
         if (kind_of(e, &phi->def) == LANE_ARRAY)
            walk_written(w, phi);
         break;
      case RUN_REMAT:
         if (src)
            emit_remat_def(e, src);
         break;
      }
   }
}

static void walk_node(run_walk *w, const ir_cf *n)
{
   switch (n->kind) {
   case IR_CF_CODE:
      ir_foreach_instr(i, n->block)
         walk_instr(w, i);
      break;
   case IR_CF_EDGE:
      walk_edge(w, n);
      break;
   case IR_CF_IF:
      if (w->pass == RUN_INFO)
         w->pos |= reads_remat(w->e, n->cond.def);
      else if (w->pass == RUN_REMAT)
         emit_remat_def(w->e, n->cond.def);
      w->ifs++;
      for (const ir_cf *c = n->then_cf; c; c = c->next)
         walk_node(w, c);
      for (const ir_cf *c = n->else_cf; c; c = c->next)
         walk_node(w, c);
      w->ifs--;
      break;
   default:
      for (const ir_cf *c = n->first; c; c = c->next)
         walk_node(w, c);
      break;
   }
}

static void walk_run(run_walk *w, const lane_run *r)
{
   vec_foreach(const lane_item, it, &r->items) {
      if (it->n->kind != IR_CF_CODE) {
         walk_node(w, it->n);
         continue;
      }
      for (const ir_instr *i = it->from; i != it->to; i = i->next)
         walk_instr(w, i);
   }
}

static void emit_plain_list(emitter *e, const ir_cf *n, const tail_blocks *tail);

/* Plain code (plain_node) for one lane, inside its lane loop: C++ control
 * flow, as the per-thread form writes it (emit.c), a BLOCK a `switch (0)`
 * (a break target); a break to a BLOCK whose end the node is at is
 * nothing. */
static void emit_plain(emitter *e, const ir_cf *n, const tail_blocks *tail)
{
   switch (n->kind) {
   case IR_CF_CODE:
      ir_foreach_instr(i, n->block)
         if (in_lanes(e, i))
            emit_instr(e, i);
      break;
   case IR_CF_EDGE:
      emit_phi_copies(e, n, LANE_ARRAY);
      break;
   case IR_CF_IF:
      emit_indent(e);
      strbuf_puts(e->out, "if (");
      emit_val(e, n->cond.def);
      strbuf_puts(e->out, ") {\n");
      e->indent++;
      emit_plain_list(e, n->then_cf, tail);
      e->indent--;
      if (n->else_cf) {
         emit_line(e, "} else {");
         e->indent++;
         emit_plain_list(e, n->else_cf, tail);
         e->indent--;
      }
      emit_line(e, "}");
      break;
   case IR_CF_BLOCK: {
      const tail_blocks t = { n, tail };
      emit_line(e, "switch (0) { default: {");
      e->indent++;
      emit_plain_list(e, n->first, &t);
      e->indent--;
      emit_line(e, "} }");
      break;
   }
   case IR_CF_BREAK:
      if (!in_tail(tail, n->target))
         emit_line(e, "break;");
      break;
   default:
      emit_plain_list(e, n->first, tail);
      break;
   }
}

static void emit_plain_list(emitter *e, const ir_cf *n, const tail_blocks *tail)
{
   for (; n; n = n->next)
      emit_plain(e, n, tail_of(n, tail));
}

/* ---- conditions in a lane loop of their own ----
 *
 * A grid-stride loop's lane loop loads in[i] and computes whether the lane
 * goes round again, i + stride < n.  LLVM 19's vectoriser takes the
 * consecutive load's address from lane 0 of scalar steps of the position
 * and then builds the vector the compare needs from those steps lane by
 * lane: 12 of the loop's 27 instructions per 8 lanes on AVX2 (the block
 * reduction of bench/kernels.cu; the same in a plain C++ loop over an
 * unsigned counter).  A compare alone in a loop gets a plain vector
 * induction.  So a branch condition (a SETP whose value only terminators
 * read) computed from the position and uniform values only, in a run that
 * also accesses memory at positions, is computed in a second lane loop
 * over the same lanes right after the run's: the same values, as both read
 * only recomputed and uniform values, which nothing between the two loops
 * changes (the copies into uniform phis come after the run). */

static bool only_branches_read(const ir_def *d)
{
   ir_foreach_use(u, d)
      if (!ir_op_is(u->parent->op, IR_OP_TERMINATOR))
         return false;
   return true;
}

static bool deferrable_cond(const emitter *e, const ir_instr *i)
{
   if (i->op != IR_SETP || !writes_array(e, i) || e->lane_meet[i->index] || !only_branches_read(&i->def))
      return false;
   bool pos = false;
   for (uint32_t k = 0; k < i->nsrcs; k++) {
      const ir_def *d = i->srcs[k].def;
      if (!is_inline(d) && kind_of(e, d) != LANE_SCALAR && kind_of(e, d) != LANE_REMAT)
         return false;
      pos |= reads_remat(e, d);
   }
   return pos;
}

/* Whether node n, or a node inside it, is an IF on d. */
static bool node_branches_on(const ir_cf *n, const ir_def *d)
{
   if (n->kind == IR_CF_IF && n->cond.def == d)
      return true;
   const ir_cf *const lists[] = { n->first, n->then_cf, n->else_cf };
   for (unsigned k = 0; k < ARRAY_SIZE(lists); k++)
      for (const ir_cf *c = lists[k]; c; c = c->next)
         if (node_branches_on(c, d))
            return true;
   return false;
}

/* The run's deferrable conditions into *out (at most max), when the run
 * is in a loop, reads positions and touches memory; a plain IF of the run
 * that branches on one keeps it in the run's loop. */
static uint32_t plan_deferred(const emitter *e, const lane_run *r, const run_walk *info, const ir_instr **out,
                              uint32_t max)
{
   uint32_t n = 0;
   if (!info->pos || !info->impure || !e->lane_loop_depth)
      return 0;   /* outside loops the build cost once per lane is not worth a loop's compile */
   vec_foreach(const lane_item, it, &r->items)
      if (it->n->kind == IR_CF_CODE)
         for (const ir_instr *i = it->from; i != it->to && n < max; i = i->next)
            if (deferrable_cond(e, i))
               out[n++] = i;
   for (uint32_t k = 0; k < n;) {
      bool read = false;
      vec_foreach(const lane_item, it, &r->items)
         read |= node_branches_on(it->n, &out[k]->def);
      if (read)
         out[k] = out[--n];
      else
         k++;
   }
   return n;
}

/* The deferred conditions' lane loop (see above). */
static void emit_deferred(emitter *e, const ir_instr *const *d, uint32_t n)
{
   run_walk w = { .e = e, .pass = RUN_LOADS };
   emit_line(e, "MC_LANES_FOR_POS(mc_mask)");
   e->indent++;
   for (uint32_t k = 0; k < n; k++)
      walk_written(&w, d[k]);
   emit_line(e, "{");
   e->indent++;
   emit_line(e, "const uint3 mc_tid = MC_LANE_TID(mc_l); (void)mc_tid;");
   e->lane_loops++;
   for (uint32_t k = 0; k < n; k++)
      emit_remat_srcs(e, d[k]);
   for (uint32_t k = 0; k < n; k++)
      emit_instr(e, (ir_instr *)d[k]);
   e->indent--;
   emit_line(e, "}");
   w.pass = RUN_STORES;
   for (uint32_t k = 0; k < n; k++)
      walk_written(&w, d[k]);
   close_lanes(e);
}

enum { DEFERRED_MAX = 8 };

/* ---- the next iteration's loads ----
 *
 * A grid-stride loop's lane loop loads in[i] for i = base + position + k,
 * k a uniform loop counter: each iteration reads one threadgroup-wide
 * stretch (1 KB for 256 threads of 4 bytes) a whole grid's stride (256 KB
 * in bench/kernels.cu's block reduction) past the last, which the CPU's
 * prefetchers, following streams within a page, do not foresee; its loop
 * then waited on memory (perf: most of the kernel on the instruction after
 * the load).  Where a global load's address is recomputed from the
 * position and a loop phi whose next value the run computes before its
 * lane loop, the addresses of the first and the last lane PREFETCH_AHEAD
 * iterations on (or at the next value, where the step is not known) are
 * computed ahead of the lane loop (the phi shadowed by that value in a
 * scope of their own) and their lines prefetched
 * (MC_LANES_PREFETCH, nothing with one lane; a prefetch never faults, so
 * a stretch the next iteration does not read costs only the hint). */

typedef struct lane_prefetch {
   const ir_def *addr, *phi, *next;
} lane_prefetch;

static bool defined_in_run(const lane_run *r, const ir_def *d)
{
   vec_foreach(const lane_item, it, &r->items)
      if (it->n->kind == IR_CF_CODE)
         for (const ir_instr *i = it->from; i != it->to; i = i->next)
            if (&i->def == d)
               return true;
   return false;
}

/* The uniform loop phi the recomputed value d is computed from whose next
 * value the run computes, with that value, if any. */
static bool find_counter(const emitter *e, const lane_run *r, const ir_def *d, uint32_t depth, lane_prefetch *pf)
{
   if (is_inline(d) || depth > REMAT_COST_MAX)
      return false;
   const ir_instr *i = d->parent;
   if (i->op == IR_PHI) {
      if (kind_of(e, d) != LANE_SCALAR || !i->block->is_loop_header || (d->bits != 32 && d->bits != 64))
         return false;
      for (uint32_t k = 0; k < i->nsrcs; k++) {
         const ir_def *n = i->srcs[k].def;
         if (!is_inline(n) && n->parent->op != IR_PHI && kind_of(e, n) == LANE_SCALAR && defined_in_run(r, n)) {
            pf->phi = d;
            pf->next = n;
            return true;
         }
      }
      return false;
   }
   if (kind_of(e, d) != LANE_REMAT)
      return false;
   for (uint32_t k = 0; k < i->nsrcs; k++)
      if (find_counter(e, r, i->srcs[k].def, depth + 1, pf))
         return true;
   return false;
}

enum { PREFETCH_MAX = 4 };

static uint32_t plan_prefetch(const emitter *e, const lane_run *r, lane_prefetch *out)
{
   uint32_t n = 0;
   vec_foreach(const lane_item, it, &r->items)
      if (it->n->kind == IR_CF_CODE)
         for (const ir_instr *i = it->from; i != it->to && n < PREFETCH_MAX; i = i->next) {
            if (i->op != IR_LOAD || i->space != IR_SPACE_GLOBAL || i->flags & (IR_F_LOCKED | IR_F_VOLATILE))
               continue;
            const ir_def *a = i->srcs[0].def;
            lane_prefetch pf = { a, NULL, NULL };
            if (!is_inline(a) && kind_of(e, a) == LANE_REMAT && find_counter(e, r, a, 0, &pf))
               out[n++] = pf;
         }
   return n;
}

/* How far ahead the loads are prefetched, in iterations.  One iteration
 * ahead left the block reduction waiting on memory (a 1 KB stretch is a
 * few tens of nanoseconds of work, a miss to memory about 100); on a
 * 2-core Zen 4, `bench/kernels.sh`'s block reduction took 5.1-5.3 ms
 * prefetching one iteration ahead, 4.1-4.3 two, 4.1-4.4 four, and the
 * shuffle reduction 5.0-5.5, 4.4-5.1 and 4.1-5.0 (bench/README.md). */
enum { PREFETCH_AHEAD = 4 };

/* The counter's uniform step when its next value is counter + step in
 * integers (a grid-stride loop's i += gridDim.x * blockDim.x), else NULL:
 * then only the next iteration's addresses are known. */
static const ir_def *counter_step(const emitter *e, const lane_prefetch *pf)
{
   const ir_instr *i = pf->next->parent;
   if (i->op != IR_ADD || !ptx_type_is_int(i->type) || i->nsrcs != 2)
      return NULL;
   const ir_def *step = i->srcs[0].def == pf->phi ? i->srcs[1].def
                        : i->srcs[1].def == pf->phi ? i->srcs[0].def
                                                    : NULL;
   return step && (is_inline(step) || kind_of(e, step) == LANE_SCALAR) ? step : NULL;
}

/* The address of pf for the lane at tid, PREFETCH_AHEAD iterations on
 * (the next one where the step is not known), into mc_pf[slot]. */
static void emit_prefetch_address(emitter *e, const lane_prefetch *pf, const char *tid, int slot)
{
   emit_line(e, "{");
   e->indent++;
   emit_line(e, "const uint3 mc_tid = %s; (void)mc_tid;", tid);
   const ir_def *step = counter_step(e, pf);
   const char *t = msl_utype(pf->phi->bits);
   if (step) {
      emit_indent(e);
      strbuf_printf(e->out, "const %s v%u = (%s)(v%u + (%s)%d * (%s)", t, pf->phi->index, t, pf->next->index, t,
                    PREFETCH_AHEAD - 1, t);
      emit_val(e, step);
      strbuf_puts(e->out, ");\n");
   } else {
      emit_line(e, "const %s v%u = v%u;", t, pf->phi->index, pf->next->index);
   }
   e->lane_loops++;
   emit_remat_def(e, pf->addr);
   emit_indent(e);
   strbuf_printf(e->out, "mc_pf[%d] = (ulong)(", slot);
   emit_val(e, pf->addr);
   strbuf_puts(e->out, ");\n");
   e->indent--;
   emit_line(e, "}");
}

static void emit_prefetches(emitter *e, const lane_prefetch *pf, uint32_t n)
{
   for (uint32_t k = 0; k < n; k++) {
      emit_line(e, "{");
      e->indent++;
      emit_line(e, "ulong mc_pf[2];");
      emit_prefetch_address(e, &pf[k], "uint3(0u, 0u, 0u)", 0);
      emit_prefetch_address(e, &pf[k], "mc_ntid - 1u", 1);
      emit_line(e, "MC_LANES_PREFETCH(mc_pf[0], mc_pf[1]);");
      e->indent--;
      emit_line(e, "}");
   }
}

/* The run r, which is then empty: its uniform values once, then (if it
 * has work per lane) its lane loop: the loads of the arrays it writes,
 * the lane's part (for every lane if it touches no memory, else for the
 * active ones) with the lane's position, local memory, scalars and the
 * recomputed values it reads, and the write-back.  The mask is the same
 * at every item: no lane leaves plain code. */
static void flush_run(emitter *e, lane_run *r)
{
   if (!r->items.len)
      return;
   run_walk w = { .e = e, .pass = RUN_INFO };
   walk_run(&w, r);
   const ir_instr *deferred[DEFERRED_MAX];
   w.ndeferred = plan_deferred(e, r, &w, deferred, DEFERRED_MAX);
   w.deferred = deferred;
   if (w.scalars || w.lanes) {
      emit_line(e, "if (mc_lm_any(mc_mask)) {");
      e->indent++;
      w.pass = RUN_SCALARS;
      walk_run(&w, r);
   }
   if (w.lanes && w.pos) {
      lane_prefetch pf[PREFETCH_MAX];
      emit_prefetches(e, pf, plan_prefetch(e, r, pf));
   }
   if (w.lanes) {
      /* A positional loop with more than BRANCHY_MAX instructions under its
       * lanes' branches says so: where lane loops walk runs the prelude
       * does not force its vectorisation (MC_LANES_FOR_POS_IF). */
      emit_line(e, !w.pos       ? "MC_LANES_FOR(mc_mask)"
                   : w.branches > BRANCHY_MAX ? "MC_LANES_FOR_POS_IF(mc_mask)"
                                : "MC_LANES_FOR_POS(mc_mask)");
      e->indent++;
      w.pass = RUN_LOADS;
      walk_run(&w, r);
      emit_line(e, w.impure ? "if (mc_on) {" : "{");
      e->indent++;
      emit_line(e, w.pos ? "const uint3 mc_tid = MC_LANE_TID(mc_l); (void)mc_tid;"
                         : "const uint3 mc_tid = MC_LANE_TID_DIV(mc_l); (void)mc_tid;");
      if (e->has_local)
         emit_line(e, "thread uchar *mc_local = mc_local_lanes[mc_l];");
      w.pass = RUN_DECLARE;
      walk_run(&w, r);
      e->lane_loops++;
      w.pass = RUN_REMAT;
      walk_run(&w, r);
      vec_foreach(const lane_item, it, &r->items) {
         if (it->n->kind != IR_CF_CODE) {
            emit_plain(e, it->n, it->tail);
            continue;
         }
         for (const ir_instr *i = it->from; i != it->to; i = i->next)
            if (in_lanes(e, i) && !is_deferred(&w, i)) {
               if (e->lane_meet[i->index])
                  emit_lane_meet(e, "if (mc_on) ");
               emit_instr(e, (ir_instr *)i);
            }
      }
      e->indent--;
      emit_line(e, "}");
      w.pass = RUN_STORES;
      walk_run(&w, r);
      close_lanes(e);
      if (w.ndeferred)
         emit_deferred(e, deferred, w.ndeferred);
   }
   if (w.scalars || w.lanes) {
      e->indent--;
      emit_line(e, "}");
   }
   r->items.len = 0;
   r->after_warp = false;
}

/* A boundary: every lane the invocation started with at a barrier, or
 * every lane of a SIMD-group (or none) at a warp operation; __syncwarp is
 * nothing per lane. */
static void emit_boundary(emitter *e, const ir_instr *b)
{
   emit_line(e, "if (mc_lm_any(mc_mask)) {");
   e->indent++;
   if (b->op == IR_BAR) {
      /* else threads wait at different barriers or returned (the
       * scheduler's check) */
      emit_line(e, "if (!mc_lm_eq(mc_mask, mc_init)) { mc_lanes_diverged(mc_L); return; }");
      emit_line(e, "MC_LANES_BARRIER();");
   } else {
      emit_line(e, "if (!mc_lm_warps_whole(mc_mask, mc_init)) { mc_lanes_diverged(mc_L); return; }");
      if (e->has_lockstep)
         emit_lane_meet(e, "");   /* lanes at it must have come through the meets before */
      if (is_lane_warp_sync(b))
         emit_line(e, "MC_LANES_WARP_BARRIER(%uu);", emit_warp_kind(b));
   }
   e->indent--;
   emit_line(e, "}");
}

/* The block of n, a group at a time: its first group joins the run r,
 * which a boundary or meet then writes; its last group stays in r.  The
 * group a shuffle, vote or redux.sync starts is the operation and the
 * code after it (ends_group). */
static void emit_code_node(emitter *e, const ir_cf *n, lane_run *r)
{
   if (e->has_lockstep)
      flush_run(e, r);   /* the start of a lane loop is a meet (plan_meets) */
   e->meet_rank = emit_meet_rank(e, n->block->meet_order, 0);
   const ir_instr *i = n->block->first, *end = group_end(e, i);
   for (;;) {
      run_add(e, r, n, i, end, NULL);
      if (!end)
         return;
      flush_run(e, r);
      if (!is_boundary(end)) {
         i = end;   /* a meet: every lane did the group before it */
         end = group_end(e, i);
         continue;
      }
      emit_boundary(e, end);
      if (!is_lane_warp_sync(end) && end->op != IR_BAR) {
         i = end;
         end = warp_group_end(e, i);
         r->after_warp = true;
         continue;
      }
      i = end->next;
      end = group_end(e, i);
   }
}

/* ---- control flow ---- */

/* The copies into uniform phis, after the lane loop of the EDGE's run
 * (they read only uniform values, which it cannot change). */
static void emit_scalar_copies(emitter *e, const ir_cf *n)
{
   emit_line(e, "if (mc_lm_any(mc_mask)) {");
   e->indent++;
   emit_phi_copies(e, n, LANE_SCALAR);
   e->indent--;
   emit_line(e, "}");
}

static void emit_lanes_cf(emitter *e, const ir_cf *n, const tail_blocks *tail);

static void emit_lanes_if(emitter *e, const ir_cf *n, const tail_blocks *tail)
{
   uint32_t id = n->id;
   emit_line(e, "{");
   e->indent++;
   emit_line(e, "const mc_lmask mc_s%u = mc_mask; mc_lmask mc_t%u = mc_lm_none();", id, id);
   if (is_inline(n->cond.def) || kind_of(e, n->cond.def) == LANE_SCALAR) {
      emit_indent(e);   /* uniform: every lane or none */
      strbuf_puts(e->out, "if (");
      emit_val(e, n->cond.def);
      strbuf_printf(e->out, ") mc_t%u = mc_s%u;\n", id, id);
   } else {
      emit_line(e, "mc_t%u = mc_lm_ballot(v%u, mc_s%u, mc_nl);", id, e->lane_store[n->cond.def->index], id);
   }
   emit_line(e, "mc_mask = mc_t%u;", id);
   emit_lanes_cf(e, n->then_cf, tail);
   emit_line(e, "const mc_lmask mc_a%u = mc_mask;", id);
   emit_line(e, "mc_mask = mc_lm_andnot(mc_s%u, mc_t%u);", id, id);
   emit_lanes_cf(e, n->else_cf, tail);
   emit_line(e, "mc_mask = mc_lm_or(mc_mask, mc_a%u);", id);
   e->indent--;
   emit_line(e, "}");
}

static void emit_lanes_construct(emitter *e, const ir_cf *n, const tail_blocks *tail)
{
   uint32_t id = n->id;
   emit_line(e, "{");
   e->indent++;
   if (n->kind == IR_CF_BLOCK) {
      const tail_blocks t = { n, tail };
      emit_line(e, "mc_lmask mc_b%u = mc_lm_none();", id);
      emit_lanes_cf(e, n->first, &t);
      emit_line(e, "mc_mask = mc_lm_or(mc_mask, mc_b%u);", id);
   } else {
      emit_line(e, "mc_lmask mc_b%u = mc_lm_none(), mc_c%u = mc_lm_none();", id, id);
      emit_line(e, "while (mc_lm_any(mc_mask)) {");
      e->indent++;
      e->lane_loop_depth++;
      emit_lanes_cf(e, n->first, NULL);
      emit_line(e, "mc_b%u = mc_lm_or(mc_b%u, mc_mask);", id, id);   /* fell off the end: left the loop */
      emit_line(e, "mc_mask = mc_c%u; mc_c%u = mc_lm_none();", id, id);
      if (emit_cf_has_lockstep(n->first)) {
         /* the lanes going round meet, as at the per-thread form's latch */
         e->meet_rank = emit_latch_rank(e, n, e->lane_loop_depth);
         emit_lane_meet(e, "if (mc_lm_any(mc_mask)) ");
      }
      e->lane_loop_depth--;
      e->indent--;
      emit_line(e, "}");
      emit_line(e, "mc_mask = mc_b%u;", id);
   }
   e->indent--;
   emit_line(e, "}");
}

/* The siblings from n (a SEQ's children continue them), at the end of
 * the BLOCKs `tail`, into the run r: code, plain IFs and BLOCKs, phi
 * copies; any other construct or jump writes r first (the same walk as
 * plan_list). */
static void emit_list(emitter *e, const ir_cf *n, lane_run *r, const tail_blocks *tail)
{
   for (; n && !e->f->module->error; n = n->next) {
      const tail_blocks *nt = tail_of(n, tail);
      switch (n->kind) {
      case IR_CF_SEQ:
         emit_list(e, n->first, r, nt);
         continue;
      case IR_CF_CODE:
         emit_code_node(e, n, r);
         continue;
      case IR_CF_EDGE:
         if (r->after_warp && edge_copies(e->lane_arr, n, false))
            flush_run(e, r);
         run_add(e, r, n, NULL, NULL, nt);
         if (edge_copies(e->lane_arr, n, true)) {
            flush_run(e, r);
            emit_scalar_copies(e, n);
         }
         continue;
      case IR_CF_IF:
      case IR_CF_BLOCK:
         if (joins_run(!e->has_lockstep, e->lane_arr, n, nt, r->after_warp)) {
            run_add(e, r, n, NULL, NULL, nt);
            continue;
         }
         break;
      default:
         break;
      }
      flush_run(e, r);
      switch (n->kind) {
      case IR_CF_LOOP:
      case IR_CF_BLOCK:
         emit_lanes_construct(e, n, nt);
         break;
      case IR_CF_IF:
         emit_lanes_if(e, n, nt);
         break;
      case IR_CF_BREAK:
         emit_line(e, "mc_b%u = mc_lm_or(mc_b%u, mc_mask); mc_mask = mc_lm_none();", n->target->id, n->target->id);
         break;
      case IR_CF_CONTINUE:
         emit_line(e, "mc_c%u = mc_lm_or(mc_c%u, mc_mask); mc_mask = mc_lm_none();", n->target->id, n->target->id);
         break;
      case IR_CF_RETURN:
         emit_line(e, "mc_mask = mc_lm_none();");
         break;
      case IR_CF_TRAP:
         emit_line(e, "if (mc_lm_any(mc_mask)) mc_trap(mc_L);");
         emit_line(e, "mc_mask = mc_lm_none();");
         break;
      default:
         break;
      }
   }
}

static void emit_lanes_cf(emitter *e, const ir_cf *n, const tail_blocks *tail)
{
   lane_run r = { { NULL, 0, 0 }, false };
   emit_list(e, n, &r, tail);
   flush_run(e, &r);
}

void emit_lanes_body(emitter *e) { emit_lanes_cf(e, e->f->cf, NULL); }
