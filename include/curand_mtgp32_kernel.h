/*
 * curand_mtgp32_kernel.h — metalcuda's cuRAND MTGP32 device API, for
 * programs built by metalcuda's own nvcc: curand(), curand_uniform() and
 * curand_uniform_double() on a curandStateMtgp32_t that a whole block
 * shares (up to 256 threads), curand_mtgp32_specific(),
 * curand_mtgp32_single() and curand_mtgp32_single_specific().
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
 * (tests/libs/curand_mtgp32.cu).  The thread index is NVIDIA's,
 * x + X y + Y Z z: the linear one in 1-D and 2-D blocks (3-D blocks are
 * not tested).  Conversions are curand_kernel.h's (a word x to float
 * x 2^-32 + 2^-33, to double x 2^-32 + 2^-32).
 * curand_mtgp32_single(_specific): floats in [1, 2), the value's top 23
 * bits in the mantissa through the float tempering table (MTGP's float
 * output), as NVIDIA's header computes them, which is not the parallel
 * step above (mc_mtgp32_single_next: thread x of a 1-D block takes value
 * offset + 1 + x, _specific offset + index, stored at the ring's word
 * 1 + x or index; bit-identical to an H200 in
 * tests/libs/curand_mtgp32_single).  The normal, log-normal, Poisson and
 * discrete forms (a word a value, through the inverse normal distribution
 * function) are in crt/mc_curand_dist.h.
 */
#ifndef MC_CURAND_MTGP32_KERNEL_H
#define MC_CURAND_MTGP32_KERNEL_H
#define CURAND_MTGP32_KERNEL_H

#include "curand_kernel.h"
#include "curand_mtgp32.h"

/* the recursion's value j of the ring (not stored) */
MC_CURAND_FN unsigned int mc_mtgp32_rec(const curandStateMtgp32_t *state, unsigned int j)
{
   const mtgp32_kernel_params_t *k = state->k;
   int p = state->pIdx;
   const unsigned int *s = state->s;
   unsigned int x = (s[j & MTGP32_STATE_MASK] & k->mask[0]) ^ s[(j + 1) & MTGP32_STATE_MASK];
   x ^= x << k->sh1_tbl[p];
   unsigned int y = x ^ (s[(j + k->pos_tbl[p]) & MTGP32_STATE_MASK] >> k->sh2_tbl[p]);
   return y ^ k->param_tbl[p][y & 15];
}

/* the tempering tables' row for value j: from the word before its pick-up */
MC_CURAND_FN unsigned int mc_mtgp32_trow(const curandStateMtgp32_t *state, unsigned int j)
{
   unsigned int t = state->s[(j + state->k->pos_tbl[state->pIdx] - 1) & MTGP32_STATE_MASK];
   t ^= t >> 16;
   t ^= t >> 8;
   return t & 15;
}

/* value j of the ring S (the new value stored), tempered */
MC_CURAND_FN unsigned int mc_mtgp32_value(curandStateMtgp32_t *state, unsigned int j)
{
   unsigned int y = mc_mtgp32_rec(state, j);
   state->s[(j + MTGPDC_N) & MTGP32_STATE_MASK] = y;
   return y ^ state->k->temper_tbl[state->pIdx][mc_mtgp32_trow(state, j)];
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
   /* NVIDIA's index: z is scaled by Y Z, not X Y (the two differ in 3-D
    * blocks whose X and Z differ) */
   unsigned int t = blockDim.z * blockDim.y * threadIdx.z + blockDim.x * threadIdx.y + threadIdx.x;
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

/* The float output (curand_mtgp32_single and _specific), as NVIDIA's
 * header computes it (an H200 agrees: tests/libs/curand_mtgp32_single).
 * The value's top 23 bits go into a float's mantissa, the float
 * tempering table's row (which holds 1.0f's exponent and the tempering
 * matrix's top 23 bits) XORed in: a float in [1, 2).  Unlike curand(),
 * the value computed is J = offset + SLOT and it is stored at word SLOT
 * of the ring, not after the state's last value; the offset moves on by N
 * as for curand().  Where the words read (offset + SLOT to
 * offset + SLOT + pos) overlap the words stored (the SLOTs) NVIDIA's
 * result depends on the order its warps run in; here every read is done
 * before any store. */
MC_CURAND_FN float mc_mtgp32_single_next(curandStateMtgp32_t *state, unsigned int slot, unsigned int n)
{
   unsigned int j = (unsigned int)state->offset + slot;
   unsigned int y = mc_mtgp32_rec(state, j);
   unsigned int o = (y >> 9) ^ state->k->single_temper_tbl[state->pIdx][mc_mtgp32_trow(state, j)];
   __syncthreads();
   state->s[slot & MTGP32_STATE_MASK] = y;
   if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
      state->offset = (state->offset + (int)n) & MTGP32_STATE_MASK;
   __syncthreads();
   return __uint_as_float(o);
}

/* NVIDIA's thread index here is threadIdx.x + blockDim.y blockDim.z (in a
 * 1-D block x + 1): threads that differ only in y or z share a value
 * (and in NVIDIA's header each of their x = 0 threads moves the offset,
 * a race; here thread 0 alone moves it). */
MC_CURAND_FN float curand_mtgp32_single(curandStateMtgp32_t *state)
{
   return mc_mtgp32_single_next(state, threadIdx.x + blockDim.y * blockDim.z,
                                blockDim.x * blockDim.y * blockDim.z);
}

/* value INDEX of the next N, as a float in [1, 2); thread 0 of the block
 * moves the offset (curand_mtgp32_specific: the thread of index 0) */
MC_CURAND_FN float curand_mtgp32_single_specific(curandStateMtgp32_t *state, unsigned char index, unsigned char n)
{
   return mc_mtgp32_single_next(state, index, n);
}

#endif
