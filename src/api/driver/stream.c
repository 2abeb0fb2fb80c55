/*
 * stream.c — streams: creation, ordering queries, synchronisation, host
 * functions.  Handles are resolved by drv_stream (internal.h): NULL and
 * CU_STREAM_LEGACY the legacy default stream, CU_STREAM_PER_THREAD the
 * thread's own; the _ptsz entry points make NULL the per-thread stream.
 */
#include "internal.h"

LOG_CHANNEL(stream);

/* Stream priorities: the Metal queues have none, so the device reports no
 * priority support (CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED is 0)
 * and the range is [0, 0], which CUDA documents for such devices; every
 * requested priority is clamped into it, as CUDA clamps. */
enum { LEAST_PRIORITY = 0, GREATEST_PRIORITY = 0 };

static int clamp_priority(int p)
{
   return p > LEAST_PRIORITY ? LEAST_PRIORITY : p < GREATEST_PRIORITY ? GREATEST_PRIORITY : p;
}

/* ==== cuCtxGetStreamPriorityRange (libcuda.@) ==== */
CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
   API_ENTER("leastPriority=%p greatestPriority=%p", (void *)leastPriority, (void *)greatestPriority);
   API_NEED_CTX(c);
   (void)c;
   if (leastPriority)
      *leastPriority = LEAST_PRIORITY;
   if (greatestPriority)
      *greatestPriority = GREATEST_PRIORITY;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuStreamCreateWithPriority (libcuda.@) ==== */
CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
   API_ENTER("phStream=%p flags=%#x priority=%d", (void *)phStream, flags, priority);
   API_CHECK(phStream, CUDA_ERROR_INVALID_VALUE);
   API_CHECK((flags & ~(unsigned)CU_STREAM_NON_BLOCKING) == 0, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   core_stream *s;
   int r = core_stream_create(c, flags & CU_STREAM_NON_BLOCKING ? CORE_STREAM_NON_BLOCKING : 0,
                              clamp_priority(priority), &s);
   if (r == CORE_SUCCESS)
      *phStream = (CUstream)(void *)s;
   return API_RETURN((CUresult)r);
}

/* ==== cuStreamCreate (libcuda.@) ==== */
CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
   return cuStreamCreateWithPriority(phStream, Flags, 0);
}

/* A real stream handle for destruction: the special handles name streams
 * no program may destroy. */
static CUresult destroyable(CUstream h, core_stream **out)
{
   if ((uintptr_t)h <= (uintptr_t)CU_STREAM_PER_THREAD)
      return CUDA_ERROR_INVALID_HANDLE;
   return drv_stream(h, out);
}

/* ==== cuStreamDestroy_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamDestroy_v2(CUstream hStream)
{
   API_ENTER("hStream=%p", (void *)hStream);
   API_NEED_INIT();
   core_stream *s;
   CUresult r = destroyable(hStream, &s);
   if (r == CUDA_SUCCESS)
      core_stream_destroy(s);
   return API_RETURN(r);
}

/* ==== cuStreamDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }

/* ==== cuStreamGetPriority (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority)
{
   API_ENTER("hStream=%p priority=%p", (void *)hStream, (void *)priority);
   API_CHECK(priority, CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r == CUDA_SUCCESS)
      *priority = s->priority;
   return API_RETURN(r);
}

/* ==== cuStreamGetPriority_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetPriority_ptsz(CUstream hStream, int *priority)
{
   return cuStreamGetPriority(drv_ptsz(hStream), priority);
}

/* ==== cuStreamGetFlags (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
   API_ENTER("hStream=%p flags=%p", (void *)hStream, (void *)flags);
   API_CHECK(flags, CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r == CUDA_SUCCESS)
      *flags = s->flags & CORE_STREAM_NON_BLOCKING ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT;
   return API_RETURN(r);
}

/* ==== cuStreamGetFlags_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags)
{
   return cuStreamGetFlags(drv_ptsz(hStream), flags);
}

/* ==== cuStreamSynchronize (libcuda.@) ==== */
CUresult CUDAAPI cuStreamSynchronize(CUstream hStream)
{
   API_ENTER("hStream=%p", (void *)hStream);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   DRV_CAPTURE_CHECK(core_capture_stream_busy(s));
   return API_RETURN((CUresult)core_stream_synchronize(s));
}

