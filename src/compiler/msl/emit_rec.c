/*
 * emit_rec.c — recursive functions as step functions over an explicit
 * stack of frames.
 *
 * Metal has no recursion (metal-semantics §1.2).  link_calls.c finds the
 * recursive components of the call graph (ir_func.scc); each function of
 * one becomes two MSL functions:
 *   - a step function, NAME_step(context, thread uint &mc_sp), that runs
 *     one activation, whose frame is at mc_sp in the thread's local
 *     memory, until it calls a function of its own component (it saves the
 *     values live after the call in its frame, pushes the callee's frame
 *     and returns 1), returns (0), or ends the thread (2: exit, trap,
 *     stack overflow);
 *   - a driver, NAME, with the signature an ordinary call of the function
 *     has (plus mc_top, where the stack's free part starts): it pushes the
 *     first frame and runs the step function of the frame on top until that
 *     frame returns, popping a frame at each return.
 * A step function re-entered for a frame whose call returned continues
 * just after that call: the frame's state is the call's number (0: start),
 * and the structured body is emitted so that, while mc_rs (the state being
 * resumed) is not 0, every construct on the way to the call is entered
 * (an IF takes the branch that holds it) and everything else is skipped
 * (`if (mc_rs == 0u)`); at the call the saved values are restored and
 * mc_rs becomes 0.  No goto (MSL has none), no case label inside the body
 * (the structured code's blocks are switches of their own).
 *
 * A frame (16-byte aligned): uint the caller's frame (the driver's first
 * frame: itself), ushort the function's number in its component, ushort
 * the state; its arguments (ir_func.args: a .param block's local address
 * or a .reg value up to 32 bits in 4 bytes, wider ones in 8); the saved values
 * (every value live after some call of the component, its own slot, but
 * for the arguments' copies, which the frame has already); the
 * function's .local frame (ir_func.local_bytes: its .local variables and
 * its calls' .param blocks; local SYMADDRs are relative to it).  The stack
 * is the part of mc_local after every fixed frame (link_calls.c:
 * kernel->stack_base, stack_bytes bytes, CUDA's cudaLimitStackSize); a
 * push beyond it stops the thread with MC_STATUS_STACK.
 *
 * Function pointers into the component (an indirect call whose targets
 * include functions of its own component) push the target chosen at run
 * time; targets elsewhere are ordinary calls.
 */
#include "emit_internal.h"

#include <stdio.h>
#include <string.h>

enum { FRAME_ARGS = 8 };

/* An argument's slot: a .param block's address is a local address (32
 * bits), a .reg value of up to 32 bits takes 4 bytes, a wider one 8. */
static uint32_t arg_size(const ir_param *a) { return a->reg_bits > 32 ? 8u : 4u; }
static const char *arg_type(const ir_param *a) { return a->reg_bits > 32 ? "ulong" : "uint"; }

static uint32_t arg_off(const ir_func *f, uint32_t k)
{
   uint32_t off = FRAME_ARGS;
   for (uint32_t j = 0; j <= k; j++) {
      off = (uint32_t)ALIGN_UP(off, arg_size(&f->args.data[j]));
      if (j < k)
         off += arg_size(&f->args.data[j]);
   }
   return off;
}

static uint32_t args_end(const ir_func *f)
{
   return f->args.len ? arg_off(f, f->args.len - 1) + arg_size(&f->args.data[f->args.len - 1]) : FRAME_ARGS;
}

struct rec_plan {
   emit_liveness lv;          /* the calls into the component, the values live after each */
   uint32_t *slot;            /* by def index: where its saved value is in the frame */
   uint32_t local_off;        /* the .local frame */
   uint32_t frame;            /* bytes */
};

static ir_func *func_named(const ir_module *m, const char *name)
{
   for (uint32_t k = 0; k < m->funcs.len; k++)
      if (!strcmp(m->funcs.data[k]->name, name))
         return m->funcs.data[k];
   return NULL;
}

/* i calls a function of its own function's component (directly, or as a
 * possible target of a pointer). */
static bool is_rec_call(const ir_instr *i)
{
   if (i->op != IR_CALL)
      return false;
   const ir_func *f = i->block->func;
   for (uint32_t t = 0; f->scc && t < ir_call_ntargets(i); t++) {
      const ir_func *c = func_named(f->module, ir_call_target(i, t));
      if (c && c->scc == f->scc)
         return true;
   }
   return false;
}

