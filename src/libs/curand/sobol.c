/*
 * sobol.c — cuRAND's quasi-random generators Sobol32 and Sobol64: the
 * direction vectors (curandGetDirectionVectors32/64), and the generation
 * calls of a Sobol generator (work.h's cr_sobol_thread, on the device or in
 * a loop on the host).
 *
 * Direction vectors: Joe and Kuo's primitive polynomials and initial
 * direction numbers m_1..m_s (S. Joe, F. Y. Kuo, SIAM J. Sci. Comput. 30,
 * 2008, the file new-joe-kuo-6.21201), the first 20000 dimensions, read at
 * build time from SciPy's copy by tools/gen_sobol_table.py (cr_sobol_poly,
 * cr_sobol_minit).  Bratley and Fox's recurrence (ACM TOMS 14, 1988,
 * Algorithm 659) gives the rest: with the polynomial
 * x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1,
 *    v_k = m_k 2^(B-k)                                         k = 1..s
 *    v_k = v_(k-s) ^ (v_(k-s) >> s) ^ a_1 v_(k-1) ^ ... ^ a_(s-1) v_(k-s+1)
 * for B = 64 bits; the 32-bit vectors are the top halves of the first 32.
 * Dimension 1 has every m_k = 1.  These are NVIDIA's JOEKUO6 sets, entry for
 * entry (tests/libs/curand_sobol.cu).  The scrambled sets and the scramble
 * constants are NVIDIA's own random numbers: not available.
 *
 * Layout and state (measured on NVIDIA's host generator): a call of n
 * outputs in D dimensions (n a multiple of D) writes n / D points of each
 * dimension, dimension-major; the generator's position counts points, the
 * offset sets it, and changing the dimensions or the ordering keeps it.
 * Sobol32 takes the point index mod 2^32.
 */
#include "cr.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(curand);

/* the generated table (build/libs/curand/sobol_table.c) */
extern const unsigned cr_sobol_dims, cr_sobol_poly[], cr_sobol_minit[];

static rng_u32 *vec32;   /* [cr_sobol_dims][32] */
static rng_u64 *vec64;   /* [cr_sobol_dims][64] */
static pthread_once_t vec_once = PTHREAD_ONCE_INIT;

/* One dimension's 64 vectors from its polynomial P and m_1..m_s (M). */
static void derive(rng_u64 *v, unsigned p, const unsigned *m)
{
   int s = 0;
   while (p >> (s + 1))
      s++;
   for (int k = 0; k < s && k < 64; k++)
      v[k] = (rng_u64)m[k] << (63 - k);
   for (int k = s; k < 64; k++) {
      rng_u64 x = v[k - s] ^ (v[k - s] >> s);
      for (int j = 1; j < s; j++)
         if (p >> (s - j) & 1)
            x ^= v[k - j];
      v[k] = x;
   }
}

static void make_vectors(void)
{
   size_t dims = cr_sobol_dims;
   if (!dims)
      return;
   vec64 = malloc(dims * 64 * sizeof *vec64);
   vec32 = malloc(dims * 32 * sizeof *vec32);
   if (!vec64 || !vec32) {
      free(vec64);
      free(vec32);
      vec64 = NULL;
      vec32 = NULL;
      return;
   }
   for (int k = 0; k < 64; k++)
      vec64[k] = 1ull << (63 - k);
   const unsigned *m = cr_sobol_minit;
   for (size_t d = 1; d < dims; d++) {
      derive(vec64 + 64 * d, cr_sobol_poly[d], m);
      int s = 0;
      while (cr_sobol_poly[d] >> (s + 1))
         s++;
      m += s;
   }
   for (size_t d = 0; d < dims; d++)
      for (int k = 0; k < 32; k++)
         vec32[32 * d + k] = (rng_u32)(vec64[64 * d + k] >> 32);
}

/* The vectors of BITS (32 or 64) bits, or NULL (no table at build time). */
const void *cr_sobol_vectors(int bits)
{
   pthread_once(&vec_once, make_vectors);
   return bits == 32 ? (const void *)vec32 : (const void *)vec64;
}

bool cr_sobol_available(void)
{
   if (cr_sobol_vectors(64))
      return true;
   LOG_WARN("the Sobol generators are not available: Joe and Kuo's direction numbers were not found when "
            "libcurand was built (tools/gen_sobol_table.py reads SciPy's: apt-get install python3-scipy, remove "
            "build/libs/curand/sobol_table.*, make)%s", cr_sobol_dims ? " or their vectors could not be allocated" : "");
   return false;
}

/* The table of set SET for curandGetDirectionVectorsBITS (FN): PLAIN is
 * the set of that width, SCRAMBLED its scrambled set, which is NVIDIA's
 * random numbers, not derivable: refused, saying so. */
