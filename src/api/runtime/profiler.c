/*
 * profiler.c — cuda_profiler_api.h: cudaProfilerStart, cudaProfilerStop,
 * through the driver's cuProfilerStart/Stop (driver/profiler.c: with no
 * profiling tool attached, and none can attach to metalcuda, they change
 * nothing and succeed, as NVIDIA's do).  The runtime makes the current
 * device's primary context current first, as for any call that needs a
 * context.
 */
#include "internal.h"

LOG_CHANNEL(profiler);

/* ==== cudaProfilerStart (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaProfilerStart(void)
{
   RT_ENTER_VOID();
   RT_NEED_CTX();
   return RT_RETURN_CU(cuProfilerStart());
}

/* ==== cudaProfilerStop (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaProfilerStop(void)
{
   RT_ENTER_VOID();
   RT_NEED_CTX();
   return RT_RETURN_CU(cuProfilerStop());
}
