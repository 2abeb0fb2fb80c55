/*
 * symbol.c — __device__, __constant__ and __managed__ variables by their
 * host shadow's address: cudaMemcpyToSymbol/FromSymbol (and async and
 * per-thread forms), cudaGetSymbolAddress, cudaGetSymbolSize.  The variable
 * is found among the registered ones (register.c, rt_symbol), which loads
 * its module; the copy is an ordinary driver copy to or from its address.
 */
#include "internal.h"

LOG_CHANNEL(memory);

/* A copy between a symbol (at offset) and memory; to_symbol says which way.
 * Errors as CUDA: cudaErrorInvalidSymbol for an address no variable was
 * registered at, cudaErrorInvalidMemcpyDirection for a kind that does not
 * name the symbol's side as device memory, cudaErrorInvalidValue past the
 * variable's end. */
static cudaError_t symbol_copy(const void *symbol, void *mem, size_t count, size_t offset, enum cudaMemcpyKind kind,
                               bool to_symbol, cudaStream_t stream, bool async)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   CUdeviceptr addr;
   size_t size;
   if ((e = rt_symbol(symbol, &addr, &size)) != cudaSuccess)
      return e;
   bool ok = kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault ||
             kind == (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
   if (!ok)
      return cudaErrorInvalidMemcpyDirection;
   if (offset > size || count > size - offset)
      return cudaErrorInvalidValue;
   if (count == 0)
      return cudaSuccess;
   void *var = (void *)(uintptr_t)(addr + offset);
   return to_symbol ? rt_memcpy(var, mem, count, kind, stream, async) : rt_memcpy(mem, var, count, kind, stream, async);
}

/* ==== cudaMemcpyToSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind)
{
   RT_ENTER("symbol=%p src=%p count=%zu offset=%zu kind=%d", symbol, src, count, offset, (int)kind);
   return RT_RETURN(symbol_copy(symbol, (void *)(uintptr_t)src, count, offset, kind, true, NULL, false));
}

/* ==== cudaMemcpyToSymbol_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind)
{
   return rt_ptds_sync(cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, cudaStreamPerThread));
}

/* ==== cudaMemcpyFromSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p symbol=%p count=%zu offset=%zu kind=%d", dst, symbol, count, offset, (int)kind);
   return RT_RETURN(symbol_copy(symbol, dst, count, offset, kind, false, NULL, false));
}

/* ==== cudaMemcpyFromSymbol_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind)
{
   return rt_ptds_sync(cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, cudaStreamPerThread));
}

/* ==== cudaMemcpyToSymbolAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
   RT_ENTER("symbol=%p src=%p count=%zu offset=%zu kind=%d stream=%p", symbol, src, count, offset, (int)kind,
            (void *)stream);
   return RT_RETURN(symbol_copy(symbol, (void *)(uintptr_t)src, count, offset, kind, true, stream, true));
}

/* ==== cudaMemcpyToSymbolAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, rt_ptsz(stream));
}

/* ==== cudaMemcpyFromSymbolAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind, cudaStream_t stream)
{
   RT_ENTER("dst=%p symbol=%p count=%zu offset=%zu kind=%d stream=%p", dst, symbol, count, offset, (int)kind,
            (void *)stream);
   return RT_RETURN(symbol_copy(symbol, dst, count, offset, kind, false, stream, true));
}

/* ==== cudaMemcpyFromSymbolAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, rt_ptsz(stream));
}

/* ==== cudaGetSymbolAddress (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
   RT_ENTER("devPtr=%p symbol=%p", (void *)devPtr, symbol);
   RT_CHECK(devPtr, cudaErrorInvalidValue);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   CUdeviceptr addr;
   size_t size;
   if ((e = rt_symbol(symbol, &addr, &size)) == cudaSuccess)
      *devPtr = (void *)(uintptr_t)addr;
   return RT_RETURN(e);
}

/* ==== cudaGetSymbolSize (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size, const void *symbol)
{
   RT_ENTER("size=%p symbol=%p", (void *)size, symbol);
   RT_CHECK(size, cudaErrorInvalidValue);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   CUdeviceptr addr;
   size_t n;
   if ((e = rt_symbol(symbol, &addr, &n)) == cudaSuccess)
      *size = n;
   return RT_RETURN(e);
}
