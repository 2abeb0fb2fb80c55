/*
 * crt/mc_curand_dist.h — the cuRAND device API's distributions for
 * programs built by metalcuda's own nvcc (included by curand_kernel.h
 * after the states): curand_normal, curand_normal2/4, curand_log_normal,
 * curand_log_normal2/4 and their _double forms, curand_poisson,
 * curand_poisson4, curand_discrete, curand_discrete4, for the states
 * NVIDIA's header defines each for.  Written from the cuRAND
 * documentation and the algorithms NVIDIA's curand_normal.h,
 * curand_lognormal.h, curand_poisson.h and curand_discrete2.h describe.
 *
 * What they consume and keep (NVIDIA's, so that a program's later words
 * are the H200's):
 *  - XORWOW, Philox4_32_10, MRG32k3a: Box-Muller.  A float pair takes two
 *    words u = x 2^-32 + 2^-33, v = (y 2^-32 + 2^-33) 2pi (MRG32k3a: two
 *    float uniforms, the second times 2pi) and gives
 *    sqrt(-2 log u) (sin v, cos v); a double pair takes two double
 *    uniforms of two words each (XORWOW: four curand(); Philox: one
 *    curand4(); MRG32k3a: two curand_uniform_double) and uses sincospi of
 *    the second, doubled.  curand_normal returns the sine value and keeps
 *    the cosine value in boxmuller_extra with boxmuller_flag 1 (the next
 *    call returns it and clears the flag); curand_log_normal keeps
 *    exp(mean + stddev z) of it with flag 2, so a log-normal call after a
 *    normal one (or the reverse) draws a new pair.  The double forms have
 *    their own flag and value.  curand_normal2/4 and the log-normal
 *    pairs and quads neither read nor write the cache; curand_normal4
 *    (Philox) is two pairs of one curand4().
 *  - Sobol32/64 (scrambled or not), MTGP32: one word a value through the
 *    inverse normal distribution function, mirrored around the middle
 *    word: sign * sqrt(2) erfcinv(2p) (erfcinvf for float), p the lower
 *    half's uniform; log-normal exp(mean + stddev z).
 *  - curand_poisson (XORWOW, Philox, MRG32k3a): below lambda 64 Knuth's
 *    product of float uniforms against expf(lambda); above 4000
 *    (unsigned)(sqrt(lambda) curand_normal_double + lambda + 0.5) (the
 *    cached double normal); between, a rejection method: x =
 *    floor(Q^-1(lambda, y)) for a uniform y through a closed-form
 *    approximation of the regularized incomplete gamma function, accepted
 *    when a second uniform times 1.3 (P(x + 1) - P(x)) is below
 *    exp(-lambda + x log lambda - lgamma(x + 1)), all in float with the
 *    GPU's approximate rsqrt, ex2, lg2 and rcp (inline PTX, as NVIDIA's).
 *    curand_poisson4 (Philox) is four values, above 4000 from one
 *    curand_normal4_double.  Sobol and MTGP32: one word a value, Fishman's
 *    sequential inversion (e^-lambda applied 500 at a time) below lambda
 *    1000 on a uniform that excludes 1, the rounded inverse normal above.
 *  - curand_discrete on a curandCreatePoissonDistribution distribution:
 *    the square histogram (CURAND_M2: one word, its double uniform, index
 *    floor(length u), the value or its alias) or, from lambda 2000
 *    (CURAND_DISCRETE_GAUSS), the rounded curand_normal_double;
 *    curand_discrete4 (Philox) from one curand4() or curand_normal4_double.
 *
 * Values: the words consumed and the state left are NVIDIA's exactly; the
 * transforms are NVIDIA's operations (the same intrinsics: __sincosf,
 * sincospi, logf, erfcinvf, expf ...), evaluated by metalcuda's device
 * library and PTX translation, which are more precise than the GPU's
 * approximate instructions: the floats differ from an H200's by a few
 * ulps, so a Poisson value (and, where its rejection test flips, the
 * number of words a rejection draw takes) can differ by one where the
 * approximation straddles an integer boundary.  Measured against an H200
 * by tests/libs/curand_device_dist.cu (figures in its header and in
 * src/libs/curand/README.md).  lgamma of the rejection method's integer
 * is the device library's lgamma, not NVIDIA's Stirling series: rounded
 * to float the two agree on every integer from 1 to 2^20 (a kernel
 * through metalcuda nvcc against Hart's series in double on the host,
 * 2026-12-05), so the choice changes no value.
 */
