/*
 * build_warp.c — barriers and warp-level instructions (PTX ISA 9.0 §9.7.13
 * "Parallel Synchronization and Communication"): bar/barrier (.sync, .red,
 * .arrive), bar.warp.sync, shfl, vote, match, redux, activemask, elect.
 *
 * What Metal can express (ARCHITECTURE §4, metal-semantics §1.3/§2.3):
 *   - a barrier of the whole threadgroup: bar.sync / barrier.sync with no
 *     thread count, or one equal to the block size (checked at run time
 *     unless .reqntid settles it here); bar.red as a barrier plus a
 *     threadgroup reduction;
 *   - warp operations among the threads that are converged at the
 *     instruction (Metal's active threads of the SIMD-group).  A member
 *     mask that names only such threads is exact; the emitter checks that
 *     at run time when the mask is not the constant 0xffffffff (threads of
 *     the mask that are elsewhere would need Volta's independent thread
 *     scheduling, which Metal lacks).
 *   - barrier.cluster, the block's barrier (clusters are one block here);
 * What it cannot: bar.arrive (arriving without waiting: producer/consumer
 * named barriers), barriers over part of the block, redux on floats.
 * These are refused here with a message naming the instruction.
 *
 * A guarded warp operation (@p vote ...) carries the guard itself, so
 * ir_lower_predicates branches around it: a thread whose guard fails does
 * not take part (PTX: it is inactive for the instruction).
 */
#include "build.h"

/* ---- helpers ---- */

/* Operand k as a 32-bit member mask (a register or an immediate). */
static ir_def *mask_src(build_ctx *c, unsigned k)
{
   return bld_src(c, k, PTX_T_B32, 32);
}

static ir_def *full_mask(build_ctx *c)
{
   return bld_const(c, 32, 0xffffffffu);
}

/* The value destination operand o holds before the instruction, as bits
 * wide as the result (a guarded result keeps it when the guard fails). */
static ir_def *old_value(build_ctx *c, const ptx_operand *o, uint8_t bits)
{
   if (o->kind == PTX_OPND_SINK) {
      ir_instr *u = bld_emit(c, IR_UNDEF, 0, bits, 1);
      return u ? &u->def : NULL;
   }
   const build_sym *r = bld_dst_sym(c, o);
   if (!r)
      return NULL;
   ir_def *old = bld_read_reg(c, r, o->comp >= 0 ? (unsigned)o->comp : 0);
   return old && old->bits != bits ? bld_resize(c, old, bits, false) : old;
}

/* Emits op with a def of `bits` and n sources; the guard (if any) goes on
 * the instruction, with dst's old value.  NULL on error. */
static ir_instr *emit_guarded(build_ctx *c, ir_op op, uint8_t bits, ir_def **srcs, unsigned n,
                              const ptx_operand *dst)
{
   for (unsigned k = 0; k < n; k++)
      if (!srcs[k])
         return NULL;
   ir_def *old = c->in->guard && dst && bits ? old_value(c, dst, bits) : NULL;
   if (c->in->guard && dst && bits && !old)
      return NULL;
   ir_instr *i = bld_emit(c, op, n, bits, 1);
   if (!i)
      return NULL;
   for (unsigned k = 0; k < n; k++)
      bld_set_src(i, k, srcs[k]);
   bld_guard(c, i, NULL);
   if (old)
      ir_src_set(&i->old, i, old);
   return i;
}

/* Writes a def whose instruction carries the guard itself. */
static bool write_unguarded(build_ctx *c, const ptx_operand *o, ir_def *d, ptx_type t)
{
   c->suppress_guard = true;
   bool ok = bld_write(c, o, d, t);
   c->suppress_guard = false;
   return ok;
}

/* ---- barriers ---- */

/* The thread-count operand b of bar.sync / bar.red / a named barrier.  An
 * immediate must be a multiple of 32 (as ptxas requires) and, when the
 * barrier spans the whole block (whole_block) and .reqntid fixes its size,
 * equal to it. */
