/*
 * stream.c — streams and host functions, through the driver's cuStream*.
 * cudaStream_t and CUstream are the same handles (cudaStreamLegacy and
 * cudaStreamPerThread are CU_STREAM_LEGACY and CU_STREAM_PER_THREAD); the
 * _ptsz entry points, which programs built with --default-stream
 * per-thread call, read a NULL stream as cudaStreamPerThread.
 */
#include "internal.h"

LOG_CHANNEL(stream);

static CUstream cu(cudaStream_t s) { return (CUstream)(void *)s; }

/* ==== cudaDeviceGetStreamPriorityRange (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
   RT_ENTER("leastPriority=%p greatestPriority=%p", (void *)leastPriority, (void *)greatestPriority);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuCtxGetStreamPriorityRange(leastPriority, greatestPriority));
}

/* ==== cudaStreamCreateWithPriority (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
   RT_ENTER("pStream=%p flags=%#x priority=%d", (void *)pStream, flags, priority);
   RT_CHECK(pStream, cudaErrorInvalidValue);
   RT_CHECK((flags & ~(unsigned)cudaStreamNonBlocking) == 0, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamCreateWithPriority((CUstream *)pStream, flags, priority));
}

/* ==== cudaStreamCreateWithFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
   return cudaStreamCreateWithPriority(pStream, flags, 0);
}

/* ==== cudaStreamCreate (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *pStream)
{
   return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0);
}

/* ==== cudaStreamDestroy (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream)
{
   RT_ENTER("stream=%p", (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamDestroy_v2(cu(stream)));
}

/* ==== cudaStreamGetPriority (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
   RT_ENTER("hStream=%p priority=%p", (void *)hStream, (void *)priority);
   RT_CHECK(priority, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamGetPriority(cu(hStream), priority));
}

/* ==== cudaStreamGetPriority_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
   return cudaStreamGetPriority(rt_ptsz(hStream), priority);
}

/* ==== cudaStreamGetFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
   RT_ENTER("hStream=%p flags=%p", (void *)hStream, (void *)flags);
   RT_CHECK(flags, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamGetFlags(cu(hStream), flags));
}

/* ==== cudaStreamGetFlags_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
   return cudaStreamGetFlags(rt_ptsz(hStream), flags);
}

/* ==== cudaStreamSynchronize (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream)
{
   RT_ENTER("stream=%p", (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamSynchronize(cu(stream)));
}

/* ==== cudaStreamSynchronize_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t stream) { return cudaStreamSynchronize(rt_ptsz(stream)); }

/* ==== cudaStreamQuery (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream)
{
   RT_ENTER("stream=%p", (void *)stream);
   RT_NEED_CTX();
   CUresult r = cuStreamQuery(cu(stream));
   /* cudaErrorNotReady "is not actually an error" (CUDA's documentation):
    * the answer of a query, not the thread's last error (checked on an
    * H200) */
   if (r == CUDA_ERROR_NOT_READY)
      return cudaErrorNotReady;
   return RT_RETURN_CU(r);
}

/* ==== cudaStreamQuery_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t stream) { return cudaStreamQuery(rt_ptsz(stream)); }

/* ==== cudaStreamWaitEvent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
   RT_ENTER("stream=%p event=%p flags=%#x", (void *)stream, (void *)event, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamWaitEvent(cu(stream), (CUevent)(void *)event, flags));
}

/* ==== cudaStreamWaitEvent_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
   return cudaStreamWaitEvent(rt_ptsz(stream), event, flags);
}

/* ==== cudaLaunchHostFunc (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
   RT_ENTER("stream=%p fn=%p userData=%p", (void *)stream, (void *)(uintptr_t)fn, userData);
   RT_CHECK(fn, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuLaunchHostFunc(cu(stream), (CUhostFn)fn, userData));
}

/* ==== cudaLaunchHostFunc_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
   return cudaLaunchHostFunc(rt_ptsz(stream), fn, userData);
}

/* A runtime callback gets the runtime's error code: the driver's callback
 * calls it through this. */
typedef struct rt_callback {
   cudaStreamCallback_t fn;
   void *data;
} rt_callback;

static void CUDA_CB call_rt_callback(CUstream stream, CUresult status, void *arg)
{
   rt_callback c = *(rt_callback *)arg;
   free(arg);
   c.fn((cudaStream_t)(void *)stream, status == CUDA_SUCCESS ? cudaSuccess : cu_to_cuda_error(status), c.data);
}

/* ==== cudaStreamAddCallback (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                            unsigned int flags)
{
   RT_ENTER("stream=%p callback=%p userData=%p flags=%#x", (void *)stream, (void *)(uintptr_t)callback, userData,
            flags);
   RT_CHECK(callback, cudaErrorInvalidValue);
   RT_CHECK(flags == 0, cudaErrorInvalidValue);
   RT_NEED_CTX();
   rt_callback *c = malloc(sizeof(*c));
   RT_CHECK(c, cudaErrorMemoryAllocation);
   *c = (rt_callback){ callback, userData };
   CUresult r = cuStreamAddCallback(cu(stream), call_rt_callback, c, 0);
   if (r != CUDA_SUCCESS)
      free(c);
   return RT_RETURN_CU(r);
}

/* ==== cudaStreamAddCallback_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                                 unsigned int flags)
{
   return cudaStreamAddCallback(rt_ptsz(stream), callback, userData, flags);
}

/* ==== cudaStreamGetId (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
   RT_ENTER("hStream=%p streamId=%p", (void *)hStream, (void *)streamId);
   RT_CHECK(streamId, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamGetId(cu(hStream), streamId));
}

/* ==== cudaStreamGetId_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
   return cudaStreamGetId(rt_ptsz(hStream), streamId);
}

/* ==== cudaStreamGetDevice (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
   RT_ENTER("hStream=%p device=%p", (void *)hStream, (void *)device);
   RT_CHECK(device, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamGetDevice(cu(hStream), device));
}

/* ==== cudaStreamGetDevice_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
   return cudaStreamGetDevice(rt_ptsz(hStream), device);
}

/* ---- stream capture queries (capture itself: graph.c) ---- */

