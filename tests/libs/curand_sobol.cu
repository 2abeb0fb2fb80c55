/*
 * curand_sobol.cu — cuRAND's quasi-random generators through the library a
 * program links: the JOEKUO6 direction vectors (32 and 64 bits, plain and
 * scrambled) and the scramble constants, Sobol32 (and QUASI_DEFAULT, which
 * is Sobol32), Sobol64 and the scrambled Sobol32/64 device and host
 * generators in 1, 3 and 100 dimensions at offsets 0 and 1000003, two calls
 * in a row (the second continues the sequence), words (32 and 64 bits),
 * uniform float and double, normal and log-normal float and double; the
 * dimension-major layout; the position kept across a change of dimensions
 * or ordering; the point index past 2^32; and the statuses of refused
 * arguments.
 *
 * Expected values: NVIDIA's host generator (curand_sobol_expected.h,
 * written by native/curand_sobol_record.c; README.md).  Direction vectors,
 * words and uniforms must be bit-identical (hashes); the normal forms are
 * checked to a few units in the last place: their first outputs against
 * NVIDIA's, and every output of a call against the inverse normal
 * distribution function computed here in long double (bisection on erfl /
 * erfcl) from the words the same generator yields (which the hashes prove).
 * Words at the index 2^32 and after a change of dimensions are checked
 * against the Gray-code sum of the direction vectors, computed here (for
 * the scrambled forms, the scramble constant xor the sum of the scrambled
 * vectors).  The scrambled vectors must also be the plain ones times
 * lower-triangular matrices whose rows, and the constants, are the
 * library's own XORWOW with seed 0 (the rule src/libs/curand/sobol.c
 * derives them by).  Scrambled Sobol64's second call from past 2^32:
 * NVIDIA's host generator's (SOBOL_SCR64_WRAP) for the host generator, the
 * Gray-code sum for the device generator (as the H200 gave).  The device
 * API's Sobol states (curand_kernel.h: curand_init with the library's
 * direction vectors, and the scramble constants for the scrambled states,
 * as NVIDIA's MC_EstimatePiInlineQ sample does) must give the host
 * generator's words and uniforms.
 */
#include <curand.h>
#include <curand_kernel.h>
#include "../cuda/check.h"
#include "curand_check.h"
#include "curand_sobol_expected.h"

#include <math.h>
#include <string.h>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static const size_t P1 = 1000, P2 = 37;