static bool thread_count(build_ctx *c, unsigned k, bool whole_block, ir_def **out)
{
   const ptx_operand *o = c->in->opnds[k];
   if (o->kind == PTX_OPND_IMM_INT) {
      uint64_t n = o->u.imm.bits;
      uint64_t req = (uint64_t)c->f->reqntid[0] * c->f->reqntid[1] * c->f->reqntid[2];
      if (n == 0 || n % 32 || n > 1024)
         return ir_error(c->m, c->line, "%s: thread count %llu is not a multiple of 32 from 32 to 1024",
                         bld_spelled(c), (unsigned long long)n);
      if (whole_block && req && n != req)
         return ir_error(c->m, c->line, "%s with a thread count of %llu in a block of %llu threads: Metal "
                         "barriers synchronise the whole threadgroup, so a barrier over part of the "
                         "block is not supported", bld_spelled(c), (unsigned long long)n,
                         (unsigned long long)req);
   }
   *out = bld_src(c, k, PTX_T_U32, 32);
   return *out != NULL;
}

/* bar.sync a{, b} / barrier.sync{.aligned} a{, b}; the id a does not
 * matter once b is the whole block. */
static bool tr_bar_sync(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_SYNC))
      return false;
   if (in->nopnds != 1 && in->nopnds != 2)
      return bld_need_opnds(c, 1);
   ir_def *count = NULL;
   if (in->nopnds == 2 && !thread_count(c, 1, true, &count))
      return false;
   if (!bld_src(c, 0, PTX_T_U32, 32))          /* the id: checked, unused */
      return false;
   ir_instr *i = emit_guarded(c, IR_BAR, 0, &count, count ? 1 : 0, NULL);
   if (!i)
      return false;
   i->imm = in->opnds[0]->kind == PTX_OPND_IMM_INT ? in->opnds[0]->u.imm.bits : 0;
   return true;
}

/* bar.red.popc.u32 d, a{, b}, {!}c;  bar.red.{and,or}.pred p, a{, b}, {!}c */
static bool tr_bar_red(build_ctx *c)
{
   const ptx_instr *in = c->in;
   ir_bar_red op = bld_has(c, PTX_MOD_POPC) ? IR_BAR_RED_POPC : bld_has(c, PTX_MOD_AND) ? IR_BAR_RED_AND
                 : bld_has(c, PTX_MOD_OR) ? IR_BAR_RED_OR : (ir_bar_red)-1;
   if ((int)op < 0 || !ONLY_MODS(c, PTX_MOD_RED_MOD, PTX_MOD_SYNC, PTX_MOD_POPC, PTX_MOD_AND, PTX_MOD_OR) ||
       !bld_need_types(c, 1))
      return (int)op < 0 ? bld_refuse(c) : false;
   ptx_type t = in->types[0];
   if (t != (op == IR_BAR_RED_POPC ? PTX_T_U32 : PTX_T_PRED))
      return bld_refuse(c);
   if (in->nopnds != 3 && in->nopnds != 4)
      return bld_need_opnds(c, 3);
   ir_def *srcs[2] = { bld_src(c, in->nopnds - 1, PTX_T_PRED, 1), NULL };
   if (in->nopnds == 4 && !thread_count(c, 2, true, &srcs[1]))
      return false;
   if (!bld_src(c, 1, PTX_T_U32, 32))
      return false;
   uint8_t bits = op == IR_BAR_RED_POPC ? 32 : 1;
   ir_instr *i = emit_guarded(c, IR_BAR_RED, bits, srcs, in->nopnds == 4 ? 2 : 1, in->opnds[0]);
   if (!i)
      return false;
   i->sub = (uint8_t)op;
   i->type = t;
   return write_unguarded(c, in->opnds[0], &i->def, t);
}

