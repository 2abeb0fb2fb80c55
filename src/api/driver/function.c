/*
 * function.c — kernel attributes and preferences (cuFuncSet*, cuFuncGetName)
 * and the occupancy calculator (cuOccupancy*); the model and the rules are
 * src/core/function.c's.  Thread block clusters: metalcuda launches
 * clusters of one block only (launch_ex.c), so that is the largest
 * potential cluster, and the active "clusters" of one block are the
 * blocks that fit on the device at once.
 */
#include "internal.h"

LOG_CHANNEL(launch);

/* The kernel behind a CUfunction handle, or NULL. */
static core_kernel *checked_kernel(CUfunction f)
{
   core_kernel *k = kernel_of(f);
   return core_check_kernel(k) ? k : NULL;
}

/* ==== cuFuncSetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
   API_ENTER("hfunc=%p attrib=%d value=%d", (void *)hfunc, (int)attrib, value);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(hfunc);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_kernel_set_attribute(k, (int)attrib, value));
}

/* ==== cuFuncSetCacheConfig (libcuda.@) ==== a preference, kept (core) */
CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
   API_ENTER("hfunc=%p config=%d", (void *)hfunc, (int)config);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(hfunc);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_kernel_set_cache_config(k, (int)config));
}

/* ==== cuFuncSetSharedMemConfig (libcuda.@) ==== accepted without effect,
 * as CUDA does where the bank size is fixed (cuCtxSetSharedMemConfig) */
CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
   API_ENTER("hfunc=%p config=%d", (void *)hfunc, (int)config);
   API_NEED_INIT();
   API_CHECK(checked_kernel(hfunc), CUDA_ERROR_INVALID_HANDLE);
   API_CHECK((int)config >= 0 && config <= CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuFuncGetName (libcuda.@) ==== the PTX entry name (mangled), which
 * lives as long as the module */
CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc)
{
   API_ENTER("name=%p hfunc=%p", (void *)name, (void *)hfunc);
   API_CHECK(name, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(hfunc);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   *name = k->name;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags (libcuda.@) ==== */
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                                      size_t dynamicSMemSize, unsigned int flags)
{
   API_ENTER("numBlocks=%p func=%p blockSize=%d dynamicSMemSize=%zu flags=%#x", (void *)numBlocks, (void *)func,
             blockSize, dynamicSMemSize, flags);
   API_CHECK(numBlocks, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(func);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_occupancy_blocks(k, blockSize, dynamicSMemSize, flags, numBlocks));
}

/* ==== cuOccupancyMaxActiveBlocksPerMultiprocessor (libcuda.@) ==== */
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                             size_t dynamicSMemSize)
{
   return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

/* ==== cuOccupancyMaxPotentialBlockSizeWithFlags (libcuda.@) ==== */
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                           CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                           size_t dynamicSMemSize, int blockSizeLimit,
                                                           unsigned int flags)
{
   API_ENTER("minGridSize=%p blockSize=%p func=%p blockSizeToDynamicSMemSize=%p dynamicSMemSize=%zu "
             "blockSizeLimit=%d flags=%#x",
             (void *)minGridSize, (void *)blockSize, (void *)func, (void *)(uintptr_t)blockSizeToDynamicSMemSize,
             dynamicSMemSize, blockSizeLimit, flags);
   API_CHECK(minGridSize && blockSize, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(func);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_occupancy_best_block(k, blockSizeToDynamicSMemSize, dynamicSMemSize,
                                                         blockSizeLimit, flags, minGridSize, blockSize));
}

/* ==== cuOccupancyMaxPotentialBlockSize (libcuda.@) ==== */
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit)
{
   return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                    dynamicSMemSize, blockSizeLimit, 0);
}

/* ==== cuOccupancyAvailableDynamicSMemPerBlock (libcuda.@) ==== */
CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                                         int blockSize)
{
   API_ENTER("dynamicSmemSize=%p func=%p numBlocks=%d blockSize=%d", (void *)dynamicSmemSize, (void *)func,
             numBlocks, blockSize);
   API_CHECK(dynamicSmemSize, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(func);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_occupancy_dynamic_shared(k, numBlocks, blockSize, dynamicSmemSize));
}

/* ==== cuFuncGetParamInfo (libcuda.@) ==== where a parameter lies in the
 * parameter block (the PTX .param layout, which launches use too) */
CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
   API_ENTER("func=%p paramIndex=%zu paramOffset=%p paramSize=%p", (void *)func, paramIndex, (void *)paramOffset,
             (void *)paramSize);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(func);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(paramOffset || paramSize, CUDA_ERROR_INVALID_VALUE);
   CUresult r = (CUresult)core_kernel_prepare(k);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   API_CHECK(paramIndex < k->info.nparams, CUDA_ERROR_INVALID_VALUE);
   if (paramOffset)
      *paramOffset = k->info.params[paramIndex].offset;
   if (paramSize)
      *paramSize = k->info.params[paramIndex].size;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuFuncGetModule (libcuda.@) ==== */
