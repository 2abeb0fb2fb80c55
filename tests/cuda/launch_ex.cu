/*
 * launch_ex.cu — launches with attributes (cudaLaunchKernelExC, the C++
 * template cudaLaunchKernelEx) and small runtime calls real programs make
 * (Thrust's merge sort launches through cudaLaunchKernelEx):
 *
 *  - a launch with no attribute, with hints (priority, access policy
 *    window, preferred shared memory carveout, programmatic stream
 *    serialization, a cluster of one block) computes the same exact result;
 *  - a launch-completion event attribute: the event completes after the
 *    kernel (its output is there after cudaEventSynchronize); the event
 *    must be made with cudaEventDisableTiming alone (a timing or
 *    blocking-sync event: cudaErrorNotSupported; a programmatic event's
 *    only needs cudaEventDisableTiming), and the record flag
 *    cudaEventRecordExternal is cudaErrorIllegalState (H200, driver 580,
 *    2026-12-02);
 *  - a bad configuration fails as cudaLaunchKernel's does (cudaErrorInvalidValue);
 *  - cudaEventRecordWithFlags(cudaEventRecordExternal) and
 *    cudaStreamWaitEvent(cudaEventWaitExternal) in a capture make event
 *    record and wait nodes; outside a capture they are cudaErrorIllegalState;
 *  - cudaStreamAttachMemAsync on managed memory (whole allocation or 0),
 *    cudaCtxResetPersistingL2Cache, cudaMemcpyPeer from the device to itself;
 *  - stream attributes (an access policy window) read back as set and
 *    copied by cudaStreamCopyAttributes; the priority attribute is the
 *    stream's priority.
 */
#include "check.h"

#include <vector>

enum { N = 1000 };

__global__ void scale(int *p, int n, int m)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = p[i] * m + i;
}

/* A launch-completion or programmatic event attribute. */
static cudaLaunchAttribute event_attribute(cudaLaunchAttributeID id, cudaEvent_t e, int flags)
{
   cudaLaunchAttribute a = {};
   a.id = id;
   if (id == cudaLaunchAttributeLaunchCompletionEvent) {
      a.val.launchCompletionEvent.event = e;
      a.val.launchCompletionEvent.flags = flags;
   } else {
      a.val.programmaticEvent.event = e;
      a.val.programmaticEvent.flags = flags;
      a.val.programmaticEvent.triggerAtBlockStart = 0;
   }
   return a;
}

static void fill(int *d)
{
   std::vector<int> h(N);
   for (int i = 0; i < N; i++)
      h[i] = i % 7;
   CHECK_CUDA(cudaMemcpy(d, h.data(), N * sizeof(int), cudaMemcpyHostToDevice));
}

