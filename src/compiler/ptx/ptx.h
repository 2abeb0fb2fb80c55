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
   X(F32X2, "f32x2", 64) X(TF32, "tf32", 32)                                 \
   X(E4M3, "e4m3", 8) X(E5M2, "e5m2", 8)                                     \
   X(E4M3X2, "e4m3x2", 16) X(E5M2X2, "e5m2x2", 16)                           \
   X(E2M3X2, "e2m3x2", 16) X(E3M2X2, "e3m2x2", 16) X(E2M1X2, "e2m1x2", 8)    \
   X(UE8M0X2, "ue8m0x2", 16)                                                 \
   /* scalar and x4 narrow floats (mma kinds, cvt.rs) */                     \
   X(E2M3, "e2m3", 8) X(E3M2, "e3m2", 8) X(E2M1, "e2m1", 4)                  \
   X(UE8M0, "ue8m0", 8) X(UE4M3, "ue4m3", 8)                                 \
   X(E4M3X4, "e4m3x4", 32) X(E5M2X4, "e5m2x4", 32) X(E2M3X4, "e2m3x4", 32)   \
   X(E3M2X4, "e3m2x4", 32) X(E2M1X4, "e2m1x4", 16)                           \
   X(S4, "s4", 4) X(U4, "u4", 4) X(B1, "b1", 1)                              \
   X(S2, "s2", 2) X(U2, "u2", 2)                   /* cvt.pack.sat */         \
   /* packed 16-bit integer pairs (min/max .u16x2 .s16x2) */                 \
   X(U16X2, "u16x2", 32) X(S16X2, "s16x2", 32)                               \
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
   PTX_SPACE_COUNT
} ptx_space;

/* "global", "shared", "shared::cluster", ...; "" for NONE.  The spellings
 * ".shared::cta" and ".param::entry" / ".param::func" are accepted as SHARED
 * and PARAM (the parser keeps the space, not the spelling). */
