/*
 * nvcc.c — the nvcc-compatible driver: an nvcc command line becomes a plan
 * of clang runs.
 *
 * For a .cu file (or any file after -x cu):
 *   1. device side, once per requested architecture:
 *        clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_NN -S -> PTX,
 *      with -nocudainc -nocudalib (no NVIDIA header or libdevice is looked
 *      for), our include/ and cuda_runtime.h forced in as nvcc does, and our
 *      device library (lib/metalcuda/devlib.bc) linked as clang links
 *      libdevice (-mlink-builtin-bitcode: only what is used is kept);
 *      when clang refuses __shared__ variables of class type or kernel
 *      launches in device code, which nvcc accepts, those declarations and
 *      launches are rewritten (source_fix.c) and every compile of the
 *      source from then on, either side, reads the copies;
 *   2. the PTX images into one fatbin (fatbin_write.c);
 *   3. host side: clang -x cuda --cuda-host-only with the fatbin embedded
 *      (-fcuda-include-gpubinary): clang emits the module constructor that
 *      calls __cudaRegisterFatBinary/__cudaRegisterFunction/__cudaRegisterVar,
 *      the same registration ABI nvcc's host code uses.  It runs while
 *      steps 1-2 do, reading the fatbin through a FIFO (host_job), so the
 *      two sides' parsing overlaps on two cores.
 * .cpp/.c files are compiled as C++/C with our include/ on the path, .o/.a
 * files are passed to the link, and the link adds our libcudart with a run
 * path to it, so the program runs directly (./prog) on metalcuda.
 *
 * --cuda-path names a directory of our own (lib/metalcuda/cuda-root: its
 * include/cuda.h gives clang the CUDA version, which picks the CUDA >= 9.2
 * launch ABI), so clang never looks in /usr/local/cuda; tests/toolchain
 * proves no NVIDIA file is opened.
 *
 * Flags nvcc accepts that this driver cannot honour are refused with one
 * line naming the flag (exit 1), never ignored.  The option table below is
 * the list of what is accepted.
 */
#include "toolchain.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Separate compilation (-rdc): the symbol that holds a unit's device image
 * in its object (include/crt/mc_rdc_unit.h), and the ones clang's HIP-mode
 * host code with -fgpu-rdc refers to and the device link defines. */
#define RDC_UNIT_PREFIX "__mc_rdc_unit_"
#define HIP_FATBIN_PREFIX "__hip_fatbin_"
#define HIP_HANDLE_PREFIX "__hip_gpubin_handle_"

/* The CUDA version we present (cuabi.h's CUDA_VERSION: 13000). */
#define NV_MAJOR 13
#define NV_MINOR 0

enum lang { L_NONE, L_CU, L_CXX, L_C, L_LINK };
enum mode { M_LINK, M_COMPILE, M_PTX, M_FATBIN, M_PREPROCESS, M_DEPS, M_LIB, M_DLINK };

typedef struct input {
   const char *path;
   enum lang lang;
} input;

typedef struct nvopts {
   enum mode mode;
   const char *output;
   input *in;
   int nin, capin;
   unsigned arch[16];
   int narch;
   tc_argv common;     /* both sides: -I -D -U -include -isystem -std -w */
   tc_argv host;       /* host side only: -Xcompiler, -O, -g, dependency flags */
   tc_argv device;     /* device side only */
   tc_argv link;       /* the link: -L -l -Xlinker -shared, objects in order */
   const char *ccbin;
   const char *cudart;
   const char *opt;    /* -O level for the host side, "" if none */
   bool debug_device, fast_math, ftz, prec_div, prec_sqrt, fmad;
   bool rdc;           /* relocatable device code: -rdc=true, -dc */
   bool verbose, dryrun, keep, shared, hip, fwd_unknown, ptds;
   const char *keep_dir;
} nvopts;

static const char *progname = "nvcc";
static bool hip_mode;

static void die(const char *fmt, const char *arg)
{
   fprintf(stderr, "%s: ", progname);
   fprintf(stderr, fmt, arg);
   fputc('\n', stderr);
   exit(1);
}

static enum lang lang_of(const char *path, enum lang forced)
{
   const char *dot = strrchr(path, '.');
   const char *ext = dot && !strchr(dot, '/') ? dot + 1 : "";
   if (!strcmp(ext, "o") || !strcmp(ext, "a") || !strcmp(ext, "so") || !strcmp(ext, "obj") ||
       !strcmp(ext, "dylib") || strstr(path, ".so."))
      return L_LINK;
   if (forced != L_NONE)
      return forced;
   if (!strcmp(ext, "cu") || !strcmp(ext, "hip"))
      return L_CU;
   if (hip_mode && (!strcmp(ext, "cpp") || !strcmp(ext, "cc") || !strcmp(ext, "cxx")))
      return L_CU;   /* hipcc compiles C++ sources as HIP */
   if (!strcmp(ext, "c"))
      return L_C;
   if (!strcmp(ext, "cpp") || !strcmp(ext, "cc") || !strcmp(ext, "cxx") || !strcmp(ext, "C") ||
       !strcmp(ext, "c++") || !strcmp(ext, "cp"))
      return L_CXX;
   return L_NONE;
}

/* "sm_75", "compute_75", "sm_90a" -> 75, 90; 0 if not one. */
static unsigned parse_sm(const char *s)
{
   if (!strncmp(s, "sm_", 3))
      s += 3;
   else if (!strncmp(s, "compute_", 8))
      s += 8;
   else if (!strncmp(s, "lto_", 4))
      s += 4;
   else
      return 0;
   char *end;
   unsigned long v = strtoul(s, &end, 10);
   return end != s && v >= 30 && v < 1000 ? (unsigned)v : 0;
}

static void add_arch(nvopts *o, unsigned sm)
{
   for (int i = 0; i < o->narch; i++)
      if (o->arch[i] == sm)
         return;
   if (o->narch < 16)
      o->arch[o->narch++] = sm;
}

/* -arch VALUE: sm_NN, compute_NN, or native/all/all-major, which name no
 * NVIDIA GPU here: they build for sm_75, the compute capability metalcuda
 * reports by default. */
static void arch_value(nvopts *o, const char *v, const char *flag)
{
   if (!strcmp(v, "native") || !strcmp(v, "all") || !strcmp(v, "all-major")) {
      add_arch(o, 75);
      return;
   }
   unsigned sm = parse_sm(v);
   if (!sm)
      die("%s: not an architecture metalcuda's driver knows (use sm_NN or compute_NN)", flag);
   add_arch(o, sm);
}

/* -gencode arch=compute_NN,code=...: the PTX of compute_NN is what runs here
 * (code=sm_NN asks for SASS, which has no meaning without an NVIDIA GPU; the
 * PTX it would be built from is embedded instead). */
static void gencode_value(nvopts *o, const char *v)
{
   const char *a = strstr(v, "arch=");
   if (!a)
      die("-gencode %s: no arch=", v);
   char buf[64];
   size_t l = strcspn(a + 5, ",");
   if (l >= sizeof(buf))
      die("-gencode %s: bad arch=", v);
   memcpy(buf, a + 5, l);
   buf[l] = 0;
   arch_value(o, buf, "-gencode");
}

static void split_commas(tc_argv *dst, const char *v, const char *prefix)
{
   const char *p = v;
   for (;;) {
      size_t l = strcspn(p, ",");
      if (l)
         tc_argv_pushf(dst, "%s%.*s", prefix, (int)l, p);
      if (!p[l])
         break;
      p += l + 1;
   }
}

static bool truth(const char *v, const char *flag)
{
   if (!strcmp(v, "true"))
      return true;
   if (!strcmp(v, "false"))
      return false;
   die("%s: expects true or false", flag);
   return false;
}

static void print_version(void)
{
   printf("nvcc: NVIDIA (R) Cuda compiler driver\n"
          "metalcuda: CUDA-compatible driver over clang (no NVIDIA toolkit)\n"
          "Cuda compilation tools, release %d.%d, V%d.%d.0\n"
          "Build metalcuda\n",
          NV_MAJOR, NV_MINOR, NV_MAJOR, NV_MINOR);
}

/* An option and its value: "-o x", "-o=x", "--output-file x", "-ox" (only
 * for the single-letter ones that nvcc also takes glued). */