/* Is d a load from a .param argument block that the function never
 * stores into?  Then it is loaded again when resumed (the block is in the
 * caller's frame, untouched while the caller waits), not saved. */
static bool reloadable(const ir_def *d)
{
   const ir_instr *ld = d->parent;
   if (ld->op != IR_LOAD || ld->space != IR_SPACE_LOCAL || ld->guard.def || d->ncomp != 1)
      return false;
   const ir_instr *arg = ld->srcs[0].def->parent;
   if (arg->op != IR_ARG || ld->block->func->args.data[arg->imm].reg_bits)
      return false;
   /* the block's address is only ever loaded from (it does not escape) */
   ir_foreach_block(b, ld->block->func)
      ir_foreach_instr(i, b)
         for (uint32_t k = 0; k < i->nsrcs; k++)
            if (i->srcs[k].def && i->srcs[k].def->parent->op == IR_ARG && i->srcs[k].def->parent->imm == arg->imm &&
                !(i->op == IR_LOAD && k == 0))
               return false;
   return true;
}

/* A value live across a call that needs a slot: not a copy of an
 * argument (the frame has those), not a call's stop flag, not a load from
 * an argument block. */
static bool saved(const ir_def *d)
{
   return d->parent->op != IR_ARG && !is_rec_call(d->parent) && !reloadable(d);
}

static uint32_t comp_bytes(const ir_def *d) { return d->bits == 1 ? 1u : d->bits / 8u; }

rec_plan *emit_rec_plan(ir_func *f, arena *ar)
{
   rec_plan *p = arena_alloc(ar, sizeof(*p));
   if (!p || !emit_liveness_compute(&p->lv, f, ar, is_rec_call))
      return NULL;
   p->slot = arena_alloc(ar, (p->lv.ndefs + 1) * sizeof(*p->slot));
   if (!p->slot)
      return NULL;
   uint32_t off = args_end(f);
   /* largest first: every slot aligned to its size */
   for (uint32_t size = 8; size >= 1; size /= 2) {
      off = (uint32_t)ALIGN_UP(off, size);
      for (uint32_t k = 0; k < p->lv.ndefs; k++) {
         const ir_def *d = p->lv.defs[k];
         if (!d || !emit_live_has(p->lv.all, k) || comp_bytes(d) != size || !saved(d))
            continue;
         p->slot[k] = off;
         off += size * d->ncomp;
      }
   }
   p->local_off = (uint32_t)ALIGN_UP(off, 16);
   p->frame = p->local_off + (uint32_t)ALIGN_UP(f->local_bytes, 16);
   f->rec_frame = p->frame;
   return p;
}

/* The function's number in its component: its place among the
 * component's functions (contiguous in m->funcs). */
static uint32_t rec_id(const ir_func *f)
{
   const ir_module *m = f->module;
   uint32_t k = 0, first = UINT32_MAX;
   for (; k < m->funcs.len && m->funcs.data[k] != f; k++)
      if (m->funcs.data[k]->scc == f->scc && first == UINT32_MAX)
         first = k;
   return k - (first == UINT32_MAX ? k : first);
}

static void step_signature(emitter *e, const ir_func *g, bool proto)
{
   strbuf *o = e->out;
   strbuf_printf(o, "static uint %s_step(thread uchar *mc_local, ", emit_callee_name(e, g));
   if (e->uses_shared)
      strbuf_printf(o, "%s uchar *mc_smem, ", e->smem_as);
   if (e->kernel->uses_param_window)
      strbuf_puts(o, "constant uchar *mc_param, ");
   strbuf_puts(o, "constant mc_launch &mc_L, uint3 mc_tid, uint3 mc_ctaid, uint3 mc_ntid, uint3 mc_nctaid");
   if (e->kernel->uses_clock)
      strbuf_puts(o, ", thread ulong &mc_clk");
   emit_barrier_state_params(e, o);
   strbuf_puts(o, proto ? ", thread uint &mc_sp);\n" : ", thread uint &mc_sp)\n{\n");
}

