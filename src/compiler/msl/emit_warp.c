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

bool emit_is_full_mask(const ir_def *m)
{
   return m->parent->op == IR_CONST && (uint32_t)m->parent->imm == 0xffffffffu;
}

/* The kind of a *.sync operation: its opcode and qualifiers. */
static unsigned op_kind(const ir_instr *i) { return (unsigned)i->op | (unsigned)i->sub << 8 | (unsigned)i->type << 16; }

unsigned emit_warp_kind(const ir_instr *i) { return op_kind(i); }

static void sync_begin(emitter *e, const ir_instr *i, const ir_def *m)
{
   emit_stmt(e, "mc_warp_sync(mc_L, %V, %uu, %s);", m, op_kind(i), emit_is_full_mask(m) ? "false" : "true");
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

/* bar.red: counts in a threadgroup array the kernel declares (emit.c) and
 * hands to its .funcs (emit_call.c). */
static void emit_bar_red(emitter *e, const ir_instr *i)
{
   if (i->sub == IR_BAR_RED_EXIT) {   /* lower_exit.c's loop-exit vote */
      emit_set(e, i, "mc_bar_red_exit(mc_L, mc_bar_red, %V, %V, mc_linear, %s)", S(i, 0), S(i, 1), NTHREADS);
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

/* Lane form (emit_lanes.c), inside a lane loop of its own: the source
 * lane's element of the value's lane array (MC_LANE_SHFL: simd_shuffle
 * with one lane per invocation), a uniform value as it is. */
static void emit_lanes_shfl(emitter *e, const ir_instr *i)
{
   const ir_def *a = S(i, 0);
   emit_line(e, "MC_LANE_SYNC_BEGIN(%uu);", op_kind(i));
   if (a->parent->op == IR_CONST || a->parent->op == IR_UNDEF || e->lane_arr[a->index] != LANE_ARRAY) {
      emit_set(e, i, "%V", a);
   } else {
      emit_stmt(e, "bool mc_p; uint mc_j = mc_shfl_lane(%uu, MC_LANE_LANEID(mc_l), %V, %V, mc_p); (void)mc_p;",
                (unsigned)i->sub, S(i, 1), S(i, 2));
      emit_set(e, i, "MC_LANE_SHFL(v%u, mc_l, mc_j)", e->lane_store[a->index]);
   }
   emit_line(e, "MC_LANE_SYNC_END();");
}

static void emit_shfl(emitter *e, const ir_instr *i)
{
   const char *lane = e->lane_arr ? "MC_LANE_LANEID(mc_l)" : LANE;
   if (i->op == IR_SHFL_PRED) {
      emit_set(e, i, "mc_shfl_pred(%uu, %s, %V, %V)", (unsigned)i->sub, lane, S(i, 1), S(i, 2));
      return;
   }
   if (e->lane_arr) {
      emit_lanes_shfl(e, i);
      return;
   }
   if (emit_resume_is_warp_point(e, i))
      emit_resume_warp_op(e, i);
   sync_begin(e, i, S(i, 3));
   emit_set(e, i, "mc_shfl(%uu, %s, %V, %V, %V)", (unsigned)i->sub, LANE, S(i, 0), S(i, 1), S(i, 2));
   sync_end(e);
}

/* Lane form (emit_lanes.c), a vote or redux.sync over the full mask in a
 * lane loop of its own: MC_LANE_VOTE reads the predicate array's elements
 * of the lane's SIMD-group, MC_LANE_REDUX combines the value array's
 * (mc_vote_* / mc_redux_* with one lane per invocation); a uniform operand
 * (the _U forms) is the lane's for every lane there. */
static void emit_lanes_fold(emitter *e, const ir_instr *i, const char *macro, const char *fn)
{
   const ir_def *a = S(i, 0);
   emit_line(e, "MC_LANE_SYNC_BEGIN(%uu);", op_kind(i));
   if (a->parent->op == IR_CONST || a->parent->op == IR_UNDEF || e->lane_arr[a->index] != LANE_ARRAY)
      emit_set(e, i, "%s_U(%s, %V, mc_l, mc_mask)", macro, fn, a);
   else
      emit_set(e, i, "%s(%s, v%u, mc_l, mc_mask)", macro, fn, e->lane_store[a->index]);
   emit_line(e, "MC_LANE_SYNC_END();");
}

static void emit_vote(emitter *e, const ir_instr *i)
{
   static const char *const fn[] = {
      [IR_VOTE_ALL] = "mc_vote_all", [IR_VOTE_ANY] = "mc_vote_any",
      [IR_VOTE_UNI] = "mc_vote_uni", [IR_VOTE_BALLOT] = "mc_vote_ballot",
   };
   if (e->lane_arr) {
      static const char *const lane_fn[] = {
         [IR_VOTE_ALL] = "all", [IR_VOTE_ANY] = "any", [IR_VOTE_UNI] = "uni", [IR_VOTE_BALLOT] = "ballot",
      };
      emit_lanes_fold(e, i, "MC_LANE_VOTE", lane_fn[i->sub]);
      return;
   }
   if (emit_resume_is_warp_point(e, i))
      emit_resume_warp_op(e, i);
   sync_begin(e, i, S(i, 1));
   emit_set(e, i, "%s(%V, %V)", fn[i->sub], S(i, 0), S(i, 1));
   sync_end(e);
}

static void emit_redux(emitter *e, const ir_instr *i)
{
   bool s = i->type == PTX_T_S32;
   const char *fn;
   switch (i->sub) {
   case IR_ATOM_ADD: fn = "add"; break;
   case IR_ATOM_MIN: fn = s ? "min_s32" : "min_u32"; break;
   case IR_ATOM_MAX: fn = s ? "max_s32" : "max_u32"; break;
   case IR_ATOM_AND: fn = "and"; break;
   case IR_ATOM_OR: fn = "or"; break;
   default: fn = "xor"; break;
   }
   if (e->lane_arr) {
      emit_lanes_fold(e, i, "MC_LANE_REDUX", fn);
      return;
   }
   if (emit_resume_is_warp_point(e, i))
      emit_resume_warp_op(e, i);
   sync_begin(e, i, S(i, 1));
   emit_set(e, i, "mc_redux_%s(%V, %V, %s)", fn, S(i, 0), S(i, 1), LANE);
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

/* ---- warp matrix operations (build_mma.c, prelude mma.metal) ---- */

/* "T NAME[n] = {v0, ...};" for the sources first..first+n-1. */
static void emit_array(emitter *e, const char *type, const char *name, const ir_instr *i, unsigned first, unsigned n)
{
   emit_indent(e);
   strbuf_printf(e->out, "%s %s[8] = {", type, name);
   for (unsigned k = 0; k < n; k++) {
      if (k)
         strbuf_puts(e->out, ", ");
      emit_val(e, S(i, first + k));
   }
   strbuf_puts(e->out, "};\n");
}

/* The shared-memory offset of an ldmatrix/stmatrix row address: a shared
 * address, or a generic one in the shared window. */
static void emit_matrix_off(emitter *e, const ir_instr *i)
{
   emit_indent(e);
   strbuf_puts(e->out, "uint mc_off = (uint)((ulong)");
   emit_val(e, S(i, 0));
   strbuf_puts(e->out, i->space == IR_SPACE_GENERIC ? " - MC_SHARED_WINDOW);\n" : ");\n");
}

static void emit_matrix(emitter *e, const ir_instr *i)
{
   unsigned n = (unsigned)(i->imm & 15), trans = (i->imm >> 4) & 1;
   if (i->op == IR_MMA && i->sub == IR_MMA_MOVMATRIX) {
      emit_set(e, i, "mc_movmatrix(%V, %s)", S(i, 0), LANE);
      return;
   }
   emit_line(e, "{");
   e->indent++;
   if (i->op == IR_LDMATRIX) {
      emit_matrix_off(e, i);
      for (unsigned k = 0; k < n; k++) {
         emit_indent(e);
         emit_val_comp(e, &i->def, n > 1 ? (int)k : -1);
         strbuf_printf(e->out, " = mc_ldmatrix(mc_smem, mc_off, %uu, %s, %s);\n", k, trans ? "true" : "false", LANE);
      }
   } else if (i->op == IR_STMATRIX) {
      emit_matrix_off(e, i);
      emit_array(e, "uint", "mc_r", i, 1, n);
      emit_stmt(e, "mc_stmatrix(mc_smem, mc_off, mc_r, %uu, %s, %s);", n, trans ? "true" : "false", LANE);
   } else {
      uint64_t imm = i->imm;
      unsigned K = imm & 255, fmt = (imm >> 8) & 15, na = (imm >> 16) & 15, nb = (imm >> 20) & 15;
      unsigned nc = (imm >> 24) & 15, nd = i->def.ncomp;
      if (fmt == IR_MMA_F64) {
         emit_array(e, "ulong", "mc_c", i, 2, 2);
         emit_line(e, "ulong mc_d[8];");
         emit_stmt(e, "mc_mma_f64(%V, %V, mc_c, mc_d, %s);", S(i, 0), S(i, 1), LANE);
      } else {
         emit_array(e, "uint", "mc_a", i, 0, na);
         emit_array(e, "uint", "mc_b", i, na, nb);
         emit_array(e, "uint", "mc_c", i, na + nb, nc);
         emit_line(e, "uint mc_d[8];");
         /* integer forms: words per row of A, 4 in an m8n8 shape's one
          * register; COLS2: two blocks of columns (D's registers halved) */
         unsigned nw = imm & IR_MMA_M8 ? 4 : 2 * na, nblk = imm & IR_MMA_COLS2 ? 2 : 1;
         unsigned sel = (unsigned)(imm >> IR_MMA_SEL_SHIFT) & 3;
         bool ints = fmt == IR_MMA_INT8 || fmt == IR_MMA_INT4;
         if (fmt == IR_MMA_F16 && imm & IR_MMA_M8)
            emit_stmt(e, "mc_mma_quadpair(mc_a, mc_b, mc_c, mc_d, %s, %s, %s, %s, %s);",
                      imm & IR_MMA_A_COL ? "false" : "true", imm & IR_MMA_B_ROW ? "true" : "false",
                      imm & IR_MMA_ACC16 ? "true" : "false", imm & IR_MMA_D16 ? "true" : "false", LANE);
         else if (imm & IR_MMA_SPARSE && ints)
            emit_stmt(e, "mc_mma_sp_int(mc_a, mc_b, mc_c, mc_d, %V, %uu, %uu, %uu, %s, %s, %s, %uu, %s);",
                      S(i, na + nb + nc), na, K, fmt == IR_MMA_INT8 ? 8u : 4u,
                      imm & IR_MMA_A_SIGNED ? "true" : "false", imm & IR_MMA_B_SIGNED ? "true" : "false",
                      imm & IR_MMA_SAT ? "true" : "false", sel, LANE);
         else if (imm & IR_MMA_SPARSE)
            emit_stmt(e, "mc_mma_sp_float(mc_a, mc_b, mc_c, mc_d, %V, %uu, %uu, %uu, %s, %uu, %s);",
                      S(i, na + nb + nc), na, K, fmt, imm & IR_MMA_ACC16 ? "true" : "false", sel, LANE);
         else if (ints)
            emit_stmt(e, "mc_mma_int(mc_a, mc_b, mc_c, mc_d, %uu, %uu, %s, %s, %s, %uu, %uu, %s);", nw,
                      fmt == IR_MMA_INT8 ? 8u : 4u, imm & IR_MMA_A_SIGNED ? "true" : "false",
                      imm & IR_MMA_B_SIGNED ? "true" : "false", imm & IR_MMA_SAT ? "true" : "false", nd / nblk,
                      nblk, LANE);
         else if (fmt == IR_MMA_B1)
            emit_stmt(e, "mc_mma_bin(mc_a, mc_b, mc_c, mc_d, %uu, %s, %uu, %s);", nw,
                      imm & IR_MMA_AND ? "true" : "false", nd, LANE);
         else
            emit_stmt(e, "mc_mma_float(mc_a, mc_b, mc_c, mc_d, %uu, %uu, %s, %uu, %s);", K, fmt,
                      imm & IR_MMA_ACC16 ? "true" : "false", nblk, LANE);
      }
      for (unsigned k = 0; k < nd; k++) {
         emit_indent(e);
         emit_val_comp(e, &i->def, nd > 1 ? (int)k : -1);
         strbuf_printf(e->out, " = mc_d[%u];\n", k);
      }
   }
   e->indent--;
   emit_line(e, "}");
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
   case IR_MMA: case IR_LDMATRIX: case IR_STMATRIX: emit_matrix(e, i); return true;
   default:
      return false;
   }
}