extern const char *const ptx_space_names[PTX_SPACE_COUNT];

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
   X(RED_ASYNC, "red.async") X(ST_BULK, "st.bulk")                          \
   X(MAPA, "mapa") X(SZEXT, "szext")

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
/* wgmma.mma_async shapes: m64nNkK, N = 8..256 step 8, K = 8, 16, 32, 256. */
#define PTX_MODS_WGMMA_SHAPES(X)                                             \
   X(M64N8K8, "m64n8k8") X(M64N16K8, "m64n16k8") X(M64N24K8, "m64n24k8")     \
   X(M64N32K8, "m64n32k8") X(M64N40K8, "m64n40k8") X(M64N48K8, "m64n48k8")   \
   X(M64N56K8, "m64n56k8") X(M64N64K8, "m64n64k8") X(M64N72K8, "m64n72k8")   \
   X(M64N80K8, "m64n80k8") X(M64N88K8, "m64n88k8") X(M64N96K8, "m64n96k8")   \
   X(M64N104K8, "m64n104k8") X(M64N112K8, "m64n112k8")                       \
   X(M64N120K8, "m64n120k8") X(M64N128K8, "m64n128k8")                       \
   X(M64N136K8, "m64n136k8") X(M64N144K8, "m64n144k8")                       \
   X(M64N152K8, "m64n152k8") X(M64N160K8, "m64n160k8")                       \
   X(M64N168K8, "m64n168k8") X(M64N176K8, "m64n176k8")                       \
   X(M64N184K8, "m64n184k8") X(M64N192K8, "m64n192k8")                       \
   X(M64N200K8, "m64n200k8") X(M64N208K8, "m64n208k8")                       \
   X(M64N216K8, "m64n216k8") X(M64N224K8, "m64n224k8")                       \
   X(M64N232K8, "m64n232k8") X(M64N240K8, "m64n240k8")                       \
   X(M64N248K8, "m64n248k8") X(M64N256K8, "m64n256k8")                       \
   X(M64N8K16, "m64n8k16") X(M64N16K16, "m64n16k16")                         \
   X(M64N24K16, "m64n24k16") X(M64N32K16, "m64n32k16")                       \
   X(M64N40K16, "m64n40k16") X(M64N48K16, "m64n48k16")                       \
   X(M64N56K16, "m64n56k16") X(M64N64K16, "m64n64k16")                       \
   X(M64N72K16, "m64n72k16") X(M64N80K16, "m64n80k16")                       \
   X(M64N88K16, "m64n88k16") X(M64N96K16, "m64n96k16")                       \
   X(M64N104K16, "m64n104k16") X(M64N112K16, "m64n112k16")                   \
   X(M64N120K16, "m64n120k16") X(M64N128K16, "m64n128k16")                   \
   X(M64N136K16, "m64n136k16") X(M64N144K16, "m64n144k16")                   \
   X(M64N152K16, "m64n152k16") X(M64N160K16, "m64n160k16")                   \
   X(M64N168K16, "m64n168k16") X(M64N176K16, "m64n176k16")                   \
   X(M64N184K16, "m64n184k16") X(M64N192K16, "m64n192k16")                   \
   X(M64N200K16, "m64n200k16") X(M64N208K16, "m64n208k16")                   \
   X(M64N216K16, "m64n216k16") X(M64N224K16, "m64n224k16")                   \
   X(M64N232K16, "m64n232k16") X(M64N240K16, "m64n240k16")                   \
   X(M64N248K16, "m64n248k16") X(M64N256K16, "m64n256k16")                   \
   X(M64N8K32, "m64n8k32") X(M64N16K32, "m64n16k32")                         \
   X(M64N24K32, "m64n24k32") X(M64N32K32, "m64n32k32")                       \
   X(M64N40K32, "m64n40k32") X(M64N48K32, "m64n48k32")                       \
   X(M64N56K32, "m64n56k32") X(M64N64K32, "m64n64k32")                       \
   X(M64N72K32, "m64n72k32") X(M64N80K32, "m64n80k32")                       \
   X(M64N88K32, "m64n88k32") X(M64N96K32, "m64n96k32")                       \
   X(M64N104K32, "m64n104k32") X(M64N112K32, "m64n112k32")                   \
   X(M64N120K32, "m64n120k32") X(M64N128K32, "m64n128k32")                   \
   X(M64N136K32, "m64n136k32") X(M64N144K32, "m64n144k32")                   \
   X(M64N152K32, "m64n152k32") X(M64N160K32, "m64n160k32")                   \
   X(M64N168K32, "m64n168k32") X(M64N176K32, "m64n176k32")                   \
   X(M64N184K32, "m64n184k32") X(M64N192K32, "m64n192k32")                   \
   X(M64N200K32, "m64n200k32") X(M64N208K32, "m64n208k32")                   \
   X(M64N216K32, "m64n216k32") X(M64N224K32, "m64n224k32")                   \
   X(M64N232K32, "m64n232k32") X(M64N240K32, "m64n240k32")                   \
   X(M64N248K32, "m64n248k32") X(M64N256K32, "m64n256k32")                   \
   X(M64N8K256, "m64n8k256") X(M64N16K256, "m64n16k256")                     \
   X(M64N24K256, "m64n24k256") X(M64N32K256, "m64n32k256")                   \
   X(M64N40K256, "m64n40k256") X(M64N48K256, "m64n48k256")                   \
   X(M64N56K256, "m64n56k256") X(M64N64K256, "m64n64k256")                   \
   X(M64N72K256, "m64n72k256") X(M64N80K256, "m64n80k256")                   \
   X(M64N88K256, "m64n88k256") X(M64N96K256, "m64n96k256")                   \
   X(M64N104K256, "m64n104k256") X(M64N112K256, "m64n112k256")               \
   X(M64N120K256, "m64n120k256") X(M64N128K256, "m64n128k256")               \
   X(M64N136K256, "m64n136k256") X(M64N144K256, "m64n144k256")               \
   X(M64N152K256, "m64n152k256") X(M64N160K256, "m64n160k256")               \
   X(M64N168K256, "m64n168k256") X(M64N176K256, "m64n176k256")               \
   X(M64N184K256, "m64n184k256") X(M64N192K256, "m64n192k256")               \
   X(M64N200K256, "m64n200k256") X(M64N208K256, "m64n208k256")               \
   X(M64N216K256, "m64n216k256") X(M64N224K256, "m64n224k256")               \
   X(M64N232K256, "m64n232k256") X(M64N240K256, "m64n240k256")               \
   X(M64N248K256, "m64n248k256") X(M64N256K256, "m64n256k256")

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
   X(L2_EVICT_UNCHANGED, "L2::evict_unchanged")                             \
   /* memory, fences, proxies */                                             \
   X(NOFTZ, "noftz") X(UNIFIED, "unified") X(GL, "gl") X(ALIAS, "alias")     \
   X(MBARRIER_INIT, "mbarrier_init") X(ASYNC_GENERIC, "async::generic")      \
   X(TENSORMAP_GENERIC, "tensormap::generic")                                \
   X(SYNC_RESTRICT_SHARED_CLUSTER, "sync_restrict::shared::cluster")         \
   X(SYNC_RESTRICT_SHARED_CTA, "sync_restrict::shared::cta")                 \
   X(RANGE, "range") X(CVT, "cvt") X(TENSORMAP_MOD, "tensormap")             \
   X(ACC_F32, "acc::f32") X(ACC_F16, "acc::f16")                             \
   /* mbarrier, bulk copies, TMA */                                          \
   X(ARRIVE_DROP, "arrive_drop") X(NOINC, "noinc")                           \
   X(MBARRIER_ARRIVE_ONE, "mbarrier::arrive::one") X(READ, "read")           \
   X(PREFETCH_MOD, "prefetch") X(TENSOR, "tensor") X(G4D, "4d") X(G5D, "5d") \
   X(TILE, "tile") X(TILE_GATHER4, "tile::gather4")                          \
   X(TILE_SCATTER4, "tile::scatter4") X(IM2COL, "im2col")                    \
   X(IM2COL_W, "im2col::w") X(IM2COL_W_128, "im2col::w::128")                \
   X(IM2COL_NO_OFFS, "im2col_no_offs")                                       \
   X(MULTICAST_CLUSTER, "multicast::cluster")                                \
   X(MULTICAST_CLUSTER_ALL, "multicast::cluster::all") X(CP_MASK, "cp_mask") \
   X(BULK, "bulk")                                                           \
   X(CTA_GROUP_1, "cta_group::1") X(CTA_GROUP_2, "cta_group::2")             \
   /* sub-operations spelled like opcodes (tcgen05.ld, wgmma.fence, ...) */   \
   X(LD_REDUCE, "ld_reduce") X(LD_MOD, "ld") X(ST_MOD, "st") X(CP_MOD, "cp") \
   X(REDUCE, "reduce") X(MMA_MOD, "mma") X(MMA_ASYNC, "mma_async")           \
   X(FENCE_MOD, "fence") X(COMMIT, "commit") X(SHIFT, "shift")               \
   X(ALLOC, "alloc") X(DEALLOC, "dealloc")                                   \
   X(RELINQUISH_ALLOC_PERMIT, "relinquish_alloc_permit")                     \
   X(WAIT_LD, "wait::ld") X(WAIT_ST, "wait::st")                             \
   X(FENCE_BEFORE_THREAD_SYNC, "fence::before_thread_sync")                  \
   X(FENCE_AFTER_THREAD_SYNC, "fence::after_thread_sync")                    \
   /* mma kinds, sparsity, block scaling */                                  \
   X(SP, "sp") X(SP_ORDERED_METADATA, "sp::ordered_metadata")                \
   X(KIND_F16, "kind::f16") X(KIND_TF32, "kind::tf32")                       \
   X(KIND_F8F6F4, "kind::f8f6f4") X(KIND_I8, "kind::i8")                     \
   X(KIND_MXF4, "kind::mxf4") X(KIND_MXF4NVF4, "kind::mxf4nvf4")             \
   X(KIND_MXF8F6F4, "kind::mxf8f6f4") X(BLOCK_SCALE, "block_scale")          \
   X(SCALE_VEC_1X, "scale_vec::1X") X(SCALE_VEC_2X, "scale_vec::2X")         \
   X(SCALE_VEC_4X, "scale_vec::4X") X(BLOCK16, "block16")                    \
   X(BLOCK32, "block32") X(WS, "ws") X(ASHIFT, "ashift")                     \
   /* tcgen05 collector usage */                                             \
   X(COLLECTOR_A_FILL, "collector::a::fill")                                 \
   X(COLLECTOR_A_USE, "collector::a::use")                                   \
   X(COLLECTOR_A_LASTUSE, "collector::a::lastuse")                           \
   X(COLLECTOR_A_DISCARD, "collector::a::discard")                           \
   X(COLLECTOR_B0_FILL, "collector::b0::fill")                               \
   X(COLLECTOR_B0_USE, "collector::b0::use")                                 \
   X(COLLECTOR_B0_LASTUSE, "collector::b0::lastuse")                         \
   X(COLLECTOR_B0_DISCARD, "collector::b0::discard")                         \
   X(COLLECTOR_B1_FILL, "collector::b1::fill")                               \
   X(COLLECTOR_B1_USE, "collector::b1::use")                                 \
   X(COLLECTOR_B1_LASTUSE, "collector::b1::lastuse")                         \
   X(COLLECTOR_B1_DISCARD, "collector::b1::discard")                         \
   X(COLLECTOR_B2_FILL, "collector::b2::fill")                               \
   X(COLLECTOR_B2_USE, "collector::b2::use")                                 \
   X(COLLECTOR_B2_LASTUSE, "collector::b2::lastuse")                         \
   X(COLLECTOR_B2_DISCARD, "collector::b2::discard")                         \
   X(COLLECTOR_B3_FILL, "collector::b3::fill")                               \
   X(COLLECTOR_B3_USE, "collector::b3::use")                                 \
   X(COLLECTOR_B3_LASTUSE, "collector::b3::lastuse")                         \
   X(COLLECTOR_B3_DISCARD, "collector::b3::discard")                         \
   /* matrix shapes (mma, wmma, ldmatrix, stmatrix, movmatrix) */            \
   X(M16N8K64, "m16n8k64") X(M16N8K128, "m16n8k128")                         \
   X(M16N8K256, "m16n8k256") X(M8N8K16, "m8n8k16") X(M8N8K32, "m8n8k32")     \
   X(M8N8K128, "m8n8k128") X(M16N16K8, "m16n16k8") X(M16N16, "m16n16")       \
   X(M8N16, "m8n16") X(M16N8, "m16n8")                                       \
   /* tcgen05 data-path shapes, repeat counts, packing, multicast, formats */\
   X(S16X64B, "16x64b") X(S16X128B, "16x128b") X(S16X256B, "16x256b")        \
   X(S32X32B, "32x32b") X(S16X32BX2, "16x32bx2") X(S128X256B, "128x256b")    \
   X(S4X256B, "4x256b") X(S128X128B, "128x128b") X(S64X128B, "64x128b")      \
   X(S32X128B, "32x128b") X(X8, "x8") X(X16, "x16") X(X32, "x32")            \
   X(X64, "x64") X(X128, "x128") X(PACK_16B, "pack::16b")                    \
   X(UNPACK_16B, "unpack::16b") X(WARPX2_02_13, "warpx2::02_13")             \
   X(WARPX2_01_23, "warpx2::01_23") X(WARPX4, "warpx4") X(B8X16, "b8x16")    \
   X(B6X16_P32, "b6x16_p32") X(B4X16_P64, "b4x16_p64")                       \
   /* tensormap.replace / cp_fenceproxy */                                   \
   X(REPLACE, "replace") X(GLOBAL_ADDRESS, "global_address") X(RANK, "rank") \
   X(BOX_DIM, "box_dim") X(GLOBAL_DIM, "global_dim")                         \
   X(GLOBAL_STRIDE, "global_stride") X(ELEMENT_STRIDE, "element_stride")     \
   X(ELEMTYPE, "elemtype") X(INTERLEAVE_LAYOUT, "interleave_layout")         \
   X(SWIZZLE_MODE, "swizzle_mode") X(SWIZZLE_ATOMICITY, "swizzle_atomicity") \
   X(FILL_MODE, "fill_mode") X(B1024, "b1024")                               \
   X(CP_FENCEPROXY, "cp_fenceproxy")                                         \
   /* clusterlaunchcontrol */                                                \
   X(TRY_CANCEL, "try_cancel") X(QUERY_CANCEL, "query_cancel")               \
   X(IS_CANCELED, "is_canceled") X(GET_FIRST_CTAID, "get_first_ctaid")       \
   X(GET_FIRST_CTAID_X, "get_first_ctaid::x")                                \
   X(GET_FIRST_CTAID_Y, "get_first_ctaid::y")                                \
   X(GET_FIRST_CTAID_Z, "get_first_ctaid::z")                                \
   /* video instructions, suq, pmevent */                                    \
   X(PO, "po") X(SHR7, "shr7") X(SHR15, "shr15")                             \
   X(MEMORY_LAYOUT, "memory_layout") X(MASK, "mask")                         \
   PTX_MODS_WGMMA_SHAPES(X)

