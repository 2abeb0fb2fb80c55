/*
 * graph.c — CUDA graphs: cuGraphCreate, the node kinds (kernel, memcpy,
 * memset, host, child graph, empty, event record and wait, memory
 * allocation and free), edges, queries, clones, instantiation,
 * cuGraphExec*SetParams, cuGraphExecUpdate, cuGraphLaunch and the
 * graph-memory attributes.  The graph logic is src/core/graph.c's, graph
 * memory's src/core/graphmem.c's.
 *
 * The generic cuGraphAddNode form and conditional nodes are graphnode.c's.
 *
 * Not implemented (CUDA_ERROR_NOT_SUPPORTED, named once in the log, or
 * stubs): external semaphore nodes; graph allocations of host memory and
 * peer access to them.  Kernel node attributes and batch memory-operation
 * nodes are here; user objects are userobj.c's.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(graph);

static inline core_graph *graph_of(CUgraph g) { return (core_graph *)(void *)g; }
static inline CUgraph graph_handle(core_graph *g) { return (CUgraph)(void *)g; }
static inline core_graph_node *node_of(CUgraphNode n) { return (core_graph_node *)(void *)n; }
static inline CUgraphNode node_handle(core_graph_node *n) { return (CUgraphNode)(void *)n; }
static inline core_graph_exec *exec_of(CUgraphExec x) { return (core_graph_exec *)(void *)x; }
static inline core_event *event_of(CUevent e) { return (core_event *)(void *)e; }

#define CHECK_GRAPH(g) API_CHECK(core_check_graph(graph_of(g)), CUDA_ERROR_INVALID_VALUE)
#define CHECK_NODE(n) API_CHECK(core_check_node(node_of(n)), CUDA_ERROR_INVALID_VALUE)
#define CHECK_EXEC(x) API_CHECK(core_check_exec(exec_of(x)), CUDA_ERROR_INVALID_VALUE)
#define CHECK_TYPE(n, t) API_CHECK(node_of(n)->p.type == (t), CUDA_ERROR_INVALID_VALUE)

/* The context a node's work belongs to: the given one, else the current. */
static core_ctx *ctx_or_current(CUcontext c) { return c ? ctx_of(c) : core_ctx_current(); }

/* ---- graphs ---- */

/* ==== cuGraphCreate (libcuda.@) ==== */
CUresult CUDAAPI cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
   API_ENTER("phGraph=%p flags=%#x", (void *)phGraph, flags);
   API_CHECK(phGraph && flags == 0, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   core_graph *g;
   CUresult r = (CUresult)core_graph_create(c, &g);
   if (r == CUDA_SUCCESS)
      *phGraph = graph_handle(g);
   return API_RETURN(r);
}

/* ==== cuGraphDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph)
{
   API_ENTER("hGraph=%p", (void *)hGraph);
   CHECK_GRAPH(hGraph);
   core_graph_destroy(graph_of(hGraph));
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphClone (libcuda.@) ==== */
CUresult CUDAAPI cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
   API_ENTER("phGraphClone=%p originalGraph=%p", (void *)phGraphClone, (void *)originalGraph);
   API_CHECK(phGraphClone, CUDA_ERROR_INVALID_VALUE);
   CHECK_GRAPH(originalGraph);
   core_graph *g;
   CUresult r = (CUresult)core_graph_clone(graph_of(originalGraph), &g);
   if (r == CUDA_SUCCESS)
      *phGraphClone = graph_handle(g);
   return API_RETURN(r);
}

/* ==== cuGraphNodeFindInClone (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph)
{
   API_ENTER("phNode=%p hOriginalNode=%p hClonedGraph=%p", (void *)phNode, (void *)hOriginalNode,
             (void *)hClonedGraph);
   API_CHECK(phNode, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hOriginalNode);
   CHECK_GRAPH(hClonedGraph);
   core_graph_node *n = core_graph_find_clone(graph_of(hClonedGraph), node_of(hOriginalNode));
   API_CHECK(n, CUDA_ERROR_INVALID_VALUE);
   *phNode = node_handle(n);
   return API_RETURN(CUDA_SUCCESS);
}

/* ---- adding nodes ---- */

/* Adds a node to hGraph after deps. */
static CUresult add_node(CUgraphNode *out, CUgraph hGraph, const CUgraphNode *deps, size_t ndeps,
                         const core_node_params *p)
{
   if (!out || !core_check_graph(graph_of(hGraph)) || (ndeps && !deps))
      return CUDA_ERROR_INVALID_VALUE;
   core_graph_node *n;
   CUresult r = (CUresult)core_graph_add(graph_of(hGraph), (core_graph_node *const *)(const void *)deps, ndeps, p,
                                         &n);
   if (r == CUDA_SUCCESS)
      *out = node_handle(n);
   return r;
}

/* A kernel node's parameters from the API's form (func or kern). */
static CUresult kernel_params(const CUDA_KERNEL_NODE_PARAMS *np, core_node_params *p)
{
   if (!np)
      return CUDA_ERROR_INVALID_VALUE;
   core_kernel *k = kernel_of(np->func ? (const void *)np->func : (const void *)np->kern);
   if (!core_check_kernel(k))
      return CUDA_ERROR_INVALID_VALUE;
   if (np->kernelParams && np->extra)
      return CUDA_ERROR_INVALID_VALUE;
   *p = (core_node_params){ .type = CORE_NODE_KERNEL };
   p->kernel.k = k;
   p->kernel.grid[0] = np->gridDimX, p->kernel.grid[1] = np->gridDimY, p->kernel.grid[2] = np->gridDimZ;
   p->kernel.block[0] = np->blockDimX, p->kernel.block[1] = np->blockDimY, p->kernel.block[2] = np->blockDimZ;
   p->kernel.shared = np->sharedMemBytes;
   p->kernel.args = np->kernelParams;
   if (np->extra) {   /* CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE pairs, END-terminated */
      for (void **e = np->extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
         if (*e == CU_LAUNCH_PARAM_BUFFER_POINTER)
            p->kernel.blob = e[1];
         else if (*e == CU_LAUNCH_PARAM_BUFFER_SIZE)
            p->kernel.blob_size = *(size_t *)e[1];
         else
            return CUDA_ERROR_INVALID_VALUE;
      }
      if (!p->kernel.blob)
         return CUDA_ERROR_INVALID_VALUE;
   }
   for (int d = 0; d < 3; d++)
      if (!p->kernel.grid[d] || !p->kernel.block[d])
         return CUDA_ERROR_INVALID_VALUE;
   return CUDA_SUCCESS;
}

