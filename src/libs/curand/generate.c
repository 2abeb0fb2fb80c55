/*
 * generate.c — the generation functions: 32-bit words, uniform, normal and
 * log-normal in float and double, 64-bit words of (scrambled) Sobol64 (work.h computes
 * them, generator.c or sobol.c runs the call).  The pseudo-random normal
 * forms come in Box-Muller pairs, so their count must be even; a Sobol
 * call's count must be a multiple of its dimensions
 * (CURAND_STATUS_LENGTH_NOT_MULTIPLE otherwise, as cuRAND documents).
 * Calls on a device generator are asynchronous on its stream.
 */
#include "cr.h"

LOG_CHANNEL(curand);

static curandStatus_t cr_generate(curandGenerator_t g, int dist, void *out, size_t n, double mean, double sd)
{
   CR_GEN(g);
   bool sobol = cr_is_sobol(g->type);
   /* words: 32 bits from all but (scrambled) Sobol64, 64 bits only from it */
   bool wide = sobol && cr_sobol_bits(g->type) == 64;
   CR_CHECK(dist != CR_U32 || !wide, CURAND_STATUS_TYPE_ERROR);
   CR_CHECK(dist != CR_U64 || wide, CURAND_STATUS_TYPE_ERROR);
   bool mtgp = g->type == CURAND_RNG_PSEUDO_MTGP32, mt = g->type == CURAND_RNG_PSEUDO_MT19937;
   /* MTGP32's and MT19937's normal forms take a word each, not a Box-Muller pair */
   bool pairs = !sobol && !mtgp && !mt && dist >= CR_NORMAL && dist <= CR_LOGNORMAL_DOUBLE;
   CR_CHECK(!pairs || n % 2 == 0, CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   CR_CHECK(!sobol || n % g->dims == 0, CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   /* no output buffer: refused rather than written through (NVIDIA's
    * host generator writes through it) */
   CR_CHECK(out || n == 0, CURAND_STATUS_OUT_OF_RANGE);
   if (sobol)
      return cr_sobol_run(g, dist, out, n, mean, sd);
   if (mtgp)
      return cr_mtgp_run(g, dist, out, n, mean, sd);
   if (mt)
      return cr_mt_run(g, dist, out, n, mean, sd);
   return cr_run(g, dist, out, n, mean, sd);
}

/* ==== curandGenerate (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerate(curandGenerator_t g, unsigned int *outputPtr, size_t num)
{
   CR_ENTER("generator=%p outputPtr=%p num=%zu", (void *)g, (void *)outputPtr, num);
   return cr_generate(g, CR_U32, outputPtr, num, 0, 0);
}

/* ==== curandGenerateLongLong (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateLongLong(curandGenerator_t g, unsigned long long *outputPtr, size_t num)
{
   CR_ENTER("generator=%p outputPtr=%p num=%zu", (void *)g, (void *)outputPtr, num);
   return cr_generate(g, CR_U64, outputPtr, num, 0, 0);
}

/* ==== curandGenerateUniform (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateUniform(curandGenerator_t g, float *outputPtr, size_t num)
{
   CR_ENTER("generator=%p outputPtr=%p num=%zu", (void *)g, (void *)outputPtr, num);
   return cr_generate(g, CR_UNIFORM, outputPtr, num, 0, 0);
}

/* ==== curandGenerateUniformDouble (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateUniformDouble(curandGenerator_t g, double *outputPtr, size_t num)
{
   CR_ENTER("generator=%p outputPtr=%p num=%zu", (void *)g, (void *)outputPtr, num);
   return cr_generate(g, CR_UNIFORM_DOUBLE, outputPtr, num, 0, 0);
}

/* ==== curandGenerateNormal (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateNormal(curandGenerator_t g, float *outputPtr, size_t n, float mean, float stddev)
{
   CR_ENTER("generator=%p outputPtr=%p n=%zu mean=%g stddev=%g", (void *)g, (void *)outputPtr, n, mean, stddev);
   return cr_generate(g, CR_NORMAL, outputPtr, n, mean, stddev);
}

/* ==== curandGenerateNormalDouble (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateNormalDouble(curandGenerator_t g, double *outputPtr, size_t n, double mean,
                                                    double stddev)
{
   CR_ENTER("generator=%p outputPtr=%p n=%zu mean=%g stddev=%g", (void *)g, (void *)outputPtr, n, mean, stddev);
   return cr_generate(g, CR_NORMAL_DOUBLE, outputPtr, n, mean, stddev);
}

/* ==== curandGenerateLogNormal (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateLogNormal(curandGenerator_t g, float *outputPtr, size_t n, float mean,
                                                 float stddev)
{
   CR_ENTER("generator=%p outputPtr=%p n=%zu mean=%g stddev=%g", (void *)g, (void *)outputPtr, n, mean, stddev);
   return cr_generate(g, CR_LOGNORMAL, outputPtr, n, mean, stddev);
}

/* ==== curandGenerateLogNormalDouble (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t g, double *outputPtr, size_t n,
                                                       double mean, double stddev)
{
   CR_ENTER("generator=%p outputPtr=%p n=%zu mean=%g stddev=%g", (void *)g, (void *)outputPtr, n, mean, stddev);
   return cr_generate(g, CR_LOGNORMAL_DOUBLE, outputPtr, n, mean, stddev);
}
