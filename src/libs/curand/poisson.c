/*
 * poisson.c — curandGeneratePoisson: the method by generator and lambda,
 * the square histogram it draws from, and the call (the values themselves:
 * work.h, a word of the generator each); curandGeneratePoissonMethod
 * (above its definition); the device API's distributions (below).
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
 *    inverse normal distribution function of the word; Sobol64 (scrambled
 *    or not): inversion (of the 64-bit word's double uniform) below 2000,
 *    then the rounded normal of its top 32 bits' (ours is Acklam's
 *    approximation, NVIDIA's its own: a value can differ by one where
 *    sqrt(lambda) z + lambda + 1/2 falls within an ulp or so of an
 *    integer);
 *  - MT19937: the histogram below 2000, from 2000 on the rounded normal
 *    of the word's float inverse normal distribution function, in float
 *    arithmetic (work.h's cr_poisson_normalf; tests/libs/native/
 *    curand_mt19937cmp.c), with the same off-by-one caveat;
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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(curand);

/* NVIDIA's limits and thresholds (measured; see the header) */
#define CR_POISSON_MAX 400000.0
#define CR_POISSON_NORMAL 2000.0        /* XORWOW, MRG32k3a, Philox, MT19937: normal from here */
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

/* Inversion's sums for lambda <= 500: the arithmetic of
 * cr_poisson_inversion (work.h) up to where the probabilities underflow,
 * which for one factor e^-lambda does not depend on the uniform. */
int cr_poisson_build_sums(cr_poisson_tab *t, double lambda)
{
   memset(t, 0, sizeof *t);
   size_t cap = 1024, n = 0;
   double *q = malloc(cap * sizeof *q);
   if (!q)
      return -1;
   double f = exp((double)(0 - lambda)), p = 1.0, sum = 1.0;
   p *= f;
   sum *= f;
   q[n++] = sum;
   for (rng_u32 k = 1; p != 0; k++) {
      p *= lambda / (double)k;
      sum += p;
      if (n == cap) {
         double *r = realloc(q, 2 * cap * sizeof *q);
         if (!r) {
            free(q);
            return -1;
         }
         q = r;
         cap *= 2;
      }
      q[n++] = sum;
   }
   t->v = q;
   t->n = (rng_u32)n;
   t->inversion = true;
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
   case CURAND_RNG_PSEUDO_MT19937:
      return lambda < CR_POISSON_NORMAL ? CR_PM_TABLE : CR_PM_NORMAL_FLOAT;
   case CURAND_RNG_PSEUDO_MTGP32:
   case CURAND_RNG_QUASI_SOBOL32:
   case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32: {
      double below = type == CURAND_RNG_PSEUDO_MTGP32 ? CR_POISSON_TABLE_MTGP : CR_POISSON_TABLE_SOBOL;
      return lambda < below ? CR_PM_TABLE : lambda <= CR_POISSON_INVERSION ? CR_PM_INVERSION : CR_PM_NORMAL;
   }
   case CURAND_RNG_QUASI_SOBOL64:
   case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
      return lambda < CR_POISSON_NORMAL ? CR_PM_INVERSION : CR_PM_NORMAL;
   default:
      return -1;
   }
}

/* The generator's histogram, or inversion's sums (INVERSION), for LAMBDA
 * (kept for the next call with the same), on the device too for a device
 * generator. */
static curandStatus_t poisson_table(curandGenerator_t g, double lambda, bool inversion)
{
   cr_poisson_tab *t = &g->ptab;
   if (t->v && t->lambda == lambda && t->inversion == inversion)
      return CURAND_STATUS_SUCCESS;
   if (!g->host) {
      if (cr_ctx_enter(g) != CURAND_STATUS_SUCCESS)
         return CURAND_STATUS_INITIALIZATION_FAILED;
      /* the stream's earlier calls may still read the old table */
      if (t->dv && cuStreamSynchronize(g->stream) != CUDA_SUCCESS)
         return CURAND_STATUS_LAUNCH_FAILURE;
   }
   cr_poisson_free(t);
   if (inversion ? cr_poisson_build_sums(t, lambda) : cr_poisson_build(t, lambda))
      return CURAND_STATUS_ALLOCATION_FAILED;
   if (g->host)
      return CURAND_STATUS_SUCCESS;
   size_t entries = inversion ? t->n : (size_t)t->n + 1;
   size_t bv = entries * sizeof *t->v, bk = entries * sizeof *t->k;
   CUresult r = cuMemAlloc(&t->dv, bv);
   if (r == CUDA_SUCCESS && !inversion)
      r = cuMemAlloc(&t->dk, bk);
   if (r == CUDA_SUCCESS)
      r = cuMemcpyHtoD(t->dv, t->v, bv);
   if (r == CUDA_SUCCESS && !inversion)
      r = cuMemcpyHtoD(t->dk, t->k, bk);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curandGeneratePoisson: the histogram to the device: CUresult %d", (int)r);
      cr_poisson_free(t);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CURAND_STATUS_ALLOCATION_FAILED : CURAND_STATUS_LAUNCH_FAILURE;
   }
   return CURAND_STATUS_SUCCESS;
}

