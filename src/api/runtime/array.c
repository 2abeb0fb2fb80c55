/*
 * array.c — CUDA arrays through the driver (cuArray3DCreate, cuMemcpy2D
 * with CU_MEMORYTYPE_ARRAY): cudaMallocArray, cudaMalloc3DArray,
 * cudaFreeArray, cudaArrayGetInfo, cudaGetChannelDesc, the copies to,
 * from and between arrays (cudaMemcpy2DToArray, cudaMemcpy2DFromArray,
 * cudaMemcpy2DArrayToArray, their async forms, and the deprecated runs of
 * bytes cudaMemcpyToArray, cudaMemcpyFromArray, cudaMemcpyArrayToArray:
 * from (wOffset, hOffset) on, continuing at the start of the next row, as
 * CUDA documents them, split into 2-D copies; a run that leaves the array
 * copies the pieces inside it first and then fails, as an H200's does).  A cudaArray_t is the
 * driver's CUarray.  A channel description becomes a driver format: every
 * channel present (x, then y, then z, w) of the same width, 1, 2 or 4 of
 * them (CUDA has no 3-channel arrays either); a normalised kind
 * (cudaChannelFormatKindUnsignedNormalized8X1 ...) is the driver's
 * CU_AD_FORMAT_UNORM_INT8X1 ..., the kinds metalcuda does not read (block
 * compressed, NV12, 10-10-10-2) cudaErrorNotSupported with a message.
 */
#include "internal.h"

#include <string.h>

LOG_CHANNEL(memory);

/* The channel format kinds NVIDIA has and metalcuda does not read
 * (cudaChannelFormatKindNV12 = 4, then 17 to 31): the name, for the
 * message that refuses them, and the bits cudaCreateChannelDesc<kind>()
 * gives, the only ones NVIDIA's runtime takes for the kind (others are
 * cudaErrorInvalidChannelDescriptor there: CUDA 13.0's static runtime). */
#define K(kind, x, y, z, w) [cudaChannelFormatKind##kind] = { "cudaChannelFormatKind" #kind, { x, y, z, w } }
static const struct {
   const char *name;
   int bits[4];
} unsupported_kinds[] = {
   K(NV12, 8, 8, 8, 0),
   K(UnsignedBlockCompressed1, 8, 8, 8, 8), K(UnsignedBlockCompressed1SRGB, 8, 8, 8, 8),
   K(UnsignedBlockCompressed2, 8, 8, 8, 8), K(UnsignedBlockCompressed2SRGB, 8, 8, 8, 8),
   K(UnsignedBlockCompressed3, 8, 8, 8, 8), K(UnsignedBlockCompressed3SRGB, 8, 8, 8, 8),
   K(UnsignedBlockCompressed4, 8, 0, 0, 0), K(SignedBlockCompressed4, 8, 0, 0, 0),
   K(UnsignedBlockCompressed5, 8, 8, 0, 0), K(SignedBlockCompressed5, 8, 8, 0, 0),
   K(UnsignedBlockCompressed6H, 16, 16, 16, 0), K(SignedBlockCompressed6H, 16, 16, 16, 0),
   K(UnsignedBlockCompressed7, 8, 8, 8, 8), K(UnsignedBlockCompressed7SRGB, 8, 8, 8, 8),
   K(UnsignedNormalized1010102, 10, 10, 10, 2),
};
#undef K

/* The channel width and count of normalised format i (0 ... 11: unsigned
 * 8X1, 8X2, 8X4, 16X1, 16X2, 16X4, then the signed six), the order of
 * both the kinds (from cudaChannelFormatKindUnsignedNormalized8X1) and the
 * driver's formats (from CU_AD_FORMAT_UNORM_INT8X1). */
static void norm_shape(unsigned i, int *bits, unsigned *channels)
{
   *bits = i % 6 >= 3 ? 16 : 8;
   *channels = 1u << (i % 3);
}

/* cudaChannelFormatDesc → CUarray_format and channels.  A normalised kind
 * (cudaChannelFormatKindUnsignedNormalized8X1 = 5 ...
 * SignedNormalized16X4 = 16: unsigned 8X1, 8X2, 8X4, 16X1, 16X2, 16X4,
 * then the signed six) is CU_AD_FORMAT_UNORM_INT8X1 + (kind - 5), with the
 * bits cudaCreateChannelDesc<kind>() gives (others are
 * cudaErrorInvalidChannelDescriptor, as NVIDIA's runtime answers). */