static void context_args(emitter *e)
{
   strbuf_puts(e->out, e->uses_shared ? "mc_local, mc_smem, " : "mc_local, ");
   if (e->kernel->uses_param_window)
      strbuf_puts(e->out, "mc_param, ");
   strbuf_puts(e->out, "mc_L, mc_tid, mc_ctaid, mc_ntid, mc_nctaid");
   if (e->kernel->uses_clock)
      strbuf_puts(e->out, ", mc_clk");
   emit_barrier_state_args(e);
}

/* The first function of a component declares every step function of it
 * and computes their frames (a push needs the callee's size). */
bool emit_rec_prologue(emitter *e)
{
   const ir_module *m = e->f->module;
   uint32_t k = 0;
   while (m->funcs.data[k] != e->f)
      k++;
   if (k && m->funcs.data[k - 1]->scc == e->f->scc)
      return true;
   for (uint32_t j = k; j < m->funcs.len && m->funcs.data[j]->scc == e->f->scc; j++) {
      if (!emit_rec_plan(m->funcs.data[j], e->ar))
         return ir_error(e->f->module, 0, "out of memory");
      step_signature(e, m->funcs.data[j], true);
   }
   return true;
}

void emit_rec_begin(emitter *e) { step_signature(e, e->f, false); }

/* After the declarations: the state to resume and the arguments. */
void emit_rec_entry(emitter *e)
{
   const ir_func *f = e->f;
   emit_line(e, "uint mc_rs = *reinterpret_cast<thread ushort *>(mc_local + mc_sp + 6u);");
   for (uint32_t k = 0; k < f->args.len; k++) {
      const ir_param *a = &f->args.data[k];
      const char *t = a->reg_bits ? msl_utype(a->reg_bits) : "ulong";
      emit_line(e, "%s a%u = (%s)*reinterpret_cast<thread %s *>(mc_local + mc_sp + %uu);", t, k, t, arg_type(a),
                arg_off(f, k));
   }
}

/* Does the construct n (not its siblings) hold a call into the component? */
bool emit_rec_contains(const ir_cf *n)
{
   switch (n->kind) {
   case IR_CF_CODE:
      ir_foreach_instr(i, n->block)
         if (is_rec_call(i))
            return true;
      return false;
   case IR_CF_IF:
      return emit_rec_list_contains(n->then_cf) || emit_rec_list_contains(n->else_cf);
   case IR_CF_SEQ:
   case IR_CF_LOOP:
   case IR_CF_BLOCK:
      return emit_rec_list_contains(n->first);
   default:
      return false;
   }
}

bool emit_rec_list_contains(const ir_cf *n)
{
   for (; n; n = n->next)
      if (emit_rec_contains(n))
         return true;
   return false;
}

bool emit_rec_is_point(const emitter *e, const ir_instr *i)
{
   for (uint32_t k = 0; k < e->rec->lv.n; k++)
      if (e->rec->lv.at[k] == i)
         return true;
   return false;
}

static uint32_t point_id(const emitter *e, const ir_instr *i)
{
   for (uint32_t k = 0; k < e->rec->lv.n; k++)
      if (e->rec->lv.at[k] == i)
         return k + 1;
   ir_die(e->f, "emit: call %u has no resume point", i->index);
}

/* An IF holding a resume point: while resuming, the branch that holds it. */
void emit_rec_if_cond(emitter *e, const ir_cf *n)
{
   strbuf_puts(e->out, "mc_rs != 0u ? (false");
   for (uint32_t k = 0; k < e->rec->lv.n; k++)
      for (const ir_cf *t = n->then_cf; t; t = t->next)
         if (emit_rec_holds(t, e->rec->lv.at[k])) {
            strbuf_printf(e->out, " || mc_rs == %uu", k + 1);
            break;
         }
   strbuf_puts(e->out, ") : (");
   emit_val(e, n->cond.def);
   strbuf_puts(e->out, ")");
}

bool emit_rec_holds(const ir_cf *n, const ir_instr *at)
{
   switch (n->kind) {
   case IR_CF_CODE:
      return at->block == n->block;
   case IR_CF_IF:
      for (const ir_cf *t = n->then_cf; t; t = t->next)
         if (emit_rec_holds(t, at))
            return true;
      for (const ir_cf *t = n->else_cf; t; t = t->next)
         if (emit_rec_holds(t, at))
            return true;
      return false;
   case IR_CF_SEQ:
   case IR_CF_LOOP:
   case IR_CF_BLOCK:
      for (const ir_cf *t = n->first; t; t = t->next)
         if (emit_rec_holds(t, at))
            return true;
      return false;
   default:
      return false;
   }
}

