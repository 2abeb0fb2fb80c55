/*
 * curand_poissonmethod_rows.h — the rows of curandGeneratePoissonMethod's
 * CURAND_DEVICE_API that native/curand_poissonmethod_record.c (NVIDIA's
 * host generator) and native/curand_poissonmethod_device_record.cu (its
 * device generator) record and curand_poissonmethod.cu checks, and the
 * calls of a row (after curand.h): a generator of TYPE (seed 1234 for the
 * pseudo-random ones, DIMS dimensions for Sobol), at OFFSET (none for
 * MTGP32, which refuses one), two calls in a row of N1 then N2 values at
 * LAMBDA (the second goes on from the first), then NW words after them
 * (curandGenerate; the Sobol64 types, which have no 32-bit words, NW
 * uniform floats of curandGenerateUniform): how far the calls moved it.
 * Every generator type NVIDIA's library generates with: XORWOW and
 * MRG32k3a (the device API's methods on both sides of lambda 64 and 4000,
 * a whole round of their subsequences and back), Philox4_32_10 (at offset
 * 0 and past a round of its 65536 subsequences, 262151: the states set up
 * mid-round), MTGP32 and the Sobol types (inversion, with its sums below
 * lambda 500, and the inverse normal from 1000; Sobol in 3 dimensions from
 * point 999).
 */
#ifndef TESTS_LIBS_CURAND_POISSONMETHOD_ROWS_H
#define TESTS_LIBS_CURAND_POISSONMETHOD_ROWS_H

#include <stddef.h>

struct pm_row {
   int type;
   double lambda;
   unsigned dims;
   unsigned long long offset;
   size_t n1, n2, nw;
};

static const struct pm_row PM_ROWS[] = {
   { CURAND_RNG_PSEUDO_XORWOW, 0.5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 30, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 63.9, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 64, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 100, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 1000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 3999.5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 4000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 4000.5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 9000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_XORWOW, 400000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 0.5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 30, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 63.9, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 64, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 100, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 1000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 3999.5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 4000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 4000.5, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 9000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_MRG32K3A, 400000, 0, 0, 5000, 7001, 81000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 5, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 100, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 0.5, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 5, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 63.9, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 64, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 100, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 1000, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 3999.5, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 4000, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 4000.5, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 9000, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_PHILOX4_32_10, 400000, 0, 262151, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 0.5, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 5, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 100, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 500, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 500.5, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 999.5, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 1000, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 5000, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_PSEUDO_MTGP32, 400000, 0, 0, 5000, 7001, 3000 },
   { CURAND_RNG_QUASI_SOBOL32, 0.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL32, 5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL32, 100, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL32, 999.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL32, 1000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL32, 5000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL32, 400000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 0.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 100, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 999.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 1000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 5000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 400000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL64, 0.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL64, 5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL64, 100, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL64, 999.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL64, 1000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL64, 5000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SOBOL64, 400000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 0.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 100, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 999.5, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 1000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 5000, 3, 999, 4998, 7002, 3000 },
   { CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 400000, 3, 999, 4998, 7002, 3000 },
};

/* Row R's calls on generator G into P (n1 + n2 + nw 32-bit words, on the
 * device for a device generator): the first status that is not a success */
static curandStatus_t pm_row_run(curandGenerator_t g, const struct pm_row *r, unsigned *p)
{
   curandStatus_t s = CURAND_STATUS_SUCCESS;
   int quasi = r->type >= CURAND_RNG_QUASI_DEFAULT;
   if (!quasi)
      s = curandSetPseudoRandomGeneratorSeed(g, 1234);
   else
      s = curandSetQuasiRandomGeneratorDimensions(g, r->dims);
   if (!s && r->offset)
      s = curandSetGeneratorOffset(g, r->offset);
   if (!s)
      s = curandGeneratePoissonMethod(g, p, r->n1, r->lambda, CURAND_DEVICE_API);
   if (!s)
      s = curandGeneratePoissonMethod(g, p + r->n1, r->n2, r->lambda, CURAND_DEVICE_API);
   if (!s)
      s = r->type == CURAND_RNG_QUASI_SOBOL64 || r->type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64
             ? curandGenerateUniform(g, (float *)(p + r->n1 + r->n2), r->nw)
             : curandGenerate(g, p + r->n1 + r->n2, r->nw);
   return s;
}

/* CURAND_DEVICE_API on an MT19937 generator G (which NVIDIA's library
 * refuses): 4 values at lambda 5, none, 4 at lambda 0 into P (4 words),
 * their statuses into ST */
static void pm_mt19937_statuses(curandGenerator_t g, unsigned *p, int st[3])
{
   st[0] = (int)curandGeneratePoissonMethod(g, p, 4, 5.0, CURAND_DEVICE_API);
   st[1] = (int)curandGeneratePoissonMethod(g, p, 0, 5.0, CURAND_DEVICE_API);
   st[2] = (int)curandGeneratePoissonMethod(g, p, 4, 0.0, CURAND_DEVICE_API);
}

#endif
