/*
 * coop_grid.cu — cooperative launches and grid-wide synchronisation
 * (cooperative_groups::this_grid().sync(), CUDA 13; expectations observed
 * on an H200, driver 580):
 *
 *  - cudaDevAttrCooperativeLaunch is 1 and cudaDeviceProp.cooperativeLaunch
 *    agrees;
 *  - a grid of exactly occupancy x multiprocessors blocks (the largest a
 *    cooperative launch may have) runs 16 phases of a stencil in place,
 *    each phase reading what every other block wrote in the previous one,
 *    with grid.sync() between reads and writes: equal to a host reference;
 *  - 300 grid.sync() in a row passing a token around the blocks (each step
 *    reads the neighbour block's word written before the barrier);
 *  - grid.is_valid() is true in a cooperative launch, and in an ordinary one
 *    too (NVIDIA's driver 580 gives every launch a grid workspace: seen on
 *    an H200); grid.size(), thread_rank(), num_blocks(), block_rank() on a
 *    2-D grid of 2-D blocks;
 *  - one block more than fits: cudaErrorCooperativeLaunchTooLarge, not
 *    sticky (the next launch works);
 *  - the driver's cuLaunchCooperativeKernel (through
 *    cudaGetDriverEntryPointByVersion) on the same kernel;
 *  - dynamic shared memory reduces the largest cooperative grid as the
 *    occupancy calculator says;
 *  - last (the error is sticky): one block faults on an invalid address
 *    while the others wait at grid.sync(): cudaErrorIllegalAddress, no hang.
 */
#include "check.h"

#include <cooperative_groups.h>
#include <cuda.h>

namespace cg = cooperative_groups;

#define PHASES 16
#define TOKEN_STEPS 300

/* In place: x[i] = x[i-1] + 2 x[i] + x[i+1] (mod 2^32, circular), each
 * phase reading only values of the previous phase. */
__global__ void k_stencil(unsigned *x, unsigned *tmp, int n)
{
   cg::grid_group g = cg::this_grid();
   for (int p = 0; p < PHASES; p++) {
      for (long long i = g.thread_rank(); i < n; i += g.size())
         tmp[i] = x[(i + n - 1) % n] + 2u * x[i] + x[(i + 1) % n] + (unsigned)p;
      g.sync();
      for (long long i = g.thread_rank(); i < n; i += g.size())
         x[i] = tmp[i];
      g.sync();
   }
}

/* Block b's thread 0 keeps a word; at step s it adds its neighbour's
 * word of step s-1 to its own. */
__global__ void k_token(unsigned *w, unsigned *out)
{
   cg::grid_group g = cg::this_grid();
   unsigned nb = gridDim.x, b = blockIdx.x;
   unsigned mine = b + 1;
   if (threadIdx.x == 0)
      w[b] = mine;
   for (int s = 0; s < TOKEN_STEPS; s++) {
      g.sync();
      unsigned other = 0;
      if (threadIdx.x == 0)
         other = ((volatile unsigned *)w)[(b + 1) % nb];
      g.sync();
      if (threadIdx.x == 0) {
         mine = mine * 3u + other;
         w[b] = mine;
      }
   }
   if (threadIdx.x == 0)
      out[b] = mine;
}

__global__ void k_ranks(unsigned long long *out)
{
   cg::grid_group g = cg::this_grid();
   unsigned long long r = g.thread_rank();
   if (r == 0) {
      out[0] = g.is_valid();
      out[1] = g.size();
      out[2] = g.num_blocks();
      out[3] = g.num_threads();
   }
   g.sync();
   out[4 + r] = (g.block_rank() << 32) | r;
}

__global__ void k_fault(int *bad)
{
   cg::grid_group g = cg::this_grid();
   if (blockIdx.x == 1 && threadIdx.x == 0)
      *(volatile int *)bad = 1;
   g.sync();
   g.sync();
}

__global__ void k_valid(int *out)
{
   cg::grid_group g = cg::this_grid();
   if (g.thread_rank() == 0)
      out[0] = g.is_valid();
}

static void host_stencil(unsigned *x, int n)
{
   unsigned *t = (unsigned *)malloc(n * sizeof(unsigned));
   for (int p = 0; p < PHASES; p++) {
      for (int i = 0; i < n; i++)
         t[i] = x[(i + n - 1) % n] + 2u * x[i] + x[(i + 1) % n] + (unsigned)p;
      memcpy(x, t, n * sizeof(unsigned));
   }
   free(t);
}

