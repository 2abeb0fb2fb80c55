/*
 * build_instr.c — one function per PTX instruction family, turning the
 * current instruction (c->in) into IR.  Control-flow instructions (bra,
 * ret, exit, trap) are handled by build.c.
 *
 * Each function first reads its sources (which may emit constants and
 * resizes), then emits the operation, then writes the destination.  Forms
 * the translator cannot yet do exactly are refused by name, never
 * approximated (ARCHITECTURE §4): the message names the instruction as
 * written and the PTX line.
 */
#include "build.h"

#include <stdio.h>
#include <string.h>

/* The instruction as written, for messages: "add.rz.f32". */
static const char *spelled(build_ctx *c)
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

static bool refuse(build_ctx *c) { return bld_unsupported(c, spelled(c)); }

static bool need_types(build_ctx *c, unsigned n)
{
   if (c->in->ntypes != n)
      return ir_error(c->m, c->line, "%s: expected %u type suffix%s", spelled(c), n, n == 1 ? "" : "es");
   return true;
}

static bool need_opnds(build_ctx *c, unsigned n)
{
   if (c->in->nopnds != n)
      return ir_error(c->m, c->line, "%s: expected %u operands, got %u", spelled(c), n, c->in->nopnds);
   return true;
}

static ir_rnd rnd_of(build_ctx *c)
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

static uint16_t flags_of(build_ctx *c)
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
static bool is_harmless_mod(ptx_mod m)
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
static bool only_mods(build_ctx *c, const ptx_mod *allowed, size_t n)
{
   for (unsigned k = 0; k < c->in->nmods; k++) {
      ptx_mod m = c->in->mods[k];
      bool ok = is_harmless_mod(m);
      for (size_t j = 0; j < n && !ok; j++)
         ok = allowed[j] == m;
      if (!ok)
         return refuse(c);
   }
   return true;
}
#define ONLY_MODS(c, ...)                                                     \
   only_mods((c), (const ptx_mod[]){ PTX_MOD_INVALID, __VA_ARGS__ },          \
             sizeof((const ptx_mod[]){ PTX_MOD_INVALID, __VA_ARGS__ }) / sizeof(ptx_mod))

static bool float_ok(build_ctx *c, ptx_type t)
{
   if (t == PTX_T_F64)
      return ir_error(c->m, c->line, "%s: 64-bit floating point is not supported yet", spelled(c));
   if (t != PTX_T_F32 && t != PTX_T_F16)
      return refuse(c);
   ir_rnd r = rnd_of(c);
   if (r == IR_RND_RZ || r == IR_RND_RM || r == IR_RND_RP)
      return ir_error(c->m, c->line, "%s: directed rounding of arithmetic is not supported yet", spelled(c));
   return true;
}

/* Emits op(srcs) with one def of `bits` and writes it to operand 0. */
static bool emit_alu(build_ctx *c, ir_op op, ptx_type t, uint8_t bits, ir_def **srcs, unsigned n,
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
   i->rnd = (uint8_t)rnd_of(c);
   i->flags = flags_of(c);
   for (unsigned k = 0; k < n; k++)
      bld_set_src(i, k, srcs[k]);
   return bld_write(c, c->in->opnds[0], &i->def, dst_type);
}

/* d = op(a, b, ...) with every operand of the instruction type. */
static bool simple_alu(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!need_types(c, 1) || !need_opnds(c, nsrc + 1))
      return false;
   ptx_type t = c->in->types[0];
   uint8_t bits = bld_type_bits(t);
   ir_def *s[4];
   for (unsigned k = 0; k < nsrc; k++)
      s[k] = bld_src(c, k + 1, t, bits);
   return emit_alu(c, op, t, bits, s, nsrc, 0, t);
}

static bool is_int16_64(ptx_type t)
{
   return ptx_type_is_int(t) && ptx_type_bits[t] >= 16;
}

