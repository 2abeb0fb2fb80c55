/*
 * graphs.cu — graphs built node by node (CUDA Runtime API, "Graph
 * Management"):
 *
 *  - a graph of every node kind metalcuda implements: memset (1-byte and
 *    4-byte, pitched), kernel, 1-D, 2-D and 3-D copies (device to device,
 *    pageable host to device), host function, child graph, event record and
 *    wait, empty; its queries (nodes, roots, edges, dependencies, types,
 *    kernel parameters) answer what was built;
 *  - an executable graph replays exactly, any number of times, in any
 *    stream, launches of one executable graph following each other; it is
 *    independent of its graph (changes after instantiation and the graph's
 *    destruction do not reach it);
 *  - cudaGraphExecKernelNodeSetParams and cudaGraphExecMemsetNodeSetParams
 *    change the next launch only; cudaGraphNodeSetEnabled(0) skips a node;
 *    cudaGraphExecUpdate takes new parameters from a graph of the same
 *    shape and refuses another shape with cudaErrorGraphExecUpdateFailure
 *    and cudaGraphExecUpdateErrorTopologyChanged;
 *  - cudaGraphClone copies, cudaGraphNodeFindInClone finds the copies;
 *  - kernel arguments are copied when the node is made;
 *  - NVIDIA's errors: a duplicate edge or dependency, removing an edge
 *    that is not there, an unknown instantiation flag, enabling an empty
 *    node are cudaErrorInvalidValue; a cycle is accepted and refused at
 *    instantiation (cudaErrorInvalidValue);
 *  - cudaGraphDebugDotPrint writes a Graphviz description; graphs without
 *    allocation nodes use no graph memory (cudaDeviceGetGraphMemAttribute).
 */
#include "check.h"

#include <unistd.h>
#include <vector>

enum { N = 512, W = 24, H = 6, D = 3 };

__global__ void affine(int *p, int n, int mul, int add)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = p[i] * mul + add + i;
}

__global__ void copy_plus(int *dst, const int *src, int n, int add)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      dst[i] = src[i] + add;
}

static void count_call(void *arg) { ++*(int *)arg; }

static std::vector<int> read(const int *d, int n)
{
   std::vector<int> h(n);
   CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
   return h;
}

static cudaKernelNodeParams kparams(const void *fn, int blocks, void **args)
{
   cudaKernelNodeParams p = {};
   p.func = (void *)fn;
   p.gridDim = dim3(blocks);
   p.blockDim = dim3(N / blocks);
   p.kernelParams = args;
   return p;
}

