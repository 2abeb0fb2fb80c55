/*
 * profiler.c — cudaProfiler.h: cuProfilerStart, cuProfilerStop,
 * cuProfilerInitialize.
 *
 * No profiling tool can attach to metalcuda.  With none attached, NVIDIA's
 * cuProfilerStart/Stop change nothing and succeed (they only mark a range
 * for the attached tool: "If profiling is already enabled, then
 * cuProfilerStart() has no effect"), so succeeding is exact here, as long
 * as the calling thread has a current context (CUDA_ERROR_INVALID_CONTEXT
 * otherwise, the documented error).  Nothing reaches core: there is no
 * state to change.
 */
#include "internal.h"

LOG_CHANNEL(profiler);

/* ==== cuProfilerStart (libcuda.@) ==== */
CUresult CUDAAPI cuProfilerStart(void)
{
   API_ENTER_VOID();
   API_NEED_CTX(c);
   (void)c;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuProfilerStop (libcuda.@) ==== */
CUresult CUDAAPI cuProfilerStop(void)
{
   API_ENTER_VOID();
   API_NEED_CTX(c);
   (void)c;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuProfilerInitialize (libcuda.@) ==== deprecated: "Starting with
 * CUDA 12.0, it always returns error code CUDA_ERROR_NOT_SUPPORTED"
 * (cudaProfiler.h), whatever the arguments; so does this.  REFUSED: as CUDA
 * refuses it, not a gap of metalcuda. */
CUresult CUDAAPI cuProfilerInitialize(const char *configFile, const char *outputFile, CUoutput_mode outputMode)
{
   API_ENTER("configFile=%s outputFile=%s outputMode=%d", configFile ? configFile : "(null)",
             outputFile ? outputFile : "(null)", (int)outputMode);
   return API_RETURN(CUDA_ERROR_NOT_SUPPORTED);
}
