/*
 * build_video.c — PTX's video instructions (PTX ISA 9.7.18).
 *
 * SIMD (9.7.18.2): vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4,
 * vmax2/4, vset2/4.
 *
 *   vop4.dtype.atype.btype{.sat}  d{.mask}, a{.asel}, b{.bsel}, c;   merge
 *   vop4.dtype.atype.btype.add    d{.mask}, a{.asel}, b{.bsel}, c;   accumulate
 *   vset4.atype.btype.cmp{.add}   d{.mask}, a{.asel}, b{.bsel}, c;
 *
 * Each lane's operands are elements (bytes for the 4-lane forms, half-words
 * for the 2-lane ones) picked by .asel/.bsel from the pool {b, a} (a's
 * elements 0-3 or 0-1 first) and sign- or zero-extended by .atype/.btype;
 * the lane result is optionally clamped to dtype's lane range; the lanes in
 * .mask are then merged over c's (or, with .add, summed into c).
 *
 * Scalar (9.7.18.1): vadd, vsub, vabsdiff, vmin, vmax, vset, vshl, vshr.
 *
 *   vop.dtype.atype.btype{.sat}        d, a{.asel}, b{.bsel};
 *   vop.dtype.atype.btype{.sat}.secop  d, a{.asel}, b{.bsel}, c;   .add .min .max
 *   vop.dtype.atype.btype{.sat}        d.dsel, a{.asel}, b{.bsel}, c;
 *
 * a and b are a byte, a half-word or the word, extended to 33 bits (vshl,
 * vshr: b unsigned, the amount clamped to 32 or taken mod 32); .sat, the
 * secondary operation with c and the merge into c follow what an H200
 * computes, which departs from the ISA's pseudocode (prelude video.metal
 * lists how; vset's .min/.max compare with atype's sign, so vset carries
 * it as d's).
 *
 * Both become one IR_VIDEO whose control word (ir.h) carries the selectors,
 * the mask and the signedness; prelude video.metal computes it.  vmad is
 * not translated: it is refused by name.  A
 * lane selector on any other instruction, and a negated operand (-%r, which
 * only vmad takes) anywhere, are errors here rather than silently ignored.
 */
#include "build.h"

#include <string.h>

static bool is_simd_video(ptx_opcode op)
{
   switch (op) {
   case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2: case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2:
   case PTX_OP_VMAX2: case PTX_OP_VSET2: case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4:
   case PTX_OP_VABSDIFF4: case PTX_OP_VMIN4: case PTX_OP_VMAX4: case PTX_OP_VSET4:
      return true;
   default:
      return false;
   }
}

static bool is_scalar_video(ptx_opcode op)
{
   switch (op) {
   case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN: case PTX_OP_VMAX:
   case PTX_OP_VSHL: case PTX_OP_VSHR: case PTX_OP_VMAD: case PTX_OP_VSET:
      return true;
   default:
      return false;
   }
}

bool bld_check_operand_marks(build_ctx *c)
{
   const ptx_instr *in = c->in;
   bool video = is_simd_video(in->op) || is_scalar_video(in->op);
   for (unsigned k = 0; k < in->nopnds; k++) {
      const ptx_operand *o = in->opnds[k];
      /* only vmad takes -a, -b, -c, and it is refused: nothing negates */
      if (o->neg_value)
         return ir_error(c->m, c->line, "%s: a negated operand (operand %u) is not supported", bld_spelled(c), k);
      if (!video && o->kind == PTX_OPND_REG && o->sel)
         return ir_error(c->m, c->line, "%s: the selector '.%s' on operand %u belongs to video instructions",
                         bld_spelled(c), o->sel, k);
   }
   return true;
}

static bool bad_selector(build_ctx *c, unsigned k, const char *sel)
{
   return ir_error(c->m, c->line, "%s: bad lane selector '.%s' on operand %u", bld_spelled(c), sel, k);
}

/* .bxyzw / .hxy on a or b: lane i (its digit is the (i+1)-th from the right)
 * takes element digit of the pool; 3 bits a lane in *out. */
