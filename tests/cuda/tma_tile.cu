// nvcc-flags: -arch=sm_90
// tma_tile — tensor copies (TMA) in tile mode: cuTensorMapEncodeTiled
// (through cudaGetDriverEntryPointByVersion, as programs without -lcuda do)
// and cp.async.bulk.tensor.{1,2,3,5}d loads into shared memory completing
// on an mbarrier, and stores back (.bulk_group), with boxes inside, across
// and outside the tensor's edges (outside: zeros on load, nothing written
// on store), every plain swizzle (32, 64, 128 bytes) and element sizes 1,
// 2, 4 and 8.  The tensor map is a __grid_constant__ parameter, so the
// copies name it by its generic address.  A load's shared memory is copied
// out byte for byte, so the swizzled layout itself is checked.  Expected
// values: a host model of the box and the swizzle (16-byte chunk bits
// 4.. xor address bits 7.., CUTLASS's Swizzle<B,4,3>), independent of the
// code under test.  Also the argument errors of cuTensorMapEncodeTiled, and
// the illegal-instruction error of an innermost coordinate that is not a
// multiple of 16 bytes (measured on an H200: any other one stops the kernel;
// so does a store at a negative coordinate, which stores here avoid).
#include <cuda.h>
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static encode_fn encode;

struct coords {
   int c[5];
};

__device__ void wait_parity0(unsigned bar)
{
   asm volatile("{\n .reg .pred p;\n W%=:\n mbarrier.try_wait.parity.shared.b64 p, [%0], 0;\n @!p bra W%=;\n}"
                :: "r"(bar) : "memory");
}

/* One box into shared memory (pre-filled with 0xab), copied out raw. */
__global__ void tma_load(const __grid_constant__ CUtensorMap map, int rank, coords c, unsigned bytes, uint8_t *out)
{
   extern __shared__ __align__(1024) uint8_t smem[];
   unsigned sdst = (unsigned)__cvta_generic_to_shared(smem);
   unsigned sbar = sdst + ((bytes + 15u) & ~15u);
   for (unsigned k = threadIdx.x; k < bytes; k += blockDim.x)
      smem[k] = 0xab;
   if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(sbar) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
   }
   asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
   __syncthreads();
   if (threadIdx.x == 0) {
      const void *m = &map;
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(sbar), "r"(bytes) : "memory");
      switch (rank) {
      case 1:
         asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%2}], [%3];" :: "r"(sdst), "l"(m), "r"(c.c[0]), "r"(sbar) : "memory");
         break;
      case 2:
         asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%2, %3}], [%4];" :: "r"(sdst), "l"(m), "r"(c.c[0]), "r"(c.c[1]), "r"(sbar)
                      : "memory");
         break;
      case 3:
         asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%2, %3, %4}], [%5];" :: "r"(sdst), "l"(m), "r"(c.c[0]), "r"(c.c[1]),
                      "r"(c.c[2]), "r"(sbar) : "memory");
         break;
      default:
         asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" :: "r"(sdst), "l"(m), "r"(c.c[0]), "r"(c.c[1]),
                      "r"(c.c[2]), "r"(c.c[3]), "r"(c.c[4]), "r"(sbar) : "memory");
         break;
      }
   }
   wait_parity0(sbar);
   for (unsigned k = threadIdx.x; k < bytes; k += blockDim.x)
      out[k] = smem[k];
}

/* One box from shared memory (filled from src) into the tensor (2-D). */
__global__ void tma_store(const __grid_constant__ CUtensorMap map, coords c, unsigned bytes, const uint8_t *src)
{
   extern __shared__ __align__(1024) uint8_t smem[];
   unsigned ssrc = (unsigned)__cvta_generic_to_shared(smem);
   for (unsigned k = threadIdx.x; k < bytes; k += blockDim.x)
      smem[k] = src[k];
   asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
   __syncthreads();
   if (threadIdx.x == 0) {
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                   :: "l"(&map), "r"(c.c[0]), "r"(c.c[1]), "r"(ssrc) : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
   }
}

/* A tensor on the host and the device, and the map's shape. */
struct tensor {
   unsigned rank, esize;
   cuuint64_t dim[5], stride[5];   /* stride[k]: bytes between steps of dimension k (stride[0] = esize) */
   size_t bytes;
   uint8_t *host;
   void *dev;
};