static bool tr_add_sub(build_ctx *c, ir_op op)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (bld_has(c, PTX_MOD_CC) || c->in->op == PTX_OP_ADDC || c->in->op == PTX_OP_SUBC)
      return ir_error(c->m, c->line, "%s: carry chains (.cc) are not supported yet", spelled(c));
   if (is_int16_64(t)) {
      if (bld_has(c, PTX_MOD_SAT) && t != PTX_T_S32)
         return refuse(c);
      return ONLY_MODS(c, PTX_MOD_SAT) && simple_alu(c, op, 2);
   }
   return float_ok(c, t) && ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_FTZ, PTX_MOD_SAT) && simple_alu(c, op, 2);
}

static bool tr_mul_mad(build_ctx *c, bool mad)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   unsigned nsrc = mad ? 3 : 2;
   if (ptx_type_is_float(t)) {
      if (mad && rnd_of(c) == IR_RND_NONE && t == PTX_T_F32)
         return ir_error(c->m, c->line, "%s: mad.f32 without a rounding modifier is not supported", spelled(c));
      return float_ok(c, t) && ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_FTZ, PTX_MOD_SAT) &&
             simple_alu(c, mad ? IR_FMA : IR_MUL, nsrc);
   }
   if (!is_int16_64(t))
      return refuse(c);
   ir_mulmode mode = bld_has(c, PTX_MOD_HI) ? IR_MUL_HI : bld_has(c, PTX_MOD_WIDE) ? IR_MUL_WIDE : IR_MUL_LO;
   if (!bld_has(c, PTX_MOD_HI) && !bld_has(c, PTX_MOD_WIDE) && !bld_has(c, PTX_MOD_LO))
      return ir_error(c->m, c->line, "%s: integer multiply needs .lo, .hi or .wide", spelled(c));
   if (bld_has(c, PTX_MOD_SAT) && !(mad && mode == IR_MUL_HI && t == PTX_T_S32))
      return refuse(c);
   if (bld_has(c, PTX_MOD_CC))
      return ir_error(c->m, c->line, "%s: carry chains (.cc) are not supported yet", spelled(c));
   if (mode == IR_MUL_WIDE && ptx_type_bits[t] == 64)
      return refuse(c);
   if (!ONLY_MODS(c, PTX_MOD_LO, PTX_MOD_HI, PTX_MOD_WIDE, PTX_MOD_SAT) || !need_opnds(c, nsrc + 1))
      return false;
   uint8_t bits = bld_type_bits(t);
   uint8_t dbits = mode == IR_MUL_WIDE ? (uint8_t)(bits * 2) : bits;
   ptx_type wide_t = t;
   if (mode == IR_MUL_WIDE) {
      static const ptx_type wider[PTX_T_COUNT] = {
         [PTX_T_U16] = PTX_T_U32, [PTX_T_U32] = PTX_T_U64,
         [PTX_T_S16] = PTX_T_S32, [PTX_T_S32] = PTX_T_S64,
      };
      wide_t = wider[t];
   }
   ir_def *s[3];
   s[0] = bld_src(c, 1, t, bits);
   s[1] = bld_src(c, 2, t, bits);
   if (mad)
      s[2] = bld_src(c, 3, wide_t, dbits);
   return emit_alu(c, mad ? IR_MAD : IR_MUL, t, dbits, s, nsrc, (uint8_t)mode, wide_t);
}

static bool tr_mul24(build_ctx *c, bool mad)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_U32 && t != PTX_T_S32)
      return refuse(c);
   if (!ONLY_MODS(c, PTX_MOD_LO, PTX_MOD_HI, PTX_MOD_SAT))
      return false;
   if (!bld_has(c, PTX_MOD_LO) && !bld_has(c, PTX_MOD_HI))
      return ir_error(c->m, c->line, "%s: needs .lo or .hi", spelled(c));
   if (bld_has(c, PTX_MOD_SAT) && !(mad && bld_has(c, PTX_MOD_HI) && t == PTX_T_S32))
      return refuse(c);
   unsigned nsrc = mad ? 3 : 2;
   if (!need_opnds(c, nsrc + 1))
      return false;
   ir_def *s[3];
   for (unsigned k = 0; k < nsrc; k++)
      s[k] = bld_src(c, k + 1, t, 32);
   return emit_alu(c, mad ? IR_MAD24 : IR_MUL24, t, 32, s, nsrc,
                   bld_has(c, PTX_MOD_HI) ? IR_MUL_HI : IR_MUL_LO, t);
}

