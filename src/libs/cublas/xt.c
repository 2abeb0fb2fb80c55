/*
 * xt.c — cublasXt (include/cublasXt.h): the host-interface GEMM for one
 * device.
 *
 * NVIDIA's cublasXt takes matrices in host or device memory, cuts a
 * product into blockDim x blockDim tiles and spreads them over the selected
 * GPUs, returning when C is complete.  metalcuda has one device, so a call
 * is one GEMM on an ordinary handle of this library created by
 * cublasXtDeviceSelect: a matrix in device memory (cuPointerGetAttribute
 * says CU_MEMORYTYPE_DEVICE, managed memory included) is used in place, any
 * other is copied to a packed device buffer (cuMemcpy2D from its leading
 * dimension) and C back after the product; then the call waits for the
 * handle's stream.  The block dimension and pinning mode are kept and
 * reported but change nothing.
 *
 * The other Level 3 routines (syrk, syrkx, syr2k, symm, trmm, trsm, spmm;
 * herk, herkx, her2k, hemm) are the library's own _v2_64 routines on that
 * handle: a host matrix is staged in a device buffer with its own leading
 * dimension (so the ordinary routine sees the program's arguments and
 * answers their statuses, and the padding between columns is neither read
 * nor written), the ones the routine writes copied back after the stream
 * is done.  A matrix whose sizes are not valid is passed as it is, for
 * the routine to refuse.  spmm unpacks A (tpttr) into a dense buffer, then
 * is symm.  cublasXtSetCpuRoutine and cublasXtSetCpuRatio are kept per
 * handle and change nothing: NVIDIA documents the hybrid CPU share for
 * gemm only, and ignored whenever a matrix is in device memory; here
 * everything runs on the one device.
 */
#include <cublasXt.h>

#include "cb.h"

#include <stdlib.h>

LOG_CHANNEL(cublas);

#define CB_XT_MAGIC 0x63625874u   /* "cbXt" */
/* cublasXtGetBlockDim before any cublasXtSetBlockDim (NVIDIA's default is
 * not documented; not checked against NVIDIA's library) */
#define CB_XT_BLOCK_DIM 1024

struct cublasXtContext {
   uint32_t magic;
   cublasHandle_t h;            /* created by cublasXtDeviceSelect */
   CUdevice dev;
   CUcontext ctx;               /* the device's primary context, retained */
   int block_dim;
   cublasXtPinnedMemMode_t pin;
   /* cublasXtSetCpuRoutine / SetCpuRatio: kept, not used */
   void *cpu_fn[CUBLASXT_ROUTINE_MAX][4];
   float cpu_ratio[CUBLASXT_ROUTINE_MAX][4];
};

static bool xt_ok(cublasXtHandle_t x)
{
   return x && x->magic == CB_XT_MAGIC;
}

/* Drops the handle's device selection (its cuBLAS handle and context). */
static void xt_release(cublasXtHandle_t x)
{
   if (x->h)
      cublasDestroy_v2(x->h);
   if (x->ctx)
      cuDevicePrimaryCtxRelease(x->dev);
   x->h = NULL;
   x->ctx = NULL;
}

/* ==== cublasXtCreate (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtCreate(cublasXtHandle_t *handle)
{
   CB_ENTER("handle=%p", (void *)handle);
   CB_CHECK(handle, CUBLAS_STATUS_INVALID_VALUE);
   *handle = NULL;
   if (cuInit(0) != CUDA_SUCCESS)
      return CUBLAS_STATUS_NOT_INITIALIZED;
   cublasXtHandle_t x = calloc(1, sizeof(*x));
   if (!x)
      return CUBLAS_STATUS_ALLOC_FAILED;
   x->magic = CB_XT_MAGIC;
   x->block_dim = CB_XT_BLOCK_DIM;
   x->pin = CUBLASXT_PINNING_DISABLED;
   *handle = x;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasXtDestroy (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtDestroy(cublasXtHandle_t handle)
{
   CB_ENTER("handle=%p", (void *)handle);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   xt_release(handle);
   handle->magic = 0;
   free(handle);
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasXtMaxBoards (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtMaxBoards(int *nbGpuBoards)
{
   CB_ENTER("nbGpuBoards=%p", (void *)nbGpuBoards);
   CB_CHECK(nbGpuBoards, CUBLAS_STATUS_INVALID_VALUE);
   int n = 0;
   if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS)
      return CUBLAS_STATUS_NOT_INITIALIZED;
   *nbGpuBoards = n;
   return CUBLAS_STATUS_SUCCESS;
}

/* Whether every one of the N ids names a device. */
static bool xt_ids_ok(int n, const int *ids)
{
   int count = 0;
   if (n < 1 || !ids || cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS)
      return false;
   for (int i = 0; i < n; i++)
      if (ids[i] < 0 || ids[i] >= count)
         return false;
   return true;
}

