/*
 * mc_driver_stubs.h — driver functions metalcuda exports but does not
 * implement yet (src/api/driver/stubs.c: each returns
 * CUDA_ERROR_NOT_SUPPORTED and logs its name).  Declared, with CUDA 13.0's
 * signatures, so that code which names them compiles: CCCL 3's
 * cuda/__driver/driver_api.h takes each one's type with decltype and looks
 * it up through cudaGetDriverEntryPoint, calling it only when a program
 * uses memory pools, green contexts or tensor maps.
 * Hand-written (mc_driver_api.h, generated, has the implemented ones);
 * implementing one moves it there.  Included by cuda.h.
 */
#ifndef MC_PUBLIC_DRIVER_STUBS_H
#define MC_PUBLIC_DRIVER_STUBS_H

#ifdef __cplusplus
extern "C" {
#endif

extern CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps);
extern CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool);
extern CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count);
extern CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location);
extern CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location,
                                               CUmemAllocationType type);
extern CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                                CUstream hStream);
extern CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                      const CUkernelNodeAttrValue *value);
extern CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel);
extern CUresult CUDAAPI cuDeviceGetDevResource(CUdevice device, CUdevResource *resource, CUdevResourceType type);
extern CUresult CUDAAPI cuCtxGetDevResource(CUcontext hCtx, CUdevResource *resource, CUdevResourceType type);
extern CUresult CUDAAPI cuDevResourceGenerateDesc(CUdevResourceDesc *phDesc, CUdevResource *resources,
                                                  unsigned int nbResources);
extern CUresult CUDAAPI cuDevSmResourceSplitByCount(CUdevResource *result, unsigned int *nbGroups,
                                                    const CUdevResource *input, CUdevResource *remaining,
                                                    unsigned int useFlags, unsigned int minCount);
extern CUresult CUDAAPI cuGreenCtxCreate(CUgreenCtx *phCtx, CUdevResourceDesc desc, CUdevice dev, unsigned int flags);
extern CUresult CUDAAPI cuGreenCtxDestroy(CUgreenCtx hCtx);
extern CUresult CUDAAPI cuGreenCtxGetId(CUgreenCtx greenCtx, unsigned long long *greenCtxId);
extern CUresult CUDAAPI cuGreenCtxStreamCreate(CUstream *phStream, CUgreenCtx greenCtx, unsigned int flags,
                                               int priority);
extern CUresult CUDAAPI cuCtxFromGreenCtx(CUcontext *pContext, CUgreenCtx hCtx);
extern CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                               cuuint32_t tensorRank, void *globalAddress,
                                               const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                               const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
                                               CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                               CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill);

#ifdef __cplusplus
}
#endif
#endif