#ifndef MC_CURAND_DIST_H
#define MC_CURAND_DIST_H

/* the discrete distributions, NVIDIA's layout (curandCreatePoissonDistribution
 * writes it, src/libs/curand/poisson.c) */
struct curandDistributionShift_st {
   curandDistribution_t probability;
   curandDistribution_t host_probability;
   unsigned int shift;
   unsigned int length;
   unsigned int host_gen;
};
struct curandHistogramM2_st {
   curandHistogramM2V_t V;
   curandHistogramM2V_t host_V;
   curandHistogramM2K_t K;
   curandHistogramM2K_t host_K;
   unsigned int host_gen;
};
struct curandDistributionM2Shift_st {
   curandHistogramM2_t histogram;
   curandHistogramM2_t host_histogram;
   unsigned int shift;
   unsigned int length;
   unsigned int host_gen;
};
struct curandDiscreteDistribution_st {
   curandDiscreteDistribution_t self_host_ptr;
   curandDistributionM2Shift_t M2;
   curandDistributionM2Shift_t host_M2;
   double stddev;
   double mean;
   curandMethod_t method;
   unsigned int host_gen;
};

#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_SQRT2 (-1.4142135f)
#define CURAND_SQRT2_DOUBLE (-1.4142135623730951)
#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

/* a 64-bit word's double uniform, its top 53 bits (the square histogram's
 * uniform of a Sobol64 word) */
MC_CURAND_FN double _curand_uniform_double(unsigned long long x)
{
   return (x >> 11) * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}

/* ---- Box-Muller ---- */
MC_CURAND_FN float2 mc_curand_bm_words(unsigned int x, unsigned int y)
{
   float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2);
   float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2);
   float s = sqrtf(-2.0f * logf(u));
   float2 r;
   __sincosf(v, &r.x, &r.y);
   return make_float2(r.x * s, r.y * s);
}

/* (x0, x1) and (y0, y1) as 53-bit uniforms: u in (0, 1), v in (0, 2] */
MC_CURAND_FN double2 mc_curand_bm_words_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1)
{
   double u = _curand_uniform_double_hq(x0, x1);
   unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
   double v = zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
   double s = sqrt(-2.0 * log(u)), a, b;
   sincospi(v, &a, &b);
   return make_double2(a * s, b * s);
}

/* one pair of each state: float (mc_curand_bm) and double (mc_curand_bm_double) */
MC_CURAND_FN float2 mc_curand_bm(curandStateXORWOW_t *state)
{
   unsigned int x = curand(state);
   unsigned int y = curand(state);
   return mc_curand_bm_words(x, y);
}
MC_CURAND_FN float2 mc_curand_bm(curandStatePhilox4_32_10_t *state)
{
   unsigned int x = curand(state);
   unsigned int y = curand(state);
   return mc_curand_bm_words(x, y);
}
MC_CURAND_FN float2 mc_curand_bm(curandStateMRG32k3a_t *state)
{
   float x = curand_uniform(state);
   float y = curand_uniform(state) * CURAND_2PI;
   float s = sqrtf(-2.0f * logf(x));
   float2 r;
   __sincosf(y, &r.x, &r.y);
   return make_float2(r.x * s, r.y * s);
}
MC_CURAND_FN double2 mc_curand_bm_double(curandStateXORWOW_t *state)
{
   unsigned int x0 = curand(state);
   unsigned int x1 = curand(state);
   unsigned int y0 = curand(state);
   unsigned int y1 = curand(state);
   return mc_curand_bm_words_double(x0, x1, y0, y1);
}
MC_CURAND_FN double2 mc_curand_bm_double(curandStatePhilox4_32_10_t *state)
{
   uint4 w = curand4(state);
   return mc_curand_bm_words_double(w.x, w.y, w.z, w.w);
}
MC_CURAND_FN double2 mc_curand_bm_double(curandStateMRG32k3a_t *state)
{
   double x = curand_uniform_double(state);
   double y = curand_uniform_double(state) * 2.0;
   double s = sqrt(-2.0 * log(x)), a, b;
   sincospi(y, &a, &b);
   return make_double2(a * s, b * s);
}

/* the inverse normal distribution function of a word: the lower half's
 * uniform p, the upper half mirrored (so both tails are as precise) */
