/*
 * build_async.c — asynchronous copies and transaction barriers: cp.async,
 * cp.async.bulk (non-tensor forms), cp.reduce.async.bulk, st.bulk,
 * st.async, red.async, mbarrier.
 *
 * PTX ISA 9.0 §9.7.9.25 (cp.async, cp.async.bulk) and §9.7.13.15
 * (mbarrier).  Metal has neither; the semantics are given exactly with
 * synchronous copies:
 *
 * - A copy is done when the thread issues it (IR_CP_ASYNC: the prelude's
 *   mc_cp_async, emit_mem.c), so every later completion mechanism finds it
 *   complete: cp.async.commit_group, wait_group N, wait_all and
 *   cp.async.bulk.commit_group / wait_group{.read} have nothing left to
 *   wait for and emit nothing.  A program may not read the destination
 *   before a wait (a data race in PTX's model), so it cannot tell.
 *   src-size < cp-size fills the rest with zeros and reads only src-size
 *   bytes (CUTLASS's zero-fill predication passes src-size 0 with an
 *   address out of bounds); ignore-src reads nothing.
 * - mbarrier: a 64-bit object in shared memory whose layout is ours (PTX
 *   calls it opaque):
 *       bits  0..20  pending arrivals of the current phase
 *       bits 21..41  expected arrivals (the count each phase starts with)
 *       bits 42..62  tx-count, two's complement in 21 bits
 *       bit  63      the current phase's parity
 *   PTX bounds both counts by 2^20 - 1.  Every update is one IR_ATOM with
 *   sub IR_ATOM_MBAR on the 64-bit word (the prelude's mc_mbar_val under
 *   the 64-bit atomics' lock, so it is one read-modify-write): value =
 *   arrivals (low 32 bits) | tx-count delta (high 32, signed), value2 =
 *   the drop of the expected count (arrive_drop).  The tx delta applies
 *   first; then, if pending arrivals and tx-count are both 0, the phase
 *   completes: the parity flips and pending arrivals restart from the
 *   expected count.  The state an arrive returns is the word before it;
 *   test_wait/try_wait compare its parity bit with the word's, .parity
 *   forms compare the operand: the phase of that parity has completed
 *   when the current parity differs.  Waits read the word with an atomic,
 *   so a thread that spins on try_wait is a spin loop to mark_lockstep.c
 *   (on the software device it lets the other threads run).
 *   Orderings: arrive and complete_tx are .release by default, waits
 *   .acquire (PTX's defaults), as the atomics place fences.
 * - .shared::cluster addresses name the executing CTA's own shared memory
 *   when the grid has no clusters, as metalcuda's grids never do.
 * - cp.async.bulk global → shared completes tx bytes on its mbarrier after
 *   the copy; shared → global (.bulk_group) is a copy.  The .tensor forms
 *   (tile mode) copy a box of the tensor a tensor map describes: metalcuda's
 *   own map (compiler.h MC_TMAP_*, cuTensorMapEncodeTiled), read by the
 *   prelude (prelude/tma.metal).  Refused: the im2col/gather4/scatter4
 *   tensor modes, .multicast::cluster on non-tensor copies, masks
 *   (.cp_mask), mbarrier.pending_count.
 * - cp.reduce.async.bulk (32-bit integer elements), st.async and red.async
 *   are done when issued too, each element an atomic where PTX makes it
 *   one, then complete their bytes on the mbarrier; st.bulk stores zeros.
 */
#include "build.h"

enum {
   MBAR_PENDING_BITS = 21,
   MBAR_EXPECTED_SHIFT = 21,
};

/* The space of an access that PTX only allows in shared memory (mbarrier,
 * cp.async's destination): .shared, .shared::cta, .shared::cluster, or a
 * generic address (left to the emitter's window check). */
static bool shared_space(build_ctx *c, ptx_space s, ir_space sym_space, ir_space *out)
{
   if (s == PTX_SPACE_SHARED || s == PTX_SPACE_SHARED_CLUSTER) {
      *out = IR_SPACE_SHARED;
      return true;
   }
   if (s != PTX_SPACE_NONE)
      return ir_error(c->m, c->line, "%s: .%s is not a space of this instruction", bld_spelled(c),
                      ptx_space_names[s]);
   *out = sym_space == IR_SPACE_SHARED ? IR_SPACE_SHARED : IR_SPACE_GENERIC;
   if (sym_space != IR_SPACE_GENERIC && sym_space != IR_SPACE_SHARED)
      return ir_error(c->m, c->line, "%s: the address names a .%s variable, not shared memory", bld_spelled(c),
                      ir_space_names[sym_space]);
   return true;
}

/* The semantics of an mbarrier operation: .relaxed, .acquire or .release,
 * else dflt. */
static uint8_t sem_of(build_ctx *c, uint8_t dflt)
{
   if (bld_has(c, PTX_MOD_RELAXED))
      return IR_SEM_RELAXED;
   if (bld_has(c, PTX_MOD_ACQUIRE))
      return IR_SEM_ACQUIRE;
   if (bld_has(c, PTX_MOD_RELEASE))
      return IR_SEM_RELEASE;
   return dflt;
}

