/*
 * build_atom.c — memory ordering and atomics: membar/fence, atom, red.
 *
 * PTX ISA 9.0 §9.7.13.4-7 (membar/fence, atom, red) and §8 (memory
 * consistency model).  Metal's atomics are relaxed only (metal-semantics
 * §1.4, D5); orderings become fences around the relaxed operation, which the
 * emitter places:
 *   .acquire  atomic, then a fence      .release  a fence, then atomic
 *   .acq_rel  both                      .relaxed  none (PTX's default)
 * A fence before/after a relaxed atomic is at least as strong as the
 * ordering PTX asks for (C++ fence-atomic synchronisation), never weaker.
 * Scopes: .cta and .cluster (every cluster here is one CTA) → threadgroup;
 * .gpu and .sys → device.  Nothing in a kernel can order against the host
 * while it runs (Metal makes host visibility a command-buffer boundary), so
 * .sys is device scope: the strongest Metal has.
 *
 * Types (PTX ISA 9.0 atom, scalar forms): 32-bit integer operations,
 * add.f32; the 64-bit ones (.b64 bit operations, exch, cas; add.u64;
 * min/max.u64/.s64; add.f64), which the prelude runs under a lock (Metal
 * has no 64-bit read-modify-write); add.noftz.{f16,f16x2,bf16,bf16x2} and
 * cas.b16, compare-exchange loops on the enclosing 32-bit word; cas.b128
 * and exch.b128 (sm_90), under the lock of the location that 128-bit
 * strong loads and stores take too (build_mem.c VEC_LOCKED), their values
 * two-component vectors of 64-bit halves; the vector forms of sm_90
 * (.v2/.v4/.v8 add on f32 and 16-bit floats), one atomic per element
 * (vector_ok).
 */
#include "build.h"

bool bld_scope_of(build_ctx *c, uint8_t *scope)
{
   if (bld_has(c, PTX_MOD_CTA) || bld_has(c, PTX_MOD_CLUSTER))
      *scope = IR_SCOPE_CTA;
   else if (bld_has(c, PTX_MOD_SYS))
      *scope = IR_SCOPE_SYS;
   else
      *scope = IR_SCOPE_GPU;
   return true;
}

/* membar.{cta,gl,sys}; fence{.sc,.acq_rel}.{cta,cluster,gpu,sys}.  A fence
 * is emitted as a sequentially consistent one at its scope (stronger than
 * .acq_rel, which is allowed).  Proxy fences order the async/tensor proxies,
 * which nothing here has. */