MC_CURAND_FN float mc_curand_icdf(unsigned int x)
{
   float s = CURAND_SQRT2;
   if (x > 0x80000000u) {
      x = 0xffffffffu - x;
      s = -s;
   }
   float p = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
   return s * erfcinvf(2.0f * p);
}
MC_CURAND_FN float mc_curand_icdf(unsigned long long x)
{
   return mc_curand_icdf((unsigned int)(x >> 32));
}
MC_CURAND_FN double mc_curand_icdf_double(unsigned int x)
{
   double s = CURAND_SQRT2_DOUBLE;
   if (x > 0x80000000u) {
      x = 0xffffffffu - x;
      s = -s;
   }
   double p = x * CURAND_2POW32_INV_DOUBLE + (CURAND_2POW32_INV_DOUBLE / 2.0);
   return s * erfcinv(2.0 * p);
}
MC_CURAND_FN double mc_curand_icdf_double(unsigned long long x)
{
   double s = CURAND_SQRT2_DOUBLE;
   x >>= 11;
   if (x > (1ull << 52)) {
      x = (1ull << 53) - 1 - x;
      s = -s;
   }
   double p = x * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
   return s * erfcinv(2.0 * p);
}

/* ---- normal and log-normal: the pseudo-random states (a cached pair) ---- */
#define MC_CURAND_BM_FORMS(S)                                                                                 \
   MC_CURAND_FN float curand_normal(S *state)                                                                 \
   {                                                                                                          \
      if (state->boxmuller_flag != EXTRA_FLAG_NORMAL) {                                                       \
         float2 v = mc_curand_bm(state);                                                                      \
         state->boxmuller_extra = v.y;                                                                        \
         state->boxmuller_flag = EXTRA_FLAG_NORMAL;                                                           \
         return v.x;                                                                                          \
      }                                                                                                       \
      state->boxmuller_flag = 0;                                                                              \
      return state->boxmuller_extra;                                                                          \
   }                                                                                                          \
   MC_CURAND_FN double curand_normal_double(S *state)                                                         \
   {                                                                                                          \
      if (state->boxmuller_flag_double != EXTRA_FLAG_NORMAL) {                                                \
         double2 v = mc_curand_bm_double(state);                                                              \
         state->boxmuller_extra_double = v.y;                                                                 \
         state->boxmuller_flag_double = EXTRA_FLAG_NORMAL;                                                    \
         return v.x;                                                                                          \
      }                                                                                                       \
      state->boxmuller_flag_double = 0;                                                                       \
      return state->boxmuller_extra_double;                                                                   \
   }                                                                                                          \
   MC_CURAND_FN float curand_log_normal(S *state, float mean, float stddev)                                  \
   {                                                                                                          \
      if (state->boxmuller_flag != EXTRA_FLAG_LOG_NORMAL) {                                                   \
         float2 v = mc_curand_bm(state);                                                                      \
         state->boxmuller_extra = expf(mean + stddev * v.y);                                                  \
         state->boxmuller_flag = EXTRA_FLAG_LOG_NORMAL;                                                       \
         return expf(mean + stddev * v.x);                                                                    \
      }                                                                                                       \
      state->boxmuller_flag = 0;                                                                              \
      return state->boxmuller_extra;                                                                          \
   }                                                                                                          \
   MC_CURAND_FN double curand_log_normal_double(S *state, double mean, double stddev)                        \
   {                                                                                                          \
      if (state->boxmuller_flag_double != EXTRA_FLAG_LOG_NORMAL) {                                            \
         double2 v = mc_curand_bm_double(state);                                                              \
         state->boxmuller_extra_double = exp(mean + stddev * v.y);                                            \
         state->boxmuller_flag_double = EXTRA_FLAG_LOG_NORMAL;                                                \
         return exp(mean + stddev * v.x);                                                                     \
      }                                                                                                       \
      state->boxmuller_flag_double = 0;                                                                       \
      return state->boxmuller_extra_double;                                                                   \
   }                                                                                                          \
   MC_CURAND_FN float2 curand_normal2(S *state) { return mc_curand_bm(state); }                               \
   MC_CURAND_FN double2 curand_normal2_double(S *state) { return mc_curand_bm_double(state); }                \
   MC_CURAND_FN float2 curand_log_normal2(S *state, float mean, float stddev)                                \
   {                                                                                                          \
      float2 v = mc_curand_bm(state);                                                                         \
      return make_float2(expf(mean + stddev * v.x), expf(mean + stddev * v.y));                               \
   }                                                                                                          \
   MC_CURAND_FN double2 curand_log_normal2_double(S *state, double mean, double stddev)                      \
   {                                                                                                          \
      double2 v = mc_curand_bm_double(state);                                                                 \
      return make_double2(exp(mean + stddev * v.x), exp(mean + stddev * v.y));                                \
   }
