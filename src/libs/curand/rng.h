/*
 * rng.h — the arithmetic of libcurand's generators and distributions, shared
 * by the kernels (kernels.cu, CUDA C through metalcuda's nvcc) and the host
 * generator (host.c, C), so that both compute the same sequences.
 *
 * Algorithms (published; constants as in the papers and cuRAND's docs):
 *  - XORWOW: Marsaglia, "Xorshift RNGs" (J. Stat. Softw. 2003), the xorwow
 *    of five 32-bit words plus a Weyl sequence d += 362437, output v4 + d.
 *    Seeding: the 64-bit seed split in two words, each xor'ed with a salt
 *    and multiplied by an odd constant (cuRAND's scheme).  Subsequence k
 *    starts 2^67 k values on; jumps are GF(2) matrix powers (host.c
 *    computes them by squaring the one-step matrix).
 *  - Philox4x32-10: Salmon, Moraes, Dror, Shaw, "Parallel random numbers:
 *    as easy as 1, 2, 3" (SC11): a 128-bit counter (value index / 4 in the
 *    low half, subsequence in the high half) under a 64-bit key (the seed),
 *    ten rounds, four words out per counter.
 *  - MRG32k3a: L'Ecuyer, "Good parameters and implementations for combined
 *    multiple recursive random number generators" (Oper. Res. 1999):
 *    two order-3 recurrences mod m1 and m2, output (p1 - p2) mod m1 in
 *    (0, m1]; subsequences 2^76 apart, jumps are 3x3 matrix powers mod m.
 *  - Sobol (quasi-random): Bratley and Fox, "Algorithm 659" (ACM TOMS 1988)
 *    with Antonov and Saleev's Gray-code order: point i of a dimension is
 *    the xor of its direction vectors v_k over the bits k of i ^ (i >> 1),
 *    and point i + 1 is point i xor v_ctz(i + 1).  The vectors are Joe and
 *    Kuo's (sobol.c).  Its normals: the inverse normal distribution
 *    function by Acklam's approximation (and a Halley step in double).
 *
 * Distributions follow cuRAND's documented conversions: a 32-bit word x to
 * float x 2^-32 + 2^-33 (in (0, 1]); Box-Muller on a pair of words:
 * radius sqrt(-2 ln u), angle 2 pi v, (r sin, r cos) in that order.
 */
#ifndef MC_CURAND_RNG_H
#define MC_CURAND_RNG_H

#ifdef __CUDACC__
#define RNG_FN static __device__ __forceinline__
/* the GPU's sine and cosine (sin/cos.approx), as NVIDIA's device Box-Muller
 * (curand_normal.h) takes them: bit exact through the translator's SFU
 * model (src/compiler/msl/prelude/sfu.metal); the host keeps sinf/cosf, as
 * NVIDIA's host generator does */
#define RNG_SINCOSF(v, s, c) __sincosf(v, s, c)
#define RNG_CTZ64(x) (__ffsll((long long)(x)) - 1)
#else
#include <math.h>
#include <stdint.h>
#define RNG_FN static inline
#define RNG_SINCOSF(v, s, c) (*(s) = sinf(v), *(c) = cosf(v))
#define RNG_CTZ64(x) __builtin_ctzll(x)
#endif

typedef unsigned int rng_u32;
typedef unsigned long long rng_u64;

/* How many subsequences (threads) each generator interleaves in the default
 * ordering, as NVIDIA's library does (measured on an H200 and on NVIDIA's
 * host generator: tests/libs/README.md). */
#define RNG_XORWOW_THREADS 4096u
#define RNG_MRG_THREADS 81920u
#define RNG_MRG_LEGACY_THREADS 4096u
#define RNG_PHILOX_THREADS 65536u
/* log2 of the distance between subsequences */
#define RNG_XORWOW_SUBSEQ_LOG2 67
#define RNG_MRG_SUBSEQ_LOG2 76
/* jump tables: powers 2^0 .. 2^63 of one step, then 2^(SUBSEQ+0..) */
#define RNG_XORWOW_JUMPS (64 + 13)
#define RNG_MRG_JUMPS (64 + 17)

