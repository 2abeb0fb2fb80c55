/*
 * bigshared.cu — shared memory beyond Metal's 32 KB of threadgroup memory
 * (issue 17).  CUDA gives a block 48 KB, and more with the opt-in
 * (cudaFuncAttributeMaxDynamicSharedMemorySize up to
 * sharedMemPerBlockOptin); metalcuda runs such a block with its shared
 * memory in a slice of device memory of its own.  Every kernel here runs
 * 24 or more blocks at once, so slices that overlapped would mix blocks'
 * data.
 *
 *   - 40 KB of static shared memory (two arrays), written by every thread,
 *     read back across the block after __syncthreads (reversed and
 *     strided), and used by shared atomics: a 32-bit histogram, 64-bit
 *     adds (the lock table), float adds of subnormals (shared memory keeps
 *     them, global memory's atom.add.f32 would flush them), and atomics
 *     and stores through a generic pointer in a __noinline__ function;
 *   - dynamic shared memory of exactly 48 KB (the default maximum) and of
 *     the device's opt-in maximum (after cudaFuncSetAttribute): every word
 *     written and checked by another thread after a barrier, a block
 *     reduction over all of it;
 *   - a launch over the opt-in maximum still fails (cudaErrorInvalidValue).
 *
 * Expected values come from a host reference.
 */
#include "check.h"

#define BLOCKS 24
#define THREADS 256
#define NS (8 * 1024)   /* 32 KB of unsigned */
#define NH 2048         /* 8 KB */

__device__ __noinline__ void through_generic(unsigned *p, unsigned long long *q, unsigned v)
{
   atomicAdd(p, v);            /* generic addresses of shared memory */
   atomicAdd(q, (unsigned long long)v << 32);
}

__global__ void k_static(const unsigned *in, unsigned *out, unsigned long long *out64, float *outf)
{
   __shared__ unsigned s[NS];
   __shared__ unsigned h[NH];
   __shared__ unsigned long long acc64;
   __shared__ float accf;
   unsigned t = threadIdx.x, b = blockIdx.x;
   const unsigned *src = in + (size_t)b * NS;
   for (unsigned i = t; i < NS; i += blockDim.x)
      s[i] = src[i] ^ (b * 0x9e3779b9u);
   for (unsigned i = t; i < NH; i += blockDim.x)
      h[i] = 0;
   if (t == 0) {
      acc64 = 0;
      accf = 0.0f;
   }
   __syncthreads();
   unsigned *dst = out + (size_t)b * NS;
   for (unsigned i = t; i < NS; i += blockDim.x) {
      unsigned v = s[NS - 1 - i] + s[(i * 7919u) % NS];
      dst[i] = v;
      atomicAdd(&h[v % NH], 1u);
      atomicAdd(&acc64, (unsigned long long)v);
   }
   atomicAdd(&accf, 1e-40f);   /* a subnormal: kept in shared memory */
   through_generic(&h[t], &acc64, 1u);
   __syncthreads();
   unsigned *hout = out + (size_t)BLOCKS * NS + (size_t)b * NH;
   for (unsigned i = t; i < NH; i += blockDim.x)
      hout[i] = h[i];
   if (t == 0) {
      out64[b] = acc64;
      outf[b] = accf;
   }
}

/* Every word of the dynamic shared memory: written by one thread, read by
 * another after the barrier; the block's sum of what it read. */
__global__ void k_dyn(unsigned words, unsigned *bad, unsigned long long *sums)
{
   extern __shared__ unsigned d[];
   __shared__ unsigned long long sum[2];   /* 16 bytes: the dynamic part starts right after */
   unsigned t = threadIdx.x, b = blockIdx.x;
   if (t == 0)
      sum[0] = 0;
   for (unsigned i = t; i < words; i += blockDim.x)
      d[i] = i * 2654435761u + b;
   __syncthreads();
   unsigned n = 0;
   unsigned long long local = 0;
   for (unsigned i = t; i < words; i += blockDim.x) {
      unsigned j = words - 1 - i;
      unsigned v = d[j];
      n += v != j * 2654435761u + b;
      local += v;
   }
   atomicAdd(&sum[0], local);
   atomicAdd(&bad[b], n);
   __syncthreads();
   if (t == 0)
      sums[b] = sum[0];
}