static void tensor_init(tensor *t, unsigned rank, unsigned esize, const cuuint64_t *dim, const cuuint64_t *stride,
                        uint32_t seed)
{
   memset(t, 0, sizeof(*t));
   t->rank = rank;
   t->esize = esize;
   t->stride[0] = esize;
   for (unsigned k = 0; k < rank; k++) {
      t->dim[k] = dim[k];
      if (k)
         t->stride[k] = stride[k - 1];
   }
   t->bytes = (size_t)(t->stride[rank - 1] * t->dim[rank - 1]);
   t->host = (uint8_t *)malloc(t->bytes);
   for (size_t k = 0; k < t->bytes; k++)
      t->host[k] = (uint8_t)mix32((uint32_t)k * 7u + seed);
   CHECK_CUDA(cudaMalloc(&t->dev, t->bytes));
   CHECK_CUDA(cudaMemcpy(t->dev, t->host, t->bytes, cudaMemcpyHostToDevice));
}

static bool make_map(CUtensorMap *m, const tensor *t, const cuuint32_t *box, CUtensorMapSwizzle sw)
{
   CUtensorMapDataType type = t->esize == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                            : t->esize == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                            : t->esize == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
   cuuint32_t es[5] = { 1, 1, 1, 1, 1 };
   CUresult r = encode(m, type, t->rank, t->dev, t->dim, t->stride + 1, box, es,
                       CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
   CHECK_INT(r, CUDA_SUCCESS);
   return r == CUDA_SUCCESS;
}

static unsigned swizzle_bytes(CUtensorMapSwizzle sw)
{
   return sw == CU_TENSOR_MAP_SWIZZLE_32B ? 32 : sw == CU_TENSOR_MAP_SWIZZLE_64B ? 64
        : sw == CU_TENSOR_MAP_SWIZZLE_128B ? 128 : 0;
}

/* Where byte `off` of the dense box lies in shared memory (1024-aligned). */
static unsigned swizzled(unsigned off, unsigned span)
{
   unsigned chunks = span / 16;
   return chunks ? off ^ (((off >> 7) & (chunks - 1)) << 4) : off;
}

/* Calls f(n, inside, tensor byte offset) for each element of the box. */
template <typename F> static void each_element(const tensor *t, const cuuint32_t *box, const int *c, F f)
{
   unsigned b[5] = { 1, 1, 1, 1, 1 }, n = 0;
   for (unsigned k = 0; k < t->rank; k++)
      b[k] = box[k];
   for (unsigned i4 = 0; i4 < b[4]; i4++)
      for (unsigned i3 = 0; i3 < b[3]; i3++)
         for (unsigned i2 = 0; i2 < b[2]; i2++)
            for (unsigned i1 = 0; i1 < b[1]; i1++)
               for (unsigned i0 = 0; i0 < b[0]; i0++, n++) {
                  unsigned idx[5] = { i0, i1, i2, i3, i4 };
                  bool inside = true;
                  long long off = 0;
                  for (unsigned k = 0; k < t->rank; k++) {
                     long long g = (long long)c[k] + idx[k];
                     inside = inside && g >= 0 && (unsigned long long)g < t->dim[k];
                     off += g * (long long)t->stride[k];
                  }
                  f(n, inside, off);
               }
}

static unsigned box_bytes(const tensor *t, const cuuint32_t *box)
{
   unsigned n = t->esize;
   for (unsigned k = 0; k < t->rank; k++)
      n *= box[k];
   return n;
}

static void check_load(const char *what, const tensor *t, const cuuint32_t *box, CUtensorMapSwizzle sw, coords c)
{
   CUtensorMap m;
   if (!make_map(&m, t, box, sw))
      return;
   unsigned bytes = box_bytes(t, box), span = swizzle_bytes(sw);
   uint8_t *got = (uint8_t *)malloc(bytes), *want = (uint8_t *)malloc(bytes), *dout;
   CHECK_CUDA(cudaMalloc(&dout, bytes));
   CHECK_CUDA(cudaMemset(dout, 0x5c, bytes));
   tma_load<<<1, 128, ((bytes + 15) & ~15u) + 16>>>(m, (int)t->rank, c, bytes, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, bytes, cudaMemcpyDeviceToHost));
   each_element(t, box, c.c, [&](unsigned n, bool inside, long long off) {
      for (unsigned b = 0; b < t->esize; b++)
         want[swizzled(n * t->esize + b, span)] = inside ? t->host[off + b] : 0;
   });
   char name[160];
   snprintf(name, sizeof(name), "%s at (%d, %d, %d, %d, %d)", what, c.c[0], c.c[1], c.c[2], c.c[3], c.c[4]);
   CHECK_ARRAY_U32(name, (const uint32_t *)got, (const uint32_t *)want, bytes / 4);
   CHECK_CUDA(cudaFree(dout));
   free(got);
   free(want);
}

