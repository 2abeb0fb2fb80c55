/*
 * build_mma.c — warp-level matrix instructions: mma.sync, wmma, ldmatrix,
 * stmatrix, movmatrix.
 *
 * PTX ISA 9.0 §9.7.14.  Metal's simdgroup_matrix rounds otherwise than a
 * tensor core, so each is a warp operation of its own (IR_MMA,
 * IR_LDMATRIX, IR_STMATRIX), done by prelude/mma.metal with SIMD-group
 * shuffles and plain arithmetic in the tensor core's rounding (measured on
 * an H200: the file header of mma.metal).
 *
 * mma.sync.aligned forms (.row.col):
 *   m16n8k16 / m16n8k8   .f32.f16.f16.f32  .f32.bf16.bf16.f32  .f16.f16.f16.f16
 *   m16n8k8 / m16n8k4    .f32.tf32.tf32.f32
 *   m8n8k4               .f64.f64.f64.f64
 *   m16n8k32 / m16n8k16 / m8n8k16   .s32.{s8,u8}.{s8,u8}.s32 {.satfinite}
 *   m16n8k64 / m16n8k32 / m8n8k32   .s32.{s4,u4}.{s4,u4}.s32 {.satfinite}
 *   m16n8k256 / m16n8k128 / m8n8k128  .s32.b1.b1.s32.{xor,and}.popc
 * The integer and binary shapes share one fragment scheme: a row of A and
 * a column of B are 4 or 8 32-bit words of 4, 8 or 32 elements, laid out
 * as m16n8k16's f16 words (PTX ISA 9.0 §9.7.14.5.x); the m8n8 shapes are
 * the m16n8 ones' rows 0-7 (IR_MMA_M8: one A register, D two).
 * wmma (the fragment layout is ours, PTX leaves it unspecified; each is
 * made of the fragments of mma.sync shapes, and wmma.mma is those
 * operations):
 *   f16/bf16 inputs, f32/f16 accumulators (m16n8k16 fragments):
 *   m16n16k16  a 0-3 the A fragment (4-7 a copy); b 0-1, 2-3 the B
 *              fragments of columns 0-7, 8-15 (4-7 a copy); c/d 0-3, 4-7
 *              (f16: 0-1, 2-3) the accumulators of those columns; one
 *              operation over both column blocks (IR_MMA_COLS2: one
 *              exchange of the fragments);
 *   m32n8k16   a 0-3, 4-7 the A fragments of rows 0-15, 16-31; b 0-1 the
 *              B fragment (2-7 copies); c/d 0-3, 4-7 (f16: 0-1, 2-3) the
 *              accumulators of those rows; 2 ops;
 *   m8n32k16   a 0-3 the A fragment of rows 0-7 with rows 8-15 zero (4-7 a
 *              copy); b 0-1 ... 6-7 the B fragments of columns 0-7 ...
 *              24-31; c/d 2b, 2b+1 (f16: b) the row-g half of block b's
 *              accumulator; 4 ops whose rows 8-15 are discarded.
 *   bf16's a and b are those registers without the copies and the
 *   padding, as PTX sizes them (m16n16k16 a 4, b 4; m32n8k16 a 8, b 2;
 *   m8n32k16 a 2 (f16's 0 and 2), b 8: bf16_reg).
 *   s8/u8 inputs, s32 accumulators (as PTX sizes them: m16n16k16 a 2, b 2
 *   registers; m32n8k16 a 4, b 1; m8n32k16 a 1, b 4; c/d 8): the same
 *   blocks of m16n8k16 .s8 operations (m16n16k16: one of both column
 *   blocks; m8n32k16: four m8n8k16), the accumulators laid out as f32's.
 *   m16n16k8 tf32: a the m16n8k8 A fragment, b 0-1, 2-3 the B fragments of
 *   columns 0-7, 8-15, c/d as m16n16k16 f32's; two m16n8k4 operations of
 *   both column blocks, k 0-3 (a 0-1, b 0 and 2) then k 4-7 (a 2-3, b 1
 *   and 3) with the first's result as C: what an H200 computes (one
 *   m16n8k8 rounds differently; tests/cuda/tensor_cores_fp).
 *   m8n8k4 f64, m8n8k32 s4/u4, m8n8k128 b1: one mma.sync m8n8k4 / m8n8k32
 *   / m8n8k128, whose fragments they are.
 * wmma.load/store are loads and stores of each lane's own elements (so
 * every state space and the generic windows work as for ld/st; a sub-byte
 * register is one aligned 32-bit word).  The shapes of one input type are
 * the same k-long dot products, so the tensor core's rounding (measured on
 * the mma.sync shapes) is theirs.
 * mma.sp{::ordered_metadata}.sync.aligned (A 2:4 sparse, tf32 1:2; PTX ISA
 * 9.0 §9.7.14.6): m16n8k16/k32 f16/bf16 (f16 accumulators for f16),
 * m16n8k8/k16 tf32, m16n8k32/k64 s8/u8, m16n8k64/k128 s4/u4 (.satfinite):
 * IR_MMA_SPARSE with the compressed A registers and the metadata register;
 * the selector must be below 4 / (metadata words a group needs), as ptxas
 * requires.  prelude/mma.metal's file header has the layout (measured on
 * an H200).
 * mma.sync.aligned.m8n8k4.{row,col}.{row,col}.{f16,f32}.f16.f16.{f16,f32}
 * (Volta's quad-pair form: four independent 8x8x4 products, PTX ISA 9.0
 * §9.7.14.5.1): IR_MMA_M8 with IR_MMA_F16, the layouts and D's type as
 * flags; an f16 D from an f32 C, which no measurement covers, is refused.
 * Refused, by name: mma.sp with fp8
 * or a non-constant selector, block scaling and the fp8/fp6/fp4 kinds,
 * wmma with mixed f16/f32 accumulators or .satfinite on floats, f64 wmma's
 * .rz/.rm/.rp.
 */
#include "build.h"

#include <string.h>

static bool opnd_regs(build_ctx *c, const ptx_operand *o, unsigned n, uint8_t bits, ir_def **out)
{
   if (n == 1 && o->kind != PTX_OPND_VEC)   /* one register, with or without braces */
      return (out[0] = bld_opnd(c, o, bits == 64 ? PTX_T_B64 : PTX_T_B32, bits)) != NULL;
   if (o->kind != PTX_OPND_VEC || o->u.vec.n != n)
      return ir_error(c->m, c->line, "%s: an operand of %u registers {...} was expected", bld_spelled(c), n);
   for (unsigned k = 0; k < n; k++)
      if (!(out[k] = bld_opnd(c, o->u.vec.elems[k], bits == 64 ? PTX_T_B64 : PTX_T_B32, bits)))
         return false;
   return true;
}

/* The result registers of a warp matrix operation: components of def. */
static bool write_regs(build_ctx *c, const ptx_operand *o, ir_instr *i, unsigned n, uint8_t bits)
{
   for (unsigned k = 0; k < n; k++) {
      const ptx_operand *e = o->kind == PTX_OPND_VEC ? o->u.vec.elems[k] : o;
      ir_def *v = &i->def;
      if (n > 1) {
         ir_instr *x = bld_emit(c, IR_EXTRACT, 1, bits, 1);
         if (!x)
            return false;
         x->imm = k;
         x->type = bits == 64 ? PTX_T_B64 : PTX_T_B32;
         bld_set_src(x, 0, &i->def);
         v = &x->def;
      }
      if (!bld_write(c, e, v, bits == 64 ? PTX_T_B64 : PTX_T_B32))
         return false;
   }
   return true;
}