CUresult CUDAAPI cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
   API_ENTER("hmod=%p hfunc=%p", (void *)hmod, (void *)hfunc);
   API_CHECK(hmod, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(hfunc);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   *hmod = (CUmodule)(void *)k->module;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuFuncIsLoaded (libcuda.@) ==== kernels are translated lazily, on
 * first use, as CUDA's lazy loading loads them */
CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
   API_ENTER("state=%p function=%p", (void *)state, (void *)function);
   API_CHECK(state, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(function);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   *state = core_kernel_is_loaded(k) ? CU_FUNCTION_LOADING_STATE_LOADED : CU_FUNCTION_LOADING_STATE_UNLOADED;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuFuncLoad (libcuda.@) ==== translates and compiles it now */
CUresult CUDAAPI cuFuncLoad(CUfunction function)
{
   API_ENTER("function=%p", (void *)function);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(function);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_kernel_prepare(k));
}

/* ---- CUkernel: the same object as CUfunction here (module.c); a kernel's
 * attributes are per device in CUDA, and one object serves every device,
 * so the device only has to be valid ---- */

/* The device argument of the cuKernel* calls. */
static bool kernel_device_ok(CUdevice dev) { return core_device_get(dev) != NULL; }

/* ==== cuKernelGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
   API_ENTER("pi=%p attrib=%d kernel=%p dev=%d", (void *)pi, (int)attrib, (void *)kernel, dev);
   API_CHECK(pi, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel((CUfunction)(void *)kernel);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(kernel_device_ok(dev), CUDA_ERROR_INVALID_DEVICE);
   return API_RETURN((CUresult)core_kernel_get_attribute(k, (int)attrib, pi));
}

/* ==== cuKernelSetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
   API_ENTER("attrib=%d val=%d kernel=%p dev=%d", (int)attrib, val, (void *)kernel, dev);
   API_NEED_INIT();
   core_kernel *k = checked_kernel((CUfunction)(void *)kernel);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(kernel_device_ok(dev), CUDA_ERROR_INVALID_DEVICE);
   return API_RETURN((CUresult)core_kernel_set_attribute(k, (int)attrib, val));
}

/* ==== cuKernelSetCacheConfig (libcuda.@) ==== */
CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
   API_ENTER("kernel=%p config=%d dev=%d", (void *)kernel, (int)config, dev);
   API_NEED_INIT();
   core_kernel *k = checked_kernel((CUfunction)(void *)kernel);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(kernel_device_ok(dev), CUDA_ERROR_INVALID_DEVICE);
   return API_RETURN((CUresult)core_kernel_set_cache_config(k, (int)config));
}

/* ==== cuKernelGetName (libcuda.@) ==== */
CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc)
{
   return cuFuncGetName(name, (CUfunction)(void *)hfunc);
}

/* ==== cuKernelGetParamInfo (libcuda.@) ==== */
CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
   return cuFuncGetParamInfo((CUfunction)(void *)kernel, paramIndex, paramOffset, paramSize);
}

/* The cluster size a launch configuration asks for: its
 * CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, else 0 (none given). */
static unsigned config_cluster_blocks(const CUlaunchConfig *config)
{
   for (unsigned i = 0; i < config->numAttrs; i++) {
      const CUlaunchAttribute *a = &config->attrs[i];
      if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
         return a->value.clusterDim.x * a->value.clusterDim.y * a->value.clusterDim.z;
   }
   return 0;
}

/* ==== cuOccupancyMaxPotentialClusterSize (libcuda.@) ==== */
CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int *clusterSize, CUfunction func, const CUlaunchConfig *config)
{
   API_ENTER("clusterSize=%p func=%p config=%p", (void *)clusterSize, (void *)func, (const void *)config);
   API_CHECK(clusterSize && config, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!config->numAttrs || config->attrs, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(checked_kernel(func), CUDA_ERROR_INVALID_HANDLE);
   *clusterSize = 1;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuOccupancyMaxActiveClusters (libcuda.@) ==== */
CUresult CUDAAPI cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func, const CUlaunchConfig *config)
{
   API_ENTER("numClusters=%p func=%p config=%p", (void *)numClusters, (void *)func, (const void *)config);
   API_CHECK(numClusters && config, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!config->numAttrs || config->attrs, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_kernel *k = checked_kernel(func);
   API_CHECK(k, CUDA_ERROR_INVALID_HANDLE);
   /* CUDA: without a cluster size set on the kernel, the configuration
    * must give one */
   unsigned cluster = config_cluster_blocks(config);
   API_CHECK(cluster != 0, CUDA_ERROR_INVALID_CLUSTER_SIZE);
   if (cluster > 1)
      API_NOT_SUPPORTED("thread block clusters of more than one block (cuOccupancyMaxActiveClusters)");
   int per_sm;
   int r = core_occupancy_blocks(k, (int)(config->blockDimX * config->blockDimY * config->blockDimZ),
                                 config->sharedMemBytes, 0, &per_sm);
   if (r != CORE_SUCCESS)
      return API_RETURN((CUresult)r);
   core_sm_model m;
   core_device_sm_model(k->module->ctx->dev, &m);
   *numClusters = per_sm * (int)m.sm_count;
   return API_RETURN(CUDA_SUCCESS);
}
