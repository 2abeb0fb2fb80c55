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

/* ==== cuDevicePrimaryCtxRelease (libcuda.@) ==== the CUDA 7.0 name,
 * which runtimes built before 11.0 look up; the same call */
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }

/* ==== cuDevicePrimaryCtxReset_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
   API_ENTER("dev=%d", dev);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   return API_RETURN((CUresult)core_ctx_reset_primary(d));
}

/* ==== cuDevicePrimaryCtxReset (libcuda.@) ==== the CUDA 7.0 name */
CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }

/* ==== cuDevicePrimaryCtxGetState (libcuda.@) ==== */
CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
   API_ENTER("dev=%d flags=%p active=%p", dev, (void *)flags, (void *)active);
   API_CHECK(flags && active, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   *flags = core_device_primary_flags(d);
   *active = core_ctx_primary_active(d);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxSetCurrent (libcuda.@) ==== NULL pops the thread's stack.  A
 * primary context that was reset may be made current (NVIDIA's runtime
 * does so with the handle it asked for before retaining it); calls in it
 * fail until it is retained again. */
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
   API_ENTER("ctx=%p", (void *)ctx);
   API_NEED_INIT();
   API_CHECK(!ctx || core_ctx_known(ctx_of(ctx)), CUDA_ERROR_INVALID_CONTEXT);
   core_ctx_set_current(ctx_of(ctx));
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxGetCurrent (libcuda.@) ==== a reset primary context stays
 * current, as on NVIDIA's driver (observed: cudaDeviceReset, then
 * cuCtxGetCurrent returns the same handle) */
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
   API_ENTER("pctx=%p", (void *)pctx);
   API_CHECK(pctx, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_ctx *c = core_ctx_current();
   *pctx = core_ctx_known(c) ? ctx_handle(c) : NULL;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxPushCurrent_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx)
{
   API_ENTER("ctx=%p", (void *)ctx);
   API_NEED_INIT();
   API_CHECK(core_ctx_known(ctx_of(ctx)), CUDA_ERROR_INVALID_CONTEXT);
   return API_RETURN((CUresult)core_ctx_push(ctx_of(ctx)));
}

/* ==== cuCtxPopCurrent_v2 (libcuda.@) ==== pctx may be NULL */
CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext *pctx)
{
   API_ENTER("pctx=%p", (void *)pctx);
   API_NEED_INIT();
   API_CHECK(core_ctx_current(), CUDA_ERROR_INVALID_CONTEXT);
   core_ctx *c = core_ctx_pop(NULL);
   if (pctx)
      *pctx = ctx_handle(c);
   return API_RETURN(CUDA_SUCCESS);
}

/* Makes a context on device dev and pushes it on the calling thread's
 * stack, as every cuCtxCreate does. */
static CUresult ctx_create(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
   API_CHECK(pctx, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_ctx *c;
   CUresult r = (CUresult)core_ctx_create(d, flags, &c);
   if (r != CUDA_SUCCESS)
      return r;
   if ((r = (CUresult)core_ctx_push(c)) != CUDA_SUCCESS) {
      core_ctx_destroy(c);
      return r;
   }
   *pctx = ctx_handle(c);
   return CUDA_SUCCESS;
}

/* ==== cuCtxCreate_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
   API_ENTER("pctx=%p flags=%#x dev=%d", (void *)pctx, flags, dev);
   return API_RETURN(ctx_create(pctx, flags, dev));
}

/* ==== cuCtxCreate (libcuda.@) ==== the CUDA 3.1 entry point (32-bit
 * device pointers): an H200's driver (580) answers CUDA_ERROR_OUT_OF_MEMORY
 * and makes nothing */
CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
   API_ENTER("pctx=%p flags=%#x dev=%d", (void *)pctx, flags, dev);
   return API_RETURN(CUDA_ERROR_OUT_OF_MEMORY);
}

/* Execution affinity (a share of the SMs, under MPS) has no counterpart
 * here: a context given some is refused as a GPU without MPS refuses it. */
static CUresult check_affinity(const CUexecAffinityParam *params, int n)
{
   if (n < 0 || (n > 0 && !params))
      return CUDA_ERROR_INVALID_VALUE;
   if (n > 0)
      LOG_WARN("execution affinity (%d parameters) is not supported", n);
   return n > 0 ? CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY : CUDA_SUCCESS;
}

/* ==== cuCtxCreate_v3 (libcuda.@) ==== */
CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags,
                                CUdevice dev)
{
   API_ENTER("pctx=%p params=%p n=%d flags=%#x dev=%d", (void *)pctx, (void *)paramsArray, numParams, flags, dev);
   API_CHECK(pctx, CUDA_ERROR_INVALID_VALUE);
   CUresult r = check_affinity(paramsArray, numParams);
   return API_RETURN(r != CUDA_SUCCESS ? r : ctx_create(pctx, flags, dev));
}