static void trace_kernel(const char *func, const void *a, const void *b, const CUDA_KERNEL_NODE_PARAMS *np)
{
   if (log_level() < LOG_LEVEL_TRACE)
      return;
   if (!np) {
      log_msg(LOG_LEVEL_TRACE, log_channel_, func, "%p %p nodeParams=NULL", a, b);
      return;
   }
   log_msg(LOG_LEVEL_TRACE, log_channel_, func,
           "%p %p func=%p grid=(%u,%u,%u) block=(%u,%u,%u) shared=%u kernelParams=%p extra=%p kern=%p ctx=%p", a, b,
           (void *)np->func, np->gridDimX, np->gridDimY, np->gridDimZ, np->blockDimX, np->blockDimY, np->blockDimZ,
           np->sharedMemBytes, (void *)np->kernelParams, (void *)np->extra, (void *)np->kern, (void *)np->ctx);
}

/* ==== cuGraphAddKernelNode_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu nodeParams=%p", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (const void *)nodeParams);
   trace_kernel(__func__, hGraph, NULL, nodeParams);
   core_node_params p;
   CUresult r = kernel_params(nodeParams, &p);
   if (r == CUDA_SUCCESS)
      r = add_node(phGraphNode, hGraph, dependencies, numDependencies, &p);
   return API_RETURN(r);
}

/* The v1 structure is the v2 one without kern and ctx. */
static CUDA_KERNEL_NODE_PARAMS kernel_v2(const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
   CUDA_KERNEL_NODE_PARAMS q = { 0 };
   memcpy(&q, p, sizeof(*p));
   return q;
}

/* ==== cuGraphAddKernelNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
   if (!nodeParams)
      return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, NULL);
   CUDA_KERNEL_NODE_PARAMS q = kernel_v2(nodeParams);
   return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &q);
}

/* ---- batch memory-operation nodes (the operations: memop.c's) ---- */

static CUresult exec_set(CUgraphExec hGraphExec, CUgraphNode hNode, const core_node_params *p);

/* A batch node's parameters from the API's form; m: room for 256
 * operations in core's form, which the node copies. */
static CUresult memop_params(const CUDA_BATCH_MEM_OP_NODE_PARAMS *np, core_memop *m, core_node_params *p)
{
   if (!np || np->flags != 0 || !np->count || np->count >= 256 || !np->paramArray)
      return CUDA_ERROR_INVALID_VALUE;
   for (unsigned i = 0; i < np->count; i++) {
      CUresult r = drv_memop_decode(&np->paramArray[i], &m[i]);
      if (r != CUDA_SUCCESS)
         return r;
   }
   *p = (core_node_params){ .type = CORE_NODE_BATCH_MEM_OP };
   p->memop.ctx = ctx_or_current(np->ctx);
   p->memop.count = np->count;
   p->memop.ops = m;
   p->memop.api = np->paramArray;
   p->memop.api_size = sizeof(*np->paramArray);
   return core_check_ctx(p->memop.ctx) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* ==== cuGraphAddBatchMemOpNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddBatchMemOpNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu nodeParams=%p", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (const void *)nodeParams);
   core_memop m[256];
   core_node_params p;
   CUresult r = memop_params(nodeParams, m, &p);
   if (r == CUDA_SUCCESS)
      r = add_node(phGraphNode, hGraph, dependencies, numDependencies, &p);
   return API_RETURN(r);
}

/* ==== cuGraphBatchMemOpNodeGetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphBatchMemOpNodeGetParams(CUgraphNode hNode, CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams_out)
{
   API_ENTER("hNode=%p nodeParams_out=%p", (void *)hNode, (void *)nodeParams_out);
   API_CHECK(nodeParams_out, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_BATCH_MEM_OP);
   const core_graph_node *n = node_of(hNode);
   /* the array is the node's copy, valid while the node is unchanged */
   *nodeParams_out = (CUDA_BATCH_MEM_OP_NODE_PARAMS){
      .ctx = ctx_handle(n->p.memop.ctx), .count = n->p.memop.count,
      .paramArray = (CUstreamBatchMemOpParams *)(uintptr_t)n->p.memop.api, .flags = n->p.memop.flags };
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphBatchMemOpNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphBatchMemOpNodeSetParams(CUgraphNode hNode, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (const void *)nodeParams);
   CHECK_NODE(hNode);
   core_memop m[256];
   core_node_params p;
   CUresult r = memop_params(nodeParams, m, &p);
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_node_set(node_of(hNode), &p);
   return API_RETURN(r);
}

/* ==== cuGraphExecBatchMemOpNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecBatchMemOpNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                    const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams)
{
   API_ENTER("hGraphExec=%p hNode=%p nodeParams=%p", (void *)hGraphExec, (void *)hNode, (const void *)nodeParams);
   core_memop m[256];
   core_node_params p;
   CUresult r = memop_params(nodeParams, m, &p);
   if (r == CUDA_SUCCESS)
      r = exec_set(hGraphExec, hNode, &p);
   return API_RETURN(r);
}

/* ---- kernel node attributes ---- */

/* The launch attributes a kernel node takes (cuLaunchKernelEx's, less the
 * ones CUDA defines only for streams or for launches: synchronisation
 * policy, programmatic serialisation and events, completion events).
 * Hints are kept for the program to read back; what a graph launch would
 * have to do and metalcuda does not is refused by name. */
