/*
 * work.h — one thread's share of a generation call, shared by the kernels
 * (kernels.cu: a GPU thread each) and the host generator (host.c: a loop
 * over the threads), and the argument block both take.
 *
 * The layout is NVIDIA's default ordering (measured: tests/libs/README.md):
 *  - XORWOW (4096 subsequences) and MRG32k3a (81920): subsequence t has a
 *    state that persists across calls.  A call's items (a value, or a
 *    Box-Muller pair) go round-robin to the subsequences starting at the
 *    generator's current one (tcur): item q to subsequence (tcur + q) mod T,
 *    each taking its next values.  Setting the seed or offset restarts:
 *    subsequence t at value ceil((offset - t) / T), tcur = offset mod T.
 *    XORWOW's SEEDED ordering has the same layout, subsequence t seeded
 *    with seed + t * RNG_XORWOW_SEEDED_STEP (mod 2^64) instead of jumped
 *    2^67 t values along the seed's sequence.
 *  - Philox4x32-10 (65536 subsequences): a function of the output index
 *    (cr_philox_group; curandGeneratePoissonMethod's CURAND_DEVICE_API a
 *    thread per subsequence, cr_philox_pm).
 *  - Sobol32/64 (cr_sobol_thread): dimension-major, a call of n outputs in
 *    D dimensions writes n / D points of each, point i of dimension d at
 *    d (n / D) + i; a thread takes CR_SOBOL_CHUNK points of one dimension.
 */
#ifndef MC_CURAND_WORK_H
#define MC_CURAND_WORK_H

#include "rng.h"
#ifndef __CUDACC__
#include <stdbool.h>
#endif

enum { CR_U32, CR_UNIFORM, CR_UNIFORM_DOUBLE, CR_NORMAL, CR_NORMAL_DOUBLE, CR_LOGNORMAL, CR_LOGNORMAL_DOUBLE, CR_U64, CR_POISSON };

/* curandGeneratePoisson's methods (poisson.c picks one by generator and
 * lambda): the square histogram, inversion, the rounded normal (in
 * double; MT19937's in float); curandGeneratePoissonMethod's
 * CURAND_DEVICE_API: Knuth's, the rounded double normal and the rejection
 * method of the stateful generators (XORWOW, MRG32k3a, Philox), inversion
 * and the rounded inverse normal of one word (MTGP32, Sobol) */
enum {
   CR_PM_TABLE,
   CR_PM_INVERSION,
   CR_PM_NORMAL,
   CR_PM_NORMAL_FLOAT,
   CR_PM_KNUTH,
   CR_PM_DEVICE_NORMAL,
   CR_PM_DEVICE_GAMMA,
   CR_PM_DEVICE_INVERSION,
   CR_PM_DEVICE_ICDF
};

/* points of one dimension per Sobol thread */
#define CR_SOBOL_CHUNK 256u

typedef struct {
   void *states;            /* rng_xorwow[T] or rng_mrg[T] */
   const rng_u32 *jumps;    /* the jump table (rng.h) */
   void *out;
   rng_u64 items;           /* values, or pairs for the normal forms */
   rng_u64 q0, q1;          /* XORWOW, MRG32k3a: this pass's items, [q0, q1) (q0 a multiple of T) */
   rng_u64 seed;
   rng_u64 m0;              /* Philox: index of the first output; init: the offset */
   rng_u64 base;            /* Philox: the offset at the last restart */
   rng_u32 nthreads, tcur;
   rng_u32 seeded;          /* XORWOW: the SEEDED ordering */
   /* Sobol: direction vectors of the dimensions (32 or 64 a dimension, of
    * BITS bits), their scramble constants (NULL: not scrambled), the points
    * per dimension, the index of the first */
   const void *vec, *scr;
   rng_u32 dims, bits;
   rng_u32 low32_start;     /* scrambled Sobol64 on NVIDIA's host generator (cr_sobol_thread) */
   rng_u64 points, first;
   int dist;
   float meanf, sdf;
   double mean, sd;
   /* Poisson: lambda, the method, the square histogram (plen + 1 entries,
    * values pshift + j) or inversion's sums (plen; 0: none); poisson.c */
   double lambda;
   rng_u32 pmethod, pshift, plen;
   float pknuth;            /* CR_PM_KNUTH: expf(lambda), made on the host */
   const double *pv;
   const rng_u32 *pk;
} cr_args;

/* Whether Poisson method m runs the device API on the generator's states
 * (Knuth's, the rejection method, the double normal), and whether it is an
 * inversion (with the call's sums or without) */
RNG_FN bool cr_pm_stateful(rng_u32 m)
{
   return m == CR_PM_KNUTH || m == CR_PM_DEVICE_NORMAL || m == CR_PM_DEVICE_GAMMA;
}
RNG_FN bool cr_pm_inversion(rng_u32 m)
{
   return m == CR_PM_INVERSION || m == CR_PM_DEVICE_INVERSION;
}

/* a * b + c: fused on the device, as nvcc fuses NVIDIA's device code;
 * on the host a product and a sum, each rounded (a statement apiece, so
 * that no host compiler contracts them), as NVIDIA's host code computes
 * it */
