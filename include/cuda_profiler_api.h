/* cuda_profiler_api.h — cudaProfilerStart/Stop (declared by cuda_runtime_api.h). */
#ifndef MC_CUDA_PROFILER_API_H
#define MC_CUDA_PROFILER_API_H
#include "cuda_runtime_api.h"
#endif
