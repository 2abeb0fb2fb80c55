/*
 * libcudacxx.cu — libcu++ (CCCL's cuda::std and cuda::) in device code:
 *   atomics   cuda::atomic_ref<int, device scope> fetch_add/fetch_max from
 *             every thread of 64 blocks, cuda::atomic<unsigned, block> in
 *             shared memory, cuda::std::atomic_ref compare_exchange loops
 *   bits      cuda::std::popcount, countl_zero, countr_zero, rotl, bit_cast,
 *             has_single_bit, bit_ceil on random words
 *   values    cuda::std::numeric_limits, cuda::std::complex<double>
 *             products, cuda::std::tuple/pair/array/optional, gcd/lcm,
 *             cuda::std::span over a thread's slice
 * Expected values are computed on the host with the C/C++ standard library
 * and plain integer code, never with libcu++.  Built by NVIDIA's nvcc it
 * uses the CCCL that CUDA 13 ships; built by metalcuda nvcc, the CCCL 3 that
 * the Makefile copies to lib/metalcuda/cccl (PyPI's cuda-cccl).
 */
#include "check.h"

#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/bit>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/numeric>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/tuple>
#include <cuda/std/utility>

#include <complex>
#include <limits>

#define BLOCKS 64
#define THREADS 128
#define N (BLOCKS * THREADS)

__global__ void k_atomics(const unsigned *in, int *sum, int *mx, unsigned *per_block, unsigned long long *cas_sum)
{
   __shared__ cuda::atomic<unsigned, cuda::thread_scope_block> local;
   if (threadIdx.x == 0)
      local.store(0, cuda::std::memory_order_relaxed);
   __syncthreads();
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned v = in[i] & 0xffffu;
   cuda::atomic_ref<int, cuda::thread_scope_device> s(*sum);
   s.fetch_add((int)v, cuda::std::memory_order_relaxed);
   cuda::atomic_ref<int, cuda::thread_scope_device> m(*mx);
   m.fetch_max((int)(in[i] >> 8), cuda::std::memory_order_relaxed);
   local.fetch_add(v & 0xffu, cuda::std::memory_order_relaxed);
   /* an add written as a compare-exchange loop */
   cuda::std::atomic_ref<unsigned long long> c(*cas_sum);
   unsigned long long old = c.load(cuda::std::memory_order_relaxed);
   while (!c.compare_exchange_weak(old, old + v * 3ull, cuda::std::memory_order_relaxed))
      ;
   __syncthreads();
   if (threadIdx.x == 0)
      per_block[blockIdx.x] = local.load(cuda::std::memory_order_relaxed);
}

#define BITS_OUT 8
__global__ void k_bits(const unsigned *in, unsigned *out)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned x = in[i];
   unsigned *o = out + (size_t)i * BITS_OUT;
   o[0] = (unsigned)cuda::std::popcount(x);
   o[1] = (unsigned)cuda::std::countl_zero(x);
   o[2] = (unsigned)cuda::std::countr_zero(x);
   o[3] = cuda::std::rotl(x, (int)(i % 37u));
   o[4] = cuda::std::bit_cast<unsigned>(cuda::std::bit_cast<float>(x) == cuda::std::bit_cast<float>(x) ? 1.0f : 2.0f);
   o[5] = cuda::std::has_single_bit(x >> 20) ? 1u : 0u;
   o[6] = cuda::std::bit_ceil(x >> 20);
   o[7] = (unsigned)cuda::std::countl_zero((unsigned long long)x << 7);
}

struct values_out {
   double re, im;
   int imax, imin;
   float feps, fmin;
   double dinf;
   unsigned tup, opt, gcdlcm, spansum, arrsum;
};

