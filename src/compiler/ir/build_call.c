/*
 * build_call.c — calls (to .func, vprintf, __assertfail), isspacep.
 */
#include "build.h"

bool bld_tr_call(build_ctx *c)
{
   return ir_error(c->m, c->line, "calls to functions (%s) are not supported yet", bld_spelled(c));
}

bool bld_tr_isspacep(build_ctx *c)
{
   return bld_refuse(c);
}