/* An IR_MMA of A, B, C's registers (the counts in imm) and, for mma.sp,
 * the metadata e (else NULL). */
static ir_instr *emit_mma_e(build_ctx *c, uint64_t imm, ir_def **a, ir_def **b, ir_def **cc, ir_def *e, unsigned nd,
                            uint8_t bits)
{
   unsigned na = (imm >> 16) & 15, nb = (imm >> 20) & 15, nc = (imm >> 24) & 15;
   ir_instr *i = bld_emit(c, IR_MMA, na + nb + nc + (e ? 1 : 0), bits, (uint8_t)nd);
   if (!i)
      return NULL;
   i->sub = IR_MMA_MMA;
   i->imm = imm;
   unsigned s = 0;
   for (unsigned k = 0; k < na; k++)
      bld_set_src(i, s++, a[k]);
   for (unsigned k = 0; k < nb; k++)
      bld_set_src(i, s++, b[k]);
   for (unsigned k = 0; k < nc; k++)
      bld_set_src(i, s++, cc[k]);
   if (e)
      bld_set_src(i, s, e);
   return i;
}

static ir_instr *emit_mma(build_ctx *c, uint64_t imm, ir_def **a, ir_def **b, ir_def **cc, unsigned nd, uint8_t bits)
{
   return emit_mma_e(c, imm, a, b, cc, NULL, nd, bits);
}

static uint64_t counts(unsigned na, unsigned nb, unsigned nc)
{
   return (uint64_t)na << 16 | (uint64_t)nb << 20 | (uint64_t)nc << 24;
}

/* The shape's K (mma.sync), 0 for none: m8 for the m8n8 shapes. */
static unsigned mma_k(build_ctx *c, bool *m8)
{
   static const struct { ptx_mod mod; unsigned k; bool m8; } shapes[] = {
      { PTX_MOD_M16N8K4, 4, false },     { PTX_MOD_M16N8K8, 8, false },     { PTX_MOD_M16N8K16, 16, false },
      { PTX_MOD_M16N8K32, 32, false },   { PTX_MOD_M16N8K64, 64, false },   { PTX_MOD_M16N8K128, 128, false },
      { PTX_MOD_M16N8K256, 256, false }, { PTX_MOD_M8N8K4, 4, true },       { PTX_MOD_M8N8K16, 16, true },
      { PTX_MOD_M8N8K32, 32, true },     { PTX_MOD_M8N8K128, 128, true },
   };
   for (unsigned k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++)
      if (bld_has(c, shapes[k].mod)) {
         *m8 = shapes[k].m8;
         return shapes[k].k;
      }
   return 0;
}

/* The imm of an integer or b1 mma of K with element width ew (8, 4, 1):
 * words per row of A = K ew / 32, 4 or 8 (m16n8: 2 or 4 A registers) or
 * 4 (m8n8: 1 register); 0 if K does not fit. */
static uint64_t int_imm(unsigned K, unsigned ew, bool m8, uint64_t flags)
{
   unsigned nw = K * ew / 32, fmt = ew == 8 ? IR_MMA_INT8 : ew == 4 ? IR_MMA_INT4 : IR_MMA_B1;
   if (m8 ? nw != 4 : nw != 4 && nw != 8)
      return 0;
   if (m8)
      return (K & 255) | (uint64_t)fmt << 8 | flags | IR_MMA_M8 | counts(1, 1, 2);
   return (K & 255) | (uint64_t)fmt << 8 | flags | counts(nw / 2, nw / 4, 4);
}

/* The imm of mma.sp's shape and types (0: none we give), without the
 * selector: A's compressed registers na, B's nb (K/8 words of 16-bit
 * elements, K/4 of tf32, K/16 of bytes, K/32 of nibbles... over four lanes). */
static uint64_t sparse_imm(build_ctx *c, unsigned K, ptx_type dt, ptx_type at, ptx_type bt, ptx_type ct, bool sat)
{
   bool f32acc = dt == PTX_T_F32 && ct == PTX_T_F32, s32 = dt == PTX_T_S32 && ct == PTX_T_S32;
   bool int8 = (at == PTX_T_S8 || at == PTX_T_U8) && (bt == PTX_T_S8 || bt == PTX_T_U8);
   bool int4 = (at == PTX_T_S4 || at == PTX_T_U4) && (bt == PTX_T_S4 || bt == PTX_T_U4);
   uint64_t signs = (at == PTX_T_S8 || at == PTX_T_S4 ? IR_MMA_A_SIGNED : 0) |
                    (bt == PTX_T_S8 || bt == PTX_T_S4 ? IR_MMA_B_SIGNED : 0) | (sat ? IR_MMA_SAT : 0);
   if (int8 || int4) {
      unsigned k0 = int8 ? 32 : 64;
      if (!s32 || (K != k0 && K != 2 * k0))
         return 0;
      unsigned n = K / k0 * 2;
      return (K & 255) | (uint64_t)(int8 ? IR_MMA_INT8 : IR_MMA_INT4) << 8 | signs | counts(n, n, 4);
   }
   if (sat || at != bt)
      return 0;
   if (at == PTX_T_F16 || at == PTX_T_BF16) {
      bool acc16 = at == PTX_T_F16 && dt == PTX_T_F16 && ct == PTX_T_F16;
      if ((K != 16 && K != 32) || (!acc16 && !f32acc))
         return 0;
      return K | (uint64_t)(at == PTX_T_F16 ? IR_MMA_F16 : IR_MMA_BF16) << 8 | (acc16 ? IR_MMA_ACC16 : 0) |
             counts(K / 8, K / 8, acc16 ? 2 : 4);
   }
   if (at == PTX_T_TF32 && f32acc && (K == 8 || K == 16))
      return K | (uint64_t)IR_MMA_TF32 << 8 | counts(K / 4, K / 4, 4);
   return 0;
}

/* mma.sp{::ordered_metadata}.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype
 * d, a, b, c, e, selector */
static bool tr_mma_sp(build_ctx *c, unsigned K, bool m8)
{
   const ptx_instr *in = c->in;
   ptx_type dt = in->types[0], at = in->types[1], bt = in->types[2], ct = in->types[3];
   uint64_t imm = m8 || in->nopnds != 6 ? 0 : sparse_imm(c, K, dt, at, bt, ct, bld_has(c, PTX_MOD_SATFINITE));
   if (!imm)
      return bld_refuse(c);
   const ptx_operand *so = in->opnds[5];
   if (so->kind != PTX_OPND_IMM_INT)
      return bld_unsupported(c, "mma.sp with a sparsity selector that is not a constant");
   unsigned na = (imm >> 16) & 15, nb = (imm >> 20) & 15, nc = (imm >> 24) & 15;
   /* metadata words a group of four lanes supplies: one 2-bit index a
    * 16-bit unit of A's compressed half (bytes for the 8- and 4-bit types) */
   unsigned words = (imm >> 8 & 15) == IR_MMA_INT8 || (imm >> 8 & 15) == IR_MMA_INT4 ? na : na / 2;
   if (so->u.imm.bits >= 4 / words)
      return ir_error(c->m, c->line, "%s: the sparsity selector must be below %u for this shape", bld_spelled(c),
                      4 / words);
   imm |= IR_MMA_SPARSE | so->u.imm.bits << IR_MMA_SEL_SHIFT;
   ir_def *a[4], *b[4], *cc[4], *e;
   if (!opnd_regs(c, in->opnds[1], na, 32, a) || !opnd_regs(c, in->opnds[2], nb, 32, b) ||
       !opnd_regs(c, in->opnds[3], nc, 32, cc) || !(e = bld_src(c, 4, PTX_T_B32, 32)))
      return false;
   if (in->opnds[0]->kind != PTX_OPND_VEC || in->opnds[0]->u.vec.n != nc)
      return ir_error(c->m, c->line, "%s: d is %u registers", bld_spelled(c), nc);
   ir_instr *i = emit_mma_e(c, imm, a, b, cc, e, nc, 32);
   return i && write_regs(c, in->opnds[0], i, nc, 32);
}

