/*
 * poisson.c — curandGeneratePoisson: the method by generator and lambda,
 * the square histogram it draws from, and the call (the values themselves:
 * work.h, a word of the generator each).
 *
 * What NVIDIA's host generator does (cuRAND 10.4, found by experiment:
 * tests/libs/native/curand_poisson_record.c records it, the tables read
 * back from the library's working memory while fitting), which ours
 * reproduces value for value:
 *  - XORWOW, MRG32k3a, Philox4_32_10: below lambda 2000 the square
 *    histogram, from 2000 on the rounded normal of the generator's float
 *    Box-Muller pairs (XORWOW and MRG32k3a keep a pair's second value for
 *    the subsequence's next Poisson item, work.h);
 *  - MTGP32: the histogram below 32, Sobol32 (scrambled or not) below 10;
 *    then inversion up to 8000, above it the rounded normal of the float
 *    inverse normal distribution function of the word (ours is Acklam's
 *    approximation, NVIDIA's its own: a value can differ by one where
 *    sqrt(lambda) z + lambda + 1/2 falls within an ulp or so of an
 *    integer);
 *  - lambda <= 0 or > 400000: CURAND_STATUS_OUT_OF_RANGE.
 *
 * The histogram (Marsaglia, Tsang and Wang, J. Stat. Softw. 11(3), 2004):
 * the probabilities P(k) = exp(k ln lambda - lambda - ln k!), ln k! summed
 * log by log, over the k where that is not 0 in double (from shift to
 * shift + n - 1); n columns of height a = 1/n.  Robin Hood in NVIDIA's
 * order: the donor is the highest column above a; passes over the columns
 * in order fill each one below a (its alias the donor, V = j a + P[j]) from
 * the donor, which moves down to the next column above a once it is not;
 * passes repeat while they fill some column.  Columns never filled keep
 * themselves as alias, V = j a + P[j].  Entry n is V 0, K 0 (u = 1 reads
 * it).
 */
#include "cr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(curand);

/* NVIDIA's limits and thresholds (measured; see the header) */
#define CR_POISSON_MAX 400000.0
#define CR_POISSON_NORMAL 2000.0        /* XORWOW, MRG32k3a, Philox: normal from here */
#define CR_POISSON_TABLE_MTGP 32.0      /* MTGP32: histogram below */
#define CR_POISSON_TABLE_SOBOL 10.0     /* Sobol32: histogram below */
#define CR_POISSON_INVERSION 8000.0     /* MTGP32, Sobol32: inversion up to */

void cr_poisson_free(cr_poisson_tab *t)
{
   free(t->v);
   free(t->k);
   if (t->dv)
      cuMemFree(t->dv);
   if (t->dk)
      cuMemFree(t->dk);
   memset(t, 0, sizeof *t);
}

int cr_poisson_build(cr_poisson_tab *t, double lambda)
{
   memset(t, 0, sizeof *t);
   double l = log(lambda), lf = 0;
   size_t cap = 1024, n = 0;
   double *p = malloc(cap * sizeof *p);
   if (!p)
      return -1;
   for (unsigned k = 0;; k++) {
      if (k >= 2)
         lf += log((double)k);
      double v = exp(k * l - lambda - lf);
      if (v == 0) {
         if (n)
            break;
         continue;
      }
      if (!n)
         t->shift = k;
      if (n == cap) {
         double *q = realloc(p, 2 * cap * sizeof *p);
         if (!q) {
            free(p);
            return -1;
         }
         p = q;
         cap *= 2;
      }
      p[n++] = v;
   }
   double *vv = calloc(n + 1, sizeof *vv);
   rng_u32 *kk = calloc(n + 1, sizeof *kk);
   char *done = calloc(n, 1);
   if (!vv || !kk || !done) {
      free(p);
      free(vv);
      free(kk);
      free(done);
      return -1;
   }
   double a = 1.0 / (double)n;
   for (size_t i = 0; i < n; i++)
      kk[i] = (rng_u32)i;
   long g = (long)n - 1;
   while (g >= 0 && !(p[g] > a))
      g--;
   for (bool filled = true; filled && g >= 0;) {
      filled = false;
      for (size_t i = 0; i < n && g >= 0; i++) {
         if (done[i] || !(p[i] < a))
            continue;
         kk[i] = (rng_u32)g;
         vv[i] = (double)i * a + p[i];
         done[i] = 1;
         filled = true;
         p[g] -= a - p[i];
         p[i] = a;
         if (!(p[g] > a))
            do
               g--;
            while (g >= 0 && !(p[g] > a));
      }
   }
   for (size_t i = 0; i < n; i++)
      if (!done[i])
         vv[i] = (double)i * a + p[i];
   free(p);
   free(done);
   t->v = vv;
   t->k = kk;
   t->n = (rng_u32)n;
   t->lambda = lambda;
   return 0;
}

