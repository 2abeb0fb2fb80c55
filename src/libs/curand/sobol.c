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
 * entry (tests/libs/curand_sobol.cu).
 *
 * The scrambled generators (found by experiment on NVIDIA's library,
 * 2026-12-03, and confirmed entry for entry over all 20000 dimensions):
 * Matousek's linear scrambling of the same vectors plus a digital shift.
 * Dimension d has a lower-triangular 64 x 64 matrix L_d over GF(2) with a
 * unit diagonal; its scrambled vector k is L_d v_k (bit 63 - i of it the
 * parity of row i and v_k), and point i is c_d ^ (the Gray-code sum of the
 * scrambled vectors).  The random bits are cuRAND's own XORWOW with seed 0
 * in its default ordering, read as 64-bit values (the low word first) from
 * its second word on: value 64 d + i is row i of L_d (its top i bits kept,
 * bit 63 - i set), value 1280000 + d the scramble constant c_d.  The 32-bit
 * sets are the top halves of the first 32 vectors and of the constants.
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

/* ---- the scrambled sets ---- */
#define CR_SCRAMBLE_DIMS 20000u

static rng_u32 *svec32, *scr32;   /* [dims][32], [dims] */
static rng_u64 *svec64, *scr64;   /* [dims][64], [dims] */
static pthread_once_t svec_once = PTHREAD_ONCE_INIT;

/* XORWOW (seed 0, default ordering) words 1 .. 2 N as N 64-bit values,
 * the low word first, by libcurand's own host generator. */
static rng_u64 *xorwow_values(size_t n)
{
   rng_u32 *w = malloc((2 * n + 1) * sizeof *w);
   rng_u64 *v = malloc(n * sizeof *v);
   curandGenerator_t g = NULL;
   bool ok = w && v && curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_XORWOW) == CURAND_STATUS_SUCCESS &&
             curandSetPseudoRandomGeneratorSeed(g, 0) == CURAND_STATUS_SUCCESS &&
             curandGenerate(g, w, 2 * n + 1) == CURAND_STATUS_SUCCESS;
   if (g)
      curandDestroyGenerator(g);
   if (ok)
      for (size_t i = 0; i < n; i++)
         v[i] = (rng_u64)w[2 * i + 1] | (rng_u64)w[2 * i + 2] << 32;
   free(w);
   if (!ok) {
      free(v);
      return NULL;
   }
   return v;
}

/* Dimension D's scrambled vectors SV (64) from its vectors V and the rows
 * R of its matrix, as drawn. */
static void scramble(rng_u64 *sv, const rng_u64 *v, const rng_u64 *r)
{
   rng_u64 rows[64];
   for (int i = 0; i < 64; i++)
      rows[i] = (i ? r[i] & ~0ull << (64 - i) : 0) | 1ull << (63 - i);
   for (int k = 0; k < 64; k++) {
      rng_u64 x = 0;
      for (int i = 0; i < 64; i++)
         x |= (rng_u64)__builtin_parityll(rows[i] & v[k]) << (63 - i);
      sv[k] = x;
   }
}

static void make_scrambled(void)
{
   const rng_u64 *v = cr_sobol_vectors(64);
   size_t dims = CR_SCRAMBLE_DIMS;
   if (!v || cr_sobol_dims < dims)
      return;
   rng_u64 *r = xorwow_values(64 * dims + dims);
   svec64 = malloc(dims * 64 * sizeof *svec64);
   svec32 = malloc(dims * 32 * sizeof *svec32);
   scr64 = malloc(dims * sizeof *scr64);
   scr32 = malloc(dims * sizeof *scr32);
   if (!r || !svec64 || !svec32 || !scr64 || !scr32) {
      free(svec64);
      free(svec32);
      free(scr64);
      free(scr32);
      svec64 = scr64 = NULL;
      svec32 = scr32 = NULL;
      free(r);
      return;
   }
   for (size_t d = 0; d < dims; d++) {
      scramble(svec64 + 64 * d, v + 64 * d, r + 64 * d);
      for (int k = 0; k < 32; k++)
         svec32[32 * d + k] = (rng_u32)(svec64[64 * d + k] >> 32);
      scr64[d] = r[64 * dims + d];
      scr32[d] = (rng_u32)(scr64[d] >> 32);
   }
   free(r);
}

const void *cr_sobol_scrambled(int bits, const void **constants)
{
   pthread_once(&svec_once, make_scrambled);
   if (constants)
      *constants = bits == 32 ? (const void *)scr32 : (const void *)scr64;
   return bits == 32 ? (const void *)svec32 : (const void *)svec64;
}

bool cr_sobol_available(bool scrambled)
{
   if (cr_sobol_vectors(64) && (!scrambled || cr_sobol_scrambled(64, NULL)))
      return true;
   if (!cr_sobol_dims)
      LOG_WARN("the Sobol generators are not available: Joe and Kuo's direction numbers were not found when "
               "libcurand was built (tools/gen_sobol_table.py reads SciPy's: apt-get install python3-scipy, "
               "remove build/libs/curand/sobol_table.*, make)");
   else
      LOG_WARN("the %sSobol direction vectors could not be made (out of memory)", scrambled ? "scrambled " : "");
   return false;
}