MC_CURAND_BM_FORMS(curandStateXORWOW_t)
MC_CURAND_BM_FORMS(curandStatePhilox4_32_10_t)
MC_CURAND_BM_FORMS(curandStateMRG32k3a_t)
#undef MC_CURAND_BM_FORMS

/* Philox's quads: two pairs of one curand4() (float), of two (double) */
MC_CURAND_FN float4 curand_normal4(curandStatePhilox4_32_10_t *state)
{
   uint4 w = curand4(state);
   float2 a = mc_curand_bm_words(w.x, w.y), b = mc_curand_bm_words(w.z, w.w);
   return make_float4(a.x, a.y, b.x, b.y);
}
MC_CURAND_FN double4 curand_normal4_double(curandStatePhilox4_32_10_t *state)
{
   double2 a = mc_curand_bm_double(state);
   double2 b = mc_curand_bm_double(state);
   return make_double4(a.x, a.y, b.x, b.y);
}
MC_CURAND_FN float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev)
{
   float4 v = curand_normal4(state);
   return make_float4(expf(mean + stddev * v.x), expf(mean + stddev * v.y), expf(mean + stddev * v.z),
                      expf(mean + stddev * v.w));
}
MC_CURAND_FN double4 curand_log_normal4_double(curandStatePhilox4_32_10_t *state, double mean, double stddev)
{
   double4 v = curand_normal4_double(state);
   return make_double4(exp(mean + stddev * v.x), exp(mean + stddev * v.y), exp(mean + stddev * v.z),
                       exp(mean + stddev * v.w));
}

/* ---- normal and log-normal: the quasi-random states and MTGP32 (a word a value) ---- */
#define MC_CURAND_ICDF_FORMS(S)                                                                               \
   MC_CURAND_FN float curand_normal(S *state) { return mc_curand_icdf(curand(state)); }                      \
   MC_CURAND_FN double curand_normal_double(S *state) { return mc_curand_icdf_double(curand(state)); }       \
   MC_CURAND_FN float curand_log_normal(S *state, float mean, float stddev)                                  \
   {                                                                                                          \
      return expf(mean + stddev * mc_curand_icdf(curand(state)));                                             \
   }                                                                                                          \
   MC_CURAND_FN double curand_log_normal_double(S *state, double mean, double stddev)                        \
   {                                                                                                          \
      return exp(mean + stddev * mc_curand_icdf_double(curand(state)));                                       \
   }
MC_CURAND_ICDF_FORMS(curandStateMtgp32_t)
MC_CURAND_ICDF_FORMS(curandStateSobol32_t)
MC_CURAND_ICDF_FORMS(curandStateScrambledSobol32_t)
MC_CURAND_ICDF_FORMS(curandStateSobol64_t)
MC_CURAND_ICDF_FORMS(curandStateScrambledSobol64_t)
#undef MC_CURAND_ICDF_FORMS

/* ---- Poisson ---- */

/* the GPU's approximate instructions, as NVIDIA's rejection method uses
 * them (the exponential and logarithm scale in double, then round) */
MC_CURAND_FN float mc_curand_rsqrt_approx(float a)
{
   asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return a;
}
MC_CURAND_FN float mc_curand_rcp_approx(float a)
{
   asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return a;
}
MC_CURAND_FN float mc_curand_exp_approx(float a)
{
   a = (float)(a * 1.4426950408889634074);
   asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return a;
}
MC_CURAND_FN float mc_curand_log_approx(float a)
{
   asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(a));
   return (float)(a * 0.69314718055994530942);
}

/* the approximation of the regularized lower incomplete gamma function
 * P(a, x) ~ 1 / (1 + e^(alpha (a - x) - beta))^2 and its inverse in x;
 * alpha and beta depend on a through six fitted constants (those of
 * NVIDIA's curand_poisson.h: the algorithm's parameters) */
