/*
 * curand_mt19937.cu — cuRAND's MT19937 generator through metalcuda's
 * libcurand (the library the program links, under `metalcuda run`) against
 * NVIDIA's host generator (argv[2]: NVIDIA's libcurand.so.10, loaded beside
 * ours with dlopen's RTLD_DEEPBIND), in one run, seed 1234:
 *  - the set-up: the first call after the seed (of one value), which seeds
 *    the 8192 subsequences (8191 jumps of 2^2048 values);
 *  - curandGenerateUniform of N floats (argv[1], default 2^24), median of 3
 *    calls in a row after the first; the values must be NVIDIA's.
 * Our host generator and our device generator (the software device) against
 * NVIDIA's host generator.  Prints ROW lines (bench.h); the ratio is
 * NVIDIA's time / ours.
 */
#include "bench.h"
#include <curand.h>
#include <dlfcn.h>

typedef curandStatus_t (*create_fn)(curandGenerator_t *, curandRngType_t);
typedef curandStatus_t (*seed_fn)(curandGenerator_t, unsigned long long);
typedef curandStatus_t (*uniform_fn)(curandGenerator_t, float *, size_t);
typedef curandStatus_t (*destroy_fn)(curandGenerator_t);

struct lib {
   create_fn create;
   seed_fn seed;
   uniform_fn uniform;
   destroy_fn destroy;
};

#define ST(call) BENCH_CHECK((call) != CURAND_STATUS_SUCCESS ? cudaErrorUnknown : cudaSuccess)

/* The set-up time (into *SETUP) and the median of 3 calls of N floats into
 * OUT (the last call's, which is the stream's fourth N after its first
 * value). */
static double time_mt(const struct lib *l, float *out, size_t n, bool device, double *setup)
{
   double t[3];
   curandGenerator_t g;
   ST(l->create(&g, CURAND_RNG_PSEUDO_MT19937));
   ST(l->seed(g, 1234));
   double t0 = now_s();
   ST(l->uniform(g, out, 1));
   if (device)
      BENCH_CHECK(cudaDeviceSynchronize());
   *setup = now_s() - t0;
   for (int r = -1; r < 3; r++) {
      t0 = now_s();
      ST(l->uniform(g, out, n));
      if (device)
         BENCH_CHECK(cudaDeviceSynchronize());
      if (r >= 0)
         t[r] = now_s() - t0;
   }
   l->destroy(g);
   return median(t, 3);
}

int main(int argc, char **argv)
{
   size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)1 << 24;
   const char *nv_path = argc > 2 ? argv[2] : "/usr/local/cuda/lib64/libcurand.so.10";
   void *nv = dlopen(nv_path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
   if (!nv) {
      printf("NOTE NVIDIA's libcurand (%s) not loaded: %s; nothing measured\n", nv_path, dlerror());
      return 0;
   }
   struct lib ours = { curandCreateGeneratorHost, curandSetPseudoRandomGeneratorSeed, curandGenerateUniform,
                       curandDestroyGenerator };
   struct lib ourdev = { curandCreateGenerator, curandSetPseudoRandomGeneratorSeed, curandGenerateUniform,
                         curandDestroyGenerator };
   struct lib theirs = { (create_fn)dlsym(nv, "curandCreateGeneratorHost"),
                         (seed_fn)dlsym(nv, "curandSetPseudoRandomGeneratorSeed"),
                         (uniform_fn)dlsym(nv, "curandGenerateUniform"), (destroy_fn)dlsym(nv, "curandDestroyGenerator") };
   if (!theirs.create || !theirs.seed || !theirs.uniform || !theirs.destroy) {
      printf("NOTE NVIDIA's libcurand lacks the functions: nothing measured\n");
      return 0;
   }
   print_device();
   float *a = (float *)malloc(4 * n), *b = (float *)malloc(4 * n), *d;
   BENCH_CHECK(cudaMalloc(&d, 4 * n));
   double sn, so, sd;
   double tn = time_mt(&theirs, b, n, false, &sn);
   double to = time_mt(&ours, a, n, false, &so);
   if (memcmp(a, b, 4 * n)) {
      printf("NOTE our host generator's values differ from NVIDIA's\n");
      return 1;
   }
   double td = time_mt(&ourdev, d, n, true, &sd);
   BENCH_CHECK(cudaMemcpy(a, d, 4 * n, cudaMemcpyDeviceToHost));
   if (memcmp(a, b, 4 * n)) {
      printf("NOTE our device generator's values differ from NVIDIA's host generator's\n");
      return 1;
   }
   char name[160], val[80], ref[80];
   const char *what[] = { "host", "device" };
   double setup[] = { so, sd }, gen[] = { to, td };
   for (int k = 0; k < 2; k++) {
      snprintf(name, sizeof name, "MT19937 set-up (8192 subsequences), %s generator", what[k]);
      snprintf(val, sizeof val, "%.3f s", setup[k]);
      snprintf(ref, sizeof ref, "NVIDIA's host generator %.3f s", sn);
      row(name, val, ref, sn / setup[k], "NVIDIA's time / ours (1 = as fast)");
      snprintf(name, sizeof name, "curandGenerateUniform MT19937, %s generator, %zu floats", what[k], n);
      snprintf(val, sizeof val, "%.3f s (%.0f Mfloat/s)", gen[k], n / gen[k] / 1e6);
      snprintf(ref, sizeof ref, "NVIDIA's host generator %.3f s", tn);
      row(name, val, ref, tn / gen[k], "NVIDIA's time / ours (1 = as fast)");
   }
   cudaFree(d);
   free(a);
   free(b);
   return 0;
}
