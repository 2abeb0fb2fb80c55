// Tensor cores and asynchronous copies: wmma, mma.sync, ldmatrix, cp.async,
// mbarrier (cuda::barrier), TMA bulk copies and wgmma on sm_90a.
#include <cstdint>
#include <cuda/barrier>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void wmmak(const half *a, const half *b, float *c)
{
   wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
   wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
   wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
   wmma::fill_fragment(fc, 0.0f);
   wmma::load_matrix_sync(fa, a, 16);
   wmma::load_matrix_sync(fb, b, 16);
   wmma::mma_sync(fc, fa, fb, fc);
   wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

#if __CUDA_ARCH__ >= 800
__global__ void mmak(const uint32_t *a, float *d, const int4 *g)
{
   __shared__ alignas(128) uint32_t sm[1024];
   __shared__ alignas(16) int4 stage[256];
   unsigned t = threadIdx.x;
   uint32_t ra[4], rb[2];
   float acc[4] = {0, 0, 0, 0};
   uint32_t saddr = (uint32_t)__cvta_generic_to_shared(&sm[t * 4]);
   asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(saddr), "l"(a + t * 4));
   asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" ::
                    "r"((uint32_t)__cvta_generic_to_shared(&stage[t])), "l"(g + t), "r"(8));
   asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;\n\tcp.async.wait_all;" ::: "memory");
   __syncthreads();
   asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3]) : "r"(saddr));
   asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0, %1}, [%2];"
                : "=r"(rb[0]), "=r"(rb[1]) : "r"(saddr));
   asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
   asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                "{%4, %5}, {%6}, {%0, %1, %2, %3};"
                : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]));
   for (int i = 0; i < 4; i++)
      d[t * 4 + i] = acc[i] + stage[t].x;
}

__global__ void barrierk(int *out)
{
#pragma nv_diag_suppress static_var_with_dynamic_init
   __shared__ cuda::barrier<cuda::thread_scope_block> bar;
   __shared__ int buf[128];
   if (threadIdx.x == 0)
      init(&bar, blockDim.x);
   __syncthreads();
   cuda::memcpy_async(buf, out, sizeof(buf), bar);
   bar.arrive_and_wait();
   out[threadIdx.x] = buf[threadIdx.x % 128] + 1;
}
#endif

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__global__ void hopper(const int4 *g, float *d, uint64_t desc_a, uint64_t desc_b)
{
   __shared__ alignas(128) int4 sm[256];
   __shared__ alignas(8) uint64_t mbar;
   uint32_t bar = (uint32_t)__cvta_generic_to_shared(&mbar);
   uint32_t dst = (uint32_t)__cvta_generic_to_shared(sm);
   if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
      asm volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;");
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" ::"r"(bar));
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, [%2];"
                   ::"r"(dst), "l"(g), "r"(bar) : "memory");
   }
   asm volatile("{\n\t.reg .pred done;\nLAB_WAIT%=:\n\t"
                "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t"
                "@!done bra LAB_WAIT%=;\n\t}" ::"r"(bar));
   float acc[8] = {};
   asm volatile("wgmma.fence.sync.aligned;");
   asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %10, 0;\n\t"
                "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
                "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 1;\n\t}"
                : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]),
                  "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7])
                : "l"(desc_a), "l"(desc_b), "r"(1));
   asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;" ::: "memory");
   asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
   asm volatile("griddepcontrol.wait;\n\tgriddepcontrol.launch_dependents;");
   unsigned leader;
   asm volatile("{\n\t.reg .pred e;\n\telect.sync %0|e, 0xffffffff;\n\t}" : "=r"(leader));
   acc[0] += leader;
   for (int i = 0; i < 8; i++)
      d[threadIdx.x * 8 + i] = acc[i] + sm[threadIdx.x].x;
}
#endif
