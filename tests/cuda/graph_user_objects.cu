/*
 * graph_user_objects.cu — user objects (CUDA Runtime API, "Graph
 * Management": cudaUserObjectCreate, cudaUserObjectRetain/Release,
 * cudaGraphRetainUserObject/ReleaseUserObject) and kernel node attributes
 * (cudaGraphKernelNode{Get,Set,Copy}Attribute(s)):
 *
 *  - a destructor runs exactly once, after the last reference is gone,
 *    whoever held it: the program's references, a graph's (retained or
 *    moved in with cudaGraphUserObjectMove), its clones', its executable
 *    graphs' and a child-graph node's copy of the child graph; never
 *    before (checked after each earlier release);
 *  - an executable graph destroyed while its launch still runs (a host
 *    node that sleeps, then a kernel) keeps the object until the launch
 *    completes: the destructor sees the host node's mark and the kernel's
 *    output written;
 *  - destructors may run on another thread after the last release
 *    (CUDA: "executed by a shared internal thread"), so the program waits
 *    up to 10 s for each before checking the count;
 *  - kernel node attributes: an access policy window and a priority read
 *    back as set; cudaGraphKernelNodeCopyAttributes copies them to another
 *    node; a clone's node has them; the graph launches correctly;
 *  - errors: flags other than cudaUserObjectNoDestructorSync, a zero
 *    initial count, no destructor, an unknown retain flag:
 *    cudaErrorInvalidValue.
 */
#include "check.h"

#include <unistd.h>

enum { N = 256 };

struct tracked {
   int destroyed;          /* destructor calls */
   int saw_host_node;      /* host_node_done when the destructor ran */
};

static int host_node_done;

static void CUDART_CB destroy(void *p)
{
   tracked *t = (tracked *)p;
   __atomic_store_n(&t->saw_host_node, __atomic_load_n(&host_node_done, __ATOMIC_ACQUIRE), __ATOMIC_RELAXED);
   __atomic_add_fetch(&t->destroyed, 1, __ATOMIC_ACQ_REL);
}

static int destroyed(tracked *t) { return __atomic_load_n(&t->destroyed, __ATOMIC_ACQUIRE); }

/* The destructor may run asynchronously: waits up to 10 s for it. */
static int wait_destroyed(tracked *t)
{
   for (int i = 0; i < 10000 && destroyed(t) == 0; i++)
      usleep(1000);
   usleep(20000);   /* time for a wrong second call to show */
   return destroyed(t);
}

/* Not destroyed yet, and not after a pause either. */
static int still_alive(tracked *t)
{
   usleep(20000);
   return destroyed(t) == 0;
}

static void CUDART_CB slow_host_node(void *)
{
   usleep(300000);
   __atomic_store_n(&host_node_done, 1, __ATOMIC_RELEASE);
}

__global__ void fill(int *p, int n, int v)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = v + i;
}

static cudaGraphNode_t add_fill(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, int *p, int v)
{
   int n = N;
   void *args[] = { &p, &n, &v };
   cudaKernelNodeParams kp = {};
   kp.func = (void *)fill;
   kp.gridDim = dim3(N / 64);
   kp.blockDim = dim3(64);
   kp.kernelParams = args;
   cudaGraphNode_t node = NULL;
   CHECK_CUDA(cudaGraphAddKernelNode(&node, g, deps, ndeps, &kp));
   return node;
}

static void program_references(void)
{
   tracked t = {};
   cudaUserObject_t o;
   CHECK_CUDA(cudaUserObjectCreate(&o, &t, destroy, 2, cudaUserObjectNoDestructorSync));
   CHECK_CUDA(cudaUserObjectRetain(o, 3));
   CHECK_CUDA(cudaUserObjectRelease(o, 4));
   CHECK(still_alive(&t));
   CHECK_CUDA(cudaUserObjectRelease(o, 1));
   CHECK_INT(wait_destroyed(&t), 1);
}