/* The method for generator type TYPE at LAMBDA, or -1 (not implemented). */
static int poisson_method(curandRngType_t type, double lambda)
{
   switch (type) {
   case CURAND_RNG_PSEUDO_XORWOW:
   case CURAND_RNG_PSEUDO_MRG32K3A:
   case CURAND_RNG_PSEUDO_PHILOX4_32_10:
      return lambda < CR_POISSON_NORMAL ? CR_PM_TABLE : CR_PM_NORMAL;
   case CURAND_RNG_PSEUDO_MTGP32:
   case CURAND_RNG_QUASI_SOBOL32:
   case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32: {
      double below = type == CURAND_RNG_PSEUDO_MTGP32 ? CR_POISSON_TABLE_MTGP : CR_POISSON_TABLE_SOBOL;
      return lambda < below ? CR_PM_TABLE : lambda <= CR_POISSON_INVERSION ? CR_PM_INVERSION : CR_PM_NORMAL;
   }
   default:
      return -1;
   }
}

/* The generator's histogram for LAMBDA (kept for the next call with the
 * same lambda), on the device too for a device generator. */
static curandStatus_t poisson_table(curandGenerator_t g, double lambda)
{
   cr_poisson_tab *t = &g->ptab;
   if (t->v && t->lambda == lambda)
      return CURAND_STATUS_SUCCESS;
   if (!g->host) {
      CUcontext cur = NULL;
      if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS || (cur != g->ctx && cuCtxSetCurrent(g->ctx) != CUDA_SUCCESS))
         return CURAND_STATUS_INITIALIZATION_FAILED;
      /* the stream's earlier calls may still read the old table */
      if (t->dv && cuStreamSynchronize(g->stream) != CUDA_SUCCESS)
         return CURAND_STATUS_LAUNCH_FAILURE;
   }
   cr_poisson_free(t);
   if (cr_poisson_build(t, lambda))
      return CURAND_STATUS_ALLOCATION_FAILED;
   if (g->host)
      return CURAND_STATUS_SUCCESS;
   size_t bv = ((size_t)t->n + 1) * sizeof *t->v, bk = ((size_t)t->n + 1) * sizeof *t->k;
   CUresult r = cuMemAlloc(&t->dv, bv);
   if (r == CUDA_SUCCESS)
      r = cuMemAlloc(&t->dk, bk);
   if (r == CUDA_SUCCESS)
      r = cuMemcpyHtoD(t->dv, t->v, bv);
   if (r == CUDA_SUCCESS)
      r = cuMemcpyHtoD(t->dk, t->k, bk);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curandGeneratePoisson: the histogram to the device: CUresult %d", (int)r);
      cr_poisson_free(t);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CURAND_STATUS_ALLOCATION_FAILED : CURAND_STATUS_LAUNCH_FAILURE;
   }
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandGeneratePoisson (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGeneratePoisson(curandGenerator_t g, unsigned int *outputPtr, size_t n, double lambda)
{
   CR_ENTER("generator=%p outputPtr=%p n=%zu lambda=%g", (void *)g, (void *)outputPtr, n, lambda);
   CR_GEN(g);
   CR_CHECK(lambda > 0 && lambda <= CR_POISSON_MAX, CURAND_STATUS_OUT_OF_RANGE);
   int method = poisson_method(g->type, lambda);
   if (method < 0) {
      LOG_WARN("curandGeneratePoisson: not implemented for generator type %d (libcurand has it for XORWOW, "
               "MRG32k3a, MTGP32, Philox4_32_10 and (scrambled) Sobol32)", (int)g->type);
      return CURAND_STATUS_TYPE_ERROR;
   }
   bool sobol = cr_is_sobol(g->type);
   CR_CHECK(!sobol || n % g->dims == 0, CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   /* no output buffer: refused rather than written through (NVIDIA's
    * host generator writes through it) */
   CR_CHECK(outputPtr || n == 0, CURAND_STATUS_OUT_OF_RANGE);
   if (method == CR_PM_TABLE) {
      curandStatus_t s = poisson_table(g, lambda);
      if (s != CURAND_STATUS_SUCCESS)
         return s;
   }
   g->plambda = lambda;
   g->pmethod = (unsigned)method;
   if (sobol)
      return cr_sobol_run(g, CR_POISSON, outputPtr, n, 0, 0);
   if (g->type == CURAND_RNG_PSEUDO_MTGP32)
      return cr_mtgp_run(g, CR_POISSON, outputPtr, n, 0, 0);
   return cr_run(g, CR_POISSON, outputPtr, n, 0, 0);
}