MC_CURAND_FN void mc_curand_gammainc_ab(float a, float *alpha, float *beta)
{
   *alpha = 1.43248035075540910f * mc_curand_rsqrt_approx(a - 0.12400979329415655f) + 0.00025361074907033f;
   *beta = 0.21096734870196546f * mc_curand_rsqrt_approx(a - 1.97381164089999420f) + 0.94201734077887530f;
}
MC_CURAND_FN float mc_curand_pgammainc(float a, float x)
{
   float alpha, beta;
   mc_curand_gammainc_ab(a, &alpha, &beta);
   float t = 1.0f + mc_curand_exp_approx(alpha * (a - x) - beta);
   return mc_curand_rcp_approx(t * t);
}
MC_CURAND_FN float mc_curand_pgammaincinv(float a, float y)
{
   float alpha, beta;
   mc_curand_gammainc_ab(a, &alpha, &beta);
   float t = beta + mc_curand_log_approx(mc_curand_rsqrt_approx(y) - 1.0f);
   return -t * mc_curand_rcp_approx(alpha) + a;
}

/* Knuth: count float uniforms until their product with e^lambda is <= 1 */
template <class S> MC_CURAND_FN unsigned int mc_curand_poisson_knuth(S *state, float lambda)
{
   unsigned int k = 0;
   float p = expf(lambda);
   do {
      k++;
      p *= curand_uniform(state);
   } while (p > 1.0f);
   return k - 1;
}

/* rejection from the approximate inverse of P(lambda, .), two uniforms a try */
template <class S> MC_CURAND_FN unsigned int mc_curand_poisson_rejection(S *state, float lambda)
{
   float logl = mc_curand_log_approx(lambda), x;
   for (;;) {
      float y = curand_uniform(state);
      x = floorf(mc_curand_pgammaincinv(lambda, y));
      float z = curand_uniform(state);
      float v = (mc_curand_pgammainc(lambda, x + 1.0f) - mc_curand_pgammainc(lambda, x)) * 1.3f;
      z = z * v;
      float t = mc_curand_exp_approx(-lambda + x * logl - (float)lgamma((double)(int)(1.0f + x)));
      if (z < t && v >= 1e-20)
         break;
   }
   return (unsigned int)x;
}

/* the rounded normal approximation */
MC_CURAND_FN unsigned int mc_curand_round_normal(double z, double stddev, double mean)
{
   return (unsigned int)(stddev * z + mean + 0.5);
}

#define MC_CURAND_POISSON_PSEUDO(S)                                                                           \
   MC_CURAND_FN unsigned int curand_poisson(S *state, double lambda)                                         \
   {                                                                                                          \
      if (lambda < 64)                                                                                        \
         return mc_curand_poisson_knuth(state, (float)lambda);                                                \
      if (lambda > 4000)                                                                                      \
         return mc_curand_round_normal(curand_normal_double(state), sqrt(lambda), lambda);                    \
      return mc_curand_poisson_rejection(state, (float)lambda);                                               \
   }
MC_CURAND_POISSON_PSEUDO(curandStateXORWOW_t)
MC_CURAND_POISSON_PSEUDO(curandStatePhilox4_32_10_t)
MC_CURAND_POISSON_PSEUDO(curandStateMRG32k3a_t)
#undef MC_CURAND_POISSON_PSEUDO

/* four values one after the other, but above 4000 one curand_normal4_double
 * (the cache untouched) */
MC_CURAND_FN uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda)
{
   if (lambda > 4000) {
      double4 z = curand_normal4_double(state);
      double s = sqrt(lambda);
      return make_uint4(mc_curand_round_normal(z.x, s, lambda), mc_curand_round_normal(z.y, s, lambda),
                        mc_curand_round_normal(z.z, s, lambda), mc_curand_round_normal(z.w, s, lambda));
   }
   uint4 r;
   r.x = curand_poisson(state, lambda);
   r.y = curand_poisson(state, lambda);
   r.z = curand_poisson(state, lambda);
   r.w = curand_poisson(state, lambda);
   return r;
}

/* a uniform in (0, 1) of a word (Fishman's search never ends at 1) */
MC_CURAND_FN double mc_curand_uniform_below1(unsigned int x)
{
   return x * CURAND_2POW32_INV_DOUBLE + (CURAND_2POW32_INV_DOUBLE / 2.0);
}
MC_CURAND_FN double mc_curand_uniform_below1(unsigned long long x)
{
   return (x >> 11) * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 4.0);
}