typedef enum ptx_mod {
   PTX_MOD_INVALID,
#define X(e, s) PTX_MOD_##e,
   PTX_MODS(X)
#undef X
   PTX_MOD_COUNT
} ptx_mod;

extern const char *const ptx_mod_names[PTX_MOD_COUNT];

/* ---- tables.c: spelling → enum (exact, case-sensitive; n bytes of s) ---- */
ptx_opcode ptx_opcode_lookup(const char *s, size_t n);   /* PTX_OP_INVALID if unknown */
ptx_type ptx_type_lookup(const char *s, size_t n);       /* PTX_T_NONE if unknown */
ptx_mod ptx_mod_lookup(const char *s, size_t n);         /* PTX_MOD_INVALID if unknown */

/* ---------------------------------------------------------------------------
 * Operands.
 * ------------------------------------------------------------------------- */
typedef enum ptx_operand_kind {
   /* %r1, %p2, special registers, and names without '%' that the current
    * function declared with .reg (inline asm: ".reg .pred p;"), including
    * r<N> ranges.  Any other name is a SYM. */
   PTX_OPND_REG,
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
   /* Byte/half-word selector of video instructions, without the dot:
    * "b0", "h1", "b3210" (vadd4 d.b10, a.b3210, ...).  NULL if none. */
   const char *sel;
   union {
      const char *reg;                          /* PTX_OPND_REG: interned name */
      struct { uint64_t bits; bool is_unsigned; } imm;  /* IMM_* (F32 bits in low 32) */
      struct { const char *name; int64_t offset; } sym; /* PTX_OPND_SYM */
      struct {                                  /* PTX_OPND_ADDR */
         /* REG or SYM; NULL for [imm].  With several leading names, as in
          * [tex, sampler, {x, y}], base is a VEC of those names in order
          * (elems[0] the texture, elems[1] the sampler). */
         ptx_operand *base;
         int64_t offset;       /* [base+offset] */
         ptx_operand *vec;     /* [tex, {x, y}], [tmap, {c0, c1}]: the vector, else NULL */
         bool unified;         /* ld ... [a].unified */
      } addr;
      struct { ptx_operand **elems; uint32_t n; } vec;  /* VEC, PARAMLIST */
   } u;
};