#ifdef __CUDACC__
#define CR_FMAF(a, b, c) fmaf(a, b, c)
#define CR_FMA(a, b, c) fma(a, b, c)
#else
RNG_FN float cr_mul_add_f(float a, float b, float c)
{
   float p = a * b;
   return p + c;
}
RNG_FN double cr_mul_add(double a, double b, double c)
{
   double p = a * b;
   return p + c;
}
#define CR_FMAF(a, b, c) cr_mul_add_f(a, b, c)
#define CR_FMA(a, b, c) cr_mul_add(a, b, c)
#endif

/* Double arithmetic kept apart (no fused multiply-add on the device), as
 * NVIDIA's host generator computes it */
#ifdef __CUDACC__
#define CR_DMUL(a, b) __dmul_rn(a, b)
#define CR_DADD(a, b) __dadd_rn(a, b)
#else
#define CR_DMUL(a, b) ((a) * (b))
#define CR_DADD(a, b) ((a) + (b))
#endif

/* ---- Poisson (curandGeneratePoisson), measured on NVIDIA's host
 * generator (tests/libs/native/curand_poisson_record.c): one 32-bit word
 * per value, its uniform u = (x + 1) 2^-32 in (0, 1]. ---- */

/* Marsaglia, Tsang and Wang's square histogram ("Fast generation of
 * discrete random variables", J. Stat. Softw. 11(3), 2004): column
 * j = floor(n u) gives j when u < V[j], else its alias K[j].  u = 1 reads
 * entry n (V 0, K 0), as NVIDIA's does. */
RNG_FN rng_u32 cr_poisson_table(const cr_args *a, rng_u32 x)
{
   double u = rng_sobol32_double(x);
   rng_u32 j = (rng_u32)(a->plen * u);
   return a->pshift + (u < a->pv[j] ? j : a->pk[j]);
}

/* Inversion by sequential search from 0 (Fishman's "Discrete-event
 * simulation", the form in NVIDIA's curand_poisson.h) of a uniform U in
 * (0, 1] (the word's double uniform): the probabilities
 * P(k) = P(k - 1) lambda / k summed until they pass u, e^-lambda applied
 * 500 at a time so that it never underflows.  Where the sum stops growing
 * below u (the probabilities underflowed: u within rounding of 1) NVIDIA's
 * loop would not end; this one returns the k reached. */
RNG_FN rng_u32 cr_poisson_inversion(double lambda, double u)
{
   double p = 1.0, sum = 1.0;
   rng_u32 k = 0;
   int applied = 0;
   do {
      double f = lambda > (double)(applied + 500.0) ? exp(-500.0) : exp((double)(applied - lambda));
      p *= f;
      sum *= f;
      applied += 500;
      while (u > sum && p != 0) {
         k++;
         p *= lambda / (double)k;
         sum += p;
      }
   } while ((double)applied < lambda);
   return k;
}

/* The same for lambda <= 500 (one factor e^-lambda, so the sums do not
 * depend on u) from the sums made once for the call (poisson.c: Q[k], k
 * from 0 until the probabilities underflow, N of them): the first k whose
 * sum is not below u, the last where none is. */
