/*
 * graph_conditional.cu — conditional graph nodes (CUDA 12.3+; CUDA
 * Programming Guide "Conditional Graph Nodes") and the generic node API:
 *
 *  - IF: a kernel decides with cudaGraphSetConditional whether the body
 *    runs, over launches that decide both ways; IF with an ELSE body
 *    (size 2, CUDA 12.8);
 *  - WHILE: the body's kernel counts and clears the condition after N
 *    iterations (N = 1, 7, 100), and a WHILE whose default is 0 runs no
 *    iteration; the defaults are applied at every launch
 *    (cudaGraphCondAssignDefault);
 *  - SWITCH: the value picks one of three bodies, a value past the last
 *    body runs none;
 *  - nesting: an IF inside a WHILE's body, its handle made for the body;
 *    bodies filled by stream capture (cudaStreamBeginCaptureToGraph), one
 *    capture ended with a NULL graph pointer (the graph is the program's);
 *  - nodes after a conditional see its bodies' work done;
 *  - cudaGraphAddNode for kernel, memset, memcpy and empty nodes, and
 *    cudaGraphNodeSetParams / cudaGraphExecNodeSetParams on a kernel node;
 *  - the documented restrictions (an IF of size 3, a WHILE of size 2, a
 *    clone of a graph with a conditional node, a second executable graph of
 *    it) fail; a host node in a body fails either when added or when the
 *    graph is instantiated (the documentation names no code for it, so
 *    only failure is checked).
 * Every expected value is plain arithmetic on the host.
 */
#include "check.h"

#include <stddef.h>

/* The generic struct's layout (NVIDIA's CUDA 13.0 headers give these; the
 * driver layer builds this against metalcuda's) */
static_assert(sizeof(cudaGraphNodeParams) == 256, "cudaGraphNodeParams is 256 bytes");
static_assert(offsetof(cudaGraphNodeParams, conditional) == 16, "the union at 16");
static_assert(offsetof(cudaGraphNodeParams, reserved2) == 248, "reserved2 at 248");
static_assert(sizeof(cudaConditionalNodeParams) == 24 && offsetof(cudaConditionalNodeParams, phGraph_out) == 16,
              "cudaConditionalNodeParams");
static_assert(sizeof(cudaKernelNodeParamsV2) == 56 && sizeof(cudaMemcpyNodeParams) == 176, "kernel, memcpy");

__global__ void set_cond(cudaGraphConditionalHandle h, const int *x, int threshold)
{
   if (threadIdx.x == 0)
      cudaGraphSetConditional(h, *x > threshold);
}

__global__ void set_value(cudaGraphConditionalHandle h, const int *x) { cudaGraphSetConditional(h, (unsigned)*x); }

__global__ void add(int *p, int v) { atomicAdd(p, v); }

/* one WHILE iteration: count, and stop after *limit */
__global__ void count_step(cudaGraphConditionalHandle h, int *count, const int *limit)
{
   int c = ++*count;
   if (c >= *limit)
      cudaGraphSetConditional(h, 0);
}

__global__ void scale(int *p, int n, int mul)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] *= mul;
}

static int *dev_int(int v)
{
   int *p;
   CHECK_CUDA(cudaMalloc(&p, sizeof(int)));
   CHECK_CUDA(cudaMemcpy(p, &v, sizeof(int), cudaMemcpyHostToDevice));
   return p;
}

static void set_int(int *d, int v) { CHECK_CUDA(cudaMemcpy(d, &v, sizeof(int), cudaMemcpyHostToDevice)); }

