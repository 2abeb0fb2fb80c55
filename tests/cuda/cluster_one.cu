// nvcc-flags: -arch=sm_90
// cluster_one — thread block clusters of one block, the shape every grid
// launched without a cluster attribute has, and the one metalcuda launches:
// cooperative_groups::this_cluster() (ranks, sizes, map_shared_rank,
// cluster.sync()) in a plain <<<>>> launch, in cudaLaunchKernelEx with
// cudaLaunchAttributeClusterDimension {1,1,1}, and in a kernel declared
// __cluster_dims__(1, 1, 1).  Each block reverses its slice of the input
// through shared memory reached by map_shared_rank across cluster.sync();
// the expected values are computed on the host.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

namespace cg = cooperative_groups;

enum { BLOCK = 128, GRID = 6, N = BLOCK * GRID };

// out[g]: the reversed slice; info[b]: what the cluster says about block b.
__device__ void reverse_in_cluster(const uint32_t *in, uint32_t *out, uint32_t *info)
{
   __shared__ uint32_t tile[BLOCK];
   cg::cluster_group cluster = cg::this_cluster();
   unsigned t = threadIdx.x, g = blockIdx.x * BLOCK + t;
   tile[t] = in[g] * 3u + 1u;
   cluster.sync();
   uint32_t *peer = cluster.map_shared_rank(tile, cluster.block_rank());
   out[g] = peer[BLOCK - 1 - t];
   if (t == 0) {
      dim3 bi = cluster.block_index(), db = cluster.dim_blocks();
      info[blockIdx.x] = cluster.block_rank() | cluster.num_blocks() << 4 | cluster.num_threads() << 8 |
                         (bi.x + bi.y + bi.z) << 20 | (db.x * db.y * db.z) << 24;
   }
   cluster.sync();
}

__global__ void plain(const uint32_t *in, uint32_t *out, uint32_t *info) { reverse_in_cluster(in, out, info); }

/* clang (metalcuda's nvcc) has no attribute for __cluster_dims__: that
 * form is built by NVIDIA's nvcc only */
#if !defined(__clang__)
#define HAVE_CLUSTER_DIMS 1
__global__ void __cluster_dims__(1, 1, 1) fixed(const uint32_t *in, uint32_t *out, uint32_t *info)
{
   reverse_in_cluster(in, out, info);
}
#endif

static void check_result(const char *what, const uint32_t *in, uint32_t *dout, uint32_t *dinfo)
{
   static uint32_t out[N], want[N], info[GRID], want_info[GRID];
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(info, dinfo, sizeof(info), cudaMemcpyDeviceToHost));
   for (unsigned b = 0; b < GRID; b++) {
      for (unsigned t = 0; t < BLOCK; t++)
         want[b * BLOCK + t] = in[b * BLOCK + BLOCK - 1 - t] * 3u + 1u;
      /* rank 0 of 1 block, BLOCK threads, block index 0, 1 block */
      want_info[b] = 0u | 1u << 4 | (uint32_t)BLOCK << 8 | 0u << 20 | 1u << 24;
   }
   printf("%s\n", what);
   CHECK_ARRAY_U32("reversed slices", out, want, N);
   CHECK_ARRAY_U32("cluster info", info, want_info, GRID);
   CHECK_CUDA(cudaMemset(dout, 0xde, sizeof(out)));
   CHECK_CUDA(cudaMemset(dinfo, 0xde, sizeof(info)));
}

int main(void)
{
   check_begin("cluster_one");
   static uint32_t in[N];
   for (unsigned k = 0; k < N; k++)
      in[k] = mix32(k + 17u);
   uint32_t *din, *dout, *dinfo;
   CHECK_CUDA(cudaMalloc(&din, sizeof(in)));
   CHECK_CUDA(cudaMalloc(&dout, N * sizeof(uint32_t)));
   CHECK_CUDA(cudaMalloc(&dinfo, GRID * sizeof(uint32_t)));
   CHECK_CUDA(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));

   plain<<<GRID, BLOCK>>>(din, dout, dinfo);
   CHECK_CUDA(cudaGetLastError());
   check_result("<<<>>> without a cluster shape", in, dout, dinfo);

   cudaLaunchAttribute attr;
   memset(&attr, 0, sizeof(attr));
   attr.id = cudaLaunchAttributeClusterDimension;
   attr.val.clusterDim.x = attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
   cudaLaunchConfig_t cfg;
   memset(&cfg, 0, sizeof(cfg));
   cfg.gridDim = dim3(GRID);
   cfg.blockDim = dim3(BLOCK);
   cfg.attrs = &attr;
   cfg.numAttrs = 1;
   CHECK_CUDA(cudaLaunchKernelEx(&cfg, plain, (const uint32_t *)din, dout, dinfo));
   check_result("cudaLaunchKernelEx with clusters of 1 x 1 x 1", in, dout, dinfo);

#if HAVE_CLUSTER_DIMS
   fixed<<<GRID, BLOCK>>>(din, dout, dinfo);
   CHECK_CUDA(cudaGetLastError());
   check_result("__cluster_dims__(1, 1, 1)", in, dout, dinfo);
#endif

   int cluster_launch = -1;
   CHECK_CUDA(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, 0));
   printf("cudaDevAttrClusterLaunch = %d\n", cluster_launch);

   CHECK_CUDA(cudaFree(din));
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFree(dinfo));
   return check_end();
}