cudaError_t rt_channel_format(const struct cudaChannelFormatDesc *d, CUarray_format *f, unsigned *channels)
{
   unsigned k = (unsigned)d->f;
   int bits[4] = { d->x, d->y, d->z, d->w };
   if (k < sizeof(unsupported_kinds) / sizeof(unsupported_kinds[0]) && unsupported_kinds[k].name) {
      if (memcmp(bits, unsupported_kinds[k].bits, sizeof(bits)))
         return cudaErrorInvalidChannelDescriptor;
      static int once[sizeof(unsupported_kinds) / sizeof(unsupported_kinds[0])];
      char what[96];
      snprintf(what, sizeof(what), "arrays of format %s", unsupported_kinds[k].name);
      api_unsupported_(log_channel_, __func__, what, &once[k]);
      return cudaErrorNotSupported;
   }
   unsigned n = 0;
   while (n < 4 && bits[n])
      n++;
   for (unsigned c = 0; c < 4; c++)
      if ((c < n && bits[c] != bits[0]) || (c >= n && bits[c]))
         return cudaErrorInvalidChannelDescriptor;
   if (n == 0 || n == 3)
      return cudaErrorInvalidChannelDescriptor;
   *channels = n;
   switch (d->f) {
   case cudaChannelFormatKindSigned:
   case cudaChannelFormatKindUnsigned: {
      bool s = d->f == cudaChannelFormatKindSigned;
      if (bits[0] == 8)
         *f = s ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8;
      else if (bits[0] == 16)
         *f = s ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT16;
      else if (bits[0] == 32)
         *f = s ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32;
      else
         return cudaErrorInvalidChannelDescriptor;
      return cudaSuccess;
   }
   case cudaChannelFormatKindFloat:
      if (bits[0] != 16 && bits[0] != 32)
         return cudaErrorInvalidChannelDescriptor;
      *f = bits[0] == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
      return cudaSuccess;
   default:
      if (k >= cudaChannelFormatKindUnsignedNormalized8X1 && k <= cudaChannelFormatKindSignedNormalized16X4) {
         unsigned i = k - cudaChannelFormatKindUnsignedNormalized8X1, c;
         int b;
         /* the kind names the width and the channel count; the bits must
          * say the same */
         norm_shape(i, &b, &c);
         if (bits[0] != b || n != c)
            return cudaErrorInvalidChannelDescriptor;
         *f = (CUarray_format)(CU_AD_FORMAT_UNORM_INT8X1 + i);
         return cudaSuccess;
      }
      return cudaErrorInvalidChannelDescriptor;
   }
}

struct cudaChannelFormatDesc rt_channel_desc(CUarray_format f, unsigned n)
{
   if (f >= CU_AD_FORMAT_UNORM_INT8X1 && f <= CU_AD_FORMAT_SNORM_INT16X4) {
      /* cudaCreateChannelDesc<kind>()'s description of the kind */
      unsigned i = (unsigned)f - CU_AD_FORMAT_UNORM_INT8X1, c;
      int b;
      norm_shape(i, &b, &c);
      struct cudaChannelFormatDesc d = { b, c > 1 ? b : 0, c > 2 ? b : 0, c > 3 ? b : 0,
                                         (enum cudaChannelFormatKind)(cudaChannelFormatKindUnsignedNormalized8X1 + i) };
      return d;
   }
   int bits = (f & 0x0f) == 1 ? 8 : (f & 0x0f) == 2 ? 16 : (f & 0x0f) == 3 ? 32 : 0;
   enum cudaChannelFormatKind k = cudaChannelFormatKindUnsigned;
   if (f == CU_AD_FORMAT_SIGNED_INT8 || f == CU_AD_FORMAT_SIGNED_INT16 || f == CU_AD_FORMAT_SIGNED_INT32) {
      k = cudaChannelFormatKindSigned;
      bits = f == CU_AD_FORMAT_SIGNED_INT8 ? 8 : f == CU_AD_FORMAT_SIGNED_INT16 ? 16 : 32;
   } else if (f == CU_AD_FORMAT_HALF || f == CU_AD_FORMAT_FLOAT) {
      k = cudaChannelFormatKindFloat;
      bits = f == CU_AD_FORMAT_HALF ? 16 : 32;
   }
   struct cudaChannelFormatDesc d = { bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 3 ? bits : 0, k };
   return d;
}