static curandStatus_t get_vectors(const char *fn, int bits, int set, int plain, int scrambled, const void **out)
{
   if (set == scrambled) {
      LOG_WARN("%s: direction vector set %d (scrambled) is not implemented: its scrambling is NVIDIA's own random "
               "numbers", fn, set);
      return CURAND_STATUS_OUT_OF_RANGE;
   }
   CR_CHECK(set == plain, CURAND_STATUS_OUT_OF_RANGE);
   CR_CHECK(out, CURAND_STATUS_OUT_OF_RANGE);
   CR_CHECK(cr_sobol_available(), CURAND_STATUS_OUT_OF_RANGE);
   *out = cr_sobol_vectors(bits);
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandGetDirectionVectors32 (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetDirectionVectors32(curandDirectionVectors32_t *vectors[],
                                                     curandDirectionVectorSet_t set)
{
   CR_ENTER("vectors=%p set=%d", (void *)vectors, (int)set);
   return get_vectors("curandGetDirectionVectors32", 32, set, CURAND_DIRECTION_VECTORS_32_JOEKUO6,
                      CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6, (const void **)vectors);
}

/* ==== curandGetDirectionVectors64 (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetDirectionVectors64(curandDirectionVectors64_t *vectors[],
                                                     curandDirectionVectorSet_t set)
{
   CR_ENTER("vectors=%p set=%d", (void *)vectors, (int)set);
   return get_vectors("curandGetDirectionVectors64", 64, set, CURAND_DIRECTION_VECTORS_64_JOEKUO6,
                      CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6, (const void **)vectors);
}

/* ---- generation ---- */
/* The device copy of the first g->dims dimensions' vectors. */
static curandStatus_t upload(curandGenerator_t g, int bits)
{
   size_t per = bits == 32 ? 32 * 4 : 64 * 8;
   if (g->dvec && g->dvec_dims >= g->dims)
      return CURAND_STATUS_SUCCESS;
   /* more dimensions than before: the earlier calls on the stream may
    * still read the old copy */
   if (g->dvec) {
      cuStreamSynchronize(g->stream);
      cuMemFree(g->dvec);
   }
   g->dvec = 0;
   g->dvec_dims = 0;
   CUresult r = cuMemAlloc(&g->dvec, per * g->dims);
   if (r == CUDA_SUCCESS)
      r = cuMemcpyHtoD(g->dvec, cr_sobol_vectors(bits), per * g->dims);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curand: the Sobol direction vectors of %u dimensions: CUresult %d", g->dims, (int)r);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CURAND_STATUS_ALLOCATION_FAILED : CURAND_STATUS_LAUNCH_FAILURE;
   }
   g->dvec_dims = g->dims;
   return CURAND_STATUS_SUCCESS;
}

static curandStatus_t launch(curandGenerator_t g, cr_args *a, rng_u64 threads)
{
   CUcontext cur = NULL;
   if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS)
      return CURAND_STATUS_INITIALIZATION_FAILED;
   if (cur != g->ctx && cuCtxSetCurrent(g->ctx) != CUDA_SUCCESS)
      return CURAND_STATUS_INITIALIZATION_FAILED;
   curandStatus_t s = upload(g, (int)a->bits);
   if (s != CURAND_STATUS_SUCCESS)
      return s;
   a->vec = (const void *)(uintptr_t)g->dvec;
   void *params[] = { a };
   unsigned block = 128;
   rng_u64 grid = (threads + block - 1) / block;
   CUresult r = grid > 0x7fffffffu ? CUDA_ERROR_INVALID_VALUE
                                   : cuLaunchKernel(g->fn_gen, (unsigned)grid, 1, 1, block, 1, 1, 0, g->stream,
                                                    params, NULL);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curand: launch of %llu Sobol threads: CUresult %d", threads, (int)r);
      return CURAND_STATUS_LAUNCH_FAILURE;
   }
   return CURAND_STATUS_SUCCESS;
}

curandStatus_t cr_sobol_run(curandGenerator_t g, int dist, void *out, unsigned long long n, double mean, double sd)
{
   cr_args a;
   memset(&a, 0, sizeof a);
   a.out = out;
   a.dist = dist;
   a.mean = mean;
   a.sd = sd;
   a.meanf = (float)mean;
   a.sdf = (float)sd;
   a.bits = g->type == CURAND_RNG_QUASI_SOBOL64 ? 64 : 32;
   a.dims = g->dims;
   a.points = n / g->dims;
   a.first = g->pos;
   if (!n)
      return CURAND_STATUS_SUCCESS;
   rng_u64 threads = (a.points + CR_SOBOL_CHUNK - 1) / CR_SOBOL_CHUNK * a.dims;
   if (g->host) {
      a.vec = cr_sobol_vectors((int)a.bits);
      for (rng_u64 t = 0; t < threads; t++)
         cr_sobol_thread(&a, t);
   } else {
      curandStatus_t s = launch(g, &a, threads);
      if (s != CURAND_STATUS_SUCCESS)
         return s;
   }
   g->pos += a.points;
   return CURAND_STATUS_SUCCESS;
}
