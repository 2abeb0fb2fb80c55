/*
 * build_util.c — helpers every instruction family uses: the instruction as
 * written (for messages), checks of types, operands and modifiers, the
 * rounding mode and flags, and "read the sources, emit the op, write the
 * destination".
 */
#include "build.h"

#include <stdio.h>
#include <string.h>

/* The instruction as written, for messages: "add.rz.f32". */
const char *bld_spelled(build_ctx *c)
{
   const ptx_instr *in = c->in;
   char buf[256];
   int n = snprintf(buf, sizeof(buf), "%s", ptx_opcode_names[in->op]);
   for (unsigned k = 0; k < in->nmods && n < (int)sizeof(buf); k++)
      n += snprintf(buf + n, sizeof(buf) - (size_t)n, ".%s", ptx_mod_names[in->mods[k]]);
   if (in->vec && n < (int)sizeof(buf))
      n += snprintf(buf + n, sizeof(buf) - (size_t)n, ".v%u", in->vec);
   for (unsigned k = 0; k < in->ntypes && n < (int)sizeof(buf); k++)
      n += snprintf(buf + n, sizeof(buf) - (size_t)n, ".%s", ptx_type_names[in->types[k]]);
   char *s = arena_printf(c->ar, "'%s'", buf);
   return s ? s : "instruction";
}

bool bld_refuse(build_ctx *c) { return bld_unsupported(c, bld_spelled(c)); }

bool bld_need_types(build_ctx *c, unsigned n)
{
   if (c->in->ntypes != n)
      return ir_error(c->m, c->line, "%s: expected %u type suffix%s", bld_spelled(c), n, n == 1 ? "" : "es");
   return true;
}

bool bld_need_opnds(build_ctx *c, unsigned n)
{
   if (c->in->nopnds != n)
      return ir_error(c->m, c->line, "%s: expected %u operands, got %u", bld_spelled(c), n, c->in->nopnds);
   return true;
}

ir_rnd bld_rnd(build_ctx *c)
{
   static const struct { ptx_mod m; ir_rnd r; } map[] = {
      { PTX_MOD_RN, IR_RND_RN }, { PTX_MOD_RZ, IR_RND_RZ }, { PTX_MOD_RM, IR_RND_RM },
      { PTX_MOD_RP, IR_RND_RP }, { PTX_MOD_RNI, IR_RND_RNI }, { PTX_MOD_RZI, IR_RND_RZI },
      { PTX_MOD_RMI, IR_RND_RMI }, { PTX_MOD_RPI, IR_RND_RPI },
   };
   for (size_t k = 0; k < ARRAY_SIZE(map); k++)
      if (bld_has(c, map[k].m))
         return map[k].r;
   return IR_RND_NONE;
}

uint16_t bld_flags(build_ctx *c)
{
   uint16_t f = 0;
   if (bld_has(c, PTX_MOD_FTZ))
      f |= IR_F_FTZ;
   if (bld_has(c, PTX_MOD_SAT))
      f |= IR_F_SAT;
   if (bld_has(c, PTX_MOD_APPROX))
      f |= IR_F_APPROX;
   if (bld_has(c, PTX_MOD_FULL))
      f |= IR_F_FULL;
   return f;
}

/* Modifiers that change nothing for us (cache hints, .uni, .aligned ...). */
bool bld_is_harmless_mod(ptx_mod m)
{
   switch (m) {
   case PTX_MOD_UNI: case PTX_MOD_ALIGNED: case PTX_MOD_CA: case PTX_MOD_CG: case PTX_MOD_CS:
   case PTX_MOD_LU: case PTX_MOD_CV: case PTX_MOD_WB: case PTX_MOD_WT: case PTX_MOD_NC:
   case PTX_MOD_WEAK: case PTX_MOD_L1_EVICT_NORMAL: case PTX_MOD_L1_EVICT_UNCHANGED:
   case PTX_MOD_L1_EVICT_FIRST: case PTX_MOD_L1_EVICT_LAST: case PTX_MOD_L1_NO_ALLOCATE:
   case PTX_MOD_L2_EVICT_NORMAL: case PTX_MOD_L2_EVICT_FIRST: case PTX_MOD_L2_EVICT_LAST:
   case PTX_MOD_L2_64B: case PTX_MOD_L2_128B: case PTX_MOD_L2_256B:
      return true;
   default:
      return false;
   }
}

