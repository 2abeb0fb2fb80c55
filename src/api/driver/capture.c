/*
 * capture.c — stream capture: cuStreamBeginCapture, cuStreamEndCapture,
 * the capture queries and cuThreadExchangeStreamCaptureMode.  The rules
 * (what is refused during a capture, with which error) are
 * src/core/capture.c's.
 */
#include "internal.h"

LOG_CHANNEL(stream);

static inline core_graph *graph_of(CUgraph g) { return (core_graph *)(void *)g; }

/* ==== cuStreamBeginCapture_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
   API_ENTER("hStream=%p mode=%d", (void *)hStream, (int)mode);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   return API_RETURN((CUresult)core_capture_begin(s, (int)mode, NULL));
}

/* ==== cuStreamBeginCapture_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
   return cuStreamBeginCapture_v2(drv_ptsz(hStream), mode);
}

/* ==== cuStreamBeginCapture (libcuda.@) ==== CUDA 10.0's form: global mode */
CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream)
{
   return cuStreamBeginCapture_v2(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

/* ==== cuStreamBeginCapture_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBeginCapture_ptsz(CUstream hStream)
{
   return cuStreamBeginCapture_v2(drv_ptsz(hStream), CU_STREAM_CAPTURE_MODE_GLOBAL);
}

/* ==== cuStreamBeginCaptureToGraph (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                             const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                             CUstreamCaptureMode mode)
{
   API_ENTER("hStream=%p hGraph=%p dependencies=%p dependencyData=%p numDependencies=%zu mode=%d",
             (void *)hStream, (void *)hGraph, (const void *)dependencies, (const void *)dependencyData,
             numDependencies, (int)mode);
   API_CHECK(core_check_graph(graph_of(hGraph)), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!numDependencies || dependencies, CUDA_ERROR_INVALID_VALUE);
   for (size_t i = 0; dependencyData && i < numDependencies; i++)   /* only default edges exist here */
      API_CHECK(!dependencyData[i].type && !dependencyData[i].from_port && !dependencyData[i].to_port,
                CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   r = (CUresult)core_capture_begin(s, (int)mode, graph_of(hGraph));
   if (r == CUDA_SUCCESS && numDependencies) {
      r = (CUresult)core_capture_update_deps(s, (core_graph_node *const *)(const void *)dependencies,
                                             numDependencies, true);
      if (r != CUDA_SUCCESS) {
         core_graph *g;
         core_capture_end(s, &g);
      }
   }
   return API_RETURN(r);
}

/* ==== cuStreamBeginCaptureToGraph_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                                  const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                  CUstreamCaptureMode mode)
{
   return cuStreamBeginCaptureToGraph(drv_ptsz(hStream), hGraph, dependencies, dependencyData, numDependencies,
                                      mode);
}

/* ==== cuStreamEndCapture (libcuda.@) ==== */
CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
   API_ENTER("hStream=%p phGraph=%p", (void *)hStream, (void *)phGraph);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   /* the graph a capture made must be handed back; one into the program's
    * own graph need not be (CUDA samples' graphConditionalNodes passes NULL) */
   API_CHECK(phGraph || core_capture_to_user_graph(s), CUDA_ERROR_INVALID_VALUE);
   core_graph *g;
   r = (CUresult)core_capture_end(s, &g);
   if (phGraph)
      *phGraph = (CUgraph)(void *)g;
   return API_RETURN(r);
}

/* ==== cuStreamEndCapture_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
   return cuStreamEndCapture(drv_ptsz(hStream), phGraph);
}

/* ==== cuThreadExchangeStreamCaptureMode (libcuda.@) ==== */
CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
   API_ENTER("mode=%p", (void *)mode);
   API_CHECK(mode, CUDA_ERROR_INVALID_VALUE);
   int m = (int)*mode;
   CUresult r = (CUresult)core_capture_exchange_mode(&m);
   if (r == CUDA_SUCCESS)
      *mode = (CUstreamCaptureMode)m;
   return API_RETURN(r);
}

/* ==== cuStreamUpdateCaptureDependencies_v2 (libcuda.@) ==== flags:
 * CU_STREAM_ADD_CAPTURE_DEPENDENCIES (0) or CU_STREAM_SET_CAPTURE_DEPENDENCIES (1) */
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode *dependencies,
                                                      const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                      unsigned int flags)
{
   API_ENTER("hStream=%p dependencies=%p dependencyData=%p numDependencies=%zu flags=%#x", (void *)hStream,
             (void *)dependencies, (const void *)dependencyData, numDependencies, flags);
   API_CHECK(flags <= 1, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(!numDependencies || dependencies, CUDA_ERROR_INVALID_VALUE);
   for (size_t i = 0; dependencyData && i < numDependencies; i++)
      API_CHECK(!dependencyData[i].type && !dependencyData[i].from_port && !dependencyData[i].to_port,
                CUDA_ERROR_INVALID_VALUE);
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   return API_RETURN((CUresult)core_capture_update_deps(s, (core_graph_node *const *)(void *)dependencies,
                                                        numDependencies, flags == 1));
}

/* ==== cuStreamUpdateCaptureDependencies_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                           const CUgraphEdgeData *dependencyData,
                                                           size_t numDependencies, unsigned int flags)
{
   return cuStreamUpdateCaptureDependencies_v2(drv_ptsz(hStream), dependencies, dependencyData, numDependencies,
                                               flags);
}

/* ==== cuStreamUpdateCaptureDependencies (libcuda.@) ==== */
CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                                   size_t numDependencies, unsigned int flags)
{
   return cuStreamUpdateCaptureDependencies_v2(hStream, dependencies, NULL, numDependencies, flags);
}

