/*
 * curand_device.cu — cuRAND's device API (curand_kernel.h): XORWOW,
 * MRG32k3a and Philox4_32_10 states initialised by curand_init on six
 * (seed, subsequence, offset) patterns of 32 threads each, from seed 0 and
 * the largest seed, subsequences up to 2^64 - 1 (below 2^55 for MRG32k3a:
 * NVIDIA's subsequence table has 56 entries, and those for bits 51 to 55
 * zero the state, which pattern 4 shows) and offsets up to 2^64 - 1, then:
 *
 *   mode 0  64 curand() words
 *   mode 1  64 curand_uniform()
 *   mode 2  32 curand_uniform_double()
 *   mode 3  words and uniforms around skipahead (a different n each thread),
 *           skipahead_sequence (and MRG32k3a's skipahead_subsequence)
 *   mode 4  Philox only: curand4, curand_uniform4, curand_uniform2_double,
 *           curand_uniform4_double after 0 to 3 single words
 *
 * The states are made by one kernel and used by another (they go through
 * global memory as the program's type), and each thread hashes its outputs
 * and its final state's generator fields (FNV-1a).  Expected: per
 * generator, pattern and mode, the hash of the 32 threads' hashes and the
 * first two outputs of threads 0 and 31, from an H200 running this program
 * built by NVIDIA's nvcc against NVIDIA's header
 * (`curand_device --dump > tests/cuda/curand_device_expected.h`); the
 * sizes and field offsets of the three states are NVIDIA's.  Built by
 * metalcuda's nvcc the header is include/curand_kernel.h, which must give
 * the same bits.
 */
#include "check.h"

#include <curand_kernel.h>
#include <stddef.h>

#if __has_include("curand_device_expected.h")
#include "curand_device_expected.h"
#define HAVE_EXPECTED 1
#else
#define HAVE_EXPECTED 0
#endif

#define NT 32    /* threads per pattern */
#define NCFG 6
#define NMODE 5

struct cfg {
   unsigned long long seed, sub0, sub_step, off0, off_step;
};

static const cfg cfgs[NCFG] = {
   { 1234ull, 0ull, 1ull, 0ull, 0ull },
   { 0ull, 0ull, 1ull, 0ull, 1ull },
   { 0x0123456789abcdefull, 5ull, 1000003ull, 7ull, 1ull },
   { 42ull, 1ull << 40, 0x10001ull, 1000003ull, 999ull },
   { 0xffffffffffffffffull, 0xffffffffffffffe0ull, 1ull, 0xffffffffffffff00ull, 3ull },
   { 7ull, (1ull << 50) + 3, (1ull << 45) + 1, 1ull << 35, (1ull << 32) + 17 },
};

__device__ __forceinline__ unsigned long long fnv(unsigned long long h, unsigned long long x)
{
   for (int i = 0; i < 8; i++) {
      h ^= (x >> (8 * i)) & 0xffu;
      h *= 0x100000001b3ull;
   }
   return h;
}

struct sink {
   unsigned long long h;
   unsigned long long *raw;
   int n;
   __device__ void put(unsigned long long x)
   {
      h = fnv(h, x);
      if (n < 2)
         raw[n] = x;
      n++;
   }
   __device__ void putf(float f) { put(__float_as_uint(f)); }
   __device__ void putd(double d) { put((unsigned long long)__double_as_longlong(d)); }
};

/* the generator's own fields (no Box-Muller cache, no padding) */
__device__ unsigned long long state_hash(unsigned long long h, const curandStateXORWOW_t *s)
{
   h = fnv(h, s->d);
   for (int i = 0; i < 5; i++)
      h = fnv(h, s->v[i]);
   return h;
}
__device__ unsigned long long state_hash(unsigned long long h, const curandStateMRG32k3a_t *s)
{
   for (int i = 0; i < 3; i++)
      h = fnv(fnv(h, s->s1[i]), s->s2[i]);
   return h;
}
__device__ unsigned long long state_hash(unsigned long long h, const curandStatePhilox4_32_10_t *s)
{
   h = fnv(fnv(fnv(fnv(h, s->ctr.x), s->ctr.y), s->ctr.z), s->ctr.w);
   h = fnv(fnv(fnv(fnv(h, s->output.x), s->output.y), s->output.z), s->output.w);
   return fnv(fnv(fnv(h, s->key.x), s->key.y), s->STATE);
}

template <class S> __global__ void init_kernel(S *states, cfg c)
{
   int t = threadIdx.x;
   curand_init(c.seed, c.sub0 + t * c.sub_step, c.off0 + t * c.off_step, &states[t]);
}

/* one copy of each generator function per kernel (not one per call site):
 * NVIDIA's MRG32k3a code is double arithmetic, slow to compile where fp64
 * is emulated */
