/*
 * ptx.h — PTX text → tokens → AST.  The table of contents of the front end.
 *
 * The parser accepts the whole PTX grammar (ISA 9.0): module directives,
 * variables of every state space with initialisers, .entry and .func with
 * parameters and performance directives, nested { } scopes, labels,
 * guarded instructions with modifiers in any order (as ptxas accepts),
 * vector operands, addresses, immediates of every form and constant
 * expressions.  It knows the *spelling* of every opcode and modifier but not
 * which combinations are legal: that is the IR builder's job, which reports
 * unsupported forms with the PTX line.
 *
 * Errors: every error carries line and column.  The parser recovers at the
 * next top-level directive, so one malformed function does not hide the
 * others (lazy translation only fails the kernels that need the broken one).
 *
 * Memory: the whole AST and every string live in the module's arena.
 */
#ifndef MC_PTX_H
#define MC_PTX_H

#include "../../util/util.h"

typedef struct ptx_loc {
   uint32_t line, col;      /* 1-based */
} ptx_loc;

/* ---------------------------------------------------------------------------
 * Types.  The order inside each family is by width; helpers below rely on it.
 * ------------------------------------------------------------------------- */
#define PTX_TYPES(X)                                                          \
   X(NONE, "", 0)                                                            \
   X(PRED, "pred", 1)                                                        \
   X(B8, "b8", 8) X(B16, "b16", 16) X(B32, "b32", 32) X(B64, "b64", 64)      \
   X(B128, "b128", 128)                                                      \
   X(U8, "u8", 8) X(U16, "u16", 16) X(U32, "u32", 32) X(U64, "u64", 64)      \
   X(S8, "s8", 8) X(S16, "s16", 16) X(S32, "s32", 32) X(S64, "s64", 64)      \
   X(F16, "f16", 16) X(F16X2, "f16x2", 32) X(BF16, "bf16", 16)               \
   X(BF16X2, "bf16x2", 32) X(F32, "f32", 32) X(F64, "f64", 64)               \
   X(TF32, "tf32", 32)                                                       \
   X(E4M3, "e4m3", 8) X(E5M2, "e5m2", 8)                                     \
   X(E4M3X2, "e4m3x2", 16) X(E5M2X2, "e5m2x2", 16)                           \
   X(E2M3X2, "e2m3x2", 16) X(E3M2X2, "e3m2x2", 16) X(E2M1X2, "e2m1x2", 8)    \
   X(UE8M0X2, "ue8m0x2", 16)                                                 \
   X(S4, "s4", 4) X(U4, "u4", 4)                                             \
   /* opaque handle types */                                                 \
   X(TEXREF, "texref", 64) X(SAMPLERREF, "samplerref", 64)                   \
   X(SURFREF, "surfref", 64)

typedef enum ptx_type {
#define X(e, s, b) PTX_T_##e,
   PTX_TYPES(X)
#undef X
   PTX_T_COUNT
} ptx_type;

extern const char *const ptx_type_names[PTX_T_COUNT];   /* "f32", ... */
extern const uint8_t ptx_type_bits[PTX_T_COUNT];

static inline bool ptx_type_is_signed(ptx_type t) { return t >= PTX_T_S8 && t <= PTX_T_S64; }
static inline bool ptx_type_is_unsigned(ptx_type t) { return t >= PTX_T_U8 && t <= PTX_T_U64; }
static inline bool ptx_type_is_bits(ptx_type t) { return t >= PTX_T_B8 && t <= PTX_T_B128; }
static inline bool ptx_type_is_int(ptx_type t) { return t >= PTX_T_U8 && t <= PTX_T_S64; }
static inline bool ptx_type_is_float(ptx_type t) { return t >= PTX_T_F16 && t <= PTX_T_TF32; }

/* ---------------------------------------------------------------------------
 * State spaces.
 * ------------------------------------------------------------------------- */
typedef enum ptx_space {
   PTX_SPACE_NONE,      /* generic */
   PTX_SPACE_REG,
   PTX_SPACE_SREG,
   PTX_SPACE_CONST,
   PTX_SPACE_GLOBAL,
   PTX_SPACE_LOCAL,
   PTX_SPACE_PARAM,
   PTX_SPACE_SHARED,    /* .shared and .shared::cta */
   PTX_SPACE_SHARED_CLUSTER,
   PTX_SPACE_TEX,
} ptx_space;