static void frame_ref(emitter *e, const char *type, const char *base, uint32_t off)
{
   strbuf_printf(e->out, "*reinterpret_cast<thread %s *>(mc_local + %s + %uu)", type, base, off);
}

/* Saves (or restores) the values live after point id. */
static void copy_live(emitter *e, uint32_t id, bool restore)
{
   const rec_plan *p = e->rec;
   const uint64_t *s = p->lv.live[id - 1];
   for (uint32_t k = 0; k < p->lv.ndefs; k++) {
      const ir_def *d = p->lv.defs[k];
      if (!d || !emit_live_has(s, k) || is_rec_call(d->parent))
         continue;   /* a stop flag: false when resumed */
      if (d->parent->op == IR_ARG) {   /* in the frame already: its argument */
         if (restore)
            emit_line(e, "v%u = a%u;", d->index, (unsigned)d->parent->imm);
         continue;
      }
      if (reloadable(d)) {   /* loaded again from its argument block */
         if (restore) {
            const ir_def *a = d->parent->srcs[0].def;
            emit_line(e, "v%u = a%u;", a->index, (unsigned)a->parent->imm);
            emit_instr(e, d->parent);
         }
         continue;
      }
      for (unsigned c = 0; c < d->ncomp; c++) {
         emit_indent(e);
         if (restore) {
            emit_lval_comp(e, d, d->ncomp > 1 ? (int)c : -1);
            strbuf_puts(e->out, " = ");
            frame_ref(e, msl_utype(d->bits), "mc_sp", p->slot[k] + c * comp_bytes(d));
         } else {
            frame_ref(e, msl_utype(d->bits), "mc_sp", p->slot[k] + c * comp_bytes(d));
            strbuf_puts(e->out, " = ");
            emit_val_comp(e, d, d->ncomp > 1 ? (int)c : -1);
         }
         strbuf_puts(e->out, ";\n");
      }
   }
}

/* The push of a frame of callee g for call i, and the return to the
 * driver. */
static void emit_push(emitter *e, const ir_instr *i, const ir_func *g, uint32_t id)
{
   emit_line(e, "{");
   e->indent++;
   copy_live(e, id, false);
   emit_line(e, "*reinterpret_cast<thread ushort *>(mc_local + mc_sp + 6u) = %uu;", id);
   emit_line(e, "uint mc_c = mc_sp + %uu;", e->rec->frame);
   emit_line(e, "if (mc_c + %uu > %uu) { mc_stack_overflow(mc_L); return 2u; }", g->rec_frame,
             e->kernel->local_total);
   emit_line(e, "*reinterpret_cast<thread uint *>(mc_local + mc_c) = mc_sp;");
   emit_line(e, "*reinterpret_cast<thread ushort *>(mc_local + mc_c + 4u) = %uu;", rec_id(g));
   emit_line(e, "*reinterpret_cast<thread ushort *>(mc_local + mc_c + 6u) = 0u;");
   for (uint32_t k = 0; k < g->args.len; k++) {
      emit_indent(e);
      frame_ref(e, arg_type(&g->args.data[k]), "mc_c", arg_off(g, k));
      strbuf_printf(e->out, " = (%s)", arg_type(&g->args.data[k]));
      emit_val(e, S(i, k));
      strbuf_puts(e->out, ";\n");
   }
   emit_line(e, "mc_sp = mc_c;");
   emit_line(e, "return 1u;");
   e->indent--;
   emit_line(e, "}");
}

/* A call into the component, inside `if (mc_rs == 0u)`: the push (for a
 * pointer, of the target it holds; targets outside the component are
 * ordinary calls). */
