/*
 * graph.c — the runtime's graphs and stream capture (cudaGraph*,
 * cudaStreamBeginCapture, cudaStreamEndCapture, ...): each converts its
 * arguments to the driver's form (a host stub to its kernel, a
 * cudaMemcpy3DParms to a CUDA_MEMCPY3D, a symbol to its address) and calls
 * the driver's cuGraph* entry point, as NVIDIA's runtime does; kernel
 * node attributes and user objects pass through unchanged.  The capture
 * queries are in stream.c.
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(graph);

static CUstream cu(cudaStream_t s) { return (CUstream)(void *)s; }

/* ---- stream capture ---- */

/* ==== cudaStreamBeginCapture (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
   RT_ENTER("stream=%p mode=%d", (void *)stream, (int)mode);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamBeginCapture_v2(cu(stream), (CUstreamCaptureMode)mode));
}

/* ==== cudaStreamBeginCapture_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
   return cudaStreamBeginCapture(rt_ptsz(stream), mode);
}

/* ==== cudaStreamBeginCaptureToGraph (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t *dependencies,
                                                    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                    enum cudaStreamCaptureMode mode)
{
   RT_ENTER("stream=%p graph=%p dependencies=%p dependencyData=%p numDependencies=%zu mode=%d", (void *)stream,
            (void *)graph, (const void *)dependencies, (const void *)dependencyData, numDependencies, (int)mode);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamBeginCaptureToGraph(cu(stream), graph, dependencies,
                                                   (const CUgraphEdgeData *)dependencyData, numDependencies,
                                                   (CUstreamCaptureMode)mode));
}

/* ==== cudaStreamBeginCaptureToGraph_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                         const cudaGraphNode_t *dependencies,
                                                         const cudaGraphEdgeData *dependencyData,
                                                         size_t numDependencies, enum cudaStreamCaptureMode mode)
{
   return cudaStreamBeginCaptureToGraph(rt_ptsz(stream), graph, dependencies, dependencyData, numDependencies, mode);
}

/* ==== cudaStreamEndCapture (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
   RT_ENTER("stream=%p pGraph=%p", (void *)stream, (void *)pGraph);
   RT_NEED_CTX();   /* pGraph may be NULL after cudaStreamBeginCaptureToGraph: the driver's check */
   return RT_RETURN_CU(cuStreamEndCapture(cu(stream), pGraph));
}

/* ==== cudaStreamEndCapture_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
   return cudaStreamEndCapture(rt_ptsz(stream), pGraph);
}

/* ==== cudaThreadExchangeStreamCaptureMode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
   RT_ENTER("mode=%p", (void *)mode);
   RT_CHECK(mode, cudaErrorInvalidValue);
   return RT_RETURN_CU(cuThreadExchangeStreamCaptureMode((CUstreamCaptureMode *)mode));
}

/* ==== cudaStreamUpdateCaptureDependencies (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                                         cudaGraphNode_t *dependencies,
                                                                         const cudaGraphEdgeData *dependencyData,
                                                                         size_t numDependencies, unsigned int flags)
{
   RT_ENTER("stream=%p dependencies=%p dependencyData=%p numDependencies=%zu flags=%#x", (void *)stream,
            (void *)dependencies, (const void *)dependencyData, numDependencies, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuStreamUpdateCaptureDependencies_v2(cu(stream), dependencies,
                                                            (const CUgraphEdgeData *)dependencyData,
                                                            numDependencies, flags));
}

/* ==== cudaStreamUpdateCaptureDependencies_ptsz (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                              cudaGraphNode_t *dependencies,
                                                                              const cudaGraphEdgeData *dependencyData,
                                                                              size_t numDependencies,
                                                                              unsigned int flags)
{
   return cudaStreamUpdateCaptureDependencies(rt_ptsz(stream), dependencies, dependencyData, numDependencies, flags);
}

/* ---- graphs ---- */

