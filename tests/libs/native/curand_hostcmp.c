/*
 * curand_hostcmp.c — metalcuda's host generator against NVIDIA's, on any
 * machine with NVIDIA's libcurand (no GPU needed): both libraries dlopen'ed,
 * XORWOW, MRG32k3a and Philox4_32_10, and XORWOW in the SEEDED ordering,
 * every distribution, offsets 0, 1000003 and 5, call pairs 10000+1002,
 * 4098+30, 12+100000; prints the mismatches of each configuration (all 0
 * on 2026-12-02: 189 of 189; with SEEDED on 2026-12-03: 252 of 252).
 * How the layouts of src/libs/curand/README.md were checked beyond the H200's
 * 11002 values.  Build: cc -Iinclude tests/libs/native/curand_hostcmp.c -ldl;
 * run: ./a.out NVIDIA_LIBCURAND OUR_LIBCURAND.
 */
#include <curand.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef curandStatus_t (*cg_t)(curandGenerator_t *, curandRngType_t);
typedef curandStatus_t (*ss_t)(curandGenerator_t, unsigned long long);
typedef curandStatus_t (*gen_t)(curandGenerator_t, void *, size_t);
typedef curandStatus_t (*genn_t)(curandGenerator_t, void *, size_t, float, float);
typedef curandStatus_t (*gennd_t)(curandGenerator_t, void *, size_t, double, double);
struct L {
   cg_t create;
   ss_t seed, off;
   curandStatus_t (*ord)(curandGenerator_t, curandOrdering_t);
   gen_t g32, u, ud;
   genn_t n, ln;
   gennd_t nd, lnd;
};
static void load(struct L *l, const char *p)
{
   void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
   if (!h) {
      printf("%s\n", dlerror());
      exit(1);
   }
   l->create = (cg_t)dlsym(h, "curandCreateGeneratorHost");
   l->seed = (ss_t)dlsym(h, "curandSetPseudoRandomGeneratorSeed");
   l->off = (ss_t)dlsym(h, "curandSetGeneratorOffset");
   l->ord = dlsym(h, "curandSetGeneratorOrdering");
   l->g32 = (gen_t)dlsym(h, "curandGenerate");
   l->u = (gen_t)dlsym(h, "curandGenerateUniform");
   l->ud = (gen_t)dlsym(h, "curandGenerateUniformDouble");
   l->n = (genn_t)dlsym(h, "curandGenerateNormal");
   l->ln = (genn_t)dlsym(h, "curandGenerateLogNormal");
   l->nd = (gennd_t)dlsym(h, "curandGenerateNormalDouble");
   l->lnd = (gennd_t)dlsym(h, "curandGenerateLogNormalDouble");
}
static const char *dn[] = {"g32", "uni", "unid", "norm", "normd", "lnorm", "lnormd"};
static int run(struct L *l, int type, int ord, unsigned long long seed, unsigned long long off, int d, size_t n1,
               size_t n2, void *buf)
{
   curandGenerator_t g;
   if (l->create(&g, type))
      return -1;
   l->seed(g, seed);
   if (ord && l->ord(g, ord))
      return -2;
   l->off(g, off);
   size_t es = (d == 2 || d == 4 || d == 6) ? 8 : 4;
   char *b = buf;
   for (int c = 0; c < 2; c++) {
      size_t n = c ? n2 : n1;
      curandStatus_t s;
      switch (d) {
      case 0:
         s = l->g32(g, b, n);
         break;
      case 1:
         s = l->u(g, b, n);
         break;
      case 2:
         s = l->ud(g, b, n);
         break;
      case 3:
         s = l->n(g, b, n, 1.5f, 2.0f);
         break;
      case 4:
         s = l->nd(g, b, n, 1.5, 2.0);
         break;
      case 5:
         s = l->ln(g, b, n, 0.5f, 0.75f);
         break;
      default:
         s = l->lnd(g, b, n, 0.5, 0.75);
      }
      if (s)
         return s;
      b += n * es;
   }
   return 0;
}
int main(int argc, char **argv)
{
   struct L nv, me;
   if (argc < 3) {
      fprintf(stderr, "usage: %s NVIDIA_LIBCURAND OUR_LIBCURAND\n", argv[0]);
      return 2;
   }
   load(&nv, argv[1]);
   load(&me, argv[2]);
   int types[] = {101, 121, 161, 101}, ords[] = {0, 0, 0, CURAND_ORDERING_PSEUDO_SEEDED};
   unsigned long long offs[] = {0, 1000003, 5};
   size_t sizes[][2] = {{10000, 1002}, {4098, 30}, {12, 100000}};
   void *a = malloc(8 * 200000), *b = malloc(8 * 200000);
   for (int ti = 0; ti < 4; ti++)
      for (int d = 0; d < 7; d++)
         for (int oi = 0; oi < 3; oi++)
            for (int si = 0; si < 3; si++) {
               size_t n1 = sizes[si][0], n2 = sizes[si][1];
               size_t es = (d == 2 || d == 4 || d == 6) ? 8 : 4;
               memset(a, 0, 8 * 200000);
               memset(b, 0, 8 * 200000);
               int s1 = run(&nv, types[ti], ords[ti], 1234, offs[oi], d, n1, n2, a),
                   s2 = run(&me, types[ti], ords[ti], 1234, offs[oi], d, n1, n2, b);
               size_t bad = 0, first = (size_t)-1;
               for (size_t i = 0; i < (n1 + n2); i++)
                  if (memcmp((char *)a + i * es, (char *)b + i * es, es)) {
                     bad++;
                     if (first == (size_t)-1)
                        first = i;
                  }
               printf("type %d ord %d %-6s off %-7llu n %zu+%zu: st %d/%d  mismatches %zu%s", types[ti], ords[ti],
                      dn[d], offs[oi], n1, n2, s1, s2, bad, bad ? "" : "\n");
               if (bad) {
                  if (es == 4)
                     printf(" first %zu nv %08x me %08x (%g %g)\n", first, ((unsigned *)a)[first],
                            ((unsigned *)b)[first], ((float *)a)[first], ((float *)b)[first]);
                  else
                     printf(" first %zu nv %.17g me %.17g\n", first, ((double *)a)[first], ((double *)b)[first]);
               }
            }
}
