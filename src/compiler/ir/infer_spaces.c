/*
 * infer_spaces.c — address-space inference for generic loads and stores.
 *
 * MSL has no generic address space (metal-semantics D3): every pointer is
 * device, threadgroup, thread or constant.  PTX generic accesses (ld/st
 * without a state space) therefore need to know where their address points.
 * ARCHITECTURE §3: a generic address in the shared or local window
 * (cvta.shared / cvta.local) names threadgroup or thread memory; any other
 * generic address is a CUDA device address.
 *
 * This pass follows each generic address (of a load, store or atomic) back
 * through address arithmetic (add/sub of an offset, copies, selects and
 * phis that agree) to its origin:
 *   cvta.shared → shared, cvta.local → local,
 *   cvta.global / cvta.const, kernel parameters, .global/.const symbols →
 *   global (CUDA device address);
 * and rewrites the access to that space (inserting cvta.to.<space> for
 * shared/local so the access gets a window offset).  Anything else (a
 * pointer loaded from memory, an integer) stays generic: the emitter then
 * checks the windows at run time, as NVIDIA hardware does.
 *
 * Precondition: SSA.  Preserves all metadata (no CFG change).
 */
#include "ir.h"

enum { UNKNOWN = -1, VISITING = -2, CONFLICT = -3 };

static int origin(ir_def *d, int depth);

static int merge(int a, int b)
{
   if (a == VISITING)
      return b;
   if (b == VISITING)
      return a;
   if (a == b)
      return a;
   return CONFLICT;
}

static int origin_of_instr(ir_instr *i, int depth)
{
   switch (i->op) {
   case IR_CVTA:
      if (i->sub)   /* cvta.to.X yields an X-space address, not a generic one */
         return CONFLICT;
      return i->space == IR_SPACE_CONST ? IR_SPACE_GLOBAL : i->space;
   case IR_PARAM:
      /* Kernel arguments are device addresses: host code cannot pass a
       * shared or local generic address into a launch. */
      return i->def.bits == 64 && i->block->func->is_kernel ? IR_SPACE_GLOBAL : UNKNOWN;
   case IR_SYMADDR:
      return i->space == IR_SPACE_GLOBAL || i->space == IR_SPACE_CONST ? IR_SPACE_GLOBAL : CONFLICT;
   case IR_COPY:
      return origin(i->srcs[0].def, depth);
   case IR_ADD:
   case IR_SUB: {
      if (i->def.bits != 64 && i->def.bits != 32)
         return UNKNOWN;
      int a = origin(i->srcs[0].def, depth);
      int b = i->op == IR_ADD ? origin(i->srcs[1].def, depth) : UNKNOWN;
      /* pointer ± offset: exactly one side is a pointer */
      if (a >= 0 && b < 0 && b != CONFLICT)
         return a;
      if (b >= 0 && a < 0 && a != CONFLICT)
         return b;
      return a == VISITING || b == VISITING ? VISITING : UNKNOWN;
   }
   case IR_SELECT:
      return merge(origin(i->srcs[1].def, depth), origin(i->srcs[2].def, depth));
   case IR_PHI: {
      if (i->pass_flags)
         return VISITING;
      i->pass_flags = 1;
      int r = VISITING;
      for (uint32_t k = 0; k < i->nsrcs && r != CONFLICT; k++)
         r = merge(r, origin(i->srcs[k].def, depth));
      i->pass_flags = 0;
      return r;
   }
   default:
      return UNKNOWN;
   }
}

static int origin(ir_def *d, int depth)
{
   if (!d || depth > 64)
      return UNKNOWN;
   return origin_of_instr(d->parent, depth + 1);
}

static bool rewrite_access(ir_func *f, ir_instr *i, int space)
{
   if (space == IR_SPACE_GLOBAL) {
      i->space = IR_SPACE_GLOBAL;
      return true;
   }
   ir_def *addr = i->srcs[0].def;
   ir_instr *to = ir_instr_create(f, IR_CVTA, 1, addr->bits, 1);
   if (!to)
      return false;
   to->type = addr->bits == 64 ? PTX_T_U64 : PTX_T_U32;
   to->space = (uint8_t)space;
   to->sub = 1;
   to->line = i->line;
   ir_src_set(&to->srcs[0], to, addr);
   ir_instr_insert_before(i, to);
   ir_src_set(&i->srcs[0], i, &to->def);
   i->space = (uint8_t)space;
   return true;
}

static bool infer_func(ir_func *f)
{
   bool progress = false;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         i->pass_flags = 0;
   f->uses_generic = false;
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b) {
         bool access = i->op == IR_LOAD || i->op == IR_STORE || i->op == IR_ATOM || i->op == IR_RED;
         if (!access || i->space != IR_SPACE_GENERIC)
            continue;
         int s = origin(i->srcs[0].def, 0);
         if (s == IR_SPACE_GLOBAL || s == IR_SPACE_SHARED || s == IR_SPACE_LOCAL) {
            if (!rewrite_access(f, i, s))
               return ir_error(f->module, i->line, "out of memory");
            progress = true;
         } else {
            f->uses_generic = true;
         }
      }
   }
   return progress;
}

bool ir_infer_spaces(ir_module *m)
{
   bool progress = false;
   ir_foreach_func(f, m)
      progress |= ir_progress(infer_func(f), f, IR_META_ALL);
   return progress;
}
