/*
 * emit_mem.c — data movement: parameters, special registers, symbol
 * addresses, copies and selects, vectors, cvta, loads and stores in every
 * address space (generic ones check the shared and local windows at run
 * time, ARCHITECTURE §3).
 */
#include "emit_internal.h"

/* The MSL type a memory access of PTX type t uses. */
const char *emit_mem_type(ptx_type t)
{
   unsigned n = ptx_type_bits[t];
   return is_signed(t) ? msl_stype((uint8_t)n) : msl_utype((uint8_t)n);
}

/* Prints a pointer expression to element k of an access in `space`. */
/* The address ADDR + byte_off, checked for alignment to `bytes` in the
 * software device's validation mode (prelude: MC_ALIGNED). */
static void emit_checked_addr(emitter *e, const ir_def *addr, uint32_t byte_off, unsigned bytes)
{
   if (bytes > 1)
      strbuf_puts(e->out, "MC_ALIGNED(mc_L, (ulong)(");
   emit_val(e, addr);
   if (byte_off)
      strbuf_printf(e->out, " + %uu", byte_off);
   if (bytes > 1)
      strbuf_printf(e->out, "), %uu)", bytes);
}

/* Prints a pointer expression to element k of an access in `space`;
 * flags: the access's IR_F_* (volatile and lockstep accesses are kept in
 * order with `volatile`).
 *
 * Global memory is MC_CDEV (prelude: MSL 3.2's coherent(device) device)
 * where other threadgroups may be reading or writing it at the same time:
 * on an Apple GPU device memory is coherent only within a threadgroup
 * unless declared coherent(device), and volatile does not make it so
 * (issue 15, finding 7).  That is every strong access (.volatile,
 * .relaxed/.acquire/.release), and every access of a library whose kernel
 * or callees fence at .gpu/.sys scope (link_calls.c: ir_func.coherent):
 * the plain stores before __threadfence() and the plain loads after it of
 * a last-block reduction or a decoupled look-back must reach other
 * threadgroups.  Atomics are device-coherent as they are. */
void emit_ptr_expr(emitter *e, ir_space space, ptx_type t, unsigned flags, const ir_def *addr, uint32_t byte_off)
{
   bool vol = flags & (IR_F_VOLATILE | IR_F_LOCKSTEP);
   const char *v = vol ? "volatile " : "", *type = emit_mem_type(t);
   const char *dev = (flags & IR_F_VOLATILE) || e->kernel->coherent ? "MC_CDEV" : "device";
   unsigned bytes = ptx_type_bits[t] / 8;
   switch (space) {
   case IR_SPACE_SHARED:
      strbuf_printf(e->out, "reinterpret_cast<%s%s %s *>(mc_smem + (uint)", v, e->smem_as, type);
      emit_checked_addr(e, addr, byte_off, bytes);
      strbuf_puts(e->out, ")");
      return;
   case IR_SPACE_LOCAL:
      strbuf_printf(e->out, "reinterpret_cast<%sthread %s *>(mc_local + (uint)", v, type);
      break;
   case IR_SPACE_PARAM:
      strbuf_printf(e->out, "reinterpret_cast<constant %s *>(mc_param + (uint)", type);
      break;
   default:
      /* the GPU address through the chunk's delta (base.metal MC_GADDR) */
      strbuf_printf(e->out, "reinterpret_cast<%s%s %s *>(MC_GADDR(mc_L, %s, ", v, dev, type, dev);
      emit_checked_addr(e, addr, byte_off, bytes);
      strbuf_puts(e->out, "))");
      return;
   }
   emit_val(e, addr);
   if (byte_off)
      strbuf_printf(e->out, " + %uu", byte_off);
   strbuf_puts(e->out, ")");
}

static bool space_available(const emitter *e, ir_space s)
{
   return s == IR_SPACE_SHARED ? e->uses_shared : s == IR_SPACE_LOCAL ? e->has_local
        : s == IR_SPACE_PARAM ? e->kernel->uses_param_window : true;
}

/* The generic windows, checked in this order (ARCHITECTURE §3). */
static void window_cond(emitter *e, const char *win, const ir_def *addr)
{
   strbuf_puts(e->out, "((ulong)");
   emit_val(e, addr);
   strbuf_printf(e->out, " - %s < MC_WINDOW_SIZE)", win);
}

