/* The second unit of rdc_twice.cu (see there). */
__device__ int twice(int x) { return x + x; }
__device__ int twice_count = 2;
inline __device__ int same_inline(int x) { return x + 1; }
template <class T> __device__ T same_template(T x) { return x + 2; }
static __device__ int same_static(int x) { return x + 4; }

__global__ void second_unit(int *p) { *p = twice(*p) + same_inline(1) + same_template(1) + same_static(1); }
