/*
 * emit_xrange.c — the threads of a row that pass a kernel's opening test,
 * for the software device's loop over the threads.
 *
 * The most common CUDA kernel opens with `i = blockIdx.x * blockDim.x +
 * threadIdx.x; if (i >= n) return;` (a 2-D one with `if (i < 1 || j < 1
 * || i >= n - 1 || j >= n - 1) return;`).  The software device runs a
 * kernel whose threads never wait for one another as a loop over a row's
 * threads with the kernel inlined (src/metal/soft/msl_scan.c), which the
 * host compiler vectorises; the test then makes every store of the body a
 * masked store, microcoded on AMD CPUs without AVX-512 (about 24 cycles).
 * Yet which threads pass is known before the loop.  The test is a
 * conjunction, for the threads that go on, of leaves (ORs of a test that
 * returns when true, ANDs of one that returns when false, NOTs): each a
 * 32- or 64-bit integer setp (`size_t i = ...`: tid.x converted to 64
 * bits), either of (U + tid.x) against N (an x leaf) or of values without
 * tid.x (a row leaf), where U, N and a row leaf's operands are computed
 * from parameters, block indices and sizes, tid.y, tid.z, constants and
 * integer arithmetic.  An x leaf passes where U + x (mod 2^32 or 2^64)
 * lies in an interval: at most two runs of x; a row leaf passes a whole
 * row or none of it.  With at most three x leaves a row's passing x are
 * at most four runs — the same for every row of the threadgroup unless an
 * x leaf reads tid.y or tid.z.
 *
 * Recognised: the entry block of a kernel whose threads never wait for one
 * another (emit.c MC_THREADS_INDEPENDENT), with nothing in it but pure
 * operations, ending in a branch on such a test, one side of which is a
 * block that only returns.  The slice of the entry block computing the
 * leaves' operands is written out again in two functions: mc_xrange_NAME,
 * setting its first argument to the runs of the x leaves (the prelude's
 * mc_xtest_runs/64, mc_xrange_and),
 * which the entry calls per threadgroup (per row where they read tid.y or
 * tid.z: a row is as short as 32 threads, so computing the runs per row
 * would cost about as much as the row itself), and mc_xrow_NAME, whether
 * a row passes the row leaves.  The kernel says
 * MC_THREADS_X_RANGE(mc_xrange_NAME, mc_xrow_NAME, PER_ROW, mc_param,
 * mc_L), and its test is written MC_XTEST(c, v): the test c everywhere,
 * but v — the value c has for the threads that go on — where the software
 * device's loop runs only those (base.metal).
 */
#include "emit_internal.h"

#include <stdio.h>
#include <string.h>

enum { MAX_X_LEAVES = 3 };   /* three x leaves: at most four runs (mc_xrange) */

/* The operations a slice may hold: pure integer arithmetic on values a
 * row of threads shares. */
static bool slice_op(const ir_instr *i)
{
   switch (i->op) {
   case IR_CONST:
   case IR_PARAM:
      return true;
   case IR_SREG:
      return i->sub == IR_SREG_TID_Y || i->sub == IR_SREG_TID_Z ||
             (i->sub >= IR_SREG_NTID_X && i->sub <= IR_SREG_NCTAID_Z);
   case IR_MUL:
   case IR_MAD:
      return (i->sub == IR_MUL_LO || i->sub == IR_MUL_WIDE) && i->def.bits <= 64 && !ptx_type_is_float(i->type);
   case IR_CVT:   /* between integers, no saturation */
      return !ptx_type_is_float(i->type) && !ptx_type_is_float(i->type2) && !(i->flags & IR_F_SAT) &&
             i->def.bits <= 64;
   case IR_ADD:
   case IR_SUB:
   case IR_AND:
   case IR_OR:
   case IR_XOR:
   case IR_SHL:
   case IR_SHR:
      return i->def.bits <= 64 && i->def.bits > 1 && !ptx_type_is_float(i->type);
   default:
      return false;
   }
}

/* Whether d is in b0 (or a constant) and computed unconditionally. */
static bool in_entry(const ir_def *d, const ir_block *b0)
{
   const ir_instr *i = d->parent;
   return d->ncomp == 1 && !i->guard.def && (i->op == IR_CONST || i->block == b0);
}