/* ==== cuStreamUpdateCaptureDependencies_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                                        size_t numDependencies, unsigned int flags)
{
   return cuStreamUpdateCaptureDependencies_v2(drv_ptsz(hStream), dependencies, NULL, numDependencies, flags);
}

/* ---- queries ---- */

/* The capture status of the stream hStream names, and what the capture
 * has so far; the legacy stream while a blocking stream captures is
 * CUDA_ERROR_STREAM_CAPTURE_IMPLICIT (nothing invalidated). */
static CUresult capture_status(CUstream hStream, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
                               const CUgraphNode **deps, size_t *ndeps)
{
   core_stream *s;
   CUresult r = drv_stream(hStream, &s);
   if (r != CUDA_SUCCESS)
      return r;
   if (s->is_null && (r = (CUresult)core_capture_legacy_query(s->ctx)) != CUDA_SUCCESS)
      return r;
   core_graph *g = NULL;
   core_graph_node *const *d = NULL;
   *status = (CUstreamCaptureStatus)core_capture_info(s, id, &g, &d, ndeps);
   if (*status == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
      if (graph)
         *graph = (CUgraph)(void *)g;
      if (deps)
         *deps = (const CUgraphNode *)(const void *)d;
   }
   return CUDA_SUCCESS;
}

/* ==== cuStreamIsCapturing (libcuda.@) ==== */
CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
   API_ENTER("hStream=%p captureStatus=%p", (void *)hStream, (void *)captureStatus);
   API_CHECK(captureStatus, CUDA_ERROR_INVALID_VALUE);
   return API_RETURN(capture_status(hStream, captureStatus, NULL, NULL, NULL, NULL));
}

/* ==== cuStreamIsCapturing_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
   return cuStreamIsCapturing(drv_ptsz(hStream), captureStatus);
}

/* ==== cuStreamGetCaptureInfo_v3 (libcuda.@) ==== CUDA 12.3's form, which
 * cuda.h 13 names cuStreamGetCaptureInfo.  "If edgeData_out is non-NULL
 * then dependencies_out must be as well" is not checked outside a capture
 * (an H200 answers CUDA_SUCCESS).  Every edge here is a default one: the
 * edge data are zeros. */
CUresult CUDAAPI cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                           cuuint64_t *id_out, CUgraph *graph_out,
                                           const CUgraphNode **dependencies_out,
                                           const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
   API_ENTER("hStream=%p captureStatus_out=%p id_out=%p graph_out=%p dependencies_out=%p edgeData_out=%p "
             "numDependencies_out=%p",
             (void *)hStream, (void *)captureStatus_out, (void *)id_out, (void *)graph_out,
             (void *)dependencies_out, (void *)edgeData_out, (void *)numDependencies_out);
   API_CHECK(captureStatus_out, CUDA_ERROR_INVALID_VALUE);
   size_t n = 0;
   CUresult r = capture_status(hStream, captureStatus_out, id_out, graph_out, dependencies_out, &n);
   if (r == CUDA_SUCCESS && *captureStatus_out == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
      API_CHECK(!edgeData_out || dependencies_out, CUDA_ERROR_INVALID_VALUE);
      if (numDependencies_out)
         *numDependencies_out = n;
      if (edgeData_out) {
         static const CUgraphEdgeData zeros[64];
         /* NULL means "all default", which CUDA allows for edge data */
         *edgeData_out = n <= 64 ? zeros : NULL;
      }
   }
   return API_RETURN(r);
}

/* ==== cuStreamGetCaptureInfo_v3_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                cuuint64_t *id_out, CUgraph *graph_out,
                                                const CUgraphNode **dependencies_out,
                                                const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
   return cuStreamGetCaptureInfo_v3(drv_ptsz(hStream), captureStatus_out, id_out, graph_out, dependencies_out,
                                    edgeData_out, numDependencies_out);
}

/* ==== cuStreamGetCaptureInfo_v2 (libcuda.@) ==== CUDA 11.3's form: no edge data */
CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                           cuuint64_t *id_out, CUgraph *graph_out,
                                           const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
   return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                                    numDependencies_out);
}

/* ==== cuStreamGetCaptureInfo_v2_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                cuuint64_t *id_out, CUgraph *graph_out,
                                                const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
   return cuStreamGetCaptureInfo_v3(drv_ptsz(hStream), captureStatus_out, id_out, graph_out, dependencies_out,
                                    NULL, numDependencies_out);
}

/* ==== cuStreamGetCaptureInfo (libcuda.@) ==== CUDA 10.1's form: status and id */
CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out)
{
   return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}

/* ==== cuStreamGetCaptureInfo_ptsz (libcuda.@) ==== */
CUresult CUDAAPI cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                             cuuint64_t *id_out)
{
   return cuStreamGetCaptureInfo_v3(drv_ptsz(hStream), captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}