typedef struct cursor {
   int argc, i;
   char **argv;
} cursor;

/* Whether a names option `name` (or its long form); *val gets the value. */
static bool opt_val(cursor *c, const char *a, const char *name, const char *lname, bool glued,
                    const char **val)
{
   const char *names[2] = { name, lname };
   for (int k = 0; k < 2; k++) {
      const char *n = names[k];
      if (!n)
         continue;
      size_t l = strlen(n);
      if (strncmp(a, n, l) != 0)
         continue;
      if (a[l] == '=') {
         *val = a + l + 1;
         return true;
      }
      if (a[l] == 0) {
         if (c->i + 1 >= c->argc)
            die("%s: missing value", a);
         *val = c->argv[++c->i];
         return true;
      }
      if (glued && k == 0) {
         *val = a + l;
         return true;
      }
   }
   return false;
}

static bool is(const char *a, const char *s1, const char *s2)
{
   return !strcmp(a, s1) || (s2 && !strcmp(a, s2));
}

static void parse(nvopts *o, int argc, char **argv)
{
   cursor c = { argc, 0, argv };
   enum lang forced = L_NONE;
   const char *v;
   for (; c.i < argc; c.i++) {
      const char *a = argv[c.i];
      if (a[0] != '-' || !a[1]) {
         enum lang l = lang_of(a, forced);
         if (l == L_NONE)
            die("%s: unknown input file type (nvcc takes .cu, .c, .cpp/.cc/.cxx, .o, .a, .so)", a);
         if (o->nin == o->capin) {
            o->capin = o->capin ? o->capin * 2 : 8;
            o->in = realloc(o->in, sizeof(input) * (size_t)o->capin);
            if (!o->in)
               die("%s", "out of memory");
         }
         o->in[o->nin++] = (input){ a, l };
         continue;
      }
      /* modes */
      if (is(a, "-c", "--compile")) o->mode = M_COMPILE;
      else if (is(a, "-ptx", "--ptx")) o->mode = M_PTX;
      else if (is(a, "-fatbin", "--fatbin")) o->mode = M_FATBIN;
      else if (is(a, "-E", "--preprocess")) o->mode = M_PREPROCESS;
      else if (is(a, "-M", "--generate-dependencies")) { o->mode = M_DEPS; tc_argv_push(&o->host, "-M"); }
      else if (is(a, "-MM", "--generate-nonsystem-dependencies")) { o->mode = M_DEPS; tc_argv_push(&o->host, "-MM"); }
      else if (is(a, "-lib", "--lib")) o->mode = M_LIB;
      else if (is(a, "-link", "--link")) o->mode = M_LINK;
      else if (is(a, "-cubin", "--cubin"))
         die("%s: no SASS can be made without NVIDIA's toolkit; metalcuda runs PTX (use --ptx or --fatbin)", a);
      /* separate compilation: -dc is -c -rdc=true, -dw is -c -rdc=false */
      else if (is(a, "-dc", "--device-c")) { o->mode = M_COMPILE; o->rdc = true; }
      else if (is(a, "-dw", "--device-w")) { o->mode = M_COMPILE; o->rdc = false; }
      else if (is(a, "-dlink", "--device-link")) o->mode = M_DLINK;
      else if (opt_val(&c, a, "-rdc", "--relocatable-device-code", false, &v)) o->rdc = truth(v, a);
      /* device link-time optimization: the units' PTX is linked at load
       * (src/compiler/ptx/link.c) as it is without -dlto; what nvcc's LTO
       * changes is the speed of the code, never its results (as code=lto_NN) */
      else if (is(a, "-dlto", "--dlink-time-opt")) { }
      /* output and inputs */
      else if (opt_val(&c, a, "-o", "--output-file", true, &v)) o->output = v;
      else if (opt_val(&c, a, "-x", "--x", true, &v)) {
         if (!strcmp(v, "cu") || !strcmp(v, "cuda") || !strcmp(v, "hip")) forced = L_CU;
         else if (!strcmp(v, "c++") || !strcmp(v, "cpp")) forced = L_CXX;
         else if (!strcmp(v, "c")) forced = L_C;
         else if (!strcmp(v, "none")) forced = L_NONE;
         else die("-x %s: unknown language (cu, c++, c)", v);
      }
      /* preprocessor, both sides */
      else if (opt_val(&c, a, "-I", "--include-path", true, &v)) tc_argv_pushf(&o->common, "-I%s", v);
      else if (opt_val(&c, a, "-isystem", "--system-include", false, &v)) { tc_argv_push(&o->common, "-isystem"); tc_argv_push(&o->common, v); }
      else if (opt_val(&c, a, "-D", "--define-macro", true, &v)) tc_argv_pushf(&o->common, "-D%s", v);
      else if (opt_val(&c, a, "-U", "--undefine-macro", true, &v)) tc_argv_pushf(&o->common, "-U%s", v);
      else if (opt_val(&c, a, "-include", "--pre-include", false, &v)) { tc_argv_push(&o->common, "-include"); tc_argv_push(&o->common, v); }
      else if (opt_val(&c, a, "-std", "--std", false, &v)) tc_argv_pushf(&o->common, "-std=%s", v);
      else if (is(a, "-w", "--disable-warnings")) tc_argv_push(&o->common, "-w");
      else if (!strcmp(a, "-Werror") || !strncmp(a, "-Werror=", 8) || !strncmp(a, "--Werror", 8)) {
         /* nvcc's -Werror kinds (cross-execution-space-call, ...) name nvcc
          * diagnostics; clang's warnings are not promoted for them. */
      }
      else if (!strncmp(a, "-Wno-deprecated-gpu-targets", 27) || !strcmp(a, "-Wno-deprecated-declarations") ||
               !strcmp(a, "--Wno-deprecated-gpu-targets")) {
         if (!strcmp(a, "-Wno-deprecated-declarations")) tc_argv_push(&o->common, a);
      }
      /* optimisation and debugging */
      else if (!strncmp(a, "-O", 2) && strlen(a) <= 3 && (!a[2] || strchr("0123s", a[2]))) o->opt = a[2] ? a + 2 : "2";
      else if (opt_val(&c, a, "--optimize", NULL, false, &v)) o->opt = v;
      else if (is(a, "-g", "--debug")) tc_argv_push(&o->host, "-g");
      else if (is(a, "-G", "--device-debug")) o->debug_device = true;
      else if (is(a, "-lineinfo", "--generate-line-info")) { /* line tables only feed profilers, which cannot attach */ }
      else if (opt_val(&c, a, "-dopt", "--dopt", false, &v)) { if (!strcmp(v, "off")) o->debug_device = true; }
      /* device code generation */
      else if (opt_val(&c, a, "-arch", "--gpu-architecture", false, &v)) arch_value(o, v, a);
      else if (opt_val(&c, a, "-gencode", "--generate-code", false, &v)) gencode_value(o, v);
      else if (opt_val(&c, a, "-code", "--gpu-code", false, &v)) {
         /* -code names SASS or PTX targets of the -arch given; the PTX of
          * -arch is what runs. compute_NN values add their PTX. */
         char *dup = strdup(v), *save = NULL;
         for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
            if (!strncmp(t, "compute_", 8)) arch_value(o, t, "-code");
         free(dup);
      }
      else if (is(a, "-use_fast_math", "--use_fast_math")) o->fast_math = true;
      else if (opt_val(&c, a, "-ftz", "--ftz", false, &v)) o->ftz = truth(v, a);
      else if (opt_val(&c, a, "-prec-div", "--prec-div", false, &v)) o->prec_div = truth(v, a);
      else if (opt_val(&c, a, "-prec-sqrt", "--prec-sqrt", false, &v)) o->prec_sqrt = truth(v, a);
      else if (opt_val(&c, a, "-fmad", "--fmad", false, &v)) o->fmad = truth(v, a);
      else if (is(a, "--expt-extended-lambda", "-expt-extended-lambda") || is(a, "--extended-lambda", "-extended-lambda") ||
               is(a, "--expt-relaxed-constexpr", "-expt-relaxed-constexpr")) { /* clang's defaults */ }
      else if (opt_val(&c, a, "-maxrregcount", "--maxrregcount", false, &v)) { /* register budget of ptxas: no registers here */ }
      else if (opt_val(&c, a, "-t", "--threads", false, &v)) { /* parallel compilation: the result is the same */ }
      else if (opt_val(&c, a, "--default-stream", "-default-stream", false, &v)) {
         if (!strcmp(v, "per-thread")) { tc_argv_push(&o->common, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"); o->ptds = true; }
         else if (strcmp(v, "legacy") && strcmp(v, "null")) die("--default-stream %s: expects legacy, null or per-thread", v);
      }
      /* host compiler and linker */
      else if (opt_val(&c, a, "-Xcompiler", "--compiler-options", false, &v)) split_commas(&o->host, v, "");
      else if (opt_val(&c, a, "-Xlinker", "--linker-options", false, &v)) split_commas(&o->link, v, "-Wl,");
      else if (opt_val(&c, a, "-ccbin", "--compiler-bindir", false, &v)) o->ccbin = v;
      else if (opt_val(&c, a, "-cudart", "--cudart", false, &v)) {
         if (strcmp(v, "shared") && strcmp(v, "static") && strcmp(v, "none"))
            die("-cudart %s: expects shared, static or none", v);
         o->cudart = v;
      }
      else if (opt_val(&c, a, "-L", "--library-path", true, &v)) tc_argv_pushf(&o->link, "-L%s", v);
      else if (opt_val(&c, a, "-l", "--library", true, &v)) {
         /* libcudart is ours and added by -cudart; the static one is the
          * shared one here (metalcuda has no static runtime) */
         if (strcmp(v, "cudart") && strcmp(v, "cudart_static") && strcmp(v, "cudadevrt"))
            tc_argv_pushf(&o->link, "-l%s", v);
      }
      else if (is(a, "-shared", "--shared")) o->shared = true;
      else if (is(a, "-m64", "--machine=64")) {}
      else if (!strcmp(a, "-m32") || !strcmp(a, "--machine=32")) die("%s: metalcuda is 64-bit only", a);
      else if (is(a, "-Xptxas", "--ptxas-options") || is(a, "-Xnvlink", "--nvlink-options") ||
               is(a, "-Xfatbin", "--fatbin-options"))
         die("%s: there is no ptxas, nvlink or fatbinary here (metalcuda runs PTX); drop the flag", a);
      /* dependency files (host side, as nvcc) */
      else if (is(a, "-MD", "--generate-dependencies-with-compile")) tc_argv_push(&o->host, "-MD");
      else if (is(a, "-MMD", "--generate-nonsystem-dependencies-with-compile")) tc_argv_push(&o->host, "-MMD");
      else if (opt_val(&c, a, "-MF", "--dependency-output", false, &v)) { tc_argv_push(&o->host, "-MF"); tc_argv_push(&o->host, v); }
      else if (opt_val(&c, a, "-MT", "--dependency-target-name", false, &v)) { tc_argv_push(&o->host, "-MT"); tc_argv_push(&o->host, v); }
      else if (is(a, "-MP", "--generate-dependency-targets")) tc_argv_push(&o->host, "-MP");
      /* the driver itself */
      else if (is(a, "-V", "--version") || is(a, "-version", NULL)) { print_version(); exit(0); }
      else if (is(a, "-v", "--verbose")) o->verbose = true;
      else if (is(a, "-dryrun", "--dryrun")) o->dryrun = true;
      else if (is(a, "-keep", "--keep")) o->keep = true;
      else if (opt_val(&c, a, "-keep-dir", "--keep-dir", false, &v)) o->keep_dir = v;
      else if (is(a, "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler")) o->fwd_unknown = true;
      else if (is(a, "-h", "--help")) {
         printf("usage: %s [options] files...   (metalcuda's nvcc-compatible driver; see README.md)\n", progname);
         exit(0);
      }
      else if (o->fwd_unknown) tc_argv_push(&o->host, a);
      else die("%s: unknown or unsupported option", a);
   }
}

/* ---- the plan ---- */

typedef struct ctx {
   nvopts *o;
   char root[PATH_MAX];
   char tmp[PATH_MAX];
   const char *clang, *clangxx;
   int ntmp;
   /* the files of the source being compiled that source_fix.c rewrote
    * (__shared__ variables of class type), as clang's -remap-file takes
    * them: "FILE;COPY".  Every later compile of the source, either side,
    * reads the copies. */
   tc_argv remaps;
   int nretry;
   /* the host compile running beside the device side (host_job), its
    * command line and that line's length before any -remap-file */
   struct host_job *host;
   tc_argv *host_argv;
   int host_argc;
} ctx;

static const char *base_noext(const char *path, char *buf, size_t len)
{
   const char *b = strrchr(path, '/');
   b = b ? b + 1 : path;
   snprintf(buf, len, "%s", b);
   char *dot = strrchr(buf, '.');
   if (dot && dot != buf)
      *dot = 0;
   return buf;
}

static char *tmpfile_name(ctx *x, const char *stem, const char *ext)
{
   size_t n = strlen(x->tmp) + strlen(stem) + strlen(ext) + 16;
   char *p = malloc(n);
   if (!p)
      die("%s", "out of memory");
   snprintf(p, n, "%s/%d-%s%s", x->tmp, x->ntmp++, stem, ext);
   return p;
}

static void push_all(tc_argv *dst, const tc_argv *src)
{
   for (int i = 0; i < src->n; i++)
      tc_argv_push(dst, src->v[i]);
}

/* The options every CUDA compile of ours carries, either side.
 *
 * The device side is clang's CUDA mode.  The host side is clang's HIP mode,
 * made to look like CUDA: clang honours __managed__ only for HIP (in CUDA
 * mode it ignores the attribute, and host code would read a private copy of
 * the variable); in HIP mode the host reaches a managed variable through a
 * pointer the runtime sets at registration.  Its registration and launch
 * calls are HIP's names for nvcc's (__hipRegisterFunction, hipLaunchKernel,
 * ...), which libcudart exports too.  The aux target is NVPTX, as in CUDA
 * mode, so device code parses the same on the host side; HIP's own macros
 * are removed and __CUDA__ defined, so headers and programs see CUDA. */
/* CCCL (Thrust, CUB, libcu++), where NVIDIA's toolkit keeps it beside its
 * headers (include/cccl in CUDA 13): the Makefile copies a CCCL's include
 * directory to lib/metalcuda/cccl when it has one (CCCL_INCLUDE), and make
 * install carries it along.  Searched after our headers and before the
 * system's, so that it, not an older Thrust in /usr/include, is found. */
static void push_cccl(ctx *x, tc_argv *a)
{
   char probe[PATH_MAX + 64];
   snprintf(probe, sizeof(probe), "%s/lib/metalcuda/cccl/cuda/std/version", x->root);
   if (access(probe, R_OK) == 0)
      tc_argv_pushf(a, "-isystem%s/lib/metalcuda/cccl", x->root);
}

/* Headers the build generates from an installed CUDA toolkit's data,
 * beside ours: curand_mtgp32dc_p_11213.h (MTGP32's parameter sets, the
 * Makefile's tools/gen_mtgp_table.py), when this build has them. */
static void push_generated(ctx *x, tc_argv *a)
{
   char probe[PATH_MAX + 64];
   snprintf(probe, sizeof(probe), "%s/lib/metalcuda/curand", x->root);
   if (access(probe, R_OK) == 0)
      tc_argv_pushf(a, "-isystem%s", probe);
}

static void cuda_common(ctx *x, tc_argv *a, bool host)
{
   nvopts *o = x->o;
   tc_argv_push(a, "-x");
   if (host) {
      static const char *const hip_macros[] = { "__HIP__", "__HIPCC__", "__HIP_MEMORY_SCOPE_SINGLETHREAD",
                                                "__HIP_MEMORY_SCOPE_WAVEFRONT", "__HIP_MEMORY_SCOPE_WORKGROUP",
                                                "__HIP_MEMORY_SCOPE_AGENT", "__HIP_MEMORY_SCOPE_SYSTEM" };
      tc_argv_push(a, "hip");
      tc_argv_push(a, "-nogpuinc");
      tc_argv_push(a, "-nogpulib");
      tc_argv_push(a, "--offload-arch=gfx900");   /* any: nothing is compiled for it */
      tc_argv_push(a, "-Xclang");
      tc_argv_push(a, "-aux-triple");
      tc_argv_push(a, "-Xclang");
      tc_argv_push(a, "nvptx64-nvidia-cuda");
      for (size_t i = 0; i < sizeof(hip_macros) / sizeof(hip_macros[0]); i++)
         tc_argv_pushf(a, "-U%s", hip_macros[i]);
      tc_argv_push(a, "-D__CUDA__=1");
   } else {
      tc_argv_push(a, "cuda");
      tc_argv_push(a, "-nocudainc");
      tc_argv_push(a, "-nocudalib");
      /* clang reads the CUDA version (which picks the launch and
       * registration ABI of CUDA >= 10.1) from <cuda-path>/include/cuda.h;
       * the Makefile writes that file from cuabi.h's CUDA_VERSION */
      tc_argv_pushf(a, "--cuda-path=%s/lib/metalcuda/cuda-root", x->root);
      tc_argv_push(a, "-Wno-unknown-cuda-version");
   }
   tc_argv_pushf(a, "-isystem%s/include", x->root);
   push_generated(x, a);
   push_cccl(x, a);
   tc_argv_pushf(a, "-D__NVCC__=1");
   tc_argv_pushf(a, "-D__CUDACC_VER_MAJOR__=%d", NV_MAJOR);
   tc_argv_pushf(a, "-D__CUDACC_VER_MINOR__=%d", NV_MINOR);
   tc_argv_pushf(a, "-D__CUDACC_VER_BUILD__=0");
   if (o->rdc)   /* as nvcc: CUDA's headers and CCCL test it for device-side launches */
      tc_argv_push(a, "-D__CUDACC_RDC__=1");
   if (o->fast_math)
      tc_argv_push(a, "-D__USE_FAST_MATH__=1");
   /* the launch stubs call cudaLaunchKernel_ptsz, as nvcc's do; clang's
    * driver forwards -fgpu-default-stream for HIP only (for CUDA it is
    * "unused"), so it goes to the front end directly */
   if (o->ptds) {
      tc_argv_push(a, "-Xclang");
      tc_argv_push(a, "-fgpu-default-stream=per-thread");
   }
   tc_argv_push(a, "-include");
   tc_argv_push(a, o->hip ? "hip/hip_runtime.h" : "cuda_runtime.h");
   push_all(a, &o->common);
}

static int write_file(const char *path, const void *p, size_t n);

/* A translation unit's id (clang's -cuid): from its source, its output and
 * the working directory, so that two objects of one program never share
 * one (HIP mode defines __hip_cuid_<id> in each; with -rdc the device link
 * names each unit's image by it, and clang names a unit's static device
 * variables and kernels after it on both sides). */
static unsigned long long unit_id(const char *src, const char *out)
{
   char cwd[PATH_MAX];
   if (!getcwd(cwd, sizeof(cwd)))
      cwd[0] = 0;
   const char *parts[3] = { cwd, src, out ? out : "" };
   uint64_t h = 1469598103934665603ull;   /* FNV-1a */
   for (int i = 0; i < 3; i++)
      for (const char *p = parts[i]; ; p++) {
         h = (h ^ (unsigned char)*p) * 1099511628211ull;
         if (!*p)
            break;
      }
   return (unsigned long long)h;
}

/* The options that make clang read source_fix.c's rewritten copies: the
 * storage template, and each copy in place of its file. */
static void push_remaps(ctx *x, tc_argv *a)
{
   if (!x->remaps.n)
      return;
   tc_argv_push(a, "-include");
   tc_argv_push(a, "crt/mc_shared_storage.h");
   for (int i = 0; i < x->remaps.n; i++) {
      tc_argv_push(a, "-Xclang");
      tc_argv_push(a, "-remap-file");
      tc_argv_push(a, "-Xclang");
      tc_argv_push(a, x->remaps.v[i]);
   }
}

static void host_job_restart(ctx *x);

/* After a device compile failed with diagnostics diag (not yet printed):
 * whether its only obstacle is clang's refusal of __shared__ variables of
 * class type or of launches in device code, which source_fix.c rewrote
 * (then diag is dropped: the compile runs again, with the copies, and
 * reports whatever else there is); else diag is printed as it came, with
 * the driver's notes after it. */
static bool source_retry(ctx *x, const char *diag)
{
   tc_argv files = { 0 }, texts = { 0 };
   char *notes = NULL;
   int r = strstr(diag, "__shared__") || strstr(diag, "reference to __global__ function")
              ? tc_source_fix(diag, progname, &x->remaps, &files, &texts, &notes)
              : 0;
   for (int i = 0; r == 1 && i < files.n; i++) {
      char stem[256];
      char *copy = tmpfile_name(x, base_noext(files.v[i], stem, sizeof(stem)), ".shared.cu");
      if (write_file(copy, texts.v[i], strlen(texts.v[i])) != 0) {
         r = -1;
      } else {
         if (x->o->verbose)
            fprintf(stderr, "#$ (%s: __shared__ variables of class type in %s rewritten as raw storage: %s)\n",
                    progname, files.v[i], copy);
         /* a file rewritten again (its copy rewritten) replaces its entry */
         size_t fl = strlen(files.v[i]);
         int k = 0;
         while (k < x->remaps.n && !(strncmp(x->remaps.v[k], files.v[i], fl) == 0 && x->remaps.v[k][fl] == ';'))
            k++;
         tc_argv_pushf(&x->remaps, "%s;%s", files.v[i], copy);
         if (k < x->remaps.n - 1) {
            free(x->remaps.v[k]);
            x->remaps.v[k] = x->remaps.v[--x->remaps.n];
            x->remaps.v[x->remaps.n] = NULL;
         }
      }
      free(copy);
   }
   tc_argv_free(&files);
   tc_argv_free(&texts);
   if (r == 1 && x->host)
      host_job_restart(x);
   if (r != 1) {
      fputs(diag, stderr);
      if (notes)
         fputs(notes, stderr);
   }
   free(notes);
   return r == 1;
}

static int device_compile(ctx *x, const char *src, unsigned sm, const char *out, unsigned long long cuid)
{
   nvopts *o = x->o;
   tc_argv a = { 0 };
   tc_argv_push(&a, x->clangxx);
   cuda_common(x, &a, false);
   push_remaps(x, &a);
   tc_argv_push(&a, "--cuda-device-only");
   tc_argv_pushf(&a, "--cuda-gpu-arch=sm_%u", sm);
   if (o->rdc) {
      /* relocatable: external functions and variables stay .extern in the
       * PTX, for the device link to resolve */
      tc_argv_push(&a, "-fgpu-rdc");
      /* the host side's id (compile_one), so both sides give a static
       * variable the host uses the same name: the driver's option here
       * (with -Xclang, the driver would add its own after it) */
      tc_argv_pushf(&a, "-cuid=%016llx", cuid);
   }
   tc_argv_push(&a, o->debug_device ? "-O0" : "-O3");
   bool ftz = o->ftz || o->fast_math;
   if (ftz)
      tc_argv_push(&a, "-fgpu-flush-denormals-to-zero");
   if (o->fast_math) {
      tc_argv_push(&a, "-fgpu-approx-transcendentals");
   }
   if (o->fast_math || !o->prec_div) {
      tc_argv_push(&a, "-mllvm");
      tc_argv_push(&a, o->fast_math ? "-nvptx-prec-divf32=0" : "-nvptx-prec-divf32=1");
   }
   if (o->fast_math || !o->prec_sqrt) {
      tc_argv_push(&a, "-mllvm");
      tc_argv_push(&a, "-nvptx-prec-sqrtf32=0");
   }
   if (!o->fmad)
      tc_argv_push(&a, "-ffp-contract=off");
   /* the device heap's malloc and free are calls, as nvcc keeps them: LLVM
    * would fold `malloc(n) == NULL` to false when the block is otherwise
    * unused (and drop the allocation), where CUDA returns NULL for a
    * request larger than the heap */
   tc_argv_push(&a, "-fno-builtin-malloc");
   tc_argv_push(&a, "-fno-builtin-free");
   /* recursion stays recursion, as nvcc keeps it: LLVM's tail-recursion
    * elimination (off with the disable-tail-calls attribute this sets)
    * turns `return f(n - 1) + n` into a loop, so a launch that overflows
    * the stack when nvcc built it would run to its end instead */
   tc_argv_push(&a, "-fno-optimize-sibling-calls");
   char devlib[PATH_MAX + 32];
   snprintf(devlib, sizeof(devlib), "%s/lib/metalcuda/devlib.bc", x->root);
   if (access(devlib, R_OK) != 0)
      die("%s: the device library is missing (make builds it)", devlib);
   tc_argv_push(&a, "-Xclang");
   tc_argv_push(&a, "-mlink-builtin-bitcode");
   tc_argv_push(&a, "-Xclang");
   tc_argv_push(&a, devlib);
   push_all(&a, &o->device);
   /* the diagnostics are read before they are shown (source_retry), in
    * colour where they would have been */
   char *errs = o->dryrun ? NULL : tmpfile_name(x, "clang", ".err");
   if (errs && isatty(STDERR_FILENO))
      tc_argv_push(&a, "-fcolor-diagnostics");
   tc_argv_push(&a, "-S");
   tc_argv_push(&a, "-o");
   tc_argv_push(&a, out);
   tc_argv_push(&a, src);
   int rc = tc_run_to(&a, o->verbose, o->dryrun, NULL, errs);
   tc_argv_free(&a);
   if (errs) {
      char *diag = file_read(errs, NULL);
      bool retry = false;
      /* a compile stopped at clang's error limit reports the rest
       * of such declarations in the next: a few rounds at most */
      if (rc && diag && x->nretry < 8) {
         retry = source_retry(x, diag);
         x->nretry += retry;
      } else if (diag) {
         fputs(diag, stderr);
      } else if (rc) {
         fprintf(stderr, "%s: cannot read clang's diagnostics (%s)\n", progname, errs);
      }
      free(diag);
      free(errs);
      if (retry)
         return device_compile(x, src, sm, out, cuid);
   }
   if (!rc && o->rdc && !o->dryrun) {
      char *ptx = file_read(out, NULL);
      if (!ptx)
         die("cannot read %s", out);
      char *fixed = tc_ptx_fix_rdc(ptx);
      if (fixed)
         rc = write_file(out, fixed, strlen(fixed));
      free(fixed);
      free(ptx);
   }
   return rc;
}

static int write_file(const char *path, const void *p, size_t n)
{
   FILE *f = fopen(path, "wb");
   if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s: %s\n", progname, path, strerror(errno));
      return 1;
   }
   return 0;
}

/* Device side for every architecture, then the fatbin's bytes in *fb
 * (NULL under -dryrun). */
static int build_fatbin(ctx *x, const char *src, unsigned long long cuid, uint8_t **fb, size_t *len)
{
   nvopts *o = x->o;
   char stem[256];
   base_noext(src, stem, sizeof(stem));
   tc_image img[16];
   char *ptx_text[16] = { 0 };
   int rc = 0;
   *fb = NULL;
   for (int i = 0; i < o->narch && !rc; i++) {
      char *ptx = tmpfile_name(x, stem, ".ptx");
      rc = device_compile(x, src, o->arch[i], ptx, cuid);
      if (!rc && !o->dryrun) {
         ptx_text[i] = file_read(ptx, NULL);
         if (!ptx_text[i]) {
            fprintf(stderr, "%s: cannot read %s\n", progname, ptx);
            rc = 1;
         }
         img[i] = (tc_image){ ptx_text[i], o->arch[i] };
      }
      free(ptx);
   }
   if (!rc && !o->dryrun) {
      *fb = tc_fatbin_build(img, (size_t)o->narch, len);
      rc = *fb ? 0 : 1;
   }
   for (int i = 0; i < o->narch; i++)
      free(ptx_text[i]);
   return rc;
}

static int make_fatbin(ctx *x, const char *src, const char *fatbin_out, unsigned long long cuid)
{
   uint8_t *fb;
   size_t len;
   int rc = build_fatbin(x, src, cuid, &fb, &len);
   if (!rc && fb)
      rc = write_file(fatbin_out, fb, len);
   free(fb);
   return rc;
}

/*
 * The host side of a .cu file while its device side compiles.  Clang reads
 * the fatbin (-fcuda-include-gpubinary) only when it emits the module
 * constructor, after parsing the whole unit, so the fatbin path is a FIFO
 * and the host compile starts first: parsing the host side (most of a
 * Thrust program's time) overlaps the device compile, on a second core.
 * Its diagnostics go to a file shown after the device side's, the order
 * of a serial build; if the device side fails, the host compile is
 * stopped and its output dropped, as a serial build never starts it.
 */
typedef struct host_job {
   pid_t pid;
   char *fifo, *errlog;
   bool exited;   /* reaped while delivering the fatbin */
   int status;
} host_job;

/* Starts the host compile on a FIFO: -1 if no FIFO can be made here
 * (nothing started, host_argv unchanged), else tc_spawn's status. */
static int host_job_start(ctx *x, const char *stem, tc_argv *host_argv, host_job *j)
{
   j->fifo = tmpfile_name(x, stem, ".fatbin");
   j->errlog = tmpfile_name(x, stem, ".host.log");
   j->exited = false;
   if (mkfifo(j->fifo, 0600) != 0)
      return -1;
   tc_argv_push(host_argv, "-Xclang");
   tc_argv_push(host_argv, "-fcuda-include-gpubinary");
   tc_argv_push(host_argv, "-Xclang");
   tc_argv_push(host_argv, j->fifo);
   return tc_spawn(host_argv, x->o->verbose, false, NULL, j->errlog, &j->pid);
}

/* Whether the host compile has ended (reaping it). */
static bool host_job_done(host_job *j)
{
   if (j->exited)
      return true;
   int st;
   pid_t r = waitpid(j->pid, &st, WNOHANG);
   if (r != j->pid)
      return false;
   j->exited = true;
   j->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
   return true;
}

/* Writes the fatbin into the FIFO once the host compile opens it; nothing
 * if that compile ends first (a host-side error, reported by the caller). */
static void host_job_feed(host_job *j, const uint8_t *fb, size_t len)
{
   int fd;
   for (;;) {
      fd = open(j->fifo, O_WRONLY | O_NONBLOCK);
      if (fd >= 0)
         break;
      if (errno != ENXIO && errno != EINTR)
         return;
      if (host_job_done(j))
         return;
      struct timespec nap = { 0, 2 * 1000 * 1000 };
      nanosleep(&nap, NULL);
   }
   fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
   /* a reader that dies mid-way must not kill the driver */
   struct sigaction ign = { .sa_handler = SIG_IGN }, old;
   sigemptyset(&ign.sa_mask);
   sigaction(SIGPIPE, &ign, &old);
   for (size_t off = 0; off < len;) {
      ssize_t n = write(fd, fb + off, len - off);
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0)
         break;
      off += (size_t)n;
   }
   close(fd);
   sigaction(SIGPIPE, &old, NULL);
}