/* Marks d's slice in want[]; false if it holds anything slice_op refuses
 * or is not in_entry (the marks then stand half made: the caller gives
 * the plan up). */
static bool mark_slice(const ir_def *d, const ir_block *b0, bool *want)
{
   const ir_instr *i = d->parent;
   if (want[i->index])
      return true;
   if (!slice_op(i) || !in_entry(d, b0))
      return false;
   want[i->index] = true;
   for (uint32_t k = 0; k < i->nsrcs; k++)
      if (!mark_slice(i->srcs[k].def, b0, want))
         return false;
   return true;
}

/* Whether d (in a marked slice) reads tid.y or tid.z; past a depth of 32
 * it says so without looking further, which only costs time. */
static bool row_varying(const ir_def *d, int depth)
{
   const ir_instr *i = d->parent;
   if (i->op == IR_SREG)
      return i->sub == IR_SREG_TID_Y || i->sub == IR_SREG_TID_Z;
   if (depth == 32)
      return true;
   for (uint32_t k = 0; k < i->nsrcs; k++)
      if (row_varying(i->srcs[k].def, depth + 1))
         return true;
   return false;
}

/* tid.x, or in 64 bits tid.x converted from 32 (`size_t i = ... +
 * threadIdx.x`: below 2^31, so sign and zero extension agree). */
static bool is_tid_x(const ir_def *d, unsigned bits)
{
   const ir_instr *i = d->parent;
   if (bits == 64 && i->op == IR_CVT && !i->guard.def && d->bits == 64 && ptx_type_bits[i->type2] == 32 &&
       !ptx_type_is_float(i->type2))
      return is_tid_x(i->srcs[0].def, 32);
   return d->bits == bits && i->op == IR_SREG && i->sub == IR_SREG_TID_X;
}

/* Whether a = U + tid.x: U in u[0] (tid.x alone: none), or u[0] * u[1]
 * (the 32-bit MAD of blockIdx.x * blockDim.x + threadIdx.x). */
static bool offset_of(const ir_def *a, const ir_def *u[2])
{
   const ir_instr *i = a->parent;
   unsigned bits = a->bits;
   u[0] = u[1] = NULL;
   if ((bits != 32 && bits != 64) || i->guard.def)
      return false;
   if (is_tid_x(a, bits))
      return true;
   if (i->op == IR_ADD && (is_tid_x(i->srcs[0].def, bits) || is_tid_x(i->srcs[1].def, bits))) {
      u[0] = i->srcs[is_tid_x(i->srcs[0].def, bits) ? 1 : 0].def;
      return true;
   }
   if (bits == 32 && i->op == IR_MAD && i->sub == IR_MUL_LO && is_tid_x(i->srcs[2].def, 32)) {
      u[0] = i->srcs[0].def;
      u[1] = i->srcs[1].def;
      return true;
   }
   return false;
}

/* A leaf: a setp of 32- or 64-bit integers in b0 that the threads going
 * on satisfy with value `want`; its operands' slices marked. */
static bool add_leaf(emitter *e, const ir_instr *c, bool want, const ir_block *b0, bool *slice)
{
   ptx_type t = c->type;
   if (e->xr.nleaves == ARRAY_SIZE(e->xr.leaf) || (ptx_type_bits[t] != 32 && ptx_type_bits[t] != 64) || c->sub > IR_CMP_GE ||
       !(ptx_type_is_int(t) || ptx_type_is_bits(t)))
      return false;
   struct emit_xleaf *l = &e->xr.leaf[e->xr.nleaves];
   memset(l, 0, sizeof(*l));
   l->d = &c->def;
   l->bits = (uint8_t)ptx_type_bits[t];
   l->want = want;
   l->cmp = c->sub;
   l->is_signed = ptx_type_is_signed(t);
   if (offset_of(c->srcs[0].def, l->u))
      l->n = c->srcs[1].def;
   else if (offset_of(c->srcs[1].def, l->u))
      l->n = c->srcs[0].def, l->swapped = true;
   if (l->n) {
      uint32_t nx = 0;
      for (uint32_t k = 0; k < e->xr.nleaves; k++)
         nx += e->xr.leaf[k].is_x;
      if (nx == MAX_X_LEAVES)
         return false;
      l->is_x = true;
      for (int k = 0; k < 2; k++)
         if (l->u[k] && !mark_slice(l->u[k], b0, slice))
            return false;
      if (!mark_slice(l->n, b0, slice))
         return false;
      for (int k = 0; k < 2; k++)
         e->xr.x_per_row |= l->u[k] && row_varying(l->u[k], 0);
      e->xr.x_per_row |= row_varying(l->n, 0);
   } else {
      if (!mark_slice(c->srcs[0].def, b0, slice) || !mark_slice(c->srcs[1].def, b0, slice))
         return false;
      slice[c->index] = true;   /* a row leaf: computed in mc_xrow_NAME */
   }
   e->xr.nleaves++;
   return true;
}

