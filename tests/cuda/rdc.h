// Declarations shared by rdc.cu and rdc.2.cu.
#include <cstdio>

extern __device__ int rdc_count_there;     /* rdc.2.cu */
extern __device__ int rdc_bias_there;      /* rdc.2.cu */
extern __constant__ int rdc_table_there[4]; /* rdc.2.cu */
extern __device__ int rdc_calls_here;      /* rdc.cu */
__device__ int add_there(int a, int b);    /* rdc.2.cu */
__device__ int scale_here(int x);          /* rdc.cu */
__global__ void rdc_calls_back(const int *in, int *out, int n);   /* rdc.2.cu */

/* in both units: weak definitions, one kept */
__device__ __noinline__ inline int rdc_square(int x) { return x * x; }
template <typename T> __device__ __noinline__ T rdc_generic_max(T a, T b) { return a > b ? a : b; }
