/*
 * build_opnd.c — PTX operands → IR values: registers (with PTX's relaxed
 * size rules), immediates converted to the instruction's type, special
 * registers, symbol addresses, address expressions; and destination writes
 * with guards.
 *
 * Size rules (PTX ISA 9.0 §6.4 "Operand size exceeding instruction type
 * size"): a source register wider than the instruction type is truncated;
 * for ld/st/cvt a destination register wider than the type receives the
 * value zero- or sign-extended according to the type.  A narrower register
 * is extended the same way.
 */
#include "build.h"

#include <string.h>

void bld_set_src(ir_instr *i, uint32_t k, ir_def *d) { ir_src_set(&i->srcs[k], i, d); }

ir_def *bld_const(build_ctx *c, uint8_t bits, uint64_t value)
{
   ir_instr *i = bld_emit(c, IR_CONST, 0, bits, 1);
   if (!i)
      return NULL;
   i->imm = bits >= 64 ? value : value & ((1ull << bits) - 1);
   i->type = bits == 1 ? PTX_T_PRED : bits == 8 ? PTX_T_B8 : bits == 16 ? PTX_T_B16
           : bits == 32 ? PTX_T_B32 : PTX_T_B64;
   return &i->def;
}

bool bld_unsupported(build_ctx *c, const char *what)
{
   return ir_error(c->m, c->line, "%s is not supported yet", what);
}

ir_def *bld_resize(build_ctx *c, ir_def *d, uint8_t bits, bool is_signed)
{
   if (!d || d->bits == bits)
      return d;
   if (d->bits == 1 || bits == 1) {
      ir_error(c->m, c->line, "predicate used where a %u-bit value is required (or the reverse)", bits);
      return NULL;
   }
   ir_instr *i = bld_emit(c, IR_CVT, 1, bits, 1);
   if (!i)
      return NULL;
   static const ptx_type u[] = { [8] = PTX_T_U8, [16] = PTX_T_U16, [32] = PTX_T_U32, [64] = PTX_T_U64 };
   static const ptx_type s[] = { [8] = PTX_T_S8, [16] = PTX_T_S16, [32] = PTX_T_S32, [64] = PTX_T_S64 };
   i->type = is_signed ? s[bits] : u[bits];
   i->type2 = is_signed ? s[d->bits] : u[d->bits];
   bld_set_src(i, 0, d);
   return &i->def;
}

static bool sreg_from_name(const char *name, int comp, ir_sreg *out)
{
   static const struct { const char *name; ir_sreg base; bool has_comp; } sregs[] = {
      { "%tid", IR_SREG_TID_X, true }, { "%ntid", IR_SREG_NTID_X, true },
      { "%ctaid", IR_SREG_CTAID_X, true }, { "%nctaid", IR_SREG_NCTAID_X, true },
      { "%laneid", IR_SREG_LANEID, false }, { "%warpid", IR_SREG_WARPID, false },
      { "%nwarpid", IR_SREG_NWARPID, false }, { "WARP_SZ", IR_SREG_WARPSZ, false },
      { "%clock", IR_SREG_CLOCK, false }, { "%clock64", IR_SREG_CLOCK64, false },
      { "%globaltimer", IR_SREG_GLOBALTIMER, false }, { "%smid", IR_SREG_SMID, false },
      { "%nsmid", IR_SREG_NSMID, false }, { "%gridid", IR_SREG_GRIDID, false },
      /* %envreg1:%envreg2 is the address of the grid workspace of a
       * cooperative launch (0 otherwise): cooperative_groups::this_grid()
       * reads it for grid.sync() and is_valid().  The other envregs are
       * driver-defined and unknown: refused below. */
      { "%envreg1", IR_SREG_ENVREG1, false }, { "%envreg2", IR_SREG_ENVREG2, false },
   };
   for (size_t k = 0; k < ARRAY_SIZE(sregs); k++) {
      if (strcmp(name, sregs[k].name))
         continue;
      if (sregs[k].has_comp && (comp < 0 || comp > 2))
         return false;
      *out = (ir_sreg)(sregs[k].base + (sregs[k].has_comp ? comp : 0));
      return true;
   }
   return false;
}