/* mma.sync.aligned.m8n8k4.alayout.blayout.dtype.f16.f16.ctype d, a, b, c:
 * the layouts are the first and second of .row/.col in the spelling. */
static bool tr_mma_quadpair(build_ctx *c, ptx_type dt, ptx_type ct)
{
   const ptx_instr *in = c->in;
   int lay[2], n = 0;
   for (unsigned k = 0; k < in->nmods && n < 3; k++)
      if (in->mods[k] == PTX_MOD_ROW || in->mods[k] == PTX_MOD_COL)
         lay[n < 2 ? n : 0] = in->mods[k] == PTX_MOD_COL, n++;
   bool d16 = dt == PTX_T_F16, c16 = ct == PTX_T_F16;
   if (n != 2 || bld_has(c, PTX_MOD_SATFINITE) || (!d16 && dt != PTX_T_F32) || (!c16 && ct != PTX_T_F32))
      return bld_refuse(c);
   if (d16 && !c16)
      return ir_error(c->m, c->line, "%s: an .f16 D from an .f32 C is not supported yet (its rounding is not measured)",
                      bld_spelled(c));
   unsigned nc = c16 ? 4 : 8, nd = d16 ? 4 : 8;
   uint64_t imm = 4 | (uint64_t)IR_MMA_F16 << 8 | IR_MMA_M8 | (c16 ? IR_MMA_ACC16 : 0) | counts(2, 2, nc) |
                  (lay[0] ? IR_MMA_A_COL : 0) | (lay[1] ? 0 : IR_MMA_B_ROW) | (d16 ? IR_MMA_D16 : 0);
   ir_def *a[2], *b[2], *cc[8];
   if (!opnd_regs(c, in->opnds[1], 2, 32, a) || !opnd_regs(c, in->opnds[2], 2, 32, b) ||
       !opnd_regs(c, in->opnds[3], nc, 32, cc))
      return false;
   if (in->opnds[0]->kind != PTX_OPND_VEC || in->opnds[0]->u.vec.n != nd)
      return ir_error(c->m, c->line, "%s: d is %u registers", bld_spelled(c), nd);
   ir_instr *i = emit_mma(c, imm, a, b, cc, nd, 32);
   return i && write_regs(c, in->opnds[0], i, nd, 32);
}

/* mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype{.op.popc} d, a, b, c */
static bool tr_mma(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_ALIGNED, PTX_MOD_ROW, PTX_MOD_COL, PTX_MOD_SATFINITE, PTX_MOD_M16N8K16,
                  PTX_MOD_M16N8K8, PTX_MOD_M16N8K4, PTX_MOD_M8N8K4, PTX_MOD_M16N8K32, PTX_MOD_M16N8K64,
                  PTX_MOD_M16N8K128, PTX_MOD_M16N8K256, PTX_MOD_M8N8K16, PTX_MOD_M8N8K32, PTX_MOD_M8N8K128,
                  PTX_MOD_XOR, PTX_MOD_AND, PTX_MOD_POPC, PTX_MOD_SP, PTX_MOD_SP_ORDERED_METADATA))
      return false;
   bool sparse = bld_has(c, PTX_MOD_SP) || bld_has(c, PTX_MOD_SP_ORDERED_METADATA);
   bool m8 = false;
   unsigned K = mma_k(c, &m8);
   bool quadpair = m8 && K == 4 && in->ntypes == 4 && in->types[1] == PTX_T_F16;
   if ((!quadpair && (!bld_has(c, PTX_MOD_ROW) || !bld_has(c, PTX_MOD_COL))) || in->ntypes != 4 ||
       in->nopnds != (sparse ? 6 : 4))
      return bld_refuse(c);
   if (sparse)
      return tr_mma_sp(c, K, m8);
   ptx_type dt = in->types[0], at = in->types[1], bt = in->types[2], ct = in->types[3];
   bool sat = bld_has(c, PTX_MOD_SATFINITE), popc = bld_has(c, PTX_MOD_POPC);
   bool bop = bld_has(c, PTX_MOD_XOR) != bld_has(c, PTX_MOD_AND);
   uint64_t imm = 0;
   unsigned nd = 4;
   uint8_t bits = 32;
   bool int8 = (at == PTX_T_S8 || at == PTX_T_U8) && (bt == PTX_T_S8 || bt == PTX_T_U8);
   bool int4 = (at == PTX_T_S4 || at == PTX_T_U4) && (bt == PTX_T_S4 || bt == PTX_T_U4);
   bool b1 = at == PTX_T_B1 && bt == PTX_T_B1;
   bool s32 = dt == PTX_T_S32 && ct == PTX_T_S32;
   if (!K || (sat && !int8 && !int4) || (popc || bld_has(c, PTX_MOD_XOR) || bld_has(c, PTX_MOD_AND)) != b1 ||
       (b1 && (!bop || !popc)))
      return bld_refuse(c);
   if (int8 || int4) {
      uint64_t fl = (at == PTX_T_S8 || at == PTX_T_S4 ? IR_MMA_A_SIGNED : 0) |
                    (bt == PTX_T_S8 || bt == PTX_T_S4 ? IR_MMA_B_SIGNED : 0) | (sat ? IR_MMA_SAT : 0);
      if (!s32 || !(imm = int_imm(K, int8 ? 8 : 4, m8, fl)))
         return bld_refuse(c);
   } else if (b1) {
      if (!s32 || !(imm = int_imm(K, 1, m8, bld_has(c, PTX_MOD_AND) ? IR_MMA_AND : 0)))
         return bld_refuse(c);
   } else if (m8 && K == 4 && at == PTX_T_F16 && bt == PTX_T_F16) {
      return tr_mma_quadpair(c, dt, ct);
   } else if (m8) {
      if (K != 4 || dt != PTX_T_F64 || at != PTX_T_F64 || bt != PTX_T_F64 || ct != PTX_T_F64)
         return bld_refuse(c);
      imm = 4 | (uint64_t)IR_MMA_F64 << 8 | counts(1, 1, 2);
      bits = 64;
   } else if (at == bt && (at == PTX_T_F16 || at == PTX_T_BF16) && (K == 16 || K == 8)) {
      bool acc16 = dt == PTX_T_F16 && ct == PTX_T_F16;
      if (!acc16 && (dt != PTX_T_F32 || ct != PTX_T_F32))
         return bld_refuse(c);   /* mixed f16/f32 accumulators */
      if (acc16 && at != PTX_T_F16)
         return bld_refuse(c);
      imm = K | (uint64_t)(at == PTX_T_F16 ? IR_MMA_F16 : IR_MMA_BF16) << 8 | (acc16 ? IR_MMA_ACC16 : 0) |
            counts(K / 4, K / 8, acc16 ? 2 : 4);
   } else if (at == PTX_T_TF32 && bt == PTX_T_TF32 && dt == PTX_T_F32 && ct == PTX_T_F32 && (K == 8 || K == 4)) {
      imm = K | (uint64_t)IR_MMA_TF32 << 8 | counts(K / 2, K / 4, 4);
   } else {
      return bld_refuse(c);
   }
   unsigned na = (imm >> 16) & 15, nb = (imm >> 20) & 15, nc = (imm >> 24) & 15;
   nd = nc;
   ir_def *a[4], *b[4], *cc[4];
   if (!opnd_regs(c, in->opnds[1], na, bits, a) || !opnd_regs(c, in->opnds[2], nb, bits, b) ||
       !opnd_regs(c, in->opnds[3], nc, bits, cc))
      return false;
   if (in->opnds[0]->kind != PTX_OPND_VEC || in->opnds[0]->u.vec.n != nd)
      return ir_error(c->m, c->line, "%s: d is %u registers", bld_spelled(c), nd);
   ir_instr *i = emit_mma(c, imm, a, b, cc, nd, bits);
   return i && write_regs(c, in->opnds[0], i, nd, bits);
}