static void emit_load_one(emitter *e, const ir_instr *i, int comp, uint32_t byte_off)
{
   ptx_type t = i->type;
   unsigned n = ptx_type_bits[t], D = i->def.bits;
   ir_space sp = (ir_space)i->space;
   const ir_def *a = S(i, 0);
   emit_indent(e);
   emit_val_comp(e, &i->def, i->def.ncomp > 1 ? comp : -1);
   strbuf_printf(e->out, " = (%s)", msl_utype((uint8_t)D));
   if (is_signed(t) && D > n)
      strbuf_printf(e->out, "(%s)", msl_stype((uint8_t)D));
   strbuf_puts(e->out, "*");
   emit_ptr_expr(e, sp, t, i->flags, a, byte_off);
   strbuf_puts(e->out, ";\n");
}

/* Generic accesses are emitted as if/else statements (the windows need a
 * different pointer type each, which a ?: expression cannot mix). */
static void emit_generic_access(emitter *e, const ir_instr *i, int comp, uint32_t byte_off, bool store)
{
   ptx_type t = i->type;
   unsigned n = ptx_type_bits[t], D = i->def.bits;
   const char *mt = emit_mem_type(t);
   bool vol = i->flags & (IR_F_VOLATILE | IR_F_LOCKSTEP);   /* lockstep: kept in order */
   const ir_def *a = S(i, 0);
   /* the parameter window is read-only (__grid_constant__): a store there
    * falls through to the global access, which faults naming the address */
   static const struct { ir_space s; const char *win; } wins[] = {
      { IR_SPACE_SHARED, "MC_SHARED_WINDOW" }, { IR_SPACE_LOCAL, "MC_LOCAL_WINDOW" },
      { IR_SPACE_PARAM, "MC_PARAM_WINDOW" },
   };
   bool first = true;
   for (size_t k = 0; k <= ARRAY_SIZE(wins); k++) {
      ir_space s = k < ARRAY_SIZE(wins) ? wins[k].s : IR_SPACE_GLOBAL;
      if (!space_available(e, s) || (s == IR_SPACE_PARAM && store))
         continue;
      emit_indent(e);
      if (k < ARRAY_SIZE(wins)) {
         strbuf_puts(e->out, first ? "if (" : "} else if (");
         window_cond(e, wins[k].win, a);
         strbuf_puts(e->out, ") {\n");
      } else {
         strbuf_puts(e->out, first ? "{\n" : "} else {\n");
      }
      first = false;
      e->indent++;
      emit_indent(e);
      /* inside a window the address becomes window-relative */
      const char *v = vol ? "volatile " : "";
      if (store) {
         strbuf_puts(e->out, "*");
      } else {
         emit_val_comp(e, &i->def, i->def.ncomp > 1 ? comp : -1);
         strbuf_printf(e->out, " = (%s)", msl_utype((uint8_t)D));
         if (is_signed(t) && D > n)
            strbuf_printf(e->out, "(%s)", msl_stype((uint8_t)D));
         strbuf_puts(e->out, "*");
      }
      if (s == IR_SPACE_GLOBAL) {
         emit_ptr_expr(e, s, t, i->flags, a, byte_off);
      } else {
         strbuf_printf(e->out, "reinterpret_cast<%s%s %s *>(%s + (uint)((ulong)", s == IR_SPACE_PARAM ? "" : v,
                       s == IR_SPACE_SHARED ? e->smem_as : s == IR_SPACE_PARAM ? "constant" : "thread", mt,
                       s == IR_SPACE_SHARED ? "mc_smem" : s == IR_SPACE_PARAM ? "mc_param" : "mc_local");
         emit_val(e, a);
         strbuf_printf(e->out, " - %s)", wins[k].win);
         if (byte_off)
            strbuf_printf(e->out, " + %uu", byte_off);
         strbuf_puts(e->out, ")");
      }
      if (store) {
         strbuf_printf(e->out, " = (%s)", mt);
         emit_val(e, S(i, 1 + (comp < 0 ? 0 : (unsigned)comp)));
      }
      strbuf_puts(e->out, ";\n");
      e->indent--;
   }
   emit_line(e, "}");
}