static void check_store(const char *what, tensor *t, const cuuint32_t *box, CUtensorMapSwizzle sw, coords c)
{
   CUtensorMap m;
   if (!make_map(&m, t, box, sw))
      return;
   unsigned bytes = box_bytes(t, box), span = swizzle_bytes(sw);
   uint8_t *src = (uint8_t *)malloc(bytes), *got = (uint8_t *)malloc(t->bytes), *dsrc;
   for (unsigned k = 0; k < bytes; k++)
      src[k] = (uint8_t)(k * 13u + 1u);
   CHECK_CUDA(cudaMalloc(&dsrc, bytes));
   CHECK_CUDA(cudaMemcpy(dsrc, src, bytes, cudaMemcpyHostToDevice));
   tma_store<<<1, 128, (bytes + 15) & ~15u>>>(m, c, bytes, dsrc);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, t->dev, t->bytes, cudaMemcpyDeviceToHost));
   each_element(t, box, c.c, [&](unsigned n, bool inside, long long off) {
      if (inside)
         for (unsigned b = 0; b < t->esize; b++)
            t->host[off + b] = src[swizzled(n * t->esize + b, span)];
   });
   char name[160];
   snprintf(name, sizeof(name), "%s at (%d, %d)", what, c.c[0], c.c[1]);
   CHECK_ARRAY_U32(name, (const uint32_t *)got, (const uint32_t *)t->host, (unsigned)(t->bytes / 4));
   CHECK_CUDA(cudaFree(dsrc));
   free(src);
   free(got);
}

static coords at(int a, int b = 0, int c = 0, int d = 0, int e = 0)
{
   coords r = { { a, b, c, d, e } };
   return r;
}