/* An ATOM on the mbarrier at addr (space sp): op with one or two values. */
static ir_instr *mbar_atom(build_ctx *c, ir_def *addr, ir_space sp, ir_atom_op op, uint8_t sem, ir_def *v,
                           ir_def *v2, bool guarded)
{
   if (!addr || !v || (op == IR_ATOM_MBAR && !v2))
      return NULL;
   ir_instr *i = bld_emit(c, IR_ATOM, v2 ? 3 : 2, 64, 1);
   if (!i)
      return NULL;
   i->sub = (uint8_t)op;
   i->type = PTX_T_B64;
   i->space = (uint8_t)sp;
   i->imm = sem | IR_SCOPE_CTA;
   bld_set_src(i, 0, addr);
   bld_set_src(i, 1, v);
   if (v2)
      bld_set_src(i, 2, v2);
   if (guarded)
      bld_guard(c, i, NULL);
   return i;
}

/* arrivals | tx << 32 as a 64-bit value (tx: a signed 32-bit delta). */
static ir_def *mbar_value(build_ctx *c, ir_def *arrivals, ir_def *tx)
{
   ir_def *a = bld_resize(c, arrivals, 64, false);
   if (!tx)
      return a;
   ir_def *t = bld_op2(c, IR_SHL, PTX_T_B64, bld_resize(c, tx, 64, false), bld_const(c, 32, 32));
   return bld_op2(c, IR_OR, PTX_T_B64, a, t);
}

/* An arrive-on of `count` arrivals (after tx bytes expected, if tx) on the
 * mbarrier at [addr]; writes the state to dst unless dst is NULL or a sink. */
static bool mbar_arrive(build_ctx *c, const ptx_operand *dst, ir_def *addr, ir_space sp, ir_def *count,
                        ir_def *tx, bool drop)
{
   ir_def *v = mbar_value(c, count, tx);
   ir_def *v2 = drop ? bld_resize(c, count, 64, false) : bld_const(c, 64, 0);
   ir_instr *i = mbar_atom(c, addr, sp, IR_ATOM_MBAR, sem_of(c, IR_SEM_RELEASE), v, v2, true);
   if (!i)
      return false;
   if (!dst || dst->kind == PTX_OPND_SINK)
      return true;
   if (c->in->guard) {   /* a failing guard keeps the register as it was */
      const build_sym *r = bld_dst_sym(c, dst);
      ir_def *old = r ? bld_resize(c, bld_read_reg(c, r, 0), 64, false) : NULL;
      if (!old)
         return false;
      ir_src_set(&i->old, i, old);
   }
   c->suppress_guard = true;
   bool ok = bld_write(c, dst, &i->def, PTX_T_B64);
   c->suppress_guard = false;
   return ok;
}

/* mbarrier.test_wait / try_wait{.parity}: whether the phase of the state
 * (or of the parity) has completed. */
static bool mbar_wait(build_ctx *c, ir_def *addr, ir_space sp, bool parity)
{
   ir_def *ref = parity ? bld_src(c, 2, PTX_T_U32, 32) : bld_src(c, 2, PTX_T_B64, 64);
   if (!ref)
      return false;
   ir_instr *rd = mbar_atom(c, addr, sp, IR_ATOM_OR, sem_of(c, IR_SEM_ACQUIRE), bld_const(c, 64, 0), NULL,
                              false);   /* a read: the guard applies to the result */
   if (!rd)
      return false;
   ir_def *cur = bld_op2(c, IR_SHR, PTX_T_U64, &rd->def, bld_const(c, 32, 63));
   ir_def *was = parity ? bld_op2(c, IR_AND, PTX_T_B64, bld_resize(c, ref, 64, false), bld_const(c, 64, 1))
                        : bld_op2(c, IR_SHR, PTX_T_U64, ref, bld_const(c, 32, 63));
   ir_instr *p = cur && was ? bld_emit(c, IR_SETP, 2, 1, 1) : NULL;
   if (!p)
      return false;
   p->type = PTX_T_U64;
   p->sub = IR_CMP_NE;
   bld_set_src(p, 0, cur);
   bld_set_src(p, 1, was);
   return bld_write(c, c->in->opnds[0], &p->def, PTX_T_PRED);
}

