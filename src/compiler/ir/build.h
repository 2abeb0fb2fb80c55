/*
 * build.h — private interface between build.c (function structure, CFG,
 * SSA construction, operands) and build_instr.c (one function per PTX
 * instruction family).  Not used outside src/compiler/ir/build*.c.
 */
#ifndef MC_IR_BUILD_H
#define MC_IR_BUILD_H

#include "ir.h"

/* A name in scope: a register, a variable of some space, or a label. */
typedef enum sym_kind {
   SYM_REG,        /* a PTX register: SSA variable `var` */
   SYM_VAR,        /* .local/.shared/.global/.const variable: ir_var or ir_global */
   SYM_PARAM,      /* a kernel parameter (param blob at offset) */
   SYM_ARG,        /* a .func .param argument: a block in local memory whose
                    * address (the ARG value) is SSA variable `var` */
} sym_kind;

typedef struct build_sym {
   sym_kind kind;
   const char *name;
   ptx_type type;
   uint8_t bits;         /* registers: container size */
   uint8_t vec;          /* vector registers (.v2/.v4 .reg): components */
   uint32_t var;         /* SYM_REG: SSA variable id (first component) */
   ir_space space;       /* SYM_VAR */
   uint64_t offset;      /* SYM_VAR: offset in its space; SYM_PARAM: blob offset */
   uint64_t size;
} build_sym;

/* A scope level: names declared inside one { } of the body. */
typedef struct build_scope {
   strmap names;         /* name → build_sym* */
   struct build_scope *parent;
   /* A nested scope (a call sequence's { }) gives its .param blocks' local
    * bytes back at its end, so consecutive calls share them (smaller
    * frames: recursive functions' are pushed per call); not when it
    * declares .local variables, whose address may outlive it. */
   uint32_t local_mark;
   bool keeps_local;
} build_scope;

typedef struct build_ctx {
   ir_module *m;
   ir_func *f;
   uint32_t local_peak;  /* the most local bytes a scope that ended held */
   const ptx_func *pf;
   arena *ar;
   build_scope *scope;
   build_scope module_scope;   /* module-level shared/global/const/funcs */
   strmap labels;              /* label → ir_block* */
   u64map defs;                /* (var << 32 | block index) + 1 → current def */
   uint32_t nvars;
   uint8_t *var_bits;          /* container size of each SSA variable */
   uint32_t var_cap;
   /* Blocks: per block SSA state (indexed by block index). */
   uint32_t *filled_preds;
   bool *sealed, *filled;
   VEC(ir_instr *) *incomplete;   /* per block: incomplete phis (imm = var) */
   uint32_t state_cap;
   ir_block *cur;                  /* block being filled */
   const ptx_instr *in;            /* instruction being translated */
   bool suppress_guard;            /* the guard was applied to the producer already */
   uint32_t cc_var;                /* CC.CF's SSA variable + 1 (0: none yet) */
   uint32_t line;
   /* .func .reg returns: each register and the SSA variable holding the
    * local address the caller reads it from (stored at every ret). */
   uint32_t nregrets;
   struct bld_regret { const build_sym *reg; uint32_t addr_var; ptx_type type; } *regrets;
   /* Shared-memory layout of the function. */
   uint32_t shared_bytes;
   VEC(const ptx_var *) dyn_shared;
} build_ctx;

/* ---- build.c: helpers build_instr.c uses ---- */

build_sym *bld_lookup(build_ctx *c, const char *name);
ir_def *bld_read_reg(build_ctx *c, const build_sym *reg, unsigned comp);
/* The carry flag CC.CF (add.cc, addc, sub.cc, subc, mad.cc, madc). */
ir_def *bld_read_cc(build_ctx *c);
void bld_write_cc(build_ctx *c, ir_def *d);
void bld_write_reg(build_ctx *c, const build_sym *reg, unsigned comp, ir_def *d);

