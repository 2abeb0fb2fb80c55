/*
 * build_mem.c — data movement: mov (incl. vector pack/unpack), ld/ldu/st in
 * every state space (with or without an L2 cache policy), cvta, and cvt
 * between types; the L2 policy instructions createpolicy, applypriority and
 * discard (no L2 to steer: policies are made as an H200 encodes them and
 * carried, hints are exact as no-ops).
 *
 * Kernel parameters: `ld.param [p+off]` of a kernel parameter becomes a
 * PARAM read of the parameter blob (laid out exactly like PTX's .param
 * space, ARCHITECTURE §3), never a memory access.
 */
#include "build.h"

#include <string.h>

static const char *instr_name(build_ctx *c) { return ptx_opcode_names[c->in->op]; }

static ptx_type uint_of_bits(uint8_t bits)
{
   switch (bits) {
   case 1: return PTX_T_PRED;
   case 8: return PTX_T_U8;
   case 16: return PTX_T_U16;
   case 32: return PTX_T_U32;
   default: return PTX_T_U64;
   }
}

/* ---- mov ---- */

ir_def *bld_shift_by(build_ctx *c, ir_op op, ir_def *v, unsigned amount)
{
   ir_def *sh = bld_const(c, 32, amount);
   ir_instr *s = sh ? bld_emit(c, op, 2, v->bits, 1) : NULL;
   if (!s)
      return NULL;
   s->type = uint_of_bits(v->bits);
   bld_set_src(s, 0, v);
   bld_set_src(s, 1, sh);
   return &s->def;
}

static bool mov_pack(build_ctx *c, ptx_type t, const ptx_operand *dst, const ptx_operand *v)
{
   uint8_t bits = bld_type_bits(t);
   uint32_t n = v->u.vec.n;
   if (n < 2 || bits % n)
      return ir_error(c->m, c->line, "mov: cannot pack %u parts into .%s", n, ptx_type_names[t]);
   uint8_t pb = (uint8_t)(bits / n);
   ptx_type wt = uint_of_bits(bits);
   ir_def *acc = NULL;
   for (uint32_t k = 0; k < n; k++) {
      ir_def *part = bld_opnd(c, v->u.vec.elems[k], uint_of_bits(pb), pb);
      part = bld_resize(c, part, bits, false);
      if (part && k)
         part = bld_shift_by(c, IR_SHL, part, k * pb);
      if (!part)
         return false;
      acc = acc ? bld_op2(c, IR_OR, wt, acc, part) : part;
   }
   return bld_write(c, dst, acc, t);
}

static bool mov_unpack(build_ctx *c, ptx_type t, const ptx_operand *v, const ptx_operand *src)
{
   uint8_t bits = bld_type_bits(t);
   uint32_t n = v->u.vec.n;
   if (n < 2 || bits % n)
      return ir_error(c->m, c->line, "mov: cannot unpack .%s into %u parts", ptx_type_names[t], n);
   uint8_t pb = (uint8_t)(bits / n);
   ir_def *whole = bld_opnd(c, src, t, bits);
   if (!whole)
      return false;
   for (uint32_t k = 0; k < n; k++) {
      ir_def *part = k ? bld_shift_by(c, IR_SHR, whole, k * pb) : whole;
      part = bld_resize(c, part, pb, false);
      if (!bld_write(c, v->u.vec.elems[k], part, uint_of_bits(pb)))
         return false;
   }
   return true;
}

bool bld_tr_mov(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (in->ntypes != 1 || in->nopnds != 2)
      return ir_error(c->m, c->line, "mov: expected one type and two operands");
   ptx_type t = in->types[0];
   const ptx_operand *d = in->opnds[0], *a = in->opnds[1];
   if (t == PTX_T_B128) {   /* pack {lo, hi}, unpack, or copy: the halves move as they are */
      ir_def *h[2];
      return bld_b128_halves(c, a, h) && bld_b128_write(c, d, h);
   }
   if (a->kind == PTX_OPND_VEC)
      return mov_pack(c, t, d, a);
   if (d->kind == PTX_OPND_VEC)
      return mov_unpack(c, t, d, a);
   uint8_t bits = bld_type_bits(t);
   ir_def *v = bld_opnd(c, a, t, bits);
   return v && bld_write(c, d, v, t);
}

/* ---- ld / st ---- */

