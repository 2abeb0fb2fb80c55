/*
 * emit_resume.c — a kernel's barriers as resume points, for the software
 * Metal device.
 *
 * A CPU runs the threads of a threadgroup one after another, so at a
 * threadgroup_barrier each thread must wait for the others.  The software
 * device can do that with fibers (a stack per thread and a context switch
 * at every barrier: 50-100 ns per thread), or, for a kernel marked up
 * here, in passes: every thread runs up to its next barrier, saves the
 * values live across it in a slot of its own and returns; once all have,
 * each is called again, restores its values and jumps to just after that
 * barrier (a few ns per thread).
 *
 * The markup sits inside `#ifdef __MC_SOFT_RESUME`, which only the
 * software device's metal_stdlib defines: a Metal compiler sees the plain
 * kernel, byte for byte the code the other kernels get.  The jumps and
 * labels are the shim's macros (__MC_RS_GOTO, __MC_RS_LABEL): MSL has no
 * goto.  The jumps are legal C++: every variable is declared, with its
 * initializer, at the top of the kernel, before the dispatch (emit.c), and
 * the only block-scoped declarations are phi temporaries in blocks of
 * their own, which never hold a barrier.  mc_jmp is 0 at every barrier (it
 * is set just before a break and consumed just after).
 *
 * What is saved at a barrier: the SSA values live after it (backward
 * dataflow over the CFG; a phi's sources are used at the end of the
 * predecessor, where emit.c copies them), plus the thread's local memory
 * and clock counter when it has them.
 *
 * Shuffles are resume points too.  At a shfl.sync a thread saves the
 * values live into it (its operands included), offers its operand in an
 * exchange word of its slot (__mc_rs_offer: two words, used alternately by
 * odd and even passes, so a lane running ahead to its next shuffle does not
 * overwrite what a later lane of its SIMD-group has still to read) and
 * returns; in the next pass it restores them and jumps to just before the
 * shuffle, whose simd_shuffle the shim then answers from the exchange
 * words of the SIMD-group (its lanes all stopped there, which the passes
 * check), with no fiber switch.  vote.sync and redux.sync (32-bit) are
 * resume points the same way: a lane offers its predicate or operand, and
 * the shim's simd_ballot, simd_active_threads_mask and simd_sum/min/max/
 * and/or/xor answer from the offers (the prelude's votes are each one
 * ballot of the predicate).  That is a SIMD-group's shuffle only when
 * every lane takes part: the member mask must be the constant 0xffffffff
 * and the shuffle's block reached by every thread the same number of times
 * (ir_blocks_reached_uniformly, divergence.c: no divergent branch controls
 * it).  A partial last SIMD-group reads zero from the lanes it lacks, as
 * the fiber scheduler gives it.
 *
 * A shuffle each SIMD-group reaches as one but the block's groups do not
 * (under `if (threadIdx.x / 32 == 0)`: ir_find_warp_divergence) is a
 * resume point of its group: each thread then resumes where it stopped
 * (__mc_rs_tpc, not the block's __mc_rs_pc), and the shim runs in a pass
 * the groups whose lanes all stopped at one shuffle, holding the threads
 * at a barrier until every thread has reached it.  That holds only where
 * each SIMD-group lies in one row of x: such a kernel says so to the
 * launch (the shim's KERNEL_RESUMABLE_WARPS, from its use of
 * __mc_rs_tpc), which runs other shapes with fibers.
 *
 * Eligible: a kernel whose only convergent operations are the whole-group
 * barrier (bar.sync, barrier.sync, __syncthreads) and such shuffles, votes
 * and reductions, with
 * no calls, no named barriers, no warp meets (mark_lockstep.c) and at most
 * RESUME_MAX_LOCAL bytes of local memory.  The others keep fibers (other
 * SIMD-group functions, and shuffles in divergent code, need the lanes
 * the scheduler finds active).
 */
#include "emit_internal.h"

#include <stdio.h>
#include <string.h>

enum {
   RESUME_MAX_LOCAL = 1024,   /* local memory copied at each barrier */
   RESUME_MAX_BARRIERS = 4096,
};

struct resume_plan {
   emit_liveness lv;          /* the points, the values live after each (into a shuffle) */
   uint32_t nshfl;            /* shuffles among them: the slot has exchange words */
   uint32_t local_bytes;      /* mc_local saved with them (0: none) */
   bool clock;                /* mc_clk saved with them */
   bool warp;                 /* some shuffle is reached by SIMD-groups, not the block, as one */
};

static bool is_variable(const ir_def *d)
{
   return d && d->bits && d->parent->op != IR_CONST && d->parent->op != IR_UNDEF;
}

