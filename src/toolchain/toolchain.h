/*
 * toolchain.h — metalcuda's compiler drivers (nvcc, hipcc) over clang's CUDA
 * front end.  Table of contents, one section per file.
 *
 * The drivers turn an nvcc or hipcc command line into a plan of steps (device
 * compile to PTX per architecture, the fatbin container, host compile with
 * the container embedded, plain C/C++ compiles, link) and run each step as a
 * separate program (clang, ar).  Nothing here calls the runtime: the driver
 * is a compiler, the runtime loads what it writes.
 */
#ifndef MC_TOOLCHAIN_H
#define MC_TOOLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- fatbin_write.c: the container src/fatbin/ reads ---- */

typedef struct tc_image {
   const char *ptx;     /* PTX text (NUL-terminated) */
   uint32_t sm;         /* 75 for sm_75 / compute_75 */
} tc_image;

/* A fatbin (16-byte header, then one uncompressed PTX entry per image) in a
 * malloc'ed buffer of *len bytes; NULL when out of memory.  The layout is
 * the one src/fatbin/README.md measured from nvcc's output. */
uint8_t *tc_fatbin_build(const tc_image *img, size_t n, size_t *len);
/* The PTX ISA version a PTX text declares (".version 8.5" gives 8 and 5);
 * false if it has none. */
bool tc_ptx_version(const char *ptx, uint16_t *major, uint16_t *minor);

/* ---- ptx_fix.c: clang's -fgpu-rdc PTX repaired ---- */

/* The PTX with references to a static variable or kernel that clang
 * declared .extern under its first name renamed to the unit-unique name it
 * defined it under (NAME__static__<id>), in a malloc'ed text; NULL when
 * there is nothing to repair (or no memory). */
char *tc_ptx_fix_rdc(const char *ptx);

/* ---- rdc_check.c: nvlink's undefined-reference check ---- */

/* The 8 bytes include/crt/mc_rdc_unit.h puts right before each -rdc unit's
 * fatbin in its object (keep the two equal). */
#define MC_RDC_TAG "MCRDCU01"
/* Every .extern device function and variable of the units in files
 * (objects and static libraries; nunits: how many unit symbols nm listed)
 * is defined by some unit or provided by the runtime; else each is reported
 * as nvlink does ("nvlink error   : Undefined reference to 'NAME' in
 * 'FILE'") and 1 is returned. */
int tc_rdc_check(const char *const *files, int nfiles, int nunits, bool verbose);

/* ---- clang.c: finding clang and running programs ---- */

typedef struct tc_argv {
   char **v;
   int n, cap;
} tc_argv;

void tc_argv_push(tc_argv *a, const char *s);           /* copies s */
void tc_argv_pushf(tc_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tc_argv_free(tc_argv *a);

/* Runs argv (argv.v[0] looked up in PATH); returns its exit status, or 127
 * if it could not start.  verbose prints "#$ command" first, as nvcc -v
 * does; dryrun prints and runs nothing. */
int tc_run(const tc_argv *argv, bool verbose, bool dryrun);
/* The same with its standard output written to the file out (created or
 * truncated), when out is not NULL. */
int tc_run_out(const tc_argv *argv, bool verbose, bool dryrun, const char *out);
/* The same with its standard error written to the file err, when err is
 * not NULL (the device compile's diagnostics, read by source_fix.c). */
int tc_run_to(const tc_argv *argv, bool verbose, bool dryrun, const char *out, const char *err);
/* The two halves of tc_run_out, for a command that runs while the driver
 * does other work: tc_spawn starts it (its standard error into err unless
 * NULL) and sets *pid (0, or 127 if it could not start; nothing is started
 * under dryrun); tc_wait waits for it and returns tc_run's status. */
int tc_spawn(const tc_argv *argv, bool verbose, bool dryrun, const char *out, const char *err,
             pid_t *pid);
int tc_wait(const char *name, pid_t pid);

/* The clang to use: $METALCUDA_CLANG, else the newest clang-NN with an
 * NVPTX back end on PATH, else clang.  NULL, with a message in err, if none
 * can compile CUDA to PTX (Apple's Xcode clang has no NVPTX target). */
const char *tc_find_clang(char *err, size_t errlen);
/* clang's C++ driver beside it (clang++-19 for clang-19). */
const char *tc_clangxx(const char *clang);

/* The symbol lister beside clang (llvm-nm-19 for clang-19), else nm: it
 * reads ELF and Mach-O objects and archives, with POSIX output (-P). */
const char *tc_nm(const char *clang);

/* The toolkit root: the directory above the bin/ that holds this program
 * (the source tree, or an installed PREFIX); include/ and lib/ are there. */
bool tc_root(char *out, size_t len);

/* ---- source_fix.c: what nvcc accepts and clang refuses, rewritten ---- */

/* clang's diagnostics diag of a failed device compile: when they report
 * "initialization is not supported for __shared__ variables" or
 * "reference to __global__ function 'K' in __global__ function" (a launch
 * in device code) and every such declaration or launch can be rewritten
 * (into raw shared storage: no constructor or destructor runs, as with
 * nvcc; into a launch through the device runtime), the files that hold
 * them go onto files and their rewritten texts onto texts, and 1 is
 * returned; remaps lists the earlier rewrites ("FILE;COPY", as -remap-file
 * takes them), whose copies are what clang saw.  -1: some cannot be;
 * *notes gets one line per such site, each starting with
 * "prog: FILE:LINE:", to print after clang's diagnostics (malloc'ed).
 * 0: no such error. */
int tc_source_fix(const char *diag, const char *prog, const tc_argv *remaps, tc_argv *files, tc_argv *texts,
                  char **notes);

/* ---- nvcc.c, hipcc.c: the drivers (argv without the program name) ---- */

int tc_nvcc_main(int argc, char **argv);
int tc_hipcc_main(int argc, char **argv);

#endif
