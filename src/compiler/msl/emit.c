/*
 * emit.c — MSL text for a structured kernel: the entry point and its
 * bindings (compiler.h ABI), value declarations, structured control flow,
 * and phi copies on edges (out of SSA).
 *
 * Values: every SSA def becomes one variable vN declared at the top of the
 * kernel (vN_k for components of a vector def); constants are printed
 * inline.  Declaring everything up front keeps scoping trivial: a value
 * defined inside a loop and used after it stays visible.
 *
 * Control flow (the structurizer's tree → C++):
 *   LOOP   → while (true) { body; break; }   (falling off leaves the loop)
 *   BLOCK  → switch (0) { default: { body } }
 *            a switch is a break target that `continue` passes through, so
 *            a continue of the enclosing loop still works from inside it;
 *   IF     → if (c) { } else { }
 *   BREAK/CONTINUE that cross other breakable constructs set mc_jmp to the
 *   target's id and break; each construct crossed re-dispatches after it
 *   closes.  No goto (metal-semantics D1), no switch-dispatch loop.
 *
 * Warp meets (mark_lockstep.c): before an instruction marked
 * IR_F_LOCKSTEP the warp's active lanes meet, MC_WARP_MEET(rank) (the
 * software device's scheduler; nothing on a GPU, which runs a SIMD-group
 * in lockstep), unless only loads were done since the last meet and this
 * is a load too; in a function with such instructions, also before every
 * warp operation (the scheduler lets lanes in a SIMD-group function go
 * before lanes at a meet).  The rank orders the lanes waiting at
 * different meets, the lowest first: the function (callees first), the
 * block's meet_order (mark_lockstep.c: a loop's blocks before what follows
 * it), the meet's place in the block.  A loop that holds such an
 * instruction, or an atomic it spins on (IR_F_SPIN, which needs no meet of
 * its own), meets at its latch, ranked after every block of the loop, so
 * that the lanes going round again wait for the lanes still in the body,
 * as a GPU reconverges them before the next iteration:
 *   LOOP → while (true) { do { body } while (false); MC_WARP_MEET(rank);
 *                         <re-dispatch>; break; }
 *   inside the do/while, a jump to the loop sets mc_jmp and breaks out of
 *   it: the latch is a construct of its own for the jump logic.
 *
 * Kernels in lane form (a threadgroup's threads as lanes of one
 * invocation under an execution mask) have their own control flow and
 * declarations: emit_lanes.c.  emit_val_comp names their values.
 *
 * Phi copies: on the edge A→B, each phi of B gets its value from A.  With
 * several phis the copies go through temporaries (a parallel copy), so a
 * phi reading another phi of the same block sees the old value.
 */
#include "emit_internal.h"

#include <stdio.h>
#include <string.h>

const char *msl_utype(uint8_t bits)
{
   switch (bits) {
   case 1: return "bool";
   case 8: return "uchar";
   case 16: return "ushort";
   case 32: return "uint";
   default: return "ulong";
   }
}

const char *msl_stype(uint8_t bits)
{
   switch (bits) {
   case 1: return "bool";
   case 8: return "char";
   case 16: return "short";
   case 32: return "int";
   default: return "long";
   }
}

void emit_indent(emitter *e)
{
   for (int k = 0; k < e->indent; k++)
      strbuf_puts(e->out, "    ");
}

void emit_line(emitter *e, const char *fmt, ...)
{
   va_list ap;
   emit_indent(e);
   va_start(ap, fmt);
   strbuf_vprintf(e->out, fmt, ap);
   va_end(ap);
   strbuf_putc(e->out, '\n');
}

/* Appends the name (or inline literal) of a value; comp >= 0 selects a
 * component of a vector value. */