/* ==== cudaGraphCreate (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
   RT_ENTER("pGraph=%p flags=%#x", (void *)pGraph, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuGraphCreate(pGraph, flags));
}

/* ==== cudaGraphDestroy (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph)
{
   RT_ENTER("graph=%p", (void *)graph);
   return RT_RETURN_CU(cuGraphDestroy(graph));
}

/* ==== cudaGraphClone (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
   RT_ENTER("pGraphClone=%p originalGraph=%p", (void *)pGraphClone, (void *)originalGraph);
   return RT_RETURN_CU(cuGraphClone(pGraphClone, originalGraph));
}

/* ==== cudaGraphNodeFindInClone (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                               cudaGraph_t clonedGraph)
{
   RT_ENTER("pNode=%p originalNode=%p clonedGraph=%p", (void *)pNode, (void *)originalNode, (void *)clonedGraph);
   return RT_RETURN_CU(cuGraphNodeFindInClone(pNode, originalNode, clonedGraph));
}

/* The driver's kernel node parameters of a runtime one. */
static cudaError_t kernel_params(const struct cudaKernelNodeParams *p, CUDA_KERNEL_NODE_PARAMS *q)
{
   if (!p)
      return cudaErrorInvalidValue;
   rt_function *f = rt_function_by_host(p->func);
   if (!f)
      return cudaErrorInvalidDeviceFunction;
   CUfunction k;
   cudaError_t e = rt_function_kernel(f, &k);
   if (e != cudaSuccess)
      return e;
   *q = (CUDA_KERNEL_NODE_PARAMS){ .func = k,
                                   .gridDimX = p->gridDim.x, .gridDimY = p->gridDim.y, .gridDimZ = p->gridDim.z,
                                   .blockDimX = p->blockDim.x, .blockDimY = p->blockDim.y,
                                   .blockDimZ = p->blockDim.z, .sharedMemBytes = p->sharedMemBytes,
                                   .kernelParams = p->kernelParams, .extra = p->extra };
   return cudaSuccess;
}

static void trace_kernel(const char *func, const struct cudaKernelNodeParams *p)
{
   if (p && log_level() >= LOG_LEVEL_TRACE)
      log_msg(LOG_LEVEL_TRACE, log_channel_, func,
              "func=%p grid=(%u,%u,%u) block=(%u,%u,%u) sharedMemBytes=%u kernelParams=%p extra=%p", p->func,
              p->gridDim.x, p->gridDim.y, p->gridDim.z, p->blockDim.x, p->blockDim.y, p->blockDim.z,
              p->sharedMemBytes, (void *)p->kernelParams, (void *)p->extra);
}

/* ==== cudaGraphAddKernelNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu pNodeParams=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (const void *)pNodeParams);
   trace_kernel(__func__, pNodeParams);
   RT_NEED_CTX();
   CUDA_KERNEL_NODE_PARAMS q;
   cudaError_t e = kernel_params(pNodeParams, &q);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuGraphAddKernelNode_v2(pGraphNode, graph, pDependencies, numDependencies, &q));
}

/* ==== cudaGraphKernelNodeGetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (void *)pNodeParams);
   RT_CHECK(pNodeParams, cudaErrorInvalidValue);
   CUDA_KERNEL_NODE_PARAMS q;
   CUresult r = cuGraphKernelNodeGetParams_v2(node, &q);
   if (r != CUDA_SUCCESS)
      return RT_RETURN_CU(r);
   *pNodeParams = (struct cudaKernelNodeParams){
      .func = (void *)(uintptr_t)rt_function_host_of(q.func),
      .gridDim = { q.gridDimX, q.gridDimY, q.gridDimZ }, .blockDim = { q.blockDimX, q.blockDimY, q.blockDimZ },
      .sharedMemBytes = q.sharedMemBytes, .kernelParams = q.kernelParams, .extra = q.extra };
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaGraphKernelNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (const void *)pNodeParams);
   trace_kernel(__func__, pNodeParams);
   RT_NEED_CTX();
   CUDA_KERNEL_NODE_PARAMS q;
   cudaError_t e = kernel_params(pNodeParams, &q);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuGraphKernelNodeSetParams_v2(node, &q));
}

/* ==== cudaGraphExecKernelNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *pNodeParams)
{
   RT_ENTER("hGraphExec=%p node=%p pNodeParams=%p", (void *)hGraphExec, (void *)node, (const void *)pNodeParams);
   trace_kernel(__func__, pNodeParams);
   RT_NEED_CTX();
   CUDA_KERNEL_NODE_PARAMS q;
   cudaError_t e = kernel_params(pNodeParams, &q);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN_CU(cuGraphExecKernelNodeSetParams_v2(hGraphExec, node, &q));
}

/* ---- copies ---- */

/* The driver's copy of a runtime 3-D one (arrays: not supported, said once). */
static cudaError_t copy_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *c)
{
   cudaError_t e = rt_memcpy3d_params(p, c);
   if (e == cudaErrorNotSupported) {
      static int once;
      api_unsupported_(log_channel_, "cudaGraphAddMemcpyNode", "graph copies to or from CUDA arrays", &once);
   }
   return e;
}

/* A 1-D copy as a 3-D one. */
static struct cudaMemcpy3DParms copy_1d(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
   struct cudaMemcpy3DParms p = { 0 };
   p.srcPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)src, count, count, 1 };
   p.dstPtr = (struct cudaPitchedPtr){ dst, count, count, 1 };
   p.extent = (struct cudaExtent){ count, 1, 1 };
   p.kind = kind;
   return p;
}

