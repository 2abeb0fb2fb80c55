/*
 * graphnode.c — the generic graph-node API of CUDA 12.2+: cuGraphAddNode
 * (and _v2 with edge data), cuGraphNodeSetParams, cuGraphExecNodeSetParams,
 * which take one CUgraphNodeParams for every node type, and conditional
 * nodes with their handles (cuGraphConditionalHandleCreate), which only
 * this API makes.
 *
 * Each node type goes to the entry point of its own kind (graph.c), with
 * the generic struct's fields, so both forms check and behave alike; a
 * conditional node goes to the core (src/core/graphcond.c), and the bodies
 * it makes are handed back in phGraph_out.  External-semaphore nodes are
 * not implemented (CUDA_ERROR_NOT_SUPPORTED),
 * nor is moving a child graph into its node (CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE).
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(graph);

static inline core_graph *graph_of(CUgraph g) { return (core_graph *)(void *)g; }

/* The reserved fields CUDA says must be zero. */
static bool reserved_zero(const CUgraphNodeParams *np)
{
   return !np->reserved0[0] && !np->reserved0[1] && !np->reserved0[2] && !np->reserved2;
}

static CUDA_MEMSET_NODE_PARAMS memset_params(const CUDA_MEMSET_NODE_PARAMS_v2 *m)
{
   return (CUDA_MEMSET_NODE_PARAMS){ m->dst, m->pitch, m->value, m->elementSize, m->width, m->height };
}

/* v3 has v2's fields under a type of its own */
static CUDA_KERNEL_NODE_PARAMS kernel_params(const CUDA_KERNEL_NODE_PARAMS_v3 *k)
{
   return (CUDA_KERNEL_NODE_PARAMS){ .func = k->func,
                                     .gridDimX = k->gridDimX, .gridDimY = k->gridDimY, .gridDimZ = k->gridDimZ,
                                     .blockDimX = k->blockDimX, .blockDimY = k->blockDimY, .blockDimZ = k->blockDimZ,
                                     .sharedMemBytes = k->sharedMemBytes, .kernelParams = k->kernelParams,
                                     .extra = k->extra, .kern = k->kern, .ctx = k->ctx };
}

/* cuGraphAddMemAllocNode through the generic node API: v2 has v1's fields */
static CUresult add_mem_alloc(CUgraphNode *o, CUgraph g, const CUgraphNode *d, size_t n,
                              CUDA_MEM_ALLOC_NODE_PARAMS_v2 *a)
{
   CUDA_MEM_ALLOC_NODE_PARAMS_v1 v1 = { a->poolProps, a->accessDescs, a->accessDescCount, a->bytesize, a->dptr };
   CUresult r = cuGraphAddMemAllocNode(o, g, d, n, &v1);
   a->dptr = v1.dptr;   /* the allocation's address goes back to the caller */
   return r;
}