/* a: memset 0 -> affine(x3, +1) ; b = a + 100 (child graph) ; host ; record */
static void built(cudaStream_t s, cudaStream_t s2)
{
   int *a, *b;
   CHECK_CUDA(cudaMalloc(&a, N * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&b, N * sizeof(int)));
   int calls = 0;
   cudaEvent_t ev;
   CHECK_CUDA(cudaEventCreate(&ev));
   cudaGraph_t g, child;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   CHECK_CUDA(cudaGraphCreate(&child, 0));

   cudaGraphNode_t nset, naff, nchild, nhost, nrec, nempty;
   cudaMemsetParams mp = {};
   mp.dst = a;
   mp.value = 0;
   mp.elementSize = 1;
   mp.width = N * sizeof(int);
   mp.height = 1;
   CHECK_CUDA(cudaGraphAddMemsetNode(&nset, g, NULL, 0, &mp));
   int mul = 3, add = 1, n = N;
   void *aargs[] = { &a, &n, &mul, &add };
   cudaKernelNodeParams kp = kparams((const void *)affine, 2, aargs);
   CHECK_CUDA(cudaGraphAddKernelNode(&naff, g, &nset, 1, &kp));
   mul = 1000;   /* the node copied the arguments */

   int plus = 100;
   void *cargs[] = { &b, &a, &n, &plus };
   cudaKernelNodeParams cp = kparams((const void *)copy_plus, 4, cargs);
   cudaGraphNode_t ck;
   CHECK_CUDA(cudaGraphAddKernelNode(&ck, child, NULL, 0, &cp));
   CHECK_CUDA(cudaGraphAddChildGraphNode(&nchild, g, &naff, 1, child));
   cudaHostNodeParams hp = { count_call, &calls };
   CHECK_CUDA(cudaGraphAddHostNode(&nhost, g, &naff, 1, &hp));
   cudaGraphNode_t both[] = { nchild, nhost };
   CHECK_CUDA(cudaGraphAddEmptyNode(&nempty, g, both, 2));
   CHECK_CUDA(cudaGraphAddEventRecordNode(&nrec, g, &nempty, 1, ev));

   /* queries */
   size_t count = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, NULL, &count));
   CHECK_INT(count, 6);
   CHECK_CUDA(cudaGraphGetRootNodes(g, NULL, &count));
   CHECK_INT(count, 1);
   CHECK_CUDA(cudaGraphGetEdges(g, NULL, NULL, NULL, &count));
   CHECK_INT(count, 6);
   CHECK_CUDA(cudaGraphNodeGetDependencies(nempty, NULL, NULL, &count));
   CHECK_INT(count, 2);
   CHECK_CUDA(cudaGraphNodeGetDependentNodes(naff, NULL, NULL, &count));
   CHECK_INT(count, 2);
   cudaGraphNodeType t;
   CHECK_CUDA(cudaGraphNodeGetType(nchild, &t));
   CHECK_INT(t, cudaGraphNodeTypeGraph);
   CHECK_CUDA(cudaGraphNodeGetType(nrec, &t));
   CHECK_INT(t, cudaGraphNodeTypeEventRecord);
   CHECK_CUDA(cudaGraphNodeGetType(nempty, &t));
   CHECK_INT(t, cudaGraphNodeTypeEmpty);
   cudaKernelNodeParams got = {};
   CHECK_CUDA(cudaGraphKernelNodeGetParams(naff, &got));
   CHECK(got.func == (void *)affine);
   CHECK_INT(got.gridDim.x, 2);
   CHECK_INT(got.blockDim.x, N / 2);
   CHECK_INT(*(int *)got.kernelParams[2], 3);
   cudaEvent_t e2 = NULL;
   CHECK_CUDA(cudaGraphEventRecordNodeGetEvent(nrec, &e2));
   CHECK(e2 == ev);

   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   for (int rep = 0; rep < 3; rep++)
      CHECK_CUDA(cudaGraphLaunch(x, rep & 1 ? s2 : s));
   CHECK_CUDA(cudaEventSynchronize(ev));
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_INT(calls, 3);
   std::vector<int> ha = read(a, N), hb = read(b, N);
   bool ok = true;
   for (int i = 0; i < N && ok; i++)
      if (ha[i] != 1 + i || hb[i] != 101 + i) {
         printf("replay: a[%d] = %d (want %d), b[%d] = %d (want %d)\n", i, ha[i], 1 + i, i, hb[i], 101 + i);
         ok = false;
      }
   CHECK(ok);

   /* executable-graph updates reach the next launch only */
   int mul2 = 2, add2 = 5;
   void *aargs2[] = { &a, &n, &mul2, &add2 };
   cudaKernelNodeParams kp2 = kparams((const void *)affine, 4, aargs2);
   CHECK_CUDA(cudaGraphExecKernelNodeSetParams(x, naff, &kp2));
   mp.value = 1;   /* bytes 0x01 */
   CHECK_CUDA(cudaGraphExecMemsetNodeSetParams(x, nset, &mp));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   ha = read(a, N);
   CHECK_INT(ha[9], 0x01010101 * 2 + 5 + 9);
   /* the graph itself kept its parameters */
   CHECK_CUDA(cudaGraphKernelNodeGetParams(naff, &got));
   CHECK_INT(*(int *)got.kernelParams[2], 3);
   CHECK_INT(got.gridDim.x, 2);

   /* a disabled node is skipped */
   unsigned enabled = 7;
   CHECK_CUDA(cudaGraphNodeSetEnabled(x, naff, 0));
   CHECK_CUDA(cudaGraphNodeGetEnabled(x, naff, &enabled));
   CHECK_INT(enabled, 0);
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(read(a, N)[9], 0x01010101);
   CHECK_INT(read(b, N)[9], 0x01010101 + 100);
   CHECK_CUDA(cudaGraphNodeSetEnabled(x, naff, 1));

   /* cudaGraphExecUpdate from a graph of the same shape */
   kp.kernelParams = aargs;
   mul = 7;
   CHECK_CUDA(cudaGraphKernelNodeSetParams(naff, &kp));
   mp.value = 0;
   CHECK_CUDA(cudaGraphMemsetNodeSetParams(nset, &mp));
   cudaGraphExecUpdateResultInfo info = {};
   CHECK_CUDA(cudaGraphExecUpdate(x, g, &info));
   CHECK_INT(info.result, cudaGraphExecUpdateSuccess);
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(read(a, N)[9], 1 + 9);   /* 0 * 7 + 1 + 9 */

   /* clone */
   cudaGraph_t cl;
   CHECK_CUDA(cudaGraphClone(&cl, g));
   cudaGraphNode_t found = NULL;
   CHECK_CUDA(cudaGraphNodeFindInClone(&found, naff, cl));
   CHECK(found != NULL && found != naff);
   CHECK_CUDA(cudaGraphNodeGetType(found, &t));
   CHECK_INT(t, cudaGraphNodeTypeKernel);
   CHECK_CUDA(cudaGraphGetNodes(cl, NULL, &count));
   CHECK_INT(count, 6);

   /* another shape is refused */
   cudaGraphNode_t extra;
   CHECK_CUDA(cudaGraphAddEmptyNode(&extra, g, &nrec, 1));
   CHECK_ERR(cudaGraphExecUpdate(x, g, &info), cudaErrorGraphExecUpdateFailure);
   CHECK_INT(info.result, cudaGraphExecUpdateErrorTopologyChanged);
   cudaGetLastError();

   /* the executable graph outlives its graph */
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_CUDA(cudaGraphDestroy(child));
   CHECK_CUDA(cudaGraphDestroy(cl));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(read(b, N)[9], 1 + 9 + 100);
   CHECK_INT(calls, 7);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaEventDestroy(ev));
   CHECK_CUDA(cudaFree(a));
   CHECK_CUDA(cudaFree(b));
}