void emit_val_comp(emitter *e, const ir_def *d, int comp)
{
   if (d->parent->op == IR_CONST && d->ncomp == 1) {
      uint64_t v = d->parent->imm;
      switch (d->bits) {
      case 1: strbuf_puts(e->out, v ? "true" : "false"); break;
      case 8: strbuf_printf(e->out, "(uchar)0x%xu", (unsigned)v); break;
      case 16: strbuf_printf(e->out, "(ushort)0x%xu", (unsigned)v); break;
      case 32: strbuf_printf(e->out, "0x%xu", (unsigned)v); break;
      default: strbuf_printf(e->out, "0x%llxul", (unsigned long long)v); break;
      }
      return;
   }
   if (d->parent->op == IR_UNDEF) {
      strbuf_printf(e->out, "(%s)0", msl_utype(d->bits));
      return;
   }
   /* lane form: a value other groups of code see is an array over the lanes */
   bool arr = e->lane_arr && e->lane_arr[d->index] == LANE_ARRAY;
   bool written = arr && e->lane_written[d->index];   /* the lane's element in a scalar (emit_lanes.c) */
   const char *lane = arr && !written ? "[mc_l]" : "";
   const char *name = written ? "mc_w" : "v";
   uint32_t index = arr && !written ? e->lane_store[d->index] : d->index;
   if (d->ncomp > 1) {
      strbuf_printf(e->out, "%s%u_%d%s", name, index, comp < 0 ? 0 : comp, lane);
      return;
   }
   /* nan_loose.c: a value written raw shows NVIDIA's canonical NaN to any
    * reader but a NaN-blind operation or a copy into a phi that allows it */
   bool canon = e->nan_loose && (e->nan_loose[d->index] & MSL_NAN_W) && d->parent != e->cur && !e->nan_blind_use;
   strbuf_printf(e->out, canon ? "mc_canon(%s%u%s)" : "%s%u%s", name, index, lane);
}

void emit_val(emitter *e, const ir_def *d) { emit_val_comp(e, d, -1); }

void emit_lval_comp(emitter *e, const ir_def *d, int comp)
{
   const ir_instr *cur = e->cur;
   e->cur = d->parent;
   emit_val_comp(e, d, comp);
   e->cur = cur;
}

/* ---- declarations ---- */

/* The variable of i's value (its components), zeroed. */
void emit_declare_value(emitter *e, const ir_instr *i)
{
   if (!emit_needs_variable(i))
      return;
   const char *t = msl_utype(i->def.bits);
   if (i->def.ncomp == 1) {
      emit_line(e, "%s v%u = %s;", t, i->def.index, i->def.bits == 1 ? "false" : "0");
      return;
   }
   for (unsigned k = 0; k < i->def.ncomp; k++)
      emit_line(e, "%s v%u_%u = 0;", t, i->def.index, k);
}

static void declare_values(emitter *e)
{
   ir_foreach_block(b, e->f) {
      ir_foreach_instr(i, b)
         emit_declare_value(e, i);
   }
}

/* ---- out of SSA: phi copies on an edge ---- */

static const ir_src *phi_src_for(const ir_instr *phi, const ir_block *pred)
{
   for (uint32_t k = 0; k < phi->nsrcs; k++)
      if (phi->srcs[k].pred == pred)
         return &phi->srcs[k];
   return NULL;
}

static bool phi_of_kind(const emitter *e, const ir_instr *phi, uint8_t kind)
{
   if (!kind)
      return true;
   return (e->lane_arr[phi->def.index] == LANE_SCALAR) == (kind == LANE_SCALAR);
}

/* Does the copy into phi on the edge n write anything?  Not where the
 * value coming in already is in the phi's array (emit_lanes.c,
 * plan_shared_arrays). */
bool emit_phi_copy_needed(const emitter *e, const ir_instr *phi, const ir_cf *n, uint8_t kind)
{
   if (!phi_of_kind(e, phi, kind))
      return false;
   if (!e->lane_arr || e->lane_arr[phi->def.index] != LANE_ARRAY)
      return true;
   const ir_src *s = phi_src_for(phi, n->from);
   return !s || e->lane_store[s->def->index] != phi->def.index;   /* a constant's store is its own */
}

void emit_phi_copies(emitter *e, const ir_cf *n, uint8_t kind)
{
   uint32_t nphis = 0;
   ir_foreach_instr(phi, n->to) {
      if (phi->op != IR_PHI)
         break;
      nphis += emit_phi_copy_needed(e, phi, n, kind);
   }
   if (!nphis)
      return;
   bool parallel = nphis > 1;
   if (parallel) {
      emit_line(e, "{");
      e->indent++;
   }
   for (int pass = 0; pass < (parallel ? 2 : 1); pass++) {
      uint32_t k = 0;
      ir_foreach_instr(phi, n->to) {
         if (phi->op != IR_PHI)
            break;
         if (!emit_phi_copy_needed(e, phi, n, kind))
            continue;
         const ir_src *s = phi_src_for(phi, n->from);
         if (!s)
            ir_die(e->f, "phi %%%u has no source for block_%u", phi->def.index, n->from->index);
         for (unsigned c = 0; c < phi->def.ncomp; c++) {
            int comp = phi->def.ncomp > 1 ? (int)c : -1;
            emit_indent(e);
            /* a phi of W or L takes a raw value (nan_loose.c) */
            e->nan_blind_use = e->nan_loose && e->nan_loose[phi->def.index];
            if (parallel && pass == 0) {
               strbuf_printf(e->out, "%s t%u_%u = ", msl_utype(phi->def.bits), k, c);
               emit_val_comp(e, s->def, comp);
            } else {
               emit_lval_comp(e, &phi->def, comp);
               strbuf_puts(e->out, " = ");
               if (parallel)
                  strbuf_printf(e->out, "t%u_%u", k, c);
               else
                  emit_val_comp(e, s->def, comp);
            }
            e->nan_blind_use = false;
            strbuf_puts(e->out, ";\n");
         }
         k++;
      }
   }
   if (parallel) {
      e->indent--;
      emit_line(e, "}");
   }
}