__global__ void k_values(const unsigned *in, values_out *out)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned x = in[i];
   cuda::std::complex<double> a((double)(x & 0xffff) / 64.0, (double)(x >> 16) / -32.0);
   cuda::std::complex<double> b(1.5, (double)(i % 11u) - 5.0);
   cuda::std::complex<double> p = a * b + cuda::std::conj(b);
   values_out &o = out[i];
   o.re = p.real();
   o.im = p.imag();
   o.imax = cuda::std::numeric_limits<int>::max();
   o.imin = cuda::std::numeric_limits<int>::lowest();
   o.feps = cuda::std::numeric_limits<float>::epsilon();
   o.fmin = cuda::std::numeric_limits<float>::denorm_min();
   o.dinf = cuda::std::numeric_limits<double>::infinity();
   cuda::std::tuple<unsigned, unsigned char, short> t(x, (unsigned char)x, (short)(x >> 3));
   cuda::std::pair<unsigned, unsigned> pr = cuda::std::make_pair(cuda::std::get<1>(t), (unsigned)cuda::std::get<2>(t));
   o.tup = cuda::std::get<0>(t) ^ (pr.first + pr.second);
   cuda::std::optional<unsigned> opt;
   if (x & 1u)
      opt = x >> 1;
   o.opt = opt.value_or(7u);
   o.gcdlcm = cuda::std::gcd(x % 1000u + 1u, 360u) + cuda::std::lcm(x % 12u + 1u, 8u);
   cuda::std::array<unsigned, 4> arr = { x, x >> 8, x >> 16, x >> 24 };
   cuda::std::span<const unsigned> sp(in + (i & ~3u), 4);
   unsigned s = 0, as = 0;
   for (unsigned v : sp)
      s += v;
   for (unsigned v : arr)
      as += v & 0xffu;
   o.spansum = s;
   o.arrsum = as;
}

static unsigned ref_popc(unsigned x) { unsigned n = 0; for (; x; x &= x - 1) n++; return n; }
static unsigned ref_clz32(unsigned x) { unsigned n = 0; for (unsigned b = 1u << 31; b && !(x & b); b >>= 1) n++; return n; }
static unsigned ref_clz64(unsigned long long x) { unsigned n = 0; for (unsigned long long b = 1ull << 63; b && !(x & b); b >>= 1) n++; return n; }
static unsigned ref_ctz(unsigned x) { unsigned n = 0; if (!x) return 32; while (!(x & 1u)) { x >>= 1; n++; } return n; }
static unsigned ref_rotl(unsigned x, unsigned r) { r %= 32u; return r ? (x << r) | (x >> (32u - r)) : x; }
static unsigned ref_bit_ceil(unsigned x) { unsigned p = 1; while (p < x) p <<= 1; return p; }
static unsigned ref_gcd(unsigned a, unsigned b) { while (b) { unsigned t = a % b; a = b; b = t; } return a; }

