// Compiled by clang (LLVM NVPTX back end) rather than nvcc, without the CUDA
// headers (clang may be older than the toolkit), to cover LLVM's PTX style:
// LBB labels, _$_ names, .loc with debug info when built with -g.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

extern "C" __device__ int vprintf(const char *, void *);
__device__ int g[4] = {1, 2, 3, 4};
__device__ double gd = 2.5;

__device__ __attribute__((noinline)) float sq(float x) { return x * x; }

__global__ void k(float *x, double *d, int n)
{
   __shared__ float s[64];
   int i = __nvvm_read_ptx_sreg_tid_x() + __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
   s[i & 63] = x[i];
   __syncthreads();
   if (i < n) {
      x[i] = sq(s[(i + 1) & 63]) + g[i & 3];
      d[i] = __builtin_sqrt(d[i]) * 3.5 + gd;
   }
   int v = i;
   vprintf("%d\n", &v);
   __nvvm_atom_add_gen_i(&g[0], 1);
   for (int j = 0; j < n; j++)
      x[j] += __nvvm_shfl_sync_down_f32(0xffffffff, x[j], 1, 31);
}