static ir_space space_of(ptx_space s)
{
   switch (s) {
   case PTX_SPACE_GLOBAL: return IR_SPACE_GLOBAL;
   case PTX_SPACE_SHARED: return IR_SPACE_SHARED;
   /* a cluster is one block here (build_cluster.c): its shared memory is
    * the block's */
   case PTX_SPACE_SHARED_CLUSTER: return IR_SPACE_SHARED;
   case PTX_SPACE_LOCAL: return IR_SPACE_LOCAL;
   case PTX_SPACE_CONST: return IR_SPACE_CONST;
   case PTX_SPACE_PARAM: return IR_SPACE_PARAM;
   default: return IR_SPACE_GENERIC;
   }
}

/* ld/st .relaxed/.acquire/.release with a scope (PTX ISA 9.0 §8: memory
 * consistency model) are strong accesses other threads and blocks may read
 * or write at the same time: volatile here, so no copy is kept in a
 * register, and one access each (see sem_vector), with a fence after an
 * acquire and before a release. */
static bool is_strong(build_ctx *c)
{
   return bld_has(c, PTX_MOD_RELAXED) || bld_has(c, PTX_MOD_ACQUIRE) || bld_has(c, PTX_MOD_RELEASE);
}

static bool mem_mods_ok(build_ctx *c, uint16_t *flags)
{
   *flags = 0;
   bool ld = c->in->op != PTX_OP_ST;
   for (unsigned k = 0; k < c->in->nmods; k++) {
      switch (c->in->mods[k]) {
      case PTX_MOD_VOLATILE: *flags |= IR_F_VOLATILE; break;
      case PTX_MOD_RELAXED: *flags |= IR_F_VOLATILE; break;
      case PTX_MOD_ACQUIRE: case PTX_MOD_RELEASE:
         if (c->in->mods[k] != (ld ? PTX_MOD_ACQUIRE : PTX_MOD_RELEASE))
            return ir_error(c->m, c->line, "%s: .%s is not a semantics this instruction takes", instr_name(c),
                            ptx_mod_names[c->in->mods[k]]);
         *flags |= IR_F_VOLATILE;
         break;
      case PTX_MOD_CTA: case PTX_MOD_CLUSTER: case PTX_MOD_GPU: case PTX_MOD_SYS:
         if (!is_strong(c))
            return ir_error(c->m, c->line, "%s: a scope needs .relaxed, .acquire or .release", instr_name(c));
         break;
      case PTX_MOD_NC: *flags |= IR_F_NC; break;
      case PTX_MOD_WEAK: case PTX_MOD_CA: case PTX_MOD_CG: case PTX_MOD_CS: case PTX_MOD_LU:
      case PTX_MOD_CV: case PTX_MOD_WB: case PTX_MOD_WT:
      case PTX_MOD_L1_EVICT_NORMAL: case PTX_MOD_L1_EVICT_UNCHANGED: case PTX_MOD_L1_EVICT_FIRST:
      case PTX_MOD_L1_EVICT_LAST: case PTX_MOD_L1_NO_ALLOCATE: case PTX_MOD_L2_EVICT_NORMAL:
      case PTX_MOD_L2_EVICT_FIRST: case PTX_MOD_L2_EVICT_LAST: case PTX_MOD_L2_64B:
      case PTX_MOD_L2_128B: case PTX_MOD_L2_256B: case PTX_MOD_L2_CACHE_HINT:
         break;   /* cache policy: no observable effect */
      default:
         return ir_error(c->m, c->line, "%s.%s is not supported yet", instr_name(c),
                         ptx_mod_names[c->in->mods[k]]);
      }
   }
   return true;
}

/* Is operand o "[param+off]" for a kernel parameter?  Sets *offset. */
static bool param_ref(build_ctx *c, const ptx_operand *o, uint64_t *offset, const build_sym **sym)
{
   if (o->kind != PTX_OPND_ADDR || !o->u.addr.base || o->u.addr.vec)
      return false;
   const ptx_operand *b = o->u.addr.base;
   const char *name = b->kind == PTX_OPND_SYM ? b->u.sym.name : b->kind == PTX_OPND_REG ? b->u.reg : NULL;
   int64_t extra = b->kind == PTX_OPND_SYM ? b->u.sym.offset : 0;
   const build_sym *s = name ? bld_lookup(c, name) : NULL;
   if (!s || s->kind != SYM_PARAM)
      return false;
   *offset = s->offset + (uint64_t)(o->u.addr.offset + extra);
   *sym = s;
   return true;
}

