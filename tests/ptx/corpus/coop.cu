// Cooperative groups: tiles, reductions, grid sync, clusters (sm_90).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void coop(int *in, int *out, int n)
{
   cg::thread_block block = cg::this_thread_block();
   cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
   cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
   __shared__ int buf[256];
   cg::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(int) * 256);
   cg::wait(block);
   int v = buf[block.thread_rank()];
   int s = cg::reduce(warp, v, cg::plus<int>());
   int m = cg::reduce(tile8, v, cg::greater<int>());
   int x = cg::exclusive_scan(warp, v);
   cg::coalesced_group active = cg::coalesced_threads();
   if (v & 1)
      v += active.shfl(v, 0) + active.size();
   block.sync();
   if (warp.thread_rank() == 0)
      atomicAdd(out, s + m + x + v);
}

__global__ void gridsync(int *out)
{
   cg::grid_group grid = cg::this_grid();
   out[grid.thread_rank()] = 1;
   grid.sync();
   out[0] += grid.size();
}

#if __CUDA_ARCH__ >= 900
__global__ void __cluster_dims__(2, 1, 1) cluster(int *out)
{
   __shared__ int sm[64];
   cg::cluster_group c = cg::this_cluster();
   sm[threadIdx.x % 64] = threadIdx.x;
   c.sync();
   int *remote = c.map_shared_rank(sm, (c.block_rank() + 1) % c.num_blocks());
   out[blockIdx.x * blockDim.x + threadIdx.x] = remote[threadIdx.x % 64] + c.block_rank();
   c.sync();
}
#endif