/* 2-D and 3-D copies, a pitched 4-byte fill, an event wait. */
static void copies(cudaStream_t s, cudaStream_t s2)
{
   size_t pitch;
   int *p2;
   CHECK_CUDA(cudaMallocPitch(&p2, &pitch, W * sizeof(int), H * D));
   int *flat;
   CHECK_CUDA(cudaMalloc(&flat, W * H * D * sizeof(int)));
   std::vector<int> host(W * H * D), out(W * H * D, -1);
   for (int i = 0; i < W * H * D; i++)
      host[i] = i * 7 + 3;

   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphNode_t nfill, nh2d, nd2d, nback, nwait;
   cudaMemsetParams mp = {};
   mp.dst = p2;
   mp.pitch = pitch;
   mp.value = 0xabcd1234u;
   mp.elementSize = 4;
   mp.width = W;
   mp.height = H * D;
   CHECK_CUDA(cudaGraphAddMemsetNode(&nfill, g, NULL, 0, &mp));
   /* pageable host -> pitched device, 3-D, the middle of each slice's rows */
   cudaMemcpy3DParms c = {};
   c.srcPtr = make_cudaPitchedPtr(host.data(), W * sizeof(int), W, H);
   c.dstPtr = make_cudaPitchedPtr(p2, pitch, W, H);
   c.extent = make_cudaExtent((W - 8) * sizeof(int), H - 2, D);
   c.srcPos = make_cudaPos(4 * sizeof(int), 1, 0);
   c.dstPos = make_cudaPos(4 * sizeof(int), 1, 0);
   c.kind = cudaMemcpyHostToDevice;
   CHECK_CUDA(cudaGraphAddMemcpyNode(&nh2d, g, &nfill, 1, &c));
   /* pitched -> flat, 2-D (every row of every slice) */
   cudaMemcpy3DParms c2 = {};
   c2.srcPtr = make_cudaPitchedPtr(p2, pitch, W, H * D);
   c2.dstPtr = make_cudaPitchedPtr(flat, W * sizeof(int), W, H * D);
   c2.extent = make_cudaExtent(W * sizeof(int), H * D, 1);
   c2.kind = cudaMemcpyDeviceToDevice;
   CHECK_CUDA(cudaGraphAddMemcpyNode(&nd2d, g, &nh2d, 1, &c2));
   /* flat -> pageable host, 1-D, after an event recorded on s2 */
   cudaEvent_t ev;
   CHECK_CUDA(cudaEventCreate(&ev));
   CHECK_CUDA(cudaGraphAddEventWaitNode(&nwait, g, &nd2d, 1, ev));
   CHECK_CUDA(cudaGraphAddMemcpyNode1D(&nback, g, &nwait, 1, out.data(), flat, out.size() * sizeof(int),
                                       cudaMemcpyDeviceToHost));
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaEventRecord(ev, s2));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   bool ok = true;
   for (int z = 0; z < D; z++)
      for (int y = 0; y < H; y++)
         for (int i = 0; i < W; i++) {
            int k = (z * H + y) * W + i;
            bool inside = y >= 1 && y < H - 1 && i >= 4 && i < W - 4;
            int want = inside ? host[k] : (int)0xabcd1234u;
            if (out[k] != want && ok) {
               printf("copies: out[z=%d y=%d x=%d] = %#x (want %#x)\n", z, y, i, out[k], want);
               ok = false;
            }
         }
   CHECK(ok);
   cudaGraphNodeType t;
   CHECK_CUDA(cudaGraphNodeGetType(nwait, &t));
   CHECK_INT(t, cudaGraphNodeTypeWaitEvent);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_CUDA(cudaEventDestroy(ev));
   CHECK_CUDA(cudaFree(p2));
   CHECK_CUDA(cudaFree(flat));
}

