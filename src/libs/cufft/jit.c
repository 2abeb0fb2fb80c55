/*
 * jit.c — cuFFT's LTO callbacks (cufftXtSetJITCallback): the program's
 * callback, a __device__ function given as LTO-IR inside a fatbin, made
 * into PTX that metalcuda runs.
 *
 * LTO-IR is NVIDIA's private form of NVVM IR, which metalcuda cannot read;
 * NVIDIA's own nvJitLink can (libnvJitLink.so.13, which NVIDIA's libcufft
 * dlopen's for the same callbacks, so it is present wherever a program can
 * use them).  cuFFT calls a callback as a C++ function of the type its
 * header gives, named by its unqualified name, so the name linked is the
 * Itanium-mangled one (cf_cb_mangled).
 * nvJitLink with -lto -ptx turns LTO-IR into PTX, but alone it drops a
 * function no kernel uses, and it takes no PTX input beside LTO-IR.  So
 * the kernels that call the callback are written here as NVVM IR text
 * (NVIDIA's published NVVM IR specification: LLVM IR with typed pointers,
 * kernels named in !nvvm.annotations), compiled to LTO-IR by NVIDIA's
 * libnvvm (-gen-lto), and linked with the program's fatbin by nvJitLink
 * (-lto -ptx); the PTX that comes out, our kernels with the callback, is
 * loaded with cuModuleLoadData like any module.  Both libraries are
 * dlopen'ed at the first cufftXtSetJITCallback only; absent (a machine
 * without NVIDIA's toolkit, macOS, where NVIDIA ships neither), the call
 * fails with CUFFT_NOT_SUPPORTED and says which library is missing.
 *
 * The kernels apply a callback as a pass of its own around the unchanged
 * transform (exec.c): mc_cufft_cb_load calls the load callback once for
 * every element of the input, at its element offset in the input array
 * (batch, strides and embeddings of the plan's layout, in elements of the
 * input's type), and writes the value to a packed staging buffer of the
 * work area; mc_cufft_cb_store reads the transform's result from a packed
 * staging buffer and calls the store callback once for every element of
 * the output at its offset.  Thread g < total handles element g, split
 * into (batch, i0, i1, i2) by the extents x0 x1 x2; its offset is
 * b dist + i0 s0 + i1 s1 + i2 s2.  The shared pointer is the block's
 * dynamic shared memory (cufftXtSetCallbackSharedSize), NULL without it.
 */
#include "cf.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(cufft);

/* a name the fatbin does not define with C++ linkage, at cufftMakePlan*:
 * what an H100 (cuFFT 12.0) answered */
#define CF_JIT_NO_SYMBOL CUFFT_INTERNAL_ERROR

/* ---- NVIDIA's libnvvm and libnvJitLink, found with dlopen ---- */

/* Their public C APIs (nvvm.h, nvJitLink.h), as far as used: results are
 * 0 on success, handles opaque pointers. */
typedef void *nvvm_prog;
typedef void *jl_handle;
#define JL_INPUT_LTOIR 3
#define JL_INPUT_FATBIN 4

static struct {
   bool tried;
   const char *missing;   /* what was not found, or NULL */
   int (*nvvmCreateProgram)(nvvm_prog *);
   int (*nvvmDestroyProgram)(nvvm_prog *);
   int (*nvvmAddModuleToProgram)(nvvm_prog, const char *, size_t, const char *);
   int (*nvvmCompileProgram)(nvvm_prog, int, const char **);
   int (*nvvmGetCompiledResultSize)(nvvm_prog, size_t *);
   int (*nvvmGetCompiledResult)(nvvm_prog, char *);
   int (*nvvmGetProgramLogSize)(nvvm_prog, size_t *);
   int (*nvvmGetProgramLog)(nvvm_prog, char *);
   int (*nvJitLinkCreate)(jl_handle *, uint32_t, const char **);
   int (*nvJitLinkDestroy)(jl_handle *);
   int (*nvJitLinkAddData)(jl_handle, int, const void *, size_t, const char *);
   int (*nvJitLinkComplete)(jl_handle);
   int (*nvJitLinkGetLinkedPtxSize)(jl_handle, size_t *);
   int (*nvJitLinkGetLinkedPtx)(jl_handle, char *);
   int (*nvJitLinkGetErrorLogSize)(jl_handle, size_t *);
   int (*nvJitLinkGetErrorLog)(jl_handle, char *);
} jl;
static pthread_mutex_t jl_lock = PTHREAD_MUTEX_INITIALIZER;