/* ---- named barriers ----
 * bar.arrive a, b lets a producer signal barrier a without waiting for it;
 * the threads that bar.sync a, b wait until b threads have arrived (PTX
 * ISA 9.0 §9.7.13.1).  Metal's threadgroup_barrier cannot express that,
 * so in a module that has bar.arrive every bar.sync / barrier.sync is a
 * named barrier (IR_NBAR): counters in threadgroup memory on a GPU, the
 * scheduler's own barrier on the software device (prelude/warp.metal),
 * in a .func too (it gets the kernel's counters, msl/emit_call.c).
 * A thread that exits does not arrive, as on NVIDIA hardware. */

static bool module_has_arrive(build_ctx *c) { return c->m->ptx->has_bar_arrive; }

/* bar.sync a{, b} / bar.arrive a, b / barrier.{sync,arrive}{.aligned} a{, b} */
static bool tr_named_bar(build_ctx *c)
{
   const ptx_instr *in = c->in;
   bool arrive = bld_has(c, PTX_MOD_ARRIVE);
   if (!ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_ARRIVE, PTX_MOD_ALIGNED))
      return false;
   if (in->nopnds != (arrive ? 2u : 1u) && in->nopnds != 2)
      return bld_need_opnds(c, 2);
   const ptx_operand *id = in->opnds[0];
   if (id->kind == PTX_OPND_IMM_INT && id->u.imm.bits > 15)
      return ir_error(c->m, c->line, "%s: barrier %llu: PTX has barriers 0 to 15", bld_spelled(c),
                      (unsigned long long)id->u.imm.bits);
   /* count 0: the whole block (bar.sync a) */
   ir_def *s[2] = { NULL, NULL };
   if (in->nopnds == 2 ? !thread_count(c, 1, false, &s[1]) : !(s[1] = bld_const(c, 32, 0)))
      return false;
   s[0] = bld_src(c, 0, PTX_T_U32, 32);
   ir_instr *i = emit_guarded(c, IR_NBAR, 0, s, 2, NULL);
   if (!i)
      return false;
   i->sub = arrive;
   return true;
}

/* bar.warp.sync membermask */
static bool tr_bar_warp(build_ctx *c)
{
   if (!ONLY_MODS(c, PTX_MOD_WARP, PTX_MOD_SYNC) || !bld_need_opnds(c, 1))
      return false;
   ir_def *m = mask_src(c, 0);
   return emit_guarded(c, IR_BAR_WARP, 0, &m, 1, NULL) != NULL;
}

/* barrier.cluster.arrive{.release,.relaxed}{.aligned};
 * barrier.cluster.wait{.acquire}{.aligned}.  Every cluster here is one
 * block (a kernel or launch asking for more is refused), so the cluster
 * barrier is the block's: every thread arrives before it waits, so a wait
 * that is a whole-block barrier lets no thread through before all have
 * arrived, and its fences give the release/acquire ordering.  The arrive
 * has nothing left to do.  Ordering what a thread does between its arrive
 * and its wait before the others' waits is stronger than PTX requires. */
static bool tr_bar_cluster(build_ctx *c)
{
   bool arrive = bld_has(c, PTX_MOD_ARRIVE), wait = bld_has(c, PTX_MOD_WAIT);
   if (c->in->op != PTX_OP_BARRIER || arrive == wait ||
       !ONLY_MODS(c, PTX_MOD_CLUSTER, PTX_MOD_ARRIVE, PTX_MOD_WAIT, PTX_MOD_RELEASE, PTX_MOD_RELAXED,
                  PTX_MOD_ACQUIRE, PTX_MOD_ALIGNED) ||
       (arrive && bld_has(c, PTX_MOD_ACQUIRE)) ||
       (wait && (bld_has(c, PTX_MOD_RELEASE) || bld_has(c, PTX_MOD_RELAXED))))
      return ir_error(c->m, c->line, "%s: expected barrier.cluster.arrive{.release,.relaxed}{.aligned} or "
                      "barrier.cluster.wait{.acquire}{.aligned}", bld_spelled(c));
   if (c->in->nopnds)
      return ir_error(c->m, c->line, "%s takes no operands", bld_spelled(c));
   if (arrive)
      return true;
   return emit_guarded(c, IR_BAR, 0, NULL, 0, NULL) != NULL;
}