static bool parse_source_sel(build_ctx *c, unsigned k, bool quad, uint32_t *out)
{
   const char *sel = c->in->opnds[k]->kind == PTX_OPND_REG ? c->in->opnds[k]->sel : NULL;
   unsigned lanes = quad ? 4 : 2;
   if (!sel)
      return true;   /* the default stays */
   if (sel[0] != (quad ? 'b' : 'h') || strlen(sel) != lanes + 1)
      return bad_selector(c, k, sel);
   uint32_t v = 0;
   for (unsigned i = 0; i < lanes; i++) {
      unsigned d = (unsigned)(sel[lanes - i] - '0');
      if (d >= lanes * 2)
         return bad_selector(c, k, sel);
      v |= d << (3 * i);
   }
   *out = v;
   return true;
}

/* .mask on d: the lanes named, in descending order (.b310, .h10, .h0). */
static bool parse_mask(build_ctx *c, bool quad, uint32_t *out)
{
   const ptx_operand *o = c->in->opnds[0];
   const char *sel = o->kind == PTX_OPND_REG ? o->sel : NULL;
   unsigned lanes = quad ? 4 : 2;
   if (!sel)
      return true;
   size_t n = strlen(sel);
   if (sel[0] != (quad ? 'b' : 'h') || n < 2 || n > lanes + 1)
      return bad_selector(c, 0, sel);
   uint32_t m = 0;
   unsigned prev = lanes;
   for (size_t i = 1; i < n; i++) {
      unsigned d = (unsigned)(sel[i] - '0');
      if (d >= prev)
         return bad_selector(c, 0, sel);
      m |= 1u << d;
      prev = d;
   }
   *out = m;
   return true;
}

/* vset's .cmp: exactly one of eq ne lt le gt ge. */
static bool vset_cmp(build_ctx *c, ir_cmp *out)
{
   static const struct { ptx_mod m; ir_cmp cmp; } map[] = {
      { PTX_MOD_EQ, IR_CMP_EQ }, { PTX_MOD_NE, IR_CMP_NE }, { PTX_MOD_LT, IR_CMP_LT },
      { PTX_MOD_LE, IR_CMP_LE }, { PTX_MOD_GT, IR_CMP_GT }, { PTX_MOD_GE, IR_CMP_GE },
   };
   unsigned found = 0;
   for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
      if (bld_has(c, map[k].m)) {
         *out = map[k].cmp;
         found++;
      }
   if (found != 1)
      return ir_error(c->m, c->line, "%s: vset needs one comparison (.eq .ne .lt .le .gt .ge)", bld_spelled(c));
   return true;
}

static ir_vop vop_of(ptx_opcode op)
{
   switch (op) {
   case PTX_OP_VADD: case PTX_OP_VADD2: case PTX_OP_VADD4: return IR_VOP_ADD_LANES;
   case PTX_OP_VSUB: case PTX_OP_VSUB2: case PTX_OP_VSUB4: return IR_VOP_SUB_LANES;
   case PTX_OP_VAVRG2: case PTX_OP_VAVRG4: return IR_VOP_AVRG;
   case PTX_OP_VABSDIFF: case PTX_OP_VABSDIFF2: case PTX_OP_VABSDIFF4: return IR_VOP_ABSDIFF;
   case PTX_OP_VMIN: case PTX_OP_VMIN2: case PTX_OP_VMIN4: return IR_VOP_MIN;
   case PTX_OP_VMAX: case PTX_OP_VMAX2: case PTX_OP_VMAX4: return IR_VOP_MAX;
   case PTX_OP_VSHL: return IR_VOP_SHL;
   case PTX_OP_VSHR: return IR_VOP_SHR;
   default: return IR_VOP_SET;
   }
}

/* vop.dtype.atype.btype or vset.atype.btype, each .u32 or .s32. */
static bool video_types(build_ctx *c, bool set)
{
   if (!bld_need_types(c, set ? 2 : 3))
      return false;
   for (unsigned k = 0; k < c->in->ntypes; k++)
      if (c->in->types[k] != PTX_T_U32 && c->in->types[k] != PTX_T_S32)
         return bld_refuse(c);
   return true;
}

/* The operation (vset: IR_VOP_SET + its comparison). */
static bool video_op(build_ctx *c, bool set, unsigned *op)
{
   *op = vop_of(c->in->op);
   if (!set)
      return true;
   ir_cmp cmp = IR_CMP_EQ;
   if (!vset_cmp(c, &cmp))
      return false;
   *op += cmp;
   return true;
}

