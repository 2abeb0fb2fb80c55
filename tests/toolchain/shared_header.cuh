/* shared_header.cuh — a __device__ function with a __shared__ array of a
 * class type, in a header (tests/toolchain/shared_header.cu). */
struct Cell {
   int v = 11;
   __device__ ~Cell() { v = -1; }
};

__device__ int rotate(int t)
{
   __shared__ Cell ring[32];
   ring[t].v = t * 3;
   __syncthreads();
   return ring[(t + 1) % 32].v;
}
