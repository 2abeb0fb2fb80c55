/*
 * build_atom.c — memory ordering and atomics: membar/fence, atom, red.
 */
#include "build.h"

bool bld_tr_membar(build_ctx *c)
{
   ir_instr *i = bld_emit(c, IR_MEMBAR, 0, 0, 0);
   if (!i)
      return false;
   i->sub = bld_has(c, PTX_MOD_CTA) ? 0 : bld_has(c, PTX_MOD_SYS) ? 2 : 1;
   bld_guard(c, i, NULL);
   return true;
}

/* atom and red in every space. */
bool bld_tr_atom(build_ctx *c)
{
   return ir_error(c->m, c->line, "%s: atomics are not supported yet", bld_spelled(c));
}
