/*
 * fft_cb_lto.cu — the load callback bench/libs/fft_cb.cu sets: each element
 * read and scaled by 2, compiled by bench/cufft.sh to LTO-IR in a fatbin.
 */
#include <cufftXt.h>

extern "C" __device__ cufftComplex bench_ld(void *in, unsigned long long off, void *info, void *sh)
{
   cufftComplex v = ((const cufftComplex *)in)[off];
   v.x *= 2.0f;
   v.y *= 2.0f;
   return v;
}