/* IR_VIDEO_A/B/D_SIGNED from the type suffixes (vset: no dtype, d unsigned). */
static uint32_t sign_bits(build_ctx *c, bool set)
{
   const ptx_type *t = c->in->types;
   unsigned ta = set ? 0 : 1;   /* index of atype among the type suffixes */
   return (t[ta] == PTX_T_S32 ? IR_VIDEO_A_SIGNED : 0) | (t[ta + 1] == PTX_T_S32 ? IR_VIDEO_B_SIGNED : 0) |
          (!set && t[0] == PTX_T_S32 ? IR_VIDEO_D_SIGNED : 0);
}

/* The operation byte (sub) and the control word (imm), or false after an
 * error.  Types: vop.dtype.atype.btype, vset.atype.btype. */
static bool vsimd_control(build_ctx *c, bool quad, bool set, uint8_t *sub, uint32_t *ctl)
{
   const ptx_instr *in = c->in;
   if (!video_types(c, set) || !bld_need_opnds(c, 4))
      return false;
   bool ok = set ? ONLY_MODS(c, PTX_MOD_ADD, PTX_MOD_EQ, PTX_MOD_NE, PTX_MOD_LT, PTX_MOD_LE, PTX_MOD_GT,
                             PTX_MOD_GE)
                 : ONLY_MODS(c, PTX_MOD_ADD, PTX_MOD_SAT);
   if (!ok)
      return false;
   bool acc = bld_has(c, PTX_MOD_ADD), sat = bld_has(c, PTX_MOD_SAT);
   if (acc && sat)
      return ir_error(c->m, c->line, "%s: saturation cannot be used with the accumulate form (.add)",
                      bld_spelled(c));
   unsigned op;
   if (!video_op(c, set, &op))
      return false;
   *sub = (uint8_t)(op | (acc ? IR_VOP_ACC : 0) | (quad ? IR_VOP_QUAD : 0));
   /* defaults: a's own elements (.b3210, .h10), b's (.b7654, .h32), all lanes */
   uint32_t asel = quad ? 0x688u : 0x8u, bsel = quad ? 0xfacu : 0x1au, mask = quad ? 0xfu : 0x3u;
   if (in->opnds[3]->kind == PTX_OPND_REG && in->opnds[3]->sel)
      return bad_selector(c, 3, in->opnds[3]->sel);
   if (!parse_source_sel(c, 1, quad, &asel) || !parse_source_sel(c, 2, quad, &bsel) || !parse_mask(c, quad, &mask))
      return false;
   *ctl = asel | bsel << IR_VSIMD_BSEL_SHIFT | mask << IR_VSIMD_MASK_SHIFT | sign_bits(c, set) |
          (sat ? IR_VIDEO_SAT : 0);
   return true;
}

/* .b0-.b3 / .h0-.h1 of a scalar form as IR_VSEL_* (0: none). */
static bool scalar_sel(build_ctx *c, unsigned k, uint32_t *out)
{
   const ptx_operand *o = c->in->opnds[k];
   const char *sel = o->kind == PTX_OPND_REG ? o->sel : NULL;
   *out = IR_VSEL_WORD;
   if (!sel)
      return true;
   if (sel[0] == 'b' && sel[1] >= '0' && sel[1] <= '3' && !sel[2])
      *out = IR_VSEL_B0 + (uint32_t)(sel[1] - '0');
   else if (sel[0] == 'h' && (sel[1] == '0' || sel[1] == '1') && !sel[2])
      *out = IR_VSEL_H0 + (uint32_t)(sel[1] - '0');
   else
      return bad_selector(c, k, sel);
   return true;
}

/* The control word of a scalar form; types vop.dtype.atype.btype or
 * vset.atype.btype.  Three operands: no c; four: a secondary operation or
 * a merge (a selector on d), not both. */
