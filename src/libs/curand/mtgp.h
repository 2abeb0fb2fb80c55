/*
 * mtgp.h — MTGP32, the Mersenne Twister for Graphic Processors, shared by
 * the kernels (kernels.cu) and the host generator (mtgp32.c): one state's
 * seeding and step, and one state's share of a generation call.
 *
 * Algorithm: M. Saito, M. Matsumoto, "Variants of Mersenne Twister Suitable
 * for Graphic Processors", ACM TOMS 39 (2013), Mersenne exponent 11213: a
 * state of N = 351 words, the recursion
 *    x[j+N] = f(x[j], x[j+1], x[j+pos]):  x = (x[j] & mask) ^ x[j+1],
 *    x ^= x << sh1, y = x ^ (x[j+pos] >> sh2), y ^ tbl[y & 15]
 * and the output tempered by x[j+pos-1]: t ^= t >> 16, t ^= t >> 8,
 * x[j+N] ^ tmp_tbl[t & 15], with pos, sh1, sh2, tbl and tmp_tbl from one of
 * the parameter sets (mtgp32.c).  The state lives in a ring of 1024 words
 * (the GPU algorithm's layout, where a block of up to 256 threads computes
 * 256 consecutive words at once: pos + 256 <= N keeps them independent).
 * Seeding (MTGP's mtgp32_init_state): every byte of the state the low byte
 * of a hash of the hidden seed tbl[4] ^ tbl[8] << 16; x[0] the seed, x[1]
 * the hidden seed, then x[i] ^= 1812433253 (x[i-1] ^ x[i-1] >> 30) + i.
 *
 * cuRAND's layout (measured on NVIDIA's host generator, cuRAND 10.4.0:
 * tests/libs/curand_mtgp32.cu): 192 states (64 in the LEGACY ordering,
 * RNG_MTGP_LEGACY_STATES; the numbers below are DEFAULT's), state p on
 * parameter set p
 * seeded with (seed ^ seed >> 32) + p + 1 (32 bits); the outputs are one
 * stream, 256 from state 0, 256 from state 1, ..., 256 from state 191,
 * then the next 256 of state 0 and so on, and a call continues the stream
 * where the previous one stopped (mid-block too).  Output g is therefore
 * state (g / 256) mod 192's value (g / 49152) 256 + g mod 256, and each
 * state's outputs within a call are consecutive values of its sequence:
 * a thread per state computes its own.
 */
#ifndef MC_CURAND_MTGP_H
#define MC_CURAND_MTGP_H

#include "work.h"

#define RNG_MTGP_N 351u
#define RNG_MTGP_RING 1024u
#define RNG_MTGP_STATES 192u
#define RNG_MTGP_LEGACY_STATES 64u
#define RNG_MTGP_BLOCK 256u

/* a parameter set, its tables expanded (mtgp32.c) */
typedef struct {
   rng_u32 pos, sh1, sh2, mask;
   rng_u32 tbl[16], tmp[16];
} rng_mtgp_param;

typedef struct {
   rng_u32 s[RNG_MTGP_RING];
   rng_u32 j;   /* ring index of x[j], the next value's oldest input */
} rng_mtgp;

RNG_FN void rng_mtgp_seed(rng_mtgp *st, const rng_mtgp_param *k, rng_u32 seed)
{
   rng_u32 hidden = k->tbl[4] ^ (k->tbl[8] << 16), h = hidden;
   h += h >> 16;
   h += h >> 8;
   rng_u32 fill = (h & 0xffu) * 0x01010101u;
   for (rng_u32 i = 0; i < RNG_MTGP_N; i++)
      st->s[i] = fill;
   st->s[0] = seed;
   st->s[1] = hidden;
   for (rng_u32 i = 1; i < RNG_MTGP_N; i++)
      st->s[i] ^= 1812433253u * (st->s[i - 1] ^ (st->s[i - 1] >> 30)) + i;
   st->j = 0;
}

/* The value after ring index J of ring S (J is then J + 1 mod 1024);
 * the shifts, pos and mask in arguments, so that a loop keeps them in
 * registers (the outputs' stores could alias the parameters). */
RNG_FN rng_u32 rng_mtgp_step(rng_u32 *s, rng_u32 j, const rng_mtgp_param *k, rng_u32 pos, rng_u32 sh1, rng_u32 sh2,
                             rng_u32 mask)
{
   const rng_u32 m = RNG_MTGP_RING - 1;
   rng_u32 x = (s[j] & mask) ^ s[(j + 1) & m];
   x ^= x << sh1;
   rng_u32 y = x ^ (s[(j + pos) & m] >> sh2);
   y ^= k->tbl[y & 15];
   s[(j + RNG_MTGP_N) & m] = y;
   rng_u32 t = s[(j + pos - 1) & m];
   t ^= t >> 16;
   t ^= t >> 8;
   return y ^ k->tmp[t & 15];
}

