/*
 * device_odds.cu — device and array queries CUDA 11.1-13.0 added, checked
 * against CUDA 13's documentation and against the device's own attributes
 * (so that the same checks hold on an H200 and through metalcuda):
 *   - cudaDeviceGetHostAtomicCapabilities: NULL arrays, count 0 and an
 *     unknown operation are cudaErrorInvalidValue, a bad ordinal
 *     cudaErrorInvalidDevice; a device reporting neither
 *     cudaDevAttrHostNativeAtomicSupported nor
 *     cudaDevAttrOnlyPartialHostNativeAtomicSupported has no capability for
 *     any operation, one reporting full support has some for every one;
 *     only the documented capability bits appear;
 *   - cudaDeviceGetP2PAtomicCapabilities: a device and itself are
 *     cudaErrorInvalidDevice ("or if they represent the same device");
 *   - cudaDeviceFlushGPUDirectRDMAWrites: succeeds where
 *     cudaDevAttrGPUDirectRDMAFlushWritesOptions has the host option, else
 *     cudaErrorNotSupported;
 *   - cudaDeviceRegisterAsyncNotification/Unregister: a registration is
 *     kept and removed once; a NULL function is
 *     cudaErrorInvalidValue; where the platform has no budget notifications
 *     (cudaErrorNotSupported) the rest is skipped and counted;
 *   - cudaArrayGetPlane, cudaArrayGetSparseProperties,
 *     cudaArrayGetMemoryRequirements on an ordinary (single-plane, not
 *     sparse, not deferred-mapping) array: cudaErrorInvalidValue, as
 *     documented for such arrays.
 */
#include "check.h"

/* REQUIRE_CUDA for the helpers, which return nothing */
#define NEED(call)                      \
   do {                                 \
      if (!CHECK_CUDA(call))            \
         exit(check_end());             \
   } while (0)

static const cudaAtomicOperation all_ops[] = {
   cudaAtomicOperationIntegerAdd, cudaAtomicOperationIntegerMin,       cudaAtomicOperationIntegerMax,
   cudaAtomicOperationIntegerIncrement, cudaAtomicOperationIntegerDecrement, cudaAtomicOperationAnd,
   cudaAtomicOperationOr,         cudaAtomicOperationXOR,              cudaAtomicOperationExchange,
   cudaAtomicOperationCAS,        cudaAtomicOperationFloatAdd,         cudaAtomicOperationFloatMin,
   cudaAtomicOperationFloatMax,
};
enum { NOPS = sizeof(all_ops) / sizeof(all_ops[0]) };
static const unsigned known_caps = cudaAtomicCapabilitySigned | cudaAtomicCapabilityUnsigned |
                                   cudaAtomicCapabilityReduction | cudaAtomicCapabilityScalar32 |
                                   cudaAtomicCapabilityScalar64 | cudaAtomicCapabilityScalar128 |
                                   cudaAtomicCapabilityVector32x4;

static int attr(cudaDeviceAttr a)
{
   int v = -1;
   CHECK_CUDA(cudaDeviceGetAttribute(&v, a, 0));
   return v;
}

