/*
 * emit_atom.c — fences and atomics (build_atom.c has the PTX rules).
 *
 * An atomic is one call of a prelude helper (prelude/atom.metal) on a
 * device or threadgroup atomic_uint: the 32-bit ones by name
 * (mc_atom_add_d ...), the others with an operation code; a 16-bit one on
 * the aligned word that holds it and the position of its half, a 64-bit
 * one on its two words and the lock the prelude hashes from the address
 * (the CUDA address, or the shared offset and the threadgroup).  The call
 * is bracketed by fences for its ordering: a fence before for
 * .release/.acq_rel, after for .acquire/.acq_rel.
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

/* The operation codes of prelude/atom.metal (MC_AOP_*); LD and ST are the
 * 128-bit strong load and store (mc_atom128_*). */
enum {
   AOP_ADD, AOP_MINU, AOP_MAXU, AOP_INC, AOP_DEC, AOP_AND, AOP_OR, AOP_XOR, AOP_EXCH, AOP_CAS, AOP_MINS,
   AOP_MAXS, AOP_FADD, AOP_HADD, AOP_BFADD, AOP_LD, AOP_ST, AOP_MBAR,
};

/* The named 32-bit helper of prelude/atom.metal for i (without its space
 * suffix), and the operation code of the helpers that take one. */
static const char *helper(emitter *e, const ir_instr *i, unsigned *code)
{
   bool s = i->type == PTX_T_S32 || i->type == PTX_T_S64;
   switch ((ir_atom_op)i->sub) {
   case IR_ATOM_ADD:
      if (is_lane16(i->type)) {
         *code = i->type == PTX_T_F16 || i->type == PTX_T_F16X2 ? AOP_HADD : AOP_BFADD;
         return NULL;
      }
      *code = i->type == PTX_T_F32 || i->type == PTX_T_F64 ? AOP_FADD : AOP_ADD;
      return i->type == PTX_T_F32 ? "fadd" : "add";
   case IR_ATOM_MIN: *code = s ? AOP_MINS : AOP_MINU; return s ? "mins" : "minu";
   case IR_ATOM_MAX: *code = s ? AOP_MAXS : AOP_MAXU; return s ? "maxs" : "maxu";
   case IR_ATOM_INC: *code = AOP_INC; return "inc";
   case IR_ATOM_DEC: *code = AOP_DEC; return "dec";
   case IR_ATOM_AND: *code = AOP_AND; return "and";
   case IR_ATOM_OR: *code = AOP_OR; return "or";
   case IR_ATOM_XOR: *code = AOP_XOR; return "xor";
   case IR_ATOM_EXCH: *code = AOP_EXCH; return "exch";
   case IR_ATOM_CAS: *code = AOP_CAS; return "cas";
   case IR_ATOM_MBAR: *code = AOP_MBAR; return NULL;   /* 64-bit only (build_async.c) */
   }
   ir_die(e->f, "emit_atom: bad atomic op %u", i->sub);
}

/* The byte offset of a shared or local address: a plain offset, or a
 * generic address in that space's window (subtract the window base). */
static void emit_off(emitter *e, const ir_def *a, const char *window)
{
   if (window) {
      strbuf_puts(e->out, "(uint)((ulong)");
      emit_val(e, a);
      strbuf_printf(e->out, " - %s)", window);
   } else {
      strbuf_puts(e->out, "(uint)");
      emit_val(e, a);
   }
}

/* The atomic word(s) of the access: the address itself, or for a 16-bit
 * access the aligned 32-bit word that holds it and then the bit position
 * of its half.  A 128-bit global access is checked for its alignment in
 * the software device's validation mode (MC_ALIGNED), as a vector access
 * is. */
static void emit_word(emitter *e, const ir_def *a, ir_space space, bool window, unsigned bits)
{
   const char *as = space == IR_SPACE_SHARED ? e->smem_as : "device";
   strbuf_printf(e->out, "reinterpret_cast<%s atomic_uint *>(", as);
   if (space == IR_SPACE_SHARED) {
      strbuf_puts(e->out, "mc_smem + (");
      emit_off(e, a, window ? "MC_SHARED_WINDOW" : NULL);
      strbuf_puts(e->out, bits == 16 ? " & ~3u))" : "))");
   } else if (bits == 128) {
      strbuf_puts(e->out, "mc_gpu(mc_L, MC_ALIGNED(mc_L, (ulong)");
      emit_val(e, a);
      strbuf_puts(e->out, ", 16u)))");
   } else {
      strbuf_puts(e->out, bits == 16 ? "mc_gpu(mc_L, (ulong)" : "mc_gpu(mc_L, (ulong)");
      emit_val(e, a);
      strbuf_puts(e->out, bits == 16 ? " & ~3ul))" : "))");
   }
   if (bits != 16)
      return;
   strbuf_puts(e->out, ", (");
   if (space == IR_SPACE_SHARED) {
      emit_off(e, a, window ? "MC_SHARED_WINDOW" : NULL);
   } else {
      strbuf_puts(e->out, "(uint)");
      emit_val(e, a);
   }
   strbuf_puts(e->out, " & 2u) * 8u");
}