static void *jl_open(const char *const *names)
{
   for (; *names; names++) {
      void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
      if (h)
         return h;
   }
   return NULL;
}

#define JL_SYM(lib, name)                                                                                             \
   do {                                                                                                               \
      *(void **)&jl.name = dlsym(lib, #name);                                                                         \
      if (!jl.name)                                                                                                   \
         return #name;                                                                                                \
   } while (0)

static const char *jl_load(void)
{
   /* NVIDIA ships both for Linux (and Windows) only: on macOS there is no
    * libnvJitLink.dylib or libnvvm.dylib, and these callbacks cannot run. */
#if defined(__APPLE__)
   static const char *const nvvm_names[] = { "libnvvm.dylib", NULL };
   static const char *const jl_names[] = { "libnvJitLink.dylib", NULL };
#else
   /* libnvvm is under the toolkit's nvvm/lib64 (CUDA 12) or lib64 (CUDA 13),
    * often off the library path */
   static const char *const nvvm_names[] = { "libnvvm.so.4", "libnvvm.so", "/usr/local/cuda/nvvm/lib64/libnvvm.so.4",
                                             "/usr/local/cuda/lib64/libnvvm.so.4", NULL };
   static const char *const jl_names[] = { "libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so",
                                           "/usr/local/cuda/lib64/libnvJitLink.so.13",
                                           "/usr/local/cuda/lib64/libnvJitLink.so.12", NULL };
#endif
   void *nv = jl_open(nvvm_names);
   void *lk = nv ? jl_open(jl_names) : NULL;
#if defined(__APPLE__)
   if (!nv || !lk)
      return "NVIDIA's libnvvm and libnvJitLink, which NVIDIA does not ship for macOS";
#else
   if (!nv)
      return "NVIDIA's libnvvm (libnvvm.so.4, from the CUDA toolkit)";
   if (!lk)
      return "NVIDIA's libnvJitLink (libnvJitLink.so.13 or .12, from the CUDA toolkit)";
#endif
   JL_SYM(nv, nvvmCreateProgram);
   JL_SYM(nv, nvvmDestroyProgram);
   JL_SYM(nv, nvvmAddModuleToProgram);
   JL_SYM(nv, nvvmCompileProgram);
   JL_SYM(nv, nvvmGetCompiledResultSize);
   JL_SYM(nv, nvvmGetCompiledResult);
   JL_SYM(nv, nvvmGetProgramLogSize);
   JL_SYM(nv, nvvmGetProgramLog);
   JL_SYM(lk, nvJitLinkCreate);
   JL_SYM(lk, nvJitLinkDestroy);
   JL_SYM(lk, nvJitLinkAddData);
   JL_SYM(lk, nvJitLinkComplete);
   JL_SYM(lk, nvJitLinkGetLinkedPtxSize);
   JL_SYM(lk, nvJitLinkGetLinkedPtx);
   JL_SYM(lk, nvJitLinkGetErrorLogSize);
   JL_SYM(lk, nvJitLinkGetErrorLog);
   return NULL;
}

const char *cf_jit_available(void)
{
   pthread_mutex_lock(&jl_lock);
   if (!jl.tried) {
      jl.tried = true;
      jl.missing = jl_load();
   }
   const char *m = jl.missing;
   pthread_mutex_unlock(&jl_lock);
   return m;
}

/* ---- the kernels, NVVM IR ---- */

/* The element type of a callback type, as NVVM IR and in bytes */
static const char *cf_cb_ir_type(cufftXtCallbackType t, int *size)
{
   switch (t) {
   case CUFFT_CB_LD_COMPLEX:
   case CUFFT_CB_ST_COMPLEX:
      *size = 8;
      return "{ float, float }";
   case CUFFT_CB_LD_COMPLEX_DOUBLE:
   case CUFFT_CB_ST_COMPLEX_DOUBLE:
      *size = 16;
      return "{ double, double }";
   case CUFFT_CB_LD_REAL:
   case CUFFT_CB_ST_REAL:
      *size = 4;
      return "float";
   default:
      *size = 8;
      return "double";
   }
}

int cf_cb_elem_size(cufftXtCallbackType t)
{
   int s;
   cf_cb_ir_type(t, &s);
   return s;
}

/* The callback's linkage name.  NVIDIA's cuFFT declares the callback as a
 * C++ function of the type its header gives (cufftJITCallbackLoadC …), so
 * nvJitLink looks for the Itanium-mangled name of NAME with those
 * parameters: on an H100 (cuFFT 12.0), a callback "jit_ld_c" was sought as
 * _Z8jit_ld_cPvyS_S_, and one declared extern "C" failed to link.  Pv is
 * void *, y unsigned long long, S_ the first substitution (void *); the
 * store's element is float2/double2 (cufftComplex's underlying struct),
 * float or double.  Only a plain identifier has this form; false else. */
static bool cf_cb_mangled(char *out, size_t cap, const char *name, cufftXtCallbackType t)
{
   if (!name[0] || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
      return false;
   for (const char *c = name; *c; c++)
      if (!isalnum((unsigned char)*c) && *c != '_')
         return false;
   const char *elem;
   switch (t) {
   case CUFFT_CB_ST_COMPLEX: elem = "6float2"; break;
   case CUFFT_CB_ST_COMPLEX_DOUBLE: elem = "7double2"; break;
   case CUFFT_CB_ST_REAL: elem = "f"; break;
   case CUFFT_CB_ST_REAL_DOUBLE: elem = "d"; break;
   default: elem = NULL; break;   /* a load: no element parameter */
   }
   int n = elem ? snprintf(out, cap, "_Z%zu%sPvy%sS_S_", strlen(name), name, elem)
                : snprintf(out, cap, "_Z%zu%sPvyS_S_", strlen(name), name);
   return n > 0 && (size_t)n < cap;
}

/* the kernels' names: [0] the load callback's, [1] the store callback's */
static const char *const cf_cb_kernel[2] = { "mc_cufft_cb_load", "mc_cufft_cb_store" };

/* room for a callback's linkage name, and for the text around it in one kernel */
#define CF_MANGLED_MAX (CF_SYM_MAX + 64)
#define CF_IR_LINE_MAX (512 + CF_MANGLED_MAX)
#define CF_KPARAMS "i8*, i8*, i8*, i64, i64, i64, i64, i64, i64, i64, i64, i32"

/* One kernel: NAME calling the callback SYM of element type T (SIZE bytes),
 * a load (the value to dst[g]) or a store (src[g] to the callback) */
static int cf_ir_kernel(char *buf, size_t cap, bool load, const char *sym, const char *T, int size)
{
   const char *name = cf_cb_kernel[load ? 0 : 1];
   char call[CF_IR_LINE_MAX];
   if (load)
      snprintf(call, sizeof(call),
               "  %%v = call %s @\"%s\"(i8* %%data, i64 %%off, i8* %%info, i8* %%sh)\n"
               "  %%d = bitcast i8* %%buf to %s*\n"
               "  %%p = getelementptr %s, %s* %%d, i64 %%g\n"
               "  store %s %%v, %s* %%p, align %d\n",
               T, sym, T, T, T, T, T, size);
   else
      snprintf(call, sizeof(call),
               "  %%d = bitcast i8* %%buf to %s*\n"
               "  %%p = getelementptr %s, %s* %%d, i64 %%g\n"
               "  %%v = load %s, %s* %%p, align %d\n"
               "  call void @\"%s\"(i8* %%data, i64 %%off, %s %%v, i8* %%info, i8* %%sh)\n",
               T, T, T, T, T, size, sym, T);
   return snprintf(buf, cap,
                   "define void @%s(i8* %%data, i8* %%buf, i8* %%info, i64 %%total, i64 %%x0, i64 %%x1, i64 %%x2,"
                   " i64 %%dist, i64 %%s0, i64 %%s1, i64 %%s2, i32 %%shared) {\n"
                   "entry:\n"
                   "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %%c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
                   "  %%nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                   "  %%t64 = zext i32 %%t to i64\n"
                   "  %%c64 = zext i32 %%c to i64\n"
                   "  %%n64 = zext i32 %%nt to i64\n"
                   "  %%cn = mul i64 %%c64, %%n64\n"
                   "  %%g = add i64 %%cn, %%t64\n"
                   "  %%ok = icmp ult i64 %%g, %%total\n"
                   "  br i1 %%ok, label %%body, label %%done\n"
                   "body:\n"
                   "  %%i2 = urem i64 %%g, %%x2\n"
                   "  %%q2 = udiv i64 %%g, %%x2\n"
                   "  %%i1 = urem i64 %%q2, %%x1\n"
                   "  %%q1 = udiv i64 %%q2, %%x1\n"
                   "  %%i0 = urem i64 %%q1, %%x0\n"
                   "  %%b = udiv i64 %%q1, %%x0\n"
                   "  %%o0 = mul i64 %%b, %%dist\n"
                   "  %%o1 = mul i64 %%i0, %%s0\n"
                   "  %%o2 = mul i64 %%i1, %%s1\n"
                   "  %%o3 = mul i64 %%i2, %%s2\n"
                   "  %%a1 = add i64 %%o0, %%o1\n"
                   "  %%a2 = add i64 %%a1, %%o2\n"
                   "  %%off = add i64 %%a2, %%o3\n"
                   "  %%shg = addrspacecast [0 x i8] addrspace(3)* @mc_cufft_sh to [0 x i8]*\n"
                   "  %%shp = bitcast [0 x i8]* %%shg to i8*\n"
                   "  %%hassh = icmp ne i32 %%shared, 0\n"
                   "  %%sh = select i1 %%hassh, i8* %%shp, i8* null\n"
                   "%s"
                   "  br label %%done\n"
                   "done:\n"
                   "  ret void\n"
                   "}\n",
                   name, call);
}

/* The module's NVVM IR: the kernels for the plan's callbacks */
static char *cf_ir_module(const cf_plan *p)
{
   size_t cap = 16384 + 4 * CF_IR_LINE_MAX;
   char *ir = malloc(cap);
   if (!ir)
      return NULL;
   int len = snprintf(ir, cap,
                      "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-"
                      "f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n"
                      "target triple = \"nvptx64-nvidia-cuda\"\n"
                      "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                      "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
                      "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                      "@mc_cufft_sh = external addrspace(3) global [0 x i8], align 16\n");
   int nk = 0;
   const char *names[2];
   for (int k = 0; k < 2; k++) {
      const cf_jitcb *cb = &p->cb[k];
      if (!cb->set)
         continue;
      int size;
      const char *T = cf_cb_ir_type(cb->type, &size);
      char sym[CF_MANGLED_MAX];
      if (!cf_cb_mangled(sym, sizeof(sym), cb->sym, cb->type)) {
         free(ir);
         return NULL;
      }
      /* the callback's declaration, with the type cuFFT's header gives it */
      if (k == 0)
         len += snprintf(ir + len, cap - len, "declare %s @\"%s\"(i8*, i64, i8*, i8*)\n", T, sym);
      else
         len += snprintf(ir + len, cap - len, "declare void @\"%s\"(i8*, i64, %s, i8*, i8*)\n", sym, T);
      len += cf_ir_kernel(ir + len, cap - len, k == 0, sym, T, size);
      names[nk++] = cf_cb_kernel[k];
   }
   /* kept by the link (a kernel nothing names is dropped otherwise) */
   len += snprintf(ir + len, cap - len, "@llvm.used = appending global [%d x i8*] [", nk);
   for (int i = 0; i < nk; i++)
      len += snprintf(ir + len, cap - len, "%si8* bitcast (void (" CF_KPARAMS ")* @%s to i8*)", i ? ", " : "",
                      names[i]);
   len += snprintf(ir + len, cap - len, "], section \"llvm.metadata\"\n!nvvm.annotations = !{");
   for (int i = 0; i < nk; i++)
      len += snprintf(ir + len, cap - len, "%s!%d", i ? ", " : "", i);
   len += snprintf(ir + len, cap - len, "}\n");
   for (int i = 0; i < nk; i++)
      len += snprintf(ir + len, cap - len, "!%d = !{void (" CF_KPARAMS ")* @%s, !\"kernel\", i32 1}\n", i, names[i]);
   len += snprintf(ir + len, cap - len, "!nvvmir.version = !{!%d}\n!%d = !{i32 2, i32 0}\n", nk, nk);
   if (len < 0 || (size_t)len >= cap) {
      free(ir);
      return NULL;
   }
   return ir;
}

/* ---- the link ---- */

static char *jl_log(jl_handle h)
{
   size_t n = 0;
   if (jl.nvJitLinkGetErrorLogSize(h, &n) || n <= 1)
      return NULL;
   char *s = malloc(n);
   if (s && jl.nvJitLinkGetErrorLog(h, s)) {
      free(s);
      s = NULL;
   }
   return s;
}

/* The LTO-IR of our kernels, from libnvvm (*lto, *nlto; NULL when it fails) */
static cufftResult cf_nvvm(const char *ir, char **lto, size_t *nlto)
{
   nvvm_prog prog = NULL;
   *lto = NULL;
   if (jl.nvvmCreateProgram(&prog))
      return CUFFT_INTERNAL_ERROR;
   const char *opts[] = { "-arch=compute_75", "-gen-lto" };
   int r = jl.nvvmAddModuleToProgram(prog, ir, strlen(ir), "mc_cufft_callbacks");
   if (!r)
      r = jl.nvvmCompileProgram(prog, 2, opts);
   if (!r && !jl.nvvmGetCompiledResultSize(prog, nlto) && (*lto = malloc(*nlto)) &&
       jl.nvvmGetCompiledResult(prog, *lto)) {
      free(*lto);
      *lto = NULL;
   }
   if (!*lto) {
      size_t n = 0;
      char *log = NULL;
      if (!jl.nvvmGetProgramLogSize(prog, &n) && n > 1 && (log = malloc(n)) && jl.nvvmGetProgramLog(prog, log)) {
         free(log);
         log = NULL;
      }
      LOG_WARN("libnvvm refused the callback kernels (result %d): %s", r, log ? log : "(no log)");
      free(log);
   }
   jl.nvvmDestroyProgram(&prog);
   return *lto ? CUFFT_SUCCESS : CUFFT_INTERNAL_ERROR;
}

/* The callbacks' PTX: our kernels' LTO-IR and the program's fatbins
 * (one when both callbacks come in the same) linked for the device's
 * architecture. */
static cufftResult cf_link(const cf_plan *p, const char *lto, size_t nlto, char **ptx)
{
   int major = 0, minor = 0;
   cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, p->dev);
   cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, p->dev);
   char arch[32];
   snprintf(arch, sizeof(arch), "-arch=sm_%d%d", major, minor);
   const char *opts[] = { arch, "-lto", "-ptx" };
   jl_handle h = NULL;
   *ptx = NULL;
   if (jl.nvJitLinkCreate(&h, 3, opts))
      return CUFFT_INTERNAL_ERROR;
   int r = jl.nvJitLinkAddData(h, JL_INPUT_LTOIR, lto, nlto, "metalcuda cuFFT callback kernels");
   const cf_jitcb *a = &p->cb[0], *b = &p->cb[1];
   if (!r && a->set)
      r = jl.nvJitLinkAddData(h, JL_INPUT_FATBIN, a->fatbin, a->size, "load callback");
   bool same = a->set && a->size == b->size && !memcmp(a->fatbin, b->fatbin, a->size);
   if (!r && b->set && !same)
      r = jl.nvJitLinkAddData(h, JL_INPUT_FATBIN, b->fatbin, b->size, "store callback");
   if (!r)
      r = jl.nvJitLinkComplete(h);
   size_t n = 0;
   if (!r && !jl.nvJitLinkGetLinkedPtxSize(h, &n) && (*ptx = malloc(n + 1)) && jl.nvJitLinkGetLinkedPtx(h, *ptx)) {
      free(*ptx);
      *ptx = NULL;
   }
   if (!*ptx) {
      char *log = jl_log(h);
      LOG_WARN("cuFFT LTO callback: nvJitLink (%s -lto -ptx, the device's compute capability: LTO-IR for a later "
               "one needs METALCUDA_CC) failed with result %d: %s",
               arch, r, log ? log : "(no log)");
      free(log);
   } else
      (*ptx)[n] = 0;
   jl.nvJitLinkDestroy(&h);
   return *ptx ? CUFFT_SUCCESS : CUFFT_INVALID_VALUE;
}

/* Whether the PTX only declares SYM (.extern .func): nvJitLink links a
 * symbol no input defines without a word, and the module would not run */
static bool cf_ptx_undefined(const char *ptx, const char *sym)
{
   size_t n = strlen(sym);
   for (const char *l = ptx; l; l = strchr(l, '\n')) {
      l += *l == '\n';
      if (strncmp(l, ".extern .func", 13))
         continue;
      const char *e = strchr(l, '\n');
      for (const char *q = strstr(l, sym); q && (!e || q < e); q = strstr(q + 1, sym))
         if ((q[-1] == ' ' || q[-1] == ')') && (q[n] == '\n' || q[n] == '(' || q[n] == ' ' || q[n] == 0))
            return true;
   }
   return false;
}

cufftResult cf_jit_build(cf_plan *p)
{
   if (cf_jit_available())
      return CUFFT_NOT_SUPPORTED;
   char sym[2][CF_MANGLED_MAX];
   for (int k = 0; k < 2; k++) {
      if (!p->cb[k].set)
         continue;
      if (!p->cb[k].sym[0]) {
         LOG_WARN("cuFFT LTO callback: set without a symbol name, so there is no callback to link");
         return CF_JIT_NO_SYMBOL;
      }
      if (!cf_cb_mangled(sym[k], sizeof(sym[k]), p->cb[k].sym, p->cb[k].type)) {
         LOG_WARN("cuFFT LTO callback: '%s' is not a plain C++ identifier; cuFFT names the callback by its "
                  "unqualified name", p->cb[k].sym);
         return CF_JIT_NO_SYMBOL;
      }
   }
   char *ir = cf_ir_module(p);
   if (!ir)
      return CUFFT_ALLOC_FAILED;
   char *lto = NULL, *ptx = NULL;
   size_t nlto = 0;
   pthread_mutex_lock(&jl_lock);   /* the libraries' handles are not shared across threads */
   cufftResult s = cf_nvvm(ir, &lto, &nlto);
   if (s == CUFFT_SUCCESS)
      s = cf_link(p, lto, nlto, &ptx);
   pthread_mutex_unlock(&jl_lock);
   free(ir);
   free(lto);
   for (int k = 0; k < 2 && s == CUFFT_SUCCESS; k++)
      if (p->cb[k].set && cf_ptx_undefined(ptx, sym[k])) {
         LOG_WARN("cuFFT LTO callback: the fatbin defines no __device__ function %s (%s) with C++ linkage; "
                  "cuFFT calls the callback as a C++ function, so one declared extern \"C\" is not found",
                  p->cb[k].sym, sym[k]);
         s = CF_JIT_NO_SYMBOL;
      }
   if (s != CUFFT_SUCCESS) {
      free(ptx);
      return s;
   }
   CUresult r = cuModuleLoadData(&p->cbmod, ptx);
   free(ptx);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("cuFFT LTO callback: the linked PTX did not load (CUresult %d)", (int)r);
      p->cbmod = NULL;
      return CUFFT_INTERNAL_ERROR;
   }
   for (int k = 0; k < 2 && r == CUDA_SUCCESS; k++)
      if (p->cb[k].set)
         r = cuModuleGetFunction(&p->cbfn[k], p->cbmod, cf_cb_kernel[k]);
   if (r != CUDA_SUCCESS) {
      cuModuleUnload(p->cbmod);
      p->cbmod = NULL;
      return CUFFT_INTERNAL_ERROR;
   }
   return CUFFT_SUCCESS;
}

void cf_jit_release(cf_plan *p)
{
   if (p->cbmod)
      cuModuleUnload(p->cbmod);
   p->cbmod = NULL;
   p->cbfn[0] = p->cbfn[1] = NULL;
}

void cf_jit_free(cf_plan *p)
{
   for (int k = 0; k < 2; k++) {
      free(p->cb[k].sym);
      free(p->cb[k].fatbin);
      memset(&p->cb[k], 0, sizeof(p->cb[k]));
   }
}
