// libcu++'s cuda::ptx wrappers: the Hopper/Blackwell instruction families
// (mbarrier, TMA, cluster, async stores, tensormap, tcgen05, multimem),
// compiled for sm_90a and sm_100a by gen.sh.
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

__global__ void hopper_ptx(const void *tmap, int *gout, uint64_t *gbar, int4 *g)
{
#if __CUDA_ARCH__ >= 900
   __shared__ alignas(128) int smem[1024];
   __shared__ alignas(8) uint64_t bar;
   if (threadIdx.x == 0) {
      ptx::mbarrier_init(&bar, 1);
      ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
      ptx::fence_proxy_async(ptx::space_shared);
      int32_t coords[2] = {0, (int32_t)blockIdx.x};
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, smem, tmap, coords, &bar);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, smem + 512, g, 1024, &bar);
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 5120);
   }
   while (!ptx::mbarrier_try_wait_parity(&bar, 0))
      ;
   uint64_t st = ptx::mbarrier_arrive(&bar);
   (void)ptx::mbarrier_test_wait(&bar, st);
   ptx::fence(ptx::sem_acq_rel, ptx::scope_gpu);
   ptx::fence_proxy_async();
   ptx::barrier_cluster_arrive();
   ptx::barrier_cluster_wait();
   ptx::barrier_cluster_arrive(ptx::sem_relaxed);
   ptx::barrier_cluster_wait();
   uint32_t rank = ptx::getctarank(ptx::space_cluster, smem);
   ptx::st_async(smem + 4, (int32_t)rank, &bar);
   ptx::red_async(ptx::op_add, (uint32_t *)smem + 8, 1u, &bar);
   if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, gout, smem, 1024);
      ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, gout, smem, 1024);
      ptx::cp_async_bulk_commit_group();
      ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
      ptx::tensormap_replace_global_address(ptx::space_global, (void *)tmap, (uint64_t)g);
      ptx::tensormap_replace_rank(ptx::space_global, (void *)tmap, 2);
      ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
   }
   gout[threadIdx.x] = smem[threadIdx.x] + ptx::get_sreg_clusterid_x() + ptx::get_sreg_cluster_ctarank() +
                       ptx::get_sreg_laneid() + (int)ptx::get_sreg_globaltimer();
#endif
}

#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
__global__ void blackwell_ptx(float *out, uint64_t adesc, uint64_t bdesc, uint32_t idesc)
{
   __shared__ alignas(16) uint32_t taddr_slot;
   __shared__ alignas(8) uint64_t bar;
   if (threadIdx.x < 32) {
      ptx::tcgen05_alloc(ptx::cta_group_1, &taddr_slot, 32);
      ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
   }
   ptx::tcgen05_fence_before_thread_sync();
   __syncthreads();
   ptx::tcgen05_fence_after_thread_sync();
   uint32_t taddr = taddr_slot;
   if (threadIdx.x == 0) {
      ptx::mbarrier_init(&bar, 1);
      ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, taddr, adesc, bdesc, idesc, true);
      ptx::tcgen05_commit(ptx::cta_group_1, &bar);
      ptx::tcgen05_cp_128x256b(ptx::cta_group_1, taddr, adesc);
      ptx::tcgen05_shift_down(ptx::cta_group_1, taddr);
   }
   uint32_t r[4];
   ptx::tcgen05_ld_16x64b(r, taddr);
   ptx::tcgen05_wait_ld();
   ptx::tcgen05_st_16x64b(taddr, r);
   ptx::tcgen05_wait_st();
   out[threadIdx.x] = __uint_as_float(r[0] + r[1] + r[2] + r[3]);
   if (threadIdx.x < 32)
      ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, 32);
   ptx::st_bulk((void *)&bar, 8, ptx::n32_t<0>());
}
#endif
