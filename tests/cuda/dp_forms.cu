/*
 * dp_forms.cu — the ways device code writes a kernel launch (dynamic
 * parallelism, CUDA 12's device runtime), built with -rdc=true
 * -lcudadevrt: a template kernel with explicit arguments, a kernel in a
 * namespace named with its qualifier, a launch from a __device__ function,
 * a configuration spread over lines with dim3 values and a shift, a struct
 * and a 2-byte argument between wider ones (the parameter offsets); the
 * explicit API (cudaGetParameterBuffer, cudaLaunchDevice with the kernel's
 * address), device-side cudaMemsetAsync, events (created, recorded, waited
 * for, destroyed) and cudaGetDevice.
 * metalcuda's nvcc rewrites each launch into a call of its device runtime
 * (src/toolchain/source_fix.c); NVIDIA's nvcc compiles them itself.  Every
 * expected value is computed on the host.
 */
// nvcc-flags: -rdc=true -lcudadevrt
#include "check.h"

struct Pair {
   int a;
   double b;
};

template <typename T, int SCALE> __global__ void scale(T *out, T v)
{
   out[threadIdx.x + blockIdx.x * blockDim.x] = v * (T)SCALE + (T)threadIdx.x;
}

namespace work {
__global__ void mixed(int *out, short s, Pair p, char c, long long w)
{
   int t = threadIdx.y * blockDim.x + threadIdx.x;
   out[t] = s + p.a + (int)p.b + c + (int)(w >> 32) + t;
}
}

__device__ void launch_from_device(int *out, int n)
{
   work::mixed<<<1, dim3(4, 2)>>>(out, (short)-7, Pair{ 100, 2.5 }, (char)3, (long long)n << 32);
}

__global__ void setv(int *p, int v) { p[threadIdx.x] = v + (int)threadIdx.x; }

__global__ void explicit_api(int *out)
{
   if (threadIdx.x != 0)
      return;
   void *buf = cudaGetParameterBuffer(8, 16);
   out[40] = buf != NULL;
   if (buf) {
      *(int **)buf = out;
      *(int *)((char *)buf + 8) = 42;
      out[41] = (int)cudaLaunchDevice((void *)setv, buf, dim3(1), dim3(8), 0, 0);
   }
   cudaEvent_t e;
   out[42] = (int)cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
   out[43] = (int)cudaEventRecord(e, 0);
   out[44] = (int)cudaStreamWaitEvent(0, e, 0);
   /* zeros: the H200's cudadevrt (CUDA 13.0) writes zeros whatever the
    * value (measured with 0x11, 0x22, 0x33, 0x44 and 0xab, on the NULL,
    * a created, the fire-and-forget and the tail stream), where CUDA
    * documents the value's byte; metalcuda writes the byte */
   out[45] = (int)cudaMemsetAsync(out + 8, 0, 8 * sizeof(int), 0);
   out[46] = (int)cudaEventDestroy(e);
   int dev = -1;
   out[47] = (int)cudaGetDevice(&dev);
   out[48] = dev;
}

__global__ void parent(float *f, double *d, int *m)
{
   if (threadIdx.x != 0)
      return;
   scale<float, 3><<<2, 32>>>(f, 1.5f);
   scale<double, 5>
      <<<dim3(1, 1, 1),
         (64 >> 1)>>>(d, 0.25);
   launch_from_device(m, 9);
}

int main(void)
{
   check_begin("dp_forms");
   float *f, hf[64];
   double *d, hd[32];
   int *m, hm[8];
   CHECK_CUDA(cudaMalloc(&f, sizeof(hf)));
   CHECK_CUDA(cudaMalloc(&d, sizeof(hd)));
   CHECK_CUDA(cudaMalloc(&m, sizeof(hm)));
   CHECK_CUDA(cudaMemset(f, 0, sizeof(hf)));
   CHECK_CUDA(cudaMemset(d, 0, sizeof(hd)));
   CHECK_CUDA(cudaMemset(m, 0, sizeof(hm)));
   parent<<<1, 32>>>(f, d, m);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(hf, f, sizeof(hf), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(hd, d, sizeof(hd), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(hm, m, sizeof(hm), cudaMemcpyDeviceToHost));
   float wf[64];
   double wd[32];
   int wm[8];
   for (int i = 0; i < 64; i++)
      wf[i] = 1.5f * 3.0f + (float)(i % 32);
   for (int i = 0; i < 32; i++)
      wd[i] = 0.25 * 5.0 + (double)i;
   for (int t = 0; t < 8; t++)
      wm[t] = -7 + 100 + 2 + 3 + 9 + t;
   CHECK_ARRAY_F32("template kernel, float", hf, wf, 64);
   int bad = 0;
   for (int i = 0; i < 32; i++)
      bad += hd[i] != wd[i];
   CHECK_INT(bad, 0);
   CHECK_ARRAY_I32("namespace kernel from a __device__ function", hm, wm, 8);

   int *e, he[49], we[49];
   CHECK_CUDA(cudaMalloc(&e, sizeof(he)));
   CHECK_CUDA(cudaMemset(e, 0xff, sizeof(he)));
   explicit_api<<<1, 32>>>(e);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(he, e, sizeof(he), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 49; i++)
      we[i] = -1;
   for (int t = 0; t < 8; t++)
      we[t] = 42 + t;          /* the child launched through cudaLaunchDevice */
   for (int t = 8; t < 16; t++)
      we[t] = 0;               /* cudaMemsetAsync */
   we[40] = 1;
   for (int i = 41; i < 48; i++)
      we[i] = cudaSuccess;
   we[48] = 0;
   CHECK_ARRAY_I32("explicit launch, memset, events, device", he, we, 49);
   cudaFree(e);
   cudaFree(f);
   cudaFree(d);
   cudaFree(m);
   return check_end();
}
