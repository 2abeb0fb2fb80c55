/*
 * curand_mt19937_probe.c — what NVIDIA's host generator does with
 * CURAND_RNG_PSEUDO_MT19937 (cuRAND 10.4.0 of CUDA 13.0), checked against a
 * plain MT19937 of Matsumoto and Nishimura (ACM TOMACS 8, 1998: init_genrand
 * seeding, the twist, the tempering; written here from the paper).  It
 * prints the statuses of the options and what it found; see
 * src/libs/curand/README.md (MT19937) for the conclusions.  About 30 s:
 * each first generation after a seed costs NVIDIA's host generator ~4.5 s
 * (its 8192 subsequences are set up then).
 *    cc -O2 -I/usr/local/cuda/include tests/libs/native/curand_mt19937_probe.c \
 *       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 && ./a.out
 *
 * Found (2026-12-04):
 *  - the seed's low 32 bits seed subsequence 0 by init_genrand (seeds
 *    0x100000000 and 0 give the same sequence, 0x100000005 and 5 too);
 *  - curandSetGeneratorOffset answers CURAND_STATUS_TYPE_ERROR (MT19937 has
 *    no offset) and changes nothing (no restart: the next call continues);
 *    curandSetQuasiRandomGeneratorDimensions and curandGenerateLongLong
 *    the same status;
 *  - curandGenerateNormal of an odd count (3) succeeds (one output per
 *    word: curand_mt19937_model.c);
 *  - orderings: DEFAULT and LEGACY accepted, BEST, SEEDED and DYNAMIC
 *    CURAND_STATUS_OUT_OF_RANGE;
 *  - layout: output n comes from subsequence (n / 8) mod 8192, element
 *    8 (n / 65536) + n mod 8 of it, and subsequence 0's elements are the
 *    plain MT19937 outputs of the seed in a fixed order within each block
 *    of 624 (78 rounds of 8): round 0 of a block takes outputs 0, 113, 170,
 *    283, 340, 397, 510, 567 of the block; the other 616 outputs, in
 *    order, fill rounds 1..77 in groups of 7 rounds x 8 lanes, lane-major
 *    (group j, lane t, round 1 + 7 j + r: the (56 j + 7 t + r)-th of them);
 *  - every subsequence is a plain MT19937 stream in that block order (the
 *    recurrence holds on its untempered outputs); subsequence g is the
 *    seed's sequence g 2^2048 values on (tools/mt19937_subseq_search.py,
 *    on `./a.out --dump FILE`, finds the distance).
 */
#include <curand.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
   uint32_t x[624];
   int i;
} mt;

static void mt_seed(mt *m, uint32_t s)
{
   m->x[0] = s;
   for (int i = 1; i < 624; i++)
      m->x[i] = 1812433253u * (m->x[i - 1] ^ (m->x[i - 1] >> 30)) + (uint32_t)i;
   m->i = 624;
}

static uint32_t mt_next(mt *m)
{
   if (m->i >= 624) {
      for (int i = 0; i < 624; i++) {
         uint32_t y = (m->x[i] & 0x80000000u) | (m->x[(i + 1) % 624] & 0x7fffffffu);
         m->x[i] = m->x[(i + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
      }
      m->i = 0;
   }
   uint32_t y = m->x[m->i++];
   y ^= y >> 11;
   y ^= (y << 7) & 0x9d2c5680u;
   y ^= (y << 15) & 0xefc60000u;
   return y ^ (y >> 18);
}

/* where element E of a subsequence sits among its plain outputs */
static unsigned long long element_of(unsigned long long e)
{
   static const unsigned first[8] = { 0, 113, 170, 283, 340, 397, 510, 567 };
   unsigned long long blk = e / 624, r = e % 624 / 8, t = e % 8;
   if (r == 0)
      return 624 * blk + first[t];
   unsigned q = (unsigned)(56 * ((r - 1) / 7) + 7 * t + (r - 1) % 7);   /* q-th non-first output */
   unsigned k = q;
   for (int j = 0; j < 8 && first[j] <= k; j++)
      k++;
   return 624 * blk + k;
}

int main(int argc, char **argv)
{
   curandGenerator_t g;
   /* --dump FILE: subsequences 0, 1, 2, 3 and 8191's first 1248 elements
    * (seed 1234), a line each, for tools/mt19937_subseq_search.py */
   if (argc == 3 && !strcmp(argv[1], "--dump")) {
      size_t n = 156 * 65536;
      unsigned *d = malloc(n * 4);
      FILE *f = fopen(argv[2], "w");
      if (!d || !f)
         return 1;
      curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937);
      curandSetPseudoRandomGeneratorSeed(g, 1234);
      curandGenerate(g, d, n);
      const unsigned subs[] = { 0, 1, 2, 3, 8191 };
      for (int s = 0; s < 5; s++) {
         for (size_t e = 0; e < 1248; e++)
            fprintf(f, "%u ", d[e / 8 * 65536 + 8 * subs[s] + e % 8]);
         fprintf(f, "\n");
      }
      fclose(f);
      free(d);
      return 0;
   }
   printf("create host %d\n", (int)curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937));
   for (int o = CURAND_ORDERING_PSEUDO_BEST; o <= CURAND_ORDERING_PSEUDO_DYNAMIC; o++)
      printf("ordering %d -> %d\n", o, (int)curandSetGeneratorOrdering(g, (curandOrdering_t)o));
   printf("ordering QUASI_DEFAULT -> %d\n", (int)curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT));
   printf("seed -> %d\n", (int)curandSetPseudoRandomGeneratorSeed(g, 1234));
   printf("offset -> %d\n", (int)curandSetGeneratorOffset(g, 1000));
   printf("dimensions -> %d\n", (int)curandSetQuasiRandomGeneratorDimensions(g, 2));

   /* subsequence 0 of seed 1234 (the offset above was refused) */
   size_t rounds = 160, n = rounds * 65536;
   unsigned *o = malloc(n * 4);
   if (!o)
      return 1;
   printf("generate -> %d\n", (int)curandGenerate(g, o, n));
   mt m;
   mt_seed(&m, 1234);
   uint32_t plain[3 * 624];   /* the 160 rounds reach into the third block */
   for (int i = 0; i < 3 * 624; i++)
      plain[i] = mt_next(&m);
   int bad = 0;
   for (size_t r = 0; r < rounds; r++)
      for (unsigned t = 0; t < 8; t++)
         bad += o[r * 65536 + t] != plain[element_of(8 * r + t)];
   printf("subsequence 0 = init_genrand(1234)'s outputs in the block order: %s\n", bad ? "NO" : "yes");
   curandDestroyGenerator(g);

   /* seeds: the low 32 bits */
   unsigned long long seeds[] = { 0, 0x100000000ull, 5, 0x100000005ull, 0xffffffffffffffffull };
   for (int i = 0; i < 5; i++) {
      unsigned b[1];
      curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937);
      curandSetPseudoRandomGeneratorSeed(g, seeds[i]);
      curandGenerate(g, b, 1);
      curandDestroyGenerator(g);
      mt_seed(&m, (uint32_t)seeds[i]);
      printf("seed %#llx: first %08x, init_genrand(low 32 bits) %08x\n", seeds[i], b[0], mt_next(&m));
   }
   /* statuses of the generation calls (on a generator of their own: they
    * advance it) */
   float f[3];
   curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937);
   printf("normal of 3 -> %d\n", (int)curandGenerateNormal(g, f, 3, 0, 1));
   printf("long long -> %d\n", (int)curandGenerateLongLong(g, (unsigned long long *)f, 1));
   curandDestroyGenerator(g);
   free(o);
   return 0;
}