/* References held by a graph, its clone and its executable graph. */
static void graph_references(int *d)
{
   tracked t = {};
   cudaUserObject_t o;
   CHECK_CUDA(cudaUserObjectCreate(&o, &t, destroy, 1, cudaUserObjectNoDestructorSync));
   cudaGraph_t g, c;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   add_fill(g, NULL, 0, d, 5);
   CHECK_CUDA(cudaGraphRetainUserObject(g, o, 2, 0));
   CHECK_CUDA(cudaGraphClone(&c, g));
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaUserObjectRelease(o, 1));   /* the program's */
   CHECK(still_alive(&t));
   CHECK_CUDA(cudaGraphReleaseUserObject(g, o, 1));
   CHECK(still_alive(&t));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK(still_alive(&t));
   CHECK_CUDA(cudaGraphLaunch(x, 0));
   CHECK_CUDA(cudaStreamSynchronize(0));
   CHECK_CUDA(cudaGraphDestroy(c));
   CHECK(still_alive(&t));
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_INT(wait_destroyed(&t), 1);
}

/* Moved references, and a child graph's references kept by the node's copy. */
static void moved_and_child_references(void)
{
   tracked t = {}, u = {};
   cudaUserObject_t o, p;
   CHECK_CUDA(cudaUserObjectCreate(&o, &t, destroy, 1, cudaUserObjectNoDestructorSync));
   CHECK_CUDA(cudaUserObjectCreate(&p, &u, destroy, 1, cudaUserObjectNoDestructorSync));
   cudaGraph_t g, child;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   CHECK_CUDA(cudaGraphCreate(&child, 0));
   CHECK_CUDA(cudaGraphRetainUserObject(g, o, 1, cudaGraphUserObjectMove));
   CHECK_CUDA(cudaGraphRetainUserObject(child, p, 1, cudaGraphUserObjectMove));
   cudaGraphNode_t empty, node;
   CHECK_CUDA(cudaGraphAddEmptyNode(&empty, child, NULL, 0));
   CHECK_CUDA(cudaGraphAddChildGraphNode(&node, g, NULL, 0, child));
   CHECK_CUDA(cudaGraphDestroy(child));   /* the node's copy keeps p */
   CHECK(still_alive(&u));
   CHECK(still_alive(&t));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_INT(wait_destroyed(&t), 1);
   CHECK_INT(wait_destroyed(&u), 1);
}