/* ==== cuStreamSynchronize_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream hStream) { return cuStreamSynchronize(drv_ptsz(hStream)); }

/* ==== cuStreamQuery (libcuda.@) ==== */
CUresult CUDAAPI cuStreamQuery(CUstream hStream)
{
   API_ENTER("hStream=%p", (void *)hStream);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   DRV_CAPTURE_CHECK(core_capture_stream_busy(s));
   return API_RETURN((CUresult)core_stream_query(s));
}

/* ==== cuStreamQuery_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamQuery_ptsz(CUstream hStream) { return cuStreamQuery(drv_ptsz(hStream)); }

/* ==== cuStreamWaitEvent (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
   API_ENTER("hStream=%p hEvent=%p Flags=%#x", (void *)hStream, (void *)hEvent, Flags);
   core_event *e = (core_event *)(void *)hEvent;
   API_CHECK(core_check_event(e), CUDA_ERROR_INVALID_HANDLE);
   /* CU_EVENT_WAIT_EXTERNAL is for stream capture (an event wait node):
    * outside capture NVIDIA answers CUDA_ERROR_ILLEGAL_STATE (checked on
    * an H200), any other flag CUDA_ERROR_INVALID_VALUE */
   API_CHECK((Flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL) == 0, CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   if (Flags == CU_EVENT_WAIT_EXTERNAL) {
      API_CHECK(s->cap, CUDA_ERROR_ILLEGAL_STATE);
      core_node_params p = { .type = CORE_NODE_WAIT_EVENT, .event = e };
      return API_RETURN((CUresult)core_capture_add(s, &p));
   }
   return API_RETURN((CUresult)core_stream_wait_event(s, e));
}

/* ==== cuStreamWaitEvent_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
   return cuStreamWaitEvent(drv_ptsz(hStream), hEvent, Flags);
}

/* ---- host functions ---- */

/* A host function (fn) or a stream callback (cb), as the program gave it. */
typedef struct host_call {
   CUhostFn fn;
   CUstreamCallback cb;
   CUstream stream;           /* as the program passed it, for cb */
   void *data;
} host_call;

static void run_host_call(void *arg, int status)
{
   host_call h = *(host_call *)arg;
   free(arg);
   if (h.cb)
      h.cb(h.stream, (CUresult)status, h.data);
   else
      h.fn(h.data);   /* a host function runs whatever the stream's status */
}

/* Queues the call on the stream hStream names. */
static CUresult queue_host_call(CUstream hStream, host_call call)
{
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (s->cap) {   /* a host node of the capture; CUDA captures no stream callbacks */
      if (call.cb)
         return (CUresult)core_capture_fail(s, CORE_ERROR_STREAM_CAPTURE_UNSUPPORTED);
      core_node_params p = { .type = CORE_NODE_HOST };
      p.host.fn = call.fn;
      p.host.data = call.data;
      return (CUresult)core_capture_add(s, &p);
   }
   host_call *h = mc_malloc(sizeof(*h));
   if (!h)
      return CUDA_ERROR_OUT_OF_MEMORY;
   *h = call;
   r = (CUresult)core_stream_host_fn(s, run_host_call, h);
   if (r != CUDA_SUCCESS)
      free(h);
   return r;
}

