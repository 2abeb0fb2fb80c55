/*
 * shared_ctor.cu — __shared__ variables whose type has default member
 * initializers and a destructor with a body, as nvcc takes them: shared
 * memory is storage the program fills itself, no constructor or destructor
 * runs (nvcc warns "dynamic initialization is not supported for a
 * function-scope static __shared__ variable", silenced below as CCCL's
 * documentation of cuda::barrier does).
 *
 *   tile      a __shared__ array of 128 Cells and a __shared__ Cell scalar:
 *             every thread writes its cell, thread 0 the scalar, then each
 *             reads its mirror's cell and a neighbour's, and adds to the
 *             scalar with shared atomics; a lambda made before the writes,
 *             capturing by copy, reads the cells after them (a function-
 *             scope __shared__ variable is static: the lambda reads the
 *             shared memory, not a copy); sizeof of the array and scalar
 *   wide      a 16-byte-aligned type in a __device__ function's __shared__
 *             scalar and a 2-D __shared__ array of it: its address is
 *             16-byte aligned, its size the type's, a block's threads
 *             exchange doubles through it
 *   tmpl      a template kernel's __shared__ T buf[N] with T = Cell and
 *             T = float (the trivial case)
 *   no ctor   Cell's member initializer counts every construction and its
 *             destructor every destruction in __device__ counters: both
 *             stay 0
 *
 * Every expected value is computed on the host.
 */
#include "check.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

#define NT 128
#define NB 6

__device__ unsigned g_ctor, g_dtor;

__device__ int count_ctor()
{
   atomicAdd(&g_ctor, 1u);
   return 7;
}

struct Cell {
   float v = 1.25f;
   int tag = count_ctor();
   __device__ ~Cell() { atomicAdd(&g_dtor, 1u); }
   __device__ float value() const { return v * 2.0f + (float)tag; }
};

struct __align__(16) Wide {
   double d[2] = { 0.5, 0.25 };
   __device__ ~Wide() { atomicAdd(&g_dtor, 1u); }
};

/* out[b*NT + t] = 2*in[mirror] + (mirror) + (t+1)%NT + lambda's read;
 * sums[b] = the block's sum; sizes[0..1] = sizeof the array, the scalar */
__global__ void k_tile(const float *in, float *out, float *sums, unsigned *sizes)
{
   __shared__ Cell tile[NT];
   __shared__ Cell total;
   int t = threadIdx.x, b = blockIdx.x;
   auto later = [=](int i) { return tile[i].v + (float)tile[i].tag; };
   tile[t].v = in[b * NT + t];
   tile[t].tag = t;
   if (t == 0) {
      total.v = 0.0f;
      total.tag = -1;
   }
   __syncthreads();
   atomicAdd(&total.v, tile[t].v);
   float r = tile[NT - 1 - t].value() + (float)tile[(t + 1) % NT].tag + later((t + 5) % NT);
   __syncthreads();
   out[b * NT + t] = r;
   if (t == 0) {
      sums[b] = total.v + (float)total.tag;
      sizes[0] = sizeof(tile);
      sizes[1] = sizeof(total);
   }
}

__device__ double exchange(int t, unsigned *info)
{
   __shared__ Wide w;
   __shared__ Wide
      grid[4][NT / 4];   /* a declaration over two lines */
   grid[t / (NT / 4)][t % (NT / 4)].d[0] = t * 0.5;
   grid[t / (NT / 4)][t % (NT / 4)].d[1] = t * 0.25;
   if (t == 0) {
      w.d[0] = 3.0;
      w.d[1] = -1.0;
   }
   __syncthreads();
   int u = NT - 1 - t;
   double r = grid[u / (NT / 4)][u % (NT / 4)].d[0] + grid[u / (NT / 4)][u % (NT / 4)].d[1] * w.d[0] + w.d[1];
   if (t == 0) {
      info[0] = (unsigned)((size_t)&w % 16);
      info[1] = (unsigned)((size_t)&grid[1][3] % 16);
      info[2] = sizeof(w);
      info[3] = sizeof(grid);
   }
   return r;
}

__global__ void k_wide(double *out, unsigned *info)
{
   out[blockIdx.x * NT + threadIdx.x] = exchange(threadIdx.x, info);
}

__device__ void put(Cell &c, int t)
{
   c.v = (float)(t * 3);
   c.tag = -t;
}
__device__ float get(const Cell &c) { return c.value(); }
__device__ void put(float &f, int t) { f = (float)(t * 5); }
__device__ float get(float f) { return f + 0.5f; }