static bool tr_div(build_ctx *c)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (is_int16_64(t))
      return ONLY_MODS(c) && simple_alu(c, IR_DIV, 2);
   if (t != PTX_T_F32)
      return float_ok(c, t) && refuse(c);
   if (!bld_has(c, PTX_MOD_APPROX) && !bld_has(c, PTX_MOD_FULL) && !bld_has(c, PTX_MOD_RN))
      return ir_error(c->m, c->line, "%s: div.f32 needs .approx, .full or a rounding modifier", spelled(c));
   return float_ok(c, t) && ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_FULL, PTX_MOD_RN, PTX_MOD_FTZ) &&
          simple_alu(c, IR_DIV, 2);
}

static bool tr_int_only(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!need_types(c, 1))
      return false;
   if (!is_int16_64(c->in->types[0]))
      return refuse(c);
   return ONLY_MODS(c) && simple_alu(c, op, nsrc);
}

static bool tr_abs_neg_min_max(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (ptx_type_is_int(t) && ptx_type_bits[t] >= 16) {
      if ((op == IR_ABS || op == IR_NEG) && !ptx_type_is_signed(t))
         return refuse(c);
      return ONLY_MODS(c) && simple_alu(c, op, nsrc);
   }
   return float_ok(c, t) && ONLY_MODS(c, PTX_MOD_FTZ) && simple_alu(c, op, nsrc);
}

static bool tr_logic(build_ctx *c, ir_op op, unsigned nsrc)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   bool ok = t == PTX_T_PRED || t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64;
   if (op == IR_CNOT && t == PTX_T_PRED)
      ok = false;
   return ok ? ONLY_MODS(c) && simple_alu(c, op, nsrc) : refuse(c);
}

static bool tr_shift(build_ctx *c, ir_op op)
{
   if (!need_types(c, 1) || !need_opnds(c, 3))
      return false;
   ptx_type t = c->in->types[0];
   bool ok = t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64;
   if (op == IR_SHR)
      ok = ok || is_int16_64(t);
   if (!ok || !ONLY_MODS(c))
      return ok ? false : refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s[2] = { bld_src(c, 1, t, bits), bld_src(c, 2, PTX_T_U32, 32) };
   return emit_alu(c, op, t, bits, s, 2, 0, t);
}

/* popc, clz: .b32/.b64 source, .u32 result; brev: same type. */
static bool tr_bitcount(build_ctx *c, ir_op op)
{
   if (!need_types(c, 1) || !need_opnds(c, 2) || !ONLY_MODS(c))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_B32 && t != PTX_T_B64)
      return refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s = bld_src(c, 1, t, bits);
   if (op == IR_BREV)
      return emit_alu(c, op, t, bits, &s, 1, 0, t);
   return emit_alu(c, op, t, 32, &s, 1, 0, PTX_T_U32);
}

static bool tr_bfe_bfi(build_ctx *c, bool insert)
{
   if (!need_types(c, 1) || !need_opnds(c, insert ? 5 : 4) || !ONLY_MODS(c))
      return false;
   ptx_type t = c->in->types[0];
   bool ok = insert ? (t == PTX_T_B32 || t == PTX_T_B64)
                    : (t == PTX_T_U32 || t == PTX_T_U64 || t == PTX_T_S32 || t == PTX_T_S64);
   if (!ok)
      return refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s[4];
   unsigned nval = insert ? 2 : 1;
   for (unsigned k = 0; k < nval; k++)
      s[k] = bld_src(c, k + 1, t, bits);
   s[nval] = bld_src(c, nval + 1, PTX_T_U32, 32);
   s[nval + 1] = bld_src(c, nval + 2, PTX_T_U32, 32);
   return emit_alu(c, insert ? IR_BFI : IR_BFE, t, bits, s, nval + 2, 0, t);
}

