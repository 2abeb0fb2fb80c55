/*
 * interop.c — external resource interop (cudaImportExternalMemory,
 * cudaExternalMemoryGetMapped*, cudaImportExternalSemaphore,
 * cudaSignal/WaitExternalSemaphoresAsync, the destroys), the graph nodes
 * that signal or wait on external semaphores, and the calls on registered
 * graphics resources (cudaGraphicsMapResources ...).
 *
 * REFUSED, each with cudaErrorNotSupported and one line saying why: these
 * import memory and semaphores that Vulkan, Direct3D, NvSci or an OS
 * handle (an opaque fd, a Win32 handle) describe, and metalcuda's devices
 * (the software device's arena, Metal buffers) can take none of them.  No
 * external memory or semaphore object can therefore exist, so the calls
 * that take one, and the graph nodes made of them, are refused the same
 * way rather than left as stubs.
 */
#include "internal.h"

LOG_CHANNEL(interop);

#define INTEROP_WHY "external memory and semaphores (Vulkan, Direct3D, NvSci, OS handles): metalcuda imports none"

/* ==== cudaImportExternalMemory (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                                               const struct cudaExternalMemoryHandleDesc *memHandleDesc)
{
   RT_ENTER("extMem_out=%p memHandleDesc=%p", (void *)extMem_out, (const void *)memHandleDesc);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaExternalMemoryGetMappedBuffer (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
                                                        const struct cudaExternalMemoryBufferDesc *bufferDesc)
{
   RT_ENTER("devPtr=%p extMem=%p bufferDesc=%p", (void *)devPtr, (void *)extMem, (const void *)bufferDesc);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaExternalMemoryGetMappedMipmappedArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(
   cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem, const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)
{
   RT_ENTER("mipmap=%p extMem=%p mipmapDesc=%p", (void *)mipmap, (void *)extMem, (const void *)mipmapDesc);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaDestroyExternalMemory (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t extMem)
{
   RT_ENTER("extMem=%p", (void *)extMem);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaImportExternalSemaphore (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
                                                  const struct cudaExternalSemaphoreHandleDesc *semHandleDesc)
{
   RT_ENTER("extSem_out=%p semHandleDesc=%p", (void *)extSem_out, (const void *)semHandleDesc);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaSignalExternalSemaphoresAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                        const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                        unsigned int numExtSems, cudaStream_t stream)
{
   RT_ENTER("extSemArray=%p paramsArray=%p numExtSems=%u stream=%p", (const void *)extSemArray,
            (const void *)paramsArray, numExtSems, (void *)stream);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaSignalExternalSemaphoresAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                             const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                             unsigned int numExtSems, cudaStream_t stream)
{
   RT_ENTER("extSemArray=%p paramsArray=%p numExtSems=%u stream=%p", (const void *)extSemArray,
            (const void *)paramsArray, numExtSems, (void *)stream);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaWaitExternalSemaphoresAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                      const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                      unsigned int numExtSems, cudaStream_t stream)
{
   RT_ENTER("extSemArray=%p paramsArray=%p numExtSems=%u stream=%p", (const void *)extSemArray,
            (const void *)paramsArray, numExtSems, (void *)stream);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaWaitExternalSemaphoresAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                           const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                           unsigned int numExtSems, cudaStream_t stream)
{
   RT_ENTER("extSemArray=%p paramsArray=%p numExtSems=%u stream=%p", (const void *)extSemArray,
            (const void *)paramsArray, numExtSems, (void *)stream);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaDestroyExternalSemaphore (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem)
{
   RT_ENTER("extSem=%p", (void *)extSem);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphAddExternalSemaphoresSignalNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresSignalNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                               const cudaGraphNode_t *pDependencies,
                                                               size_t numDependencies,
                                                               const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu nodeParams=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (const void *)nodeParams);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphExternalSemaphoresSignalNodeGetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeGetParams(
   cudaGraphNode_t hNode, struct cudaExternalSemaphoreSignalNodeParams *params_out)
{
   RT_ENTER("hNode=%p params_out=%p", (void *)hNode, (void *)params_out);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphExternalSemaphoresSignalNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeSetParams(
   cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
   RT_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (const void *)nodeParams);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphAddExternalSemaphoresWaitNode (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                             const cudaGraphNode_t *pDependencies,
                                                             size_t numDependencies,
                                                             const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p numDependencies=%zu nodeParams=%p", (void *)pGraphNode,
            (void *)graph, (const void *)pDependencies, numDependencies, (const void *)nodeParams);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphExternalSemaphoresWaitNodeGetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeGetParams(cudaGraphNode_t hNode,
                                                                   struct cudaExternalSemaphoreWaitNodeParams *params_out)
{
   RT_ENTER("hNode=%p params_out=%p", (void *)hNode, (void *)params_out);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphExternalSemaphoresWaitNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeSetParams(
   cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
   RT_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (const void *)nodeParams);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphExecExternalSemaphoresSignalNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresSignalNodeSetParams(
   cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
   RT_ENTER("hGraphExec=%p hNode=%p nodeParams=%p", (void *)hGraphExec, (void *)hNode, (const void *)nodeParams);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ==== cudaGraphExecExternalSemaphoresWaitNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresWaitNodeSetParams(
   cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
   RT_ENTER("hGraphExec=%p hNode=%p nodeParams=%p", (void *)hGraphExec, (void *)hNode, (const void *)nodeParams);
   RT_NOT_SUPPORTED(INTEROP_WHY);
}

/* ---- graphics interop: the calls on registered graphics resources ----
 * REFUSED like the rest of graphics interop (OpenGL, EGL, VDPAU, Direct3D:
 * their registration entry points stay stubs): no graphics resource can be
 * registered with metalcuda, so there is none to map, query or unregister. */