/* a generator of 64-bit words: (scrambled) Sobol64 */
static bool wide(int type)
{
   return type == CURAND_RNG_QUASI_SOBOL64 || type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

static bool scrambled(int type)
{
   return type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 || type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

static size_t elem_size(int type, int d)
{
   return d == UNID || d == NORMD || d == LNORMD || (d == WORDS && wide(type)) ? 8 : 4;
}

static curandStatus_t gen(curandGenerator_t g, int type, int d, void *p, size_t n)
{
   switch (d) {
   case WORDS:
      return wide(type) ? curandGenerateLongLong(g, (unsigned long long *)p, n) : curandGenerate(g, (unsigned *)p, n);
   case UNI: return curandGenerateUniform(g, (float *)p, n);
   case UNID: return curandGenerateUniformDouble(g, (double *)p, n);
   case NORM: return curandGenerateNormal(g, (float *)p, n, 1.5f, 2.0f);
   case NORMD: return curandGenerateNormalDouble(g, (double *)p, n, 1.5, 2.0);
   case LNORM: return curandGenerateLogNormal(g, (float *)p, n, 0.5f, 0.75f);
   default: return curandGenerateLogNormalDouble(g, (double *)p, n, 0.5, 0.75);
   }
}

/* A generator of TYPE (device or host) in DIMS dimensions at OFFSET: a call
 * of P1 points then one of P2, of distribution D, into OUT (bytes). */
static bool run(int type, bool host, unsigned dims, unsigned long long offset, int d, std::vector<unsigned char> &out)
{
   size_t es = elem_size(type == CURAND_RNG_QUASI_DEFAULT ? CURAND_RNG_QUASI_SOBOL32 : type, d);
   size_t n1 = P1 * dims, n2 = P2 * dims, bytes = (n1 + n2) * es;
   curandGenerator_t g = NULL;
   curandStatus_t s = host ? curandCreateGeneratorHost(&g, (curandRngType_t)type)
                           : curandCreateGenerator(&g, (curandRngType_t)type);
   if (!CHECK_ST(s, CURAND_STATUS_SUCCESS))
      return false;
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, dims), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
   out.assign(bytes, 0xa5);
   void *p = out.data();
   if (!host && !CHECK_CUDA(cudaMalloc(&p, bytes)))
      return false;
   int t = type == CURAND_RNG_QUASI_DEFAULT ? CURAND_RNG_QUASI_SOBOL32 : type;
   bool ok = CHECK_ST(gen(g, t, d, p, n1), CURAND_STATUS_SUCCESS);
   ok &= CHECK_ST(gen(g, t, d, (char *)p + n1 * es, n2), CURAND_STATUS_SUCCESS);
   if (!host) {
      ok &= CHECK_CUDA(cudaMemcpy(out.data(), p, bytes, cudaMemcpyDeviceToHost));
      cudaFree(p);
   }
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   return ok;
}

static void check_row(const sobol_expect &e, int type, bool host, const std::vector<unsigned char> &out)
{
   char what[128];
   snprintf(what, sizeof what, "%s type %d dims %u offset %llu dist %d", host ? "host" : "device", type, e.dims,
            e.offset, e.dist);
   size_t es = elem_size(e.type, e.dist), n1 = P1 * e.dims, n2 = P2 * e.dims;
   if (e.dist <= UNID)
      check_hashes(out.data(), es, n1, n2, e.h1, e.h2, what);
   else
      check_first(out.data(), es, e.v, es == 4 ? 2e-6 : 1e-14, what);
}

/* Phi^-1(p) in long double by bisection (Phi from erfl near the middle,
 * erfcl in the tails, each keeping its relative precision), for p < 1/2;
 * the upper half by symmetry. */
static long double ninv(long double p)
{
   if (p > 0.5L)
      return -ninv(1 - p);
   long double lo = -40, hi = 0;
   for (int i = 0; i < 90; i++) {
      long double m = (lo + hi) / 2;
      bool below = fabsl(m) < 1 ? 0.5L * erfl(m / sqrtl(2.0L)) < p - 0.5L : 0.5L * erfcl(-m / sqrtl(2.0L)) < p;
      if (below)
         lo = m;
      else
         hi = m;
   }
   return (lo + hi) / 2;
}

/* Every normal output of a call (device generator, 3 dimensions at offset
 * 1000003) against the inverse normal distribution function of its word:
 * cuRAND takes the uniform of the word, x 2^-32 + 2^-33 of the (top) 32
 * bits in float, in double x 2^-32 + 2^-33 for Sobol32 and the top 53
 * bits + 1/2, x 2^-53 for Sobol64, and for the upper half of the words
 * minus the value of the complement word (measured on NVIDIA's host
 * generator). */
static void derived(int type)
{
   const unsigned dims = 3;
   const size_t n = 1037 * dims;
   bool s64 = wide(type);
   std::vector<unsigned char> words;
   if (!run(type, false, dims, 1000003, WORDS, words))
      return;
   for (int d = NORM; d <= LNORMD; d++) {
      std::vector<unsigned char> out;
      if (!run(type, false, dims, 1000003, d, out))
         continue;
      bool dbl = d == NORMD || d == LNORMD, logn = d == LNORM || d == LNORMD;
      size_t bad = 0;
      for (size_t i = 0; i < n; i++) {
         unsigned long long x;
         if (s64)
            memcpy(&x, words.data() + 8 * i, 8);
         else {
            unsigned w;
            memcpy(&w, words.data() + 4 * i, 4);
            x = (unsigned long long)w << 32;
         }
         bool up = x >> 63;
         unsigned long long c = up ? ~x : x;
         long double u;
         if (!dbl)
            u = (float)((unsigned)(c >> 32) * 0x1p-32f + 0x1p-33f);
         else if (!s64)
            u = (c >> 32) * 0x1p-32L + 0x1p-33L;
         else
            u = (double)((c >> 11) * 0x1p-53 + 0x1p-54);
         long double z = up ? -ninv(u) : ninv(u);
         long double want = logn ? expl(0.5L + 0.75L * z) : 1.5L + 2 * z;
         double got;
         if (dbl)
            memcpy(&got, out.data() + 8 * i, 8);
         else {
            float f;
            memcpy(&f, out.data() + 4 * i, 4);
            got = f;
         }
         /* float: rounded inputs and outputs, a few ulps; double: a few
          * ulps, scaled by the exponent for the log-normal */
         double tol = dbl ? (logn ? 1e-14 * (1 + fabsl(z)) : 4e-15) : 2e-6;
         if (fabsl(got - want) > tol * (1 + fabsl(want)) && bad++ < 4)
            printf("  type %d dist %d [%zu]: got %.17g, want %.17Lg\n", type, d, i, got, want);
      }
      CHECK_INT(bad, 0);
   }
}

/* Point I of dimension D as the Gray-code sum of its direction vectors
 * (Sobol32 takes I mod 2^32, as NVIDIA's does); the scrambled forms' from
 * the scramble constant. */
static unsigned long long point(int type, unsigned d, unsigned long long i)
{
   static curandDirectionVectors32_t *v32, *s32;
   static curandDirectionVectors64_t *v64, *s64v;
   static unsigned *c32;
   static unsigned long long *c64;
   if (!v32 && !CHECK_ST(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6),
                         CURAND_STATUS_SUCCESS))
      return 0;
   if (!v64 && !CHECK_ST(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_64_JOEKUO6),
                         CURAND_STATUS_SUCCESS))
      return 0;
   bool s64 = wide(type), scr = scrambled(type);
   if (scr && !c32 &&
       (!CHECK_ST(curandGetDirectionVectors32(&s32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6),
                  CURAND_STATUS_SUCCESS) ||
        !CHECK_ST(curandGetDirectionVectors64(&s64v, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6),
                  CURAND_STATUS_SUCCESS) ||
        !CHECK_ST(curandGetScrambleConstants32(&c32), CURAND_STATUS_SUCCESS) ||
        !CHECK_ST(curandGetScrambleConstants64(&c64), CURAND_STATUS_SUCCESS)))
      return 0;
   if (!s64)
      i &= 0xffffffffull;
   unsigned long long g = i ^ (i >> 1), x = !scr ? 0 : s64 ? c64[d] : c32[d];
   for (int k = 0; k < (s64 ? 64 : 32); k++)
      if (g >> k & 1)
         x ^= s64 ? (scr ? s64v : v64)[d][k] : (scr ? s32 : v32)[d][k];
   return x;
}

