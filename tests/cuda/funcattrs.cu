/*
 * funcattrs.cu — kernel attributes, as NVIDIA's CUDA 13 runtime has them
 * (error codes and defaults observed on an H200, driver 580):
 *
 *  - cudaFuncGetAttributes: sharedSizeBytes is the static shared memory
 *    (4096 for a 1024-int array), localSizeBytes covers a 4 KB local array
 *    indexed at run time, maxThreadsPerBlock is 128 under
 *    __launch_bounds__(128) and the device's limit otherwise, ptxVersion is
 *    75 (built for compute_75), binaryVersion the device's compute
 *    capability, maxDynamicSharedSizeBytes defaults to sharedMemPerBlock
 *    minus the static shared memory, preferredShmemCarveout to -1, no
 *    cluster requirement; NULL is cudaErrorInvalidDeviceFunction, a host
 *    function cudaErrorInvalidResourceHandle, a NULL result
 *    cudaErrorInvalidValue;
 *  - cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize):
 *    refused above sharedMemPerBlockOptin minus the static part and below
 *    0 (cudaErrorInvalidValue); a launch asking more dynamic shared memory
 *    than the kernel's maximum fails with cudaErrorInvalidValue (not
 *    sticky), one within it runs and can use all of it; where the device
 *    offers more than sharedMemPerBlock (the opt-in), a launch above
 *    sharedMemPerBlock fails before the opt-in and runs after it; lowering
 *    the maximum makes a launch above the new maximum fail;
 *  - the carveout takes -1..100, kept and read back; unknown attributes are
 *    cudaErrorInvalidValue; cudaFuncSetCacheConfig and
 *    cudaFuncSetSharedMemConfig accept valid values and refuse others;
 *  - cudaFuncGetName gives the mangled name; cudaFuncGetParamInfo the
 *    offset and size of each parameter (a pointer at 0, 8 bytes; an int at
 *    8, 4 bytes), cudaErrorInvalidValue past the last one.
 */
#include "check.h"

__global__ void k_plain(int *out) { out[threadIdx.x] = (int)threadIdx.x; }

__global__ void __launch_bounds__(128) k_bounded(int *out) { out[threadIdx.x] = 2 * (int)threadIdx.x; }

__global__ void k_static(int *out)
{
   __shared__ int s[1024];
   for (int i = threadIdx.x; i < 1024; i += blockDim.x)
      s[i] = i * 3;
   __syncthreads();
   out[threadIdx.x] = s[(threadIdx.x * 7) & 1023];
}

/* A 4 KB array indexed by data read at run time: too big for registers,
 * so it lives in local memory. */
__global__ void k_local(int *out, int k)
{
   int a[1024];
   for (int i = 0; i < 1024; i++)
      a[i] = i * k;
   out[threadIdx.x] = a[out[threadIdx.x] & 1023];
}

/* Fills all `words` words of its dynamic shared memory, then each thread
 * sums a strided share of them. */
__global__ void k_dyn(unsigned *out, int words)
{
   extern __shared__ unsigned d[];
   for (int i = threadIdx.x; i < words; i += blockDim.x)
      d[i] = (unsigned)i * 2654435761u;
   __syncthreads();
   unsigned sum = 0;
   for (int i = threadIdx.x; i < words; i += blockDim.x)
      sum += d[words - 1 - i];
   out[threadIdx.x] = sum;
}

static void host_function(void) {}

/* Launches k_dyn with `bytes` of dynamic shared memory; on success checks
 * the sums against the host. */
static void run_dyn(size_t bytes, cudaError_t want, unsigned *d_out, int line)
{
   const int threads = 64;
   int words = (int)(bytes / 4);
   cudaGetLastError();   /* earlier expected failures */
   k_dyn<<<1, threads, bytes>>>(d_out, words);
   cudaError_t e = cudaGetLastError();
   char what[96];
   snprintf(what, sizeof(what), "k_dyn<<<1, %d, %zu>>>", threads, bytes);
   if (!check_err(e, want, what, __FILE__, line) || want != cudaSuccess)
      return;
   check_err(cudaDeviceSynchronize(), cudaSuccess, "cudaDeviceSynchronize", __FILE__, line);
   unsigned got[threads], ref[threads];
   memset(ref, 0, sizeof(ref));
   for (int i = 0; i < words; i++)
      ref[i % threads] += (unsigned)(words - 1 - i) * 2654435761u;
   check_err(cudaMemcpy(got, d_out, sizeof(got), cudaMemcpyDeviceToHost), cudaSuccess, "cudaMemcpy", __FILE__, line);
   check_true(memcmp(got, ref, sizeof(got)) == 0, "k_dyn sums", __FILE__, line);
}