static bool tr_mbarrier(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_INIT, PTX_MOD_INVAL, PTX_MOD_ARRIVE, PTX_MOD_ARRIVE_DROP, PTX_MOD_EXPECT_TX,
                  PTX_MOD_COMPLETE_TX, PTX_MOD_TEST_WAIT, PTX_MOD_TRY_WAIT, PTX_MOD_PARITY, PTX_MOD_NOCOMPLETE,
                  PTX_MOD_RELAXED, PTX_MOD_ACQUIRE, PTX_MOD_RELEASE, PTX_MOD_CTA, PTX_MOD_CLUSTER))
      return false;
   if (in->ntypes != 1 || in->types[0] != PTX_T_B64)
      return ir_error(c->m, c->line, "%s: an mbarrier is a .b64 object", bld_spelled(c));
   bool wait = bld_has(c, PTX_MOD_TEST_WAIT) || bld_has(c, PTX_MOD_TRY_WAIT);
   bool arrive = bld_has(c, PTX_MOD_ARRIVE) || bld_has(c, PTX_MOD_ARRIVE_DROP);
   bool init = bld_has(c, PTX_MOD_INIT), inval = bld_has(c, PTX_MOD_INVAL);
   bool tx_only = !arrive && (bld_has(c, PTX_MOD_EXPECT_TX) || bld_has(c, PTX_MOD_COMPLETE_TX));
   if (wait + arrive + init + inval + tx_only != 1)
      return bld_refuse(c);
   /* The address: operand 0 for init, inval, expect_tx, complete_tx; 1
    * after the state or predicate for the others. */
   unsigned ai = arrive || wait ? 1 : 0;
   if (in->nopnds < ai + 1)
      return ir_error(c->m, c->line, "%s: missing operands", bld_spelled(c));
   ir_space sym_space, sp;
   ir_def *addr = bld_address(c, in->opnds[ai], &sym_space);
   if (!addr || !shared_space(c, in->space, sym_space, &sp))
      return false;
   if (wait) {
      if (in->nopnds != 3 && !(bld_has(c, PTX_MOD_TRY_WAIT) && in->nopnds == 4))   /* suspendTimeHint */
         return ir_error(c->m, c->line, "%s takes a predicate, an address and a state or parity", bld_spelled(c));
      return mbar_wait(c, addr, sp, bld_has(c, PTX_MOD_PARITY));
   }
   if (init || inval) {
      if (in->nopnds != (init ? 2u : 1u))
         return ir_error(c->m, c->line, "%s: wrong number of operands", bld_spelled(c));
      ir_def *v;
      if (init) {
         ir_def *n = bld_resize(c, bld_src(c, 1, PTX_T_U32, 32), 64, false);
         v = bld_op2(c, IR_OR, PTX_T_B64, n, bld_op2(c, IR_SHL, PTX_T_B64, n, bld_const(c, 32, MBAR_EXPECTED_SHIFT)));
      } else {
         v = bld_const(c, 64, 0);
      }
      return mbar_atom(c, addr, sp, IR_ATOM_EXCH, IR_SEM_RELAXED, v, NULL, true) != NULL;
   }
   if (tx_only) {   /* expect_tx (+) / complete_tx (-): [addr], txCount */
      if (in->nopnds != 2)
         return ir_error(c->m, c->line, "%s takes an address and a byte count", bld_spelled(c));
      ir_def *tx = bld_src(c, 1, PTX_T_U32, 32);
      if (tx && bld_has(c, PTX_MOD_COMPLETE_TX))
         tx = bld_op2(c, IR_SUB, PTX_T_U32, bld_const(c, 32, 0), tx);
      uint8_t sem = sem_of(c, bld_has(c, PTX_MOD_COMPLETE_TX) ? IR_SEM_RELEASE : IR_SEM_RELAXED);
      return mbar_atom(c, addr, sp, IR_ATOM_MBAR, sem, mbar_value(c, bld_const(c, 32, 0), tx),
                       bld_const(c, 64, 0), true) != NULL;
   }
   /* arrive{.expect_tx | .noComplete}, arrive_drop{...}: state, [addr]
    * {, count | txCount}. */
   bool expect = bld_has(c, PTX_MOD_EXPECT_TX);
   if (in->nopnds != 2 && in->nopnds != 3)
      return ir_error(c->m, c->line, "%s: wrong number of operands", bld_spelled(c));
   ir_def *count = bld_const(c, 32, 1), *tx = NULL;
   if (in->nopnds == 3) {
      ir_def *n = bld_src(c, 2, PTX_T_U32, 32);
      if (expect)
         tx = n;
      else
         count = n;
   } else if (expect || bld_has(c, PTX_MOD_NOCOMPLETE)) {
      return ir_error(c->m, c->line, "%s needs its count operand", bld_spelled(c));
   }
   return mbar_arrive(c, in->opnds[0], addr, sp, count, tx, bld_has(c, PTX_MOD_ARRIVE_DROP));
}

/* A copy: IR_CP_ASYNC of dst ← src, `bytes` from src (a value), imm =
 * cp-size (0: bulk). */
static bool emit_copy(build_ctx *c, ir_def *dst, ir_def *src, ir_def *bytes, uint32_t cp_size, bool to_global)
{
   ir_instr *i = dst && src && bytes ? bld_emit(c, IR_CP_ASYNC, 3, 0, 0) : NULL;
   if (!i)
      return false;
   i->imm = cp_size;
   i->sub = to_global;
   bld_set_src(i, 0, dst);
   bld_set_src(i, 1, src);
   bld_set_src(i, 2, bytes);
   bld_guard(c, i, NULL);
   return true;
}

/* The completion-group forms, which have nothing left to wait for: no
 * operand but wait_group's constant N. */
static bool group_noop(build_ctx *c)
{
   const ptx_instr *in = c->in;
   unsigned want = bld_has(c, PTX_MOD_WAIT_GROUP) ? 1 : 0;
   if (in->nopnds != want || (want && in->opnds[0]->kind != PTX_OPND_IMM_INT))
      return ir_error(c->m, c->line, "%s: wrong operands", bld_spelled(c));
   return true;
}

/* cp.async{.ca,.cg}.shared{::cta}.global{.L2::cache_hint}{.L2::NB}
 *   [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy};
 * cp.async.commit_group / wait_group N / wait_all;
 * cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 [mbar]. */