/* An executable graph destroyed during its launch. */
static void pending_launch(int *d)
{
   tracked t = {};
   cudaUserObject_t o;
   CHECK_CUDA(cudaUserObjectCreate(&o, &t, destroy, 1, cudaUserObjectNoDestructorSync));
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaHostNodeParams hp = {};
   hp.fn = slow_host_node;
   cudaGraphNode_t h;
   CHECK_CUDA(cudaGraphAddHostNode(&h, g, NULL, 0, &hp));
   add_fill(g, &h, 1, d, 1000);
   CHECK_CUDA(cudaGraphRetainUserObject(g, o, 1, cudaGraphUserObjectMove));
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaGraphDestroy(g));
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   CHECK_CUDA(cudaMemsetAsync(d, 0, N * sizeof(int), s));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaGraphExecDestroy(x));   /* in flight: freed on completion */
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(wait_destroyed(&t), 1);
   CHECK_INT(__atomic_load_n(&t.saw_host_node, __ATOMIC_ACQUIRE), 1);
   int h_out[N], want[N];
   CHECK_CUDA(cudaMemcpy(h_out, d, sizeof(h_out), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = 1000 + i;
   CHECK_ARRAY_I32("kernel after the slow host node", h_out, want, N);
   CHECK_CUDA(cudaStreamDestroy(s));
}

static void same_window(const cudaLaunchAttributeValue &got, const cudaLaunchAttributeValue &want, const char *what)
{
   const cudaAccessPolicyWindow &a = got.accessPolicyWindow, &b = want.accessPolicyWindow;
   if (!CHECK(a.base_ptr == b.base_ptr && a.num_bytes == b.num_bytes && a.hitRatio == b.hitRatio &&
              a.hitProp == b.hitProp && a.missProp == b.missProp))
      printf("  %s: window %p+%zu ratio %g props %d/%d\n", what, a.base_ptr, a.num_bytes, a.hitRatio, (int)a.hitProp,
             (int)a.missProp);
}

static void kernel_node_attributes(int *d)
{
   int least, greatest;
   CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphNode_t k1 = add_fill(g, NULL, 0, d, 7);
   cudaGraphNode_t k2 = add_fill(g, &k1, 1, d + 0, 9);
   cudaLaunchAttributeValue w = {}, prio = {}, got;
   w.accessPolicyWindow.base_ptr = d;
   w.accessPolicyWindow.num_bytes = N * sizeof(int);
   w.accessPolicyWindow.hitRatio = 0.5f;
   w.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
   w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
   prio.priority = greatest;
   CHECK_CUDA(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributeAccessPolicyWindow, &w));
   CHECK_CUDA(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributePriority, &prio));
   memset(&got, 0x5a, sizeof(got));
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributeAccessPolicyWindow, &got));
   same_window(got, w, "set");
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributePriority, &got));
   CHECK_INT(got.priority, greatest);
   CHECK_CUDA(cudaGraphKernelNodeCopyAttributes(k2, k1));
   memset(&got, 0x5a, sizeof(got));
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(k2, cudaLaunchAttributeAccessPolicyWindow, &got));
   same_window(got, w, "copied");
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(k2, cudaLaunchAttributePriority, &got));
   CHECK_INT(got.priority, greatest);
   cudaGraph_t c;
   cudaGraphNode_t k1c;
   CHECK_CUDA(cudaGraphClone(&c, g));
   CHECK_CUDA(cudaGraphNodeFindInClone(&k1c, k1, c));
   memset(&got, 0x5a, sizeof(got));
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(k1c, cudaLaunchAttributeAccessPolicyWindow, &got));
   same_window(got, w, "cloned");
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, c, 0));
   CHECK_CUDA(cudaGraphLaunch(x, 0));
   CHECK_CUDA(cudaStreamSynchronize(0));
   int h_out[N], want[N];
   CHECK_CUDA(cudaMemcpy(h_out, d, sizeof(h_out), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      want[i] = 9 + i;
   CHECK_ARRAY_I32("graph with node attributes", h_out, want, N);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(c));
   CHECK_CUDA(cudaGraphDestroy(g));
}

static void errors(void)
{
   tracked t = {};
   cudaUserObject_t o;
   CHECK_ERR(cudaUserObjectCreate(&o, &t, destroy, 1, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaUserObjectCreate(&o, &t, destroy, 0, cudaUserObjectNoDestructorSync), cudaErrorInvalidValue);
   CHECK_ERR(cudaUserObjectCreate(&o, &t, NULL, 1, cudaUserObjectNoDestructorSync), cudaErrorInvalidValue);
   CHECK_CUDA(cudaUserObjectCreate(&o, &t, destroy, 1, cudaUserObjectNoDestructorSync));
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   CHECK_ERR(cudaGraphRetainUserObject(g, o, 1, 2), cudaErrorInvalidValue);
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK(still_alive(&t));
   CHECK_CUDA(cudaUserObjectRelease(o, 1));
   CHECK_INT(wait_destroyed(&t), 1);
   cudaGetLastError();
}

int main()
{
   check_begin("graph_user_objects");
   int *d;
   REQUIRE_CUDA(cudaMalloc(&d, N * sizeof(int)));
   program_references();
   graph_references(d);
   moved_and_child_references();
   pending_launch(d);
   kernel_node_attributes(d);
   errors();
   CHECK_CUDA(cudaFree(d));
   return check_end();
}
