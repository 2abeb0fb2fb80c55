/*
 * userobj.c — graph user objects (cudaUserObjectCreate, Retain, Release,
 * cudaGraphRetainUserObject, cudaGraphReleaseUserObject) and kernel nodes'
 * launch attributes (cudaGraphKernelNodeGetAttribute, SetAttribute,
 * CopyAttributes): the driver's calls (src/api/driver/userobj.c).  A
 * cudaLaunchAttributeValue is laid out as the driver's CUlaunchAttributeValue
 * (the same union in NVIDIA's headers).
 */
#include "internal.h"

LOG_CHANNEL(graph);

_Static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue),
               "cudaLaunchAttributeValue is the driver's CUlaunchAttributeValue");

/* ==== cudaUserObjectCreate (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                           unsigned int initialRefcount, unsigned int flags)
{
   RT_ENTER("object_out=%p ptr=%p destroy=%p initialRefcount=%u flags=%#x", (void *)object_out, ptr,
            (void *)(uintptr_t)destroy, initialRefcount, flags);
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return RT_RETURN(e);
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

/* ==== cudaGraphKernelNodeGetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      cudaKernelNodeAttrValue *value_out)
{
   RT_ENTER("hNode=%p attr=%d value_out=%p", (void *)hNode, (int)attr, (void *)value_out);
   return RT_RETURN_CU(cuGraphKernelNodeGetAttribute(hNode, (CUkernelNodeAttrID)attr,
                                                     (CUkernelNodeAttrValue *)(void *)value_out));
}

/* ==== cudaGraphKernelNodeSetAttribute (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      const cudaKernelNodeAttrValue *value)
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
