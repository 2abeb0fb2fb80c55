/*
 * legacy.c — what cuBLAS's legacy API (cublas.h) has besides its BLAS
 * routines: cublasInit and cublasShutdown (one handle for the process,
 * which every legacy routine of legacy_api.c uses), cublasGetError (the
 * last failing status of a legacy routine on this thread, cleared by the
 * reading), cublasAlloc/cublasFree (device memory in the handle's
 * context) and cublasSetKernelStream (the handle's stream); and the
 * conversions of the legacy mode characters.
 *
 * As NVIDIA's (measured on an H200, tests/libs/cublas_legacy.cu): a program
 * need not call cublasInit, the first legacy call makes the handle, also
 * after cublasShutdown (which always succeeds); the status cublasGetError
 * answers is the last legacy routine's, a success included.
 */
#include "cb.h"
#include <cublas.h>

#include <pthread.h>

LOG_CHANNEL(cublas);

static pthread_mutex_t legacy_lock = PTHREAD_MUTEX_INITIALIZER;
static cublasHandle_t legacy_handle;
static _Thread_local cublasStatus_t legacy_error = CUBLAS_STATUS_SUCCESS;

cublasHandle_t cb_legacy_handle(void)
{
   pthread_mutex_lock(&legacy_lock);
   if (!legacy_handle && cublasCreate_v2(&legacy_handle) != CUBLAS_STATUS_SUCCESS)
      legacy_handle = NULL;
   cublasHandle_t h = legacy_handle;
   pthread_mutex_unlock(&legacy_lock);
   return h;
}

void cb_legacy_status(const char *fn, cublasStatus_t s)
{
   if (s != CUBLAS_STATUS_SUCCESS)
      LOG_INFO("%s (legacy API) -> %s, kept for cublasGetError", fn, cublasGetStatusName(s));
   legacy_error = s;
}

/* A character no mode has becomes a value no _v2 routine accepts:
 * CUBLAS_STATUS_INVALID_VALUE. */
cublasOperation_t cb_legacy_op(char c)
{
   switch (c) {
   case 'N': case 'n': return CUBLAS_OP_N;
   case 'T': case 't': return CUBLAS_OP_T;
   case 'C': case 'c': return CUBLAS_OP_C;
   default: return (cublasOperation_t)-1;
   }
}

cublasFillMode_t cb_legacy_fill(char c)
{
   switch (c) {
   case 'U': case 'u': return CUBLAS_FILL_MODE_UPPER;
   case 'L': case 'l': return CUBLAS_FILL_MODE_LOWER;
   default: return (cublasFillMode_t)-1;
   }
}

cublasDiagType_t cb_legacy_diag(char c)
{
   switch (c) {
   case 'U': case 'u': return CUBLAS_DIAG_UNIT;
   case 'N': case 'n': return CUBLAS_DIAG_NON_UNIT;
   default: return (cublasDiagType_t)-1;
   }
}

cublasSideMode_t cb_legacy_side(char c)
{
   switch (c) {
   case 'L': case 'l': return CUBLAS_SIDE_LEFT;
   case 'R': case 'r': return CUBLAS_SIDE_RIGHT;
   default: return (cublasSideMode_t)-1;
   }
}

/* ==== cublasInit (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasInit(void)
{
   CB_ENTER("%s", "");
   cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
   pthread_mutex_lock(&legacy_lock);
   if (!legacy_handle)
      s = cublasCreate_v2(&legacy_handle);
   pthread_mutex_unlock(&legacy_lock);
   return s;
}

/* ==== cublasShutdown (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasShutdown(void)
{
   CB_ENTER("%s", "");
   pthread_mutex_lock(&legacy_lock);
   cublasHandle_t h = legacy_handle;
   legacy_handle = NULL;
   pthread_mutex_unlock(&legacy_lock);
   return h ? cublasDestroy_v2(h) : CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetError (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetError(void)
{
   CB_ENTER("%s", "");
   cublasStatus_t s = legacy_error;
   legacy_error = CUBLAS_STATUS_SUCCESS;
   return s;
}

/* ==== cublasAlloc (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasAlloc(int n, int elemSize, void **devicePtr)
{
   CB_ENTER("n=%d elemSize=%d devicePtr=%p", n, elemSize, (void *)devicePtr);
   cublasHandle_t h = cb_legacy_handle();
   CB_HANDLE(h);
   CB_CHECK(devicePtr && n > 0 && elemSize > 0, CUBLAS_STATUS_INVALID_VALUE);
   cublasStatus_t s = cb_enter_ctx(h);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   CUdeviceptr p = 0;
   CUresult r = cuMemAlloc(&p, (size_t)n * (size_t)elemSize);
   if (r != CUDA_SUCCESS)
      return CUBLAS_STATUS_ALLOC_FAILED;
   *devicePtr = (void *)(uintptr_t)p;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasFree (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasFree(void *devicePtr)
{
   CB_ENTER("devicePtr=%p", devicePtr);
   cublasHandle_t h = cb_legacy_handle();
   CB_HANDLE(h);
   if (!devicePtr)
      return CUBLAS_STATUS_SUCCESS;
   cublasStatus_t s = cb_enter_ctx(h);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   return cuMemFree((CUdeviceptr)(uintptr_t)devicePtr) == CUDA_SUCCESS ? CUBLAS_STATUS_SUCCESS
                                                                        : CUBLAS_STATUS_INTERNAL_ERROR;
}

/* ==== cublasSetKernelStream (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasSetKernelStream(cudaStream_t stream)
{
   CB_ENTER("stream=%p", (void *)stream);
   cublasHandle_t h = cb_legacy_handle();
   CB_HANDLE(h);
   return cublasSetStream_v2(h, stream);
}