/* ---------------------------------------------------------------------------
 * Opcodes: every PTX opcode spelling of ISA 9.0.  The parser recognises an
 * opcode as the longest table entry that matches the dotted words before
 * the first modifier that is not part of the name (e.g. "cp.async" is one
 * opcode; "cvt.pack" too; "ld" followed by ".global" is ld + modifier).
 * ------------------------------------------------------------------------- */
#define PTX_OPCODES(X)                                                        \
   X(ABS, "abs") X(ACTIVEMASK, "activemask") X(ADD, "add") X(ADDC, "addc")   \
   X(ALLOCA, "alloca") X(AND, "and") X(APPLYPRIORITY, "applypriority")       \
   X(ATOM, "atom") X(BAR, "bar") X(BARRIER, "barrier") X(BFE, "bfe")         \
   X(BFI, "bfi") X(BFIND, "bfind") X(BMSK, "bmsk") X(BRA, "bra")             \
   X(BREV, "brev") X(BRKPT, "brkpt") X(BRX, "brx") X(CALL, "call")           \
   X(CLZ, "clz") X(CNOT, "cnot") X(COPYSIGN, "copysign") X(COS, "cos")       \
   X(CP_ASYNC, "cp.async") X(CP_ASYNC_BULK, "cp.async.bulk")                 \
   X(CP_REDUCE_ASYNC_BULK, "cp.reduce.async.bulk")                           \
   X(CREATEPOLICY, "createpolicy") X(CVT, "cvt") X(CVT_PACK, "cvt.pack")     \
   X(CVTA, "cvta") X(DISCARD, "discard") X(DIV, "div") X(DP2A, "dp2a")       \
   X(DP4A, "dp4a") X(ELECT, "elect") X(EX2, "ex2") X(EXIT, "exit")           \
   X(FENCE, "fence") X(FMA, "fma") X(FNS, "fns")                             \
   X(GETCTARANK, "getctarank") X(GRIDDEPCONTROL, "griddepcontrol")           \
   X(ISSPACEP, "isspacep") X(ISTYPEP, "istypep") X(LD, "ld") X(LDU, "ldu")   \
   X(LDMATRIX, "ldmatrix") X(LG2, "lg2") X(LOP3, "lop3") X(MAD, "mad")       \
   X(MAD24, "mad24") X(MADC, "madc") X(MATCH, "match") X(MAX, "max")         \
   X(MBARRIER, "mbarrier") X(MEMBAR, "membar") X(MIN, "min") X(MMA, "mma")   \
   X(MOV, "mov") X(MOVMATRIX, "movmatrix") X(MUL, "mul") X(MUL24, "mul24")   \
   X(MULTIMEM, "multimem") X(NANOSLEEP, "nanosleep") X(NEG, "neg")           \
   X(NOT, "not") X(OR, "or") X(PMEVENT, "pmevent") X(POPC, "popc")           \
   X(PREFETCH, "prefetch") X(PREFETCHU, "prefetchu") X(PRMT, "prmt")         \
   X(RCP, "rcp") X(RED, "red") X(REDUX, "redux") X(REM, "rem") X(RET, "ret") \
   X(RSQRT, "rsqrt") X(SAD, "sad") X(SELP, "selp") X(SET, "set")             \
   X(SETMAXNREG, "setmaxnreg") X(SETP, "setp") X(SHF, "shf") X(SHFL, "shfl") \
   X(SHL, "shl") X(SHR, "shr") X(SIN, "sin") X(SLCT, "slct")                 \
   X(SQRT, "sqrt") X(ST, "st") X(STACKRESTORE, "stackrestore")               \
   X(STACKSAVE, "stacksave") X(STMATRIX, "stmatrix") X(SUB, "sub")           \
   X(SUBC, "subc") X(SULD, "suld") X(SUQ, "suq") X(SURED, "sured")           \
   X(SUST, "sust") X(TANH, "tanh") X(TESTP, "testp") X(TEX, "tex")           \
   X(TLD4, "tld4") X(TRAP, "trap") X(TXQ, "txq") X(VABSDIFF, "vabsdiff")     \
   X(VABSDIFF2, "vabsdiff2") X(VABSDIFF4, "vabsdiff4") X(VADD, "vadd")       \
   X(VADD2, "vadd2") X(VADD4, "vadd4") X(VAVRG2, "vavrg2")                   \
   X(VAVRG4, "vavrg4") X(VMAD, "vmad") X(VMAX, "vmax") X(VMAX2, "vmax2")     \
   X(VMAX4, "vmax4") X(VMIN, "vmin") X(VMIN2, "vmin2") X(VMIN4, "vmin4")     \
   X(VOTE, "vote") X(VSET, "vset") X(VSET2, "vset2") X(VSET4, "vset4")       \
   X(VSHL, "vshl") X(VSHR, "vshr") X(VSUB, "vsub") X(VSUB2, "vsub2")         \
   X(VSUB4, "vsub4") X(WGMMA, "wgmma") X(WMMA, "wmma") X(XOR, "xor")         \
   X(TCGEN05, "tcgen05") X(CLUSTERLAUNCHCONTROL, "clusterlaunchcontrol")     \
   X(TENSORMAP, "tensormap") X(ST_ASYNC, "st.async")                         \
   X(RED_ASYNC, "red.async") X(ST_BULK, "st.bulk")