static bool tr_cp_async(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (bld_has(c, PTX_MOD_COMMIT_GROUP) || bld_has(c, PTX_MOD_WAIT_GROUP) || bld_has(c, PTX_MOD_WAIT_ALL)) {
      if (!ONLY_MODS(c, PTX_MOD_COMMIT_GROUP, PTX_MOD_WAIT_GROUP, PTX_MOD_WAIT_ALL))
         return false;
      return group_noop(c);
   }
   if (bld_has(c, PTX_MOD_MBARRIER_MOD)) {
      /* Without .noinc the pending count goes up by one now and down by
       * one when the thread's copies complete, which they already have:
       * nothing changes.  With .noinc it is an arrive-on. */
      if (!ONLY_MODS(c, PTX_MOD_MBARRIER_MOD, PTX_MOD_ARRIVE, PTX_MOD_NOINC) || !bld_has(c, PTX_MOD_ARRIVE))
         return bld_refuse(c);
      if (!bld_need_opnds(c, 1))
         return false;
      ir_space sym_space, sp;
      ir_def *addr = bld_address(c, in->opnds[0], &sym_space);
      if (!addr || !shared_space(c, in->space, sym_space, &sp))
         return false;
      if (!bld_has(c, PTX_MOD_NOINC))
         return true;
      return mbar_arrive(c, NULL, addr, sp, bld_const(c, 32, 1), NULL, false);
   }
   if (!ONLY_MODS(c, PTX_MOD_CA, PTX_MOD_CG, PTX_MOD_L2_CACHE_HINT, PTX_MOD_L2_64B, PTX_MOD_L2_128B,
                  PTX_MOD_L2_256B))
      return false;
   if (bld_has(c, PTX_MOD_CA) == bld_has(c, PTX_MOD_CG))
      return ir_error(c->m, c->line, "%s needs one of .ca and .cg", bld_spelled(c));
   if (in->space != PTX_SPACE_SHARED || in->src_space != PTX_SPACE_GLOBAL)
      return ir_error(c->m, c->line, "%s copies .global to .shared", bld_spelled(c));
   bool hint = bld_has(c, PTX_MOD_L2_CACHE_HINT);
   unsigned nextra = in->nopnds >= 3u + hint ? in->nopnds - 3u - hint : 99;
   if (nextra > 1)
      return ir_error(c->m, c->line, "%s: wrong number of operands", bld_spelled(c));
   const ptx_operand *sz = in->opnds[2];
   if (sz->kind != PTX_OPND_IMM_INT || (sz->u.imm.bits != 4 && sz->u.imm.bits != 8 && sz->u.imm.bits != 16) ||
       (bld_has(c, PTX_MOD_CG) && sz->u.imm.bits != 16))
      return ir_error(c->m, c->line, "%s: cp-size is 4, 8 or 16 (.cg: 16)", bld_spelled(c));
   uint32_t n = (uint32_t)sz->u.imm.bits;
   ir_space ds, ss;
   ir_def *dst = bld_address(c, in->opnds[0], &ds), *src = bld_address(c, in->opnds[1], &ss);
   if (!dst || !src)
      return false;
   ir_def *bytes = NULL;
   if (nextra == 0) {
      bytes = bld_const(c, 32, n);
   } else {
      const ptx_operand *o = in->opnds[3];
      const build_sym *r = o->kind == PTX_OPND_REG ? bld_lookup(c, o->u.reg) : NULL;
      if (r && r->kind == SYM_REG && r->bits == 1) {   /* ignore-src: a predicate */
         ir_def *p = bld_read_reg(c, r, 0), *zero = bld_const(c, 32, 0), *full = bld_const(c, 32, n);
         ir_instr *s = p && zero && full ? bld_emit(c, IR_SELECT, 3, 32, 1) : NULL;
         if (!s)
            return false;
         s->type = PTX_T_B32;
         bld_set_src(s, 0, p);
         bld_set_src(s, 1, zero);
         bld_set_src(s, 2, full);
         bytes = &s->def;
      } else {
         bytes = bld_src(c, 3, PTX_T_U32, 32);
      }
   }
   return emit_copy(c, dst, src, bytes, n, false);
}

/* The 16 words of the tensor map at `map` (a kernel parameter's offset
 * when param, else a generic address: a __grid_constant__ parameter, a
 * copy in local or shared memory, global memory), read by ordinary loads
 * so that every window works; a failing guard leaves them 0. */
static bool tensor_map_words(build_ctx *c, ir_def *map, bool param, ir_def **words)
{
   for (unsigned k = 0; k < 16; k++) {
      ir_def *a = k ? bld_op2(c, IR_ADD, PTX_T_U64, map, bld_const(c, 64, 8u * k)) : map;
      ir_instr *ld = a ? bld_emit(c, IR_LOAD, 1, 64, 1) : NULL;
      if (!ld)
         return false;
      ld->type = PTX_T_U64;
      ld->space = (uint8_t)(param ? IR_SPACE_PARAM : IR_SPACE_GENERIC);
      bld_set_src(ld, 0, a);
      bld_guard(c, ld, NULL);
      if (c->in->guard)
         ir_src_set(&ld->old, ld, bld_const(c, 64, 0));
      words[k] = &ld->def;
   }
   return true;
}

/* The tensor map operand [tmap, {c0, ...}] of a tensor copy: the map's
 * address (a kernel parameter's offset when *param) and the rank
 * coordinates, as 32-bit values in coords. */
