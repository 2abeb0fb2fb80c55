/*
 * graph_user_objects.cu — graph user objects and kernel node attributes.
 *
 *  - a user object moved into a graph lives while the graph, its clone and
 *    an executable graph made from the clone exist, its destructor running
 *    exactly once, after the last of them is destroyed, and never before a
 *    launch of that executable graph has completed (the kernel sets a flag
 *    in mapped host memory as its last act; the destructor records the flag
 *    it sees);
 *  - references retained and released by the program and by a graph
 *    (cudaUserObjectRetain/Release, cudaGraphRetainUserObject without the
 *    move flag, cudaGraphReleaseUserObject);
 *  - errors: flags other than cudaUserObjectNoDestructorSync, an initial
 *    count of 0 -> cudaErrorInvalidValue (a graph giving back more
 *    references than it holds is not checked: an H200 answers success);
 *  - kernel node attributes: an access policy window and a priority set
 *    on a node read back as set, copied to another kernel node, kept by a
 *    clone's node; an unset attribute reads as zero; an attribute on an
 *    empty node -> cudaErrorInvalidValue; the graph runs.
 * CUDA may run a destructor on a thread of its own after the last
 * reference goes, so the checks wait for it (up to two seconds).
 */
#include "check.h"

#include <chrono>
#include <thread>

struct tracked {
   int destroyed;          /* times the destructor ran (atomic) */
   volatile int *flag;     /* the kernel's completion flag, for the first object */
   int flag_seen;          /* what the destructor saw there */
};

static void destroy_tracked(void *p)
{
   tracked *t = (tracked *)p;
   if (t->flag)
      t->flag_seen = *t->flag;
   __atomic_add_fetch(&t->destroyed, 1, __ATOMIC_SEQ_CST);
}

static int destroyed(tracked *t, int want)
{
   for (int k = 0; k < 200 && __atomic_load_n(&t->destroyed, __ATOMIC_SEQ_CST) < want; k++)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
   return __atomic_load_n(&t->destroyed, __ATOMIC_SEQ_CST);
}

/* Busy work, then the flag: the launch is complete only after both. */
__global__ void work(unsigned *out, int n, volatile int *flag)
{
   unsigned x = threadIdx.x + blockIdx.x * blockDim.x;
   unsigned v = x;
   for (int k = 0; k < n; k++)
      v = v * 1664525u + 1013904223u;
   out[x] = v;
   __syncthreads();
   if (x == 0) {
      __threadfence_system();
      *flag = 1;
   }
}

static unsigned model(unsigned x, int n)
{
   unsigned v = x;
   for (int k = 0; k < n; k++)
      v = v * 1664525u + 1013904223u;
   return v;
}

static void user_objects()
{
   enum { BLOCKS = 4, THREADS = 128, N = 20000 };
   unsigned *out = NULL;
   int *flag_h = NULL, *flag_d = NULL;
   CHECK_CUDA(cudaMalloc(&out, BLOCKS * THREADS * sizeof(unsigned)));
   CHECK_CUDA(cudaHostAlloc(&flag_h, sizeof(int), cudaHostAllocMapped));
   CHECK_CUDA(cudaHostGetDevicePointer(&flag_d, flag_h, 0));
   *flag_h = 0;
   static tracked t1;
   t1.flag = flag_h;

   cudaGraph_t g, clone;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   cudaGraphNode_t kn;
   int n = N;
   void *args[] = { &out, &n, &flag_d };
   cudaKernelNodeParams kp = {};
   kp.func = (void *)work;
   kp.gridDim = dim3(BLOCKS);
   kp.blockDim = dim3(THREADS);
   kp.kernelParams = args;
   CHECK_CUDA(cudaGraphAddKernelNode(&kn, g, NULL, 0, &kp));

   cudaUserObject_t o1;
   CHECK_CUDA(cudaUserObjectCreate(&o1, &t1, destroy_tracked, 1, cudaUserObjectNoDestructorSync));
   CHECK_CUDA(cudaGraphRetainUserObject(g, o1, 1, cudaGraphUserObjectMove));   /* the program keeps none */
   CHECK_CUDA(cudaGraphClone(&clone, g));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_INT(destroyed(&t1, 0), 0);   /* the clone holds it */
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, clone, 0));
   CHECK_CUDA(cudaGraphDestroy(clone));
   CHECK_INT(destroyed(&t1, 0), 0);   /* the executable graph holds it */
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaGraphExecDestroy(x));   /* while the launch may still run */
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(destroyed(&t1, 1), 1);
   CHECK_INT(t1.flag_seen, 1);   /* not before the launch completed */
   unsigned *h = (unsigned *)malloc(BLOCKS * THREADS * sizeof(unsigned));
   CHECK_CUDA(cudaMemcpy(h, out, BLOCKS * THREADS * sizeof(unsigned), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < BLOCKS * THREADS; i++)
      bad += h[i] != model((unsigned)i, N);
   CHECK_INT(bad, 0);
   free(h);

   /* references counted on both sides */
   static tracked t2;
   cudaUserObject_t o2;
   cudaGraph_t g2;
   CHECK_CUDA(cudaGraphCreate(&g2, 0));
   CHECK_CUDA(cudaUserObjectCreate(&o2, &t2, destroy_tracked, 2, cudaUserObjectNoDestructorSync));
   CHECK_CUDA(cudaUserObjectRetain(o2, 1));           /* program: 3 */
   CHECK_CUDA(cudaGraphRetainUserObject(g2, o2, 2, 0));   /* graph: 2 more */
   CHECK_CUDA(cudaUserObjectRelease(o2, 3));          /* program: none left */
   CHECK_INT(destroyed(&t2, 0), 0);
   CHECK_CUDA(cudaGraphReleaseUserObject(g2, o2, 1));
   CHECK_INT(destroyed(&t2, 0), 0);
   CHECK_CUDA(cudaGraphDestroy(g2));                  /* its last reference */
   CHECK_INT(destroyed(&t2, 1), 1);

   /* errors */
   cudaUserObject_t o3;
   static tracked t3;
   CHECK_ERR(cudaUserObjectCreate(&o3, &t3, destroy_tracked, 1, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaUserObjectCreate(&o3, &t3, destroy_tracked, 0, cudaUserObjectNoDestructorSync),
             cudaErrorInvalidValue);
   CHECK_INT(destroyed(&t3, 0), 0);

   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFree(out));
   CHECK_CUDA(cudaFreeHost(flag_h));
}