/* The leaves of d, a 1-bit value the threads going on have equal to want. */
static bool collect_leaves(emitter *e, const ir_def *d, bool want, const ir_block *b0, bool *slice)
{
   const ir_instr *i = d->parent;
   if (d->bits != 1 || !in_entry(d, b0))
      return false;
   switch (i->op) {
   case IR_NOT:
      return collect_leaves(e, i->srcs[0].def, !want, b0, slice);
   case IR_OR:    /* go on: neither */
   case IR_AND:   /* go on: both */
      return want == (i->op == IR_AND) && collect_leaves(e, i->srcs[0].def, want, b0, slice) &&
             collect_leaves(e, i->srcs[1].def, want, b0, slice);
   case IR_SETP:
      return add_leaf(e, i, want, b0, slice);
   default:
      return false;
   }
}

/* A block that does nothing but return. */
static bool only_returns(const ir_block *b)
{
   return b->first && b->first == b->last && b->first->op == IR_EXIT;
}

bool emit_xrange_plan(emitter *e)
{
   ir_func *f = e->f;
   memset(&e->xr, 0, sizeof(e->xr));
   if (!f->blocks.len)
      return true;
   ir_block *b0 = f->blocks.data[0];
   const ir_instr *br = b0->last;
   if (!br || br->op != IR_CBR || b0->succs.len != 2)
      return true;
   for (const ir_instr *i = b0->first; i != br; i = i->next)
      if (!ir_op_is(i->op, IR_OP_PURE) && i->op != IR_SREG)
         return true;
   bool exit_true = only_returns(b0->succs.data[0]), exit_false = only_returns(b0->succs.data[1]);
   if (exit_true == exit_false)
      return true;
   bool *slice = arena_alloc(e->ar, f->ninstrs + 1);
   if (!slice)
      return ir_error(f->module, 0, "out of memory");
   memset(slice, 0, f->ninstrs + 1);
   const ir_def *cond = br->srcs[0].def;
   bool any_x = false;
   if (collect_leaves(e, cond, exit_false, b0, slice))
      for (uint32_t k = 0; k < e->xr.nleaves; k++)
         any_x |= e->xr.leaf[k].is_x;
   if (!any_x) {   /* nothing recognised, or only rows: the plain loop does as well */
      memset(&e->xr, 0, sizeof(e->xr));
      return true;
   }
   e->xr.cond = cond;
   e->xr.go_on = exit_false;
   e->xr.slice = slice;
   return true;
}

/* `mc_xtest_runs(DST, U, N, ...)` for an x leaf; the prelude takes the
 * comparison as U + x against N, so a swapped one is mirrored. */
static void emit_x_leaf(emitter *e, const struct emit_xleaf *l, const char *dst)
{
   static const uint8_t mirror[] = {[IR_CMP_EQ] = IR_CMP_EQ, [IR_CMP_NE] = IR_CMP_NE, [IR_CMP_LT] = IR_CMP_GT,
                                    [IR_CMP_LE] = IR_CMP_GE, [IR_CMP_GT] = IR_CMP_LT, [IR_CMP_GE] = IR_CMP_LE};
   strbuf *out = e->out;
   bool wide = l->bits == 64;
   strbuf_printf(out, "    mc_xtest_runs%s(%s, ", wide ? "64" : "", dst);
   if (!l->u[0])
      strbuf_puts(out, wide ? "0ul" : "0u");
   for (int k = 0; k < 2 && l->u[k]; k++) {
      strbuf_puts(out, k ? " * " : wide ? "(ulong)(" : "(uint)(");
      emit_val(e, l->u[k]);
   }
   if (l->u[0])
      strbuf_puts(out, ")");
   strbuf_puts(out, ", ");
   emit_val(e, l->n);
   strbuf_printf(out, ", %uu, %s, %s, mc_ntid.x);\n", l->swapped ? mirror[l->cmp] : l->cmp,
                 l->is_signed ? "true" : "false", l->want ? "true" : "false");
}