ir_instr *bld_emit(build_ctx *c, ir_op op, uint32_t nsrcs, uint8_t bits, uint8_t ncomp);
ir_def *bld_const(build_ctx *c, uint8_t bits, uint64_t value);
void bld_set_src(ir_instr *i, uint32_t k, ir_def *d);
/* Reads operand k of the current instruction as a value of `type` held in a
 * container of `bits` (immediates are converted, registers resized by
 * PTX's rules).  NULL on error (error recorded). */
ir_def *bld_src(build_ctx *c, unsigned k, ptx_type type, uint8_t bits);
ir_def *bld_opnd(build_ctx *c, const ptx_operand *o, ptx_type type, uint8_t bits);
/* The destination register of operand k: its symbol, NULL on error. */
const build_sym *bld_dst_sym(build_ctx *c, const ptx_operand *o);
/* Writes def to the destination operand o, applying the instruction's guard
 * (the def's instruction receives guard/old).  Resizes if the register is
 * wider/narrower (signedness from type). */
bool bld_write(build_ctx *c, const ptx_operand *o, ir_def *d, ptx_type type);
/* A 128-bit operand as its 64-bit halves (low, high), and the write of
 * them to a 128-bit destination (a .b128 register or {lo, hi}). */
bool bld_b128_halves(build_ctx *c, const ptx_operand *o, ir_def *h[2]);
bool bld_b128_write(build_ctx *c, const ptx_operand *o, ir_def *const h[2]);
/* The same as one two-component vector (IR_VEC / IR_EXTRACT). */
ir_def *bld_b128_vec(build_ctx *c, const ptx_operand *o);
bool bld_b128_write_vec(build_ctx *c, const ptx_operand *o, ir_def *vec);
/* Address operand → (base value or NULL, symbol space, offset). */
ir_def *bld_address(build_ctx *c, const ptx_operand *o, ir_space *space_out);
/* The address of a symbol + offset: a variable's in its space, a kernel
 * parameter's offset, a function's token (space_out may be NULL). */
ir_def *bld_sym_addr(build_ctx *c, const char *name, int64_t offset, ir_space *space_out);
/* Resizes a value to bits (truncate, or extend signed/unsigned). */
ir_def *bld_resize(build_ctx *c, ir_def *d, uint8_t bits, bool is_signed);
/* v << amount or v >> amount (op IR_SHL or IR_SHR, logical), for packing
 * and unpacking. */
ir_def *bld_shift_by(build_ctx *c, ir_op op, ir_def *v, unsigned amount);
bool bld_unsupported(build_ctx *c, const char *what);
/* Element k of vector operand o (o itself when it is no vector). */
const ptx_operand *bld_vec_elem(const ptx_operand *o, uint32_t k);
/* The registers of destination d (n elements of `bits`, a sink reading 0)
 * as they are before the instruction: what a guarded instruction that
 * carries its guard itself leaves when the guard fails (ir_instr.old). */
ir_def *bld_old_dst_value(build_ctx *c, const ptx_operand *d, uint32_t n, uint8_t bits);
/* Applies the current instruction's guard to i (which defines the value that
 * goes to register sym). */
void bld_guard(build_ctx *c, ir_instr *i, const build_sym *dst);
/* Ends the current block with a terminator and continues in `next`. */
void bld_set_block(build_ctx *c, ir_block *b);
ir_block *bld_label_block(build_ctx *c, const char *label);

static inline uint8_t bld_type_bits(ptx_type t)
{
   uint8_t b = ptx_type_bits[t];
   return b == 1 ? 1 : b;
}
/* PTX for .target sm_1x flushes f32 subnormals whatever the instruction
 * says (PTX ISA: "sm_1x: subnormal inputs and results are flushed to
 * sign-preserving zero"; so does an H100's JIT: tests/ptx
 * legacy_sm10_f32): every instruction that knows .ftz has it implied on
 * an f32 operand there. */
static inline bool bld_legacy_ftz(const build_ctx *c)
{
   uint32_t sm = c->m->ptx ? c->m->ptx->sm : 0;
   if (sm < 10 || sm > 19)
      return false;
   for (unsigned k = 0; k < c->in->ntypes; k++)
      if (c->in->types[k] == PTX_T_F32)
         return true;
   return false;
}