typedef enum ptx_opcode {
   PTX_OP_INVALID,
#define X(e, s) PTX_OP_##e,
   PTX_OPCODES(X)
#undef X
   PTX_OP_COUNT
} ptx_opcode;

extern const char *const ptx_opcode_names[PTX_OP_COUNT];

/* ---------------------------------------------------------------------------
 * Modifiers.  Every ".word" after the opcode that is not a type, a vector
 * width or a state space is one of these.  Multi-part spellings such as
 * ".L2::cache_hint", ".shared::cta", ".L1::evict_last" are single entries
 * (the lexer keeps "::" parts together).  An unknown modifier is a parse
 * error naming it.
 * ------------------------------------------------------------------------- */
#define PTX_MODS(X)                                                           \
   /* rounding: float and integer */                                         \
   X(RN, "rn") X(RZ, "rz") X(RM, "rm") X(RP, "rp") X(RNA, "rna")             \
   X(RS, "rs")                                                               \
   X(RNI, "rni") X(RZI, "rzi") X(RMI, "rmi") X(RPI, "rpi")                   \
   /* float behaviour */                                                     \
   X(FTZ, "ftz") X(SAT, "sat") X(SATFINITE, "satfinite") X(RELU, "relu")     \
   X(APPROX, "approx") X(FULL, "full") X(NAN, "NaN") X(XORSIGN, "xorsign")   \
   X(ABS, "abs") X(OOB, "oob")                                               \
   /* integer behaviour */                                                   \
   X(LO, "lo") X(HI, "hi") X(WIDE, "wide") X(CC, "cc") X(SHIFTAMT, "shiftamt") \
   X(WRAP, "wrap") X(CLAMP, "clamp") X(L, "l") X(R, "r")                     \
   /* comparisons (setp, set, slct, vset) */                                 \
   X(EQ, "eq") X(NE, "ne") X(LT, "lt") X(LE, "le") X(GT, "gt") X(GE, "ge")   \
   X(LS, "ls") X(HS, "hs") X(EQU, "equ") X(NEU, "neu") X(LTU, "ltu")         \
   X(LEU, "leu") X(GTU, "gtu") X(GEU, "geu") X(NUM, "num") X(NAN_CMP, "nan") \
   /* boolean combination (setp, set, bar.red, vote) */                      \
   X(AND, "and") X(OR, "or") X(XOR, "xor") X(POPC, "popc")                   \
   /* atomic / reduction operations */                                       \
   X(ADD, "add") X(INC, "inc") X(DEC, "dec") X(MIN, "min") X(MAX, "max")     \
   X(EXCH, "exch") X(CAS, "cas")                                             \
   /* memory ordering and scope */                                           \
   X(WEAK, "weak") X(VOLATILE, "volatile") X(RELAXED, "relaxed")             \
   X(ACQUIRE, "acquire") X(RELEASE, "release") X(ACQ_REL, "acq_rel")         \
   X(SC, "sc") X(MMIO, "mmio") X(CTA, "cta") X(GPU, "gpu") X(SYS, "sys")     \
   X(CLUSTER, "cluster") X(PROXY, "proxy") X(ASYNC, "async")                 \
   /* cache operators and hints */                                           \
   X(CA, "ca") X(CG, "cg") X(CS, "cs") X(LU, "lu") X(CV, "cv") X(WB, "wb")   \
   X(WT, "wt") X(NC, "nc")                                                   \
   X(L1_EVICT_NORMAL, "L1::evict_normal") X(L1_EVICT_UNCHANGED, "L1::evict_unchanged") \
   X(L1_EVICT_FIRST, "L1::evict_first") X(L1_EVICT_LAST, "L1::evict_last")   \
   X(L1_NO_ALLOCATE, "L1::no_allocate")                                      \
   X(L2_EVICT_NORMAL, "L2::evict_normal") X(L2_EVICT_FIRST, "L2::evict_first") \
   X(L2_EVICT_LAST, "L2::evict_last") X(L2_CACHE_HINT, "L2::cache_hint")     \
   X(L2_64B, "L2::64B") X(L2_128B, "L2::128B") X(L2_256B, "L2::256B")        \
   X(L1, "L1") X(L2, "L2")                                                   \
   X(FRACTION, "fraction") X(FRACTIONAL, "fractional")                       \
   /* control flow and synchronisation */                                    \
   X(UNI, "uni") X(SYNC, "sync") X(ARRIVE, "arrive") X(RED_MOD, "red")       \
   X(ALIGNED, "aligned") X(WARP, "warp") X(ALL, "all") X(ANY, "any")         \
   X(BALLOT, "ballot") X(NORETURN, "noreturn")                               \
   /* shfl modes */                                                          \
   X(UP, "up") X(DOWN, "down") X(BFLY, "bfly") X(IDX, "idx")                 \
   /* prmt modes */                                                          \
   X(F4E, "f4e") X(B4E, "b4e") X(RC8, "rc8") X(ECL, "ecl") X(ECR, "ecr")     \
   X(RC16, "rc16")                                                           \
   /* cvta / isspacep / cvt targets */                                       \
   X(TO, "to") X(PACK, "pack")                                               \
   /* testp */                                                               \
   X(FINITE, "finite") X(INFINITE, "infinite") X(NUMBER, "number")           \
   X(NOTANUMBER, "notanumber") X(NORMAL, "normal") X(SUBNORMAL, "subnormal") \
   /* texture / surface geometry and modes */                                \
   X(G1D, "1d") X(G2D, "2d") X(G3D, "3d") X(A1D, "a1d") X(A2D, "a2d")        \
   X(CUBE, "cube") X(ACUBE, "acube") X(G2DMS, "2dms") X(A2DMS, "a2dms")      \
   X(LEVEL, "level") X(GRAD, "grad") X(BASE, "base") X(TRAP_MODE, "trap")    \
   X(ZERO, "zero") X(P, "p") X(B, "b")                                       \
   X(WIDTH, "width") X(HEIGHT, "height") X(DEPTH, "depth")                   \
   X(CHANNEL_DATA_TYPE, "channel_data_type") X(CHANNEL_ORDER, "channel_order") \
   X(NORMALIZED_COORDS, "normalized_coords") X(FILTER_MODE, "filter_mode")   \
   X(ADDR_MODE_0, "addr_mode_0") X(ADDR_MODE_1, "addr_mode_1")               \
   X(ADDR_MODE_2, "addr_mode_2") X(ARRAY_SIZE, "array_size")                 \
   X(NUM_MIPMAP_LEVELS, "num_mipmap_levels") X(NUM_SAMPLES, "num_samples")   \
   X(FORCE_UNNORMALIZED_COORDS, "force_unnormalized_coords")                 \
   X(G, "g")                                                                 \
   /* mma / wmma / ldmatrix shapes and layouts */                            \
   X(ROW, "row") X(COL, "col") X(TRANS, "trans")                             \
   X(M8N8, "m8n8") X(M16N8K8, "m16n8k8") X(M16N8K16, "m16n8k16")             \
   X(M16N8K32, "m16n8k32") X(M16N16K16, "m16n16k16") X(M32N8K16, "m32n8k16") \
   X(M8N32K16, "m8n32k16") X(M16N8K4, "m16n8k4") X(M8N8K4, "m8n8k4")         \
   X(X1, "x1") X(X2, "x2") X(X4, "x4") X(A_FRAG, "a")                         \
   X(C_FRAG, "c") X(D_FRAG, "d") X(LOAD, "load") X(STORE, "store")           \
   /* mbarrier and async copies */                                           \
   X(INIT, "init") X(INVAL, "inval") X(EXPECT_TX, "expect_tx")               \
   X(COMPLETE_TX, "complete_tx") X(TEST_WAIT, "test_wait")                   \
   X(TRY_WAIT, "try_wait") X(PENDING_COUNT, "pending_count")                 \
   X(NOCOMPLETE, "noComplete") X(PARITY, "parity") X(EXPECT, "expect")       \
   X(COMMIT_GROUP, "commit_group") X(WAIT_GROUP, "wait_group")               \
   X(WAIT_ALL, "wait_all") X(MBARRIER_MOD, "mbarrier")                       \
   X(COMPLETE_TX_BYTES, "mbarrier::complete_tx::bytes")                      \
   X(BULK_GROUP, "bulk_group") X(IGNORE_SRC, "ignore-src")                   \
   /* griddepcontrol, elect, misc */                                         \
   X(LAUNCH_DEPENDENTS, "launch_dependents") X(WAIT, "wait")                 \
   X(L2_EVICT_UNCHANGED, "L2::evict_unchanged")