/* NVIDIA's answers (an H200, driver 580.159.04, CUDA 13.0). */
static void errors(void)
{
   cudaGraph_t g;
   cudaGraphNode_t a, b, c, dup[2];
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   CHECK_CUDA(cudaGraphAddEmptyNode(&a, g, NULL, 0));
   CHECK_CUDA(cudaGraphAddEmptyNode(&b, g, &a, 1));
   CHECK_ERR(cudaGraphAddDependencies(g, &a, &b, NULL, 1), cudaErrorInvalidValue);   /* already there */
   CHECK_CUDA(cudaGraphAddDependencies(g, &b, &a, NULL, 1));                        /* a cycle ... */
   cudaGraphExec_t x;
   CHECK_ERR(cudaGraphInstantiate(&x, g, 0), cudaErrorInvalidValue);                /* ... refused here */
   CHECK_CUDA(cudaGraphRemoveDependencies(g, &b, &a, NULL, 1));
   CHECK_ERR(cudaGraphRemoveDependencies(g, &b, &a, NULL, 1), cudaErrorInvalidValue);
   dup[0] = dup[1] = a;
   CHECK_ERR(cudaGraphAddEmptyNode(&c, g, dup, 2), cudaErrorInvalidValue);
   CHECK_ERR(cudaGraphInstantiate(&x, g, 16), cudaErrorInvalidValue);               /* no such flag */
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   unsigned on;
   CHECK_ERR(cudaGraphNodeSetEnabled(x, a, 0), cudaErrorInvalidValue);              /* an empty node */
   CHECK_ERR(cudaGraphNodeGetEnabled(x, a, &on), cudaErrorInvalidValue);
   CHECK_CUDA(cudaGraphLaunch(x, 0));
   CHECK_CUDA(cudaStreamSynchronize(0));
   CHECK_CUDA(cudaGraphExecDestroy(x));

   /* a description for Graphviz */
   char path[64];
   snprintf(path, sizeof(path), "/tmp/graphs_cu_%d.dot", (int)getpid());
   CHECK_CUDA(cudaGraphDebugDotPrint(g, path, 0));
   FILE *f = fopen(path, "r");
   char head[8] = "";
   CHECK(f != NULL);
   if (f) {
      CHECK(fread(head, 1, 7, f) == 7);
      fclose(f);
   }
   CHECK_STR(head, "digraph");
   remove(path);
   CHECK_CUDA(cudaGraphDestroy(g));

   /* no graph here allocates memory */
   unsigned long long used = 1;
   CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
   CHECK_INT(used, 0);
   CHECK_CUDA(cudaDeviceGraphMemTrim(0));
   cudaGetLastError();
}

int main()
{
   check_begin("graphs");
   cudaStream_t s, s2;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
   built(s, s2);
   copies(s, s2);
   errors();
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaStreamDestroy(s2));
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
