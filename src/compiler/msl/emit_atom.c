/*
 * emit_atom.c — fences and atomics (build_atom.c has the PTX rules).
 *
 * An atomic is one call of a prelude helper (prelude/atom.metal) on a
 * device or threadgroup atomic_uint, bracketed by fences for its ordering:
 * a fence before for .release/.acq_rel, after for .acquire/.acq_rel.
 * Fences are MSL 3.2's atomic_thread_fence, sequentially consistent, on
 * both device and threadgroup memory (a release at .gpu scope orders the
 * thread's shared-memory accesses too), at threadgroup or device scope.
 *
 * A generic address is classified at run time by the windows
 * (ARCHITECTURE §3): shared → threadgroup atomics, local → a plain
 * read-modify-write (thread memory has no other observer), anything else →
 * device atomics.
 */
#include "emit_internal.h"

static const char *scope_name(unsigned scope)
{
   return scope == IR_SCOPE_CTA ? "thread_scope_threadgroup" : "thread_scope_device";
}

static void emit_fence(emitter *e, unsigned scope)
{
   emit_line(e, "atomic_thread_fence(mem_flags::mem_device | mem_flags::mem_threadgroup, memory_order_seq_cst, %s);",
             scope_name(scope));
}

/* The helper of prelude/atom.metal for i (without its space suffix), and
 * the operation code of mc_atom_rmw_l. */
static const char *helper(emitter *e, const ir_instr *i, unsigned *local_code)
{
   bool s = i->type == PTX_T_S32;
   switch ((ir_atom_op)i->sub) {
   case IR_ATOM_ADD:
      *local_code = i->type == PTX_T_F32 ? 12 : 0;
      return i->type == PTX_T_F32 ? "fadd" : "add";
   case IR_ATOM_MIN: *local_code = s ? 10 : 1; return s ? "mins" : "minu";
   case IR_ATOM_MAX: *local_code = s ? 11 : 2; return s ? "maxs" : "maxu";
   case IR_ATOM_INC: *local_code = 3; return "inc";
   case IR_ATOM_DEC: *local_code = 4; return "dec";
   case IR_ATOM_AND: *local_code = 5; return "and";
   case IR_ATOM_OR: *local_code = 6; return "or";
   case IR_ATOM_XOR: *local_code = 7; return "xor";
   case IR_ATOM_EXCH: *local_code = 8; return "exch";
   case IR_ATOM_CAS: *local_code = 9; return "cas";
   }
   ir_die(e->f, "emit_atom: bad atomic op %u", i->sub);
}

/* One atomic on a known space.  window: the address is generic and lies in
 * that space's window (subtract the window base). */
static void emit_one(emitter *e, const ir_instr *i, ir_space space, bool window)
{
   unsigned code;
   const char *h = helper(e, i, &code);
   const ir_def *a = S(i, 0);
   emit_indent(e);
   if (i->op == IR_ATOM) {
      emit_val(e, &i->def);
      strbuf_puts(e->out, " = ");
   } else {
      strbuf_puts(e->out, "(void)");
   }
   switch (space) {
   case IR_SPACE_SHARED:
      strbuf_printf(e->out, "mc_atom_%s_t(reinterpret_cast<threadgroup atomic_uint *>(mc_smem + (uint)", h);
      if (window)
         strbuf_puts(e->out, "((ulong)");
      emit_val(e, a);
      strbuf_puts(e->out, window ? " - MC_SHARED_WINDOW)), " : "), ");
      break;
   case IR_SPACE_LOCAL:
      strbuf_puts(e->out, "mc_atom_rmw_l(reinterpret_cast<thread uint *>(mc_local + (uint)");
      if (window)
         strbuf_puts(e->out, "((ulong)");
      emit_val(e, a);
      strbuf_printf(e->out, "%s), %uu, ", window ? " - MC_LOCAL_WINDOW)" : "", code);
      break;
   default:
      strbuf_printf(e->out, "mc_atom_%s_d(reinterpret_cast<device atomic_uint *>(mc_L.delta + (ulong)", h);
      emit_val(e, a);
      strbuf_puts(e->out, "), ");
      break;
   }
   emit_val(e, S(i, 1));
   if (i->nsrcs > 2) {
      strbuf_puts(e->out, ", ");
      emit_val(e, S(i, 2));
   } else if (space == IR_SPACE_LOCAL) {
      strbuf_puts(e->out, ", 0u");
   }
   strbuf_puts(e->out, ");\n");
}

static void emit_atomic(emitter *e, const ir_instr *i)
{
   unsigned sem = (unsigned)(i->imm & IR_SEM_MASK), scope = (unsigned)(i->imm & IR_SCOPE_MASK);
   if (sem == IR_SEM_RELEASE || sem == IR_SEM_ACQ_REL)
      emit_fence(e, scope);
   if (i->space != IR_SPACE_GENERIC) {
      emit_one(e, i, (ir_space)i->space, false);
   } else {
      const ir_def *a = S(i, 0);
      bool any = false;
      if (e->uses_shared) {
         emit_indent(e);
         strbuf_puts(e->out, "if ((ulong)");
         emit_val(e, a);
         strbuf_puts(e->out, " - MC_SHARED_WINDOW < MC_WINDOW_SIZE) {\n");
         e->indent++;
         emit_one(e, i, IR_SPACE_SHARED, true);
         e->indent--;
         any = true;
      }
      if (e->has_local) {
         emit_indent(e);
         strbuf_puts(e->out, any ? "} else if ((ulong)" : "if ((ulong)");
         emit_val(e, a);
         strbuf_puts(e->out, " - MC_LOCAL_WINDOW < MC_WINDOW_SIZE) {\n");
         e->indent++;
         emit_one(e, i, IR_SPACE_LOCAL, true);
         e->indent--;
         any = true;
      }
      if (any) {
         emit_line(e, "} else {");
         e->indent++;
      }
      emit_one(e, i, IR_SPACE_GLOBAL, false);
      if (any) {
         e->indent--;
         emit_line(e, "}");
      }
   }
   if (sem == IR_SEM_ACQUIRE || sem == IR_SEM_ACQ_REL)
      emit_fence(e, scope);
}

bool emit_atom_op(emitter *e, ir_instr *i)
{
   switch (i->op) {
   case IR_MEMBAR:
      emit_fence(e, i->sub);
      return true;
   case IR_ATOM:
   case IR_RED:
      emit_atomic(e, i);
      return true;
   default:
      return false;
   }
}