static bool tensor_operand(build_ctx *c, const ptx_operand *o, unsigned rank, ir_def **map, bool *param,
                           ir_def **coords)
{
   if (o->kind != PTX_OPND_ADDR || !o->u.addr.base || !o->u.addr.vec || o->u.addr.vec->kind != PTX_OPND_VEC)
      return ir_error(c->m, c->line, "%s: expected [tensorMap, {coordinates}]", bld_spelled(c));
   const ptx_operand *b = o->u.addr.base, *v = o->u.addr.vec;
   if (v->u.vec.n != rank)
      return ir_error(c->m, c->line, "%s: %u coordinates for a %uD copy", bld_spelled(c), v->u.vec.n, rank);
   *param = false;
   if (b->kind == PTX_OPND_SYM) {
      build_sym *s = bld_lookup(c, b->u.sym.name);
      *param = s && s->kind == SYM_PARAM;
      ir_space sp;
      *map = bld_sym_addr(c, b->u.sym.name, b->u.sym.offset + o->u.addr.offset, &sp);
   } else {
      *map = bld_opnd(c, b, PTX_T_U64, 64);
      if (*map && o->u.addr.offset)
         *map = bld_op2(c, IR_ADD, PTX_T_U64, *map, bld_const(c, 64, (uint64_t)o->u.addr.offset));
   }
   for (unsigned k = 0; k < rank && *map; k++)
      if (!(coords[k] = bld_opnd(c, v->u.vec.elems[k], PTX_T_S32, 32)))
         return false;
   return *map != NULL;
}

/* cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::
 *   complete_tx::bytes{.multicast::cluster}{.L2::cache_hint}
 *   [dst], [tmap, {c...}], [mbar]{, ctaMask}{, policy};
 * cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group
 *   {.L2::cache_hint} [tmap, {c...}], [src]{, policy}:
 * a box of the tensor the map describes, copied when issued (IR_TMA, the
 * prelude's mc_tma: metalcuda's tensor map, compiler.h MC_TMAP_*); a load
 * then completes the box's bytes on the mbarrier (the prelude, which alone
 * knows the box).  With .multicast::cluster the load goes to the blocks of
 * ctaMask: bit 0 is this block, the only one of its cluster.  Refused: the
 * im2col, gather4 and scatter4 modes. */