static void check_static(void)
{
   size_t n = (size_t)BLOCKS * NS, nout = n + (size_t)BLOCKS * NH;
   unsigned *in = (unsigned *)malloc(n * 4), *got = (unsigned *)malloc(nout * 4), *want = (unsigned *)malloc(nout * 4);
   for (size_t i = 0; i < n; i++)
      in[i] = mix32((uint32_t)i);
   unsigned long long want64[BLOCKS], got64[BLOCKS];
   float gotf[BLOCKS];
   memset(want + n, 0, (size_t)BLOCKS * NH * 4);
   for (unsigned b = 0; b < BLOCKS; b++) {
      const unsigned *src = in + (size_t)b * NS;
      unsigned *hw = want + n + (size_t)b * NH;
      want64[b] = 0;
      for (unsigned i = 0; i < NS; i++) {
         unsigned v = (src[NS - 1 - i] ^ (b * 0x9e3779b9u)) + (src[(i * 7919u) % NS] ^ (b * 0x9e3779b9u));
         want[(size_t)b * NS + i] = v;
         hw[v % NH]++;
         want64[b] += v;
      }
      for (unsigned t = 0; t < THREADS; t++)
         hw[t]++;
      want64[b] += (unsigned long long)THREADS << 32;
   }
   unsigned *d_in, *d_out;
   unsigned long long *d64;
   float *df;
   CHECK_CUDA(cudaMalloc(&d_in, n * 4));
   CHECK_CUDA(cudaMalloc(&d_out, nout * 4));
   CHECK_CUDA(cudaMalloc(&d64, sizeof(got64)));
   CHECK_CUDA(cudaMalloc(&df, sizeof(gotf)));
   CHECK_CUDA(cudaMemcpy(d_in, in, n * 4, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemset(d_out, 0xde, nout * 4));
   cudaFuncAttributes a;
   CHECK_CUDA(cudaFuncGetAttributes(&a, k_static));
   /* The static size is the declarations as the compiler laid them out,
    * which CUDA leaves to the compiler: nvcc's order puts 4 bytes of
    * padding before acc64 (ptxas reports 40976 on the H200); clang orders
    * them so that none arises (40972; metalcuda's nvcc is clang, and
    * defines __NVCC__ as well). */
#if defined(__NVCC__) && !defined(__clang__)
   CHECK_INT(a.sharedSizeBytes, (NS + NH) * 4 + 8 + 4 + 4);   /* acc64, accf, padding */
#else
   CHECK(a.sharedSizeBytes >= (NS + NH) * 4 + 8 + 4 && a.sharedSizeBytes <= (NS + NH) * 4 + 8 + 4 + 4);
#endif
   k_static<<<BLOCKS, THREADS>>>(d_in, d_out, d64, df);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, nout * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(got64, d64, sizeof(got64), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(gotf, df, sizeof(gotf), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("40 KB static: values read across the block", got, want, n);
   CHECK_ARRAY_U32("40 KB static: shared histograms", got + n, want + n, (size_t)BLOCKS * NH);
   CHECK_ARRAY_U64("40 KB static: 64-bit shared atomics", (uint64_t *)got64, (uint64_t *)want64, BLOCKS);
   float wantf[BLOCKS];
   for (int b = 0; b < BLOCKS; b++) {
      wantf[b] = 0.0f;
      for (int t = 0; t < THREADS; t++)
         wantf[b] += 1e-40f;   /* exact: small multiples of a subnormal */
   }
   CHECK_ARRAY_F32("40 KB static: float shared atomics keep subnormals", gotf, wantf, BLOCKS);
   cudaFree(d_in);
   cudaFree(d_out);
   cudaFree(d64);
   cudaFree(df);
   free(in);
   free(got);
   free(want);
}

static void run_dyn(size_t bytes, const char *what)
{
   unsigned words = (unsigned)(bytes / 4);
   unsigned *bad;
   unsigned long long *sums, got[BLOCKS], want[BLOCKS];
   unsigned gotbad[BLOCKS], zero[BLOCKS] = { 0 };
   CHECK_CUDA(cudaMalloc(&bad, sizeof(gotbad)));
   CHECK_CUDA(cudaMalloc(&sums, sizeof(got)));
   CHECK_CUDA(cudaMemset(bad, 0, sizeof(gotbad)));
   CHECK_CUDA(cudaMemset(sums, 0xde, sizeof(got)));
   k_dyn<<<BLOCKS, THREADS, words * 4>>>(words, bad, sums);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(gotbad, bad, sizeof(gotbad), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(got, sums, sizeof(got), cudaMemcpyDeviceToHost));
   for (unsigned b = 0; b < BLOCKS; b++) {
      want[b] = 0;
      for (unsigned i = 0; i < words; i++)
         want[b] += (unsigned)(i * 2654435761u + b);
   }
   printf("  %s: %u bytes of dynamic shared memory\n", what, words * 4);
   CHECK_ARRAY_U32(what, gotbad, zero, BLOCKS);
   CHECK_ARRAY_U64(what, (uint64_t *)got, (uint64_t *)want, BLOCKS);
   cudaFree(bad);
   cudaFree(sums);
}

int main(void)
{
   check_begin("bigshared");
   cudaDeviceProp p;
   CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
   CHECK_INT(p.sharedMemPerBlock, 49152);
   CHECK(p.sharedMemPerBlockOptin >= p.sharedMemPerBlock);
   check_static();
   cudaFuncAttributes a;
   CHECK_CUDA(cudaFuncGetAttributes(&a, k_dyn));
   size_t stat = a.sharedSizeBytes;
   CHECK_INT(a.maxDynamicSharedSizeBytes, 49152 - stat);
   CHECK_INT(stat, 16);
   run_dyn(49152 - stat, "dynamic, 48 KB in all");
   size_t optin = p.sharedMemPerBlockOptin - stat;
   CHECK_CUDA(cudaFuncSetAttribute(k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)optin));
   run_dyn(optin, "dynamic, the opt-in maximum");
   k_dyn<<<1, 32, optin + 16>>>(1, NULL, NULL);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   return check_end();
}