/* ---- wmma ---- */

/* The element of a wmma fragment register: which of the matrix's rows and
 * columns (r, col) register j, half h of this lane holds (g = lane / 4,
 * t = lane % 4 are added by the caller as g * gr + t * tr...).  Returned as
 * r = rg * g + rt * t + r0, col likewise. */
typedef struct frag_pos {
   int rg, rt, r0, cg, ct, c0;
} frag_pos;

enum { WMMA_16X16, WMMA_32X8, WMMA_8X32, WMMA_16X16K8, WMMA_8X8K4, WMMA_8X8K32, WMMA_8X8K128 };

static int wmma_shape(build_ctx *c)
{
   static const struct { ptx_mod mod; int shape; } shapes[] = {
      { PTX_MOD_M16N16K16, WMMA_16X16 },  { PTX_MOD_M32N8K16, WMMA_32X8 },  { PTX_MOD_M8N32K16, WMMA_8X32 },
      { PTX_MOD_M16N16K8, WMMA_16X16K8 }, { PTX_MOD_M8N8K4, WMMA_8X8K4 },   { PTX_MOD_M8N8K32, WMMA_8X8K32 },
      { PTX_MOD_M8N8K128, WMMA_8X8K128 },
   };
   for (unsigned k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++)
      if (bld_has(c, shapes[k].mod))
         return shapes[k].shape;
   return -1;
}

/* m32n8k16 and m8n32k16 (the layouts in the file's header); *zero: the
 * element is a padding row of m8n32k16's A (not loaded, 0) */
static frag_pos wmma_pos_shape(int shape, char which, unsigned j, unsigned h, bool f16acc, bool *zero)
{
   *zero = false;
   if (shape == WMMA_32X8) {
      switch (which) {
      case 'a':
         return (frag_pos){ 1, 0, 8 * (int)(j & 1) + 16 * (int)(j >> 2), 0, 2, (int)h + 8 * (int)((j >> 1) & 1) };
      case 'b':
         return (frag_pos){ 0, 2, (int)h + 8 * (int)(j & 1), 1, 0, 0 };
      default:
         if (f16acc)
            return (frag_pos){ 1, 0, 8 * (int)(j & 1) + 16 * (int)(j >> 1), 0, 2, (int)h };
         return (frag_pos){ 1, 0, 8 * (int)((j >> 1) & 1) + 16 * (int)(j >> 2), 0, 2, (int)(j & 1) };
      }
   }
   switch (which) {   /* WMMA_8X32 */
   case 'a':
      *zero = (j & 1) != 0;
      return (frag_pos){ 1, 0, 0, 0, 2, (int)h + 8 * (int)((j >> 1) & 1) };
   case 'b':
      return (frag_pos){ 0, 2, (int)h + 8 * (int)(j & 1), 1, 0, 8 * (int)(j >> 1) };
   default:
      if (f16acc)
         return (frag_pos){ 1, 0, 0, 0, 2, (int)h + 8 * (int)j };
      return (frag_pos){ 1, 0, 0, 0, 2, (int)(j & 1) + 8 * (int)(j >> 1) };
   }
}

static frag_pos wmma_pos(char which, unsigned j, unsigned h, bool f16acc)
{
   frag_pos p = { 0 };
   switch (which) {
   case 'a':   /* A (16 x 16): the m16n8k16 fragment, registers 4-7 a copy */
      j &= 3;
      p = (frag_pos){ 1, 0, 8 * (int)(j & 1), 0, 2, (int)h + 8 * (int)(j >> 1) };
      break;
   case 'b':   /* B (16 x 16, as k x n): columns 8 (j >> 1) + g */
      j &= 3;
      p = (frag_pos){ 0, 2, (int)h + 8 * (int)(j & 1), 1, 0, 8 * (int)(j >> 1) };
      break;
   default:    /* C, D (16 x 16) */
      if (f16acc)   /* j: 2 (column block) + (row >= 8); h: column 2t + h */
         p = (frag_pos){ 1, 0, 8 * (int)(j & 1), 0, 2, (int)h + 8 * (int)(j >> 1) };
      else          /* j: 4 (column block) + 2 (row >= 8) + column 2t + j % 2 */
         p = (frag_pos){ 1, 0, 8 * (int)((j >> 1) & 1), 0, 2, (int)(j & 1) + 8 * (int)(j >> 2) };
      break;
   }
   return p;
}

/* The A and B fragments of the other input types (the file's header):
 * s8/u8 of the k16 shapes (element h of 4 in register j), tf32 m16n16k8,
 * f64 m8n8k4, and the one word of s4/u4 m8n8k32 and b1 m8n8k128 (per:
 * elements in it; row g, its elements per t .. per t + per - 1). */
static frag_pos wmma_pos_in(int shape, char which, unsigned j, unsigned h, unsigned per)
{
   int J = (int)j, H = (int)h;
   bool a = which == 'a';
   switch (shape) {
   case WMMA_16X16:
      return a ? (frag_pos){ 1, 0, 8 * J, 0, 4, H } : (frag_pos){ 0, 4, H, 1, 0, 8 * J };
   case WMMA_32X8:
      return a ? (frag_pos){ 1, 0, 8 * (J & 1) + 16 * (J >> 1), 0, 4, H } : (frag_pos){ 0, 4, H, 1, 0, 0 };
   case WMMA_8X32:
      return a ? (frag_pos){ 1, 0, 0, 0, 4, H } : (frag_pos){ 0, 4, H, 1, 0, 8 * J };
   case WMMA_16X16K8:
      return a ? (frag_pos){ 1, 0, 8 * (J & 1), 0, 1, 4 * (J >> 1) } : (frag_pos){ 0, 1, 4 * (J & 1), 1, 0, 8 * (J >> 1) };
   case WMMA_8X8K4:
      return a ? (frag_pos){ 1, 0, 0, 0, 1, 0 } : (frag_pos){ 0, 1, 0, 1, 0, 0 };
   default:
      return a ? (frag_pos){ 1, 0, 0, 0, (int)per, 0 } : (frag_pos){ 0, (int)per, 0, 1, 0, 0 };
   }
}

/* A wmma fragment's registers and their elements: nregs registers of rbits
 * bits, each of per elements of ebits bits loaded as et (sub-byte: one
 * 32-bit word of 32 / ebits elements). */
typedef struct wmma_frag {
   unsigned nregs, per, ebits;
   uint8_t rbits;
   ptx_type et;
} wmma_frag;

/* The fragment of matrix which ('a', 'b', 'c') of type t in shape; false
 * for a type the shape does not have. */
