/*
 * function.c — kernel attributes (cudaFuncGetAttributes, cudaFuncSet*,
 * cudaFuncGetName) and the occupancy calculator (cudaOccupancy*), through
 * the driver's cuFunc* / cuOccupancy* on the kernel's CUfunction.
 *
 * cuda_runtime.h's templates cudaOccupancyMaxPotentialBlockSize(...) are
 * built on cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
 * cudaFuncGetAttributes and cudaDeviceGetAttribute, which all answer from
 * the same multiprocessor model (src/core/function.c).
 *
 * A function pointer that is NULL is cudaErrorInvalidDeviceFunction, one
 * that is not a registered kernel cudaErrorInvalidResourceHandle (NVIDIA's
 * answers on an H200, CUDA 13.0).
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(launch);

/* The driver function of a registered kernel (by host stub or
 * cudaKernel_t), its module loaded in the current device's primary
 * context, or of a library's kernel (library.c). */
static cudaError_t function_of(const void *func, CUfunction *out)
{
   return rt_kernel_of(func, out);
}

static CUresult read_attributes(struct cudaFuncAttributes *a, CUfunction k)
{
   static const CUfunction_attribute size_attrs[] = {
      CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
      CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES,
      CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
   };
   size_t *sizes[] = { &a->sharedSizeBytes, &a->constSizeBytes, &a->localSizeBytes };
   const struct {
      CUfunction_attribute attr;
      int *field;
   } ints[] = {
      { CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &a->maxThreadsPerBlock },
      { CU_FUNC_ATTRIBUTE_NUM_REGS, &a->numRegs },
      { CU_FUNC_ATTRIBUTE_PTX_VERSION, &a->ptxVersion },
      { CU_FUNC_ATTRIBUTE_BINARY_VERSION, &a->binaryVersion },
      { CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, &a->cacheModeCA },
      { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, &a->maxDynamicSharedSizeBytes },
      { CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, &a->preferredShmemCarveout },
      { CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, &a->clusterDimMustBeSet },
      { CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, &a->requiredClusterWidth },
      { CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, &a->requiredClusterHeight },
      { CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, &a->requiredClusterDepth },
      { CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, &a->clusterSchedulingPolicyPreference },
      { CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, &a->nonPortableClusterSizeAllowed },
   };
   memset(a, 0, sizeof(*a));
   CUresult r = CUDA_SUCCESS;
   for (size_t i = 0; i < sizeof(size_attrs) / sizeof(size_attrs[0]) && r == CUDA_SUCCESS; i++) {
      int v = 0;
      r = cuFuncGetAttribute(&v, size_attrs[i], k);
      *sizes[i] = (size_t)v;
   }
   for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]) && r == CUDA_SUCCESS; i++)
      r = cuFuncGetAttribute(ints[i].field, ints[i].attr, k);
   return r;
}

/* ==== cudaFuncGetAttributes (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
   RT_ENTER("attr=%p func=%p", (void *)attr, func);
   RT_CHECK(func, cudaErrorInvalidDeviceFunction);
   RT_CHECK(attr, cudaErrorInvalidValue);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(read_attributes(attr, k));
}

/* ==== cudaFuncSetAttribute (libcudart.@) ==== cudaFuncAttribute numbers
 * are the driver's CUfunction_attribute numbers */
cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
   RT_ENTER("func=%p attr=%d value=%d", func, (int)attr, value);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuFuncSetAttribute(k, (CUfunction_attribute)attr, value));
}

/* ==== cudaFuncSetCacheConfig (libcudart.@) ==== a preference (core) */
cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
   RT_ENTER("func=%p cacheConfig=%d", func, (int)cacheConfig);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuFuncSetCacheConfig(k, (CUfunc_cache)cacheConfig));
}

/* ==== cudaFuncSetSharedMemConfig (libcudart.@) ==== accepted without
 * effect where the bank size is fixed, as CUDA does */
cudaError_t CUDARTAPI cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
   RT_ENTER("func=%p config=%d", func, (int)config);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuFuncSetSharedMemConfig(k, (CUsharedconfig)config));
}