static cudaError_t malloc_3d(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t w, size_t h,
                             size_t d, unsigned flags)
{
   CUDA_ARRAY3D_DESCRIPTOR a = { w, h, d, CU_AD_FORMAT_FLOAT, 0, flags };
   cudaError_t e = rt_channel_format(desc, &a.Format, &a.NumChannels);
   if (e != cudaSuccess)
      return e;
   CUarray out;
   CUresult r = cuArray3DCreate_v2(&out, &a);
   if (r == CUDA_SUCCESS)
      *array = (cudaArray_t)(void *)out;
   return r == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : cu_to_cuda_error(r);
}

/* ==== cudaMallocArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                      size_t height, unsigned int flags)
{
   RT_ENTER("array=%p desc=%p width=%zu height=%zu flags=%#x", (void *)array, (const void *)desc, width, height,
            flags);
   RT_CHECK(array && desc, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN(malloc_3d(array, desc, width, height, 0, flags));
}

/* ==== cudaMalloc3DArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent extent, unsigned int flags)
{
   RT_ENTER("array=%p desc=%p extent={%zu,%zu,%zu} flags=%#x", (void *)array, (const void *)desc, extent.width,
            extent.height, extent.depth, flags);
   RT_CHECK(array && desc, cudaErrorInvalidValue);
   RT_NEED_CTX();
   return RT_RETURN(malloc_3d(array, desc, extent.width, extent.height, extent.depth, flags));
}

/* ==== cudaFreeArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array)
{
   RT_ENTER("array=%p", (void *)array);
   RT_NEED_CTX();
   if (!array)
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuArrayDestroy((CUarray)(void *)array));
}

/* ==== cudaArrayGetInfo (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                       unsigned int *flags, cudaArray_t array)
{
   RT_ENTER("desc=%p extent=%p flags=%p array=%p", (void *)desc, (void *)extent, (void *)flags, (void *)array);
   RT_NEED_CTX();
   CUDA_ARRAY3D_DESCRIPTOR a;
   CUresult r = cuArray3DGetDescriptor_v2(&a, (CUarray)(void *)array);
   if (r != CUDA_SUCCESS)
      return RT_RETURN_CU(r);
   if (desc)
      *desc = rt_channel_desc(a.Format, a.NumChannels);
   if (extent)
      *extent = (struct cudaExtent){ a.Width, a.Height, a.Depth };
   if (flags)
      *flags = a.Flags;
   return RT_RETURN(cudaSuccess);
}

/* ==== cudaGetChannelDesc (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
   RT_ENTER("desc=%p array=%p", (void *)desc, (const void *)array);
   RT_CHECK(desc, cudaErrorInvalidValue);
   return RT_RETURN(cudaArrayGetInfo(desc, NULL, NULL, (cudaArray_t)(uintptr_t)array));
}

/* A 2-D copy with one side an array (at byte column x, row y). */
/* A 2-D copy between an array at (x, y) and linear memory p of pitch
 * `pitch`; stream: NULL with !async for the synchronous forms. */
static cudaError_t copy_array(bool to_array, cudaArray_const_t array, size_t x, size_t y, const void *p,
                              size_t pitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream, bool async)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   CUDA_MEMCPY2D c = { 0 };
   CUmemorytype src, dst;
   if (!rt_copy_kinds(kind, &src, &dst))
      return cudaErrorInvalidMemcpyDirection;
   if (!array)
      return cudaErrorInvalidResourceHandle;
   if (width == 0 || height == 0)
      return cudaSuccess;
   if (height > 1 && pitch < width)
      return cudaErrorInvalidPitchValue;
   if (!p)
      return cudaErrorInvalidValue;
   const void *host = NULL;
   if (to_array) {
      rt_copy_side(src, p, &c.srcMemoryType, &c.srcHost, &c.srcDevice);
      c.srcPitch = pitch;
      c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
      c.dstArray = (CUarray)(uintptr_t)array;
      c.dstXInBytes = x, c.dstY = y;
   } else {
      rt_copy_side(dst, p, &c.dstMemoryType, &host, &c.dstDevice);
      c.dstHost = (void *)(uintptr_t)host;
      c.dstPitch = pitch;
      c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
      c.srcArray = (CUarray)(uintptr_t)array;
      c.srcXInBytes = x, c.srcY = y;
   }
   c.WidthInBytes = width;
   c.Height = height;
   return cu_to_cuda_error(async ? cuMemcpy2DAsync_v2(&c, stream) : cuMemcpy2D_v2(&c));
}

