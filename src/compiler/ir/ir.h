/*
 * ir.h — metalcuda's typed SSA IR: the table of contents of src/compiler/ir.
 *
 * Shape (after Mesa's NIR):
 *   ir_module → ir_func → ir_block (CFG, ≤ N successors) → ir_instr (list)
 *   Every value is an ir_def living inside the instruction that produces it;
 *   every operand is an ir_src linked into its def's use list, so rewriting
 *   all uses of a value costs time in proportion to its uses.
 *
 * Values are bit containers: a def has a bit size (1 for predicates, 8, 16,
 * 32, 64) and a component count (1..4, vectors only from vector loads and
 * for vector stores).  The *operation* carries the semantic type, as PTX
 * does: ADD with type S32 and ADD with type F32 are different operations
 * on 32-bit values.
 *
 * Control flow is an explicit CFG until the structurizer runs; it then
 * records a tree of structured nodes (f->cf) over the same blocks, which the
 * MSL emitter walks.  Terminators stay in the blocks (for validation) but
 * the emitter takes control flow from the tree only.
 *
 * Memory: everything is allocated from the module arena and released with
 * it; passes never free.
 */
#ifndef MC_IR_H
#define MC_IR_H

#include "../ptx/ptx.h"

typedef struct ir_module ir_module;
typedef struct ir_func ir_func;
typedef struct ir_block ir_block;
typedef struct ir_instr ir_instr;
typedef struct ir_def ir_def;
typedef struct ir_src ir_src;
typedef struct ir_cf ir_cf;

/* ---------------------------------------------------------------------------
 * Opcodes.  One table describes every op: its name, its number of value
 * sources (-1: variable), and flags.  Passes ask the flags, never a list of
 * opcodes.
 * ------------------------------------------------------------------------- */
enum {
   IR_OP_PURE = 1 << 0,        /* no side effects, result depends on srcs only: CSE/DCE-able */
   IR_OP_CONVERGENT = 1 << 1,  /* barriers, shuffles, votes: must not be moved across control flow */
   IR_OP_TERMINATOR = 1 << 2,  /* ends a block */
   IR_OP_MEMORY = 1 << 3,      /* reads or writes memory */
   IR_OP_SIDE_EFFECT = 1 << 4, /* must be kept even if its result is unused */
   IR_OP_HAS_DEF = 1 << 5,     /* produces a value */
   IR_OP_MAYBE_DEF = 1 << 6,   /* produces a value or not (calls) */
};

