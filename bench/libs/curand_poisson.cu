/*
 * curand_poisson.cu — curandGeneratePoisson of N values (argv[1], default
 * 2^22) through metalcuda's libcurand (the library the program links, under
 * `metalcuda run`) against NVIDIA's host generator (argv[2]: NVIDIA's
 * libcurand.so.10, loaded beside ours with dlopen's RTLD_DEEPBIND), in one
 * run, median of 5 calls in a row on one generator after a warm-up call:
 *  - host generators, ours and NVIDIA's: XORWOW at lambda 5 (the square
 *    histogram) and 3000 (the normal approximation), MTGP32 at 100
 *    (inversion); their values must be identical;
 *  - our device generator (the software device), XORWOW at lambda 5 and
 *    3000, against NVIDIA's host generator (its values must be the host's).
 * Prints ROW lines (bench.h); the ratio is NVIDIA's time / ours.
 */
#include "bench.h"
#include <curand.h>
#include <dlfcn.h>

typedef curandStatus_t (*create_fn)(curandGenerator_t *, curandRngType_t);
typedef curandStatus_t (*seed_fn)(curandGenerator_t, unsigned long long);
typedef curandStatus_t (*poisson_fn)(curandGenerator_t, unsigned int *, size_t, double);
typedef curandStatus_t (*destroy_fn)(curandGenerator_t);

struct lib {
   create_fn create;
   seed_fn seed;
   poisson_fn poisson;
   destroy_fn destroy;
};

/* Median time of 5 calls of N values into OUT on one generator of TYPE
 * (seed 1234), after a warm-up call (the states' restart, the histogram);
 * OUT holds the last call's values. */
static double time_poisson(const struct lib *l, curandRngType_t type, unsigned *out, size_t n, double lambda,
                           bool device)
{
   double t[5];
   curandGenerator_t g;
   BENCH_CHECK(l->create(&g, type) != CURAND_STATUS_SUCCESS ? cudaErrorUnknown : cudaSuccess);
   BENCH_CHECK(l->seed(g, 1234) != CURAND_STATUS_SUCCESS ? cudaErrorUnknown : cudaSuccess);
   for (int r = -1; r < 5; r++) {
      double t0 = now_s();
      BENCH_CHECK(l->poisson(g, out, n, lambda) != CURAND_STATUS_SUCCESS ? cudaErrorUnknown : cudaSuccess);
      if (device)
         BENCH_CHECK(cudaDeviceSynchronize());
      if (r >= 0)
         t[r] = now_s() - t0;
   }
   l->destroy(g);
   return median(t, 5);
}

int main(int argc, char **argv)
{
   size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)1 << 22;
   const char *nv_path = argc > 2 ? argv[2] : "/usr/local/cuda/lib64/libcurand.so.10";
   void *nv = dlopen(nv_path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
   if (!nv) {
      printf("NOTE NVIDIA's libcurand (%s) not loaded: %s; nothing measured\n", nv_path, dlerror());
      return 0;
   }
   struct lib ours = { curandCreateGeneratorHost, curandSetPseudoRandomGeneratorSeed, curandGeneratePoisson,
                       curandDestroyGenerator };
   struct lib ourdev = { curandCreateGenerator, curandSetPseudoRandomGeneratorSeed, curandGeneratePoisson,
                         curandDestroyGenerator };
   struct lib theirs = { (create_fn)dlsym(nv, "curandCreateGeneratorHost"),
                         (seed_fn)dlsym(nv, "curandSetPseudoRandomGeneratorSeed"),
                         (poisson_fn)dlsym(nv, "curandGeneratePoisson"), (destroy_fn)dlsym(nv, "curandDestroyGenerator") };
   if (!theirs.create || !theirs.seed || !theirs.poisson || !theirs.destroy) {
      printf("NOTE NVIDIA's libcurand lacks the functions: nothing measured\n");
      return 0;
   }
   print_device();
   unsigned *a = (unsigned *)malloc(4 * n), *b = (unsigned *)malloc(4 * n), *d;
   BENCH_CHECK(cudaMalloc(&d, 4 * n));
   struct {
      curandRngType_t type;
      const char *tname;
      double lambda;
   } cases[] = { { CURAND_RNG_PSEUDO_XORWOW, "XORWOW", 5 },
                 { CURAND_RNG_PSEUDO_XORWOW, "XORWOW", 3000 },
                 { CURAND_RNG_PSEUDO_MTGP32, "MTGP32", 100 } };
   char name[160], val[80], ref[80];
   for (auto &c : cases) {
      double tn = time_poisson(&theirs, c.type, b, n, c.lambda, false);
      double to = time_poisson(&ours, c.type, a, n, c.lambda, false);
      if (memcmp(a, b, 4 * n)) {
         printf("NOTE %s lambda %g: our host generator's values differ from NVIDIA's\n", c.tname, c.lambda);
         return 1;
      }
      snprintf(name, sizeof name, "curandGeneratePoisson host generator, %s, lambda %g, %zu values", c.tname,
               c.lambda, n);
      snprintf(val, sizeof val, "%.3f s (%.0f Mvalue/s)", to, n / to / 1e6);
      snprintf(ref, sizeof ref, "NVIDIA's host generator %.3f s", tn);
      row(name, val, ref, tn / to, "NVIDIA's time / ours (1 = as fast)");
      if (c.type != CURAND_RNG_PSEUDO_XORWOW)
         continue;
      double td = time_poisson(&ourdev, c.type, d, n, c.lambda, true);
      BENCH_CHECK(cudaMemcpy(a, d, 4 * n, cudaMemcpyDeviceToHost));
      if (memcmp(a, b, 4 * n)) {
         printf("NOTE %s lambda %g: our device generator's values differ from NVIDIA's host generator's\n", c.tname,
                c.lambda);
         return 1;
      }
      snprintf(name, sizeof name, "curandGeneratePoisson device generator, %s, lambda %g, %zu values", c.tname,
               c.lambda, n);
      snprintf(val, sizeof val, "%.3f s (%.0f Mvalue/s)", td, n / td / 1e6);
      row(name, val, ref, tn / td, "NVIDIA's host generator's time / our device generator's");
   }
   cudaFree(d);
   free(a);
   free(b);
   return 0;
}
