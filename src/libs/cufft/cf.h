/*
 * cf.h — libcufft's table of contents (src/libs/cufft).
 *
 * libcufft is a client of the CUDA Driver API like any program.  A plan
 * (cufftHandle, an index into a table) holds the context it was made in,
 * the module of our kernels (kernels.cu, PTX embedded by kernels.S, loaded
 * once per context with cuModuleLoadData), the stream, the geometry of the
 * transform and, for each dimension, a 1-D transform: the radices of its
 * Stockham passes and its twiddle table, or Bluestein's chirp and filter
 * around a power-of-2 transform.  Exported functions are CF_EXPORT
 * (everything else is hidden); stubs.c defines every other name NVIDIA's
 * library exports, as weak stubs.
 */
#ifndef MC_CF_H
#define MC_CF_H

#include <cuda.h>
#include <cufft.h>
#include <cufftXt.h>
#include <stdbool.h>
#include <stdint.h>
#include "kargs.h"
#include "util/util.h"

#define CF_EXPORT __attribute__((visibility("default")))
#define CF_MAGIC 0x63664654u   /* "cfFT" */
#define CF_MAX_PASS 64

/* A 1-D transform of length n by Stockham passes */
typedef struct cf_fft {
   int64_t n;
   int npass;
   int radix[CF_MAX_PASS];
   CUdeviceptr tw;            /* each pass's twiddles in its threads' order (plan.c cf_twiddles) */
} cf_fft;

/* The transform along one dimension: direct, Bluestein around `inner`,
 * or (the last dimension of a real transform of even length) a complex
 * one of half the length */
typedef struct cf_dim {
   cf_fft f;                  /* length n (npass = 0 when Bluestein or half) */
   bool blue;
   cf_fft inner;              /* length m = 2^k >= 2n - 1 */
   CUdeviceptr chirp, filt;   /* e^{-pi i k^2/n} (k < n); FFT_m of the filter / m */
   bool half;
   cf_fft h;                  /* length n/2 */
   CUdeviceptr hw;            /* e^{-2 pi i k/n}, k <= n/2 */
} cf_dim;

/* Where an array lives: element stride of each dimension, batch distance
 * (in elements of its type), and its extents (the logical sizes of the
 * data there: the half spectrum's last one is n/2 + 1). */
typedef struct cf_array {
   void *p;
   int64_t st[3], dist;
   int64_t ext[3];
} cf_array;

typedef struct cf_module cf_module;

/* An LTO callback (cufftXtSetJITCallback, jit.c): the program's symbol and
 * fatbin (copied), its type, caller_info[0] and the shared memory it asks
 * for (cufftXtSetCallbackSharedSize) */
#define CF_SYM_MAX 4096   /* the longest callback name taken */
typedef struct cf_jitcb {
   bool set;
   char *sym;
   void *fatbin;
   size_t size;
   cufftXtCallbackType type;
   void *info;
   size_t shared;
} cf_jitcb;

typedef struct cf_plan {
   uint32_t magic;
   bool made;
   bool autoalloc;
   CUcontext ctx;
   bool retained;              /* we retained device 0's primary context */
   CUdevice dev;
   cf_module *mod;
   CUstream stream;
   cufftType type;
   bool dbl;                   /* Z2Z D2Z Z2D */
   bool fp16;                  /* cufftXt's half precision: computed in float (exec.c cf_exec_fp16) */
   int rank;
   int64_t n[3], batch;
   bool basic;                 /* NULL embeds: cuFFT's basic layout */
   int64_t inembed[3], istride, idist, onembed[3], ostride, odist;
   cf_dim dim[3];
   int64_t wlen;               /* complex elements of each of the two work buffers */
   int64_t hlen;               /* C2R of rank > 1: the half spectrum kept in the work area */
   size_t worksize;
   CUdeviceptr work;           /* the work area: ours (auto) or the program's */
   bool work_owned;
   cf_jitcb cb[2];             /* LTO callbacks: [0] load, [1] store */
   CUmodule cbmod;             /* their kernels, linked at cufftMakePlan* (jit.c) */
   CUfunction cbfn[2];
   size_t cboff;               /* the callbacks' packed staging buffers in the work area: input, then output */
   size_t cbin;                /* bytes of the input's */
} cf_plan;

/* Trace of an entry point (METALCUDA_LOG=trace), with its arguments. */
#define CF_ENTER(...) LOG_TRACE(__VA_ARGS__)
/* A failing check: said at info level with the condition, then returned. */
#define CF_CHECK(cond, status)                                                                     \
   do {                                                                                             \
      if (!(cond)) {                                                                               \
         LOG_INFO("%s -> %s", #cond, cf_result_name(status));                                      \
         return status;                                                                             \
      }                                                                                             \
   } while (0)

/* ---- plan.c ---- */
/* Makes the plan's context current for a call, pushing it when another
 * one is (*pushed), so that cf_ctx_leave gives the program its own back */
CUresult cf_ctx_enter(const cf_plan *p, bool *pushed);
void cf_ctx_leave(bool pushed);
const char *cf_result_name(cufftResult r);
/* The plan of handle H, or NULL */
cf_plan *cf_plan_of(cufftHandle h);
cufftResult cf_status_of(CUresult r);

/* Whether plan P has an LTO callback (load or store) */
static inline bool cf_has_callbacks(const cf_plan *p) { return p->cb[0].set || p->cb[1].set; }

/* ---- jit.c ---- */
/* NULL when libnvvm and libnvJitLink load, else what is missing */
const char *cf_jit_available(void);
/* Bytes of an element of callback type T */
int cf_cb_elem_size(cufftXtCallbackType t);
/* Links the plan's callbacks with our kernels and loads them (p->cbmod) */
cufftResult cf_jit_build(cf_plan *p);
void cf_jit_release(cf_plan *p);
void cf_jit_free(cf_plan *p);

/* ---- exec.c ---- */
/* Runs plan P on IN -> OUT with direction DIR (-1, +1) */
cufftResult cf_exec(cf_plan *p, void *in, void *out, int dir);
/* The function NAME of the plan's module */
CUfunction cf_function(cf_plan *p, const char *name);

#endif
