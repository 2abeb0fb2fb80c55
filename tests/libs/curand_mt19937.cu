/*
 * curand_mt19937.cu — cuRAND's MT19937 generator (CURAND_RNG_PSEUDO_MT19937)
 * through the library a program links, device and host generators.
 *
 * A seeding of MT19937 costs a while (NVIDIA's host generator ~5 s, ours
 * ~1.5 s: 8192 subsequences 2^2048 values apart), so the checks run as
 * sequences of operations on one generator each, every call continuing the
 * stream: sequence 0 (seed 1234) goes through words, uniform float and
 * double, normal and log-normal float and double (odd counts: one word an
 * output), Poisson at lambda 0.5, 5, 1999.5 (the square histogram) and 2000
 * (the rounded normal), the same seed and the DEFAULT ordering set again
 * (the position is kept), an offset (refused, nothing changes), and calls
 * across a round of 65536 outputs and past the end of every subsequence's
 * first 624-word block; sequence 1 (a 64-bit seed: its low 32 bits seed)
 * words, normal double, Poisson at 100, then the LEGACY ordering, which
 * restarts the stream.  Sequence 0 runs on a device generator and a host
 * generator, sequence 1 on a host generator (its restart is what NVIDIA's
 * host generator does; a device generator's restarts were not measured).
 * Then the statuses of refused calls on fresh generators of both kinds.
 *
 * Expected values: NVIDIA's host generator (curand_mt19937_expected.h,
 * written by native/curand_mt19937_record.c on CUDA 13.0's cuRAND 10.4.0;
 * README.md); cuRAND documents its host generator as giving the device
 * generator's results.  Words, uniforms and Poisson values must be
 * bit-identical (hashes), except Poisson at 2000 on a device generator,
 * whose normal goes through the device's inverse normal distribution
 * function (its eight recorded values within one); the normal forms are
 * checked to a few units in the last place at eight indices of each call
 * (NVIDIA's inverse normal distribution function is its own: libcurand's
 * is within 1.1e-7 (float) and 1.1e-15 (double) of NVIDIA's host values,
 * relative to 1 + |value|, tests/libs/native/curand_mt19937cmp.c).
 */
#include <curand.h>
#include "../cuda/check.h"
#include "curand_check.h"
#include "curand_mt19937_expected.h"

#include <string.h>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static curandGenerator_t create(bool host)
{
   curandGenerator_t g = NULL;
   curandStatus_t s = host ? curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937)
                           : curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MT19937);
   return CHECK_ST(s, CURAND_STATUS_SUCCESS) ? g : NULL;
}

static size_t elem_size(const mt_op &o)
{
   return o.kind == CALL && (o.dist == 2 || o.dist == 4 || o.dist == 6) ? 8 : 4;
}

/* The output at index I of a generation O in OUT, as the recorder printed
 * it (a double). */
static double value(const mt_op &o, const unsigned char *out, size_t i)
{
   if (o.kind == POIS || o.dist == 0) {
      unsigned w;
      memcpy(&w, out + 4 * i, 4);
      return w;
   }
   if (elem_size(o) == 8) {
      double d;
      memcpy(&d, out + 8 * i, 8);
      return d;
   }
   float f;
   memcpy(&f, out + 4 * i, 4);
   return f;
}

