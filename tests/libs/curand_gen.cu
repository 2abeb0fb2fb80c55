/*
 * curand_gen.cu — cuRAND's host API through the library a program links:
 * XORWOW, MRG32k3a and Philox4_32_10 device and host generators, seeds,
 * offsets, orderings, two calls in a row (the second continues the
 * sequence), 32-bit words, uniform float and double, normal and log-normal
 * float and double, streams, and the statuses of refused arguments.
 *
 * Expected values: an H200's (curand_expected.h, see README.md).  Words and
 * uniforms must be bit-identical (hash of every output); the normal forms
 * come from the GPU's fast sine and cosine, so they are checked to a few
 * units in the last place: their first outputs against the H200's, and every
 * output against Box-Muller computed here in double from the words the same
 * generator yields (which the H200 hashes prove), paired as cuRAND pairs
 * them (README.md: XORWOW and MRG32k3a consecutive values of one
 * subsequence, Philox the words of one counter).
 *
 * XORWOW's SEEDED ordering (seeded_xorwow): every word against a model
 * written here, Marsaglia's xorwow seeded as cuRAND's curand_init seeds it,
 * 4096 subsequences round-robin as in the default ordering, subsequence t
 * seeded with seed + 3133713 t (the rule found on NVIDIA's host
 * generator; the native run proves it on the GPU).
 */
#include <curand.h>
#include "../cuda/check.h"
#include "curand_check.h"
#include "curand_expected.h"

#include <math.h>
#include <string.h>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static const size_t N1 = 10000, N2 = 1002;

static bool is_double(int d)
{
   return d == UNID || d == NORMD || d == LNORMD;
}

static curandStatus_t gen(curandGenerator_t g, int d, void *p, size_t n)
{
   switch (d) {
   case G32: return curandGenerate(g, (unsigned *)p, n);
   case UNI: return curandGenerateUniform(g, (float *)p, n);
   case UNID: return curandGenerateUniformDouble(g, (double *)p, n);
   case NORM: return curandGenerateNormal(g, (float *)p, n, 1.5f, 2.0f);
   case NORMD: return curandGenerateNormalDouble(g, (double *)p, n, 1.5, 2.0);
   case LNORM: return curandGenerateLogNormal(g, (float *)p, n, 0.5f, 0.75f);
   default: return curandGenerateLogNormalDouble(g, (double *)p, n, 0.5, 0.75);
   }
}

/* The two calls of a row on a device (host = false) or host generator:
 * output bytes into OUT (N1 + N2 elements). */
static bool run_row(const curand_expect &e, bool host, std::vector<unsigned char> &out, cudaStream_t stream = 0)
{
   size_t es = is_double(e.dist) ? 8 : 4, bytes = (N1 + N2) * es;
   curandGenerator_t g = NULL;
   curandStatus_t s = host ? curandCreateGeneratorHost(&g, (curandRngType_t)e.type)
                           : curandCreateGenerator(&g, (curandRngType_t)e.type);
   if (!CHECK_ST(s, CURAND_STATUS_SUCCESS))
      return false;
   if (e.ordering)
      CHECK_ST(curandSetGeneratorOrdering(g, (curandOrdering_t)e.ordering),
               e.refused ? CURAND_STATUS_OUT_OF_RANGE : CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, e.seed), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetGeneratorOffset(g, e.offset), CURAND_STATUS_SUCCESS);
   if (stream)
      CHECK_ST(curandSetStream(g, stream), CURAND_STATUS_SUCCESS);
   out.assign(bytes, 0xa5);
   void *p = out.data();
   if (!host && !CHECK_CUDA(cudaMalloc(&p, bytes)))
      return false;
   bool ok = CHECK_ST(gen(g, e.dist, p, N1), CURAND_STATUS_SUCCESS);
   ok &= CHECK_ST(gen(g, e.dist, (char *)p + N1 * es, N2), CURAND_STATUS_SUCCESS);
   if (!host) {
      if (stream)
         CHECK_CUDA(cudaStreamSynchronize(stream));
      ok &= CHECK_CUDA(cudaMemcpy(out.data(), p, bytes, cudaMemcpyDeviceToHost));
      cudaFree(p);
   }
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   return ok;
}

