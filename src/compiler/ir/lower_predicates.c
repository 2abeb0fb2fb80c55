/*
 * lower_predicates.c — removes instruction guards (PTX `@p` / `@!p`).
 *
 * PTX ISA 9.0 §11.1 (predicated execution): a guarded instruction runs only
 * in threads whose predicate holds; a register it would write keeps its old
 * value elsewhere.  The builder leaves each guard on the instruction
 * (ir_instr.guard) together with the destination's previous value
 * (ir_instr.old).  This pass:
 *   - pure instructions: compute unconditionally and select,
 *       d = guard ? value : old      (SELECT; negated guard swaps the arms);
 *   - anything with an effect (load, store, barrier, fence): split the block
 *     and branch around it,
 *       B: ... CBR guard → T, J     T: instr; BR J     J: phi(instr, old) ...
 *     A load must not execute when its guard fails: the address may be bad.
 *
 * Precondition: none (runs right after building).  Preserves IR_META_CFG
 * (edges are added with their predecessors).  Afterwards no instruction has
 * a guard, which the validator checks.
 */
#include "ir.h"

static ir_instr *make_select(ir_func *f, ir_instr *g)
{
   ir_instr *sel = ir_instr_create(f, IR_SELECT, 3, g->def.bits, g->def.ncomp);
   if (!sel)
      return NULL;
   sel->type = g->type;
   sel->line = g->line;
   bool neg = g->flags & IR_F_GUARD_NEG;
   ir_def *value = &g->def;
   ir_src_set(&sel->srcs[0], sel, g->guard.def);
   ir_src_set(&sel->srcs[neg ? 2 : 1], sel, value);
   ir_src_set(&sel->srcs[neg ? 1 : 2], sel, g->old.def);
   return sel;
}

/* d = op(...) [guard, old]  →  v = op(...); d' = select(guard, v, old). */
static bool lower_pure(ir_func *f, ir_instr *i)
{
   if (!i->old.def) {
      /* A pure op without a destination to preserve needs no guard. */
      ir_src_clear(&i->guard);
      return true;
   }
   ir_instr *sel = make_select(f, i);
   if (!sel)
      return false;
   ir_instr_insert_after(i, sel);
   /* Every former use of i now sees the merged value (except sel). */
   ir_def_rewrite_uses(&i->def, &sel->def);
   ir_src_set(&sel->srcs[(i->flags & IR_F_GUARD_NEG) ? 2 : 1], sel, &i->def);
   ir_src_clear(&i->guard);
   ir_src_clear(&i->old);
   i->flags &= (uint16_t)~IR_F_GUARD_NEG;
   return true;
}

/* Branch around an instruction with effects.  Returns the join block, where
 * lowering continues. */
static ir_block *lower_effect(ir_func *f, ir_instr *i)
{
   ir_block *b = i->block;
   ir_instr *before = i->prev;
   /* Split so that i starts its own block T, and the rest goes to J. */
   ir_block *join = ir_block_split_after(i);
   ir_block *t;
   if (before) {
      t = ir_block_split_after(before);
   } else {
      /* i is first in b: move it into a fresh block T. */
      t = ir_block_create(f, NULL);
      if (t) {
         ir_instr_unlink(i);
         ir_instr_append(t, i);
      }
   }
   if (!join || !t)
      return NULL;
   /* B → T was created by the split (when `before` existed) through the
    * successor list; reset B's edges explicitly either way. */
   ir_block_clear_succs(b);
   ir_block_clear_succs(t);
   ir_instr *cbr = ir_instr_create(f, IR_CBR, 1, 0, 0);
   ir_instr *br = ir_instr_create(f, IR_BR, 0, 0, 0);
   if (!cbr || !br)
      return NULL;
   cbr->line = br->line = i->line;
   ir_src_set(&cbr->srcs[0], cbr, i->guard.def);
   ir_instr_append(b, cbr);
   bool neg = i->flags & IR_F_GUARD_NEG;
   ir_block_add_succ(b, neg ? join : t);
   ir_block_add_succ(b, neg ? t : join);
   ir_instr_append(t, br);
   ir_block_add_succ(t, join);
   if (i->def.bits && i->old.def) {
      ir_instr *phi = ir_instr_create(f, IR_PHI, 2, i->def.bits, i->def.ncomp);
      if (!phi)
         return NULL;
      phi->type = i->type;
      phi->line = i->line;
      if (join->first)
         ir_instr_insert_before(join->first, phi);
      else
         ir_instr_append(join, phi);
      ir_def_rewrite_uses(&i->def, &phi->def);
      ir_src_set(&phi->srcs[0], phi, &i->def);
      phi->srcs[0].pred = t;
      ir_src_set(&phi->srcs[1], phi, i->old.def);
      phi->srcs[1].pred = b;
   }
   ir_src_clear(&i->guard);
   ir_src_clear(&i->old);
   i->flags &= (uint16_t)~IR_F_GUARD_NEG;
   return join;
}

static bool lower_func(ir_func *f)
{
   bool progress = false;
   /* Blocks appended while lowering are visited too (the join blocks). */
   for (uint32_t bi = 0; bi < f->blocks.len; bi++) {
      ir_block *b = f->blocks.data[bi];
      ir_foreach_instr_safe(i, b) {
         if (!i->guard.def)
            continue;
         progress = true;
         if (ir_op_is(i->op, IR_OP_PURE)) {
            if (!lower_pure(f, i))
               return ir_error(f->module, i->line, "out of memory");
            continue;
         }
         if (!lower_effect(f, i))
            return ir_error(f->module, i->line, "out of memory");
         break;   /* the rest of b moved to the join block, visited later */
      }
   }
   return progress;
}

bool ir_lower_predicates(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m)
      progress |= ir_progress(lower_func(f), f, IR_META_CFG);
   m->stage |= IR_STAGE_NO_GUARDS;
   return progress;
}