/* ==== cudaStreamIsCapturing (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
   RT_ENTER("stream=%p pCaptureStatus=%p", (void *)stream, (void *)pCaptureStatus);
   RT_CHECK(pCaptureStatus, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUstreamCaptureStatus st;
   CUresult r = cuStreamIsCapturing(cu(stream), &st);
   if (r == CUDA_SUCCESS)
      *pCaptureStatus = (enum cudaStreamCaptureStatus)st;
   return RT_RETURN_CU(r);
}

/* ==== cudaStreamIsCapturing_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
   return cudaStreamIsCapturing(rt_ptsz(stream), pCaptureStatus);
}

cudaError_t rt_capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                            unsigned long long *id_out, cudaGraph_t *graph_out,
                            const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                            size_t *numDependencies_out)
{
   if (!captureStatus_out)
      return cudaErrorInvalidValue;
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   CUstreamCaptureStatus st;
   CUresult r = cuStreamGetCaptureInfo_v3(cu(stream), &st, (cuuint64_t *)id_out, graph_out, dependencies_out,
                                          (const CUgraphEdgeData **)edgeData_out, numDependencies_out);
   if (r == CUDA_SUCCESS)
      *captureStatus_out = (enum cudaStreamCaptureStatus)st;
   return cu_to_cuda_error(r);
}

/* ==== cudaStreamGetCaptureInfo (libcudart.@) ==== CUDA 13's form (with
 * edge data), the driver's cuStreamGetCaptureInfo_v3; CUDA 12's forms are
 * in abi12.c */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                              enum cudaStreamCaptureStatus *captureStatus_out,
                                                              unsigned long long *id_out, cudaGraph_t *graph_out,
                                                              const cudaGraphNode_t **dependencies_out,
                                                              const cudaGraphEdgeData **edgeData_out,
                                                              size_t *numDependencies_out)
{
   RT_ENTER("stream=%p captureStatus_out=%p id_out=%p graph_out=%p dependencies_out=%p edgeData_out=%p "
            "numDependencies_out=%p",
            (void *)stream, (void *)captureStatus_out, (void *)id_out, (void *)graph_out, (void *)dependencies_out,
            (void *)edgeData_out, (void *)numDependencies_out);
   return RT_RETURN(rt_capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                    numDependencies_out));
}

/* ==== cudaStreamGetCaptureInfo_ptsz (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                    enum cudaStreamCaptureStatus *captureStatus_out,
                                                    unsigned long long *id_out, cudaGraph_t *graph_out,
                                                    const cudaGraphNode_t **dependencies_out,
                                                    const cudaGraphEdgeData **edgeData_out,
                                                    size_t *numDependencies_out)
{
   return cudaStreamGetCaptureInfo(rt_ptsz(stream), captureStatus_out, id_out, graph_out, dependencies_out,
                                   edgeData_out, numDependencies_out);
}

/* ==== cudaStreamAttachMemAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
   RT_ENTER("stream=%p devPtr=%p length=%zu flags=%#x", (void *)stream, devPtr, length, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamAttachMemAsync(cu(stream), (CUdeviceptr)(uintptr_t)devPtr, length, flags));
}

/* ==== cudaStreamAttachMemAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                    unsigned int flags)
{
   return cudaStreamAttachMemAsync(rt_ptsz(stream), devPtr, length, flags);
}

/* ==== cudaStreamGetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             cudaLaunchAttributeValue *value_out)
{
   RT_ENTER("hStream=%p attr=%d value_out=%p", (void *)hStream, (int)attr, (void *)value_out);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamGetAttribute(cu(hStream), (CUstreamAttrID)attr, (CUstreamAttrValue *)(void *)value_out));
}

/* ==== cudaStreamGetAttribute_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                                  cudaLaunchAttributeValue *value_out)
{
   return cudaStreamGetAttribute(rt_ptsz(hStream), attr, value_out);
}

/* ==== cudaStreamSetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             const cudaLaunchAttributeValue *value)
{
   RT_ENTER("hStream=%p attr=%d value=%p", (void *)hStream, (int)attr, (const void *)value);
   RT_NEED_CTX();
   return RT_RETURN_CU(
      cuStreamSetAttribute(cu(hStream), (CUstreamAttrID)attr, (const CUstreamAttrValue *)(const void *)value));
}

/* ==== cudaStreamSetAttribute_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                                  const cudaLaunchAttributeValue *value)
{
   return cudaStreamSetAttribute(rt_ptsz(hStream), attr, value);
}

/* ==== cudaStreamCopyAttributes (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
   RT_ENTER("dst=%p src=%p", (void *)dst, (void *)src);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamCopyAttributes(cu(dst), cu(src)));
}

/* ==== cudaStreamCopyAttributes_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src)
{
   return cudaStreamCopyAttributes(rt_ptsz(dst), rt_ptsz(src));
}
