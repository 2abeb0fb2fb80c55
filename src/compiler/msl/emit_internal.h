/*
 * emit_internal.h — shared by emit.c (kernel, control flow, edges) and
 * emit_instr.c (one instruction at a time).  Private to src/compiler/msl.
 */
#ifndef MC_MSL_EMIT_INTERNAL_H
#define MC_MSL_EMIT_INTERNAL_H

#include "../compiler.h"
#include "msl.h"

#include <stdarg.h>

#define EMIT_MAX_DEPTH 4096

typedef struct pending_jump {
   const ir_cf *target;
   bool cont;
} pending_jump;
typedef VEC(pending_jump) pending_vec;

typedef struct resume_plan resume_plan;   /* emit_resume.c */
typedef struct rec_plan rec_plan;         /* emit_rec.c */

/* The values (SSA defs that are variables) live just after each of a
 * function's points (instructions a predicate picks): backward dataflow
 * over the CFG, a phi's sources used at the end of their predecessor
 * (emit_resume.c). */
typedef struct emit_liveness {
   uint32_t words, ndefs;     /* 64-bit words per set; def indices are below ndefs */
   const ir_def **defs;       /* by def index: the values that are variables */
   uint32_t n;                /* points */
   const ir_instr **at;       /* point k */
   uint64_t **live;           /* point k → the set live after it */
   uint64_t *all;             /* their union */
} emit_liveness;
bool emit_liveness_compute(emit_liveness *l, ir_func *f, arena *ar, bool (*is_point)(const ir_instr *));
static inline bool emit_live_has(const uint64_t *s, uint32_t k) { return s[k / 64] >> (k % 64) & 1; }

typedef struct emitter {
   strbuf *out;
   ir_func *f;
   arena *ar;
   int indent;
   const ir_cf **stack;       /* enclosing LOOP/BLOCK constructs */
   uint32_t depth;
   pending_vec *pending;      /* by construct id: jumps that cross it */
   bool uses_shared;
   const char *smem_as;       /* shared memory's address space: "threadgroup", or MC_SMEM (the
                               * prelude's device) in the shared_in_device variant (compiler.h) */
   uint32_t dyn_shared_base;
   bool has_local;            /* the thread has local memory (mc_local): kernel or callee */
   ir_func *kernel;           /* the kernel of the library (f itself for a kernel) */
   const char *lib_name;      /* the kernel's MSL name; callees are named after it */
   const resume_plan *rs;     /* barriers as resume points (software device), or NULL */
   const rec_plan *rec;       /* f is a recursive function's step function (emit_rec.c), or NULL */
   uint32_t max_cf_id;        /* ids above it: the latches of lockstep loops (emit.c) */
   uint8_t since_meet;        /* lockstep accesses since the warp last met (emit.c) */
   bool has_lockstep;         /* f has IR_F_MEETS instructions: it has warp meets */
   uint32_t fn_index;         /* f's place among the library's functions, callees first */
   uint64_t meet_rank;        /* the next meet's rank (emit.c meet_rank_of) */
   const uint8_t *nan_loose;  /* by def index: MSL_NAN_W, MSL_NAN_L (nan_loose.c), or NULL */
   const ir_instr *cur;       /* the instruction being written: its def is written raw */
   bool nan_blind_use;        /* the value being written is read by a NaN-blind operation */
   const uint8_t *lane_arr;   /* lane form (emit_lanes.c): by def index, LANE_LOCAL (a scalar of
                               * its lane loop), LANE_ARRAY (an array over the lanes),
                               * LANE_SCALAR (one value for the invocation) or LANE_REMAT
                               * (recomputed in each lane loop that reads it); NULL: per thread */
   uint32_t *lane_remat_at;   /* lane form: by def index, the lane loop that last recomputed a
                               * LANE_REMAT value (emit_lanes.c) */
   uint32_t lane_loops;       /* lane form: lane loops opened so far */
   uint8_t *lane_written;     /* lane form: by def index, an array the open lane loop writes (its
                               * element is the scalar mc_wN there) */
   uint32_t *lane_store;      /* lane form: by def index, the def whose array holds a LANE_ARRAY
                               * value (itself, or the loop phi it replaces: emit_lanes.c) */
   uint8_t *lane_meet;        /* lane form: by instruction index, the warp meets before it (a
                               * lockstep access): LANE_MEET_SPLIT a lane loop ends there,
                               * LANE_MEET_IN_LOOP only the one-lane build meets (emit_lanes.c) */
   uint32_t lane_loop_depth;  /* lane form: LOOP constructs open around the code being written */
   struct {                   /* emit_xrange.c: the kernel's opening test, if it has one */
      const ir_def *cond;     /* the test (NULL: none) */
      bool go_on;             /* its value for the threads that go on */
      uint32_t nleaves;
      struct emit_xleaf {     /* the threads that go on have d == want, for every leaf */
         const ir_def *d;
         bool want;
         bool is_x;           /* compares U + tid.x (U = u[0] * u[1], u[0], or 0) with n */
         bool swapped;        /* n is the first operand */
         bool is_signed;
         uint8_t cmp;         /* ir_cmp, EQ..GE */
         uint8_t bits;        /* of the comparison: 32 or 64 */
         const ir_def *u[2], *n;
      } leaf[8];
      bool x_per_row;         /* an x leaf reads tid.y or tid.z: its runs differ by row */
      bool *slice;            /* by instruction index: computes a leaf's operands, or a row's leaf */
   } xr;
} emitter;

