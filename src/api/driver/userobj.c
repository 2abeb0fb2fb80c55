/*
 * userobj.c — graph user objects (cuUserObjectCreate, Retain, Release,
 * cuGraphRetainUserObject, cuGraphReleaseUserObject) and kernel nodes'
 * launch attributes (cuGraphKernelNodeGetAttribute, SetAttribute,
 * CopyAttributes).  The reference counting is src/core/userobj.c's.
 *
 * Kernel node attributes are the launch attributes a kernel node may carry
 * (CUDA's list for cuGraphKernelNodeSetAttribute).  The hints are kept and
 * read back as set, as for streams: access policy windows (metalcuda has no
 * L2 to persist lines in), the priority (one level), memory
 * synchronisation domains (one), cluster scheduling preferences and the
 * shared-memory carveout.  A node's cluster dimension may only be 1x1x1
 * and its launch may not be cooperative (both refused by name: a graph's
 * kernels are not launched either way here); device-updatable nodes are
 * refused likewise.
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(graph);

static inline core_user_object *uobj_of(CUuserObject o) { return (core_user_object *)(void *)o; }
static inline core_graph *graph_of(CUgraph g) { return (core_graph *)(void *)g; }
static inline core_graph_node *node_of(CUgraphNode n) { return (core_graph_node *)(void *)n; }

/* ==== cuUserObjectCreate (libcuda.@) ==== */
CUresult CUDAAPI cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy,
                                    unsigned int initialRefcount, unsigned int flags)
{
   API_ENTER("object_out=%p ptr=%p destroy=%p initialRefcount=%u flags=%#x", (void *)object_out, ptr,
             (void *)(uintptr_t)destroy, initialRefcount, flags);
   API_CHECK(object_out && destroy && initialRefcount && flags == CU_USER_OBJECT_NO_DESTRUCTOR_SYNC,
             CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   (void)c;
   core_user_object *o;
   CUresult r = (CUresult)core_user_object_create(ptr, destroy, initialRefcount, &o);
   if (r == CUDA_SUCCESS)
      *object_out = (CUuserObject)(void *)o;
   return API_RETURN(r);
}

/* ==== cuUserObjectRetain (libcuda.@) ==== */
CUresult CUDAAPI cuUserObjectRetain(CUuserObject object, unsigned int count)
{
   API_ENTER("object=%p count=%u", (void *)object, count);
   API_CHECK(core_check_user_object(uobj_of(object)) && count, CUDA_ERROR_INVALID_VALUE);
   core_user_object_retain(uobj_of(object), count);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuUserObjectRelease (libcuda.@) ==== */
CUresult CUDAAPI cuUserObjectRelease(CUuserObject object, unsigned int count)
{
   API_ENTER("object=%p count=%u", (void *)object, count);
   API_CHECK(core_check_user_object(uobj_of(object)) && count, CUDA_ERROR_INVALID_VALUE);
   core_user_object_release(uobj_of(object), count);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphRetainUserObject (libcuda.@) ==== */
CUresult CUDAAPI cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags)
{
   API_ENTER("graph=%p object=%p count=%u flags=%#x", (void *)graph, (void *)object, count, flags);
   API_CHECK(core_check_graph(graph_of(graph)) && core_check_user_object(uobj_of(object)) && count &&
             (flags & ~(unsigned)CU_GRAPH_USER_OBJECT_MOVE) == 0, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_graph_retain_user_object(graph_of(graph), uobj_of(object), count,
                                                             flags & CU_GRAPH_USER_OBJECT_MOVE));
}

/* ==== cuGraphReleaseUserObject (libcuda.@) ==== */
CUresult CUDAAPI cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count)
{
   API_ENTER("graph=%p object=%p count=%u", (void *)graph, (void *)object, count);
   API_CHECK(core_check_graph(graph_of(graph)) && core_check_user_object(uobj_of(object)) && count,
             CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_graph_release_user_object(graph_of(graph), uobj_of(object), count));
}

/* ---- kernel node attributes ---- */

static bool kernel_node(CUgraphNode n)
{
   return core_check_node(node_of(n)) && node_of(n)->p.type == CORE_NODE_KERNEL;
}

/* CUDA_SUCCESS if a kernel node may carry the attribute with this value. */
static CUresult check_node_attr(CUkernelNodeAttrID attr, const CUkernelNodeAttrValue *v)
{
   switch (attr) {
   case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
      return v->accessPolicyWindow.hitRatio >= 0.0f && v->accessPolicyWindow.hitRatio <= 1.0f
                ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   case CU_LAUNCH_ATTRIBUTE_PRIORITY:
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
   case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
      if (v->clusterDim.x <= 1 && v->clusterDim.y <= 1 && v->clusterDim.z <= 1)
         return CUDA_SUCCESS;
      API_NOT_SUPPORTED("thread block clusters of more than one block on a kernel node");
   case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
      if (!v->cooperative)
         return CUDA_SUCCESS;
      API_NOT_SUPPORTED("cooperative kernel nodes (CU_LAUNCH_ATTRIBUTE_COOPERATIVE)");
   case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
      if (!v->deviceUpdatableKernelNode.deviceUpdatable)
         return CUDA_SUCCESS;
      API_NOT_SUPPORTED("device-updatable kernel nodes (CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE)");
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* ==== cuGraphKernelNodeGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               CUkernelNodeAttrValue *value_out)
{
   API_ENTER("hNode=%p attr=%d value_out=%p", (void *)hNode, (int)attr, (void *)value_out);
   API_CHECK(value_out && kernel_node(hNode), CUDA_ERROR_INVALID_VALUE);
   CUkernelNodeAttrValue zero = { 0 };
   API_CHECK(check_node_attr(attr, &zero) == CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE);
   /* never set: its default, all zero (no window, priority 0, 1x1x1 is
    * reported as 0 by NVIDIA too when unset) */
   if (!core_node_get_attr(node_of(hNode), (int)attr, value_out, sizeof(*value_out)))
      *value_out = zero;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphKernelNodeSetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               const CUkernelNodeAttrValue *value)
{
   API_ENTER("hNode=%p attr=%d value=%p", (void *)hNode, (int)attr, (const void *)value);
   API_CHECK(value && kernel_node(hNode), CUDA_ERROR_INVALID_VALUE);
   CUresult r = check_node_attr(attr, value);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   return API_RETURN((CUresult)core_node_set_attr(node_of(hNode), (int)attr, value, sizeof(*value)));
}

/* ==== cuGraphKernelNodeCopyAttributes (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
   API_ENTER("dst=%p src=%p", (void *)dst, (void *)src);
   API_CHECK(kernel_node(dst) && kernel_node(src), CUDA_ERROR_INVALID_VALUE);
   memcpy(node_of(dst)->attrs, node_of(src)->attrs, sizeof(node_of(dst)->attrs));
   return API_RETURN(CUDA_SUCCESS);
}