#define GRAPHICS_WHY "graphics interop (no OpenGL, EGL, VDPAU or Direct3D resource can be registered with metalcuda)"

/* ==== cudaGraphicsUnregisterResource (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource)
{
   RT_ENTER("resource=%p", (void *)resource);
   RT_NOT_SUPPORTED(GRAPHICS_WHY);
}

/* ==== cudaGraphicsResourceSetMapFlags (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource, unsigned int flags)
{
   RT_ENTER("resource=%p flags=%#x", (void *)resource, flags);
   RT_NOT_SUPPORTED(GRAPHICS_WHY);
}

/* ==== cudaGraphicsMapResources (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources, cudaStream_t stream)
{
   RT_ENTER("count=%d resources=%p stream=%p", count, (void *)resources, (void *)stream);
   RT_NOT_SUPPORTED(GRAPHICS_WHY);
}

/* ==== cudaGraphicsUnmapResources (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t *resources, cudaStream_t stream)
{
   RT_ENTER("count=%d resources=%p stream=%p", count, (void *)resources, (void *)stream);
   RT_NOT_SUPPORTED(GRAPHICS_WHY);
}

/* ==== cudaGraphicsResourceGetMappedPointer (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size, cudaGraphicsResource_t resource)
{
   RT_ENTER("devPtr=%p size=%p resource=%p", (void *)devPtr, (void *)size, (void *)resource);
   RT_NOT_SUPPORTED(GRAPHICS_WHY);
}

/* ==== cudaGraphicsSubResourceGetMappedArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphicsSubResourceGetMappedArray(cudaArray_t *array, cudaGraphicsResource_t resource,
                                                            unsigned int arrayIndex, unsigned int mipLevel)
{
   RT_ENTER("array=%p resource=%p arrayIndex=%u mipLevel=%u", (void *)array, (void *)resource, arrayIndex, mipLevel);
   RT_NOT_SUPPORTED(GRAPHICS_WHY);
}

/* ==== cudaGraphicsResourceGetMappedMipmappedArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                                                  cudaGraphicsResource_t resource)
{
   RT_ENTER("mipmappedArray=%p resource=%p", (void *)mipmappedArray, (void *)resource);
   RT_NOT_SUPPORTED(GRAPHICS_WHY);
}