static void check_get_attributes(const cudaDeviceProp &p)
{
   cudaFuncAttributes a;
   CHECK_CUDA(cudaFuncGetAttributes(&a, (const void *)k_plain));
   CHECK_INT(a.sharedSizeBytes, 0);
   CHECK_INT(a.maxThreadsPerBlock, p.maxThreadsPerBlock);
   CHECK_INT(a.ptxVersion, 75);
   CHECK_INT(a.binaryVersion, p.major * 10 + p.minor);
   CHECK(a.numRegs > 0 && a.numRegs <= 255);
   CHECK_INT(a.maxDynamicSharedSizeBytes, p.sharedMemPerBlock);
   CHECK_INT(a.preferredShmemCarveout, -1);
   CHECK_INT(a.clusterDimMustBeSet, 0);
   CHECK_INT(a.requiredClusterWidth, 0);
   CHECK_INT(a.cacheModeCA, 0);

   CHECK_CUDA(cudaFuncGetAttributes(&a, (const void *)k_bounded));
   CHECK_INT(a.maxThreadsPerBlock, 128);

   CHECK_CUDA(cudaFuncGetAttributes(&a, (const void *)k_static));
   CHECK_INT(a.sharedSizeBytes, 4096);
   CHECK_INT(a.maxDynamicSharedSizeBytes, p.sharedMemPerBlock - 4096);

   CHECK_CUDA(cudaFuncGetAttributes(&a, (const void *)k_local));
   CHECK(a.localSizeBytes >= 4096);

   CHECK_ERR(cudaFuncGetAttributes(&a, NULL), cudaErrorInvalidDeviceFunction);
   CHECK_ERR(cudaFuncGetAttributes(&a, (const void *)host_function), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaFuncGetAttributes(NULL, (const void *)k_plain), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);

   const char *name = NULL;
   CHECK_CUDA(cudaFuncGetName(&name, (const void *)k_plain));
   CHECK_STR(name, "_Z7k_plainPi");
   CHECK_ERR(cudaFuncGetName(&name, (const void *)host_function), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaFuncGetName(NULL, (const void *)k_plain), cudaErrorInvalidValue);
   CHECK_ERR(cudaFuncGetName(&name, NULL), cudaErrorInvalidDeviceFunction);
   cudaGetLastError();

   size_t off = 77, size = 77;
   CHECK_CUDA(cudaFuncGetParamInfo((const void *)k_dyn, 0, &off, &size));
   CHECK_INT(off, 0);
   CHECK_INT(size, 8);
   CHECK_CUDA(cudaFuncGetParamInfo((const void *)k_dyn, 1, &off, &size));
   CHECK_INT(off, 8);
   CHECK_INT(size, 4);
   CHECK_ERR(cudaFuncGetParamInfo((const void *)k_dyn, 2, &off, &size), cudaErrorInvalidValue);
   CHECK_ERR(cudaFuncGetParamInfo((const void *)host_function, 0, &off, &size), cudaErrorInvalidResourceHandle);
   cudaGetLastError();
}

static void check_dynamic_shared(const cudaDeviceProp &p, unsigned *d_out)
{
   const void *f = (const void *)k_dyn;
   const int optin = (int)p.sharedMemPerBlockOptin, deflt = (int)p.sharedMemPerBlock;
   cudaFuncAttributes a;
   run_dyn(4096, cudaSuccess, d_out, __LINE__);
   run_dyn(deflt, cudaSuccess, d_out, __LINE__);
   run_dyn(deflt + 16, cudaErrorInvalidValue, d_out, __LINE__);
   CHECK_CUDA(cudaDeviceSynchronize());   /* not sticky */
   run_dyn(1024, cudaSuccess, d_out, __LINE__);

   CHECK_ERR(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1), cudaErrorInvalidValue);
   CHECK_ERR(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, -1), cudaErrorInvalidValue);
   CHECK_ERR(cudaFuncSetAttribute((const void *)k_static, cudaFuncAttributeMaxDynamicSharedMemorySize, optin),
             cudaErrorInvalidValue);
   CHECK_CUDA(cudaFuncSetAttribute((const void *)k_static, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   optin - 4096));
   CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
   CHECK_CUDA(cudaFuncGetAttributes(&a, f));
   CHECK_INT(a.maxDynamicSharedSizeBytes, optin);
   run_dyn(optin, cudaSuccess, d_out, __LINE__);
   run_dyn(optin + 16, cudaErrorInvalidValue, d_out, __LINE__);
   if (optin > deflt)
      printf("  the device offers %d bytes of shared memory per block with the opt-in\n", optin);

   /* a lower maximum is enforced too */
   CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
   run_dyn(1024, cudaSuccess, d_out, __LINE__);
   run_dyn(2048, cudaErrorInvalidValue, d_out, __LINE__);
   CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, deflt));
   run_dyn(2048, cudaSuccess, d_out, __LINE__);
}