bool bld_tr_bar(build_ctx *c)
{
   if (c->in->op == PTX_OP_BAR && bld_has(c, PTX_MOD_WARP))
      return tr_bar_warp(c);
   if (bld_has(c, PTX_MOD_CLUSTER))
      return tr_bar_cluster(c);
   /* bar.red stays a whole-block barrier with its reduction in a module
    * with bar.arrive: PTX leaves it unpredictable to mix it with bar.sync
    * or bar.arrive on the same active barrier (PTX ISA 9.0 §9.7.13.1), and
    * a whole-block barrier has every thread there, none at a named one */
   if (bld_has(c, PTX_MOD_RED_MOD))
      return tr_bar_red(c);
   if (bld_has(c, PTX_MOD_ARRIVE) || module_has_arrive(c))
      return tr_named_bar(c);
   return tr_bar_sync(c);
}

/* ---- warp-level operations ---- */

/* The member mask: the last operand of the .sync forms; the whole warp
 * for the legacy forms (sm_6x: every thread of the warp converged). */
static ir_def *member_mask(build_ctx *c, bool sync, unsigned k)
{
   return sync ? mask_src(c, k) : full_mask(c);
}

/* shfl{.sync}.mode.b32 d[|p], a, b, c{, membermask} */
static bool tr_shfl(build_ctx *c)
{
   const ptx_instr *in = c->in;
   static const ptx_mod modes[] = { PTX_MOD_UP, PTX_MOD_DOWN, PTX_MOD_BFLY, PTX_MOD_IDX };
   int mode = -1;
   for (int k = 0; k < 4; k++)
      if (bld_has(c, modes[k]))
         mode = k;
   if (mode < 0 || !ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_UP, PTX_MOD_DOWN, PTX_MOD_BFLY, PTX_MOD_IDX) ||
       !bld_need_types(c, 1) || in->types[0] != PTX_T_B32)
      return mode < 0 || (in->ntypes == 1 && in->types[0] != PTX_T_B32) ? bld_refuse(c) : false;
   bool sync = bld_has(c, PTX_MOD_SYNC);
   unsigned ndst = in->has_pair_dst ? 2 : 1;
   if (!bld_need_opnds(c, ndst + 3 + sync))
      return false;
   ir_def *s[4] = { bld_src(c, ndst, PTX_T_B32, 32), bld_src(c, ndst + 1, PTX_T_B32, 32),
                    bld_src(c, ndst + 2, PTX_T_B32, 32), member_mask(c, sync, ndst + 3) };
   ir_instr *i = emit_guarded(c, IR_SHFL, 32, s, 4, in->opnds[0]);
   if (!i)
      return false;
   i->sub = (uint8_t)mode;
   i->type = PTX_T_B32;
   if (!write_unguarded(c, in->opnds[0], &i->def, PTX_T_B32))
      return false;
   if (ndst == 1)
      return true;
   ir_instr *p = emit_guarded(c, IR_SHFL_PRED, 1, s, 4, in->opnds[1]);
   if (!p)
      return false;
   p->sub = (uint8_t)mode;
   p->type = PTX_T_PRED;
   return write_unguarded(c, in->opnds[1], &p->def, PTX_T_PRED);
}

/* vote{.sync}.{all,any,uni}.pred d, {!}a{, membermask};
 * vote{.sync}.ballot.b32 d, {!}a{, membermask} */
