/*
 * rdc_twice.cu, rdc_twice.2.cu — two units that both define the
 * __device__ function twice() and the __device__ variable twice_count
 * (driver.rdc_multiple): nvlink refuses their device link with "Multiple
 * definition of 'NAME' in 'B', first defined in 'A'" for each, and so must
 * metalcuda nvcc.  Both also define what may be defined in several units
 * and must not be reported: an inline function, a template instance, a
 * static function.
 */
#include <cstdio>

__device__ int twice(int x) { return 2 * x; }
__device__ int twice_count = 1;
inline __device__ int same_inline(int x) { return x + 1; }
template <class T> __device__ T same_template(T x) { return x + 2; }
static __device__ int same_static(int x) { return x + 3; }

__global__ void first_unit(int *p) { *p = twice(*p) + same_inline(1) + same_template(1) + same_static(1); }

int main() { return 0; }
