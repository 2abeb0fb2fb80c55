/*
 * cudaTypedefs.h — NVIDIA's header of PFN_cu* function-pointer types for
 * the driver entry points (cuGetProcAddress).  CCCL includes it and takes
 * its function types from cuda.h (decltype), which is what this gives.
 * The PFN_cuNAME_vNNNN typedefs are not written yet: a program that names
 * one fails to compile with the name, it is never given a wrong type.
 */
#ifndef MC_CUDA_TYPEDEFS_H
#define MC_CUDA_TYPEDEFS_H
#include "cuda.h"
#endif