/* N words of a device generator into W (as 64-bit values). */
static void words(curandGenerator_t g, int type, size_t n, std::vector<unsigned long long> &w)
{
   bool s64 = wide(type);
   void *p;
   w.assign(n, 0);
   CHECK_CUDA(cudaMalloc(&p, n * 8));
   if (s64)
      CHECK_ST(curandGenerateLongLong(g, (unsigned long long *)p, n), CURAND_STATUS_SUCCESS);
   else
      CHECK_ST(curandGenerate(g, (unsigned *)p, n), CURAND_STATUS_SUCCESS);
   std::vector<unsigned> u(n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(s64 ? (void *)w.data() : (void *)u.data(), p, n * (s64 ? 8 : 4), cudaMemcpyDeviceToHost));
   if (!s64)
      for (size_t i = 0; i < n; i++)
         w[i] = u[i];
   CHECK_CUDA(cudaFree(p));
}

/* Points FIRST.. of DIMS dimensions, dimension-major, as W must hold them. */
static void expect_points(int type, unsigned dims, unsigned long long first, const std::vector<unsigned long long> &w,
                          const char *what)
{
   size_t per = w.size() / dims, bad = 0;
   for (unsigned d = 0; d < dims; d++)
      for (size_t i = 0; i < per; i++) {
         unsigned long long want = point(type, d, first + i);
         if (w[d * per + i] != want && bad++ < 4)
            printf("  %s: type %d dimension %u point %llu: got %llx, want %llx\n", what, type, d, first + i,
                   w[d * per + i], want);
      }
   CHECK_INT(bad, 0);
}

/* The position counts points of each dimension: kept when the dimensions
 * or the ordering change (as NVIDIA's host generator does), set by the
 * offset; the point index past 2^32 (Sobol32 wraps to point 0).  Sobol64's
 * calls go on a stream of the program's. */