/* ==== cublasXtGetNumBoards (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtGetNumBoards(int nbDevices, int deviceId[], int *nbBoards)
{
   CB_ENTER("nbDevices=%d deviceId=%p nbBoards=%p", nbDevices, (void *)deviceId, (void *)nbBoards);
   CB_CHECK(nbBoards && xt_ids_ok(nbDevices, deviceId), CUBLAS_STATUS_INVALID_VALUE);
   /* one board per distinct device: each of ours is its own board */
   int boards = 0;
   for (int i = 0; i < nbDevices; i++) {
      bool seen = false;
      for (int j = 0; j < i; j++)
         seen = seen || deviceId[j] == deviceId[i];
      boards += !seen;
   }
   *nbBoards = boards;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasXtDeviceSelect (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtDeviceSelect(cublasXtHandle_t handle, int nbDevices, int deviceId[])
{
   CB_ENTER("handle=%p nbDevices=%d deviceId=%p", (void *)handle, nbDevices, (void *)deviceId);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK(xt_ids_ok(nbDevices, deviceId), CUBLAS_STATUS_INVALID_VALUE);
   for (int i = 1; i < nbDevices; i++)
      if (deviceId[i] != deviceId[0])
         CB_NOT_SUPPORTED("cublasXtDeviceSelect with more than one device");
   xt_release(handle);
   CUresult r = cuDeviceGet(&handle->dev, deviceId[0]);
   if (r == CUDA_SUCCESS)
      r = cuDevicePrimaryCtxRetain(&handle->ctx, handle->dev);
   if (r != CUDA_SUCCESS) {
      handle->ctx = NULL;
      return cb_status_of(r);
   }
   /* the cuBLAS handle belongs to the context current at its creation */
   cublasStatus_t st = CUBLAS_STATUS_NOT_INITIALIZED;
   if (cuCtxPushCurrent(handle->ctx) == CUDA_SUCCESS) {
      st = cublasCreate_v2(&handle->h);
      CUcontext popped;
      cuCtxPopCurrent(&popped);
   }
   if (st != CUBLAS_STATUS_SUCCESS) {
      handle->h = NULL;
      xt_release(handle);
   }
   return st;
}

/* ==== cublasXtSetBlockDim (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtSetBlockDim(cublasXtHandle_t handle, int blockDim)
{
   CB_ENTER("handle=%p blockDim=%d", (void *)handle, blockDim);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK(blockDim > 0, CUBLAS_STATUS_INVALID_VALUE);
   handle->block_dim = blockDim;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasXtGetBlockDim (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtGetBlockDim(cublasXtHandle_t handle, int *blockDim)
{
   CB_ENTER("handle=%p blockDim=%p", (void *)handle, (void *)blockDim);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK(blockDim, CUBLAS_STATUS_INVALID_VALUE);
   *blockDim = handle->block_dim;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasXtGetPinningMemMode (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtGetPinningMemMode(cublasXtHandle_t handle, cublasXtPinnedMemMode_t *mode)
{
   CB_ENTER("handle=%p mode=%p", (void *)handle, (void *)mode);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK(mode, CUBLAS_STATUS_INVALID_VALUE);
   *mode = handle->pin;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasXtSetPinningMemMode (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtSetPinningMemMode(cublasXtHandle_t handle, cublasXtPinnedMemMode_t mode)
{
   CB_ENTER("handle=%p mode=%d", (void *)handle, (int)mode);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK(mode == CUBLASXT_PINNING_DISABLED || mode == CUBLASXT_PINNING_ENABLED, CUBLAS_STATUS_INVALID_VALUE);
   handle->pin = mode;
   return CUBLAS_STATUS_SUCCESS;
}

/* One operand of a product: where the kernels read it and, for a matrix
 * the program holds in host memory, the packed device copy. */
typedef struct xt_mat {
   const void *host;            /* the program's matrix when copied, else NULL */
   CUdeviceptr buf;             /* the copy */
   const void *dev;             /* what the GEMM reads and writes */
   int64_t ld;                  /* its leading dimension */
} xt_mat;

/* Makes the ROWS x COLS matrix P (leading dimension LD, ELEM-byte
 * elements) available to the kernels: in place when it is device memory,
 * else copied in (when COPY_IN) to a packed buffer. */
static cublasStatus_t xt_in(xt_mat *o, const void *p, int64_t ld, int64_t rows, int64_t cols, size_t elem,
                            bool copy_in)
{
   o->host = NULL;
   o->buf = 0;
   o->dev = p;
   o->ld = ld;
   unsigned type = 0;
   if (cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)p) == CUDA_SUCCESS &&
       type == CU_MEMORYTYPE_DEVICE)
      return CUBLAS_STATUS_SUCCESS;
   o->ld = rows > 1 ? rows : 1;
   if (rows == 0 || cols == 0) {
      o->dev = NULL;
      return CUBLAS_STATUS_SUCCESS;
   }
   CUresult r = cuMemAlloc(&o->buf, (size_t)rows * (size_t)cols * elem);
   if (r != CUDA_SUCCESS)
      return cb_status_of(r);
   o->host = p;
   o->dev = (const void *)(uintptr_t)o->buf;
   if (!copy_in)
      return CUBLAS_STATUS_SUCCESS;
   CUDA_MEMCPY2D c = { 0 };
   c.srcMemoryType = CU_MEMORYTYPE_HOST;
   c.srcHost = p;
   c.srcPitch = (size_t)ld * elem;
   c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
   c.dstDevice = o->buf;
   c.dstPitch = (size_t)rows * elem;
   c.WidthInBytes = (size_t)rows * elem;
   c.Height = (size_t)cols;
   return cb_status_of(cuMemcpy2D(&c));
}