/* The lock of a 64-bit atomic (prelude/atom.metal): by CUDA address on
 * global memory, by offset and threadgroup on shared memory. */
static void emit_lock(emitter *e, const ir_def *a, ir_space space, bool window)
{
   if (space == IR_SPACE_SHARED) {
      strbuf_puts(e->out, "mc_atom_lock_s(mc_L, ");
      emit_off(e, a, window ? "MC_SHARED_WINDOW" : NULL);
      strbuf_puts(e->out, ", mc_ctaid, mc_nctaid)");
   } else {
      strbuf_puts(e->out, "mc_atom_lock_g(mc_L, (ulong)");
      emit_val(e, a);
      strbuf_puts(e->out, ")");
   }
}

/* The operands after the address: the value, then cas's new value (or a
 * zero where the helper takes one and the operation has none). */
static void emit_vals(emitter *e, const ir_instr *i, bool want_v2, unsigned bits)
{
   strbuf_puts(e->out, ", ");
   emit_val(e, S(i, 1));
   if (i->nsrcs > 2) {
      strbuf_puts(e->out, ", ");
      emit_val(e, S(i, 2));
   } else if (want_v2) {
      strbuf_puts(e->out, bits == 64 ? ", 0ul" : bits == 16 ? ", (ushort)0u" : ", 0u");
   }
   strbuf_puts(e->out, ");\n");
}

/* The ulong2 of a two-component 64-bit value (a cas/exch.b128 operand). */
static void emit_u2(emitter *e, const ir_def *d)
{
   strbuf_puts(e->out, "ulong2(");
   emit_val_comp(e, d, 0);
   strbuf_puts(e->out, ", ");
   emit_val_comp(e, d, 1);
   strbuf_puts(e->out, ")");
}

/* A 128-bit operation on a known space: cas/exch.b128, or a strong vector
 * load or store of 128 bits (build_mem.c VEC_LOCKED: IR_F_LOCKED), all
 * one call of mc_atom128_* under the location's lock, on the value as a
 * ulong2 (low, high) in mc_w.  Thread memory has no other observer: a
 * plain access.  window: the address is generic and lies in that space's
 * window. */
static void emit_128(emitter *e, const ir_instr *i, ir_space space, bool window)
{
   bool atom = i->op == IR_ATOM, load = i->op == IR_LOAD;
   unsigned code = atom ? (i->sub == IR_ATOM_CAS ? AOP_CAS : AOP_EXCH) : load ? AOP_LD : AOP_ST;
   unsigned eb = atom ? 64 : ptx_type_bits[i->type], n = atom || load ? i->def.ncomp : i->nsrcs - 1;
   const ir_def *a = S(i, 0);
   emit_line(e, "{");
   e->indent++;
   emit_indent(e);
   strbuf_puts(e->out, "ulong2 mc_w = ");
   if (atom) {
      emit_u2(e, S(i, 1));
      strbuf_puts(e->out, ";\n");
   } else if (load) {
      strbuf_puts(e->out, "ulong2(0ul);\n");
   } else {   /* the elements packed, the first in the lowest bits */
      strbuf_puts(e->out, "ulong2(0ul);\n");
      for (unsigned k = 0; k < n; k++) {
         emit_indent(e);
         strbuf_printf(e->out, "mc_w.%c |= (ulong)(%s)", (k * eb) / 64 ? 'y' : 'x', msl_utype((uint8_t)eb));
         emit_val(e, S(i, 1 + k));
         strbuf_printf(e->out, " << %uu;\n", (k * eb) % 64);
      }
   }
   emit_indent(e);
   strbuf_puts(e->out, load || atom ? "mc_w = " : "(void)");
   if (space == IR_SPACE_LOCAL) {
      strbuf_puts(e->out, "mc_atom128_l(reinterpret_cast<thread ulong *>(mc_local + ");
      emit_off(e, a, window ? "MC_LOCAL_WINDOW" : NULL);
      strbuf_printf(e->out, "), %uu, mc_w, ", code);
   } else {
      strbuf_printf(e->out, "mc_atom128_%s(", space == IR_SPACE_SHARED ? "t" : "d");
      emit_word(e, a, space, window, 128);
      strbuf_puts(e->out, ", ");
      emit_lock(e, a, space, window);
      strbuf_printf(e->out, ", %uu, mc_w, ", code);
   }
   if (atom && i->nsrcs > 2)
      emit_u2(e, S(i, 2));
   else
      strbuf_puts(e->out, "ulong2(0ul)");
   strbuf_puts(e->out, ");\n");
   for (unsigned k = 0; (load || atom) && k < n; k++) {
      unsigned D = i->def.bits;
      emit_indent(e);
      emit_val_comp(e, &i->def, (int)k);
      strbuf_printf(e->out, " = (%s)", msl_utype((uint8_t)D));
      if (!atom && is_signed(i->type) && D > eb)
         strbuf_printf(e->out, "(%s)", msl_stype((uint8_t)eb));
      strbuf_printf(e->out, "(%s)(mc_w.%c >> %uu);\n", msl_utype((uint8_t)eb), (k * eb) / 64 ? 'y' : 'x',
                    (k * eb) % 64);
   }
   e->indent--;
   emit_line(e, "}");
}