static bool tr_vote(build_ctx *c)
{
   const ptx_instr *in = c->in;
   ir_vote mode = bld_has(c, PTX_MOD_ALL) ? IR_VOTE_ALL : bld_has(c, PTX_MOD_ANY) ? IR_VOTE_ANY
                : bld_has(c, PTX_MOD_UNI) ? IR_VOTE_UNI : bld_has(c, PTX_MOD_BALLOT) ? IR_VOTE_BALLOT
                : (ir_vote)-1;
   if ((int)mode < 0 || !ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_ALL, PTX_MOD_ANY, PTX_MOD_UNI, PTX_MOD_BALLOT) ||
       !bld_need_types(c, 1))
      return (int)mode < 0 ? bld_refuse(c) : false;
   ptx_type t = in->types[0];
   if (t != (mode == IR_VOTE_BALLOT ? PTX_T_B32 : PTX_T_PRED))
      return bld_refuse(c);
   bool sync = bld_has(c, PTX_MOD_SYNC);
   if (!bld_need_opnds(c, 2 + sync))
      return false;
   ir_def *s[2] = { bld_src(c, 1, PTX_T_PRED, 1), member_mask(c, sync, 2) };
   ir_instr *i = emit_guarded(c, IR_VOTE, mode == IR_VOTE_BALLOT ? 32 : 1, s, 2, in->opnds[0]);
   if (!i)
      return false;
   i->sub = (uint8_t)mode;
   i->type = t;
   return write_unguarded(c, in->opnds[0], &i->def, t);
}

/* match.any.sync.{b32,b64} d, a, membermask;
 * match.all.sync.{b32,b64} d[|p], a, membermask */
static bool tr_match(build_ctx *c)
{
   const ptx_instr *in = c->in;
   bool all = bld_has(c, PTX_MOD_ALL);
   if ((!all && !bld_has(c, PTX_MOD_ANY)) || !bld_has(c, PTX_MOD_SYNC) ||
       !ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_ALL, PTX_MOD_ANY) || !bld_need_types(c, 1))
      return c->m->error ? false : bld_refuse(c);
   ptx_type t = in->types[0];
   if (t != PTX_T_B32 && t != PTX_T_B64)
      return bld_refuse(c);
   unsigned ndst = in->has_pair_dst ? 2 : 1;
   if ((!all && ndst == 2) || !bld_need_opnds(c, ndst + 2))
      return ndst == 2 && !all ? bld_refuse(c) : false;
   uint8_t bits = bld_type_bits(t);
   ir_def *s[2] = { bld_src(c, ndst, t, bits), mask_src(c, ndst + 1) };
   ir_instr *i = emit_guarded(c, IR_MATCH, 32, s, 2, in->opnds[0]);
   if (!i)
      return false;
   i->sub = all;
   i->type = t;
   if (!write_unguarded(c, in->opnds[0], &i->def, PTX_T_B32))
      return false;
   if (ndst == 1)
      return true;
   ir_instr *p = emit_guarded(c, IR_MATCH_PRED, 1, s, 2, in->opnds[1]);
   if (!p)
      return false;
   p->sub = 1;
   p->type = t;
   return write_unguarded(c, in->opnds[1], &p->def, PTX_T_PRED);
}

/* redux.sync.{add,min,max}.{u32,s32} d, a, membermask;
 * redux.sync.{and,or,xor}.b32 d, a, membermask */
static bool tr_redux(build_ctx *c)
{
   const ptx_instr *in = c->in;
   static const struct { ptx_mod m; ir_atom_op op; bool bits_type; } ops[] = {
      { PTX_MOD_ADD, IR_ATOM_ADD, false }, { PTX_MOD_MIN, IR_ATOM_MIN, false },
      { PTX_MOD_MAX, IR_ATOM_MAX, false }, { PTX_MOD_AND, IR_ATOM_AND, true },
      { PTX_MOD_OR, IR_ATOM_OR, true }, { PTX_MOD_XOR, IR_ATOM_XOR, true },
   };
   int k = -1;
   for (int j = 0; j < (int)ARRAY_SIZE(ops); j++)
      if (bld_has(c, ops[j].m))
         k = j;
   if (k < 0 || !bld_has(c, PTX_MOD_SYNC) || in->ntypes != 1 ||
       !ONLY_MODS(c, PTX_MOD_SYNC, ops[k].m))
      return c->m->error ? false : bld_refuse(c);   /* incl. .f32 min/max with .abs/.NaN */
   ptx_type t = in->types[0];
   bool ok = ops[k].bits_type ? t == PTX_T_B32 : (t == PTX_T_U32 || t == PTX_T_S32);
   if (!ok)
      return bld_refuse(c);
   if (!bld_need_opnds(c, 3))
      return false;
   ir_def *s[2] = { bld_src(c, 1, t, 32), mask_src(c, 2) };
   ir_instr *i = emit_guarded(c, IR_REDUX, 32, s, 2, in->opnds[0]);
   if (!i)
      return false;
   i->sub = (uint8_t)ops[k].op;
   i->type = t;
   return write_unguarded(c, in->opnds[0], &i->def, t);
}

