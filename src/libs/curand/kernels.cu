/*
 * kernels.cu — libcurand's device code, CUDA C (built to PTX by metalcuda's
 * nvcc, embedded by kernels.S): a thread per subsequence for XORWOW and
 * MRG32k3a (restart and generation, work.h), a thread per group of four
 * outputs (striding) for Philox4_32_10 (per subsequence for
 * curandGeneratePoissonMethod's CURAND_DEVICE_API), a thread per CR_SOBOL_CHUNK points
 * of one dimension for Sobol32/64, a thread per state for MTGP32 (restart
 * and generation, mtgp.h).  The arithmetic is rng.h's and mtgp.h's, which
 * the host generator shares.
 */
#include "work.h"
#include "mtgp.h"
#include "mt19937.h"

extern "C" __global__ void cr_init_xorwow(cr_args a)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < a.nthreads)
      cr_xorwow_init(&a, t);
}

extern "C" __global__ void cr_init_mrg(cr_args a)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < a.nthreads)
      cr_mrg_init(&a, t);
}

extern "C" __global__ void cr_gen_xorwow(cr_args a)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < a.nthreads)
      cr_xorwow_thread(&a, t);
}

extern "C" __global__ void cr_gen_mrg(cr_args a)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < a.nthreads)
      cr_mrg_thread(&a, t);
}

extern "C" __global__ void cr_gen_philox(cr_args a)
{
   unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
   unsigned long long k0 = a.m0 >> 2, groups = ((a.m0 + a.items + 3) >> 2) - k0;
   if (a.dist == CR_POISSON && cr_pm_stateful(a.pmethod)) {
      /* CURAND_DEVICE_API: a thread per subsequence the call reaches */
      unsigned long long subs = groups < RNG_PHILOX_THREADS ? groups : RNG_PHILOX_THREADS;
      for (unsigned long long q = blockIdx.x * blockDim.x + threadIdx.x; q < subs; q += stride)
         cr_philox_pm(&a, k0 + q);
      return;
   }
   for (unsigned long long q = blockIdx.x * blockDim.x + threadIdx.x; q < groups; q += stride)
      cr_philox_group(&a, k0 + q);
}

extern "C" __global__ void cr_gen_sobol(cr_args a)
{
   unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
   unsigned long long chunks = (a.points + CR_SOBOL_CHUNK - 1) / CR_SOBOL_CHUNK;
   if (t < chunks * a.dims)
      cr_sobol_thread(&a, t);
}

/* MTGP32: a thread per state (mtgp.h) */
extern "C" __global__ void cr_init_mtgp(cr_args a)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < a.nthreads)
      cr_mtgp_init(&a, t);
}

extern "C" __global__ void cr_gen_mtgp(cr_args a)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < a.nthreads)
      cr_mtgp_thread(&a, t);
}

/* MT19937: a thread per subsequence, the rounds [q0, q1) of the call
 * (mt19937.h); its states are seeded on the host (mt19937.c) */
extern "C" __global__ void cr_gen_mt19937(cr_args a)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < RNG_MT_SUBSEQ)
      cr_mt_thread(&a, t);
}
