/*
 * curand_mt19937_model.c — a plain model of NVIDIA's CURAND_RNG_PSEUDO_MT19937
 * host generator (cuRAND 10.4.0 of CUDA 13.0), checked against it: the
 * layout and the conversions that src/libs/curand/README.md (MT19937)
 * describes, for the implementation to follow.  MT19937 is Matsumoto and
 * Nishimura's (ACM TOMACS 8, 1998), written here from the paper; the jump of
 * 2^2048 values between subsequences is the polynomial method of Haramoto
 * et al. (INFORMS J. Comput. 20, 2008): x^(2^2048) mod the characteristic
 * polynomial, computed by tools/mt19937_subseq_search.py --jump FILE (read
 * here), applied to a state as the xor of its successors at the
 * polynomial's terms.
 *
 *    python3 tools/mt19937_subseq_search.py --jump /tmp/j2048.txt
 *    cc -O2 -I/usr/local/cuda/include tests/libs/native/curand_mt19937_model.c \
 *       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -lm \
 *       && ./a.out /tmp/j2048.txt [SEED]
 *
 * About a minute (8191 jumps here, ~3 ms each on one core; NVIDIA's host
 * generator takes ~4.5 s for its set-up).  Found (2026-12-04, seed 1234):
 * 2^20 words bit-identical; the float uniform is the double uniform
 * x 2^-32 + 2^-33 rounded to float (not computed in float: 1004 of 131072
 * differ that way); the double uniform x 2^-32 + 2^-33 of one word; the
 * normal forms one output per word (odd counts succeed), the inverse
 * normal distribution function of the uniform (double within 1.4e-14
 * relative, float 2.1e-6, of Phi^-1 by erfc here; seeds 1234, 5 and
 * 0x1234567800000000).
 */
#include <curand.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 624
#define M 397
#define L 19937
#define SUBS 8192

static uint32_t jp[N];   /* x^(2^2048) mod p */

/* the word sequence from state X, COUNT words on */
static void words(const uint32_t *x, uint32_t *w, int count)
{
   memcpy(w, x, 4 * N);
   for (int k = 0; k < count; k++) {
      uint32_t y = (w[k] & 0x80000000u) | (w[k + 1] & 0x7fffffffu);
      w[k + N] = w[k + M] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
   }
}

static void jump(const uint32_t *x, uint32_t *out)
{
   static uint32_t w[L + 2 * N];
   words(x, w, L + N);
   memset(out, 0, 4 * N);
   for (int i = 0; i < L; i++)
      if (jp[i >> 5] >> (i & 31) & 1)
         for (int j = 0; j < N; j++)
            out[j] ^= w[i + j];
}

static uint32_t temper(uint32_t y)
{
   y ^= y >> 11;
   y ^= (y << 7) & 0x9d2c5680u;
   y ^= (y << 15) & 0xefc60000u;
   return y ^ (y >> 18);
}

/* where element E of a subsequence is among its plain outputs */
static unsigned element_of(unsigned e)
{
   static const unsigned first[8] = { 0, 113, 170, 283, 340, 397, 510, 567 };
   unsigned blk = e / 624, r = e % 624 / 8, t = e % 8;
   if (!r)
      return 624 * blk + first[t];
   unsigned k = 56 * ((r - 1) / 7) + 7 * t + (r - 1) % 7;
   for (int j = 0; j < 8 && first[j] <= k; j++)
      k++;
   return 624 * blk + k;
}

static curandGenerator_t fresh(unsigned long long seed)
{
   curandGenerator_t h;
   curandCreateGeneratorHost(&h, CURAND_RNG_PSEUDO_MT19937);
   curandSetPseudoRandomGeneratorSeed(h, seed);
   return h;
}

int main(int argc, char **argv)
{
   if (argc < 2)
      return 2;
   FILE *f = fopen(argv[1], "r");
   for (int i = 0; i < N; i++)
      if (!f || fscanf(f, "%u", &jp[i]) != 1)
         return 2;
   fclose(f);
   unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1234;
   enum { ROUNDS = 16 };
   size_t n = (size_t)ROUNDS * 8 * SUBS;
   uint32_t *st = malloc(4ull * N * SUBS), *mine = malloc(4 * n), *nv = malloc(4 * n);
   float *fl = malloc(4 * n);
   double *db = malloc(8 * n);
   if (!st || !mine || !nv || !fl || !db)
      return 1;
   /* subsequence 0: init_genrand of the seed's low 32 bits; g: g jumps on */
   st[0] = (uint32_t)seed;
   for (int i = 1; i < N; i++)
      st[i] = 1812433253u * (st[i - 1] ^ (st[i - 1] >> 30)) + (uint32_t)i;
   for (int g = 1; g < SUBS; g++)
      jump(st + (size_t)N * (g - 1), st + (size_t)N * g);
   /* output n: subsequence (n / 8) mod 8192, element 8 (n / 65536) + n mod 8 */
   static uint32_t w[3 * N];
   for (int g = 0; g < SUBS; g++) {
      words(st + (size_t)N * g, w, 2 * N);
      for (unsigned e = 0; e < 8 * ROUNDS; e++)
         mine[(size_t)(e / 8) * 8 * SUBS + 8 * g + e % 8] = temper(w[N + element_of(e)]);
   }
   int fails = 0;
   curandGenerator_t h = fresh(seed);
   curandGenerate(h, nv, n);
   curandDestroyGenerator(h);
   size_t bad = 0;
   for (size_t i = 0; i < n; i++)
      bad += nv[i] != mine[i];
   printf("words: %zu of %zu differ\n", bad, n);
   fails += bad != 0;

   /* the uniforms: x 2^-32 + 2^-33 in double, and that rounded to float */
   for (int dbl = 0; dbl < 2; dbl++) {
      h = fresh(seed);
      if (dbl)
         curandGenerateUniformDouble(h, db, n);
      else
         curandGenerateUniform(h, fl, n);
      curandDestroyGenerator(h);
      bad = 0;
      for (size_t i = 0; i < n; i++) {
         double u = mine[i] * 2.3283064365386963e-10 + 1.1641532182693481e-10;
         bad += dbl ? db[i] != u : fl[i] != (float)u;
      }
      printf("uniform%s: %zu differ from %s\n", dbl ? " double" : "", bad,
             dbl ? "x 2^-32 + 2^-33" : "(float)(x 2^-32 + 2^-33)");
      fails += bad != 0;
   }

   /* normals: Phi of the output against the uniform, relative to the
    * nearer tail */
   double worst = 0, worstf = 0;
   h = fresh(seed);
   curandGenerateNormalDouble(h, db, n - 1, 0, 1);   /* an odd count */
   curandDestroyGenerator(h);
   h = fresh(seed);
   curandGenerateNormal(h, fl, n - 1, 0, 1);
   curandDestroyGenerator(h);
   for (size_t i = 0; i < n - 1; i++) {
      double u = mine[i] * 2.3283064365386963e-10 + 1.1641532182693481e-10, tail = u < 0.5 ? u : 1 - u;
      double e = fabs(0.5 * erfc(-db[i] / sqrt(2.0)) - u) / tail;
      double ef = fabs(0.5 * erfc(-(double)fl[i] / sqrt(2.0)) - u) / tail;
      worst = e > worst ? e : worst;
      worstf = ef > worstf ? ef : worstf;
   }
   printf("normal: Phi(output) within %.3g (double) and %.3g (float) of the uniform, relative to its tail\n",
          worst, worstf);
   fails += worst > 1e-13 || worstf > 1e-5;
   printf("%s\n", fails ? "FAIL" : "PASS");
   return fails != 0;
}
