/*
 * occupancy.cu — the occupancy calculator's answers are consistent with
 * the device properties, with each other, and with launches (CUDA 13; the
 * error codes were observed on an H200, driver 580):
 *
 *  - cudaOccupancyMaxActiveBlocksPerMultiprocessor: at least one block for
 *    every block size up to the kernel's maxThreadsPerBlock without shared
 *    memory; never more blocks than maxBlocksPerMultiProcessor, nor more
 *    threads (in whole warps) than maxThreadsPerMultiProcessor; more
 *    dynamic shared memory never gives more blocks, and the blocks' shared
 *    memory fits in sharedMemPerMultiprocessor; 0 blocks for a block larger
 *    than the device allows; a block size of 0 or less, a NULL result or
 *    unknown flags are cudaErrorInvalidValue, a host function
 *    cudaErrorInvalidResourceHandle; cudaOccupancyDisableCachingOverride
 *    is accepted;
 *  - cudaOccupancyAvailableDynamicSMemPerBlock: never more for more blocks;
 *    that much dynamic shared memory (less the reserved shared memory per
 *    block) lets that many blocks be resident; 0 blocks, a block size of 0
 *    or too many threads for one multiprocessor are cudaErrorInvalidValue;
 *  - cudaOccupancyMaxPotentialBlockSize (cuda_runtime.h's template, also
 *    with a block-size limit and the VariableSMem form): a block size that
 *    is a multiple of the warp size within the kernel's limit, a minimum
 *    grid of resident blocks times multiprocessors, and that configuration
 *    launches and computes the right result;
 *  - cudaOccupancyMaxPotentialClusterSize is at least 1, and
 *    cudaOccupancyMaxActiveClusters for clusters of one block at least 1
 *    and at most the resident blocks per multiprocessor times the
 *    multiprocessors (NVIDIA's runtime crashes on a NULL configuration,
 *    so that is not tried).
 */
#include "check.h"

__global__ void k_empty(int *out)
{
   if (out)
      out[0] = 1;
}

__global__ void __launch_bounds__(128) k_bounded(int *out)
{
   if (out)
      out[threadIdx.x] = 1;
}

__global__ void k_static(int *out)
{
   __shared__ int s[2048];
   s[threadIdx.x] = (int)threadIdx.x;
   __syncthreads();
   if (out)
      out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

/* A grid-stride y[i] = 3 * i + 1, passed through dynamic shared memory
 * by the threads that have a slot there (slots words). */
__global__ void k_stride(int *y, int n, int slots)
{
   extern __shared__ int buf[];
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
      int v = 3 * i + 1;
      if ((int)threadIdx.x < slots) {
         buf[threadIdx.x] = v;
         v = buf[threadIdx.x];
      }
      y[i] = v;
   }
}

static size_t four_bytes_per_thread(int block_size) { return (size_t)block_size * 4; }

static void host_function(void) {}

static int active(const void *f, int bs, size_t dyn)
{
   int n = -1;
   cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, bs, dyn);
   return e == cudaSuccess ? n : -1000 - (int)e;
}

static void check_block_sizes(const cudaDeviceProp &p, const void *f, const char *name, int max_threads)
{
   int bad = 0;
   for (int bs = 1; bs <= p.maxThreadsPerBlock; bs += bs < 64 ? 1 : 32) {
      int n = active(f, bs, 0);
      int warps = (bs + p.warpSize - 1) / p.warpSize;
      bool ok = n >= 0 && n <= p.maxBlocksPerMultiProcessor && n * warps * p.warpSize <= p.maxThreadsPerMultiProcessor;
      if (bs <= max_threads)
         ok = ok && n >= 1;
      if (!ok && bad++ < 5)
         printf("  %s: %d threads per block: %d blocks per SM\n", name, bs, n);
   }
   check_int(bad, 0, name, __FILE__, __LINE__);
}

static void check_shared(const cudaDeviceProp &p)
{
   const void *f = (const void *)k_stride;
   int prev = active(f, 128, 0), bad = 0;
   for (size_t dyn = 0; dyn <= p.sharedMemPerBlock; dyn += 1024) {
      int n = active(f, 128, dyn);
      bool ok = n >= 1 && n <= prev && (dyn == 0 || (size_t)n * dyn <= p.sharedMemPerMultiprocessor);
      if (!ok && bad++ < 5)
         printf("  %zu bytes of dynamic shared memory: %d blocks per SM (before: %d)\n", dyn, n, prev);
      prev = n;
   }
   CHECK_INT(bad, 0);
   int n = active((const void *)k_static, 128, 0);
   CHECK(n >= 1 && (size_t)n * 8192 <= p.sharedMemPerMultiprocessor);
   CHECK_INT(active((const void *)k_empty, 2 * p.maxThreadsPerBlock, 0), 0);
}

static void check_errors(void)
{
   int n = -1;
   const void *f = (const void *)k_empty;
   CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 0, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, -5, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f, 32, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)host_function, 32, 0),
             cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, 32, 0, 2), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   n = -1;
   CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, 32, 0,
                                                                     cudaOccupancyDisableCachingOverride));
   CHECK_INT(n, active(f, 32, 0));
   size_t s = 0;
   CHECK_ERR(cudaOccupancyAvailableDynamicSMemPerBlock(&s, (const void *)k_stride, 0, 128), cudaErrorInvalidValue);
   CHECK_ERR(cudaOccupancyAvailableDynamicSMemPerBlock(&s, (const void *)k_stride, 1, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaOccupancyAvailableDynamicSMemPerBlock(&s, (const void *)k_stride, 100, 1024), cudaErrorInvalidValue);
   /* NVIDIA's runtime crashes on a NULL result here (H200, CUDA 13.0):
    * if (0) CHECK_ERR(cudaOccupancyAvailableDynamicSMemPerBlock(NULL, ...), cudaErrorInvalidValue); */
   cudaGetLastError();
}

