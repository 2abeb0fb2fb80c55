/*
 * lto/cufft_jit.cu — the LTO callbacks tests/libs/cufft_jit.cu sets,
 * compiled by run.sh to LTO-IR in a fatbin (nvcc -dc -gencode
 * arch=compute_75,code=lto_75 -fatbin) that the program reads at run time.
 *
 * Each scales by a factor that depends on the element's offset
 * (1 + (offset mod 5) / 4 for loads, 1 + (offset mod 3) / 2 for stores,
 * exact in binary) and by the double callerInfo points to (1 when NULL),
 * so a wrong offset or a lost callerInfo shows in the result.
 *
 * cuFFT calls a callback as a C++ function named by its unqualified name
 * (NVIDIA's cuFFT sought "jit_ld_c" as _Z8jit_ld_cPvyS_S_ on an H100), so
 * the callbacks have C++ linkage; jit_ld_c_c has C linkage, which cuFFT
 * does not find.
 */
#include <cufftXt.h>

__device__ static double ld_scale(unsigned long long off, void *info)
{
   return (1.0 + (double)(off % 5) * 0.25) * (info ? *(const double *)info : 1.0);
}
__device__ static double st_scale(unsigned long long off, void *info)
{
   return (1.0 + (double)(off % 3) * 0.5) * (info ? *(const double *)info : 1.0);
}

__device__ cufftComplex jit_ld_c(void *in, unsigned long long off, void *info, void *sh)
{
   cufftComplex v = ((const cufftComplex *)in)[off];
   float s = (float)ld_scale(off, info);
   v.x *= s;
   v.y *= s;
   return v;
}
__device__ cufftDoubleComplex jit_ld_z(void *in, unsigned long long off, void *info, void *sh)
{
   cufftDoubleComplex v = ((const cufftDoubleComplex *)in)[off];
   double s = ld_scale(off, info);
   v.x *= s;
   v.y *= s;
   return v;
}
__device__ cufftReal jit_ld_r(void *in, unsigned long long off, void *info, void *sh)
{
   return ((const cufftReal *)in)[off] * (float)ld_scale(off, info);
}
__device__ cufftDoubleReal jit_ld_d(void *in, unsigned long long off, void *info, void *sh)
{
   return ((const cufftDoubleReal *)in)[off] * ld_scale(off, info);
}
__device__ void jit_st_c(void *out, unsigned long long off, cufftComplex v, void *info, void *sh)
{
   float s = (float)st_scale(off, info);
   v.x *= s;
   v.y *= s;
   ((cufftComplex *)out)[off] = v;
}
__device__ void jit_st_z(void *out, unsigned long long off, cufftDoubleComplex v, void *info, void *sh)
{
   double s = st_scale(off, info);
   v.x *= s;
   v.y *= s;
   ((cufftDoubleComplex *)out)[off] = v;
}
__device__ void jit_st_r(void *out, unsigned long long off, cufftReal v, void *info, void *sh)
{
   ((cufftReal *)out)[off] = v * (float)st_scale(off, info);
}
__device__ void jit_st_d(void *out, unsigned long long off, cufftDoubleReal v, void *info, void *sh)
{
   ((cufftDoubleReal *)out)[off] = v * st_scale(off, info);
}

/* C linkage: not a callback cuFFT finds */
extern "C" __device__ cufftComplex jit_ld_c_c(void *in, unsigned long long off, void *info, void *sh)
{
   return ((const cufftComplex *)in)[off];
}