typedef enum ptx_mod {
   PTX_MOD_INVALID,
#define X(e, s) PTX_MOD_##e,
   PTX_MODS(X)
#undef X
   PTX_MOD_COUNT
} ptx_mod;

extern const char *const ptx_mod_names[PTX_MOD_COUNT];

/* ---------------------------------------------------------------------------
 * Operands.
 * ------------------------------------------------------------------------- */
typedef enum ptx_operand_kind {
   PTX_OPND_REG,       /* %r1, %p2, user names; special registers too */
   PTX_OPND_IMM_INT,   /* 42, 0x2a, 052, 0b101, 42U, -1 */
   PTX_OPND_IMM_F32,   /* 0f3F800000 */
   PTX_OPND_IMM_F64,   /* 0d3FF0000000000000, and decimal float literals */
   PTX_OPND_SYM,       /* a label, variable or function name (+ offset) */
   PTX_OPND_ADDR,      /* [base], [base+imm], [imm], [tex, {coords}] */
   PTX_OPND_VEC,       /* {a, b, c, d}: elements are operands */
   PTX_OPND_SINK,      /* _ */
   PTX_OPND_PARAMLIST, /* (a, b, c) in call: elements in .vec */
} ptx_operand_kind;

typedef struct ptx_operand ptx_operand;
struct ptx_operand {
   ptx_operand_kind kind;
   ptx_loc loc;
   bool negate;        /* !%p (predicate operands) */
   bool neg_value;     /* -%r (rare: only in some inline asm forms) */
   /* .x .y .z .w or .r .g .b .a component suffix on a register
    * (%tid.x, %r1.x for vector registers): 0..3, -1 if none. */
   int8_t comp;
   union {
      const char *reg;                          /* PTX_OPND_REG: interned name */
      struct { uint64_t bits; bool is_unsigned; } imm;  /* IMM_* (F32 bits in low 32) */
      struct { const char *name; int64_t offset; } sym; /* PTX_OPND_SYM */
      struct {                                  /* PTX_OPND_ADDR */
         ptx_operand *base;    /* REG or SYM, NULL for [imm] */
         int64_t offset;       /* [base+offset] */
         ptx_operand *vec;     /* [tex, {x, y}]: the coordinate vector, else NULL */
      } addr;
      struct { ptx_operand **elems; uint32_t n; } vec;  /* VEC, PARAMLIST */
   } u;
};