/* ---- structured control flow ---- */

static uint32_t jump_id(const ir_cf *target, bool cont) { return target->id * 2 + (cont ? 1 : 0); }

static bool is_latch(const emitter *e, const ir_cf *c) { return c->id > e->max_cf_id; }

/* The innermost C++ loop: a LOOP, or the do/while of a lockstep loop's
 * latch (which a `continue` would leave). */
static const ir_cf *innermost_loop(const emitter *e)
{
   for (uint32_t k = e->depth; k > 0; k--)
      if (e->stack[k - 1]->kind == IR_CF_LOOP || is_latch(e, e->stack[k - 1]))
         return e->stack[k - 1];
   return NULL;
}

static void add_pending(emitter *e, const ir_cf *through, const ir_cf *target, bool cont)
{
   pending_vec *p = &e->pending[through->id];
   vec_foreach(pending_jump, j, p)
      if (j->target == target && j->cont == cont)
         return;
   pending_jump pj = { target, cont };
   vec_push(e->ar, p, pj);
}

static void emit_jump(emitter *e, const ir_cf *target, bool cont)
{
   const ir_cf *top = e->depth ? e->stack[e->depth - 1] : NULL;
   if (!cont && target == top) {
      emit_line(e, "break;");
      return;
   }
   if (cont && innermost_loop(e) == target) {
      emit_line(e, "continue;");
      return;
   }
   if (!top)
      ir_die(e->f, "jump to #%u outside any construct", target->id);
   emit_line(e, "mc_jmp = %uu; break;", jump_id(target, cont));
   add_pending(e, top, target, cont);
}

/* After construct c closed: continue the jumps that crossed it. */
static void emit_dispatch(emitter *e, const ir_cf *c)
{
   pending_vec *p = &e->pending[c->id];
   if (!p->len)
      return;
   const ir_cf *top = e->depth ? e->stack[e->depth - 1] : NULL;
   bool propagate = false;
   vec_foreach(pending_jump, j, p) {
      if (!j->cont && j->target == top) {
         emit_line(e, "if (mc_jmp == %uu) { mc_jmp = 0u; break; }", jump_id(j->target, false));
      } else if (j->cont && innermost_loop(e) == j->target) {
         emit_line(e, "if (mc_jmp == %uu) { mc_jmp = 0u; continue; }", jump_id(j->target, true));
      } else {
         if (!top)
            ir_die(e->f, "pending jump to #%u escapes the function", j->target->id);
         add_pending(e, top, j->target, j->cont);
         propagate = true;
      }
   }
   if (propagate)
      emit_line(e, "if (mc_jmp != 0u) break;");
}

static void emit_cf(emitter *e, const ir_cf *n);

/* ---- warp meets ---- */


bool emit_cf_has_lockstep(const ir_cf *n)
{
   for (; n; n = n->next) {
      if (n->kind == IR_CF_CODE)
         ir_foreach_instr(i, n->block)
            if (i->flags & IR_F_MEETS)
               return true;
      if (emit_cf_has_lockstep(n->first) || emit_cf_has_lockstep(n->then_cf) || emit_cf_has_lockstep(n->else_cf))
         return true;
   }
   return false;
}

/* A meet's rank, which orders the lanes waiting at different meets (the
 * lowest goes first): the library's functions in emission order (callees
 * first: lanes inside a call go before lanes after it), then the block's
 * meet_order (mark_lockstep.c), then the meet's place in the block.
 * Unique per meet. */
static uint64_t meet_rank_of(const emitter *e, uint32_t order, uint32_t seq)
{
   return (uint64_t)MC_MIN(e->fn_index, 127u) << 56 | (uint64_t)(order & 0xffffffu) << 32 | seq;
}

/* The first block of a construct: a loop's header. */
static const ir_block *first_block(const ir_cf *n)
{
   for (; n; n = n->next) {
      if (n->kind == IR_CF_CODE)
         return n->block;
      const ir_block *b = n->kind == IR_CF_IF ? NULL : first_block(n->first);
      if (b || n->kind != IR_CF_SEQ)
         return b;
   }
   return NULL;
}