/* The address of a symbol's byte at offset, count bytes inside it. */
static cudaError_t symbol_at(const void *symbol, size_t count, size_t offset, void **out)
{
   CUdeviceptr base;
   size_t size;
   cudaError_t e = rt_symbol(symbol, &base, &size);
   if (e != cudaSuccess)
      return e;
   if (offset > size || count > size - offset)
      return cudaErrorInvalidValue;
   *out = (void *)(uintptr_t)(base + offset);
   return cudaSuccess;
}

/* The copy to (to_symbol) or from a symbol's bytes [offset, offset+count)
 * from or to `other`, as a 3-D copy; the kinds CUDA allows for it. */
static cudaError_t symbol_copy(const void *symbol, const void *other, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, bool to_symbol, struct cudaMemcpy3DParms *p)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault &&
       kind != (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
      return cudaErrorInvalidMemcpyDirection;
   void *at;
   if ((e = symbol_at(symbol, count, offset, &at)) != cudaSuccess)
      return e;
   *p = to_symbol ? copy_1d(at, other, count, kind) : copy_1d((void *)(uintptr_t)other, at, count, kind);
   return cudaSuccess;
}

/* Adds a copy node (p converted). */
static cudaError_t add_copy(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                            const struct cudaMemcpy3DParms *p)
{
   if (!p)
      return cudaErrorInvalidValue;
   cudaError_t e = rt_ensure_ctx();
   CUDA_MEMCPY3D c;
   if (e == cudaSuccess)
      e = copy_params(p, &c);
   if (e != cudaSuccess)
      return e;
   return cu_to_cuda_error(cuGraphAddMemcpyNode(out, graph, deps, n, &c, NULL));
}

/* ==== cudaGraphAddMemcpyNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemcpy3DParms *pCopyParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu pCopyParams=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (const void *)pCopyParams);
   return RT_RETURN(add_copy(pGraphNode, graph, pDependencies, numDependencies, pCopyParams));
}

/* ==== cudaGraphAddMemcpyNode1D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                               const void *src, size_t count, enum cudaMemcpyKind kind)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu dst=%p src=%p count=%zu kind=%d",
            (void *)pGraphNode, (void *)graph, (const void *)pDependencies, numDependencies, dst, src, count,
            (int)kind);
   struct cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
   return RT_RETURN(add_copy(pGraphNode, graph, pDependencies, numDependencies, &p));
}

/* ==== cudaGraphAddMemcpyNodeToSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                     const void *symbol, const void *src, size_t count,
                                                     size_t offset, enum cudaMemcpyKind kind)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu symbol=%p src=%p count=%zu offset=%zu "
            "kind=%d",
            (void *)pGraphNode, (void *)graph, (const void *)pDependencies, numDependencies, symbol, src, count,
            offset, (int)kind);
   struct cudaMemcpy3DParms p;
   cudaError_t e = symbol_copy(symbol, src, count, offset, kind, true, &p);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN(add_copy(pGraphNode, graph, pDependencies, numDependencies, &p));
}

/* ==== cudaGraphAddMemcpyNodeFromSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                       void *dst, const void *symbol, size_t count, size_t offset,
                                                       enum cudaMemcpyKind kind)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu dst=%p symbol=%p count=%zu offset=%zu "
            "kind=%d",
            (void *)pGraphNode, (void *)graph, (const void *)pDependencies, numDependencies, dst, symbol, count,
            offset, (int)kind);
   struct cudaMemcpy3DParms p;
   cudaError_t e = symbol_copy(symbol, dst, count, offset, kind, false, &p);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN(add_copy(pGraphNode, graph, pDependencies, numDependencies, &p));
}

/* ==== cudaGraphMemcpyNodeGetParams (libcudart.@) ==== as the driver
 * answers: unified addresses, cudaMemcpyDefault */
cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (void *)pNodeParams);
   RT_CHECK(pNodeParams, cudaErrorInvalidValue);
   CUDA_MEMCPY3D c;
   CUresult r = cuGraphMemcpyNodeGetParams(node, &c);
   if (r != CUDA_SUCCESS)
      return RT_RETURN_CU(r);
   *pNodeParams = (struct cudaMemcpy3DParms){ 0 };
   pNodeParams->srcPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)c.srcDevice, c.srcPitch, c.WidthInBytes,
                                                  c.srcHeight };
   pNodeParams->dstPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)c.dstDevice, c.dstPitch, c.WidthInBytes,
                                                  c.dstHeight };
   pNodeParams->extent = (struct cudaExtent){ c.WidthInBytes, c.Height, c.Depth };
   pNodeParams->kind = cudaMemcpyDefault;
   return RT_RETURN(cudaSuccess);
}