/* cuRAND's conversions of an MTGP32 word (measured on NVIDIA's host
 * generator): uniform float x 2^-32 + 2^-33, double (x + 1) 2^-32; the
 * normal forms one word each by the inverse normal distribution function,
 * as Sobol32's (work.h: the float one for float and, widened, for the
 * normal double, the double one for the log-normal double), scaled and
 * shifted without a fused multiply-add. */
#ifdef __CUDACC__
#define CR_MTGP_MULF(a, b) __fmul_rn(a, b)
#define CR_MTGP_MUL(a, b) __dmul_rn(a, b)
#else
#define CR_MTGP_MULF(a, b) ((a) * (b))
#define CR_MTGP_MUL(a, b) ((a) * (b))
#endif

RNG_FN void cr_mtgp_put(const cr_args *a, rng_u64 o, rng_u32 w)
{
   float f;
   double d;
   switch (a->dist) {
   case CR_U32: ((rng_u32 *)a->out)[o] = w; break;
   case CR_UNIFORM: ((float *)a->out)[o] = rng_uniform(w); break;
   case CR_UNIFORM_DOUBLE: ((double *)a->out)[o] = rng_sobol32_double(w); break;
   case CR_POISSON: ((rng_u32 *)a->out)[o] = cr_poisson_word(a, w, 32); break;
   case CR_NORMAL:
   case CR_LOGNORMAL:
      /* separate statements: no contraction into an fma on the host */
      f = CR_MTGP_MULF(cr_sobol_normalf(w), a->sdf);
      f = f + a->meanf;
      ((float *)a->out)[o] = a->dist == CR_LOGNORMAL ? expf(f) : f;
      break;
   case CR_NORMAL_DOUBLE:
      d = CR_MTGP_MUL((double)cr_sobol_normalf(w), a->sd);
      ((double *)a->out)[o] = d + a->mean;
      break;
   default:
      d = CR_MTGP_MUL(cr_sobol_normal(w, 32), a->sd);
      d = d + a->mean;
      ((double *)a->out)[o] = exp(d);
      break;
   }
}

/* State T's outputs of the call: the stream's outputs [m0, m0 + items)
 * (a->states: rng_mtgp[a->nthreads], a->jumps: their parameter sets,
 * rng_mtgp_param[a->nthreads]); in each round of a->nthreads blocks, its
 * block's part that falls in the call. */
RNG_FN void cr_mtgp_thread(const cr_args *a, rng_u32 t)
{
   rng_mtgp *st = (rng_mtgp *)a->states + t;
   const rng_mtgp_param *k = (const rng_mtgp_param *)a->jumps + t;
   const rng_u32 pos = k->pos, sh1 = k->sh1, sh2 = k->sh2, mask = k->mask;
   const rng_u64 round = (rng_u64)a->nthreads * RNG_MTGP_BLOCK, end = a->m0 + a->items;
   rng_u32 j = st->j;
   for (rng_u64 b = a->m0 / round * round + (rng_u64)t * RNG_MTGP_BLOCK; b < end; b += round) {
      rng_u64 lo = b > a->m0 ? b : a->m0, hi = b + RNG_MTGP_BLOCK < end ? b + RNG_MTGP_BLOCK : end;
      if (lo >= hi)   /* the block is before the call */
         continue;
      rng_u64 o = lo - a->m0, o1 = hi - a->m0;
      /* the uniform floats, the most used form, without the conversion's
       * switch in the loop (0.46 of the plain loop before, bench/curand.sh) */
      if (a->dist == CR_UNIFORM)
         for (float *f = (float *)a->out; o < o1; o++, j = (j + 1) & (RNG_MTGP_RING - 1))
            f[o] = rng_uniform(rng_mtgp_step(st->s, j, k, pos, sh1, sh2, mask));
      else
         for (; o < o1; o++, j = (j + 1) & (RNG_MTGP_RING - 1))
            cr_mtgp_put(a, o, rng_mtgp_step(st->s, j, k, pos, sh1, sh2, mask));
   }
   st->j = j;
}

/* Restart of state T for the seed. */
RNG_FN void cr_mtgp_init(const cr_args *a, rng_u32 t)
{
   rng_mtgp_seed((rng_mtgp *)a->states + t, (const rng_mtgp_param *)a->jumps + t,
                 (rng_u32)(a->seed ^ (a->seed >> 32)) + t + 1);
}

#endif