uint64_t emit_meet_rank(const emitter *e, uint32_t order, uint32_t seq) { return meet_rank_of(e, order, seq); }

/* The rank of the meet at the latch of loop n (emit_latched_body), inside
 * `loops` loops counting n: after every meet of its body's blocks, inner
 * loops' latches first. */
uint64_t emit_latch_rank(const emitter *e, const ir_cf *n, uint32_t loops)
{
   const ir_block *header = first_block(n->first);
   uint32_t end = header && header->is_loop_header ? header->loop_meet_end : UINT32_MAX - 1;
   return meet_rank_of(e, end, 0xffffffffu - MC_MIN(loops, 0xffffu));
}

static void emit_meet_ranked(emitter *e, uint64_t rank)
{
   emit_line(e, "MC_WARP_MEET(0x%llxul);", (unsigned long long)rank);
}

static void emit_meet(emitter *e) { emit_meet_ranked(e, e->meet_rank++); }


/* A marked access or fence i after the marked accesses `since` says
 * (MEET_*): whether the warp must meet before it (a load after a store, a
 * store after any access, a fence always); *since becomes what is done
 * after it.  The lane form places its meets by the same rule
 * (emit_lanes.c plan_meets). */
bool emit_meet_needed(uint8_t *since, const ir_instr *i)
{
   bool load = i->op == IR_LOAD;
   bool need = i->op == IR_MEMBAR || (load ? *since == MEET_STORES : *since != MEET_NONE);
   if (need || *since == MEET_NONE)
      *since = load ? MEET_LOADS : i->op == IR_MEMBAR ? MEET_NONE : MEET_STORES;
   else if (!load)
      *since = MEET_STORES;
   return need;
}

/* Before instruction i: the meet it needs, and what it leaves done. */
static void emit_meet_before(emitter *e, const ir_instr *i)
{
   if (i->op == IR_BAR || i->op == IR_BAR_RED || i->op == IR_NBAR) {
      e->since_meet = MEET_NONE;     /* every lane that goes on met here */
      return;
   }
   if (ir_op_is(i->op, IR_OP_CONVERGENT)) {
      /* The scheduler lets lanes at a SIMD-group function go before lanes
       * at a meet: they must have come through the meet just before it. */
      if (e->has_lockstep)
         emit_meet(e);
      e->since_meet = MEET_NONE;
      return;
   }
   if (i->op == IR_CALL) {
      e->since_meet = MEET_STORES;   /* the callee's accesses are unknown here */
      return;
   }
   if ((i->flags & IR_F_LOCKSTEP) && emit_meet_needed(&e->since_meet, i))
      emit_meet(e);
}

static void emit_code(emitter *e, const ir_cf *n)
{
   e->since_meet = MEET_STORES;      /* reached from anywhere: assume the worst */
   e->meet_rank = meet_rank_of(e, n->block->meet_order, 0);
   /* a recursive function's calls into its component: resume points */
   bool resume = e->rec && emit_rec_contains(n), open = false;
   ir_foreach_instr(i, n->block) {
      if (i->op == IR_PHI || ir_op_is(i->op, IR_OP_TERMINATOR))
         continue;
      if (resume && !open) {
         emit_line(e, "if (mc_rs == 0u) {");
         e->indent++;
         open = true;
      }
      if (resume && emit_rec_is_point(e, i)) {
         emit_rec_push(e, i);
         e->indent--;
         emit_line(e, "}");
         open = false;
         emit_rec_resume(e, i);
         continue;
      }
      emit_meet_before(e, i);
      emit_instr(e, i);
   }
   if (open) {
      e->indent--;
      emit_line(e, "}");
   }
}

/* The body of a lockstep loop n inside its latch (see the file header). */
static void emit_latched_body(emitter *e, const ir_cf *n)
{
   ir_cf *latch = arena_alloc(e->ar, sizeof(*latch));
   if (!latch) {
      ir_error(e->f->module, 0, "out of memory");
      return;
   }
   memset(latch, 0, sizeof(*latch));
   latch->kind = IR_CF_BLOCK;
   latch->id = e->max_cf_id + 1 + n->id;
   emit_line(e, "do {");
   e->indent++;
   e->stack[e->depth++] = latch;
   emit_cf(e, n->first);
   e->depth--;
   e->indent--;
   emit_line(e, "} while (false);");
   uint32_t loops = 0;
   for (uint32_t k = 0; k < e->depth; k++)
      loops += e->stack[k]->kind == IR_CF_LOOP;
   emit_meet_ranked(e, emit_latch_rank(e, n, loops));
   emit_dispatch(e, latch);
}