/* Sets a copy node (x NULL) or an executable graph's copy of it. */
static cudaError_t set_copy(cudaGraphExec_t x, cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
   cudaError_t e = rt_ensure_ctx();
   CUDA_MEMCPY3D c;
   if (e == cudaSuccess)
      e = copy_params(p, &c);
   if (e != cudaSuccess)
      return e;
   return cu_to_cuda_error(x ? cuGraphExecMemcpyNodeSetParams(x, node, &c, NULL) : cuGraphMemcpyNodeSetParams(node, &c));
}

/* ==== cudaGraphMemcpyNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (const void *)pNodeParams);
   return RT_RETURN(set_copy(NULL, node, pNodeParams));
}

/* ==== cudaGraphMemcpyNodeSetParams1D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                                     enum cudaMemcpyKind kind)
{
   RT_ENTER("node=%p dst=%p src=%p count=%zu kind=%d", (void *)node, dst, src, count, (int)kind);
   struct cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
   return RT_RETURN(set_copy(NULL, node, &p));
}

/* ==== cudaGraphMemcpyNodeSetParamsToSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol, const void *src,
                                                           size_t count, size_t offset, enum cudaMemcpyKind kind)
{
   RT_ENTER("node=%p symbol=%p src=%p count=%zu offset=%zu kind=%d", (void *)node, symbol, src, count, offset,
            (int)kind);
   struct cudaMemcpy3DParms p;
   cudaError_t e = symbol_copy(symbol, src, count, offset, kind, true, &p);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN(set_copy(NULL, node, &p));
}

/* ==== cudaGraphMemcpyNodeSetParamsFromSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, const void *symbol,
                                                             size_t count, size_t offset, enum cudaMemcpyKind kind)
{
   RT_ENTER("node=%p dst=%p symbol=%p count=%zu offset=%zu kind=%d", (void *)node, dst, symbol, count, offset,
            (int)kind);
   struct cudaMemcpy3DParms p;
   cudaError_t e = symbol_copy(symbol, dst, count, offset, kind, false, &p);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN(set_copy(NULL, node, &p));
}

/* ==== cudaGraphExecMemcpyNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaMemcpy3DParms *pNodeParams)
{
   RT_ENTER("hGraphExec=%p node=%p pNodeParams=%p", (void *)hGraphExec, (void *)node, (const void *)pNodeParams);
   RT_CHECK(hGraphExec, cudaErrorInvalidValue);
   return RT_RETURN(set_copy(hGraphExec, node, pNodeParams));
}

/* ==== cudaGraphExecMemcpyNodeSetParams1D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                                                         const void *src, size_t count, enum cudaMemcpyKind kind)
{
   RT_ENTER("hGraphExec=%p node=%p dst=%p src=%p count=%zu kind=%d", (void *)hGraphExec, (void *)node, dst, src,
            count, (int)kind);
   RT_CHECK(hGraphExec, cudaErrorInvalidValue);
   struct cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
   return RT_RETURN(set_copy(hGraphExec, node, &p));
}

/* ==== cudaGraphExecMemcpyNodeSetParamsToSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                               const void *symbol, const void *src, size_t count,
                                                               size_t offset, enum cudaMemcpyKind kind)
{
   RT_ENTER("hGraphExec=%p node=%p symbol=%p src=%p count=%zu offset=%zu kind=%d", (void *)hGraphExec, (void *)node,
            symbol, src, count, offset, (int)kind);
   struct cudaMemcpy3DParms p;
   cudaError_t e = symbol_copy(symbol, src, count, offset, kind, true, &p);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN(set_copy(hGraphExec, node, &p));
}

/* ==== cudaGraphExecMemcpyNodeSetParamsFromSymbol (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                 void *dst, const void *symbol, size_t count,
                                                                 size_t offset, enum cudaMemcpyKind kind)
{
   RT_ENTER("hGraphExec=%p node=%p dst=%p symbol=%p count=%zu offset=%zu kind=%d", (void *)hGraphExec,
            (void *)node, dst, symbol, count, offset, (int)kind);
   struct cudaMemcpy3DParms p;
   cudaError_t e = symbol_copy(symbol, dst, count, offset, kind, false, &p);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   return RT_RETURN(set_copy(hGraphExec, node, &p));
}

/* ---- fills, host functions, child graphs, events, empty nodes ---- */

static CUDA_MEMSET_NODE_PARAMS memset_params(const struct cudaMemsetParams *p)
{
   return (CUDA_MEMSET_NODE_PARAMS){ .dst = (CUdeviceptr)(uintptr_t)p->dst, .pitch = p->pitch, .value = p->value,
                                     .elementSize = p->elementSize, .width = p->width, .height = p->height };
}

/* ==== cudaGraphAddMemsetNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemsetParams *pMemsetParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu pMemsetParams=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (const void *)pMemsetParams);
   RT_CHECK(pMemsetParams, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUDA_MEMSET_NODE_PARAMS q = memset_params(pMemsetParams);
   return RT_RETURN_CU(cuGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &q, NULL));
}

/* ==== cudaGraphMemsetNodeGetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (void *)pNodeParams);
   RT_CHECK(pNodeParams, cudaErrorInvalidValue);
   CUDA_MEMSET_NODE_PARAMS q;
   CUresult r = cuGraphMemsetNodeGetParams(node, &q);
   if (r == CUDA_SUCCESS)
      *pNodeParams = (struct cudaMemsetParams){ .dst = (void *)(uintptr_t)q.dst, .pitch = q.pitch, .value = q.value,
                                                .elementSize = q.elementSize, .width = q.width, .height = q.height };
   return RT_RETURN_CU(r);
}

/* ==== cudaGraphMemsetNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (const void *)pNodeParams);
   RT_CHECK(pNodeParams, cudaErrorInvalidValue);
   CUDA_MEMSET_NODE_PARAMS q = memset_params(pNodeParams);
   return RT_RETURN_CU(cuGraphMemsetNodeSetParams(node, &q));
}

/* ==== cudaGraphExecMemsetNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaMemsetParams *pNodeParams)
{
   RT_ENTER("hGraphExec=%p node=%p pNodeParams=%p", (void *)hGraphExec, (void *)node, (const void *)pNodeParams);
   RT_CHECK(pNodeParams, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUDA_MEMSET_NODE_PARAMS q = memset_params(pNodeParams);
   return RT_RETURN_CU(cuGraphExecMemsetNodeSetParams(hGraphExec, node, &q, NULL));
}

/* ==== cudaGraphAddHostNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const struct cudaHostNodeParams *pNodeParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu pNodeParams=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (const void *)pNodeParams);
   return RT_RETURN_CU(cuGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies,
                                          (const CUDA_HOST_NODE_PARAMS *)(const void *)pNodeParams));
}

/* ==== cudaGraphHostNodeGetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (void *)pNodeParams);
   return RT_RETURN_CU(cuGraphHostNodeGetParams(node, (CUDA_HOST_NODE_PARAMS *)(void *)pNodeParams));
}

/* ==== cudaGraphHostNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams)
{
   RT_ENTER("node=%p pNodeParams=%p", (void *)node, (const void *)pNodeParams);
   return RT_RETURN_CU(cuGraphHostNodeSetParams(node, (const CUDA_HOST_NODE_PARAMS *)(const void *)pNodeParams));
}

/* ==== cudaGraphExecHostNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                     const struct cudaHostNodeParams *pNodeParams)
{
   RT_ENTER("hGraphExec=%p node=%p pNodeParams=%p", (void *)hGraphExec, (void *)node, (const void *)pNodeParams);
   return RT_RETURN_CU(cuGraphExecHostNodeSetParams(hGraphExec, node,
                                                    (const CUDA_HOST_NODE_PARAMS *)(const void *)pNodeParams));
}

/* ==== cudaGraphAddChildGraphNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                 cudaGraph_t childGraph)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu childGraph=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (void *)childGraph);
   return RT_RETURN_CU(cuGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, childGraph));
}

/* ==== cudaGraphChildGraphNodeGetGraph (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
   RT_ENTER("node=%p pGraph=%p", (void *)node, (void *)pGraph);
   return RT_RETURN_CU(cuGraphChildGraphNodeGetGraph(node, pGraph));
}

/* ==== cudaGraphExecChildGraphNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                           cudaGraph_t childGraph)
{
   RT_ENTER("hGraphExec=%p node=%p childGraph=%p", (void *)hGraphExec, (void *)node, (void *)childGraph);
   return RT_RETURN_CU(cuGraphExecChildGraphNodeSetParams(hGraphExec, node, childGraph));
}

/* ==== cudaGraphAddEmptyNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu", (void *)pGraphNode, (void *)graph,
            (const void *)pDependencies, numDependencies);
   return RT_RETURN_CU(cuGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies));
}

/* ==== cudaGraphAddEventRecordNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                  cudaEvent_t event)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu event=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (void *)event);
   return RT_RETURN_CU(cuGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

/* ==== cudaGraphEventRecordNodeGetEvent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
   RT_ENTER("node=%p event_out=%p", (void *)node, (void *)event_out);
   return RT_RETURN_CU(cuGraphEventRecordNodeGetEvent(node, event_out));
}

/* ==== cudaGraphEventRecordNodeSetEvent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
   RT_ENTER("node=%p event=%p", (void *)node, (void *)event);
   return RT_RETURN_CU(cuGraphEventRecordNodeSetEvent(node, event));
}

/* ==== cudaGraphAddEventWaitNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                cudaEvent_t event)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu event=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (void *)event);
   return RT_RETURN_CU(cuGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

/* ==== cudaGraphEventWaitNodeGetEvent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
   RT_ENTER("node=%p event_out=%p", (void *)node, (void *)event_out);
   return RT_RETURN_CU(cuGraphEventWaitNodeGetEvent(node, event_out));
}

/* ==== cudaGraphEventWaitNodeSetEvent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
   RT_ENTER("node=%p event=%p", (void *)node, (void *)event);
   return RT_RETURN_CU(cuGraphEventWaitNodeSetEvent(node, event));
}

/* ==== cudaGraphExecEventRecordNodeSetEvent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                           cudaEvent_t event)
{
   RT_ENTER("hGraphExec=%p hNode=%p event=%p", (void *)hGraphExec, (void *)hNode, (void *)event);
   return RT_RETURN_CU(cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode, event));
}

/* ==== cudaGraphExecEventWaitNodeSetEvent (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                         cudaEvent_t event)
{
   RT_ENTER("hGraphExec=%p hNode=%p event=%p", (void *)hGraphExec, (void *)hNode, (void *)event);
   return RT_RETURN_CU(cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode, event));
}

/* ---- memory allocation and free nodes: the runtime's structures are the
 * driver's (cudaMemPoolProps is CUmemPoolProps, void * a CUdeviceptr) ---- */

/* ==== cudaGraphAddMemAllocNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               struct cudaMemAllocNodeParams *nodeParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu nodeParams=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (void *)nodeParams);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies,
                                              (CUDA_MEM_ALLOC_NODE_PARAMS *)(void *)nodeParams));
}

/* ==== cudaGraphMemAllocNodeGetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
   RT_ENTER("node=%p params_out=%p", (void *)node, (void *)params_out);
   return RT_RETURN_CU(cuGraphMemAllocNodeGetParams(node, (CUDA_MEM_ALLOC_NODE_PARAMS *)(void *)params_out));
}

/* ==== cudaGraphAddMemFreeNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              void *dptr)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu dptr=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, dptr);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies,
                                             (CUdeviceptr)(uintptr_t)dptr));
}

/* ==== cudaGraphMemFreeNodeGetParams (libcudart.@) ==== dptr_out: a void * */
cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
   RT_ENTER("node=%p dptr_out=%p", (void *)node, dptr_out);
   RT_CHECK(dptr_out, cudaErrorInvalidValue);
   CUdeviceptr p;
   CUresult r = cuGraphMemFreeNodeGetParams(node, &p);
   if (r == CUDA_SUCCESS)
      *(void **)dptr_out = (void *)(uintptr_t)p;
   return RT_RETURN_CU(r);
}

/* ---- queries and edges ---- */

/* ==== cudaGraphNodeGetType (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
   RT_ENTER("node=%p pType=%p", (void *)node, (void *)pType);
   return RT_RETURN_CU(cuGraphNodeGetType(node, (CUgraphNodeType *)pType));
}

/* ==== cudaGraphGetNodes (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
   RT_ENTER("graph=%p nodes=%p numNodes=%p", (void *)graph, (void *)nodes, (void *)numNodes);
   return RT_RETURN_CU(cuGraphGetNodes(graph, nodes, numNodes));
}

/* ==== cudaGraphGetRootNodes (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
   RT_ENTER("graph=%p pRootNodes=%p pNumRootNodes=%p", (void *)graph, (void *)pRootNodes, (void *)pNumRootNodes);
   return RT_RETURN_CU(cuGraphGetRootNodes(graph, pRootNodes, pNumRootNodes));
}

/* ==== cudaGraphGetEdges (libcudart.@) ==== CUDA 13's form (edge data);
 * CUDA 12's is in abi12.c */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                       cudaGraphEdgeData *edgeData, size_t *numEdges)
{
   RT_ENTER("graph=%p from=%p to=%p edgeData=%p numEdges=%p", (void *)graph, (void *)from, (void *)to,
            (void *)edgeData, (void *)numEdges);
   return RT_RETURN_CU(cuGraphGetEdges_v2(graph, from, to, (CUgraphEdgeData *)edgeData, numEdges));
}

