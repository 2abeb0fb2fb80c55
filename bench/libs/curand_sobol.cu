/*
 * curand_sobol.cu — curandGenerateUniform of the Sobol32 and scrambled
 * Sobol32 generators through libcurand (the software device) against a
 * plain host C loop of the same sequence on the same cores, in one run
 * (bench/curand.sh).
 *
 * The host loop is the Gray-code recurrence (Antonov and Saleev): point
 * i + 1 of a dimension is point i xor the direction vector of the lowest
 * zero bit of i, xor-shifted by the scramble constant for the scrambled
 * form, each word converted to a float as cuRAND does; as many threads as
 * cores, each taking a share of the dimensions.  It uses the library's
 * direction vectors and constants (curandGetDirectionVectors32,
 * curandGetScrambleConstants32), so it is the floor of what generation
 * costs.  Device: curandGenerateUniform of N floats in D dimensions plus a
 * synchronisation, median of 5 after a warm-up, the position reset by an
 * offset of 0 before each call; the device's floats are checked against
 * the host loop's (they must be equal).
 */
#include <curand.h>
#include <string.h>
#include <thread>
#include <unistd.h>
#include <vector>
#include "../bench.h"

struct sobol_job {
   const curandDirectionVectors32_t *v;
   const unsigned *c;   /* NULL: not scrambled */
   float *out;
   size_t points;
   unsigned d0, d1;
};

/* Dimensions [d0, d1) of the first POINTS points, dimension-major. */
static void host_sobol(sobol_job j)
{
   for (unsigned d = j.d0; d < j.d1; d++) {
      unsigned x = j.c ? j.c[d] : 0;
      float *o = j.out + (size_t)d * j.points;
      for (size_t i = 0; i < j.points; i++) {
         o[i] = x * 0x1p-32f + 0x1p-33f;
         x ^= j.v[d][__builtin_ctz(~(unsigned)i)];
      }
   }
}

int main(int argc, char **argv)
{
   size_t n = argc > 1 ? (size_t)atol(argv[1]) : (size_t)1 << 24;
   const unsigned dims = 64;
   n -= n % dims;
   int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
   print_device();
   float *d;
   std::vector<float> h(n), back(n);
   BENCH_CHECK(cudaMalloc(&d, n * sizeof(float)));
   struct {
      const char *name;
      curandRngType_t type;
      curandDirectionVectorSet_t set;
   } gens[] = { { "Sobol32", CURAND_RNG_QUASI_SOBOL32, CURAND_DIRECTION_VECTORS_32_JOEKUO6 },
                { "scrambled Sobol32", CURAND_RNG_QUASI_SCRAMBLED_SOBOL32,
                  CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 } };
   for (auto &g : gens) {
      curandGenerator_t gen;
      curandDirectionVectors32_t *v;
      unsigned *c = NULL;
      bool scrambled = g.type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32;
      if (curandCreateGenerator(&gen, g.type) != CURAND_STATUS_SUCCESS ||
          curandSetQuasiRandomGeneratorDimensions(gen, dims) != CURAND_STATUS_SUCCESS ||
          curandGetDirectionVectors32(&v, g.set) != CURAND_STATUS_SUCCESS ||
          (scrambled && curandGetScrambleConstants32(&c) != CURAND_STATUS_SUCCESS)) {
         printf("NOTE %s: the generator or its tables are not available\n", g.name);
         return 1;
      }
      double td = timed_median(5, [&] {
         curandSetGeneratorOffset(gen, 0);
         curandGenerateUniform(gen, d, n);
         BENCH_CHECK(cudaDeviceSynchronize());
      });
      BENCH_CHECK(cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
      curandDestroyGenerator(gen);
      double th = timed_median(5, [&] {
         std::vector<std::thread> ts;
         unsigned per = (dims + cores - 1) / cores;
         for (int t = 0; t < cores; t++) {
            unsigned d0 = t * per, d1 = d0 + per < dims ? d0 + per : dims;
            if (d0 < d1)
               ts.emplace_back(host_sobol, sobol_job{ v, c, h.data(), n / dims, d0, d1 });
         }
         for (auto &t : ts)
            t.join();
         clobber(h.data());
      });
      /* a fast wrong answer must not win */
      if (memcmp(back.data(), h.data(), n * sizeof(float))) {
         printf("NOTE %s: the device's floats differ from the host loop's\n", g.name);
         return 1;
      }
      char name[96], val[64], ref[64];
      snprintf(name, sizeof name, "curandGenerateUniform %s %u dims %zu floats", g.name, dims, n);
      snprintf(val, sizeof val, "%.1f Mfloat/s", n / td / 1e6);
      snprintf(ref, sizeof ref, "host loop %d threads %.1f Mfloat/s", cores, n / th / 1e6);
      row(name, val, ref, th / td, "host time / device time (1 = as fast as the plain loop)");
   }
   cudaFree(d);
   return 0;
}
