// Relocatable device code, unit 2 of 2: see rdc.cu.
#include "check.h"
#include "rdc.h"

__device__ int rdc_count_there = 1000;
__device__ int rdc_bias_there = 0;
__constant__ int rdc_table_there[4] = { 11, 22, 33, 44 };

__device__ __noinline__ int add_there(int a, int b) { return (a + b) * 2; }

static __device__ __noinline__ int local_twist(int x) { return x ^ 0x33; }   /* rdc.cu has one too */

__global__ void rdc_calls_back(const int *in, int *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      out[i] = scale_here(in[i]) - local_twist(i) + rdc_square(i);
      atomicAdd(&rdc_calls_here, 1);
   }
   if (i == 0)
      printf("rdc unit 2: %d\n", rdc_generic_max(in[1], 3));
}