static void emit_construct(emitter *e, const ir_cf *n)
{
   if (e->depth >= EMIT_MAX_DEPTH) {
      ir_error(e->f->module, 0, "control flow nested deeper than %d constructs", EMIT_MAX_DEPTH);
      return;
   }
   bool loop = n->kind == IR_CF_LOOP;
   emit_line(e, loop ? "while (true) {" : "switch (0) { default: {");
   e->indent++;
   e->stack[e->depth++] = n;
   if (loop && emit_cf_has_lockstep(n->first))
      emit_latched_body(e, n);
   else
      emit_cf(e, n->first);
   if (loop)
      emit_line(e, "break;");
   e->depth--;
   e->indent--;
   emit_line(e, loop ? "}" : "} }");
   emit_dispatch(e, n);
}

static void emit_cf(emitter *e, const ir_cf *n)
{
   /* resuming a recursive function's frame (emit_rec.c): only the
    * constructs on the way to the resume point run */
   bool resume = e->rec && emit_rec_list_contains(n);
   for (; n && !e->f->module->error; n = n->next) {
      bool skip = resume && !emit_rec_contains(n);
      if (skip) {
         emit_line(e, "if (mc_rs == 0u) {");
         e->indent++;
      }
      switch (n->kind) {
      case IR_CF_SEQ:
         emit_cf(e, n->first);
         break;
      case IR_CF_CODE:
         emit_code(e, n);
         break;
      case IR_CF_LOOP:
      case IR_CF_BLOCK:
         emit_construct(e, n);
         break;
      case IR_CF_IF:
         emit_indent(e);
         strbuf_puts(e->out, "if (");
         if (resume && !skip) {
            emit_rec_if_cond(e, n);
         } else if (e->xr.cond && n->cond.def == e->xr.cond) {
            strbuf_puts(e->out, "MC_XTEST(");   /* the opening test (emit_xrange.c) */
            emit_val(e, n->cond.def);
            strbuf_puts(e->out, e->xr.go_on ? ", true)" : ", false)");
         } else {
            emit_val(e, n->cond.def);
         }
         strbuf_puts(e->out, ") {\n");
         e->indent++;
         emit_cf(e, n->then_cf);
         e->indent--;
         emit_line(e, "} else {");
         e->indent++;
         emit_cf(e, n->else_cf);
         e->indent--;
         emit_line(e, "}");
         break;
      case IR_CF_EDGE:
         emit_phi_copies(e, n, 0);
         break;
      case IR_CF_BREAK:
         emit_jump(e, n->target, false);
         break;
      case IR_CF_CONTINUE:
         emit_jump(e, n->target, true);
         break;
      case IR_CF_RETURN: {
         /* exit in a .func ends the thread: the caller learns it through
          * mc_stop (link_calls.c), a driver through its step's 2 */
         bool ex = !e->f->is_kernel && n->block && ir_block_terminator(n->block) &&
                   ir_block_terminator(n->block)->op == IR_EXIT;
         if (e->rec)
            emit_line(e, ex ? "return 2u;" : "return 0u;");
         else
            emit_line(e, ex ? "mc_stop = true; return;" : "return;");
         break;
      }
      case IR_CF_TRAP:
         emit_line(e, "mc_trap(mc_L);");
         if (e->rec)
            emit_line(e, "return 2u;");
         else
            emit_line(e, e->f->is_kernel ? "return;" : "mc_stop = true; return;");
         break;
      }
      if (skip) {
         e->indent--;
         emit_line(e, "}");
      }
   }
}

static uint32_t max_cf_id(const ir_cf *n)
{
   uint32_t m = 0;
   for (; n; n = n->next) {
      /* MC_MAX evaluates its arguments twice: call each child once */
      uint32_t a = max_cf_id(n->first), b = max_cf_id(n->then_cf), c = max_cf_id(n->else_cf);
      m = MC_MAX(m, n->id);
      m = MC_MAX(m, a);
      m = MC_MAX(m, b);
      m = MC_MAX(m, c);
   }
   return m;
}

/* mc_linear: %laneid, %warpid, and the warp operations (emit_warp.c)
 * that need the lane or the SIMD-group. */
static bool uses_sreg_lane(const ir_func *f)
{
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if ((i->op == IR_SREG && (i->sub == IR_SREG_LANEID || i->sub == IR_SREG_WARPID ||
                                   i->sub == IR_SREG_NWARPID)) ||
             i->op == IR_SHFL || i->op == IR_SHFL_PRED || i->op == IR_REDUX || i->op == IR_BAR_RED ||
             i->op == IR_MMA || i->op == IR_LDMATRIX || i->op == IR_STMATRIX)
            return true;
   return false;
}