static int get_int(const int *d)
{
   int v = -12345;
   CHECK_CUDA(cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
   return v;
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, void *fn, void **args)
{
   cudaKernelNodeParams k = {};
   k.func = fn;
   k.gridDim = dim3(1);
   k.blockDim = dim3(1);
   k.kernelParams = args;
   cudaGraphNode_t node = NULL;
   CHECK_CUDA(cudaGraphAddKernelNode(&node, g, deps, n, &k));
   return node;
}

/* A conditional node; its bodies in body[]. */
static cudaGraphNode_t add_cond(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, cudaGraphConditionalHandle h,
                                cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t *body)
{
   cudaGraphNodeParams p = { cudaGraphNodeTypeConditional };
   p.conditional.handle = h;
   p.conditional.type = type;
   p.conditional.size = size;
   cudaGraphNode_t node = NULL;
   if (!CHECK_CUDA(cudaGraphAddNode(&node, g, deps, NULL, n, &p)))
      return NULL;
   for (unsigned i = 0; i < size; i++)
      body[i] = p.conditional.phGraph_out[i];
   return node;
}

static void run(cudaGraphExec_t x, cudaStream_t s)
{
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
}

/* set_cond -> IF(x > 10) { counter += 1 } -> counter *= 2 (a node after the
 * conditional sees the body's work) */
static void check_if(cudaStream_t s)
{
   int *x = dev_int(0), *counter = dev_int(0);
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphConditionalHandle h;
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
   int threshold = 10;
   void *a1[] = { &h, &x, &threshold };
   cudaGraphNode_t k = add_kernel(g, NULL, 0, (void *)set_cond, a1);
   cudaGraph_t body;
   cudaGraphNode_t c = add_cond(g, &k, 1, h, cudaGraphCondTypeIf, 1, &body);
   int one = 1, two = 2;
   void *a2[] = { &counter, &one };
   add_kernel(body, NULL, 0, (void *)add, a2);
   /* after it: counter *= 2, so the order shows in the value */
   void *a3[] = { &counter, &one, &two };
   add_kernel(g, &c, 1, (void *)scale, a3);
   cudaGraphExec_t gx;
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   const int xs[] = { 5, 11, 10, 42, -3, 1000 };
   int want = 0;
   for (int i = 0; i < 6; i++) {
      set_int(x, xs[i]);
      run(gx, s);
      want = (want + (xs[i] > 10)) * 2;
      CHECK_INT(get_int(counter), want);
   }
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));
   cudaFree(x);
   cudaFree(counter);
}

/* IF/ELSE: body 0 adds 1, body 1 adds 1000 */
static void check_if_else(cudaStream_t s)
{
   int *x = dev_int(0), *counter = dev_int(0);
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphConditionalHandle h;
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
   int threshold = 0;
   void *a1[] = { &h, &x, &threshold };
   cudaGraphNode_t k = add_kernel(g, NULL, 0, (void *)set_cond, a1);
   cudaGraph_t body[2];
   if (!add_cond(g, &k, 1, h, cudaGraphCondTypeIf, 2, body))
      return;
   int v1 = 1, v2 = 1000;
   void *b0[] = { &counter, &v1 }, *b1[] = { &counter, &v2 };
   add_kernel(body[0], NULL, 0, (void *)add, b0);
   add_kernel(body[1], NULL, 0, (void *)add, b1);
   cudaGraphExec_t gx;
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   const int xs[] = { 1, 0, -5, 7, 7 };
   int want = 0;
   for (int i = 0; i < 5; i++) {
      set_int(x, xs[i]);
      run(gx, s);
      want += xs[i] > 0 ? 1 : 1000;
      CHECK_INT(get_int(counter), want);
   }
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));
   cudaFree(x);
   cudaFree(counter);
}

/* memset(count = 0) -> WHILE(default 1) { count_step } */
static void check_while(cudaStream_t s)
{
   int *count = dev_int(0), *limit = dev_int(1);
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphConditionalHandle h;
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
   cudaMemsetParams m = {};
   m.dst = count;
   m.value = 0;
   m.elementSize = 4;
   m.width = 1;
   m.height = 1;
   cudaGraphNode_t ms;
   CHECK_CUDA(cudaGraphAddMemsetNode(&ms, g, NULL, 0, &m));
   cudaGraph_t body;
   add_cond(g, &ms, 1, h, cudaGraphCondTypeWhile, 1, &body);
   void *a[] = { &h, &count, &limit };
   add_kernel(body, NULL, 0, (void *)count_step, a);
   cudaGraphExec_t gx;
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   const int limits[] = { 1, 7, 100, 3 };
   for (int i = 0; i < 4; i++) {
      set_int(limit, limits[i]);
      run(gx, s);   /* the default (1) again at each launch, else the loop would not run */
      CHECK_INT(get_int(count), limits[i]);
   }
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));

   /* a WHILE whose condition starts at 0 never runs its body */
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
   add_cond(g, NULL, 0, h, cudaGraphCondTypeWhile, 1, &body);
   add_kernel(body, NULL, 0, (void *)count_step, a);
   set_int(count, 55);
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   run(gx, s);
   CHECK_INT(get_int(count), 55);
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));
   cudaFree(count);
   cudaFree(limit);
}

