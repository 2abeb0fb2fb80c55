/*
 * aligned_malloc.cu — __nv_aligned_device_malloc (issue 17): blocks of the
 * device heap at a requested alignment.
 *
 *   - 32 blocks of 64 threads, each asking for 1 to 3000 bytes at an
 *     alignment of 16 to 8192 bytes (its own), four rounds: no NULL, every
 *     pointer a multiple of its alignment, the bytes a thread wrote are
 *     still its own after a barrier (no two live blocks overlap), freed
 *     with free();
 *   - one thread: large alignments (64 KB to 4 MB) and large sizes, every
 *     pointer aligned, its first and last byte writable; kept together, then
 *     freed;
 *   - alignments that are not powers of 2 (3, 24, 1000) give NULL, as
 *     CUDA's programming guide says; so does a size larger than the heap;
 *   - plain malloc and aligned blocks freed in any order, then the heap
 *     still gives a 16 MB block (nothing was lost).
 *
 * Expected values come from CUDA's documented contract (host checks of
 * the addresses and contents), not from a device run.
 */
#include "check.h"

#define BLOCKS 32
#define THREADS 64

__global__ void k_rounds(unsigned *bad, unsigned *nulls)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   for (unsigned round = 0; round < 4; round++) {
      size_t align = (size_t)16 << ((t + round) % 10);
      unsigned n = 1 + (t * 37 + round * 101) % 3000;
      unsigned char *p = (unsigned char *)__nv_aligned_device_malloc(n, align);
      if (!p) {
         atomicAdd(nulls, 1u);
         __syncthreads();
         continue;
      }
      for (unsigned k = 0; k < n; k++)
         p[k] = (unsigned char)(t * 3 + k);
      __syncthreads();   /* every thread of the block has filled its block */
      unsigned wrong = ((unsigned long long)p & (align - 1)) != 0;
      for (unsigned k = 0; k < n; k++)
         wrong += p[k] != (unsigned char)(t * 3 + k);
      atomicAdd(bad, wrong);
      free(p);
   }
}

#define NLARGE 6
__global__ void k_large(unsigned long long *out)
{
   const size_t align[NLARGE] = { 65536, 131072, 1 << 20, 4 << 20, 32768, 262144 };
   const size_t size[NLARGE] = { 100, 70000, 3 << 20, 1 << 20, 40000, 300000 };
   char *p[NLARGE];
   for (int k = 0; k < NLARGE; k++) {
      p[k] = (char *)__nv_aligned_device_malloc(size[k], align[k]);
      out[k] = (unsigned long long)p[k];
      if (p[k]) {
         p[k][0] = (char)k;
         p[k][size[k] - 1] = (char)(k + 1);
      }
   }
   unsigned long long sum = 0;
   for (int k = 0; k < NLARGE; k++)
      if (p[k])
         sum += p[k][0] + p[k][size[k] - 1];
   out[NLARGE] = sum;
   for (int k = 0; k < NLARGE; k++)
      free(p[k]);
}

__global__ void k_refused(unsigned long long *out, size_t too_big)
{
   out[0] = (unsigned long long)__nv_aligned_device_malloc(64, 3);
   out[1] = (unsigned long long)__nv_aligned_device_malloc(64, 24);
   out[2] = (unsigned long long)__nv_aligned_device_malloc(5000, 1000);
   out[3] = (unsigned long long)__nv_aligned_device_malloc(too_big, 64);
}

__global__ void k_mixed(unsigned long long *out)
{
   void *a = malloc(100);
   void *b = __nv_aligned_device_malloc(100, 4096);
   void *c = malloc(70000);
   void *d = __nv_aligned_device_malloc(70000, 65536);
   out[0] = (a != NULL) + (b != NULL) + (c != NULL) + (d != NULL);
   out[1] = ((unsigned long long)b & 4095) + ((unsigned long long)d & 65535);
   free(c);
   free(b);
   free(d);
   free(a);
   void *big = malloc((size_t)16 << 20);
   out[2] = big != NULL;
   free(big);
}

int main(void)
{
   check_begin("aligned_malloc");
   /* room for every thread's largest block, whatever the allocator */
   CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)64 << 20));

   unsigned *d32, h32[2];
   CHECK_CUDA(cudaMalloc(&d32, sizeof(h32)));
   CHECK_CUDA(cudaMemset(d32, 0, sizeof(h32)));
   k_rounds<<<BLOCKS, THREADS>>>(d32, d32 + 1);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h32, d32, sizeof(h32), cudaMemcpyDeviceToHost));
   CHECK_INT(h32[0], 0);   /* misaligned blocks and bytes found changed */
   CHECK_INT(h32[1], 0);   /* NULLs */

   unsigned long long *d64, h64[NLARGE + 1];
   const unsigned long long align[NLARGE] = { 65536, 131072, 1 << 20, 4 << 20, 32768, 262144 };
   CHECK_CUDA(cudaMalloc(&d64, sizeof(h64)));
   k_large<<<1, 1>>>(d64);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h64, d64, sizeof(h64), cudaMemcpyDeviceToHost));
   unsigned long long want_sum = 0;
   for (int k = 0; k < NLARGE; k++) {
      CHECK(h64[k] != 0);
      CHECK_INT(h64[k] & (align[k] - 1), 0);
      want_sum += 2 * k + 1;
   }
   CHECK_INT(h64[NLARGE], want_sum);

   k_refused<<<1, 1>>>(d64, (size_t)1 << 40);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h64, d64, 4 * sizeof(*h64), cudaMemcpyDeviceToHost));
   CHECK_INT(h64[0], 0);
   CHECK_INT(h64[1], 0);
   CHECK_INT(h64[2], 0);
   CHECK_INT(h64[3], 0);

   k_mixed<<<1, 1>>>(d64);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h64, d64, 3 * sizeof(*h64), cudaMemcpyDeviceToHost));
   CHECK_INT(h64[0], 4);
   CHECK_INT(h64[1], 0);
   CHECK_INT(h64[2], 1);
   cudaFree(d32);
   cudaFree(d64);
   return check_end();
}