static uint32_t vec_count(build_ctx *c) { return c->in->vec ? c->in->vec : 1; }

const ptx_operand *bld_vec_elem(const ptx_operand *o, uint32_t k)
{
   return o->kind == PTX_OPND_VEC ? o->u.vec.elems[k] : o;
}

static uint8_t dst_bits(build_ctx *c, const ptx_operand *d, ptx_type t)
{
   const ptx_operand *e = bld_vec_elem(d, 0);
   if (e->kind == PTX_OPND_REG) {
      const build_sym *r = bld_lookup(c, e->u.reg);
      if (r && r->kind == SYM_REG && r->bits >= bld_type_bits(t))
         return r->bits;
   }
   return bld_type_bits(t) < 16 ? 16 : bld_type_bits(t);
}

static bool ld_param(build_ctx *c, ptx_type t, const ptx_operand *d, uint64_t off, const build_sym *ps)
{
   uint32_t n = vec_count(c);
   uint32_t esize = ptx_type_bits[t] / 8;
   if (off + (uint64_t)n * esize > ps->offset + ps->size && c->f->is_kernel)
      return ir_error(c->m, c->line, "ld.param reads past the end of parameter '%s'", ps->name);
   if ((d->kind == PTX_OPND_VEC) != (n > 1))
      return ir_error(c->m, c->line, "ld.param: vector width and destination do not match");
   for (uint32_t k = 0; k < n; k++) {
      const ptx_operand *e = bld_vec_elem(d, k);
      if (e->kind == PTX_OPND_SINK)
         continue;
      ir_instr *i = bld_emit(c, IR_PARAM, 0, dst_bits(c, e, t), 1);
      if (!i)
         return false;
      i->type = t;
      i->imm = off + k * esize;
      if (!bld_write(c, e, &i->def, t))
         return false;
   }
   return true;
}

/* Reads the previous values of the destination registers (for a guarded
 * load, which must keep them when the guard fails). */
ir_def *bld_old_dst_value(build_ctx *c, const ptx_operand *d, uint32_t n, uint8_t bits)
{
   ir_instr *v = n > 1 ? bld_emit(c, IR_VEC, n, bits, (uint8_t)n) : NULL;
   if (n > 1 && !v)
      return NULL;
   for (uint32_t k = 0; k < n; k++) {
      const ptx_operand *e = bld_vec_elem(d, k);
      ir_def *old;
      if (e->kind == PTX_OPND_SINK) {
         old = bld_const(c, bits, 0);
      } else {
         const build_sym *r = bld_dst_sym(c, e);
         old = r ? bld_resize(c, bld_read_reg(c, r, e->comp >= 0 ? (unsigned)e->comp : 0), bits, false) : NULL;
      }
      if (!old)
         return NULL;
      if (n == 1)
         return old;
      bld_set_src(v, k, old);
   }
   return &v->def;
}

/* How a vector access that other threads may race with is done.  Strong
 * accesses (.relaxed/.acquire/.release, and .volatile, which PTX ISA 9.0
 * §8 treats as .relaxed.sys) are single accesses on NVIDIA's hardware up
 * to 128 bits, and CUB relies on it: its decoupled look-back packs a tile's
 * status and value in one vector, and a reader must never see half of
 * another thread's store.
 *   VEC_SPLIT   a weak access: one access per element;
 *   VEC_WHOLE   up to 64 bits: one scalar access (ld/st_strong_vector);
 *   VEC_LOCKED  128 bits, more than any Metal access that cannot tear:
 *               a vector access under the location's lock of the atomics'
 *               table (IR_F_LOCKED, prelude atom.metal), which every
 *               128-bit strong access and 128-bit atomic takes, so they
 *               are atomic with respect to each other.
 * A predicated .volatile vector of up to 64 bits stays split, as it was
 * before volatile vectors were made whole; a predicated strong one is
 * refused (ld/st_strong_vector take no guard). */
typedef enum vec_mode { VEC_SPLIT, VEC_WHOLE, VEC_LOCKED } vec_mode;

