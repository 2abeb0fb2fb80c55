// Relocatable device code, unit 2 of 2: see rdc_units.cu.
#include <cuda_runtime.h>

extern __constant__ int ru_table[4];                      /* unit 1 */
__managed__ int ru_managed = 7;

static __device__ int ru_local = 2;                       /* unit 1 has its own */

__device__ int ru_scale(int x) { return x * ru_table[x & 3] + ru_local; }

template <typename T> __global__ void ru_bump(T *p, T by)
{
   p[threadIdx.x] += by;
}

static __global__ void ru_static_kernel(int *out)
{
   out[threadIdx.x] = 2 * (int)threadIdx.x + ru_local;
}

void ru_launch_static(int *out, int n) { ru_static_kernel<<<1, n>>>(out); }
void ru_launch_bump(int *p, int n) { ru_bump<int><<<1, n>>>(p, 4); }
int ru_managed_from_unit2(void)
{
   cudaDeviceSynchronize();
   return ru_managed;
}
/* sets this unit's static: 0 on success, else the CUDA error */
int ru_set_local2(int v) { return (int)cudaMemcpyToSymbol(ru_local, &v, sizeof(v)); }