/* A Poisson call by METHOD (-1: the generator's own, poisson_method's) */
static curandStatus_t poisson_call(curandGenerator_t g, unsigned int *outputPtr, size_t n, double lambda, int method)
{
   if (method < 0)
      method = poisson_method(g->type, lambda);
   if (method < 0) {
      LOG_WARN("curandGeneratePoisson: not implemented for generator type %d", (int)g->type);
      return CURAND_STATUS_TYPE_ERROR;
   }
   bool sobol = cr_is_sobol(g->type);
   CR_CHECK(!sobol || n % g->dims == 0, CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   /* no output buffer: refused rather than written through (NVIDIA's
    * host generator writes through it) */
   CR_CHECK(outputPtr || n == 0, CURAND_STATUS_OUT_OF_RANGE);
   /* inversion with one factor e^-lambda: its sums once for the call */
   bool sums = cr_pm_inversion(method) && lambda <= 500.0;
   if (method == CR_PM_TABLE || sums) {
      curandStatus_t s = poisson_table(g, lambda, sums);
      if (s != CURAND_STATUS_SUCCESS)
         return s;
   }
   g->plambda = lambda;
   g->pmethod = (unsigned)method;
   g->psums = sums;
   /* Knuth's e^lambda in float, on the host for both generators: NVIDIA's
    * host generator's values are glibc's expf's */
   g->pknuth = expf((float)lambda);
   if (sobol)
      return cr_sobol_run(g, CR_POISSON, outputPtr, n, 0, 0);
   if (g->type == CURAND_RNG_PSEUDO_MTGP32)
      return cr_mtgp_run(g, CR_POISSON, outputPtr, n, 0, 0);
   if (g->type == CURAND_RNG_PSEUDO_MT19937)
      return cr_mt_run(g, CR_POISSON, outputPtr, n, 0, 0);
   return cr_run(g, CR_POISSON, outputPtr, n, 0, 0);
}

/* ==== curandGeneratePoisson (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGeneratePoisson(curandGenerator_t g, unsigned int *outputPtr, size_t n, double lambda)
{
   CR_ENTER("generator=%p outputPtr=%p n=%zu lambda=%g", (void *)g, (void *)outputPtr, n, lambda);
   CR_GEN(g);
   CR_CHECK(lambda > 0 && lambda <= CR_POISSON_MAX, CURAND_STATUS_OUT_OF_RANGE);
   return poisson_call(g, outputPtr, n, lambda, -1);
}

/* ==== curandGeneratePoissonMethod (libcurand.so.10) ==== */
/* NVIDIA's "internal usage" form (cuRAND 10.4's host generator, measured:
 * tests/libs/native/curand_poissonmethod_record.c): every method but two
 * answers CURAND_STATUS_INTERNAL_ERROR whatever lambda; CURAND_3RD
 * CURAND_STATUS_PREEXISTING_FAILURE once lambda is in (0, 400000] (an
 * H200's device generator generates with it: refused here, said);
 * CURAND_DEVICE_API generates as the device API's curand_poisson would on
 * the generator's states (work.h): for XORWOW and MRG32k3a on its
 * subsequences, round-robin, their states kept across calls; for
 * Philox4_32_10 on states set up for each call at its position; for them
 * Knuth's method below lambda 64, the rejection method from 64 to 4000,
 * the rounded double normal above 4000.  MTGP32 and Sobol32/64 (scrambled
 * or not): a value a word in the generator's usual layout, inversion below
 * lambda 1000, the rounded inverse normal from 1000.  MT19937:
 * CURAND_STATUS_INTERNAL_ERROR (but for a count of 0), as NVIDIA's. */
CR_EXPORT curandStatus_t curandGeneratePoissonMethod(curandGenerator_t g, unsigned int *outputPtr, size_t n,
                                                     double lambda, curandMethod_t method)
{
   CR_ENTER("generator=%p outputPtr=%p n=%zu lambda=%g method=%d", (void *)g, (void *)outputPtr, n, lambda,
            (int)method);
   CR_GEN(g);
   CR_CHECK(method == CURAND_DEVICE_API || method == CURAND_3RD, CURAND_STATUS_INTERNAL_ERROR);
   CR_CHECK(lambda > 0 && lambda <= CR_POISSON_MAX, CURAND_STATUS_OUT_OF_RANGE);
   if (method == CURAND_3RD) {
      /* an H200's device generator generates with it (a method not
       * characterised here); NVIDIA's host generator refuses it */
      CR_CHECK(!g->host, CURAND_STATUS_PREEXISTING_FAILURE);
      LOG_WARN("curandGeneratePoissonMethod: CURAND_3RD on a device generator is not implemented by metalcuda");
      return CURAND_STATUS_NOT_INITIALIZED;
   }
   switch (g->type) {
   case CURAND_RNG_PSEUDO_XORWOW:
   case CURAND_RNG_PSEUDO_MRG32K3A:
   case CURAND_RNG_PSEUDO_PHILOX4_32_10:
      return poisson_call(g, outputPtr, n, lambda,
                          lambda < 64 ? CR_PM_KNUTH : lambda > 4000 ? CR_PM_DEVICE_NORMAL : CR_PM_DEVICE_GAMMA);
   case CURAND_RNG_PSEUDO_MT19937:
      /* NVIDIA's host generator: nothing to do is a success, anything
       * else CURAND_STATUS_INTERNAL_ERROR (the device API has no MT19937
       * state), the generator left where it was */
      if (n == 0)
         return CURAND_STATUS_SUCCESS;
      LOG_WARN("curandGeneratePoissonMethod: CURAND_DEVICE_API on MT19937 is CURAND_STATUS_INTERNAL_ERROR, as "
               "NVIDIA's libcurand answers (the device API has no MT19937 state)");
      return CURAND_STATUS_INTERNAL_ERROR;
   default:
      /* MTGP32, Sobol32/64 and their scrambled forms: a word a value */
      return poisson_call(g, outputPtr, n, lambda, lambda < 1000 ? CR_PM_DEVICE_INVERSION : CR_PM_DEVICE_ICDF);
   }
}

/* ---- the device API's distributions (curand_discrete) ----
 * curandCreatePoissonDistribution gives a device pointer to NVIDIA's
 * layout (curand_discrete.h, which a program built by NVIDIA's nvcc reads
 * on the device): the distribution (self_host_ptr, M2, host_M2, stddev,
 * mean, method, host_gen), its M2Shift (histogram, host_histogram, shift,
 * length, host_gen), its HistogramM2 (V, host_V, K, host_K, host_gen),
 * then V and K (length + 1 entries each), one allocation in the context
 * current then (device 0's primary one without).  Below lambda 2000 the
 * square histogram, method CURAND_M2, the host generator's; from 2000 on
 * CURAND_DISCRETE_GAUSS with mean lambda, stddev sqrt(lambda) (cuRAND
 * documents the normal approximation above 2000; its generators switch at
 * 2000).  The distributions made are listed, so that destroying another
 * pointer is refused. */
struct cr_dist_dev {
   unsigned long long self_host_ptr, m2, host_m2;
   double stddev, mean;
   int method;
   unsigned host_gen;
};
struct cr_m2shift_dev {
   unsigned long long histogram, host_histogram;
   unsigned shift, length, host_gen, pad;
};
struct cr_hist_dev {
   unsigned long long v, host_v, k, host_k;
   unsigned host_gen, pad;
};

typedef struct cr_dist {
   CUdeviceptr mem;
   CUcontext ctx;
   CUdevice dev;
   bool retained;
   struct cr_dist *next;
} cr_dist;

static cr_dist *dists;
static pthread_mutex_t dists_lock = PTHREAD_MUTEX_INITIALIZER;

/* ==== curandCreatePoissonDistribution (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandCreatePoissonDistribution(double lambda,
                                                         curandDiscreteDistribution_t *discrete_distribution)
{
   CR_ENTER("lambda=%g discrete_distribution=%p", lambda, (void *)discrete_distribution);
   CR_CHECK(discrete_distribution, CURAND_STATUS_NOT_INITIALIZED);
   CR_CHECK(lambda > 0 && lambda <= CR_POISSON_MAX, CURAND_STATUS_OUT_OF_RANGE);
   cr_dist *d = calloc(1, sizeof *d);
   if (!d)
      return CURAND_STATUS_ALLOCATION_FAILED;
   if (cuInit(0) != CUDA_SUCCESS) {
      free(d);
      return CURAND_STATUS_INITIALIZATION_FAILED;
   }
   CUresult r = cuCtxGetCurrent(&d->ctx);
   if (r == CUDA_SUCCESS && !d->ctx) {
      r = cuDeviceGet(&d->dev, 0);
      if (r == CUDA_SUCCESS)
         r = cuDevicePrimaryCtxRetain(&d->ctx, d->dev);
      if (r == CUDA_SUCCESS) {
         d->retained = true;
         r = cuCtxSetCurrent(d->ctx);
      }
   }
   if (r != CUDA_SUCCESS) {
      if (d->retained)
         cuDevicePrimaryCtxRelease(d->dev);
      free(d);
      return CURAND_STATUS_INITIALIZATION_FAILED;
   }
   cr_poisson_tab t;
   memset(&t, 0, sizeof t);
   bool table = lambda < CR_POISSON_NORMAL;
   if (table && cr_poisson_build(&t, lambda)) {
      if (d->retained)
         cuDevicePrimaryCtxRelease(d->dev);
      free(d);
      return CURAND_STATUS_ALLOCATION_FAILED;
   }
   size_t entries = table ? (size_t)t.n + 1 : 0;
   size_t o_m2 = sizeof(struct cr_dist_dev), o_h = o_m2 + sizeof(struct cr_m2shift_dev);
   size_t o_v = o_h + sizeof(struct cr_hist_dev), o_k = o_v + 8 * entries, bytes = o_k + 4 * entries;
   unsigned char *img = calloc(1, bytes);
   r = img ? cuMemAlloc(&d->mem, bytes) : CUDA_ERROR_OUT_OF_MEMORY;
   if (r == CUDA_SUCCESS) {
      struct cr_dist_dev h = { (unsigned long long)(uintptr_t)d, d->mem + o_m2, 0, sqrt(lambda), lambda,
                               table ? CURAND_M2 : CURAND_DISCRETE_GAUSS, 0 };
      struct cr_m2shift_dev m = { d->mem + o_h, 0, t.shift, t.n, 0, 0 };
      struct cr_hist_dev hi = { d->mem + o_v, 0, d->mem + o_k, 0, 0, 0 };
      memcpy(img, &h, sizeof h);
      memcpy(img + o_m2, &m, sizeof m);
      memcpy(img + o_h, &hi, sizeof hi);
      if (table) {
         memcpy(img + o_v, t.v, 8 * entries);
         memcpy(img + o_k, t.k, 4 * entries);
      }
      r = cuMemcpyHtoD(d->mem, img, bytes);
   }
   free(img);
   free(t.v);
   free(t.k);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curandCreatePoissonDistribution: CUresult %d", (int)r);
      if (d->mem)
         cuMemFree(d->mem);
      if (d->retained)
         cuDevicePrimaryCtxRelease(d->dev);
      free(d);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CURAND_STATUS_ALLOCATION_FAILED : CURAND_STATUS_INITIALIZATION_FAILED;
   }
   pthread_mutex_lock(&dists_lock);
   d->next = dists;
   dists = d;
   pthread_mutex_unlock(&dists_lock);
   *discrete_distribution = (curandDiscreteDistribution_t)(uintptr_t)d->mem;
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandDestroyDistribution (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandDestroyDistribution(curandDiscreteDistribution_t discrete_distribution)
{
   CR_ENTER("discrete_distribution=%p", (void *)discrete_distribution);
   CUdeviceptr p = (CUdeviceptr)(uintptr_t)discrete_distribution;
   pthread_mutex_lock(&dists_lock);
   cr_dist **pp = &dists;
   while (*pp && (*pp)->mem != p)
      pp = &(*pp)->next;
   cr_dist *d = *pp;
   if (d)
      *pp = d->next;
   pthread_mutex_unlock(&dists_lock);
   CR_CHECK(p && d, CURAND_STATUS_NOT_INITIALIZED);
   CUcontext cur = NULL;
   cuCtxGetCurrent(&cur);
   if (cur != d->ctx)
      cuCtxSetCurrent(d->ctx);
   /* kernels that read it may still be running */
   cuCtxSynchronize();
   cuMemFree(d->mem);
   if (cur != d->ctx)
      cuCtxSetCurrent(cur);
   if (d->retained)
      cuDevicePrimaryCtxRelease(d->dev);
   free(d);
   return CURAND_STATUS_SUCCESS;
}
