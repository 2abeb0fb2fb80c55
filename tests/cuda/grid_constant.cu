// nvcc-flags: -arch=sm_80
// grid_constant — __grid_constant__ parameters whose address the kernel
// takes (CUDA 11.7+): the address is a generic address of the parameter
// itself (cvta.param), read with dynamic indices and through a pointer a
// non-inlined function receives, never a copy.  Checked against the host.
// (Passing &p through a function that returns it makes nvcc 13.0 hand over
// the parameter-space address, which faults on an H200: not done here.)
#include <cuda_runtime.h>

#include <stdint.h>
#include <string.h>

#include "check.h"

struct params {
   uint32_t table[32];
   float scale[8];
   uint64_t seed;
   const uint32_t *in;
   uint32_t *out;
};

__device__ __noinline__ uint32_t pick(const params *p, unsigned k)
{
   return p->table[(k * 7u) % 32u] ^ (uint32_t)(p->seed >> (k % 32u));
}

__global__ void use(const __grid_constant__ params p, unsigned n)
{
   unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
   if (g >= n)
      return;
   const params *q = &p;
   uint32_t v = p.in[g];
   uint32_t a = p.table[v % 32u];            /* a dynamic index: a load through &p */
   uint32_t b = pick(&p, g);
   float s = q->scale[g % 8u] * (float)(v & 0xffu);
   q->out[g] = a + b * 3u + (uint32_t)s;
}

int main(void)
{
   check_begin("grid_constant");
   enum { N = 1000 };
   static uint32_t in[N], out[N], want[N];
   params p;
   memset(&p, 0, sizeof(p));
   for (unsigned k = 0; k < 32; k++)
      p.table[k] = mix32(k * 3u + 1u);
   for (unsigned k = 0; k < 8; k++)
      p.scale[k] = 0.25f * (float)(k + 1);
   p.seed = 0x0123456789abcdefull;
   for (unsigned k = 0; k < N; k++)
      in[k] = mix32(k + 1000u);
   uint32_t *din, *dout;
   CHECK_CUDA(cudaMalloc(&din, sizeof(in)));
   CHECK_CUDA(cudaMalloc(&dout, sizeof(out)));
   CHECK_CUDA(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemset(dout, 0xde, sizeof(out)));
   p.in = din;
   p.out = dout;
   use<<<(N + 127) / 128, 128>>>(p, N);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   for (unsigned g = 0; g < N; g++) {
      uint32_t v = in[g];
      uint32_t a = p.table[v % 32u];
      uint32_t b = p.table[(g * 7u) % 32u] ^ (uint32_t)(p.seed >> (g % 32u));
      float s = p.scale[g % 8u] * (float)(v & 0xffu);
      want[g] = a + b * 3u + (uint32_t)s;
   }
   CHECK_ARRAY_U32("results", out, want, N);
   CHECK_CUDA(cudaFree(din));
   CHECK_CUDA(cudaFree(dout));
   return check_end();
}
