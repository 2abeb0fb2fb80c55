/*
 * curand_poisson.cu — curandGeneratePoisson through the library a program
 * links, host and device generators: XORWOW, MRG32k3a, Philox4_32_10,
 * MTGP32 (seed 4321), Sobol32, Sobol64 and their scrambled forms (3
 * dimensions); lambda
 * from 0.001 to 400000, both sides of each switch of method (NVIDIA's host
 * generator: the square histogram below 2000, then the normal
 * approximation, for XORWOW, MRG32k3a and Philox; the histogram below 32
 * (MTGP32) or 10 (Sobol32), inversion up to 8000, the normal above;
 * Sobol64 inversion below 2000, the normal from there);
 * two calls in a row (the second continuing), then words from the same
 * generator (where the state stands after Poisson values); sequences of
 * calls of different lambdas and odd counts on XORWOW (the normal
 * approximation keeps a Box-Muller pair's second value for the
 * subsequence's next Poisson value, across calls); the statuses of bad
 * arguments; curandCreatePoissonDistribution's device-side distribution.
 *
 * Expected values: NVIDIA's host generator (curand_poisson_expected.h,
 * written by native/curand_poisson_record.c on CUDA 13.0's cuRAND 10.4.0):
 * the host generator's values and the words after them must be
 * bit-identical (hashes).  The device generator is checked against the
 * host generator of the same program (itself checked against NVIDIA's):
 *  - bit-identical, with the words after them, where NVIDIA's GPU computes
 *    the same: the histogram (a word per value through a table built on
 *    the host; integer and compare on the GPU) and inversion (sums of
 *    probabilities from exp, compared with the uniform: the GPU's exp is
 *    within an ulp of the host's, which moves a value only for a uniform
 *    within ulps of a sum).  An H200's device generator gave its host
 *    generator's Poisson values at lambda 3.5 and 1000 for every generator
 *    type (native/curand_probe.cu, tests/libs/README.md: the histogram,
 *    and inversion for MTGP32 and Sobol);
 *  - the normal approximation (whose Box-Muller or inverse normal
 *    distribution function runs on the GPU's fast sin/cos/log) only
 *    through the sample mean and variance against lambda; the number of
 *    values that differ from the host generator's is printed, not checked
 *    (metalcuda's device generator runs the host's code: none differ).
 */
#include <curand.h>
#include "../cuda/check.h"
#include "curand_check.h"
#include "curand_poisson_expected.h"

#include <math.h>
#include <string.h>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static bool is_quasi(curandRngType_t t)
{
   return t == CURAND_RNG_QUASI_SOBOL32 || t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 || t == CURAND_RNG_QUASI_SOBOL64 ||
          t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

static curandGenerator_t create(curandRngType_t type, bool host)
{
   curandGenerator_t g = NULL;
   curandStatus_t s = host ? curandCreateGeneratorHost(&g, type) : curandCreateGenerator(&g, type);
   if (!CHECK_ST(s, CURAND_STATUS_SUCCESS))
      return NULL;
   if (is_quasi(type))
      CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 3), CURAND_STATUS_SUCCESS);
   else
      CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, 4321), CURAND_STATUS_SUCCESS);
   return g;
}

/* Row E on a host or device generator: the two calls and the words after
 * them (pseudo-random generators) into OUT, n1 + n2 (+ n2) values. */