static void atomics(void)
{
   unsigned caps[NOPS];
   for (int i = 0; i < NOPS; i++)
      caps[i] = SENTINEL32;
   CHECK_CUDA(cudaDeviceGetHostAtomicCapabilities(caps, all_ops, NOPS, 0));
   int full = attr(cudaDevAttrHostNativeAtomicSupported), partial = attr(cudaDevAttrOnlyPartialHostNativeAtomicSupported);
   printf("  host native atomics: full %d, partial %d; capabilities:", full, partial);
   int none = 0, unknown = 0;
   for (int i = 0; i < NOPS; i++) {
      printf(" %#x", caps[i]);
      none += caps[i] == 0;
      unknown += (caps[i] & ~known_caps) != 0;
   }
   printf("\n");
   CHECK_INT(unknown, 0);
   if (!full && !partial)
      CHECK_INT(none, NOPS);
   if (full)
      CHECK_INT(none, 0);

   cudaAtomicOperation bad[2] = { cudaAtomicOperationIntegerAdd, (cudaAtomicOperation)13 };
   CHECK_ERR(cudaDeviceGetHostAtomicCapabilities(caps, bad, 2, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetHostAtomicCapabilities(caps, all_ops, 0, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetHostAtomicCapabilities(NULL, all_ops, NOPS, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaDeviceGetHostAtomicCapabilities(caps, NULL, NOPS, 0), cudaErrorInvalidValue);
   int count = 0;
   NEED(cudaGetDeviceCount(&count));
   CHECK_ERR(cudaDeviceGetHostAtomicCapabilities(caps, all_ops, NOPS, count), cudaErrorInvalidDevice);
   CHECK_ERR(cudaDeviceGetP2PAtomicCapabilities(caps, all_ops, NOPS, 0, 0), cudaErrorInvalidDevice);
   CHECK_ERR(cudaDeviceGetP2PAtomicCapabilities(caps, all_ops, NOPS, 0, count), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
}

static void rdma_flush(void)
{
   int opts = attr(cudaDevAttrGPUDirectRDMAFlushWritesOptions);
   printf("  cudaDevAttrGPUDirectRDMAFlushWritesOptions = %#x\n", opts);
   cudaError_t want = (opts & cudaFlushGPUDirectRDMAWritesOptionHost) ? cudaSuccess : cudaErrorNotSupported;
   CHECK_ERR(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                cudaFlushGPUDirectRDMAWritesToOwner),
             want);
   cudaGetLastError();
}

static int calls;
static void on_budget(cudaAsyncNotificationInfo_t *, void *user, cudaAsyncCallbackHandle_t)
{
   (void)user;
   calls++;
}

static void notifications(void)
{
   cudaAsyncCallbackHandle_t h = NULL, h2 = NULL;
   cudaError_t e = cudaDeviceRegisterAsyncNotification(0, on_budget, &calls, &h);
   if (e == cudaErrorNotSupported) {
      printf("  SKIP: budget notifications not supported here (7 checks not run)\n");
      cudaGetLastError();
      return;
   }
   CHECK_ERR(e, cudaSuccess);
   CHECK(h != NULL);
   CHECK_CUDA(cudaDeviceRegisterAsyncNotification(0, on_budget, NULL, &h2));
   CHECK(h2 != NULL && h2 != h);
   CHECK_ERR(cudaDeviceRegisterAsyncNotification(0, NULL, NULL, &h2), cudaErrorInvalidValue);
   CHECK_CUDA(cudaDeviceUnregisterAsyncNotification(0, h));
   CHECK_CUDA(cudaDeviceUnregisterAsyncNotification(0, h2));
   /* not checked: removing h a second time (metalcuda answers
    * cudaErrorInvalidValue; NVIDIA's runtime on an H200 crashed in this
    * program, as it does for a callback of cudaLogs removed twice) */
   cudaGetLastError();
   CHECK_INT(calls, 0);   /* nothing went over any budget */
}

static void arrays(void)
{
   cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
   cudaArray_t a;
   NEED(cudaMallocArray(&a, &fd, 64, 32));
   cudaArray_t plane = NULL;
   CHECK_ERR(cudaArrayGetPlane(&plane, a, 0), cudaErrorInvalidValue);
   CHECK(plane == NULL);
   struct cudaArraySparseProperties sp;
   CHECK_ERR(cudaArrayGetSparseProperties(&sp, a), cudaErrorInvalidValue);
   struct cudaArrayMemoryRequirements mr;
   CHECK_ERR(cudaArrayGetMemoryRequirements(&mr, a, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_CUDA(cudaFreeArray(a));
}

int main()
{
   check_begin("device_odds");
   REQUIRE_CUDA(cudaFree(0));
   atomics();
   rdma_flush();
   notifications();
   arrays();
   return check_end();
}
