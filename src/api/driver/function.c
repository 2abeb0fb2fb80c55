/*
 * function.c — kernel attributes and preferences (cuFuncSet*, cuFuncGetName)
 * and the occupancy calculator (cuOccupancy*); the model and the rules are
 * src/core/function.c's.
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