static void positions(int type)
{
   curandGenerator_t g;
   cudaStream_t st = 0;
   std::vector<unsigned long long> w;
   CHECK_ST(curandCreateGenerator(&g, (curandRngType_t)type), CURAND_STATUS_SUCCESS);
   if (wide(type)) {
      CHECK_CUDA(cudaStreamCreate(&st));
      CHECK_ST(curandSetStream(g, st), CURAND_STATUS_SUCCESS);
   }
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 2), CURAND_STATUS_SUCCESS);
   words(g, type, 6, w);
   expect_points(type, 2, 0, w, "first call");
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 5), CURAND_STATUS_SUCCESS);
   words(g, type, 515, w);
   expect_points(type, 5, 3, w, "after the dimensions changed");
   CHECK_ST(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT), CURAND_STATUS_SUCCESS);
   words(g, type, 10, w);
   expect_points(type, 5, 106, w, "after the ordering was set");
   CHECK_ST(curandSetGeneratorOffset(g, 4294967293ull), CURAND_STATUS_SUCCESS);
   words(g, type, 5 * 300, w);
   expect_points(type, 5, 4294967293ull, w, "at offset 2^32 - 3");
   CHECK_ST(curandSetGeneratorOffset(g, 0), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 20000), CURAND_STATUS_SUCCESS);
   words(g, type, 40000, w);
   expect_points(type, 20000, 0, w, "20000 dimensions");
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   if (st)
      CHECK_CUDA(cudaStreamDestroy(st));
}

/* The scrambled tables and constants: NVIDIA's (hashes), the 32-bit ones
 * the top halves of the 64-bit ones, and the rule they follow: dimension
 * d's scrambled vector k is L_d times its vector V64[d][k] over GF(2), L_d
 * lower triangular with a unit diagonal, row i the top i bits of the
 * library's XORWOW (seed 0) 64-bit value 64 d + i, the constant value
 * 1280000 + d (values from the second word on, the low word first). */
static void scrambled_vectors(curandDirectionVectors64_t *v64)
{
   curandDirectionVectors32_t *s32 = NULL;
   curandDirectionVectors64_t *s64 = NULL;
   unsigned *c32 = NULL;
   unsigned long long *c64 = NULL;
   if (!CHECK_ST(curandGetDirectionVectors32(&s32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6),
                 CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetDirectionVectors64(&s64, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6),
                 CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetScrambleConstants32(&c32), CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetScrambleConstants64(&c64), CURAND_STATUS_SUCCESS))
      return;
   CHECK(fnv(s32, 20000 * sizeof *s32) == SOBOL_SDV32_HASH);
   CHECK(fnv(s64, 20000 * sizeof *s64) == SOBOL_SDV64_HASH);
   CHECK(fnv(c32, 20000 * sizeof *c32) == SOBOL_SC32_HASH);
   CHECK(fnv(c64, 20000 * sizeof *c64) == SOBOL_SC64_HASH);
   size_t bad = 0;
   for (int d = 0; d < 20000; d++) {
      bad += c32[d] != (unsigned)(c64[d] >> 32);
      for (int k = 0; k < 32; k++)
         bad += s32[d][k] != (unsigned)(s64[d][k] >> 32);
   }
   CHECK_INT(bad, 0);
   const size_t values = 64 * 20000 + 20000;
   std::vector<unsigned> w(2 * values + 1);
   curandGenerator_t g;
   if (!CHECK_ST(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_XORWOW), CURAND_STATUS_SUCCESS))
      return;
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, 0), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerate(g, w.data(), w.size()), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   auto value = [&](size_t i) { return (unsigned long long)w[2 * i + 1] | (unsigned long long)w[2 * i + 2] << 32; };
   bad = 0;
   for (int d = 0; d < 20000; d += d < 64 ? 1 : 331) {
      unsigned long long row[64];
      for (int i = 0; i < 64; i++)
         row[i] = (i ? value(64 * d + i) & ~0ull << (64 - i) : 0) | 1ull << (63 - i);
      for (int k = 0; k < 64; k++) {
         unsigned long long x = 0;
         for (int i = 0; i < 64; i++)
            x |= (unsigned long long)__builtin_parityll(row[i] & v64[d][k]) << (63 - i);
         if (x != s64[d][k] && bad++ < 4)
            printf("  scrambled vector %d of dimension %d: %llx, by the rule %llx\n", k, d, s64[d][k], x);
      }
      if (c64[d] != value(64 * 20000 + d) && bad++ < 4)
         printf("  scramble constant %d: %llx, by the rule %llx\n", d, c64[d], value(64 * 20000 + d));
   }
   CHECK_INT(bad, 0);
}