static ir_def *lane_op(build_ctx *c, ir_op op, ir_def *a, ir_def *b)
{
   ir_instr *i = a && (b || op == IR_NOT) ? bld_emit(c, op, b ? 2 : 1, 32, 1) : NULL;
   if (!i)
      return NULL;
   i->type = op == IR_SUB ? PTX_T_U32 : PTX_T_B32;
   bld_set_src(i, 0, a);
   if (b)
      bld_set_src(i, 1, b);
   return &i->def;
}

/* %lanemask_{eq,le,lt,ge,gt}: the lanes of the warp equal to, below or
 * above this one, computed from %laneid (PTX ISA 9.0 §10.13). */
static ir_def *lanemask_value(build_ctx *c, const char *which)
{
   ir_instr *lane = bld_emit(c, IR_SREG, 0, 32, 1);
   if (!lane)
      return NULL;
   lane->sub = IR_SREG_LANEID;
   lane->type = PTX_T_U32;
   ir_def *eq = lane_op(c, IR_SHL, bld_const(c, 32, 1), &lane->def);
   if (!strcmp(which, "eq"))
      return eq;
   ir_def *lt = lane_op(c, IR_SUB, eq, bld_const(c, 32, 1));
   ir_def *le = lane_op(c, IR_OR, lt, eq);
   if (!strcmp(which, "lt"))
      return lt;
   if (!strcmp(which, "le"))
      return le;
   return lane_op(c, IR_NOT, !strcmp(which, "ge") ? lt : le, NULL);
}

/* The cluster registers (PTX ISA 9.0 §10.15-10.21).  Every cluster here is
 * one block: a kernel whose .reqnctapercluster asks for more is refused
 * (build.c), so is a launch that does (driver/launch_ex.c).  A cluster's
 * id and count are then the block's, the block's place in its cluster 0
 * and the cluster's size 1.  *known is false for any other register. */
static ir_def *cluster_sreg(build_ctx *c, const char *name, int comp, bool *known)
{
   static const struct { const char *name; int sreg; uint32_t value; } regs[] = {
      { "%clusterid", IR_SREG_CTAID_X, 0 }, { "%nclusterid", IR_SREG_NCTAID_X, 0 },
      { "%cluster_ctaid", -1, 0 }, { "%cluster_nctaid", -1, 1 },
      { "%cluster_ctarank", -2, 0 }, { "%cluster_nctarank", -2, 1 },
   };
   *known = false;
   for (size_t k = 0; k < ARRAY_SIZE(regs); k++) {
      if (strcmp(name, regs[k].name))
         continue;
      bool vector = regs[k].sreg != -2;
      if (vector != (comp >= 0 && comp <= 2))
         return NULL;
      *known = true;
      if (regs[k].sreg < 0)
         return bld_const(c, 32, regs[k].value);
      ir_instr *i = bld_emit(c, IR_SREG, 0, 32, 1);
      if (!i)
         return NULL;
      i->sub = (uint8_t)(regs[k].sreg + comp);
      i->type = PTX_T_U32;
      return &i->def;
   }
   return NULL;
}

static ir_def *sreg_value(build_ctx *c, const ptx_operand *o)
{
   ir_sreg sr;
   bool cluster;
   ir_def *cv = cluster_sreg(c, o->u.reg, o->comp, &cluster);
   if (cluster)
      return cv;
   static const char lm[] = "%lanemask_";
   if (!strncmp(o->u.reg, lm, sizeof(lm) - 1) && o->comp < 0) {
      const char *w = o->u.reg + sizeof(lm) - 1;
      if (!strcmp(w, "eq") || !strcmp(w, "lt") || !strcmp(w, "le") || !strcmp(w, "ge") || !strcmp(w, "gt"))
         return lanemask_value(c, w);
   }
   if (!sreg_from_name(o->u.reg, o->comp, &sr)) {
      ir_error(c->m, c->line, "special register %s%s%s is not supported yet", o->u.reg,
               o->comp >= 0 ? "." : "", o->comp >= 0 ? (const char *[]){ "x", "y", "z", "w" }[o->comp] : "");
      return NULL;
   }
   if (sr == IR_SREG_WARPSZ)
      return bld_const(c, 32, 32);
   bool wide = sr == IR_SREG_CLOCK64 || sr == IR_SREG_GLOBALTIMER || sr == IR_SREG_GRIDID;
   ir_instr *i = bld_emit(c, IR_SREG, 0, wide ? 64 : 32, 1);
   if (!i)
      return NULL;
   i->sub = (uint8_t)sr;
   i->type = wide ? PTX_T_U64 : PTX_T_U32;
   return &i->def;
}

