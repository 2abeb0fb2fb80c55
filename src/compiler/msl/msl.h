/*
 * msl.h — the MSL emitter: structured, out-of-SSA IR → Metal Shading
 * Language text.  The table of contents of src/compiler/msl.
 */
#ifndef MC_MSL_H
#define MC_MSL_H

#include "../ir/ir.h"

/* The prelude text (prelude/prelude.metal, embedded by prelude.S). */
extern const char msl_prelude_text[];

/* Appends the MSL of kernel f (which must be structured) as a kernel
 * function named msl_name.  Returns false on error (m->error set). */
bool msl_emit_kernel(strbuf *out, ir_func *f, const char *msl_name);
/* Appends the MSL of .func f (structured, linked by ir_link_calls into the
 * library of the kernel named lib_name) as an ordinary function; a callee
 * must be emitted before its callers. */
bool msl_emit_func(strbuf *out, ir_func *f, const char *lib_name);
/* Appends the file header and prelude; shared_in_device: the library's
 * shared memory is device memory (compiler.h compiler_options). */
void msl_emit_header(strbuf *out, const char *comment, bool shared_in_device);

#endif