/* ---------------------------------------------------------------------------
 * Instructions.
 * ------------------------------------------------------------------------- */
#define PTX_MAX_MODS 16
#define PTX_MAX_TYPES 6      /* mma block_scale: .f32.e2m1.e2m1.f32.ue8m0 */
#define PTX_MAX_OPNDS 12     /* wgmma.mma_async.sp, mma.sp block_scale: 10 */

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
   /* A second state space, for copies that name both ends in order
    * (cp.async.ca.shared.global: space = SHARED, src_space = GLOBAL). */
   ptx_space src_space;
   /* The spellings ".shared::cta", ".param::entry", ".param::func" of space
    * and src_space (without the dot), NULL for the canonical spelling.  The
    * meaning is the space; ptxas insists on the spelling in some places
    * (fence.proxy.async.shared::cta), so the printer keeps it. */
   const char *space_spelling, *src_space_spelling;
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
   /* The mask() operator of byte initialisers, as LLVM emits for packed
    * structs holding pointers: 0xFF00(generic(p)) is byte 1 of the address
    * (mask 0xFF00); 0 when absent.  Always a single-byte mask 0xFF << 8k.
    * On constants it is folded at parse time (0xFF00(0x1234) is INT 0x12). */
   uint64_t mask;
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
   /* .attribute(.managed): a __managed__ variable. */
   bool managed;
   /* Fields of a .texref/.samplerref/.surfref initialiser, in order:
    * { filter_mode = nearest, addr_mode_0 = wrap } → ("filter_mode",
    * "nearest"), ("addr_mode_0", "wrap").  Integer values are in decimal. */
   uint32_t nfields;
   struct ptx_field { const char *name, *value; } *fields;
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
   PTX_STMT_CALLTARGETS,    /* name: .calltargets f1, f2, ...; (u.targets) */
} ptx_stmt_kind;