static bool is_sreg_name(const char *name)
{
   static const char *const prefixes[] = { "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid",
      "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock64", "%globaltimer",
      "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
      "%pm0", "%envreg", "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size",
      "%is_explicit_cluster", "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
      "%cluster_ctarank", "%cluster_nctarank", "%reserved_smem_offset", "WARP_SZ", "%globaltimer_lo",
      "%globaltimer_hi", "%current_graph_exec" };
   for (size_t k = 0; k < ARRAY_SIZE(prefixes); k++)
      if (!strncmp(name, prefixes[k], strlen(prefixes[k])) &&
          (name[strlen(prefixes[k])] == 0 || (!strcmp(prefixes[k], "%envreg") || !strncmp(prefixes[k], "%pm", 3))))
         return true;
   return false;
}

/* Converts a float literal to the instruction's float type (round to
 * nearest even, as ptxas does). */
static uint64_t float_imm_to(build_ctx *c, const ptx_operand *o, ptx_type type, bool *ok)
{
   double v;
   if (o->kind == PTX_OPND_IMM_F32) {
      float f;
      uint32_t b = (uint32_t)o->u.imm.bits;
      memcpy(&f, &b, 4);
      v = f;
   } else {
      memcpy(&v, &o->u.imm.bits, 8);
   }
   *ok = true;
   switch (type) {
   case PTX_T_F64: {
      uint64_t b;
      memcpy(&b, &v, 8);
      return b;
   }
   case PTX_T_F32: {
      if (o->kind == PTX_OPND_IMM_F32)
         return o->u.imm.bits & 0xffffffffu;
      float f = (float)v;
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
   }
   case PTX_T_F16:
      return fp_f64_to_f16(v);
   default:
      if (ptx_type_is_bits(type) && o->kind == PTX_OPND_IMM_F32 && ptx_type_bits[type] == 32)
         return o->u.imm.bits & 0xffffffffu;
      if (ptx_type_is_bits(type) && o->kind == PTX_OPND_IMM_F64 && ptx_type_bits[type] == 64)
         return o->u.imm.bits;
      *ok = false;
      ir_error(c->m, c->line, "floating-point literal used as a .%s operand", ptx_type_names[type]);
      return 0;
   }
}

static uint64_t int_imm_to(const ptx_operand *o, ptx_type type)
{
   /* An integer literal for a float-typed operand means its value. */
   int64_t v = (int64_t)o->u.imm.bits;
   if (type == PTX_T_F32) {
      float f = o->u.imm.is_unsigned ? (float)o->u.imm.bits : (float)v;
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
   }
   if (type == PTX_T_F64) {
      double d = o->u.imm.is_unsigned ? (double)o->u.imm.bits : (double)v;
      uint64_t b;
      memcpy(&b, &d, 8);
      return b;
   }
   return o->u.imm.bits;
}

ir_def *bld_sym_addr(build_ctx *c, const char *name, int64_t offset, ir_space *space_out)
{
   build_sym *sym = bld_lookup(c, name);
   if (sym && sym->kind == SYM_ARG)   /* a .func .param argument (build_call.c) */
      return bld_arg_addr(c, sym, offset, space_out);
   if (sym && sym->kind == SYM_PARAM) {
      /* A kernel parameter's address is its offset in the parameter blob
       * (param space); nvcc takes it for large by-value arguments. */
      ir_instr *i = bld_emit(c, IR_SYMADDR, 0, 64, 1);
      if (!i)
         return NULL;
      i->sym = sym->name;
      i->space = IR_SPACE_PARAM;
      i->type = PTX_T_U64;
      i->imm = sym->offset + (uint64_t)offset;
      if (space_out)
         *space_out = IR_SPACE_PARAM;
      return &i->def;
   }
   if (!sym || sym->kind != SYM_VAR) {
      if (ptx_find_func(c->m->ptx, name)) {
         /* a function's address: its token (compiler.h MC_FUNC_WINDOW),
          * which an indirect call compares against (build_call.c) */
         if (space_out)
            *space_out = IR_SPACE_GENERIC;
         return bld_const(c, 64, ir_func_token(c->m->ptx, name) + (uint64_t)offset);
      }
      ir_error(c->m, c->line, "unknown symbol '%s'", name);
      return NULL;
   }
   ir_instr *i = bld_emit(c, IR_SYMADDR, 0, 64, 1);
   if (!i)
      return NULL;
   i->sym = sym->name;
   i->space = (uint8_t)sym->space;
   i->type = PTX_T_U64;
   /* Dynamic shared variables have no offset yet: sub marks them. */
   i->sub = sym->offset == UINT64_MAX;
   i->imm = (sym->offset == UINT64_MAX ? 0 : sym->offset) + (uint64_t)offset;
   if (space_out)
      *space_out = sym->space;
   return &i->def;
}