/* ---- XORWOW ---- */
/* bm_flag, bm_extra: a Box-Muller value kept for the next item of the
 * subsequence (curandGeneratePoisson's large lambda, work.h); bmd_flag,
 * bmd_extra: a double one (curandGeneratePoissonMethod's CURAND_DEVICE_API
 * above lambda 4000, as the device API's state keeps it) */
typedef struct {
   rng_u32 d, v[5];
   rng_u32 bm_flag;
   float bm_extra;
   rng_u32 bmd_flag;
   double bmd_extra;
} rng_xorwow;

RNG_FN void rng_xorwow_seed(rng_xorwow *s, rng_u64 seed)
{
   rng_u32 s0 = (rng_u32)seed ^ 0xaad26b49u, s1 = (rng_u32)(seed >> 32) ^ 0xf7dcefddu;
   rng_u32 t0 = 1099087573u * s0, t1 = 2591861531u * s1;
   s->d = 6615241u + t1 + t0;
   s->v[0] = 123456789u + t0;
   s->v[1] = 362436069u ^ t0;
   s->v[2] = 521288629u + t1;
   s->v[3] = 88675123u ^ t1;
   s->v[4] = 5783321u + t0;
}

RNG_FN rng_u32 rng_xorwow_next(rng_xorwow *s)
{
   rng_u32 t = s->v[0] ^ (s->v[0] >> 2);
   s->v[0] = s->v[1];
   s->v[1] = s->v[2];
   s->v[2] = s->v[3];
   s->v[3] = s->v[4];
   s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
   s->d += 362437u;
   return s->v[4] + s->d;
}

/* v = M v over GF(2); M: 160 rows of 5 words (bit j of row i: M[i][j]). */
RNG_FN void rng_xorwow_apply(rng_xorwow *s, const rng_u32 *m)
{
   rng_u32 y[5] = { 0, 0, 0, 0, 0 };
   for (int i = 0; i < 160; i++) {
      const rng_u32 *r = m + 5 * i;
      rng_u32 a = (r[0] & s->v[0]) ^ (r[1] & s->v[1]) ^ (r[2] & s->v[2]) ^ (r[3] & s->v[3]) ^ (r[4] & s->v[4]);
      a ^= a >> 16;
      a ^= a >> 8;
      a ^= a >> 4;
      a ^= a >> 2;
      a ^= a >> 1;
      y[i >> 5] |= (a & 1u) << (i & 31);
   }
   for (int w = 0; w < 5; w++)
      s->v[w] = y[w];
}

/* XORWOW's SEEDED ordering seeds subsequence t with seed + t times this
 * (found on NVIDIA's host generator, every seed and offset tried; the
 * H200's device generator is checked by tests/libs/curand_gen) */
#define RNG_XORWOW_SEEDED_STEP 3133713ull

/* The state of subsequence SUB at value E: seed, then jumps from the table
 * (RNG_XORWOW_JUMPS matrices of 800 words). */
RNG_FN void rng_xorwow_at(rng_xorwow *s, rng_u64 seed, rng_u32 sub, rng_u64 e, const rng_u32 *jumps)
{
   rng_xorwow_seed(s, seed);
   for (int b = 0; b < 13; b++)
      if (sub >> b & 1)
         rng_xorwow_apply(s, jumps + 800 * (64 + b));
   for (int b = 0; b < 64; b++)
      if (e >> b & 1)
         rng_xorwow_apply(s, jumps + 800 * b);
   s->d += 362437u * (rng_u32)e;
}

/* ---- Philox4x32-10 ---- */
RNG_FN void rng_philox(rng_u32 c[4], rng_u32 k0, rng_u32 k1)
{
   for (int r = 0; r < 10; r++) {
      rng_u64 p0 = (rng_u64)0xD2511F53u * c[0], p1 = (rng_u64)0xCD9E8D57u * c[2];
      rng_u32 n0 = (rng_u32)(p1 >> 32) ^ c[1] ^ k0, n1 = (rng_u32)p1;
      rng_u32 n2 = (rng_u32)(p0 >> 32) ^ c[3] ^ k1, n3 = (rng_u32)p0;
      c[0] = n0;
      c[1] = n1;
      c[2] = n2;
      c[3] = n3;
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
   }
}

