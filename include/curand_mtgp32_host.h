/*
 * curand_mtgp32_host.h — metalcuda's cuRAND MTGP32 host functions for the
 * device API, for programs built by metalcuda's own nvcc:
 * mtgp32_init_state, curandMakeMTGP32Constants (the parameter sets into a
 * device mtgp32_kernel_params_t) and curandMakeMTGP32KernelState (N block
 * states seeded on the host, copied to the device).
 *
 * Seeding is MTGP's (Saito and Matsumoto's mtgp32_init_state): every byte
 * of the 351 words the low byte of a hash of the hidden seed
 * tbl[4] ^ tbl[8] << 16 (h + h >> 16, then + >> 8), word 0 the seed,
 * word 1 the hidden seed, then x[i] ^= 1812433253 (x[i-1] ^ x[i-1] >> 30) + i;
 * state i of curandMakeMTGP32KernelState is seeded with
 * (seed ^ seed >> 32) + i + 1 on parameter set i, as cuRAND documents it
 * and as its host generator seeds its states (libcurand's mtgp.h).
 */
#ifndef MC_CURAND_MTGP32_HOST_H
#define MC_CURAND_MTGP32_HOST_H
#define CURAND_MTGP32_HOST_H

#include <stdlib.h>
#include <string.h>
#include "cuda_runtime.h"
#include "curand.h"
#include "curand_mtgp32.h"

static inline void mtgp32_init_state(unsigned int state[], const mtgp32_params_fast_t *para, unsigned int seed)
{
   int size = para->mexp / 32 + 1;
   unsigned int hidden = para->tbl[4] ^ (para->tbl[8] << 16), h = hidden;
   h += h >> 16;
   h += h >> 8;
   memset(state, (int)(h & 0xff), sizeof(unsigned int) * (size_t)size);
   state[0] = seed;
   state[1] = hidden;
   for (int i = 1; i < size; i++)
      state[i] ^= 1812433253u * (state[i - 1] ^ (state[i - 1] >> 30)) + (unsigned int)i;
}

static inline curandStatus_t curandMakeMTGP32Constants(const mtgp32_params_fast_t params[],
                                                       mtgp32_kernel_params_t *p)
{
   mtgp32_kernel_params_t *h = (mtgp32_kernel_params_t *)calloc(1, sizeof *h);
   if (!h)
      return CURAND_STATUS_ALLOCATION_FAILED;
   h->mask[0] = params[0].mask;
   for (int i = 0; i < CURAND_NUM_MTGP32_PARAMS; i++) {
      h->pos_tbl[i] = (unsigned int)params[i].pos;
      h->sh1_tbl[i] = (unsigned int)params[i].sh1;
      h->sh2_tbl[i] = (unsigned int)params[i].sh2;
      memcpy(h->param_tbl[i], params[i].tbl, sizeof h->param_tbl[i]);
      memcpy(h->temper_tbl[i], params[i].tmp_tbl, sizeof h->temper_tbl[i]);
      memcpy(h->single_temper_tbl[i], params[i].flt_tmp_tbl, sizeof h->single_temper_tbl[i]);
   }
   cudaError_t e = cudaMemcpy(p, h, sizeof *h, cudaMemcpyHostToDevice);
   free(h);
   return e == cudaSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_INITIALIZATION_FAILED;
}

/* N states (1 to 200, one per parameter set; others are refused with
 * CURAND_STATUS_OUT_OF_RANGE) at S on the device, using the tables K. */
static inline curandStatus_t curandMakeMTGP32KernelState(curandStateMtgp32_t *s, mtgp32_params_fast_t params[],
                                                         mtgp32_kernel_params_t *k, int n, unsigned long long seed)
{
   if (n < 1 || n > CURAND_NUM_MTGP32_PARAMS)
      return CURAND_STATUS_OUT_OF_RANGE;
   curandStateMtgp32_t *h = (curandStateMtgp32_t *)calloc((size_t)n, sizeof *h);
   if (!h)
      return CURAND_STATUS_ALLOCATION_FAILED;
   unsigned int sd = (unsigned int)(seed ^ (seed >> 32));
   for (int i = 0; i < n; i++) {
      mtgp32_init_state(h[i].s, &params[i], sd + (unsigned int)i + 1);
      h[i].offset = 0;
      h[i].pIdx = i;
      h[i].k = k;
   }
   cudaError_t e = cudaMemcpy(s, h, sizeof *h * (size_t)n, cudaMemcpyHostToDevice);
   free(h);
   return e == cudaSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_INITIALIZATION_FAILED;
}

#endif