static bool vector_mode(build_ctx *c, ptx_type t, uint32_t n, vec_mode *mode)
{
   bool strong = is_strong(c), vol = bld_has(c, PTX_MOD_VOLATILE);
   unsigned bits = n * ptx_type_bits[t];
   *mode = VEC_SPLIT;
   if (n < 2 || !(strong || vol))
      return true;
   if (bits > 128)
      return ir_error(c->m, c->line,
                      "%s: a %u-bit access other threads may race with must not tear; the lock table makes "
                      "accesses of up to 128 bits whole, not wider",
                      instr_name(c), bits);
   if (bits == 128) {
      *mode = VEC_LOCKED;
      return true;
   }
   if (c->in->guard) {
      if (!strong)
         return true;
      return bld_unsupported(c, "a predicated vector ld/st with .relaxed/.acquire/.release");
   }
   *mode = VEC_WHOLE;
   return true;
}

/* ld.relaxed.v2.u32 {a, b}, [p] as one 64-bit load split in two. */
static bool ld_strong_vector(build_ctx *c, ptx_type t, const ptx_operand *d, ir_def *addr, ir_space space,
                             uint16_t flags, uint32_t n)
{
   uint8_t eb = (uint8_t)ptx_type_bits[t], tb = (uint8_t)(eb * n);
   ptx_type wt = uint_of_bits(tb);
   ir_instr *ld = bld_emit(c, IR_LOAD, 1, tb, 1);
   if (!ld)
      return false;
   ld->type = wt;
   ld->space = (uint8_t)space;
   ld->flags = flags;
   bld_set_src(ld, 0, addr);
   for (uint32_t k = 0; k < n; k++) {
      ir_def *v = &ld->def;
      if (k)
         v = bld_op2(c, IR_SHR, wt, v, bld_const(c, 32, k * eb));
      v = v ? bld_resize(c, v, eb < 16 ? 16 : eb, false) : NULL;
      if (!v || !bld_write(c, bld_vec_elem(d, k), v, t))
         return false;
   }
   return true;
}

/* st.relaxed.v2.u32 [p], {a, b} as one 64-bit store. */
static bool st_strong_vector(build_ctx *c, ptx_type t, ir_def *const *vals, ir_def *addr, ir_space space,
                             uint16_t flags, uint32_t n)
{
   uint8_t eb = (uint8_t)ptx_type_bits[t], tb = (uint8_t)(eb * n);
   ptx_type wt = uint_of_bits(tb);
   ir_def *w = NULL;
   for (uint32_t k = 0; k < n; k++) {
      ir_def *v = bld_resize(c, vals[k], eb, false);
      v = v ? bld_resize(c, v, tb, false) : NULL;
      if (v && k)
         v = bld_op2(c, IR_SHL, wt, v, bld_const(c, 32, k * eb));
      w = !v ? NULL : w ? bld_op2(c, IR_OR, wt, w, v) : v;
      if (!w)
         return false;
   }
   ir_instr *st = bld_emit(c, IR_STORE, 2, 0, 0);
   if (!st)
      return false;
   st->type = wt;
   st->space = (uint8_t)space;
   st->flags = flags;
   bld_set_src(st, 0, addr);
   bld_set_src(st, 1, w);
   return true;
}

/* ld/st{.L2::cache_hint} take a third operand, the 64-bit cache policy
 * createpolicy made: a hint to the L2 with no observable effect, so it is
 * only checked to be a 64-bit value. */
static bool cache_hint_ok(build_ctx *c)
{
   if (!bld_has(c, PTX_MOD_L2_CACHE_HINT))
      return c->in->nopnds == 2;
   return c->in->nopnds == 3 && bld_src(c, 2, PTX_T_B64, 64) != NULL;
}