static void check_row(const curand_expect &e, bool host, const std::vector<unsigned char> &out)
{
   char what[128];
   snprintf(what, sizeof what, "%s type %d ordering %d seed %llu offset %llu dist %d", host ? "host" : "device",
            e.type, e.ordering, e.seed, e.offset, e.dist);
   size_t es = is_double(e.dist) ? 8 : 4;
   if (e.dist == G32 || e.dist == UNI || e.dist == UNID)
      check_hashes(out.data(), es, N1, N2, e.h1, e.h2, what);
   else   /* the first outputs, to a few ulps (the H200 uses its fast sine/cosine) */
      check_first(out.data(), es, e.v, es == 4 ? 4e-6 : 1e-13, what);
}

/* Every normal output of seed 1234, offset 0 against Box-Muller of the
 * words the generator yields, paired as cuRAND pairs them. */
static void derived(int type)
{
   const size_t n = 11002;
   /* words: enough for the pairs' reach (Philox doubles: two counters) */
   size_t nw = type == CURAND_RNG_PSEUDO_PHILOX4_32_10 ? 4 * (2 * 65536 + n) : 4 * n + 8 * 81920;
   curandGenerator_t g;
   unsigned *dw;
   std::vector<unsigned> w(nw);
   CHECK_ST(curandCreateGenerator(&g, (curandRngType_t)type), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, 1234), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaMalloc(&dw, nw * 4));
   CHECK_ST(curandGenerate(g, dw, nw), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaMemcpy(w.data(), dw, nw * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaFree(dw));
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);

   const double two32 = 4294967296.0, pi = 3.14159265358979323846;
   const size_t T = type == CURAND_RNG_PSEUDO_XORWOW ? 4096 : 81920;
   for (int dbl = 0; dbl < 2; dbl++) {
      std::vector<float> f(n);
      std::vector<double> d(n);
      void *p;
      CHECK_ST(curandCreateGenerator(&g, (curandRngType_t)type), CURAND_STATUS_SUCCESS);
      CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, 1234), CURAND_STATUS_SUCCESS);
      CHECK_CUDA(cudaMalloc(&p, n * 8));
      if (dbl)
         CHECK_ST(curandGenerateNormalDouble(g, (double *)p, n, 0.0, 1.0), CURAND_STATUS_SUCCESS);
      else
         CHECK_ST(curandGenerateNormal(g, (float *)p, n, 0.0f, 1.0f), CURAND_STATUS_SUCCESS);
      CHECK_CUDA(cudaMemcpy(dbl ? (void *)d.data() : (void *)f.data(), p, n * (dbl ? 8 : 4), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaFree(p));
      CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
      size_t bad = 0;
      for (size_t i = 0; i < n; i += 2) {
         size_t q = i / 2;   /* the pair */
         double u, v;        /* radius and angle (in turns) */
         if (type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
            size_t k = i / 4, j = i % 4, t = k % 65536, r = k / 65536;
            /* words of counter c of subsequence t: float output group c T + t */
            size_t c = dbl ? 2 * r + j / 2 : r, at = 4 * (c * 65536 + t);
            if (dbl) {   /* two 53-bit fractions from the four words */
               u = ((double)((unsigned long long)w[at] ^ ((unsigned long long)w[at + 1] << 21)) + 0.5) /
                   9007199254740992.0;
               v = ((double)((unsigned long long)w[at + 2] ^ ((unsigned long long)w[at + 3] << 21)) + 0.5) /
                   9007199254740992.0;
            } else {
               size_t o = at + (j & 2);
               u = (w[o] + 0.5) / two32;
               v = (w[o + 1] + 0.5) / two32;
            }
         } else if (type == CURAND_RNG_PSEUDO_XORWOW) {
            size_t t = q % T, k = q / T;
            if (dbl) {   /* four values of the subsequence: two 53-bit fractions */
               unsigned a0 = w[(4 * k) * T + t], a1 = w[(4 * k + 1) * T + t];
               unsigned b0 = w[(4 * k + 2) * T + t], b1 = w[(4 * k + 3) * T + t];
               u = ((double)((unsigned long long)a0 ^ ((unsigned long long)a1 << 21)) + 0.5) / 9007199254740992.0;
               v = ((double)((unsigned long long)b0 ^ ((unsigned long long)b1 << 21)) + 0.5) / 9007199254740992.0;
            } else {
               u = (w[(2 * k) * T + t] + 0.5) / two32;
               v = (w[(2 * k + 1) * T + t] + 0.5) / two32;
            }
         } else {   /* MRG32k3a: words are the output z in (0, m1] scaled by 2^32 / m1 */
            size_t t = q % T, k = q / T;
            const double norm = 4294967088.0;   /* m1 + 1 */
            u = ceil(w[(2 * k) * T + t] / 1.000000048662) / norm;
            v = ceil(w[(2 * k + 1) * T + t] / 1.000000048662) / norm;
            if (u <= 0)
               u = 1 / norm;
         }
         double rad = sqrt(-2 * log(u)), x = rad * sin(2 * pi * v), y = rad * cos(2 * pi * v);
         /* float: the inputs were rounded to float (2^-24 relative), MRG's
          * words lose up to one unit of z; double: a few ulps */
         double tol = dbl ? (type == CURAND_RNG_PSEUDO_MRG32K3A ? 2e-8 : 1e-12) : 2e-5;
         double gx = dbl ? d[i] : f[i], gy = dbl ? d[i + 1] : f[i + 1];
         if (fabs(gx - x) > tol * (1 + fabs(x)) || fabs(gy - y) > tol * (1 + fabs(y))) {
            if (bad++ < 4)
               printf("  type %d %s normal[%zu]: got %.9g %.9g, want %.9g %.9g\n", type, dbl ? "double" : "float",
                      i, gx, gy, x, y);
         }
      }
      CHECK_INT(bad, 0);
   }
}

