/*
 * launch_ex.c — cuLaunchKernelEx: a launch with attributes.
 *
 * Each attribute is one of three kinds here (cuda.h's CUlaunchAttributeID):
 * - hints that change no result (access policy window, synchronisation and
 *   cluster scheduling policies, priority, memory synchronisation domains,
 *   preferred cluster dimensions, shared memory carveout, NVLink
 *   scheduling) and programmatic stream serialisation (the launch is always
 *   serialised, which the attribute permits but does not require):
 *   accepted, checked where CUDA defines their values;
 * - events: a launch-completion or programmatic event is recorded on the
 *   stream after the kernel, which is when CUDA's trigger has happened at
 *   the latest; the event must be one CUDA accepts there (no timing, no
 *   blocking sync);
 * - what metalcuda does not do: thread block clusters larger than one
 *   block, cooperative launches, device-updatable kernel nodes (graphs
 *   only): CUDA_ERROR_NOT_SUPPORTED naming the attribute.
 */
#include "internal.h"

LOG_CHANNEL(launch);

/* Checks one attribute; *record: an event to record after the kernel. */
static CUresult check_attribute(const CUlaunchAttribute *a, CUevent *record, bool *coop)
{
   const CUlaunchAttributeValue *v = &a->value;
   switch (a->id) {
   case CU_LAUNCH_ATTRIBUTE_IGNORE:
   case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
   case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
   case CU_LAUNCH_ATTRIBUTE_PRIORITY:
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
   case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
   case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
   case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
      return v->programmaticStreamSerializationAllowed == 0 || v->programmaticStreamSerializationAllowed == 1
                ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
   case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
   case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT: {
      bool completion = a->id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
      CUevent e = completion ? v->launchCompletionEvent.event : v->programmaticEvent.event;
      core_event *ce = (core_event *)(void *)e;
      if (!core_check_event(ce))
         return CUDA_ERROR_INVALID_HANDLE;
      /* As on an H200 (driver 580, 2026-12-02): the event must be made
       * with CU_EVENT_DISABLE_TIMING, a completion event also without
       * CU_EVENT_BLOCKING_SYNC, else CUDA_ERROR_NOT_SUPPORTED; a completion
       * event's record flag CU_EVENT_RECORD_EXTERNAL gives
       * CUDA_ERROR_ILLEGAL_STATE. */
      unsigned refused = completion ? ce->flags != CORE_EVENT_DISABLE_TIMING
                                    : !(ce->flags & CORE_EVENT_DISABLE_TIMING);
      if (refused) {
         LOG_INFO("%s: the event's flags 0x%x are not accepted there (CU_EVENT_DISABLE_TIMING%s)",
                  completion ? "CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT" : "CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT",
                  ce->flags, completion ? " alone" : "");
         return CUDA_ERROR_NOT_SUPPORTED;
      }
      if (completion && v->launchCompletionEvent.flags == CU_EVENT_RECORD_EXTERNAL)
         return CUDA_ERROR_ILLEGAL_STATE;
      if (completion && v->launchCompletionEvent.flags != 0)
         return CUDA_ERROR_INVALID_VALUE;
      *record = e;
      return CUDA_SUCCESS;
   }
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
      if (v->clusterDim.x <= 1 && v->clusterDim.y <= 1 && v->clusterDim.z <= 1)
         return CUDA_SUCCESS;   /* clusters of one block: an ordinary launch */
      API_NOT_SUPPORTED("thread block clusters of more than one block (CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)");
   case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
      *coop = v->cooperative != 0;   /* cuLaunchCooperativeKernel's launch (src/core/launch.c) */
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
      API_NOT_SUPPORTED("device-updatable kernel nodes (CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE)");
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* ==== cuLaunchKernelEx (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
   API_ENTER("config=%p f=%p kernelParams=%p extra=%p", (const void *)config, (void *)f, (void *)kernelParams,
             (void *)extra);
   API_CHECK(config, CUDA_ERROR_INVALID_VALUE);
   LOG_TRACE("grid=(%u,%u,%u) block=(%u,%u,%u) sharedMemBytes=%u hStream=%p attrs=%p numAttrs=%u",
             config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX, config->blockDimY,
             config->blockDimZ, config->sharedMemBytes, (void *)config->hStream, (void *)config->attrs,
             config->numAttrs);
   API_NEED_INIT();
   API_CHECK(core_check_kernel(kernel_of(f)), CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(!config->numAttrs || config->attrs, CUDA_ERROR_INVALID_VALUE);
   CUevent record[8];
   unsigned nrecord = 0;
   bool coop = false;
   for (unsigned i = 0; i < config->numAttrs; i++) {
      CUevent e = NULL;
      CUresult r = check_attribute(&config->attrs[i], &e, &coop);
      if (r != CUDA_SUCCESS)
         return API_RETURN(r);
      if (e) {
         API_CHECK(nrecord < 8, CUDA_ERROR_INVALID_VALUE);
         record[nrecord++] = e;
      }
   }
   core_stream *s;
   CUresult r = drv_stream(config->hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   /* the launch itself is cuLaunchKernel's, with the stream resolved */
   if (coop) {
      API_CHECK(!extra, CUDA_ERROR_INVALID_VALUE);   /* cuLaunchCooperativeKernel takes no extra */
      r = cuLaunchCooperativeKernel(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
                                    config->blockDimY, config->blockDimZ, config->sharedMemBytes,
                                    (CUstream)(void *)s, kernelParams);
   } else {
      r = cuLaunchKernel(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX,
                         config->blockDimY, config->blockDimZ, config->sharedMemBytes, (CUstream)(void *)s,
                         kernelParams, extra);
   }
   for (unsigned i = 0; i < nrecord && r == CUDA_SUCCESS; i++)
      r = (CUresult)core_event_record((core_event *)(void *)record[i], s);
   return API_RETURN(r);
}

/* ==== cuLaunchKernelEx_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
   if (!config)
      return cuLaunchKernelEx(config, f, kernelParams, extra);
   CUlaunchConfig c = *config;
   c.hStream = drv_ptsz(c.hStream);
   return cuLaunchKernelEx(&c, f, kernelParams, extra);
}