/* Sequence Q on a device or host generator. */
static void check_seq(int q, bool host)
{
   curandGenerator_t g = create(host);
   if (!g)
      return;
   size_t most = 0;
   for (int k = 0; k < MT_SEQ_OPS && MT_SEQ[q][k].kind; k++)
      if (MT_SEQ[q][k].kind == CALL || MT_SEQ[q][k].kind == POIS)
         most = MT_SEQ[q][k].arg * elem_size(MT_SEQ[q][k]) > most ? MT_SEQ[q][k].arg * elem_size(MT_SEQ[q][k]) : most;
   std::vector<unsigned char> out(most);
   void *p = out.data();
   if (!host && !CHECK_CUDA(cudaMalloc(&p, most)))
      return;
   for (int k = 0; k < MT_SEQ_OPS && MT_SEQ[q][k].kind; k++) {
      const mt_op &o = MT_SEQ[q][k];
      char what[160];
      snprintf(what, sizeof what, "%s sequence %d op %d (kind %d dist %d arg %llu lambda %g)", host ? "host" : "device",
               q, k, o.kind, o.dist, o.arg, o.lambda);
      curandStatus_t s;
      switch (o.kind) {
      case CALL: s = curand_call(g, o.dist, p, o.arg); break;
      case POIS: s = curandGeneratePoisson(g, (unsigned *)p, o.arg, o.lambda); break;
      case SEED: s = curandSetPseudoRandomGeneratorSeed(g, o.arg); break;
      case ORDER: s = curandSetGeneratorOrdering(g, (curandOrdering_t)o.arg); break;
      default: s = curandSetGeneratorOffset(g, o.arg); break;
      }
      if (!CHECK_ST(s, o.status)) {
         printf("  %s: status %d\n", what, (int)s);
         continue;
      }
      if (s || (o.kind != CALL && o.kind != POIS))
         continue;
      size_t n = o.arg, es = elem_size(o);
      if (!host && !CHECK_CUDA(cudaMemcpy(out.data(), p, n * es, cudaMemcpyDeviceToHost)))
         continue;
      size_t at[8] = { 0, 1, 2, n / 2 - 1, n / 2, n / 2 + 1, n - 2, n - 1 };
      bool normal = o.kind == CALL && o.dist >= 3;
      bool poisson_normal = o.kind == POIS && o.lambda >= 2000 && !host;
      if (!normal && !poisson_normal) {
         unsigned long long h = fnv(out.data(), n * es);
         if (!CHECK(h == o.hash))
            printf("  %s: hash %016llx, want %016llx\n", what, h, o.hash);
         continue;
      }
      /* the normal forms to a few ulps, the device's normal Poisson within one */
      double tol = poisson_normal ? 0 : es == 4 ? 1e-6 : 1e-14;
      for (int j = 0; j < 8; j++) {
         double got = value(o, out.data(), at[j]);
         if (poisson_normal) {
            if (!CHECK(got >= o.v[j] - 1 && got <= o.v[j] + 1))
               printf("  %s[%zu]: got %.0f, want %.0f (within one)\n", what, at[j], got, o.v[j]);
         } else {
            close_to(got, o.v[j], tol, what, at[j]);
         }
      }
   }
   if (!host)
      CHECK_CUDA(cudaFree(p));
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
}

/* What NVIDIA's host generator refuses, on a fresh generator (nothing here
 * seeds it). */
static void statuses(bool host)
{
   curandGenerator_t g = create(host);
   if (!g)
      return;
   CHECK_ST(curandSetGeneratorOffset(g, 0), MT_ST_OFFSET0);
   CHECK_ST(curandSetGeneratorOffset(g, 1000), MT_ST_OFFSET);
   /* the H200's device generator also takes BEST (DEFAULT's words), which
    * the host generator refuses */
   for (int o = CURAND_ORDERING_PSEUDO_BEST; o <= CURAND_ORDERING_PSEUDO_DYNAMIC; o++)
      CHECK_ST(curandSetGeneratorOrdering(g, (curandOrdering_t)o),
               !host && o == CURAND_ORDERING_PSEUDO_BEST ? 0 : MT_ST_ORDER[o - CURAND_ORDERING_PSEUDO_BEST]);
   CHECK_ST(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT), MT_ST_QUASI_ORDER);
   CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 1), MT_ST_DIMS);
   void *p = NULL;
   std::vector<unsigned char> out(64);
   if (host)
      p = out.data();
   else if (!CHECK_CUDA(cudaMalloc(&p, 64)))
      p = NULL;
   if (p) {
      CHECK_ST(curandGenerateLongLong(g, (unsigned long long *)p, 4), MT_ST_LONGLONG);
      CHECK_ST(curandGeneratePoisson(g, (unsigned *)p, 4, 0.0), MT_ST_POISSON0);
      CHECK_ST(curandGeneratePoisson(g, (unsigned *)p, 4, 400001.0), MT_ST_POISSON_BIG);
      if (!host)
         CHECK_CUDA(cudaFree(p));
   }
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
}

int main(int argc, char **argv)
{
   check_begin("curand_mt19937");
   statuses(false);
   statuses(true);
   check_seq(0, false);
   check_seq(0, true);
   check_seq(1, true);
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
