/* cudaProfiler.h — cuProfilerStart/Stop (declared by cuda.h). */
#ifndef MC_CUDAPROFILER_H
#define MC_CUDAPROFILER_H
#include "cuda.h"
#endif