/* The four words of counter CTR of subsequence SUB. */
RNG_FN void rng_philox_block(rng_u32 out[4], rng_u64 seed, rng_u64 sub, rng_u64 ctr)
{
   out[0] = (rng_u32)ctr;
   out[1] = (rng_u32)(ctr >> 32);
   out[2] = (rng_u32)sub;
   out[3] = (rng_u32)(sub >> 32);
   rng_philox(out, (rng_u32)seed, (rng_u32)(seed >> 32));
}

/* ---- MRG32k3a ---- */
#define RNG_M1 4294967087ull
#define RNG_M2 4294944443ull
typedef struct {
   rng_u32 s1[3], s2[3];
   rng_u32 bm_flag;   /* as rng_xorwow's */
   float bm_extra;
   rng_u32 bmd_flag;
   double bmd_extra;
} rng_mrg;

RNG_FN void rng_mrg_seed(rng_mrg *s, rng_u64 seed)
{
   for (int i = 0; i < 3; i++)
      s->s1[i] = s->s2[i] = 12345u;
   if (seed) {
      rng_u64 x1 = (rng_u32)seed ^ 0x55555555u, x2 = (rng_u32)(seed >> 32) ^ 0xAAAAAAAAu;
      s->s1[0] = (rng_u32)(x1 * 12345u % RNG_M1);
      s->s1[1] = (rng_u32)(x2 * 12345u % RNG_M1);
      s->s1[2] = (rng_u32)(x1 * 12345u % RNG_M1);
      s->s2[0] = (rng_u32)(x2 * 12345u % RNG_M2);
      s->s2[1] = (rng_u32)(x1 * 12345u % RNG_M2);
      s->s2[2] = (rng_u32)(x2 * 12345u % RNG_M2);
   }
}

/* The combined output in (0, m1] (an integer). */
RNG_FN rng_u32 rng_mrg_next(rng_mrg *s)
{
   /* each product is below 2^64, their sum need not be: reduced apart */
   rng_u64 p1 = ((rng_u64)1403580u * s->s1[1] + (RNG_M1 - 810728u) * (rng_u64)s->s1[0] % RNG_M1) % RNG_M1;
   s->s1[0] = s->s1[1];
   s->s1[1] = s->s1[2];
   s->s1[2] = (rng_u32)p1;
   rng_u64 p2 = ((rng_u64)527612u * s->s2[2] + (RNG_M2 - 1370589u) * (rng_u64)s->s2[0] % RNG_M2) % RNG_M2;
   s->s2[0] = s->s2[1];
   s->s2[1] = s->s2[2];
   s->s2[2] = (rng_u32)p2;
   return p1 > p2 ? (rng_u32)(p1 - p2) : (rng_u32)(p1 - p2 + RNG_M1);
}

/* s = A s mod m for a 3x3 matrix A (row-major, entries < m < 2^32). */
RNG_FN void rng_mrg_mv(rng_u32 *s, const rng_u32 *a, rng_u64 m)
{
   rng_u64 r[3];
   for (int i = 0; i < 3; i++) {
      rng_u64 acc = 0;
      for (int k = 0; k < 3; k++)
         acc = (acc + (rng_u64)a[3 * i + k] * s[k] % m) % m;
      r[i] = acc;
   }
   for (int i = 0; i < 3; i++)
      s[i] = (rng_u32)r[i];
}

/* Jump table: RNG_MRG_JUMPS entries of 18 words (A1^p then A2^p). */
RNG_FN void rng_mrg_at(rng_mrg *s, rng_u64 seed, rng_u32 sub, rng_u64 e, const rng_u32 *jumps)
{
   rng_mrg_seed(s, seed);
   for (int b = 0; b < 17; b++)
      if (sub >> b & 1) {
         rng_mrg_mv(s->s1, jumps + 18 * (64 + b), RNG_M1);
         rng_mrg_mv(s->s2, jumps + 18 * (64 + b) + 9, RNG_M2);
      }
   for (int b = 0; b < 64; b++)
      if (e >> b & 1) {
         rng_mrg_mv(s->s1, jumps + 18 * b, RNG_M1);
         rng_mrg_mv(s->s2, jumps + 18 * b + 9, RNG_M2);
      }
}