/* v: the value to set (NULL: only whether attr is one of them). */
static CUresult node_attr_check(CUkernelNodeAttrID attr, const CUkernelNodeAttrValue *v)
{
   switch (attr) {
   case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
      return !v || (v->accessPolicyWindow.hitRatio >= 0.0f && v->accessPolicyWindow.hitRatio <= 1.0f)
                ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
   case CU_LAUNCH_ATTRIBUTE_PRIORITY:
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
   case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
   case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
   case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:   /* graph launches run no cooperative grid (src/core/launch.c) */
      if (v && v->cooperative)
         return CUDA_ERROR_NOT_SUPPORTED;
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
      if (v && (v->clusterDim.x > 1 || v->clusterDim.y > 1 || v->clusterDim.z > 1))
         return CUDA_ERROR_NOT_SUPPORTED;
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
      return v && v->deviceUpdatableKernelNode.deviceUpdatable ? CUDA_ERROR_NOT_SUPPORTED : CUDA_SUCCESS;
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* ==== cuGraphKernelNodeGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               CUkernelNodeAttrValue *value_out)
{
   API_ENTER("hNode=%p attr=%d value_out=%p", (void *)hNode, (int)attr, (void *)value_out);
   API_CHECK(value_out, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_KERNEL);
   CUresult r = node_attr_check(attr, NULL);
   API_CHECK(r != CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_INVALID_VALUE);
   core_node_get_attr(node_of(hNode), (int)attr, value_out);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphKernelNodeSetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               const CUkernelNodeAttrValue *value)
{
   API_ENTER("hNode=%p attr=%d value=%p", (void *)hNode, (int)attr, (const void *)value);
   API_CHECK(value, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_KERNEL);
   CUresult r = node_attr_check(attr, value);
   if (r == CUDA_ERROR_NOT_SUPPORTED) {
      if (attr == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
         API_NOT_SUPPORTED("cooperative kernel nodes (CU_LAUNCH_ATTRIBUTE_COOPERATIVE on a graph node)");
      if (attr == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
         API_NOT_SUPPORTED("thread block clusters of more than one block (CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)");
      API_NOT_SUPPORTED("device-updatable kernel nodes (CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE)");
   }
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_node_set_attr(node_of(hNode), (int)attr, value);
   return API_RETURN(r);
}

/* ==== cuGraphKernelNodeCopyAttributes (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
   API_ENTER("dst=%p src=%p", (void *)dst, (void *)src);
   CHECK_NODE(dst);
   CHECK_NODE(src);
   CHECK_TYPE(dst, CORE_NODE_KERNEL);
   CHECK_TYPE(src, CORE_NODE_KERNEL);
   CUkernelNodeAttrValue v;
   CUresult r = CUDA_SUCCESS;
   for (int id = 0; id < CORE_STREAM_ATTRS && r == CUDA_SUCCESS; id++)
      if (node_attr_check((CUkernelNodeAttrID)id, NULL) == CUDA_SUCCESS) {
         core_node_get_attr(node_of(src), id, &v);
         r = (CUresult)core_node_set_attr(node_of(dst), id, &v);
      }
   return API_RETURN(r);
}

/* ==== cuGraphKernelNodeGetParams_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (void *)nodeParams);
   API_CHECK(nodeParams, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_KERNEL);
   const core_graph_node *n = node_of(hNode);
   *nodeParams = (CUDA_KERNEL_NODE_PARAMS){
      /* a kernel is both a CUfunction and a CUkernel here; NVIDIA's
       * runtime 13 adds nodes by CUkernel and maps .kern back to its host
       * function (without it: cudaErrorInvalidDeviceFunction) */
      .func = (CUfunction)(void *)n->p.kernel.k,
      .kern = (CUkernel)(void *)n->p.kernel.k,
      .gridDimX = n->p.kernel.grid[0], .gridDimY = n->p.kernel.grid[1], .gridDimZ = n->p.kernel.grid[2],
      .blockDimX = n->p.kernel.block[0], .blockDimY = n->p.kernel.block[1], .blockDimZ = n->p.kernel.block[2],
      .sharedMemBytes = n->p.kernel.shared, .kernelParams = n->args,
      .ctx = ctx_handle(n->p.kernel.k->module->ctx),
   };
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphKernelNodeGetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
   CUDA_KERNEL_NODE_PARAMS q;
   if (!nodeParams)
      return cuGraphKernelNodeGetParams_v2(hNode, NULL);
   CUresult r = cuGraphKernelNodeGetParams_v2(hNode, &q);
   if (r == CUDA_SUCCESS)
      memcpy(nodeParams, &q, sizeof(*nodeParams));
   return r;
}

/* ==== cuGraphKernelNodeSetParams_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeSetParams_v2(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (const void *)nodeParams);
   trace_kernel(__func__, hNode, NULL, nodeParams);
   CHECK_NODE(hNode);
   core_node_params p;
   CUresult r = kernel_params(nodeParams, &p);
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_node_set(node_of(hNode), &p);
   return API_RETURN(r);
}

/* ==== cuGraphKernelNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
   if (!nodeParams)
      return cuGraphKernelNodeSetParams_v2(hNode, NULL);
   CUDA_KERNEL_NODE_PARAMS q = kernel_v2(nodeParams);
   return cuGraphKernelNodeSetParams_v2(hNode, &q);
}

static CUresult copy_params(const CUDA_MEMCPY3D *cp, CUcontext ctx, core_node_params *p)
{
   core_ctx *c = ctx_or_current(ctx);
   if (!core_check_ctx(c))
      return CUDA_ERROR_INVALID_CONTEXT;
   *p = (core_node_params){ .type = CORE_NODE_MEMCPY };
   p->copy.ctx = c;
   return drv_copy3d_desc(c, cp, &p->copy.d);
}

/* ==== cuGraphAddMemcpyNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu copyParams=%p ctx=%p",
             (void *)phGraphNode, (void *)hGraph, (const void *)dependencies, numDependencies,
             (const void *)copyParams, (void *)ctx);
   core_node_params p;
   CUresult r = copy_params(copyParams, ctx, &p);
   if (r == CUDA_SUCCESS)
      r = add_node(phGraphNode, hGraph, dependencies, numDependencies, &p);
   return API_RETURN(r);
}

/* ==== cuGraphMemcpyNodeGetParams (libcuda.@) ==== the copy as unified
 * addresses of its first bytes (offsets folded in), which describes the
 * same copy as the structure it was made from */
CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (void *)nodeParams);
   API_CHECK(nodeParams, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_MEMCPY);
   const core_copy3d_desc *d = &node_of(hNode)->p.copy.d;
   *nodeParams = (CUDA_MEMCPY3D){
      .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = d->src, .srcPitch = d->src_pitch,
      .srcHeight = d->src_height, .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = d->dst,
      .dstPitch = d->dst_pitch, .dstHeight = d->dst_height, .WidthInBytes = d->width, .Height = d->height,
      .Depth = d->depth,
   };
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphMemcpyNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (const void *)nodeParams);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_MEMCPY);
   core_node_params p;
   CUresult r = copy_params(nodeParams, ctx_handle(node_of(hNode)->p.copy.ctx), &p);
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_node_set(node_of(hNode), &p);
   return API_RETURN(r);
}

static CUresult memset_params(const CUDA_MEMSET_NODE_PARAMS *mp, CUcontext ctx, core_node_params *p)
{
   core_ctx *c = ctx_or_current(ctx);
   if (!core_check_ctx(c))
      return CUDA_ERROR_INVALID_CONTEXT;
   if (!mp || !mp->dst || (mp->elementSize != 1 && mp->elementSize != 2 && mp->elementSize != 4) || !mp->width ||
       !mp->height || (mp->height > 1 && mp->pitch < mp->width * mp->elementSize))
      return CUDA_ERROR_INVALID_VALUE;
   size_t pitch = mp->height > 1 ? mp->pitch : mp->width * mp->elementSize;
   if (!core_mem_lookup(c->dev, mp->dst, pitch * (mp->height - 1) + mp->width * mp->elementSize, NULL, NULL))
      return CUDA_ERROR_INVALID_VALUE;
   *p = (core_node_params){ .type = CORE_NODE_MEMSET };
   p->memset.ctx = c;
   p->memset.dst = mp->dst;
   p->memset.pitch = pitch;
   p->memset.value = mp->value;
   p->memset.elem_size = mp->elementSize;
   p->memset.width = mp->width;
   p->memset.height = mp->height;
   return CUDA_SUCCESS;
}

/* ==== cuGraphAddMemsetNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                      CUcontext ctx)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu memsetParams=%p ctx=%p",
             (void *)phGraphNode, (void *)hGraph, (const void *)dependencies, numDependencies,
             (const void *)memsetParams, (void *)ctx);
   core_node_params p;
   CUresult r = memset_params(memsetParams, ctx, &p);
   if (r == CUDA_SUCCESS)
      r = add_node(phGraphNode, hGraph, dependencies, numDependencies, &p);
   return API_RETURN(r);
}

/* ==== cuGraphMemsetNodeGetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (void *)nodeParams);
   API_CHECK(nodeParams, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_MEMSET);
   const core_graph_node *n = node_of(hNode);
   *nodeParams = (CUDA_MEMSET_NODE_PARAMS){ .dst = n->p.memset.dst, .pitch = n->p.memset.pitch,
                                            .value = n->p.memset.value, .elementSize = n->p.memset.elem_size,
                                            .width = n->p.memset.width, .height = n->p.memset.height };
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphMemsetNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (const void *)nodeParams);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_MEMSET);
   core_node_params p;
   CUresult r = memset_params(nodeParams, ctx_handle(node_of(hNode)->p.memset.ctx), &p);
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_node_set(node_of(hNode), &p);
   return API_RETURN(r);
}

static CUresult host_params(const CUDA_HOST_NODE_PARAMS *hp, core_node_params *p)
{
   if (!hp || !hp->fn)
      return CUDA_ERROR_INVALID_VALUE;
   *p = (core_node_params){ .type = CORE_NODE_HOST };
   p->host.fn = hp->fn;
   p->host.data = hp->userData;
   return CUDA_SUCCESS;
}

/* ==== cuGraphAddHostNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                    size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu nodeParams=%p", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (const void *)nodeParams);
   core_node_params p;
   CUresult r = host_params(nodeParams, &p);
   if (r == CUDA_SUCCESS)
      r = add_node(phGraphNode, hGraph, dependencies, numDependencies, &p);
   return API_RETURN(r);
}

/* ==== cuGraphHostNodeGetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (void *)nodeParams);
   API_CHECK(nodeParams, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_HOST);
   nodeParams->fn = node_of(hNode)->p.host.fn;
   nodeParams->userData = node_of(hNode)->p.host.data;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphHostNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
   API_ENTER("hNode=%p nodeParams=%p", (void *)hNode, (const void *)nodeParams);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_HOST);
   core_node_params p;
   CUresult r = host_params(nodeParams, &p);
   if (r == CUDA_SUCCESS)
      r = (CUresult)core_node_set(node_of(hNode), &p);
   return API_RETURN(r);
}

/* ==== cuGraphAddChildGraphNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, CUgraph childGraph)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu childGraph=%p", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (void *)childGraph);
   CHECK_GRAPH(childGraph);
   API_CHECK(childGraph != hGraph, CUDA_ERROR_INVALID_VALUE);
   core_node_params p = { .type = CORE_NODE_GRAPH, .child = graph_of(childGraph) };
   return API_RETURN(add_node(phGraphNode, hGraph, dependencies, numDependencies, &p));
}

/* ==== cuGraphChildGraphNodeGetGraph (libcuda.@) ==== the node's own clone */
CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
   API_ENTER("hNode=%p phGraph=%p", (void *)hNode, (void *)phGraph);
   API_CHECK(phGraph, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_GRAPH);
   *phGraph = graph_handle(node_of(hNode)->p.child);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphAddEmptyNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                     size_t numDependencies)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu", (void *)phGraphNode, (void *)hGraph,
             (const void *)dependencies, numDependencies);
   core_node_params p = { .type = CORE_NODE_EMPTY };
   return API_RETURN(add_node(phGraphNode, hGraph, dependencies, numDependencies, &p));
}

/* Event nodes (record: 1, wait: 0). */
static CUresult add_event_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUevent ev,
                               bool record)
{
   if (!core_check_event(event_of(ev)))
      return CUDA_ERROR_INVALID_VALUE;
   core_node_params p = { .type = record ? CORE_NODE_EVENT_RECORD : CORE_NODE_WAIT_EVENT, .event = event_of(ev) };
   return add_node(out, g, deps, ndeps, &p);
}

static CUresult get_event(CUgraphNode hNode, CUevent *out, int type)
{
   if (!out || !core_check_node(node_of(hNode)) || node_of(hNode)->p.type != type)
      return CUDA_ERROR_INVALID_VALUE;
   *out = (CUevent)(void *)node_of(hNode)->p.event;
   return CUDA_SUCCESS;
}

static CUresult set_event(CUgraphNode hNode, CUevent ev, int type)
{
   if (!core_check_node(node_of(hNode)) || node_of(hNode)->p.type != type || !core_check_event(event_of(ev)))
      return CUDA_ERROR_INVALID_VALUE;
   core_node_params p = { .type = type, .event = event_of(ev) };
   return (CUresult)core_node_set(node_of(hNode), &p);
}

/* ==== cuGraphAddEventRecordNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           size_t numDependencies, CUevent event)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu event=%p", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (void *)event);
   return API_RETURN(add_event_node(phGraphNode, hGraph, dependencies, numDependencies, event, true));
}

/* ==== cuGraphEventRecordNodeGetEvent (libcuda.@) ==== */
CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
   API_ENTER("hNode=%p event_out=%p", (void *)hNode, (void *)event_out);
   return API_RETURN(get_event(hNode, event_out, CORE_NODE_EVENT_RECORD));
}

/* ==== cuGraphEventRecordNodeSetEvent (libcuda.@) ==== */
CUresult CUDAAPI cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
   API_ENTER("hNode=%p event=%p", (void *)hNode, (void *)event);
   return API_RETURN(set_event(hNode, event, CORE_NODE_EVENT_RECORD));
}

/* ==== cuGraphAddEventWaitNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, CUevent event)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu event=%p", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (void *)event);
   return API_RETURN(add_event_node(phGraphNode, hGraph, dependencies, numDependencies, event, false));
}

/* ==== cuGraphEventWaitNodeGetEvent (libcuda.@) ==== */
CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
   API_ENTER("hNode=%p event_out=%p", (void *)hNode, (void *)event_out);
   return API_RETURN(get_event(hNode, event_out, CORE_NODE_WAIT_EVENT));
}

/* ==== cuGraphEventWaitNodeSetEvent (libcuda.@) ==== */
CUresult CUDAAPI cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
   API_ENTER("hNode=%p event=%p", (void *)hNode, (void *)event);
   return API_RETURN(set_event(hNode, event, CORE_NODE_WAIT_EVENT));
}

/* ---- memory allocation and free nodes ---- */

/* An allocation node's parameters, checked as CUDA documents them
 * (cuGraphAddMemAllocNode): pinned memory of a device, no IPC handle
 * types, a size, access descriptors for devices. */