/* A warp operation that can be a resume point, if its block is reached
 * uniformly: shfl.sync (not its predicate, which needs no other lane),
 * vote.sync or redux.sync over the constant full mask.  Each lane offers
 * one 32-bit word (the value, the predicate, the operand). */
static bool is_full_warp_op(const ir_instr *i)
{
   const ir_def *m = i->op == IR_SHFL ? i->srcs[3].def
                     : i->op == IR_VOTE || i->op == IR_REDUX ? i->srcs[1].def
                                                             : NULL;
   return m && m->parent->op == IR_CONST && (uint32_t)m->parent->imm == 0xffffffffu && !i->guard.def &&
          (i->op != IR_REDUX || i->srcs[0].def->bits == 32);
}

static bool eligible(ir_func *f, uint32_t *npoints, uint32_t *nshfl, bool *warp)
{
   *npoints = *nshfl = 0;
   *warp = false;
   if (!f->is_kernel || MC_MAX(f->local_total, f->local_bytes) > RESUME_MAX_LOCAL)
      return false;
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b) {
         if (i->op == IR_BAR)
            ++*npoints;
         else if (is_full_warp_op(i))
            ++*npoints, ++*nshfl;
         else if ((ir_op_is(i->op, IR_OP_CONVERGENT) && i->op != IR_SHFL_PRED) || i->op == IR_CALL ||
                  i->op == IR_NBAR || (i->flags & IR_F_MEETS))
            return false;
      }
   }
   if (*npoints == 0 || *npoints > RESUME_MAX_BARRIERS)
      return false;
   if (!*nshfl)
      return true;
   if (!(f->valid & IR_META_CFG))
      return false;
   bool *want = arena_alloc(f->module->ar, f->blocks.len + 1);
   if (!want)
      return false;
   memset(want, 0, f->blocks.len + 1);
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (is_full_warp_op(i))
            want[b->index] = true;
   if (ir_blocks_reached_uniformly(f, ir_find_divergence(f), want))
      return true;
   /* reached together by each SIMD-group's lanes, not by all the block */
   return *warp = ir_blocks_reached_uniformly(f, ir_find_warp_divergence(f), want);
}

/* ---- value sets ---- */

static inline void set_add(uint64_t *s, uint32_t k) { s[k / 64] |= 1ull << (k % 64); }
static inline void set_del(uint64_t *s, uint32_t k) { s[k / 64] &= ~(1ull << (k % 64)); }
static inline bool set_has(const uint64_t *s, uint32_t k) { return emit_live_has(s, k); }

/* One instruction, walking backward: its def dies, its operands live. */
static void step_back(uint64_t *live, const ir_instr *i)
{
   if (is_variable(&i->def))
      set_del(live, i->def.index);
   if (i->op == IR_PHI)
      return;                 /* its sources are used in the predecessors */
   for (uint32_t k = 0; k < i->nsrcs; k++)
      if (is_variable(i->srcs[k].def))
         set_add(live, i->srcs[k].def->index);
   if (is_variable(i->guard.def))
      set_add(live, i->guard.def->index);
   if (is_variable(i->old.def))
      set_add(live, i->old.def->index);
}

/* live_out(b): what its successors need, their phis' sources from b
 * included. */
static void live_out(const emit_liveness *p, const ir_block *b, uint64_t **in, uint64_t *out)
{
   memset(out, 0, p->words * sizeof(*out));
   ir_foreach_succ(sp, b) {
      const ir_block *s = *sp;
      for (uint32_t w = 0; w < p->words; w++)
         out[w] |= in[s->index][w];
      ir_foreach_instr(phi, s) {
         if (phi->op != IR_PHI)
            break;
         for (uint32_t k = 0; k < phi->nsrcs; k++)
            if (phi->srcs[k].pred == b && is_variable(phi->srcs[k].def))
               set_add(out, phi->srcs[k].def->index);
      }
   }
}