/* Copies a packed device copy back to the program's host matrix. */
static cublasStatus_t xt_out(const xt_mat *o, int64_t ld, int64_t rows, int64_t cols, size_t elem)
{
   if (!o->host)
      return CUBLAS_STATUS_SUCCESS;
   CUDA_MEMCPY2D c = { 0 };
   c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
   c.srcDevice = o->buf;
   c.srcPitch = (size_t)rows * elem;
   c.dstMemoryType = CU_MEMORYTYPE_HOST;
   c.dstHost = (void *)(uintptr_t)o->host;
   c.dstPitch = (size_t)ld * elem;
   c.WidthInBytes = (size_t)rows * elem;
   c.Height = (size_t)cols;
   return cb_status_of(cuMemcpy2D(&c));
}

/* C = alpha op(A) op(B) + beta C of kind T ('s' 'd' 'c' 'z'). */
static cublasStatus_t xt_gemm(cublasXtHandle_t x, char t, cublasOperation_t ta, cublasOperation_t tb, size_t m,
                              size_t n, size_t k, const void *alpha, const void *A, size_t lda, const void *B,
                              size_t ldb, const void *beta, void *C, size_t ldc)
{
   CB_CHECK(xt_ok(x), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK(x->h, CUBLAS_STATUS_NOT_INITIALIZED);   /* no cublasXtDeviceSelect yet */
   CB_CHECK(ta == CUBLAS_OP_N || ta == CUBLAS_OP_T || ta == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(tb == CUBLAS_OP_N || tb == CUBLAS_OP_T || tb == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX && k <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   CB_CHECK(lda <= INT64_MAX / 16 && ldb <= INT64_MAX / 16 && ldc <= INT64_MAX / 16, CUBLAS_STATUS_INVALID_VALUE);
   int64_t arows = ta == CUBLAS_OP_N ? (int64_t)m : (int64_t)k, acols = ta == CUBLAS_OP_N ? (int64_t)k : (int64_t)m;
   int64_t brows = tb == CUBLAS_OP_N ? (int64_t)k : (int64_t)n, bcols = tb == CUBLAS_OP_N ? (int64_t)n : (int64_t)k;
   CB_CHECK((int64_t)lda >= (arows > 1 ? arows : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK((int64_t)ldb >= (brows > 1 ? brows : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK((int64_t)ldc >= ((int64_t)m > 1 ? (int64_t)m : 1), CUBLAS_STATUS_INVALID_VALUE);
   /* k = 0 leaves C as it is, not beta C as BLAS and cublasGemm have it:
    * what NVIDIA's cublasXt did on the H200 (tests/libs/cublas_xt) */
   if (m == 0 || n == 0 || k == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta, CUBLAS_STATUS_INVALID_VALUE);
   cublasHandle_t h = x->h;
   cublasStatus_t st = cb_enter_ctx(h);
   if (st != CUBLAS_STATUS_SUCCESS)
      return st;
   size_t elem = cb_elem(t);
   cb_scalar sa = cb_scalar_of(h, alpha, t), sb = cb_scalar_of(h, beta, t);
   xt_mat a = { 0 }, b = { 0 }, c = { 0 };
   st = xt_in(&a, A, (int64_t)lda, arows, acols, elem, true);
   if (st == CUBLAS_STATUS_SUCCESS)
      st = xt_in(&b, B, (int64_t)ldb, brows, bcols, elem, true);
   if (st == CUBLAS_STATUS_SUCCESS)
      st = xt_in(&c, C, (int64_t)ldc, (int64_t)m, (int64_t)n, elem, true);
   if (st == CUBLAS_STATUS_SUCCESS)
      st = cb_gemm_sc(h, t, ta, tb, (int64_t)m, (int64_t)n, (int64_t)k, sa, a.dev, a.ld, b.dev, b.ld, sb,
                      (void *)(uintptr_t)c.dev, c.ld);
   if (st == CUBLAS_STATUS_SUCCESS)
      st = cb_status_of(cuStreamSynchronize(h->stream));
   if (st == CUBLAS_STATUS_SUCCESS)
      st = xt_out(&c, (int64_t)ldc, (int64_t)m, (int64_t)n, elem);
   if (a.buf)
      cuMemFree(a.buf);
   if (b.buf)
      cuMemFree(b.buf);
   if (c.buf)
      cuMemFree(c.buf);
   return st;
}

#define XT_TRACE(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)                                       \
   CB_ENTER("handle=%p transa=%d transb=%d m=%zu n=%zu k=%zu alpha=%p A=%p lda=%zu B=%p ldb=%zu beta=%p C=%p "    \
            "ldc=%zu",                                                                                          \
            (void *)h, (int)ta, (int)tb, m, n, k, (const void *)alpha, (const void *)A, lda, (const void *)B, ldb, \
            (const void *)beta, (const void *)C, ldc)

#define XT_GEMM(S, kind, T)                                                                                     \
   CB_EXPORT cublasStatus_t cublasXt##S##gemm(cublasXtHandle_t handle, cublasOperation_t transa,                 \
                                              cublasOperation_t transb, size_t m, size_t n, size_t k,            \
                                              const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,    \
                                              const T *beta, T *C, size_t ldc)                                   \
   {                                                                                                            \
      XT_TRACE(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                           \
      return xt_gemm(handle, kind, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);               \
   }

/* ==== cublasXtSgemm (libcublas.@) ==== */
XT_GEMM(S, 's', float)
/* ==== cublasXtDgemm (libcublas.@) ==== */
XT_GEMM(D, 'd', double)
/* ==== cublasXtCgemm (libcublas.@) ==== */
XT_GEMM(C, 'c', cuComplex)
/* ==== cublasXtZgemm (libcublas.@) ==== */
XT_GEMM(Z, 'z', cuDoubleComplex)

/* ==== cublasXtSetCpuRoutine (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtSetCpuRoutine(cublasXtHandle_t handle, cublasXtBlasOp_t blasOp,
                                               cublasXtOpType_t type, void *blasFunctor)
{
   CB_ENTER("handle=%p blasOp=%d type=%d blasFunctor=%p", (void *)handle, (int)blasOp, (int)type, blasFunctor);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK((unsigned)blasOp < CUBLASXT_ROUTINE_MAX && (unsigned)type <= CUBLASXT_DOUBLECOMPLEX,
            CUBLAS_STATUS_INVALID_VALUE);
   handle->cpu_fn[blasOp][type] = blasFunctor;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasXtSetCpuRatio (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasXtSetCpuRatio(cublasXtHandle_t handle, cublasXtBlasOp_t blasOp, cublasXtOpType_t type,
                                             float ratio)
{
   CB_ENTER("handle=%p blasOp=%d type=%d ratio=%g", (void *)handle, (int)blasOp, (int)type, (double)ratio);
   CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK((unsigned)blasOp < CUBLASXT_ROUTINE_MAX && (unsigned)type <= CUBLASXT_DOUBLECOMPLEX,
            CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ratio >= 0.0f && ratio <= 1.0f, CUBLAS_STATUS_INVALID_VALUE);   /* a share of the work */
   handle->cpu_ratio[blasOp][type] = ratio;
   return CUBLAS_STATUS_SUCCESS;
}

/* ---- syrk, symm, trsm ... : staged operands around an ordinary routine ---- */

/* A matrix operand: P (ROWS x COLS, leading dimension LD); IN: read by
 * the routine, OUT: written. */
typedef struct xt_arg {
   const void *p;
   size_t ld, rows, cols;
   bool in, out;
   CUdeviceptr buf;             /* its device copy, when staged */
   void *dev;                   /* what the routine gets */
} xt_arg;

#define XT_ARG(P, LD, R, C, I, O) { .p = (P), .ld = (LD), .rows = (R), .cols = (C), .in = (I), .out = (O) }

static bool xt_is_device(const void *p)
{
   unsigned type = 0;
   return cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)p) ==
             CUDA_SUCCESS &&
          type == CU_MEMORYTYPE_DEVICE;
}

static cublasStatus_t xt_copy(const xt_arg *a, size_t elem, bool in)
{
   CUDA_MEMCPY2D c = { 0 };
   if (in) {
      c.srcMemoryType = CU_MEMORYTYPE_HOST;
      c.srcHost = a->p;
      c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
      c.dstDevice = a->buf;
   } else {
      c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
      c.srcDevice = a->buf;
      c.dstMemoryType = CU_MEMORYTYPE_HOST;
      c.dstHost = (void *)(uintptr_t)a->p;
   }
   c.srcPitch = c.dstPitch = a->ld * elem;
   c.WidthInBytes = a->rows * elem;
   c.Height = a->cols;
   return cb_status_of(cuMemcpy2D(&c));
}

/* Checks the handle and stages the N operands of kind T. */
static cublasStatus_t xt_stage(cublasXtHandle_t x, char t, xt_arg *v, int n)
{
   for (int i = 0; i < n; i++) {
      v[i].buf = 0;
      v[i].dev = (void *)(uintptr_t)v[i].p;
   }
   CB_CHECK(xt_ok(x), CUBLAS_STATUS_NOT_INITIALIZED);
   CB_CHECK(x->h, CUBLAS_STATUS_NOT_INITIALIZED);   /* no cublasXtDeviceSelect yet */
   cublasStatus_t st = cb_enter_ctx(x->h);
   size_t elem = cb_elem(t);
   for (int i = 0; i < n && st == CUBLAS_STATUS_SUCCESS; i++) {
      xt_arg *a = &v[i];
      /* sizes the routine refuses, or nothing to read: as given */
      if (!a->p || a->rows == 0 || a->cols == 0 || a->ld < a->rows || a->ld > (size_t)INT64_MAX / 16 ||
          a->cols > (size_t)INT64_MAX / 16 || xt_is_device(a->p))
         continue;
      st = cb_status_of(cuMemAlloc(&a->buf, (a->ld * (a->cols - 1) + a->rows) * elem));
      if (st != CUBLAS_STATUS_SUCCESS) {
         a->buf = 0;
         break;
      }
      a->dev = (void *)(uintptr_t)a->buf;
      if (a->in)
         st = xt_copy(a, elem, true);
   }
   return st;
}

/* After the routine (status ST): waits for it, copies the written
 * operands back and frees the copies. */
static cublasStatus_t xt_finish(cublasXtHandle_t x, char t, xt_arg *v, int n, cublasStatus_t st)
{
   if (st == CUBLAS_STATUS_SUCCESS)
      st = cb_status_of(cuStreamSynchronize(x->h->stream));
   for (int i = 0; i < n; i++) {
      if (!v[i].buf)
         continue;
      if (st == CUBLAS_STATUS_SUCCESS && v[i].out)
         st = xt_copy(&v[i], cb_elem(t), false);
      cuMemFree(v[i].buf);
   }
   return st;
}

/* Sizes larger than any int64_t routine takes: refused as the routines
 * refuse negative ones. */
#define XT_SIZES_OK(...) xt_sizes_ok((size_t[]){ __VA_ARGS__ }, sizeof((size_t[]){ __VA_ARGS__ }) / sizeof(size_t))
static bool xt_sizes_ok(const size_t *s, size_t n)
{
   for (size_t i = 0; i < n; i++)
      if (s[i] > (size_t)INT64_MAX / 16)
         return false;
   return true;
}

#define XT_HEAD(handle, ...)                                                                                    \
   do {                                                                                                         \
      CB_CHECK(xt_ok(handle), CUBLAS_STATUS_NOT_INITIALIZED);                                                   \
      CB_CHECK(handle->h, CUBLAS_STATUS_NOT_INITIALIZED);                                                       \
      CB_CHECK(XT_SIZES_OK(__VA_ARGS__), CUBLAS_STATUS_INVALID_VALUE);                                          \
   } while (0)

/* syrk: C (n x n) = alpha op(A) op(A)^T + beta C, op(A) n x k; with
 * K0_KEEPS_C, k = 0 leaves C as it was (NVIDIA's cublasXt syrk on an H200,
 * as its gemm; its herk scales C by beta, as BLAS) */
#define XT_SYRK(S, kind, T, RT, X, NAME, K0_KEEPS_C)                                                           \
   CB_EXPORT cublasStatus_t cublasXt##S##X(cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, \
                                           size_t n, size_t k, const RT *alpha, const T *A, size_t lda,          \
                                           const RT *beta, T *C, size_t ldc)                                     \
   {                                                                                                            \
      CB_ENTER("handle=%p uplo=%d trans=%d n=%zu k=%zu alpha=%p A=%p lda=%zu beta=%p C=%p ldc=%zu",             \
               (void *)handle, (int)uplo, (int)trans, n, k, (const void *)alpha, (const void *)A, lda,           \
               (const void *)beta, (void *)C, ldc);                                                             \
      XT_HEAD(handle, n, k, lda, ldc);                                                                          \
      if (K0_KEEPS_C && k == 0)                                                                                 \
         return CUBLAS_STATUS_SUCCESS;                                                                          \
      bool nt = trans == CUBLAS_OP_N;                                                                           \
      xt_arg v[2] = { XT_ARG(A, lda, nt ? n : k, nt ? k : n, true, false), XT_ARG(C, ldc, n, n, true, true) };   \
      cublasStatus_t st = xt_stage(handle, kind, v, 2);                                                         \
      if (st == CUBLAS_STATUS_SUCCESS)                                                                          \
         st = NAME(handle->h, uplo, trans, (int64_t)n, (int64_t)k, alpha, v[0].dev, (int64_t)lda, beta,         \
                   v[1].dev, (int64_t)ldc);                                                                     \
      return xt_finish(handle, kind, v, 2, st);                                                                 \
   }

/* syrkx, syr2k, herkx, her2k: two operands A and B of op n x k */
#define XT_SYRKX(S, kind, T, RT, X, NAME)                                                                       \
   CB_EXPORT cublasStatus_t cublasXt##S##X(cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, \
                                           size_t n, size_t k, const T *alpha, const T *A, size_t lda,           \
                                           const T *B, size_t ldb, const RT *beta, T *C, size_t ldc)             \
   {                                                                                                            \
      CB_ENTER("handle=%p uplo=%d trans=%d n=%zu k=%zu alpha=%p A=%p lda=%zu B=%p ldb=%zu beta=%p C=%p "        \
               "ldc=%zu",                                                                                       \
               (void *)handle, (int)uplo, (int)trans, n, k, (const void *)alpha, (const void *)A, lda,           \
               (const void *)B, ldb, (const void *)beta, (void *)C, ldc);                                       \
      XT_HEAD(handle, n, k, lda, ldb, ldc);                                                                     \
      bool nt = trans == CUBLAS_OP_N;                                                                           \
      xt_arg v[3] = { XT_ARG(A, lda, nt ? n : k, nt ? k : n, true, false),                                      \
                      XT_ARG(B, ldb, nt ? n : k, nt ? k : n, true, false), XT_ARG(C, ldc, n, n, true, true) };   \
      cublasStatus_t st = xt_stage(handle, kind, v, 3);                                                         \
      if (st == CUBLAS_STATUS_SUCCESS)                                                                          \
         st = NAME(handle->h, uplo, trans, (int64_t)n, (int64_t)k, alpha, v[0].dev, (int64_t)lda, v[1].dev,     \
                   (int64_t)ldb, beta, v[2].dev, (int64_t)ldc);                                                 \
      return xt_finish(handle, kind, v, 3, st);                                                                 \
   }

/* symm, hemm: A na x na (na = m left, n right), B and C m x n */
#define XT_SYMM(S, kind, T, X, NAME)                                                                            \
   CB_EXPORT cublasStatus_t cublasXt##S##X(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                           size_t m, size_t n, const T *alpha, const T *A, size_t lda,           \
                                           const T *B, size_t ldb, const T *beta, T *C, size_t ldc)              \
   {                                                                                                            \
      CB_ENTER("handle=%p side=%d uplo=%d m=%zu n=%zu alpha=%p A=%p lda=%zu B=%p ldb=%zu beta=%p C=%p "         \
               "ldc=%zu",                                                                                       \
               (void *)handle, (int)side, (int)uplo, m, n, (const void *)alpha, (const void *)A, lda,            \
               (const void *)B, ldb, (const void *)beta, (void *)C, ldc);                                       \
      XT_HEAD(handle, m, n, lda, ldb, ldc);                                                                     \
      size_t na = side == CUBLAS_SIDE_LEFT ? m : n;                                                             \
      xt_arg v[3] = { XT_ARG(A, lda, na, na, true, false), XT_ARG(B, ldb, m, n, true, false),                   \
                      XT_ARG(C, ldc, m, n, true, true) };                                                       \
      cublasStatus_t st = xt_stage(handle, kind, v, 3);                                                         \
      if (st == CUBLAS_STATUS_SUCCESS)                                                                          \
         st = NAME(handle->h, side, uplo, (int64_t)m, (int64_t)n, alpha, v[0].dev, (int64_t)lda, v[1].dev,      \
                   (int64_t)ldb, beta, v[2].dev, (int64_t)ldc);                                                 \
      return xt_finish(handle, kind, v, 3, st);                                                                 \
   }

/* trmm: C = alpha op(A) B or alpha B op(A), out of place (C may be B) */
#define XT_TRMM(S, kind, T)                                                                                     \
   CB_EXPORT cublasStatus_t cublasXt##S##trmm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                              cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n,  \
                                              const T *alpha, const T *A, size_t lda, const T *B, size_t ldb,      \
                                              T *C, size_t ldc)                                                   \
   {                                                                                                            \
      CB_ENTER("handle=%p side=%d uplo=%d trans=%d diag=%d m=%zu n=%zu alpha=%p A=%p lda=%zu B=%p ldb=%zu "     \
               "C=%p ldc=%zu",                                                                                  \
               (void *)handle, (int)side, (int)uplo, (int)trans, (int)diag, m, n, (const void *)alpha,           \
               (const void *)A, lda, (const void *)B, ldb, (void *)C, ldc);                                     \
      XT_HEAD(handle, m, n, lda, ldb, ldc);                                                                     \
      size_t na = side == CUBLAS_SIDE_LEFT ? m : n;                                                             \
      xt_arg v[3] = { XT_ARG(A, lda, na, na, true, false), XT_ARG(B, ldb, m, n, true, false),                   \
                      XT_ARG(C, ldc, m, n, false, true) };                                                      \
      if ((const void *)C == (const void *)B && ldc == ldb)                                                     \
         v[1].out = true; /* in place: one copy */                                                              \
      cublasStatus_t st = xt_stage(handle, kind, v, (const void *)C == (const void *)B && ldc == ldb ? 2 : 3);  \
      if (st == CUBLAS_STATUS_SUCCESS)                                                                          \
         st = cublas##S##trmm_v2_64(handle->h, side, uplo, trans, diag, (int64_t)m, (int64_t)n, alpha, v[0].dev, \
                                    (int64_t)lda, v[1].dev, (int64_t)ldb,                                       \
                                    (const void *)C == (const void *)B && ldc == ldb ? v[1].dev : v[2].dev,       \
                                    (int64_t)ldc);                                                              \
      return xt_finish(handle, kind, v, (const void *)C == (const void *)B && ldc == ldb ? 2 : 3, st);          \
   }

