/*
 * nan_loose.c — where the emitter lets an f32 value hold a NaN that is not
 * NVIDIA's canonical one.
 *
 * An NVIDIA GPU's f32 add, sub, mul, div and fma give the canonical NaN
 * (0x7fffffff) whatever NaN they are given; a CPU or an Apple GPU keeps an
 * operand's payload or gives its own default NaN.  The emitter makes the
 * bits right (mc_canon: a compare and a select) wherever they can be seen
 * (a store, a move to an integer, a shuffle ...), and leaves them alone
 * where they cannot: the operands of those five operations, which give a
 * NaN for any NaN.  Two sets, by def index:
 *
 * W ("canonical by origin"): the results of those operations, and the
 *   32-bit phis all of whose sources are in W or are constants that are
 *   not a NaN other than the canonical one (greatest fixpoint).  Their
 *   value on an NVIDIA GPU is canonical whenever it is a NaN, so any use
 *   may canonicalise them: the emitter writes them raw and wraps mc_canon
 *   around each use that is not such an operation's operand or a copy into
 *   a phi of W or L (emit_val_comp).  A loop's accumulator (acc = fma(a, b,
 *   acc), then stored) is canonicalised once, where it is stored, not at
 *   every step.
 * L ("never seen"): the other 32-bit defs every use of which is such an
 *   operand or a source of a phi in W or L (greatest fixpoint).  A phi of
 *   L may carry loaded bits (a NaN of any payload), which only those
 *   operations read; an fset result in L (a square root feeding an fma)
 *   needs no canonicalisation.
 *
 * A phi outside both keeps exact bits: a source of W is canonicalised when
 * it is copied in (a loaded NaN in the same phi keeps its payload, as it
 * does on the GPU).
 */
#include "emit_internal.h"

/* The f32 operations of the native path, which fset emits: directed
 * rounding calls helpers that look at the operands' bits. */
bool msl_is_nan_blind(const ir_instr *c)
{
   if (c->type != PTX_T_F32 || c->def.bits != 32)
      return false;
   if (c->rnd == IR_RND_RZ || c->rnd == IR_RND_RM || c->rnd == IR_RND_RP)
      return false;
   return c->op == IR_ADD || c->op == IR_SUB || c->op == IR_MUL || c->op == IR_DIV || c->op == IR_FMA;
}

static bool is_phi32(const ir_instr *i) { return i->op == IR_PHI && i->def.bits == 32 && i->def.ncomp == 1; }

/* A phi source that is canonical by origin: in W, undefined, or a
 * constant whose bits are NVIDIA's own. */
static bool src_canonical(const ir_def *d, const uint8_t *set)
{
   const ir_instr *p = d->parent;
   if (p->op == IR_UNDEF)
      return true;
   if (p->op == IR_CONST) {
      uint32_t v = (uint32_t)p->imm;
      return (v & 0x7fffffffu) <= 0x7f800000u || v == 0x7fffffffu;
   }
   return set[d->index] & MSL_NAN_W;
}

/* W: the blind operations' results, then the phis of them (drop a phi with
 * a source outside until none is dropped). */
static void find_w(ir_func *f, uint8_t *set)
{
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b) {
         if (msl_is_nan_blind(i) || is_phi32(i))
            set[i->def.index] = MSL_NAN_W;
      }
   }
   for (bool changed = true; changed;) {
      changed = false;
      ir_foreach_block(b, f) {
         ir_foreach_instr(i, b) {
            if (i->op != IR_PHI || !(set[i->def.index] & MSL_NAN_W))
               continue;
            for (uint32_t k = 0; k < i->nsrcs; k++) {
               if (!src_canonical(i->srcs[k].def, set)) {
                  set[i->def.index] = 0;
                  changed = true;
                  break;
               }
            }
         }
      }
   }
}

/* A use that never shows the bits it reads. */
static bool use_hides_bits(const ir_src *u, const uint8_t *set)
{
   const ir_instr *c = u->parent;
   if (u < c->srcs || u >= c->srcs + c->nsrcs)
      return false;   /* a guard or old value, not an operand */
   if (c->op == IR_PHI)
      return set[c->def.index] != 0;
   return msl_is_nan_blind(c);
}

/* L: the other 32-bit defs, dropped while one has a use that shows bits. */
static void find_l(ir_func *f, uint8_t *set)
{
   ir_foreach_block(b, f) {
      ir_foreach_instr(i, b) {
         if (i->def.bits == 32 && i->def.ncomp == 1 && i->def.uses && !set[i->def.index])
            set[i->def.index] = MSL_NAN_L;
      }
   }
   for (bool changed = true; changed;) {
      changed = false;
      ir_foreach_block(b, f) {
         ir_foreach_instr(i, b) {
            if (!i->def.bits || !(set[i->def.index] & MSL_NAN_L))
               continue;
            ir_foreach_use(u, &i->def) {
               if (!use_hides_bits(u, set)) {
                  set[i->def.index] = 0;
                  changed = true;
                  break;
               }
            }
         }
      }
   }
}

uint8_t *msl_nan_loose(ir_func *f, arena *ar)
{
   uint8_t *set = arena_alloc(ar, (size_t)f->ndefs + 1);
   if (!set)
      return NULL;
   find_w(f, set);
   find_l(f, set);
   return set;
}
