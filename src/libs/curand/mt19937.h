/*
 * mt19937.h — cuRAND's MT19937 generator (CURAND_RNG_PSEUDO_MT19937), shared
 * by the kernels (kernels.cu) and the host generator (mt19937.c): a
 * subsequence's state and twist, the tempering, the order of a block's
 * outputs, and one subsequence's share of a generation call.
 *
 * Algorithm: M. Matsumoto, T. Nishimura, "Mersenne Twister: a
 * 623-dimensionally equidistributed uniform pseudo-random number
 * generator", ACM TOMACS 8 (1998): 624 words, x[k+624] = x[k+397] ^
 * ((upper bit of x[k] | lower 31 of x[k+1]) >> 1) ^ (0x9908b0df if odd),
 * tempered output; init_genrand's seeding.
 *
 * cuRAND's layout (measured on NVIDIA's host generator, cuRAND 10.4.0;
 * tests/libs/native/curand_mt19937_probe.c, src/libs/curand/README.md):
 * 8192 subsequences, subsequence g the seed's sequence g 2^2048 values on
 * (mt19937.c seeds them).  Output n of the stream comes from subsequence
 * (n / 8) mod 8192, its element 8 (n / 65536) + n mod 8: a round of 65536
 * outputs takes 8 from each subsequence.  A subsequence's elements are its
 * MT19937 outputs reordered within each block of 624 (one twist): round 0
 * of a block (elements 0..7) takes the block's outputs 0, 113, 170, 283,
 * 340, 397, 510 and 567, the other 616 fill rounds 1..77 in groups of 7
 * rounds x 8 lanes, lane-major (rng_mt_index).  A call continues the
 * stream where the previous one stopped.
 */
#ifndef MC_CURAND_MT19937_H
#define MC_CURAND_MT19937_H

#include "work.h"

#define RNG_MT_N 624u
#define RNG_MT_M 397u
#define RNG_MT_SUBSEQ 8192u
#define RNG_MT_LANES 8u                                /* a subsequence's outputs in a round */
#define RNG_MT_ROUND (RNG_MT_SUBSEQ * RNG_MT_LANES)    /* outputs in a round */
#define RNG_MT_BLOCK_ROUNDS (RNG_MT_N / RNG_MT_LANES)  /* rounds a block lasts: 78 */

typedef struct {
   rng_u32 x[RNG_MT_N];   /* before the first twist: the seeded state; then the block */
   rng_u32 blocks;        /* twists done: the block in x is blocks - 1 */
} rng_mt;

/* The recurrence: the next word of a sequence from its words k, k + 1
 * and k + 397 (also mt19937.c's jumps, over a window of a sequence) */