/* bfind{.shiftamt}.type d, a: position of the most significant non-sign
 * bit, 0xffffffff if none. */
static bool tr_bfind(build_ctx *c)
{
   if (!need_types(c, 1) || !need_opnds(c, 2) || !ONLY_MODS(c, PTX_MOD_SHIFTAMT))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_U64 && t != PTX_T_S64)
      return refuse(c);
   ir_def *a = bld_src(c, 1, t, bld_type_bits(t));
   return emit_alu(c, IR_BFIND, t, 32, &a, 1, bld_has(c, PTX_MOD_SHIFTAMT), PTX_T_U32);
}

/* prmt.b32{.mode} d, a, b, c: byte permute of the pool {b, a}. */
static bool tr_prmt(build_ctx *c)
{
   static const struct { ptx_mod m; ir_prmt p; } modes[] = {
      { PTX_MOD_F4E, IR_PRMT_F4E }, { PTX_MOD_B4E, IR_PRMT_B4E }, { PTX_MOD_RC8, IR_PRMT_RC8 },
      { PTX_MOD_ECL, IR_PRMT_ECL }, { PTX_MOD_ECR, IR_PRMT_ECR }, { PTX_MOD_RC16, IR_PRMT_RC16 },
   };
   if (!need_types(c, 1) || !need_opnds(c, 4) ||
       !ONLY_MODS(c, PTX_MOD_F4E, PTX_MOD_B4E, PTX_MOD_RC8, PTX_MOD_ECL, PTX_MOD_ECR, PTX_MOD_RC16))
      return false;
   if (c->in->types[0] != PTX_T_B32)
      return refuse(c);
   ir_prmt mode = IR_PRMT_DEFAULT;
   for (size_t k = 0; k < ARRAY_SIZE(modes); k++)
      if (bld_has(c, modes[k].m))
         mode = modes[k].p;
   ir_def *s[3] = { bld_src(c, 1, PTX_T_B32, 32), bld_src(c, 2, PTX_T_B32, 32), bld_src(c, 3, PTX_T_B32, 32) };
   return emit_alu(c, IR_PRMT, PTX_T_B32, 32, s, 3, (uint8_t)mode, PTX_T_B32);
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b, a}. */
static bool tr_shf(build_ctx *c)
{
   if (!need_types(c, 1) || !need_opnds(c, 4) ||
       !ONLY_MODS(c, PTX_MOD_L, PTX_MOD_R, PTX_MOD_WRAP, PTX_MOD_CLAMP))
      return false;
   if (c->in->types[0] != PTX_T_B32 || bld_has(c, PTX_MOD_L) == bld_has(c, PTX_MOD_R) ||
       bld_has(c, PTX_MOD_WRAP) == bld_has(c, PTX_MOD_CLAMP))
      return refuse(c);
   uint8_t flags = (uint8_t)((bld_has(c, PTX_MOD_L) ? IR_SHF_LEFT : 0) | (bld_has(c, PTX_MOD_CLAMP) ? IR_SHF_CLAMP : 0));
   ir_def *s[3] = { bld_src(c, 1, PTX_T_B32, 32), bld_src(c, 2, PTX_T_B32, 32), bld_src(c, 3, PTX_T_U32, 32) };
   return emit_alu(c, IR_SHF, PTX_T_B32, 32, s, 3, flags, PTX_T_B32);
}

static bool tr_sad(build_ctx *c)
{
   if (!need_types(c, 1) || !is_int16_64(c->in->types[0]))
      return c->in->ntypes == 1 ? refuse(c) : false;
   return ONLY_MODS(c) && simple_alu(c, IR_SAD, 3);
}

