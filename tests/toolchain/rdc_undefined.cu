// tests/toolchain/rdc_undefined.cu — a unit of relocatable device code that
// calls a __device__ function no unit defines (driver.rdc_undefined in
// run.sh): its device link must fail as nvlink's does, naming the function
// ("Undefined reference to '_Z12mc_undefinedi' in '...rdc_undefined.o'").
// The other external names it uses are the runtime's (vprintf, malloc,
// free, __assertfail) or sized at launch (the extern __shared__ array) and
// must not be reported; a __device__ variable defined in this unit and a
// template instance (.weak) must not be either.
#include <cassert>
#include <cstdio>

extern __device__ int mc_undefined(int x);   // defined by no unit
__device__ int mc_defined_here = 5;
template <typename T> __device__ __noinline__ T twice(T v) { return v + v; }

__global__ void use_them(int *out)
{
   extern __shared__ int dyn[];
   dyn[threadIdx.x] = mc_undefined((int)threadIdx.x) + twice(mc_defined_here);
   int *p = (int *)malloc(sizeof(int));
   assert(p);
   *p = dyn[threadIdx.x];
   printf("%d\n", *p);
   out[threadIdx.x] = *p;
   free(p);
}

int main()
{
   int *d = nullptr;
   cudaMalloc(&d, 32 * sizeof(int));
   use_them<<<1, 32, 32 * sizeof(int)>>>(d);
   printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
   return 1;   // never built: the device link must refuse it
}