static bool vscalar_control(build_ctx *c, bool set, uint8_t *sub, uint32_t *ctl)
{
   const ptx_instr *in = c->in;
   if (!video_types(c, set))
      return false;
   bool shift = in->op == PTX_OP_VSHL || in->op == PTX_OP_VSHR;
   bool ok = set     ? ONLY_MODS(c, PTX_MOD_ADD, PTX_MOD_MIN, PTX_MOD_MAX, PTX_MOD_EQ, PTX_MOD_NE, PTX_MOD_LT,
                                 PTX_MOD_LE, PTX_MOD_GT, PTX_MOD_GE)
             : shift ? ONLY_MODS(c, PTX_MOD_ADD, PTX_MOD_MIN, PTX_MOD_MAX, PTX_MOD_SAT, PTX_MOD_CLAMP, PTX_MOD_WRAP)
                     : ONLY_MODS(c, PTX_MOD_ADD, PTX_MOD_MIN, PTX_MOD_MAX, PTX_MOD_SAT);
   if (!ok)
      return false;
   /* vshl/vshr: b is .u32; .clamp or .wrap */
   if (shift && in->types[2] != PTX_T_U32)
      return bld_refuse(c);
   if (shift && bld_has(c, PTX_MOD_CLAMP) == bld_has(c, PTX_MOD_WRAP))
      return ir_error(c->m, c->line, "%s: needs .clamp or .wrap", bld_spelled(c));
   uint32_t sec = IR_VSEC_NONE;
   unsigned nsec = 0;
   if (bld_has(c, PTX_MOD_ADD))
      sec = IR_VSEC_ADD, nsec++;
   if (bld_has(c, PTX_MOD_MIN))
      sec = IR_VSEC_MIN, nsec++;
   if (bld_has(c, PTX_MOD_MAX))
      sec = IR_VSEC_MAX, nsec++;
   if (in->nopnds != 3 && in->nopnds != 4)
      return bld_need_opnds(c, 4);
   uint32_t asel, bsel, dsel;
   if (!scalar_sel(c, 0, &dsel) || !scalar_sel(c, 1, &asel) || !scalar_sel(c, 2, &bsel))
      return false;
   bool merge = dsel != IR_VSEL_WORD;
   if (nsec > 1 || (merge && nsec))
      return ir_error(c->m, c->line, "%s: one secondary operation (.add .min .max) or a merge (d.sel), not both",
                      bld_spelled(c));
   if (!bld_need_opnds(c, nsec || merge ? 4 : 3))
      return false;
   if (in->nopnds == 4 && in->opnds[3]->kind == PTX_OPND_REG && in->opnds[3]->sel)
      return bad_selector(c, 3, in->opnds[3]->sel);
   unsigned op;
   if (!video_op(c, set, &op))
      return false;
   *sub = (uint8_t)(op | IR_VOP_SCALAR);
   *ctl = asel | bsel << IR_VSCALAR_BSEL_SHIFT | dsel << IR_VSCALAR_DSEL_SHIFT | sec << IR_VSCALAR_SEC_SHIFT |
          (bld_has(c, PTX_MOD_CLAMP) ? IR_VSCALAR_CLAMP : 0) | sign_bits(c, set) |
          (set && in->types[0] == PTX_T_S32 ? IR_VIDEO_D_SIGNED : 0) |   /* vset's .min/.max: atype's sign */
          (bld_has(c, PTX_MOD_SAT) ? IR_VIDEO_SAT : 0);
   return true;
}

bool bld_tr_video(build_ctx *c)
{
   const ptx_instr *in = c->in;
   bool scalar = is_scalar_video(in->op);
   if (in->op == PTX_OP_VMAD || !(scalar || is_simd_video(in->op)))
      return bld_refuse(c);
   bool quad = in->op == PTX_OP_VADD4 || in->op == PTX_OP_VSUB4 || in->op == PTX_OP_VAVRG4 ||
               in->op == PTX_OP_VABSDIFF4 || in->op == PTX_OP_VMIN4 || in->op == PTX_OP_VMAX4 ||
               in->op == PTX_OP_VSET4;
   bool set = in->op == PTX_OP_VSET2 || in->op == PTX_OP_VSET4 || in->op == PTX_OP_VSET;
   uint8_t sub = 0;
   uint32_t ctl = 0;
   if (!(scalar ? vscalar_control(c, set, &sub, &ctl) : vsimd_control(c, quad, set, &sub, &ctl)))
      return false;
   ir_def *s[3] = { bld_src(c, 1, PTX_T_B32, 32), bld_src(c, 2, PTX_T_B32, 32),
                    in->nopnds > 3 ? bld_src(c, 3, PTX_T_B32, 32) : bld_const(c, 32, 0) };
   for (unsigned k = 0; k < 3; k++)
      if (!s[k])
         return false;
   ir_instr *i = bld_emit(c, IR_VIDEO, 3, 32, 1);
   if (!i)
      return false;
   i->type = set ? PTX_T_U32 : in->types[0];
   i->sub = sub;
   i->imm = ctl;
   for (unsigned k = 0; k < 3; k++)
      bld_set_src(i, k, s[k]);
   return bld_write(c, in->opnds[0], &i->def, i->type);
}
