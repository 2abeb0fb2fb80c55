/*
 * graph_memnodes.cu — graph memory nodes (CUDA 11.4+; CUDA Runtime API
 * cudaGraphAddMemAllocNode/cudaGraphAddMemFreeNode, programming guide
 * "Graph Memory Nodes"):
 *
 *  - an allocation node returns its address when it is added; kernel nodes
 *    after it write there, a copy node brings the result to the host, a
 *    free node releases it; replayed several times with exact results (a
 *    launch counter in ordinary device memory makes each launch's values
 *    differ), the node types, dependencies and the parameters (an access
 *    descriptor included) read back;
 *  - memory a graph does not free outlives its launch: readable after it,
 *    a second launch is cudaErrorInvalidValue until it is freed (by
 *    cudaFreeAsync, cudaFree, or a launch of another graph with a free node
 *    for it), and cudaGraphInstantiateFlagAutoFreeOnLaunch frees it at the
 *    next launch;
 *  - stream capture turns cudaMallocAsync/cudaFreeAsync into allocation and
 *    free nodes; a captured allocation left unfreed is freed with
 *    cudaFreeAsync after the launch;
 *  - the documented errors: a free node of an address no allocation node
 *    returned, or freeing one twice in a graph, is cudaErrorInvalidValue; an
 *    allocation of 0 bytes or at an invalid location type is
 *    cudaErrorInvalidValue; the restrictions on graphs with memory nodes
 *    (one executable graph at a time, no clone, no child graph, no memory
 *    node in a child graph's graph, no node or edge removal, no free in
 *    both the owning graph and another) fail
 *    (the documentation names no code for them, so only failure is checked);
 *  - the device's graph-memory attributes account for the allocations.
 */
#include "check.h"

enum { N = 1000, BLOCK = 128 };
static const size_t BYTES = N * sizeof(int);
static const int GRID = (N + BLOCK - 1) / BLOCK;

__global__ void bump(int *counter) { ++*counter; }

__global__ void fill(int *p, int n, int mul)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = i * mul + 1;
}

__global__ void scale_add(int *p, int n, const int *counter)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = p[i] * 3 + *counter;
}

static cudaMemAllocNodeParams alloc_params(size_t bytes)
{
   cudaMemAllocNodeParams ap = {};
   ap.poolProps.allocType = cudaMemAllocationTypePinned;
   ap.poolProps.location.type = cudaMemLocationTypeDevice;
   ap.poolProps.location.id = 0;
   ap.bytesize = bytes;
   return ap;
}

static cudaKernelNodeParams kparams(const void *fn, unsigned grid, void **args)
{
   cudaKernelNodeParams p = {};
   p.func = (void *)fn;
   p.gridDim = dim3(grid);
   p.blockDim = dim3(grid == 1 ? 1 : BLOCK);
   p.kernelParams = args;
   return p;
}

/* Checks host[i] == (i*mul+1)*3 + count. */
static void check_values(const char *what, const int *host, int mul, int count)
{
   int *want = (int *)malloc(BYTES);
   for (int i = 0; i < N; i++)
      want[i] = (i * mul + 1) * 3 + count;
   CHECK_ARRAY_I32(what, host, want, N);
   free(want);
}