/* Waits for the host compile and shows its diagnostics; returns its status. */
static int host_job_finish(host_job *j, const char *clangxx)
{
   int rc = j->exited ? j->status : tc_wait(clangxx, j->pid);
   size_t n;
   char *log = file_read(j->errlog, &n);
   if (log) {
      fwrite(log, 1, n, stderr);
      free(log);
   }
   return rc;
}

static void host_job_cancel(host_job *j)
{
   if (!j->exited) {
      kill(j->pid, SIGTERM);
      int st;
      while (waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
         ;
   }
}

/* The host compile, started on the files as they were, started again on
 * source_fix.c's copies (the same FIFO), so that the two sides still
 * overlap while the device side compiles again. */
static void host_job_restart(ctx *x)
{
   host_job *j = x->host;
   tc_argv *a = x->host_argv;
   host_job_cancel(j);
   while (a->n > x->host_argc) {
      free(a->v[--a->n]);
      a->v[a->n] = NULL;
   }
   push_remaps(x, a);
   j->exited = false;
   if (tc_spawn(a, x->o->verbose, false, NULL, j->errlog, &j->pid) != 0) {
      j->exited = true;
      j->status = 127;
   }
}

static void host_job_free(host_job *j)
{
   unlink(j->fifo);
   unlink(j->errlog);
   free(j->fifo);
   free(j->errlog);
}

static void host_flags(ctx *x, tc_argv *a)
{
   nvopts *o = x->o;
   if (o->opt && *o->opt)
      tc_argv_pushf(a, "-O%s", o->opt);
   push_all(a, &o->host);
}

/* Whether a .cu file's host side may compile while its device side does
 * (host_job): not for separate compilation (the host side includes the
 * fatbin by name, include/crt/mc_rdc_unit.h), -keep (which keeps the
 * fatbin as a file), -dryrun, or METALCUDA_NVCC_JOBS=1. */
static bool overlap_sides(const nvopts *o)
{
   const char *jobs = getenv("METALCUDA_NVCC_JOBS");
   return !o->rdc && !o->keep && !o->keep_dir && !o->dryrun && !(jobs && strcmp(jobs, "1") == 0);
}

/* A .cu file's host side, its device side overlapped (host_job): the
 * status, or -1 if this system cannot (no FIFO), with nothing done. */
static int compile_cu_overlapped(ctx *x, const input *in, tc_argv *host_argv, unsigned long long cuid)
{
   char stem[256];
   base_noext(in->path, stem, sizeof(stem));
   host_job j;
   int started = host_job_start(x, stem, host_argv, &j);
   if (started) {
      host_job_free(&j);
      return started;
   }
   uint8_t *fb;
   size_t len;
   /* a rewrite of __shared__ declarations by the device side restarts the
    * host compile on the copies (source_retry, host_job_restart) */
   x->host = &j;
   x->host_argv = host_argv;
   x->host_argc = host_argv->n;
   int rc = build_fatbin(x, in->path, cuid, &fb, &len);
   x->host = NULL;
   if (rc) {
      host_job_cancel(&j);
   } else {
      host_job_feed(&j, fb, len);
      rc = host_job_finish(&j, x->clangxx);
   }
   free(fb);
   host_job_free(&j);
   return rc;
}

/* One source to an object (or, for -E/-M, to what those print). */
static int compile_one(ctx *x, const input *in, const char *out)
{
   nvopts *o = x->o;
   tc_argv a = { 0 };
   int rc = 0;
   char *fatbin = NULL;
   bool device = in->lang == L_CU && o->mode != M_PREPROCESS && o->mode != M_DEPS;
   bool overlap = device && overlap_sides(o);
   unsigned long long cuid = 0;
   if (in->lang == L_CU) {
      cuid = unit_id(in->path, out);
      if (device && !overlap) {
         char stem[256];
         fatbin = tmpfile_name(x, base_noext(in->path, stem, sizeof(stem)), ".fatbin");
         if (o->rdc && strpbrk(fatbin, "\"\\\n"))
            die("%s: a temporary path with a quote, backslash or newline cannot be embedded (set TMPDIR)", fatbin);
         rc = make_fatbin(x, in->path, fatbin, cuid);
         if (rc)
            goto done;
      }
      tc_argv_push(&a, x->clangxx);
      cuda_common(x, &a, true);
      tc_argv_push(&a, "--cuda-host-only");
      /* HIP mode defines __hip_cuid_<cuid> in every object: one id per
       * translation unit, or two objects of one program collide at the
       * link */
      tc_argv_push(&a, "-Xclang");   /* the driver drops -cuid= with --cuda-host-only */
      tc_argv_pushf(&a, "-cuid=%016llx", cuid);
      if (fatbin && o->rdc) {
         /* separate compilation: the registration refers to the image the
          * device link makes (__hip_fatbin_<id>, __hip_gpubin_handle_<id>);
          * the unit's own fatbin rides in the object for that link
          * (include/crt/mc_rdc_unit.h) */
         tc_argv_push(&a, "-fgpu-rdc");
         tc_argv_pushf(&a, "-D__MC_RDC_FATBIN=\"%s\"", fatbin);
         tc_argv_pushf(&a, "-D__MC_RDC_UNIT=" RDC_UNIT_PREFIX "%016llx", cuid);
      } else if (fatbin) {
         tc_argv_push(&a, "-Xclang");
         tc_argv_push(&a, "-fcuda-include-gpubinary");
         tc_argv_push(&a, "-Xclang");
         tc_argv_push(&a, fatbin);
      }
      push_remaps(x, &a);
   } else {
      const char *cc = o->ccbin ? o->ccbin : in->lang == L_C ? x->clang : x->clangxx;
      tc_argv_push(&a, cc);
      tc_argv_pushf(&a, "-isystem%s/include", x->root);
      push_generated(x, &a);
      push_all(&a, &o->common);
      if (in->lang == L_CXX) {
         tc_argv_push(&a, "-x");
         tc_argv_push(&a, "c++");
      }
   }
   host_flags(x, &a);
   if (o->mode == M_PREPROCESS)
      tc_argv_push(&a, "-E");
   else if (o->mode != M_DEPS)
      tc_argv_push(&a, "-c");
   if (out) {
      tc_argv_push(&a, "-o");
      tc_argv_push(&a, out);
   }
   tc_argv_push(&a, in->path);
   if (overlap) {
      rc = compile_cu_overlapped(x, in, &a, cuid);
      if (rc >= 0)
         goto done;
      /* no FIFO here: the serial way */
      char stem[256];
      fatbin = tmpfile_name(x, base_noext(in->path, stem, sizeof(stem)), ".fatbin");
      rc = make_fatbin(x, in->path, fatbin, cuid);
      if (rc)
         goto done;
      tc_argv_push(&a, "-Xclang");
      tc_argv_push(&a, "-fcuda-include-gpubinary");
      tc_argv_push(&a, "-Xclang");
      tc_argv_push(&a, fatbin);
      push_remaps(x, &a);   /* the device side's rewrites, made just now */
   }
   rc = tc_run(&a, o->verbose, o->dryrun);
done:
   tc_argv_free(&a);
   free(fatbin);
   tc_argv_free(&x->remaps);
   x->nretry = 0;
   return rc;
}

static int do_link(ctx *x, tc_argv *objs)
{
   nvopts *o = x->o;
   tc_argv a = { 0 };
   tc_argv_push(&a, o->ccbin ? o->ccbin : x->clangxx);
   if (o->shared)
      tc_argv_push(&a, "-shared");
   push_all(&a, objs);
   push_all(&a, &o->host);
   push_all(&a, &o->link);
   if (strcmp(o->cudart, "none") != 0) {
      /* our libcudart, found at run time through the run path as NVIDIA's
       * toolkit programs find theirs (no LD_LIBRARY_PATH needed) */
      tc_argv_pushf(&a, "-L%s/lib", x->root);
      tc_argv_pushf(&a, "-Wl,-rpath,%s/lib", x->root);
      tc_argv_push(&a, "-lcudart");
   }
   tc_argv_push(&a, "-o");
   tc_argv_push(&a, o->output ? o->output : "a.out");
   int rc = tc_run(&a, o->verbose, o->dryrun);
   tc_argv_free(&a);
   return rc;
}

/* ---- the device link (-dlink, and the link step of -rdc code) ----
 *
 * nvlink's job, as metalcuda does it: the PTX is linked when the module
 * loads (src/compiler/ptx/link.c, the path of NVIDIA-built -rdc programs),
 * so the device link only gathers the units, after checking, as nvlink
 * does, that no device symbol is left undefined (rdc_check.c).  Each object compiled with
 * -rdc carries its unit's fatbin under RDC_UNIT_PREFIX<id>, and its host
 * code registers __hip_fatbin_<id> with __hip_gpubin_handle_<id> (clang's
 * HIP ABI for -fgpu-rdc, which leaves both to the link).  The device link
 * lists those symbols (nm) in the objects and static libraries of the link
 * and writes a C file that defines them: every __hip_fatbin_<id> is one
 * fatbin wrapper of version 2 over the list of all units — what nvcc's
 * device link registers (src/fatbin/README.md) — and libcudart registers
 * one module for all the copies (src/api/runtime/register.c), whose units
 * it links as it links nvcc's. */

typedef struct dlink_syms {
   tc_argv units;      /* RDC_UNIT_PREFIX... defined */
   tc_argv fatbins;    /* HIP_FATBIN_PREFIX... referred to */
   tc_argv handles;    /* HIP_HANDLE_PREFIX... referred to */
   bool linked;        /* a HIP_FATBIN_PREFIX... is defined: a device link is among the inputs */
} dlink_syms;

static bool argv_has(const tc_argv *a, const char *s)
{
   for (int i = 0; i < a->n; i++)
      if (!strcmp(a->v[i], s))
         return true;
   return false;
}

static bool is_shared_lib(const char *path)
{
   size_t l = strlen(path);
   return strstr(path, ".so.") || (l > 3 && !strcmp(path + l - 3, ".so")) ||
          (l > 6 && !strcmp(path + l - 6, ".dylib"));
}

/* The static libraries -lNAME finds in the -L directories (before any
 * shared one of the name, which the linker would take: its device code was
 * linked when it was). */
static void static_libs(const nvopts *o, tc_argv *files)
{
   for (int i = 0; i < o->link.n; i++) {
      const char *l = o->link.v[i];
      if (strncmp(l, "-l", 2) != 0 || !l[2] || l[2] == ':')
         continue;
      for (int j = 0; j < o->link.n; j++) {
         const char *d = o->link.v[j];
         if (strncmp(d, "-L", 2) != 0)
            continue;
         char path[PATH_MAX];
         snprintf(path, sizeof(path), "%s/lib%s.so", d + 2, l + 2);
         if (access(path, F_OK) == 0)
            break;
         snprintf(path, sizeof(path), "%s/lib%s.dylib", d + 2, l + 2);
         if (access(path, F_OK) == 0)
            break;
         snprintf(path, sizeof(path), "%s/lib%s.a", d + 2, l + 2);
         if (access(path, F_OK) == 0) {
            tc_argv_push(files, path);
            break;
         }
      }
   }
}

static bool ident(const char *s)
{
   for (; *s; s++)
      if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
         return false;
   return true;
}

/* The device-link symbols of files (objects and archives). */
static int dlink_symbols(ctx *x, const tc_argv *files, dlink_syms *s)
{
   nvopts *o = x->o;
   if (files->n == 0)
      return 0;
   tc_argv a = { 0 };
   tc_argv_push(&a, tc_nm(x->clang));
   tc_argv_push(&a, "-P");
   tc_argv_push(&a, "-g");
   push_all(&a, files);
   char *list = tmpfile_name(x, "symbols", ".txt");
   int rc = tc_run_out(&a, o->verbose, o->dryrun, list);
   tc_argv_free(&a);
   char *text = rc || o->dryrun ? NULL : file_read(list, NULL);
   free(list);
   if (rc) {
      fprintf(stderr, "%s: cannot list the symbols of the link's objects for the device link\n", progname);
      return rc;
   }
   if (o->dryrun)
      return 0;
   if (!text)
      die("%s", "cannot read the symbol list of the device link");
   /* POSIX format: "NAME TYPE VALUE SIZE", a "FILE:" or "LIB[MEMBER]:" line
    * before each file's */
   for (char *line = text, *next; line && *line; line = next) {
      next = strchr(line, '\n');
      if (next)
         *next++ = 0;
      char name[512], type[8];
      if (sscanf(line, "%511s %7s", name, type) != 2 || strlen(type) != 1)
         continue;
      const char *n = name;
#if defined(__APPLE__)
      if (*n == '_')
         n++;   /* Mach-O's C names start with an underscore */
#endif
      bool undef = type[0] == 'U';
      if (!ident(n))
         continue;
      if (!strncmp(n, RDC_UNIT_PREFIX, strlen(RDC_UNIT_PREFIX)) && !undef && !argv_has(&s->units, n))
         tc_argv_push(&s->units, n);
      else if (!strncmp(n, HIP_FATBIN_PREFIX, strlen(HIP_FATBIN_PREFIX))) {
         if (!undef)
            s->linked = true;
         else if (!argv_has(&s->fatbins, n))
            tc_argv_push(&s->fatbins, n);
      } else if (!strncmp(n, HIP_HANDLE_PREFIX, strlen(HIP_HANDLE_PREFIX)) && undef && !argv_has(&s->handles, n))
         tc_argv_push(&s->handles, n);
   }
   free(text);
   return 0;
}

static void dlink_syms_free(dlink_syms *s)
{
   tc_argv_free(&s->units);
   tc_argv_free(&s->fatbins);
   tc_argv_free(&s->handles);
}

/* The device-link object out for the units and registrations in s. */
static int dlink_object(ctx *x, const dlink_syms *s, const char *out)
{
   nvopts *o = x->o;
   if (s->fatbins.n && !s->units.n)
      die("%s", "the objects register relocatable device code but carry none of metalcuda's device images "
                "(compile them with metalcuda's nvcc -dc)");
   char *src = tmpfile_name(x, "dlink", ".c");
   FILE *f = o->dryrun ? NULL : fopen(src, "w");
   if (!o->dryrun) {
      if (!f)
         die("cannot write the device link: %s", strerror(errno));
      fprintf(f, "/* metalcuda nvcc: the device link of %d units of relocatable device code */\n"
                 "#define HIDDEN __attribute__((visibility(\"hidden\")))\n"
                 "typedef struct { unsigned magic, version; const void *data; const void *const *units; } mc_dlink_wrapper;\n",
              s->units.n);
      for (int i = 0; i < s->units.n; i++)
         fprintf(f, "extern HIDDEN const char %s[];\n", s->units.v[i]);
      fprintf(f, "static const void *const mc_dlink_units[] = {");
      for (int i = 0; i < s->units.n; i++)
         fprintf(f, " %s,", s->units.v[i]);
      fprintf(f, " 0 };\n");
      for (int i = 0; i < s->fatbins.n; i++)
         fprintf(f, "HIDDEN const mc_dlink_wrapper %s = { 0x466243b1u, 2, 0, mc_dlink_units };\n", s->fatbins.v[i]);
      for (int i = 0; i < s->handles.n; i++)
         fprintf(f, "HIDDEN void *%s = 0;\n", s->handles.v[i]);
      if (fclose(f) != 0)
         die("cannot write the device link: %s", strerror(errno));
   }
   tc_argv a = { 0 };
   tc_argv_push(&a, x->clang);
   tc_argv_push(&a, "-x");
   tc_argv_push(&a, "c");
   tc_argv_push(&a, "-fPIC");
   tc_argv_push(&a, "-w");
   tc_argv_push(&a, "-c");
   tc_argv_push(&a, src);
   tc_argv_push(&a, "-o");
   tc_argv_push(&a, out);
   int rc = tc_run(&a, o->verbose, o->dryrun);
   tc_argv_free(&a);
   free(src);
   return rc;
}

/* The objects and static libraries of a link (files), device-linked into
 * out when any carries relocatable device code and no device link is among
 * them already (or always, with force: -dlink).  *made says whether out was
 * written. */
static int device_link(ctx *x, const tc_argv *objs, const char *out, bool force, bool *made)
{
   tc_argv files = { 0 };
   for (int i = 0; i < objs->n; i++)
      if (!is_shared_lib(objs->v[i]))
         tc_argv_push(&files, objs->v[i]);
   static_libs(x->o, &files);
   dlink_syms s = { 0 };
   int rc = dlink_symbols(x, &files, &s);
   *made = false;
   if (!rc && (force || ((s.units.n || s.fatbins.n) && !s.linked))) {
      /* nvlink refuses a device symbol nothing defines (rdc_check.c) */
      if (s.units.n && !x->o->dryrun)
         rc = tc_rdc_check((const char *const *)files.v, files.n, s.units.n, x->o->verbose);
      if (!rc)
         rc = dlink_object(x, &s, out);
      *made = !rc;
   }
   tc_argv_free(&files);
   dlink_syms_free(&s);
   return rc;
}

static void remove_tmp(ctx *x)
{
   if (x->o->keep || x->o->keep_dir || !x->tmp[0])
      return;
   char cmd[PATH_MAX + 16];
   /* the directory is ours (mkdtemp) and holds only what we wrote */
   snprintf(cmd, sizeof(cmd), "%s", x->tmp);
   tc_argv a = { 0 };
   tc_argv_push(&a, "rm");
   tc_argv_push(&a, "-rf");
   tc_argv_push(&a, cmd);
   tc_run(&a, false, false);
   tc_argv_free(&a);
}

/* Whether the link takes objects or libraries from outside (which may hold
 * relocatable device code) besides the sources compiled now. */
static bool has_link_inputs(const nvopts *o)
{
   for (int i = 0; i < o->nin; i++)
      if (o->in[i].lang == L_LINK)
         return true;
   for (int i = 0; i < o->link.n; i++)
      if (!strncmp(o->link.v[i], "-l", 2))
         return true;
   return false;
}

static int run_plan(nvopts *o)
{
   ctx x = { .o = o };
   char err[512];
   if (!tc_root(x.root, sizeof(x.root)))
      die("%s", "cannot find the toolkit root (the directory above this program's bin/)");
   x.clang = tc_find_clang(err, sizeof(err));
   if (!x.clang)
      die("%s", err);
   char clangxx[PATH_MAX];
   snprintf(clangxx, sizeof(clangxx), "%s", tc_clangxx(x.clang));
   x.clangxx = clangxx;
   if (o->narch == 0)
      add_arch(o, 75);   /* nvcc 13's default architecture */
   if (o->keep_dir) {
      snprintf(x.tmp, sizeof(x.tmp), "%s", o->keep_dir);
   } else {
      const char *t = getenv("TMPDIR");
      snprintf(x.tmp, sizeof(x.tmp), "%s/metalcuda-nvcc-XXXXXX", t && *t ? t : "/tmp");
      if (!mkdtemp(x.tmp))
         die("cannot create a temporary directory: %s", strerror(errno));
   }
   if (o->keep && !o->keep_dir)
      fprintf(stderr, "%s: intermediate files kept in %s\n", progname, x.tmp);
   if (o->verbose) {
      /* the lines nvcc -v starts with, which build systems read: CMake takes
       * the toolkit from TOP, the link line from LIBRARIES (it finds the
       * line that holds that text), the default architecture from
       * "-arch compute_NN" */
      const char *path = getenv("PATH");
      fprintf(stderr, "#$ TOP=%s\n#$ PATH=%s\n#$ INCLUDES=-I%s/include\n#$ LIBRARIES=-L%s/lib\n", x.root,
              path ? path : "", x.root, x.root);
      for (int i = 0; i < o->narch; i++)
         fprintf(stderr, "#$ _DEVICE_CODE_=-arch compute_%u (clang --cuda-gpu-arch=sm_%u)\n", o->arch[i], o->arch[i]);
   }

   int nsrc = 0;
   for (int i = 0; i < o->nin; i++)
      nsrc += o->in[i].lang != L_LINK;
   bool one_out = o->mode != M_LINK && o->mode != M_LIB && o->mode != M_DLINK;
   if (one_out && o->output && nsrc > 1)
      die("%s", "a single input file is required for a non-link phase when an output file is specified");

   int rc = 0;
   tc_argv objs = { 0 };
   char buf[PATH_MAX];
   for (int i = 0; i < o->nin && !rc; i++) {
      input *in = &o->in[i];
      if (in->lang == L_LINK) {
         tc_argv_push(&objs, in->path);
         continue;
      }
      char stem[256];
      base_noext(in->path, stem, sizeof(stem));
      switch (o->mode) {
      case M_PTX:
      case M_FATBIN: {
         if (in->lang != L_CU)
            die("%s: --ptx and --fatbin take CUDA sources", in->path);
         const char *out = o->output;
         if (!out) {
            snprintf(buf, sizeof(buf), "%s.%s", stem, o->mode == M_PTX ? "ptx" : "fatbin");
            out = buf;
         }
         if (o->mode == M_PTX) {
            if (o->narch > 1)
               die("%s", "--ptx with several architectures: give one (-arch=compute_NN)");
            rc = device_compile(&x, in->path, o->arch[0], out, unit_id(in->path, out));
         } else {
            rc = make_fatbin(&x, in->path, out, unit_id(in->path, out));
         }
         tc_argv_free(&x.remaps);
         x.nretry = 0;
         break;
      }
      case M_PREPROCESS:
      case M_DEPS:
         rc = compile_one(&x, in, o->output);
         break;
      case M_COMPILE: {
         const char *out = o->output;
         if (!out) {
            snprintf(buf, sizeof(buf), "%s.o", stem);
            out = buf;
         }
         rc = compile_one(&x, in, out);
         break;
      }
      case M_DLINK:
         die("%s: -dlink takes the objects and libraries that -dc made, not sources", in->path);
         break;
      case M_LINK:
      case M_LIB: {
         char *obj = tmpfile_name(&x, stem, ".o");
         rc = compile_one(&x, in, obj);
         tc_argv_push(&objs, obj);
         free(obj);
         break;
      }
      }
   }
   if (!rc && o->mode == M_LINK) {
      if (objs.n == 0)
         die("%s", "no input files");
      /* nvcc's link step device-links -rdc objects itself; the device
       * link's object goes first, so that the units it names are pulled
       * out of the archives that follow */
      bool made = false;
      char *dl = tmpfile_name(&x, "dlink", ".o");
      if (o->rdc || has_link_inputs(o))
         rc = device_link(&x, &objs, dl, false, &made);
      if (!rc && made) {
         tc_argv all = { 0 };
         tc_argv_push(&all, dl);
         push_all(&all, &objs);
         tc_argv_free(&objs);
         objs = all;
      }
      free(dl);
      if (!rc)
         rc = do_link(&x, &objs);
   } else if (!rc && o->mode == M_DLINK) {
      bool made;
      rc = device_link(&x, &objs, o->output ? o->output : "a_dlink.o", true, &made);
   } else if (!rc && o->mode == M_LIB) {
      tc_argv a = { 0 };
      tc_argv_push(&a, "ar");
      tc_argv_push(&a, "rcs");
      tc_argv_push(&a, o->output ? o->output : "a.a");
      push_all(&a, &objs);
      rc = tc_run(&a, o->verbose, o->dryrun);
      tc_argv_free(&a);
   }
   tc_argv_free(&objs);
   remove_tmp(&x);
   return rc ? 1 : 0;
}

static void opts_init(nvopts *o)
{
   memset(o, 0, sizeof(*o));
   o->cudart = "shared";
   o->prec_div = o->prec_sqrt = o->fmad = true;
}

static void opts_free(nvopts *o)
{
   tc_argv_free(&o->common);
   tc_argv_free(&o->host);
   tc_argv_free(&o->device);
   tc_argv_free(&o->link);
   free(o->in);
}

int tc_nvcc_driver(int argc, char **argv, bool hip);

/* The words of an options file (nvcc --options-file, -optf: CMake passes
 * the device link's objects so), split at white space, with '...' and
 * "..." quoting, onto a. */
static void options_file(tc_argv *a, const char *path)
{
   char *text = file_read(path, NULL);
   if (!text)
      die("--options-file %s: cannot read it", path);
   char *w = malloc(strlen(text) + 1);
   if (!w)
      die("%s", "out of memory");
   for (const char *p = text; *p;) {
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
         p++;
      if (!*p)
         break;
      size_t n = 0;
      while (*p && !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
         if (*p == '"' || *p == '\'') {
            char q = *p++;
            while (*p && *p != q) {
               if (q == '"' && *p == '\\' && p[1])
                  p++;
               w[n++] = *p++;
            }
            if (*p)
               p++;
         } else {
            w[n++] = *p++;
         }
      }
      w[n] = 0;
      tc_argv_push(a, w);
   }
   free(w);
   free(text);
}

int tc_nvcc_driver(int argc, char **argv, bool hip)
{
   nvopts o;
   opts_init(&o);
   progname = hip ? "hipcc" : "nvcc";
   o.hip = hip;
   hip_mode = hip;
   /* options files expanded in place */
   tc_argv args = { 0 };
   for (int i = 0; i < argc; i++) {
      const char *a = argv[i];
      if (is(a, "--options-file", "-optf")) {
         if (i + 1 >= argc)
            die("%s: missing value", a);
         options_file(&args, argv[++i]);
      } else if (!strncmp(a, "--options-file=", 15) || !strncmp(a, "-optf=", 6)) {
         options_file(&args, strchr(a, '=') + 1);
      } else {
         tc_argv_push(&args, a);
      }
   }
   parse(&o, args.n, args.v);
   int rc = 1;
   if (o.nin == 0)
      fprintf(stderr, "%s fatal   : No input files specified; use option --help for more information\n", progname);
   else
      rc = run_plan(&o);
   opts_free(&o);
   tc_argv_free(&args);
   return rc;
}

int tc_nvcc_main(int argc, char **argv)
{
   return tc_nvcc_driver(argc, argv, false);
}
