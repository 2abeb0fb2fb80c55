/*
 * curand.cu — curandGenerateUniform through libcurand (the software device)
 * against a plain host C loop of the same generator on the same cores, in
 * one run (bench/curand.sh), for XORWOW, Philox4_32_10, MRG32k3a and MTGP32.
 *
 * The host loops are the generators' textbook recurrences written here
 * (xorwow of Marsaglia 2003, Philox4x32-10 of Salmon et al. 2011,
 * MRG32k3a of L'Ecuyer 1999, MTGP32 of Saito and Matsumoto 2013 on the
 * parameter sets of the CUDA toolkit's curand_mtgp32dc_p_11213.h, which
 * NVIDIA's nvcc finds; a thread a set), as many threads as cores (the software
 * device's worker pool), each running its own streams and converting each
 * 32-bit word to a float in (0, 1] as cuRAND does; they do not jump between
 * subsequences, so they are the floor of what generation costs.  Device:
 * curandGenerateUniform of N floats plus a synchronisation, median of 5
 * after a warm-up (which restarts the generator's subsequences).
 */
#include <curand.h>
#include <math.h>
#include <string.h>
#include <thread>
#include <unistd.h>
#include <vector>
#include "../bench.h"
#include "../host_rng.h"
#include <curand_mtgp32dc_p_11213.h>

static float to_uniform(unsigned x)
{
   return x * 2.3283064e-10f + 1.1641532e-10f;
}

static void host_xorwow(float *out, size_t n, unsigned seed)
{
   unsigned v[5] = { 123456789u ^ seed, 362436069u, 521288629u, 88675123u, 5783321u + seed }, d = 6615241u;
   for (size_t i = 0; i < n; i++) {
      out[i] = to_uniform(host_xorwow_next(v, &d));
   }
}

static void host_philox(float *out, size_t n, unsigned seed)
{
   for (size_t i = 0; i < n; i += 4) {
      unsigned c[4] = { (unsigned)(i / 4), 0, seed, 0 };
      host_philox10(c, 1234, 0);
      for (int j = 0; j < 4 && i + j < n; j++)
         out[i + j] = to_uniform(c[j]);
   }
}

static void host_mrg(float *out, size_t n, unsigned seed)
{
   const unsigned long long m1 = 4294967087ull, m2 = 4294944443ull;
   unsigned long long s1[3] = { 12345, 12345, 12345 + seed }, s2[3] = { 12345, 12345, 12345 };
   for (size_t i = 0; i < n; i++) {
      unsigned long long p1 = (1403580ull * s1[1] + (m1 - 810728ull) * s1[0] % m1) % m1;
      s1[0] = s1[1], s1[1] = s1[2], s1[2] = p1;
      unsigned long long p2 = (527612ull * s2[2] + (m2 - 1370589ull) * s2[0] % m2) % m2;
      s2[0] = s2[1], s2[1] = s2[2], s2[2] = p2;
      unsigned long long z = p1 > p2 ? p1 - p2 : p1 - p2 + m1;
      out[i] = (float)(z * 2.3283065498378288e-10);
   }
}

/* MTGP32 on parameter set SEED mod 200, seeded as MTGP seeds (the state
 * filled with a byte of the hidden seed, then the multiplicative recurrence) */
static void host_mtgp(float *out, size_t n, unsigned seed)
{
   const mtgp32_params_fast_t *k = &mtgp32dc_params_fast_11213[seed % 200];
   static thread_local unsigned s[1024];
   unsigned hidden = k->tbl[4] ^ (k->tbl[8] << 16), h = hidden + (hidden >> 16);
   h += h >> 8;
   memset(s, h & 0xff, 351 * 4);
   s[0] = seed + 1;
   s[1] = hidden;
   for (unsigned i = 1; i < 351; i++)
      s[i] ^= 1812433253u * (s[i - 1] ^ (s[i - 1] >> 30)) + i;
   const unsigned pos = k->pos, sh1 = k->sh1, sh2 = k->sh2, mask = k->mask;
   for (size_t i = 0; i < n; i++) {
      unsigned j = (unsigned)i & 1023;
      unsigned x = (s[j] & mask) ^ s[(j + 1) & 1023];
      x ^= x << sh1;
      unsigned y = x ^ (s[(j + pos) & 1023] >> sh2);
      y ^= k->tbl[y & 15];
      s[(j + 351) & 1023] = y;
      unsigned t = s[(j + pos - 1) & 1023];
      t ^= t >> 16;
      t ^= t >> 8;
      out[i] = to_uniform(y ^ k->tmp_tbl[t & 15]);
   }
}

int main(int argc, char **argv)
{
   size_t n = argc > 1 ? (size_t)atol(argv[1]) : (size_t)1 << 24;
   int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
   print_device();
   float *d;
   std::vector<float> h(n), back(n);
   BENCH_CHECK(cudaMalloc(&d, n * sizeof(float)));
   struct {
      const char *name;
      curandRngType_t type;
      void (*host)(float *, size_t, unsigned);
   } gens[] = { { "XORWOW", CURAND_RNG_PSEUDO_XORWOW, host_xorwow },
                { "Philox4_32_10", CURAND_RNG_PSEUDO_PHILOX4_32_10, host_philox },
                { "MRG32k3a", CURAND_RNG_PSEUDO_MRG32K3A, host_mrg },
                { "MTGP32", CURAND_RNG_PSEUDO_MTGP32, host_mtgp } };
   for (auto &g : gens) {
      curandGenerator_t gen;
      if (curandCreateGenerator(&gen, g.type) != CURAND_STATUS_SUCCESS) {
         printf("NOTE curandCreateGenerator(%s) failed\n", g.name);
         return 1;
      }
      double td = timed_median(5, [&] {
         curandGenerateUniform(gen, d, n);
         BENCH_CHECK(cudaDeviceSynchronize());
      });
      BENCH_CHECK(cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
      curandDestroyGenerator(gen);
      double th = timed_median(5, [&] {
         std::vector<std::thread> ts;
         size_t per = (n / cores + 3) & ~(size_t)3;
         for (int c = 0; c < cores; c++) {
            size_t b = c * per, e = b + per < n ? b + per : n;
            if (b < e)
               ts.emplace_back(g.host, h.data() + b, e - b, (unsigned)c);
         }
         for (auto &t : ts)
            t.join();
         clobber(h.data());
      });
      /* a fast wrong answer must not win: the device's floats are uniform */
      double mean = 0;
      for (size_t i = 0; i < n; i++)
         mean += back[i];
      mean /= n;
      if (fabs(mean - 0.5) > 0.01) {
         printf("NOTE %s: device mean %g, not uniform\n", g.name, mean);
         return 1;
      }
      char name[96], val[64], ref[64];
      snprintf(name, sizeof name, "curandGenerateUniform %s %zu floats", g.name, n);
      snprintf(val, sizeof val, "%.1f Mfloat/s", n / td / 1e6);
      snprintf(ref, sizeof ref, "host loop %d threads %.1f Mfloat/s", cores, n / th / 1e6);
      row(name, val, ref, th / td, "host time / device time (1 = as fast as the plain loop)");
   }
   cudaFree(d);
   return 0;
}
