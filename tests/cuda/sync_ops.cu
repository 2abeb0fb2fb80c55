/*
 * sync_ops.cu — __syncthreads_count, __syncthreads_and, __syncthreads_or,
 * and threads that return before a __syncthreads.
 *
 *  - the three reductions over predicates that depend on the thread and
 *    on data, for blocks of 1, 32, 33, 100 and 1024 threads, several times
 *    in a row in one kernel (each result checked per thread);
 *  - the tail block of a grid whose threads past n return before the
 *    barrier (CUDA does not wait for exited threads): the others reverse
 *    their part of the array through shared memory;
 *  - threads that return in the middle of a loop of barriers (thread t in
 *    round t % 5), the rest going on and reading their neighbour's slot;
 *  - __syncthreads_count in a block where some threads already returned
 *    (they do not count).
 */
#include "check.h"

/* out[4 * i + k]: results of four reductions seen by thread i. */
__global__ void reductions(const unsigned *data, unsigned *out)
{
   unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
   unsigned v = data[i];
   out[4 * i + 0] = __syncthreads_count(v & 1);
   out[4 * i + 1] = __syncthreads_and(v % 7 != 3) ? 1 : 0;
   out[4 * i + 2] = __syncthreads_or(v % 101 == 5) ? 1 : 0;
   out[4 * i + 3] = __syncthreads_count(t % 3 == 0) + (__syncthreads_and(t < 2000) ? 1000 : 0);
}

/* Threads past n return first; the others reverse their part. */
__global__ void reverse_tail(const int *in, int *out, int n)
{
   __shared__ int s[256];
   int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
   if (i >= n)
      return;
   s[t] = in[i];
   __syncthreads();
   int nb = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
   out[i] = s[nb - 1 - t];
}

/* Round r: threads with t % 5 == r leave (recording r); the others write
 * t + r to their slot, sync, add their left neighbour's slot, sync. */
__global__ void leave_in_loop(int *out)
{
   __shared__ int s[128];
   int t = threadIdx.x, acc = 0;
   s[t] = 500;
   __syncthreads();
   for (int r = 0; r < 4; r++) {
      if (t % 5 == r) {
         out[t] = 1000 + acc + r;
         return;
      }
      s[t] = t + r;
      __syncthreads();
      acc += s[(t + 127) % 128];
      __syncthreads();
   }
   out[t] = acc;
}

/* Threads >= k return; the rest count how many of them are even. */
__global__ void count_after_return(int k, unsigned *out)
{
   unsigned t = threadIdx.x;
   if ((int)t >= k)
      return;
   out[t] = __syncthreads_count(t % 2 == 0);
}

static void test_reductions(void)
{
   static const unsigned blocks[] = { 1, 32, 33, 100, 1024 };
   const unsigned groups = 3;
   for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
      unsigned b = blocks[k], n = b * groups;
      unsigned *h = (unsigned *)malloc(n * 4), *got = (unsigned *)malloc(n * 16), *want = (unsigned *)malloc(n * 16);
      for (unsigned i = 0; i < n; i++)
         h[i] = mix32(i * 31u + b);
      unsigned *dd, *dout;
      CHECK_CUDA(cudaMalloc(&dd, n * 4));
      CHECK_CUDA(cudaMemcpy(dd, h, n * 4, cudaMemcpyHostToDevice));
      dout = (unsigned *)dev_alloc_fill32(4 * n);
      reductions<<<groups, b>>>(dd, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, dout, n * 16, cudaMemcpyDeviceToHost));
      for (unsigned g = 0; g < groups; g++) {
         unsigned odd = 0, all = 1, any = 0, third = 0;
         for (unsigned t = 0; t < b; t++) {
            unsigned v = h[g * b + t];
            odd += v & 1;
            all &= v % 7 != 3;
            any |= v % 101 == 5;
            third += t % 3 == 0;
         }
         for (unsigned t = 0; t < b; t++) {
            unsigned i = g * b + t;
            want[4 * i] = odd, want[4 * i + 1] = all, want[4 * i + 2] = any, want[4 * i + 3] = third + 1000;
         }
      }
      char what[64];
      snprintf(what, sizeof(what), "count/and/or, blocks of %u", b);
      CHECK_ARRAY_U32(what, got, want, 4 * n);
      cudaFree(dd), cudaFree(dout);
      free(h), free(got), free(want);
   }
}

static void test_reverse_tail(void)
{
   const int n = 1000;
   int h[1000], got[1024], want[1024];
   for (int i = 0; i < n; i++)
      h[i] = (int)mix32((uint32_t)i) >> 4;
   int *din, *dout;
   CHECK_CUDA(cudaMalloc(&din, n * 4));
   CHECK_CUDA(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
   dout = (int *)dev_alloc_fill32(1024);
   reverse_tail<<<4, 256>>>(din, dout, n);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 1024; i++) {
      int b = i / 256 * 256, nb = n - b < 256 ? n - b : 256;
      want[i] = i < n ? h[b + nb - 1 - (i - b)] : (int)SENTINEL32;
   }
   CHECK_ARRAY_I32("reverse_tail (threads past n returned)", got, want, 1024);
   cudaFree(din), cudaFree(dout);
}

static void test_leave_in_loop(void)
{
   int got[128], want[128];
   int *d = (int *)dev_alloc_fill32(128);
   leave_in_loop<<<1, 128>>>(d);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
   for (int t = 0; t < 128; t++) {
      int leave = t % 5, rounds = leave < 4 ? leave : 4, acc = 0;
      int p = (t + 127) % 128, pleave = p % 5;
      for (int r = 0; r < rounds; r++)   /* the left slot: written this round, or frozen */
         acc += r < pleave || pleave == 4 ? p + r : pleave ? p + pleave - 1 : 500;
      want[t] = leave < 4 ? 1000 + acc + leave : acc;
   }
   CHECK_ARRAY_I32("leave_in_loop", got, want, 128);
   cudaFree(d);
}

static void test_count_after_return(void)
{
   unsigned got[64], want[64];
   unsigned *d = (unsigned *)dev_alloc_fill32(64);
   count_after_return<<<1, 64>>>(37, d);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
   for (unsigned t = 0; t < 64; t++)
      want[t] = t < 37 ? 19 : SENTINEL32;
   CHECK_ARRAY_U32("__syncthreads_count after 27 threads returned", got, want, 64);
   cudaFree(d);
}

int main(void)
{
   check_begin("sync_ops");
   test_reductions();
   test_reverse_tail();
   test_leave_in_loop();
   test_count_after_return();
   return check_end();
}