bool bld_tr_ld(build_ctx *c)
{
   const ptx_instr *in = c->in;
   uint16_t flags;
   if (in->ntypes != 1 || !cache_hint_ok(c))
      return ir_error(c->m, c->line, "%s: expected one type and two operands (and a cache policy with .L2::cache_hint)",
                      instr_name(c));
   if (!mem_mods_ok(c, &flags))
      return false;
   ptx_type t = in->types[0];
   if (t == PTX_T_PRED)
      return bld_unsupported(c, "ld of .pred");
   const ptx_operand *d = in->opnds[0], *a = in->opnds[1];
   uint32_t n = vec_count(c);
   if (n > 4)
      return bld_unsupported(c, "ld.v8");
   /* ld.b128 (PTX ISA 8.3): a two-element 64-bit vector load into the
    * register's halves. */
   bool b128 = t == PTX_T_B128;
   if (b128 && (n > 1 || in->space == PTX_SPACE_PARAM))
      return bld_unsupported(c, n > 1 ? "ld.v2/.v4.b128" : "ld.param.b128");
   if (b128) {
      t = PTX_T_B64;
      n = 2;
   } else if ((d->kind == PTX_OPND_VEC) != (n > 1) || (n > 1 && d->u.vec.n != n)) {
      return ir_error(c->m, c->line, "%s: vector width and destination do not match", instr_name(c));
   }
   uint64_t poff;
   const build_sym *ps;
   if (!b128 && (in->space == PTX_SPACE_PARAM || in->space == PTX_SPACE_NONE) && param_ref(c, a, &poff, &ps))
      return ld_param(c, t, d, poff, ps);
   /* ld.param through a register holding a kernel parameter's address:
    * a LOAD in param space (the parameter blob). */
   ir_space sym_space;
   ir_def *addr = bld_address(c, a, &sym_space);
   if (!addr)
      return false;
   ir_space space = space_of(in->space);
   /* A call's argument/return blocks and a .func's .param arguments live
    * in local memory (link_calls.c); in a .func every .param is one. */
   if (space == IR_SPACE_PARAM && (sym_space == IR_SPACE_LOCAL || !c->f->is_kernel))
      space = IR_SPACE_LOCAL;
   if (space == IR_SPACE_GENERIC)
      space = sym_space;
   vec_mode vm;
   if (!vector_mode(c, t, n, &vm))
      return false;
   if (vm == VEC_WHOLE) {
      bool ok = ld_strong_vector(c, t, d, addr, space, flags, n);
      return ok && (!bld_has(c, PTX_MOD_ACQUIRE) || bld_emit_fence(c));
   }
   if (vm == VEC_LOCKED)
      flags |= IR_F_LOCKED;
   uint8_t bits = b128 ? 64 : dst_bits(c, d, t);
   ir_def *old = !in->guard ? NULL : b128 ? bld_b128_vec(c, d) : bld_old_dst_value(c, d, n, bits);
   if (in->guard && !old)
      return false;
   ir_instr *ld = bld_emit(c, IR_LOAD, 1, bits, (uint8_t)n);
   if (!ld)
      return false;
   ld->type = t;
   ld->space = (uint8_t)space;
   ld->flags = flags;
   bld_set_src(ld, 0, addr);
   if (in->guard) {
      bld_guard(c, ld, NULL);
      ir_src_set(&ld->old, ld, old);
   }
   /* The guard is on the load itself: write the registers unguarded. */
   c->suppress_guard = true;
   bool ok = true;
   ir_def *halves[2];
   for (uint32_t k = 0; k < n && ok; k++) {
      const ptx_operand *e = bld_vec_elem(d, k);
      ir_def *v = &ld->def;
      if (n > 1) {
         ir_instr *x = bld_emit(c, IR_EXTRACT, 1, bits, 1);
         if (!x) {
            ok = false;
            break;
         }
         x->imm = k;
         x->type = uint_of_bits(bits);
         bld_set_src(x, 0, &ld->def);
         v = &x->def;
      }
      if (b128)
         halves[k] = v;
      else
         ok = bld_write(c, e, v, t);
   }
   if (ok && b128)
      ok = bld_b128_write(c, d, halves);
   c->suppress_guard = false;
   return ok && (!bld_has(c, PTX_MOD_ACQUIRE) || bld_emit_fence(c));
}