uint64_t emit_meet_rank(const emitter *e, uint32_t order, uint32_t seq);
bool emit_cf_has_lockstep(const ir_cf *n);
bool emit_meet_needed(uint8_t *since, const ir_instr *i);
bool emit_is_full_mask(const ir_def *m);
uint64_t emit_latch_rank(const emitter *e, const ir_cf *n, uint32_t loops);
const char *msl_utype(uint8_t bits);
const char *msl_stype(uint8_t bits);
void emit_indent(emitter *e);
void emit_line(emitter *e, const char *fmt, ...) MC_PRINTF(2, 3);
void emit_val(emitter *e, const ir_def *d);
bool emit_phi_copy_needed(const emitter *e, const ir_instr *phi, const ir_cf *n, uint8_t kind);
void emit_val_comp(emitter *e, const ir_def *d, int comp);
void emit_lval_comp(emitter *e, const ir_def *d, int comp);   /* a def written: never wrapped */
void emit_declare_value(emitter *e, const ir_instr *i);

/* emit_xrange.c: the threads of a row that pass the kernel's opening test
 * (e->xr), for the software device's loop over them. */
bool emit_xrange_plan(emitter *e);
void emit_xrange_fn(emitter *e, const char *msl_name);

/* emit_instr.c: the formatter and the dispatch.  Formats: %V value
 * (ir_def *), %s string, %u unsigned, %x hex unsigned, %T/%S the
 * unsigned/signed type of a bit size, %W the arithmetic type of a bit size
 * (uint up to 32 bits, ulong above). */
void emit_instr(emitter *e, ir_instr *i);
void emit_fmt_v(emitter *e, const char *fmt, va_list ap);
void emit_set(emitter *e, const ir_instr *i, const char *fmt, ...);   /* "vN = <expr>;" */
void emit_stmt(emitter *e, const char *fmt, ...);                     /* one line */

/* nan_loose.c: by def index, MSL_NAN_W for a value written without
 * canonicalisation and canonicalised where a use shows its bits, MSL_NAN_L
 * for one no use shows; NULL when out of memory.  msl_is_nan_blind: an f32
 * operation whose result does not depend on its operands' NaN bits. */
enum { MSL_NAN_W = 1, MSL_NAN_L = 2 };
uint8_t *msl_nan_loose(ir_func *f, arena *ar);
bool msl_is_nan_blind(const ir_instr *i);

/* An instruction whose value is a variable (constants are printed inline). */
static inline bool emit_needs_variable(const ir_instr *i)
{
   return i->def.bits && i->op != IR_CONST && i->op != IR_UNDEF;
}

static inline const ir_def *S(const ir_instr *i, unsigned k) { return i->srcs[k].def; }
static inline unsigned B(const ir_instr *i) { return i->def.bits; }
static inline bool is_signed(ptx_type t) { return ptx_type_is_signed(t); }

/* The 16-bit float lane types: f16, bf16 and their packed pairs. */
static inline bool is_lane16(ptx_type t)
{
   return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2;
}

/* The prelude's rounding mode number, for float (.rn ...) and integer
 * (.rni ...) roundings alike: 0 nearest (and no modifier), 1 zero, 2 down,
 * 3 up (round.metal, f64.metal). */
static inline int rnd_mode(ir_rnd r)
{
   switch (r) {
   case IR_RND_RZ: case IR_RND_RZI: return 1;
   case IR_RND_RM: case IR_RND_RMI: return 2;
   case IR_RND_RP: case IR_RND_RPI: return 3;
   default: return 0;
   }
}