/* ==== cuCtxCreate_v4 (libcuda.@) ==== CUDA 13's cuCtxCreate; a CUDA-in-
 * graphics context (cigParams) is refused by name */
CUresult CUDAAPI cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
   API_ENTER("pctx=%p params=%p flags=%#x dev=%d", (void *)pctx, (void *)ctxCreateParams, flags, dev);
   API_CHECK(pctx, CUDA_ERROR_INVALID_VALUE);
   if (ctxCreateParams) {
      CUresult r = check_affinity(ctxCreateParams->execAffinityParams, ctxCreateParams->numExecAffinityParams);
      if (r != CUDA_SUCCESS)
         return API_RETURN(r);
      if (ctxCreateParams->cigParams)
         API_NOT_SUPPORTED("CUDA in graphics contexts (CUctxCreateParams.cigParams)");
   }
   return API_RETURN(ctx_create(pctx, flags, dev));
}

/* ==== cuCtxDestroy_v2 (libcuda.@) ==== a context cuCtxCreate made: its
 * work completes, its streams, events, modules and memory go; popped if
 * current to the calling thread.  One current to another thread, and a
 * primary context, are CUDA_ERROR_INVALID_CONTEXT (an H200). */
CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx)
{
   API_ENTER("ctx=%p", (void *)ctx);
   API_CHECK(ctx, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_ctx *c = ctx_of(ctx);
   API_CHECK(core_check_ctx(c) && !c->is_primary, CUDA_ERROR_INVALID_CONTEXT);
   CUresult r = (CUresult)core_ctx_destroy(c);
   if (r == CUDA_SUCCESS && core_ctx_current() == c)
      core_ctx_pop(NULL);
   return API_RETURN(r);
}

/* ==== cuCtxDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx)
{
   return cuCtxDestroy_v2(ctx);
}

/* ==== cuCtxGetApiVersion (libcuda.@) ==== ctx NULL: the current one.  A
 * primary context answers 3020 (observed on an H200: the version of the
 * context API it was made with, cuCtxCreate_v2's, which primary contexts
 * report whatever the caller). */
CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
   API_ENTER("ctx=%p version=%p", (void *)ctx, (void *)version);
   API_CHECK(version, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_ctx *c = ctx ? ctx_of(ctx) : core_ctx_current();
   API_CHECK(core_ctx_known(c), CUDA_ERROR_INVALID_CONTEXT);
   *version = 3020;
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

/* ==== cuCtxGetDevice_v2 (libcuda.@) ==== CUDA 13: of a given context
 * (NULL: the current one) */
CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
   API_ENTER("device=%p ctx=%p", (void *)device, (void *)ctx);
   API_CHECK(device, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_ctx *c = ctx ? ctx_of(ctx) : core_ctx_current();
   API_CHECK(core_check_ctx(c), CUDA_ERROR_INVALID_CONTEXT);
   *device = core_device_ordinal(c->dev);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxGetId (libcuda.@) ==== ctx NULL: the current context.  The id
 * is core's (unique in the process, never reused), the one per-thread
 * streams already name their context by. */
CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
   API_ENTER("ctx=%p ctxId=%p", (void *)ctx, (void *)ctxId);
   API_CHECK(ctxId, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_ctx *c = ctx ? ctx_of(ctx) : core_ctx_current();
   API_CHECK(core_check_ctx(c), CUDA_ERROR_INVALID_CONTEXT);
   *ctxId = c->id;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxSynchronize (libcuda.@) ==== */
CUresult CUDAAPI cuCtxSynchronize(void)
{
   API_ENTER_VOID();
   API_NEED_CTX(c);
   DRV_CAPTURE_CHECK(core_capture_ctx_sync(c));
   return API_RETURN((CUresult)core_ctx_synchronize(c));
}

/* ==== cuCtxSynchronize_v2 (libcuda.@) ==== CUDA 13: a given context
 * (NULL: the current one) */
CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx)
{
   API_ENTER("ctx=%p", (void *)ctx);
   API_NEED_INIT();
   core_ctx *c = ctx ? ctx_of(ctx) : core_ctx_current();
   API_CHECK(core_check_ctx(c), CUDA_ERROR_INVALID_CONTEXT);
   DRV_CAPTURE_CHECK(core_capture_ctx_sync(c));
   return API_RETURN((CUresult)core_ctx_synchronize(c));
}

/* ==== cuCtxSetLimit (libcuda.@) ==== every CUlimit (src/core/limits.c
 * says what each means here) */
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value)
{
   API_ENTER("limit=%d value=%zu", (int)limit, value);
   API_NEED_CTX(c);
   API_CHECK((int)limit >= 0 && limit < CU_LIMIT_MAX, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_ctx_set_limit(c, (int)limit, value));
}

/* ==== cuCtxGetLimit (libcuda.@) ==== */
CUresult CUDAAPI cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
   API_ENTER("pvalue=%p limit=%d", (void *)pvalue, (int)limit);
   API_CHECK(pvalue, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   API_CHECK((int)limit >= 0 && limit < CU_LIMIT_MAX, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_ctx_get_limit(c, (int)limit, pvalue));
}

/* ==== cuDevicePrimaryCtxSetFlags_v2 (libcuda.@) ==== CUDA 11+ lets the
 * flags change while the primary context is active; they apply to it */
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
   API_ENTER("dev=%d flags=%#x", dev, flags);
   API_NEED_INIT();
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   CUresult r = (CUresult)core_ctx_check_flags(flags);
   if (r == CUDA_SUCCESS)
      core_device_set_primary_flags(d, flags);
   return API_RETURN(r);
}

/* ==== cuDevicePrimaryCtxSetFlags (libcuda.@) ==== */
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
   return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

/* ==== cuCtxGetFlags (libcuda.@) ==== CU_CTX_MAP_HOST is always on
 * (CUDA 11+); NVIDIA reports it for a primary context, and a created one's
 * flags as given (an H200) */
CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags)
{
   API_ENTER("flags=%p", (void *)flags);
   API_CHECK(flags, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   *flags = __atomic_load_n(&c->flags, __ATOMIC_ACQUIRE) | (c->is_primary ? CU_CTX_MAP_HOST : 0);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxSetFlags (libcuda.@) ==== */
CUresult CUDAAPI cuCtxSetFlags(unsigned int flags)
{
   API_ENTER("flags=%#x", flags);
   API_NEED_CTX(c);
   return API_RETURN((CUresult)core_ctx_set_flags(c, flags));
}

/* ==== cuCtxGetCacheConfig (libcuda.@) ==== */
CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
   API_ENTER("pconfig=%p", (void *)pconfig);
   API_CHECK(pconfig, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   *pconfig = (CUfunc_cache)__atomic_load_n(&c->cache_config, __ATOMIC_ACQUIRE);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxSetCacheConfig (libcuda.@) ==== a preference (limits.c) */
CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config)
{
   API_ENTER("config=%d", (int)config);
   API_NEED_CTX(c);
   return API_RETURN((CUresult)core_ctx_set_cache_config(c, (int)config));
}

/* ==== cuCtxGetSharedMemConfig (libcuda.@) ==== shared memory banks are
 * four bytes wide, as NVIDIA answers on every device since Maxwell */
CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
   API_ENTER("pConfig=%p", (void *)pConfig);
   API_CHECK(pConfig, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   (void)c;
   *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxSetSharedMemConfig (libcuda.@) ==== accepted without effect,
 * as CUDA does on devices whose bank size is fixed (observed on an H200:
 * the eight-byte setting succeeds and four bytes are still reported) */
CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config)
{
   API_ENTER("config=%d", (int)config);
   API_NEED_CTX(c);
   (void)c;
   API_CHECK((int)config >= 0 && config <= CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuCtxEnablePeerAccess (libcuda.@) ==== no Metal device can map
 * another's memory (cuDeviceCanAccessPeer answers 0) */
CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
   API_ENTER("peerContext=%p Flags=%#x", (void *)peerContext, Flags);
   API_NEED_CTX(c);
   (void)c;
   API_CHECK(core_check_ctx(ctx_of(peerContext)), CUDA_ERROR_INVALID_CONTEXT);
   API_CHECK(Flags == 0, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
}

/* ==== cuCtxDisablePeerAccess (libcuda.@) ==== never enabled */
CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peerContext)
{
   API_ENTER("peerContext=%p", (void *)peerContext);
   API_NEED_CTX(c);
   (void)c;
   API_CHECK(core_check_ctx(ctx_of(peerContext)), CUDA_ERROR_INVALID_CONTEXT);
   return API_RETURN(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
}

/* ==== cuCtxResetPersistingL2Cache (libcuda.@) ==== no cache line is ever
 * made persisting here (access policy windows are hints that are not
 * acted on), so there is nothing to reset */
CUresult CUDAAPI cuCtxResetPersistingL2Cache(void)
{
   API_ENTER_VOID();
   API_NEED_CTX(c);
   (void)c;
   return API_RETURN(CUDA_SUCCESS);
}
