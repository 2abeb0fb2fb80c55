/*
 * dynamic_parallelism.cu — kernels that launch kernels (CUDA 12's device
 * runtime, CDP2), built with -rdc=true -lcudadevrt:
 *
 *  - three levels: a parent grid whose blocks each launch a child grid,
 *    whose thread 0 launches a grandchild; every level writes its own
 *    cells, checked after the parent's launch completes (a child grid
 *    completes before its parent is considered complete);
 *  - parameters of several sizes and alignments (a struct of 40 bytes, a
 *    double, a char) reach the child intact;
 *  - a tail launch (cudaStreamTailLaunch) runs after the parent's other
 *    children: it reads what they wrote;
 *  - a fire-and-forget launch and a launch into a device-created
 *    non-blocking stream run, and before the host's next work on the
 *    stream;
 *  - device-side cudaMalloc: a buffer a child fills and a tail launch sums
 *    and releases with device-side cudaFree;
 *  - device-side cudaMemcpyAsync after a child launch on the same stream
 *    copies what the child wrote, and cudaGetLastError answers cudaSuccess;
 *  - cudaLimitDevRuntimePendingLaunchCount: 2048 by default, settable
 *    (CUDA's documentation).
 *  - the host's work queued after the parent sees every descendant done.
 * Every expected value is computed on the host.
 */
// nvcc-flags: -rdc=true -lcudadevrt
#include "check.h"

struct Params {
   int a[8];
   double d;
};

__global__ void grandchild(int *out, int base)
{
   out[base + threadIdx.x] = base * 3 + (int)threadIdx.x + 1000;
}

__global__ void child(int *out, int base, Params p, char tag)
{
   int t = threadIdx.x;
   out[base + t] = base + t + p.a[t % 8] + (int)p.d + tag;
   if (t == 0)
      grandchild<<<1, 4>>>(out, base + 64);
}

__global__ void parent(int *out)
{
   if (threadIdx.x == 0) {
      Params p;
      for (int k = 0; k < 8; k++)
         p.a[k] = (int)blockIdx.x * 100 + k;
      p.d = 0.5 + blockIdx.x;
      child<<<1, 32>>>(out, (int)blockIdx.x * 128, p, (char)(7 + blockIdx.x));
   }
}

/* the tail launch sums what the ordinary children wrote */
__global__ void fill(int *v, int n, int x)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      v[i] = x + i;
}

__global__ void sum(const int *v, int n, int *out)
{
   int s = 0;
   for (int i = 0; i < n; i++)
      s += v[i];
   *out = s;
}

__global__ void tail_parent(int *v, int n, int *out, int *ff)
{
   fill<<<(n + 63) / 64, 64>>>(v, n, 5);
   sum<<<1, 1, 0, cudaStreamTailLaunch>>>(v, n, out);
   fill<<<1, 1, 0, cudaStreamFireAndForget>>>(ff, 1, 77);
   cudaStream_t s;
   cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
   fill<<<1, 1, 0, s>>>(ff + 1, 1, 88);
   cudaStreamDestroy(s);
}

/* sums the buffer into *out and frees it (device-side cudaFree) */
__global__ void sum_and_free(int *buf, int n, int *out)
{
   int s = 0;
   for (int i = 0; i < n; i++)
      s += buf[i];
   *out = s;
   *(out + 1) = cudaFree(buf);
}

/* fill, then copy what fill wrote: stream order on the device */
__global__ void copy_parent(int *a, int *b, int n, int *err)
{
   fill<<<(n + 63) / 64, 64>>>(a, n, 40);
   cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
   *err = (int)cudaGetLastError();
}

__global__ void malloc_parent(int *out)
{
   int *buf = NULL;
   cudaError_t e = cudaMalloc((void **)&buf, 100 * sizeof(int));
   out[2] = (int)e;
   if (e != cudaSuccess || !buf)
      return;
   fill<<<2, 64>>>(buf, 100, 11);
   sum_and_free<<<1, 1, 0, cudaStreamTailLaunch>>>(buf, 100, out);
}