static bool tr_float_unary(build_ctx *c, ir_op op)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_F32)
      return float_ok(c, t) && refuse(c);
   bool approx_only = op == IR_SIN || op == IR_COS || op == IR_LG2 || op == IR_EX2 ||
                      op == IR_TANH || op == IR_RSQRT;
   if (approx_only && !bld_has(c, PTX_MOD_APPROX))
      return refuse(c);
   if (!approx_only && !bld_has(c, PTX_MOD_APPROX) && !bld_has(c, PTX_MOD_RN))
      return ir_error(c->m, c->line, "%s: needs .approx or a rounding modifier", spelled(c));
   return float_ok(c, t) && ONLY_MODS(c, PTX_MOD_APPROX, PTX_MOD_RN, PTX_MOD_FTZ) &&
          simple_alu(c, op, 1);
}

static bool tr_fma(build_ctx *c)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (rnd_of(c) == IR_RND_NONE && t != PTX_T_F64)
      return ir_error(c->m, c->line, "%s: fma needs a rounding modifier", spelled(c));
   return float_ok(c, t) && ONLY_MODS(c, PTX_MOD_RN, PTX_MOD_FTZ, PTX_MOD_SAT) && simple_alu(c, IR_FMA, 3);
}

static bool tr_copysign(build_ctx *c)
{
   if (!need_types(c, 1))
      return false;
   ptx_type t = c->in->types[0];
   if (t != PTX_T_F32)
      return float_ok(c, t) && refuse(c);
   return ONLY_MODS(c) && simple_alu(c, IR_COPYSIGN, 2);
}

static bool cmp_of(build_ctx *c, ptx_type t, ir_cmp *out)
{
   static const struct { ptx_mod m; ir_cmp cmp; bool ints; } map[] = {
      { PTX_MOD_EQ, IR_CMP_EQ, true }, { PTX_MOD_NE, IR_CMP_NE, true },
      { PTX_MOD_LT, IR_CMP_LT, true }, { PTX_MOD_LE, IR_CMP_LE, true },
      { PTX_MOD_GT, IR_CMP_GT, true }, { PTX_MOD_GE, IR_CMP_GE, true },
      { PTX_MOD_LO, IR_CMP_LT, true }, { PTX_MOD_LS, IR_CMP_LE, true },
      { PTX_MOD_HI, IR_CMP_GT, true }, { PTX_MOD_HS, IR_CMP_GE, true },
      { PTX_MOD_EQU, IR_CMP_EQU, false }, { PTX_MOD_NEU, IR_CMP_NEU, false },
      { PTX_MOD_LTU, IR_CMP_LTU, false }, { PTX_MOD_LEU, IR_CMP_LEU, false },
      { PTX_MOD_GTU, IR_CMP_GTU, false }, { PTX_MOD_GEU, IR_CMP_GEU, false },
      { PTX_MOD_NUM, IR_CMP_NUM, false }, { PTX_MOD_NAN_CMP, IR_CMP_NAN, false },
   };
   for (size_t k = 0; k < ARRAY_SIZE(map); k++) {
      if (!bld_has(c, map[k].m))
         continue;
      bool is_lohs = map[k].m == PTX_MOD_LO || map[k].m == PTX_MOD_LS || map[k].m == PTX_MOD_HI ||
                     map[k].m == PTX_MOD_HS;
      /* lo/ls/hi/hs are unsigned comparisons: ptxas rejects them on .bN */
      if ((!map[k].ints && !ptx_type_is_float(t)) || (is_lohs && !ptx_type_is_unsigned(t)))
         return refuse(c);
      *out = map[k].cmp;
      return true;
   }
   return ir_error(c->m, c->line, "%s: missing comparison operator", spelled(c));
}

static ir_op boolop_of(build_ctx *c)
{
   if (bld_has(c, PTX_MOD_AND))
      return IR_AND;
   if (bld_has(c, PTX_MOD_OR))
      return IR_OR;
   if (bld_has(c, PTX_MOD_XOR))
      return IR_XOR;
   return IR_OP_COUNT;
}

