/*
 * emit_warp.c — barriers and warp-level operations.
 */
#include "emit_internal.h"

bool emit_warp_op(emitter *e, ir_instr *i)
{
   switch (i->op) {
   case IR_BAR:
      emit_line(e, "threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);");
      return true;
   default:
      return false;
   }
}