static bool tr_tensor_copy(build_ctx *c)
{
   static const ptx_mod dims[] = { PTX_MOD_G1D, PTX_MOD_G2D, PTX_MOD_G3D, PTX_MOD_G4D, PTX_MOD_G5D };
   const ptx_instr *in = c->in;
   unsigned rank = 0;
   for (unsigned k = 0; k < ARRAY_SIZE(dims); k++)
      if (bld_has(c, dims[k]))
         rank = k + 1;
   if (!ONLY_MODS(c, PTX_MOD_TENSOR, PTX_MOD_G1D, PTX_MOD_G2D, PTX_MOD_G3D, PTX_MOD_G4D, PTX_MOD_G5D, PTX_MOD_TILE,
                  PTX_MOD_COMPLETE_TX_BYTES, PTX_MOD_BULK_GROUP, PTX_MOD_MULTICAST_CLUSTER, PTX_MOD_L2_CACHE_HINT))
      return false;
   bool load = (in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_SHARED_CLUSTER) &&
               in->src_space == PTX_SPACE_GLOBAL && bld_has(c, PTX_MOD_COMPLETE_TX_BYTES);
   bool store = in->space == PTX_SPACE_GLOBAL && in->src_space == PTX_SPACE_SHARED && bld_has(c, PTX_MOD_BULK_GROUP) &&
                !bld_has(c, PTX_MOD_MULTICAST_CLUSTER);
   if (!rank || (!load && !store))
      return ir_error(c->m, c->line, "%s: expected .1d to .5d and .shared::cluster.global.mbarrier::complete_tx::"
                      "bytes or .global.shared::cta.bulk_group", bld_spelled(c));
   bool mcast = bld_has(c, PTX_MOD_MULTICAST_CLUSTER), hint = bld_has(c, PTX_MOD_L2_CACHE_HINT);
   if (in->nopnds != (load ? 3u : 2u) + mcast + hint)
      return ir_error(c->m, c->line, "%s: wrong number of operands", bld_spelled(c));
   ir_def *coords[5], *map = NULL, *smem = NULL, *mbar = NULL, *mask = NULL, *words[16];
   bool param = false;
   ir_space sym_space, sp;
   if (!tensor_operand(c, in->opnds[load ? 1 : 0], rank, &map, &param, coords) ||
       !tensor_map_words(c, map, param, words))
      return false;
   smem = bld_address(c, in->opnds[load ? 0 : 1], &sym_space);
   if (!smem || !shared_space(c, PTX_SPACE_SHARED, sym_space, &sp))
      return false;
   if (load) {
      mbar = bld_address(c, in->opnds[2], &sym_space);
      if (!mbar || !shared_space(c, PTX_SPACE_SHARED, sym_space, &sp))
         return false;
      if (mcast && !(mask = bld_src(c, 3, PTX_T_B16, 16)))
         return false;
   }
   unsigned n = 1 + 16 + (load ? 1 : 0) + rank + (mask ? 1 : 0);
   ir_instr *i = bld_emit(c, IR_TMA, n, 0, 0);
   if (!i)
      return false;
   i->sub = store;
   i->imm = rank | (mask ? 0x200u : 0);
   unsigned k = 0;
   bld_set_src(i, k++, smem);
   for (unsigned w = 0; w < 16; w++)
      bld_set_src(i, k++, words[w]);
   if (load)
      bld_set_src(i, k++, mbar);
   for (unsigned d = 0; d < rank; d++)
      bld_set_src(i, k++, coords[d]);
   if (mask)
      bld_set_src(i, k++, mask);
   bld_guard(c, i, NULL);
   return true;
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
 *   [dst], [src], size, [mbar]{, policy};
 * cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size{, policy};
 * cp.async.bulk.commit_group; cp.async.bulk.wait_group{.read} N;
 * cp.async.bulk.prefetch.L2.global [src], size (a hint). */
static bool tr_cp_async_bulk(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (bld_has(c, PTX_MOD_COMMIT_GROUP) || bld_has(c, PTX_MOD_WAIT_GROUP)) {
      if (!ONLY_MODS(c, PTX_MOD_COMMIT_GROUP, PTX_MOD_WAIT_GROUP, PTX_MOD_READ))
         return false;
      return group_noop(c);
   }
   if (bld_has(c, PTX_MOD_TENSOR) && !bld_has(c, PTX_MOD_PREFETCH_MOD))
      return tr_tensor_copy(c);
   if (bld_has(c, PTX_MOD_PREFETCH_MOD)) {
      /* cp.async.bulk.prefetch{.tensor}: a hint */
      if (bld_has(c, PTX_MOD_TENSOR))
         return true;
      if (!ONLY_MODS(c, PTX_MOD_PREFETCH_MOD, PTX_MOD_L2, PTX_MOD_L2_CACHE_HINT))
         return false;
      return true;
   }
   if (!ONLY_MODS(c, PTX_MOD_COMPLETE_TX_BYTES, PTX_MOD_BULK_GROUP, PTX_MOD_L2_CACHE_HINT))
      return false;
   bool hint = bld_has(c, PTX_MOD_L2_CACHE_HINT);
   bool to_shared = (in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_SHARED_CLUSTER) &&
                    in->src_space == PTX_SPACE_GLOBAL && bld_has(c, PTX_MOD_COMPLETE_TX_BYTES);
   bool to_global = in->space == PTX_SPACE_GLOBAL && in->src_space == PTX_SPACE_SHARED &&
                    bld_has(c, PTX_MOD_BULK_GROUP);
   if (!to_shared && !to_global)
      return bld_refuse(c);
   if (in->nopnds != (to_shared ? 4u : 3u) + hint)
      return ir_error(c->m, c->line, "%s: wrong number of operands", bld_spelled(c));
   ir_space ds, ss;
   ir_def *dst = bld_address(c, in->opnds[0], &ds), *src = bld_address(c, in->opnds[1], &ss);
   ir_def *size = bld_src(c, 2, PTX_T_U32, 32);
   if (!emit_copy(c, dst, src, size, 0, to_global))
      return false;
   if (to_global)
      return true;
   ir_space sym_space, sp;
   ir_def *mbar = bld_address(c, in->opnds[3], &sym_space);
   if (!mbar || !shared_space(c, PTX_SPACE_SHARED, sym_space, &sp))
      return false;
   ir_def *tx = bld_op2(c, IR_SUB, PTX_T_U32, bld_const(c, 32, 0), size);
   return mbar_atom(c, mbar, sp, IR_ATOM_MBAR, IR_SEM_RELEASE, mbar_value(c, bld_const(c, 32, 0), tx),
                    bld_const(c, 64, 0), true) != NULL;
}

/* The mbarrier operand k of an instruction that completes bytes on it:
 * complete_tx of `bytes` (a 32-bit value), .release (PTX's default). */
static bool complete_tx_on(build_ctx *c, unsigned k, ir_def *bytes)
{
   ir_space sym_space, sp;
   ir_def *mbar = bld_address(c, c->in->opnds[k], &sym_space);
   if (!mbar || !bytes || !shared_space(c, PTX_SPACE_SHARED, sym_space, &sp))
      return false;
   ir_def *tx = bld_op2(c, IR_SUB, PTX_T_U32, bld_const(c, 32, 0), bytes);
   return mbar_atom(c, mbar, sp, IR_ATOM_MBAR, IR_SEM_RELEASE, mbar_value(c, bld_const(c, 32, 0), tx),
                    bld_const(c, 64, 0), true) != NULL;
}

/* The one reduction of red.async / cp.reduce.async.bulk. */
static bool reduction_op(build_ctx *c, ir_atom_op *op)
{
   static const struct { ptx_mod m; ir_atom_op op; } ops[] = {
      { PTX_MOD_ADD, IR_ATOM_ADD }, { PTX_MOD_MIN, IR_ATOM_MIN }, { PTX_MOD_MAX, IR_ATOM_MAX },
      { PTX_MOD_INC, IR_ATOM_INC }, { PTX_MOD_DEC, IR_ATOM_DEC }, { PTX_MOD_AND, IR_ATOM_AND },
      { PTX_MOD_OR, IR_ATOM_OR }, { PTX_MOD_XOR, IR_ATOM_XOR },
   };
   int found = -1;
   for (size_t k = 0; k < ARRAY_SIZE(ops); k++)
      if (bld_has(c, ops[k].m))
         found = found < 0 ? (int)k : 99;
   if (found < 0 || found == 99)
      return ir_error(c->m, c->line, "%s needs one operation", bld_spelled(c));
   *op = ops[found].op;
   return true;
}

/* st.async{.weak}{.shared::cluster}.mbarrier::complete_tx::bytes{.v2,.v4}.type
 *   [a], b, [mbar]: a store into a block of the cluster, which completes its
 * size in bytes on that block's mbarrier.  The block is this one; the store
 * is done when issued and the complete_tx (.release) follows it, so a thread
 * that sees the phase complete sees the value. */
static bool tr_st_async(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_WEAK, PTX_MOD_COMPLETE_TX_BYTES) || !bld_has(c, PTX_MOD_COMPLETE_TX_BYTES))
      return bld_refuse(c);
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 3))
      return false;
   ptx_type t = in->types[0];
   uint32_t n = in->vec ? in->vec : 1, bits = ptx_type_bits[t];
   bool type_ok = t == PTX_T_B32 || t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_F32 || t == PTX_T_B64 ||
                  t == PTX_T_U64 || t == PTX_T_S64 || t == PTX_T_F64;
   if (!type_ok || (n != 1 && n != 2 && n != 4) || (n == 4 && bits != 32))
      return ir_error(c->m, c->line, "%s: expected a 32- or 64-bit type, .v2 or (32-bit) .v4", bld_spelled(c));
   const ptx_operand *v = in->opnds[1];
   if ((v->kind == PTX_OPND_VEC) != (n > 1) || (n > 1 && v->u.vec.n != n))
      return ir_error(c->m, c->line, "%s: vector width and source do not match", bld_spelled(c));
   ir_space sym_space, sp;
   ir_def *addr = bld_address(c, in->opnds[0], &sym_space);
   if (!addr || !shared_space(c, in->space, sym_space, &sp))
      return false;
   ir_instr *st = bld_emit(c, IR_STORE, 1 + n, 0, 0);
   if (!st)
      return false;
   st->type = t;
   st->space = (uint8_t)sp;
   bld_set_src(st, 0, addr);
   for (uint32_t k = 0; k < n; k++) {
      ir_def *e = bld_opnd(c, n > 1 ? v->u.vec.elems[k] : v, t, (uint8_t)bits);
      if (!e)
         return false;
      bld_set_src(st, 1 + k, e);
   }
   bld_guard(c, st, NULL);
   return complete_tx_on(c, 2, bld_const(c, 32, n * bits / 8));
}

