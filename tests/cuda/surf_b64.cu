/*
 * surf_b64.cu — 64-bit surface elements (suld.b/sust.b .b64 and .v2.b64:
 * surf*Dread/surf*Dwrite of long long, unsigned long long and longlong2)
 * against a byte model of the arrays:
 *  - a 2-D array of 8-byte texels (two 32-bit channels) made with
 *    cudaArraySurfaceLoadStore: surf2Dwrite<long long> of a value per
 *    texel, writes outside in the zero mode (ignored), then
 *    surf2Dread<long long> of every texel, reads outside in the zero mode
 *    (0) and the clamp mode (the nearest texel), and surf2Dread<uint2> of
 *    the same texels (the halves, low first, as NVIDIA stores them);
 *  - a 2-D array of 16-byte texels: surf2Dwrite/surf2Dread<longlong2>;
 *  - a 1-D array of 8-byte texels: surf1Dwrite/surf1Dread<unsigned long
 *    long>;
 *  - every array read back with cudaMemcpy2DFromArray and compared with
 *    the values written, byte for byte.
 * The model is the CUDA C++ Programming Guide's surface functions (x in
 * bytes, y in rows; cudaBoundaryModeZero, cudaBoundaryModeClamp).
 */
#include "tex_model.h"

enum { W = 37, H = 5, W1 = 70 };

static __host__ __device__ long long value(int x, int y, int k)
{
   return (long long)(0x9e3779b97f4a7c15ull * (unsigned long long)(y * 1000 + x * 7 + k + 1));
}

__global__ void k_write(cudaSurfaceObject_t s8, cudaSurfaceObject_t s16, cudaSurfaceObject_t s1)
{
   int x = threadIdx.x, y = blockIdx.x;
   if (x < W) {
      surf2Dwrite(value(x, y, 0), s8, x * 8, y);
      surf2Dwrite(make_longlong2(value(x, y, 1), value(x, y, 2)), s16, x * 16, y);
   }
   if (x == W) {   /* outside, ignored in the zero mode */
      surf2Dwrite(-1ll, s8, W * 8, y, cudaBoundaryModeZero);
      surf2Dwrite(make_longlong2(-1, -1), s16, (W + 3) * 16, y, cudaBoundaryModeZero);
      surf2Dwrite(-1ll, s8, 0, H + y, cudaBoundaryModeZero);
   }
   for (int i = x + blockDim.x * y; i < W1; i += blockDim.x * gridDim.x)
      surf1Dwrite((unsigned long long)value(i, 99, 3), s1, i * 8);
}

/* out8: W x H longs, then per row: zero mode left/right, clamp mode
 * left/right; halves: W x H uint2; out16: W x H longlong2; out1: W1 */
__global__ void k_read(cudaSurfaceObject_t s8, cudaSurfaceObject_t s16, cudaSurfaceObject_t s1, long long *out8,
                       uint2 *halves, longlong2 *out16, unsigned long long *out1)
{
   int x = threadIdx.x, y = blockIdx.x;
   if (x < W) {
      out8[y * W + x] = surf2Dread<long long>(s8, x * 8, y);
      halves[y * W + x] = surf2Dread<uint2>(s8, x * 8, y);
      out16[y * W + x] = surf2Dread<longlong2>(s16, x * 16, y);
   }
   if (x == 0) {
      long long *o = out8 + W * H + 4 * y;
      o[0] = surf2Dread<long long>(s8, -8, y, cudaBoundaryModeZero);
      o[1] = surf2Dread<long long>(s8, (W + 2) * 8, y, cudaBoundaryModeZero);
      o[2] = surf2Dread<long long>(s8, -16, y, cudaBoundaryModeClamp);
      o[3] = surf2Dread<long long>(s8, (W + 5) * 8, y, cudaBoundaryModeClamp);
   }
   for (int i = x + blockDim.x * y; i < W1; i += blockDim.x * gridDim.x)
      out1[i] = surf1Dread<unsigned long long>(s1, i * 8);
}

static cudaArray_t make_array(int bits_per_channel, int channels, int w, int h)
{
   cudaChannelFormatDesc cd = cudaCreateChannelDesc(bits_per_channel, channels > 1 ? bits_per_channel : 0,
                                                    channels > 2 ? bits_per_channel : 0,
                                                    channels > 3 ? bits_per_channel : 0, cudaChannelFormatKindUnsigned);
   cudaArray_t a = NULL;
   CHECK_CUDA(cudaMallocArray(&a, &cd, w, h, cudaArraySurfaceLoadStore));
   return a;
}