/* Backward dataflow to a fixed point; then each point's live set. */
static bool compute_liveness(emit_liveness *p, ir_func *f, arena *ar, bool (*is_point)(const ir_instr *))
{
   uint32_t nb = f->blocks.len;
   uint64_t **in = arena_alloc(ar, nb * sizeof(*in));
   uint64_t *tmp = arena_alloc(ar, p->words * sizeof(*tmp));
   if (!in || !tmp)
      return false;
   for (uint32_t b = 0; b < nb; b++)
      if (!(in[b] = arena_alloc(ar, p->words * sizeof(**in))))
         return false;
   for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t b = nb; b-- > 0;) {
         const ir_block *blk = f->blocks.data[b];
         live_out(p, blk, in, tmp);
         ir_foreach_instr_reverse(i, blk)
            step_back(tmp, i);
         if (memcmp(tmp, in[b], p->words * sizeof(*tmp))) {
            memcpy(in[b], tmp, p->words * sizeof(*tmp));
            changed = true;
         }
      }
   }
   uint32_t id = 0;
   ir_foreach_block(b, f) {
      live_out(p, b, in, tmp);
      /* walking back from the end, each point meets what lives after it */
      ir_foreach_instr_reverse(i, b) {
         /* a warp operation resumes before itself: what lives into it
          * (emit_rec.c's points, calls, are after themselves) */
         bool point = is_point(i), before = i->op == IR_SHFL || i->op == IR_VOTE || i->op == IR_REDUX;
         if (point && before)
            step_back(tmp, i);
         if (point) {
            uint64_t *s = arena_alloc(ar, p->words * sizeof(*s));
            if (!s)
               return false;
            memcpy(s, tmp, p->words * sizeof(*s));
            p->at[id] = i;
            p->live[id++] = s;
            for (uint32_t w = 0; w < p->words; w++)
               p->all[w] |= s[w];
         }
         if (!(point && before))
            step_back(tmp, i);
      }
   }
   return true;
}

bool emit_liveness_compute(emit_liveness *p, ir_func *f, arena *ar, bool (*is_point)(const ir_instr *))
{
   uint32_t n = 0;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         n += is_point(i);
   p->n = n;
   p->words = (f->ndefs + 63) / 64 + 1;
   p->ndefs = f->ndefs;
   p->defs = arena_alloc(ar, (f->ndefs + 1) * sizeof(*p->defs));
   p->all = arena_alloc(ar, p->words * sizeof(*p->all));
   p->at = arena_alloc(ar, (n + 1) * sizeof(*p->at));
   p->live = arena_alloc(ar, (n + 1) * sizeof(*p->live));
   if (!p->defs || !p->all || !p->at || !p->live)
      return false;
   memset(p->defs, 0, (f->ndefs + 1) * sizeof(*p->defs));
   memset(p->all, 0, p->words * sizeof(*p->all));
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (is_variable(&i->def) && i->def.index < f->ndefs)
            p->defs[i->def.index] = &i->def;
   return compute_liveness(p, f, ar, is_point);
}

static bool is_point(const ir_instr *i) { return i->op == IR_BAR || is_full_warp_op(i); }

resume_plan *emit_resume_plan(ir_func *f, arena *ar)
{
   uint32_t npoints, nshfl;
   bool warp;
   if (!eligible(f, &npoints, &nshfl, &warp))
      return NULL;
   resume_plan *p = arena_alloc(ar, sizeof(*p));
   if (!p || !emit_liveness_compute(&p->lv, f, ar, is_point))
      return NULL;
   p->nshfl = nshfl;
   p->warp = warp;
   p->local_bytes = MC_MAX(f->local_total, f->local_bytes);
   p->clock = f->uses_clock;
   return p;
}

/* ---- the text ---- */

static uint32_t point_id(const resume_plan *p, const ir_instr *i)
{
   for (uint32_t k = 0; k < p->lv.n; k++)
      if (p->lv.at[k] == i)
         return k + 1;
   return 0;
}

/* Copies the values of set s (and local memory, the clock) between the
 * variables and the slot mc_rs: into the slot, or back when restoring. */
static void emit_copies(emitter *e, const uint64_t *s, bool restore)
{
   const resume_plan *p = e->rs;
   for (uint32_t k = 0; k < p->lv.ndefs; k++) {
      if (!set_has(s, k) || !p->lv.defs[k])
         continue;
      const ir_def *d = p->lv.defs[k];
      for (unsigned c = 0; c < d->ncomp; c++) {
         char name[32];
         if (d->ncomp > 1)
            snprintf(name, sizeof(name), "v%u_%u", d->index, c);
         else
            snprintf(name, sizeof(name), "v%u", d->index);
         if (restore)
            emit_line(e, "%s = mc_rs.%s;", name, name);
         else
            emit_line(e, "mc_rs.%s = %s;", name, name);
      }
   }
   if (p->local_bytes)
      emit_line(e, restore ? "__builtin_memcpy(mc_local, mc_rs.mc_local, %uu);"
                           : "__builtin_memcpy(mc_rs.mc_local, mc_local, %uu);", p->local_bytes);
   if (p->clock)
      emit_line(e, restore ? "mc_clk = mc_rs.mc_clk;" : "mc_rs.mc_clk = mc_clk;");
}