/* trsm: op(A) X = alpha B or X op(A) = alpha B, X over B */
#define XT_TRSM(S, kind, T)                                                                                     \
   CB_EXPORT cublasStatus_t cublasXt##S##trsm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                              cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n,  \
                                              const T *alpha, const T *A, size_t lda, T *B, size_t ldb)           \
   {                                                                                                            \
      CB_ENTER("handle=%p side=%d uplo=%d trans=%d diag=%d m=%zu n=%zu alpha=%p A=%p lda=%zu B=%p ldb=%zu",     \
               (void *)handle, (int)side, (int)uplo, (int)trans, (int)diag, m, n, (const void *)alpha,           \
               (const void *)A, lda, (void *)B, ldb);                                                           \
      XT_HEAD(handle, m, n, lda, ldb);                                                                          \
      size_t na = side == CUBLAS_SIDE_LEFT ? m : n;                                                             \
      xt_arg v[2] = { XT_ARG(A, lda, na, na, true, false), XT_ARG(B, ldb, m, n, true, true) };                  \
      cublasStatus_t st = xt_stage(handle, kind, v, 2);                                                         \
      if (st == CUBLAS_STATUS_SUCCESS)                                                                          \
         st = cublas##S##trsm_v2_64(handle->h, side, uplo, trans, diag, (int64_t)m, (int64_t)n, alpha, v[0].dev, \
                                    (int64_t)lda, v[1].dev, (int64_t)ldb);                                      \
      return xt_finish(handle, kind, v, 2, st);                                                                 \
   }

