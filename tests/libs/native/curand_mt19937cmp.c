/*
 * curand_mt19937cmp.c — metalcuda's MT19937 host generator against NVIDIA's
 * (cuRAND 10.4.0 of CUDA 13.0), both libraries dlopen'ed on any machine with
 * NVIDIA's libcurand (no GPU needed): for each seed one generator of each,
 * the same sequence of calls (every distribution, Poisson at several lambdas,
 * counts that end mid-round and mid-block), the mismatches of each call
 * (words, uniforms and Poisson values exact, but Poisson from lambda 2000,
 * the rounded normal, one in 10^4 (through our inverse normal distribution
 * function); the normal forms their largest difference relative to
 * 1 + |value|: up to 1e-5).  2026-12-04: PASS, seeds 1234, 0 and
 * 0xfedcba9876543210, with one Poisson value at 400000 off by one (seed
 * 1234); also with our library built with -fsanitize=address,undefined
 * (seed 1234: no report).  NVIDIA's generator takes ~5 s per
 * seed to set up.
 *    cc -O2 -Iinclude tests/libs/native/curand_mt19937cmp.c -ldl -lm
 *    ./a.out /usr/local/cuda/lib64/libcurand.so lib/libcurand.so.10
 */
#include <curand.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct L {
   curandStatus_t (*create)(curandGenerator_t *, curandRngType_t);
   curandStatus_t (*seed)(curandGenerator_t, unsigned long long);
   curandStatus_t (*g32)(curandGenerator_t, unsigned *, size_t);
   curandStatus_t (*u)(curandGenerator_t, float *, size_t);
   curandStatus_t (*ud)(curandGenerator_t, double *, size_t);
   curandStatus_t (*n)(curandGenerator_t, float *, size_t, float, float);
   curandStatus_t (*ln)(curandGenerator_t, float *, size_t, float, float);
   curandStatus_t (*nd)(curandGenerator_t, double *, size_t, double, double);
   curandStatus_t (*lnd)(curandGenerator_t, double *, size_t, double, double);
   curandStatus_t (*po)(curandGenerator_t, unsigned *, size_t, double);
   curandStatus_t (*destroy)(curandGenerator_t);
};

static void load(struct L *l, const char *p)
{
   void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
   if (!h) {
      printf("%s\n", dlerror());
      exit(1);
   }
   *(void **)&l->create = dlsym(h, "curandCreateGeneratorHost");
   *(void **)&l->seed = dlsym(h, "curandSetPseudoRandomGeneratorSeed");
   *(void **)&l->g32 = dlsym(h, "curandGenerate");
   *(void **)&l->u = dlsym(h, "curandGenerateUniform");
   *(void **)&l->ud = dlsym(h, "curandGenerateUniformDouble");
   *(void **)&l->n = dlsym(h, "curandGenerateNormal");
   *(void **)&l->ln = dlsym(h, "curandGenerateLogNormal");
   *(void **)&l->nd = dlsym(h, "curandGenerateNormalDouble");
   *(void **)&l->lnd = dlsym(h, "curandGenerateLogNormalDouble");
   *(void **)&l->po = dlsym(h, "curandGeneratePoisson");
   *(void **)&l->destroy = dlsym(h, "curandDestroyGenerator");
}

/* call K of the sequence: a distribution and a count */
static const int dist[] = { 0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 0, 1 };
static const double lambdas[] = { 0, 0, 0, 0, 0, 0, 0, 0.5, 5, 32, 100, 1999.5, 2000, 400000, 0, 0 };
static const size_t counts[] = { 1001, 100000, 65541, 70001, 33333, 65537, 4099, 50000, 60000, 60000, 60000,
                                 60000, 60000, 60000, 300000, 624 * 65536 + 3 };

static curandStatus_t call(struct L *l, curandGenerator_t g, int k, void *b)
{
   size_t n = counts[k];
   switch (dist[k]) {
   case 0: return l->g32(g, b, n);
   case 1: return l->u(g, b, n);
   case 2: return l->ud(g, b, n);
   case 3: return l->n(g, b, n, 0.5f, 2.0f);
   case 4: return l->nd(g, b, n, 0.5, 2.0);
   case 5: return l->ln(g, b, n, 0.1f, 0.5f);
   case 6: return l->lnd(g, b, n, 0.1, 0.5);
   default: return l->po(g, b, n, lambdas[k]);
   }
}

int main(int argc, char **argv)
{
   if (argc < 3)
      return 2;
   struct L nv, us;
   load(&nv, argv[1]);
   load(&us, argv[2]);
   size_t max = 624 * 65536 + 3;
   void *a = malloc(max * 8), *b = malloc(max * 8);
   unsigned long long seeds[] = { 1234, 0, 0xfedcba9876543210ull };
   int fails = 0;
   int nseeds = argc > 3 ? atoi(argv[3]) : 3;
   for (int s = 0; s < nseeds; s++) {
      curandGenerator_t gn, gu;
      if (nv.create(&gn, CURAND_RNG_PSEUDO_MT19937) || us.create(&gu, CURAND_RNG_PSEUDO_MT19937))
         return printf("create failed\n"), 1;
      nv.seed(gn, seeds[s]);
      us.seed(gu, seeds[s]);
      for (int k = 0; k < (int)(sizeof counts / sizeof *counts); k++) {
         memset(a, 0, max * 8);
         memset(b, 0, max * 8);
         int rn = call(&nv, gn, k, a), ru = call(&us, gu, k, b);
         size_t n = counts[k], bad = 0;
         double worst = 0;
         int d = dist[k];
         for (size_t i = 0; i < n; i++) {
            if (d == 0 || d == 7)
               bad += ((unsigned *)a)[i] != ((unsigned *)b)[i];
            else if (d == 1)
               bad += ((float *)a)[i] != ((float *)b)[i];
            else if (d == 2)
               bad += ((double *)a)[i] != ((double *)b)[i];
            else {
               double x = d == 3 || d == 5 ? ((float *)a)[i] : ((double *)a)[i];
               double y = d == 3 || d == 5 ? ((float *)b)[i] : ((double *)b)[i];
               double e = fabs(x - y) / (1 + fabs(x));
               bad += x != y;
               worst = e > worst ? e : worst;
            }
         }
         printf("seed %#llx call %d (dist %d, n %zu, lambda %g): status %d/%d, %zu differ, worst %.3g\n", seeds[s], k,
                d, n, lambdas[k], rn, ru, bad, worst);
         /* Poisson's normal approximation (from 2000) goes through our
          * inverse normal distribution function: a value in 10^4 may be one off */
         size_t allowed = d == 7 && lambdas[k] >= 2000 ? n / 10000 : 0;
         fails += rn != ru || ((d <= 2 || d == 7) && bad > allowed) || worst > 1e-5;
      }
      nv.destroy(gn);
      us.destroy(gu);
   }
   free(a);
   free(b);
   printf("%s\n", fails ? "FAIL" : "PASS");
   return fails != 0;
}