/* The first-call hash of 10000 words from G (device memory). */
static unsigned long long words_hash(curandGenerator_t g, unsigned *d)
{
   std::vector<unsigned> h(N1);
   CHECK_ST(curandGenerate(g, d, N1), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaMemcpy(h.data(), d, N1 * 4, cudaMemcpyDeviceToHost));
   return fnv(h.data(), N1 * 4);
}

static const curand_expect *find(int type, int ordering, unsigned long long seed, unsigned long long offset, int dist)
{
   for (const curand_expect &e : EXPECT)
      if (e.type == type && e.ordering == ordering && e.seed == seed && e.offset == offset && e.dist == dist)
         return &e;
   return NULL;
}

/* The first N1 words of a new generator of type, ordering and seed,
 * started at offset. */
static unsigned long long fresh_hash(curandRngType_t type, curandOrdering_t ordering, unsigned long long seed,
                                     unsigned long long offset, unsigned *d)
{
   curandGenerator_t g;
   CHECK_ST(curandCreateGenerator(&g, type), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetGeneratorOrdering(g, ordering), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, seed), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
   unsigned long long h = words_hash(g, d);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   return h;
}

/* PSEUDO_DEFAULT is XORWOW; curandGenerateSeeds first changes nothing; a
 * seed or ordering set after generating does not go back to the offset:
 * the generator keeps its position and continues there with the new
 * seed or ordering, as an H200 does (the same words as a new generator
 * started at that offset); curandSetGeneratorOffset goes back; two
 * generators are independent. */
