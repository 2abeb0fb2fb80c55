// Relocatable device code (nvcc -rdc=true), unit 1 of 2 (rdc.2.cu is the
// other): kernels here call device functions and use __device__ and
// __constant__ variables defined in rdc.2.cu, and rdc.2.cu's kernels call
// a function defined here.  Both units have a static function of the same
// name, an inline function and a template they both instantiate, and a
// printf (nvcc names its format string $str in each unit), so linking must
// keep each unit's own symbols apart and one copy of the shared ones.
// nvcc-flags: -rdc=true
#include "check.h"
#include "rdc.h"

__device__ int rdc_calls_here = 0;

__device__ __noinline__ int scale_here(int x) { return 3 * x + rdc_bias_there; }

static __device__ __noinline__ int local_twist(int x) { return x ^ 0x55; }   /* rdc.2.cu has one too */

__global__ void rdc_uses_there(const int *in, int *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      out[i] = add_there(in[i], rdc_table_there[i % 4]) + local_twist(i) + rdc_square(i);
      atomicAdd(&rdc_count_there, 1);
   }
   if (i == 0)
      printf("rdc unit 1: %d\n", rdc_generic_max(in[0], 7));
}

int main()
{
   check_begin("rdc");
   const int n = 200;
   int in[n], out[n], want[n];
   for (int i = 0; i < n; i++)
      in[i] = i * 7 - 50;
   int *din = NULL, *dout = (int *)dev_alloc_fill32(n);
   REQUIRE_CUDA(cudaMalloc(&din, sizeof(in)));
   REQUIRE_CUDA(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
   REQUIRE_CUDA(dout ? cudaSuccess : cudaErrorMemoryAllocation);

   /* 1. this unit's kernel calls into rdc.2.cu */
   rdc_uses_there<<<(n + 63) / 64, 64>>>(din, dout, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   static const int table[4] = { 11, 22, 33, 44 };   /* rdc.2.cu's rdc_table_there */
   for (int i = 0; i < n; i++)
      want[i] = (in[i] + table[i % 4]) * 2 + (i ^ 0x55) + i * i;
   CHECK_ARRAY_I32("rdc_uses_there", out, want, n);
   int count = -1;
   CHECK_CUDA(cudaMemcpyFromSymbol(&count, rdc_count_there, sizeof(count)));
   CHECK_INT(count, 1000 + n);   /* initialised to 1000 in rdc.2.cu */

   /* 2. rdc.2.cu's kernel, launched from here, calls back into this unit,
    * which reads a variable of rdc.2.cu set from here */
   CHECK_CUDA(cudaMemset(dout, 0xff, sizeof(out)));
   int bias = 5;
   CHECK_CUDA(cudaMemcpyToSymbol(rdc_bias_there, &bias, sizeof(bias)));
   rdc_calls_back<<<(n + 63) / 64, 64>>>(din, dout, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      want[i] = (3 * in[i] + 5) - (i ^ 0x33) + i * i;
   CHECK_ARRAY_I32("rdc_calls_back", out, want, n);
   int here = -1;
   CHECK_CUDA(cudaMemcpyFromSymbol(&here, rdc_calls_here, sizeof(here)));
   CHECK_INT(here, n);
   cudaFree(din), cudaFree(dout);
   return check_end();
}