/* A rectangle from array src at (sx, sy) to array dst at (dx, dy). */
static cudaError_t copy_between(cudaArray_t dst, size_t dx, size_t dy, cudaArray_const_t src, size_t sx, size_t sy,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   CUmemorytype st, dt;
   if (!rt_copy_kinds(kind, &st, &dt))
      return cudaErrorInvalidMemcpyDirection;
   if (!dst || !src)
      return cudaErrorInvalidResourceHandle;
   if (width == 0 || height == 0)
      return cudaSuccess;
   CUDA_MEMCPY2D c = { 0 };
   c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
   c.srcArray = (CUarray)(uintptr_t)src;
   c.dstArray = (CUarray)(uintptr_t)dst;
   c.srcXInBytes = sx, c.srcY = sy, c.dstXInBytes = dx, c.dstY = dy;
   c.WidthInBytes = width;
   c.Height = height;
   return cu_to_cuda_error(cuMemcpy2D_v2(&c));
}

/* The bytes of one row of an array (0: no array), and its rows (those of
 * its first layer or slice). */
static size_t row_bytes(cudaArray_const_t a, size_t *rows)
{
   CUDA_ARRAY3D_DESCRIPTOR d;
   if (!a || cuArray3DGetDescriptor_v2(&d, (CUarray)(uintptr_t)a) != CUDA_SUCCESS)
      return 0;
   *rows = d.Height ? d.Height : 1;
   return d.Width * rt_array_elem(a);
}


static bool kind_ok(enum cudaMemcpyKind kind)
{
   CUmemorytype a, b;
   return rt_copy_kinds(kind, &a, &b);
}

/* A run of count bytes between an array, from (x, y) row after row, and
 * linear memory p: the rest of the first row, the whole rows, the start of
 * the last, each a 2-D copy. */
static cudaError_t copy_run(bool to_array, cudaArray_const_t array, size_t x, size_t y, const void *p, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream, bool async)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   size_t nrows = 0, row = row_bytes(array, &nrows);
   if (!array || !row)
      return array ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle;
   if (!kind_ok(kind))
      return cudaErrorInvalidMemcpyDirection;
   if (count == 0)
      return cudaSuccess;
   if (!p || x > row || y >= nrows)
      return cudaErrorInvalidValue;
   const char *q = p;
   size_t first = count < row - x ? count : row - x, rows = (count - first) / row;
   size_t last = count - first - rows * row;
   if (first && (e = copy_array(to_array, array, x, y, q, first, first, 1, kind, stream, async)) != cudaSuccess)
      return e;
   q += first;
   if (rows && (e = copy_array(to_array, array, 0, y + 1, q, row, row, rows, kind, stream, async)) != cudaSuccess)
      return e;
   q += rows * row;
   if (last && (e = copy_array(to_array, array, 0, y + 1 + rows, q, last, last, 1, kind, stream, async)))
      return e;
   return cudaSuccess;
}

/* A run of count bytes from array src at (sx, sy) to array dst at (dx, dy),
 * both continuing row after row: pieces that end where either row does. */
static cudaError_t copy_run_between(cudaArray_t dst, size_t dx, size_t dy, cudaArray_const_t src, size_t sx,
                                    size_t sy, size_t count, enum cudaMemcpyKind kind)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   size_t drows = 0, srows = 0, drow = row_bytes(dst, &drows), srow = row_bytes(src, &srows);
   if (!drow || !srow)
      return cudaErrorInvalidResourceHandle;
   if (!kind_ok(kind))
      return cudaErrorInvalidMemcpyDirection;
   if (count && (dx > drow || sx > srow || dy >= drows || sy >= srows))
      return cudaErrorInvalidValue;
   while (count) {
      if (dx == drow)
         dx = 0, dy++;
      if (sx == srow)
         sx = 0, sy++;
      size_t n = count;
      n = n < drow - dx ? n : drow - dx;
      n = n < srow - sx ? n : srow - sx;
      if ((e = copy_between(dst, dx, dy, src, sx, sy, n, 1, kind)) != cudaSuccess)
         return e;
      dx += n, sx += n, count -= n;
   }
   return cudaSuccess;
}

