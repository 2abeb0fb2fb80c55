/*
 * graphnode.c — the runtime's generic graph-node API (CUDA 12.2+):
 * cudaGraphAddNode, cudaGraphNodeSetParams, cudaGraphExecNodeSetParams
 * and cudaGraphConditionalHandleCreate.  Each node type goes to the
 * runtime entry point of its own kind (graph.c: a host stub to its kernel,
 * a cudaMemcpy3DParms to the driver's form), a conditional node to the
 * driver's cuGraphAddNode_v2, as NVIDIA's runtime does.  CUDA 12's form
 * of cudaGraphAddNode (no edge data) is abi12.c's.
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(graph);

static bool reserved_zero(const struct cudaGraphNodeParams *np)
{
   return !np->reserved0[0] && !np->reserved0[1] && !np->reserved0[2] && !np->reserved2;
}

/* nodeParams is given and of node's type (the SetParams forms) */
static cudaError_t same_type(cudaGraphNode_t node, const struct cudaGraphNodeParams *nodeParams)
{
   if (!nodeParams || !reserved_zero(nodeParams))
      return cudaErrorInvalidValue;
   enum cudaGraphNodeType t;
   cudaError_t r = cudaGraphNodeGetType(node, &t);
   return r != cudaSuccess ? r : t == nodeParams->type ? cudaSuccess : cudaErrorInvalidValue;
}

static struct cudaKernelNodeParams kernel_params(const struct cudaKernelNodeParamsV2 *k)
{
   struct cudaKernelNodeParams p;
   p.func = k->func;
   p.gridDim = k->gridDim;
   p.blockDim = k->blockDim;
   p.sharedMemBytes = k->sharedMemBytes;
   p.kernelParams = k->kernelParams;
   p.extra = k->extra;
   return p;
}

static struct cudaMemsetParams memset_params(const struct cudaMemsetParamsV2 *m)
{
   return (struct cudaMemsetParams){ m->dst, m->pitch, m->value, m->elementSize, m->width, m->height };
}

static struct cudaHostNodeParams host_params(const struct cudaHostNodeParamsV2 *h)
{
   return (struct cudaHostNodeParams){ h->fn, h->userData };
}

static cudaError_t add_conditional(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t ndeps, struct cudaConditionalNodeParams *cp)
{
   CUgraphNodeParams p;
   memset(&p, 0, sizeof(p));
   p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
   p.conditional.handle = cp->handle;
   p.conditional.type = (CUgraphConditionalNodeType)cp->type;
   p.conditional.size = cp->size;
   CUresult r = cuGraphAddNode_v2(out, graph, deps, NULL, ndeps, &p);
   if (r == CUDA_SUCCESS)
      cp->phGraph_out = p.conditional.phGraph_out;
   return cu_to_cuda_error(r);
}

/* ==== cudaGraphAddNode (libcudart.@) ==== */
RT_CUDA13_FORM cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData,
                                       size_t numDependencies, struct cudaGraphNodeParams *nodeParams)
{
   RT_ENTER("pGraphNode=%p graph=%p pDependencies=%p dependencyData=%p numDependencies=%zu nodeParams=%p type=%d",
            (void *)pGraphNode, (void *)graph, (const void *)pDependencies, (const void *)dependencyData,
            numDependencies, (void *)nodeParams, nodeParams ? (int)nodeParams->type : -1);
   RT_NEED_CTX();
   RT_CHECK(nodeParams && reserved_zero(nodeParams), cudaErrorInvalidValue);
   for (size_t i = 0; dependencyData && i < numDependencies; i++)
      if (dependencyData[i].type || dependencyData[i].from_port || dependencyData[i].to_port) {
         LOG_WARN("cudaGraphAddNode: programmatic edges are not supported by metalcuda");
         return RT_RETURN(cudaErrorNotSupported);
      }
   cudaGraphNode_t *o = pGraphNode;
   const cudaGraphNode_t *d = pDependencies;
   size_t n = numDependencies;
   cudaError_t r;
   switch (nodeParams->type) {
   case cudaGraphNodeTypeKernel: {
      struct cudaKernelNodeParams k = kernel_params(&nodeParams->kernel);
      r = cudaGraphAddKernelNode(o, graph, d, n, &k);
      break;
   }
   case cudaGraphNodeTypeMemcpy:
      r = cudaGraphAddMemcpyNode(o, graph, d, n, &nodeParams->memcpy.copyParams);
      break;
   case cudaGraphNodeTypeMemset: {
      struct cudaMemsetParams m = memset_params(&nodeParams->memset);
      r = cudaGraphAddMemsetNode(o, graph, d, n, &m);
      break;
   }
   case cudaGraphNodeTypeHost: {
      struct cudaHostNodeParams h = host_params(&nodeParams->host);
      r = cudaGraphAddHostNode(o, graph, d, n, &h);
      break;
   }
   case cudaGraphNodeTypeGraph:
      if (nodeParams->graph.ownership == cudaGraphChildGraphOwnershipClone) {
         r = cudaGraphAddChildGraphNode(o, graph, d, n, nodeParams->graph.graph);
      } else if (nodeParams->graph.ownership == cudaGraphChildGraphOwnershipMove) {
         LOG_WARN("cudaGraphAddNode: moving a child graph into its node is not supported by metalcuda (clone it)");
         r = cudaErrorNotSupported;
      } else {
         r = cudaErrorInvalidValue;
      }
      break;
   case cudaGraphNodeTypeEmpty:
      r = cudaGraphAddEmptyNode(o, graph, d, n);
      break;
   case cudaGraphNodeTypeWaitEvent:
      r = cudaGraphAddEventWaitNode(o, graph, d, n, nodeParams->eventWait.event);
      break;
   case cudaGraphNodeTypeEventRecord:
      r = cudaGraphAddEventRecordNode(o, graph, d, n, nodeParams->eventRecord.event);
      break;
   case cudaGraphNodeTypeMemAlloc:   /* the same layout; writes alloc.dptr back */
      r = cudaGraphAddMemAllocNode(o, graph, d, n, (struct cudaMemAllocNodeParams *)(void *)&nodeParams->alloc);
      break;
   case cudaGraphNodeTypeMemFree:
      r = cudaGraphAddMemFreeNode(o, graph, d, n, nodeParams->free.dptr);
      break;
   case cudaGraphNodeTypeConditional:
      r = add_conditional(o, graph, d, n, &nodeParams->conditional);
      break;
   case cudaGraphNodeTypeExtSemaphoreSignal:
   case cudaGraphNodeTypeExtSemaphoreWait:
      LOG_WARN("cudaGraphAddNode: external-semaphore nodes are not supported by metalcuda");
      r = cudaErrorNotSupported;
      break;
   default:
      r = cudaErrorInvalidValue;
      break;
   }
   return RT_RETURN(r);
}