static void emit_load(emitter *e, const ir_instr *i)
{
   if (i->flags & IR_F_LOCKED) {
      emit_locked_access(e, i);
      return;
   }
   uint32_t es = ptx_type_bits[i->type] / 8;
   for (unsigned k = 0; k < i->def.ncomp; k++) {
      int comp = i->def.ncomp > 1 ? (int)k : -1;
      if (i->space == IR_SPACE_GENERIC)
         emit_generic_access(e, i, comp, k * es, false);
      else
         emit_load_one(e, i, comp, k * es);
   }
}

static void emit_store(emitter *e, const ir_instr *i)
{
   if (i->flags & IR_F_LOCKED) {
      emit_locked_access(e, i);
      return;
   }
   uint32_t es = ptx_type_bits[i->type] / 8;
   const char *mt = emit_mem_type(i->type);
   for (unsigned k = 0; k + 1 < i->nsrcs; k++) {
      if (i->space == IR_SPACE_GENERIC) {
         emit_generic_access(e, i, (int)k, k * es, true);
         continue;
      }
      emit_indent(e);
      strbuf_puts(e->out, "*");
      emit_ptr_expr(e, (ir_space)i->space, i->type, i->flags, S(i, 0), k * es);
      strbuf_printf(e->out, " = (%s)", mt);
      emit_val(e, S(i, 1 + k));
      strbuf_puts(e->out, ";\n");
   }
}

static void emit_param(emitter *e, const ir_instr *i)
{
   ptx_type t = i->type;
   unsigned n = ptx_type_bits[t], D = i->def.bits;
   uint32_t off = (uint32_t)i->imm, esz = n / 8;
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_printf(e->out, " = (%s)", msl_utype((uint8_t)D));
   if (is_signed(t) && D > n)
      strbuf_printf(e->out, "(%s)", msl_stype((uint8_t)D));
   if (off % esz == 0) {
      strbuf_printf(e->out, "*reinterpret_cast<constant %s *>(mc_param + %uu);\n", emit_mem_type(t), off);
      return;
   }
   /* Unaligned parameter read: assemble from bytes (little-endian). */
   strbuf_printf(e->out, "as_type<%s>((%s)(", emit_mem_type(t), msl_utype((uint8_t)n));
   for (uint32_t k = 0; k < esz; k++)
      strbuf_printf(e->out, "%s((%s)mc_param[%uu] << %uu)", k ? " | " : "", n > 32 ? "ulong" : "uint",
                    off + k, 8 * k);
   strbuf_puts(e->out, "));\n");
}

/* The registers of the launch; the time and placement ones are
 * emit_call.c's (false here). */
static bool emit_sreg(emitter *e, const ir_instr *i)
{
   /* Designated, so registers appended to ir_sreg by other families need
    * no entry here. */
   static const char *const names[IR_SREG_COUNT] = {
      [IR_SREG_TID_X] = "mc_tid.x", [IR_SREG_TID_Y] = "mc_tid.y", [IR_SREG_TID_Z] = "mc_tid.z",
      [IR_SREG_NTID_X] = "mc_ntid.x", [IR_SREG_NTID_Y] = "mc_ntid.y", [IR_SREG_NTID_Z] = "mc_ntid.z",
      [IR_SREG_CTAID_X] = "mc_ctaid.x", [IR_SREG_CTAID_Y] = "mc_ctaid.y", [IR_SREG_CTAID_Z] = "mc_ctaid.z",
      [IR_SREG_NCTAID_X] = "mc_nctaid.x", [IR_SREG_NCTAID_Y] = "mc_nctaid.y",
      [IR_SREG_NCTAID_Z] = "mc_nctaid.z",
      [IR_SREG_LANEID] = "(mc_linear & 31u)", [IR_SREG_WARPID] = "(mc_linear >> 5)",
      [IR_SREG_NWARPID] = "((mc_ntid.x * mc_ntid.y * mc_ntid.z + 31u) >> 5)", [IR_SREG_WARPSZ] = "32u",
      [IR_SREG_ENVREG1] = "(uint)(mc_L.grid_ws >> 32)", [IR_SREG_ENVREG2] = "(uint)mc_L.grid_ws",
   };
   if (i->sub >= ARRAY_SIZE(names) || !names[i->sub])
      return false;
   emit_set(e, i, "%s", names[i->sub]);
   return true;
}