static bool wmma_frag_of(int shape, char which, ptx_type t, wmma_frag *f)
{
   bool k16 = shape == WMMA_16X16 || shape == WMMA_32X8 || shape == WMMA_8X32, m8 = shape >= WMMA_8X8K4;
   *f = (wmma_frag){ 1, 1, 32, 32, PTX_T_U32 };
   if (which == 'c') {
      if (t == PTX_T_F64)
         return shape == WMMA_8X8K4 && (*f = (wmma_frag){ 2, 1, 64, 64, PTX_T_U64 }, true);
      if (t == PTX_T_F16)
         return k16 && (*f = (wmma_frag){ 4, 2, 16, 32, PTX_T_U16 }, true);
      f->nregs = m8 ? 2 : 8;
      if (t == PTX_T_S32)
         return k16 || shape == WMMA_8X8K32 || shape == WMMA_8X8K128;
      return t == PTX_T_F32 && (k16 || shape == WMMA_16X16K8);
   }
   bool a = which == 'a';
   switch (t) {
   case PTX_T_F16:
      *f = (wmma_frag){ 8, 2, 16, 32, PTX_T_U16 };
      return k16;
   case PTX_T_BF16:   /* f16's registers without the copies and padding (bf16_reg) */
      *f = (wmma_frag){ shape == WMMA_16X16 ? 4 : (shape == WMMA_32X8) == a ? 8 : 2, 2, 16, 32, PTX_T_U16 };
      return k16;
   case PTX_T_S8: case PTX_T_U8:
      *f = (wmma_frag){ shape == WMMA_16X16 ? 2 : (shape == WMMA_32X8) == a ? 4 : 1, 4, 8, 32, PTX_T_U8 };
      return k16;
   case PTX_T_TF32:
      f->nregs = 4;
      return shape == WMMA_16X16K8;
   case PTX_T_F64:
      *f = (wmma_frag){ 1, 1, 64, 64, PTX_T_U64 };
      return shape == WMMA_8X8K4;
   case PTX_T_S4: case PTX_T_U4:
      f->ebits = 4;
      return shape == WMMA_8X8K32;
   case PTX_T_B1:
      f->ebits = 1;
      return shape == WMMA_8X8K128;
   default:
      return false;
   }
}

/* A bf16 A or B fragment (PTX ISA 9.0 §9.7.14.4: 4, 8 or 2 registers, its
 * elements each once) is f16's of the same shape (8 registers) without the
 * copies and the padding: register j is f16's j, but for m8n32k16's A,
 * whose registers 1 and 3 are zero padding in f16's: 2j. */
static unsigned bf16_reg(int shape, char which, unsigned j)
{
   return shape == WMMA_8X32 && which == 'a' ? 2 * j : j;
}

static ir_def *u32c(build_ctx *c, uint32_t v) { return bld_const(c, 32, v); }

/* The byte address of element (r, col) of a matrix at base with the given
 * layout (row: r * stride + col) and element size in bits (sub-byte: the
 * byte that holds the element, the first of a word's). */
static ir_def *elem_addr(build_ctx *c, ir_def *base, ir_def *g, ir_def *t, frag_pos p, bool row, ir_def *stride,
                         unsigned ebits)
{
   ir_def *r = bld_op2(c, IR_ADD, PTX_T_U32, bld_op2(c, IR_MUL, PTX_T_U32, g, u32c(c, (uint32_t)p.rg)),
                       bld_op2(c, IR_MUL, PTX_T_U32, t, u32c(c, (uint32_t)p.rt)));
   r = bld_op2(c, IR_ADD, PTX_T_U32, r, u32c(c, (uint32_t)p.r0));
   ir_def *col = bld_op2(c, IR_ADD, PTX_T_U32, bld_op2(c, IR_MUL, PTX_T_U32, g, u32c(c, (uint32_t)p.cg)),
                         bld_op2(c, IR_MUL, PTX_T_U32, t, u32c(c, (uint32_t)p.ct)));
   col = bld_op2(c, IR_ADD, PTX_T_U32, col, u32c(c, (uint32_t)p.c0));
   ir_def *major = row ? r : col, *minor = row ? col : r;
   ir_def *idx = bld_op2(c, IR_ADD, PTX_T_U32, bld_op2(c, IR_MUL, PTX_T_U32, major, stride), minor);
   if (ebits >= 8) {
      idx = bld_op2(c, IR_MUL, PTX_T_U32, idx, u32c(c, ebits / 8));
   } else {
      idx = bld_op2(c, IR_SHR, PTX_T_U32, bld_op2(c, IR_MUL, PTX_T_U32, idx, u32c(c, ebits)), u32c(c, 3));
   }
   if (!idx)
      return NULL;
   if (base->bits == 64)
      return bld_op2(c, IR_ADD, PTX_T_U64, base, bld_resize(c, idx, 64, false));
   return bld_op2(c, IR_ADD, PTX_T_U32, base, idx);
}

/* The byte addresses of a fragment's elements of whole bytes, sharing what
 * they have in common: element (r, col) = (R + r0, C + c0), R and C the
 * lane's part (rg g + rt t, cg g + ct t: the same for a fragment's
 * elements), so its byte offset is the lane's (M stride + N) e plus
 * (m0 stride + n0) e, M, m0 the major coordinate's parts (the same u32 sum
 * elem_addr computes, without its products by 0 and 1: a wmma-heavy
 * kernel's loads were most of its MSL). */
typedef struct frag_addr {
   ir_def *base, *g, *t, *stride;
   bool row;
   unsigned ebytes;
   int key[4];                /* rg, rt, cg, ct of lane */
   ir_def *lane;              /* the lane's byte offset */
   int m0[4];                 /* m0 * stride * e for the m0 seen */
   ir_def *m0off[4];
   unsigned nm0;
} frag_addr;

/* k x (constant k; 0 and 1 without a product) */
static ir_def *times(build_ctx *c, ir_def *x, int k)
{
   return k == 0 ? u32c(c, 0) : k == 1 ? x : bld_op2(c, IR_MUL, PTX_T_U32, x, u32c(c, (uint32_t)k));
}

static ir_def *plus(build_ctx *c, ir_def *a, ir_def *b) { return a && b ? bld_op2(c, IR_ADD, PTX_T_U32, a, b) : NULL; }

static ir_def *frag_elem_addr(build_ctx *c, frag_addr *fa, frag_pos p)
{
   int mg = fa->row ? p.rg : p.cg, mt = fa->row ? p.rt : p.ct, ng = fa->row ? p.cg : p.rg, nt = fa->row ? p.ct : p.rt;
   int m0 = fa->row ? p.r0 : p.c0, n0 = fa->row ? p.c0 : p.r0, e = (int)fa->ebytes;
   int key[4] = { mg, mt, ng, nt };
   if (!fa->lane || memcmp(key, fa->key, sizeof(key))) {
      ir_def *mm = plus(c, times(c, fa->g, mg), times(c, fa->t, mt));
      ir_def *nn = plus(c, times(c, fa->g, ng), times(c, fa->t, nt));
      fa->lane = times(c, plus(c, bld_op2(c, IR_MUL, PTX_T_U32, mm, fa->stride), nn), e);
      memcpy(fa->key, key, sizeof(key));
      fa->nm0 = 0;
      if (!fa->lane)
         return NULL;
   }
   ir_def *off = fa->lane;
   if (m0) {
      unsigned k = 0;
      while (k < fa->nm0 && fa->m0[k] != m0)
         k++;
      ir_def *v = k < fa->nm0 ? fa->m0off[k] : times(c, fa->stride, m0 * e);
      if (k == fa->nm0 && k < 4) {   /* remembered (a fragment has at most 4) */
         fa->m0[k] = m0;
         fa->m0off[k] = v;
         fa->nm0++;
      }
      off = plus(c, off, v);
   }
   if (n0)
      off = plus(c, off, u32c(c, (uint32_t)(n0 * e)));
   if (!off)
      return NULL;
   if (fa->base->bits == 64)
      return bld_op2(c, IR_ADD, PTX_T_U64, fa->base, bld_resize(c, off, 64, false));
   return bld_op2(c, IR_ADD, PTX_T_U32, fa->base, off);
}

