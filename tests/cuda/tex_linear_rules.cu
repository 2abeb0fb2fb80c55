/*
 * tex_linear_rules.cu — which texture objects over linear memory
 * (cudaResourceTypeLinear) cudaCreateTextureObject accepts, by channel
 * format, read mode and filter mode, for every address mode, with and
 * without normalised coordinates and for three sizes.  Expected: what an
 * H100 answered to each of the 864 (CUDA 13.0, driver 580;
 * tests/cuda/NATIVE.md, 2026-12-06), which follows three rules:
 *  - float channels: read as elements, point or linear; read as
 *    normalised floats, cudaErrorInvalidNormSetting;
 *  - integer channels: read as elements, point only (linear is
 *    cudaErrorInvalidFilterSetting); read as normalised floats, either;
 *  - the normalised formats (unorm/snorm): cudaErrorInvalidNormSetting as
 *    elements, cudaErrorInvalidValue as normalised floats (only arrays take
 *    them: tex_unorm).
 * The address modes, normalised coordinates and size never change the
 * answer.  Pitched 2-D memory (cudaResourceTypePitch2D, 16 x 4 elements,
 * clamped, unnormalised coordinates) follows the same three rules, half
 * channels as floats: an H100's answers (tests/cuda/NATIVE.md, twenty-sixth
 * session, probe p2.cu).
 */
#include "check.h"

#include <string.h>

struct fmt {
   const char *name;
   int x, y, z, w, kind;
   int cls;   /* 0 float, 1 integer, 2 normalised format */
};

static cudaError_t expected(const fmt &f, int read_norm, int linear)
{
   if (f.cls == 0)
      return read_norm ? cudaErrorInvalidNormSetting : cudaSuccess;
   if (f.cls == 1)
      return !read_norm && linear ? cudaErrorInvalidFilterSetting : cudaSuccess;
   return read_norm ? cudaErrorInvalidValue : cudaErrorInvalidNormSetting;
}

int main()
{
   check_begin("tex_linear_rules");
   void *p = NULL;
   CHECK_CUDA(cudaMalloc(&p, 1 << 20));
   static const fmt fm[] = {
      {"u8", 8, 0, 0, 0, 0, 1}, {"u8x4", 8, 8, 8, 8, 0, 1}, {"s16x2", 16, 16, 0, 0, 1, 1},
      {"f32", 32, 0, 0, 0, 2, 0}, {"unorm8x1", 8, 0, 0, 0, 5, 2}, {"unorm8x4", 8, 8, 8, 8, 7, 2},
      {"unorm16x2", 16, 16, 0, 0, 9, 2}, {"snorm8x1", 8, 0, 0, 0, 11, 2}, {"snorm16x4", 16, 16, 16, 16, 16, 2}};
   static const size_t sizes[] = {64, 1024, 65536};
   int wrong = 0, total = 0;
   for (const fmt &f : fm)
      for (size_t sz : sizes)
         for (int am = 0; am < 4; am++)
            for (int rm = 0; rm < 2; rm++)
               for (int fl = 0; fl < 2; fl++)
                  for (int nc = 0; nc < 2; nc++) {
                     cudaResourceDesc r;
                     memset(&r, 0, sizeof r);
                     r.resType = cudaResourceTypeLinear;
                     r.res.linear.devPtr = p;
                     r.res.linear.desc = cudaCreateChannelDesc(f.x, f.y, f.z, f.w, (cudaChannelFormatKind)f.kind);
                     r.res.linear.sizeInBytes = sz;
                     cudaTextureDesc t;
                     memset(&t, 0, sizeof t);
                     t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = (cudaTextureAddressMode)am;
                     t.readMode = (cudaTextureReadMode)rm;
                     t.filterMode = (cudaTextureFilterMode)fl;
                     t.normalizedCoords = nc;
                     cudaTextureObject_t o = 0;
                     cudaError_t e = cudaCreateTextureObject(&o, &r, &t, NULL);
                     cudaGetLastError();
                     cudaError_t want = expected(f, rm, fl);
                     total++;
                     if (e != want && wrong++ < 8)
                        printf("  %s, %zu bytes, address mode %d, read %s, filter %s, normalised coordinates %d: "
                               "%s, want %s\n",
                               f.name, sz, am, rm ? "normalised" : "elements", fl ? "linear" : "point", nc,
                               cudaGetErrorName(e), cudaGetErrorName(want));
                     if (e == cudaSuccess)
                        CHECK_CUDA(cudaDestroyTextureObject(o));
                  }
   CHECK_INT(wrong, 0);
   CHECK_INT(total, 864);

   /* pitched 2-D memory: the same formats and half2 */
   static const fmt fm2[] = {
      {"u8", 8, 0, 0, 0, 0, 1}, {"u8x4", 8, 8, 8, 8, 0, 1}, {"s16x2", 16, 16, 0, 0, 1, 1},
      {"f32", 32, 0, 0, 0, 2, 0}, {"half2", 16, 16, 0, 0, 2, 0}, {"unorm8x1", 8, 0, 0, 0, 5, 2},
      {"unorm8x4", 8, 8, 8, 8, 7, 2}, {"unorm16x2", 16, 16, 0, 0, 9, 2}, {"snorm8x1", 8, 0, 0, 0, 11, 2},
      {"snorm16x4", 16, 16, 16, 16, 16, 2}};
   void *q = NULL;
   size_t pitch = 0;
   CHECK_CUDA(cudaMallocPitch(&q, &pitch, 16 * 8, 4));
   int wrong2 = 0, total2 = 0;
   for (const fmt &f : fm2)
      for (int rm = 0; rm < 2; rm++)
         for (int fl = 0; fl < 2; fl++) {
            cudaResourceDesc r;
            memset(&r, 0, sizeof r);
            r.resType = cudaResourceTypePitch2D;
            r.res.pitch2D.devPtr = q;
            r.res.pitch2D.desc = cudaCreateChannelDesc(f.x, f.y, f.z, f.w, (cudaChannelFormatKind)f.kind);
            r.res.pitch2D.width = 16;
            r.res.pitch2D.height = 4;
            r.res.pitch2D.pitchInBytes = pitch;
            cudaTextureDesc t;
            memset(&t, 0, sizeof t);
            t.addressMode[0] = t.addressMode[1] = cudaAddressModeClamp;
            t.readMode = (cudaTextureReadMode)rm;
            t.filterMode = (cudaTextureFilterMode)fl;
            cudaTextureObject_t o = 0;
            cudaError_t e = cudaCreateTextureObject(&o, &r, &t, NULL);
            cudaGetLastError();
            cudaError_t want = expected(f, rm, fl);
            total2++;
            if (e != want && wrong2++ < 8)
               printf("  pitched %s, read %s, filter %s: %s, want %s\n", f.name, rm ? "normalised" : "elements",
                      fl ? "linear" : "point", cudaGetErrorName(e), cudaGetErrorName(want));
            if (e == cudaSuccess)
               CHECK_CUDA(cudaDestroyTextureObject(o));
         }
   CHECK_INT(wrong2, 0);
   CHECK_INT(total2, 40);
   CHECK_CUDA(cudaFree(q));
   CHECK_CUDA(cudaFree(p));
   return check_end();
}