template <class S> __device__ __noinline__ unsigned int W(S *s) { return curand(s); }
template <class S> __device__ __noinline__ float U(S *s) { return curand_uniform(s); }
template <class S> __device__ __noinline__ double D(S *s) { return curand_uniform_double(s); }
template <class S> __device__ __noinline__ void J(S *s, unsigned long long n) { skipahead(n, s); }

__device__ void seq_jumps(curandStateXORWOW_t *s, int t, sink &o)
{
   skipahead_sequence((unsigned long long)t + 1, s);
   o.put(curand(s));
}
__device__ void seq_jumps(curandStatePhilox4_32_10_t *s, int t, sink &o)
{
   skipahead_sequence(0xfffffffffffffff0ull + (unsigned long long)t, s);
   o.put(curand(s));
}
__device__ void seq_jumps(curandStateMRG32k3a_t *s, int t, sink &o)
{
   skipahead_subsequence((unsigned long long)t * 977 + 1, s);
   o.put(W(s));
   skipahead_sequence((unsigned long long)t + 1, s);
   o.put(W(s));
}

__device__ void mode4(curandStateXORWOW_t *, int, sink &) {}
__device__ void mode4(curandStateMRG32k3a_t *, int, sink &) {}
__device__ void mode4(curandStatePhilox4_32_10_t *s, int t, sink &o)
{
   for (int i = 0; i < t % 4; i++)
      o.put(curand(s));
   for (int i = 0; i < 3; i++) {
      uint4 w = curand4(s);
      o.put(w.x), o.put(w.y), o.put(w.z), o.put(w.w);
      float4 f = curand_uniform4(s);
      o.putf(f.x), o.putf(f.y), o.putf(f.z), o.putf(f.w);
      double2 d = curand_uniform2_double(s);
      o.putd(d.x), o.putd(d.y);
      auto e = curand_uniform4_double(s);
      o.putd(e.x), o.putd(e.y), o.putd(e.z), o.putd(e.w);
      o.put(curand(s));
   }
}

template <class S> __global__ void use_kernel(S *states, int mode, unsigned long long *hash, unsigned long long *raw)
{
   int t = threadIdx.x;
   S s = states[t];
   sink o = { 0xcbf29ce484222325ull, raw + 2 * t, 0 };
   switch (mode) {
   case 0:
      for (int i = 0; i < 64; i++)
         o.put(W(&s));
      break;
   case 1:
      for (int i = 0; i < 64; i++)
         o.putf(U(&s));
      break;
   case 2:
      for (int i = 0; i < 32; i++)
         o.putd(D(&s));
      break;
   case 3: {
      unsigned long long k = (unsigned long long)t * t * 12345 + ((unsigned long long)t << 33) + (unsigned long long)t;
      o.put(W(&s));
      o.putf(U(&s));
      J(&s, k);
      o.put(W(&s));
      o.putd(D(&s));
      J(&s, (unsigned long long)t);
      o.put(W(&s));
      seq_jumps(&s, t, o);
      for (int i = 0; i < 4; i++)
         o.put(W(&s));
      break;
   }
   case 4:
      mode4(&s, t, o);
      break;
   }
   hash[t] = state_hash(o.h, &s);
   states[t] = s;
}

struct result {
   unsigned long long hash, raw[4];
};

static unsigned long long host_fnv(unsigned long long h, unsigned long long x)
{
   for (int i = 0; i < 8; i++) {
      h ^= (x >> (8 * i)) & 0xffu;
      h *= 0x100000001b3ull;
   }
   return h;
}

template <class S> static void run_gen(result out[NCFG][NMODE], int gen)
{
   S *states = NULL, *fresh = NULL;
   unsigned long long *hash = NULL, *raw = NULL;
   CHECK_CUDA(cudaMalloc(&states, sizeof(S) * NT));
   CHECK_CUDA(cudaMalloc(&fresh, sizeof(S) * NT));
   CHECK_CUDA(cudaMalloc(&hash, 8 * NT));
   CHECK_CUDA(cudaMalloc(&raw, 16 * NT));
   for (int c = 0; c < NCFG; c++) {
      cfg cc = cfgs[c];
      if (gen == 1) { /* MRG32k3a: subsequences below 2^56 */
         cc.sub0 &= (1ull << 55) - 1;
         cc.sub_step &= (1ull << 40) - 1;
      }
      init_kernel<S><<<1, NT>>>(fresh, cc);
      CHECK_CUDA(cudaGetLastError());
      for (int m = 0; m < NMODE; m++) {
         CHECK_CUDA(cudaMemcpy(states, fresh, sizeof(S) * NT, cudaMemcpyDeviceToDevice));
         CHECK_CUDA(cudaMemset(raw, 0, 16 * NT));
         use_kernel<S><<<1, NT>>>(states, m, hash, raw);
         CHECK_CUDA(cudaGetLastError());
         unsigned long long h[NT], r[2 * NT];
         CHECK_CUDA(cudaMemcpy(h, hash, sizeof(h), cudaMemcpyDeviceToHost));
         CHECK_CUDA(cudaMemcpy(r, raw, sizeof(r), cudaMemcpyDeviceToHost));
         unsigned long long all = 0xcbf29ce484222325ull;
         for (int t = 0; t < NT; t++)
            all = host_fnv(all, h[t]);
         result *o = &out[c][m];
         o->hash = all;
         o->raw[0] = r[0];
         o->raw[1] = r[1];
         o->raw[2] = r[2 * (NT - 1)];
         o->raw[3] = r[2 * (NT - 1) + 1];
      }
   }
   cudaFree(states);
   cudaFree(fresh);
   cudaFree(hash);
   cudaFree(raw);
}