ir_def *bld_opnd(build_ctx *c, const ptx_operand *o, ptx_type type, uint8_t bits)
{
   bool sign = ptx_type_is_signed(type);
   switch (o->kind) {
   case PTX_OPND_REG: {
      if (is_sreg_name(o->u.reg))
         return bld_resize(c, sreg_value(c, o), bits, false);
      const build_sym *r = bld_lookup(c, o->u.reg);
      if (!r) {
         ir_error(c->m, c->line, "unknown register '%s'", o->u.reg);
         return NULL;
      }
      if (r->kind == SYM_VAR || r->kind == SYM_ARG)   /* a variable name used as a value: its address */
         return bld_resize(c, bld_sym_addr(c, o->u.reg, 0, NULL), bits, false);
      if (r->kind != SYM_REG) {
         ir_error(c->m, c->line, "'%s' is not a register", o->u.reg);
         return NULL;
      }
      unsigned comp = o->comp >= 0 ? (unsigned)o->comp : 0;
      if ((o->comp >= 0 && comp >= (r->vec ? r->vec : 1)) || (r->vec && o->comp < 0)) {
         ir_error(c->m, c->line, "bad use of vector register '%s'", o->u.reg);
         return NULL;
      }
      ir_def *d = bld_read_reg(c, r, comp);
      if (d && o->negate) {
         if (d->bits != 1) {
            ir_error(c->m, c->line, "'!' applied to non-predicate '%s'", o->u.reg);
            return NULL;
         }
         ir_instr *n = bld_emit(c, IR_NOT, 1, 1, 1);
         if (!n)
            return NULL;
         n->type = PTX_T_PRED;
         bld_set_src(n, 0, d);
         d = &n->def;
      }
      return bld_resize(c, d, bits, sign);
   }
   case PTX_OPND_IMM_INT:
      return bld_const(c, bits, int_imm_to(o, type));
   case PTX_OPND_IMM_F32:
   case PTX_OPND_IMM_F64: {
      bool ok;
      uint64_t v = float_imm_to(c, o, type, &ok);
      return ok ? bld_const(c, bits, v) : NULL;
   }
   case PTX_OPND_SYM:
      /* WARP_SZ, the predefined constant (PTX ISA, "Predefined Identifiers") */
      if (strcmp(o->u.sym.name, "WARP_SZ") == 0 && o->u.sym.offset == 0)
         return bld_const(c, bits, 32);
      return bld_resize(c, bld_sym_addr(c, o->u.sym.name, o->u.sym.offset, NULL), bits, false);
   default:
      ir_error(c->m, c->line, "unexpected operand form");
      return NULL;
   }
}

ir_def *bld_src(build_ctx *c, unsigned k, ptx_type type, uint8_t bits)
{
   if (k >= c->in->nopnds) {
      ir_error(c->m, c->line, "'%s' needs more operands", ptx_opcode_names[c->in->op]);
      return NULL;
   }
   return bld_opnd(c, c->in->opnds[k], type, bits);
}

const build_sym *bld_dst_sym(build_ctx *c, const ptx_operand *o)
{
   if (o->kind != PTX_OPND_REG) {
      ir_error(c->m, c->line, "destination must be a register");
      return NULL;
   }
   const build_sym *r = bld_lookup(c, o->u.reg);
   if (!r || r->kind != SYM_REG) {
      ir_error(c->m, c->line, is_sreg_name(o->u.reg) ? "special register '%s' cannot be written"
                                                     : "unknown register '%s'", o->u.reg);
      return NULL;
   }
   return r;
}