/* Whether the kernel's threads wait for one another (PTX's barriers, warp
 * operations, warp meets): the software device runs such a kernel in the
 * per-thread form as fibers, and one without as a loop over its threads
 * (src/metal/soft/msl_scan.c).  THREADS_UNKNOWN where a call may hide it. */
enum thread_sync { THREADS_INDEPENDENT, THREADS_WAIT, THREADS_UNKNOWN };

static enum thread_sync thread_sync_of(const ir_func *f)
{
   bool call = false;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b) {
         if ((ir_op_is(i->op, IR_OP_CONVERGENT) && i->op != IR_SHFL_PRED && i->op != IR_MATCH_PRED) ||
             i->op == IR_NBAR || (i->flags & IR_F_MEETS))
            return THREADS_WAIT;
         call |= i->op == IR_CALL;
      }
   return call ? THREADS_UNKNOWN : THREADS_INDEPENDENT;
}

/* Whether the structured tree under c holds a loop. */
static bool cf_has_loop(const ir_cf *c)
{
   if (!c)
      return false;
   if (c->kind == IR_CF_LOOP)
      return true;
   for (const ir_cf *k = c->first; k; k = k->next)
      if (cf_has_loop(k))
         return true;
   return cf_has_loop(c->then_cf) || cf_has_loop(c->else_cf);
}

static bool is_float_arith(const ir_instr *i)
{
   switch (i->op) {
   case IR_ADD: case IR_SUB: case IR_MUL: case IR_MAD: case IR_FMA: case IR_DIV: case IR_MIN: case IR_MAX:
   case IR_RCP: case IR_SQRT: case IR_RSQRT: case IR_SIN: case IR_COS: case IR_LG2: case IR_EX2: case IR_TANH:
      return ptx_type_is_float(i->type);
   default:
      return false;
   }
}

/* A kernel bound by memory rather than arithmetic, as the software device
 * sees it: straight-line code (a loop inside keeps its loop over threads
 * from being vectorised anyway), no calls, global loads and stores, and
 * at most two floating-point operations for each of them (SAXPY: one fma
 * for three accesses; the 5-point stencil: six for six; a chain of 48
 * fmas for two is not one).  Returns the widest global access's element
 * width in bits, 0 for any other kernel: the width it streams in
 * (msl_scan.c, MC_THREADS_STREAMING). */
static uint32_t streaming_bits(const ir_func *f)
{
   if (cf_has_loop(f->cf))
      return 0;
   uint32_t mem = 0, arith = 0, bits = 0;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b) {
         if (i->op == IR_CALL)
            return 0;
         if ((i->op == IR_LOAD || i->op == IR_STORE) &&
             (i->space == IR_SPACE_GLOBAL || i->space == IR_SPACE_GENERIC)) {
            mem++;
            bits = MC_MAX(bits, (uint32_t)ptx_type_bits[i->type]);
         }
         arith += is_float_arith(i);
      }
   return mem && arith <= 2 * mem && bits >= 8 && bits <= 64 ? bits : 0;
}

/* The software device's hint (nothing on a GPU: empty prelude macros):
 * MC_THREADS_INDEPENDENT(n), a per-thread-form kernel none of whose threads
 * waits for another and which reads at most n bytes of its parameters, so
 * its loop over threads is all it needs; MC_THREADS_WAIT, one whose threads
 * wait for one another outside resume points, which therefore run as
 * fibers (msl_scan.c then compiles one copy of the kernel, not two);
 * MC_THREADS_STREAMING(bits) beside the first, a kernel bound by memory
 * whose widest global element is `bits` wide (streaming_bits). */
static void emit_thread_sync_hint(strbuf *out, const emitter *e, enum thread_sync sync, const char *msl_name)
{
   if (e->lane_arr || e->rs)
      return;
   switch (sync) {
   case THREADS_INDEPENDENT:
      strbuf_printf(out, "    MC_THREADS_INDEPENDENT(%u);\n", e->f->param_bytes);
      uint32_t bits = streaming_bits(e->f);
      if (bits)
         strbuf_printf(out, "    MC_THREADS_STREAMING(%u);\n", bits);
      if (e->xr.cond)
         strbuf_printf(out, "    MC_THREADS_X_RANGE(mc_xrange_%s, mc_xrow_%s, %d, mc_param, mc_L);\n", msl_name,
                       msl_name, e->xr.x_per_row);
      break;
   case THREADS_WAIT:
      strbuf_puts(out, "    MC_THREADS_WAIT;\n");
      break;
   case THREADS_UNKNOWN:
      break;
   }
}