/* ==== cudaGraphNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)
{
   RT_ENTER("node=%p nodeParams=%p", (void *)node, (void *)nodeParams);
   cudaError_t r = same_type(node, nodeParams);
   if (r != cudaSuccess)
      return RT_RETURN(r);
   switch (nodeParams->type) {
   case cudaGraphNodeTypeKernel: {
      struct cudaKernelNodeParams k = kernel_params(&nodeParams->kernel);
      r = cudaGraphKernelNodeSetParams(node, &k);
      break;
   }
   case cudaGraphNodeTypeMemcpy:
      r = cudaGraphMemcpyNodeSetParams(node, &nodeParams->memcpy.copyParams);
      break;
   case cudaGraphNodeTypeMemset: {
      struct cudaMemsetParams m = memset_params(&nodeParams->memset);
      r = cudaGraphMemsetNodeSetParams(node, &m);
      break;
   }
   case cudaGraphNodeTypeHost: {
      struct cudaHostNodeParams h = host_params(&nodeParams->host);
      r = cudaGraphHostNodeSetParams(node, &h);
      break;
   }
   case cudaGraphNodeTypeWaitEvent:
      r = cudaGraphEventWaitNodeSetEvent(node, nodeParams->eventWait.event);
      break;
   case cudaGraphNodeTypeEventRecord:
      r = cudaGraphEventRecordNodeSetEvent(node, nodeParams->eventRecord.event);
      break;
   case cudaGraphNodeTypeEmpty:
      r = cudaSuccess;
      break;
   default:   /* child graphs, memory and conditional nodes keep what they were made with */
      r = cudaErrorInvalidValue;
      break;
   }
   return RT_RETURN(r);
}

/* ==== cudaGraphExecNodeSetParams (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                 struct cudaGraphNodeParams *nodeParams)
{
   RT_ENTER("graphExec=%p node=%p nodeParams=%p", (void *)graphExec, (void *)node, (void *)nodeParams);
   cudaError_t r = same_type(node, nodeParams);
   if (r != cudaSuccess)
      return RT_RETURN(r);
   switch (nodeParams->type) {
   case cudaGraphNodeTypeKernel: {
      struct cudaKernelNodeParams k = kernel_params(&nodeParams->kernel);
      r = cudaGraphExecKernelNodeSetParams(graphExec, node, &k);
      break;
   }
   case cudaGraphNodeTypeMemcpy:
      r = cudaGraphExecMemcpyNodeSetParams(graphExec, node, &nodeParams->memcpy.copyParams);
      break;
   case cudaGraphNodeTypeMemset: {
      struct cudaMemsetParams m = memset_params(&nodeParams->memset);
      r = cudaGraphExecMemsetNodeSetParams(graphExec, node, &m);
      break;
   }
   case cudaGraphNodeTypeHost: {
      struct cudaHostNodeParams h = host_params(&nodeParams->host);
      r = cudaGraphExecHostNodeSetParams(graphExec, node, &h);
      break;
   }
   case cudaGraphNodeTypeGraph:
      r = cudaGraphExecChildGraphNodeSetParams(graphExec, node, nodeParams->graph.graph);
      break;
   case cudaGraphNodeTypeWaitEvent:
      r = cudaGraphExecEventWaitNodeSetEvent(graphExec, node, nodeParams->eventWait.event);
      break;
   case cudaGraphNodeTypeEventRecord:
      r = cudaGraphExecEventRecordNodeSetEvent(graphExec, node, nodeParams->eventRecord.event);
      break;
   default:
      r = cudaErrorInvalidValue;
      break;
   }
   return RT_RETURN(r);
}

/* ==== cudaGraphConditionalHandleCreate (libcudart.@) ==== the driver's,
 * in the current context */
cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                                       unsigned int defaultLaunchValue, unsigned int flags)
{
   RT_ENTER("pHandle_out=%p graph=%p defaultLaunchValue=%u flags=%#x", (void *)pHandle_out, (void *)graph,
            defaultLaunchValue, flags);
   RT_NEED_CTX();
   RT_CHECK(pHandle_out, cudaErrorInvalidValue);
   CUgraphConditionalHandle h;   /* a uint64_t, the runtime's an unsigned long long */
   CUresult r = cuGraphConditionalHandleCreate(&h, graph, NULL, defaultLaunchValue, flags);
   if (r == CUDA_SUCCESS)
      *pHandle_out = h;
   return RT_RETURN_CU(r);
}
