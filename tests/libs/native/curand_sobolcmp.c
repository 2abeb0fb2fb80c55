/*
 * curand_sobolcmp.c — metalcuda's Sobol generators against NVIDIA's host
 * generator, on any machine with NVIDIA's libcurand (no GPU needed): both
 * libraries dlopen'ed; the direction vector tables (32 and 64 bits, every
 * dimension, plain and scrambled) and the scramble constants, then Sobol32,
 * Sobol64 and their scrambled forms' host generators in 1, 2, 7, 100
 * and 20000 dimensions at offsets 0, 5, 1000003 and 2^32 - 3, two calls in
 * a row, every distribution: words and uniforms must be bit-identical, the
 * normal forms within 16 epsilons (|a - b| / (1 + |a|); NVIDIA's own are up
 * to 6 ulps off the exact value, and exp scales a log-normal's error by its
 * exponent).  How src/libs/curand/sobol.c's conventions were found and
 * checked (2026-12-03: PASS, the normal forms within 1.3 eps in float
 * (log-normal 4.5), 6.6 in double (log-normal 13.2); with the scrambled
 * forms, 2026-12-03: PASS, the same bounds; SHOW=1 prints each new worst
 * case).
 * Build: cc -Iinclude tests/libs/native/curand_sobolcmp.c -ldl -lm;
 * run: ./a.out NVIDIA_LIBCURAND OUR_LIBCURAND.
 */
#include <curand.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef curandStatus_t (*cg_t)(curandGenerator_t *, curandRngType_t);
struct L {
   cg_t create;
   curandStatus_t (*destroy)(curandGenerator_t);
   curandStatus_t (*off)(curandGenerator_t, unsigned long long);
   curandStatus_t (*dims)(curandGenerator_t, unsigned);
   curandStatus_t (*g32)(curandGenerator_t, unsigned *, size_t);
   curandStatus_t (*g64)(curandGenerator_t, unsigned long long *, size_t);
   curandStatus_t (*u)(curandGenerator_t, float *, size_t);
   curandStatus_t (*ud)(curandGenerator_t, double *, size_t);
   curandStatus_t (*n)(curandGenerator_t, float *, size_t, float, float);
   curandStatus_t (*nd)(curandGenerator_t, double *, size_t, double, double);
   curandStatus_t (*ln)(curandGenerator_t, float *, size_t, float, float);
   curandStatus_t (*lnd)(curandGenerator_t, double *, size_t, double, double);
   curandStatus_t (*dv32)(curandDirectionVectors32_t **, curandDirectionVectorSet_t);
   curandStatus_t (*dv64)(curandDirectionVectors64_t **, curandDirectionVectorSet_t);
   curandStatus_t (*sc32)(unsigned **);
   curandStatus_t (*sc64)(unsigned long long **);
};

static void *sym(void *h, const char *n)
{
   void *p = dlsym(h, n);
   if (!p) {
      printf("%s: %s\n", n, dlerror());
      exit(1);
   }
   return p;
}

static void load(struct L *l, const char *p)
{
   void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
   if (!h) {
      printf("%s\n", dlerror());
      exit(1);
   }
   *(void **)&l->create = sym(h, "curandCreateGeneratorHost");
   *(void **)&l->destroy = sym(h, "curandDestroyGenerator");
   *(void **)&l->off = sym(h, "curandSetGeneratorOffset");
   *(void **)&l->dims = sym(h, "curandSetQuasiRandomGeneratorDimensions");
   *(void **)&l->g32 = sym(h, "curandGenerate");
   *(void **)&l->g64 = sym(h, "curandGenerateLongLong");
   *(void **)&l->u = sym(h, "curandGenerateUniform");
   *(void **)&l->ud = sym(h, "curandGenerateUniformDouble");
   *(void **)&l->n = sym(h, "curandGenerateNormal");
   *(void **)&l->nd = sym(h, "curandGenerateNormalDouble");
   *(void **)&l->ln = sym(h, "curandGenerateLogNormal");
   *(void **)&l->lnd = sym(h, "curandGenerateLogNormalDouble");
   *(void **)&l->dv32 = sym(h, "curandGetDirectionVectors32");
   *(void **)&l->dv64 = sym(h, "curandGetDirectionVectors64");
   *(void **)&l->sc32 = sym(h, "curandGetScrambleConstants32");
   *(void **)&l->sc64 = sym(h, "curandGetScrambleConstants64");
}