void msl_emit_header(strbuf *out, const char *comment, bool shared_in_device)
{
   strbuf_printf(out, "// %s\n// generated by %s; do not edit\n", comment, MC_COMPILER_VERSION);
   strbuf_puts(out, "#include <metal_stdlib>\nusing namespace metal;\n\n");
   if (shared_in_device)   /* the prelude's shared-memory helpers take device memory (base.metal) */
      strbuf_puts(out, "#define MC_SMEM device\n");
   strbuf_puts(out, msl_prelude_text);
   /* The software device precompiles the text from the #include to this
    * line once for every library that repeats it (soft/compile.c,
    * PRELUDE_END); to Apple's compiler it is a comment. */
   strbuf_puts(out, "\n// metalcuda: end of the prelude\n");
}

/* The emitter for f, which goes into the library of `kernel` (f itself
 * for a kernel): shared and local memory are the kernel's. */
static bool emitter_init(emitter *e, strbuf *out, ir_func *f, const char *lib_name)
{
   if (!(f->valid & IR_META_STRUCTURED))
      ir_die(f, "msl_emit: function is not structured");
   ir_func *k = f->kernel ? f->kernel : f;
   memset(e, 0, sizeof(*e));
   e->out = out;
   e->f = f;
   e->kernel = k;
   e->lib_name = lib_name;
   e->ar = f->module->ar;
   e->max_cf_id = max_cf_id(f->cf);
   /* ids above max_cf_id: the latches of lockstep loops (emit_latched_body) */
   e->pending = arena_alloc(e->ar, 2 * ((size_t)e->max_cf_id + 1) * sizeof(*e->pending));
   e->stack = arena_alloc(e->ar, EMIT_MAX_DEPTH * sizeof(*e->stack));
   if (!e->pending || !e->stack)
      return ir_error(f->module, 0, "out of memory");
   e->uses_shared = k->shared_static_bytes || k->uses_dynamic_shared;
   /* MC_SMEM: device memory (the prelude's macro), spelled as the shared
    * space it is: no other threadgroup reaches a slice, so it needs no
    * coherent(device) in a kernel that fences at device scope (the
    * software device's rule, msl_scan.c check_coherence, sees another
    * token than `device`) */
   e->smem_as = k->shared_in_device ? "MC_SMEM" : "threadgroup";
   e->dyn_shared_base = (uint32_t)ALIGN_UP(k->shared_static_bytes, k->shared_dynamic_align);
   e->has_local = MC_MAX(k->local_total, k->local_bytes) != 0;
   e->has_lockstep = emit_cf_has_lockstep(f->cf);
   e->fn_index = f->module->lib_emitted++;
   e->nan_loose = msl_nan_loose(f, e->ar);   /* NULL: every result canonicalised */
   return true;
}

/* The body of a kernel in lane form (emit_lanes.c): no mc_jmp, the
 * thread's position is lane 0's (mc_tid0). */
static void emit_body_lanes(emitter *e)
{
   emit_line(e, "(void)mc_L; (void)mc_tid0; (void)mc_ctaid; (void)mc_ntid; (void)mc_nctaid;");
   if (!e->uses_shared)
      emit_line(e, "threadgroup uchar *mc_smem = nullptr; (void)mc_smem;");
   emit_lanes_declare(e);
   emit_lanes_body(e);
   strbuf_puts(e->out, "}\n\n");
}

/* Everything between the braces of a kernel or .func. */
static void emit_body(emitter *e)
{
   ir_func *f = e->f;
   e->indent = 1;
   if (e->lane_arr) {
      emit_body_lanes(e);
      return;
   }
   if (f->is_kernel && e->has_local)
      emit_line(e, "alignas(16) uchar mc_local[%u];", MC_MAX(f->local_total, f->local_bytes));
   if (f->is_kernel && f->uses_clock)
      emit_line(e, "ulong mc_clk = 0ul;");
   if (uses_sreg_lane(f))
      emit_line(e, "uint mc_linear = mc_tid.x + mc_ntid.x * (mc_tid.y + mc_ntid.y * mc_tid.z);");
   if (f->is_kernel && f->uses_bar_red)
      emit_line(e, "threadgroup uint mc_bar_red[32];");
   emit_line(e, "uint mc_jmp = 0u;");
   emit_line(e, "(void)mc_jmp; (void)mc_L; (void)mc_tid; (void)mc_ctaid; (void)mc_ntid; (void)mc_nctaid;");
   /* shared memory addressed in a kernel that declares none: code its data
    * never runs (a library's path for shared destinations, taken on an
    * isspacep test); PTX makes such an access an error, hence no window */
   if (!e->uses_shared)
      emit_line(e, "threadgroup uchar *mc_smem = nullptr; (void)mc_smem;");
   declare_values(e);
   if (e->rs)
      emit_resume_dispatch(e);
   if (e->rec)
      emit_rec_entry(e);
   if (f->is_kernel && f->uses_nbar) {
      /* zeroed before any thread can arrive: a barrier of the kernel's
       * own or of a .func it calls (they get the array, emit_call.c) */
      emit_line(e, "threadgroup atomic_uint mc_nbar_state[32];");
      emit_line(e, "if (mc_tid.x == 0u && mc_tid.y == 0u && mc_tid.z == 0u)");
      emit_line(e, "   for (uint k = 0u; k < 32u; k++) atomic_store_explicit(&mc_nbar_state[k], 0u, memory_order_relaxed);");
      emit_line(e, "threadgroup_barrier(mem_flags::mem_threadgroup);");
   }
   emit_cf(e, f->cf);
   if (e->rec)
      emit_line(e, "return 0u;");
   strbuf_puts(e->out, "}\n\n");
}

