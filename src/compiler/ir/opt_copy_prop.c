/*
 * opt_copy_prop.c — replaces every use of an unguarded COPY by the copied
 * value and removes the copy.  The builder writes registers through copies
 * only where guards or resizing need them, but lowering leaves some behind;
 * fewer values mean fewer MSL variables for the host compiler to chew.
 *
 * Precondition: no guards (after ir_lower_predicates).  Preserves all
 * metadata (no block changes).
 */
#include "ir.h"

static bool copy_prop_func(ir_func *f)
{
   bool progress = false;
   ir_foreach_block(b, f) {
      ir_foreach_instr_safe(i, b) {
         if (i->op != IR_COPY || i->guard.def)
            continue;
         ir_def_rewrite_uses(&i->def, i->srcs[0].def);
         ir_instr_remove(i);
         progress = true;
      }
   }
   return progress;
}

bool ir_opt_copy_prop(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m)
      progress |= ir_progress(copy_prop_func(f), f, IR_META_ALL);
   return progress;
}
