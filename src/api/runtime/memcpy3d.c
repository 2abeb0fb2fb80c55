/*
 * memcpy3d.c — pitched allocations and 2-D/3-D copies and fills:
 * cudaMallocPitch, cudaMalloc3D, cudaMemcpy2D/3D, cudaMemset2D/3D, and
 * their async and per-thread forms, through cuMemAllocPitch, cuMemcpy2D/3D
 * and cuMemsetD2D8.  A 3-D copy may name CUDA arrays (cudaArray_t: the
 * driver's CU_MEMORYTYPE_ARRAY, src/core/array.c's layout).
 */
#include "internal.h"

LOG_CHANNEL(memory);

/* The element size cuMemAllocPitch is asked to align for (the largest it
 * accepts, so any element type fits). */
#define PITCH_ELEMENT 16u

/* ==== cudaMallocPitch (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
   RT_ENTER("devPtr=%p pitch=%p width=%zu height=%zu", (void *)devPtr, (void *)pitch, width, height);
   RT_CHECK(devPtr && pitch, cudaErrorInvalidValue);
   RT_NEED_CTX();
   if (width == 0 || height == 0) {   /* like cudaMalloc of 0 bytes */
      *devPtr = NULL;
      *pitch = 0;
      return RT_RETURN(cudaSuccess);
   }
   CUdeviceptr p;
   size_t pp;
   CUresult r = cuMemAllocPitch_v2(&p, &pp, width, height, PITCH_ELEMENT);
   if (r == CUDA_SUCCESS) {
      *devPtr = (void *)(uintptr_t)p;
      *pitch = pp;
   }
   return RT_RETURN_CU(r);
}

/* ==== cudaMalloc3D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
   RT_ENTER("pitchedDevPtr=%p extent={%zu,%zu,%zu}", (void *)pitchedDevPtr, extent.width, extent.height,
            extent.depth);
   RT_CHECK(pitchedDevPtr, cudaErrorInvalidValue);
   RT_NEED_CTX();
   struct cudaPitchedPtr out = { NULL, 0, extent.width, extent.height };
   if (extent.width && extent.height && extent.depth) {
      RT_CHECK(extent.height <= SIZE_MAX / extent.depth, cudaErrorMemoryAllocation);
      CUdeviceptr p;
      CUresult r = cuMemAllocPitch_v2(&p, &out.pitch, extent.width, extent.height * extent.depth, PITCH_ELEMENT);
      if (r != CUDA_SUCCESS)
         return RT_RETURN_CU(r);
      out.ptr = (void *)(uintptr_t)p;
   }
   *pitchedDevPtr = out;
   return RT_RETURN(cudaSuccess);
}

/* The driver memory types of a copy's source and destination for `kind`
 * (false for an unknown kind). */
bool rt_copy_kinds(enum cudaMemcpyKind kind, CUmemorytype *src, CUmemorytype *dst)
{
   switch (kind) {
   case cudaMemcpyHostToHost: *src = CU_MEMORYTYPE_HOST; *dst = CU_MEMORYTYPE_HOST; return true;
   case cudaMemcpyHostToDevice: *src = CU_MEMORYTYPE_HOST; *dst = CU_MEMORYTYPE_DEVICE; return true;
   case cudaMemcpyDeviceToHost: *src = CU_MEMORYTYPE_DEVICE; *dst = CU_MEMORYTYPE_HOST; return true;
   case cudaMemcpyDeviceToDevice: *src = CU_MEMORYTYPE_DEVICE; *dst = CU_MEMORYTYPE_DEVICE; return true;
   case cudaMemcpyDefault: *src = CU_MEMORYTYPE_UNIFIED; *dst = CU_MEMORYTYPE_UNIFIED; return true;
   default: return false;
   }
}

/* Sets one side of a driver copy: host memory by its host pointer, the
 * others by their device (unified) address. */
void rt_copy_side(CUmemorytype t, const void *p, CUmemorytype *type, const void **host, CUdeviceptr *dev)
{
   *type = t;
   if (t == CU_MEMORYTYPE_HOST)
      *host = p;
   else
      *dev = (CUdeviceptr)(uintptr_t)p;
}