static CUresult alloc_params(const CUDA_MEM_ALLOC_NODE_PARAMS *np, core_node_params *p)
{
   if (!np || !np->bytesize)
      return CUDA_ERROR_INVALID_VALUE;
   const CUmemPoolProps *pp = &np->poolProps;
   if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED || pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
      return CUDA_ERROR_INVALID_VALUE;
   if (pp->location.type == CU_MEM_LOCATION_TYPE_HOST || pp->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
       pp->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT) {
      static int once;
      api_unsupported_(log_channel_, "cuGraphAddMemAllocNode", "graph allocations of host memory", &once);
      return CUDA_ERROR_NOT_SUPPORTED;
   }
   core_device *d = pp->location.type == CU_MEM_LOCATION_TYPE_DEVICE ? core_device_get(pp->location.id) : NULL;
   if (!d)
      return CUDA_ERROR_INVALID_VALUE;
   if (np->accessDescCount && !np->accessDescs)
      return CUDA_ERROR_INVALID_VALUE;
   if (np->accessDescCount > (size_t)core_device_count())
      return CUDA_ERROR_INVALID_VALUE;   /* "must not exceed the number of GPUs" */
   for (size_t i = 0; i < np->accessDescCount; i++) {
      const CUmemAccessDesc *a = &np->accessDescs[i];
      if (a->location.type != CU_MEM_LOCATION_TYPE_DEVICE || !core_device_get(a->location.id) ||
          (a->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && a->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
           a->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
         return CUDA_ERROR_INVALID_VALUE;
      if (a->location.id == pp->location.id && a->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
         return CUDA_ERROR_INVALID_VALUE;   /* the owning device keeps read-write access */
      if (a->location.id != pp->location.id && a->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE) {
         static int once;
         api_unsupported_(log_channel_, "cuGraphAddMemAllocNode", "peer access to graph allocations", &once);
         return CUDA_ERROR_NOT_SUPPORTED;
      }
   }
   *p = (core_node_params){ .type = CORE_NODE_MEM_ALLOC };
   p->alloc.dev = d;
   p->alloc.size = np->bytesize;
   p->alloc.props = pp;
   p->alloc.props_size = sizeof(*pp);
   p->alloc.access = np->accessDescs;
   p->alloc.access_size = np->accessDescCount * sizeof(*np->accessDescs);
   p->alloc.naccess = np->accessDescCount;
   return CUDA_SUCCESS;
}

/* ==== cuGraphAddMemAllocNode (libcuda.@) ==== the address is reserved now
 * and returned in nodeParams->dptr */
CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                        size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu nodeParams=%p", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (void *)nodeParams);
   if (nodeParams)
      LOG_TRACE("bytesize=%zu location=(%d,%d) accessDescCount=%zu", nodeParams->bytesize,
                (int)nodeParams->poolProps.location.type, nodeParams->poolProps.location.id,
                nodeParams->accessDescCount);
   API_CHECK(phGraphNode, CUDA_ERROR_INVALID_VALUE);
   core_node_params p;
   CUresult r = alloc_params(nodeParams, &p);
   CUgraphNode n = NULL;
   if (r == CUDA_SUCCESS)
      r = add_node(&n, hGraph, dependencies, numDependencies, &p);
   if (r == CUDA_SUCCESS) {
      *phGraphNode = n;
      nodeParams->dptr = node_of(n)->p.alloc.dptr;
   }
   return API_RETURN(r);
}

/* ==== cuGraphMemAllocNodeGetParams (libcuda.@) ==== the access
 * descriptors are the node's own copy */
CUresult CUDAAPI cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
   API_ENTER("hNode=%p params_out=%p", (void *)hNode, (void *)params_out);
   API_CHECK(params_out, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_MEM_ALLOC);
   const core_graph_node *n = node_of(hNode);
   memset(params_out, 0, sizeof(*params_out));
   if (n->p.alloc.props && n->p.alloc.props_size == sizeof(params_out->poolProps))
      memcpy(&params_out->poolProps, n->p.alloc.props, sizeof(params_out->poolProps));
   params_out->accessDescs = n->p.alloc.access;
   params_out->accessDescCount = n->p.alloc.naccess;
   params_out->bytesize = n->p.alloc.size;
   params_out->dptr = n->p.alloc.dptr;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphAddMemFreeNode (libcuda.@) ==== dptr must be an address an
 * allocation node returned, freed once in one graph */
CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                       size_t numDependencies, CUdeviceptr dptr)
{
   API_ENTER("phGraphNode=%p hGraph=%p dependencies=%p numDependencies=%zu dptr=%#llx", (void *)phGraphNode,
             (void *)hGraph, (const void *)dependencies, numDependencies, (unsigned long long)dptr);
   core_node_params p = { .type = CORE_NODE_MEM_FREE, .mfree.dptr = dptr };
   return API_RETURN(add_node(phGraphNode, hGraph, dependencies, numDependencies, &p));
}

/* ==== cuGraphMemFreeNodeGetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
   API_ENTER("hNode=%p dptr_out=%p", (void *)hNode, (void *)dptr_out);
   API_CHECK(dptr_out, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   CHECK_TYPE(hNode, CORE_NODE_MEM_FREE);
   *dptr_out = node_of(hNode)->p.mfree.mem->ptr;
   return API_RETURN(CUDA_SUCCESS);
}

/* ---- queries and edges ---- */

/* ==== cuGraphNodeGetType (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
   API_ENTER("hNode=%p type=%p", (void *)hNode, (void *)type);
   API_CHECK(type, CUDA_ERROR_INVALID_VALUE);
   CHECK_NODE(hNode);
   *type = (CUgraphNodeType)node_of(hNode)->p.type;
   return API_RETURN(CUDA_SUCCESS);
}

/* Lists v[0..n) into out (NULL: the count only), as every CUDA graph
 * query does: *count in, the capacity; out, how many there are. */
static CUresult list_nodes(core_graph_node *const *v, size_t n, CUgraphNode *out, size_t *count)
{
   if (!count)
      return CUDA_ERROR_INVALID_VALUE;
   if (out) {
      for (size_t i = 0; i < *count; i++)
         out[i] = i < n ? node_handle(v[i]) : NULL;
      if (*count > n)
         *count = n;
   } else {
      *count = n;
   }
   return CUDA_SUCCESS;
}

/* ==== cuGraphGetNodes (libcuda.@) ==== */
CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
   API_ENTER("hGraph=%p nodes=%p numNodes=%p", (void *)hGraph, (void *)nodes, (void *)numNodes);
   CHECK_GRAPH(hGraph);
   core_graph *g = graph_of(hGraph);
   return API_RETURN(list_nodes(g->nodes, g->nnodes, nodes, numNodes));
}