/* SWITCH over three bodies: body i adds 10^i */
static void check_switch(cudaStream_t s)
{
   int *x = dev_int(0), *counter = dev_int(0);
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphConditionalHandle h;
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
   void *a1[] = { &h, &x };
   cudaGraphNode_t k = add_kernel(g, NULL, 0, (void *)set_value, a1);
   cudaGraph_t body[3];
   if (!add_cond(g, &k, 1, h, cudaGraphCondTypeSwitch, 3, body))
      return;
   int v[3] = { 1, 10, 100 };
   void *b[3][2] = { { &counter, &v[0] }, { &counter, &v[1] }, { &counter, &v[2] } };
   for (int i = 0; i < 3; i++)
      add_kernel(body[i], NULL, 0, (void *)add, b[i]);
   cudaGraphExec_t gx;
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   const int xs[] = { 2, 0, 1, 3, 2, 77 };
   int want = 0;
   for (int i = 0; i < 6; i++) {
      set_int(x, xs[i]);
      run(gx, s);
      if (xs[i] < 3)
         want += v[xs[i]];
      CHECK_INT(get_int(counter), want);
   }
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));
   cudaFree(x);
   cudaFree(counter);
}

/* WHILE(count < limit) { count_step; set_cond(count > 3) -> IF { odd += 1 } },
 * the inner handle made for the WHILE's body, the body's first kernels
 * captured into it */