static void lifecycle(void)
{
   const curand_expect *x0 = find(101, 0, 1234, 0, G32), *x1 = find(101, 0, 0, 1000003, G32),
                       *m0 = find(121, 0, 1234, 0, G32);
   if (!CHECK(x0 && x1 && m0))
      return;
   const curandRngType_t X = CURAND_RNG_PSEUDO_XORWOW, M = CURAND_RNG_PSEUDO_MRG32K3A;
   const curandOrdering_t DEF = CURAND_ORDERING_PSEUDO_DEFAULT, LEG = CURAND_ORDERING_PSEUDO_LEGACY;
   unsigned *d;
   CHECK_CUDA(cudaMalloc(&d, N1 * 4));
   curandGenerator_t a, b;
   CHECK_ST(curandCreateGenerator(&a, CURAND_RNG_PSEUDO_DEFAULT), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandCreateGenerator(&b, CURAND_RNG_PSEUDO_MRG32K3A), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(a, 1234), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(b, 1234), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerateSeeds(a), CURAND_STATUS_SUCCESS);
   CHECK(words_hash(a, d) == x0->h1);
   CHECK(words_hash(b, d) == m0->h1);
   /* the same seed again: the words after those */
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(a, 1234), CURAND_STATUS_SUCCESS);
   unsigned long long h = words_hash(a, d);
   CHECK(h != x0->h1 && h == fresh_hash(X, DEF, 1234, N1, d));
   /* another seed, at the position reached */
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(a, 99), CURAND_STATUS_SUCCESS);
   CHECK(words_hash(a, d) == fresh_hash(X, DEF, 99, 2 * N1, d));
   /* seed 0 and an offset: from that offset */
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(a, 0), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetGeneratorOffset(a, 1000003), CURAND_STATUS_SUCCESS);
   CHECK(words_hash(a, d) == x1->h1);
   /* MRG32k3a: LEGACY after a call, at the position reached; back to
    * DEFAULT, further on; the offset 0 again: the first words again */
   CHECK_ST(curandSetGeneratorOrdering(b, LEG), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandSetPseudoRandomGeneratorSeed(b, 1234), CURAND_STATUS_SUCCESS);
   CHECK(words_hash(b, d) == fresh_hash(M, LEG, 1234, N1, d));
   CHECK_ST(curandSetGeneratorOrdering(b, DEF), CURAND_STATUS_SUCCESS);
   CHECK(words_hash(b, d) == fresh_hash(M, DEF, 1234, 2 * N1, d));
   CHECK_ST(curandSetGeneratorOffset(b, 0), CURAND_STATUS_SUCCESS);
   CHECK(words_hash(b, d) == m0->h1);
   CHECK_ST(curandDestroyGenerator(a), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandDestroyGenerator(b), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaFree(d));
}

/* Marsaglia's xorwow as cuRAND seeds it (curand_init with subsequence and
 * offset 0): written here, apart from the library. */
struct xorwow_model {
   unsigned x[5], d;
   explicit xorwow_model(unsigned long long seed)
   {
      unsigned s0 = (unsigned)seed ^ 0xaad26b49u, s1 = (unsigned)(seed >> 32) ^ 0xf7dcefddu;
      unsigned t0 = 1099087573u * s0, t1 = 2591861531u * s1;
      d = 6615241u + t1 + t0;
      x[0] = 123456789u + t0;
      x[1] = 362436069u ^ t0;
      x[2] = 521288629u + t1;
      x[3] = 88675123u ^ t1;
      x[4] = 5783321u + t0;
   }
   unsigned next()
   {
      unsigned t = x[0] ^ (x[0] >> 2);
      x[0] = x[1];
      x[1] = x[2];
      x[2] = x[3];
      x[3] = x[4];
      x[4] = (x[4] ^ (x[4] << 4)) ^ (t ^ (t << 1));
      d += 362437u;
      return x[4] + d;
   }
};

/* XORWOW in the SEEDED ordering, device and host generators, seeds 0, 1234
 * and 2^64 - 1 (the seeds wrap), offsets 0 and 4096 x 3 + 17: a call of
 * N1 words then one of N2 (continuing), and N1 uniforms, against the model:
 * output k from subsequence k mod 4096, its value k / 4096. */