/* One atomic on a known space.  window: the address is generic and lies in
 * that space's window. */
static void emit_one(emitter *e, const ir_instr *i, ir_space space, bool window)
{
   if (i->type == PTX_T_B128 || i->op == IR_LOAD || i->op == IR_STORE) {
      emit_128(e, i, space, window);
      return;
   }
   unsigned code, bits = S(i, 1)->bits;   /* 16, 32 or 64: the builder sized the operands */
   const char *h = helper(e, i, &code);
   const ir_def *a = S(i, 0);
   emit_indent(e);
   if (i->op == IR_ATOM) {
      emit_val(e, &i->def);
      strbuf_puts(e->out, " = ");
   } else {
      strbuf_puts(e->out, "(void)");
   }
   const char *sfx = space == IR_SPACE_SHARED ? "t" : "d";
   if (space == IR_SPACE_LOCAL) {
      /* Thread memory: a plain read-modify-write (no other thread sees it). */
      const char *fn = bits == 64 ? "mc_atom64_l" : bits == 16 ? "mc_atom16_l" : "mc_atom_rmw_l";
      const char *ty = bits == 64 ? "ulong" : bits == 16 ? "ushort" : "uint";
      strbuf_printf(e->out, "%s(reinterpret_cast<thread %s *>(mc_local + ", fn, ty);
      emit_off(e, a, window ? "MC_LOCAL_WINDOW" : NULL);
      strbuf_printf(e->out, "), %uu", code);
      emit_vals(e, i, true, bits);
   } else if (bits == 64) {
      strbuf_printf(e->out, "mc_atom64_%s(", sfx);
      emit_word(e, a, space, window, bits);
      strbuf_puts(e->out, ", ");
      emit_lock(e, a, space, window);
      strbuf_printf(e->out, ", %uu", code);
      emit_vals(e, i, true, bits);
   } else if (bits == 16) {
      strbuf_printf(e->out, "mc_atom16_%s(", sfx);
      emit_word(e, a, space, window, bits);
      strbuf_printf(e->out, ", %uu", code);
      emit_vals(e, i, true, bits);
   } else if (!h) {
      strbuf_printf(e->out, "mc_atom_rmw32_%s(", sfx);
      emit_word(e, a, space, window, bits);
      strbuf_printf(e->out, ", %uu", code);
      emit_vals(e, i, false, bits);
   } else {
      strbuf_printf(e->out, "mc_atom_%s_%s(", h, sfx);
      emit_word(e, a, space, window, bits);
      emit_vals(e, i, false, bits);
   }
}

/* An atomic, or a 128-bit strong load or store (IR_F_LOCKED: its
 * ordering fences are instructions of their own, build_mem.c), on its
 * space or, for a generic address, on the space whose window holds it. */
static void emit_spaces(emitter *e, const ir_instr *i)
{
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
}

static void emit_atomic(emitter *e, const ir_instr *i)
{
   unsigned sem = (unsigned)(i->imm & IR_SEM_MASK), scope = (unsigned)(i->imm & IR_SCOPE_MASK);
   if (sem == IR_SEM_RELEASE || sem == IR_SEM_ACQ_REL)
      emit_fence(e, scope);
   emit_spaces(e, i);
   if (sem == IR_SEM_ACQUIRE || sem == IR_SEM_ACQ_REL)
      emit_fence(e, scope);
}

void emit_locked_access(emitter *e, const ir_instr *i)
{
   emit_spaces(e, i);
}

/* cp.reduce.async.bulk (32-bit elements): mc_cp_reduce32_{d,t}(dst words,
 * src words, bytes, op), each element one relaxed atomic (build_async.c). */
static void emit_cp_reduce(emitter *e, const ir_instr *i)
{
   unsigned code;
   (void)helper(e, i, &code);
   ir_space space = (ir_space)i->space;
   emit_indent(e);
   strbuf_printf(e->out, "mc_cp_reduce32_%s(", space == IR_SPACE_SHARED ? "t" : "d");
   emit_word(e, S(i, 0), space, false, 32);
   strbuf_printf(e->out, ", reinterpret_cast<%s const uint *>(mc_smem + (uint)", e->smem_as);
   emit_val(e, S(i, 1));
   strbuf_puts(e->out, "), ");
   emit_val(e, S(i, 2));
   strbuf_printf(e->out, ", %uu);\n", code);
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
   case IR_CP_REDUCE:
      emit_cp_reduce(e, i);
      return true;
   default:
      return false;
   }
}