/* Scrambled Sobol64 from 2^32 - 3 in 2 dimensions: a call of 3 points,
 * then one of 5 from past 2^32.  NVIDIA's host generator starts the second
 * call at the point of the index's low 32 bits (its recorded hashes); its
 * device generator (an H200) at the point itself. */
static void scrambled_wrap(void)
{
   for (int host = 0; host < 2; host++) {
      curandGenerator_t g;
      unsigned long long w[16], *p = w;
      if (!CHECK_ST(host ? curandCreateGeneratorHost(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL64)
                         : curandCreateGenerator(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL64),
                    CURAND_STATUS_SUCCESS))
         continue;
      if (!host)
         CHECK_CUDA(cudaMalloc(&p, sizeof w));
      CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 2), CURAND_STATUS_SUCCESS);
      CHECK_ST(curandSetGeneratorOffset(g, 4294967293ull), CURAND_STATUS_SUCCESS);
      CHECK_ST(curandGenerateLongLong(g, p, 6), CURAND_STATUS_SUCCESS);
      CHECK_ST(curandGenerateLongLong(g, p + 6, 10), CURAND_STATUS_SUCCESS);
      if (!host) {
         CHECK_CUDA(cudaMemcpy(w, p, sizeof w, cudaMemcpyDeviceToHost));
         CHECK_CUDA(cudaFree(p));
      }
      CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
      if (host) {
         if (!CHECK(fnv(w, 6 * sizeof *w) == SOBOL_SCR64_WRAP[0]) ||
             !CHECK(fnv(w + 6, 10 * sizeof *w) == SOBOL_SCR64_WRAP[1]))
            printf("  scrambled Sobol64 past 2^32 (host generator): %llx %llx ...\n", w[6], w[7]);
      } else {
         std::vector<unsigned long long> first(w, w + 6), second(w + 6, w + 16);
         expect_points(CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 2, 4294967293ull, first, "device, from 2^32 - 3");
         expect_points(CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 2, 4294967296ull, second, "device, from 2^32");
      }
   }
}

/* The tables: NVIDIA's, entry for entry (hashes), and a few entries by
 * hand: dimension 1 is the powers of two, dimension 3 (x^2 + x + 1,
 * m = 1, 3) begins 1/2, 3/4, 3/8, 9/16; the 64-bit vectors' top halves
 * are the 32-bit ones. */
static void vectors(void)
{
   curandDirectionVectors32_t *v32 = NULL;
   curandDirectionVectors64_t *v64 = NULL;
   if (!CHECK_ST(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_SUCCESS))
      return;
   CHECK(fnv(v32, 20000 * sizeof *v32) == SOBOL_DV32_HASH);
   CHECK(fnv(v64, 20000 * sizeof *v64) == SOBOL_DV64_HASH);
   for (int k = 0; k < 32; k++)
      CHECK_INT(v32[0][k], 1u << (31 - k));
   CHECK_INT(v32[2][0], 0x80000000u);
   CHECK_INT(v32[2][1], 0xc0000000u);
   CHECK_INT(v32[2][2], 0x60000000u);
   CHECK_INT(v32[2][3], 0x90000000u);
   size_t bad = 0;
   for (int d = 0; d < 20000; d++)
      for (int k = 0; k < 32; k++)
         bad += v32[d][k] != (unsigned)(v64[d][k] >> 32);
   CHECK_INT(bad, 0);
   /* the wrong width's set */
   CHECK_ST(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandGetDirectionVectors32(&v32, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6),
            CURAND_STATUS_OUT_OF_RANGE);
   scrambled_vectors(v64);
}