/* ==== cudaMemcpy2DToArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p wOffset=%zu hOffset=%zu src=%p spitch=%zu width=%zu height=%zu kind=%d", (void *)dst, wOffset,
            hOffset, src, spitch, width, height, (int)kind);
   return RT_RETURN(copy_array(true, dst, wOffset, hOffset, src, spitch, width, height, kind, NULL, false));
}

/* ==== cudaMemcpy2DToArray_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
   return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

/* ==== cudaMemcpy2DFromArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p dpitch=%zu src=%p wOffset=%zu hOffset=%zu width=%zu height=%zu kind=%d", dst, dpitch,
            (const void *)src, wOffset, hOffset, width, height, (int)kind);
   return RT_RETURN(copy_array(false, src, wOffset, hOffset, dst, dpitch, width, height, kind, NULL, false));
}

/* ==== cudaMemcpy2DFromArray_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind)
{
   return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

/* ==== cudaMemcpy2DToArrayAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                               cudaStream_t stream)
{
   RT_ENTER("dst=%p wOffset=%zu hOffset=%zu src=%p spitch=%zu width=%zu height=%zu kind=%d stream=%p", (void *)dst,
            wOffset, hOffset, src, spitch, width, height, (int)kind, (void *)stream);
   return RT_RETURN(copy_array(true, dst, wOffset, hOffset, src, spitch, width, height, kind, stream, true));
}

/* ==== cudaMemcpy2DToArrayAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                    const void *src, size_t spitch, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind,
                                   stream ? stream : cudaStreamPerThread);
}

/* ==== cudaMemcpy2DFromArrayAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
   RT_ENTER("dst=%p dpitch=%zu src=%p wOffset=%zu hOffset=%zu width=%zu height=%zu kind=%d stream=%p", dst, dpitch,
            (const void *)src, wOffset, hOffset, width, height, (int)kind, (void *)stream);
   return RT_RETURN(copy_array(false, src, wOffset, hOffset, dst, dpitch, width, height, kind, stream, true));
}

/* ==== cudaMemcpy2DFromArrayAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                      size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                                     stream ? stream : cudaStreamPerThread);
}

/* ==== cudaMemcpy2DArrayToArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p wOffsetDst=%zu hOffsetDst=%zu src=%p wOffsetSrc=%zu hOffsetSrc=%zu width=%zu height=%zu kind=%d",
            (void *)dst, wOffsetDst, hOffsetDst, (const void *)src, wOffsetSrc, hOffsetSrc, width, height, (int)kind);
   return RT_RETURN(copy_between(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind));
}

/* ==== cudaMemcpy2DArrayToArray_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height, enum cudaMemcpyKind kind)
{
   return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
}

/* ==== cudaMemcpyToArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p wOffset=%zu hOffset=%zu src=%p count=%zu kind=%d", (void *)dst, wOffset, hOffset, src, count,
            (int)kind);
   return RT_RETURN(copy_run(true, dst, wOffset, hOffset, src, count, kind, NULL, false));
}

/* ==== cudaMemcpyToArray_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind)
{
   return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

/* ==== cudaMemcpyFromArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p src=%p wOffset=%zu hOffset=%zu count=%zu kind=%d", dst, (const void *)src, wOffset, hOffset,
            count, (int)kind);
   return RT_RETURN(copy_run(false, src, wOffset, hOffset, dst, count, kind, NULL, false));
}

/* ==== cudaMemcpyFromArray_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind)
{
   return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

/* ==== cudaMemcpyToArrayAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
   RT_ENTER("dst=%p wOffset=%zu hOffset=%zu src=%p count=%zu kind=%d stream=%p", (void *)dst, wOffset, hOffset, src,
            count, (int)kind, (void *)stream);
   return RT_RETURN(copy_run(true, dst, wOffset, hOffset, src, count, kind, stream, true));
}

/* ==== cudaMemcpyToArrayAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                  size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, stream ? stream : cudaStreamPerThread);
}

/* ==== cudaMemcpyFromArrayAsync (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
   RT_ENTER("dst=%p src=%p wOffset=%zu hOffset=%zu count=%zu kind=%d stream=%p", dst, (const void *)src, wOffset,
            hOffset, count, (int)kind, (void *)stream);
   return RT_RETURN(copy_run(false, src, wOffset, hOffset, dst, count, kind, stream, true));
}

/* ==== cudaMemcpyFromArrayAsync_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream)
{
   return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, stream ? stream : cudaStreamPerThread);
}

/* ==== cudaMemcpyArrayToArray (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                             size_t count, enum cudaMemcpyKind kind)
{
   RT_ENTER("dst=%p wOffsetDst=%zu hOffsetDst=%zu src=%p wOffsetSrc=%zu hOffsetSrc=%zu count=%zu kind=%d",
            (void *)dst, wOffsetDst, hOffsetDst, (const void *)src, wOffsetSrc, hOffsetSrc, count, (int)kind);
   return RT_RETURN(copy_run_between(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind));
}

/* ==== cudaMemcpyArrayToArray_ptds (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, enum cudaMemcpyKind kind)
{
   return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind);
}

/* ==== cudaArrayGetPlane (libcudart.@) ==== no array is multi-planar
 * (driver/array.c): cudaErrorInvalidValue for every live one */
