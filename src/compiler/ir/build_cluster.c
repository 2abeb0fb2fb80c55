/*
 * build_cluster.c — the thread block cluster instructions that name a
 * block of the cluster: mapa and getctarank (PTX ISA 9.0 §9.7.9.23-24).
 *
 * Every cluster here is one block.  A kernel whose .reqnctapercluster asks
 * for more is refused when it is built (build.c), a launch that asks for
 * more when it is made (driver/launch_ex.c); a grid launched without a
 * cluster shape is a grid of clusters of one block on NVIDIA's GPUs too.
 * So the only valid rank is 0, the executing block's own:
 *   - mapa{.shared::cluster}.{u32,u64} d, a, rank: the address of a's
 *     location in block `rank`'s shared memory, which is a itself (the
 *     .shared::cta window is part of the .shared::cluster one and
 *     .shared::cluster addresses name this block's shared memory here,
 *     build_async.c); a rank other than 0 names no block of the cluster,
 *     which PTX leaves undefined;
 *   - getctarank{.shared::cluster}.{u32,u64} d, a: the rank of the block
 *     whose shared memory holds a: 0.
 * The cluster special registers are build_opnd.c's, barrier.cluster is
 * build_warp.c's, and st.async / red.async (stores and reductions to a
 * block of the cluster that complete on its mbarrier) build_async.c's.
 */
#include "build.h"

/* mapa / getctarank may name .shared::cluster or no space (a generic
 * address); any other is an error. */
static bool space_ok(build_ctx *c)
{
   if (c->in->space == PTX_SPACE_NONE || c->in->space == PTX_SPACE_SHARED_CLUSTER)
      return true;
   return ir_error(c->m, c->line, "%s: .%s is not a space of this instruction (.shared::cluster or none)",
                   bld_spelled(c), ptx_space_names[c->in->space]);
}

/* mapa{.space}.type d, a, b */
static bool tr_mapa(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_INVALID) || !space_ok(c) || !bld_need_types(c, 1) || !bld_need_opnds(c, 3))
      return false;
   ptx_type t = in->types[0];
   if (t != PTX_T_U32 && t != PTX_T_U64)
      return ir_error(c->m, c->line, "%s: the type is .u32 or .u64", bld_spelled(c));
   if (in->space == PTX_SPACE_NONE && t != PTX_T_U64)
      return ir_error(c->m, c->line, "%s: a generic address is .u64", bld_spelled(c));
   uint8_t bits = t == PTX_T_U64 ? 64 : 32;
   ir_def *a = bld_src(c, 1, t, bits);
   if (!a || !bld_src(c, 2, PTX_T_U32, 32))   /* the rank: checked, 0 by PTX's rules */
      return false;
   return bld_write(c, in->opnds[0], a, t);
}

/* getctarank{.space}.type d, a */
static bool tr_getctarank(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_INVALID) || !space_ok(c) || !bld_need_types(c, 1) || !bld_need_opnds(c, 2))
      return false;
   ptx_type t = in->types[0];   /* the address's; the rank is 32-bit */
   if (t != PTX_T_U32 && t != PTX_T_U64)
      return ir_error(c->m, c->line, "%s: the type is .u32 or .u64", bld_spelled(c));
   if (!bld_src(c, 1, t, t == PTX_T_U64 ? 64 : 32))
      return false;
   return bld_write(c, in->opnds[0], bld_const(c, 32, 0), PTX_T_U32);
}

bool bld_tr_cluster(build_ctx *c)
{
   switch (c->in->op) {
   case PTX_OP_MAPA: return tr_mapa(c);
   case PTX_OP_GETCTARANK: return tr_getctarank(c);
   default: return bld_refuse(c);
   }
}