#define IR_OPS(X)                                                             \
   /* values */                                                              \
   X(CONST, 0, IR_OP_PURE | IR_OP_HAS_DEF)        /* imm = bits */           \
   X(UNDEF, 0, IR_OP_PURE | IR_OP_HAS_DEF)                                   \
   X(PARAM, 0, IR_OP_PURE | IR_OP_HAS_DEF)        /* kernel param blob at imm; type */ \
   X(ARG, 0, IR_OP_PURE | IR_OP_HAS_DEF)          /* .func argument imm (ir_func.args) */ \
   X(SREG, 0, IR_OP_HAS_DEF)                      /* special register sub=ir_sreg */ \
   X(SYMADDR, 0, IR_OP_PURE | IR_OP_HAS_DEF)      /* address of var sym (+imm) in space */ \
   X(COPY, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                    \
   X(PHI, -1, IR_OP_PURE | IR_OP_HAS_DEF)                                    \
   X(VEC, -1, IR_OP_PURE | IR_OP_HAS_DEF)         /* build a vector from scalars */ \
   X(EXTRACT, 1, IR_OP_PURE | IR_OP_HAS_DEF)      /* component imm of a vector */ \
   /* integer and float arithmetic: type says which */                       \
   X(ADD, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(SUB, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(MUL, 2, IR_OP_PURE | IR_OP_HAS_DEF)          /* sub = ir_mulmode */     \
   X(MAD, 3, IR_OP_PURE | IR_OP_HAS_DEF)          /* a*b+c; sub = ir_mulmode; float: fused */ \
   X(MUL24, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                   \
   X(MAD24, 3, IR_OP_PURE | IR_OP_HAS_DEF)                                   \
   X(SAD, 3, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(DIV, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(REM, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(ABS, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(NEG, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(MIN, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(MAX, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(AND, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(OR, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                      \
   X(XOR, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(NOT, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(CNOT, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                    \
   X(SHL, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(SHR, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(POPC, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                    \
   X(CLZ, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(BREV, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                    \
   X(BFE, 3, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(BFI, 4, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(BFIND, 1, IR_OP_PURE | IR_OP_HAS_DEF)        /* sub: 1 = .shiftamt */   \
   X(DP4A, 3, IR_OP_PURE | IR_OP_HAS_DEF)         /* sub: IR_DP_* */         \
   X(DP2A, 3, IR_OP_PURE | IR_OP_HAS_DEF)         /* sub: IR_DP_* */         \
   X(SLCT, 3, IR_OP_PURE | IR_OP_HAS_DEF)         /* c >= 0 ? a : b; type2 = c's */ \
   X(LOP3, 3, IR_OP_PURE | IR_OP_HAS_DEF)         /* imm: the 8-bit table */ \
   X(BMSK, 2, IR_OP_PURE | IR_OP_HAS_DEF)         /* sub: 1 = .clamp */      \
   X(SZEXT, 2, IR_OP_PURE | IR_OP_HAS_DEF)        /* sub: 1 = .clamp; type */ \
   X(FNS, 3, IR_OP_PURE | IR_OP_HAS_DEF)          /* mask, base, offset */   \
   X(CVT_PACK, -1, IR_OP_PURE | IR_OP_HAS_DEF)    /* a, b[, c]; sub: bits, type: dst */ \
   X(PRMT, 3, IR_OP_PURE | IR_OP_HAS_DEF)         /* sub = ir_prmt mode */   \
   X(SHF, 3, IR_OP_PURE | IR_OP_HAS_DEF)          /* sub: IR_SHF_* flags */  \
   X(VIDEO, 3, IR_OP_PURE | IR_OP_HAS_DEF)        /* a, b, c; sub: ir_vop | IR_VOP_*; imm: control */ \
   X(SETP, 2, IR_OP_PURE | IR_OP_HAS_DEF)         /* sub = ir_cmp; def 1 bit */ \
   X(SET, 2, IR_OP_PURE | IR_OP_HAS_DEF)          /* sub = ir_cmp; type2 = dst type */ \
   X(SELECT, 3, IR_OP_PURE | IR_OP_HAS_DEF)       /* cond ? a : b */         \
   X(FMA, 3, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(RCP, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(SQRT, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                    \
   X(RSQRT, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                   \
   X(SIN, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(COS, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(LG2, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(EX2, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                     \
   X(TANH, 1, IR_OP_PURE | IR_OP_HAS_DEF)                                    \
   X(COPYSIGN, 2, IR_OP_PURE | IR_OP_HAS_DEF)                                \
   X(CVT, 1, IR_OP_PURE | IR_OP_HAS_DEF)          /* type = dst, type2 = src */ \
   X(CVTA, 1, IR_OP_PURE | IR_OP_HAS_DEF)         /* space; sub: 1 = to space */ \
   /* memory */                                                              \
   X(LOAD, 1, IR_OP_MEMORY | IR_OP_HAS_DEF)       /* [addr]; space; def ncomp = vec */ \
   X(STORE, -1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* [addr], values... */   \
   X(MEMBAR, 0, IR_OP_SIDE_EFFECT)             /* sub: IR_SCOPE_* */       \
   X(CP_ASYNC, 3, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* dst, src, src bytes; imm: cp-size \
                          (0: a bulk copy of src bytes); sub: 1 = .shared → .global (build_async.c) */ \
   X(CP_REDUCE, 3, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* dst, src (shared), bytes: each 32-bit element \
                          reduced into dst atomically; sub: ir_atom_op, type, space: dst's */ \
   X(ST_BULK, 2, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* [addr] (shared), bytes: zeros; sub 1: generic */ \
   X(TMA, -1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* cp.async.bulk.tensor, tile: smem addr, the map's \
                          16 words, [mbar (load)], coords x rank, [cta mask]; sub 1: store; \
                          imm: rank | 0x200 with a mask */ \
   /* barriers and warp-level operations (build_warp.c, emit_warp.c) */      \
   X(BAR, -1, IR_OP_CONVERGENT | IR_OP_SIDE_EFFECT) /* imm: id; srcs: [count] */ \
   X(BAR_RED, -1, IR_OP_CONVERGENT | IR_OP_SIDE_EFFECT | IR_OP_HAS_DEF)       \
                                               /* sub: ir_bar_red; pred[, count] */ \
   X(BAR_WARP, 1, IR_OP_CONVERGENT | IR_OP_SIDE_EFFECT) /* member mask */    \
   X(NBAR, 2, IR_OP_SIDE_EFFECT)   /* named barrier; sub: 1 arrive; id, count */ \
   X(SHFL, 4, IR_OP_CONVERGENT | IR_OP_HAS_DEF) /* sub: ir_shfl; value, b, c, mask */ \
   X(SHFL_PRED, 4, IR_OP_CONVERGENT | IR_OP_HAS_DEF) /* same srcs: lane in range */ \
   X(VOTE, 2, IR_OP_CONVERGENT | IR_OP_HAS_DEF) /* sub: ir_vote; pred, mask */ \
   X(MATCH, 2, IR_OP_CONVERGENT | IR_OP_HAS_DEF) /* sub: 0 any, 1 all; value, mask */ \
   X(MATCH_PRED, 2, IR_OP_CONVERGENT | IR_OP_HAS_DEF) /* match.all's predicate */ \
   X(REDUX, 2, IR_OP_CONVERGENT | IR_OP_HAS_DEF) /* sub: ir_atom_op; value, mask */ \
   X(ACTIVEMASK, 0, IR_OP_CONVERGENT | IR_OP_HAS_DEF)                         \
   /* warp matrix operations (build_mma.c, emit_warp.c, prelude mma.metal) */ \
   X(MMA, -1, IR_OP_CONVERGENT | IR_OP_HAS_DEF) /* sub: ir_mma; imm: IR_MMA_*; A, B, C */ \
   X(LDMATRIX, 1, IR_OP_CONVERGENT | IR_OP_MEMORY | IR_OP_HAS_DEF) /* imm: count | trans << 4 */ \
   X(STMATRIX, -1, IR_OP_CONVERGENT | IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* address, registers */ \
   /* atomics (build_atom.c, emit_atom.c) */                                 \
   X(ATOM, -1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT | IR_OP_HAS_DEF)             \
                                               /* sub: ir_atom_op; addr, value[, value2] */ \
   X(RED, -1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* as ATOM, no result */      \
   /* calls and the rest (build_call.c, emit_call.c) */                      \
   X(CALL, -1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT | IR_OP_MAYBE_DEF)           \
                          /* sym: callee; args as its ir_func.args; def: 1 bit, callee ended the thread */ \
   X(VPRINTF, 2, IR_OP_MEMORY | IR_OP_SIDE_EFFECT | IR_OP_HAS_DEF) /* format, argument block */ \
   X(ASSERTFAIL, 4, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* message, file, line, function */ \
   X(MALLOC, -1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT | IR_OP_HAS_DEF) /* size[, alignment] → address (device heap) */ \
   X(FREE, 1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT)    /* address */                 \
   X(ISSPACEP, 1, IR_OP_PURE | IR_OP_HAS_DEF) /* space; address → pred */    \
   /* texture and surface objects (build_tex.c, emit_tex.c); sub: ir_tex_geom */ \
   X(TEX, -1, IR_OP_MEMORY | IR_OP_HAS_DEF) /* type: result f32/u32/s32, type2: coords; handle, coords; def 4 x 32 */ \
   X(SULD, -1, IR_OP_MEMORY | IR_OP_HAS_DEF) /* type: element; imm: ir_surf_clamp; handle, x (bytes)[, y]; def vec */ \
   X(SUST, -1, IR_OP_MEMORY | IR_OP_SIDE_EFFECT) /* as SULD; handle, x[, y], values... */ \
   X(TXQ, -1, IR_OP_MEMORY | IR_OP_HAS_DEF) /* imm: ir_txq | IR_TXQ_*; handle[, lod] → b32 */ \
   /* control */                                                             \
   X(BR, 0, IR_OP_TERMINATOR)                                                \
   X(CBR, 1, IR_OP_TERMINATOR)                    /* cond: succs[0] if true, [1] if false */ \
   X(RET, -1, IR_OP_TERMINATOR)                   /* return values of a .func */ \
   X(EXIT, 0, IR_OP_TERMINATOR)                                              \
   X(TRAP, 0, IR_OP_TERMINATOR | IR_OP_SIDE_EFFECT)

typedef enum ir_op {
#define X(e, n, f) IR_##e,
   IR_OPS(X)
#undef X
   IR_OP_COUNT
} ir_op;

typedef struct ir_op_info {
   const char *name;
   int8_t nsrcs;     /* -1: variable */
   uint32_t flags;
} ir_op_info;
extern const ir_op_info ir_op_infos[IR_OP_COUNT];

static inline bool ir_op_is(ir_op op, uint32_t flag) { return (ir_op_infos[op].flags & flag) != 0; }

/* Sub-operations. */
typedef enum ir_mulmode { IR_MUL_LO, IR_MUL_HI, IR_MUL_WIDE } ir_mulmode;

typedef enum ir_shfl { IR_SHFL_UP, IR_SHFL_DOWN, IR_SHFL_BFLY, IR_SHFL_IDX } ir_shfl;
typedef enum ir_vote { IR_VOTE_ALL, IR_VOTE_ANY, IR_VOTE_UNI, IR_VOTE_BALLOT } ir_vote;
/* IR_BAR_RED_EXIT (lower_exit.c): srcs p and live; true when some live
 * thread's p holds, and the kernel fails (MC_STATUS_LOOP_EXIT) unless
 * every live thread's does or none does. */
typedef enum ir_bar_red { IR_BAR_RED_POPC, IR_BAR_RED_AND, IR_BAR_RED_OR, IR_BAR_RED_EXIT } ir_bar_red;
/* Texture and surface geometry (tex.1d/.2d, suld.b.1d/.2d) and the
 * surface boundary modes and txq/suq queries (PTX ISA 9.0 §9.7.10). */
typedef enum ir_tex_geom { IR_TEX_1D = 1, IR_TEX_2D = 2, IR_TEX_3D = 3 } ir_tex_geom;
/* IR_TEX imm: a layered geometry (the layer is the last source); a tld4
 * gather of component (imm >> IR_TEXF_COMP_SHIFT) & 3; a cube map (the
 * three coordinates are a direction); tex.level (the level of detail, an
 * f32, is the source after the coordinates and the layer); tex.grad (the
 * gradients dPdx and dPdy, one f32 per coordinate each, are the sources
 * after them). */
enum { IR_TEXF_LAYERED = 1, IR_TEXF_GATHER = 2, IR_TEXF_CUBE = 8, IR_TEXF_COMP_SHIFT = 4, IR_TEXF_LEVEL = 64,
       IR_TEXF_GRAD = 128 };
/* SULD/SUST imm: the boundary mode, or'ed with IR_SURF_LAYERED (the layer
 * follows the coordinates) and, for sust.p, IR_SURF_FORMATTED (the values
 * are converted to the surface's format; x counts samples). */
typedef enum ir_surf_clamp { IR_SURF_TRAP, IR_SURF_CLAMP, IR_SURF_ZERO } ir_surf_clamp;
enum { IR_SURF_MODE_MASK = 3, IR_SURF_LAYERED = 4, IR_SURF_FORMATTED = 8 };
/* TXQ imm: the query, or'ed with IR_TXQ_LEVEL (txq.level: the level of
 * detail, an s32, is the second source) and IR_TXQ_SUQ (suq). */
typedef enum ir_txq { IR_TXQ_WIDTH, IR_TXQ_HEIGHT, IR_TXQ_DEPTH } ir_txq;
enum { IR_TXQ_LEVEL = 32, IR_TXQ_SUQ = 64 };

typedef enum ir_atom_op {
   IR_ATOM_ADD, IR_ATOM_MIN, IR_ATOM_MAX, IR_ATOM_INC, IR_ATOM_DEC, IR_ATOM_AND, IR_ATOM_OR, IR_ATOM_XOR,
   IR_ATOM_EXCH, IR_ATOM_CAS,
   IR_ATOM_MBAR,   /* an mbarrier update on its 64-bit word (build_async.c has the layout):
                    * value = arrivals | tx-count delta << 32, value2 = expected-count drop */
} ir_atom_op;
/* ATOM/RED ordering, in imm: one IR_SEM_* | one IR_SCOPE_* (PTX's default is
 * .relaxed.gpu); MEMBAR's sub is an IR_SCOPE_* too. */
enum {
   IR_SEM_RELAXED = 0, IR_SEM_ACQUIRE = 1, IR_SEM_RELEASE = 2, IR_SEM_ACQ_REL = 3,
   IR_SEM_MASK = 3,
   IR_SCOPE_CTA = 0 << 2, IR_SCOPE_GPU = 1 << 2, IR_SCOPE_SYS = 2 << 2, IR_SCOPE_MASK = 3 << 2,
};

/* IR_MMA: sub = ir_mma, imm = K (mod 256) | format << 8 | IR_MMA_* flags |
 * counts of the A, B, C registers at bits 16, 20, 24 (build_mma.c).  M8:
 * an m8n8 shape (the m16n8 fragments' rows 0-7; D is 2 registers); AND:
 * b1's .and.popc (else .xor.popc); COLS2: two blocks of columns with one A
 * (wmma's m16n16 shapes: the B and C/D registers of both, in order);
 * SPARSE: mma.sp, A its compressed registers, K the logical one, the
 * metadata register a last source and the sparsity selector at bit
 * IR_MMA_SEL_SHIFT; M8 with F16: Volta's quad-pair m8n8k4 (below). */
typedef enum ir_mma { IR_MMA_MMA, IR_MMA_MOVMATRIX } ir_mma;
enum {
   IR_MMA_F16 = 0, IR_MMA_BF16 = 1, IR_MMA_TF32 = 2, IR_MMA_INT8 = 4, IR_MMA_F64 = 5,   /* format << 8 */
   IR_MMA_INT4 = 6, IR_MMA_B1 = 7,
   IR_MMA_ACC16 = 1 << 12, IR_MMA_A_SIGNED = 1 << 13, IR_MMA_B_SIGNED = 1 << 14, IR_MMA_SAT = 1 << 15,
   IR_MMA_M8 = 1 << 28, IR_MMA_AND = 1 << 29, IR_MMA_COLS2 = 1 << 30,
};
#define IR_MMA_SPARSE (1ull << 31)
#define IR_MMA_SEL_SHIFT 32
/* m8n8k4 .f16 (M8 with F16): A column-major, B row-major (else row, col),
 * D .f16 (else .f32; C's is ACC16). */
#define IR_MMA_A_COL (1ull << 34)
#define IR_MMA_B_ROW (1ull << 35)
#define IR_MMA_D16 (1ull << 36)

typedef enum ir_prmt {
   IR_PRMT_DEFAULT, IR_PRMT_F4E, IR_PRMT_B4E, IR_PRMT_RC8, IR_PRMT_ECL, IR_PRMT_ECR, IR_PRMT_RC16,
} ir_prmt;

enum { IR_SHF_LEFT = 1, IR_SHF_CLAMP = 2 };
enum { IR_DP_A_SIGNED = 1, IR_DP_B_SIGNED = 2, IR_DP_HI = 4 };

/* Video instructions (build_video.c; prelude video.metal).  sub: the
 * operation (vset: IR_VOP_SET + ir_cmp, EQ..GE) | IR_VOP_ACC (SIMD .add) |
 * IR_VOP_QUAD (SIMD, 4 byte lanes; else 2 half-word lanes) or IR_VOP_SCALAR
 * (vadd ... vset).  imm, the control word: for SIMD forms, lane i of a is
 * element (imm >> 3i) & 7 of the pool {b, a} (a's elements first), lane i
 * of b element (imm >> (12 + 3i)) & 7, bits 24-27 the lane mask; for scalar
 * ones, bits 0-2 / 3-5 / 6-8 a's / b's / d's selector (IR_VSEL_*: 0 the
 * word, 1-4 byte 0-3, 5-6 half-word 0-1; d's: the merge into c) and bits
 * 9-10 the secondary operation (IR_VSEC_*), IR_VSCALAR_CLAMP vshl/vshr's
 * .clamp (else .wrap); for both, IR_VIDEO_A/B/D_SIGNED (scalar vset:
 * D is atype's sign, which its .min/.max compare with) and IR_VIDEO_SAT. */
typedef enum ir_vop {
   IR_VOP_ADD_LANES, IR_VOP_SUB_LANES, IR_VOP_AVRG, IR_VOP_ABSDIFF, IR_VOP_MIN, IR_VOP_MAX, IR_VOP_SET,
   IR_VOP_SHL = IR_VOP_SET + 6, IR_VOP_SHR,   /* scalar only */
} ir_vop;
enum { IR_VOP_ACC = 0x10, IR_VOP_QUAD = 0x20, IR_VOP_SCALAR = 0x40 };
enum { IR_VSEL_WORD, IR_VSEL_B0, IR_VSEL_H0 = 5 };
enum { IR_VSEC_NONE, IR_VSEC_ADD, IR_VSEC_MIN, IR_VSEC_MAX };
#define IR_VSIMD_BSEL_SHIFT 12u
#define IR_VSIMD_MASK_SHIFT 24u
#define IR_VSCALAR_BSEL_SHIFT 3u
#define IR_VSCALAR_DSEL_SHIFT 6u
#define IR_VSCALAR_SEC_SHIFT 9u
#define IR_VSCALAR_CLAMP (1u << 11)
#define IR_VIDEO_A_SIGNED (1u << 28)
#define IR_VIDEO_B_SIGNED (1u << 29)
#define IR_VIDEO_D_SIGNED (1u << 30)
#define IR_VIDEO_SAT (1u << 31)

typedef enum ir_cmp {
   IR_CMP_EQ, IR_CMP_NE, IR_CMP_LT, IR_CMP_LE, IR_CMP_GT, IR_CMP_GE,
   /* float unordered forms: true if either operand is NaN */
   IR_CMP_EQU, IR_CMP_NEU, IR_CMP_LTU, IR_CMP_LEU, IR_CMP_GTU, IR_CMP_GEU,
   IR_CMP_NUM, IR_CMP_NAN,
} ir_cmp;

typedef enum ir_rnd {
   IR_RND_NONE, IR_RND_RN, IR_RND_RZ, IR_RND_RM, IR_RND_RP,
   IR_RND_RNI, IR_RND_RZI, IR_RND_RMI, IR_RND_RPI,
} ir_rnd;

enum {   /* ir_instr.flags */
   IR_F_FTZ = 1 << 0,
   IR_F_SAT = 1 << 1,
   IR_F_APPROX = 1 << 2,
   IR_F_FULL = 1 << 3,
   IR_F_GUARD_NEG = 1 << 4,   /* guard is negated: run when the guard is false */
   IR_F_VOLATILE = 1 << 5,
   IR_F_NC = 1 << 6,          /* ld.global.nc / ldu: read-only for the kernel's life */
   IR_F_LOCKSTEP = 1 << 7,    /* the warp's active lanes meet before it (mark_lockstep.c) */
   IR_F_LOCKED = 1 << 8,      /* a 128-bit strong LOAD/STORE: done under the location's lock of the
                               * atomics' table, so atomic with respect to every other such access */
   IR_F_RELU = 1 << 9,        /* cvt .relu (fp8 forms): a negative result is +0 */
   IR_F_SPIN = 1 << 10,       /* an atomic whose result decides whether its loop ends: the loop's
                               * lanes meet at its latch (mark_lockstep.c), not before the atomic */
};
/* Instructions that make the warp meet: before them, or at their loop's latch. */
#define IR_F_MEETS (IR_F_LOCKSTEP | IR_F_SPIN)

typedef enum ir_sreg {
   IR_SREG_TID_X, IR_SREG_TID_Y, IR_SREG_TID_Z,
   IR_SREG_NTID_X, IR_SREG_NTID_Y, IR_SREG_NTID_Z,
   IR_SREG_CTAID_X, IR_SREG_CTAID_Y, IR_SREG_CTAID_Z,
   IR_SREG_NCTAID_X, IR_SREG_NCTAID_Y, IR_SREG_NCTAID_Z,
   IR_SREG_LANEID, IR_SREG_WARPID, IR_SREG_NWARPID,
   IR_SREG_WARPSZ,
   /* time and placement (emit_call.c): 64-bit defs for CLOCK64, GLOBALTIMER, GRIDID */
   IR_SREG_CLOCK, IR_SREG_CLOCK64, IR_SREG_GLOBALTIMER, IR_SREG_SMID, IR_SREG_NSMID, IR_SREG_GRIDID,
   IR_SREG_ENVREG1, IR_SREG_ENVREG2,   /* the cooperative grid workspace, high and low half */
   IR_SREG_COUNT
} ir_sreg;
extern const char *const ir_sreg_names[IR_SREG_COUNT];

/* Address spaces of the IR (PTX's, minus .reg/.sreg). */
typedef enum ir_space {
   IR_SPACE_GENERIC, IR_SPACE_GLOBAL, IR_SPACE_SHARED, IR_SPACE_LOCAL,
   IR_SPACE_CONST, IR_SPACE_PARAM,
} ir_space;
extern const char *const ir_space_names[];

/* ---------------------------------------------------------------------------
 * Values and operands.
 * ------------------------------------------------------------------------- */
struct ir_def {
   ir_instr *parent;
   uint32_t index;        /* unique in the function */
   uint8_t bits;          /* 1, 8, 16, 32, 64 */
   uint8_t ncomp;         /* 1..4 */
   ir_src *uses;          /* head of the use list */
};

struct ir_src {
   ir_def *def;
   ir_instr *parent;
   ir_src *next_use, *prev_use;
   ir_block *pred;        /* PHI sources: the predecessor this value comes from */
};

/* ---------------------------------------------------------------------------
 * Instructions.
 * ------------------------------------------------------------------------- */
struct ir_instr {
   ir_op op;
   ir_block *block;
   ir_instr *prev, *next;
   uint32_t index;
   uint8_t pass_flags;    /* scratch for the running pass */
   uint8_t sub;           /* ir_mulmode, ir_cmp, ir_sreg... per op */
   uint8_t rnd;           /* ir_rnd */
   uint8_t space;         /* ir_space for memory ops, SYMADDR, CVTA */
   uint16_t flags;        /* IR_F_* */
   ptx_type type;         /* operation type */
   ptx_type type2;        /* CVT source type, SET destination type */
   uint32_t line;         /* PTX source line, for messages */
   uint64_t imm;          /* CONST bits, PARAM offset, EXTRACT component, SYMADDR offset */
   const char *sym;       /* SYMADDR variable name; CALL: the callee (NULL: an indirect call) */
   const char **targets;  /* indirect CALL: the functions the pointer (its last source) may
                           * name, imm of them (build_call.c) */
   ir_def def;            /* def.bits == 0 when the instruction produces nothing */
   uint32_t nsrcs;
   ir_src *srcs;
   /* Guarded execution (@p): run only when guard (xor IR_F_GUARD_NEG) holds.
    * For an instruction that defines a value, `old` is the value the
    * destination register held before, which the def takes when the guard
    * fails.  ir_lower_predicates removes both. */
   ir_src guard;          /* guard.def == NULL: unguarded */
   ir_src old;
};

/* The functions a CALL may call: its callee, or an indirect call's targets. */
static inline uint32_t ir_call_ntargets(const ir_instr *i) { return i->sym ? 1u : (uint32_t)i->imm; }
static inline const char *ir_call_target(const ir_instr *i, uint32_t k) { return i->sym ? i->sym : i->targets[k]; }

/* ---------------------------------------------------------------------------
 * Blocks, functions, modules.
 * ------------------------------------------------------------------------- */
typedef VEC(ir_block *) ir_block_vec;

struct ir_block {
   ir_func *func;
   uint32_t index;            /* position in f->blocks */
   const char *label;         /* PTX label, NULL for made-up blocks */
   ir_instr *first, *last;
   ir_block_vec succs;        /* from the terminator */
   ir_block_vec preds;        /* valid with IR_META_CFG */
   /* IR_META_DOM */
   uint32_t rpo;              /* reverse postorder number; UINT32_MAX if unreachable */
   ir_block *idom;
   ir_block_vec dom_children;
   bool is_loop_header;       /* target of a back edge */
   uint32_t meet_order;       /* mark_lockstep.c: warp meets here go in this order */
   uint32_t loop_meet_end;    /* mark_lockstep.c, loop header: the loop's highest meet_order */
   uint8_t pass_flags;
   void *pass_data;
};

enum {   /* ir_func.valid: metadata that is up to date */
   IR_META_CFG = 1 << 0,      /* preds match succs */
   IR_META_DOM = 1 << 1,      /* rpo, idom, dom_children, is_loop_header */
   IR_META_STRUCTURED = 1 << 2,  /* f->cf describes the control flow */
   IR_META_ALL = IR_META_CFG | IR_META_DOM | IR_META_STRUCTURED,
};

/* A kernel or .func parameter / return slot. */
typedef struct ir_param {
   const char *name;
   ptx_type type;
   uint32_t offset, size, align;   /* byte layout in the param blob */
   uint8_t reg_bits;          /* .func argument: a .reg value of these bits; 0: a .param
                               * block, passed as its address in local memory */
} ir_param;

/* A .shared / .local / .global / .const variable the function uses. */
typedef struct ir_var {
   const char *name;
   ir_space space;
   uint64_t offset;           /* in its space's block: shared window, local frame, module data */
   uint64_t size;
   uint32_t align;
   bool is_extern_shared;     /* dynamic shared memory */
} ir_var;

struct ir_func {
   ir_module *module;
   const char *name;
   bool is_kernel;
   VEC(ir_block *) blocks;    /* blocks[0] is the entry */
   uint32_t ndefs;            /* next def index */
   uint32_t ninstrs;
   uint32_t valid;            /* IR_META_* */
   VEC(ir_param) params;
   VEC(ir_param) rets;
   uint32_t param_bytes;
   /* Shared memory: static variables laid out from 0, then dynamic. */
   uint32_t shared_static_bytes;
   uint32_t shared_dynamic_align;
   bool uses_dynamic_shared;
   uint32_t local_bytes;      /* per-thread .local frame */
   uint32_t reqntid[3], maxntid[3];
   bool uses_generic;         /* some access needed the generic-window check */
   ir_cf *cf;                 /* IR_META_STRUCTURED: the structured tree */
   /* .func: its arguments, returns first then parameters, in the order CALL
    * passes them and ARG numbers them (link_calls.c has the calling scheme). */
   VEC(ir_param) args;
   /* Calls (link_calls.c). */
   ir_func *kernel;           /* the kernel whose library this function goes into */
   uint32_t frame_base;       /* where its .local frame starts in the thread's local memory */
   uint32_t local_total;      /* kernel: local memory of the kernel and every callee */
   bool may_stop;             /* .func: may end the thread (exit, trap, assert) */
   bool uses_printf;          /* vprintf or __assertfail, here or in a callee */
   bool uses_malloc;          /* kernel: malloc or free, here or in a callee */
   bool uses_clock;           /* %clock/%clock64/%globaltimer, here or in a callee */
   bool uses_nbar;            /* kernel: named barriers (their counters), here or in a callee */
   bool uses_bar_red;         /* kernel: bar.red (its per-SIMD-group counts), here or in a callee */
   bool uses_param_window;    /* kernel: generic addresses of its parameters (cvta.param), so its
                               * callees read the parameter block too (msl/emit_call.c) */
   bool coherent;             /* kernel: it or a callee fences at .gpu/.sys scope (msl/emit_mem.c) */
   bool shared_in_device;     /* kernel: its shared memory is a slice of device memory (compiler.h
                               * compiler_options.shared_in_device) */
   /* Recursion (link_calls.c, msl/emit_rec.c). */
   uint32_t scc;              /* .func: 1 + its recursive call graph component; 0: not recursive */
   bool needs_top;            /* .func, not recursive: it reaches a recursive one, so it takes the
                               * first free byte of the recursion stack (mc_top) */
   uint32_t rec_frame;        /* recursive .func: bytes of one activation's frame (emit_rec.c) */
   uint32_t stack_base;       /* kernel: where the recursion stack starts in local memory */
   uint32_t stack_bytes;      /* kernel: the recursion stack's size (cudaLimitStackSize); 0: none */
};

/* A module-scope .global or .const variable, laid out in one data block
 * that the runtime allocates in the device arena. */
typedef struct ir_reloc {
   uint64_t offset;           /* where in the data block a pointer goes */
   const char *sym;
   int64_t addend;
   uint8_t size;              /* 4 or 8 */
} ir_reloc;

typedef struct ir_global {
   const char *name;
   ir_space space;            /* GLOBAL or CONST */
   uint64_t offset, size;
   uint32_t align;
   bool is_extern;            /* declared .extern: not defined here */
   const uint8_t *init;       /* size bytes, or NULL (zero) */
   VEC(ir_reloc) relocs;
} ir_global;

enum { IR_STAGE_NO_GUARDS = 1 << 0 };   /* ir_lower_predicates ran */

struct ir_module {
   arena *ar;
   const ptx_module *ptx;
   VEC(ir_func *) funcs;
   VEC(ir_global) globals;
   strmap global_map;         /* name → ir_global* (index+1 as pointer) */
   uint64_t data_bytes;       /* size of the module data block */
   uint32_t data_align;
   uint32_t stage;            /* IR_STAGE_*: what the pipeline has done */
   /* The library being built (a kernel and its callees, link_calls.c):
    * static shared memory is laid out across all of them; module-scope
    * .shared variable name → offset + 1 (as a pointer). */
   strmap lib_shared;
   uint32_t lib_shared_bytes;
   uint32_t lib_emitted;      /* functions emitted so far (msl/emit.c ranks warp meets by it) */
   /* First error (translation stops at it). */
   const char *error;
   uint32_t error_line;
   /* Coverage probing (tests/tools/ptx_coverage): when set, ir_build_func
    * reports every instruction with the error it raised (NULL if none),
    * clears the error and goes on; the function it returns is not fit to
    * run the pipeline on. */
   void (*probe)(void *data, const ptx_instr *in, const char *error);
   void *probe_data;
};

/* ---------------------------------------------------------------------------
 * Structured control flow (the structurizer's output, walked by the emitter).
 * ------------------------------------------------------------------------- */
typedef enum ir_cf_kind {
   IR_CF_SEQ,        /* children in order */
   IR_CF_CODE,       /* the instructions of one block (terminator excluded) */
   IR_CF_LOOP,       /* loop { body }: falling off the end leaves the loop */
   IR_CF_BLOCK,      /* block { body }: a break target at its end */
   IR_CF_IF,         /* if (cond) then else */
   IR_CF_EDGE,       /* the phi copies of the CFG edge from → to */
   IR_CF_BREAK,      /* leave the BLOCK `target` (may cross constructs) */
   IR_CF_CONTINUE,   /* back to the start of the LOOP `target` */
   IR_CF_RETURN,     /* RET / EXIT of block `from` */
   IR_CF_TRAP,
} ir_cf_kind;

struct ir_cf {
   ir_cf_kind kind;
   ir_cf *first, *last, *next;   /* children (SEQ, LOOP/BLOCK body) and siblings */
   ir_cf *then_cf, *else_cf;     /* IF */
   ir_src cond;                  /* IF condition (1-bit) */
   ir_block *block;              /* CODE, and the block a RETURN/TRAP ends */
   ir_block *from, *to;          /* EDGE */
   ir_cf *target;                /* BREAK / CONTINUE: the construct */
   uint32_t id;                  /* unique per function (jump ids) */
};

/* ---------------------------------------------------------------------------
 * Iteration (passes walk the IR only through these).
 * ------------------------------------------------------------------------- */
#define ir_foreach_func(f, m)                                                 \
   for (uint32_t f##_i_ = 0; f##_i_ < (m)->funcs.len; f##_i_++)              \
      for (ir_func *f = (m)->funcs.data[f##_i_]; f; f = NULL)
#define ir_foreach_block(b, f)                                                \
   for (uint32_t b##_i_ = 0; b##_i_ < (f)->blocks.len; b##_i_++)             \
      for (ir_block *b = (f)->blocks.data[b##_i_]; b; b = NULL)
#define ir_foreach_instr(i, b) for (ir_instr *i = (b)->first; i; i = i->next)
#define ir_foreach_instr_safe(i, b)                                          \
   for (ir_instr *i = (b)->first, *i##_next_ = i ? i->next : NULL; i;        \
        i = i##_next_, i##_next_ = i ? i->next : NULL)
#define ir_foreach_instr_reverse(i, b) for (ir_instr *i = (b)->last; i; i = i->prev)
#define ir_foreach_use(u, d) for (ir_src *u = (d)->uses; u; u = u->next_use)
#define ir_foreach_use_safe(u, d)                                            \
   for (ir_src *u = (d)->uses, *u##_next_ = u ? u->next_use : NULL; u;       \
        u = u##_next_, u##_next_ = u ? u->next_use : NULL)
#define ir_foreach_succ(s, b) vec_foreach(ir_block *, s, &(b)->succs)
#define ir_foreach_pred(p, b) vec_foreach(ir_block *, p, &(b)->preds)

static inline ir_instr *ir_block_terminator(ir_block *b)
{
   return b->last && ir_op_is(b->last->op, IR_OP_TERMINATOR) ? b->last : NULL;
}
static inline bool ir_instr_has_def(const ir_instr *i) { return i->def.bits != 0; }
static inline ir_def *ir_src_def(ir_src *s) { return s->def; }

/* ---- ir.c: construction and editing ---- */

ir_module *ir_module_create(arena *ar, const ptx_module *ptx);
ir_func *ir_func_create(ir_module *m, const char *name, bool is_kernel);
ir_block *ir_block_create(ir_func *f, const char *label);
/* A detached instruction with nsrcs empty sources; insert it with one of
 * the ir_instr_insert_* helpers.  bits == 0: no def. */
ir_instr *ir_instr_create(ir_func *f, ir_op op, uint32_t nsrcs, uint8_t bits, uint8_t ncomp);
void ir_instr_append(ir_block *b, ir_instr *i);
void ir_instr_insert_before(ir_instr *at, ir_instr *i);
void ir_instr_insert_after(ir_instr *at, ir_instr *i);
void ir_instr_remove(ir_instr *i);           /* unlinks and drops its uses */
void ir_instr_unlink(ir_instr *i);           /* unlinks, keeps its sources (to move it) */
void ir_src_set(ir_src *s, ir_instr *parent, ir_def *def);
void ir_src_clear(ir_src *s);
void ir_def_rewrite_uses(ir_def *old, ir_def *new_def);
bool ir_def_has_uses(const ir_def *d);
/* Edge bookkeeping; keeps preds in sync (IR_META_CFG). */
void ir_block_add_succ(ir_block *from, ir_block *to);
void ir_block_clear_succs(ir_block *b);
void ir_func_compute_preds(ir_func *f);
/* Moves instructions after `at` into a new block; the new block takes the
 * successors.  Phi sources in the old successors are redirected. */
ir_block *ir_block_split_after(ir_instr *at);
/* Removes blocks unreachable from the entry and renumbers. */
void ir_func_remove_unreachable(ir_func *f);
void ir_func_renumber(ir_func *f);

/* Marks metadata after a pass: pass returns progress; preserved is what it
 * kept.  A pass that made no progress keeps everything. */
static inline bool ir_progress(bool progress, ir_func *f, uint32_t preserved)
{
   if (progress)
      f->valid &= preserved;
   return progress;
}

/* A broken invariant: dumps the function and aborts. */
MC_NORETURN void ir_die(ir_func *f, const char *fmt, ...) MC_PRINTF(2, 3);
/* Bad or unsupported input: records the first error (PTX line) in the module.
 * Always returns false so callers can `return ir_error(...)`. */
bool ir_error(ir_module *m, uint32_t line, const char *fmt, ...) MC_PRINTF(3, 4);

/* ---- build.c: PTX AST → IR ---- */

/* Lays out module-scope .global/.const variables (m->globals). */
bool ir_build_globals(ir_module *m);
/* Builds one function (and, recursively, nothing else: callees are built
 * on demand by the pipeline).  Returns NULL on error (m->error set). */
ir_func *ir_build_func(ir_module *m, const ptx_func *pf);

/* ---- cfg.c: RPO, dominators (Cooper-Harvey-Kennedy), loop headers ---- */

void ir_compute_dominance(ir_func *f);
bool ir_dominates(const ir_block *a, const ir_block *b);
/* Sets *irreducible_at to a block entered by a retreating edge whose
 * target does not dominate the source; NULL if the CFG is reducible. */
void ir_find_irreducible(ir_func *f, ir_block **irreducible_at);

/* ---- divergence.c: values that may differ between the threads of a block ---- */

/* An arena array indexed by def index: true where the value may differ
 * between the threads of a block; NULL when out of memory. */
bool *ir_find_divergence(ir_func *f);
/* The same question of the threads of one SIMD-group, where each group
 * lies in one row of x (blockDim.x % 32 == 0 or a 1-D block). */
bool *ir_find_warp_divergence(ir_func *f);
/* Whether every thread executes each block of want (by index) the same
 * number of times, none leaving early (no divergent branch controls it). */
bool ir_blocks_reached_uniformly(ir_func *f, const bool *div, const bool *want);

/* ---- the passes (one file each) ---- */

bool ir_lower_predicates(ir_module *m);
bool ir_infer_spaces(ir_module *m);
bool ir_opt_copy_prop(ir_module *m);
bool ir_opt_dce(ir_module *m);
bool ir_opt_split_iv(ir_module *m);
bool ir_split_irreducible(ir_module *m);
bool ir_lower_exit(ir_module *m);
bool ir_structurize(ir_module *m);
bool ir_mark_lockstep(ir_module *m);
/* link_calls.c: builds every .func the kernel reaches, refuses recursion,
 * lays out local frames and shared memory for the whole library, and turns
 * "the callee ended the thread" into control flow.  Runs before the
 * pipeline. */
bool ir_link_calls(ir_module *m, ir_func *kernel);
/* The recursion stack holds this many times cudaLimitStackSize: frames
 * here are 2.5 to 7 times NVIDIA's (link_calls.c). */
#define IR_STACK_SCALE 8u
/* The address of function `name` as programs see it: a token, 16 times
 * its declaration's index past MC_FUNC_WINDOW (compiler.h), unique and
 * never a memory address; 0 if the module declares no such function
 * (build_call.c). */
uint64_t ir_func_token(const ptx_module *pm, const char *name);

/* ---- validate.c (debug builds; a no-op under NDEBUG) ---- */

void ir_validate(ir_module *m, const char *after_pass);

/* ---- print.c ---- */

void ir_print_func(strbuf *out, const ir_func *f);
void ir_print_module(strbuf *out, const ir_module *m);
void ir_print_cf(strbuf *out, const ir_func *f);

/* ---- pipeline.c ---- */

typedef struct ir_pipeline_options {
   bool optimize;             /* optional passes (copy-prop, DCE) */
} ir_pipeline_options;
/* Runs the passes in order on every function of m. */
bool ir_run_pipeline(ir_module *m, const ir_pipeline_options *opts);

#define IR_PASS(progress, m, pass, ...)                                       \
   do {                                                                      \
      if (pass((m), ##__VA_ARGS__))                                          \
         (progress) = true;                                                  \
      ir_validate((m), #pass);                                               \
   } while (0)

#endif