cudaError_t CUDARTAPI cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray, unsigned int planeIdx)
{
   RT_ENTER("pPlaneArray=%p hArray=%p planeIdx=%u", (void *)pPlaneArray, (void *)hArray, planeIdx);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuArrayGetPlane((CUarray *)(void *)pPlaneArray, (CUarray)(void *)hArray, planeIdx));
}

/* ==== cudaArrayGetMemoryRequirements (libcudart.@) ==== no array is of
 * deferred mapping: cudaErrorInvalidValue */
cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
                                                     cudaArray_t array, int device)
{
   RT_ENTER("memoryRequirements=%p array=%p device=%d", (void *)memoryRequirements, (void *)array, device);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuArrayGetMemoryRequirements((CUDA_ARRAY_MEMORY_REQUIREMENTS *)(void *)memoryRequirements,
                                                    (CUarray)(void *)array, device));
}

/* ==== cudaArrayGetSparseProperties (libcudart.@) ==== no array is sparse: cudaErrorInvalidValue */
cudaError_t CUDARTAPI cudaArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
                                                   cudaArray_t array)
{
   RT_ENTER("sparseProperties=%p array=%p", (void *)sparseProperties, (void *)array);
   RT_NEED_CTX();
   return RT_RETURN_CU(
      cuArrayGetSparseProperties((CUDA_ARRAY_SPARSE_PROPERTIES *)(void *)sparseProperties, (CUarray)(void *)array));
}

/* ==== cudaMallocMipmappedArray (libcudart.@) ==== cuMipmappedArrayCreate
 * (numLevels 0 means one level, too many means all of them: an H200) */
cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                               const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                                               unsigned int numLevels, unsigned int flags)
{
   RT_ENTER("mipmappedArray=%p desc=%p extent={%zu,%zu,%zu} numLevels=%u flags=%#x", (void *)mipmappedArray,
            (const void *)desc, extent.width, extent.height, extent.depth, numLevels, flags);
   RT_CHECK(mipmappedArray && desc, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUDA_ARRAY3D_DESCRIPTOR a = { extent.width, extent.height, extent.depth, CU_AD_FORMAT_FLOAT, 0, flags };
   cudaError_t e = rt_channel_format(desc, &a.Format, &a.NumChannels);
   if (e != cudaSuccess)
      return RT_RETURN(e);
   CUmipmappedArray out;
   CUresult r = cuMipmappedArrayCreate(&out, &a, numLevels);
   if (r == CUDA_SUCCESS)
      *mipmappedArray = (cudaMipmappedArray_t)(void *)out;
   return RT_RETURN(r == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : cu_to_cuda_error(r));
}

/* ==== cudaGetMipmappedArrayLevel (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                                 unsigned int level)
{
   RT_ENTER("levelArray=%p mipmappedArray=%p level=%u", (void *)levelArray, (const void *)mipmappedArray, level);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMipmappedArrayGetLevel((CUarray *)(void *)levelArray,
                                                (CUmipmappedArray)(uintptr_t)mipmappedArray, level));
}

/* ==== cudaFreeMipmappedArray (libcudart.@) ==== NULL: nothing to do */
cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
   RT_ENTER("mipmappedArray=%p", (void *)mipmappedArray);
   RT_NEED_CTX();
   if (!mipmappedArray)
      return RT_RETURN(cudaSuccess);
   return RT_RETURN_CU(cuMipmappedArrayDestroy((CUmipmappedArray)(void *)mipmappedArray));
}

/* ==== cudaMipmappedArrayGetMemoryRequirements (libcudart.@) ==== only a
 * deferred-mapping array has any, and none is made here:
 * cudaErrorInvalidValue, as an H200 answers for the others (and for a bad
 * device) */
cudaError_t CUDARTAPI cudaMipmappedArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
                                                              cudaMipmappedArray_t mipmap, int device)
{
   RT_ENTER("memoryRequirements=%p mipmap=%p device=%d", (void *)memoryRequirements, (void *)mipmap, device);
   RT_NEED_CTX();
   return RT_RETURN_CU(cuMipmappedArrayGetMemoryRequirements((CUDA_ARRAY_MEMORY_REQUIREMENTS *)(void *)memoryRequirements,
                                                             (CUmipmappedArray)(void *)mipmap, (CUdevice)device));
}