static void seeded_xorwow(void)
{
   const unsigned long long seeds[] = { 0, 1234, ~0ull }, offsets[] = { 0, 4096 * 3 + 17 };
   const unsigned T = 4096;
   std::vector<unsigned> w(N1 + N2);
   std::vector<float> u(N1);
   void *p;
   CHECK_CUDA(cudaMalloc(&p, (N1 + N2) * 4));
   for (int host = 0; host < 2; host++)
      for (unsigned long long seed : seeds)
         for (unsigned long long off : offsets) {
            curandGenerator_t g;
            unsigned *dw = host ? w.data() : (unsigned *)p;
            if (!CHECK_ST(host ? curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_XORWOW)
                               : curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW),
                          CURAND_STATUS_SUCCESS))
               continue;
            CHECK_ST(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_SEEDED), CURAND_STATUS_SUCCESS);
            CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, seed), CURAND_STATUS_SUCCESS);
            CHECK_ST(curandSetGeneratorOffset(g, off), CURAND_STATUS_SUCCESS);
            CHECK_ST(curandGenerate(g, dw, N1), CURAND_STATUS_SUCCESS);
            CHECK_ST(curandGenerate(g, dw + N1, N2), CURAND_STATUS_SUCCESS);
            if (!host)
               CHECK_CUDA(cudaMemcpy(w.data(), p, (N1 + N2) * 4, cudaMemcpyDeviceToHost));
            CHECK_ST(curandSetGeneratorOffset(g, off), CURAND_STATUS_SUCCESS);
            float *du = host ? u.data() : (float *)p;
            CHECK_ST(curandGenerateUniform(g, du, N1), CURAND_STATUS_SUCCESS);
            if (!host)
               CHECK_CUDA(cudaMemcpy(u.data(), p, N1 * 4, cudaMemcpyDeviceToHost));
            CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
            /* the model: each subsequence's values in order */
            std::vector<xorwow_model> sub;
            for (unsigned t = 0; t < T; t++)
               sub.emplace_back(seed + 3133713ull * t);
            for (unsigned long long k = 0; k < off; k++)
               sub[k % T].next();
            size_t bad = 0;
            for (size_t i = 0; i < N1 + N2; i++) {
               unsigned want = sub[(off + i) % T].next();
               if (w[i] != want && bad++ < 3)
                  printf("  SEEDED %s seed %llu offset %llu: word %zu is %08x, want %08x\n", host ? "host" : "device",
                         seed, off, i, w[i], want);
               if (i < N1 && u[i] != (float)(want * 0x1p-32f + 0x1p-33f) && bad++ < 3)
                  printf("  SEEDED %s seed %llu offset %llu: uniform %zu is %a\n", host ? "host" : "device", seed,
                         off, i, u[i]);
            }
            CHECK_INT(bad, 0);
         }
   CHECK_CUDA(cudaFree(p));
}

int main(int argc, char **argv)
{
   check_begin("curand_gen");
   int v = 0, major = -1, minor = -1, patch = -1;
   CHECK_ST(curandGetVersion(&v), CURAND_STATUS_SUCCESS);
   CHECK(v >= 10000);
   CHECK_ST(curandGetProperty(MAJOR_VERSION, &major), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGetProperty(MINOR_VERSION, &minor), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGetProperty(PATCH_LEVEL, &patch), CURAND_STATUS_SUCCESS);
   CHECK_INT(v, major * 1000 + minor * 100 + patch);

   std::vector<unsigned char> out;
   const size_t rows = sizeof EXPECT / sizeof EXPECT[0];
   for (size_t r = 0; r < rows; r++) {
      if (run_row(EXPECT[r], false, out))
         check_row(EXPECT[r], false, out);
      /* the host generator: the same sequences (the H200's host generator
       * gives the device's words and uniforms) */
      if (EXPECT[r].ordering == 0 && run_row(EXPECT[r], true, out))
         check_row(EXPECT[r], true, out);
   }

   /* a stream of the program's */
   cudaStream_t st;
   CHECK_CUDA(cudaStreamCreate(&st));
   if (run_row(EXPECT[0], false, out, st))
      check_row(EXPECT[0], false, out);
   CHECK_CUDA(cudaStreamDestroy(st));

   lifecycle();
   seeded_xorwow();

   derived(CURAND_RNG_PSEUDO_XORWOW);
   derived(CURAND_RNG_PSEUDO_MRG32K3A);
   derived(CURAND_RNG_PSEUDO_PHILOX4_32_10);

   /* statuses cuRAND documents: the normal forms come in pairs */
   curandGenerator_t g;
   float *f;
   CHECK_CUDA(cudaMalloc(&f, 64));
   CHECK_ST(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandGenerateNormal(g, f, 7, 0, 1), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   CHECK_ST(curandGenerateLogNormal(g, f, 7, 0, 1), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   CHECK_ST(curandGenerateNormalDouble(g, (double *)f, 3, 0, 1), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
   CHECK_ST(curandGenerate(g, (unsigned *)f, 0), CURAND_STATUS_SUCCESS);
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   CHECK_CUDA(cudaFree(f));
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