static ir_def *lane_parts(build_ctx *c, ir_def **g, ir_def **t)
{
   ir_instr *l = bld_emit(c, IR_SREG, 0, 32, 1);
   if (!l)
      return NULL;
   l->sub = IR_SREG_LANEID;
   *g = bld_op2(c, IR_SHR, PTX_T_U32, &l->def, u32c(c, 2));
   *t = bld_op2(c, IR_AND, PTX_T_B32, &l->def, u32c(c, 3));
   return *g && *t ? &l->def : NULL;
}

static ir_space space_of(build_ctx *c, ir_space sym_space)
{
   switch (c->in->space) {
   case PTX_SPACE_GLOBAL: return IR_SPACE_GLOBAL;
   case PTX_SPACE_SHARED: return IR_SPACE_SHARED;
   default: return sym_space;
   }
}

static ir_instr *mem_op(build_ctx *c, ir_op op, ir_space sp, ptx_type t, ir_def *addr, ir_def *val)
{
   uint8_t bits = t == PTX_T_U64 ? 64 : 32;
   ir_instr *i = bld_emit(c, op, op == IR_LOAD ? 1 : 2, op == IR_LOAD ? bits : 0, op == IR_LOAD ? 1 : 0);
   if (!i)
      return NULL;
   i->type = t;
   i->space = (uint8_t)sp;
   bld_set_src(i, 0, addr);
   if (val)
      bld_set_src(i, 1, val);
   if (op == IR_STORE)
      bld_guard(c, i, NULL);
   return i;
}

/* wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.space}.type r, [p]{, stride};
 * wmma.store.d.sync.aligned.{row,col}.shape{.space}.type [p], r{, stride}. */
static bool tr_wmma_mem(build_ctx *c, bool store)
{
   const ptx_instr *in = c->in;
   char which = bld_has(c, PTX_MOD_A_FRAG) ? 'a' : bld_has(c, PTX_MOD_B) ? 'b' : 'c';
   if (store ? !bld_has(c, PTX_MOD_D_FRAG) : (which == 'c' && !bld_has(c, PTX_MOD_C_FRAG)))
      return bld_refuse(c);
   if (store && which != 'c')
      return bld_refuse(c);
   if (in->ntypes != 1 || in->nopnds < 2 || in->nopnds > 3 || bld_has(c, PTX_MOD_ROW) == bld_has(c, PTX_MOD_COL))
      return bld_refuse(c);
   ptx_type t = in->types[0];
   int shape = wmma_shape(c);
   wmma_frag f;
   bool row = bld_has(c, PTX_MOD_ROW);
   if (!wmma_frag_of(shape, which, t, &f))
      return bld_refuse(c);
   if (f.ebits < 8 && which != 'c' && row != (which == 'a'))
      return bld_refuse(c);   /* sub-byte A is .row, B .col (PTX ISA 9.0 §9.7.14.4) */
   bool f16in = f.et == PTX_T_U16, f16acc = which == 'c' && t == PTX_T_F16;
   const ptx_operand *regs = in->opnds[store ? 1 : 0], *ao = in->opnds[store ? 0 : 1];
   if (f.nregs == 1 && regs->kind != PTX_OPND_VEC) {
      /* one register, without braces */
   } else if (regs->kind != PTX_OPND_VEC || regs->u.vec.n != f.nregs) {
      return ir_error(c->m, c->line, "%s: the fragment is %u registers", bld_spelled(c), f.nregs);
   }
   ir_space sym_space;
   ir_def *base = bld_address(c, ao, &sym_space);
   /* no stride: the matrix is packed (its row length, or column length) */
   static const unsigned mnk[][3] = { { 16, 16, 16 }, { 32, 8, 16 }, { 8, 32, 16 }, { 16, 16, 8 },
                                      { 8, 8, 4 },    { 8, 8, 32 },  { 8, 8, 128 } };
   const unsigned *d = mnk[shape];
   unsigned packed = which == 'a' ? (row ? d[2] : d[0]) : which == 'b' ? (row ? d[1] : d[2]) : (row ? d[1] : d[0]);
   ir_def *stride = in->nopnds == 3 ? bld_src(c, 2, PTX_T_U32, 32) : u32c(c, packed);
   ir_def *g, *tt;
   if (!base || !stride || !lane_parts(c, &g, &tt))
      return false;
   ir_space sp = space_of(c, sym_space);
   ptx_type rt = f.rbits == 64 ? PTX_T_B64 : PTX_T_B32;
   frag_addr fa = { .base = base, .g = g, .t = tt, .stride = stride, .row = row, .ebytes = f.ebits / 8 };
   for (unsigned j = 0; j < f.nregs; j++) {
      const ptx_operand *ro = regs->kind == PTX_OPND_VEC ? regs->u.vec.elems[j] : regs;
      ir_def *word = NULL;
      ir_def *src = store ? bld_opnd(c, ro, rt, f.rbits) : NULL;
      if (store && !src)
         return false;
      unsigned jf = t == PTX_T_BF16 ? bf16_reg(shape, which, j) : j;
      for (unsigned h = 0; h < f.per; h++) {
         bool zero = false;
         frag_pos p;
         if (f16in || f16acc || (which == 'c' && (shape == WMMA_16X16 || shape == WMMA_16X16K8)))
            p = shape == WMMA_16X16 || shape == WMMA_16X16K8 ? wmma_pos(which, jf, h, f16acc)
                                                             : wmma_pos_shape(shape, which, jf, h, f16acc, &zero);
         else if (which == 'c')
            p = shape == WMMA_32X8 || shape == WMMA_8X32 ? wmma_pos_shape(shape, 'c', j, h, false, &zero)
                                                         : (frag_pos){ 1, 0, 0, 0, 2, (int)j };   /* m8n8 */
         else
            p = wmma_pos_in(shape, which, j, h, 32 / f.ebits);
         if (zero) {   /* a padding row: nothing in memory */
            word = word ? word : u32c(c, 0);
            continue;
         }
         ir_def *addr = f.ebits >= 8 ? frag_elem_addr(c, &fa, p) : elem_addr(c, base, g, tt, p, row, stride, f.ebits);
         if (!addr)
            return false;
         if (store) {
            ir_def *v = f.per == 2 ? bld_op2(c, IR_SHR, PTX_T_U32, src, u32c(c, 16 * h)) : src;
            if (f.per == 2)
               v = bld_resize(c, v, 16, false);
            if (!mem_op(c, IR_STORE, sp, f.et, addr, v))
               return false;
            continue;
         }
         ir_instr *ld = mem_op(c, IR_LOAD, sp, f.et, addr, NULL);
         if (!ld)
            return false;
         ir_def *v = &ld->def;
         if (f.per > 1 && h)
            v = bld_op2(c, IR_SHL, PTX_T_B32, v, u32c(c, 32 / f.per * h));
         word = word ? bld_op2(c, IR_OR, PTX_T_B32, word, v) : v;
      }
      if (!store && !bld_write(c, ro, word, rt))
         return false;
   }
   return true;
}

/* One operation of a wmma.mma: A registers a, B registers b, the
 * accumulator registers cc (nc of them: the operation's, zeros where the
 * shape has no rows); its results dout[k] (NULL: discarded) to d. */