static void emit_slot_ref(emitter *e)
{
   emit_line(e, "thread mc_rs_%s &mc_rs = *(thread mc_rs_%s *)__mc_rs_slot(sizeof(mc_rs_%s));",
             e->lib_name, e->lib_name, e->lib_name);
}

void emit_resume_struct(strbuf *out, const resume_plan *p, const char *msl_name)
{
   strbuf_printf(out, "#ifdef __MC_SOFT_RESUME\n// a thread's values across a barrier (software device)\n"
                 "struct mc_rs_%s {\n", msl_name);
   if (p->nshfl)   /* first: the shim's __mc_rs_offer and simd_shuffle find them there */
      strbuf_puts(out, "    uint mc_x[2];\n");
   for (uint32_t k = 0; k < p->lv.ndefs; k++) {
      if (!set_has(p->lv.all, k) || !p->lv.defs[k])
         continue;
      const ir_def *d = p->lv.defs[k];
      if (d->ncomp == 1) {
         strbuf_printf(out, "    %s v%u;\n", msl_utype(d->bits), d->index);
         continue;
      }
      for (unsigned c = 0; c < d->ncomp; c++)
         strbuf_printf(out, "    %s v%u_%u;\n", msl_utype(d->bits), d->index, c);
   }
   if (p->local_bytes)
      strbuf_printf(out, "    alignas(16) uchar mc_local[%u];\n", p->local_bytes);
   if (p->clock)
      strbuf_puts(out, "    ulong mc_clk;\n");
   strbuf_puts(out, "};\n#endif\n");
}

void emit_resume_dispatch(emitter *e)
{
   const resume_plan *p = e->rs;
   strbuf_puts(e->out, "#ifdef __MC_SOFT_RESUME\n");
   /* __mc_rs_tpc: each thread resumes where it stopped (SIMD-groups stop
    * at different points); __mc_rs_pc: all where the block stopped */
   const char *pc = p->warp ? "__mc_rs_tpc()" : "__mc_rs_pc()";
   emit_line(e, "if (__mc_rs_on() && %s != 0u) {", pc);
   e->indent++;
   emit_slot_ref(e);
   emit_line(e, "switch (%s) {", pc);
   for (uint32_t k = 0; k < p->lv.n; k++) {
      emit_line(e, "case %uu:", k + 1);
      e->indent++;
      emit_copies(e, p->lv.live[k], true);
      emit_line(e, "__MC_RS_GOTO(%u);", k + 1);
      e->indent--;
   }
   emit_line(e, "}");
   e->indent--;
   emit_line(e, "}");
   strbuf_puts(e->out, "#endif\n");
}

/* The stop at point i (a barrier, or a shuffle offering its operand):
 * under #ifdef, in pass mode, save what lives there and return.  Returns
 * the point's id. */
static uint32_t emit_stop(emitter *e, const ir_instr *i)
{
   const resume_plan *p = e->rs;
   uint32_t id = point_id(p, i);
   if (!id)
      ir_die(e->f, "%s %u has no resume point", ir_op_infos[i->op].name, i->index);
   strbuf_puts(e->out, "#ifdef __MC_SOFT_RESUME\n");
   emit_line(e, "if (__mc_rs_on()) {");
   e->indent++;
   emit_slot_ref(e);
   emit_copies(e, p->lv.live[id - 1], false);
   if (i->op != IR_BAR)
      emit_stmt(e, "__mc_rs_offer(%uu, (uint)(%V));", id, S(i, 0));
   else
      emit_line(e, "__mc_rs_yield(%uu);", id);
   emit_line(e, "return;");
   e->indent--;
   emit_line(e, "}");
   return id;
}

void emit_resume_barrier(emitter *e, const ir_instr *i, const char *barrier)
{
   uint32_t id = emit_stop(e, i);
   strbuf_puts(e->out, "#endif\n");
   emit_line(e, "%s", barrier);
   strbuf_puts(e->out, "#ifdef __MC_SOFT_RESUME\n");
   emit_line(e, "__MC_RS_LABEL(%u);", id);
   strbuf_puts(e->out, "#endif\n");
}

bool emit_resume_is_warp_point(const emitter *e, const ir_instr *i)
{
   return e->rs && e->rs->nshfl && i->op != IR_BAR && point_id(e->rs, i) != 0;
}

void emit_resume_warp_op(emitter *e, const ir_instr *i)
{
   uint32_t id = emit_stop(e, i);
   emit_line(e, "__MC_RS_LABEL(%u);", id);
   strbuf_puts(e->out, "#endif\n");
}
