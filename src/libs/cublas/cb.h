/*
 * cb.h — libcublas's table of contents (src/libs/cublas).
 *
 * libcublas is a client of the CUDA Driver API like any program: a handle
 * holds the context it was created in, the module of our kernels
 * (kernels.cu, PTX embedded by kernels.S, loaded with cuModuleLoadData) and
 * the stream, modes and scratch memory of NVIDIA's handle.  Exported
 * functions are CB_EXPORT (everything else is hidden); stubs.c defines
 * every other name NVIDIA's library exports, as weak stubs.
 */
#ifndef MC_CB_H
#define MC_CB_H

#include <cuda.h>
#include <cublas_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "kargs.h"
#include "util/util.h"

#define CB_EXPORT __attribute__((visibility("default")))
#define CB_MAGIC 0x63624c41u   /* "cbLA" */
#define CB_MAX_FN 128

struct cublasContext {
   uint32_t magic;
   CUcontext ctx;
   bool retained;               /* we retained the primary context */
   CUdevice dev;
   CUmodule mod;
   CUstream stream;
   cublasPointerMode_t pmode;
   cublasAtomicsMode_t amode;
   cublasMath_t math;
   int sm_target;
   /* cuBLAS 13's emulation settings: kept and answered, unused (no
    * emulated arithmetic here) */
   cublasEmulationStrategy_t emu_strategy;
   cudaEmulationSpecialValuesSupport emu_special;
   cudaEmulationMantissaControl emu_control;
   int emu_max_bits, emu_offset;
   int *emu_bits_ptr;
   void *ws;                    /* cublasSetWorkspace's (unused: scratch below) */
   size_t ws_size;
   CUdeviceptr scratch;         /* reduction partials and host-mode results */
   CUdeviceptr pack;            /* packed GEMM panels (level3.c), grown on demand */
   size_t pack_size;
   int nfn;
   char fn_name[CB_MAX_FN][32];  /* kernels looked up so far */
   CUfunction fn[CB_MAX_FN];
};

/* Trace of an entry point (METALCUDA_LOG=trace), with its arguments. */
#define CB_ENTER(...) LOG_TRACE(__VA_ARGS__)
/* A failing check: said at info level with the condition, then returned. */
#define CB_CHECK(cond, status)                                                                     \
   do {                                                                                             \
      if (!(cond)) {                                                                               \
         LOG_INFO("%s -> %s", #cond, cublasGetStatusName(status));                                 \
         return status;                                                                             \
      }                                                                                             \
   } while (0)
#define CB_HANDLE(h) CB_CHECK(cb_handle_ok(h), CUBLAS_STATUS_NOT_INITIALIZED)
/* Something an implemented function does not support: said once, refused. */
#define CB_NOT_SUPPORTED(what)                                                                     \
   do {                                                                                             \
      LOG_ONCE(LOG_LEVEL_WARN, "not supported: %s", what);                                         \
      return CUBLAS_STATUS_NOT_SUPPORTED;                                                          \
   } while (0)

/* ---- handle.c ---- */
bool cb_handle_ok(cublasHandle_t h);
/* Makes the handle's context current (a program may have switched). */
cublasStatus_t cb_enter_ctx(cublasHandle_t h);
/* Launches kernel NAME of our module on the handle's stream with one
 * argument block of SIZE bytes. */
cublasStatus_t cb_launch(cublasHandle_t h, const char *name, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                         unsigned by, void *args, size_t size);
/* A scalar argument as the kernels take it (kargs.h): the device address in
 * device pointer mode, else the value read from host memory.  KIND: 's',
 * 'd', 'c', 'z', 'h'. */
cb_scalar cb_scalar_of(cublasHandle_t h, const void *p, char kind);
/* Copies SIZE bytes of a device result to host memory on the handle's
 * stream and waits for it. */
cublasStatus_t cb_result_to_host(cublasHandle_t h, void *host, CUdeviceptr dev, size_t size);
/* ---- level1.c (shared with level1ex.c) ---- */
/* The size of an element of type T: s d c z as BLAS, h (half) and b
 * (bfloat16) for the Ex forms. */
size_t cb_l1_elem_size(char t);
/* An elementwise Level 1 kernel (NAMES[0] for s/c/h, [1] for d/z/b) over
 * x and y of type T; scalars A and B (or NULL) read as kinds KA and KB. */
cublasStatus_t cb_l1_elementwise(cublasHandle_t h, const char *const names[2], char t, int64_t n, const void *a,
                                 char ka, const void *b, char kb, int op, void *x, int64_t incx, void *y,
                                 int64_t incy);
/* A reduction CB_RED_* of x (and y) of type T to RESULT of RSIZE bytes
 * (host or device memory by pointer mode). */
cublasStatus_t cb_l1_reduction(cublasHandle_t h, char t, int op, int64_t n, const void *x, int64_t incx,
                               const void *y, int64_t incy, void *result, size_t rsize);
/* ---- legacy.c ---- */
/* The legacy API's handle (NULL before cublasInit). */
cublasHandle_t cb_legacy_handle(void);
/* Keeps a legacy routine FN's failing status for cublasGetError. */
void cb_legacy_status(const char *fn, cublasStatus_t s);
cublasOperation_t cb_legacy_op(char c);
cublasFillMode_t cb_legacy_fill(char c);
cublasDiagType_t cb_legacy_diag(char c);
cublasSideMode_t cb_legacy_side(char c);
/* A driver result as a cuBLAS status. */
cublasStatus_t cb_status_of(CUresult r);

/* The first element of a BLAS vector with increment INC: BLAS walks a
 * vector with a negative increment from its end. */
static inline void *cb_vec_base(const void *x, int64_t n, int64_t inc, size_t elem)
{
   return (char *)x + (inc < 0 ? (size_t)((n - 1) * -inc) * elem : 0);
}

/* Bytes of an element of kind T ('s' 'd' 'c' 'z') */
static inline size_t cb_elem(char t)
{
   return t == 's' ? 4 : t == 'd' || t == 'c' ? 8 : 16;
}
/* The name of kernel FN for kind T: cb_FN_T */
static inline const char *cb_kname(char buf[32], const char *fn, char t)
{
   snprintf(buf, 32, "cb_%s_%c", fn, t);
   return buf;
}

/* The argument block of the matrix kernels (kargs.h) with its matrices
 * and sizes; the rest zero. */
static inline cb_mat_args cb_mat(const void *A, int64_t lda, const void *B, int64_t ldb, void *C, int64_t ldc,
                                 int64_t m, int64_t n)
{
   cb_mat_args g = { .A = A, .B = B, .C = C, .lda = lda, .ldb = ldb, .ldc = ldc, .m = (int32_t)m, .n = (int32_t)n };
   return g;
}

/* ---- level3.c ---- */
/* GEMM (s d c z) for the library's own use (blocked trsm): scalars as the
 * kernels take them, whatever the handle's pointer mode. */
cublasStatus_t cb_gemm_sc(cublasHandle_t h, char t, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                          int64_t k, cb_scalar alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
                          cb_scalar beta, void *C, int64_t ldc);

/* ---- level1.c, level2.c, level3.c: the exported functions ---- */

#endif
