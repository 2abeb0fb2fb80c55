/*
 * emit_call.c — calls, printf, assertions, isspacep, and the time and
 * placement registers.
 *
 * A .func is an MSL function (link_calls.c has the scheme): besides its
 * arguments (a .reg value, or the local address of a .param block, as
 * ir_func.args says) it receives what a kernel has from its bindings and
 * built-ins, under the same names, so its body reads exactly like a
 * kernel's:
 *   mc_local  the thread's local memory (the kernel's array: all frames)
 *   mc_smem   the threadgroup's shared memory
 *   mc_param  the kernel's parameter block, where the kernel takes a
 *             parameter's generic address (cvta.param: its window)
 *   mc_L      the launch block; mc_tid mc_ctaid mc_ntid mc_nctaid
 *   mc_clk    the thread's clock counter (by reference)
 *   mc_stop   set when the thread ended inside (exit, trap, assert)
 * A kernel built-in added to msl_emit_kernel that code in a .func needs
 * must be added to ctx_params/ctx_args here too.
 *
 * Clocks: MSL has no clock.  %clock64 and %globaltimer are the host's
 * monotonic nanoseconds at the launch plus a per-thread count of reads, so
 * every read is larger than the thread's previous one; %clock is the low
 * half.  %smid is the block's linear index modulo %nsmid, the device's
 * compute units (its multiProcessorCount); %gridid numbers the launches.
 */
#include "emit_internal.h"

#include <string.h>

static const char *smem_arg(const emitter *e)
{
   if (e->uses_shared)
      return "mc_smem";
   return e->kernel->shared_in_device ? "(MC_SMEM uchar *)nullptr" : "(threadgroup uchar *)nullptr";
}

static const char *local_arg(const emitter *e)
{
   return e->has_local ? "mc_local" : "(thread uchar *)nullptr";
}

const char *emit_callee_name(emitter *e, const ir_func *callee)
{
   /* not ir_foreach_func: a break would leave only its inner loop */
   const ir_module *m = e->f->module;
   uint32_t k = 0;
   while (k < m->funcs.len && m->funcs.data[k] != callee)
      k++;
   const char *n = arena_printf(e->ar, "%s_f%u", e->lib_name, k);
   return n ? n : "mc_out_of_memory";
}

static ir_func *func_named(emitter *e, const char *name)
{
   ir_foreach_func(f, e->f->module)
      if (!strcmp(f->name, name))
         return f;
   ir_die(e->f, "emit: call of %s, which is not in the library", name);
}

/* What `mov r, f` and an initialiser give for f's address: a token in a
 * window no mapping has (compiler.h MC_FUNC_WINDOW), 16 times f's
 * declaration index past it (compiler.c func_token), so that addresses of
 * functions compare, and round-trip through memory, as CUDA's do. */
uint64_t emit_func_token(emitter *e, const char *name)
{
   uint64_t t = ir_func_token(e->f->module->ptx, name);
   if (!t)
      ir_die(e->f, "emit: no declaration of %s", name);
   return t;
}

/* The kernel's barrier state a .func may need (named barriers' counters,
 * bar.red's counts): every function of a kernel whose call tree uses them
 * takes them, so that a barrier in a .func meets the kernel's. */
void emit_barrier_state_params(emitter *e, strbuf *o)
{
   if (e->kernel->uses_nbar)
      strbuf_puts(o, ", threadgroup atomic_uint *mc_nbar_state");
   if (e->kernel->uses_bar_red)
      strbuf_puts(o, ", threadgroup uint *mc_bar_red");
}

void emit_barrier_state_args(emitter *e)
{
   if (e->kernel->uses_nbar)
      strbuf_puts(e->out, ", mc_nbar_state");
   if (e->kernel->uses_bar_red)
      strbuf_puts(e->out, ", mc_bar_red");
}