/* ---------------------------------------------------------------------------
 * Instructions.
 * ------------------------------------------------------------------------- */
#define PTX_MAX_MODS 16
#define PTX_MAX_TYPES 4
#define PTX_MAX_OPNDS 8

typedef struct ptx_instr {
   ptx_loc loc;
   ptx_opcode op;
   /* Guard: @%p or @!%p; guard == NULL when unguarded. */
   const char *guard;
   bool guard_negate;
   /* Modifiers in source order (without types, vector width, state space). */
   uint8_t nmods;
   ptx_mod mods[PTX_MAX_MODS];
   /* Types in source order: cvt.f32.s32 has types {F32, S32}. */
   uint8_t ntypes;
   ptx_type types[PTX_MAX_TYPES];
   /* .v2 .v4 .v8 → 2, 4, 8; 0 when absent. */
   uint8_t vec;
   ptx_space space;          /* ld.global → PTX_SPACE_GLOBAL; cvta.to.shared too */
   /* Operands in source order.  setp's "p|q" destination is two operands:
    * opnds[0] = p, opnds[1] = q, and has_pair_dst is set.
    * call: opnds[0] = PARAMLIST of returns (n = 0 if none), opnds[1] = callee
    *       (SYM or REG), opnds[2] = PARAMLIST of arguments, opnds[3] = SYM of
    *       the prototype or branch-target list when present.
    * bra / brx.idx: the target SYM (brx: REG index then SYM of the target list). */
   uint8_t nopnds;
   bool has_pair_dst;
   ptx_operand *opnds[PTX_MAX_OPNDS];
} ptx_instr;