/* What NVIDIA's library answers (measured on its host generator). */
static void statuses(void)
{
   curandGenerator_t g, x;
   void *p;
   CHECK_CUDA(cudaMalloc(&p, 1024));
   CHECK_ST(curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 0), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 20001), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 3), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerate(g, (unsigned *)p, 7), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   CHECK_ST(curandGenerateUniform(g, (float *)p, 4), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   CHECK_ST(curandGenerateNormalDouble(g, (double *)p, 5, 0, 1), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   /* no pairs for the quasi-random normals */
   CHECK_ST(curandGenerateNormal(g, (float *)p, 3, 0, 1), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerateLogNormal(g, (float *)p, 9, 0, 1), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerate(g, (unsigned *)p, 0), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, 5), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandGenerateLongLong(g, (unsigned long long *)p, 6), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerateSeeds(g), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);

   CHECK_ST(curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL64), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerate(g, (unsigned *)p, 4), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandGenerateLongLong(g, (unsigned long long *)p, 4), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerateUniform(g, (float *)p, 4), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);

   CHECK_ST(curandCreateGenerator(&x, CURAND_RNG_PSEUDO_XORWOW), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(x, 3), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandGenerateLongLong(x, (unsigned long long *)p, 4), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandSetGeneratorOrdering(x, CURAND_ORDERING_QUASI_DEFAULT), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandDestroyGenerator(x), CURAND_STATUS_SUCCESS);

   /* the scrambled generators: the word widths of their plain forms, no seed */
   CHECK_ST(curandCreateGenerator(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL64), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerate(g, (unsigned *)p, 4), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandGenerateLongLong(g, (unsigned long long *)p, 4), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, 4), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 20001), CURAND_STATUS_OUT_OF_RANGE);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandCreateGenerator(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerateLongLong(g, (unsigned long long *)p, 4), CURAND_STATUS_TYPE_ERROR);
   CHECK_ST(curandGenerateNormal(g, (float *)p, 3, 0, 1), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaFree(p));
}

/* The device API from the library's vectors: a thread per dimension,
 * curand_init(vectors, offset) then N words, again then N uniforms (float
 * for Sobol32, double for Sobol64). */
__device__ float uniform(curandStateSobol32_t *s)
{
   return curand_uniform(s);
}

__device__ double uniform(curandStateSobol64_t *s)
{
   return curand_uniform_double(s);
}

__device__ float uniform(curandStateScrambledSobol32_t *s)
{
   return curand_uniform(s);
}

__device__ double uniform(curandStateScrambledSobol64_t *s)
{
   return curand_uniform_double(s);
}

template <class V, class S, class C, class W, class F>
__global__ void api_scrambled(V *v, C *c, unsigned long long off, unsigned n, W *w, F *f)
{
   unsigned d = threadIdx.x;
   S s;
   curand_init(v[d], c[d], off, &s);
   for (unsigned i = 0; i < n; i++)
      w[d * n + i] = curand(&s);
   curand_init(v[d], c[d], off, &s);
   for (unsigned i = 0; i < n; i++)
      f[d * n + i] = uniform(&s);
}

template <class V, class S, class W, class F>
__global__ void api(V *v, unsigned long long off, unsigned n, W *w, F *f)
{
   unsigned d = threadIdx.x;
   S s;
   curand_init(v[d], off, &s);
   for (unsigned i = 0; i < n; i++)
      w[d * n + i] = curand(&s);
   curand_init(v[d], off, &s);
   for (unsigned i = 0; i < n; i++)
      f[d * n + i] = uniform(&s);
}

/* The host generator's N points of D dimensions at OFF, words and
 * uniforms (float for Sobol32, double for Sobol64), into W and F. */
static void host_points(int type, unsigned dims, unsigned long long off, size_t n, void *w, void *f)
{
   curandGenerator_t g;
   bool s64 = wide(type);
   CHECK_ST(curandCreateGeneratorHost(&g, (curandRngType_t)type), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, dims), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetGeneratorOffset(g, off), CURAND_STATUS_SUCCESS);
   CHECK_ST(gen(g, type, WORDS, w, dims * n), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetGeneratorOffset(g, off), CURAND_STATUS_SUCCESS);
   CHECK_ST(gen(g, type, s64 ? UNID : UNI, f, dims * n), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
}