static void check_other_settings(void)
{
   const void *f = (const void *)k_plain;
   cudaFuncAttributes a;
   CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
   CHECK_CUDA(cudaFuncGetAttributes(&a, f));
   CHECK_INT(a.preferredShmemCarveout, 50);
   CHECK_ERR(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, 101), cudaErrorInvalidValue);
   CHECK_ERR(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, -2), cudaErrorInvalidValue);
   CHECK_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
   CHECK_CUDA(cudaFuncGetAttributes(&a, f));
   CHECK_INT(a.preferredShmemCarveout, -1);
   CHECK_ERR(cudaFuncSetAttribute(f, (enum cudaFuncAttribute)99, 1), cudaErrorInvalidValue);
   CHECK_ERR(cudaFuncSetAttribute(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 1),
             cudaErrorInvalidDeviceFunction);
   CHECK_ERR(cudaFuncSetAttribute((const void *)host_function, cudaFuncAttributeMaxDynamicSharedMemorySize, 1),
             cudaErrorInvalidResourceHandle);

   CHECK_CUDA(cudaFuncSetCacheConfig(f, cudaFuncCachePreferL1));
   CHECK_CUDA(cudaFuncSetCacheConfig(f, cudaFuncCachePreferNone));
   CHECK_ERR(cudaFuncSetCacheConfig(f, (enum cudaFuncCache)4), cudaErrorInvalidValue);
   CHECK_ERR(cudaFuncSetCacheConfig(NULL, cudaFuncCachePreferL1), cudaErrorInvalidDeviceFunction);
   CHECK_ERR(cudaFuncSetCacheConfig((const void *)host_function, cudaFuncCachePreferL1),
             cudaErrorInvalidResourceHandle);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
   CHECK_CUDA(cudaFuncSetSharedMemConfig(f, cudaSharedMemBankSizeEightByte));
   CHECK_ERR(cudaFuncSetSharedMemConfig(f, (enum cudaSharedMemConfig)3), cudaErrorInvalidValue);
#pragma GCC diagnostic pop
   cudaGetLastError();
}

/* The kernels still run as configured. */
static void check_launches(int *d_int)
{
   int h[128], ref[128];
   k_bounded<<<1, 128>>>(d_int);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h, d_int, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 128; i++)
      ref[i] = 2 * i;
   CHECK_ARRAY_I32("k_bounded", h, ref, 128);
   k_static<<<1, 128>>>(d_int);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h, d_int, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 128; i++)
      ref[i] = ((i * 7) & 1023) * 3;
   CHECK_ARRAY_I32("k_static", h, ref, 128);
   k_local<<<1, 128>>>(d_int, 5);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h, d_int, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 128; i++)
      ref[i] = ((((i * 7) & 1023) * 3) & 1023) * 5;   /* indexed by k_static's output */
   CHECK_ARRAY_I32("k_local", h, ref, 128);
}

int main(void)
{
   check_begin("funcattrs");
   cudaDeviceProp p;
   REQUIRE_CUDA(cudaGetDeviceProperties(&p, 0));
   int *d_int = (int *)dev_alloc_fill32(1024);
   unsigned *d_out = (unsigned *)dev_alloc_fill32(1024);
   if (!d_int || !d_out)
      REQUIRE_CUDA(cudaErrorMemoryAllocation);
   check_get_attributes(p);
   check_dynamic_shared(p, d_out);
   check_other_settings();
   check_launches(d_int);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   CHECK_CUDA(cudaFree(d_int));
   CHECK_CUDA(cudaFree(d_out));
   return check_end();
}