static bool check_scaled(const int *d, int m, const char *what)
{
   std::vector<int> h(N);
   CHECK_CUDA(cudaMemcpy(h.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      if (h[i] != (i % 7) * m + i) {
         printf("%s: p[%d] = %d (want %d)\n", what, i, h[i], (i % 7) * m + i);
         return false;
      }
   return true;
}

int main()
{
   check_begin("launch_ex");
   int *d;
   CHECK_CUDA(cudaMalloc(&d, N * sizeof(int)));
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   int n = N, m = 3;
   void *args[] = { &d, &n, &m };

   cudaLaunchConfig_t cfg = {};
   cfg.gridDim = dim3((N + 127) / 128);
   cfg.blockDim = dim3(128);
   cfg.stream = s;
   fill(d);
   CHECK_CUDA(cudaLaunchKernelExC(&cfg, (const void *)scale, args));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK(check_scaled(d, 3, "no attribute"));

   cudaLaunchAttribute at[6] = {};
   at[0].id = cudaLaunchAttributePriority;
   at[0].val.priority = 0;
   at[1].id = cudaLaunchAttributeAccessPolicyWindow;
   at[1].val.accessPolicyWindow.base_ptr = d;
   at[1].val.accessPolicyWindow.num_bytes = N * sizeof(int);
   at[1].val.accessPolicyWindow.hitRatio = 0.5f;
   at[1].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
   at[1].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
   at[2].id = cudaLaunchAttributePreferredSharedMemoryCarveout;
   at[2].val.sharedMemCarveout = 50;
   at[3].id = cudaLaunchAttributeProgrammaticStreamSerialization;
   at[3].val.programmaticStreamSerializationAllowed = 1;
   at[4].id = cudaLaunchAttributeClusterDimension;
   at[4].val.clusterDim.x = at[4].val.clusterDim.y = at[4].val.clusterDim.z = 1;
   cudaEvent_t done;
   CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
   at[5].id = cudaLaunchAttributeLaunchCompletionEvent;
   at[5].val.launchCompletionEvent.event = done;
   at[5].val.launchCompletionEvent.flags = 0;
   cfg.attrs = at;
   cfg.numAttrs = 6;
   fill(d);
   m = 5;
   CHECK_CUDA(cudaLaunchKernelExC(&cfg, (const void *)scale, args));
   CHECK_CUDA(cudaEventSynchronize(done));
   CHECK(check_scaled(d, 5, "with attributes"));

   /* events the two event attributes refuse */
   cudaLaunchAttribute one[1];
   cfg.attrs = one;
   cfg.numAttrs = 1;
   static const unsigned refused[] = { cudaEventDefault, cudaEventBlockingSync,
                                       cudaEventBlockingSync | cudaEventDisableTiming };
   for (unsigned f : refused) {
      cudaEvent_t e;
      CHECK_CUDA(cudaEventCreateWithFlags(&e, f));
      one[0] = event_attribute(cudaLaunchAttributeLaunchCompletionEvent, e, 0);
      CHECK_ERR(cudaLaunchKernelExC(&cfg, (const void *)scale, args), cudaErrorNotSupported);
      cudaGetLastError();
      /* a programmatic event takes a blocking-sync event that disables timing */
      if (!(f & cudaEventDisableTiming)) {
         one[0] = event_attribute(cudaLaunchAttributeProgrammaticEvent, e, 0);
         CHECK_ERR(cudaLaunchKernelExC(&cfg, (const void *)scale, args), cudaErrorNotSupported);
         cudaGetLastError();
      }
      CHECK_CUDA(cudaEventDestroy(e));
   }
   one[0] = event_attribute(cudaLaunchAttributeLaunchCompletionEvent, done, cudaEventRecordExternal);
   CHECK_ERR(cudaLaunchKernelExC(&cfg, (const void *)scale, args), cudaErrorIllegalState);
   cudaGetLastError();
   /* a programmatic event made right: the kernel runs, the event completes after it */
   one[0] = event_attribute(cudaLaunchAttributeProgrammaticEvent, done, 0);
   fill(d);
   m = 4;
   CHECK_CUDA(cudaLaunchKernelExC(&cfg, (const void *)scale, args));
   CHECK_CUDA(cudaEventSynchronize(done));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK(check_scaled(d, 4, "programmatic event"));

   /* the C++ form */
   cfg.numAttrs = 0;
   fill(d);
   CHECK_CUDA(cudaLaunchKernelEx(&cfg, scale, d, N, 2));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK(check_scaled(d, 2, "cudaLaunchKernelEx"));

   /* errors as cudaLaunchKernel's */
   cfg.blockDim = dim3(2048);
   CHECK_ERR(cudaLaunchKernelExC(&cfg, (const void *)scale, args), cudaErrorInvalidValue);
   cfg.blockDim = dim3(128);
   cudaGetLastError();

   /* external event record and wait: nodes in a capture, illegal outside */
   cudaEvent_t ev;
   CHECK_CUDA(cudaEventCreate(&ev));
   CHECK_ERR(cudaEventRecordWithFlags(ev, s, cudaEventRecordExternal), cudaErrorIllegalState);
   CHECK_ERR(cudaStreamWaitEvent(s, ev, cudaEventWaitExternal), cudaErrorIllegalState);
   cudaGetLastError();
   CHECK_CUDA(cudaEventRecord(ev, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   CHECK_CUDA(cudaStreamWaitEvent(s, ev, cudaEventWaitExternal));
   scale<<<(N + 127) / 128, 128, 0, s>>>(d, N, 1);
   CHECK_CUDA(cudaEventRecordWithFlags(ev, s, cudaEventRecordExternal));
   cudaGraph_t g;
   CHECK_CUDA(cudaStreamEndCapture(s, &g));
   cudaGraphNode_t nodes[3];
   size_t count = 3;
   CHECK_CUDA(cudaGraphGetNodes(g, nodes, &count));
   CHECK_INT(count, 3);
   int kinds[16] = { 0 };
   for (size_t i = 0; i < count; i++) {
      cudaGraphNodeType t;
      CHECK_CUDA(cudaGraphNodeGetType(nodes[i], &t));
      kinds[(int)t & 15]++;
   }
   CHECK_INT(kinds[cudaGraphNodeTypeWaitEvent], 1);
   CHECK_INT(kinds[cudaGraphNodeTypeEventRecord], 1);
   CHECK_INT(kinds[cudaGraphNodeTypeKernel], 1);
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   fill(d);
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaEventSynchronize(ev));
   CHECK(check_scaled(d, 1, "captured with external events"));
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(g));

   /* managed memory attached to a stream, the host, everything */
   int *mg;
   CHECK_CUDA(cudaMallocManaged(&mg, N * sizeof(int)));
   CHECK_CUDA(cudaStreamAttachMemAsync(s, mg, 0, cudaMemAttachSingle));
   CHECK_CUDA(cudaStreamAttachMemAsync(s, mg, N * sizeof(int), cudaMemAttachGlobal));
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < N; i++)
      mg[i] = i % 7;
   scale<<<(N + 127) / 128, 128, 0, s>>>(mg, N, 4);
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(mg[999], (999 % 7) * 4 + 999);
   CHECK_CUDA(cudaFree(mg));

   /* stream attributes read back as set, copied to another stream */
   cudaLaunchAttributeValue v = {}, got = {};
   v.accessPolicyWindow.base_ptr = d;
   v.accessPolicyWindow.num_bytes = 4000;
   v.accessPolicyWindow.hitRatio = 0.25f;
   v.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
   v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
   CHECK_CUDA(cudaStreamSetAttribute(s, cudaLaunchAttributeAccessPolicyWindow, &v));
   CHECK_CUDA(cudaStreamGetAttribute(s, cudaLaunchAttributeAccessPolicyWindow, &got));
   CHECK(got.accessPolicyWindow.base_ptr == (void *)d);
   CHECK_INT(got.accessPolicyWindow.num_bytes, 4000);
   CHECK_F32(got.accessPolicyWindow.hitRatio, 0.25f);
   CHECK_INT(got.accessPolicyWindow.missProp, cudaAccessPropertyStreaming);
   cudaStream_t s3;
   CHECK_CUDA(cudaStreamCreate(&s3));
   CHECK_CUDA(cudaStreamCopyAttributes(s3, s));
   got = {};
   CHECK_CUDA(cudaStreamGetAttribute(s3, cudaLaunchAttributeAccessPolicyWindow, &got));
   CHECK_INT(got.accessPolicyWindow.num_bytes, 4000);
   int prio = 99;
   CHECK_CUDA(cudaStreamGetPriority(s3, &prio));
   CHECK_CUDA(cudaStreamGetAttribute(s3, cudaLaunchAttributePriority, &got));
   CHECK_INT(got.priority, prio);
   fill(d);
   scale<<<(N + 127) / 128, 128, 0, s3>>>(d, N, 6);   /* hints change no result */
   CHECK_CUDA(cudaStreamSynchronize(s3));
   CHECK(check_scaled(d, 6, "stream with an access policy window"));
   CHECK_CUDA(cudaStreamDestroy(s3));

   CHECK_CUDA(cudaCtxResetPersistingL2Cache());
   int *d2;
   CHECK_CUDA(cudaMalloc(&d2, N * sizeof(int)));
   CHECK_CUDA(cudaMemcpyPeer(d2, 0, d, 0, N * sizeof(int)));
   CHECK(check_scaled(d2, 6, "cudaMemcpyPeer to itself"));
   CHECK_CUDA(cudaFree(d2));

   CHECK_CUDA(cudaEventDestroy(ev));
   CHECK_CUDA(cudaEventDestroy(done));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFree(d));
   return check_end();
}