/* alloc -> bump -> fill -> scale_add -> copy to host -> free, replayed. */
static void explicit_graph(cudaStream_t s, int *counter, int *host)
{
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaMemAllocNodeParams ap = alloc_params(BYTES);
   cudaGraphNode_t na, nb, nf, ns, nc, nfree;
   CHECK_CUDA(cudaGraphAddMemAllocNode(&na, g, NULL, 0, &ap));
   CHECK(ap.dptr != NULL);
   int *p = (int *)ap.dptr;
   int n = N, mul = 7;
   void *bargs[] = { &counter };
   cudaKernelNodeParams kb = kparams((const void *)bump, 1, bargs);
   CHECK_CUDA(cudaGraphAddKernelNode(&nb, g, NULL, 0, &kb));
   void *fargs[] = { &p, &n, &mul };
   cudaKernelNodeParams kf = kparams((const void *)fill, GRID, fargs);
   CHECK_CUDA(cudaGraphAddKernelNode(&nf, g, &na, 1, &kf));
   void *sargs[] = { &p, &n, &counter };
   cudaKernelNodeParams ks = kparams((const void *)scale_add, GRID, sargs);
   cudaGraphNode_t sdeps[] = { nf, nb };
   CHECK_CUDA(cudaGraphAddKernelNode(&ns, g, sdeps, 2, &ks));
   CHECK_CUDA(cudaGraphAddMemcpyNode1D(&nc, g, &ns, 1, host, p, BYTES, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaGraphAddMemFreeNode(&nfree, g, &nc, 1, p));

   /* the nodes read back */
   cudaGraphNodeType t;
   CHECK_CUDA(cudaGraphNodeGetType(na, &t));
   CHECK_INT(t, cudaGraphNodeTypeMemAlloc);
   CHECK_CUDA(cudaGraphNodeGetType(nfree, &t));
   CHECK_INT(t, cudaGraphNodeTypeMemFree);
   cudaMemAllocNodeParams got;
   memset(&got, 0x5a, sizeof(got));
   CHECK_CUDA(cudaGraphMemAllocNodeGetParams(na, &got));
   CHECK(got.dptr == ap.dptr);
   CHECK_INT(got.bytesize, BYTES);
   CHECK_INT(got.poolProps.allocType, cudaMemAllocationTypePinned);
   CHECK_INT(got.poolProps.location.type, cudaMemLocationTypeDevice);
   CHECK_INT(got.poolProps.location.id, 0);
   CHECK_INT(got.accessDescCount, 0);
   void *fp = NULL;
   CHECK_CUDA(cudaGraphMemFreeNodeGetParams(nfree, &fp));
   CHECK(fp == ap.dptr);
   CHECK_ERR(cudaGraphMemAllocNodeGetParams(nfree, &got), cudaErrorInvalidValue);
   CHECK_ERR(cudaGraphMemFreeNodeGetParams(na, &fp), cudaErrorInvalidValue);
   size_t nd = 4;
   cudaGraphNode_t deps[4];
   CHECK_CUDA(cudaGraphNodeGetDependencies(nfree, deps, NULL, &nd));
   CHECK_INT(nd, 1);
   CHECK(deps[0] == nc);
   nd = 4;
   CHECK_CUDA(cudaGraphNodeGetDependentNodes(na, deps, NULL, &nd));
   CHECK_INT(nd, 1);
   CHECK(deps[0] == nf);
   size_t nn = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &nn));
   CHECK_INT(nn, 6);

   /* the same allocation freed twice in one graph; addresses no
    * allocation node returned */
   cudaGraphNode_t bad;
   CHECK_ERR(cudaGraphAddMemFreeNode(&bad, g, &nfree, 1, p), cudaErrorInvalidValue);
   CHECK_ERR(cudaGraphAddMemFreeNode(&bad, g, &nfree, 1, p + 1), cudaErrorInvalidValue);
   int *plain;
   CHECK_CUDA(cudaMalloc(&plain, 64));
   CHECK_ERR(cudaGraphAddMemFreeNode(&bad, g, &nfree, 1, plain), cudaErrorInvalidValue);
   CHECK_CUDA(cudaFree(plain));
   nn = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &nn));   /* the refused nodes were not added */
   CHECK_INT(nn, 6);

   /* what a graph with memory nodes may not do */
   cudaGraph_t c = NULL, outer;
   CHECK(cudaGraphClone(&c, g) != cudaSuccess);
   cudaGetLastError();
   CHECK_CUDA(cudaGraphCreate(&outer, 0));
   CHECK(cudaGraphAddChildGraphNode(&bad, outer, NULL, 0, g) != cudaSuccess);
   cudaGetLastError();
   CHECK_CUDA(cudaGraphDestroy(outer));
   CHECK(cudaGraphDestroyNode(nb) != cudaSuccess);
   cudaGetLastError();
   CHECK(cudaGraphRemoveDependencies(g, &nc, &nfree, NULL, 1) != cudaSuccess);
   cudaGetLastError();
   cudaGraph_t other;
   CHECK_CUDA(cudaGraphCreate(&other, 0));
   CHECK(cudaGraphAddMemFreeNode(&bad, other, NULL, 0, p) != cudaSuccess);   /* freed in its own graph */
   cudaGetLastError();
   CHECK_CUDA(cudaGraphDestroy(other));

   /* replayed: the same address every time, exact values */
   cudaGraphExec_t x, x2;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK(cudaGraphInstantiate(&x2, g, 0) != cudaSuccess);   /* one executable graph at a time */
   cudaGetLastError();
   CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
   for (int k = 1; k <= 3; k++) {
      memset(host, 0, BYTES);
      CHECK_CUDA(cudaGraphLaunch(x, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      check_values("explicit graph launch", host, mul, k);
   }
   /* launched back to back: the free node ends each launch's allocation */
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   check_values("back-to-back launches", host, mul, 5);

   /* graph memory in use while the executable graph exists */
   unsigned long long used = 0, reserved = 0, high = 0;
   CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
   CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
   CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
   CHECK(used >= BYTES);
   CHECK(reserved >= used);
   CHECK(high >= used);
   unsigned long long zero = 0, one = 1;
   CHECK_CUDA(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
   CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one) != cudaSuccess);   /* only to 0 */
   cudaGetLastError();
   CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero) != cudaSuccess);
   cudaGetLastError();

   /* a new executable graph once the first is gone */
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphInstantiate(&x2, g, 0));
   CHECK_CUDA(cudaGraphLaunch(x2, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   check_values("second instantiation", host, mul, 6);
   CHECK_CUDA(cudaGraphExecDestroy(x2));
   CHECK_CUDA(cudaGraphDestroy(g));
}

/* alloc -> fill -> scale_add without a free node: the memory outlives
 * each launch until something frees it. */
static void unfreed(cudaStream_t s, int *counter, int *host)
{
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaMemAllocNodeParams ap = alloc_params(BYTES);
   cudaGraphNode_t na, nb, nf, ns;
   CHECK_CUDA(cudaGraphAddMemAllocNode(&na, g, NULL, 0, &ap));
   int *p = (int *)ap.dptr;
   int n = N, mul = 5;
   void *bargs[] = { &counter };
   cudaKernelNodeParams kb = kparams((const void *)bump, 1, bargs);
   CHECK_CUDA(cudaGraphAddKernelNode(&nb, g, &na, 1, &kb));
   void *fargs[] = { &p, &n, &mul };
   cudaKernelNodeParams kf = kparams((const void *)fill, GRID, fargs);
   CHECK_CUDA(cudaGraphAddKernelNode(&nf, g, &nb, 1, &kf));
   void *sargs[] = { &p, &n, &counter };
   cudaKernelNodeParams ks = kparams((const void *)scale_add, GRID, sargs);
   CHECK_CUDA(cudaGraphAddKernelNode(&ns, g, &nf, 1, &ks));

   /* a graph that only frees it */
   cudaGraph_t gfree;
   cudaGraphNode_t nfree;
   CHECK_CUDA(cudaGraphCreate(&gfree, 0));
   CHECK_CUDA(cudaGraphAddMemFreeNode(&nfree, gfree, NULL, 0, p));
   cudaGraphNode_t bad;
   CHECK(cudaGraphAddMemFreeNode(&bad, g, &ns, 1, p) != cudaSuccess);   /* freed in another graph already */
   cudaGetLastError();

   CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
   cudaGraphExec_t x, xfree;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaGraphInstantiate(&xfree, gfree, 0));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaMemcpy(host, p, BYTES, cudaMemcpyDeviceToHost));   /* still allocated after the launch */
   check_values("unfreed allocation read after the launch", host, mul, 1);
   /* relaunched while its allocation is live */
   CHECK_ERR(cudaGraphLaunch(x, s), cudaErrorInvalidValue);
   cudaGetLastError();
   /* freed with cudaFreeAsync after the graph */
   CHECK_CUDA(cudaFreeAsync(p, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaMemcpy(host, p, BYTES, cudaMemcpyDeviceToHost));
   check_values("after cudaFreeAsync and a new launch", host, mul, 2);
   /* freed by the other graph's free node */
   CHECK_CUDA(cudaGraphLaunch(xfree, s));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaMemcpy(host, p, BYTES, cudaMemcpyDeviceToHost));
   check_values("after a free node of another graph", host, mul, 3);
   /* freed with cudaFree */
   CHECK_CUDA(cudaFree(p));
   CHECK_CUDA(cudaGraphExecDestroy(x));

   /* auto-free on launch: relaunching frees the previous allocation */
   CHECK_CUDA(cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
   unsigned long long flags = 0;
   CHECK_CUDA(cudaGraphExecGetFlags(x, &flags));
   CHECK_INT(flags, cudaGraphInstantiateFlagAutoFreeOnLaunch);
   for (int k = 4; k <= 6; k++) {
      CHECK_CUDA(cudaGraphLaunch(x, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      CHECK_CUDA(cudaMemcpy(host, p, BYTES, cudaMemcpyDeviceToHost));
      check_values("auto-free launch", host, mul, k);
   }
   CHECK_CUDA(cudaFreeAsync(p, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphExecDestroy(xfree));
   CHECK_CUDA(cudaGraphDestroy(gfree));
   CHECK_CUDA(cudaGraphDestroy(g));
}

/* Counts the nodes of g by type; the first of type t in *first. */
static int count_type(cudaGraph_t g, cudaGraphNodeType t, cudaGraphNode_t *first)
{
   size_t n = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &n));
   cudaGraphNode_t nodes[16];
   if (n > 16)
      n = 16;
   CHECK_CUDA(cudaGraphGetNodes(g, nodes, &n));
   int k = 0;
   for (size_t i = 0; i < n; i++) {
      cudaGraphNodeType ti;
      CHECK_CUDA(cudaGraphNodeGetType(nodes[i], &ti));
      if (ti == t && !k++ && first)
         *first = nodes[i];
   }
   return k;
}

/* cudaMallocAsync/cudaFreeAsync captured. */
static void captured(cudaStream_t s, int *counter, int *host)
{
   int n = N, mul = 11;
   int *p = NULL;
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   CHECK_CUDA(cudaMallocAsync((void **)&p, BYTES, s));
   CHECK(p != NULL);
   bump<<<1, 1, 0, s>>>(counter);
   fill<<<GRID, BLOCK, 0, s>>>(p, n, mul);
   scale_add<<<GRID, BLOCK, 0, s>>>(p, n, counter);
   CHECK_CUDA(cudaMemcpyAsync(host, p, BYTES, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaFreeAsync(p, s));
   cudaGraph_t g = NULL;
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   cudaGraphNode_t na = NULL, nfree = NULL, nc = NULL;
   CHECK_INT(count_type(g, cudaGraphNodeTypeMemAlloc, &na), 1);
   CHECK_INT(count_type(g, cudaGraphNodeTypeMemFree, &nfree), 1);
   CHECK_INT(count_type(g, cudaGraphNodeTypeKernel, NULL), 3);
   CHECK_INT(count_type(g, cudaGraphNodeTypeMemcpy, &nc), 1);
   if (na && nfree && nc) {
      cudaMemAllocNodeParams got;
      CHECK_CUDA(cudaGraphMemAllocNodeGetParams(na, &got));
      CHECK(got.dptr == p);
      CHECK_INT(got.bytesize, BYTES);
      CHECK_INT(got.poolProps.location.type, cudaMemLocationTypeDevice);
      CHECK_INT(got.poolProps.location.id, 0);
      void *fp = NULL;
      CHECK_CUDA(cudaGraphMemFreeNodeGetParams(nfree, &fp));
      CHECK(fp == p);
      size_t nd = 2;
      cudaGraphNode_t deps[2];
      CHECK_CUDA(cudaGraphNodeGetDependencies(nfree, deps, NULL, &nd));
      CHECK_INT(nd, 1);
      CHECK(deps[0] == nc);
      nd = 0;
      CHECK_CUDA(cudaGraphNodeGetDependencies(na, NULL, NULL, &nd));
      CHECK_INT(nd, 0);
   }
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
   for (int k = 1; k <= 2; k++) {
      memset(host, 0, BYTES);
      CHECK_CUDA(cudaGraphLaunch(x, s));
      CHECK_CUDA(cudaStreamSynchronize(s));
      check_values("captured graph launch", host, mul, k);
   }
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(g));

   /* captured without its free: freed with cudaFreeAsync after the launch */
   int *q = NULL;
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   CHECK_CUDA(cudaMallocAsync((void **)&q, BYTES, s));
   fill<<<GRID, BLOCK, 0, s>>>(q, n, mul);
   scale_add<<<GRID, BLOCK, 0, s>>>(q, n, counter);
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   CHECK_INT(count_type(g, cudaGraphNodeTypeMemAlloc, NULL), 1);
   CHECK_INT(count_type(g, cudaGraphNodeTypeMemFree, NULL), 0);
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaMemcpyAsync(host, q, BYTES, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaFreeAsync(q, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   check_values("captured allocation freed after the graph", host, mul, 2);
   CHECK_CUDA(cudaGraphLaunch(x, s));   /* freed: the graph may run again */
   CHECK_CUDA(cudaFreeAsync(q, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(g));
}

/* Allocation nodes CUDA refuses. */
static void bad_allocations(void)
{
   cudaGraph_t g;
   cudaGraphNode_t n;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaMemAllocNodeParams ap = alloc_params(0);
   CHECK_ERR(cudaGraphAddMemAllocNode(&n, g, NULL, 0, &ap), cudaErrorInvalidValue);
   ap = alloc_params(BYTES);
   ap.poolProps.location.type = cudaMemLocationTypeInvalid;
   CHECK_ERR(cudaGraphAddMemAllocNode(&n, g, NULL, 0, &ap), cudaErrorInvalidValue);
   ap = alloc_params(BYTES);
   ap.poolProps.location.id = 4096;
   CHECK(cudaGraphAddMemAllocNode(&n, g, NULL, 0, &ap) != cudaSuccess);
   cudaGetLastError();
   ap = alloc_params(BYTES);
   ap.poolProps.allocType = cudaMemAllocationTypeInvalid;
   CHECK(cudaGraphAddMemAllocNode(&n, g, NULL, 0, &ap) != cudaSuccess);
   cudaGetLastError();
   size_t nn = 1;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &nn));
   CHECK_INT(nn, 0);

   /* an access descriptor (the owning device, read-write) read back as set */
   cudaMemAccessDesc acc = {};
   acc.location.type = cudaMemLocationTypeDevice;
   acc.location.id = 0;
   acc.flags = cudaMemAccessFlagsProtReadWrite;
   ap = alloc_params(BYTES);
   ap.accessDescs = &acc;
   ap.accessDescCount = 1;
   CHECK_CUDA(cudaGraphAddMemAllocNode(&n, g, NULL, 0, &ap));
   cudaMemAllocNodeParams got = {};
   CHECK_CUDA(cudaGraphMemAllocNodeGetParams(n, &got));
   CHECK_INT(got.accessDescCount, 1);
   CHECK(got.accessDescs != NULL);
   if (got.accessDescs) {
      CHECK_INT(got.accessDescs[0].location.type, cudaMemLocationTypeDevice);
      CHECK_INT(got.accessDescs[0].location.id, 0);
      CHECK_INT(got.accessDescs[0].flags, cudaMemAccessFlagsProtReadWrite);
   }
   CHECK(got.dptr == ap.dptr);
   CHECK_CUDA(cudaGraphDestroy(g));

   /* no memory node in a child graph's own graph */
   cudaGraph_t child, parent, inner;
   CHECK_CUDA(cudaGraphCreate(&child, 0));
   CHECK_CUDA(cudaGraphCreate(&parent, 0));
   CHECK_CUDA(cudaGraphAddEmptyNode(&n, child, NULL, 0));
   CHECK_CUDA(cudaGraphAddChildGraphNode(&n, parent, NULL, 0, child));
   CHECK_CUDA(cudaGraphChildGraphNodeGetGraph(n, &inner));
   ap = alloc_params(BYTES);
   CHECK(cudaGraphAddMemAllocNode(&n, inner, NULL, 0, &ap) != cudaSuccess);
   cudaGetLastError();
   CHECK_CUDA(cudaGraphDestroy(parent));
   CHECK_CUDA(cudaGraphDestroy(child));
}

int main()
{
   check_begin("graph_memnodes");
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   int *counter, *host;
   CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
   CHECK_CUDA(cudaMallocHost(&host, BYTES));
   explicit_graph(s, counter, host);
   unfreed(s, counter, host);
   captured(s, counter, host);
   bad_allocations();
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaFreeHost(host));
   CHECK_CUDA(cudaFree(counter));
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