static void device_api(void)
{
   const unsigned D = 7, n = 1000, off = 12345;
   curandDirectionVectors32_t *v32, *s32;
   curandDirectionVectors64_t *v64, *s64v;
   unsigned *c32;
   unsigned long long *c64;
   if (!CHECK_ST(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetDirectionVectors32(&s32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6),
                 CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetDirectionVectors64(&s64v, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6),
                 CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetScrambleConstants32(&c32), CURAND_STATUS_SUCCESS) ||
       !CHECK_ST(curandGetScrambleConstants64(&c64), CURAND_STATUS_SUCCESS))
      return;
   void *dv, *dc, *dw, *df;
   CHECK_CUDA(cudaMalloc(&dv, D * sizeof *v64));
   CHECK_CUDA(cudaMalloc(&dc, D * 8));
   CHECK_CUDA(cudaMalloc(&dw, D * n * 8));
   CHECK_CUDA(cudaMalloc(&df, D * n * 8));
   std::vector<unsigned char> w(D * n * 8), f(D * n * 8), hw(D * n * 8), hf(D * n * 8);
   const int types[] = { CURAND_RNG_QUASI_SOBOL32, CURAND_RNG_QUASI_SOBOL64, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32,
                         CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 };
   for (int type : types) {
      bool s64 = wide(type);
      switch (type) {
      case CURAND_RNG_QUASI_SOBOL64:
         CHECK_CUDA(cudaMemcpy(dv, v64, D * sizeof *v64, cudaMemcpyHostToDevice));
         api<curandDirectionVectors64_t, curandStateSobol64_t>
            <<<1, D>>>((curandDirectionVectors64_t *)dv, off, n, (unsigned long long *)dw, (double *)df);
         break;
      case CURAND_RNG_QUASI_SOBOL32:
         CHECK_CUDA(cudaMemcpy(dv, v32, D * sizeof *v32, cudaMemcpyHostToDevice));
         api<curandDirectionVectors32_t, curandStateSobol32_t>
            <<<1, D>>>((curandDirectionVectors32_t *)dv, off, n, (unsigned *)dw, (float *)df);
         break;
      case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
         CHECK_CUDA(cudaMemcpy(dv, s64v, D * sizeof *s64v, cudaMemcpyHostToDevice));
         CHECK_CUDA(cudaMemcpy(dc, c64, D * 8, cudaMemcpyHostToDevice));
         api_scrambled<curandDirectionVectors64_t, curandStateScrambledSobol64_t><<<1, D>>>(
            (curandDirectionVectors64_t *)dv, (unsigned long long *)dc, off, n, (unsigned long long *)dw, (double *)df);
         break;
      default:
         CHECK_CUDA(cudaMemcpy(dv, s32, D * sizeof *s32, cudaMemcpyHostToDevice));
         CHECK_CUDA(cudaMemcpy(dc, c32, D * 4, cudaMemcpyHostToDevice));
         api_scrambled<curandDirectionVectors32_t, curandStateScrambledSobol32_t>
            <<<1, D>>>((curandDirectionVectors32_t *)dv, (unsigned *)dc, off, n, (unsigned *)dw, (float *)df);
         break;
      }
      CHECK_CUDA(cudaGetLastError());
      size_t bytes = D * n * (s64 ? 8 : 4);
      CHECK_CUDA(cudaMemcpy(w.data(), dw, bytes, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(f.data(), df, bytes, cudaMemcpyDeviceToHost));
      host_points(type, D, off, n, hw.data(), hf.data());
      if (!CHECK(memcmp(w.data(), hw.data(), bytes) == 0))
         printf("  device API, generator type %d: words differ from the host generator's\n", type);
      if (!CHECK(memcmp(f.data(), hf.data(), bytes) == 0))
         printf("  device API, generator type %d: uniforms differ from the host generator's\n", type);
   }
   CHECK_CUDA(cudaFree(dv));
   CHECK_CUDA(cudaFree(dc));
   CHECK_CUDA(cudaFree(dw));
   CHECK_CUDA(cudaFree(df));
}

int main(int argc, char **argv)
{
   check_begin("curand_sobol");
   vectors();
   std::vector<unsigned char> out;
   for (const sobol_expect &e : SOBOL_EXPECT) {
      if (run(e.type, false, e.dims, e.offset, e.dist, out))
         check_row(e, e.type, false, out);
      if (run(e.type, true, e.dims, e.offset, e.dist, out))
         check_row(e, e.type, true, out);
      /* QUASI_DEFAULT is Sobol32 */
      if (e.type == CURAND_RNG_QUASI_SOBOL32 && e.dims == 3 && run(CURAND_RNG_QUASI_DEFAULT, false, e.dims, e.offset,
                                                                  e.dist, out))
         check_row(e, CURAND_RNG_QUASI_DEFAULT, false, out);
   }
   const int types[] = { CURAND_RNG_QUASI_SOBOL32, CURAND_RNG_QUASI_SOBOL64, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32,
                         CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 };
   for (int type : types) {
      derived(type);
      positions(type);
   }
   scrambled_wrap();
   device_api();
   statuses();
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