static void emit_symaddr(emitter *e, const ir_instr *i)
{
   switch (i->space) {
   case IR_SPACE_GLOBAL:
   case IR_SPACE_CONST:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_printf(e->out, " = mc_L.globals + 0x%llxul;\n", (unsigned long long)i->imm);
      break;
   case IR_SPACE_SHARED:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_printf(e->out, " = 0x%llxul;\n",
                    (unsigned long long)(i->imm + (i->sub ? e->dyn_shared_base : 0)));
      break;
   case IR_SPACE_PARAM:   /* an offset in the parameter blob (cvta.param makes it generic) */
   default:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_printf(e->out, " = 0x%llxul;\n", (unsigned long long)i->imm);
      break;
   }
}

static void emit_cvta(emitter *e, const ir_instr *i)
{
   const char *win = i->space == IR_SPACE_SHARED ? "MC_SHARED_WINDOW"
                   : i->space == IR_SPACE_LOCAL ? "MC_LOCAL_WINDOW" : NULL;
   if (i->space == IR_SPACE_PARAM)   /* the offset is the low 32 bits, in the window or not */
      emit_set(e, i, i->sub ? "(%T)(uint)%V" : "(%T)((ulong)(uint)%V + MC_PARAM_WINDOW)", B(i), S(i, 0));
   else if (!win)
      emit_set(e, i, "%V", S(i, 0));
   else
      emit_set(e, i, "(%T)((ulong)%V %s %s)", B(i), S(i, 0), i->sub ? "-" : "+", win);
}

static void emit_copy(emitter *e, const ir_instr *i)
{
   for (unsigned k = 0; k < i->def.ncomp; k++) {
      int c = i->def.ncomp > 1 ? (int)k : -1;
      emit_indent(e);
      emit_val_comp(e, &i->def, c);
      strbuf_puts(e->out, " = ");
      if (i->op == IR_SELECT) {
         emit_val(e, S(i, 0));
         strbuf_puts(e->out, " ? ");
         emit_val_comp(e, S(i, 1), c);
         strbuf_puts(e->out, " : ");
         emit_val_comp(e, S(i, 2), c);
      } else {
         emit_val_comp(e, S(i, 0), c);
      }
      strbuf_puts(e->out, ";\n");
   }
}

/* cp.async / cp.async.bulk (build_async.c): one call of a prelude copy
 * (base.metal mc_cp_*) on the shared offset and the global address, each
 * checked for the copy's alignment in validation mode; the global side is
 * coherent(device) in a kernel that fences at device scope, as its plain
 * accesses are. */
static void emit_addr_arg(emitter *e, const ir_def *a, bool shared, unsigned align)
{
   const char *dev = e->kernel->coherent ? "MC_CDEV" : "device";
   if (shared)
      strbuf_puts(e->out, "mc_smem + (uint)");
   else
      strbuf_printf(e->out, "MC_GADDR(mc_L, %s, ", dev);
   strbuf_puts(e->out, "MC_ALIGNED(mc_L, (ulong)(");
   emit_val(e, a);
   strbuf_printf(e->out, "), %uu)", align);
   if (!shared)
      strbuf_puts(e->out, ")");
}

static void emit_cp_async(emitter *e, const ir_instr *i)
{
   bool out = i->sub != 0, bulk = i->imm == 0;
   const char *sfx = e->kernel->coherent ? "c" : "d";
   emit_indent(e);
   strbuf_printf(e->out, "mc_cp_%s_%s(", bulk ? out ? "bulk_out" : "bulk_in" : "async", sfx);
   emit_addr_arg(e, S(i, 0), !out, bulk ? 16u : (unsigned)i->imm);
   strbuf_puts(e->out, ", ");
   emit_addr_arg(e, S(i, 1), out, bulk ? 16u : (unsigned)i->imm);
   if (!bulk)
      strbuf_printf(e->out, ", %uu", (unsigned)i->imm);
   strbuf_puts(e->out, ", ");
   emit_val(e, S(i, 2));
   strbuf_puts(e->out, ");\n");
}