/* ==== cuGraphGetRootNodes (libcuda.@) ==== */
CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
   API_ENTER("hGraph=%p rootNodes=%p numRootNodes=%p", (void *)hGraph, (void *)rootNodes, (void *)numRootNodes);
   CHECK_GRAPH(hGraph);
   core_graph *g = graph_of(hGraph);
   core_graph_node **roots = mc_calloc(g->nnodes ? g->nnodes : 1, sizeof(*roots));
   API_CHECK(roots, CUDA_ERROR_OUT_OF_MEMORY);
   size_t n = 0;
   for (uint32_t i = 0; i < g->nnodes; i++)
      if (!g->nodes[i]->ndeps)
         roots[n++] = g->nodes[i];
   CUresult r = list_nodes(roots, n, rootNodes, numRootNodes);
   free(roots);
   return API_RETURN(r);
}

/* ==== cuGraphGetEdges_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                                    size_t *numEdges)
{
   API_ENTER("hGraph=%p from=%p to=%p edgeData=%p numEdges=%p", (void *)hGraph, (void *)from, (void *)to,
             (void *)edgeData, (void *)numEdges);
   CHECK_GRAPH(hGraph);
   API_CHECK(numEdges && !from == !to && (!edgeData || from), CUDA_ERROR_INVALID_VALUE);
   core_graph *g = graph_of(hGraph);
   size_t n = 0;
   for (uint32_t i = 0; i < g->nnodes; i++)
      for (uint32_t k = 0; k < g->nodes[i]->nouts; k++, n++)
         if (from && n < *numEdges) {
            from[n] = node_handle(g->nodes[i]);
            to[n] = node_handle(g->nodes[i]->outs[k]);
            if (edgeData)
               edgeData[n] = (CUgraphEdgeData){ 0 };
         }
   if (from)
      for (size_t i = n; i < *numEdges; i++)
         from[i] = to[i] = NULL;
   if (!from || *numEdges > n)
      *numEdges = n;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphGetEdges (libcuda.@) ==== */
CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges)
{
   return cuGraphGetEdges_v2(hGraph, from, to, NULL, numEdges);
}

/* ==== cuGraphNodeGetDependencies_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeGetDependencies_v2(CUgraphNode hNode, CUgraphNode *dependencies, CUgraphEdgeData *edgeData,
                                               size_t *numDependencies)
{
   API_ENTER("hNode=%p dependencies=%p edgeData=%p numDependencies=%p", (void *)hNode, (void *)dependencies,
             (void *)edgeData, (void *)numDependencies);
   CHECK_NODE(hNode);
   API_CHECK(!edgeData || dependencies, CUDA_ERROR_INVALID_VALUE);
   const core_graph_node *n = node_of(hNode);
   CUresult r = list_nodes(n->deps, n->ndeps, dependencies, numDependencies);
   for (size_t i = 0; r == CUDA_SUCCESS && edgeData && i < *numDependencies; i++)
      edgeData[i] = (CUgraphEdgeData){ 0 };
   return API_RETURN(r);
}

/* ==== cuGraphNodeGetDependencies (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies)
{
   return cuGraphNodeGetDependencies_v2(hNode, dependencies, NULL, numDependencies);
}

/* ==== cuGraphNodeGetDependentNodes_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                                 CUgraphEdgeData *edgeData, size_t *numDependentNodes)
{
   API_ENTER("hNode=%p dependentNodes=%p edgeData=%p numDependentNodes=%p", (void *)hNode, (void *)dependentNodes,
             (void *)edgeData, (void *)numDependentNodes);
   CHECK_NODE(hNode);
   API_CHECK(!edgeData || dependentNodes, CUDA_ERROR_INVALID_VALUE);
   const core_graph_node *n = node_of(hNode);
   CUresult r = list_nodes(n->outs, n->nouts, dependentNodes, numDependentNodes);
   for (size_t i = 0; r == CUDA_SUCCESS && edgeData && i < *numDependentNodes; i++)
      edgeData[i] = (CUgraphEdgeData){ 0 };
   return API_RETURN(r);
}

/* ==== cuGraphNodeGetDependentNodes (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                              size_t *numDependentNodes)
{
   return cuGraphNodeGetDependentNodes_v2(hNode, dependentNodes, NULL, numDependentNodes);
}

/* Adds (add) or removes the edges from[i] -> to[i]. */
static CUresult edges(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *data,
                      size_t n, bool add)
{
   if (!core_check_graph(graph_of(hGraph)) || (n && (!from || !to)) || !drv_default_edges(data, n))
      return CUDA_ERROR_INVALID_VALUE;
   if (!add && graph_of(hGraph)->nmem)
      return CUDA_ERROR_INVALID_VALUE;   /* CUDA removes no edge of a graph with memory nodes */
   for (size_t i = 0; i < n; i++)
      if (!core_check_node(node_of(from[i])) || !core_check_node(node_of(to[i])) ||
          node_of(from[i])->graph != graph_of(hGraph) || node_of(to[i])->graph != graph_of(hGraph))
         return CUDA_ERROR_INVALID_VALUE;
   for (size_t i = 0; i < n; i++) {
      CUresult r = (CUresult)(add ? core_graph_add_edge(node_of(from[i]), node_of(to[i]))
                                  : core_graph_remove_edge(node_of(from[i]), node_of(to[i])));
      if (r != CUDA_SUCCESS)
         return r;
   }
   return CUDA_SUCCESS;
}

/* ==== cuGraphAddDependencies_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                           const CUgraphEdgeData *edgeData, size_t numDependencies)
{
   API_ENTER("hGraph=%p from=%p to=%p edgeData=%p numDependencies=%zu", (void *)hGraph, (const void *)from,
             (const void *)to, (const void *)edgeData, numDependencies);
   return API_RETURN(edges(hGraph, from, to, edgeData, numDependencies, true));
}

/* ==== cuGraphAddDependencies (libcuda.@) ==== */
CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                        size_t numDependencies)
{
   return cuGraphAddDependencies_v2(hGraph, from, to, NULL, numDependencies);
}

/* ==== cuGraphRemoveDependencies_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphRemoveDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                              const CUgraphEdgeData *edgeData, size_t numDependencies)
{
   API_ENTER("hGraph=%p from=%p to=%p edgeData=%p numDependencies=%zu", (void *)hGraph, (const void *)from,
             (const void *)to, (const void *)edgeData, numDependencies);
   return API_RETURN(edges(hGraph, from, to, edgeData, numDependencies, false));
}

/* ==== cuGraphRemoveDependencies (libcuda.@) ==== */
CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                           size_t numDependencies)
{
   return cuGraphRemoveDependencies_v2(hGraph, from, to, NULL, numDependencies);
}

/* ==== cuGraphDestroyNode (libcuda.@) ==== */
CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode hNode)
{
   API_ENTER("hNode=%p", (void *)hNode);
   CHECK_NODE(hNode);
   /* nor any node of such a graph */
   API_CHECK(!node_of(hNode)->graph->nmem, CUDA_ERROR_INVALID_VALUE);
   core_graph_destroy_node(node_of(hNode));
   return API_RETURN(CUDA_SUCCESS);
}

/* ---- executable graphs ---- */