static cudaError_t memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                             enum cudaMemcpyKind kind, cudaStream_t stream, bool async)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   CUDA_MEMCPY2D c = { 0 };
   if (!rt_copy_kinds(kind, &c.srcMemoryType, &c.dstMemoryType))
      return cudaErrorInvalidMemcpyDirection;
   if (width == 0 || height == 0)
      return cudaSuccess;
   /* several rows: the runtime's pitch error; one row: the driver's
    * invalid value (both as NVIDIA's answer on an H200) */
   if (height > 1 && (dpitch < width || spitch < width))
      return cudaErrorInvalidPitchValue;
   if (!dst || !src)
      return cudaErrorInvalidValue;
   const void *dst_host = NULL;
   rt_copy_side(c.srcMemoryType, src, &c.srcMemoryType, &c.srcHost, &c.srcDevice);
   rt_copy_side(c.dstMemoryType, dst, &c.dstMemoryType, &dst_host, &c.dstDevice);
   c.dstHost = (void *)(uintptr_t)dst_host;
   c.srcPitch = spitch;
   c.dstPitch = dpitch;
   c.WidthInBytes = width;
   c.Height = height;
   return cu_to_cuda_error(async ? cuMemcpy2DAsync_v2(&c, stream) : cuMemcpy2D_v2(&c));
}

/* ==== cudaMemcpy2D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p dpitch=%zu src=%p spitch=%zu width=%zu height=%zu kind=%d", dst, dpitch, src, spitch, width,
            height, (int)kind);
   return RT_RETURN(memcpy_2d(dst, dpitch, src, spitch, width, height, kind, NULL, false));
}

/* ==== cudaMemcpy2D_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind)
{
   return rt_ptds_sync(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, cudaStreamPerThread));
}

/* ==== cudaMemcpy2DAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
   RT_ENTER("dst=%p dpitch=%zu src=%p spitch=%zu width=%zu height=%zu kind=%d stream=%p", dst, dpitch, src,
            spitch, width, height, (int)kind, (void *)stream);
   return RT_RETURN(memcpy_2d(dst, dpitch, src, spitch, width, height, kind, stream, true));
}

/* ==== cudaMemcpy2DAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                             size_t width, size_t height, enum cudaMemcpyKind kind,
                                             cudaStream_t stream)
{
   return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, rt_ptsz(stream));
}

/* Bytes per element of a CUDA array (0 if it is none). */
size_t rt_array_elem(cudaArray_const_t a)
{
   CUDA_ARRAY3D_DESCRIPTOR d;
   if (cuArray3DGetDescriptor_v2(&d, (CUarray)(uintptr_t)a) != CUDA_SUCCESS)
      return 0;
   return (size_t)rt_channel_desc(d.Format, d.NumChannels).x / 8 * d.NumChannels;
}

/* The driver's form of a 3-D copy (also graph memcpy nodes, graph.c).  With
 * a CUDA array on either side the extent and the array's position are in
 * elements (cudaMemcpy3DParms); pitched pointers stay in bytes.  A zero
 * extent is the caller's to handle. */
cudaError_t rt_memcpy3d_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *c)
{
   if (!p)
      return cudaErrorInvalidValue;
   *c = (CUDA_MEMCPY3D){ 0 };
   if (!rt_copy_kinds(p->kind, &c->srcMemoryType, &c->dstMemoryType))
      return cudaErrorInvalidMemcpyDirection;
   size_t elem = 1;
   if (p->srcArray || p->dstArray) {
      size_t es = p->srcArray ? rt_array_elem(p->srcArray) : 0, ed = p->dstArray ? rt_array_elem(p->dstArray) : 0;
      if ((p->srcArray && !es) || (p->dstArray && !ed))
         return cudaErrorInvalidResourceHandle;
      if (es && ed && es != ed)
         return cudaErrorInvalidValue;
      elem = es ? es : ed;
   }
   const struct cudaExtent *x = &p->extent;
   size_t width = x->width * elem;
   if ((!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr))
      return cudaErrorInvalidValue;
   if ((!p->srcArray && p->srcPtr.pitch < width) || (!p->dstArray && p->dstPtr.pitch < width))
      return cudaErrorInvalidPitchValue;
   const void *dst_host = NULL;
   rt_copy_side(c->srcMemoryType, p->srcPtr.ptr, &c->srcMemoryType, &c->srcHost, &c->srcDevice);
   rt_copy_side(c->dstMemoryType, p->dstPtr.ptr, &c->dstMemoryType, &dst_host, &c->dstDevice);
   c->dstHost = (void *)(uintptr_t)dst_host;
   if (p->srcArray) {
      c->srcMemoryType = CU_MEMORYTYPE_ARRAY;
      c->srcArray = (CUarray)(void *)p->srcArray;
   }
   if (p->dstArray) {
      c->dstMemoryType = CU_MEMORYTYPE_ARRAY;
      c->dstArray = (CUarray)(void *)p->dstArray;
   }
   c->srcXInBytes = p->srcArray ? p->srcPos.x * elem : p->srcPos.x;
   c->srcY = p->srcPos.y;
   c->srcZ = p->srcPos.z;
   c->srcPitch = p->srcPtr.pitch;
   c->srcHeight = p->srcPtr.ysize;
   c->dstXInBytes = p->dstArray ? p->dstPos.x * elem : p->dstPos.x;
   c->dstY = p->dstPos.y;
   c->dstZ = p->dstPos.z;
   c->dstPitch = p->dstPtr.pitch;
   c->dstHeight = p->dstPtr.ysize;
   c->WidthInBytes = width;
   c->Height = x->height;
   c->Depth = x->depth;
   return cudaSuccess;
}