/* The table of set SET for curandGetDirectionVectorsBITS: PLAIN is the set
 * of that width, SCRAMBLED its scrambled set. */
static curandStatus_t get_vectors(int bits, int set, int plain, int scrambled, const void **out)
{
   CR_CHECK(set == plain || set == scrambled, CURAND_STATUS_OUT_OF_RANGE);
   CR_CHECK(out, CURAND_STATUS_OUT_OF_RANGE);
   CR_CHECK(cr_sobol_available(set == scrambled), CURAND_STATUS_OUT_OF_RANGE);
   *out = set == plain ? cr_sobol_vectors(bits) : cr_sobol_scrambled(bits, NULL);
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandGetDirectionVectors32 (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetDirectionVectors32(curandDirectionVectors32_t *vectors[],
                                                     curandDirectionVectorSet_t set)
{
   CR_ENTER("vectors=%p set=%d", (void *)vectors, (int)set);
   return get_vectors(32, set, CURAND_DIRECTION_VECTORS_32_JOEKUO6,
                      CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6, (const void **)vectors);
}

/* ==== curandGetDirectionVectors64 (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetDirectionVectors64(curandDirectionVectors64_t *vectors[],
                                                     curandDirectionVectorSet_t set)
{
   CR_ENTER("vectors=%p set=%d", (void *)vectors, (int)set);
   return get_vectors(64, set, CURAND_DIRECTION_VECTORS_64_JOEKUO6,
                      CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6, (const void **)vectors);
}

/* ==== curandGetScrambleConstants32 (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetScrambleConstants32(unsigned int **constants)
{
   CR_ENTER("constants=%p", (void *)constants);
   CR_CHECK(constants, CURAND_STATUS_OUT_OF_RANGE);
   CR_CHECK(cr_sobol_available(true), CURAND_STATUS_OUT_OF_RANGE);
   cr_sobol_scrambled(32, (const void **)constants);
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandGetScrambleConstants64 (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetScrambleConstants64(unsigned long long **constants)
{
   CR_ENTER("constants=%p", (void *)constants);
   CR_CHECK(constants, CURAND_STATUS_OUT_OF_RANGE);
   CR_CHECK(cr_sobol_available(true), CURAND_STATUS_OUT_OF_RANGE);
   cr_sobol_scrambled(64, (const void **)constants);
   return CURAND_STATUS_SUCCESS;
}

/* ---- generation ---- */
/* The host tables of generator G: its vectors and (scrambled) constants. */
static const void *tables(curandGenerator_t g, const void **constants)
{
   *constants = NULL;
   int bits = cr_sobol_bits(g->type);
   return cr_is_scrambled(g->type) ? cr_sobol_scrambled(bits, constants) : cr_sobol_vectors(bits);
}

/* The device copy of the first g->dims dimensions' vectors, then their
 * scramble constants (scrambled generators). */
static curandStatus_t upload(curandGenerator_t g)
{
   int bits = cr_sobol_bits(g->type);
   size_t per = bits == 32 ? 32 * 4 : 64 * 8, cbytes = cr_is_scrambled(g->type) ? (size_t)bits / 8 : 0;
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
   const void *constants;
   const void *vectors = tables(g, &constants);
   CUresult r = cuMemAlloc(&g->dvec, (per + cbytes) * g->dims);
   if (r == CUDA_SUCCESS)
      r = cuMemcpyHtoD(g->dvec, vectors, per * g->dims);
   if (r == CUDA_SUCCESS && cbytes)
      r = cuMemcpyHtoD(g->dvec + per * g->dims, constants, cbytes * g->dims);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curand: the Sobol direction vectors of %u dimensions: CUresult %d", g->dims, (int)r);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CURAND_STATUS_ALLOCATION_FAILED : CURAND_STATUS_LAUNCH_FAILURE;
   }
   g->dvec_dims = g->dims;
   return CURAND_STATUS_SUCCESS;
}

static curandStatus_t launch(curandGenerator_t g, cr_args *a, rng_u64 threads)
{
   curandStatus_t s = cr_ctx_enter(g);
   if (s != CURAND_STATUS_SUCCESS)
      return s;
   s = upload(g);
   if (s != CURAND_STATUS_SUCCESS)
      return s;
   a->vec = (const void *)(uintptr_t)g->dvec;
   if (cr_is_scrambled(g->type))
      a->scr = (const void *)(uintptr_t)(g->dvec + (a->bits == 32 ? 32 * 4 : 64 * 8) * g->dvec_dims);
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
   cr_args_init(&a, g, dist, mean, sd);
   a.out = out;
   a.bits = (rng_u32)cr_sobol_bits(g->type);
   a.low32_start = g->host && g->type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
   a.dims = g->dims;
   a.points = n / g->dims;
   a.first = g->pos;
   if (!n)
      return CURAND_STATUS_SUCCESS;
   rng_u64 threads = (a.points + CR_SOBOL_CHUNK - 1) / CR_SOBOL_CHUNK * a.dims;
   if (g->host) {
      a.vec = tables(g, &a.scr);
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