static const char *gen_name[3] = { "XORWOW", "MRG32k3a", "Philox4_32_10" };

int main(int argc, char **argv)
{
   check_begin("curand_device");
   bool dump = argc > 1 && strcmp(argv[1], "--dump") == 0;

   /* NVIDIA's layouts: a program allocates sizeof(state) * n */
   CHECK_INT(sizeof(curandState_t), 48);
   CHECK_INT(sizeof(curandStateMRG32k3a_t), 48);
   CHECK_INT(sizeof(curandStatePhilox4_32_10_t), 64);
   CHECK_INT(alignof(curandStatePhilox4_32_10_t), 16);
   CHECK_INT(offsetof(curandStateXORWOW_t, boxmuller_flag), 24);
   CHECK_INT(offsetof(curandStateXORWOW_t, boxmuller_extra_double), 40);
   CHECK_INT(offsetof(curandStateMRG32k3a_t, s2), 12);
   CHECK_INT(offsetof(curandStateMRG32k3a_t, boxmuller_extra_double), 40);
   CHECK_INT(offsetof(curandStatePhilox4_32_10_t, output), 16);
   CHECK_INT(offsetof(curandStatePhilox4_32_10_t, key), 32);
   CHECK_INT(offsetof(curandStatePhilox4_32_10_t, STATE), 40);
   CHECK_INT(offsetof(curandStatePhilox4_32_10_t, boxmuller_extra_double), 56);

   static result got[3][NCFG][NMODE];
   run_gen<curandStateXORWOW_t>(got[0], 0);
   run_gen<curandStateMRG32k3a_t>(got[1], 1);
   run_gen<curandStatePhilox4_32_10_t>(got[2], 2);

   if (dump) {
      printf("/* curand_device_expected.h — written by `curand_device --dump` on an NVIDIA GPU\n"
             " * (NVIDIA's nvcc and curand_kernel.h): [generator][pattern][mode] = the hash\n"
             " * of the threads' hashes, the first two outputs of threads 0 and %d. */\n", NT - 1);
      printf("static const struct { unsigned long long hash, raw[4]; } cd_expected[3][%d][%d] = {\n", NCFG, NMODE);
      for (int g = 0; g < 3; g++) {
         printf("  { /* %s */\n", gen_name[g]);
         for (int c = 0; c < NCFG; c++) {
            printf("    {\n");
            for (int m = 0; m < NMODE; m++) {
               result *r = &got[g][c][m];
               printf("      { 0x%016llxull, { 0x%llxull, 0x%llxull, 0x%llxull, 0x%llxull } },\n", r->hash, r->raw[0],
                      r->raw[1], r->raw[2], r->raw[3]);
            }
            printf("    },\n");
         }
         printf("  },\n");
      }
      printf("};\n");
      return check_end();
   }
#if HAVE_EXPECTED
   for (int g = 0; g < 3; g++)
      for (int c = 0; c < NCFG; c++)
         for (int m = 0; m < NMODE; m++) {
            result *r = &got[g][c][m];
            bool ok = r->hash == cd_expected[g][c][m].hash;
            for (int i = 0; i < 4; i++)
               ok = ok && r->raw[i] == cd_expected[g][c][m].raw[i];
            if (!CHECK(ok))
               printf("   %s pattern %d mode %d: hash %016llx raw %llx %llx %llx %llx, expected %016llx raw %llx %llx "
                      "%llx %llx\n",
                      gen_name[g], c, m, r->hash, r->raw[0], r->raw[1], r->raw[2], r->raw[3], cd_expected[g][c][m].hash,
                      cd_expected[g][c][m].raw[0], cd_expected[g][c][m].raw[1], cd_expected[g][c][m].raw[2],
                      cd_expected[g][c][m].raw[3]);
         }
#else
   CHECK(!"curand_device_expected.h is missing (write it with --dump on an NVIDIA GPU)");
#endif
   return check_end();
}