/* Fishman's sequential search: the cumulative sum of the probabilities,
 * e^-lambda brought in 500 at a time so that it never underflows */
template <class W> MC_CURAND_FN unsigned int mc_curand_poisson_inversion(W x, double lambda)
{
   double u = mc_curand_uniform_below1(x), p = 1.0, q = 1.0;
   unsigned int k = 0;
   int pw = 0;
   do {
      double l = lambda > (double)(pw + 500.0) ? exp(-500.0) : exp((double)(pw - lambda));
      p *= l;
      q *= l;
      pw += 500;
      while (u > q) {
         k++;
         p *= lambda / (double)k;
         q += p;
      }
   } while ((double)pw < lambda);
   return k;
}

/* one word a value: inversion below 1000, the rounded inverse normal above */
#define MC_CURAND_POISSON_WORD(S)                                                                             \
   MC_CURAND_FN unsigned int curand_poisson(S *state, double lambda)                                         \
   {                                                                                                          \
      auto x = curand(state);                                                                                 \
      if (lambda < 1000)                                                                                      \
         return mc_curand_poisson_inversion(x, lambda);                                                       \
      return mc_curand_round_normal(mc_curand_icdf_double(x), sqrt(lambda), lambda);                          \
   }
MC_CURAND_POISSON_WORD(curandStateMtgp32_t)
MC_CURAND_POISSON_WORD(curandStateSobol32_t)
MC_CURAND_POISSON_WORD(curandStateScrambledSobol32_t)
MC_CURAND_POISSON_WORD(curandStateSobol64_t)
MC_CURAND_POISSON_WORD(curandStateScrambledSobol64_t)
#undef MC_CURAND_POISSON_WORD

/* ---- discrete distributions ---- */

/* Marsaglia, Tsang and Wang's square histogram: column floor(length u),
 * its own value below V, its alias K above */
template <class W> MC_CURAND_FN unsigned int mc_curand_m2(W x, curandDistributionM2Shift_t m2)
{
   double u = _curand_uniform_double(x);
   int j = (int)floor(m2->length * u);
   if (u < __ldg(&m2->histogram->V[j]))
      return m2->shift + j;
   return m2->shift + __ldg(&m2->histogram->K[j]);
}

template <class S> MC_CURAND_FN unsigned int mc_curand_discrete(S *state, curandDiscreteDistribution_t d)
{
   if (d->method == CURAND_M2)
      return mc_curand_m2(curand(state), d->M2);
   return mc_curand_round_normal(curand_normal_double(state), d->stddev, d->mean);
}
#define MC_CURAND_DISCRETE(S)                                                                                 \
   MC_CURAND_FN unsigned int curand_discrete(S *state, curandDiscreteDistribution_t d)                       \
   {                                                                                                          \
      return mc_curand_discrete(state, d);                                                                    \
   }
MC_CURAND_DISCRETE(curandStateXORWOW_t)
MC_CURAND_DISCRETE(curandStatePhilox4_32_10_t)
MC_CURAND_DISCRETE(curandStateMRG32k3a_t)
MC_CURAND_DISCRETE(curandStateMtgp32_t)
MC_CURAND_DISCRETE(curandStateSobol32_t)
MC_CURAND_DISCRETE(curandStateScrambledSobol32_t)
MC_CURAND_DISCRETE(curandStateSobol64_t)
MC_CURAND_DISCRETE(curandStateScrambledSobol64_t)
#undef MC_CURAND_DISCRETE

MC_CURAND_FN uint4 curand_discrete4(curandStatePhilox4_32_10_t *state, curandDiscreteDistribution_t d)
{
   if (d->method == CURAND_M2) {
      uint4 w = curand4(state);
      return make_uint4(mc_curand_m2(w.x, d->M2), mc_curand_m2(w.y, d->M2), mc_curand_m2(w.z, d->M2),
                        mc_curand_m2(w.w, d->M2));
   }
   double4 z = curand_normal4_double(state);
   return make_uint4(mc_curand_round_normal(z.x, d->stddev, d->mean), mc_curand_round_normal(z.y, d->stddev, d->mean),
                     mc_curand_round_normal(z.z, d->stddev, d->mean), mc_curand_round_normal(z.w, d->stddev, d->mean));
}

#endif