static bool run_row(const poisson_expect &e, bool host, std::vector<unsigned> &out)
{
   bool words = !is_quasi(e.type);
   size_t n = e.n1 + e.n2 + (words ? e.n2 : 0);
   out.assign(n, 0xa5a5a5a5u);
   curandGenerator_t g = create(e.type, host);
   if (!g)
      return false;
   unsigned *p = out.data();
   if (!host && !CHECK_CUDA(cudaMalloc(&p, n * 4))) {
      curandDestroyGenerator(g);
      return false;
   }
   bool ok = CHECK_ST(curandGeneratePoisson(g, p, e.n1, e.lambda), CURAND_STATUS_SUCCESS);
   ok &= CHECK_ST(curandGeneratePoisson(g, p + e.n1, e.n2, e.lambda), CURAND_STATUS_SUCCESS);
   if (words)
      ok &= CHECK_ST(curandGenerate(g, p + e.n1 + e.n2, e.n2), CURAND_STATUS_SUCCESS);
   if (!host) {
      ok &= CHECK_CUDA(cudaMemcpy(out.data(), p, n * 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaFree(p));
   }
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   return ok;
}

static void check_row(const poisson_expect &e)
{
   char what[160];
   snprintf(what, sizeof what, "type %d lambda %.17g calls %zu+%zu", (int)e.type, e.lambda, e.n1, e.n2);
   std::vector<unsigned> h, d;
   if (!run_row(e, true, h))
      return;
   unsigned long long h1 = fnv(h.data(), 4 * e.n1), h2 = fnv(h.data() + e.n1, 4 * e.n2);
   unsigned long long hw = is_quasi(e.type) ? 0 : fnv(h.data() + e.n1 + e.n2, 4 * e.n2);
   if (!CHECK(h1 == e.h1 && h2 == e.h2 && hw == e.hw))
      printf("  host %s: hashes %016llx %016llx %016llx, want %016llx %016llx %016llx\n", what, h1, h2, hw, e.h1,
             e.h2, e.hw);
   for (int i = 0; i < 4; i++)
      CHECK_INT(h[i], e.v[i]);

   if (!run_row(e, false, d))
      return;
   /* the normal approximation from 2000 (XORWOW, MRG32k3a, Philox, Sobol64)
    * or above 8000 (MTGP32, Sobol32) */
   bool inv8000 = e.type == CURAND_RNG_PSEUDO_MTGP32 || e.type == CURAND_RNG_QUASI_SOBOL32 ||
                  e.type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32;
   bool exact = inv8000 ? e.lambda <= 8000 : e.lambda < 2000;
   size_t n = e.n1 + e.n2, differ = 0;
   for (size_t i = 0; i < n; i++)
      differ += d[i] != h[i];
   if (exact) {
      if (!CHECK(differ == 0 && !memcmp(d.data(), h.data(), 4 * d.size())))
         printf("  device %s: %zu of %zu values differ from the host generator's (or the words after)\n", what,
                differ, n);
      return;
   }
   /* the sample mean and variance: within 6 standard errors (the
    * variance's: sqrt((mu4 - sigma^4) / n), mu4 = 3 lambda^2 + lambda) */
   double s = 0, s2 = 0;
   for (size_t i = 0; i < n; i++)
      s += d[i];
   double mean = s / n;
   for (size_t i = 0; i < n; i++)
      s2 += (d[i] - mean) * (d[i] - mean);
   double var = s2 / (n - 1), l = e.lambda;
   /* lambda 0.001: a few nonzero values; the histogram's tail at 1e-300 */
   bool ok_mean = fabs(mean - l) <= 6 * sqrt(l / n) + 1e-9;
   bool ok_var = fabs(var - l) <= 6 * sqrt((2 * l * l + l) / n) + 1e-9;
   if (!CHECK(ok_mean && ok_var))
      printf("  device %s: mean %.6g variance %.6g, lambda %.17g\n", what, mean, var, l);
   printf("  device %s: %zu of %zu values differ from the host generator's (not checked)\n", what, differ, n);
}

/* A sequence of calls on a host XORWOW generator. */
static void check_seq(const poisson_seq &q)
{
   size_t n = 0;
   for (int k = 0; k < 5 && q.op[k][1]; k++)
      n += (size_t)q.op[k][1];
   std::vector<unsigned> out(n);
   curandGenerator_t g = create(CURAND_RNG_PSEUDO_XORWOW, true);
   if (!g)
      return;
   size_t at = 0;
   bool ok = true;
   for (int k = 0; k < 5 && q.op[k][1]; k++) {
      size_t m = (size_t)q.op[k][1];
      ok &= CHECK_ST(q.op[k][0] == 0 ? curandGenerate(g, out.data() + at, m)
                                     : curandGeneratePoisson(g, out.data() + at, m, q.op[k][0]),
                     CURAND_STATUS_SUCCESS);
      at += m;
   }
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   unsigned long long h = fnv(out.data(), 4 * n);
   if (ok && !CHECK(h == q.h))
      printf("  sequence %d: hash %016llx, want %016llx\n", (int)(&q - POISSON_SEQ), h, q.h);
}

/* curandCreatePoissonDistribution: the device API's distribution, read
 * back in NVIDIA's layout (curand_discrete.h's structures, which a kernel
 * built by NVIDIA's nvcc reads).  The method as cuRAND documents it (the
 * square histogram CURAND_M2, the normal approximation above 2000); a
 * histogram's values are checked against the Poisson probabilities
 * (lgamma, in the test): column j gives j with probability V[j] - j/n,
 * its alias K[j] with (j + 1)/n - V[j]. */
struct dist_img {
   unsigned long long self_host_ptr, m2, host_m2;
   double stddev, mean;
   int method;
   unsigned host_gen;
};
struct m2_img {
   unsigned long long histogram, host_histogram;
   unsigned shift, length, host_gen;
};
struct hist_img {
   unsigned long long v, host_v, k, host_k;
   unsigned host_gen;
};

static void check_distribution(double lambda)
{
   curandDiscreteDistribution_t dd = NULL;
   if (!CHECK_ST(curandCreatePoissonDistribution(lambda, &dd), CURAND_STATUS_SUCCESS))
      return;
   dist_img d;
   if (!CHECK_CUDA(cudaMemcpy(&d, dd, sizeof d, cudaMemcpyDeviceToHost)))
      return;
   if (lambda > 2000) {
      CHECK_INT(d.method, CURAND_DISCRETE_GAUSS);
      CHECK(d.mean == lambda && fabs(d.stddev - sqrt(lambda)) <= 1e-15 * sqrt(lambda));
   } else if (CHECK_INT(d.method, CURAND_M2)) {
      m2_img m;
      hist_img h;
      CHECK_CUDA(cudaMemcpy(&m, (void *)d.m2, sizeof m, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(&h, (void *)m.histogram, sizeof h, cudaMemcpyDeviceToHost));
      size_t n = m.length;
      std::vector<double> v(n);
      std::vector<unsigned> k(n);
      CHECK_CUDA(cudaMemcpy(v.data(), (void *)h.v, 8 * n, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(k.data(), (void *)h.k, 4 * n, cudaMemcpyDeviceToHost));
      std::vector<double> p(n, 0.0);
      bool ok = n > 0 && n < 10000;
      for (size_t j = 0; ok && j < n; j++) {
         double lo = (double)j / n, hi = (double)(j + 1) / n, c = v[j] < lo ? lo : v[j] > hi ? hi : v[j];
         ok = k[j] < n;
         if (ok) {
            p[j] += c - lo;
            p[k[j]] += hi - c;
         }
      }
      double worst = 0, outside = 1;
      for (size_t j = 0; ok && j < n; j++) {
         double x = m.shift + (double)j, want = exp(x * log(lambda) - lambda - lgamma(x + 1));
         outside -= want;
         /* the histogram's columns are what is left of a donor after up to
          * thousands of subtractions: absolute errors of 1e-12 */
         double err = fabs(p[j] - want);
         worst = err > worst ? err : worst;
      }
      if (!CHECK(ok && worst <= 1e-11 && fabs(outside) <= 1e-11))
         printf("  distribution lambda %g: shift %u length %zu, worst %g, mass outside %g\n", lambda, m.shift, n,
                worst, outside);
   }
   CHECK_ST(curandDestroyDistribution(dd), CURAND_STATUS_SUCCESS);
}

static void statuses(bool host)
{
   curandGenerator_t g = create(CURAND_RNG_PSEUDO_XORWOW, host), q = create(CURAND_RNG_QUASI_SOBOL32, host);
   unsigned *p = NULL;
   std::vector<unsigned> hb(16);
   if (host)
      p = hb.data();
   else if (!CHECK_CUDA(cudaMalloc(&p, 64)))
      return;
   if (g) {
      CHECK_ST(curandGeneratePoisson(g, p, 4, 0), POISSON_ST_LAMBDA0);
      CHECK_ST(curandGeneratePoisson(g, p, 4, -1), POISSON_ST_LAMBDA_NEG);
      CHECK_ST(curandGeneratePoisson(g, p, 4, INFINITY), POISSON_ST_LAMBDA_INF);
      CHECK_ST(curandGeneratePoisson(g, p, 4, 400000), POISSON_ST_LAMBDA_MAX);
      CHECK_ST(curandGeneratePoisson(g, p, 4, 400000.001), POISSON_ST_LAMBDA_OVER);
      CHECK_ST(curandGeneratePoisson(g, p, 0, 5), POISSON_ST_ZERO);
      CHECK_ST(curandGeneratePoisson(g, NULL, 0, 5), POISSON_ST_NULL0);
      CHECK_ST(curandGeneratePoisson(g, p, 3, 3000), POISSON_ST_ODD);
      CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   }
   if (q) {
      CHECK_ST(curandGeneratePoisson(q, p, 4, 5), POISSON_ST_SOBOL_ODD);
      CHECK_ST(curandGeneratePoisson(q, p, 4, 0), POISSON_ST_SOBOL_LAMBDA0);
      CHECK_ST(curandDestroyGenerator(q), CURAND_STATUS_SUCCESS);
   }
   if (!host)
      CHECK_CUDA(cudaFree(p));
   CHECK_ST(curandGeneratePoisson(NULL, p, 4, 5), POISSON_ST_NO_GENERATOR);
}

int main(int argc, char **argv)
{
   check_begin("curand_poisson");
   for (const poisson_expect &e : POISSON_EXPECT)
      check_row(e);
   for (const poisson_seq &q : POISSON_SEQ)
      check_seq(q);
   statuses(true);
   statuses(false);
   for (double l : { 0.5, 5.0, 123.25, 1999.9, 2500.0 })
      check_distribution(l);
   curandDiscreteDistribution_t dd = NULL;
   CHECK_ST(curandCreatePoissonDistribution(5, NULL), CURAND_STATUS_NOT_INITIALIZED);
   CHECK_ST(curandCreatePoissonDistribution(0, &dd), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandCreatePoissonDistribution(400000.5, &dd), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandDestroyDistribution(NULL), CURAND_STATUS_NOT_INITIALIZED);
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