/* spmm: symm with A packed (na (na + 1) / 2 elements), unpacked by tpttr
 * into a dense device buffer of leading dimension na */
#define XT_SPMM(S, kind, T)                                                                                     \
   CB_EXPORT cublasStatus_t cublasXt##S##spmm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                              size_t m, size_t n, const T *alpha, const T *AP, const T *B,         \
                                              size_t ldb, const T *beta, T *C, size_t ldc)                        \
   {                                                                                                            \
      CB_ENTER("handle=%p side=%d uplo=%d m=%zu n=%zu alpha=%p AP=%p B=%p ldb=%zu beta=%p C=%p ldc=%zu",        \
               (void *)handle, (int)side, (int)uplo, m, n, (const void *)alpha, (const void *)AP,                \
               (const void *)B, ldb, (const void *)beta, (void *)C, ldc);                                       \
      XT_HEAD(handle, m, n, ldb, ldc);                                                                          \
      CB_CHECK(side == CUBLAS_SIDE_LEFT || side == CUBLAS_SIDE_RIGHT, CUBLAS_STATUS_INVALID_VALUE);             \
      CB_CHECK(uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER, CUBLAS_STATUS_INVALID_VALUE);  \
      size_t na = side == CUBLAS_SIDE_LEFT ? m : n, np = na * (na + 1) / 2;                                     \
      if (xt_is_device(AP)) { /* as NVIDIA's cublasXt on an H200 */                                             \
         LOG_WARN("cublasXt" #S "spmm: a packed A in device memory is not supported (NVIDIA's refuses it too)"); \
         return CUBLAS_STATUS_NOT_SUPPORTED;                                                                    \
      }                                                                                                         \
      CB_CHECK(na <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED); /* tpttr's int */                                 \
      xt_arg v[3] = { XT_ARG(AP, np, np, 1, true, false), XT_ARG(B, ldb, m, n, true, false),                    \
                      XT_ARG(C, ldc, m, n, true, true) };                                                       \
      cublasStatus_t st = xt_stage(handle, kind, v, 3);                                                         \
      CUdeviceptr full = 0;                                                                                     \
      if (st == CUBLAS_STATUS_SUCCESS && na > 0 && m > 0 && n > 0) {                                            \
         st = cb_status_of(cuMemAlloc(&full, na * na * sizeof(T)));                                             \
         if (st != CUBLAS_STATUS_SUCCESS)                                                                       \
            full = 0;                                                                                           \
         else                                                                                                   \
            st = cublas##S##tpttr(handle->h, uplo, (int)na, v[0].dev, (T *)(uintptr_t)full, (int)na);           \
      }                                                                                                         \
      if (st == CUBLAS_STATUS_SUCCESS)                                                                          \
         st = cublas##S##symm_v2_64(handle->h, side, uplo, (int64_t)m, (int64_t)n, alpha,                       \
                                    (const T *)(uintptr_t)full, (int64_t)(na > 1 ? na : 1), v[1].dev,           \
                                    (int64_t)ldb, beta, v[2].dev, (int64_t)ldc);                                \
      st = xt_finish(handle, kind, v, 3, st);                                                                   \
      if (full)                                                                                                 \
         cuMemFree(full);                                                                                       \
      return st;                                                                                                \
   }

