/*
 * curand_device.cu — cuRAND's device API in a Monte-Carlo kernel, against
 * the same per-thread generator loop in C on the host's cores, in one run.
 *
 * Kernel: 4096 threads, each with its own curandState (XORWOW) or
 * curandStatePhilox4_32_10_t made by curand_init(1234, thread, 0), draws
 * S pairs of curand_uniform and counts those inside the quarter circle
 * (pi/4 of them).  Reference: the host's threads (as many as cores) run the
 * same generator's recurrence and the same count for the same number of
 * threads' worth of pairs (XORWOW of Marsaglia 2003, Philox4x32-10 of
 * Salmon et al. 2011, written here; no jumps, so the floor of the cost).
 * Launch + synchronise, median of 5 after a warm-up, the two alternated.
 * A third row prices curand_init(seed, thread, 0) (XORWOW: jumps of 2^67
 * per subsequence through matrix tables) in generated values: one init's
 * time over one value's time in the kernel.  A fast wrong answer must not
 * win: both estimates of pi are checked (within 5e-3, about 9 standard errors).
 *
 * A fourth row: curand_normal (XORWOW, 2 S values a thread, the second of
 * each Box-Muller pair from the state's cache), each thread summing z^2,
 * against the host loop of the same generator and float Box-Muller
 * (sqrtf(-2 logf u) times sinf and cosf of 2 pi v, both values used); both
 * means of z^2 are checked (within 5e-3 of 1, about 14 standard errors).
 *
 * Built by NVIDIA's nvcc (NVIDIA's curand_kernel.h, through `metalcuda
 * run`) or by `metalcuda nvcc` (metalcuda's include/curand_kernel.h):
 * bench/curand_device.sh runs both.
 */
#include <curand_kernel.h>
#include <math.h>
#include <thread>
#include <unistd.h>
#include <vector>
#include "bench.h"
#include "host_rng.h"

#ifdef __METALCUDA__
#define HEADER "metalcuda nvcc, metalcuda's curand_kernel.h"
#else
#define HEADER "NVIDIA's nvcc and curand_kernel.h"
#endif
#define NTHREADS 4096
#define BLOCK 128

template <class S> __global__ void init_states(S *st)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   curand_init(1234ull, (unsigned long long)t, 0ull, &st[t]);
}

template <class S> __global__ void pi_kernel(S *st, int pairs, unsigned int *hits)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   S s = st[t];
   unsigned int in = 0;
   for (int i = 0; i < pairs; i++) {
      float x = curand_uniform(&s), y = curand_uniform(&s);
      in += x * x + y * y <= 1.0f;
   }
   st[t] = s;
   hits[t] = in;
}

/* 2 PAIRS normals, the sum of their squares */
template <class S> __global__ void normal_kernel(S *st, int pairs, float *sumsq)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   S s = st[t];
   float acc = 0.f;
   for (int i = 0; i < 2 * pairs; i++) {
      float z = curand_normal(&s);
      acc += z * z;
   }
   st[t] = s;
   sumsq[t] = acc;
}

static inline float to_uniform(unsigned x)
{
   return x * 2.3283064e-10f + 1.1641532e-10f;
}

/* one thread's worth of XORWOW pairs (a state of its own) */
static unsigned host_xorwow(unsigned seed, int pairs)
{
   unsigned v[5] = { 123456789u ^ seed, 362436069u, 521288629u, 88675123u, 5783321u + seed }, d = 6615241u, in = 0;
   for (int i = 0; i < 2 * pairs; i += 2) {
      float u[2];
      for (int j = 0; j < 2; j++)
         u[j] = to_uniform(host_xorwow_next(v, &d));
      in += u[0] * u[0] + u[1] * u[1] <= 1.0f;
   }
   return in;
}