bool bld_tr_st(build_ctx *c)
{
   const ptx_instr *in = c->in;
   uint16_t flags;
   if (in->ntypes != 1 || !cache_hint_ok(c))
      return ir_error(c->m, c->line, "st: expected one type and two operands (and a cache policy with .L2::cache_hint)");
   if (!mem_mods_ok(c, &flags))
      return false;
   ptx_type t = in->types[0];
   if (t == PTX_T_PRED)
      return bld_unsupported(c, "st of .pred");
   const ptx_operand *a = in->opnds[0], *v = in->opnds[1];
   uint32_t n = vec_count(c);
   if (n > 4)
      return bld_unsupported(c, "st.v8");
   /* st.b128: a two-element 64-bit vector store of the value's halves. */
   bool b128 = t == PTX_T_B128;
   if (b128 && (n > 1 || in->space == PTX_SPACE_PARAM))
      return bld_unsupported(c, n > 1 ? "st.v2/.v4.b128" : "st.param.b128");
   if (b128) {
      t = PTX_T_B64;
      n = 2;
   } else if ((v->kind == PTX_OPND_VEC) != (n > 1) || (n > 1 && v->u.vec.n != n)) {
      return ir_error(c->m, c->line, "st: vector width and source do not match");
   }
   ir_space sym_space;
   ir_def *addr = bld_address(c, a, &sym_space);
   if (!addr)
      return false;
   ir_space space = space_of(in->space);
   /* st.param writes a call's argument block or a .func's return block,
    * both in local memory (link_calls.c); a kernel's parameters are
    * read-only. */
   if (space == IR_SPACE_PARAM) {
      if (sym_space != IR_SPACE_LOCAL && c->f->is_kernel)
         return ir_error(c->m, c->line, "st.param must name a call's .param variable");
      space = IR_SPACE_LOCAL;
   }
   if (space == IR_SPACE_GENERIC)
      space = sym_space;
   uint8_t bits = bld_type_bits(t) < 16 ? 16 : bld_type_bits(t);
   ir_def *vals[4];
   if (b128 && !bld_b128_halves(c, v, vals))
      return false;
   for (uint32_t k = 0; k < n && !b128; k++) {
      const ptx_operand *e = bld_vec_elem(v, k);
      if (e->kind == PTX_OPND_SINK)
         return ir_error(c->m, c->line, "st: '_' is not a valid source");
      vals[k] = bld_opnd(c, e, t, bits);
      if (!vals[k])
         return false;
   }
   vec_mode vm;
   if (!vector_mode(c, t, n, &vm) || (bld_has(c, PTX_MOD_RELEASE) && !bld_emit_fence(c)))
      return false;
   if (vm == VEC_WHOLE)
      return st_strong_vector(c, t, vals, addr, space, flags, n);
   if (vm == VEC_LOCKED)
      flags |= IR_F_LOCKED;
   ir_instr *st = bld_emit(c, IR_STORE, 1 + n, 0, 0);
   if (!st)
      return false;
   st->type = t;
   st->space = (uint8_t)space;
   st->flags = flags;
   bld_set_src(st, 0, addr);
   for (uint32_t k = 0; k < n; k++)
      bld_set_src(st, 1 + k, vals[k]);
   bld_guard(c, st, NULL);
   return true;
}

/* ---- cvta ---- */

bool bld_tr_cvta(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (in->ntypes != 1 || in->nopnds != 2)
      return ir_error(c->m, c->line, "cvta: expected one type and two operands");
   ptx_type t = in->types[0];
   if (t != PTX_T_U32 && t != PTX_T_U64)
      return ir_error(c->m, c->line, "cvta: type must be .u32 or .u64");
   ir_space space = space_of(in->space);
   if (space == IR_SPACE_GENERIC)
      return bld_unsupported(c, "cvta without a state space");
   /* A kernel's parameters have generic addresses in their window
    * (compiler.h MC_PARAM_WINDOW); a .func's .param arguments live in
    * local memory, whose addresses nvcc takes with cvta.local. */
   if (space == IR_SPACE_PARAM && !c->f->is_kernel)
      return bld_unsupported(c, "cvta.param in a .func");
   for (unsigned k = 0; k < in->nmods; k++)
      if (in->mods[k] != PTX_MOD_TO)
         return ir_error(c->m, c->line, "cvta.%s is not supported", ptx_mod_names[in->mods[k]]);
   uint8_t bits = bld_type_bits(t);
   ir_def *a = bld_src(c, 1, t, bits);
   if (!a)
      return false;
   ir_instr *i = bld_emit(c, IR_CVTA, 1, bits, 1);
   if (!i)
      return false;
   i->type = t;
   i->space = (uint8_t)space;
   i->sub = ptx_instr_has_mod(in, PTX_MOD_TO);
   bld_set_src(i, 0, a);
   return bld_write(c, in->opnds[0], &i->def, t);
}

/* ---- cvt ---- */