/* Register k of an IR_MMA's result. */
static ir_def *mma_part(build_ctx *c, ir_instr *mma, unsigned k)
{
   ir_instr *x = bld_emit(c, IR_EXTRACT, 1, 32, 1);
   if (!x)
      return NULL;
   x->imm = k;
   x->type = PTX_T_B32;
   bld_set_src(x, 0, &mma->def);
   return &x->def;
}

static bool wmma_op(build_ctx *c, uint64_t imm, ir_def **a, ir_def **b, ir_def **cc, unsigned nc, const int *dout)
{
   /* one operation of one or (COLS2) two blocks of columns: B and C/D of
    * both in one IR_MMA */
   ir_instr *i = emit_mma(c, imm, a, b, cc, nc, 32);
   if (!i)
      return false;
   for (unsigned k = 0; k < nc; k++) {
      if (dout[k] < 0)
         continue;
      ir_def *x = mma_part(c, i, k);
      if (!x || !bld_write(c, c->in->opnds[0]->u.vec.elems[dout[k]], x, PTX_T_B32))
         return false;
   }
   return true;
}

/* wmma.mma of the k16 shapes with f16/bf16 inputs: m16n8k16 operations
 * (the file's header). */
static bool wmma_mma_f16(build_ctx *c, bool bf16, bool acc16, ir_def **a, ir_def **b, ir_def **cc)
{
   unsigned nc = acc16 ? 4 : 8, half = nc / 2;
   uint64_t imm = 16 | (uint64_t)(bf16 ? IR_MMA_BF16 : IR_MMA_F16) << 8 | (acc16 ? IR_MMA_ACC16 : 0) |
                  counts(4, 2, half);
   int shape = wmma_shape(c);
   if (shape == WMMA_16X16) {   /* one operation over both column blocks */
      int dout[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
      return wmma_op(c, imm + counts(0, 2, half) + IR_MMA_COLS2, a, b, cc, nc, dout);
   }
   if (shape == WMMA_32X8) {
      /* two operations over row blocks */
      for (unsigned blk = 0; blk < 2; blk++) {
         int dout[4];
         for (unsigned k = 0; k < half; k++)
            dout[k] = (int)(half * blk + k);
         if (!wmma_op(c, imm, a + 4 * blk, b, cc + half * blk, half, dout))
            return false;
      }
      return true;
   }
   /* 8x32: four column blocks, each with rows 8-15 zero and discarded */
   ir_def *zero = u32c(c, 0);
   for (unsigned blk = 0; blk < 4; blk++) {
      ir_def *cb[4];
      int dout[4];
      for (unsigned k = 0; k < half; k++) {
         bool mine = acc16 ? k == 0 : k < 2;   /* f32: (g, 2t), (g, 2t+1); f16: reg 0 is row g */
         unsigned r = acc16 ? blk : 2 * blk + k;
         cb[k] = mine ? cc[r] : zero;
         dout[k] = mine ? (int)r : -1;
      }
      if (!zero || !wmma_op(c, imm, a, b + 2 * blk, cb, half, dout))
         return false;
   }
   return true;
}

/* wmma.mma with s8/u8 (k16 shapes), tf32 (m16n16k8), s4/u4 (m8n8k32) or
 * b1 (m8n8k128) inputs: mma.sync operations of the matching m16n8 or m8n8
 * shapes over the blocks of D (the file's header). */
static bool wmma_mma_blocks(build_ctx *c, int shape, uint64_t imm, ir_def **a, ir_def **b, ir_def **cc)
{
   unsigned nblk = shape == WMMA_8X32 ? 4 : shape >= WMMA_8X8K4 ? 1 : 2;
   unsigned na = (imm >> 16) & 15, nb = (imm >> 20) & 15, nc = (imm >> 24) & 15;
   if (shape == WMMA_16X16 || shape == WMMA_16X16K8) {   /* one operation over both column blocks */
      int dout[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
      return wmma_op(c, imm + counts(0, nb, nc) + IR_MMA_COLS2, a, b, cc, 2 * nc, dout);
   }
   for (unsigned blk = 0; blk < nblk; blk++) {
      int dout[4];
      for (unsigned k = 0; k < nc; k++)
         dout[k] = (int)(nc * blk + k);
      ir_def **ab = shape == WMMA_32X8 ? a + na * blk : a, **bb = shape == WMMA_32X8 ? b : b + nb * blk;
      if (!wmma_op(c, imm, ab, bb, cc + nc * blk, nc, dout))
         return false;
   }
   return true;
}

/* wmma.mma m16n16k8 with tf32 inputs: two m16n8k4 operations of both
 * column blocks (the file's header). */
static bool wmma_mma_tf32(build_ctx *c, ir_def **a, ir_def **b, ir_def **cc)
{
   uint64_t imm = 4 | (uint64_t)IR_MMA_TF32 << 8 | counts(2, 2, 8) | IR_MMA_COLS2;
   ir_def *a_lo[2] = { a[0], a[1] }, *b_lo[2] = { b[0], b[2] }, *a_hi[2] = { a[2], a[3] }, *b_hi[2] = { b[1], b[3] };
   ir_instr *lo = emit_mma(c, imm, a_lo, b_lo, cc, 8, 32);
   if (!lo)
      return false;
   ir_def *mid[8];
   for (unsigned k = 0; k < 8; k++)
      if (!(mid[k] = mma_part(c, lo, k)))
         return false;
   int dout[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
   return wmma_op(c, imm, a_hi, b_hi, mid, 8, dout);
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype d, a, b, c (f16
 * inputs), or .dtype.atype.btype.ctype{.satfinite} (other inputs; b1 with
 * .xor.popc / .and.popc, f64 with .rn). */
static bool tr_wmma_mma(build_ctx *c)
{
   const ptx_instr *in = c->in;
   int shape = wmma_shape(c);
   if (in->nopnds != 4 || (in->ntypes != 2 && in->ntypes != 4))
      return bld_refuse(c);
   ptx_type dt = in->types[0], ct = in->types[in->ntypes - 1];
   ptx_type at = in->ntypes == 4 ? in->types[1] : PTX_T_F16, bt = in->ntypes == 4 ? in->types[2] : PTX_T_F16;
   wmma_frag fa, fb, fc;
   if (dt != ct || !wmma_frag_of(shape, 'a', at, &fa) || !wmma_frag_of(shape, 'b', bt, &fb) ||
       !wmma_frag_of(shape, 'c', ct, &fc))
      return bld_refuse(c);
   bool intin = fa.ebits <= 8 && at != PTX_T_B1, b1 = at == PTX_T_B1;
   bool bop = bld_has(c, PTX_MOD_XOR) != bld_has(c, PTX_MOD_AND);
   if ((bld_has(c, PTX_MOD_SATFINITE) && !intin) || (bld_has(c, PTX_MOD_RN) && dt != PTX_T_F64) ||
       (bld_has(c, PTX_MOD_XOR) || bld_has(c, PTX_MOD_AND) || bld_has(c, PTX_MOD_POPC)) != b1 ||
       (b1 && (!bop || !bld_has(c, PTX_MOD_POPC))))
      return bld_refuse(c);
   bool f16in = at == PTX_T_F16 || at == PTX_T_BF16;
   if ((f16in || bt == PTX_T_F16 || bt == PTX_T_BF16) && (at != bt || (at == PTX_T_BF16 && dt != PTX_T_F32)))
      return bld_refuse(c);   /* mixed input types, bf16 with f16 accumulators */
   if (intin && (dt != PTX_T_S32 || fb.ebits != fa.ebits))
      return bld_refuse(c);
   ir_def *a[8], *b[8], *cc[8];
   if (!opnd_regs(c, in->opnds[1], fa.nregs, fa.rbits, a) || !opnd_regs(c, in->opnds[2], fb.nregs, fb.rbits, b) ||
       !opnd_regs(c, in->opnds[3], fc.nregs, fc.rbits, cc))
      return false;
   if (in->opnds[0]->kind != PTX_OPND_VEC || in->opnds[0]->u.vec.n != fc.nregs)
      return ir_error(c->m, c->line, "%s: d is %u registers", bld_spelled(c), fc.nregs);
   if (at == PTX_T_BF16 && shape == WMMA_8X32) {   /* f16's A: registers 1 and 3 zero (bf16_reg) */
      ir_def *zero = u32c(c, 0);
      if (!zero)
         return false;
      a[2] = a[1];
      a[1] = a[3] = zero;
   }
   if (f16in)
      return wmma_mma_f16(c, at == PTX_T_BF16, dt == PTX_T_F16, a, b, cc);
   if (dt == PTX_T_F64) {   /* m8n8k4: one mma.m8n8k4.f64 */
      ir_instr *i = emit_mma(c, 4 | (uint64_t)IR_MMA_F64 << 8 | counts(1, 1, 2), a, b, cc, 2, 64);
      return i && write_regs(c, in->opnds[0], i, 2, 64);
   }
   if (at == PTX_T_TF32)
      return wmma_mma_tf32(c, a, b, cc);
   uint64_t imm;
   if (b1) {
      imm = int_imm(128, 1, true, bld_has(c, PTX_MOD_AND) ? IR_MMA_AND : 0);
   } else {
      uint64_t fl = (at == PTX_T_S8 || at == PTX_T_S4 ? IR_MMA_A_SIGNED : 0) |
                    (bt == PTX_T_S8 || bt == PTX_T_S4 ? IR_MMA_B_SIGNED : 0) |
                    (bld_has(c, PTX_MOD_SATFINITE) ? IR_MMA_SAT : 0);
      imm = fa.ebits == 4 ? int_imm(32, 4, true, fl) : int_imm(16, 8, shape == WMMA_8X32, fl);
   }
   return wmma_mma_blocks(c, shape, imm, a, b, cc);
}

static bool tr_wmma(build_ctx *c)
{
   if (!ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_ALIGNED, PTX_MOD_ROW, PTX_MOD_COL, PTX_MOD_M16N16K16, PTX_MOD_M32N8K16,
                  PTX_MOD_M8N32K16, PTX_MOD_M16N16K8, PTX_MOD_M8N8K4, PTX_MOD_M8N8K32, PTX_MOD_M8N8K128,
                  PTX_MOD_LOAD, PTX_MOD_STORE, PTX_MOD_MMA_MOD, PTX_MOD_A_FRAG, PTX_MOD_B, PTX_MOD_C_FRAG,
                  PTX_MOD_D_FRAG, PTX_MOD_SATFINITE, PTX_MOD_RN, PTX_MOD_XOR, PTX_MOD_AND, PTX_MOD_POPC))
      return false;
   if (wmma_shape(c) < 0)
      return bld_refuse(c);
   if (bld_has(c, PTX_MOD_MMA_MOD))
      return tr_wmma_mma(c);
   if (bld_has(c, PTX_MOD_LOAD) == bld_has(c, PTX_MOD_STORE) || bld_has(c, PTX_MOD_SATFINITE) ||
       bld_has(c, PTX_MOD_RN) || bld_has(c, PTX_MOD_XOR) || bld_has(c, PTX_MOD_AND) || bld_has(c, PTX_MOD_POPC))
      return bld_refuse(c);
   return tr_wmma_mem(c, bld_has(c, PTX_MOD_STORE));
}

/* ---- ldmatrix, stmatrix, movmatrix ---- */

static unsigned matrix_count(build_ctx *c)
{
   return bld_has(c, PTX_MOD_X1) ? 1 : bld_has(c, PTX_MOD_X2) ? 2 : bld_has(c, PTX_MOD_X4) ? 4 : 0;
}

/* ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16 d, [a];
 * stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16 [a], r. */
static bool tr_ldst_matrix(build_ctx *c, bool st)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_ALIGNED, PTX_MOD_M8N8, PTX_MOD_X1, PTX_MOD_X2, PTX_MOD_X4,
                  PTX_MOD_TRANS))
      return false;
   unsigned n = matrix_count(c);
   if (!n || !bld_has(c, PTX_MOD_M8N8) || in->ntypes != 1 || in->types[0] != PTX_T_B16 || in->nopnds != 2 ||
       (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_NONE))
      return bld_refuse(c);
   ir_space sym_space;
   ir_def *addr = bld_address(c, in->opnds[st ? 0 : 1], &sym_space);
   if (!addr)
      return false;
   ir_space sp = in->space == PTX_SPACE_SHARED || sym_space == IR_SPACE_SHARED ? IR_SPACE_SHARED : IR_SPACE_GENERIC;
   const ptx_operand *ro = in->opnds[st ? 1 : 0];
   if (ro->kind == PTX_OPND_VEC ? ro->u.vec.n != n : n != 1)
      return ir_error(c->m, c->line, "%s: %u registers expected", bld_spelled(c), n);
   uint64_t imm = n | (bld_has(c, PTX_MOD_TRANS) ? 16u : 0u);
   if (!st) {
      ir_instr *i = bld_emit(c, IR_LDMATRIX, 1, 32, (uint8_t)n);
      if (!i)
         return false;
      i->imm = imm;
      i->space = (uint8_t)sp;
      bld_set_src(i, 0, addr);
      return write_regs(c, ro, i, n, 32);
   }
   ir_def *r[4];
   if (ro->kind == PTX_OPND_VEC ? !opnd_regs(c, ro, n, 32, r) : !(r[0] = bld_opnd(c, ro, PTX_T_B32, 32)))
      return false;
   ir_instr *i = bld_emit(c, IR_STMATRIX, 1 + n, 0, 0);
   if (!i)
      return false;
   i->imm = imm;
   i->space = (uint8_t)sp;
   bld_set_src(i, 0, addr);
   for (unsigned k = 0; k < n; k++)
      bld_set_src(i, 1 + k, r[k]);
   bld_guard(c, i, NULL);
   return true;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a */
static bool tr_movmatrix(build_ctx *c)
{
   const ptx_instr *in = c->in;
   if (!ONLY_MODS(c, PTX_MOD_SYNC, PTX_MOD_ALIGNED, PTX_MOD_M8N8, PTX_MOD_TRANS))
      return false;
   if (!bld_has(c, PTX_MOD_TRANS) || in->ntypes != 1 || in->types[0] != PTX_T_B16 || in->nopnds != 2)
      return bld_refuse(c);
   ir_def *a = bld_src(c, 1, PTX_T_B32, 32);
   ir_instr *i = a ? bld_emit(c, IR_MMA, 1, 32, 1) : NULL;
   if (!i)
      return false;
   i->sub = IR_MMA_MOVMATRIX;
   bld_set_src(i, 0, a);
   return bld_write(c, in->opnds[0], &i->def, PTX_T_B32);
}

bool bld_tr_mma(build_ctx *c)
{
   switch (c->in->op) {
   case PTX_OP_MMA: return tr_mma(c);
   case PTX_OP_WMMA: return tr_wmma(c);
   case PTX_OP_LDMATRIX: return tr_ldst_matrix(c, false);
   case PTX_OP_STMATRIX: return tr_ldst_matrix(c, true);
   case PTX_OP_MOVMATRIX: return tr_movmatrix(c);
   default: return bld_refuse(c);
   }
}