static ir_def *pred_op(build_ctx *c, ir_op op, ir_def *a, ir_def *b)
{
   if (!a || (op != IR_NOT && !b))
      return NULL;
   ir_instr *i = bld_emit(c, op, op == IR_NOT ? 1 : 2, 1, 1);
   if (!i)
      return NULL;
   i->type = PTX_T_PRED;
   bld_set_src(i, 0, a);
   if (op != IR_NOT)
      bld_set_src(i, 1, b);
   return &i->def;
}

static bool cmp_mods_ok(build_ctx *c)
{
   for (unsigned k = 0; k < c->in->nmods; k++) {
      ptx_mod m = c->in->mods[k];
      if (m == PTX_MOD_FTZ && ptx_type_is_float(c->in->types[c->in->ntypes - 1]))
         continue;
      if (m == PTX_MOD_AND || m == PTX_MOD_OR || m == PTX_MOD_XOR)
         continue;
      if (m == PTX_MOD_EQ || m == PTX_MOD_NE || m == PTX_MOD_LT || m == PTX_MOD_LE ||
          m == PTX_MOD_GT || m == PTX_MOD_GE || m == PTX_MOD_LO || m == PTX_MOD_LS ||
          m == PTX_MOD_HI || m == PTX_MOD_HS || m == PTX_MOD_EQU || m == PTX_MOD_NEU ||
          m == PTX_MOD_LTU || m == PTX_MOD_LEU || m == PTX_MOD_GTU || m == PTX_MOD_GEU ||
          m == PTX_MOD_NUM || m == PTX_MOD_NAN_CMP)
         continue;
      return refuse(c);
   }
   return true;
}

/* setp.cmp[.bop].type p[|q], a, b[, {!}c]:
 *   p = (a cmp b) bop c;  q = !(a cmp b) bop c. */
static bool tr_setp(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!need_types(c, 1) || !cmp_mods_ok(c))
      return false;
   ptx_type t = in->types[0];
   if (t == PTX_T_F64)
      return float_ok(c, t);
   if (ptx_type_is_float(t) && t != PTX_T_F32 && t != PTX_T_F16)
      return refuse(c);
   ir_cmp cmp;
   if (!cmp_of(c, t, &cmp))
      return false;
   unsigned ndst = in->has_pair_dst ? 2 : 1;
   ir_op bop = boolop_of(c);
   unsigned nexp = ndst + 2 + (bop != IR_OP_COUNT);
   if (!need_opnds(c, nexp))
      return false;
   uint8_t bits = bld_type_bits(t);
   ir_def *a = bld_src(c, ndst, t, bits), *b = bld_src(c, ndst + 1, t, bits);
   ir_def *pc = bop != IR_OP_COUNT ? bld_src(c, ndst + 2, PTX_T_PRED, 1) : NULL;
   if (!a || !b || (bop != IR_OP_COUNT && !pc))
      return false;
   ir_instr *i = bld_emit(c, IR_SETP, 2, 1, 1);
   if (!i)
      return false;
   i->type = t;
   i->sub = (uint8_t)cmp;
   i->flags = flags_of(c);
   bld_set_src(i, 0, a);
   bld_set_src(i, 1, b);
   ir_def *r = &i->def;
   ir_def *p = bop != IR_OP_COUNT ? pred_op(c, bop, r, pc) : r;
   if (!bld_write(c, in->opnds[0], p, PTX_T_PRED))
      return false;
   if (ndst == 2) {
      ir_def *nr = pred_op(c, IR_NOT, r, NULL);
      ir_def *q = bop != IR_OP_COUNT ? pred_op(c, bop, nr, pc) : nr;
      if (!bld_write(c, in->opnds[1], q, PTX_T_PRED))
         return false;
   }
   return true;
}