static bool cvt_rounding_ok(build_ctx *c, ptx_type dt, ptx_type st, ir_rnd r)
{
   bool df = ptx_type_is_float(dt), sf = ptx_type_is_float(st);
   bool int_rnd = r >= IR_RND_RNI, flt_rnd = r >= IR_RND_RN && r <= IR_RND_RP;
   if (sf && !df && !int_rnd)
      return ir_error(c->m, c->line, "cvt float-to-integer needs .rni, .rzi, .rmi or .rpi");
   if (!sf && df && !flt_rnd && r != IR_RND_NONE)
      return ir_error(c->m, c->line, "cvt integer-to-float takes .rn/.rz/.rm/.rp");
   if (!sf && df && (r == IR_RND_RZ || r == IR_RND_RM || r == IR_RND_RP) && ptx_type_bits[st] > 16)
      return bld_unsupported(c, "cvt integer-to-float with directed rounding");
   if (sf && df) {
      bool narrowing = ptx_type_bits[dt] < ptx_type_bits[st];
      if (narrowing && r != IR_RND_RN && r != IR_RND_NONE)
         return bld_unsupported(c, "cvt float narrowing with directed rounding");
      if (!narrowing && flt_rnd && dt != st)
         return ir_error(c->m, c->line, "cvt: widening float conversions take no rounding modifier");
      if (int_rnd && dt != st)
         return ir_error(c->m, c->line, "cvt: integer rounding between different float types");
   }
   if (!sf && !df && r != IR_RND_NONE)
      return ir_error(c->m, c->line, "cvt between integers takes no rounding modifier");
   return true;
}

bool bld_tr_cvt(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (bld_cvt_is_float_form(c))
      return bld_tr_cvt_float(c);
   if (in->ntypes != 2 || in->nopnds != 2)
      return ir_error(c->m, c->line, "cvt: expected two types and two operands");
   ptx_type dt = in->types[0], st = in->types[1];
   if (dt == PTX_T_F64 || st == PTX_T_F64)
      return bld_tr_cvt_f64(c);
   for (int k = 0; k < 2; k++) {
      ptx_type t = in->types[k];
      if (!(ptx_type_is_int(t) || t == PTX_T_F32 || t == PTX_T_F16))
         return ir_error(c->m, c->line, "cvt with .%s is not supported yet", ptx_type_names[t]);
   }
   ir_rnd r = IR_RND_NONE;
   uint16_t flags = 0;
   for (unsigned k = 0; k < in->nmods; k++) {
      switch (in->mods[k]) {
      case PTX_MOD_RN: r = IR_RND_RN; break;
      case PTX_MOD_RZ: r = IR_RND_RZ; break;
      case PTX_MOD_RM: r = IR_RND_RM; break;
      case PTX_MOD_RP: r = IR_RND_RP; break;
      case PTX_MOD_RNI: r = IR_RND_RNI; break;
      case PTX_MOD_RZI: r = IR_RND_RZI; break;
      case PTX_MOD_RMI: r = IR_RND_RMI; break;
      case PTX_MOD_RPI: r = IR_RND_RPI; break;
      case PTX_MOD_FTZ: flags |= IR_F_FTZ; break;
      case PTX_MOD_SAT: flags |= IR_F_SAT; break;
      default:
         return ir_error(c->m, c->line, "cvt.%s is not supported yet", ptx_mod_names[in->mods[k]]);
      }
   }
   if (!cvt_rounding_ok(c, dt, st, r))
      return false;
   ir_def *d = bld_cvt(c, dt, st, r, flags, bld_src(c, 1, st, bld_type_bits(st)));
   return d && bld_write(c, in->opnds[0], d, dt);
}

/* ---- L2 cache policies: createpolicy, applypriority, discard ---- */

/* createpolicy (PTX ISA 9.0 §9.7.9.18) makes the 64-bit policy that
 * ld/st/cp.async{.L2::cache_hint} take.  Its encoding, measured on an H200
 * (tests/ptx/cases/createpolicy_values.ptx): bit 60 set; bit 59 the range
 * form; bits 57-58 the primary priority (evict_unchanged 0, evict_first 1,
 * evict_last 2, evict_normal 3); bit 56 a secondary evict_first
 * (evict_unchanged is 0); the fractional form's bits 52-55 the fraction in
 * sixteenths less one (measured at 1/8 ... 1; between sixteenths it is
 * rounded to nearest here, which no measurement pins down); the range
 * form's bit 37 (set for both measured ranges: the address and sizes are
 * not in the policy).  metalcuda has no L2 to steer, so the policy is only
 * carried, and .cvt (a cuda::access_property's conversion, not measured)
 * is refused. */