/* the same in a host loop: XORWOW words, float Box-Muller, both values */
static float host_xorwow_normal(unsigned seed, int pairs)
{
   unsigned v[5] = { 123456789u ^ seed, 362436069u, 521288629u, 88675123u, 5783321u + seed }, d = 6615241u;
   float acc = 0.f;
   for (int i = 0; i < pairs; i++) {
      float u = to_uniform(host_xorwow_next(v, &d));
      float w = to_uniform(host_xorwow_next(v, &d)) * 6.2831855f;
      float r = sqrtf(-2.0f * logf(u)), a = r * sinf(w), b = r * cosf(w);
      acc += a * a + b * b;
   }
   return acc;
}

static unsigned host_philox(unsigned seed, int pairs)
{
   unsigned in = 0;
   for (int i = 0; i < 2 * pairs; i += 4) {
      unsigned c[4] = { (unsigned)(i / 4), 0, seed, 0 };
      host_philox10(c, 1234, 0);
      float u[4];
      for (int j = 0; j < 4; j++)
         u[j] = to_uniform(c[j]);
      in += (u[0] * u[0] + u[1] * u[1] <= 1.0f) + (i + 2 < 2 * pairs && u[2] * u[2] + u[3] * u[3] <= 1.0f);
   }
   return in;
}

/* the share of the host's threads: SHARE(t) summed over t = c, c + cores ... on core c */
template <class T, class F> static T on_cores(int cores, F share)
{
   std::vector<std::thread> ts;
   std::vector<T> part(cores);
   for (int c = 0; c < cores; c++)
      ts.emplace_back([&, c] {
         T acc = 0;
         for (int t = c; t < NTHREADS; t += cores)
            acc += share(t);
         part[c] = acc;
      });
   for (auto &t : ts)
      t.join();
   T tot = 0;
   for (T p : part)
      tot += p;
   return tot;
}

/* the sum of the threads' NTHREADS results */
template <class T> static double device_sum(const T *dev)
{
   std::vector<T> back(NTHREADS);
   BENCH_CHECK(cudaMemcpy(back.data(), dev, sizeof(T) * NTHREADS, cudaMemcpyDeviceToHost));
   double tot = 0;
   for (T h : back)
      tot += h;
   return tot;
}

/* DEVICE (a launch) and HOST (the loop and its check) alternated five
 * times: their median times */
template <class D, class H> static void alternate(D device, H host, double *td, double *th)
{
   double tds[5], ths[5];
   for (int r = 0; r < 5; r++) {
      double t0 = now_s();
      device();
      BENCH_CHECK(cudaDeviceSynchronize());
      tds[r] = now_s() - t0;
      t0 = now_s();
      host();
      ths[r] = now_s() - t0;
   }
   *td = median(tds, 5);
   *th = median(ths, 5);
}

