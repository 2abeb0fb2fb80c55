/*
 * abi11.c — what libcudart.so.11.0 (CUDA 11's soname) has beyond
 * libcudart.so.12's ABI (abi12.c, linked into both): linked into .11.0
 * only.  Compared on NVIDIA's 11.8.89 headers and library (the wheel
 * nvidia-cuda-runtime-cu11):
 *   - cudaGetDriverEntryPoint takes no status argument (CUDA 12 added it:
 *     a CUDA 11 caller leaves the register holding it undefined, so the
 *     four-argument form would write through garbage);
 *   - the runtime's version is 11080 (version.c), so entry points are
 *     looked up with CUDA 11.8's ABI of the driver;
 *   - texture and surface references, gone in CUDA 12, are stubs, as are
 *     the _v2 texture-object functions and cudaProfilerInitialize.
 */
#include "internal.h"

LOG_CHANNEL(abi11);

/* ==== cudaGetDriverEntryPoint (libcudart.so.11.0) ==== without the status */
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                                             unsigned long long flags)
   RT_EXPORT_AS(cudaGetDriverEntryPoint);
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                                             unsigned long long flags)
{
   RT_ENTER("symbol=%s funcPtr=%p flags=%#llx", symbol ? symbol : "(null)", (void *)funcPtr, flags);
   return RT_RETURN(rt_driver_entry_point(symbol, funcPtr, flags, NULL, false));
}

/* ==== cudaGetDriverEntryPoint_ptsz (libcudart.so.11.0) ==== */
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                                  unsigned long long flags)
   RT_EXPORT_AS(cudaGetDriverEntryPoint_ptsz);
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                                  unsigned long long flags)
{
   RT_ENTER("symbol=%s funcPtr=%p flags=%#llx", symbol ? symbol : "(null)", (void *)funcPtr, flags);
   return RT_RETURN(rt_driver_entry_point(symbol, funcPtr, flags, NULL, true));
}

/* ---- CUDA 11 entry points CUDA 12 dropped ---- */
RT_DEFINE_STUB(cudaBindSurfaceToArray)
RT_DEFINE_STUB(cudaBindTexture)
RT_DEFINE_STUB(cudaBindTexture2D)
RT_DEFINE_STUB(cudaBindTextureToArray)
RT_DEFINE_STUB(cudaBindTextureToMipmappedArray)
RT_DEFINE_STUB(cudaUnbindTexture)
RT_DEFINE_STUB(cudaGetTextureAlignmentOffset)
RT_DEFINE_STUB(cudaGetTextureReference)
RT_DEFINE_STUB(cudaGetSurfaceReference)
RT_DEFINE_STUB(cudaCreateTextureObject_v2)
RT_DEFINE_STUB(cudaGetTextureObjectTextureDesc_v2)
RT_DEFINE_STUB(cudaProfilerInitialize)

/* ---- graphs ---- */

/* ==== cudaGraphInstantiate (libcudart.so.11.0) ==== CUDA 11's form: the
 * failing node and a log instead of flags */
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                                                          size_t bufferSize) RT_EXPORT_AS(cudaGraphInstantiate);
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                                                          size_t bufferSize)
{
   if (pErrorNode)
      *pErrorNode = NULL;
   if (pLogBuffer && bufferSize)
      pLogBuffer[0] = 0;
   return cudaGraphInstantiateWithFlags(pGraphExec, graph, 0);
}

/* ==== cudaGraphExecUpdate (libcudart.so.11.0) ==== CUDA 11's form */
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                                         cudaGraphNode_t *hErrorNode_out,
                                                         enum cudaGraphExecUpdateResult *updateResult_out)
   RT_EXPORT_AS(cudaGraphExecUpdate);
MC_EXPORT cudaError_t CUDARTAPI rt11_cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                                         cudaGraphNode_t *hErrorNode_out,
                                                         enum cudaGraphExecUpdateResult *updateResult_out)
{
   cudaGraphExecUpdateResultInfo info = { 0 };
   cudaError_t e = cudaGraphExecUpdate(hGraphExec, hGraph, &info);
   if (hErrorNode_out)
      *hErrorNode_out = info.errorNode;
   if (updateResult_out)
      *updateResult_out = info.result;
   return e;
}