RNG_FN rng_u32 cr_poisson_inversion_table(const double *q, rng_u32 n, double u)
{
   rng_u32 lo = 0, hi = n - 1;
   while (lo < hi) {
      rng_u32 mid = lo + (hi - lo) / 2;
      if (u > q[mid])
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

/* The normal approximation, rounded: sqrt(lambda) z + lambda + 0.5 in
 * double from a float standard normal z, truncated. */
RNG_FN rng_u32 cr_poisson_normal(double lambda, float z)
{
   return (rng_u32)CR_DADD(CR_DADD(CR_DMUL(sqrt(lambda), (double)z), lambda), 0.5);
}

/* CURAND_DEVICE_API's: the same of a double normal (the device API's
 * curand_poisson above lambda 4000, and from 1000 for the word-a-value
 * states) */
RNG_FN rng_u32 cr_poisson_normal_d(double lambda, double z)
{
   return (rng_u32)CR_DADD(CR_DADD(CR_DMUL(sqrt(lambda), z), lambda), 0.5);
}

/* MT19937's: the same in float, (unsigned)(sqrtf(lambda) z + lambda + 0.5f)
 * (NVIDIA's host generator's values from its own normals: 0 of 200000
 * differ at lambda 9000; in double 90 do) */
#ifdef __CUDACC__
#define CR_FMUL(a, b) __fmul_rn(a, b)
#define CR_FADD(a, b) __fadd_rn(a, b)
#else
#define CR_FMUL(a, b) ((a) * (b))
#define CR_FADD(a, b) ((a) + (b))
#endif
RNG_FN rng_u32 cr_poisson_normalf(double lambda, float z)
{
   float l = (float)lambda;
   return (rng_u32)CR_FADD(CR_FADD(CR_FMUL(sqrtf(l), z), l), 0.5f);
}

/* curandGeneratePoissonMethod's CURAND_DEVICE_API below lambda 64: Knuth's
 * product of uniforms (The Art of Computer Programming, vol. 2), in float
 * as NVIDIA's device API's curand_poisson computes it, p from e^lambda
 * (P0 = expf(lambda)) multiplied by the subsequence's float uniforms
 * (UNIF()) while above 1; the count of them less one (NVIDIA's host
 * generator's values: tests/libs/native/curand_poissonmethod_record.c). */
#define CR_POISSON_KNUTH(r, p0, UNIF)                                                               \
   do {                                                                                             \
      float p_ = (p0);                                                                              \
      rng_u32 k_ = 0;                                                                               \
      do {                                                                                          \
         k_++;                                                                                      \
         p_ = CR_FMUL(p_, UNIF());                                                                  \
      } while (p_ > 1.0f);                                                                          \
      (r) = k_ - 1;                                                                                 \
   } while (0)

/* curandGeneratePoissonMethod's CURAND_DEVICE_API from lambda 64 to 4000:
 * the device API's rejection method (curand_poisson.h's
 * curand_poisson_gammainc).  A try draws a float uniform y and proposes
 * x = floor(Q(lambda, y)), Q the inverse of an approximation of the
 * regularized incomplete gamma function P(lambda, x) ~
 * 1 / (1 + e^(alpha (lambda - x) - beta))^2, alpha and beta from lambda
 * through six fitted constants (the algorithm's parameters); a second
 * uniform z times v = 1.3 (P(lambda, x + 1) - P(lambda, x)) accepts x
 * when below e^(x ln lambda - lambda - ln x!) and v >= 1e-20.
 *
 * On the device NVIDIA's code takes the GPU's approximate reciprocal,
 * reciprocal square root, 2^x and log2 (rcp/rsqrt/ex2/lg2.approx.ftz, bit
 * exact through the translator's SFU model; e^a as 2^(a log2 e) with the
 * product in double), and nvcc fuses its multiply-adds (CR_FMAF).  Its
 * host form takes 1/a, 1/sqrtf, expf and logf and fuses nothing: NVIDIA's
 * host generator is that form exactly (every value of 12288 at lambda 64,
 * 100, 1000, 3999.5 and 4000, XORWOW, against the header compiled for the
 * host).  ln x! is ln Gamma(x + 1) of an integer: a table to 8, then
 * Stirling's series with the coefficients of Hart et al., "Computer
 * Approximations" (Wiley 1968), approximation 5404, as cuRAND evaluates
 * it. */
#ifdef __CUDACC__
RNG_FN float cr_g_rsqrt(float a)
{
   asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return a;
}
RNG_FN float cr_g_rcp(float a)
{
   asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return a;
}
RNG_FN float cr_g_exp(float a)
{
   a = (float)__dmul_rn((double)a, 1.4426950408889634074);
   asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return a;
}
RNG_FN float cr_g_log(float a)
{
   asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return (float)__dmul_rn((double)a, 0.69314718055994530942);
}
#else
RNG_FN float cr_g_rsqrt(float a)
{
   return 1.0f / sqrtf(a);
}
RNG_FN float cr_g_rcp(float a)
{
   return 1.0f / a;
}
RNG_FN float cr_g_exp(float a)
{
   return expf(a);
}
RNG_FN float cr_g_log(float a)
{
   return logf(a);
}
#endif

/* alpha and beta of P(lambda, .) */
RNG_FN void cr_gamma_ab(float a, float *alpha, float *beta)
{
   *alpha = CR_FMAF(1.43248035075540910f, cr_g_rsqrt(a - 0.12400979329415655f), 0.00025361074907033f);
   *beta = CR_FMAF(0.21096734870196546f, cr_g_rsqrt(a - 1.97381164089999420f), 0.94201734077887530f);
}
RNG_FN float cr_gamma_p(float a, float x)
{
   float alpha, beta;
   cr_gamma_ab(a, &alpha, &beta);
   float t = 1.0f + cr_g_exp(CR_FMAF(alpha, a - x, -beta));
   return cr_g_rcp(t * t);
}
RNG_FN float cr_gamma_q(float a, float y)
{
   float alpha, beta;
   cr_gamma_ab(a, &alpha, &beta);
   float t = beta + cr_g_log(cr_g_rsqrt(y) - 1.0f);
   return CR_FMAF(-t, cr_g_rcp(alpha), a);
}
/* ln Gamma(a) of an integer a >= 1 (a <= 0, which the method does not
 * reach from lambda 64, is read as NVIDIA's host form reads it) */
RNG_FN double cr_lgamma_int(int a)
{
   double fa = fabs((double)(float)a);
   if (a > 8) {
      double s = 1.0 / fa, t = s * s, sum = -0.1633436431e-2;
      sum = CR_FMA(sum, t, 0.83645878922e-3);
      sum = CR_FMA(sum, t, -0.5951896861197e-3);
      sum = CR_FMA(sum, t, 0.793650576493454e-3);
      sum = CR_FMA(sum, t, -0.277777777735865004e-2);
      sum = CR_FMA(sum, t, 0.833333333333331018375e-1);
      sum = CR_FMA(sum, s, 0.918938533204672);
      double h = 0.5 * log(fa), w = fa - 0.5;
      double hw = h * w;
      double u = hw - fa;
      double v = hw + sum;
      return u + v;
   }
   /* ln (a - 1)!, to 17 digits */
   static const double ln_fact[9] = { 0.0, 0.0, 6.931471805599453094e-1, 1.791759469228055001e0,
                                      3.178053830347945620e0, 4.787491742782045994e0, 6.579251212010100995e0,
                                      8.525161361065414300e0, 1.060460290274525023e1 };
   return ln_fact[a >= 1 ? a - 1 : 8];
}
#define CR_POISSON_GAMMA(r, lambda, UNIF)                                                           \
   do {                                                                                             \
      float l_ = (float)(lambda), logl_ = cr_g_log(l_), x_;                                         \
      for (;;) {                                                                                    \
         float y_ = UNIF();                                                                         \
         x_ = floorf(cr_gamma_q(l_, y_));                                                           \
         float z_ = UNIF();                                                                         \
         float v_ = (cr_gamma_p(l_, x_ + 1.0f) - cr_gamma_p(l_, x_)) * 1.3f;                        \
         z_ = z_ * v_;                                                                              \
         float e_ = CR_FMAF(x_, logl_, -l_) - (float)cr_lgamma_int((int)(1.0f + x_));             \
         if (z_ < cr_g_exp(e_) && (double)v_ >= 1e-20)                                              \
            break;                                                                                  \
      }                                                                                             \
      (r) = (rng_u32)x_;                                                                            \
   } while (0)

/* A Poisson value of a stateful generator (XORWOW, MRG32k3a) into out[q]:
 * WORD() gives its next 32-bit word, PAIR(&z0, &z1) its next Box-Muller
 * pair, UNIF() its next float uniform, BMD(NEXT, &z, &extra) its double
 * Box-Muller pair from the raw words NEXT() (the device API's
 * curand_normal_double: a pair's second value kept in the state);
 * the normal method takes the pair's second value at the subsequence's
 * next Poisson item (in this call or a later one), as NVIDIA's host
 * generator does.  CURAND_DEVICE_API above lambda 4000 rounds
 * sqrt(lambda) z + lambda + 0.5 of the double normal, in double, as the
 * device API's curand_poisson (NVIDIA's host generator: no value of 32768
 * at 4000.5, 9000 and 400000 differed from that of its own double
 * normals). */
#define CR_POISSON_ITEM(a, q, st, WORD, PAIR, UNIF, BMD, NEXT)                                      \
   do {                                                                                             \
      rng_u32 r_;                                                                                   \
      if ((a)->pmethod == CR_PM_KNUTH) {                                                            \
         CR_POISSON_KNUTH(r_, (a)->pknuth, UNIF);                                                   \
      } else if ((a)->pmethod == CR_PM_DEVICE_GAMMA) {                                              \
         CR_POISSON_GAMMA(r_, (a)->lambda, UNIF);                                                   \
      } else if ((a)->pmethod == CR_PM_DEVICE_NORMAL) {                                             \
         double z_;                                                                                 \
         if ((st).bmd_flag) {                                                                       \
            z_ = (st).bmd_extra;                                                                    \
            (st).bmd_flag = 0;                                                                      \
         } else {                                                                                   \
            BMD(NEXT, &z_, &(st).bmd_extra);                                                        \
            (st).bmd_flag = 1;                                                                      \
         }                                                                                          \
         r_ = cr_poisson_normal_d((a)->lambda, z_);                                                 \
      } else if ((a)->pmethod == CR_PM_NORMAL) {                                                    \
         float z_;                                                                                  \
         if ((st).bm_flag) {                                                                        \
            z_ = (st).bm_extra;                                                                     \
            (st).bm_flag = 0;                                                                       \
         } else {                                                                                   \
            PAIR(&z_, &(st).bm_extra);                                                              \
            (st).bm_flag = 1;                                                                       \
         }                                                                                          \
         r_ = cr_poisson_normal((a)->lambda, z_);                                                   \
      } else {                                                                                      \
         r_ = cr_poisson_table(a, WORD());                                                          \
      }                                                                                             \
      ((rng_u32 *)(a)->out)[q] = r_;                                                                \
   } while (0)

/* One item of a stateful generator: NEXT() gives its next 32-bit word. */
#define CR_ITEM(a, q, NEXT, BM, BMD, UD)                                                            \
   do {                                                                                             \
      switch ((a)->dist) {                                                                          \
      case CR_U32: ((rng_u32 *)(a)->out)[q] = NEXT(); break;                                        \
      case CR_UNIFORM: ((float *)(a)->out)[q] = UD##_f(NEXT()); break;                              \
      case CR_UNIFORM_DOUBLE: UD##_d(NEXT, &((double *)(a)->out)[q]); break;                         \
      case CR_NORMAL:                                                                               \
      case CR_LOGNORMAL: {                                                                          \
         rng_u32 x_ = NEXT();                                                                       \
         rng_u32 y_ = NEXT();                                                                       \
         float r0_, r1_;                                                                            \
         BM(x_, y_, &r0_, &r1_);                                                                    \
         r0_ = CR_FMAF(r0_, (a)->sdf, (a)->meanf);                                                  \
         r1_ = CR_FMAF(r1_, (a)->sdf, (a)->meanf);                                                  \
         if ((a)->dist == CR_LOGNORMAL) {                                                           \
            r0_ = expf(r0_);                                                                        \
            r1_ = expf(r1_);                                                                        \
         }                                                                                          \
         ((float *)(a)->out)[2 * (q)] = r0_;                                                        \
         ((float *)(a)->out)[2 * (q) + 1] = r1_;                                                    \
         break;                                                                                     \
      }                                                                                             \
      default: {                                                                                    \
         double r0_, r1_;                                                                           \
         BMD(NEXT, &r0_, &r1_);                                                                     \
         r0_ = CR_FMA(r0_, (a)->sd, (a)->mean);                                                     \
         r1_ = CR_FMA(r1_, (a)->sd, (a)->mean);                                                     \
         if ((a)->dist == CR_LOGNORMAL_DOUBLE) {                                                    \
            r0_ = exp(r0_);                                                                         \
            r1_ = exp(r1_);                                                                         \
         }                                                                                          \
         ((double *)(a)->out)[2 * (q)] = r0_;                                                       \
         ((double *)(a)->out)[2 * (q) + 1] = r1_;                                                   \
         break;                                                                                     \
      }                                                                                             \
      }                                                                                             \
   } while (0)

/* XORWOW: words to doubles take two words (53 bits), Box-Muller in double four */
RNG_FN float cr_xw_f(rng_u32 x)
{
   return rng_uniform(x);
}
#define cr_xw_d(NEXT, p)                                                                            \
   do {                                                                                             \
      rng_u32 x_ = NEXT();                                                                          \
      rng_u32 y_ = NEXT();                                                                          \
      *(p) = rng_uniform_double2(x_, y_);                                                           \
   } while (0)
#define CR_XW_BMD(NEXT, r0, r1)                                                                     \
   do {                                                                                             \
      rng_u32 a0_ = NEXT(), a1_ = NEXT(), b0_ = NEXT(), b1_ = NEXT();                              \
      rng_box_muller_double(a0_, a1_, b0_, b1_, r0, r1);                                            \
   } while (0)

/* MRG32k3a: conversions from the double-valued output */
RNG_FN float cr_mrg_f(rng_u32 z)
{
   return (float)(z * RNG_MRG_NORM);
}
#define cr_mrg_d(NEXT, p) (*(p) = (NEXT()) * RNG_MRG_NORM)
#define CR_MRG_BMD(NEXT, r0, r1)                                                                    \
   do {                                                                                             \
      rng_u32 a0_ = NEXT(), b0_ = NEXT();                                                           \
      rng_box_muller_mrg_double(a0_, b0_, r0, r1);                                                  \
   } while (0)

RNG_FN void cr_xorwow_thread(const cr_args *a, rng_u32 t)
{
   rng_xorwow st = ((rng_xorwow *)a->states)[t];
   rng_u32 T = a->nthreads;
#define CR_XW_NEXT() rng_xorwow_next(&st)
#define CR_XW_UNIF() cr_xw_f(CR_XW_NEXT())
#define CR_XW_PAIR(z0, z1)                                                                          \
   do {                                                                                             \
      rng_u32 x_ = CR_XW_NEXT(), y_ = CR_XW_NEXT();                                                 \
      rng_box_muller(x_, y_, z0, z1);                                                               \
   } while (0)
   for (rng_u64 q = a->q0 + (t + T - a->tcur) % T; q < a->q1; q += T) {
      if (a->dist == CR_POISSON)
         CR_POISSON_ITEM(a, q, st, CR_XW_NEXT, CR_XW_PAIR, CR_XW_UNIF, CR_XW_BMD, CR_XW_NEXT);
      else
         CR_ITEM(a, q, CR_XW_NEXT, rng_box_muller, CR_XW_BMD, cr_xw);
   }
#undef CR_XW_PAIR
#undef CR_XW_UNIF
#undef CR_XW_NEXT
   ((rng_xorwow *)a->states)[t] = st;
}

RNG_FN void cr_mrg_thread(const cr_args *a, rng_u32 t)
{
   rng_mrg st = ((rng_mrg *)a->states)[t];
   rng_u32 T = a->nthreads;
#define CR_MRG_NEXT() rng_mrg_next(&st)
#define CR_MRG_UNIF() cr_mrg_f(CR_MRG_NEXT())
#define CR_MRG_U32() ((rng_u32)((double)rng_mrg_next(&st) * RNG_MRG_BITS_NORM))
#define CR_MRG_PAIR(z0, z1)                                                                         \
   do {                                                                                             \
      rng_u32 x_ = CR_MRG_NEXT(), y_ = CR_MRG_NEXT();                                               \
      rng_box_muller_mrg(x_, y_, z0, z1);                                                           \
   } while (0)
   for (rng_u64 q = a->q0 + (t + T - a->tcur) % T; q < a->q1; q += T) {
      if (a->dist == CR_U32)
         ((rng_u32 *)a->out)[q] = CR_MRG_U32();
      else if (a->dist == CR_POISSON)
         CR_POISSON_ITEM(a, q, st, CR_MRG_U32, CR_MRG_PAIR, CR_MRG_UNIF, CR_MRG_BMD, CR_MRG_NEXT);
      else
         CR_ITEM(a, q, CR_MRG_NEXT, rng_box_muller_mrg, CR_MRG_BMD, cr_mrg);
   }
#undef CR_MRG_UNIF
#undef CR_MRG_PAIR
#undef CR_MRG_NEXT
#undef CR_MRG_U32
   ((rng_mrg *)a->states)[t] = st;
}

/* Restart of subsequence t at the offset a->m0. */
RNG_FN void cr_xorwow_init(const cr_args *a, rng_u32 t)
{
   rng_u64 T = a->nthreads, e = a->m0 / T + (t < a->m0 % T);
   rng_xorwow *s = &((rng_xorwow *)a->states)[t];
   if (a->seeded)
      rng_xorwow_at(s, a->seed + t * RNG_XORWOW_SEEDED_STEP, 0, e, a->jumps);
   else
      rng_xorwow_at(s, a->seed, t, e, a->jumps);
   s->bm_flag = 0;
   s->bm_extra = 0;
   s->bmd_flag = 0;
   s->bmd_extra = 0;
}

RNG_FN void cr_mrg_init(const cr_args *a, rng_u32 t)
{
   rng_u64 T = a->nthreads, e = a->m0 / T + (t < a->m0 % T);
   rng_mrg *s = &((rng_mrg *)a->states)[t];
   rng_mrg_at(s, a->seed, t, e, a->jumps);
   s->bm_flag = 0;
   s->bm_extra = 0;
   s->bmd_flag = 0;
   s->bmd_extra = 0;
}

/* Philox: the outputs g (offset plus the outputs of earlier calls) come in
 * groups of four, group k = g / 4 from subsequence t = k mod 65536 in its
 * round r = k / 65536.  Each subsequence starts at counter rf, its first
 * round at or after the offset (a->base), and takes one counter per round
 * for four floats or words, two for four doubles (two doubles from each):
 * counter rf + (r - rf), or rf + 2 (r - rf) and the next.  Normal pairs are
 * words (0, 1) and (2, 3) of a counter, or of the two counters in double.
 * This computes group K's outputs that fall in the call [m0, m0 + items). */
RNG_FN void cr_philox_group(const cr_args *a, rng_u64 k)
{
   rng_u64 t = k % RNG_PHILOX_THREADS, r = k / RNG_PHILOX_THREADS;
   rng_u64 k0 = a->base >> 2, rf = k0 / RNG_PHILOX_THREADS + (t < k0 % RNG_PHILOX_THREADS);
   bool dbl = a->dist == CR_UNIFORM_DOUBLE || a->dist == CR_NORMAL_DOUBLE || a->dist == CR_LOGNORMAL_DOUBLE;
   rng_u32 b[8];
   rng_philox_block(b, a->seed, t, dbl ? rf + 2 * (r - rf) : r);
   if (dbl)
      rng_philox_block(b + 4, a->seed, t, rf + 2 * (r - rf) + 1);
   float f[4];
   double d[4];
   switch (a->dist) {
   case CR_POISSON:
      /* a word each, or the Box-Muller pairs (0, 1) and (2, 3) */
      if (a->pmethod == CR_PM_NORMAL) {
         rng_box_muller(b[0], b[1], &f[0], &f[1]);
         rng_box_muller(b[2], b[3], &f[2], &f[3]);
         for (int j = 0; j < 4; j++)
            b[j] = cr_poisson_normal(a->lambda, f[j]);
      } else {
         for (int j = 0; j < 4; j++)
            b[j] = cr_poisson_table(a, b[j]);
      }
      break;
   case CR_U32:
   case CR_UNIFORM:
      for (int j = 0; j < 4; j++)
         f[j] = rng_uniform(b[j]);
      break;
   case CR_UNIFORM_DOUBLE:
      for (int j = 0; j < 4; j++)
         d[j] = rng_uniform_double2(b[2 * j], b[2 * j + 1]);
      break;
   case CR_NORMAL:
   case CR_LOGNORMAL:
      for (int j = 0; j < 4; j += 2) {
         rng_box_muller(b[j], b[j + 1], &f[j], &f[j + 1]);
         for (int h = j; h < j + 2; h++) {
            f[h] = CR_FMAF(f[h], a->sdf, a->meanf);
            if (a->dist == CR_LOGNORMAL)
               f[h] = expf(f[h]);
         }
      }
      break;
   default:
      for (int j = 0; j < 4; j += 2) {
         rng_box_muller_double(b[2 * j], b[2 * j + 1], b[2 * j + 2], b[2 * j + 3], &d[j], &d[j + 1]);
         for (int h = j; h < j + 2; h++) {
            d[h] = CR_FMA(d[h], a->sd, a->mean);
            if (a->dist == CR_LOGNORMAL_DOUBLE)
               d[h] = exp(d[h]);
         }
      }
      break;
   }
   /* the outputs of the group that fall in this call */
   for (unsigned j = 0; j < 4; j++) {
      rng_u64 g = 4 * k + j;
      if (g < a->m0 || g >= a->m0 + a->items)
         continue;
      rng_u64 i = g - a->m0;
      if (a->dist == CR_U32 || a->dist == CR_POISSON)
         ((rng_u32 *)a->out)[i] = b[j];
      else if (dbl)
         ((double *)a->out)[i] = d[j];
      else
         ((float *)a->out)[i] = f[j];
   }
}

/* curandGeneratePoissonMethod's CURAND_DEVICE_API on Philox4_32_10
 * (NVIDIA's host generator, every value: tests/libs/native/
 * curand_poissonmethod_record.c): the outputs g = m0 + i of the call in
 * groups of four, group k from subsequence k mod 65536, as the other
 * distributions; each value the device API's curand_poisson (Knuth's
 * method, the rejection method, the rounded double normal: work.h above)
 * on that subsequence's state, which the call sets up afresh as
 * curand_init(seed, t, 4 r0) does, r0 the round of its first group in
 * the call (counter r0), and which goes on from group to group of the
 * call; a group's values outside the call are made and dropped.  So the
 * call is a function of its position (offset and earlier calls' counts)
 * and moves it by n, as the generator's other forms.  This is subsequence
 * K mod 65536's share of the call, K its first group in it. */
RNG_FN rng_u32 cr_philox_word(rng_u32 b[4], rng_u32 *j, rng_u64 seed, rng_u64 t, rng_u64 *ctr)
{
   if (*j == 4) {
      rng_philox_block(b, seed, t, ++*ctr);
      *j = 0;
   }
   return b[(*j)++];
}
RNG_FN void cr_philox_pm(const cr_args *a, rng_u64 k)
{
   rng_u64 t = k % RNG_PHILOX_THREADS, ctr = k / RNG_PHILOX_THREADS, end = a->m0 + a->items;
   rng_u32 b[4], j = 0;
   rng_philox_block(b, a->seed, t, ctr);
   double extra = 0;
   bool have = false;
#define CR_PX_NEXT() cr_philox_word(b, &j, a->seed, t, &ctr)
#define CR_PX_UNIF() rng_uniform(CR_PX_NEXT())
   for (; 4 * k < end; k += RNG_PHILOX_THREADS)
      for (rng_u32 i = 0; i < 4; i++) {
         rng_u32 r;
         if (a->pmethod == CR_PM_KNUTH) {
            CR_POISSON_KNUTH(r, a->pknuth, CR_PX_UNIF);
         } else if (a->pmethod == CR_PM_DEVICE_GAMMA) {
            CR_POISSON_GAMMA(r, a->lambda, CR_PX_UNIF);
         } else {
            /* curand_normal_double: a pair from one curand4, the second kept */
            double z;
            if (have) {
               z = extra;
               have = false;
            } else {
               rng_u32 x0 = CR_PX_NEXT(), x1 = CR_PX_NEXT(), y0 = CR_PX_NEXT(), y1 = CR_PX_NEXT();
               rng_box_muller_double(x0, x1, y0, y1, &z, &extra);
               have = true;
            }
            r = cr_poisson_normal_d(a->lambda, z);
         }
         rng_u64 g = 4 * k + i;
         if (g >= a->m0 && g < end)
            ((rng_u32 *)a->out)[g - a->m0] = r;
      }
#undef CR_PX_UNIF
#undef CR_PX_NEXT
}

/* The standard normal of a Sobol word W of BITS bits (float: of its top 32
 * bits), as cuRAND computes it (measured on NVIDIA's host generator): the
 * inverse normal distribution function of the uniform of the word, taken
 * for the upper half of the words as minus that of the complement's (so
 * that the upper tail keeps the lower tail's precision; the word 2^32 - 1
 * gives 6.34, not the uniform 1.0f's infinity).  The uniform: float
 * x 2^-32 + 2^-33 (rng_uniform) for float, x 2^-32 + 2^-33 in double for
 * Sobol32's double, the double uniform (rng_sobol64_double) for Sobol64's. */
RNG_FN float cr_sobol_normalf(rng_u32 w)
{
   bool up = w >> 31;
   /* Acklam's 1e-9 is well inside a float's rounding */
   double z = rng_normcdfinv_approx((double)rng_uniform(up ? ~w : w));
   return (float)(up ? -z : z);
}

RNG_FN double cr_sobol_normal(rng_u64 w, rng_u32 bits)
{
   bool up = bits == 32 ? w >> 31 & 1 : w >> 63;
   if (up)
      w = bits == 32 ? (rng_u32)~w : ~w;
   double z = rng_normcdfinv(bits == 32 ? w * 2.3283064365386963e-10 + 1.1641532182693481e-10 : rng_sobol64_double(w));
   return up ? -z : z;
}

/* The device API's uniform of a word for its inversion (curand_poisson on
 * MTGP32 and Sobol states), in (0, 1): x 2^-32 + 2^-33, a 64-bit word's
 * top 53 bits x 2^-53 + 2^-55 (rounded to nearest, as NVIDIA's) */
RNG_FN double cr_device_u32(rng_u32 x)
{
   return x * 2.3283064365386963e-10 + 1.1641532182693481e-10;
}
RNG_FN double cr_device_u64(rng_u64 x)
{
   return (double)(x >> 11) * RNG_2POW53_INV_DOUBLE + RNG_2POW53_INV_DOUBLE / 4.0;
}

/* A Poisson value of one word of MTGP32 or Sobol32/64 (poisson.c picks
 * the method: the histogram for small lambda, inversion, then the normal
 * of the word's inverse normal distribution function in float, of the top
 * 32 bits of a 64-bit word; inversion takes the word's double uniform).
 * curandGeneratePoissonMethod's CURAND_DEVICE_API takes the device API's
 * curand_poisson of the word instead (NVIDIA's host generator, every value
 * of the word-a-value generators: tests/libs/native/
 * curand_poissonmethod_record.c): inversion of cr_device_u32/u64 below
 * lambda 1000, from 1000 the rounded double normal of the word's double
 * inverse normal distribution function (the whole 53 bits of a 64-bit
 * word; ours within a few ulps of NVIDIA's, which moves a value only where
 * sqrt(lambda) z + lambda + 1/2 is that close to an integer: none of
 * 200000 a type at lambda 1000 to 400000). */
RNG_FN rng_u32 cr_poisson_word(const cr_args *a, rng_u64 x, rng_u32 bits)
{
   rng_u32 hi = bits == 64 ? (rng_u32)(x >> 32) : (rng_u32)x;
   if (a->pmethod == CR_PM_TABLE)
      return cr_poisson_table(a, hi);
   if (a->pmethod == CR_PM_INVERSION) {
      double u = bits == 64 ? rng_sobol64_double(x) : rng_sobol32_double(hi);
      return a->plen ? cr_poisson_inversion_table(a->pv, a->plen, u) : cr_poisson_inversion(a->lambda, u);
   }
   if (a->pmethod == CR_PM_DEVICE_INVERSION) {
      double u = bits == 64 ? cr_device_u64(x) : cr_device_u32(hi);
      return a->plen ? cr_poisson_inversion_table(a->pv, a->plen, u) : cr_poisson_inversion(a->lambda, u);
   }
   if (a->pmethod == CR_PM_DEVICE_ICDF)
      return cr_poisson_normal_d(a->lambda, cr_sobol_normal(x, bits));
   if (a->pmethod == CR_PM_NORMAL_FLOAT)
      return cr_poisson_normalf(a->lambda, cr_sobol_normalf(hi));
   return cr_poisson_normal(a->lambda, cr_sobol_normalf(hi));
}

/* One Sobol output X (a word of a->bits bits) in the call's distribution,
 * to index O.  cuRAND's quasi-random normals take one word each (no pairs:
 * the inverse normal distribution function keeps the dimensions apart). */
RNG_FN void cr_sobol_put(const cr_args *a, rng_u64 o, rng_u64 x)
{
   rng_u32 hi = a->bits == 32 ? (rng_u32)x : (rng_u32)(x >> 32);
   float f;
   double d;
   switch (a->dist) {
   case CR_U32: ((rng_u32 *)a->out)[o] = (rng_u32)x; break;
   case CR_U64: ((rng_u64 *)a->out)[o] = x; break;
   case CR_POISSON: ((rng_u32 *)a->out)[o] = cr_poisson_word(a, x, a->bits); break;
   case CR_UNIFORM: ((float *)a->out)[o] = rng_uniform(hi); break;
   case CR_UNIFORM_DOUBLE:
      ((double *)a->out)[o] = a->bits == 32 ? rng_sobol32_double(hi) : rng_sobol64_double(x);
      break;
   case CR_NORMAL:
   case CR_LOGNORMAL:
      f = CR_FMAF(cr_sobol_normalf(hi), a->sdf, a->meanf);
      ((float *)a->out)[o] = a->dist == CR_LOGNORMAL ? expf(f) : f;
      break;
   default:
      d = CR_FMA(cr_sobol_normal(x, a->bits), a->sd, a->mean);
      ((double *)a->out)[o] = a->dist == CR_LOGNORMAL_DOUBLE ? exp(d) : d;
      break;
   }
}

/* Sobol thread T: dimension T / chunks, its points from chunk T % chunks
 * on (the first computed whole, the rest by the Gray-code step). */
RNG_FN void cr_sobol_thread(const cr_args *a, rng_u64 t)
{
   rng_u64 chunks = (a->points + CR_SOBOL_CHUNK - 1) / CR_SOBOL_CHUNK;
   rng_u64 d = t / chunks, j0 = t % chunks * CR_SOBOL_CHUNK;
   rng_u64 j1 = j0 + CR_SOBOL_CHUNK < a->points ? j0 + CR_SOBOL_CHUNK : a->points;
   const void *v = a->bits == 32 ? (const void *)((const rng_u32 *)a->vec + 32 * d)
                                 : (const void *)((const rng_u64 *)a->vec + 64 * d);
   /* the scramble constant shifts every point (point 0 included) */
   rng_u64 c = !a->scr ? 0 : a->bits == 32 ? ((const rng_u32 *)a->scr)[d] : ((const rng_u64 *)a->scr)[d];
   /* NVIDIA's host generator starts a scrambled Sobol64 call at the point
    * of the index's low 32 bits and steps on from there by the whole index
    * (its device generator does not: measured on an H200), so a call from
    * 2^32 on is shifted by the vectors of the Gray-code bits the
    * truncation lost */
   if (a->low32_start && a->first >> 32) {
      rng_u64 f = a->first, t = f & 0xffffffffu;
      c ^= rng_sobol_at(v, 64, f) ^ rng_sobol_at(v, 64, t);
   }
   rng_u64 x = rng_sobol_at(v, (int)a->bits, a->first + j0);
   for (rng_u64 j = j0; j < j1; j++) {
      cr_sobol_put(a, d * a->points + j, x ^ c);
      x = rng_sobol_next(v, (int)a->bits, x, a->first + j);
   }
}

#endif
