/*
 * internal.h — helpers shared by the driver API files: handle conversion
 * with cookie checks, and the "initialised / current context" preamble.
 */
#ifndef MC_API_DRIVER_INTERNAL_H
#define MC_API_DRIVER_INTERNAL_H

#include "../api.h"
#include "../../core/core.h"

static inline core_ctx *ctx_of(CUcontext c) { return (core_ctx *)(void *)c; }
static inline CUcontext ctx_handle(core_ctx *c) { return (CUcontext)(void *)c; }
static inline core_module *module_of(const void *h) { return (core_module *)(uintptr_t)h; }
static inline core_kernel *kernel_of(const void *h) { return (core_kernel *)(uintptr_t)h; }

/* The context a call acts on: the current one; CUDA_ERROR_INVALID_CONTEXT
 * if none. */
#define API_NEED_INIT() API_CHECK(core_is_initialized(), CUDA_ERROR_NOT_INITIALIZED)
#define API_NEED_CTX(c)                                                      \
   core_ctx *c = core_ctx_current();                                         \
   API_CHECK(core_is_initialized(), CUDA_ERROR_NOT_INITIALIZED);              \
   API_CHECK(core_check_ctx(c), core_ctx_destroyed(c) ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_ERROR_INVALID_CONTEXT)

/* The stream a handle names: NULL and CU_STREAM_LEGACY the current
 * context's legacy default stream, CU_STREAM_PER_THREAD the calling
 * thread's per-thread default stream (made on first use), anything else a
 * stream handle, CUDA_ERROR_INVALID_HANDLE unless it is a live stream.
 * The _ptsz/_ptds entry points pass drv_ptsz(h), which makes NULL the
 * per-thread stream, as NVIDIA's do. */
static inline CUresult drv_stream(CUstream h, core_stream **out)
{
   if (h != NULL && h != CU_STREAM_LEGACY && h != CU_STREAM_PER_THREAD) {
      core_stream *s = (core_stream *)(void *)h;
      if (!core_check_stream(s))
         return CUDA_ERROR_INVALID_HANDLE;
      *out = s;
      return CUDA_SUCCESS;
   }
   if (!core_is_initialized())
      return CUDA_ERROR_NOT_INITIALIZED;
   core_ctx *c = core_ctx_current();
   if (!core_check_ctx(c))
      return CUDA_ERROR_INVALID_CONTEXT;
   if (h == CU_STREAM_PER_THREAD)
      return (CUresult)core_stream_per_thread(c, out);
   *out = c->null_stream;
   return CUDA_SUCCESS;
}

/* Returns the error of a call stream capture forbids (src/core/capture.c). */
#define DRV_CAPTURE_CHECK(expr)                                                                          \
   do {                                                                                                   \
      int cr_ = (expr);                                                                                   \
      if (cr_ != CORE_SUCCESS)                                                                            \
         return API_RETURN((CUresult)cr_);                                                                \
   } while (0)

/* Every graph edge metalcuda makes is a default one: edge data, when
 * given, must say so (graph.c, graphnode.c). */
static inline bool drv_default_edges(const CUgraphEdgeData *d, size_t n)
{
   for (size_t i = 0; d && i < n; i++)
      if (d[i].type || d[i].from_port || d[i].to_port)
         return false;
   return true;
}

/* memcpy3d.c: the copy a CUDA_MEMCPY3D describes, checked (graph memcpy nodes). */
CUresult drv_copy3d_desc(core_ctx *c, const CUDA_MEMCPY3D *p, core_copy3d_desc *d);
/* The same with CUDA arrays resolved to the memory that holds them (batch.c). */
CUresult drv_copy3d_desc_arrays(core_ctx *c, const CUDA_MEMCPY3D *p, core_copy3d_desc *d);
/* hostmem.c: the checks cuMemPrefetchAsync makes on a managed range and a
 * location (none_ok: CU_MEM_LOCATION_TYPE_INVALID accepted). */
CUresult drv_um_range(core_ctx *c, CUdeviceptr p, size_t count);
CUresult drv_um_location(CUmemLocation loc, bool none_ok);
/* An array element format: MC_TEX_* kind and bytes per channel; an error
 * for none of CUDA's (INVALID_VALUE) or one not read here (NOT_SUPPORTED,
 * logged by name) (array.c). */
CUresult drv_array_format(CUarray_format f, unsigned channels, uint32_t *kind, uint32_t *bytes);
/* The texture geometries' limits, as an H200 has them: what array and
 * texture creation enforce and the device attributes report (device.c). */
#define DRV_TEX1D_WIDTH 131072
#define DRV_TEX2D_WIDTH 131072
#define DRV_TEX2D_HEIGHT 65536
#define DRV_TEX3D_EXTENT 16384
#define DRV_TEX_LAYERED_EXTENT 32768   /* maxTexture1DLayered/2DLayered width (and height) */
#define DRV_TEX_LAYERS 2048            /* and their layers */
#define DRV_TEX2D_GATHER 32768         /* maxTexture2DGather */
#define DRV_TEX_MIPMAP_EXTENT 32768    /* maxTexture1DMipmap, maxTexture2DMipmap (65536 is refused on an H200) */
#define DRV_TEX_CUBE_WIDTH 32768       /* maxTextureCubemap, maxTextureCubemapLayered width */
#define DRV_TEX_CUBE_LAYERS 2046       /* maxTextureCubemapLayered layers (faces: six per cube) */
#define DRV_TEX2D_LINEAR_WIDTH 131072
#define DRV_TEX2D_LINEAR_HEIGHT 65000
#define DRV_TEX2D_LINEAR_PITCH 2097120

static inline CUstream drv_ptsz(CUstream h) { return h ? h : CU_STREAM_PER_THREAD; }

/* The _ptds synchronous copies and fills: the async form on
 * CU_STREAM_PER_THREAD (r), then, as a synchronous call, the wait for it:
 * they order against the thread's own stream, not against every blocking
 * stream as the legacy forms do. */
static inline CUresult drv_ptds_sync(CUresult r)
{
   return r == CUDA_SUCCESS ? cuStreamSynchronize(CU_STREAM_PER_THREAD) : r;
}

/* The current context and the stream handle h resolved (drv_stream), for
 * the work a call queues: CUDA_ERROR_NOT_INITIALIZED, _INVALID_CONTEXT or
 * _INVALID_HANDLE otherwise. */
static inline CUresult drv_ctx_stream(CUstream h, core_ctx **c, core_stream **s)
{
   if (!core_is_initialized())
      return CUDA_ERROR_NOT_INITIALIZED;
   *c = core_ctx_current();
   if (!core_check_ctx(*c))
      return CUDA_ERROR_INVALID_CONTEXT;
   return drv_stream(h, s);
}

/* One stream memory operation checked (NVIDIA's codes; CUDA_ERROR_NOT_SUPPORTED
 * for remote-write flushes) and in core's form (memop.c). */
CUresult drv_memop_decode(const CUstreamBatchMemOpParams *p, core_memop *m);

#endif