/* ---- distributions ---- */
#define RNG_2POW32_INV 2.3283064e-10f
#define RNG_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define RNG_2POW53_INV_DOUBLE 1.1102230246251565e-16
#define RNG_MRG_NORM 2.3283065498378288e-10
#define RNG_MRG_BITS_NORM 1.000000048662

RNG_FN float rng_uniform(rng_u32 x)
{
   return x * RNG_2POW32_INV + (RNG_2POW32_INV / 2.0f);
}

/* two words to a double in (0, 1): 53 bits, x low, y above */
RNG_FN double rng_uniform_double2(rng_u32 x, rng_u32 y)
{
   rng_u64 z = (rng_u64)x ^ ((rng_u64)y << (53 - 32));
   return z * RNG_2POW53_INV_DOUBLE + (RNG_2POW53_INV_DOUBLE / 2.0);
}

RNG_FN void rng_box_muller(rng_u32 x, rng_u32 y, float *a, float *b)
{
   float u = x * RNG_2POW32_INV + (RNG_2POW32_INV / 2);
   float v = y * RNG_2POW32_INV_2PI + (RNG_2POW32_INV_2PI / 2);
   float s = sqrtf(-2.0f * logf(u));
   float sn, cs;
   RNG_SINCOSF(v, &sn, &cs);
   *a = sn * s;
   *b = cs * s;
}

RNG_FN void rng_box_muller_double(rng_u32 x0, rng_u32 x1, rng_u32 y0, rng_u32 y1, double *a, double *b)
{
   double u = rng_uniform_double2(x0, x1);
   rng_u64 zy = (rng_u64)y0 ^ ((rng_u64)y1 << (53 - 32));
   double v = zy * (RNG_2POW53_INV_DOUBLE * 2.0) + RNG_2POW53_INV_DOUBLE;
   double s = sqrt(-2.0 * log(u));
   *a = sin(v * 3.1415926535897931) * s;
   *b = cos(v * 3.1415926535897931) * s;
}

/* MRG32k3a's conversions work on the double-valued output */
RNG_FN void rng_box_muller_mrg(rng_u32 z0, rng_u32 z1, float *a, float *b)
{
   float x = (float)(z0 * RNG_MRG_NORM);
   float y = (float)(z1 * RNG_MRG_NORM) * 6.2831855f;
   float s = sqrtf(-2.0f * logf(x));
   float sn, cs;
   RNG_SINCOSF(y, &sn, &cs);
   *a = sn * s;
   *b = cs * s;
}

RNG_FN void rng_box_muller_mrg_double(rng_u32 z0, rng_u32 z1, double *a, double *b)
{
   double x = z0 * RNG_MRG_NORM, y = z1 * RNG_MRG_NORM * 2.0;
   double s = sqrt(-2.0 * log(x));
   *a = sin(y * 3.1415926535897931) * s;
   *b = cos(y * 3.1415926535897931) * s;
}

/* ---- Sobol ---- */
/* Point I of a dimension with BITS direction vectors V (32 or 64); Sobol32
 * takes I mod 2^32, as cuRAND does (point 2^32 is point 0 again). */
RNG_FN rng_u64 rng_sobol_at(const void *v, int bits, rng_u64 i)
{
   if (bits == 32)
      i = (rng_u32)i;
   rng_u64 gray = i ^ (i >> 1), x = 0;
   for (int k = 0; k < bits && gray >> k; k++)
      if (gray >> k & 1)
         x ^= bits == 32 ? ((const rng_u32 *)v)[k] : ((const rng_u64 *)v)[k];
   return x;
}

