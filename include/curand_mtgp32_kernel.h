/*
 * curand_mtgp32_kernel.h — metalcuda's cuRAND MTGP32 device API, for
 * programs built by metalcuda's own nvcc: curand(), curand_uniform() and
 * curand_uniform_double() on a curandStateMtgp32_t that a whole block
 * shares (up to 256 threads), and curand_mtgp32_specific().
 *
 * MTGP32 (Saito and Matsumoto, ACM TOMS 39, 2013): the state is a ring of
 * 1024 words holding the last N = 351 values of the recursion
 *    x[j+N] = f(x[j], x[j+1], x[j+pos]):  x = (x[j] & mask) ^ x[j+1],
 *    x ^= x << sh1, y = x ^ (x[j+pos] >> sh2), y ^ tbl[y & 15]
 * output tempered by x[j+pos-1] (t ^= t >> 16, t ^= t >> 8,
 * x[j+N] ^ tmp_tbl[t & 15]).  In a call every thread t of the block
 * computes value j = offset + t at once (pos + 256 <= N keeps the inputs
 * of 256 consecutive values apart from their outputs), then the block's
 * offset moves on by its size: thread t's k-th call returns value
 * 256 (k - 1) + t of the state's sequence for a block of 256, which is
 * what libcurand's host generator gives for that parameter set and seed
 * (tests/libs/curand_mtgp32.cu).  The thread index is the linear one,
 * x + X (y + Y z).  Conversions are curand_kernel.h's (a word x to float
 * x 2^-32 + 2^-33, to double x 2^-32 + 2^-32).  Not provided:
 * curand_mtgp32_single(_specific) (floats in [1, 2) through the float
 * tempering table).  The normal, log-normal, Poisson and discrete forms
 * (a word a value, through the inverse normal distribution function) are
 * in crt/mc_curand_dist.h.
 */
#ifndef MC_CURAND_MTGP32_KERNEL_H
#define MC_CURAND_MTGP32_KERNEL_H
#define CURAND_MTGP32_KERNEL_H

#include "curand_kernel.h"
#include "curand_mtgp32.h"

/* value j of the ring S (the new value stored), tempered */
MC_CURAND_FN unsigned int mc_mtgp32_value(curandStateMtgp32_t *state, unsigned int j)
{
   const mtgp32_kernel_params_t *k = state->k;
   int p = state->pIdx;
   unsigned int pos = k->pos_tbl[p], *s = state->s;
   unsigned int x = (s[j & MTGP32_STATE_MASK] & k->mask[0]) ^ s[(j + 1) & MTGP32_STATE_MASK];
   x ^= x << k->sh1_tbl[p];
   unsigned int y = x ^ (s[(j + pos) & MTGP32_STATE_MASK] >> k->sh2_tbl[p]);
   y ^= k->param_tbl[p][y & 15];
   s[(j + MTGPDC_N) & MTGP32_STATE_MASK] = y;
   unsigned int t = s[(j + pos - 1) & MTGP32_STATE_MASK];
   t ^= t >> 16;
   t ^= t >> 8;
   return y ^ k->temper_tbl[p][t & 15];
}

/* The block's next value for thread INDEX, then (all threads at the
 * barrier) the offset moves on by N; INDEX 0 moves it. */
MC_CURAND_FN unsigned int mc_mtgp32_next(curandStateMtgp32_t *state, unsigned int index, unsigned int n)
{
   unsigned int o = mc_mtgp32_value(state, (unsigned int)state->offset + index);
   __syncthreads();
   if (index == 0)
      state->offset = (state->offset + (int)n) & MTGP32_STATE_MASK;
   __syncthreads();
   return o;
}

MC_CURAND_FN unsigned int curand(curandStateMtgp32_t *state)
{
   unsigned int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
   return mc_mtgp32_next(state, t, blockDim.x * blockDim.y * blockDim.z);
}

/* value INDEX of the next N (N <= 256 threads calling, each its index) */
MC_CURAND_FN unsigned int curand_mtgp32_specific(curandStateMtgp32_t *state, unsigned char index, unsigned char n)
{
   return mc_mtgp32_next(state, index, n);
}

MC_CURAND_FN float curand_uniform(curandStateMtgp32_t *state)
{
   return _curand_uniform(curand(state));
}

MC_CURAND_FN double curand_uniform_double(curandStateMtgp32_t *state)
{
   return _curand_uniform_double(curand(state));
}

#endif