static void check_nested(cudaStream_t s)
{
   int *count = dev_int(0), *limit = dev_int(9), *hits = dev_int(0);
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphConditionalHandle outer, inner;
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&outer, g, 1, cudaGraphCondAssignDefault));
   cudaGraph_t body;
   add_cond(g, NULL, 0, outer, cudaGraphCondTypeWhile, 1, &body);
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&inner, body, 0, cudaGraphCondAssignDefault));
   /* capture count_step and set_cond into the body */
   cudaStream_t cs;
   CHECK_CUDA(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
   CHECK_CUDA(cudaStreamBeginCaptureToGraph(cs, body, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
   count_step<<<1, 1, 0, cs>>>(outer, count, limit);
   set_cond<<<1, 32, 0, cs>>>(inner, count, 3);
   cudaGraph_t captured = NULL;
   CHECK_CUDA(cudaStreamEndCapture(cs, &captured));
   CHECK(captured == body);
   size_t nnodes = 0;
   CHECK_CUDA(cudaGraphGetNodes(body, NULL, &nnodes));
   CHECK_INT(nnodes, 2);
   cudaGraphNode_t nodes[2];
   CHECK_CUDA(cudaGraphGetNodes(body, nodes, &nnodes));
   cudaGraphNode_t last = nodes[1];
   size_t ndeps = 0;
   CHECK_CUDA(cudaGraphNodeGetDependencies(nodes[1], NULL, NULL, &ndeps));
   if (ndeps == 0)
      last = nodes[0];   /* the other one depends on it */
   cudaGraph_t ib;
   add_cond(body, &last, 1, inner, cudaGraphCondTypeIf, 1, &ib);
   /* the IF's body by capture too, ended without asking for the graph
    * (it is the program's own: CUDA samples' graphConditionalNodes) */
   CHECK_CUDA(cudaStreamBeginCaptureToGraph(cs, ib, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
   add<<<1, 1, 0, cs>>>(hits, 1);
   CHECK_CUDA(cudaStreamEndCapture(cs, NULL));
   cudaGraphExec_t gx;
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   run(gx, s);
   CHECK_INT(get_int(count), 9);
   CHECK_INT(get_int(hits), 6);   /* count 4..9 */
   set_int(count, 0);
   set_int(limit, 2);
   run(gx, s);
   CHECK_INT(get_int(count), 2);
   CHECK_INT(get_int(hits), 6);
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_CUDA(cudaStreamDestroy(cs));
   cudaFree(count);
   cudaFree(limit);
   cudaFree(hits);
}

/* cudaGraphAddNode for a memory-allocation node: the call writes the
 * allocation's address into the parameters, which the nodes after it use;
 * a free node ends it */
static void check_generic_alloc(cudaStream_t s)
{
   enum { N = 256 };
   int *e;
   CHECK_CUDA(cudaMalloc(&e, N * sizeof(int)));
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphNodeParams ap = { cudaGraphNodeTypeMemAlloc };
   ap.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
   ap.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
   ap.alloc.poolProps.location.id = 0;
   ap.alloc.bytesize = N * sizeof(int);
   cudaGraphNode_t an, ms, cp, fr;
   if (!CHECK_CUDA(cudaGraphAddNode(&an, g, NULL, NULL, 0, &ap)))
      return;
   CHECK_INT(ap.alloc.dptr != NULL, 1);
   cudaGraphNodeParams p = { cudaGraphNodeTypeMemset };
   p.memset.dst = ap.alloc.dptr;
   p.memset.value = 9;
   p.memset.elementSize = 4;
   p.memset.width = N;
   p.memset.height = 1;
   CHECK_CUDA(cudaGraphAddNode(&ms, g, &an, NULL, 1, &p));
   cudaGraphNodeParams cpp = { cudaGraphNodeTypeMemcpy };
   cpp.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(ap.alloc.dptr, N * sizeof(int), N, 1);
   cpp.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(e, N * sizeof(int), N, 1);
   cpp.memcpy.copyParams.extent = make_cudaExtent(N * sizeof(int), 1, 1);
   cpp.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
   CHECK_CUDA(cudaGraphAddNode(&cp, g, &ms, NULL, 1, &cpp));
   cudaGraphNodeParams fp = { cudaGraphNodeTypeMemFree };
   fp.free.dptr = ap.alloc.dptr;
   CHECK_CUDA(cudaGraphAddNode(&fr, g, &cp, NULL, 1, &fp));
   cudaGraphExec_t gx;
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   run(gx, s);
   int h[N];
   CHECK_CUDA(cudaMemcpy(h, e, sizeof(h), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != 9;
   CHECK_INT(bad, 0);
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_CUDA(cudaFree(e));
}

/* cudaGraphAddNode for other node types: memset, kernel, memcpy, empty */
static void check_generic(cudaStream_t s)
{
   enum { N = 300 };
   int *d, *e;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&e, N * sizeof(int)));
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphNodeParams p = { cudaGraphNodeTypeMemset };
   p.memset.dst = d;
   p.memset.value = 3;
   p.memset.elementSize = 4;
   p.memset.width = N;
   p.memset.height = 1;
   cudaGraphNode_t ms, kn, cp, em;
   CHECK_CUDA(cudaGraphAddNode(&ms, g, NULL, NULL, 0, &p));
   int n = N, mul = 7;
   void *args[] = { &d, &n, &mul };
   cudaGraphNodeParams kp = { cudaGraphNodeTypeKernel };
   kp.kernel.func = (void *)scale;
   kp.kernel.gridDim = dim3((N + 127) / 128);
   kp.kernel.blockDim = dim3(128);
   kp.kernel.kernelParams = args;
   CHECK_CUDA(cudaGraphAddNode(&kn, g, &ms, NULL, 1, &kp));
   cudaGraphNodeParams cpp = { cudaGraphNodeTypeMemcpy };
   cpp.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(d, N * sizeof(int), N, 1);
   cpp.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(e, N * sizeof(int), N, 1);
   cpp.memcpy.copyParams.extent = make_cudaExtent(N * sizeof(int), 1, 1);
   cpp.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
   CHECK_CUDA(cudaGraphAddNode(&cp, g, &kn, NULL, 1, &cpp));
   cudaGraphNodeParams ep = { cudaGraphNodeTypeEmpty };
   CHECK_CUDA(cudaGraphAddNode(&em, g, &cp, NULL, 1, &ep));
   cudaGraphNodeType t;
   CHECK_CUDA(cudaGraphNodeGetType(kn, &t));
   CHECK_INT(t, cudaGraphNodeTypeKernel);
   CHECK_CUDA(cudaGraphNodeGetType(em, &t));
   CHECK_INT(t, cudaGraphNodeTypeEmpty);
   cudaGraphExec_t gx;
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   run(gx, s);
   int h[N];
   CHECK_CUDA(cudaMemcpy(h, e, sizeof(h), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != 3 * 7;
   CHECK_INT(bad, 0);
   /* the executable graph's kernel node multiplies by 5 now */
   mul = 5;
   CHECK_CUDA(cudaGraphExecNodeSetParams(gx, kn, &kp));
   run(gx, s);
   CHECK_CUDA(cudaMemcpy(h, e, sizeof(h), cudaMemcpyDeviceToHost));
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != 3 * 5;
   CHECK_INT(bad, 0);
   /* the graph's node by 2; instantiated again */
   mul = 2;
   CHECK_CUDA(cudaGraphNodeSetParams(kn, &kp));
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphInstantiate(&gx, g, 0));
   run(gx, s);
   CHECK_CUDA(cudaMemcpy(h, e, sizeof(h), cudaMemcpyDeviceToHost));
   bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != 3 * 2;
   CHECK_INT(bad, 0);
   /* the wrong type for the node */
   CHECK_ERR(cudaGraphNodeSetParams(ms, &kp), cudaErrorInvalidValue);
   CHECK_CUDA(cudaGraphExecDestroy(gx));
   CHECK_CUDA(cudaGraphDestroy(g));
   cudaFree(d);
   cudaFree(e);
}

static void host_fn(void *) {}

static void check_restrictions(void)
{
   cudaGraph_t g, body[2];
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphConditionalHandle h;
   CHECK_CUDA(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
   cudaGraphNodeParams p = { cudaGraphNodeTypeConditional };
   p.conditional.handle = h;
   p.conditional.type = cudaGraphCondTypeIf;
   p.conditional.size = 3;
   cudaGraphNode_t node;
   CHECK_ERR(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
   cudaGetLastError();
   p.conditional.type = cudaGraphCondTypeWhile;
   p.conditional.size = 2;
   CHECK_ERR(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
   cudaGetLastError();
   add_cond(g, NULL, 0, h, cudaGraphCondTypeIf, 1, body);
   cudaGraph_t clone = NULL;
   CHECK(cudaGraphClone(&clone, g) != cudaSuccess);
   cudaGetLastError();
   cudaGraphExec_t x1, x2;
   CHECK_CUDA(cudaGraphInstantiate(&x1, g, 0));
   CHECK(cudaGraphInstantiate(&x2, g, 0) != cudaSuccess);
   cudaGetLastError();
   CHECK_CUDA(cudaGraphExecDestroy(x1));
   /* a host node in a body: refused when added or when instantiated */
   cudaHostNodeParams hp = {};
   hp.fn = host_fn;
   cudaGraphNode_t hn;
   cudaError_t added = cudaGraphAddHostNode(&hn, body[0], NULL, 0, &hp);
   cudaGetLastError();
   if (added == cudaSuccess) {
      cudaError_t inst = cudaGraphInstantiate(&x1, g, 0);
      CHECK(inst != cudaSuccess);
      cudaGetLastError();
      if (inst == cudaSuccess)
         cudaGraphExecDestroy(x1);
   }
   CHECK_CUDA(cudaGraphDestroy(g));
}

int main(void)
{
   check_begin("graph_conditional");
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   check_if(s);
   check_if_else(s);
   check_while(s);
   check_switch(s);
   check_nested(s);
   check_generic(s);
   check_generic_alloc(s);
   check_restrictions();
   /* the legacy stream too */
   check_while(0);
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
