/*
 * event.c — events, through the driver's cuEvent*.
 */
#include "internal.h"

LOG_CHANNEL(event);

static CUevent cu(cudaEvent_t e) { return (CUevent)(void *)e; }

/* ==== cudaEventCreateWithFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
   RT_ENTER("event=%p flags=%#x", (void *)event, flags);
   RT_CHECK(event, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuEventCreate((CUevent *)event, flags));
}

/* ==== cudaEventCreate (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

/* ==== cudaEventDestroy (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event)
{
   RT_ENTER("event=%p", (void *)event);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuEventDestroy_v2(cu(event)));
}

/* ==== cudaEventRecordWithFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
   RT_ENTER("event=%p stream=%p flags=%#x", (void *)event, (void *)stream, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuEventRecordWithFlags(cu(event), (CUstream)(void *)stream, flags));
}

/* ==== cudaEventRecordWithFlags_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
   return cudaEventRecordWithFlags(event, stream ? stream : cudaStreamPerThread, flags);
}

/* ==== cudaEventRecord (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
   return cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault);
}

/* ==== cudaEventRecord_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
   return cudaEventRecordWithFlags(event, stream ? stream : cudaStreamPerThread, cudaEventRecordDefault);
}

/* ==== cudaEventQuery (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event)
{
   RT_ENTER("event=%p", (void *)event);
   RT_NEED_CTX();
   CUresult r = cuEventQuery(cu(event));
   /* cudaErrorNotReady "is not actually an error" (CUDA's documentation):
    * not the last error (checked on an H200) */
   if (r == CUDA_ERROR_NOT_READY)
      return cudaErrorNotReady;
   return RT_RETURN_CU(r);
}

/* ==== cudaEventSynchronize (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event)
{
   RT_ENTER("event=%p", (void *)event);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuEventSynchronize(cu(event)));
}

/* ==== cudaEventElapsedTime (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
   RT_ENTER("ms=%p start=%p end=%p", (void *)ms, (void *)start, (void *)end);
   RT_CHECK(ms, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUresult r = cuEventElapsedTime_v2(ms, cu(start), cu(end));
   /* not the last error either (NVIDIA's runtime, checked on an H200) */
   if (r == CUDA_ERROR_NOT_READY)
      return cudaErrorNotReady;
   return RT_RETURN_CU(r);
}