bool bld_tr_membar(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (in->op == PTX_OP_FENCE && bld_has(c, PTX_MOD_TENSORMAP_GENERIC)) {
      /* fence.proxy.tensormap::generic.release.scope;
       * fence.proxy.tensormap::generic.acquire.scope [addr], 128: orders
       * generic-proxy writes of a tensor map against the tensor-map proxy's
       * reads of it.  Tensor copies are refused here (build_async.c), so
       * the only reads are the generic ones: a fence at the scope. */
      bool acquire = bld_has(c, PTX_MOD_ACQUIRE);
      if (!ONLY_MODS(c, PTX_MOD_PROXY, PTX_MOD_TENSORMAP_GENERIC, PTX_MOD_RELEASE, PTX_MOD_ACQUIRE, PTX_MOD_CTA,
                     PTX_MOD_CLUSTER, PTX_MOD_GPU, PTX_MOD_SYS))
         return false;
      if (acquire == bld_has(c, PTX_MOD_RELEASE) || in->nopnds != (acquire ? 2u : 0u))
         return ir_error(c->m, c->line, "%s: expected .release with no operand or .acquire with [addr], size",
                         bld_spelled(c));
      ir_space sp;
      if (acquire && !bld_address(c, in->opnds[0], &sp))
         return false;
      return bld_emit_fence(c);
   }
   if (in->op == PTX_OP_MEMBAR) {
      if (!ONLY_MODS(c, PTX_MOD_CTA, PTX_MOD_GL, PTX_MOD_SYS))
         return false;
   } else if (bld_has(c, PTX_MOD_PROXY) || bld_has(c, PTX_MOD_MBARRIER_INIT)) {
      /* fence.proxy.async{.space}: the async proxy's copies here are the
       * thread's own synchronous accesses (build_async.c), already in
       * program order; fence.mbarrier_init.release.cluster: a release
       * fence at the scope of a cluster, which is one CTA here.  Both are
       * emitted as a fence at CTA scope (stronger than needed). */
      bool proxy = bld_has(c, PTX_MOD_PROXY);
      if (proxy ? !ONLY_MODS(c, PTX_MOD_PROXY, PTX_MOD_ASYNC) || !bld_has(c, PTX_MOD_ASYNC)
                : !ONLY_MODS(c, PTX_MOD_MBARRIER_INIT, PTX_MOD_RELEASE, PTX_MOD_CLUSTER))
         return bld_refuse(c);
      if (in->nopnds)
         return ir_error(c->m, c->line, "%s takes no operands", bld_spelled(c));
      ir_instr *i = bld_emit(c, IR_MEMBAR, 0, 0, 0);
      if (!i)
         return false;
      i->sub = IR_SCOPE_CTA;
      bld_guard(c, i, NULL);
      return true;
   } else {
      if (!ONLY_MODS(c, PTX_MOD_SC, PTX_MOD_ACQ_REL, PTX_MOD_CTA, PTX_MOD_CLUSTER, PTX_MOD_GPU, PTX_MOD_SYS))
         return false;
      if (!bld_has(c, PTX_MOD_CTA) && !bld_has(c, PTX_MOD_CLUSTER) && !bld_has(c, PTX_MOD_GPU) &&
          !bld_has(c, PTX_MOD_SYS))
         return ir_error(c->m, c->line, "%s: fence needs a scope (.cta, .cluster, .gpu or .sys)", bld_spelled(c));
   }
   if (in->nopnds)
      return ir_error(c->m, c->line, "%s takes no operands", bld_spelled(c));
   return bld_emit_fence(c);
}

bool bld_emit_fence(build_ctx *c)
{
   ir_instr *i = bld_emit(c, IR_MEMBAR, 0, 0, 0);
   if (!i)
      return false;
   uint8_t scope;
   bld_scope_of(c, &scope);
   i->sub = scope;
   bld_guard(c, i, NULL);
   return true;
}

static bool atom_op(build_ctx *c, ir_atom_op *op)
{
   static const struct { ptx_mod m; ir_atom_op op; } ops[] = {
      { PTX_MOD_ADD, IR_ATOM_ADD }, { PTX_MOD_MIN, IR_ATOM_MIN }, { PTX_MOD_MAX, IR_ATOM_MAX },
      { PTX_MOD_INC, IR_ATOM_INC }, { PTX_MOD_DEC, IR_ATOM_DEC }, { PTX_MOD_AND, IR_ATOM_AND },
      { PTX_MOD_OR, IR_ATOM_OR }, { PTX_MOD_XOR, IR_ATOM_XOR }, { PTX_MOD_EXCH, IR_ATOM_EXCH },
      { PTX_MOD_CAS, IR_ATOM_CAS },
   };
   int found = -1;
   for (size_t k = 0; k < ARRAY_SIZE(ops); k++) {
      if (!bld_has(c, ops[k].m))
         continue;
      if (found >= 0)
         return ir_error(c->m, c->line, "%s names two operations", bld_spelled(c));
      found = (int)k;
   }
   if (found < 0)
      return ir_error(c->m, c->line, "%s: missing the operation (.add, .cas, ...)", bld_spelled(c));
   *op = ops[found].op;
   return true;
}

/* Which type suffixes each operation takes (PTX ISA 9.0 atom .type):
 * there is no add.s64 (add.u64 is the same bits), inc/dec are .u32 only,
 * cas alone has a .b16 form, and the 16-bit float adds need .noftz. */
