/*
 * handle.c — cublasLtCreate/Destroy (a handle of metalcuda's libcublas in
 * the context current then, and the epilogue module loaded there),
 * versions, properties, status names; the logger calls (accepted: metalcuda
 * traces through METALCUDA_LOG instead).
 */
#include "lt.h"

#include <stdlib.h>

LOG_CHANNEL(cublasLt);

extern const char lt_kernels_ptx[];

bool lt_handle_ok(cublasLtHandle_t h)
{
   return h && h->magic == LT_MAGIC_HANDLE;
}

/* ==== cublasLtCreate (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle)
{
   LOG_TRACE("lightHandle=%p", (void *)lightHandle);
   LT_CHECK(lightHandle, CUBLAS_STATUS_INVALID_VALUE);
   *lightHandle = NULL;
   cublasLtHandle_t h = calloc(1, sizeof(*h));
   if (!h)
      return CUBLAS_STATUS_ALLOC_FAILED;
   /* the cuBLAS handle retains a primary context if none is current */
   cublasStatus_t s = cublasCreate_v2(&h->cublas);
   if (s == CUBLAS_STATUS_SUCCESS && cuCtxGetCurrent(&h->ctx) != CUDA_SUCCESS)
      s = CUBLAS_STATUS_NOT_INITIALIZED;
   static const char *const names[4] = { "lt_epilogue_s", "lt_epilogue_d", "lt_epilogue_h", "lt_epilogue_b" };
   if (s == CUBLAS_STATUS_SUCCESS && cuModuleLoadData(&h->mod, lt_kernels_ptx) != CUDA_SUCCESS)
      s = CUBLAS_STATUS_NOT_INITIALIZED;
   static const char *const tnames[4] = { "lt_transform_s", "lt_transform_d", "lt_transform_h", "lt_transform_b" };
   for (int i = 0; i < 4 && s == CUBLAS_STATUS_SUCCESS; i++)
      if (cuModuleGetFunction(&h->epilogue[i], h->mod, names[i]) != CUDA_SUCCESS ||
          cuModuleGetFunction(&h->transform[i], h->mod, tnames[i]) != CUDA_SUCCESS)
         s = CUBLAS_STATUS_INTERNAL_ERROR;
   if (s != CUBLAS_STATUS_SUCCESS) {
      LOG_WARN("cublasLtCreate: %s", cublasGetStatusName(s));
      if (h->mod)
         cuModuleUnload(h->mod);
      if (h->cublas)
         cublasDestroy_v2(h->cublas);
      free(h);
      return s;
   }
   h->magic = LT_MAGIC_HANDLE;
   *lightHandle = h;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasLtDestroy (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle)
{
   LOG_TRACE("lightHandle=%p", (void *)lightHandle);
   LT_CHECK(lt_handle_ok(lightHandle), CUBLAS_STATUS_NOT_INITIALIZED);
   lightHandle->magic = 0;
   CUcontext cur = NULL;
   cuCtxGetCurrent(&cur);
   if (cur != lightHandle->ctx)
      cuCtxSetCurrent(lightHandle->ctx);
   cuModuleUnload(lightHandle->mod);
   cublasStatus_t s = cublasDestroy_v2(lightHandle->cublas);
   if (cur != lightHandle->ctx)
      cuCtxSetCurrent(cur);
   free(lightHandle);
   return s;
}

/* ==== cublasLtGetVersion (libcublasLt.@) ==== */
LT_EXPORT size_t cublasLtGetVersion(void)
{
   LOG_TRACE("%s", "");
   return CUBLASLT_VERSION;
}

/* ==== cublasLtGetCudartVersion (libcublasLt.@) ==== */
LT_EXPORT size_t cublasLtGetCudartVersion(void)
{
   LOG_TRACE("%s", "");
   return 13000;
}

/* ==== cublasLtGetProperty (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value)
{
   LOG_TRACE("type=%d value=%p", (int)type, (void *)value);
   LT_CHECK(value, CUBLAS_STATUS_INVALID_VALUE);
   switch (type) {
   case MAJOR_VERSION: *value = CUBLASLT_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
   case MINOR_VERSION: *value = CUBLASLT_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
   case PATCH_LEVEL: *value = CUBLASLT_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
   default: return CUBLAS_STATUS_INVALID_VALUE;
   }
}

/* ==== cublasLtGetStatusName (libcublasLt.@) ==== */
LT_EXPORT const char *cublasLtGetStatusName(cublasStatus_t status)
{
   LOG_TRACE("status=%d", (int)status);
   return cublasGetStatusName(status);
}

/* ==== cublasLtGetStatusString (libcublasLt.@) ==== */
LT_EXPORT const char *cublasLtGetStatusString(cublasStatus_t status)
{
   LOG_TRACE("status=%d", (int)status);
   return cublasGetStatusString(status);
}

/* ==== the logger (libcublasLt.@): configuration accepted, nothing written ==== */
LT_EXPORT cublasStatus_t cublasLtLoggerSetCallback(cublasLtLoggerCallback_t callback)
{
   LOG_TRACE("callback=%p", (void *)(uintptr_t)callback);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtLoggerSetFile(FILE *file)
{
   LOG_TRACE("file=%p", (void *)file);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtLoggerOpenFile(const char *logFile)
{
   LOG_TRACE("logFile=%s", logFile ? logFile : "(null)");
   LT_CHECK(logFile, CUBLAS_STATUS_INVALID_VALUE);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtLoggerSetLevel(int level)
{
   LOG_TRACE("level=%d", level);
   LT_CHECK(level >= 0 && level <= 5, CUBLAS_STATUS_INVALID_VALUE);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtLoggerSetMask(int mask)
{
   LOG_TRACE("mask=%d", mask);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtLoggerForceDisable(void)
{
   LOG_TRACE("%s", "");
   return CUBLAS_STATUS_SUCCESS;
}
