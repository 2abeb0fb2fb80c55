/*
 * callback.c — cuFFT's legacy callbacks (cufftXtSetCallback and its
 * companions), answered as NVIDIA's shared library answers them.
 *
 * A legacy callback is a __device__ function of the program, which NVIDIA
 * links into its kernels at the program's device link: it needs NVIDIA's
 * static cuFFT (libcufft_static.a, -dc).  NVIDIA's shared libcufft, the
 * library `-lcufft` gives and the one metalcuda's stands in for, does not
 * take them.  Measured on an H200 (CUDA 13.0, libcufft.so.12): with a
 * device function pointer fetched by cudaMemcpyFromSymbol, on a planned
 * handle and on a created one, cufftXtSetCallback and cufftXtClearCallback
 * answer CUFFT_NOT_IMPLEMENTED and cufftXtSetCallbackSharedSize
 * CUFFT_INVALID_PLAN (its plan has no callback).  The LTO callbacks of
 * CUDA 12.6 (cufftXtSetJITCallback, LTO-IR that metalcuda cannot compile)
 * stay a stub (CUFFT_NOT_SUPPORTED, said).
 */
#include "cf.h"

LOG_CHANNEL(cufft);

static cufftResult legacy_callbacks(const char *fn)
{
   LOG_ONCE(LOG_LEVEL_WARN,
            "%s: cuFFT's legacy callbacks need NVIDIA's static cuFFT; its shared library, which metalcuda's "
            "stands in for, answers CUFFT_NOT_IMPLEMENTED as this does",
            fn);
   return CUFFT_NOT_IMPLEMENTED;
}

/* ==== cufftXtSetCallback (libcufft.so.12) ==== */
CF_EXPORT cufftResult cufftXtSetCallback(cufftHandle plan, void **callback_routine, cufftXtCallbackType cbType,
                                         void **caller_info)
{
   CF_ENTER("plan=%d callback_routine=%p cbType=%d caller_info=%p", plan, (void *)callback_routine, (int)cbType,
            (void *)caller_info);
   return legacy_callbacks("cufftXtSetCallback");
}

/* ==== cufftXtClearCallback (libcufft.so.12) ==== */
CF_EXPORT cufftResult cufftXtClearCallback(cufftHandle plan, cufftXtCallbackType cbType)
{
   CF_ENTER("plan=%d cbType=%d", plan, (int)cbType);
   return legacy_callbacks("cufftXtClearCallback");
}

/* ==== cufftXtSetCallbackSharedSize (libcufft.so.12) ==== */
CF_EXPORT cufftResult cufftXtSetCallbackSharedSize(cufftHandle plan, cufftXtCallbackType cbType, size_t sharedSize)
{
   CF_ENTER("plan=%d cbType=%d sharedSize=%zu", plan, (int)cbType, sharedSize);
   return CUFFT_INVALID_PLAN;   /* no plan has a callback (cufftXtSetCallback) */
}