int main(void)
{
   check_begin("surf_b64");
   CHECK_CUDA(cudaSetDevice(0));
   cudaArray_t a8 = make_array(32, 2, W, H), a16 = make_array(32, 4, W, H), a1 = make_array(32, 2, W1, 0);
   /* zeros first, so that an ignored write shows */
   static unsigned char zeros[W1 * 16 * H];
   CHECK_CUDA(cudaMemcpy2DToArray(a8, 0, 0, zeros, W * 8, W * 8, H, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy2DToArray(a16, 0, 0, zeros, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy2DToArray(a1, 0, 0, zeros, W1 * 8, W1 * 8, 1, cudaMemcpyHostToDevice));
   cudaSurfaceObject_t s8 = tex_model_surface(a8), s16 = tex_model_surface(a16), s1 = tex_model_surface(a1);

   long long *d8;
   uint2 *dh;
   longlong2 *d16;
   unsigned long long *d1;
   size_t n8 = W * H + 4 * H;
   CHECK_CUDA(cudaMalloc(&d8, n8 * sizeof(long long)));
   CHECK_CUDA(cudaMalloc(&dh, W * H * sizeof(uint2)));
   CHECK_CUDA(cudaMalloc(&d16, W * H * sizeof(longlong2)));
   CHECK_CUDA(cudaMalloc(&d1, W1 * sizeof(unsigned long long)));
   k_write<<<H, 64>>>(s8, s16, s1);
   CHECK_CUDA(cudaGetLastError());
   k_read<<<H, 64>>>(s8, s16, s1, d8, dh, d16, d1);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());

   uint64_t g8[W * H + 4 * H], w8[W * H + 4 * H], gh[W * H], wh[W * H];
   uint64_t g16[2 * W * H], w16[2 * W * H], g1[W1], w1[W1];
   uint64_t b8[W * H], b16[2 * W * H], b1[W1];
   CHECK_CUDA(cudaMemcpy(g8, d8, sizeof g8, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(gh, dh, sizeof gh, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(g16, d16, sizeof g16, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(g1, d1, sizeof g1, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy2DFromArray(b8, W * 8, a8, 0, 0, W * 8, H, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy2DFromArray(b16, W * 16, a16, 0, 0, W * 16, H, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy2DFromArray(b1, W1 * 8, a1, 0, 0, W1 * 8, 1, cudaMemcpyDeviceToHost));

   for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
         uint64_t v = (uint64_t)value(x, y, 0);
         w8[y * W + x] = v;
         wh[y * W + x] = v;   /* uint2 {x, y}: the same bytes, the low half first */
         w16[2 * (y * W + x)] = (unsigned long long)value(x, y, 1);
         w16[2 * (y * W + x) + 1] = (unsigned long long)value(x, y, 2);
      }
      uint64_t *o = w8 + W * H + 4 * y;
      o[0] = 0, o[1] = 0;
      o[2] = (unsigned long long)value(0, y, 0), o[3] = (unsigned long long)value(W - 1, y, 0);
   }
   for (int i = 0; i < W1; i++)
      w1[i] = (unsigned long long)value(i, 99, 3);
   CHECK_ARRAY_U64("surf2Dread<long long> after surf2Dwrite", g8, w8, W * H);
   CHECK_ARRAY_U64("surf2Dread<long long> outside: zero, clamp", g8 + W * H, w8 + W * H, 4 * H);
   CHECK_ARRAY_U64("surf2Dread<uint2> of 8-byte texels", gh, wh, W * H);
   CHECK_ARRAY_U64("surf2Dread<longlong2> after surf2Dwrite", g16, w16, 2 * W * H);
   CHECK_ARRAY_U64("surf1Dread<unsigned long long> after surf1Dwrite", g1, w1, W1);
   CHECK_ARRAY_U64("cudaMemcpy2DFromArray of the 8-byte surface", b8, w8, W * H);
   CHECK_ARRAY_U64("cudaMemcpy2DFromArray of the 16-byte surface", b16, w16, 2 * W * H);
   CHECK_ARRAY_U64("cudaMemcpy2DFromArray of the 1-D surface", b1, w1, W1);

   CHECK_CUDA(cudaDestroySurfaceObject(s8));
   CHECK_CUDA(cudaDestroySurfaceObject(s16));
   CHECK_CUDA(cudaDestroySurfaceObject(s1));
   CHECK_CUDA(cudaFreeArray(a8));
   CHECK_CUDA(cudaFreeArray(a16));
   CHECK_CUDA(cudaFreeArray(a1));
   CHECK_CUDA(cudaFree(d8));
   CHECK_CUDA(cudaFree(dh));
   CHECK_CUDA(cudaFree(d16));
   CHECK_CUDA(cudaFree(d1));
   return check_end();
}
