/*
 * opt_dce.c — dead code elimination by liveness marking (as NIR's
 * nir_opt_dce): instructions with effects (ir_op_infos flags: not PURE, or
 * a terminator) are live roots; everything a live instruction reads is
 * live; the rest is removed.  Marking, not use counting, so dead cycles
 * through phis go too.  Loads are kept (not PURE): a load may fault, and a
 * program's fault must not disappear by optimisation... which NVIDIA's
 * compiler would do, but we prefer to keep the behaviour observable.
 *
 * Precondition: none.  Preserves all metadata (blocks are not touched).
 * Uses pass_flags.
 */
#include "ir.h"

static bool is_root(const ir_instr *i)
{
   return !ir_op_is(i->op, IR_OP_PURE);
}

static void mark_live(ir_instr *i, ir_instr ***stack, uint32_t *sp)
{
   if (i->pass_flags)
      return;
   i->pass_flags = 1;
   (*stack)[(*sp)++] = i;
}

static bool dce_func(ir_func *f)
{
   ir_instr **stack = arena_alloc(f->module->ar, (f->ninstrs + 1) * sizeof(*stack));
   if (!stack)
      return false;
   uint32_t sp = 0;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         i->pass_flags = 0;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         if (is_root(i))
            mark_live(i, &stack, &sp);
   while (sp) {
      ir_instr *i = stack[--sp];
      for (uint32_t k = 0; k < i->nsrcs; k++)
         if (i->srcs[k].def)
            mark_live(i->srcs[k].def->parent, &stack, &sp);
      if (i->guard.def)
         mark_live(i->guard.def->parent, &stack, &sp);
      if (i->old.def)
         mark_live(i->old.def->parent, &stack, &sp);
   }
   bool progress = false;
   ir_foreach_block(b, f) {
      ir_foreach_instr_safe(i, b) {
         if (i->pass_flags)
            continue;
         /* Drop uses first so removal order does not matter. */
         for (uint32_t k = 0; k < i->nsrcs; k++)
            ir_src_clear(&i->srcs[k]);
         progress = true;
      }
   }
   ir_foreach_block(b, f)
      ir_foreach_instr_safe(i, b)
         if (!i->pass_flags)
            ir_instr_remove(i);
   return progress;
}

bool ir_opt_dce(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m)
      progress |= ir_progress(dce_func(f), f, IR_META_ALL);
   return progress;
}