static cudaError_t memcpy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, bool async)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   if (!p)
      return cudaErrorInvalidValue;
   CUmemorytype st, dt;
   if (!rt_copy_kinds(p->kind, &st, &dt))
      return cudaErrorInvalidMemcpyDirection;
   if ((p->srcArray && !rt_array_elem(p->srcArray)) || (p->dstArray && !rt_array_elem(p->dstArray)))
      return cudaErrorInvalidResourceHandle;
   const struct cudaExtent *x = &p->extent;
   if (x->width == 0 || x->height == 0 || x->depth == 0)
      return cudaSuccess;
   CUDA_MEMCPY3D c;
   if ((e = rt_memcpy3d_params(p, &c)) != cudaSuccess)
      return e;
   return cu_to_cuda_error(async ? cuMemcpy3DAsync_v2(&c, stream) : cuMemcpy3D_v2(&c));
}

static void trace_3d(const char *func, const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
   if (log_level() < LOG_LEVEL_TRACE)
      return;
   if (!p) {
      log_msg(LOG_LEVEL_TRACE, log_channel_, func, "p=NULL stream=%p", (void *)stream);
      return;
   }
   log_msg(LOG_LEVEL_TRACE, log_channel_, func,
           "p=%p srcArray=%p srcPos={%zu,%zu,%zu} srcPtr={%p,%zu,%zu,%zu} dstArray=%p dstPos={%zu,%zu,%zu} "
           "dstPtr={%p,%zu,%zu,%zu} extent={%zu,%zu,%zu} kind=%d stream=%p",
           (const void *)p, (void *)p->srcArray, p->srcPos.x, p->srcPos.y, p->srcPos.z, p->srcPtr.ptr,
           p->srcPtr.pitch, p->srcPtr.xsize, p->srcPtr.ysize, (void *)p->dstArray, p->dstPos.x, p->dstPos.y,
           p->dstPos.z, p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.xsize, p->dstPtr.ysize, p->extent.width,
           p->extent.height, p->extent.depth, (int)p->kind, (void *)stream);
}

/* ==== cudaMemcpy3D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
   trace_3d(__func__, p, NULL);
   return RT_RETURN(memcpy_3d(p, NULL, false));
}

/* ==== cudaMemcpy3D_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
   return rt_ptds_sync(cudaMemcpy3DAsync(p, cudaStreamPerThread));
}

/* ==== cudaMemcpy3DAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
   trace_3d(__func__, p, stream);
   return RT_RETURN(memcpy_3d(p, stream, true));
}

/* ==== cudaMemcpy3DAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
   return cudaMemcpy3DAsync(p, rt_ptsz(stream));
}

/* A 2-D byte fill through the driver. */
static cudaError_t memset_2d(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                             cudaStream_t stream, bool async)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   CUdeviceptr p = (CUdeviceptr)(uintptr_t)devPtr;
   unsigned char v = (unsigned char)value;
   return cu_to_cuda_error(async ? cuMemsetD2D8Async(p, pitch, v, width, height, stream)
                                 : cuMemsetD2D8_v2(p, pitch, v, width, height));
}

/* ==== cudaMemset2D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
   RT_ENTER("devPtr=%p pitch=%zu value=%d width=%zu height=%zu", devPtr, pitch, value, width, height);
   return RT_RETURN(memset_2d(devPtr, pitch, value, width, height, NULL, false));
}

/* ==== cudaMemset2D_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
   return rt_ptds_sync(cudaMemset2DAsync(devPtr, pitch, value, width, height, cudaStreamPerThread));
}

/* ==== cudaMemset2DAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                        cudaStream_t stream)
{
   RT_ENTER("devPtr=%p pitch=%zu value=%d width=%zu height=%zu stream=%p", devPtr, pitch, value, width, height,
            (void *)stream);
   return RT_RETURN(memset_2d(devPtr, pitch, value, width, height, stream, true));
}

/* ==== cudaMemset2DAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                             cudaStream_t stream)
{
   return cudaMemset2DAsync(devPtr, pitch, value, width, height, rt_ptsz(stream));
}

/* A 3-D fill: one 2-D fill when the slices' rows follow each other
 * (extent.height rows of ysize), else one per slice. */
