// Relocatable device code (nvcc -rdc=true) with what separate compilation
// of real programs relies on beyond rdc.cu, unit 1 of 2 (rdc_units.2.cu is
// the other):
//   - a static __device__ variable of the same name in each unit, each read
//     by its unit's kernel and written from the host with
//     cudaMemcpyToSymbol after that kernel in the source (clang renames a
//     static the host uses after device code referred to it);
//   - a static __global__ kernel in unit 2, launched from unit 2's host code;
//   - a template kernel instantiated and launched in both units (one copy);
//   - a __managed__ variable defined in unit 2, written by a kernel of unit
//     1 and read by the host in both;
//   - a __constant__ table defined here, read by a device function of unit 2;
//   - __CUDACC_RDC__, which nvcc defines on both sides under -rdc=true (CUDA
//     headers and CCCL choose device-side launches by it).
// Every check is in this unit (check.h's counters are per unit); unit 2
// hands back values.
// nvcc-flags: -rdc=true
#include "check.h"

__constant__ int ru_table[4] = { 3, 5, 7, 11 };          /* read by unit 2 */
extern __managed__ int ru_managed;                        /* unit 2 */
__device__ int ru_scale(int x);                           /* unit 2: x * ru_table[x & 3] + its static */

static __device__ int ru_local = 1;                       /* unit 2 has its own */

template <typename T> __global__ void ru_bump(T *p, T by)
{
   p[threadIdx.x] += by;
}

__global__ void ru_kernel(int *out)
{
   int i = threadIdx.x;
   out[i] = ru_scale(i) + ru_local;
   if (i == 0)
      ru_managed += 100;
}

/* 1 where the device side sees __CUDACC_RDC__ */
__global__ void ru_rdc_macro(int *out)
{
#ifdef __CUDACC_RDC__
   *out = 1;
#else
   *out = 0;
#endif
}

/* unit 2 */
void ru_launch_static(int *out, int n);
void ru_launch_bump(int *p, int n);
int ru_managed_from_unit2(void);
int ru_set_local2(int v);

int main()
{
   check_begin("rdc_units");
   const int n = 32;
   int *d = NULL, h[n], want[n];
   REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(int)));

   /* this unit's static, set from the host after ru_kernel used it */
   int local = 40;
   CHECK_CUDA(cudaMemcpyToSymbol(ru_local, &local, sizeof(local)));
   CHECK_INT(ru_set_local2(1000), 0);
   ru_kernel<<<1, n>>>(d);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   static const int table[4] = { 3, 5, 7, 11 };
   for (int i = 0; i < n; i++)
      want[i] = i * table[i & 3] + 1000 + 40;   /* ru_scale adds unit 2's static */
   CHECK_ARRAY_I32("ru_kernel", h, want, n);
   int back = 0;
   CHECK_CUDA(cudaMemcpyFromSymbol(&back, ru_local, sizeof(back)));
   CHECK_INT(back, 40);

   /* the managed variable: written by this unit's kernel, read here and
    * by unit 2's host code */
   CHECK_INT(ru_managed, 7 + 100);
   CHECK_INT(ru_managed_from_unit2(), 7 + 100);

   /* unit 2's static kernel */
   CHECK_CUDA(cudaMemset(d, 0, n * sizeof(int)));
   ru_launch_static(d, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      want[i] = 2 * i + 1000;
   CHECK_ARRAY_I32("static kernel of unit 2", h, want, n);

   /* the template kernel from both units */
   CHECK_CUDA(cudaMemset(d, 0, n * sizeof(int)));
   ru_bump<int><<<1, n>>>(d, 3);
   ru_launch_bump(d, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++)
      want[i] = 3 + 4;
   CHECK_ARRAY_I32("template kernel of both units", h, want, n);

   /* -rdc=true defines __CUDACC_RDC__ for the host and the device */
#ifdef __CUDACC_RDC__
   CHECK_INT(1, 1);
#else
   CHECK_INT(0, 1);   /* the host side lacks __CUDACC_RDC__ */
#endif
   ru_rdc_macro<<<1, 1>>>(d);
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_INT(h[0], 1);
   CHECK_CUDA(cudaGetLastError());
   cudaFree(d);
   return check_end();
}