/* Refuses any modifier not in `allowed` (and not harmless): an unknown
 * combination is never silently ignored. */
bool bld_only_mods(build_ctx *c, const ptx_mod *allowed, size_t n)
{
   for (unsigned k = 0; k < c->in->nmods; k++) {
      ptx_mod m = c->in->mods[k];
      bool ok = bld_is_harmless_mod(m);
      for (size_t j = 0; j < n && !ok; j++)
         ok = allowed[j] == m;
      if (!ok)
         return bld_refuse(c);
   }
   return true;
}

/* a op b as a new def (1 bit for IR_SETP, else a's width), or NULL if a
 * or b is NULL (an earlier error): calls nest without checks between. */
ir_def *bld_op2(build_ctx *c, ir_op op, ptx_type t, ir_def *a, ir_def *b)
{
   ir_instr *i = a && b ? bld_emit(c, op, 2, op == IR_SETP ? 1 : a->bits, 1) : NULL;
   if (!i)
      return NULL;
   i->type = t;
   bld_set_src(i, 0, a);
   bld_set_src(i, 1, b);
   return &i->def;
}

/* sel ? one : 0 in `bits` bits (NULL if sel is). */
ir_def *bld_select_const(build_ctx *c, ir_def *sel, uint8_t bits, uint64_t one)
{
   ir_def *o = bld_const(c, bits, one), *z = bld_const(c, bits, 0);
   ir_instr *i = sel && o && z ? bld_emit(c, IR_SELECT, 3, bits, 1) : NULL;
   if (!i)
      return NULL;
   i->type = bits == 64 ? PTX_T_B64 : bits == 16 ? PTX_T_B16 : PTX_T_B32;
   bld_set_src(i, 0, sel);
   bld_set_src(i, 1, o);
   bld_set_src(i, 2, z);
   return &i->def;
}

/* cond ? a : b (NULL if any is). */
ir_def *bld_select(build_ctx *c, ir_def *cond, ir_def *a, ir_def *b)
{
   ir_instr *i = cond && a && b ? bld_emit(c, IR_SELECT, 3, a->bits, 1) : NULL;
   if (!i)
      return NULL;
   i->type = a->bits == 64 ? PTX_T_B64 : a->bits == 16 ? PTX_T_B16 : PTX_T_B32;
   bld_set_src(i, 0, cond);
   bld_set_src(i, 1, a);
   bld_set_src(i, 2, b);
   return &i->def;
}

/* cvt from st to dt with rounding r and IR_F_* flags (NULL if a is). */
ir_def *bld_cvt(build_ctx *c, ptx_type dt, ptx_type st, ir_rnd r, uint16_t flags, ir_def *a)
{
   ir_instr *i = a ? bld_emit(c, IR_CVT, 1, bld_type_bits(dt), 1) : NULL;
   if (!i)
      return NULL;
   i->type = dt;
   i->type2 = st;
   i->rnd = (uint8_t)r;
   i->flags = flags;
   bld_set_src(i, 0, a);
   return &i->def;
}

/* Emits op(srcs) with one def of `bits` and writes it to operand 0. */
bool bld_alu(build_ctx *c, ir_op op, ptx_type t, uint8_t bits, ir_def **srcs, unsigned n,
                     uint8_t sub, ptx_type dst_type)
{
   for (unsigned k = 0; k < n; k++)
      if (!srcs[k])
         return false;
   ir_instr *i = bld_emit(c, op, n, bits, 1);
   if (!i)
      return false;
   i->type = t;
   i->sub = sub;
   i->rnd = (uint8_t)bld_rnd(c);
   i->flags = bld_flags(c);
   for (unsigned k = 0; k < n; k++)
      bld_set_src(i, k, srcs[k]);
   return bld_write(c, c->in->opnds[0], &i->def, dst_type);
}

/* d = op(a, b, ...) with every operand of the instruction type. */
bool bld_simple_alu(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!bld_need_types(c, 1) || !bld_need_opnds(c, nsrc + 1))
      return false;
   ptx_type t = c->in->types[0];
   uint8_t bits = bld_type_bits(t);
   ir_def *s[4];
   for (unsigned k = 0; k < nsrc; k++)
      s[k] = bld_src(c, k + 1, t, bits);
   return bld_alu(c, op, t, bits, s, nsrc, 0, t);
}

bool bld_is_int16_64(ptx_type t)
{
   return ptx_type_is_int(t) && ptx_type_bits[t] >= 16;
}

