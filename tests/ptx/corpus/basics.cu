// Corpus for the PTX front end: shared memory, atomics of every width,
// block-wide votes, printf, assert, trap, device functions and globals.
#include <cassert>
#include <cstdio>

__device__ int g_counter;
__device__ unsigned long long g_ull;
__device__ float g_table[2][3] = {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}};
__device__ int *g_ptr = &g_counter;
__constant__ double c_coeffs[4] = {0.5, -1.25, 3e-300, 1e300};
__managed__ int m_flag;

struct Pair { int a; double b; };

__device__ __noinline__ int helper(int x, Pair p) { return x * p.a + (int)p.b; }

__global__ void atomics(int *out, float *fout, double *dout, unsigned *uout, int n)
{
   __shared__ int s[128];
   extern __shared__ double dyn[];
   int t = threadIdx.x;
   s[t % 128] = t;
   dyn[t] = t * 0.5;
   __syncthreads();
   atomicAdd(&out[0], s[(t + 1) % 128]);
   atomicSub(&out[1], 1);
   atomicMin(&out[2], t);
   atomicMax(&out[3], -t);
   atomicAnd(&out[4], ~t);
   atomicOr(&out[5], t);
   atomicXor(&out[6], t);
   atomicExch(&out[7], t);
   atomicCAS(&out[8], t, t + 1);
   atomicInc(&uout[0], 17u);
   atomicDec(&uout[1], 17u);
   atomicAdd(&fout[0], 1.5f);
   atomicAdd(&dout[0], dyn[t]);
   atomicAdd(&g_ull, 1ull);
   atomicMax((unsigned long long *)&g_ull, (unsigned long long)t);
   atomicAdd_block(&out[9], 1);
   atomicAdd_system(&out[10], 1);
   int c = __syncthreads_count(t & 1);
   int a = __syncthreads_and(t < n);
   int o = __syncthreads_or(t == 3);
   __threadfence();
   __threadfence_block();
   __threadfence_system();
   if (t == 0)
      printf("c=%d a=%d o=%d %f %lld %s %c\n", c, a, o, c_coeffs[t & 3], (long long)g_ull,
             "str", 'x');
   assert(n >= 0);
   if (n == 12345)
      __trap();
   Pair p = {t, 2.5};
   out[11 + t % 4] = helper(t, p) + (int)g_table[t & 1][t % 3] + *g_ptr + m_flag;
}

#if __CUDA_ARCH__ >= 900
#define BOUNDS __launch_bounds__(128, 4, 2)
#else
#define BOUNDS __launch_bounds__(128, 4)
#endif
__global__ void BOUNDS bounded(float *x) { x[threadIdx.x] *= 2.f; }

__global__ void locals(int *out, int k)
{
   int arr[32];
   for (int i = 0; i < 32; i++)
      arr[i] = i * k;
   out[threadIdx.x] = arr[(threadIdx.x * 7 + k) & 31];
   long long t0 = clock64();
   __nanosleep(100);
   out[0] += (int)(clock64() - t0) + clock();
}
