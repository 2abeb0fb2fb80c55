/*
 * async2d.cu — cudaMemcpy2DAsync and cudaMemcpy3DAsync between pinned host
 * memory and device memory are stream work: each call returns while a
 * kernel queued before it on the stream still runs (cudaStreamQuery then
 * answers cudaErrorNotReady), and the copies still follow that kernel and
 * precede the work after them:
 *
 *   - a kernel spins for about 200 ms (clock64) and then fills a pitched
 *     device matrix; a 2-D copy of it to pinned memory queued after the
 *     kernel returns before the kernel ends and brings back what the
 *     kernel wrote;
 *   - a 2-D copy from pinned memory into the matrix, then a kernel that
 *     doubles it, then a 3-D copy back: the host sees the doubled values;
 *   - the same 3-D copy queued behind a spinning kernel returns first.
 *
 * Expected values come from the host.  CUDA documents both calls as
 * asynchronous with respect to the host for pinned memory.
 */
#include "check.h"

#define W 48
#define H 20

__global__ void spin_then_fill(int *m, size_t pitch, long long cycles, int base)
{
   long long t0 = clock64();
   while (clock64() - t0 < cycles) {
   }
   for (int y = threadIdx.y; y < H; y += blockDim.y)
      for (int x = threadIdx.x; x < W; x += blockDim.x)
         ((int *)((char *)m + y * pitch))[x] = base + y * W + x;
}

__global__ void twice(int *m, size_t pitch)
{
   for (int y = threadIdx.y; y < H; y += blockDim.y)
      for (int x = threadIdx.x; x < W; x += blockDim.x)
         ((int *)((char *)m + y * pitch))[x] *= 2;
}

/* clock64 ticks in about ms milliseconds (the device's clock rate) */
static long long cycles_for(int ms)
{
   int khz = 0;
   CHECK_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
   if (khz <= 0)
      khz = 1000000;
   return (long long)khz * ms;
}

int main(void)
{
   check_begin("async2d");
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   int *dm, *pin;
   size_t pitch;
   CHECK_CUDA(cudaMallocPitch(&dm, &pitch, W * sizeof(int), H));
   CHECK_CUDA(cudaMallocHost(&pin, W * H * sizeof(int)));
   long long cyc = cycles_for(200);
   int want[W * H];

   /* device to pinned behind a spinning kernel */
   for (int i = 0; i < W * H; i++)
      pin[i] = -1;
   spin_then_fill<<<1, dim3(16, 4), 0, s>>>(dm, pitch, cyc, 1000);
   CHECK_CUDA(cudaMemcpy2DAsync(pin, W * sizeof(int), dm, pitch, W * sizeof(int), H, cudaMemcpyDeviceToHost, s));
   CHECK_ERR(cudaStreamQuery(s), cudaErrorNotReady);   /* the call did not wait for the kernel */
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < W * H; i++)
      want[i] = 1000 + i;
   CHECK_ARRAY_I32("2-D copy after the kernel", pin, want, W * H);

   /* pinned to device, a kernel, then a 3-D copy back */
   for (int i = 0; i < W * H; i++)
      pin[i] = 7 * i - 300;
   CHECK_CUDA(cudaMemcpy2DAsync(dm, pitch, pin, W * sizeof(int), W * sizeof(int), H, cudaMemcpyHostToDevice, s));
   twice<<<1, dim3(16, 4), 0, s>>>(dm, pitch);
   int *back;
   CHECK_CUDA(cudaMallocHost(&back, W * H * sizeof(int)));
   for (int i = 0; i < W * H; i++)
      back[i] = -1;
   cudaMemcpy3DParms p = {};
   p.srcPtr = make_cudaPitchedPtr(dm, pitch, W, H);
   p.dstPtr = make_cudaPitchedPtr(back, W * sizeof(int), W, H);
   p.extent = make_cudaExtent(W * sizeof(int), H, 1);
   p.kind = cudaMemcpyDeviceToHost;
   CHECK_CUDA(cudaMemcpy3DAsync(&p, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < W * H; i++)
      want[i] = 2 * (7 * i - 300);
   CHECK_ARRAY_I32("2-D in, kernel, 3-D out", back, want, W * H);

   /* the 3-D copy behind a spinning kernel */
   spin_then_fill<<<1, dim3(16, 4), 0, s>>>(dm, pitch, cyc, 5);
   CHECK_CUDA(cudaMemcpy3DAsync(&p, s));
   CHECK_ERR(cudaStreamQuery(s), cudaErrorNotReady);
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < W * H; i++)
      want[i] = 5 + i;
   CHECK_ARRAY_I32("3-D copy after the kernel", back, want, W * H);

   CHECK_CUDA(cudaFreeHost(pin));
   CHECK_CUDA(cudaFreeHost(back));
   CHECK_CUDA(cudaFree(dm));
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