static int wide(int t)
{
   return t == CURAND_RNG_QUASI_SOBOL64 || t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

/* The tables of set S32 and S64 (and with SCR the scramble constants). */
static int tables(struct L *nv, struct L *me, int s32, int s64, int scr)
{
   curandDirectionVectors32_t *a32, *b32;
   curandDirectionVectors64_t *a64, *b64;
   int s1 = nv->dv32(&a32, s32), s2 = me->dv32(&b32, s32);
   int s3 = nv->dv64(&a64, s64), s4 = me->dv64(&b64, s64);
   if (s1 || s2 || s3 || s4) {
      printf("direction vectors %d/%d: statuses %d %d %d %d\n", s32, s64, s1, s2, s3, s4);
      return 1;
   }
   size_t bad32 = 0, bad64 = 0, badc = 0;
   for (int d = 0; d < 20000; d++) {
      bad32 += memcmp(a32[d], b32[d], sizeof a32[d]) != 0;
      bad64 += memcmp(a64[d], b64[d], sizeof a64[d]) != 0;
   }
   printf("direction vectors %d/%d: %zu of 20000 dimensions differ (32 bits), %zu (64 bits)\n", s32, s64, bad32,
          bad64);
   if (scr) {
      unsigned *c32, *e32;
      unsigned long long *c64, *e64;
      if (nv->sc32(&c32) || me->sc32(&e32) || nv->sc64(&c64) || me->sc64(&e64)) {
         printf("scramble constants: a status\n");
         return 1;
      }
      for (int d = 0; d < 20000; d++)
         badc += c32[d] != e32[d] || c64[d] != e64[d];
      printf("scramble constants: %zu of 20000 differ\n", badc);
   }
   return bad32 || bad64 || badc;
}

static const char *dn[] = { "words", "uni", "unid", "norm", "normd", "lnorm", "lnormd" };

static int call(struct L *l, curandGenerator_t g, int t, int d, void *b, size_t n)
{
   switch (d) {
   case 0: return wide(t) ? l->g64(g, b, n) : l->g32(g, b, n);
   case 1: return l->u(g, b, n);
   case 2: return l->ud(g, b, n);
   case 3: return l->n(g, b, n, 1.5f, 2.0f);
   case 4: return l->nd(g, b, n, 1.5, 2.0);
   case 5: return l->ln(g, b, n, 0.5f, 0.75f);
   default: return l->lnd(g, b, n, 0.5, 0.75);
   }
}

static int run(struct L *l, int t, unsigned dims, unsigned long long off, int d, size_t n1, size_t n2, char *b,
               size_t es)
{
   curandGenerator_t g;
   int s = l->create(&g, t);
   if (s)
      return s;
   if ((s = l->dims(g, dims)) || (s = l->off(g, off)) || (s = call(l, g, t, d, b, n1)) ||
       (s = call(l, g, t, d, b + n1 * es, n2)))
      return s;
   l->destroy(g);
   return 0;
}

/* |a - b| / (1 + |a|) in units of the type's epsilon (outputs near 0
 * after adding the mean are compared with their magnitude, not ulps) */
static double ulps(const void *a, const void *b, size_t es)
{
   double x, y;
   if (es == 4) {
      float fx, fy;
      memcpy(&fx, a, 4);
      memcpy(&fy, b, 4);
      x = fx, y = fy;
   } else {
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
   }
   if (x == y)
      return 0;
   return fabs(x - y) / (1 + fabs(x)) / (es == 4 ? 0x1p-23 : 0x1p-52);
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
   int fail = tables(&nv, &me, CURAND_DIRECTION_VECTORS_32_JOEKUO6, CURAND_DIRECTION_VECTORS_64_JOEKUO6, 0);
   fail |= tables(&nv, &me, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6,
                  CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6, 1);

   int types[] = { CURAND_RNG_QUASI_SOBOL32, CURAND_RNG_QUASI_SOBOL64, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32,
                    CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 };
   unsigned dimss[] = { 1, 2, 7, 100, 20000 };
   unsigned long long offs[] = { 0, 5, 1000003, 4294967293ull };
   size_t pts[][2] = { { 1000, 37 }, { 3, 300 } };
   char *a = malloc(8 * 20000 * 1100), *b = malloc(8 * 20000 * 1100);
   for (int ti = 0; ti < 4; ti++)
      for (int d = 0; d < 7; d++)
         for (int di = 0; di < 5; di++)
            for (int oi = 0; oi < 4; oi++)
               for (int pi = 0; pi < 2; pi++) {
                  unsigned dims = dimss[di];
                  size_t n1 = pts[pi][0] * dims, n2 = pts[pi][1] * dims;
                  if (dims == 20000 && (pi || oi == 2))
                     continue;
                  size_t es = d == 2 || d == 4 || d == 6 || (d == 0 && wide(types[ti])) ? 8 : 4;
                  memset(a, 0, (n1 + n2) * es);
                  memset(b, 0x55, (n1 + n2) * es);
                  int r1 = run(&nv, types[ti], dims, offs[oi], d, n1, n2, a, es),
                      r2 = run(&me, types[ti], dims, offs[oi], d, n1, n2, b, es);
                  size_t bad = 0, first = 0;
                  double worst = 0;
                  for (size_t i = 0; i < n1 + n2; i++)
                     if (memcmp(a + i * es, b + i * es, es)) {
                        if (!bad++)
                           first = i;
                        double u = ulps(a + i * es, b + i * es, es);
                        if (u > worst && getenv("SHOW")) {
                           if (es == 4)
                              printf("   [%zu] nv %.9g me %.9g\n", i, ((float *)a)[i], ((float *)b)[i]);
                           else
                              printf("   [%zu] nv %.17g me %.17g\n", i, ((double *)a)[i], ((double *)b)[i]);
                        }
                        worst = u > worst ? u : worst;
                     }
                  int exact = d < 3;
                  printf("type %d %-6s dims %-5u off %-10llu n %zu+%zu: st %d/%d  differ %zu", types[ti], dn[d], dims,
                         offs[oi], n1, n2, r1, r2, bad);
                  if (bad)
                     printf(" (first %zu, worst %.2f eps)", first, worst);
                  printf("\n");
                  if (r1 != r2 || (exact && bad) || worst > 16)
                     fail = 1;
               }
   printf("%s\n", fail ? "FAIL" : "PASS");
   return fail;
}
