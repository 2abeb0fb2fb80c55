/*
 * cufft.h — metalcuda's cuFFT: the types and values of NVIDIA's cuFFT ABI
 * (CUDA 13, cuFFT 12.0) and the functions libcufft implements, written from
 * cuFFT's documentation.  The rest of NVIDIA's exports (the cufftXt*
 * multi-GPU and callback API, plan properties) exist in the library as stubs
 * that return CUFFT_NOT_SUPPORTED; they are not declared here, so a program
 * that uses one fails to compile, naming it.  Link with -lcufft.
 */
#ifndef MC_CUFFT_H
#define MC_CUFFT_H

#include <stddef.h>
#include "cuda_runtime_api.h"
#include "library_types.h"
#include "cuComplex.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUFFTAPI

#define CUFFT_VER_MAJOR 12
#define CUFFT_VER_MINOR 0
#define CUFFT_VER_PATCH 0
#define CUFFT_VERSION (CUFFT_VER_MAJOR * 1000 + CUFFT_VER_MINOR * 100 + CUFFT_VER_PATCH)

/* Results (cufftResult_t): the values of NVIDIA's ABI. */
typedef enum cufftResult_t {
   CUFFT_SUCCESS = 0,
   CUFFT_INVALID_PLAN = 1,
   CUFFT_ALLOC_FAILED = 2,
   CUFFT_INVALID_TYPE = 3,
   CUFFT_INVALID_VALUE = 4,
   CUFFT_INTERNAL_ERROR = 5,
   CUFFT_EXEC_FAILED = 6,
   CUFFT_SETUP_FAILED = 7,
   CUFFT_INVALID_SIZE = 8,
   CUFFT_UNALIGNED_DATA = 9,
   CUFFT_INVALID_DEVICE = 11,
   CUFFT_NO_WORKSPACE = 13,
   CUFFT_NOT_IMPLEMENTED = 14,
   CUFFT_NOT_SUPPORTED = 16,
   CUFFT_MISSING_DEPENDENCY = 17,
   CUFFT_NVRTC_FAILURE = 18,
   CUFFT_NVJITLINK_FAILURE = 19,
   CUFFT_NVSHMEM_FAILURE = 20
} cufftResult;

typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;             /* interleaved real, imaginary */
typedef cuDoubleComplex cufftDoubleComplex;

/* The sign of the exponent: forward e^{-2 pi i jk/n}, inverse e^{+...};
 * neither scales. */
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1

/* Transform types: bit 6 set for double precision. */
typedef enum cufftType_t {
   CUFFT_C2C = 0x29,
   CUFFT_R2C = 0x2a,
   CUFFT_C2R = 0x2c,
   CUFFT_Z2Z = 0x69,
   CUFFT_D2Z = 0x6a,
   CUFFT_Z2D = 0x6c
} cufftType;

typedef enum cufftCompatibility_t { CUFFT_COMPATIBILITY_FFTW_PADDING = 1 } cufftCompatibility;
#define CUFFT_COMPATIBILITY_DEFAULT CUFFT_COMPATIBILITY_FFTW_PADDING

/* A plan is an integer handle; CUFFT_PLAN_NULL is never a plan. */
typedef int cufftHandle;
#define CUFFT_PLAN_NULL -1
#define MAX_SHIM_RANK 3

/* Plans in one call (create + make) */
cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch);
cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type);
cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type);
cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                          int ostride, int odist, cufftType type, int batch);

/* Plans in two steps: cufftCreate, then cufftMakePlan* */
cufftResult cufftCreate(cufftHandle *handle);
cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize);
cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize);
cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize);
cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                              int ostride, int odist, cufftType type, int batch, size_t *workSize);
cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, long long int *onembed,
                                long long int ostride, long long int odist, cufftType type, long long int batch,
                                size_t *workSize);

/* Work-area sizes */
cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t *workSize);
cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t *workSize);
cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t *workSize);
cufftResult cufftEstimateMany(int rank, int *n, int *inembed, int istride, int idist, int *onembed, int ostride,
                              int odist, cufftType type, int batch, size_t *workSize);
cufftResult cufftGetSize1d(cufftHandle handle, int nx, cufftType type, int batch, size_t *workSize);
cufftResult cufftGetSize2d(cufftHandle handle, int nx, int ny, cufftType type, size_t *workSize);
cufftResult cufftGetSize3d(cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t *workSize);
cufftResult cufftGetSizeMany(cufftHandle handle, int rank, int *n, int *inembed, int istride, int idist,
                             int *onembed, int ostride, int odist, cufftType type, int batch, size_t *workArea);
cufftResult cufftGetSizeMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                               long long int istride, long long int idist, long long int *onembed,
                               long long int ostride, long long int odist, cufftType type, long long int batch,
                               size_t *workSize);
cufftResult cufftGetSize(cufftHandle handle, size_t *workSize);
cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea);
cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate);

/* Execution, in the plan's stream */
cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction);
cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata);
cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata);
cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata, int direction);
cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata);
cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata);

/* Helpers */
cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream);
cufftResult cufftDestroy(cufftHandle plan);
cufftResult cufftGetVersion(int *version);
cufftResult cufftGetProperty(libraryPropertyType type, int *value);

#ifdef __cplusplus
}
#endif

#endif