int main()
{
   check_begin("dynamic_parallelism");
   enum { BLOCKS = 5, CELLS = BLOCKS * 128 };
   int *d;
   CHECK_CUDA(cudaMalloc(&d, CELLS * sizeof(int)));
   CHECK_CUDA(cudaMemset(d, 0xff, CELLS * sizeof(int)));
   parent<<<BLOCKS, 32>>>(d);
   CHECK_CUDA(cudaGetLastError());
   int h[CELLS], want[CELLS];
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < CELLS; i++)
      want[i] = -1;
   for (int b = 0; b < BLOCKS; b++) {
      int base = b * 128;
      for (int t = 0; t < 32; t++)
         want[base + t] = base + t + (b * 100 + t % 8) + (int)(0.5 + b) + (7 + b);
      for (int t = 0; t < 4; t++)
         want[base + 64 + t] = (base + 64) * 3 + t + 1000;
   }
   CHECK_ARRAY_I32("three levels", h, want, CELLS);

   enum { N = 300 };
   int *v, *out;
   CHECK_CUDA(cudaMalloc(&v, N * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&out, 3 * sizeof(int)));
   CHECK_CUDA(cudaMemset(v, 0, N * sizeof(int)));
   CHECK_CUDA(cudaMemset(out, 0, 3 * sizeof(int)));
   tail_parent<<<1, 1>>>(v, N, out, out + 1);
   CHECK_CUDA(cudaGetLastError());
   int r[3];
   CHECK_CUDA(cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost));
   int s = 0;
   for (int i = 0; i < N; i++)
      s += 5 + i;
   CHECK_INT(r[0], s);    /* the tail launch saw every fill */
   CHECK_INT(r[1], 77);   /* fire-and-forget */
   CHECK_INT(r[2], 88);   /* a device-created stream */
   CHECK_CUDA(cudaMemset(out, 0xff, 3 * sizeof(int)));
   malloc_parent<<<1, 1>>>(out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost));
   s = 0;
   for (int i = 0; i < 100; i++)
      s += 11 + i;
   CHECK_INT(r[2], cudaSuccess);   /* device-side cudaMalloc */
   CHECK_INT(r[0], s);             /* a child filled it, the tail launch summed it */
   CHECK_INT(r[1], cudaSuccess);   /* device-side cudaFree */
   int *a2, *b2;
   CHECK_CUDA(cudaMalloc(&a2, N * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&b2, N * sizeof(int)));
   CHECK_CUDA(cudaMemset(b2, 0, N * sizeof(int)));
   CHECK_CUDA(cudaMemset(out, 0xff, sizeof(int)));
   copy_parent<<<1, 1>>>(a2, b2, N, out);
   CHECK_CUDA(cudaGetLastError());
   static int hb[N], wb[N];
   CHECK_CUDA(cudaMemcpy(hb, b2, sizeof(hb), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      wb[i] = 40 + i;
   CHECK_ARRAY_I32("device-side cudaMemcpyAsync after the child", hb, wb, N);
   CHECK_CUDA(cudaMemcpy(r, out, sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_INT(r[0], cudaSuccess);
   cudaFree(a2);
   cudaFree(b2);

   size_t pending = 0;
   CHECK_CUDA(cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
   CHECK_INT(pending, 2048);
   CHECK_CUDA(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096));
   CHECK_CUDA(cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
   CHECK_INT(pending, 4096);
   CHECK_CUDA(cudaMemset(d, 0xff, CELLS * sizeof(int)));
   parent<<<BLOCKS, 32>>>(d);   /* with the new queue */
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("three levels after the limit changed", h, want, CELLS);

   cudaFree(v);
   cudaFree(out);
   cudaFree(d);
   return check_end();
}