/* activemask.b32 d */
static bool tr_activemask(build_ctx *c)
{
   if (!ONLY_MODS(c) || !bld_need_types(c, 1) || !bld_need_opnds(c, 1))
      return false;
   if (c->in->types[0] != PTX_T_B32)
      return bld_refuse(c);
   ir_instr *i = emit_guarded(c, IR_ACTIVEMASK, 32, NULL, 0, c->in->opnds[0]);
   if (!i)
      return false;
   i->type = PTX_T_B32;
   return write_unguarded(c, c->in->opnds[0], &i->def, PTX_T_B32);
}

/* shfl, vote, match, redux, activemask. */
static ir_def *unop(build_ctx *c, ir_op op, ir_def *a)
{
   ir_instr *i = a ? bld_emit(c, op, 1, 32, 1) : NULL;
   if (!i)
      return NULL;
   i->type = PTX_T_B32;
   bld_set_src(i, 0, a);
   return &i->def;
}

/* elect.sync d|p, membermask: the leader is the lowest lane of the mask
 * (the threads of the mask take part, as in every .sync operation): a
 * ballot of true over the mask, its lowest set bit; p in the leader. */
static bool tr_elect(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!bld_has(c, PTX_MOD_SYNC) || !ONLY_MODS(c, PTX_MOD_SYNC) || !in->has_pair_dst || in->nopnds != 3)
      return c->m->error ? false : ir_error(c->m, c->line, "%s: expected elect.sync d|p, membermask", bld_spelled(c));
   if (in->guard)
      return ir_error(c->m, c->line, "%s under a guard is not supported yet", bld_spelled(c));
   ir_def *s[2] = { bld_const(c, 1, 1), mask_src(c, 2) };
   ir_instr *v = emit_guarded(c, IR_VOTE, 32, s, 2, NULL);
   if (!v)
      return false;
   v->sub = IR_VOTE_BALLOT;
   v->type = PTX_T_B32;
   ir_def *leader = unop(c, IR_CLZ, unop(c, IR_BREV, &v->def));
   ir_instr *lane = leader ? bld_emit(c, IR_SREG, 0, 32, 1) : NULL;
   if (!lane)
      return false;
   lane->sub = IR_SREG_LANEID;
   lane->type = PTX_T_U32;
   ir_def *p = bld_op2(c, IR_SETP, PTX_T_U32, &lane->def, leader);
   if (!p)
      return false;
   p->parent->sub = IR_CMP_EQ;
   return (in->opnds[0]->kind == PTX_OPND_SINK || bld_write(c, in->opnds[0], leader, PTX_T_B32)) &&
          (in->opnds[1]->kind == PTX_OPND_SINK || bld_write(c, in->opnds[1], p, PTX_T_PRED));
}

bool bld_tr_warp(build_ctx *c)
{
   switch (c->in->op) {
   case PTX_OP_SHFL: return tr_shfl(c);
   case PTX_OP_VOTE: return tr_vote(c);
   case PTX_OP_MATCH: return tr_match(c);
   case PTX_OP_REDUX: return tr_redux(c);
   case PTX_OP_ACTIVEMASK: return tr_activemask(c);
   case PTX_OP_ELECT: return tr_elect(c);
   default: return bld_refuse(c);
   }
}