static inline bool bld_has(build_ctx *c, ptx_mod m)
{
   return ptx_instr_has_mod(c->in, m) || (m == PTX_MOD_FTZ && bld_legacy_ftz(c));
}

/* The 16-bit float lane types: f16, bf16 and their packed pairs. */
static inline bool bld_is_lane16(ptx_type t)
{
   return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
}

/* ---- build_instr.c ---- */

/* Translates the current instruction c->in (not a control-flow one). */
bool bld_instr(build_ctx *c);

/* ---- build_util.c ---- */

const char *bld_spelled(build_ctx *c);     /* "'add.rz.f32'" for messages */
bool bld_refuse(build_ctx *c);             /* "... is not supported yet" */
bool bld_need_types(build_ctx *c, unsigned n);
bool bld_need_opnds(build_ctx *c, unsigned n);
ir_rnd bld_rnd(build_ctx *c);
uint16_t bld_flags(build_ctx *c);
bool bld_is_harmless_mod(ptx_mod m);
bool bld_only_mods(build_ctx *c, const ptx_mod *allowed, size_t n);
/* Refuses any modifier not listed (nor harmless): an unknown combination
 * is never silently ignored. */
#define ONLY_MODS(c, ...)                                                     \
   bld_only_mods((c), (const ptx_mod[]){ PTX_MOD_INVALID, __VA_ARGS__ },      \
                 sizeof((const ptx_mod[]){ PTX_MOD_INVALID, __VA_ARGS__ }) / sizeof(ptx_mod))
/* Emits op(srcs) with a def of `bits` and writes it to operand 0. */
bool bld_alu(build_ctx *c, ir_op op, ptx_type t, uint8_t bits, ir_def **srcs, unsigned n, uint8_t sub,
             ptx_type dst_type);
/* d = op(a, b, ...) with every operand of the instruction type. */
bool bld_simple_alu(build_ctx *c, ir_op op, unsigned nsrc);
/* a op b as a new def (1 bit for IR_SETP); NULL in, NULL out. */
ir_def *bld_op2(build_ctx *c, ir_op op, ptx_type t, ir_def *a, ir_def *b);
/* sel ? one : 0 in `bits` bits; NULL in, NULL out. */
ir_def *bld_select_const(build_ctx *c, ir_def *sel, uint8_t bits, uint64_t one);
/* cond ? a : b; NULL in, NULL out. */
ir_def *bld_select(build_ctx *c, ir_def *cond, ir_def *a, ir_def *b);
/* cvt.dt.st with rounding and IR_F_* flags; NULL in, NULL out. */
ir_def *bld_cvt(build_ctx *c, ptx_type dt, ptx_type st, ir_rnd r, uint16_t flags, ir_def *a);
bool bld_is_int16_64(ptx_type t);

/* ---- build_int.c ---- */

bool bld_tr_int_add_sub(build_ctx *c, ir_op op);
bool bld_tr_int_mul_mad(build_ctx *c, bool mad);
bool bld_tr_int_div_rem(build_ctx *c, ir_op op);
bool bld_tr_int_abs_neg_min_max(build_ctx *c, ir_op op, unsigned nsrc);
bool bld_tr_mul24(build_ctx *c, bool mad);
bool bld_tr_sad(build_ctx *c);
bool bld_tr_logic(build_ctx *c, ir_op op, unsigned nsrc);
bool bld_tr_shift(build_ctx *c, ir_op op);
bool bld_tr_bitcount(build_ctx *c, ir_op op);
bool bld_tr_bfe_bfi(build_ctx *c, bool insert);
bool bld_tr_bfind(build_ctx *c);
bool bld_tr_prmt(build_ctx *c);
bool bld_tr_shf(build_ctx *c);
bool bld_tr_carry(build_ctx *c);
bool bld_tr_dp(build_ctx *c, bool dp4);
bool bld_tr_slct(build_ctx *c);
bool bld_tr_lop3(build_ctx *c);
bool bld_tr_bmsk(build_ctx *c);
bool bld_tr_szext(build_ctx *c);
bool bld_tr_fns(build_ctx *c);
bool bld_tr_cvt_pack(build_ctx *c);