/* The x leaves' runs into r: each leaf's into mc_t<k> and their
 * intersections into mc_a<k>, the last of them r itself (one leaf: r
 * directly).  Each object is written once and read element by element
 * (the prelude's mc_xrange says why). */
static void emit_x_leaves(emitter *e)
{
   strbuf *out = e->out;
   uint32_t nx = 0;
   for (uint32_t k = 0; k < e->xr.nleaves; k++)
      nx += e->xr.leaf[k].is_x;
   char dst[16], acc[16] = "mc_t0";
   for (uint32_t k = 0, j = 0; k < e->xr.nleaves; k++) {
      if (!e->xr.leaf[k].is_x)
         continue;
      if (nx == 1)
         snprintf(dst, sizeof(dst), "r");
      else
         snprintf(dst, sizeof(dst), "mc_t%u", j);
      if (nx > 1)
         strbuf_printf(out, "    mc_xrange %s;\n", dst);
      emit_x_leaf(e, &e->xr.leaf[k], dst);
      if (j > 0) {   /* acc and this leaf's runs */
         char and_dst[16];
         if (j + 1 == nx)
            snprintf(and_dst, sizeof(and_dst), "r");
         else
            snprintf(and_dst, sizeof(and_dst), "mc_a%u", j);
         if (j + 1 < nx)
            strbuf_printf(out, "    mc_xrange %s;\n", and_dst);
         strbuf_printf(out, "    mc_xrange_and(%s, %s, %s);\n", and_dst, acc, dst);
         snprintf(acc, sizeof(acc), "%s", and_dst);
      }
      j++;
   }
}

/* The head of mc_xrange_NAME or mc_xrow_NAME: the slice of the entry
 * block (the compiler drops what a function does not use). */
static void emit_slice_fn(emitter *e, const char *ret, const char *fn, const char *msl_name, const char *first)
{
   strbuf *out = e->out;
   ir_block *b0 = e->f->blocks.data[0];
   strbuf_printf(out, "inline %s %s_%s(%sconstant uchar *mc_param, constant mc_launch &mc_L, "
                 "uint3 mc_ctaid_d, uint3 mc_ntid, uint3 mc_tid)\n{\n", ret, fn, msl_name, first);
   strbuf_puts(out, "    uint3 mc_ctaid = mc_ctaid_d + uint3(mc_L.base_x, mc_L.base_y, mc_L.base_z);\n"
                    "    uint3 mc_nctaid = uint3(mc_L.grid_x, mc_L.grid_y, mc_L.grid_z);\n"
                    "    (void)mc_ctaid; (void)mc_nctaid; (void)mc_ntid; (void)mc_tid;\n");
   int indent = e->indent;
   e->indent = 1;
   for (ir_instr *i = b0->first; i; i = i->next)
      if (e->xr.slice[i->index])
         emit_declare_value(e, i);
   for (ir_instr *i = b0->first; i; i = i->next)
      if (e->xr.slice[i->index])
         emit_instr(e, i);
   e->indent = indent;
}

/* mc_xrange_NAME, the runs of the x leaves, and mc_xrow_NAME, whether a
 * row passes the row leaves (msl_scan.c gen_x_range_loop calls them). */
void emit_xrange_fn(emitter *e, const char *msl_name)
{
   strbuf *out = e->out;
   strbuf_printf(out, "// the threads of a row that pass %s's opening test (the software device's loop)\n",
                 msl_name);
   emit_slice_fn(e, "void", "mc_xrange", msl_name, "thread mc_xrange &r, ");
   emit_x_leaves(e);
   strbuf_puts(out, "}\n\n");
   emit_slice_fn(e, "bool", "mc_xrow", msl_name, "");
   strbuf_puts(out, "    return true");
   for (uint32_t k = 0; k < e->xr.nleaves; k++) {
      const struct emit_xleaf *l = &e->xr.leaf[k];
      if (l->is_x)
         continue;
      strbuf_puts(out, l->want ? " && " : " && !");
      emit_val(e, l->d);
   }
   strbuf_puts(out, ";\n}\n\n");
}