int main()
{
   check_begin("coop_grid");
   int dev = 0, coop = -1, sms = 0;
   CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
   CHECK_INT(coop, 1);
   cudaDeviceProp prop;
   CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
   CHECK_INT(prop.cooperativeLaunch, 1);
   CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));

   /* the stencil on the largest cooperative grid */
   const int threads = 128;
   int per_sm = 0;
   CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_stencil, threads, 0));
   int blocks = per_sm * sms;
   printf("  %d multiprocessors x %d blocks of %d threads\n", sms, per_sm, threads);
   CHECK(blocks > 0);
   int n = blocks * threads * 3 + 77;
   unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), *ref = (unsigned *)malloc(n * sizeof(unsigned));
   for (int i = 0; i < n; i++)
      h[i] = ref[i] = (unsigned)i * 2654435761u;
   host_stencil(ref, n);
   unsigned *dx, *dt;
   CHECK_CUDA(cudaMalloc(&dx, n * sizeof(unsigned)));
   CHECK_CUDA(cudaMalloc(&dt, n * sizeof(unsigned)));
   CHECK_CUDA(cudaMemcpy(dx, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
   void *args[] = { &dx, &dt, &n };
   CHECK_CUDA(cudaLaunchCooperativeKernel((void *)k_stencil, blocks, threads, args, 0, 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, dx, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("stencil after 16 grid-synchronised phases", h, ref, n);

   /* one block too many: refused, not sticky */
   CHECK_ERR(cudaLaunchCooperativeKernel((void *)k_stencil, blocks + 1, threads, args, 0, 0),
             cudaErrorCooperativeLaunchTooLarge);
   CHECK_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   /* a 2-D grid counts all its blocks */
   CHECK_ERR(cudaLaunchCooperativeKernel((void *)k_stencil, dim3(blocks, 2), threads, args, 0, 0),
             cudaErrorCooperativeLaunchTooLarge);
   CHECK_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);

   /* the token ring: 300 barriers */
   int tblocks = blocks < 64 ? blocks : 64;
   unsigned *dw, *dout;
   CHECK_CUDA(cudaMalloc(&dw, tblocks * sizeof(unsigned)));
   CHECK_CUDA(cudaMalloc(&dout, tblocks * sizeof(unsigned)));
   void *targs[] = { &dw, &dout };
   CHECK_CUDA(cudaLaunchCooperativeKernel((void *)k_token, tblocks, 64, targs, 0, 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned tok[64], tref[64], tnext[64];
   for (int b = 0; b < tblocks; b++)
      tref[b] = b + 1;
   for (int s = 0; s < TOKEN_STEPS; s++) {
      for (int b = 0; b < tblocks; b++)
         tnext[b] = tref[b] * 3u + tref[(b + 1) % tblocks];
      memcpy(tref, tnext, sizeof(tnext));
   }
   CHECK_CUDA(cudaMemcpy(tok, dout, tblocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("token ring after 300 grid barriers", tok, tref, tblocks);

   /* ranks on a 2-D grid of 2-D blocks */
   dim3 rg(3, 2), rb(8, 4);
   int rn = 6 * 32;
   uint64_t *dr, hr[4 + 6 * 32];
   CHECK_CUDA(cudaMalloc(&dr, sizeof(hr)));
   CHECK_CUDA(cudaMemset(dr, 0xff, sizeof(hr)));
   void *rargs[] = { &dr };
   CHECK_CUDA(cudaLaunchCooperativeKernel((void *)k_ranks, rg, rb, rargs, 0, 0));
   CHECK_CUDA(cudaMemcpy(hr, dr, sizeof(hr), cudaMemcpyDeviceToHost));
   CHECK_INT(hr[0], 1);
   CHECK_INT(hr[1], rn);
   CHECK_INT(hr[2], 6);
   CHECK_INT(hr[3], rn);
   uint64_t want[6 * 32];
   for (int r = 0; r < rn; r++)
      want[r] = ((unsigned long long)(r / 32) << 32) | (unsigned)r;
   CHECK_ARRAY_U64("block_rank:thread_rank", hr + 4, want, rn);

   /* is_valid() in an ordinary launch: true on an H200 (driver 580) */
   int *dv, hv = -1;
   CHECK_CUDA(cudaMalloc(&dv, sizeof(int)));
   k_valid<<<2, 32>>>(dv);
   CHECK_CUDA(cudaMemcpy(&hv, dv, sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_INT(hv, 1);
   hv = -1;
   void *vargs[] = { &dv };
   CHECK_CUDA(cudaLaunchCooperativeKernel((void *)k_valid, 2, 32, vargs, 0, 0));
   CHECK_CUDA(cudaMemcpy(&hv, dv, sizeof(int), cudaMemcpyDeviceToHost));
   CHECK_INT(hv, 1);

   /* the driver's entry point */
   void *fn = NULL;
   cudaDriverEntryPointQueryResult st;
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuLaunchCooperativeKernel", &fn, 12000, cudaEnableDefault, &st));
   CHECK(fn != NULL);
   cudaFunction_t cf;
   CHECK_CUDA(cudaGetFuncBySymbol(&cf, (const void *)k_token));
   if (fn) {
      typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, CUstream, void **);
      CHECK_CUDA(cudaMemset(dout, 0, tblocks * sizeof(unsigned)));
      CHECK_INT(((launch_fn)fn)((CUfunction)cf, tblocks, 1, 1, 64, 1, 1, 0, NULL, targs), CUDA_SUCCESS);
      CHECK_CUDA(cudaMemcpy(tok, dout, tblocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
      CHECK_ARRAY_U32("token ring through cuLaunchCooperativeKernel", tok, tref, tblocks);
      CHECK_INT(((launch_fn)fn)((CUfunction)cf, blocks * 100, 1, 1, 64, 1, 1, 0, NULL, targs),
                CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
   }

   /* dynamic shared memory lowers the limit as occupancy says */
   size_t dyn = prop.sharedMemPerBlock / 2;
   int per_sm_dyn = 0;
   CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_dyn, k_token, 64, dyn));
   CHECK(per_sm_dyn >= 1);
   CHECK_ERR(cudaLaunchCooperativeKernel((void *)k_token, per_sm_dyn * sms + 1, 64, targs, dyn, 0),
             cudaErrorCooperativeLaunchTooLarge);
   CHECK_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);

   /* a fault while the other blocks wait at the grid barrier */
   int *bad = (int *)0x10;
   void *fargs[] = { &bad };
   CHECK_CUDA(cudaLaunchCooperativeKernel((void *)k_fault, 4, 32, fargs, 0, 0));
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);

   cudaFree(dx);
   cudaFree(dt);
   cudaFree(dw);
   cudaFree(dout);
   cudaFree(dr);
   cudaFree(dv);
   free(h);
   free(ref);
   return check_end();
}