/* red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes
 *   .op.type [a], b, [mbar]: a relaxed reduction into a block of the
 * cluster that completes its size on that block's mbarrier: this block's,
 * an atomic of .cluster (here: block) scope then the complete_tx. */
static bool tr_red_async(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_RELAXED, PTX_MOD_CLUSTER, PTX_MOD_COMPLETE_TX_BYTES, PTX_MOD_ADD, PTX_MOD_MIN,
                  PTX_MOD_MAX, PTX_MOD_INC, PTX_MOD_DEC, PTX_MOD_AND, PTX_MOD_OR, PTX_MOD_XOR) ||
       !bld_has(c, PTX_MOD_COMPLETE_TX_BYTES))
      return bld_refuse(c);
   if (!bld_has(c, PTX_MOD_RELAXED) || !bld_has(c, PTX_MOD_CLUSTER))
      return ir_error(c->m, c->line, "%s: red.async is .relaxed.cluster", bld_spelled(c));
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, 3) || in->vec)
      return in->vec ? ir_error(c->m, c->line, "%s: red.async has no vector form", bld_spelled(c)) : false;
   ir_atom_op op;
   if (!reduction_op(c, &op))
      return false;
   ptx_type t = in->types[0];
   bool ok = op == IR_ATOM_INC || op == IR_ATOM_DEC ? t == PTX_T_U32
           : op == IR_ATOM_MIN || op == IR_ATOM_MAX ? t == PTX_T_U32 || t == PTX_T_S32
           : op == IR_ATOM_ADD ? t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64
           : t == PTX_T_B32;
   if (!ok)
      return ir_error(c->m, c->line, "%s is not a red.async operation and type of PTX", bld_spelled(c));
   uint8_t bits = (uint8_t)ptx_type_bits[t];
   ir_space sym_space, sp;
   ir_def *addr = bld_address(c, in->opnds[0], &sym_space), *v = bld_src(c, 1, t, bits);
   if (!addr || !v || !shared_space(c, in->space, sym_space, &sp))
      return false;
   ir_instr *i = bld_emit(c, IR_RED, 2, 0, 0);
   if (!i)
      return false;
   i->sub = (uint8_t)op;
   i->type = t;
   i->space = (uint8_t)sp;
   i->imm = IR_SEM_RELAXED | IR_SCOPE_CTA;
   bld_set_src(i, 0, addr);
   bld_set_src(i, 1, v);
   bld_guard(c, i, NULL);
   return complete_tx_on(c, 2, bld_const(c, 32, bits / 8u));
}

/* cp.reduce.async.bulk.global.shared::cta.bulk_group.op.type [dst], [src],
 *   size{, policy};
 * cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::
 *   bytes.op.type [dst], [src], size, [mbar]:
 * each element of src reduced into dst, each reduction atomic and relaxed
 * (PTX ISA 9.0 §9.7.9.25.4.2), done when issued (IR_CP_REDUCE, the prelude's
 * mc_cp_reduce32_*); the .shared::cluster form then completes size bytes on
 * the mbarrier.  The 32-bit integer operations are done; the 64-bit, f16,
 * bf16, f32 and f64 ones are refused by name. */
