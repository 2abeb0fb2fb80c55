/*
 * curand_poisson.cu — curandGeneratePoisson through the library a program
 * links, host and device generators: XORWOW, MRG32k3a, Philox4_32_10,
 * MTGP32 (seed 4321), Sobol32 and scrambled Sobol32 (3 dimensions); lambda
 * from 0.001 to 400000, both sides of each switch of method (NVIDIA's host
 * generator: the square histogram below 2000, then the normal
 * approximation, for XORWOW, MRG32k3a and Philox; the histogram below 32
 * (MTGP32) or 10 (Sobol32), inversion up to 8000, the normal above);
 * two calls in a row (the second continuing), then words from the same
 * generator (where the state stands after Poisson values); sequences of
 * calls of different lambdas and odd counts on XORWOW (the normal
 * approximation keeps a Box-Muller pair's second value for the
 * subsequence's next Poisson value, across calls); the statuses of bad
 * arguments.
 *
 * Expected values: NVIDIA's host generator (curand_poisson_expected.h,
 * written by native/curand_poisson_record.c on CUDA 13.0's cuRAND 10.4.0):
 * the host generator's values and the words after them must be
 * bit-identical (hashes).  The device generator is checked against the
 * host generator of the same program (itself checked against NVIDIA's):
 *  - bit-identical where NVIDIA's GPU has every reason to compute the
 *    same: XORWOW, MRG32k3a and Philox below lambda 2000, a word per value
 *    through a histogram built on the host (integer and compare only on
 *    the GPU), and the words after them;
 *  - elsewhere (the normal approximation, whose Box-Muller runs on the
 *    GPU's fast sin/cos/log; inversion, on the GPU's exp; MTGP32 and
 *    Sobol32, whose device methods were not measured) only the sample
 *    mean and variance against lambda, and the number of values that
 *    differ from the host generator's is printed, not checked (metalcuda's
 *    device generator runs the host's code: none differ there).
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
   return t == CURAND_RNG_QUASI_SOBOL32 || t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32;
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
   bool exact = !is_quasi(e.type) && e.type != CURAND_RNG_PSEUDO_MTGP32 && e.lambda < 2000;
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
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
