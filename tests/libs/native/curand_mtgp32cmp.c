/*
 * curand_mtgp32cmp.c — metalcuda's MTGP32 host generator against NVIDIA's,
 * on any machine with NVIDIA's libcurand (no GPU needed): both libraries
 * dlopen'ed, the same pseudo-random sequences of operations on each
 * (seeds, 64-bit ones too; the five orderings; curandGenerateSeeds; calls
 * of every distribution from 0 to 300000 outputs, odd counts included):
 * every status must be the same, words and uniforms bit-identical, the
 * normal forms within 16 epsilons of their precision (|a - b| / (1 + |a|),
 * the log-normal forms' divided by 1 + |log a|: the inverse normal
 * distribution functions differ, and exp scales the difference by the
 * exponent).  How mtgp.h's layout and mtgp32.c's settings were checked
 * (2026-12-03: PASS, 300 sequences of 12 operations; the normal forms within
 * 1.33 epsilons, normal double 1.33 float epsilons, log-normal 1.26,
 * log-normal double 3.94 by that measure).
 * Build: cc -Iinclude tests/libs/native/curand_mtgp32cmp.c -ldl -lm;
 * run: ./a.out NVIDIA_LIBCURAND OUR_LIBCURAND [SEQUENCES].
 */
#include <curand.h>
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the entry points used, by name, in each library */
static const char *const names[] = { "curandCreateGeneratorHost",
                                     "curandDestroyGenerator",
                                     "curandSetPseudoRandomGeneratorSeed",
                                     "curandSetGeneratorOrdering",
                                     "curandGenerateSeeds",
                                     "curandGenerate",
                                     "curandGenerateUniform",
                                     "curandGenerateUniformDouble",
                                     "curandGenerateNormal",
                                     "curandGenerateNormalDouble",
                                     "curandGenerateLogNormal",
                                     "curandGenerateLogNormalDouble" };
enum { CREATE, DESTROY, SEED, ORDER, SEEDS, GEN };
#define NFN (sizeof names / sizeof names[0])
static void *fn[2][NFN];

typedef curandStatus_t (*gen_t)(curandGenerator_t, void *, size_t);
typedef curandStatus_t (*genf_t)(curandGenerator_t, void *, size_t, float, float);
typedef curandStatus_t (*gend_t)(curandGenerator_t, void *, size_t, double, double);

static unsigned long long rs = 0x9e3779b97f4a7c15ull;
static unsigned long long rnd(void)
{
   rs ^= rs << 13;
   rs ^= rs >> 7;
   rs ^= rs << 17;
   return rs;
}

/* distribution D (0 words ... 6 log-normal double) of N into B with library L */
static curandStatus_t call(int l, curandGenerator_t g, int d, void *b, size_t n)
{
   void *f = fn[l][GEN + d];
   if (d < 3)
      return ((gen_t)f)(g, b, n);
   if (d == 3 || d == 5)
      return ((genf_t)f)(g, b, n, 1.5f, 2.0f);
   return ((gend_t)f)(g, b, n, 1.5, 2.0);
}

static double worst[7];

/* the outputs of a call: bit-identical, or within 16 epsilons */
static int same(int d, const void *a, const void *b, size_t n)
{
   if (d < 3)
      return memcmp(a, b, n * (d == 2 ? 8 : 4)) == 0;
   bool dbl = d == 4 || d == 6;
   /* NVIDIA's normal double is its float normal widened: float's epsilon */
   double eps = d == 6 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
   for (size_t i = 0; i < n; i++) {
      double x = dbl ? ((const double *)a)[i] : ((const float *)a)[i];
      double y = dbl ? ((const double *)b)[i] : ((const float *)b)[i];
      /* exp scales the normal's error by the exponent */
      double e = fabs(x - y) / (1 + fabs(x)) / eps / (d >= 5 && x > 0 ? 1 + fabs(log(x)) : 1);
      if (e > worst[d])
         worst[d] = e;
      if (!(e <= 16)) {
         printf("dist %d [%zu]: NVIDIA %.17g, ours %.17g\n", d, i, x, y);
         return 0;
      }
   }
   return 1;
}

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: %s NVIDIA_LIBCURAND OUR_LIBCURAND [SEQUENCES]\n", argv[0]);
      return 2;
   }
   for (int l = 0; l < 2; l++) {
      void *h = dlopen(argv[1 + l], RTLD_NOW | RTLD_LOCAL);
      if (!h) {
         fprintf(stderr, "%s\n", dlerror());
         return 2;
      }
      for (size_t k = 0; k < NFN; k++)
         if (!(fn[l][k] = dlsym(h, names[k]))) {
            fprintf(stderr, "%s: no %s\n", argv[1 + l], names[k]);
            return 2;
         }
   }
   int seqs = argc > 3 ? atoi(argv[3]) : 300, bad = 0;
   const size_t max = 300000;
   char *b[2] = { malloc(8 * max), malloc(8 * max) };
   for (int q = 0; q < seqs && !bad; q++) {
      curandGenerator_t g[2];
      for (int l = 0; l < 2; l++)
         if (((curandStatus_t(*)(curandGenerator_t *, curandRngType_t))fn[l][CREATE])(&g[l], CURAND_RNG_PSEUDO_MTGP32))
            return 1;
      for (int op = 0; op < 12 && !bad; op++) {
         int k = (int)(rnd() % 10), d = (int)(rnd() % 7);
         unsigned long long a = k == 0 ? (rnd() % 3 ? rnd() % 4 : rnd()) : k == 1 ? 100 + rnd() % 5
                                : rnd() % 4 ? rnd() % 700 : rnd() % max;
         curandStatus_t s[2];
         for (int l = 0; l < 2; l++)
            s[l] = k == 0   ? ((curandStatus_t(*)(curandGenerator_t, unsigned long long))fn[l][SEED])(g[l], a)
                   : k == 1 ? ((curandStatus_t(*)(curandGenerator_t, curandOrdering_t))fn[l][ORDER])(
                                 g[l], (curandOrdering_t)a)
                   : k == 2 ? ((curandStatus_t(*)(curandGenerator_t))fn[l][SEEDS])(g[l])
                            : call(l, g[l], d, b[l], a);
         if (s[0] != s[1]) {
            printf("sequence %d op %d (kind %d, %llu): status %d, ours %d\n", q, op, k, a, s[0], s[1]);
            bad = 1;
         } else if (k > 2 && !s[0] && !same(d, b[0], b[1], a)) {
            printf("sequence %d op %d: dist %d of %llu differs\n", q, op, d, a);
            bad = 1;
         }
      }
      for (int l = 0; l < 2; l++)
         ((curandStatus_t(*)(curandGenerator_t))fn[l][DESTROY])(g[l]);
   }
   printf("%s: %d sequences; worst normal forms (epsilons):", bad ? "FAIL" : "PASS", seqs);
   for (int d = 3; d < 7; d++)
      printf(" %.2f", worst[d]);
   printf("\n");
   free(b[0]);
   free(b[1]);
   return bad;
}