static cudaError_t memset_3d(struct cudaPitchedPtr p, int value, struct cudaExtent x, cudaStream_t stream,
                             bool async)
{
   if (x.width == 0 || x.height == 0 || x.depth == 0)
      return rt_ensure_ctx();
   if (x.width > p.pitch || (x.depth > 1 && x.height > p.ysize))
      return cudaErrorInvalidValue;
   if (x.depth == 1 || x.height == p.ysize) {
      if (x.height > SIZE_MAX / x.depth)
         return cudaErrorInvalidValue;
      return memset_2d(p.ptr, p.pitch, value, x.width, x.height * x.depth, stream, async);
   }
   for (size_t z = 0; z < x.depth; z++) {
      char *slice = (char *)p.ptr + z * p.pitch * p.ysize;
      cudaError_t e = memset_2d(slice, p.pitch, value, x.width, x.height, stream, async);
      if (e != cudaSuccess)
         return e;
   }
   return cudaSuccess;
}

/* ==== cudaMemset3D (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
   RT_ENTER("pitchedDevPtr={%p,%zu,%zu,%zu} value=%d extent={%zu,%zu,%zu}", pitchedDevPtr.ptr, pitchedDevPtr.pitch,
            pitchedDevPtr.xsize, pitchedDevPtr.ysize, value, extent.width, extent.height, extent.depth);
   return RT_RETURN(memset_3d(pitchedDevPtr, value, extent, NULL, false));
}

/* ==== cudaMemset3D_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
   return rt_ptds_sync(cudaMemset3DAsync(pitchedDevPtr, value, extent, cudaStreamPerThread));
}

/* ==== cudaMemset3DAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                        cudaStream_t stream)
{
   RT_ENTER("pitchedDevPtr={%p,%zu,%zu,%zu} value=%d extent={%zu,%zu,%zu} stream=%p", pitchedDevPtr.ptr,
            pitchedDevPtr.pitch, pitchedDevPtr.xsize, pitchedDevPtr.ysize, value, extent.width, extent.height,
            extent.depth, (void *)stream);
   return RT_RETURN(memset_3d(pitchedDevPtr, value, extent, stream, true));
}

/* ==== cudaMemset3DAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                             struct cudaExtent extent, cudaStream_t stream)
{
   return cudaMemset3DAsync(pitchedDevPtr, value, extent, rt_ptsz(stream));
}

/* A peer copy as the 3-D copy it is here (every device is the one; the
 * devices named must exist): between device memory, as NVIDIA's runtime
 * asks its driver for it. */
static cudaError_t peer_params(const struct cudaMemcpy3DPeerParms *p, struct cudaMemcpy3DParms *q)
{
   if (!p)
      return cudaErrorInvalidValue;
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return e;
   int n = rt_device_count();
   if (p->srcDevice < 0 || p->srcDevice >= n || p->dstDevice < 0 || p->dstDevice >= n)
      return cudaErrorInvalidDevice;
   *q = (struct cudaMemcpy3DParms){ .srcArray = p->srcArray, .srcPos = p->srcPos, .srcPtr = p->srcPtr,
                                    .dstArray = p->dstArray, .dstPos = p->dstPos, .dstPtr = p->dstPtr,
                                    .extent = p->extent, .kind = cudaMemcpyDeviceToDevice };
   return cudaSuccess;
}

/* ==== cudaMemcpy3DPeer (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
   RT_ENTER("p=%p", (const void *)p);
   struct cudaMemcpy3DParms q;
   cudaError_t e = peer_params(p, &q);
   return e != cudaSuccess ? RT_RETURN(e) : cudaMemcpy3D(&q);
}

/* ==== cudaMemcpy3DPeer_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
   return rt_ptds_sync(cudaMemcpy3DPeerAsync(p, cudaStreamPerThread));
}

/* ==== cudaMemcpy3DPeerAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
   RT_ENTER("p=%p stream=%p", (const void *)p, (void *)stream);
   struct cudaMemcpy3DParms q;
   cudaError_t e = peer_params(p, &q);
   return e != cudaSuccess ? RT_RETURN(e) : cudaMemcpy3DAsync(&q, stream);
}

/* ==== cudaMemcpy3DPeerAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
   return cudaMemcpy3DPeerAsync(p, rt_ptsz(stream));
}