/* st.bulk: mc_st_bulk(shared pointer, bytes); a generic address is in the
 * shared window (build_async.c accepts only those). */
static void emit_st_bulk(emitter *e, const ir_instr *i)
{
   emit_indent(e);
   strbuf_printf(e->out, "mc_st_bulk(reinterpret_cast<%s ulong *>(mc_smem + (uint)(MC_ALIGNED(mc_L, (ulong)(",
                 e->smem_as);
   emit_val(e, S(i, 0));
   strbuf_printf(e->out, "), 8u)%s)), ", i->sub ? " - MC_SHARED_WINDOW" : "");
   emit_val(e, S(i, 1));
   strbuf_puts(e->out, ");\n");
}

/* cp.async.bulk.tensor (build_async.c, which loaded the map's words): the
 * words, the coordinates, then mc_tma and, for a load, mc_tma_complete
 * (prelude/tma.metal). */
static void emit_tma(emitter *e, const ir_instr *i)
{
   unsigned rank = (unsigned)(i->imm & 0xff), k = 17;
   bool store = i->sub, mask = (i->imm & 0x200) != 0;
   const ir_def *smem = S(i, 0), *mbar = store ? NULL : S(i, k++);
   emit_indent(e);
   if (mask) {   /* .multicast::cluster: bit 0 of the mask is this block */
      strbuf_puts(e->out, "if ((");
      emit_val(e, S(i, k + rank));
      strbuf_puts(e->out, " & 1u) != 0u) {\n");
   } else {
      strbuf_puts(e->out, "{\n");
   }
   e->indent++;
   emit_indent(e);
   strbuf_puts(e->out, "ulong mc_tw[16] = {");
   for (unsigned w = 0; w < 16; w++) {
      strbuf_puts(e->out, w ? ", " : " ");
      emit_val(e, S(i, 1 + w));
   }
   strbuf_puts(e->out, " };\n");
   emit_line(e, "int mc_tc[5] = { 0, 0, 0, 0, 0 };");
   for (unsigned d = 0; d < rank; d++) {
      emit_indent(e);
      strbuf_printf(e->out, "mc_tc[%u] = (int)", d);
      emit_val(e, S(i, k + d));
      strbuf_puts(e->out, ";\n");
   }
   emit_indent(e);
   strbuf_puts(e->out, "uint mc_tb = mc_tma(mc_L, mc_tw, mc_smem, (uint)");
   emit_val(e, smem);
   strbuf_printf(e->out, ", mc_tc, %s);\n", store ? "true" : "false");
   if (!store) {
      emit_indent(e);
      strbuf_puts(e->out, "mc_tma_complete(mc_L, mc_smem, (uint)");
      emit_val(e, mbar);
      strbuf_puts(e->out, ", mc_tb, mc_ctaid, mc_nctaid);\n");
   }
   e->indent--;
   emit_line(e, "}");
}

bool emit_mem_op(emitter *e, ir_instr *i)
{
   switch (i->op) {
   case IR_PARAM: emit_param(e, i); return true;
   case IR_SREG: return emit_sreg(e, i);
   case IR_SYMADDR: emit_symaddr(e, i); return true;
   case IR_COPY: case IR_SELECT: emit_copy(e, i); return true;
   case IR_VEC:
      for (unsigned k = 0; k < i->nsrcs; k++) {
         emit_indent(e);
         emit_val_comp(e, &i->def, (int)k);
         strbuf_puts(e->out, " = ");
         emit_val(e, S(i, k));
         strbuf_puts(e->out, ";\n");
      }
      return true;
   case IR_EXTRACT:
      emit_indent(e);
      emit_val(e, &i->def);
      strbuf_puts(e->out, " = ");
      emit_val_comp(e, S(i, 0), (int)i->imm);
      strbuf_puts(e->out, ";\n");
      return true;
   case IR_CVTA: emit_cvta(e, i); return true;
   case IR_LOAD: emit_load(e, i); return true;
   case IR_STORE: emit_store(e, i); return true;
   case IR_CP_ASYNC: emit_cp_async(e, i); return true;
   case IR_ST_BULK: emit_st_bulk(e, i); return true;
   case IR_TMA: emit_tma(e, i); return true;
   default:
      return false;
   }
}
