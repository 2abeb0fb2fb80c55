/*
 * build_instr.c — dispatches the current instruction (c->in) to its family.
 * Control flow (bra, ret, exit, trap) is build.c's.  Forms the translator
 * cannot yet do exactly are refused by name, never approximated
 * (ARCHITECTURE §4): the message names the instruction as written and the
 * PTX line.
 */
#include "build.h"

static bool float_typed(build_ctx *c)
{
   return c->in->ntypes >= 1 && ptx_type_is_float(c->in->types[0]);
}

bool bld_instr(build_ctx *c)
{
   bool fl = float_typed(c);
   if (!bld_check_operand_marks(c))
      return false;
   switch (c->in->op) {
   case PTX_OP_ADD: case PTX_OP_ADDC: return fl ? bld_tr_float_arith(c, IR_ADD) : bld_tr_int_add_sub(c, IR_ADD);
   case PTX_OP_SUB: case PTX_OP_SUBC: return fl ? bld_tr_float_arith(c, IR_SUB) : bld_tr_int_add_sub(c, IR_SUB);
   case PTX_OP_MUL: return fl ? bld_tr_float_arith(c, IR_MUL) : bld_tr_int_mul_mad(c, false);
   case PTX_OP_MAD: return fl ? bld_tr_float_arith(c, IR_MAD) : bld_tr_int_mul_mad(c, true);
   case PTX_OP_MADC: return bld_tr_carry(c);
   case PTX_OP_DP4A: return bld_tr_dp(c, true);
   case PTX_OP_DP2A: return bld_tr_dp(c, false);
   case PTX_OP_SLCT: return bld_tr_slct(c);
   case PTX_OP_LOP3: return bld_tr_lop3(c);
   case PTX_OP_BMSK: return bld_tr_bmsk(c);
   case PTX_OP_SZEXT: return bld_tr_szext(c);
   case PTX_OP_FNS: return bld_tr_fns(c);
   case PTX_OP_CVT_PACK: return bld_tr_cvt_pack(c);
   case PTX_OP_DIV: return fl ? bld_tr_float_arith(c, IR_DIV) : bld_tr_int_div_rem(c, IR_DIV);
   case PTX_OP_REM: return bld_tr_int_div_rem(c, IR_REM);
   case PTX_OP_ABS: return fl ? bld_tr_float_abs_neg_min_max(c, IR_ABS, 1) : bld_tr_int_abs_neg_min_max(c, IR_ABS, 1);
   case PTX_OP_NEG: return fl ? bld_tr_float_abs_neg_min_max(c, IR_NEG, 1) : bld_tr_int_abs_neg_min_max(c, IR_NEG, 1);
   case PTX_OP_MIN: return fl ? bld_tr_float_abs_neg_min_max(c, IR_MIN, 2) : bld_tr_int_abs_neg_min_max(c, IR_MIN, 2);
   case PTX_OP_MAX: return fl ? bld_tr_float_abs_neg_min_max(c, IR_MAX, 2) : bld_tr_int_abs_neg_min_max(c, IR_MAX, 2);
   case PTX_OP_MUL24: return bld_tr_mul24(c, false);
   case PTX_OP_MAD24: return bld_tr_mul24(c, true);
   case PTX_OP_SAD: return bld_tr_sad(c);
   case PTX_OP_AND: return bld_tr_logic(c, IR_AND, 2);
   case PTX_OP_OR: return bld_tr_logic(c, IR_OR, 2);
   case PTX_OP_XOR: return bld_tr_logic(c, IR_XOR, 2);
   case PTX_OP_NOT: return bld_tr_logic(c, IR_NOT, 1);
   case PTX_OP_CNOT: return bld_tr_logic(c, IR_CNOT, 1);
   case PTX_OP_SHL: return bld_tr_shift(c, IR_SHL);
   case PTX_OP_SHR: return bld_tr_shift(c, IR_SHR);
   case PTX_OP_POPC: return bld_tr_bitcount(c, IR_POPC);
   case PTX_OP_CLZ: return bld_tr_bitcount(c, IR_CLZ);
   case PTX_OP_BREV: return bld_tr_bitcount(c, IR_BREV);
   case PTX_OP_BFE: return bld_tr_bfe_bfi(c, false);
   case PTX_OP_BFI: return bld_tr_bfe_bfi(c, true);
   case PTX_OP_BFIND: return bld_tr_bfind(c);
   case PTX_OP_PRMT: return bld_tr_prmt(c);
   case PTX_OP_SHF: return bld_tr_shf(c);
   case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2: case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2:
   case PTX_OP_VMAX2: case PTX_OP_VSET2: case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4:
   case PTX_OP_VABSDIFF4: case PTX_OP_VMIN4: case PTX_OP_VMAX4: case PTX_OP_VSET4: case PTX_OP_VADD:
   case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN: case PTX_OP_VMAX: case PTX_OP_VSET: case PTX_OP_VSHL:
   case PTX_OP_VSHR:
      return bld_tr_video(c);
   case PTX_OP_SETP: return bld_tr_setp(c);
   case PTX_OP_SET: return bld_tr_set(c);
   case PTX_OP_SELP: return bld_tr_selp(c);
   case PTX_OP_FMA: return bld_tr_fma(c);
   case PTX_OP_RCP: return bld_tr_float_unary(c, IR_RCP);
   case PTX_OP_SQRT: return bld_tr_float_unary(c, IR_SQRT);
   case PTX_OP_RSQRT: return bld_tr_float_unary(c, IR_RSQRT);
   case PTX_OP_SIN: return bld_tr_float_unary(c, IR_SIN);
   case PTX_OP_COS: return bld_tr_float_unary(c, IR_COS);
   case PTX_OP_LG2: return bld_tr_float_unary(c, IR_LG2);
   case PTX_OP_EX2: return bld_tr_float_unary(c, IR_EX2);
   case PTX_OP_TANH: return bld_tr_float_unary(c, IR_TANH);
   case PTX_OP_COPYSIGN: return bld_tr_copysign(c);
   case PTX_OP_TESTP: return bld_tr_testp(c);
   case PTX_OP_CVT: return bld_tr_cvt(c);
   case PTX_OP_CVTA: return bld_tr_cvta(c);
   case PTX_OP_MOV: return bld_tr_mov(c);
   case PTX_OP_LD: case PTX_OP_LDU: return bld_tr_ld(c);
   case PTX_OP_ST: return bld_tr_st(c);
   case PTX_OP_CREATEPOLICY: return bld_tr_createpolicy(c);
   case PTX_OP_APPLYPRIORITY: case PTX_OP_DISCARD: return bld_tr_l2_hint(c);
   case PTX_OP_BAR: case PTX_OP_BARRIER: return bld_tr_bar(c);
   case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX: case PTX_OP_ACTIVEMASK: case PTX_OP_ELECT:
      return bld_tr_warp(c);
   case PTX_OP_MEMBAR: case PTX_OP_FENCE: return bld_tr_membar(c);
   case PTX_OP_ATOM: case PTX_OP_RED: return bld_tr_atom(c);
   case PTX_OP_CP_ASYNC: case PTX_OP_CP_ASYNC_BULK: case PTX_OP_CP_REDUCE_ASYNC_BULK: case PTX_OP_ST_BULK:
   case PTX_OP_ST_ASYNC: case PTX_OP_RED_ASYNC: case PTX_OP_MBARRIER:
      return bld_tr_async(c);
   case PTX_OP_MAPA: case PTX_OP_GETCTARANK: return bld_tr_cluster(c);
   case PTX_OP_MMA: case PTX_OP_WMMA: case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
      return bld_tr_mma(c);
   case PTX_OP_CALL: return bld_tr_call(c);
   case PTX_OP_ISSPACEP: return bld_tr_isspacep(c);
   case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD: case PTX_OP_SUST: case PTX_OP_TXQ: case PTX_OP_SUQ:
      return bld_tr_tex(c);
   case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_NANOSLEEP:
      return true;   /* hints without observable effect */
   case PTX_OP_SETMAXNREG:
      /* setmaxnreg.{inc,dec}.sync.aligned.u32 n (sm_90a): moves registers
       * between a warpgroup's warps; values never change, so it is exact
       * as a no-op once checked as ptxas checks it. */
      if (!ONLY_MODS(c, PTX_MOD_INC, PTX_MOD_DEC, PTX_MOD_SYNC, PTX_MOD_ALIGNED))
         return false;
      if (bld_has(c, PTX_MOD_INC) == bld_has(c, PTX_MOD_DEC) || !bld_has(c, PTX_MOD_SYNC) ||
          !bld_has(c, PTX_MOD_ALIGNED) || c->in->ntypes != 1 || c->in->types[0] != PTX_T_U32 ||
          c->in->nopnds != 1 || c->in->opnds[0]->kind != PTX_OPND_IMM_INT ||
          c->in->opnds[0]->u.imm.bits < 24 || c->in->opnds[0]->u.imm.bits > 256 || c->in->opnds[0]->u.imm.bits % 8)
         return ir_error(c->m, c->line, "%s: expected .inc or .dec, .sync.aligned.u32 and a register count "
                         "from 24 to 256, a multiple of 8", bld_spelled(c));
      return true;
   case PTX_OP_GRIDDEPCONTROL:
      /* Programmatic dependent launch: a grid here starts only after the
       * one before it on its stream has completed, its writes visible, so
       * .wait has nothing to wait for and .launch_dependents (a hint that
       * dependents may start) nothing to allow: both are exact as no-ops. */
      if (!ONLY_MODS(c, PTX_MOD_LAUNCH_DEPENDENTS, PTX_MOD_WAIT) || c->in->nopnds ||
          bld_has(c, PTX_MOD_LAUNCH_DEPENDENTS) == bld_has(c, PTX_MOD_WAIT))
         return ir_error(c->m, c->line, "%s: griddepcontrol takes .launch_dependents or .wait and no operand",
                         bld_spelled(c));
      return true;
   default:
      return bld_refuse(c);
   }
}