static void check_encode_errors(const tensor *t)
{
   CUtensorMap m;
   cuuint64_t dim[2] = { 100, 70 }, stride[1] = { 416 }, bad_stride[1] = { 420 };
   cuuint32_t box[2] = { 32, 8 }, es[2] = { 1, 1 };
   cuuint32_t box0[2] = { 0, 8 }, box257[2] = { 32, 257 }, box12b[2] = { 3, 8 }, box256b[2] = { 64, 2 };
   const CUtensorMapInterleave il = CU_TENSOR_MAP_INTERLEAVE_NONE;
   const CUtensorMapL2promotion l2 = CU_TENSOR_MAP_L2_PROMOTION_NONE;
   const CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
   const CUtensorMapDataType f32 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
   const CUtensorMapSwizzle none = CU_TENSOR_MAP_SWIZZLE_NONE, s128 = CU_TENSOR_MAP_SWIZZLE_128B;
   CHECK_INT(encode(&m, f32, 2, t->dev, dim, stride, box, es, il, none, l2, fill), CUDA_SUCCESS);
   CHECK_INT(encode(&m, f32, 0, t->dev, dim, stride, box, es, il, none, l2, fill), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(&m, f32, 6, t->dev, dim, stride, box, es, il, none, l2, fill), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(&m, f32, 2, t->dev, dim, bad_stride, box, es, il, none, l2, fill), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(&m, f32, 2, t->dev, dim, stride, box0, es, il, none, l2, fill), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(&m, f32, 2, t->dev, dim, stride, box257, es, il, none, l2, fill), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(&m, f32, 2, t->dev, dim, stride, box12b, es, il, none, l2, fill), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(&m, f32, 2, t->dev, dim, stride, box256b, es, il, s128, l2, fill), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(&m, f32, 2, (char *)t->dev + 4, dim, stride, box, es, il, none, l2, fill),
             CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(encode(NULL, f32, 2, t->dev, dim, stride, box, es, il, none, l2, fill), CUDA_ERROR_INVALID_VALUE);
}

int main(void)
{
   check_begin("tma_tile");
   void *fn = NULL;
   cudaDriverEntryPointQueryResult st;
   CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &st));
   CHECK(fn != NULL);
   if (!fn)
      return check_end();
   encode = (encode_fn)fn;
   CHECK_CUDA(cudaFuncSetAttribute(tma_load, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024));

   tensor f2;   /* f32, 100 x 70, rows padded to 104 elements */
   const cuuint64_t f2dim[2] = { 100, 70 }, f2str[1] = { 416 };
   tensor_init(&f2, 2, 4, f2dim, f2str, 1);
   const cuuint32_t b128[2] = { 32, 8 }, b64[2] = { 16, 8 }, b32[2] = { 8, 4 }, bnone[2] = { 24, 5 };
   /* innermost coordinates at multiples of 16 bytes: an H200 stops the
    * kernel otherwise (checked last) */
   const coords f2at[] = { at(0, 0), at(-4, -3), at(80, 66), at(96, 1), at(-28, -7), at(100, 70), at(36, 20) };
   for (unsigned k = 0; k < sizeof(f2at) / sizeof(f2at[0]); k++)
      check_load("f32 2-D, box 32x8, 128-byte swizzle", &f2, b128, CU_TENSOR_MAP_SWIZZLE_128B, f2at[k]);
   check_load("f32 2-D, box 16x8, 64-byte swizzle", &f2, b64, CU_TENSOR_MAP_SWIZZLE_64B, at(8, 9));
   check_load("f32 2-D, box 16x8, 64-byte swizzle", &f2, b64, CU_TENSOR_MAP_SWIZZLE_64B, at(88, 65));
   check_load("f32 2-D, box 8x4, 32-byte swizzle", &f2, b32, CU_TENSOR_MAP_SWIZZLE_32B, at(-4, 68));
   check_load("f32 2-D, box 8x4, 32-byte swizzle", &f2, b32, CU_TENSOR_MAP_SWIZZLE_32B, at(52, 30));
   check_load("f32 2-D, box 24x5, no swizzle", &f2, bnone, CU_TENSOR_MAP_SWIZZLE_NONE, at(88, -2));
   check_load("f32 2-D, box 32x8, no swizzle", &f2, b128, CU_TENSOR_MAP_SWIZZLE_NONE, at(4, 3));

   tensor u3;   /* u16, 40 x 12 x 6, rows padded to 48 elements */
   const cuuint64_t u3dim[3] = { 40, 12, 6 }, u3str[2] = { 96, 96 * 12 };
   tensor_init(&u3, 3, 2, u3dim, u3str, 2);
   const cuuint32_t bu3[3] = { 16, 4, 3 }, bu3w[3] = { 32, 2, 2 };
   check_load("u16 3-D, box 16x4x3", &u3, bu3, CU_TENSOR_MAP_SWIZZLE_NONE, at(32, 10, 4));
   check_load("u16 3-D, box 16x4x3", &u3, bu3, CU_TENSOR_MAP_SWIZZLE_NONE, at(-8, -2, -1));
   check_load("u16 3-D, box 32x2x2, 64-byte swizzle", &u3, bu3w, CU_TENSOR_MAP_SWIZZLE_64B, at(8, 5, 2));

   tensor u1;   /* u8, 300 */
   const cuuint64_t u1dim[1] = { 300 };
   tensor_init(&u1, 1, 1, u1dim, NULL, 3);
   const cuuint32_t bu1[1] = { 64 };
   check_load("u8 1-D, box 64", &u1, bu1, CU_TENSOR_MAP_SWIZZLE_NONE, at(-16));
   check_load("u8 1-D, box 64", &u1, bu1, CU_TENSOR_MAP_SWIZZLE_NONE, at(240));
   check_load("u8 1-D, box 64", &u1, bu1, CU_TENSOR_MAP_SWIZZLE_NONE, at(96));

   tensor d5;   /* f64, 4 x 3 x 3 x 2 x 2 */
   const cuuint64_t d5dim[5] = { 4, 3, 3, 2, 2 }, d5str[4] = { 32, 96, 288, 576 };
   tensor_init(&d5, 5, 8, d5dim, d5str, 4);
   const cuuint32_t bd5[5] = { 2, 2, 2, 2, 2 };
   check_load("f64 5-D, box 2x2x2x2x2", &d5, bd5, CU_TENSOR_MAP_SWIZZLE_NONE, at(2, 2, -1, 1, 0));
   check_load("f64 5-D, box 2x2x2x2x2", &d5, bd5, CU_TENSOR_MAP_SWIZZLE_NONE, at(0, 0, 0, 0, 1));

   check_store("store f32 2-D, box 32x8, 128-byte swizzle", &f2, b128, CU_TENSOR_MAP_SWIZZLE_128B, at(80, 66));
   check_store("store f32 2-D, box 24x5, no swizzle", &f2, bnone, CU_TENSOR_MAP_SWIZZLE_NONE, at(4, 10));
   check_store("store f32 2-D, box 8x4, 32-byte swizzle", &f2, b32, CU_TENSOR_MAP_SWIZZLE_32B, at(40, 40));

   check_encode_errors(&f2);
   CUtensorMap last;
   bool have_last = make_map(&last, &f2, b128, CU_TENSOR_MAP_SWIZZLE_128B);
   tensor *all[] = { &u3, &u1, &d5 };
   for (unsigned k = 0; k < 3; k++) {
      CHECK_CUDA(cudaFree(all[k]->dev));
      free(all[k]->host);
   }
   free(f2.host);

   /* last, as the error is sticky: an innermost coordinate that is not a
    * multiple of 16 bytes (5 floats) is an illegal instruction */
   uint8_t *dout;
   CHECK_CUDA(cudaMalloc(&dout, 1024));
   if (have_last) {
      tma_load<<<1, 128, 1024 + 16>>>(last, 2, at(5, 0), 1024, dout);
      CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalInstruction);
   }
   return check_end();
}