/* Instantiation flags this runtime honours: auto-free (core_graph_launch),
 * upload is what every launch does, node priority has no priorities to use
 * (one level); device launch is refused. */
static CUresult instantiate(CUgraphExec *out, CUgraph hGraph, unsigned long long flags)
{
   if (!out || !core_check_graph(graph_of(hGraph)))
      return CUDA_ERROR_INVALID_VALUE;
   if (flags & ~(unsigned long long)(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                                     CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD | CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
                                     CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY))
      return CUDA_ERROR_INVALID_VALUE;
   if (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) {
      static int once;
      api_unsupported_(log_channel_, "cuGraphInstantiate", "graphs launched from the device", &once);
      return CUDA_ERROR_NOT_SUPPORTED;
   }
   core_graph_exec *x;
   CUresult r = (CUresult)core_graph_instantiate(graph_of(hGraph), flags, &x);
   if (r == CUDA_SUCCESS)
      *out = (CUgraphExec)(void *)x;
   return r;
}

/* ==== cuGraphInstantiateWithFlags (libcuda.@) ==== */
CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
   API_ENTER("phGraphExec=%p hGraph=%p flags=%#llx", (void *)phGraphExec, (void *)hGraph, flags);
   return API_RETURN(instantiate(phGraphExec, hGraph, flags));
}

/* ==== cuGraphInstantiate_v2 (libcuda.@) ==== CUDA 11's form */
CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                       char *logBuffer, size_t bufferSize)
{
   API_ENTER("phGraphExec=%p hGraph=%p phErrorNode=%p logBuffer=%p bufferSize=%zu", (void *)phGraphExec,
             (void *)hGraph, (void *)phErrorNode, (void *)logBuffer, bufferSize);
   if (phErrorNode)
      *phErrorNode = NULL;
   if (logBuffer && bufferSize)
      logBuffer[0] = 0;
   return API_RETURN(instantiate(phGraphExec, hGraph, 0));
}

/* ==== cuGraphInstantiate (libcuda.@) ==== */
CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                    char *logBuffer, size_t bufferSize)
{
   return cuGraphInstantiate_v2(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

/* ==== cuGraphInstantiateWithParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                              CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
   API_ENTER("phGraphExec=%p hGraph=%p instantiateParams=%p", (void *)phGraphExec, (void *)hGraph,
             (void *)instantiateParams);
   API_CHECK(instantiateParams, CUDA_ERROR_INVALID_VALUE);
   CUresult r = instantiate(phGraphExec, hGraph, instantiateParams->flags);
   instantiateParams->hErrNode_out = NULL;
   instantiateParams->result_out = r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS : CUDA_GRAPH_INSTANTIATE_ERROR;
   return API_RETURN(r);
}

/* ==== cuGraphInstantiateWithParams_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph,
                                                   CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
   return cuGraphInstantiateWithParams(phGraphExec, hGraph, instantiateParams);
}

/* ==== cuGraphExecGetFlags (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags)
{
   API_ENTER("hGraphExec=%p flags=%p", (void *)hGraphExec, (void *)flags);
   API_CHECK(flags, CUDA_ERROR_INVALID_VALUE);
   CHECK_EXEC(hGraphExec);
   *flags = exec_of(hGraphExec)->flags;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphExecDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec)
{
   API_ENTER("hGraphExec=%p", (void *)hGraphExec);
   CHECK_EXEC(hGraphExec);
   core_graph_exec_destroy(exec_of(hGraphExec));
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphLaunch (libcuda.@) ==== */
CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
   API_ENTER("hGraphExec=%p hStream=%p", (void *)hGraphExec, (void *)hStream);
   CHECK_EXEC(hGraphExec);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   API_CHECK(s->ctx == exec_of(hGraphExec)->ctx, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_graph_launch(exec_of(hGraphExec), s));
}

/* ==== cuGraphLaunch_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
   return cuGraphLaunch(hGraphExec, drv_ptsz(hStream));
}

/* ==== cuGraphUpload (libcuda.@) ==== an executable graph is ready to run
 * once made: uploading is ordering only, which launches keep anyway */
CUresult CUDAAPI cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
   API_ENTER("hGraphExec=%p hStream=%p", (void *)hGraphExec, (void *)hStream);
   CHECK_EXEC(hGraphExec);
   core_stream *s;
   return API_RETURN(drv_stream(hStream, &s));
}

/* ==== cuGraphUpload_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
   return cuGraphUpload(hGraphExec, drv_ptsz(hStream));
}

/* Sets the executable graph's copy of hNode. */
static CUresult exec_set(CUgraphExec hGraphExec, CUgraphNode hNode, const core_node_params *p)
{
   if (!core_check_exec(exec_of(hGraphExec)) || !core_check_node(node_of(hNode)))
      return CUDA_ERROR_INVALID_VALUE;
   return (CUresult)core_exec_set(exec_of(hGraphExec), node_of(hNode), p);
}

/* ==== cuGraphExecKernelNodeSetParams_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                   const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
   API_ENTER("hGraphExec=%p hNode=%p nodeParams=%p", (void *)hGraphExec, (void *)hNode, (const void *)nodeParams);
   trace_kernel(__func__, hGraphExec, hNode, nodeParams);
   core_node_params p;
   CUresult r = kernel_params(nodeParams, &p);
   if (r == CUDA_SUCCESS)
      r = exec_set(hGraphExec, hNode, &p);
   return API_RETURN(r);
}

/* ==== cuGraphExecKernelNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
   if (!nodeParams)
      return cuGraphExecKernelNodeSetParams_v2(hGraphExec, hNode, NULL);
   CUDA_KERNEL_NODE_PARAMS q = kernel_v2(nodeParams);
   return cuGraphExecKernelNodeSetParams_v2(hGraphExec, hNode, &q);
}

/* ==== cuGraphExecMemcpyNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
   API_ENTER("hGraphExec=%p hNode=%p copyParams=%p ctx=%p", (void *)hGraphExec, (void *)hNode,
             (const void *)copyParams, (void *)ctx);
   core_node_params p;
   CUresult r = copy_params(copyParams, ctx, &p);
   if (r == CUDA_SUCCESS)
      r = exec_set(hGraphExec, hNode, &p);
   return API_RETURN(r);
}

/* ==== cuGraphExecMemsetNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
   API_ENTER("hGraphExec=%p hNode=%p memsetParams=%p ctx=%p", (void *)hGraphExec, (void *)hNode,
             (const void *)memsetParams, (void *)ctx);
   core_node_params p;
   CUresult r = memset_params(memsetParams, ctx, &p);
   if (r == CUDA_SUCCESS)
      r = exec_set(hGraphExec, hNode, &p);
   return API_RETURN(r);
}

/* ==== cuGraphExecHostNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                              const CUDA_HOST_NODE_PARAMS *nodeParams)
{
   API_ENTER("hGraphExec=%p hNode=%p nodeParams=%p", (void *)hGraphExec, (void *)hNode, (const void *)nodeParams);
   core_node_params p;
   CUresult r = host_params(nodeParams, &p);
   if (r == CUDA_SUCCESS)
      r = exec_set(hGraphExec, hNode, &p);
   return API_RETURN(r);
}

/* ==== cuGraphExecChildGraphNodeSetParams (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)
{
   API_ENTER("hGraphExec=%p hNode=%p childGraph=%p", (void *)hGraphExec, (void *)hNode, (void *)childGraph);
   CHECK_GRAPH(childGraph);
   core_node_params p = { .type = CORE_NODE_GRAPH, .child = graph_of(childGraph) };
   return API_RETURN(exec_set(hGraphExec, hNode, &p));
}

/* ==== cuGraphExecEventRecordNodeSetEvent (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
   API_ENTER("hGraphExec=%p hNode=%p event=%p", (void *)hGraphExec, (void *)hNode, (void *)event);
   API_CHECK(core_check_event(event_of(event)), CUDA_ERROR_INVALID_VALUE);
   core_node_params p = { .type = CORE_NODE_EVENT_RECORD, .event = event_of(event) };
   return API_RETURN(exec_set(hGraphExec, hNode, &p));
}

/* ==== cuGraphExecEventWaitNodeSetEvent (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
   API_ENTER("hGraphExec=%p hNode=%p event=%p", (void *)hGraphExec, (void *)hNode, (void *)event);
   API_CHECK(core_check_event(event_of(event)), CUDA_ERROR_INVALID_VALUE);
   core_node_params p = { .type = CORE_NODE_WAIT_EVENT, .event = event_of(event) };
   return API_RETURN(exec_set(hGraphExec, hNode, &p));
}

/* ==== cuGraphNodeSetEnabled (libcuda.@) ==== kernel, memcpy and memset
 * nodes, as CUDA allows */
