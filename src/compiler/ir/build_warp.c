/*
 * build_warp.c — barriers and warp-level instructions: bar/barrier,
 * bar.warp.sync, shfl, vote, match, redux, activemask.
 */
#include "build.h"

bool bld_tr_bar(build_ctx *c)
{
   const ptx_instr *in = c->in;
   /* bar.sync a / barrier.sync a / bar.sync a, b / barrier.sync.aligned a */
   if (bld_has(c, PTX_MOD_ARRIVE) || bld_has(c, PTX_MOD_RED_MOD))
      return bld_refuse(c);
   if (in->op == PTX_OP_BAR && bld_has(c, PTX_MOD_WARP))
      return bld_refuse(c);
   if (in->nopnds != 1 || in->opnds[0]->kind != PTX_OPND_IMM_INT)
      return ir_error(c->m, c->line, "%s with a thread count or a register barrier id is not supported yet",
                      bld_spelled(c));
   if (!ONLY_MODS(c, PTX_MOD_SYNC))
      return false;
   ir_instr *i = bld_emit(c, IR_BAR, 0, 0, 0);
   if (!i)
      return false;
   i->imm = in->opnds[0]->u.imm.bits;
   bld_guard(c, i, NULL);
   return true;
}

/* shfl, vote, match, redux, activemask, bar.warp.sync. */
bool bld_tr_warp(build_ctx *c)
{
   return ir_error(c->m, c->line, "%s: warp-level operations are not supported yet", bld_spelled(c));
}