void emit_func_signature(emitter *e)
{
   ir_func *f = e->f;
   strbuf *o = e->out;
   strbuf_printf(o, "static void %s(", emit_callee_name(e, f));
   if (e->has_local)
      strbuf_puts(o, "thread uchar *mc_local, ");
   if (e->uses_shared)
      strbuf_printf(o, "%s uchar *mc_smem, ", e->smem_as);
   if (e->kernel->uses_param_window)
      strbuf_puts(o, "constant uchar *mc_param, ");
   strbuf_puts(o, "constant mc_launch &mc_L,\n    uint3 mc_tid, uint3 mc_ctaid, uint3 mc_ntid, uint3 mc_nctaid");
   if (e->kernel->uses_clock)
      strbuf_puts(o, ", thread ulong &mc_clk");
   emit_barrier_state_params(e, o);
   if (f->may_stop)
      strbuf_puts(o, ", thread bool &mc_stop");
   if (f->scc || f->needs_top)
      strbuf_puts(o, ", uint mc_top");
   for (uint32_t k = 0; k < f->args.len; k++) {
      const ir_param *a = &f->args.data[k];
      strbuf_printf(o, ",\n    %s a%u", a->reg_bits ? msl_utype(a->reg_bits) : "ulong", k);
      strbuf_printf(o, " /* %s%s */", a->reg_bits ? ".reg " : ".param ", a->name);
   }
   strbuf_puts(o, ")");
}

/* A call of g with the arguments of call i (an indirect call's pointer,
 * its last source, left out); its stop flag, if g may stop, in i's def. */
void emit_direct_call(emitter *e, const ir_instr *i, const ir_func *g)
{
   emit_indent(e);
   strbuf_printf(e->out, "%s(", emit_callee_name(e, g));
   if (e->has_local)
      strbuf_puts(e->out, "mc_local, ");
   if (e->uses_shared)
      strbuf_puts(e->out, "mc_smem, ");
   if (e->kernel->uses_param_window)
      strbuf_puts(e->out, "mc_param, ");
   strbuf_puts(e->out, "mc_L, mc_tid, mc_ctaid, mc_ntid, mc_nctaid");
   if (e->kernel->uses_clock)
      strbuf_puts(e->out, ", mc_clk");
   emit_barrier_state_args(e);
   if (g->may_stop) {
      if (!i->def.bits)
         ir_die(e->f, "emit: call of %s, which may stop, has no stop flag", g->name);
      strbuf_puts(e->out, ", ");
      emit_val(e, &i->def);
   }
   if (g->scc || g->needs_top) {
      strbuf_puts(e->out, ", ");
      emit_rec_top(e);
   }
   for (uint32_t k = 0; k < g->args.len; k++) {
      strbuf_puts(e->out, ", ");
      emit_val(e, S(i, k));
   }
   strbuf_puts(e->out, ");\n");
}

/* A call; through a pointer (build_call.c): the target it holds among the
 * functions it may name, or a trap (an address of no such function). */
static void emit_call(emitter *e, const ir_instr *i)
{
   if (i->def.bits)
      emit_set(e, i, "false");
   if (i->sym) {
      emit_direct_call(e, i, func_named(e, i->sym));
      return;
   }
   const ir_def *ptr = S(i, i->nsrcs - 1);
   for (uint32_t t = 0; t < ir_call_ntargets(i); t++) {
      emit_indent(e);
      strbuf_printf(e->out, "%sif (", t ? "else " : "");
      emit_val(e, ptr);
      strbuf_printf(e->out, " == 0x%llxul) {\n", (unsigned long long)emit_func_token(e, ir_call_target(i, t)));
      e->indent++;
      emit_direct_call(e, i, func_named(e, ir_call_target(i, t)));
      e->indent--;
      emit_line(e, "}");
   }
   emit_indent(e);
   strbuf_puts(e->out, ir_call_ntargets(i) ? "else {\n" : "{\n");
   e->indent++;
   emit_line(e, "mc_trap(mc_L);");
   emit_set(e, i, "true");
   e->indent--;
   emit_line(e, "}");
}

/* The module's .const variables as address ranges [start, end) of the data
 * block, adjacent ones merged: isspacep.const asks whether an address lies
 * in one. */
static void emit_const_test(emitter *e, const ir_def *a)
{
   const ir_module *m = e->f->module;
   bool any = false;
   for (uint32_t k = 0; k < m->globals.len;) {
      const ir_global *g = &m->globals.data[k];
      if (g->space != IR_SPACE_CONST || !g->size) {
         k++;
         continue;
      }
      uint64_t start = g->offset, end = g->offset + g->size;
      for (k++; k < m->globals.len && m->globals.data[k].space == IR_SPACE_CONST; k++)
         end = m->globals.data[k].offset + m->globals.data[k].size;
      strbuf_puts(e->out, any ? " || " : "(");
      strbuf_puts(e->out, "(ulong)");
      emit_val(e, a);
      strbuf_printf(e->out, " - (mc_L.globals + 0x%llxul) < 0x%llxul", (unsigned long long)start,
                    (unsigned long long)(end - start));
      any = true;
   }
   strbuf_puts(e->out, any ? ")" : "false");
}