template <class S>
static void bench_gen(const char *gname, unsigned (*host)(unsigned, int), int pairs, int cores)
{
   S *st;
   unsigned int *hits;
   BENCH_CHECK(cudaMalloc(&st, sizeof(S) * NTHREADS));
   BENCH_CHECK(cudaMalloc(&hits, sizeof(unsigned) * NTHREADS));
   init_states<S><<<NTHREADS / BLOCK, BLOCK>>>(st); /* warm-up: translation */
   pi_kernel<S><<<NTHREADS / BLOCK, BLOCK>>>(st, 1, hits);
   BENCH_CHECK(cudaDeviceSynchronize());
   double ti = timed_median(5, [&] {
      init_states<S><<<NTHREADS / BLOCK, BLOCK>>>(st);
      BENCH_CHECK(cudaDeviceSynchronize());
   });
   volatile unsigned sink = 0;
   double td = 0, th = 0;
   alternate([&] { pi_kernel<S><<<NTHREADS / BLOCK, BLOCK>>>(st, pairs, hits); },
             [&] {
                unsigned tot = on_cores<unsigned>(cores, [&](int t) { return host(1234u + t, pairs); });
                sink = sink + tot;
                double pih = 4.0 * tot / ((double)NTHREADS * pairs);
                if (fabs(pih - M_PI) > 5e-3) {
                   printf("NOTE host estimate of pi %g is off\n", pih);
                   exit(1);
                }
             },
             &td, &th);
   double pid = 4.0 * device_sum(hits) / ((double)NTHREADS * pairs);
   if (fabs(pid - M_PI) > 5e-3) {
      printf("NOTE %s: device estimate of pi %g is off\n", gname, pid);
      exit(1);
   }
   double n = 2.0 * NTHREADS * pairs;
   char name[128], val[64], ref[64];
   snprintf(name, sizeof name, "Monte-Carlo pi, curand_uniform %s, %d threads x %d pairs (%s)", gname, NTHREADS, pairs,
            HEADER);
   snprintf(val, sizeof val, "%.1f Mfloat/s", n / td / 1e6);
   snprintf(ref, sizeof ref, "host loop %d threads %.1f Mfloat/s", cores, n / th / 1e6);
   row(name, val, ref, th / td, "host time / device time (1 = as fast as the plain loop)");
   snprintf(name, sizeof name, "curand_init(1234, thread, 0) %s, %d states (%s)", gname, NTHREADS, HEADER);
   snprintf(val, sizeof val, "%.2f us per state", ti / NTHREADS * 1e6);
   snprintf(ref, sizeof ref, "%.2f ns per value generated", td / n * 1e9);
   row(name, val, ref, (ti / NTHREADS) / (td / n), "one init's time in generated values (lower is better)");
   cudaFree(st);
   cudaFree(hits);
}

static void bench_normal(int pairs, int cores)
{
   curandStateXORWOW_t *st;
   float *sumsq;
   BENCH_CHECK(cudaMalloc(&st, sizeof *st * NTHREADS));
   BENCH_CHECK(cudaMalloc(&sumsq, sizeof(float) * NTHREADS));
   init_states<<<NTHREADS / BLOCK, BLOCK>>>(st);
   normal_kernel<<<NTHREADS / BLOCK, BLOCK>>>(st, 1, sumsq); /* warm-up: translation */
   BENCH_CHECK(cudaDeviceSynchronize());
   double td, th, n = 2.0 * NTHREADS * pairs;
   alternate([&] { normal_kernel<<<NTHREADS / BLOCK, BLOCK>>>(st, pairs, sumsq); },
             [&] {
                double tot =
                   on_cores<double>(cores, [&](int t) { return (double)host_xorwow_normal(1234u + t, pairs); });
                if (fabs(tot / n - 1.0) > 5e-3) {
                   printf("NOTE host mean of z^2 %g is off\n", tot / n);
                   exit(1);
                }
             },
             &td, &th);
   double tot = device_sum(sumsq);
   if (fabs(tot / n - 1.0) > 5e-3) {
      printf("NOTE device mean of z^2 %g is off\n", tot / n);
      exit(1);
   }
   char name[128], val[64], ref[64];
   snprintf(name, sizeof name, "Monte-Carlo E[z^2], curand_normal XORWOW, %d threads x %d values (%s)", NTHREADS,
            2 * pairs, HEADER);
   snprintf(val, sizeof val, "%.1f Mfloat/s", n / td / 1e6);
   snprintf(ref, sizeof ref, "host Box-Muller loop %d threads %.1f Mfloat/s", cores, n / th / 1e6);
   row(name, val, ref, th / td, "host time / device time (1 = as fast as the plain loop)");
   cudaFree(st);
   cudaFree(sumsq);
}

int main(int argc, char **argv)
{
   int pairs = argc > 1 ? atoi(argv[1]) : 2048;
   int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
   print_device();
   bench_gen<curandStateXORWOW_t>("XORWOW", host_xorwow, pairs, cores);
   bench_gen<curandStatePhilox4_32_10_t>("Philox4_32_10", host_philox, pairs, cores);
   bench_normal(pairs, cores);
   return 0;
}