/* ==== cudaGraphNodeGetDependencies (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                                  cudaGraphEdgeData *edgeData,
                                                                  size_t *pNumDependencies)
{
   RT_ENTER("node=%p pDependencies=%p edgeData=%p pNumDependencies=%p", (void *)node, (void *)pDependencies,
            (void *)edgeData, (void *)pNumDependencies);
   return RT_RETURN_CU(cuGraphNodeGetDependencies_v2(node, pDependencies, (CUgraphEdgeData *)edgeData,
                                                     pNumDependencies));
}

/* ==== cudaGraphNodeGetDependentNodes (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                                    cudaGraphNode_t *pDependentNodes,
                                                                    cudaGraphEdgeData *edgeData,
                                                                    size_t *pNumDependentNodes)
{
   RT_ENTER("node=%p pDependentNodes=%p edgeData=%p pNumDependentNodes=%p", (void *)node, (void *)pDependentNodes,
            (void *)edgeData, (void *)pNumDependentNodes);
   return RT_RETURN_CU(cuGraphNodeGetDependentNodes_v2(node, pDependentNodes, (CUgraphEdgeData *)edgeData,
                                                       pNumDependentNodes));
}

/* ==== cudaGraphAddDependencies (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                              const cudaGraphNode_t *to,
                                                              const cudaGraphEdgeData *edgeData,
                                                              size_t numDependencies)
{
   RT_ENTER("graph=%p from=%p to=%p edgeData=%p numDependencies=%zu", (void *)graph, (const void *)from,
            (const void *)to, (const void *)edgeData, numDependencies);
   return RT_RETURN_CU(cuGraphAddDependencies_v2(graph, from, to, (const CUgraphEdgeData *)edgeData,
                                                 numDependencies));
}

/* ==== cudaGraphRemoveDependencies (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                                 const cudaGraphNode_t *to,
                                                                 const cudaGraphEdgeData *edgeData,
                                                                 size_t numDependencies)
{
   RT_ENTER("graph=%p from=%p to=%p edgeData=%p numDependencies=%zu", (void *)graph, (const void *)from,
            (const void *)to, (const void *)edgeData, numDependencies);
   return RT_RETURN_CU(cuGraphRemoveDependencies_v2(graph, from, to, (const CUgraphEdgeData *)edgeData,
                                                    numDependencies));
}

/* ==== cudaGraphDestroyNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t node)
{
   RT_ENTER("node=%p", (void *)node);
   return RT_RETURN_CU(cuGraphDestroyNode(node));
}

/* ---- executable graphs ---- */

/* ==== cudaGraphInstantiate (libcudart.@) ==== CUDA 12's and 13's form (flags); CUDA 11's is in abi11.c */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          unsigned long long flags)
{
   RT_ENTER("pGraphExec=%p graph=%p flags=%#llx", (void *)pGraphExec, (void *)graph, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}

/* ==== cudaGraphInstantiateWithFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                    unsigned long long flags)
{
   RT_ENTER("pGraphExec=%p graph=%p flags=%#llx", (void *)pGraphExec, (void *)graph, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}

/* ==== cudaGraphInstantiateWithParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                     cudaGraphInstantiateParams *instantiateParams)
{
   RT_ENTER("pGraphExec=%p graph=%p instantiateParams=%p", (void *)pGraphExec, (void *)graph,
            (void *)instantiateParams);
   RT_CHECK(instantiateParams, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUDA_GRAPH_INSTANTIATE_PARAMS p = { .flags = instantiateParams->flags,
                                       .hUploadStream = (CUstream)(void *)instantiateParams->uploadStream };
   CUresult r = cuGraphInstantiateWithParams(pGraphExec, graph, &p);
   instantiateParams->errNode_out = p.hErrNode_out;
   instantiateParams->result_out = (cudaGraphInstantiateResult)p.result_out;
   return RT_RETURN_CU(r);
}

/* ==== cudaGraphInstantiateWithParams_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          cudaGraphInstantiateParams *instantiateParams)
{
   return cudaGraphInstantiateWithParams(pGraphExec, graph, instantiateParams);
}

/* ==== cudaGraphExecGetFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
   RT_ENTER("graphExec=%p flags=%p", (void *)graphExec, (void *)flags);
   return RT_RETURN_CU(cuGraphExecGetFlags(graphExec, (cuuint64_t *)flags));
}

/* ==== cudaGraphExecDestroy (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
   RT_ENTER("graphExec=%p", (void *)graphExec);
   return RT_RETURN_CU(cuGraphExecDestroy(graphExec));
}

/* ==== cudaGraphLaunch (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
   RT_ENTER("graphExec=%p stream=%p", (void *)graphExec, (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuGraphLaunch(graphExec, cu(stream)));
}

/* ==== cudaGraphLaunch_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
   return cudaGraphLaunch(graphExec, rt_ptsz(stream));
}

/* ==== cudaGraphUpload (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
   RT_ENTER("graphExec=%p stream=%p", (void *)graphExec, (void *)stream);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuGraphUpload(graphExec, cu(stream)));
}

/* ==== cudaGraphUpload_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
   return cudaGraphUpload(graphExec, rt_ptsz(stream));
}

/* ==== cudaGraphNodeSetEnabled (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled)
{
   RT_ENTER("hGraphExec=%p hNode=%p isEnabled=%u", (void *)hGraphExec, (void *)hNode, isEnabled);
   return RT_RETURN_CU(cuGraphNodeSetEnabled(hGraphExec, hNode, isEnabled));
}

/* ==== cudaGraphNodeGetEnabled (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                              unsigned int *isEnabled)
{
   RT_ENTER("hGraphExec=%p hNode=%p isEnabled=%p", (void *)hGraphExec, (void *)hNode, (void *)isEnabled);
   return RT_RETURN_CU(cuGraphNodeGetEnabled(hGraphExec, hNode, isEnabled));
}

/* ==== cudaGraphExecUpdate (libcudart.@) ==== CUDA 12's and 13's form; CUDA 11's is in abi11.c */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                          cudaGraphExecUpdateResultInfo *resultInfo)
{
   RT_ENTER("hGraphExec=%p hGraph=%p resultInfo=%p", (void *)hGraphExec, (void *)hGraph, (void *)resultInfo);
   return RT_RETURN_CU(cuGraphExecUpdate_v2(hGraphExec, hGraph, (CUgraphExecUpdateResultInfo *)(void *)resultInfo));
}

