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
 * reported but change nothing.  The other cublasXt routines (syrk, symm,
 * trsm ..., CPU routines and ratios) stay stubs.
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