/* One function per family; each returns false for ops it does not own. */
bool emit_mem_op(emitter *e, ir_instr *i);     /* emit_mem.c */
bool emit_int_op(emitter *e, ir_instr *i);     /* emit_int.c */
bool emit_float_op(emitter *e, ir_instr *i);   /* emit_float.c */
bool emit_f64_op(emitter *e, ir_instr *i);     /* emit_f64.c */
bool emit_warp_op(emitter *e, ir_instr *i);    /* emit_warp.c */
bool emit_atom_op(emitter *e, ir_instr *i);    /* emit_atom.c */
bool emit_call_op(emitter *e, ir_instr *i);    /* emit_call.c */
bool emit_tex_op(emitter *e, ir_instr *i);     /* emit_tex.c */
/* emit_atom.c: a 128-bit strong load or store (IR_F_LOCKED), under the
 * location's lock. */
void emit_locked_access(emitter *e, const ir_instr *i);

/* emit_call.c: a .func's MSL signature (without the body's brace) and the
 * MSL name of a callee. */
void emit_func_signature(emitter *e);
/* The kernel's named-barrier and bar.red state, in a .func's parameters
 * (after mc_clk) and in a call's arguments. */
void emit_barrier_state_params(emitter *e, strbuf *o);
void emit_barrier_state_args(emitter *e);
const char *emit_callee_name(emitter *e, const ir_func *callee);

/* emit_call.c: the token of a function's address (compiler.h
 * MC_FUNC_WINDOW), and a call of g with call i's arguments. */
uint64_t emit_func_token(emitter *e, const char *name);
void emit_direct_call(emitter *e, const ir_instr *i, const ir_func *g);

/* emit_rec.c: recursive functions (see its header).  The plan of f's
 * frame; the first function of a component declares its step functions;
 * the step function's opening, its entry (after the declarations), the
 * structured code's resume logic, a call into the component and the
 * resume point after it, the driver, a local SYMADDR, and where the
 * stack's free part starts for a call (mc_top). */
rec_plan *emit_rec_plan(ir_func *f, arena *ar);
bool emit_rec_prologue(emitter *e);
void emit_rec_begin(emitter *e);
void emit_rec_entry(emitter *e);
bool emit_rec_contains(const ir_cf *n);
bool emit_rec_list_contains(const ir_cf *n);
bool emit_rec_holds(const ir_cf *n, const ir_instr *at);
bool emit_rec_is_point(const emitter *e, const ir_instr *i);
void emit_rec_if_cond(emitter *e, const ir_cf *n);
void emit_rec_push(emitter *e, const ir_instr *i);
void emit_rec_resume(emitter *e, const ir_instr *i);
void emit_rec_driver(emitter *e);
void emit_rec_symaddr(emitter *e, const ir_instr *i);
void emit_rec_top(emitter *e);

/* emit_resume.c: a kernel's barriers as resume points for the software
 * device (NULL: not eligible), the slot type (before the kernel), the
 * dispatch to the resume points (after the declarations) and a barrier
 * with its save and resume point; shuffles over the full mask in uniformly
 * reached blocks are resume points too. */
resume_plan *emit_resume_plan(ir_func *f, arena *ar);
void emit_resume_struct(strbuf *out, const resume_plan *p, const char *msl_name);
void emit_resume_dispatch(emitter *e);
void emit_resume_barrier(emitter *e, const ir_instr *i, const char *barrier);
/* A shfl.sync that is a resume point: its save, offer and resume label,
 * which go before the shuffle itself. */
bool emit_resume_is_warp_point(const emitter *e, const ir_instr *i);
void emit_resume_warp_op(emitter *e, const ir_instr *i);

/* emit.c: the copies into the phis of edge n's target; in lane form only
 * those of one kind (LANE_ARRAY: also local ones; LANE_SCALAR), else all
 * (kind 0). */
void emit_phi_copies(emitter *e, const ir_cf *n, uint8_t kind);

/* emit_lanes.c: a kernel in lane form, MC_NLANES threads per invocation
 * under an execution mask (see its header).  The plan sets lane_arr (which
 * values are arrays) when the kernel takes the lane form, false only when
 * out of memory; the declarations at the top of the kernel; the body. */
enum { LANE_LOCAL, LANE_ARRAY, LANE_SCALAR, LANE_REMAT };   /* emitter.lane_arr */
enum { LANE_MEET_NONE, LANE_MEET_SPLIT, LANE_MEET_IN_LOOP };  /* emitter.lane_meet */
enum { MEET_NONE, MEET_LOADS, MEET_STORES };   /* emitter.since_meet: marked accesses since the warp met */
unsigned emit_warp_kind(const ir_instr *i);
bool emit_lanes_plan(emitter *e);
void emit_lanes_declare(emitter *e);
void emit_lanes_body(emitter *e);

/* emit_mem.c: the MSL type of a memory access of PTX type t, and a pointer
 * expression to byte_off past addr in a space. */
const char *emit_mem_type(ptx_type t);
void emit_ptr_expr(emitter *e, ir_space space, ptx_type t, unsigned flags, const ir_def *addr, uint32_t byte_off);

#endif