int main(void)
{
   check_begin("libcudacxx");
   unsigned *h = (unsigned *)malloc(N * 4);
   for (unsigned i = 0; i < N; i++)
      h[i] = mix32(i * 2654435761u + 17u);
   h[0] = 0;
   h[1] = 0xffffffffu;
   h[2] = 0x80000000u;
   h[3] = 1;
   unsigned *din;
   CHECK_CUDA(cudaMalloc(&din, N * 4));
   CHECK_CUDA(cudaMemcpy(din, h, N * 4, cudaMemcpyHostToDevice));

   /* atomics */
   {
      int *dsum, *dmax;
      unsigned *dblk;
      unsigned long long *dcas;
      CHECK_CUDA(cudaMalloc(&dsum, 4));
      CHECK_CUDA(cudaMalloc(&dmax, 4));
      CHECK_CUDA(cudaMalloc(&dblk, BLOCKS * 4));
      CHECK_CUDA(cudaMalloc(&dcas, 8));
      CHECK_CUDA(cudaMemset(dsum, 0, 4));
      CHECK_CUDA(cudaMemset(dmax, 0, 4));
      CHECK_CUDA(cudaMemset(dcas, 0, 8));
      k_atomics<<<BLOCKS, THREADS>>>(din, dsum, dmax, dblk, dcas);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      int sum, mx;
      unsigned blk[BLOCKS], want_blk[BLOCKS] = { 0 };
      unsigned long long cas, want_cas = 0;
      long long want_sum = 0;
      int want_max = 0;
      for (unsigned i = 0; i < N; i++) {
         unsigned v = h[i] & 0xffffu;
         want_sum += v;
         if ((int)(h[i] >> 8) > want_max)
            want_max = (int)(h[i] >> 8);
         want_blk[i / THREADS] += v & 0xffu;
         want_cas += v * 3ull;
      }
      CHECK_CUDA(cudaMemcpy(&sum, dsum, 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(&mx, dmax, 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(blk, dblk, sizeof(blk), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(&cas, dcas, 8, cudaMemcpyDeviceToHost));
      CHECK_INT(sum, (int)want_sum);
      CHECK_INT(mx, want_max);
      CHECK_ARRAY_U32("cuda::atomic<unsigned, block> in shared memory, per block", blk, want_blk, BLOCKS);
      CHECK_INT(cas, want_cas);
      cudaFree(dsum);
      cudaFree(dmax);
      cudaFree(dblk);
      cudaFree(dcas);
   }

   /* bits */
   {
      unsigned *dout, *got = (unsigned *)malloc((size_t)N * BITS_OUT * 4), *want = (unsigned *)malloc((size_t)N * BITS_OUT * 4);
      dout = (unsigned *)dev_alloc_fill32((size_t)N * BITS_OUT);
      k_bits<<<BLOCKS, THREADS>>>(din, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaMemcpy(got, dout, (size_t)N * BITS_OUT * 4, cudaMemcpyDeviceToHost));
      for (unsigned i = 0; i < N; i++) {
         unsigned x = h[i], *w = want + (size_t)i * BITS_OUT, hi = x >> 20;
         w[0] = ref_popc(x);
         w[1] = ref_clz32(x);
         w[2] = ref_ctz(x);
         w[3] = ref_rotl(x, i % 37u);
         float f;
         memcpy(&f, &x, 4);
         float r = (f == f) ? 1.0f : 2.0f;
         memcpy(&w[4], &r, 4);
         w[5] = hi && !(hi & (hi - 1)) ? 1u : 0u;
         w[6] = ref_bit_ceil(hi);
         w[7] = ref_clz64((unsigned long long)x << 7);
      }
      CHECK_ARRAY_U32("cuda::std <bit> functions", got, want, (size_t)N * BITS_OUT);
      cudaFree(dout);
      free(got);
      free(want);
   }

   /* values */
   {
      values_out *dout, *got = (values_out *)malloc(N * sizeof(values_out));
      CHECK_CUDA(cudaMalloc(&dout, N * sizeof(values_out)));
      CHECK_CUDA(cudaMemset(dout, 0xa5, N * sizeof(values_out)));
      k_values<<<BLOCKS, THREADS>>>(din, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaMemcpy(got, dout, N * sizeof(values_out), cudaMemcpyDeviceToHost));
      unsigned bad = 0;
      for (unsigned i = 0; i < N && bad < 8; i++) {
         unsigned x = h[i];
         /* (a.re + i a.im)(b.re + i b.im) + conj(b), each part one product
          * pair and sums: exact in double for these small operands */
         std::complex<double> a((double)(x & 0xffff) / 64.0, (double)(x >> 16) / -32.0);
         std::complex<double> b(1.5, (double)(i % 11u) - 5.0);
         double re = a.real() * b.real() - a.imag() * b.imag() + b.real();
         double im = a.real() * b.imag() + a.imag() * b.real() - b.imag();
         unsigned tup = x ^ ((unsigned)(unsigned char)x + (unsigned)(short)(x >> 3));
         unsigned opt = (x & 1u) ? x >> 1 : 7u;
         unsigned g = ref_gcd(x % 1000u + 1u, 360u), m = x % 12u + 1u;
         unsigned gcdlcm = g + m * 8u / ref_gcd(m, 8u);
         unsigned base = i & ~3u, ss = h[base] + h[base + 1] + h[base + 2] + h[base + 3];
         unsigned as = (x & 0xffu) + ((x >> 8) & 0xffu) + ((x >> 16) & 0xffu) + (x >> 24);
         const values_out &o = got[i];
         bool ok = o.re == re && o.im == im && o.imax == std::numeric_limits<int>::max() &&
                   o.imin == std::numeric_limits<int>::lowest() && o.feps == std::numeric_limits<float>::epsilon() &&
                   o.fmin == std::numeric_limits<float>::denorm_min() &&
                   o.dinf == std::numeric_limits<double>::infinity() && o.tup == tup && o.opt == opt &&
                   o.gcdlcm == gcdlcm && o.spansum == ss && o.arrsum == as;
         if (!ok) {
            bad++;
            printf("    element %u: complex (%.17g, %.17g) want (%.17g, %.17g); tuple %#x/%#x optional %#x/%#x "
                   "gcd+lcm %u/%u span %#x/%#x array %u/%u limits %d %d %g %g %g\n",
                   i, o.re, o.im, re, im, o.tup, tup, o.opt, opt, o.gcdlcm, gcdlcm, o.spansum, ss, o.arrsum, as,
                   o.imax, o.imin, (double)o.feps, (double)o.fmin, o.dinf);
         }
      }
      CHECK_INT(bad, 0);
      cudaFree(dout);
      free(got);
   }
   cudaFree(din);
   free(h);
   return check_end();
}