__global__ void add_one(int *p)
{
   p[threadIdx.x] += 1;
}

static void node_attributes()
{
   int *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(int)));
   CHECK_CUDA(cudaMemset(d, 0, 64 * sizeof(int)));
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   void *args[] = { &d };
   cudaKernelNodeParams kp = {};
   kp.func = (void *)add_one;
   kp.gridDim = dim3(1);
   kp.blockDim = dim3(64);
   kp.kernelParams = args;
   cudaGraphNode_t a, b, e;
   CHECK_CUDA(cudaGraphAddKernelNode(&a, g, NULL, 0, &kp));
   CHECK_CUDA(cudaGraphAddKernelNode(&b, g, &a, 1, &kp));
   CHECK_CUDA(cudaGraphAddEmptyNode(&e, g, &b, 1));

   cudaKernelNodeAttrValue v = {}, r = {};
   memset(&r, 0x5a, sizeof(r));
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &r));
   CHECK(r.accessPolicyWindow.base_ptr == NULL && r.accessPolicyWindow.num_bytes == 0);
   v.accessPolicyWindow.base_ptr = d;
   v.accessPolicyWindow.num_bytes = 64 * sizeof(int);
   v.accessPolicyWindow.hitRatio = 0.5f;
   v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
   v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
   CHECK_CUDA(cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &v));
   memset(&r, 0, sizeof(r));
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &r));
   CHECK(r.accessPolicyWindow.base_ptr == d && r.accessPolicyWindow.num_bytes == 64 * sizeof(int));
   CHECK_F32(r.accessPolicyWindow.hitRatio, 0.5f);
   CHECK_INT(r.accessPolicyWindow.hitProp, cudaAccessPropertyPersisting);
   CHECK_INT(r.accessPolicyWindow.missProp, cudaAccessPropertyStreaming);
   cudaKernelNodeAttrValue pr = {};
   pr.priority = 0;
   CHECK_CUDA(cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributePriority, &pr));
   CHECK_CUDA(cudaGraphKernelNodeCopyAttributes(b, a));
   memset(&r, 0, sizeof(r));
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(b, cudaLaunchAttributeAccessPolicyWindow, &r));
   CHECK(r.accessPolicyWindow.base_ptr == d && r.accessPolicyWindow.num_bytes == 64 * sizeof(int));
   CHECK_ERR(cudaGraphKernelNodeGetAttribute(e, cudaLaunchAttributeAccessPolicyWindow, &r),
             cudaErrorInvalidValue);
   CHECK_ERR(cudaGraphKernelNodeSetAttribute(e, cudaLaunchAttributePriority, &pr), cudaErrorInvalidValue);

   cudaGraph_t c;
   CHECK_CUDA(cudaGraphClone(&c, g));
   cudaGraphNode_t ca;
   CHECK_CUDA(cudaGraphNodeFindInClone(&ca, a, c));
   memset(&r, 0, sizeof(r));
   CHECK_CUDA(cudaGraphKernelNodeGetAttribute(ca, cudaLaunchAttributeAccessPolicyWindow, &r));
   CHECK(r.accessPolicyWindow.base_ptr == d);
   CHECK_F32(r.accessPolicyWindow.hitRatio, 0.5f);

   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, c, 0));
   CHECK_CUDA(cudaGraphLaunch(x, 0));
   CHECK_CUDA(cudaGraphLaunch(x, 0));
   int h[64];
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < 64; i++)
      bad += h[i] != 4;
   CHECK_INT(bad, 0);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(c));
   CHECK_CUDA(cudaGraphDestroy(g));
   CHECK_CUDA(cudaFree(d));
}

int main()
{
   check_begin("graph_user_objects");
   user_objects();
   node_attributes();
   return check_end();
}