static CUresult unsupported(const char *what, int type)
{
   (void)type;
   LOG_WARN("%s: external-semaphore nodes are not supported by metalcuda", what);
   return CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult add_conditional(CUgraphNode *out, CUgraph hGraph, const CUgraphNode *deps, size_t ndeps,
                                CUDA_CONDITIONAL_NODE_PARAMS *cp)
{
   core_graph *g = graph_of(hGraph);
   if (!out || !core_check_graph(g) || (ndeps && !deps))
      return CUDA_ERROR_INVALID_VALUE;
   if (cp->ctx && ctx_of(cp->ctx) != g->ctx)
      return CUDA_ERROR_INVALID_VALUE;   /* the handle's and the bodies' context is the graph's */
   core_node_params p = { .type = CORE_NODE_CONDITIONAL,
                          .cond = { .handle = cp->handle, .type = (int)cp->type, .size = cp->size } };
   core_graph_node *n;
   CUresult r = (CUresult)core_graph_add(g, (core_graph_node *const *)(const void *)deps, ndeps, &p, &n);
   if (r != CUDA_SUCCESS)
      return r;
   cp->phGraph_out = (CUgraph *)(void *)n->p.cond.bodies;   /* the node's own array */
   *out = (CUgraphNode)(void *)n;
   return CUDA_SUCCESS;
}

/* ==== cuGraphAddNode_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                   const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                   CUgraphNodeParams *nodeParams)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p dependencyData=%p numDependencies=%zu nodeParams=%p type=%d",
             (void *)phGraphNode, (void *)hGraph, (const void *)dependencies, (const void *)dependencyData,
             numDependencies, (void *)nodeParams, nodeParams ? (int)nodeParams->type : -1);
   API_CHECK(nodeParams && reserved_zero(nodeParams), CUDA_ERROR_INVALID_VALUE);
   if (!drv_default_edges(dependencyData, numDependencies)) {
      LOG_WARN("cuGraphAddNode: programmatic edges are not supported by metalcuda");
      return API_RETURN(CUDA_ERROR_NOT_SUPPORTED);
   }
   CUgraphNode *o = phGraphNode;
   const CUgraphNode *d = dependencies;
   size_t n = numDependencies;
   CUresult r;
   switch (nodeParams->type) {
   case CU_GRAPH_NODE_TYPE_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS k = kernel_params(&nodeParams->kernel);
      r = cuGraphAddKernelNode_v2(o, hGraph, d, n, &k);
      break;
   }
   case CU_GRAPH_NODE_TYPE_MEMCPY:
      r = cuGraphAddMemcpyNode(o, hGraph, d, n, &nodeParams->memcpy.copyParams, nodeParams->memcpy.copyCtx);
      break;
   case CU_GRAPH_NODE_TYPE_MEMSET: {
      CUDA_MEMSET_NODE_PARAMS m = memset_params(&nodeParams->memset);
      r = cuGraphAddMemsetNode(o, hGraph, d, n, &m, nodeParams->memset.ctx);
      break;
   }
   case CU_GRAPH_NODE_TYPE_HOST: {
      CUDA_HOST_NODE_PARAMS h = { nodeParams->host.fn, nodeParams->host.userData };
      r = cuGraphAddHostNode(o, hGraph, d, n, &h);
      break;
   }
   case CU_GRAPH_NODE_TYPE_GRAPH:
      if (nodeParams->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE) {
         r = cuGraphAddChildGraphNode(o, hGraph, d, n, nodeParams->graph.graph);
      } else if (nodeParams->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE) {
         LOG_WARN("cuGraphAddNode: moving a child graph into its node is not supported by metalcuda (clone it)");
         r = CUDA_ERROR_NOT_SUPPORTED;
      } else {
         r = CUDA_ERROR_INVALID_VALUE;
      }
      break;
   case CU_GRAPH_NODE_TYPE_EMPTY:
      r = cuGraphAddEmptyNode(o, hGraph, d, n);
      break;
   case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      r = cuGraphAddEventWaitNode(o, hGraph, d, n, nodeParams->eventWait.event);
      break;
   case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      r = cuGraphAddEventRecordNode(o, hGraph, d, n, nodeParams->eventRecord.event);
      break;
   case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
      r = add_mem_alloc(o, hGraph, d, n, &nodeParams->alloc);   /* writes alloc.dptr back */
      break;
   case CU_GRAPH_NODE_TYPE_MEM_FREE:
      r = cuGraphAddMemFreeNode(o, hGraph, d, n, nodeParams->free.dptr);
      break;
   case CU_GRAPH_NODE_TYPE_CONDITIONAL:
      r = add_conditional(o, hGraph, d, n, &nodeParams->conditional);
      break;
   case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:   /* the same layout in v1 and v2 */
      r = cuGraphAddBatchMemOpNode(o, hGraph, d, n, (const CUDA_BATCH_MEM_OP_NODE_PARAMS *)(const void *)&nodeParams->memOp);
      break;
   case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
   case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
      r = unsupported("cuGraphAddNode", nodeParams->type);
      break;
   default:
      r = CUDA_ERROR_INVALID_VALUE;
      break;
   }
   return API_RETURN(r);
}

/* ==== cuGraphAddNode (libcuda.@) ==== CUDA 12.2's form, no edge data */
CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                size_t numDependencies, CUgraphNodeParams *nodeParams)
{
   return cuGraphAddNode_v2(phGraphNode, hGraph, dependencies, NULL, numDependencies, nodeParams);
}

/* The node's type as the API numbers it, or -1 for a stale handle. */
static int node_type(CUgraphNode hNode)
{
   const core_graph_node *n = (const core_graph_node *)(const void *)hNode;
   return core_check_node(n) ? n->p.type : -1;
}