static bool type_ok(ir_atom_op op, ptx_type t, bool noftz)
{
   bool half = bld_is_lane16(t);
   if (half != noftz)
      return false;
   switch (op) {
   case IR_ATOM_AND: case IR_ATOM_OR: case IR_ATOM_XOR:
      return t == PTX_T_B32 || t == PTX_T_B64;
   case IR_ATOM_EXCH:
      return t == PTX_T_B32 || t == PTX_T_B64 || t == PTX_T_B128;
   case IR_ATOM_CAS:
      return t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64 || t == PTX_T_B128;
   case IR_ATOM_ADD:
      return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_F32 || t == PTX_T_U64 || t == PTX_T_F64 || half;
   case IR_ATOM_INC: case IR_ATOM_DEC:
      return t == PTX_T_U32;
   case IR_ATOM_MIN: case IR_ATOM_MAX:
      return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64 || t == PTX_T_S64;
   case IR_ATOM_MBAR:   /* mbarrier's (build_async.c), no atom spelling */
      return false;
   }
   return false;
}

/* The bits of the registers an atomic on t reads and writes. */
static uint8_t reg_bits(ptx_type t)
{
   /* .b128: each half (the values are two-component vectors) */
   return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_B16 ? 16 : (uint8_t)(ptx_type_bits[t] >= 64 ? 64 : 32);
}

/* One atomic on addr with nvals values; its old value written to dst
 * (NULL for red). */
static bool atom_emit(build_ctx *c, bool is_red, ir_atom_op op, ptx_type t, uint8_t bits, uint8_t space,
                      uint8_t order, ir_def *addr, ir_def *const *vals, unsigned nvals, const ptx_operand *dst)
{
   /* A guarded atom keeps the destination's old value when the guard fails:
    * read it before the atomic, so it dominates it. */
   ir_def *old = NULL;
   if (c->in->guard && dst && dst->kind != PTX_OPND_SINK) {
      const build_sym *r = t == PTX_T_B128 ? NULL : bld_dst_sym(c, dst);
      old = t == PTX_T_B128 ? bld_b128_vec(c, dst)
          : r ? bld_resize(c, bld_read_reg(c, r, dst->comp >= 0 ? (unsigned)dst->comp : 0), bits, false) : NULL;
      if (!old)
         return false;
   }
   uint8_t ncomp = is_red ? 0 : t == PTX_T_B128 ? 2 : 1;
   ir_instr *i = bld_emit(c, is_red ? IR_RED : IR_ATOM, 1 + nvals, is_red ? 0 : bits, ncomp);
   if (!i)
      return false;
   i->sub = (uint8_t)op;
   i->type = t;
   i->space = space;
   i->imm = order;
   bld_set_src(i, 0, addr);
   for (unsigned k = 0; k < nvals; k++)
      bld_set_src(i, 1 + k, vals[k]);
   /* The guard goes on the atomic itself: it must not run when the guard
    * fails. */
   bld_guard(c, i, NULL);
   if (is_red || dst->kind == PTX_OPND_SINK)
      return true;
   if (old)
      ir_src_set(&i->old, i, old);
   c->suppress_guard = true;
   bool ok = t == PTX_T_B128 ? bld_b128_write_vec(c, dst, &i->def) : bld_write(c, dst, &i->def, t);
   c->suppress_guard = false;
   return ok;
}

/* The vector forms (PTX ISA 9.0 atom/red, sm_90): .add.v2/.v4.f32,
 * .add.noftz.v2/.v4/.v8 on .f16/.bf16 and .v2/.v4 on .f16x2/.bf16x2, in
 * .global.  The ISA makes each element its own atomic operation (no
 * atomicity across the vector), so they are that: one scalar atomic per
 * element, at the element's address.  The .min/.max forms on 16-bit
 * floats have no scalar counterpart here yet. */
