/*
 * context.c — primary contexts and the current context.
 */
#include "internal.h"

LOG_CHANNEL(context);

/* ==== cuDevicePrimaryCtxRetain (libcuda.@) ==== */
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
   API_ENTER("pctx=%p dev=%d", (void *)pctx, dev);
   API_CHECK(pctx, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_ctx *c;
   int r = core_ctx_retain_primary(d, &c);
   if (r == CORE_SUCCESS)
      *pctx = ctx_handle(c);
   return API_RETURN((CUresult)r);
}

/* ==== cuDevicePrimaryCtxRelease_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
   API_ENTER("dev=%d", dev);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   return API_RETURN((CUresult)core_ctx_release_primary(d));
}

/* ==== cuDevicePrimaryCtxReset_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
   API_ENTER("dev=%d", dev);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   return API_RETURN((CUresult)core_ctx_reset_primary(d));
}

/* ==== cuDevicePrimaryCtxGetState (libcuda.@) ==== */
CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
   API_ENTER("dev=%d flags=%p active=%p", dev, (void *)flags, (void *)active);
   API_CHECK(flags && active, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   *flags = 0;
   *active = core_ctx_primary_active(d);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxSetCurrent (libcuda.@) ==== */
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
   API_ENTER("ctx=%p", (void *)ctx);
   API_NEED_INIT();
   API_CHECK(!ctx || core_check_ctx(ctx_of(ctx)), CUDA_ERROR_INVALID_CONTEXT);
   core_ctx_set_current(ctx_of(ctx));
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxGetCurrent (libcuda.@) ==== */
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
   API_ENTER("pctx=%p", (void *)pctx);
   API_CHECK(pctx, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_ctx *c = core_ctx_current();
   *pctx = core_check_ctx(c) ? ctx_handle(c) : NULL;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxGetDevice (libcuda.@) ==== */
CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
   API_ENTER("device=%p", (void *)device);
   API_CHECK(device, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   *device = core_device_ordinal(c->dev);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxSynchronize (libcuda.@) ==== */
CUresult CUDAAPI cuCtxSynchronize(void)
{
   API_ENTER_VOID();
   API_NEED_CTX(c);
   return API_RETURN((CUresult)core_ctx_synchronize(c));
}

/* ==== cuCtxSetLimit (libcuda.@) ==== the printf FIFO size and the stack
 * size (core_ctx_set_limit says what each means here) */
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value)
{
   API_ENTER("limit=%d value=%zu", (int)limit, value);
   API_NEED_CTX(c);
   API_CHECK((int)limit >= 0 && limit <= CU_LIMIT_CIG_ENABLED, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_ctx_set_limit(c, (int)limit, value));
}

/* ==== cuCtxGetLimit (libcuda.@) ==== */
CUresult CUDAAPI cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
   API_ENTER("pvalue=%p limit=%d", (void *)pvalue, (int)limit);
   API_CHECK(pvalue, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK((int)limit >= 0 && limit <= CU_LIMIT_CIG_ENABLED, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_ctx_get_limit(c, (int)limit, pvalue));
}