/* set.cmp[.bop].dtype.stype d, a, b[, {!}c]: d = all ones (or 1.0f) if true. */
static bool tr_set(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!need_types(c, 2) || !cmp_mods_ok(c))
      return false;
   ptx_type dt = in->types[0], st = in->types[1];
   if (st == PTX_T_F64)
      return float_ok(c, st);
   if (!(dt == PTX_T_U32 || dt == PTX_T_S32 || dt == PTX_T_F32) ||
       (ptx_type_is_float(st) && st != PTX_T_F32))
      return refuse(c);
   ir_cmp cmp;
   if (!cmp_of(c, st, &cmp))
      return false;
   ir_op bop = boolop_of(c);
   if (!need_opnds(c, 3 + (bop != IR_OP_COUNT)))
      return false;
   uint8_t bits = bld_type_bits(st);
   ir_def *a = bld_src(c, 1, st, bits), *b = bld_src(c, 2, st, bits);
   ir_def *pc = bop != IR_OP_COUNT ? bld_src(c, 3, PTX_T_PRED, 1) : NULL;
   if (!a || !b || (bop != IR_OP_COUNT && !pc))
      return false;
   ir_instr *i = bld_emit(c, IR_SETP, 2, 1, 1);
   if (!i)
      return false;
   i->type = st;
   i->sub = (uint8_t)cmp;
   i->flags = flags_of(c);
   bld_set_src(i, 0, a);
   bld_set_src(i, 1, b);
   ir_def *p = bop != IR_OP_COUNT ? pred_op(c, bop, &i->def, pc) : &i->def;
   ir_def *one = bld_const(c, 32, dt == PTX_T_F32 ? 0x3f800000u : 0xffffffffu);
   ir_def *zero = bld_const(c, 32, 0);
   ir_instr *sel = bld_emit(c, IR_SELECT, 3, 32, 1);
   if (!p || !one || !zero || !sel)
      return false;
   sel->type = PTX_T_B32;
   bld_set_src(sel, 0, p);
   bld_set_src(sel, 1, one);
   bld_set_src(sel, 2, zero);
   return bld_write(c, in->opnds[0], &sel->def, dt);
}

static bool tr_selp(build_ctx *c)
{
   if (!need_types(c, 1) || !need_opnds(c, 4) || !ONLY_MODS(c))
      return false;
   ptx_type t = c->in->types[0];
   if (t == PTX_T_PRED || ptx_type_bits[t] < 16)
      return refuse(c);
   uint8_t bits = bld_type_bits(t);
   ir_def *s[3] = { bld_src(c, 3, PTX_T_PRED, 1), bld_src(c, 1, t, bits), bld_src(c, 2, t, bits) };
   return emit_alu(c, IR_SELECT, t, bits, s, 3, 0, t);
}

static bool tr_bar(build_ctx *c)
{
   const ptx_instr *in = c->in;
   /* bar.sync a / barrier.sync a / bar.sync a, b / barrier.sync.aligned a */
   if (bld_has(c, PTX_MOD_ARRIVE) || bld_has(c, PTX_MOD_RED_MOD))
      return refuse(c);
   if (in->op == PTX_OP_BAR && bld_has(c, PTX_MOD_WARP))
      return refuse(c);
   if (in->nopnds != 1 || in->opnds[0]->kind != PTX_OPND_IMM_INT)
      return ir_error(c->m, c->line, "%s with a thread count or a register barrier id is not supported yet",
                      spelled(c));
   if (!ONLY_MODS(c, PTX_MOD_SYNC))
      return false;
   ir_instr *i = bld_emit(c, IR_BAR, 0, 0, 0);
   if (!i)
      return false;
   i->imm = in->opnds[0]->u.imm.bits;
   bld_guard(c, i, NULL);
   return true;
}

static bool tr_membar(build_ctx *c)
{
   ir_instr *i = bld_emit(c, IR_MEMBAR, 0, 0, 0);
   if (!i)
      return false;
   i->sub = bld_has(c, PTX_MOD_CTA) ? 0 : bld_has(c, PTX_MOD_SYS) ? 2 : 1;
   bld_guard(c, i, NULL);
   return true;
}

