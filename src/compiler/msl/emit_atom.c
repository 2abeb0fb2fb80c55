/*
 * emit_atom.c — fences and atomics.
 */
#include "emit_internal.h"

bool emit_atom_op(emitter *e, ir_instr *i)
{
   switch (i->op) {
   case IR_MEMBAR:
      if (i->sub == 0)
         emit_line(e, "atomic_thread_fence(mem_flags::mem_threadgroup | mem_flags::mem_device, "
                      "memory_order_seq_cst, thread_scope_threadgroup);");
      else
         emit_line(e, "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);");
      return true;
   default:
      return false;
   }
}
