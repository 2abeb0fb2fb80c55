/*
 * curand_mtgp32_host.h — metalcuda's cuRAND MTGP32 host functions for the
 * device API, for programs built by metalcuda's own nvcc:
 * mtgp32_init_state, mtgp32_init_by_array and mtgp32_init_by_str (a state
 * seeded by a key), curandMakeMTGP32Constants (the parameter sets into a
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

/* MTGP's seeding by a key (Saito and Matsumoto's mtgp32_init_by_array,
 * the scheme of Matsumoto and Nishimura's init_by_array for MT19937):
 * the words filled with the byte mtgp32_init_state fills them with, word 0
 * the hidden seed; then max(length + 1, size)
 * steps that mix key word k (WORDS[k], or BYTES[k] for a string) into the
 * words i, i + mid and i + mid + lag (lag 7 for 351 words, mid
 * (size - lag) / 2), and size more steps of a second mixing; a last word
 * of 0 becomes 0x4d544750 ("MTGP").  Checked against NVIDIA's header on an
 * H200 (tests/libs/curand_mtgp32_single). */
static inline unsigned int mc_mtgp32_mix1(unsigned int x)
{
   return (x ^ (x >> 27)) * 1664525u;
}
static inline unsigned int mc_mtgp32_mix2(unsigned int x)
{
   return (x ^ (x >> 27)) * 1566083941u;
}
static inline void mc_mtgp32_init_key(unsigned int st[], const mtgp32_params_fast_t *para, const unsigned int *words,
                                      const unsigned char *bytes, int length)
{
   int size = para->mexp / 32 + 1;
   int lag = size >= 623 ? 11 : size >= 68 ? 7 : size >= 39 ? 5 : 3;
   int mid = (size - lag) / 2;
   unsigned int hidden = para->tbl[4] ^ (para->tbl[8] << 16), h = hidden;
   h += h >> 16;
   h += h >> 8;
   memset(st, (int)(h & 0xff), sizeof(unsigned int) * (size_t)size);
   st[0] = hidden;
   int count = length + 1 > size ? length + 1 : size;
   unsigned int r = mc_mtgp32_mix1(st[0] ^ st[mid] ^ st[size - 1]);
   st[mid] += r;
   r += (unsigned int)length;
   st[(mid + lag) % size] += r;
   st[0] = r;
   int i = 1;
   for (int j = 1; j < count; j++) {
      r = mc_mtgp32_mix1(st[i] ^ st[(i + mid) % size] ^ st[(i + size - 1) % size]);
      st[(i + mid) % size] += r;
      if (j - 1 < length)
         r += words ? words[j - 1] : bytes[j - 1];
      r += (unsigned int)i;
      st[(i + mid + lag) % size] += r;
      st[i] = r;
      i = (i + 1) % size;
   }
   for (int j = 0; j < size; j++) {
      r = mc_mtgp32_mix2(st[i] + st[(i + mid) % size] + st[(i + size - 1) % size]);
      st[(i + mid) % size] ^= r;
      r -= (unsigned int)i;
      st[(i + mid + lag) % size] ^= r;
      st[i] = r;
      i = (i + 1) % size;
   }
   if (st[size - 1] == 0)
      st[size - 1] = 0x4d544750u;
}

/* the state seeded by the LENGTH words of ARRAY; 0 (CURAND_STATUS_SUCCESS) */
static inline int mtgp32_init_by_array(unsigned int state[], const mtgp32_params_fast_t *para, unsigned int *array,
                                       int length)
{
   mc_mtgp32_init_key(state, para, array, NULL, length);
   return 0;
}

/* the state seeded by the bytes of the string ARRAY (up to its 0); 0 */
static inline int mtgp32_init_by_str(unsigned int state[], const mtgp32_params_fast_t *para, unsigned char *array)
{
   mc_mtgp32_init_key(state, para, NULL, array, (int)strlen((const char *)array));
   return 0;
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