bool bld_instr(build_ctx *c)
{
   switch (c->in->op) {
   case PTX_OP_ADD: case PTX_OP_ADDC: return tr_add_sub(c, IR_ADD);
   case PTX_OP_SUB: case PTX_OP_SUBC: return tr_add_sub(c, IR_SUB);
   case PTX_OP_MUL: return tr_mul_mad(c, false);
   case PTX_OP_MAD: return tr_mul_mad(c, true);
   case PTX_OP_MUL24: return tr_mul24(c, false);
   case PTX_OP_MAD24: return tr_mul24(c, true);
   case PTX_OP_SAD: return tr_sad(c);
   case PTX_OP_DIV: return tr_div(c);
   case PTX_OP_REM: return tr_int_only(c, IR_REM, 2);
   case PTX_OP_ABS: return tr_abs_neg_min_max(c, IR_ABS, 1);
   case PTX_OP_NEG: return tr_abs_neg_min_max(c, IR_NEG, 1);
   case PTX_OP_MIN: return tr_abs_neg_min_max(c, IR_MIN, 2);
   case PTX_OP_MAX: return tr_abs_neg_min_max(c, IR_MAX, 2);
   case PTX_OP_AND: return tr_logic(c, IR_AND, 2);
   case PTX_OP_OR: return tr_logic(c, IR_OR, 2);
   case PTX_OP_XOR: return tr_logic(c, IR_XOR, 2);
   case PTX_OP_NOT: return tr_logic(c, IR_NOT, 1);
   case PTX_OP_CNOT: return tr_logic(c, IR_CNOT, 1);
   case PTX_OP_SHL: return tr_shift(c, IR_SHL);
   case PTX_OP_SHR: return tr_shift(c, IR_SHR);
   case PTX_OP_POPC: return tr_bitcount(c, IR_POPC);
   case PTX_OP_CLZ: return tr_bitcount(c, IR_CLZ);
   case PTX_OP_BREV: return tr_bitcount(c, IR_BREV);
   case PTX_OP_BFE: return tr_bfe_bfi(c, false);
   case PTX_OP_BFI: return tr_bfe_bfi(c, true);
   case PTX_OP_BFIND: return tr_bfind(c);
   case PTX_OP_PRMT: return tr_prmt(c);
   case PTX_OP_SHF: return tr_shf(c);
   case PTX_OP_SETP: return tr_setp(c);
   case PTX_OP_SET: return tr_set(c);
   case PTX_OP_SELP: return tr_selp(c);
   case PTX_OP_FMA: return tr_fma(c);
   case PTX_OP_RCP: return tr_float_unary(c, IR_RCP);
   case PTX_OP_SQRT: return tr_float_unary(c, IR_SQRT);
   case PTX_OP_RSQRT: return tr_float_unary(c, IR_RSQRT);
   case PTX_OP_SIN: return tr_float_unary(c, IR_SIN);
   case PTX_OP_COS: return tr_float_unary(c, IR_COS);
   case PTX_OP_LG2: return tr_float_unary(c, IR_LG2);
   case PTX_OP_EX2: return tr_float_unary(c, IR_EX2);
   case PTX_OP_TANH: return tr_float_unary(c, IR_TANH);
   case PTX_OP_COPYSIGN: return tr_copysign(c);
   case PTX_OP_CVT: return bld_tr_cvt(c);
   case PTX_OP_CVTA: return bld_tr_cvta(c);
   case PTX_OP_MOV: return bld_tr_mov(c);
   case PTX_OP_LD: case PTX_OP_LDU: return bld_tr_ld(c);
   case PTX_OP_ST: return bld_tr_st(c);
   case PTX_OP_BAR: case PTX_OP_BARRIER: return tr_bar(c);
   case PTX_OP_MEMBAR: case PTX_OP_FENCE: return tr_membar(c);
   case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_NANOSLEEP:
      return true;   /* hints without observable effect */
   case PTX_OP_CALL:
      return ir_error(c->m, c->line, "calls to functions (%s) are not supported yet", spelled(c));
   default:
      return refuse(c);
   }
}