template <class T, int N> __global__ void k_tmpl(float *out)
{
   __shared__ T buf[N];
   int t = threadIdx.x;
   put(buf[t], t);
   __syncthreads();
   out[t] = get(buf[(t + 9) % N]) + (float)sizeof(buf);
}

int main()
{
   check_begin("shared_ctor");
   float h_in[NB * NT], h_out[NB * NT], h_sums[NB];
   unsigned h_sizes[2];
   for (int i = 0; i < NB * NT; i++)
      h_in[i] = (float)((i * 37) % 101) - 50.0f;   /* small integers: every sum is exact */
   float *d_in, *d_out, *d_sums;
   unsigned *d_sizes;
   CHECK_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
   CHECK_CUDA(cudaMalloc(&d_out, sizeof(h_out)));
   CHECK_CUDA(cudaMalloc(&d_sums, sizeof(h_sums)));
   CHECK_CUDA(cudaMalloc(&d_sizes, sizeof(h_sizes)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
   k_tile<<<NB, NT>>>(d_in, d_out, d_sums, d_sizes);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(h_sizes, d_sizes, sizeof(h_sizes), cudaMemcpyDeviceToHost));
   float want[NB * NT], want_sums[NB];
   for (int b = 0; b < NB; b++) {
      float s = 0.0f;
      for (int t = 0; t < NT; t++) {
         int m = NT - 1 - t, l = (t + 5) % NT;
         want[b * NT + t] = (h_in[b * NT + m] * 2.0f + (float)m) + (float)((t + 1) % NT) +
                            (h_in[b * NT + l] + (float)l);
         s += h_in[b * NT + t];
      }
      want_sums[b] = s - 1.0f;
   }
   CHECK_ARRAY_F32("tile: cells read back", h_out, want, NB * NT);
   CHECK_ARRAY_F32("tile: the scalar's sum", h_sums, want_sums, NB);
   CHECK_INT(h_sizes[0], NT * sizeof(float) * 2);
   CHECK_INT(h_sizes[1], sizeof(float) * 2);

   double *d_wide, h_wide[2 * NT], want_wide[2 * NT];
   unsigned *d_info, h_info[4];
   CHECK_CUDA(cudaMalloc(&d_wide, sizeof(h_wide)));
   CHECK_CUDA(cudaMalloc(&d_info, sizeof(h_info)));
   k_wide<<<2, NT>>>(d_wide, d_info);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h_wide, d_wide, sizeof(h_wide), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(h_info, d_info, sizeof(h_info), cudaMemcpyDeviceToHost));
   int wide_bad = 0;
   for (int i = 0; i < 2 * NT; i++) {
      int u = NT - 1 - i % NT;
      want_wide[i] = u * 0.5 + u * 0.25 * 3.0 - 1.0;
      wide_bad += h_wide[i] != want_wide[i];
   }
   CHECK_INT(wide_bad, 0);
   CHECK_INT(h_info[0], 0);
   CHECK_INT(h_info[1], 0);
   CHECK_INT(h_info[2], 16);
   CHECK_INT(h_info[3], NT * 16);

   float h_t[NT], want_t[NT];
   k_tmpl<Cell, NT><<<1, NT>>>(d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h_t, d_out, sizeof(h_t), cudaMemcpyDeviceToHost));
   for (int t = 0; t < NT; t++) {
      int j = (t + 9) % NT;
      want_t[t] = (float)(j * 3) * 2.0f - (float)j + (float)(NT * 8);
   }
   CHECK_ARRAY_F32("tmpl<Cell>", h_t, want_t, NT);
   k_tmpl<float, NT><<<1, NT>>>(d_out);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h_t, d_out, sizeof(h_t), cudaMemcpyDeviceToHost));
   for (int t = 0; t < NT; t++)
      want_t[t] = (float)((t + 9) % NT * 5) + 0.5f + (float)(NT * 4);
   CHECK_ARRAY_F32("tmpl<float>", h_t, want_t, NT);

   unsigned ctor = 1, dtor = 1;
   CHECK_CUDA(cudaMemcpyFromSymbol(&ctor, g_ctor, sizeof(ctor)));
   CHECK_CUDA(cudaMemcpyFromSymbol(&dtor, g_dtor, sizeof(dtor)));
   CHECK_INT(ctor, 0);
   CHECK_INT(dtor, 0);
   cudaFree(d_in);
   cudaFree(d_out);
   cudaFree(d_sums);
   cudaFree(d_sizes);
   cudaFree(d_wide);
   cudaFree(d_info);
   return check_end();
}