/* ---- build_video.c ---- */

/* An operand's lane selector (.b0, .h10, ...) outside a video instruction,
 * or a negated operand (-%r), is an error (false). */
bool bld_check_operand_marks(build_ctx *c);
/* vadd2 ... vset4 and vadd, vsub, vabsdiff, vmin, vmax, vset, vshl, vshr;
 * vmad refused */
bool bld_tr_video(build_ctx *c);

/* ---- build_float.c ---- */

bool bld_float_ok(build_ctx *c, ptx_type t);
bool bld_tr_cvt_f64(build_ctx *c);
bool bld_tr_float_arith(build_ctx *c, ir_op op);
bool bld_tr_float_abs_neg_min_max(build_ctx *c, ir_op op, unsigned nsrc);
bool bld_tr_float_unary(build_ctx *c, ir_op op);
bool bld_tr_fma(build_ctx *c);
bool bld_tr_copysign(build_ctx *c);
bool bld_tr_testp(build_ctx *c);
/* cvt forms with bf16, f16x2, bf16x2 or directed rounding into a float:
 * bld_tr_cvt hands them to bld_tr_cvt_float */
bool bld_cvt_is_float_form(build_ctx *c);
bool bld_tr_cvt_float(build_ctx *c);

/* ---- build_cmp.c ---- */

bool bld_tr_setp(build_ctx *c);
bool bld_tr_set(build_ctx *c);
bool bld_tr_selp(build_ctx *c);

/* ---- build_warp.c ---- */

bool bld_tr_bar(build_ctx *c);
bool bld_tr_warp(build_ctx *c);

/* ---- build_atom.c ---- */

bool bld_tr_membar(build_ctx *c);
/* The IR_SCOPE_* of an instruction's .cta/.cluster/.gpu/.sys (default .gpu). */
bool bld_scope_of(build_ctx *c, uint8_t *scope);
/* A fence at the instruction's scope, under its guard (also ld.acquire, st.release). */
bool bld_emit_fence(build_ctx *c);
bool bld_tr_atom(build_ctx *c);

/* ---- build_async.c ---- */

/* cp.async, cp.async.bulk, cp.reduce.async.bulk, st.bulk, st.async,
 * red.async, mbarrier. */
bool bld_tr_async(build_ctx *c);

/* ---- build_cluster.c ---- */

/* mapa, getctarank (clusters of one block). */
bool bld_tr_cluster(build_ctx *c);

/* ---- build_mma.c ---- */

/* mma.sync, wmma, ldmatrix, stmatrix, movmatrix. */
bool bld_tr_mma(build_ctx *c);

/* ---- build_call.c ---- */

bool bld_tr_call(build_ctx *c);
/* ---- build_tex.c: tex, suld, sust, txq, suq on texture/surface objects ---- */
bool bld_tr_tex(build_ctx *c);
bool bld_tr_isspacep(build_ctx *c);
/* The address of a .func .param argument + offset (a local address). */
ir_def *bld_arg_addr(build_ctx *c, const build_sym *sym, int64_t offset, ir_space *space_out);
/* A fresh block of the function's local frame: its address. */
ir_def *bld_local_slot(build_ctx *c, uint32_t size, uint32_t align);
/* ---- build.c, for build_call.c ---- */
/* Stores the .reg returns of a .func before one of its rets. */
bool bld_store_reg_rets(build_ctx *c);
/* Reads SSA variable var in the current block. */
ir_def *bld_read_var(build_ctx *c, uint32_t var);

/* ---- build_mem.c ---- */

bool bld_tr_mov(build_ctx *c);
bool bld_tr_ld(build_ctx *c);
bool bld_tr_st(build_ctx *c);
bool bld_tr_createpolicy(build_ctx *c);
bool bld_tr_l2_hint(build_ctx *c);
bool bld_tr_cvta(build_ctx *c);
bool bld_tr_cvt(build_ctx *c);

#endif