static void emit_isspacep(emitter *e, const ir_instr *i)
{
   const ir_def *a = S(i, 0);
   emit_indent(e);
   emit_val(e, &i->def);
   strbuf_puts(e->out, " = ");
   switch (i->space) {
   case IR_SPACE_SHARED:
   case IR_SPACE_LOCAL:
   case IR_SPACE_PARAM:
      strbuf_puts(e->out, "((ulong)");
      emit_val(e, a);
      strbuf_printf(e->out, " - %s < MC_WINDOW_SIZE)", i->space == IR_SPACE_SHARED ? "MC_SHARED_WINDOW"
                    : i->space == IR_SPACE_LOCAL ? "MC_LOCAL_WINDOW" : "MC_PARAM_WINDOW");
      break;
   case IR_SPACE_CONST:
      emit_const_test(e, a);
      break;
   default:
      /* global: outside the windows and the .const variables (the .param
       * window lies in the global one, PTX ISA isspacep) */
      strbuf_puts(e->out, "!((ulong)");
      emit_val(e, a);
      strbuf_puts(e->out, " - MC_SHARED_WINDOW < MC_WINDOW_SIZE || (ulong)");
      emit_val(e, a);
      strbuf_puts(e->out, " - MC_LOCAL_WINDOW < MC_WINDOW_SIZE || ");
      emit_const_test(e, a);
      strbuf_puts(e->out, ")");
      break;
   }
   strbuf_puts(e->out, ";\n");
}

static bool emit_time_sreg(emitter *e, const ir_instr *i)
{
   switch (i->sub) {
   case IR_SREG_CLOCK: emit_set(e, i, "(uint)mc_clock(mc_L, mc_clk)"); return true;
   case IR_SREG_CLOCK64:
   case IR_SREG_GLOBALTIMER: emit_set(e, i, "mc_clock(mc_L, mc_clk)"); return true;
   case IR_SREG_SMID:
      emit_set(e, i, "(mc_ctaid.x + mc_nctaid.x * (mc_ctaid.y + mc_nctaid.y * mc_ctaid.z)) %% mc_L.nsm");
      return true;
   case IR_SREG_NSMID: emit_set(e, i, "mc_L.nsm"); return true;
   case IR_SREG_GRIDID: emit_set(e, i, "mc_L.gridid"); return true;
   default: return false;
   }
}

bool emit_call_op(emitter *e, ir_instr *i)
{
   switch (i->op) {
   case IR_CALL:
      emit_call(e, i);
      return true;
   case IR_ARG:
      emit_set(e, i, "a%u", (unsigned)i->imm);
      return true;
   case IR_VPRINTF:
      emit_set(e, i, "(uint)mc_vprintf(mc_L, %s, %s, %V, %V)", smem_arg(e), local_arg(e), S(i, 0), S(i, 1));
      return true;
   case IR_ASSERTFAIL:
      emit_stmt(e, "mc_assertfail(mc_L, %s, %s, %V, %V, %V, %V, mc_ctaid, mc_tid);", smem_arg(e), local_arg(e),
                S(i, 0), S(i, 1), S(i, 2), S(i, 3));
      return true;
   case IR_MALLOC:   /* the device heap (prelude heap.metal) */
      if (i->nsrcs == 2)
         emit_set(e, i, "mc_aligned_malloc(mc_L, %V, %V)", S(i, 0), S(i, 1));
      else
         emit_set(e, i, "mc_malloc(mc_L, %V)", S(i, 0));
      return true;
   case IR_FREE:
      emit_stmt(e, "mc_free(mc_L, %V);", S(i, 0));
      return true;
   case IR_ISSPACEP:
      emit_isspacep(e, i);
      return true;
   case IR_SREG:
      return emit_time_sreg(e, i);
   default:
      return false;
   }
}