static inline bool ptx_instr_has_mod(const ptx_instr *in, ptx_mod m)
{
   for (unsigned i = 0; i < in->nmods; i++)
      if (in->mods[i] == m)
         return true;
   return false;
}

/* ---------------------------------------------------------------------------
 * Declarations: variables of every space, and parameters.
 * ------------------------------------------------------------------------- */
typedef enum ptx_linkage {
   PTX_LINK_NONE, PTX_LINK_VISIBLE, PTX_LINK_EXTERN, PTX_LINK_WEAK, PTX_LINK_COMMON,
} ptx_linkage;

/* One element of an initialiser: a number or an address expression. */
typedef enum ptx_init_kind {
   PTX_INIT_INT,        /* value in .bits */
   PTX_INIT_F32,        /* bits */
   PTX_INIT_F64,        /* bits */
   PTX_INIT_SYM,        /* address of sym (+offset); generic(sym) sets .generic */
} ptx_init_kind;

typedef struct ptx_init {
   ptx_init_kind kind;
   uint64_t bits;
   const char *sym;
   int64_t offset;
   bool generic;        /* generic(sym) */
} ptx_init;

#define PTX_MAX_DIMS 4

typedef struct ptx_var {
   ptx_loc loc;
   ptx_space space;
   ptx_linkage linkage;
   const char *name;
   ptx_type type;
   uint8_t vec;              /* .v2/.v4 element vector, 0 if scalar */
   uint32_t align;           /* .align N, 0 if absent */
   /* Array dimensions: a[4][8] → ndims 2, dims {4, 8}; a[] → dims {0} and
    * unsized set (size then comes from the initialiser, or it is extern). */
   uint8_t ndims;
   bool unsized;
   uint64_t dims[PTX_MAX_DIMS];
   /* %r<100>: a parameterised register range: name is the prefix "%r",
    * range_count 100, declaring %r0 .. %r99. 0 otherwise. */
   uint32_t range_count;
   /* Initialiser, flattened in element order; ninit == 0 if none. */
   uint32_t ninit;
   ptx_init *init;
   /* .ptr qualifiers of kernel parameters: .ptr .global .align 16 */
   bool is_ptr;
   ptx_space ptr_space;
   uint32_t ptr_align;
} ptx_var;

/* Number of elements of a variable (product of dims; 1 for scalars). */
uint64_t ptx_var_elems(const ptx_var *v);
/* Size in bytes: elems * element size * vec. */
uint64_t ptx_var_size(const ptx_var *v);

/* ---------------------------------------------------------------------------
 * Function bodies: a flat list of statements with scope markers.
 * ------------------------------------------------------------------------- */
typedef enum ptx_stmt_kind {
   PTX_STMT_INSTR,
   PTX_STMT_LABEL,
   PTX_STMT_VAR,            /* .reg / .local / .shared / .param ... inside a body */
   PTX_STMT_SCOPE_BEGIN,    /* { */
   PTX_STMT_SCOPE_END,      /* } */
   PTX_STMT_BRANCHTARGETS,  /* name: .branchtargets L1, L2, ...; */
   PTX_STMT_CALLPROTOTYPE,  /* name: .callprototype (...) _ (...); */
   PTX_STMT_PRAGMA,         /* .pragma "nounroll"; */
   PTX_STMT_LOC,            /* .loc file line col (debug info, kept for messages) */
} ptx_stmt_kind;

typedef struct ptx_func ptx_func;

typedef struct ptx_stmt {
   ptx_stmt_kind kind;
   ptx_loc loc;
   union {
      ptx_instr *instr;                 /* INSTR */
      const char *label;                /* LABEL */
      ptx_var *var;                     /* VAR */
      struct { const char *name; const char **labels; uint32_t n; } targets;
      ptx_func *proto;                  /* CALLPROTOTYPE: name + params, no body */
      const char *pragma;               /* PRAGMA: the string without quotes */
      struct { uint32_t file, line, col; } dloc;   /* LOC */
   } u;
} ptx_stmt;

