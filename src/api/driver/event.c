/*
 * event.c — events: record, query, synchronise, elapsed time.
 */
#include "internal.h"

LOG_CHANNEL(event);

static core_event *event_of(CUevent h) { return (core_event *)(void *)h; }

/* ==== cuEventCreate (libcuda.@) ==== */
CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
   API_ENTER("phEvent=%p Flags=%#x", (void *)phEvent, Flags);
   API_CHECK(phEvent, CUDA_ERROR_INVALID_VALUE);
   const unsigned known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
   API_CHECK((Flags & ~known) == 0, CUDA_ERROR_INVALID_VALUE);
   /* CUDA: an interprocess event must also disable timing */
   API_CHECK(!(Flags & CU_EVENT_INTERPROCESS) || (Flags & CU_EVENT_DISABLE_TIMING), CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   if (Flags & CU_EVENT_INTERPROCESS)
      API_NOT_SUPPORTED("interprocess events (CU_EVENT_INTERPROCESS: no IPC between processes)");
   /* CU_EVENT_BLOCKING_SYNC: waits already block on a condition variable;
    * it is kept because launch attributes refuse such events */
   core_event *e;
   unsigned cf = (Flags & CU_EVENT_DISABLE_TIMING ? CORE_EVENT_DISABLE_TIMING : 0) |
                 (Flags & CU_EVENT_BLOCKING_SYNC ? CORE_EVENT_BLOCKING_SYNC : 0);
   int r = core_event_create(c, cf, &e);
   if (r == CORE_SUCCESS)
      *phEvent = (CUevent)(void *)e;
   return API_RETURN((CUresult)r);
}

/* ==== cuEventDestroy_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuEventDestroy_v2(CUevent hEvent)
{
   API_ENTER("hEvent=%p", (void *)hEvent);
   API_NEED_INIT();
   core_event *e = event_of(hEvent);
   API_CHECK(core_check_event(e), CUDA_ERROR_INVALID_HANDLE);
   core_event_destroy(e);
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuEventDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }

/* ==== cuEventRecordWithFlags (libcuda.@) ==== */
CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
   API_ENTER("hEvent=%p hStream=%p flags=%#x", (void *)hEvent, (void *)hStream, flags);
   API_NEED_INIT();
   core_event *e = event_of(hEvent);
   API_CHECK(core_check_event(e), CUDA_ERROR_INVALID_HANDLE);
   /* CU_EVENT_RECORD_EXTERNAL is for stream capture (an event record
    * node): outside capture NVIDIA answers CUDA_ERROR_ILLEGAL_STATE
    * (checked on an H200), any other flag CUDA_ERROR_INVALID_VALUE */
   API_CHECK((flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL) == 0, CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   if (flags == CU_EVENT_RECORD_EXTERNAL) {
      API_CHECK(s->cap, CUDA_ERROR_ILLEGAL_STATE);
      core_node_params p = { .type = CORE_NODE_EVENT_RECORD, .event = e };
      return API_RETURN((CUresult)core_capture_add(s, &p));
   }
   return API_RETURN((CUresult)core_event_record(e, s));
}

/* ==== cuEventRecordWithFlags_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags)
{
   return cuEventRecordWithFlags(hEvent, drv_ptsz(hStream), flags);
}

/* ==== cuEventRecord (libcuda.@) ==== */
CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream)
{
   return cuEventRecordWithFlags(hEvent, hStream, CU_EVENT_RECORD_DEFAULT);
}

/* ==== cuEventRecord_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
   return cuEventRecordWithFlags(hEvent, drv_ptsz(hStream), CU_EVENT_RECORD_DEFAULT);
}

/* ==== cuEventQuery (libcuda.@) ==== */
CUresult CUDAAPI cuEventQuery(CUevent hEvent)
{
   API_ENTER("hEvent=%p", (void *)hEvent);
   API_NEED_INIT();
   core_event *e = event_of(hEvent);
   API_CHECK(core_check_event(e), CUDA_ERROR_INVALID_HANDLE);
   DRV_CAPTURE_CHECK(core_capture_event_check(e));
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   return API_RETURN((CUresult)core_event_query(e));
}

/* ==== cuEventSynchronize (libcuda.@) ==== */
CUresult CUDAAPI cuEventSynchronize(CUevent hEvent)
{
   API_ENTER("hEvent=%p", (void *)hEvent);
   API_NEED_INIT();
   core_event *e = event_of(hEvent);
   API_CHECK(core_check_event(e), CUDA_ERROR_INVALID_HANDLE);
   DRV_CAPTURE_CHECK(core_capture_event_check(e));
   DRV_CAPTURE_CHECK(core_capture_unsafe());
   return API_RETURN((CUresult)core_event_synchronize(e));
}

/* ==== cuEventElapsedTime_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
   API_ENTER("pMilliseconds=%p hStart=%p hEnd=%p", (void *)pMilliseconds, (void *)hStart, (void *)hEnd);
   API_CHECK(pMilliseconds, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   core_event *a = event_of(hStart), *b = event_of(hEnd);
   API_CHECK(core_check_event(a) && core_check_event(b), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_event_elapsed(a, b, pMilliseconds));
}

/* ==== cuEventElapsedTime (libcuda.@) ==== */
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
   return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}