/* ==== cuGraphNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (void *)nodeParams);
   API_CHECK(nodeParams && reserved_zero(nodeParams), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(node_type(hNode) == (int)nodeParams->type, CUDA_ERROR_INVALID_VALUE);
   CUresult r;
   switch (nodeParams->type) {
   case CU_GRAPH_NODE_TYPE_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS k = kernel_params(&nodeParams->kernel);
      r = cuGraphKernelNodeSetParams_v2(hNode, &k);
      break;
   }
   case CU_GRAPH_NODE_TYPE_MEMCPY:
      r = cuGraphMemcpyNodeSetParams(hNode, &nodeParams->memcpy.copyParams);
      break;
   case CU_GRAPH_NODE_TYPE_MEMSET: {
      CUDA_MEMSET_NODE_PARAMS m = memset_params(&nodeParams->memset);
      r = cuGraphMemsetNodeSetParams(hNode, &m);
      break;
   }
   case CU_GRAPH_NODE_TYPE_HOST: {
      CUDA_HOST_NODE_PARAMS h = { nodeParams->host.fn, nodeParams->host.userData };
      r = cuGraphHostNodeSetParams(hNode, &h);
      break;
   }
   case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      r = cuGraphEventWaitNodeSetEvent(hNode, nodeParams->eventWait.event);
      break;
   case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      r = cuGraphEventRecordNodeSetEvent(hNode, nodeParams->eventRecord.event);
      break;
   case CU_GRAPH_NODE_TYPE_EMPTY:
      r = CUDA_SUCCESS;   /* nothing to set */
      break;
   case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
      r = cuGraphBatchMemOpNodeSetParams(hNode, (const CUDA_BATCH_MEM_OP_NODE_PARAMS *)(const void *)&nodeParams->memOp);
      break;
   case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
   case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
      r = unsupported("cuGraphNodeSetParams", nodeParams->type);
      break;
   default:   /* child graphs, memory and conditional nodes keep what they were made with */
      r = CUDA_ERROR_INVALID_VALUE;
      break;
   }
   return API_RETURN(r);
}

/* ==== cuGraphExecNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
   API_ENTER("hGraphExec=%p hNode=%p nodeParams=%p", (void *)hGraphExec, (void *)hNode, (void *)nodeParams);
   API_CHECK(nodeParams && reserved_zero(nodeParams), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(node_type(hNode) == (int)nodeParams->type, CUDA_ERROR_INVALID_VALUE);
   CUgraphExec x = hGraphExec;
   CUresult r;
   switch (nodeParams->type) {
   case CU_GRAPH_NODE_TYPE_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS k = kernel_params(&nodeParams->kernel);
      r = cuGraphExecKernelNodeSetParams_v2(x, hNode, &k);
      break;
   }
   case CU_GRAPH_NODE_TYPE_MEMCPY:
      r = cuGraphExecMemcpyNodeSetParams(x, hNode, &nodeParams->memcpy.copyParams, nodeParams->memcpy.copyCtx);
      break;
   case CU_GRAPH_NODE_TYPE_MEMSET: {
      CUDA_MEMSET_NODE_PARAMS m = memset_params(&nodeParams->memset);
      r = cuGraphExecMemsetNodeSetParams(x, hNode, &m, nodeParams->memset.ctx);
      break;
   }
   case CU_GRAPH_NODE_TYPE_HOST: {
      CUDA_HOST_NODE_PARAMS h = { nodeParams->host.fn, nodeParams->host.userData };
      r = cuGraphExecHostNodeSetParams(x, hNode, &h);
      break;
   }
   case CU_GRAPH_NODE_TYPE_GRAPH:
      r = cuGraphExecChildGraphNodeSetParams(x, hNode, nodeParams->graph.graph);
      break;
   case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      r = cuGraphExecEventWaitNodeSetEvent(x, hNode, nodeParams->eventWait.event);
      break;
   case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      r = cuGraphExecEventRecordNodeSetEvent(x, hNode, nodeParams->eventRecord.event);
      break;
   case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
      r = cuGraphExecBatchMemOpNodeSetParams(x, hNode,
                                             (const CUDA_BATCH_MEM_OP_NODE_PARAMS *)(const void *)&nodeParams->memOp);
      break;
   case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
   case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
      r = unsupported("cuGraphExecNodeSetParams", nodeParams->type);
      break;
   default:
      r = CUDA_ERROR_INVALID_VALUE;
      break;
   }
   return API_RETURN(r);
}

/* ==== cuGraphConditionalHandleCreate (libcuda.@) ==== */
CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx,
                                                unsigned int defaultLaunchValue, unsigned int flags)
{
   API_ENTER("pHandle_out=%p hGraph=%p ctx=%p defaultLaunchValue=%u flags=%#x", (void *)pHandle_out, (void *)hGraph,
             (void *)ctx, defaultLaunchValue, flags);
   API_CHECK(pHandle_out, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_check_graph(graph_of(hGraph)), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!ctx || ctx_of(ctx) == graph_of(hGraph)->ctx, CUDA_ERROR_INVALID_VALUE);
   uint64_t h;
   CUresult r = (CUresult)core_graph_cond_create(graph_of(hGraph), defaultLaunchValue, flags, &h);
   if (r == CUDA_SUCCESS)
      *pHandle_out = h;
   return API_RETURN(r);
}
