/*
 * emit_internal.h — shared by emit.c (kernel, control flow, edges) and
 * emit_instr.c (one instruction at a time).  Private to src/compiler/msl.
 */
#ifndef MC_MSL_EMIT_INTERNAL_H
#define MC_MSL_EMIT_INTERNAL_H

#include "../compiler.h"
#include "msl.h"

#define EMIT_MAX_DEPTH 4096

typedef struct pending_jump {
   const ir_cf *target;
   bool cont;
} pending_jump;
typedef VEC(pending_jump) pending_vec;

typedef struct emitter {
   strbuf *out;
   ir_func *f;
   arena *ar;
   int indent;
   const ir_cf **stack;       /* enclosing LOOP/BLOCK constructs */
   uint32_t depth;
   pending_vec *pending;      /* by construct id: jumps that cross it */
   bool uses_shared;
   uint32_t dyn_shared_base;
} emitter;

const char *msl_utype(uint8_t bits);
const char *msl_stype(uint8_t bits);
void emit_indent(emitter *e);
void emit_line(emitter *e, const char *fmt, ...) MC_PRINTF(2, 3);
void emit_val(emitter *e, const ir_def *d);
void emit_val_comp(emitter *e, const ir_def *d, int comp);

/* emit_instr.c */
void emit_instr(emitter *e, ir_instr *i);

#endif