/* ==== cuLaunchHostFunc (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
   API_ENTER("hStream=%p fn=%p userData=%p", (void *)hStream, (void *)(uintptr_t)fn, userData);
   API_CHECK(fn, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(queue_host_call(hStream, (host_call){ .fn = fn, .data = userData }));
}

/* ==== cuLaunchHostFunc_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
   return cuLaunchHostFunc(drv_ptsz(hStream), fn, userData);
}

/* ==== cuStreamAddCallback (libcuda.@) ==== */
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
   API_ENTER("hStream=%p callback=%p userData=%p flags=%#x", (void *)hStream, (void *)(uintptr_t)callback, userData,
             flags);
   API_CHECK(callback, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(flags == 0, CUDA_ERROR_INVALID_VALUE);   /* "reserved for future use, must be 0" */
   return API_RETURN(
      queue_host_call(hStream, (host_call){ .cb = callback, .stream = hStream, .data = userData }));
}

/* ==== cuStreamAddCallback_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData,
                                          unsigned int flags)
{
   return cuStreamAddCallback(drv_ptsz(hStream), callback, userData, flags);
}

/* ---- queries: id, device, context ---- */

/* The stream a query is about; CUDA_ERROR_INVALID_VALUE if the query has
 * nowhere to write its answer. */
static CUresult query_stream(CUstream hStream, const void *out, core_stream **s)
{
   return out ? drv_stream(hStream, s) : CUDA_ERROR_INVALID_VALUE;
}

/* ==== cuStreamGetId (libcuda.@) ==== ids are unique for the life of the
 * process (never reused after a destruction), special streams included */
CUresult CUDAAPI cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
   API_ENTER("hStream=%p streamId=%p", (void *)hStream, (void *)streamId);
   core_stream *s;
   CUresult r = query_stream(hStream, streamId, &s);
   if (r == CUDA_SUCCESS)
      *streamId = s->id;
   return API_RETURN(r);
}

/* ==== cuStreamGetId_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetId_ptsz(CUstream hStream, unsigned long long *streamId)
{
   return cuStreamGetId(drv_ptsz(hStream), streamId);
}

/* ==== cuStreamGetDevice (libcuda.@) ==== the device of the stream's context */
CUresult CUDAAPI cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
   API_ENTER("hStream=%p device=%p", (void *)hStream, (void *)device);
   core_stream *s;
   CUresult r = query_stream(hStream, device, &s);
   if (r == CUDA_SUCCESS)
      *device = core_device_ordinal(s->ctx->dev);
   return API_RETURN(r);
}

/* ==== cuStreamGetDevice_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetDevice_ptsz(CUstream hStream, CUdevice *device)
{
   return cuStreamGetDevice(drv_ptsz(hStream), device);
}

/* ==== cuStreamGetCtx_v2 (libcuda.@) ==== the context current when the
 * stream was made; for the special handles the current one (drv_stream
 * answers CUDA_ERROR_INVALID_CONTEXT without one).  Green contexts are not
 * implemented (cuGreenCtxCreate is a stub), so every stream belongs to a
 * regular context: *pGreenCtx is NULL, as CUDA answers for such streams. */
CUresult CUDAAPI cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
   API_ENTER("hStream=%p pCtx=%p pGreenCtx=%p", (void *)hStream, (void *)pCtx, (void *)pGreenCtx);
   core_stream *s;
   CUresult r = query_stream(hStream, pCtx && pGreenCtx ? pCtx : NULL, &s);
   if (r == CUDA_SUCCESS) {
      *pCtx = ctx_handle(s->ctx);
      *pGreenCtx = NULL;
   }
   return API_RETURN(r);
}

/* ==== cuStreamGetCtx_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
   return cuStreamGetCtx_v2(drv_ptsz(hStream), pCtx, pGreenCtx);
}

/* ==== cuStreamGetCtx (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
   CUgreenCtx green;
   return cuStreamGetCtx_v2(hStream, pctx, &green);
}

/* ==== cuStreamGetCtx_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetCtx_ptsz(CUstream hStream, CUcontext *pctx)
{
   return cuStreamGetCtx(drv_ptsz(hStream), pctx);
}

/* ==== cuStreamAttachMemAsync (libcuda.@) ==== managed memory is the
 * arena, coherent for the host and every stream at all times (unified
 * memory): attaching it to a stream, the host or everything changes no
 * access, so after CUDA's checks (managed memory, the whole allocation or
 * 0, one flag) there is nothing to queue */
CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
   API_ENTER("hStream=%p dptr=%#llx length=%zu flags=%#x", (void *)hStream, (unsigned long long)dptr, length, flags);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   API_CHECK(flags == CU_MEM_ATTACH_GLOBAL || flags == CU_MEM_ATTACH_HOST || flags == CU_MEM_ATTACH_SINGLE,
             CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!(flags == CU_MEM_ATTACH_SINGLE && s->is_null), CUDA_ERROR_INVALID_VALUE);
   uint64_t base, size;
   uint32_t kind;
   API_CHECK(core_mem_query(s->ctx->dev, dptr, 1, &base, &size, &kind, NULL) && kind == CORE_MEM_MANAGED,
             CUDA_ERROR_INVALID_VALUE);
   API_CHECK(length == 0 || (dptr == base && length == size), CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuStreamAttachMemAsync_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
   return cuStreamAttachMemAsync(drv_ptsz(hStream), dptr, length, flags);
}

/* ---- stream attributes: the launch attributes a stream may carry.  All
 * are hints here (no L2 persistence, one priority level, one memory
 * synchronisation domain): kept and read back as set; the priority is the
 * stream's own (clamped to the one level). ---- */

static bool stream_attr_ok(CUstreamAttrID attr)
{
   return attr == CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW || attr == CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY ||
          attr == CU_LAUNCH_ATTRIBUTE_PRIORITY || attr == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP ||
          attr == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN;
}

/* ==== cuStreamGetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
   API_ENTER("hStream=%p attr=%d value_out=%p", (void *)hStream, (int)attr, (void *)value_out);
   API_CHECK(value_out && stream_attr_ok(attr), CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   core_stream_get_attr(s, (int)attr, value_out);
   if (attr == CU_LAUNCH_ATTRIBUTE_PRIORITY)
      value_out->priority = s->priority;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuStreamGetAttribute_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
   return cuStreamGetAttribute(drv_ptsz(hStream), attr, value_out);
}

/* ==== cuStreamSetAttribute (libcuda.@) ==== */
CUresult CUDAAPI cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
   API_ENTER("hStream=%p attr=%d value=%p", (void *)hStream, (int)attr, (const void *)value);
   API_CHECK(value && stream_attr_ok(attr), CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   if (attr == CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW) {
      const CUaccessPolicyWindow *w = &value->accessPolicyWindow;
      API_CHECK(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f, CUDA_ERROR_INVALID_VALUE);
   }
   if (attr == CU_LAUNCH_ATTRIBUTE_PRIORITY)   /* one level: every priority is clamped to it */
      return API_RETURN(CUDA_SUCCESS);
   return API_RETURN((CUresult)core_stream_set_attr(s, (int)attr, value));
}

/* ==== cuStreamSetAttribute_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
   return cuStreamSetAttribute(drv_ptsz(hStream), attr, value);
}

/* ==== cuStreamCopyAttributes (libcuda.@) ==== */
CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src)
{
   API_ENTER("dst=%p src=%p", (void *)dst, (void *)src);
   core_stream *d, *s;
   CUresult r = drv_stream(dst, &d);
   if (r == CUDA_SUCCESS)
      r = drv_stream(src, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   uint8_t v[CORE_STREAM_ATTR_BYTES];
   for (int id = 0; id < CORE_STREAM_ATTRS && r == CUDA_SUCCESS; id++)
      if (stream_attr_ok((CUstreamAttrID)id) && id != CU_LAUNCH_ATTRIBUTE_PRIORITY) {
         core_stream_get_attr(s, id, v);
         r = (CUresult)core_stream_set_attr(d, id, v);
      }
   return API_RETURN(r);
}

/* ==== cuStreamCopyAttributes_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src)
{
   return cuStreamCopyAttributes(drv_ptsz(dst), drv_ptsz(src));
}