static bool vector_ok(build_ctx *c, ir_atom_op op, ptx_type t)
{
   unsigned n = c->in->vec;
   bool half = t == PTX_T_F16 || t == PTX_T_BF16, pair = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
   if ((op == IR_ATOM_MIN || op == IR_ATOM_MAX) && (half || pair))
      return ir_error(c->m, c->line, "%s: vector .min/.max on 16-bit floats is not supported yet", bld_spelled(c));
   bool ok = op == IR_ATOM_ADD && ((t == PTX_T_F32 && (n == 2 || n == 4)) ||
                                   (half && bld_has(c, PTX_MOD_NOFTZ) && (n == 2 || n == 4 || n == 8)) ||
                                   (pair && bld_has(c, PTX_MOD_NOFTZ) && (n == 2 || n == 4)));
   if (!ok)
      return ir_error(c->m, c->line, "%s is not a valid vector atomic operation", bld_spelled(c));
   if (c->in->space != PTX_SPACE_GLOBAL && c->in->space != PTX_SPACE_NONE)
      return ir_error(c->m, c->line, "%s: vector atomics work on .global only", bld_spelled(c));
   return true;
}

static bool atom_vector(build_ctx *c, bool is_red, ir_atom_op op, ptx_type t, uint8_t bits, uint8_t space,
                        uint8_t order, ir_def *addr)
{
   const ptx_instr *in = c->in;
   unsigned first = is_red ? 0 : 1, n = in->vec;
   const ptx_operand *src = in->opnds[first + 1], *dst = is_red ? NULL : in->opnds[0];
   if (src->kind != PTX_OPND_VEC || src->u.vec.n != n || (dst && (dst->kind != PTX_OPND_VEC || dst->u.vec.n != n)))
      return ir_error(c->m, c->line, "%s: the value%s must be {...} vectors of %u elements", bld_spelled(c),
                      dst ? " and the destination" : "", n);
   if (space == IR_SPACE_SHARED)
      return ir_error(c->m, c->line, "%s: vector atomics work on .global only", bld_spelled(c));
   uint8_t bytes = ptx_type_bits[t] / 8;
   for (unsigned k = 0; k < n; k++) {
      ir_def *at = addr;
      if (k) {
         ir_def *off = bld_const(c, addr->bits, (uint64_t)k * bytes);
         ir_instr *add = off ? bld_emit(c, IR_ADD, 2, addr->bits, 1) : NULL;
         if (!add)
            return false;
         add->type = addr->bits == 64 ? PTX_T_U64 : PTX_T_U32;
         bld_set_src(add, 0, addr);
         bld_set_src(add, 1, off);
         at = &add->def;
      }
      ir_def *v = bld_opnd(c, src->u.vec.elems[k], t, bits);
      if (!v || !atom_emit(c, is_red, op, t, bits, space, order, at, &v, 1, dst ? dst->u.vec.elems[k] : NULL))
         return false;
   }
   return true;
}

