/*
 * mc_runtime_templates.h — the C++ forms of the runtime API that CUDA
 * programs use: typed cudaMalloc, kernels and symbols passed as themselves
 * (cudaLaunchKernel(kernel, ...), cudaLaunchKernelEx(config, kernel, args...),
 * cudaMemcpyToSymbol(var, ...), cudaGetKernel(&k, kernel)), and the
 * occupancy helpers.  Each forwards to the C function of
 * cuda_runtime_api.h.  Included by cuda_runtime.h in C++.
 */
#ifndef MC_RUNTIME_TEMPLATES_H
#define MC_RUNTIME_TEMPLATES_H

#ifdef __cplusplus

#define MC_RT static __inline__ __host__

MC_RT cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags)
{
   return cudaEventCreateWithFlags(event, flags);
}
MC_RT cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags)
{
   return cudaHostAlloc(ptr, size, flags);
}
template <class T> MC_RT cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0)
{
   return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T> MC_RT cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
   return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T> MC_RT cudaError_t cudaHostGetDevicePointer(T **dev, void *host, unsigned int flags)
{
   return cudaHostGetDevicePointer((void **)(void *)dev, host, flags);
}
template <class T> MC_RT cudaError_t cudaMalloc(T **ptr, size_t size)
{
   return cudaMalloc((void **)(void *)ptr, size);
}
template <class T> MC_RT cudaError_t cudaMallocManaged(T **ptr, size_t size, unsigned int flags = cudaMemAttachGlobal)
{
   return cudaMallocManaged((void **)(void *)ptr, size, flags);
}
template <class T> MC_RT cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height)
{
   return cudaMallocPitch((void **)(void *)ptr, pitch, width, height);
}
template <class T> MC_RT cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream)
{
   return cudaMallocAsync((void **)(void *)ptr, size, stream);
}

/* symbols: the variable itself stands for its address */
template <class T>
MC_RT cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                     enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
   return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
MC_RT cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{
   return cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
MC_RT cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                       enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
   return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
MC_RT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                            enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0)
{
   return cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T> MC_RT cudaError_t cudaGetSymbolAddress(void **dev, const T &symbol)
{
   return cudaGetSymbolAddress(dev, (const void *)&symbol);
}
template <class T> MC_RT cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
   return cudaGetSymbolSize(size, (const void *)&symbol);
}

/* kernels: the kernel function stands for its host stub */
template <class T>
MC_RT cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block, void **args, size_t shared = 0,
                                   cudaStream_t stream = 0)
{
   return cudaLaunchKernel((const void *)func, grid, block, args, shared, stream);
}
template <class T>
MC_RT cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args, size_t shared = 0,
                                              cudaStream_t stream = 0)
{
   return cudaLaunchCooperativeKernel((const void *)func, grid, block, args, shared, stream);
}
/* cudaLaunchKernelEx(config, kernel, args...) (CUDA Runtime API, "C++ API
 * Routines"): each argument converted to the kernel's parameter type, as a
 * call would, and launched through cudaLaunchKernelExC with their addresses. */
template <class... ExpTypes>
MC_RT cudaError_t __mc_launch_ex(const cudaLaunchConfig_t *config, const void *kernel, ExpTypes... params)
{
   void *args[] = { ((void *)&params)..., nullptr };
   return cudaLaunchKernelExC(config, kernel, args);
}
template <class... ExpTypes, class... ActTypes>
MC_RT cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(ExpTypes...), ActTypes &&...args)
{
   return __mc_launch_ex<ExpTypes...>(config, (const void *)kernel, static_cast<ActTypes &&>(args)...);
}
template <class T> MC_RT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry)
{
   return cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T> MC_RT cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value)
{
   return cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T> MC_RT cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config)
{
   return cudaFuncSetCacheConfig((const void *)func, config);
}
template <class T> MC_RT cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, T *func)
{
   return cudaGetKernel(kernelPtr, (const void *)func);
}
template <class T> MC_RT cudaError_t cudaLibraryGetUnifiedFunction(T **fptr, cudaLibrary_t library, const char *symbol)
{
   return cudaLibraryGetUnifiedFunction((void **)(void *)fptr, library, symbol);
}
template <class T> MC_RT cudaError_t cudaFuncGetName(const char **name, T *func)
{
   return cudaFuncGetName(name, (const void *)func);
}
template <class T>
MC_RT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T func, int block, size_t shared)
{
   return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)func, block, shared);
}
template <class T>
MC_RT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, T func, int block, size_t shared,
                                                                         unsigned int flags)
{
   return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, (const void *)func, block, shared, flags);
}
template <class T>
MC_RT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *shared, T func, int blocks, int block)
{
   return cudaOccupancyAvailableDynamicSMemPerBlock(shared, (const void *)func, blocks, block);
}

/* The block size with the most resident threads per multiprocessor (the
 * largest such size on a tie), and the grid that fills the device with it.
 * shared_of(block) gives the dynamic shared memory a block size needs. */
template <class F, class S>
MC_RT cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *min_grid, int *block_size, F func,
                                                                          S shared_of, int limit = 0,
                                                                          unsigned int flags = 0)
{
   if (!min_grid || !block_size || !func)
      return cudaErrorInvalidValue;
   int dev, sms, max_threads, warp;
   cudaError_t e;
   struct cudaFuncAttributes attr;
   if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
       (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
       (e = cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev)) != cudaSuccess ||
       (e = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev)) != cudaSuccess ||
       (e = cudaFuncGetAttributes(&attr, (const void *)func)) != cudaSuccess)
      return e;
   int top = max_threads < attr.maxThreadsPerBlock ? max_threads : attr.maxThreadsPerBlock;
   if (limit > 0 && limit < top)
      top = limit;
   int best_threads = 0, best_block = 0, best_blocks = 0;
   for (int b = top; b > 0; b -= (b % warp ? b % warp : warp)) {
      int n = 0;
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, (const void *)func, b, shared_of(b), flags);
      if (e != cudaSuccess)
         return e;
      if (n * b > best_threads) {
         best_threads = n * b;
         best_block = b;
         best_blocks = n;
      }
   }
   *block_size = best_block;
   *min_grid = best_blocks * sms;
   return cudaSuccess;
}
struct __mc_fixed_smem {
   size_t n;
   __host__ size_t operator()(int) const { return n; }
};
template <class F, class S>
MC_RT cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *min_grid, int *block_size, F func, S shared_of,
                                                                 int limit = 0)
{
   return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid, block_size, func, shared_of, limit, 0);
}
template <class F>
MC_RT cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block_size, F func, size_t shared = 0,
                                                     int limit = 0)
{
   return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid, block_size, func,
                                                                  __mc_fixed_smem{ shared }, limit, 0);
}
template <class F>
MC_RT cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block_size, F func,
                                                              size_t shared = 0, int limit = 0,
                                                              unsigned int flags = 0)
{
   return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid, block_size, func,
                                                                  __mc_fixed_smem{ shared }, limit, flags);
}

#undef MC_RT
#endif
#endif