void emit_rec_push(emitter *e, const ir_instr *i)
{
   uint32_t id = point_id(e, i);
   const ir_module *m = e->f->module;
   if (i->sym) {
      emit_push(e, i, func_named(m, i->sym), id);
      return;
   }
   if (i->def.bits)
      emit_set(e, i, "false");
   const ir_def *ptr = S(i, i->nsrcs - 1);
   for (uint32_t t = 0; t < ir_call_ntargets(i); t++) {
      const ir_func *g = func_named(m, ir_call_target(i, t));
      emit_indent(e);
      strbuf_printf(e->out, "%sif (", t ? "else " : "");
      emit_val(e, ptr);
      strbuf_printf(e->out, " == 0x%llxul)\n", (unsigned long long)emit_func_token(e, g->name));
      if (g->scc == e->f->scc) {
         emit_push(e, i, g, id);
      } else {
         emit_line(e, "{");
         e->indent++;
         emit_direct_call(e, i, g);
         e->indent--;
         emit_line(e, "}");
      }
   }
   emit_line(e, "else { mc_trap(mc_L); return 2u; }");
}

/* The resume point after call i: its saved values back. */
void emit_rec_resume(emitter *e, const ir_instr *i)
{
   uint32_t id = point_id(e, i);
   emit_line(e, "if (mc_rs == %uu) {", id);
   e->indent++;
   copy_live(e, id, true);
   if (i->def.bits)
      emit_set(e, i, "false");
   emit_line(e, "mc_rs = 0u;");
   e->indent--;
   emit_line(e, "}");
}

/* The driver: the function as its outside callers call it. */
void emit_rec_driver(emitter *e)
{
   const ir_func *f = e->f;
   const ir_module *m = f->module;
   emit_func_signature(e);
   strbuf_puts(e->out, "\n{\n");
   e->indent = 1;
   emit_line(e, "if (mc_top + %uu > %uu) { mc_stack_overflow(mc_L); mc_stop = true; return; }", f->rec_frame,
             e->kernel->local_total);
   emit_line(e, "*reinterpret_cast<thread uint *>(mc_local + mc_top) = mc_top;");
   emit_line(e, "*reinterpret_cast<thread ushort *>(mc_local + mc_top + 4u) = %uu;", rec_id(f));
   emit_line(e, "*reinterpret_cast<thread ushort *>(mc_local + mc_top + 6u) = 0u;");
   for (uint32_t k = 0; k < f->args.len; k++)
      emit_line(e, "*reinterpret_cast<thread %s *>(mc_local + mc_top + %uu) = (%s)a%u;", arg_type(&f->args.data[k]),
                arg_off(f, k), arg_type(&f->args.data[k]), k);
   emit_line(e, "uint mc_sp = mc_top;");
   emit_line(e, "while (true) {");
   e->indent++;
   emit_line(e, "uint mc_r = 2u;");
   emit_line(e, "switch (*reinterpret_cast<thread ushort *>(mc_local + mc_sp + 4u)) {");
   for (uint32_t k = 0; k < m->funcs.len; k++) {
      const ir_func *g = m->funcs.data[k];
      if (g->scc != f->scc)
         continue;
      emit_indent(e);
      strbuf_printf(e->out, "case %uu: mc_r = %s_step(", rec_id(g), emit_callee_name(e, g));
      context_args(e);
      strbuf_puts(e->out, ", mc_sp); break;\n");
   }
   emit_line(e, "default: break;");
   emit_line(e, "}");
   emit_line(e, "if (mc_r == 1u) continue;");
   emit_line(e, "if (mc_r == 2u) { mc_stop = true; return; }");
   emit_line(e, "if (mc_sp == mc_top) return;");
   emit_line(e, "mc_sp = *reinterpret_cast<thread uint *>(mc_local + mc_sp);");
   e->indent--;
   emit_line(e, "}");
   strbuf_puts(e->out, "}\n\n");
}

/* A local SYMADDR of a recursive function: in the frame on top. */
void emit_rec_symaddr(emitter *e, const ir_instr *i)
{
   emit_set(e, i, "(ulong)(mc_sp + %uu)", e->rec->local_off + (uint32_t)i->imm);
}

/* Where the stack's free part starts, for a call from e's function. */
void emit_rec_top(emitter *e)
{
   if (e->rec)
      strbuf_printf(e->out, "mc_sp + %uu", e->rec->frame);
   else if (e->f->is_kernel)
      strbuf_printf(e->out, "%uu", e->kernel->stack_base);
   else
      strbuf_puts(e->out, "mc_top");
}
