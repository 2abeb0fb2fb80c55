/*
 * emit_warp.c — barriers and warp-level operations, as calls of the
 * prelude's helpers (prelude/warp.metal) on Metal's SIMD-group functions.
 *
 * The lane is (mc_linear & 31u) (emit.c declares mc_linear whenever a
 * function has warp operations).  Every *.sync operation is bracketed by
 * mc_warp_sync / mc_warp_sync_end (prelude warp.metal), which name its
 * member mask and its kind (opcode and qualifiers: PTX matches the threads
 * of one mask across instructions with the same ones) for the software
 * device's scheduler, and check a mask that is not the constant
 * 0xffffffff at run time: on a GPU the threads it names must be active at
 * the instruction.  A constant full mask needs no check: lanes of a
 * partial warp do not exist, and lanes on the other side of a branch make
 * the PTX undefined anyway.
 */
#include "emit_internal.h"

#define LANE "(mc_linear & 31u)"
#define NTHREADS "(mc_ntid.x * mc_ntid.y * mc_ntid.z)"

static bool is_full_mask(const ir_def *m)
{
   return m->parent->op == IR_CONST && (uint32_t)m->parent->imm == 0xffffffffu;
}

/* The kind of a *.sync operation: its opcode and qualifiers. */
static unsigned op_kind(const ir_instr *i) { return (unsigned)i->op | (unsigned)i->sub << 8 | (unsigned)i->type << 16; }

static void sync_begin(emitter *e, const ir_instr *i, const ir_def *m)
{
   emit_stmt(e, "mc_warp_sync(mc_L, %V, %uu, %s);", m, op_kind(i), is_full_mask(m) ? "false" : "true");
}

static void sync_end(emitter *e) { emit_line(e, "mc_warp_sync_end();"); }

/* The members of an operation whose mask was checked already (the second
 * half of match.all). */
static void members_only(emitter *e, const ir_instr *i, const ir_def *m)
{
   emit_stmt(e, "mc_warp_members(%V, %uu);", m, op_kind(i));
}

static void emit_bar(emitter *e, const ir_instr *i)
{
   if (i->nsrcs)
      emit_stmt(e, "mc_bar_count_check(mc_L, %V, %s);", S(i, 0), NTHREADS);
   const char *barrier = "threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);";
   if (e->rs)
      emit_resume_barrier(e, i, barrier);
   else
      emit_line(e, "%s", barrier);
}

/* bar.red: a threadgroup array the kernel declares (emit.c), so kernels
 * only. */
static void emit_bar_red(emitter *e, const ir_instr *i)
{
   if (!e->f->is_kernel) {
      ir_error(e->f->module, i->line, "bar.red (__syncthreads_count/and/or) in a .func is not supported "
               "yet: only in a kernel's own body");
      return;
   }
   if (i->nsrcs > 1)
      emit_stmt(e, "mc_bar_count_check(mc_L, %V, %s);", S(i, 1), NTHREADS);
   static const char *const fmt[] = {
      [IR_BAR_RED_POPC] = "mc_bar_red_popc(mc_bar_red, %V, mc_linear, %s)",
      [IR_BAR_RED_AND] = "(mc_bar_red_popc(mc_bar_red, !%V, mc_linear, %s) == 0u)",
      [IR_BAR_RED_OR] = "(mc_bar_red_popc(mc_bar_red, %V, mc_linear, %s) != 0u)",
   };
   emit_set(e, i, fmt[i->sub], S(i, 0), NTHREADS);
}

static void emit_shfl(emitter *e, const ir_instr *i)
{
   if (i->op == IR_SHFL_PRED) {
      emit_set(e, i, "mc_shfl_pred(%uu, %s, %V, %V)", (unsigned)i->sub, LANE, S(i, 1), S(i, 2));
      return;
   }
   sync_begin(e, i, S(i, 3));
   emit_set(e, i, "mc_shfl(%uu, %s, %V, %V, %V)", (unsigned)i->sub, LANE, S(i, 0), S(i, 1), S(i, 2));
   sync_end(e);
}

static void emit_vote(emitter *e, const ir_instr *i)
{
   static const char *const fn[] = {
      [IR_VOTE_ALL] = "mc_vote_all", [IR_VOTE_ANY] = "mc_vote_any",
      [IR_VOTE_UNI] = "mc_vote_uni", [IR_VOTE_BALLOT] = "mc_vote_ballot",
   };
   sync_begin(e, i, S(i, 1));
   emit_set(e, i, "%s(%V, %V)", fn[i->sub], S(i, 0), S(i, 1));
   sync_end(e);
}

static void emit_redux(emitter *e, const ir_instr *i)
{
   bool s = i->type == PTX_T_S32;
   const char *fn;
   switch (i->sub) {
   case IR_ATOM_ADD: fn = "mc_redux_add"; break;
   case IR_ATOM_MIN: fn = s ? "mc_redux_min_s32" : "mc_redux_min_u32"; break;
   case IR_ATOM_MAX: fn = s ? "mc_redux_max_s32" : "mc_redux_max_u32"; break;
   case IR_ATOM_AND: fn = "mc_redux_and"; break;
   case IR_ATOM_OR: fn = "mc_redux_or"; break;
   default: fn = "mc_redux_xor"; break;
   }
   sync_begin(e, i, S(i, 1));
   emit_set(e, i, "%s(%V, %V, %s)", fn, S(i, 0), S(i, 1), LANE);
   sync_end(e);
}

/* match.any: the mask of threads with my value; match.all: the mask (or
 * 0), and the predicate, whether every thread of the mask agrees. */
static void emit_match(emitter *e, const ir_instr *i)
{
   if (i->op == IR_MATCH_PRED) {   /* match.all's predicate: its SIMD-group calls are the operation's too */
      members_only(e, i, S(i, 1));
      emit_set(e, i, "mc_match_all(%V, %V)", S(i, 0), S(i, 1));
      sync_end(e);
      return;
   }
   sync_begin(e, i, S(i, 1));
   if (i->sub)
      emit_set(e, i, "(mc_match_all(%V, %V) ? %V : 0u)", S(i, 0), S(i, 1), S(i, 1));
   else
      emit_set(e, i, "mc_match_any(%V, %V)", S(i, 0), S(i, 1));
   sync_end(e);
}

bool emit_warp_op(emitter *e, ir_instr *i)
{
   switch (i->op) {
   case IR_BAR: emit_bar(e, i); return true;
   case IR_NBAR:
      emit_stmt(e, "mc_nbar(mc_L, mc_nbar_state, %V, %V, %s, %s);", S(i, 0), S(i, 1), NTHREADS,
                i->sub ? "true" : "false");
      return true;
   case IR_BAR_RED: emit_bar_red(e, i); return true;
   case IR_BAR_WARP:
      sync_begin(e, i, S(i, 0));
      emit_line(e, "simdgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);");
      sync_end(e);
      return true;
   case IR_SHFL: case IR_SHFL_PRED: emit_shfl(e, i); return true;
   case IR_VOTE: emit_vote(e, i); return true;
   case IR_REDUX: emit_redux(e, i); return true;
   case IR_MATCH: case IR_MATCH_PRED: emit_match(e, i); return true;
   case IR_ACTIVEMASK: emit_set(e, i, "mc_activemask()"); return true;
   default:
      return false;
   }
}