static bool tr_cp_reduce_bulk(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (bld_has(c, PTX_MOD_TENSOR))
      return ir_error(c->m, c->line, "%s: tensor reductions (TMA) are not supported yet", bld_spelled(c));
   if (!ONLY_MODS(c, PTX_MOD_COMPLETE_TX_BYTES, PTX_MOD_BULK_GROUP, PTX_MOD_L2_CACHE_HINT, PTX_MOD_ADD,
                  PTX_MOD_MIN, PTX_MOD_MAX, PTX_MOD_INC, PTX_MOD_DEC, PTX_MOD_AND, PTX_MOD_OR, PTX_MOD_XOR) ||
       !bld_need_types(c, 1))
      return false;
   bool to_shared = in->space == PTX_SPACE_SHARED_CLUSTER && in->src_space == PTX_SPACE_SHARED &&
                    bld_has(c, PTX_MOD_COMPLETE_TX_BYTES) && !bld_has(c, PTX_MOD_BULK_GROUP);
   bool to_global = in->space == PTX_SPACE_GLOBAL && in->src_space == PTX_SPACE_SHARED &&
                    bld_has(c, PTX_MOD_BULK_GROUP) && !bld_has(c, PTX_MOD_COMPLETE_TX_BYTES);
   if (!to_shared && !to_global)
      return ir_error(c->m, c->line, "%s: expected .global.shared::cta.bulk_group or .shared::cluster."
                      "shared::cta.mbarrier::complete_tx::bytes", bld_spelled(c));
   ir_atom_op op;
   if (!reduction_op(c, &op))
      return false;
   ptx_type t = in->types[0];
   bool bitwise = op == IR_ATOM_AND || op == IR_ATOM_OR || op == IR_ATOM_XOR;
   bool ok = bitwise ? t == PTX_T_B32 : op == IR_ATOM_INC || op == IR_ATOM_DEC ? t == PTX_T_U32
           : t == PTX_T_U32 || t == PTX_T_S32;
   if (!ok)
      return bld_unsupported(c, "cp.reduce.async.bulk on a type other than .b32 (bitwise), .u32 or .s32 "
                                "(64-bit and floating-point elements)");
   bool hint = bld_has(c, PTX_MOD_L2_CACHE_HINT);
   if (in->nopnds != (to_shared ? 4u : 3u) + hint)
      return ir_error(c->m, c->line, "%s: wrong number of operands", bld_spelled(c));
   ir_space ds, ss;
   ir_def *dst = bld_address(c, in->opnds[0], &ds), *src = bld_address(c, in->opnds[1], &ss);
   ir_def *size = bld_src(c, 2, PTX_T_U32, 32);
   ir_instr *i = dst && src && size ? bld_emit(c, IR_CP_REDUCE, 3, 0, 0) : NULL;
   if (!i)
      return false;
   i->sub = (uint8_t)op;
   i->type = t;
   i->space = (uint8_t)(to_shared ? IR_SPACE_SHARED : IR_SPACE_GLOBAL);
   bld_set_src(i, 0, dst);
   bld_set_src(i, 1, src);
   bld_set_src(i, 2, size);
   bld_guard(c, i, NULL);
   return to_global || complete_tx_on(c, 3, size);
}

/* st.bulk{.weak}{.shared::cta} [a], size, 0: size bytes of zeros (sm_100;
 * PTX ISA 9.0 §9.7.9.11): IR_ST_BULK, the prelude's mc_st_bulk.  The
 * initial value must be 0 and size a multiple of 8, as PTX requires.
 * Generic addresses are accepted where they name a shared variable. */
static bool tr_st_bulk(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_WEAK) || !bld_need_opnds(c, 3))
      return false;
   if (in->ntypes)
      return ir_error(c->m, c->line, "%s takes no type", bld_spelled(c));
   const ptx_operand *init = in->opnds[2];
   if (init->kind != PTX_OPND_IMM_INT || init->u.imm.bits != 0)
      return ir_error(c->m, c->line, "%s: the initial value must be the constant 0", bld_spelled(c));
   ir_space sym_space;
   ir_def *addr = bld_address(c, in->opnds[0], &sym_space);
   if (!addr)
      return false;
   if (in->space != PTX_SPACE_SHARED && sym_space != IR_SPACE_SHARED)
      return bld_unsupported(c, in->space == PTX_SPACE_NONE
                                   ? "st.bulk on a generic address that does not name a shared variable"
                                   : "st.bulk outside shared memory");
   ir_def *size = bld_src(c, 1, PTX_T_U64, 64);
   ir_instr *i = size ? bld_emit(c, IR_ST_BULK, 2, 0, 0) : NULL;
   if (!i)
      return false;
   i->space = IR_SPACE_SHARED;
   i->sub = in->space == PTX_SPACE_NONE;   /* a generic address: in the shared window */
   bld_set_src(i, 0, addr);
   bld_set_src(i, 1, size);
   bld_guard(c, i, NULL);
   return true;
}

bool bld_tr_async(build_ctx *c)
{
   switch (c->in->op) {
   case PTX_OP_CP_ASYNC: return tr_cp_async(c);
   case PTX_OP_CP_ASYNC_BULK: return tr_cp_async_bulk(c);
   case PTX_OP_CP_REDUCE_ASYNC_BULK: return tr_cp_reduce_bulk(c);
   case PTX_OP_ST_BULK: return tr_st_bulk(c);
   case PTX_OP_ST_ASYNC: return tr_st_async(c);
   case PTX_OP_RED_ASYNC: return tr_red_async(c);
   case PTX_OP_MBARRIER: return tr_mbarrier(c);
   default: return bld_refuse(c);
   }
}