/* From point I (X) to point I + 1. */
RNG_FN rng_u64 rng_sobol_next(const void *v, int bits, rng_u64 x, rng_u64 i)
{
   rng_u64 n = bits == 32 ? (rng_u32)(i + 1) : i + 1;
   if (!n)
      return 0;
   int k = RNG_CTZ64(n);
   return x ^ (bits == 32 ? ((const rng_u32 *)v)[k] : ((const rng_u64 *)v)[k]);
}

/* cuRAND's conversions of quasi-random words (measured on NVIDIA's host
 * generator, tests/libs/curand_sobol.cu): a 32-bit word to double as
 * (x + 1) 2^-32; a 64-bit word to double as its top 53 bits + 1/2, times
 * 2^-53, and to float as its top 32 bits (rng_uniform) */
RNG_FN double rng_sobol32_double(rng_u32 x)
{
   return x * 2.3283064365386963e-10 + 2.3283064365386963e-10;
}

RNG_FN double rng_sobol64_double(rng_u64 x)
{
   return (double)(x >> 11) * RNG_2POW53_INV_DOUBLE + RNG_2POW53_INV_DOUBLE / 2.0;
}

/* The inverse of the normal distribution function, Phi^-1(p): Acklam's
 * rational approximations (P. J. Acklam, "An algorithm for computing the
 * inverse normal cumulative distribution function", 2003: relative error
 * below 1.15e-9, enough for a float), p in (0, 1). */
RNG_FN double rng_normcdfinv_approx(double p)
{
   const double a0 = -3.969683028665376e+01, a1 = 2.209460984245205e+02, a2 = -2.759285104469687e+02,
                a3 = 1.383577518672690e+02, a4 = -3.066479806614716e+01, a5 = 2.506628277459239e+00;
   const double b0 = -5.447609879822406e+01, b1 = 1.615858368580409e+02, b2 = -1.556989798598866e+02,
                b3 = 6.680131188771972e+01, b4 = -1.328068155288572e+01;
   const double c0 = -7.784894002430293e-03, c1 = -3.223964580411365e-01, c2 = -2.400758277161838e+00,
                c3 = -2.549732539343734e+00, c4 = 4.374664141464968e+00, c5 = 2.938163982698783e+00;
   const double d0 = 7.784695709041462e-03, d1 = 3.224671290700398e-01, d2 = 2.445134137142996e+00,
                d3 = 3.754408661907416e+00;
   double q = p < 0.5 ? p : 1.0 - p;   /* exact for p >= 1/2 */
   if (q < 0.02425) {
      double t = sqrt(-2.0 * log(q));
      double x = (((((c0 * t + c1) * t + c2) * t + c3) * t + c4) * t + c5) / ((((d0 * t + d1) * t + d2) * t + d3) * t + 1.0);
      return p < 0.5 ? x : -x;
   }
   double r = p - 0.5, s = r * r;
   return (((((a0 * s + a1) * s + a2) * s + a3) * s + a4) * s + a5) * r /
          (((((b0 * s + b1) * s + b2) * s + b3) * s + b4) * s + 1.0);
}

/* Phi^-1(p) in double: Acklam's approximation and one Halley step on
 * Phi(x) - p (Phi from erf near the middle, erfc in the tails, so that the
 * difference keeps its relative precision; 1 - p is exact for p >= 1/2),
 * which takes the error from 1e-9 to that of erf/erfc.  Within 3 ulps of
 * the exact value over (0, 1) (checked against a long double bisection);
 * 0 and 1 give -inf and inf. */
RNG_FN double rng_normcdfinv(double p)
{
   if (!(p > 0.0 && p < 1.0))
      return p == 0.0 ? -HUGE_VAL : p == 1.0 ? HUGE_VAL : (p - p) / (p - p);
   if (p == 0.5)
      return 0.0;
   double x = rng_normcdfinv_approx(p);
   double e = fabs(x) < 1.0 ? 0.5 * erf(x * 0.70710678118654752) - (p - 0.5)
              : x < 0.0     ? 0.5 * erfc(-x * 0.70710678118654752) - p
                            : (1.0 - p) - 0.5 * erfc(x * 0.70710678118654752);
   double u = e * 2.5066282746310002 * exp(0.5 * x * x);
   return x - u / (1.0 + 0.5 * x * u);
}

#endif