static void check_available(const cudaDeviceProp &p)
{
   const void *f = (const void *)k_stride;
   size_t prev = (size_t)-1;
   for (int nb = 1; nb <= 4; nb++) {
      size_t s = 0;
      if (!CHECK_CUDA(cudaOccupancyAvailableDynamicSMemPerBlock(&s, f, nb, 128)))
         return;
      CHECK(s <= prev);
      CHECK(s <= p.sharedMemPerBlockOptin);
      size_t usable = s > p.reservedSharedMemPerBlock ? s - p.reservedSharedMemPerBlock : 0;
      int n = active(f, 128, usable);
      if (!CHECK(n >= nb))
         printf("  %d blocks: %zu bytes each (%zu usable) -> %d resident\n", nb, s, usable, n);
      prev = s;
   }
}

/* The suggested configuration launches and covers n elements. */
static void launch_and_check(int min_grid, int bs, size_t dyn, int *d_y, int n, int line)
{
   cudaGetLastError();
   k_stride<<<min_grid, bs, dyn>>>(d_y, n, (int)(dyn / 4));
   check_err(cudaGetLastError(), cudaSuccess, "launch of the suggested configuration", __FILE__, line);
   check_err(cudaDeviceSynchronize(), cudaSuccess, "cudaDeviceSynchronize", __FILE__, line);
   int *h = (int *)malloc(n * sizeof(int)), bad = 0;
   check_err(cudaMemcpy(h, d_y, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess, "cudaMemcpy", __FILE__, line);
   for (int i = 0; i < n; i++)
      bad += h[i] != 3 * i + 1;
   check_int(bad, 0, "elements wrong", __FILE__, line);
   free(h);
   CHECK_CUDA(cudaMemset(d_y, 0xff, n * sizeof(int)));
}

static void check_potential(const cudaDeviceProp &p, int *d_y, int n)
{
   int min_grid = -1, bs = -1;
   cudaFuncAttributes a;
   CHECK_CUDA(cudaFuncGetAttributes(&a, (const void *)k_stride));
   CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &bs, k_stride, 1024, 0));
   printf("  k_stride with 1 KB: block %d, minimum grid %d\n", bs, min_grid);
   CHECK(bs >= p.warpSize && bs <= a.maxThreadsPerBlock && bs % p.warpSize == 0);
   CHECK_INT(min_grid, active((const void *)k_stride, bs, 1024) * p.multiProcessorCount);
   launch_and_check(min_grid, bs, 1024, d_y, n, __LINE__);

   CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &bs, k_stride, 0, 96));
   CHECK(bs >= 1 && bs <= 96);
   launch_and_check(min_grid, bs, 0, d_y, n, __LINE__);

   CHECK_CUDA(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &bs, k_stride, four_bytes_per_thread));
   CHECK(bs >= p.warpSize && bs % p.warpSize == 0);
   launch_and_check(min_grid, bs, four_bytes_per_thread(bs), d_y, n, __LINE__);

   CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &bs, k_bounded, 0, 0));
   CHECK(bs >= p.warpSize && bs <= 128);
   CHECK_INT(min_grid, active((const void *)k_bounded, bs, 0) * p.multiProcessorCount);
   k_bounded<<<min_grid, bs>>>(NULL);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
}

/* Thread block clusters: the largest potential cluster is at least one
 * block, and clusters of one block cannot be more than the blocks that
 * fit on the device at once (at least one). */
static void check_clusters(const cudaDeviceProp &p)
{
   cudaLaunchConfig_t cfg = {};
   cfg.gridDim = dim3(p.multiProcessorCount * 4);
   cfg.blockDim = dim3(128);
   cudaLaunchAttribute at[1] = {};
   at[0].id = cudaLaunchAttributeClusterDimension;
   at[0].val.clusterDim.x = at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
   cfg.attrs = at;
   cfg.numAttrs = 1;
   int size = 0, clusters = 0, per_sm = 0;
   CHECK_CUDA(cudaOccupancyMaxPotentialClusterSize(&size, (const void *)k_empty, &cfg));
   CHECK(size >= 1);
   CHECK_CUDA(cudaOccupancyMaxActiveClusters(&clusters, (const void *)k_empty, &cfg));
   CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)k_empty, 128, 0));
   CHECK(clusters >= 1 && clusters <= per_sm * p.multiProcessorCount);
}

int main(void)
{
   check_begin("occupancy");
   cudaDeviceProp p;
   REQUIRE_CUDA(cudaGetDeviceProperties(&p, 0));
   const int n = 100000;
   int *d_y = NULL;
   REQUIRE_CUDA(cudaMalloc(&d_y, n * sizeof(int)));
   cudaFuncAttributes a;
   REQUIRE_CUDA(cudaFuncGetAttributes(&a, (const void *)k_bounded));
   check_block_sizes(p, (const void *)k_empty, "k_empty", p.maxThreadsPerBlock);
   check_block_sizes(p, (const void *)k_static, "k_static", p.maxThreadsPerBlock);
   check_block_sizes(p, (const void *)k_bounded, "k_bounded", a.maxThreadsPerBlock);
   check_shared(p);
   check_errors();
   check_available(p);
   check_potential(p, d_y, n);
   check_clusters(p);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   CHECK_CUDA(cudaFree(d_y));
   return check_end();
}