/* ==== cudaGraphDebugDotPrint (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
   RT_ENTER("graph=%p path=%s flags=%#x", (void *)graph, path ? path : "(null)", flags);
   return RT_RETURN_CU(cuGraphDebugDotPrint(graph, path, flags));
}

/* ==== cudaDeviceGetGraphMemAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
   RT_ENTER("device=%d attr=%d value=%p", device, (int)attr, value);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuDeviceGetGraphMemAttribute(device, (CUgraphMem_attribute)attr, value));
}

/* ==== cudaDeviceSetGraphMemAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
   RT_ENTER("device=%d attr=%d value=%p", device, (int)attr, value);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuDeviceSetGraphMemAttribute(device, (CUgraphMem_attribute)attr, value));
}

/* ==== cudaDeviceGraphMemTrim (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device)
{
   RT_ENTER("device=%d", device);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuDeviceGraphMemTrim(device));
}

/* ---- kernel node attributes (the driver's, same ids and values) ---- */

/* ==== cudaGraphKernelNodeGetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
                                                      cudaLaunchAttributeValue *value_out)
{
   RT_ENTER("hNode=%p attr=%d value_out=%p", (void *)hNode, (int)attr, (void *)value_out);
   return RT_RETURN_CU(
      cuGraphKernelNodeGetAttribute(hNode, (CUkernelNodeAttrID)attr, (CUkernelNodeAttrValue *)(void *)value_out));
}

/* ==== cudaGraphKernelNodeSetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
                                                      const cudaLaunchAttributeValue *value)
{
   RT_ENTER("hNode=%p attr=%d value=%p", (void *)hNode, (int)attr, (const void *)value);
   return RT_RETURN_CU(cuGraphKernelNodeSetAttribute(hNode, (CUkernelNodeAttrID)attr,
                                                     (const CUkernelNodeAttrValue *)(const void *)value));
}

/* ==== cudaGraphKernelNodeCopyAttributes (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
   RT_ENTER("hDst=%p hSrc=%p", (void *)hDst, (void *)hSrc);
   return RT_RETURN_CU(cuGraphKernelNodeCopyAttributes(hDst, hSrc));
}

/* ---- user objects ---- */

/* ==== cudaUserObjectCreate (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                           unsigned int initialRefcount, unsigned int flags)
{
   RT_ENTER("object_out=%p ptr=%p destroy=%p initialRefcount=%u flags=%#x", (void *)object_out, ptr,
            (void *)(uintptr_t)destroy, initialRefcount, flags);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuUserObjectCreate(object_out, ptr, destroy, initialRefcount, flags));
}

/* ==== cudaUserObjectRetain (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaUserObjectRetain(cudaUserObject_t object, unsigned int count)
{
   RT_ENTER("object=%p count=%u", (void *)object, count);
   return RT_RETURN_CU(cuUserObjectRetain(object, count));
}

/* ==== cudaUserObjectRelease (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
   RT_ENTER("object=%p count=%u", (void *)object, count);
   return RT_RETURN_CU(cuUserObjectRelease(object, count));
}

/* ==== cudaGraphRetainUserObject (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count,
                                                unsigned int flags)
{
   RT_ENTER("graph=%p object=%p count=%u flags=%#x", (void *)graph, (void *)object, count, flags);
   return RT_RETURN_CU(cuGraphRetainUserObject(graph, object, count, flags));
}

/* ==== cudaGraphReleaseUserObject (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count)
{
   RT_ENTER("graph=%p object=%p count=%u", (void *)graph, (void *)object, count);
   return RT_RETURN_CU(cuGraphReleaseUserObject(graph, object, count));
}