bool msl_emit_kernel(strbuf *out, ir_func *f, const char *msl_name)
{
   emitter e;
   if (!emitter_init(&e, out, f, msl_name))
      return false;
   if (!emit_lanes_plan(&e))
      return false;
   bool lanes = e.lane_arr != NULL;
   e.rs = lanes ? NULL : emit_resume_plan(f, e.ar);
   if (e.rs)
      emit_resume_struct(out, e.rs, msl_name);
   enum thread_sync sync = thread_sync_of(f);
   if (!lanes && !e.rs && sync == THREADS_INDEPENDENT) {
      if (!emit_xrange_plan(&e))
         return false;
      if (e.xr.cond)
         emit_xrange_fn(&e, msl_name);
   }
   strbuf_printf(out, "// PTX kernel %s\n", f->name);
   strbuf_printf(out, "kernel void %s(\n", msl_name);
   strbuf_puts(out, "    constant uchar *mc_param [[buffer(0)]],\n");
   strbuf_puts(out, "    constant mc_launch &mc_L [[buffer(1)]],\n");
   if (e.uses_shared && !f->shared_in_device)
      strbuf_puts(out, "    threadgroup uchar *mc_smem [[threadgroup(0)]],\n");
   /* lane form: the position of the invocation's lane 0 */
   strbuf_printf(out, "    uint3 %s [[thread_position_in_threadgroup]],\n", lanes ? "mc_tid0" : "mc_tid");
   strbuf_puts(out, "    uint3 mc_ctaid_d [[threadgroup_position_in_grid]],\n");
   strbuf_puts(out, "    uint3 mc_ntid [[threads_per_threadgroup]])\n{\n");
   strbuf_puts(out, "    (void)mc_param;\n");
   emit_thread_sync_hint(out, &e, sync, msl_name);
   /* The dispatch may be a piece of the grid (mc_launch.base_*, grid_*). */
   strbuf_puts(out, "    uint3 mc_ctaid = mc_ctaid_d + uint3(mc_L.base_x, mc_L.base_y, mc_L.base_z);\n");
   strbuf_puts(out, "    uint3 mc_nctaid = uint3(mc_L.grid_x, mc_L.grid_y, mc_L.grid_z);\n");
   if (e.uses_shared && f->shared_in_device)   /* this threadgroup's slice (compiler.h) */
      strbuf_puts(out, "    MC_SMEM uchar *mc_smem = reinterpret_cast<MC_SMEM uchar *>(mc_L.shared_slices) + "
                       "(ulong)(mc_ctaid.x + mc_nctaid.x * (mc_ctaid.y + mc_nctaid.y * mc_ctaid.z)) * "
                       "mc_L.shared_stride;\n");
   emit_body(&e);
   return f->module->error == NULL && !out->failed;
}

bool msl_emit_func(strbuf *out, ir_func *f, const char *lib_name)
{
   emitter e;
   if (!emitter_init(&e, out, f, lib_name))
      return false;
   strbuf_printf(out, "// PTX .func %s\n", f->name);
   if (f->scc) {
      /* recursive: a step function and its driver (emit_rec.c) */
      if (!emit_rec_prologue(&e) || !(e.rec = emit_rec_plan(f, e.ar)))
         return ir_error(f->module, 0, "out of memory");
      emit_rec_begin(&e);
      emit_body(&e);
      e.rec = NULL;
      emit_rec_driver(&e);
      return f->module->error == NULL && !out->failed;
   }
   emit_func_signature(&e);
   strbuf_puts(out, "\n{\n");
   emit_body(&e);
   return f->module->error == NULL && !out->failed;
}