void bld_guard(build_ctx *c, ir_instr *i, const build_sym *dst)
{
   const ptx_instr *in = c->in;
   if (!in->guard)
      return;
   const build_sym *p = bld_lookup(c, in->guard);
   if (!p || p->kind != SYM_REG || p->bits != 1) {
      ir_error(c->m, c->line, "guard '%s' is not a predicate register", in->guard);
      return;
   }
   ir_def *g = bld_read_reg(c, p, 0);
   if (!g)
      return;
   ir_src_set(&i->guard, i, g);
   if (in->guard_negate)
      i->flags |= IR_F_GUARD_NEG;
   (void)dst;
}

/* Writes d to register operand o.  A guarded instruction writes through a
 * guarded COPY whose `old` is the register's current value, so the
 * register keeps its value when the guard fails. */
bool bld_write(build_ctx *c, const ptx_operand *o, ir_def *d, ptx_type type)
{
   if (!d)
      return false;
   if (o->kind == PTX_OPND_SINK)
      return true;
   const build_sym *r = bld_dst_sym(c, o);
   if (!r)
      return false;
   if (r->type == PTX_T_B128 && o->comp < 0) {   /* only bld_b128_write writes one (by halves) */
      ir_error(c->m, c->line, "'%s' is a .b128 register, which only 128-bit instructions write", o->u.reg);
      return false;
   }
   unsigned comp = o->comp >= 0 ? (unsigned)o->comp : 0;
   d = bld_resize(c, d, r->bits, ptx_type_is_signed(type));
   if (!d)
      return false;
   if (c->in->guard && !c->suppress_guard) {
      ir_instr *cp = bld_emit(c, IR_COPY, 1, d->bits, d->ncomp);
      if (!cp)
         return false;
      cp->type = type;
      bld_set_src(cp, 0, d);
      bld_guard(c, cp, r);
      ir_def *old = bld_read_reg(c, r, comp);
      if (!old)
         return false;
      ir_src_set(&cp->old, cp, old);
      d = &cp->def;
   }
   bld_write_reg(c, r, comp, d);
   return true;
}

/* [base+offset] → the address value; *space_out is the symbol's space when
 * the base is a variable (so `ld [smem]` knows it is shared). */
ir_def *bld_address(build_ctx *c, const ptx_operand *o, ir_space *space_out)
{
   *space_out = IR_SPACE_GENERIC;
   if (o->kind != PTX_OPND_ADDR) {
      ir_error(c->m, c->line, "expected an address operand [..]");
      return NULL;
   }
   if (o->u.addr.vec) {
      ir_error(c->m, c->line, "texture/surface addresses are not supported yet");
      return NULL;
   }
   const ptx_operand *base = o->u.addr.base;
   int64_t off = o->u.addr.offset;
   if (!base)
      return bld_const(c, 64, (uint64_t)off);
   if (base->kind == PTX_OPND_SYM)
      return bld_sym_addr(c, base->u.sym.name, base->u.sym.offset + off, space_out);
   if (base->kind != PTX_OPND_REG) {
      ir_error(c->m, c->line, "unexpected address base");
      return NULL;
   }
   const build_sym *r = bld_lookup(c, base->u.reg);
   if (r && (r->kind == SYM_VAR || r->kind == SYM_ARG))
      return bld_sym_addr(c, base->u.reg, off, space_out);
   if (!r || r->kind != SYM_REG) {
      ir_error(c->m, c->line, "unknown address base '%s'", base->u.reg);
      return NULL;
   }
   ir_def *b = bld_read_reg(c, r, base->comp >= 0 ? (unsigned)base->comp : 0);
   if (!b || !off)
      return b;
   if (b->bits != 32 && b->bits != 64) {
      ir_error(c->m, c->line, "address register '%s' must be 32 or 64 bits", base->u.reg);
      return NULL;
   }
   ir_def *k = bld_const(c, b->bits, (uint64_t)off);
   ir_instr *add = bld_emit(c, IR_ADD, 2, b->bits, 1);
   if (!k || !add)
      return NULL;
   add->type = b->bits == 64 ? PTX_T_U64 : PTX_T_U32;
   bld_set_src(add, 0, b);
   bld_set_src(add, 1, k);
   return &add->def;
}