RNG_FN rng_u32 rng_mt_rec(rng_u32 a, rng_u32 b, rng_u32 c)
{
   rng_u32 y = (a & 0x80000000u) | (b & 0x7fffffffu);
   return c ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

/* The next 624 words, in place (x[k] becomes x[k + 624]). */
RNG_FN void rng_mt_twist(rng_u32 *x)
{
   rng_u32 k = 0;
   for (; k < RNG_MT_N - RNG_MT_M; k++)
      x[k] = rng_mt_rec(x[k], x[k + 1], x[k + RNG_MT_M]);
   for (; k < RNG_MT_N - 1; k++)
      x[k] = rng_mt_rec(x[k], x[k + 1], x[k + RNG_MT_M - RNG_MT_N]);
   x[k] = rng_mt_rec(x[k], x[0], x[RNG_MT_M - 1]);
}

RNG_FN rng_u32 rng_mt_temper(rng_u32 y)
{
   y ^= y >> 11;
   y ^= (y << 7) & 0x9d2c5680u;
   y ^= (y << 15) & 0xefc60000u;
   return y ^ (y >> 18);
}

/* Where element E (< 624) of a block is among the block's outputs.  Round
 * 0's are 0, 113, 170, 283, 340, 397, 510, 567: 57 t + 56 (t >= 1) +
 * 56 (t >= 3) + 56 (t >= 6).  The k-th of the others is k plus the number
 * of round 0's outputs at or below it: those j with first[j] - j <= k
 * (0, 112, 168, 280, 336, 392, 504, 560). */
RNG_FN rng_u32 rng_mt_index(rng_u32 e)
{
   rng_u32 r = e / RNG_MT_LANES, t = e % RNG_MT_LANES;
   if (!r)
      return 57u * t + 56u * ((t >= 1) + (t >= 3) + (t >= 6));
   rng_u32 k = 56u * ((r - 1) / 7) + 7u * t + (r - 1) % 7;
   return k + 1 + (k >= 112) + (k >= 168) + (k >= 280) + (k >= 336) + (k >= 392) + (k >= 504) + (k >= 560);
}

/* cuRAND's conversions of an MT19937 word (measured on NVIDIA's host
 * generator): the double uniform x 2^-32 + 2^-33, the float one that
 * rounded to float; the normal forms a word each, the inverse normal
 * distribution function as Sobol32's (work.h), in float for float, in
 * double for double, scaled and shifted without a fused multiply-add. */
#ifdef __CUDACC__
#define CR_MT_MULF(a, b) __fmul_rn(a, b)
#define CR_MT_MUL(a, b) __dmul_rn(a, b)
#else
#define CR_MT_MULF(a, b) ((a) * (b))
#define CR_MT_MUL(a, b) ((a) * (b))
#endif

RNG_FN double rng_mt_double(rng_u32 w)
{
   return w * 2.3283064365386963e-10 + 1.1641532182693481e-10;
}

RNG_FN void cr_mt_put(const cr_args *a, rng_u64 o, rng_u32 w)
{
   float f;
   double d;
   switch (a->dist) {
   case CR_U32: ((rng_u32 *)a->out)[o] = w; break;
   case CR_UNIFORM: ((float *)a->out)[o] = (float)rng_mt_double(w); break;
   case CR_UNIFORM_DOUBLE: ((double *)a->out)[o] = rng_mt_double(w); break;
   case CR_POISSON: ((rng_u32 *)a->out)[o] = cr_poisson_word(a, w, 32); break;
   case CR_NORMAL:
   case CR_LOGNORMAL:
      f = CR_MT_MULF(cr_sobol_normalf(w), a->sdf);
      f = f + a->meanf;
      ((float *)a->out)[o] = a->dist == CR_LOGNORMAL ? expf(f) : f;
      break;
   default:
      d = CR_MT_MUL(cr_sobol_normal(w, 32), a->sd);
      d = d + a->mean;
      ((double *)a->out)[o] = a->dist == CR_LOGNORMAL_DOUBLE ? exp(d) : d;
      break;
   }
}

/* Subsequence T's outputs of the call (the stream's [m0, m0 + items)) in
 * the rounds [q0, q1) (a->states: rng_mt[8192]); a caller covers the
 * call's rounds in passes of a block's rounds, so that a subsequence
 * twists at most once a pass and its writes span 78 rounds. */
RNG_FN void cr_mt_thread(const cr_args *a, rng_u32 t)
{
   rng_mt *st = (rng_mt *)a->states + t;
   const rng_u64 end = a->m0 + a->items;
   for (rng_u64 r = a->q0; r < a->q1; r++) {
      rng_u64 b0 = r * RNG_MT_ROUND + (rng_u64)t * RNG_MT_LANES;
      if (b0 + RNG_MT_LANES <= a->m0 || b0 >= end)
         continue;
      rng_u64 blk = r / RNG_MT_BLOCK_ROUNDS;
      while (st->blocks <= blk) {
         rng_mt_twist(st->x);
         st->blocks++;
      }
      rng_u32 e0 = (rng_u32)(r % RNG_MT_BLOCK_ROUNDS) * RNG_MT_LANES;
      for (rng_u32 j = 0; j < RNG_MT_LANES; j++) {
         rng_u64 o = b0 + j;
         if (o >= a->m0 && o < end) {
            rng_u32 w = rng_mt_temper(st->x[rng_mt_index(e0 + j)]);
            if (a->dist == CR_UNIFORM)
               ((float *)a->out)[o - a->m0] = (float)rng_mt_double(w);
            else
               cr_mt_put(a, o - a->m0, w);
         }
      }
   }
}

#endif