static int l2_priority(build_ctx *c, bool primary)
{
   static const ptx_mod order[] = {PTX_MOD_L2_EVICT_UNCHANGED, PTX_MOD_L2_EVICT_FIRST, PTX_MOD_L2_EVICT_LAST,
                                   PTX_MOD_L2_EVICT_NORMAL};
   int seen = 0;
   for (unsigned k = 0; k < c->in->nmods; k++)
      for (int p = 0; p < 4; p++)
         if (c->in->mods[k] == order[p] && seen++ == (primary ? 0 : 1))
            return p;
   return primary ? -1 : 0;
}

bool bld_tr_createpolicy(build_ctx *c)
{
   const ptx_instr *in = c->in;
   bool range = bld_has(c, PTX_MOD_RANGE), frac = bld_has(c, PTX_MOD_FRACTIONAL);
   if (bld_has(c, PTX_MOD_CVT))
      return bld_unsupported(c, "createpolicy.cvt (the conversion of an access property)");
   if (range == frac || in->ntypes != 1 || in->types[0] != PTX_T_B64)
      return ir_error(c->m, c->line, "createpolicy: expected .range or .fractional and .b64");
   int primary = l2_priority(c, true), secondary = l2_priority(c, false);
   if (primary < 0 || (secondary != 0 && secondary != 1))
      return ir_error(c->m, c->line, "createpolicy: a primary priority (.L2::evict_*) and a secondary of "
                      ".L2::evict_first or .L2::evict_unchanged are expected");
   uint64_t bits = 1ull << 60 | (uint64_t)range << 59 | (uint64_t)primary << 57 | (uint64_t)secondary << 56;
   ir_def *v = NULL;
   if (range) {
      if (in->nopnds != 4 || in->opnds[1]->kind != PTX_OPND_ADDR)
         return ir_error(c->m, c->line, "createpolicy.range: expected d, [a], primary-size, total-size");
      ir_space sp;
      if (!bld_address(c, in->opnds[1], &sp) || !bld_src(c, 2, PTX_T_U32, 32) || !bld_src(c, 3, PTX_T_U32, 32))
         return false;
      v = bld_const(c, 64, bits | 1ull << 37);
   } else {
      if (in->nopnds != 1 && in->nopnds != 2)
         return ir_error(c->m, c->line, "createpolicy.fractional: expected d{, fraction}");
      ir_def *f = in->nopnds == 2 ? bld_src(c, 1, PTX_T_F32, 32) : NULL;
      if (in->nopnds == 2 && !f)
         return false;
      ir_def *q = bld_const(c, 32, 16);
      if (f) {   /* sixteenths, saturated to 1..16 (cvt.rni to u32 clamps below at 0) */
         ir_def *s = bld_op2(c, IR_MUL, PTX_T_F32, f, bld_const(c, 32, 0x41800000u));
         q = bld_cvt(c, PTX_T_U32, PTX_T_F32, IR_RND_RNI, 0, s);
         q = q ? bld_op2(c, IR_MAX, PTX_T_U32, q, bld_const(c, 32, 1)) : NULL;
         q = q ? bld_op2(c, IR_MIN, PTX_T_U32, q, bld_const(c, 32, 16)) : NULL;
      }
      q = q ? bld_op2(c, IR_SUB, PTX_T_U32, q, bld_const(c, 32, 1)) : NULL;
      q = q ? bld_resize(c, q, 64, false) : NULL;
      q = q ? bld_op2(c, IR_SHL, PTX_T_B64, q, bld_const(c, 32, 52)) : NULL;
      v = q ? bld_op2(c, IR_OR, PTX_T_B64, q, bld_const(c, 64, bits)) : NULL;
   }
   return v && bld_write(c, in->opnds[0], v, PTX_T_B64);
}

/* applypriority.global.L2::evict_normal [a], 128 and discard.global.L2
 * [a], 128: hints to the L2.  discard leaves the line's contents undefined;
 * keeping them is one of the outcomes it allows, so both are exact as the
 * evaluation of their address. */
bool bld_tr_l2_hint(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (in->nopnds != 2 || in->opnds[0]->kind != PTX_OPND_ADDR)
      return ir_error(c->m, c->line, "%s: expected [a], 128", bld_spelled(c));
   if (in->space != PTX_SPACE_GLOBAL && in->space != PTX_SPACE_NONE)
      return bld_unsupported(c, "applypriority/discard outside .global");
   ir_space sp;
   return bld_address(c, in->opnds[0], &sp) != NULL && bld_src(c, 1, PTX_T_U64, 64) != NULL;
}