typedef struct ptx_func ptx_func;

typedef struct ptx_stmt {
   ptx_stmt_kind kind;
   ptx_loc loc;
   union {
      ptx_instr *instr;                 /* INSTR */
      const char *label;                /* LABEL */
      ptx_var *var;                     /* VAR */
      struct { const char *name; const char **labels; uint32_t n; } targets; /* BRANCH/CALLTARGETS */
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

/* Top-level directives in source order.  A .func declared first and defined
 * later appears twice (prototype, then definition); ptx_find_func prefers
 * the definition. */
typedef enum ptx_decl_kind { PTX_DECL_VAR, PTX_DECL_FUNC, PTX_DECL_ALIAS } ptx_decl_kind;
typedef struct ptx_decl {
   ptx_decl_kind kind;
   union {
      ptx_var *var;
      ptx_func *func;
      struct { const char *name, *target; } alias;   /* .alias name, target; */
   } u;
} ptx_decl;

/* msg is the full text, location included:
 * "line 12, col 5: unknown modifier '.foo' on 'add'". */
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
   /* Some bar/barrier has .arrive: every barrier of the module is then a
    * named one (ir/build_warp.c); known here so that translating each of a
    * module's kernels does not rescan the whole module. */
   bool has_bar_arrive;
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
   PTX_TOK_DIRECTIVE,   /* .version, .reg, .global, and also modifiers: start/len
                         * cover the text after '.', loc is the '.' */
   PTX_TOK_INT,         /* value in .ival */
   PTX_TOK_F32,         /* 0f........ bits in .ival */
   PTX_TOK_F64,         /* 0d................ or decimal float: bits in .ival */
   PTX_TOK_STRING,      /* "..." without quotes, escapes kept */
   PTX_TOK_PUNCT,       /* one of , ; : ( ) [ ] { } < > + - * / % ! ~ & | ^ @ = ? */
   PTX_TOK_OP2,         /* << >> <= >= == != && || */
   PTX_TOK_ERROR,       /* msg says why; the lexer has skipped the bad text */
} ptx_tok_kind;

typedef struct ptx_token {
   ptx_tok_kind kind;
   ptx_loc loc;
   const char *start;   /* into the source */
   uint32_t len;
   uint64_t ival;
   bool is_unsigned;    /* 42U */
   char punct[3];       /* PUNCT / OP2 text */
   const char *msg;     /* PTX_TOK_ERROR: static message */
} ptx_token;

typedef struct ptx_lexer {
   const char *src, *cur, *end;
   uint32_t line;
   const char *line_start;
} ptx_lexer;

void ptx_lexer_init(ptx_lexer *lx, const char *src, size_t len);
ptx_token ptx_lex_next(ptx_lexer *lx);

/* ---- link.c ---- */

/* Links the PTX of n separately compiled units (nvcc -rdc=true) into one
 * module's text (malloc'ed, NUL-terminated, *out_len bytes); NULL with a
 * malloc'ed message in *err when the units cannot be linked (a symbol
 * defined twice, disagreeing .address_size) or memory runs out. */
char *ptx_link(const char *const *texts, const size_t *lens, uint32_t n, size_t *out_len, char **err);
/* The device functions the runtime provides, or that the compiler handles
 * itself, when no unit defines them: what ir/build_call.c does with a call
 * of each (builds vprintf and __assertfail in, the heap, refuses the rest
 * by feature), and what the driver's device-link check exempts (an .extern
 * of one needs no definition: toolchain/rdc_check.c). */
typedef enum ptx_runtime_callee {
   PTX_RT_NONE,            /* an ordinary function */
   PTX_RT_VPRINTF,
   PTX_RT_ASSERTFAIL,
   PTX_RT_HEAP,            /* malloc, free */
   PTX_RT_GRAPH_SET_CONDITIONAL,   /* cudaGraphSetConditional */
   PTX_RT_ALIGNED_MALLOC,  /* __nv_aligned_device_malloc, __cuda_syscall_aligned_malloc */
   PTX_RT_DEVICE_RUNTIME,  /* dynamic parallelism: __cudaCDP*, cudaLaunchDevice ... */
   PTX_RT_GRID_CG,         /* grid-wide cooperative groups: cudaCGGet* */
} ptx_runtime_callee;
ptx_runtime_callee ptx_runtime_kind(const char *name);

/* ---- parse.c ---- */

/* Parses PTX text (need not be NUL-terminated).  Never returns NULL unless
 * out of memory; check m->nerrors.  The module and everything it points to
 * live in *ar (no pointer into src is kept).  Thread-safe: the shared
 * tables are built once under pthread_once. */
ptx_module *ptx_parse_module(arena *ar, const char *src, size_t len);

/* Finds a top-level function by name (entry or func), preferring the
 * definition over a prototype; and a variable, preferring a definition over
 * an .extern declaration.  Linear in the number of declarations. */
ptx_func *ptx_find_func(const ptx_module *m, const char *name);
ptx_var *ptx_find_var(const ptx_module *m, const char *name);

/* ---- print.c ---- */

/* Prints the AST back as PTX (for debugging and round-trip tests). */
void ptx_print_module(strbuf *out, const ptx_module *m);

#endif