/* ==== cudaFuncGetName (libcudart.@) ==== the mangled name, as NVIDIA */
cudaError_t CUDARTAPI cudaFuncGetName(const char **name, const void *func)
{
   RT_ENTER("name=%p func=%p", (void *)name, func);
   RT_CHECK(func, cudaErrorInvalidDeviceFunction);
   RT_CHECK(name, cudaErrorInvalidValue);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuFuncGetName(name, k));
}

/* ==== cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                             int blockSize, size_t dynamicSMemSize,
                                                                             unsigned int flags)
{
   RT_ENTER("numBlocks=%p func=%p blockSize=%d dynamicSMemSize=%zu flags=%#x", (void *)numBlocks, func, blockSize,
            dynamicSMemSize, flags);
   RT_CHECK(numBlocks, cudaErrorInvalidValue);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, k, blockSize,
                                                                            dynamicSMemSize, flags));
}

/* ==== cudaOccupancyMaxActiveBlocksPerMultiprocessor (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                    size_t dynamicSMemSize)
{
   return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                 0 /* cudaOccupancyDefault */);
}

/* ==== cudaOccupancyAvailableDynamicSMemPerBlock (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                int numBlocks, int blockSize)
{
   RT_ENTER("dynamicSmemSize=%p func=%p numBlocks=%d blockSize=%d", (void *)dynamicSmemSize, func, numBlocks,
            blockSize);
   RT_CHECK(dynamicSmemSize, cudaErrorInvalidValue);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, k, numBlocks, blockSize));
}

/* ==== cudaGetFuncBySymbol (libcudart.@) ==== the driver function of a
 * kernel (loaded in the current device's primary context) */
cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
   RT_ENTER("functionPtr=%p symbolPtr=%p", (void *)functionPtr, symbolPtr);
   RT_CHECK(functionPtr, cudaErrorInvalidValue);
   CUfunction k;
   cudaError_t e = function_of(symbolPtr, &k);
   if (e == cudaSuccess)
      *functionPtr = (cudaFunction_t)k;
   return RT_RETURN(e);
}

/* ==== cudaFuncGetParamInfo (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                           size_t *paramSize)
{
   RT_ENTER("func=%p paramIndex=%zu paramOffset=%p paramSize=%p", func, paramIndex, (void *)paramOffset,
            (void *)paramSize);
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuFuncGetParamInfo(k, paramIndex, paramOffset, paramSize));
}

/* A cluster query of the driver on a runtime launch configuration (the
 * attributes share their layout). */
static cudaError_t cluster_query(int *out, const void *func, const cudaLaunchConfig_t *c,
                                 CUresult (*query)(int *, CUfunction, const CUlaunchConfig *))
{
   if (!out || !c)
      return cudaErrorInvalidValue;
   CUfunction k;
   cudaError_t e = function_of(func, &k);
   if (e != cudaSuccess)
      return e;
   CUlaunchConfig d = { c->gridDim.x, c->gridDim.y, c->gridDim.z, c->blockDim.x, c->blockDim.y, c->blockDim.z,
                        (unsigned)c->dynamicSmemBytes, (CUstream)c->stream, (CUlaunchAttribute *)c->attrs,
                        c->numAttrs };
   return cu_to_cuda_error(query(out, k, &d));
}

/* ==== cudaOccupancyMaxPotentialClusterSize (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                          const cudaLaunchConfig_t *launchConfig)
{
   RT_ENTER("clusterSize=%p func=%p launchConfig=%p", (void *)clusterSize, func, (const void *)launchConfig);
   return RT_RETURN(cluster_query(clusterSize, func, launchConfig, cuOccupancyMaxPotentialClusterSize));
}

/* ==== cudaOccupancyMaxActiveClusters (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                    const cudaLaunchConfig_t *launchConfig)
{
   RT_ENTER("numClusters=%p func=%p launchConfig=%p", (void *)numClusters, func, (const void *)launchConfig);
   return RT_RETURN(cluster_query(numClusters, func, launchConfig, cuOccupancyMaxActiveClusters));
}