CUresult CUDAAPI cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
   API_ENTER("hGraphExec=%p hNode=%p isEnabled=%u", (void *)hGraphExec, (void *)hNode, isEnabled);
   CHECK_EXEC(hGraphExec);
   CHECK_NODE(hNode);
   core_graph_node *n = core_exec_node(exec_of(hGraphExec), node_of(hNode));
   API_CHECK(n, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(n->p.type == CORE_NODE_KERNEL || n->p.type == CORE_NODE_MEMCPY || n->p.type == CORE_NODE_MEMSET,
             CUDA_ERROR_INVALID_VALUE);
   pthread_mutex_lock(&exec_of(hGraphExec)->lock);
   n->disabled = !isEnabled;
   pthread_mutex_unlock(&exec_of(hGraphExec)->lock);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphNodeGetEnabled (libcuda.@) ==== */
CUresult CUDAAPI cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
   API_ENTER("hGraphExec=%p hNode=%p isEnabled=%p", (void *)hGraphExec, (void *)hNode, (void *)isEnabled);
   API_CHECK(isEnabled, CUDA_ERROR_INVALID_VALUE);
   CHECK_EXEC(hGraphExec);
   CHECK_NODE(hNode);
   core_graph_node *n = core_exec_node(exec_of(hGraphExec), node_of(hNode));
   API_CHECK(n, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(n->p.type == CORE_NODE_KERNEL || n->p.type == CORE_NODE_MEMCPY || n->p.type == CORE_NODE_MEMSET,
             CUDA_ERROR_INVALID_VALUE);
   *isEnabled = !n->disabled;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuGraphExecUpdate_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
   API_ENTER("hGraphExec=%p hGraph=%p resultInfo=%p", (void *)hGraphExec, (void *)hGraph, (void *)resultInfo);
   API_CHECK(resultInfo, CUDA_ERROR_INVALID_VALUE);
   CHECK_EXEC(hGraphExec);
   CHECK_GRAPH(hGraph);
   int result;
   core_graph_node *bad = NULL;
   CUresult r = (CUresult)core_exec_update(exec_of(hGraphExec), graph_of(hGraph), &result, &bad);
   resultInfo->result = (CUgraphExecUpdateResult)result;
   resultInfo->errorNode = node_handle(bad);
   resultInfo->errorFromNode = NULL;
   return API_RETURN(r);
}

/* ==== cuGraphExecUpdate (libcuda.@) ==== CUDA 11's form */
CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode *hErrorNode_out,
                                   CUgraphExecUpdateResult *updateResult_out)
{
   CUgraphExecUpdateResultInfo info = { 0 };
   CUresult r = cuGraphExecUpdate_v2(hGraphExec, hGraph, &info);
   if (hErrorNode_out)
      *hErrorNode_out = info.errorNode;
   if (updateResult_out)
      *updateResult_out = info.result;
   return r;
}

/* ==== cuGraphDebugDotPrint (libcuda.@) ==== every flag gives the same
 * description: nodes with their kind (kernels with name and shape) and
 * the edges, child graphs as clusters */
CUresult CUDAAPI cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags)
{
   API_ENTER("hGraph=%p path=%s flags=%#x", (void *)hGraph, path ? path : "(null)", flags);
   CHECK_GRAPH(hGraph);
   API_CHECK(path, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_graph_dot(graph_of(hGraph), path));
}

/* ---- graph memory (src/core/graphmem.c): the bytes reserved by
 * allocation nodes, all of them backed, so used and reserved agree ---- */

/* ==== cuDeviceGetGraphMemAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
   API_ENTER("device=%d attr=%d value=%p", device, (int)attr, value);
   API_NEED_INIT();
   core_device *d = core_device_get(device);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(value && (unsigned)attr <= CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, CUDA_ERROR_INVALID_VALUE);
   uint64_t v;
   int r = core_graph_mem_attr_get(d, (int)attr, &v);
   if (r == CORE_SUCCESS)
      *(cuuint64_t *)value = v;
   return API_RETURN((CUresult)r);
}

/* ==== cuDeviceSetGraphMemAttribute (libcuda.@) ==== only the high
 * watermarks, reset to 0, as CUDA allows */
CUresult CUDAAPI cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
   API_ENTER("device=%d attr=%d value=%p", device, (int)attr, value);
   API_NEED_INIT();
   core_device *d = core_device_get(device);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   API_CHECK(value && (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH || attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH),
             CUDA_ERROR_INVALID_VALUE);
   return API_RETURN((CUresult)core_graph_mem_attr_set(d, (int)attr, *(cuuint64_t *)value));
}

/* ==== cuDeviceGraphMemTrim (libcuda.@) ==== nothing to release: every
 * reservation is still named by a node or allocated (core/graphmem.c) */
CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice device)
{
   API_ENTER("device=%d", device);
   API_NEED_INIT();
   API_CHECK(core_device_get(device), CUDA_ERROR_INVALID_DEVICE);
   return API_RETURN(CUDA_SUCCESS);
}
