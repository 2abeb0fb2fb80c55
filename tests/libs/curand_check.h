/*
 * curand_check.h — what the cuRAND programs share: the FNV-1a 64 hash their
 * expected data are recorded with (plain C too: native/curand_sobol_record.c),
 * a call of each distribution (curand_call, after curand.h), and, after
 * tests/cuda/check.h, the checks of a recorded row: two calls' hashes, or
 * the first outputs within a relative tolerance.
 */
#ifndef TESTS_LIBS_CURAND_CHECK_H
#define TESTS_LIBS_CURAND_CHECK_H

#include <stddef.h>
#include <string.h>

static unsigned long long fnv(const void *p, size_t n)
{
   const unsigned char *b = (const unsigned char *)p;
   unsigned long long h = 0xcbf29ce484222325ULL;
   for (size_t i = 0; i < n; i++) {
      h ^= b[i];
      h *= 0x100000001b3ULL;
   }
   return h;
}

/* One call of distribution D (0 words, 1 uniform, 2 uniform double,
 * 3 normal, 4 normal double, 5 log-normal, 6 log-normal double: the
 * expected headers' order) of N outputs into P, with the programs' usual
 * parameters (mean 1.5, stddev 2; log-normal 0.5, 0.75). */
#if defined(CURAND_H_) || defined(MC_CURAND_H)   /* NVIDIA's curand.h or ours */
static curandStatus_t curand_call(curandGenerator_t g, int d, void *p, size_t n)
{
   switch (d) {
   case 0: return curandGenerate(g, (unsigned *)p, n);
   case 1: return curandGenerateUniform(g, (float *)p, n);
   case 2: return curandGenerateUniformDouble(g, (double *)p, n);
   case 3: return curandGenerateNormal(g, (float *)p, n, 1.5f, 2.0f);
   case 4: return curandGenerateNormalDouble(g, (double *)p, n, 1.5, 2.0);
   case 5: return curandGenerateLogNormal(g, (float *)p, n, 0.5f, 0.75f);
   default: return curandGenerateLogNormalDouble(g, (double *)p, n, 0.5, 0.75);
   }
}
#endif

#ifdef TESTS_CUDA_CHECK_H
#include <math.h>

static bool close_to(double got, double want, double tol, const char *what, size_t i)
{
   bool ok = fabs(got - want) <= tol * (1 + fabs(want));
   if (!ok)
      printf("  %s[%zu]: got %.17g, want %.17g\n", what, i, got, want);
   return CHECK(ok);
}

/* OUT holds a call of N1 elements of ES bytes, then one of N2: their hashes
 * must be H1 and H2. */
static void check_hashes(const unsigned char *out, size_t es, size_t n1, size_t n2, unsigned long long h1,
                         unsigned long long h2, const char *what)
{
   unsigned long long g1 = fnv(out, n1 * es), g2 = fnv(out + n1 * es, n2 * es);
   if (!CHECK(g1 == h1 && g2 == h2))
      printf("  %s: hashes %016llx %016llx, want %016llx %016llx\n", what, g1, g2, h1, h2);
}

/* The first outputs in OUT (six floats or three doubles) against the
 * recorded 32-bit words V, within TOL relative (to 1 + |want|). */
static void check_first(const unsigned char *out, size_t es, const unsigned v[6], double tol, const char *what)
{
   for (int i = 0; i < (es == 4 ? 6 : 3); i++) {
      double got, want;
      if (es == 4) {
         float g, w;
         memcpy(&g, out + 4 * i, 4);
         memcpy(&w, &v[i], 4);
         got = g, want = w;
      } else {
         memcpy(&got, out + 8 * i, 8);
         unsigned long long b = (unsigned long long)v[2 * i + 1] << 32 | v[2 * i];
         memcpy(&want, &b, 8);
      }
      close_to(got, want, tol, what, i);
   }
}
#endif

#endif