#define XT_REAL(S, kind, T)                                                                                     \
   XT_SYRK(S, kind, T, T, syrk, cublas##S##syrk_v2_64, 1)                                                          \
   XT_SYRKX(S, kind, T, T, syrkx, cublas##S##syrkx_64)                                                          \
   XT_SYRKX(S, kind, T, T, syr2k, cublas##S##syr2k_v2_64)                                                       \
   XT_SYMM(S, kind, T, symm, cublas##S##symm_v2_64)                                                             \
   XT_TRMM(S, kind, T)                                                                                          \
   XT_TRSM(S, kind, T)                                                                                          \
   XT_SPMM(S, kind, T)

/* ==== cublasXtSsyrk, Ssyrkx, Ssyr2k, Ssymm, Strmm, Strsm, Sspmm (libcublas.@) ==== */
XT_REAL(S, 's', float)
/* ==== cublasXtDsyrk, Dsyrkx, Dsyr2k, Dsymm, Dtrmm, Dtrsm, Dspmm (libcublas.@) ==== */
XT_REAL(D, 'd', double)
/* ==== cublasXtCsyrk, Csyrkx, Csyr2k, Csymm, Ctrmm, Ctrsm, Cspmm (libcublas.@) ==== */
XT_REAL(C, 'c', cuComplex)
/* ==== cublasXtZsyrk, Zsyrkx, Zsyr2k, Zsymm, Ztrmm, Ztrsm, Zspmm (libcublas.@) ==== */
XT_REAL(Z, 'z', cuDoubleComplex)

/* ==== cublasXtCherk, Cherkx, Cher2k, Chemm (libcublas.@) ==== */
XT_SYRK(C, 'c', cuComplex, float, herk, cublasCherk_v2_64, 0)
XT_SYRKX(C, 'c', cuComplex, float, herkx, cublasCherkx_64)
XT_SYRKX(C, 'c', cuComplex, float, her2k, cublasCher2k_v2_64)
XT_SYMM(C, 'c', cuComplex, hemm, cublasChemm_v2_64)
/* ==== cublasXtZherk, Zherkx, Zher2k, Zhemm (libcublas.@) ==== */
XT_SYRK(Z, 'z', cuDoubleComplex, double, herk, cublasZherk_v2_64, 0)
XT_SYRKX(Z, 'z', cuDoubleComplex, double, herkx, cublasZherkx_64)
XT_SYRKX(Z, 'z', cuDoubleComplex, double, her2k, cublasZher2k_v2_64)
XT_SYMM(Z, 'z', cuDoubleComplex, hemm, cublasZhemm_v2_64)