/* atom{.sem}{.scope}{.space}.op.type d, [a], b{, c};  red likewise without d. */
bool bld_tr_atom(build_ctx *c)
{
   const ptx_instr *in = c->in;
   bool is_red = in->op == PTX_OP_RED;
   if (!bld_need_types(c, 1))
      return false;
   if (!ONLY_MODS(c, PTX_MOD_RELAXED, PTX_MOD_ACQUIRE, PTX_MOD_RELEASE, PTX_MOD_ACQ_REL, PTX_MOD_CTA,
                  PTX_MOD_CLUSTER, PTX_MOD_GPU, PTX_MOD_SYS, PTX_MOD_ADD, PTX_MOD_MIN, PTX_MOD_MAX,
                  PTX_MOD_INC, PTX_MOD_DEC, PTX_MOD_AND, PTX_MOD_OR, PTX_MOD_XOR, PTX_MOD_EXCH,
                  PTX_MOD_CAS, PTX_MOD_L2_CACHE_HINT, PTX_MOD_NOFTZ))
      return false;
   ir_atom_op op = IR_ATOM_ADD;
   if (!atom_op(c, &op))
      return false;
   ptx_type t = in->types[0];
   /* The bit-size operations are spelled .b32/.b64 but .u/.s are accepted
    * by ptxas too; they are the same operation.  So is add.s64 (two's
    * complement), which nvcc does not emit. */
   bool bitwise = op == IR_ATOM_AND || op == IR_ATOM_OR || op == IR_ATOM_XOR || op == IR_ATOM_CAS ||
                  op == IR_ATOM_EXCH;
   if (bitwise && (t == PTX_T_U32 || t == PTX_T_S32))
      t = PTX_T_B32;
   if (bitwise && (t == PTX_T_U64 || t == PTX_T_S64))
      t = PTX_T_B64;
   if (in->vec && !vector_ok(c, op, t))
      return false;
   if (!type_ok(op, t, bld_has(c, PTX_MOD_NOFTZ)))
      return ir_error(c->m, c->line, "%s is not a valid atomic operation", bld_spelled(c));
   uint8_t bits = reg_bits(t);
   if (is_red && op == IR_ATOM_CAS)
      return ir_error(c->m, c->line, "red has no .cas form (use atom.cas)");
   uint8_t sem = IR_SEM_RELAXED;
   if (bld_has(c, PTX_MOD_ACQUIRE))
      sem = IR_SEM_ACQUIRE;
   else if (bld_has(c, PTX_MOD_RELEASE))
      sem = IR_SEM_RELEASE;
   else if (bld_has(c, PTX_MOD_ACQ_REL))
      sem = IR_SEM_ACQ_REL;
   if (is_red && (sem == IR_SEM_ACQUIRE || sem == IR_SEM_ACQ_REL))
      return ir_error(c->m, c->line, "%s: red takes only .relaxed or .release", bld_spelled(c));
   uint8_t scope;
   bld_scope_of(c, &scope);
   ir_space space;
   switch (in->space) {
   case PTX_SPACE_GLOBAL: space = IR_SPACE_GLOBAL; break;
   case PTX_SPACE_SHARED: space = IR_SPACE_SHARED; break;
   case PTX_SPACE_SHARED_CLUSTER: space = IR_SPACE_SHARED; break;   /* clusters are one block */
   case PTX_SPACE_NONE: space = IR_SPACE_GENERIC; break;
   default:
      return ir_error(c->m, c->line, "%s: atomics in .%s are not supported", bld_spelled(c),
                      ptx_space_names[in->space]);
   }
   /* Operands: [d,] [a], b [, c] [, cache-policy]. */
   unsigned first = is_red ? 0 : 1;
   unsigned nvals = op == IR_ATOM_CAS ? 2 : 1;
   unsigned want = first + 1 + nvals + (bld_has(c, PTX_MOD_L2_CACHE_HINT) ? 1 : 0);
   if (!bld_need_opnds(c, want))
      return false;
   ir_space sym_space;
   ir_def *addr = bld_address(c, in->opnds[first], &sym_space);
   if (!addr)
      return false;
   if (space == IR_SPACE_GENERIC)
      space = sym_space;
   if (space != IR_SPACE_GENERIC && space != IR_SPACE_GLOBAL && space != IR_SPACE_SHARED)
      return ir_error(c->m, c->line, "%s: the address names a .%s variable; atomics work on .global and "
                      ".shared only", bld_spelled(c), ir_space_names[space]);
   if (in->vec)
      return atom_vector(c, is_red, op, t, bits, (uint8_t)space, (uint8_t)(sem | scope), addr);
   ir_def *vals[2];
   for (unsigned k = 0; k < nvals; k++)
      if (!(vals[k] = t == PTX_T_B128 ? bld_b128_vec(c, in->opnds[first + 1 + k])
                                      : bld_src(c, first + 1 + k, t, bits)))
         return false;
   return atom_emit(c, is_red, op, t, bits, (uint8_t)space, (uint8_t)(sem | scope), addr, vals, nvals,
                    is_red ? NULL : in->opnds[0]);
}