/* ---- .b128 operands ---- */

/* The halves (low, high; 64 bits each) of a 128-bit operand: a .b128
 * register (two SSA variables, build.c declare_reg), a {lo, hi} vector of
 * 64-bit operands, or an integer immediate (zero-extended: PTX immediates
 * are 64-bit).  Vector registers of other types are refused: nothing
 * takes them as 128 bits. */
bool bld_b128_halves(build_ctx *c, const ptx_operand *o, ir_def *h[2])
{
   if (o->kind == PTX_OPND_VEC) {
      if (o->u.vec.n != 2)
         return ir_error(c->m, c->line, "a 128-bit value is {low, high}: two 64-bit operands, not %u",
                         o->u.vec.n);
      for (unsigned k = 0; k < 2; k++)
         if (!(h[k] = bld_opnd(c, o->u.vec.elems[k], PTX_T_B64, 64)))
            return false;
      return true;
   }
   if (o->kind == PTX_OPND_IMM_INT) {
      h[0] = bld_const(c, 64, int_imm_to(o, PTX_T_B64));
      h[1] = bld_const(c, 64, 0);
      return h[0] && h[1];
   }
   const build_sym *r = o->kind == PTX_OPND_REG ? bld_lookup(c, o->u.reg) : NULL;
   if (!r || r->kind != SYM_REG || r->type != PTX_T_B128 || o->comp >= 0 || o->negate)
      return ir_error(c->m, c->line, "a 128-bit operand must be a .b128 register, {low, high} or an integer");
   for (unsigned k = 0; k < 2; k++)
      if (!(h[k] = bld_read_reg(c, r, k)))
         return false;
   return true;
}

/* Writes the halves to a 128-bit destination: a .b128 register or a
 * {lo, hi} vector of 64-bit registers (either may be '_'), with the
 * instruction's guard. */
bool bld_b128_write(build_ctx *c, const ptx_operand *o, ir_def *const h[2])
{
   if (o->kind == PTX_OPND_SINK)
      return true;
   if (o->kind == PTX_OPND_VEC) {
      if (o->u.vec.n != 2)
         return ir_error(c->m, c->line, "a 128-bit destination is {low, high}: two 64-bit registers");
      return bld_write(c, o->u.vec.elems[0], h[0], PTX_T_B64) && bld_write(c, o->u.vec.elems[1], h[1], PTX_T_B64);
   }
   const build_sym *r = o->kind == PTX_OPND_REG ? bld_lookup(c, o->u.reg) : NULL;
   if (!r || r->kind != SYM_REG || r->type != PTX_T_B128 || o->comp >= 0)
      return ir_error(c->m, c->line, "a 128-bit destination must be a .b128 register or {low, high}");
   for (unsigned k = 0; k < 2; k++) {
      ptx_operand half = *o;
      half.comp = (int8_t)k;
      if (!bld_write(c, &half, h[k], PTX_T_B64))
         return false;
   }
   return true;
}

/* A 128-bit operand as one two-component vector of its halves (the value
 * of cas.b128/exch.b128, the old value of a guarded 128-bit write), and
 * the write of such a vector. */
ir_def *bld_b128_vec(build_ctx *c, const ptx_operand *o)
{
   ir_def *h[2];
   ir_instr *v = bld_b128_halves(c, o, h) ? bld_emit(c, IR_VEC, 2, 64, 2) : NULL;
   if (!v)
      return NULL;
   bld_set_src(v, 0, h[0]);
   bld_set_src(v, 1, h[1]);
   return &v->def;
}

bool bld_b128_write_vec(build_ctx *c, const ptx_operand *o, ir_def *vec)
{
   ir_def *h[2];
   for (unsigned k = 0; k < 2; k++) {
      ir_instr *x = bld_emit(c, IR_EXTRACT, 1, 64, 1);
      if (!x)
         return false;
      x->imm = k;
      x->type = PTX_T_B64;
      bld_set_src(x, 0, vec);
      h[k] = &x->def;
   }
   return bld_b128_write(c, o, h);
}
