/*
 * pipeline.c — the passes, in order.  Reads top to bottom; in debug builds
 * the validator runs after every pass (IR_PASS).
 */
#include "ir.h"

#include <stdio.h>
#include <stdlib.h>

bool ir_run_pipeline(ir_module *m, const ir_pipeline_options *opts)
{
   bool progress = false;
   ir_validate(m, "ir_build_func");
   IR_PASS(progress, m, ir_lower_exit);            /* early ret before a barrier → masked off */
   IR_PASS(progress, m, ir_lower_predicates);      /* @p guards → selects / branches */
   IR_PASS(progress, m, ir_split_irreducible);     /* multi-entry loops → single-entry */
   if (opts && opts->optimize) {
      IR_PASS(progress, m, ir_opt_copy_prop);
      IR_PASS(progress, m, ir_opt_split_iv);     /* i = start + uniform count */
      IR_PASS(progress, m, ir_opt_dce);
   }
   IR_PASS(progress, m, ir_infer_spaces);          /* generic ld/st → known spaces */
   IR_PASS(progress, m, ir_mark_lockstep);         /* where a warp meets: warp-synchronous code */
   IR_PASS(progress, m, ir_structurize);           /* CFG → loops, blocks, ifs */
   if (getenv("METALCUDA_IR_PRINT")) {
      strbuf sb;
      strbuf_init(&sb);
      ir_print_module(&sb, m);
      ir_foreach_func(f, m)
         ir_print_cf(&sb, f);
      if (sb.s)
         fputs(sb.s, stderr);
      strbuf_free(&sb);
   }
   (void)progress;
   return m->error == NULL;
}