/* .entry and .func (and .callprototype signatures). */
struct ptx_func {
   ptx_loc loc;
   bool is_entry;
   ptx_linkage linkage;
   const char *name;
   uint32_t nret, nparams;
   ptx_var **rets;           /* .func (.param .b32 ret) name(...) */
   ptx_var **params;         /* .param (entries, funcs) or .reg (funcs) */
   /* Performance directives (0 = absent). */
   uint32_t maxntid[3], reqntid[3], minnctapersm, maxnctapersm, maxnreg;
   uint32_t reqnctapercluster[3], maxclusterrank;
   bool explicitcluster, noreturn;
   /* Body: NULL and nstmts == 0 for a declaration (prototype) only. */
   bool has_body;
   uint32_t nstmts;
   ptx_stmt *stmts;
   /* Set when the body failed to parse: the function is kept (so calls to it
    * resolve) but translating it reports this error. */
   const char *error;
};

/* Top-level directives in source order. */
typedef enum ptx_decl_kind { PTX_DECL_VAR, PTX_DECL_FUNC } ptx_decl_kind;
typedef struct ptx_decl {
   ptx_decl_kind kind;
   union { ptx_var *var; ptx_func *func; } u;
} ptx_decl;

typedef struct ptx_error {
   ptx_loc loc;
   const char *msg;
} ptx_error;

typedef struct ptx_module {
   arena *ar;
   uint32_t version_major, version_minor;  /* .version 9.0 */
   char target[32];                        /* "sm_75" (first target word) */
   uint32_t sm;                            /* 75, 0 if unknown */
   bool target_debug, target_texmode_independent, target_map_f64_to_f32;
   uint32_t address_size;                  /* 32 or 64; 64 if absent */
   uint32_t ndecls;
   ptx_decl *decls;
   /* .file N "name" directives, indexed by N (NULL where absent). */
   uint32_t nfiles;
   const char **files;
   /* Errors, in order.  A module with errors is still returned: the
    * functions that parsed can be translated. */
   uint32_t nerrors;
   ptx_error *errors;
} ptx_module;

/* ---- lex.c ---- */

typedef enum ptx_tok_kind {
   PTX_TOK_EOF,
   PTX_TOK_IDENT,       /* names incl. %-registers, $-labels, _ */
   PTX_TOK_DIRECTIVE,   /* .version, .reg, .global, and also modifiers: text after '.' */
   PTX_TOK_INT,         /* value in .ival */
   PTX_TOK_F32,         /* 0f........ bits in .ival */
   PTX_TOK_F64,         /* 0d................ or decimal float: bits in .ival */
   PTX_TOK_STRING,      /* "..." without quotes, escapes kept */
   PTX_TOK_PUNCT,       /* one of , ; : ( ) [ ] { } < > + - * / % ! ~ & | ^ @ = ? */
   PTX_TOK_OP2,         /* << >> <= >= == != && || */
   PTX_TOK_ERROR,
} ptx_tok_kind;

typedef struct ptx_token {
   ptx_tok_kind kind;
   ptx_loc loc;
   const char *start;   /* into the source */
   uint32_t len;
   uint64_t ival;
   bool is_unsigned;    /* 42U */
   char punct[3];       /* PUNCT / OP2 text */
} ptx_token;

typedef struct ptx_lexer {
   const char *src, *cur, *end;
   uint32_t line;
   const char *line_start;
} ptx_lexer;

void ptx_lexer_init(ptx_lexer *lx, const char *src, size_t len);
ptx_token ptx_lex_next(ptx_lexer *lx);

/* ---- parse.c ---- */

/* Parses PTX text (need not be NUL-terminated).  Never returns NULL unless
 * out of memory; check m->nerrors.  The module and everything it points to
 * live in *ar. */
ptx_module *ptx_parse_module(arena *ar, const char *src, size_t len);

/* Finds a top-level function by name (entry or func). */
ptx_func *ptx_find_func(const ptx_module *m, const char *name);
ptx_var *ptx_find_var(const ptx_module *m, const char *name);

/* ---- print.c ---- */

/* Prints the AST back as PTX (for debugging and round-trip tests). */
void ptx_print_module(strbuf *out, const ptx_module *m);

#endif
