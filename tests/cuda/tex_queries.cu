/*
 * tex_queries.cu — cudaGetTextureObjectResourceDesc/TextureDesc/
 * ResourceViewDesc and cudaGetSurfaceObjectResourceDesc: each object reads
 * back the descriptors it was made from (an array with linear filtering,
 * normalised coordinates, border colour and mipmap fields; pitch-linear
 * uchar4 memory read as elements; linear short2 memory; a surface over an
 * array), field by field; NULL descriptors.  Expected values: what the
 * program passed in, and the statuses an H200 gave (CUDA 13.0, driver
 * 580), some of which depart from the documentation: a texture made
 * without a resource view answers cudaSuccess for its view (with contents
 * undefined; CUDA documents cudaErrorInvalidValue), a NULL texture
 * descriptor cudaErrorInvalidResourceHandle, a NULL surface resource
 * descriptor cudaErrorInvalidDevice.  The border colour is not compared:
 * the H200 returned other values than the ones given (garbage, or zero).
 */
#include "check.h"

#include <string.h>

static void check_channel(const cudaChannelFormatDesc &got, const cudaChannelFormatDesc &want, const char *what)
{
   if (!CHECK(got.x == want.x && got.y == want.y && got.z == want.z && got.w == want.w && got.f == want.f))
      printf("  %s: channel {%d %d %d %d %d}, want {%d %d %d %d %d}\n", what, got.x, got.y, got.z, got.w, (int)got.f,
             want.x, want.y, want.z, want.w, (int)want.f);
}

static cudaTextureDesc texture_desc(cudaTextureAddressMode a, cudaTextureFilterMode f, cudaTextureReadMode r,
                                    int norm)
{
   cudaTextureDesc t;
   memset(&t, 0, sizeof(t));
   t.addressMode[0] = a;
   t.addressMode[1] = cudaAddressModeClamp;
   t.addressMode[2] = cudaAddressModeWrap;
   t.filterMode = f;
   t.readMode = r;
   t.normalizedCoords = norm;
   return t;
}

static void check_texture_desc(const cudaTextureDesc &g, const cudaTextureDesc &w, const char *what)
{
   bool same = g.addressMode[0] == w.addressMode[0] && g.addressMode[1] == w.addressMode[1] &&
               g.addressMode[2] == w.addressMode[2] && g.filterMode == w.filterMode && g.readMode == w.readMode &&
               g.sRGB == w.sRGB && g.normalizedCoords == w.normalizedCoords && g.maxAnisotropy == w.maxAnisotropy &&
               g.disableTrilinearOptimization == w.disableTrilinearOptimization &&
               g.mipmapFilterMode == w.mipmapFilterMode && g.mipmapLevelBias == w.mipmapLevelBias &&
               g.minMipmapLevelClamp == w.minMipmapLevelClamp && g.maxMipmapLevelClamp == w.maxMipmapLevelClamp;
   if (!CHECK(same))
      printf("  %s: the texture descriptor read back differs (address %d %d %d filter %d read %d norm %d srgb %d)\n",
             what, g.addressMode[0], g.addressMode[1], g.addressMode[2], g.filterMode, g.readMode, g.normalizedCoords,
             g.sRGB);
}

int main()
{
   check_begin("tex_queries");

   /* a float CUDA array, linear filtering, normalised coordinates, border */
   cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
   cudaArray_t arr;
   CHECK_CUDA(cudaMallocArray(&arr, &cf, 16, 8));
   cudaResourceDesc ra;
   memset(&ra, 0, sizeof(ra));
   ra.resType = cudaResourceTypeArray;
   ra.res.array.array = arr;
   cudaTextureDesc ta = texture_desc(cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeElementType, 1);
   ta.borderColor[0] = 0.25f;
   ta.borderColor[3] = -1.5f;
   ta.mipmapFilterMode = cudaFilterModeLinear;
   ta.maxAnisotropy = 4;
   ta.mipmapLevelBias = 0.5f;
   ta.minMipmapLevelClamp = 1.0f;
   ta.maxMipmapLevelClamp = 3.0f;
   ta.disableTrilinearOptimization = 1;
   cudaTextureObject_t t1 = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t1, &ra, &ta, NULL));
   cudaResourceDesc rg;
   cudaTextureDesc tg;
   memset(&rg, 0x5a, sizeof(rg));
   CHECK_CUDA(cudaGetTextureObjectResourceDesc(&rg, t1));
   CHECK_INT(rg.resType, cudaResourceTypeArray);
   CHECK(rg.res.array.array == arr);
   memset(&tg, 0x5a, sizeof(tg));
   CHECK_CUDA(cudaGetTextureObjectTextureDesc(&tg, t1));
   check_texture_desc(tg, ta, "array texture");
   cudaResourceViewDesc vg;
   CHECK_CUDA(cudaGetTextureObjectResourceViewDesc(&vg, t1));
   CHECK_CUDA(cudaGetTextureObjectResourceViewDesc(NULL, t1));
   CHECK_ERR(cudaGetTextureObjectResourceDesc(NULL, t1), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetTextureObjectTextureDesc(NULL, t1), cudaErrorInvalidResourceHandle);
   CHECK_ERR(cudaGetTextureObjectResourceDesc(&rg, 12345), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);

   /* pitch-linear uchar4 read as elements, point filtering */
   void *mem;
   size_t pitch;
   CHECK_CUDA(cudaMallocPitch(&mem, &pitch, 20 * 4, 6));
   cudaResourceDesc rp;
   memset(&rp, 0, sizeof(rp));
   rp.resType = cudaResourceTypePitch2D;
   rp.res.pitch2D.devPtr = mem;
   rp.res.pitch2D.desc = cudaCreateChannelDesc<uchar4>();
   rp.res.pitch2D.width = 20;
   rp.res.pitch2D.height = 6;
   rp.res.pitch2D.pitchInBytes = pitch;
   cudaTextureDesc tp = texture_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
   cudaTextureObject_t t2 = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t2, &rp, &tp, NULL));
   CHECK_CUDA(cudaGetTextureObjectResourceDesc(&rg, t2));
   CHECK_INT(rg.resType, cudaResourceTypePitch2D);
   CHECK(rg.res.pitch2D.devPtr == mem);
   check_channel(rg.res.pitch2D.desc, rp.res.pitch2D.desc, "pitch2D uchar4");
   CHECK_INT(rg.res.pitch2D.width, 20);
   CHECK_INT(rg.res.pitch2D.height, 6);
   CHECK_INT(rg.res.pitch2D.pitchInBytes, pitch);
   CHECK_CUDA(cudaGetTextureObjectTextureDesc(&tg, t2));
   check_texture_desc(tg, tp, "pitch2D texture");

   /* linear float2 memory, normalised-float read of a short2 */
   void *lin;
   CHECK_CUDA(cudaMalloc(&lin, 4096));
   cudaResourceDesc rl;
   memset(&rl, 0, sizeof(rl));
   rl.resType = cudaResourceTypeLinear;
   rl.res.linear.devPtr = lin;
   rl.res.linear.desc = cudaCreateChannelDesc<short2>();
   rl.res.linear.sizeInBytes = 4096;
   cudaTextureDesc tl = texture_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
   cudaTextureObject_t t3 = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t3, &rl, &tl, NULL));
   CHECK_CUDA(cudaGetTextureObjectResourceDesc(&rg, t3));
   CHECK_INT(rg.resType, cudaResourceTypeLinear);
   CHECK(rg.res.linear.devPtr == lin);
   check_channel(rg.res.linear.desc, rl.res.linear.desc, "linear short2");
   CHECK_INT(rg.res.linear.sizeInBytes, 4096);
   CHECK_CUDA(cudaGetTextureObjectTextureDesc(&tg, t3));
   check_texture_desc(tg, tl, "linear texture");

   /* a surface over an array made for surface loads and stores */
   cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
   cudaArray_t sarr;
   CHECK_CUDA(cudaMallocArray(&sarr, &ci, 8, 8, cudaArraySurfaceLoadStore));
   cudaResourceDesc rs;
   memset(&rs, 0, sizeof(rs));
   rs.resType = cudaResourceTypeArray;
   rs.res.array.array = sarr;
   cudaSurfaceObject_t s = 0;
   CHECK_CUDA(cudaCreateSurfaceObject(&s, &rs));
   memset(&rg, 0x5a, sizeof(rg));
   CHECK_CUDA(cudaGetSurfaceObjectResourceDesc(&rg, s));
   CHECK_INT(rg.resType, cudaResourceTypeArray);
   CHECK(rg.res.array.array == sarr);
   CHECK_ERR(cudaGetSurfaceObjectResourceDesc(NULL, s), cudaErrorInvalidDevice);
   cudaGetLastError();

   CHECK_CUDA(cudaDestroySurfaceObject(s));
   CHECK_CUDA(cudaDestroyTextureObject(t1));
   CHECK_CUDA(cudaDestroyTextureObject(t2));
   CHECK_CUDA(cudaDestroyTextureObject(t3));
   CHECK_CUDA(cudaFreeArray(arr));
   CHECK_CUDA(cudaFreeArray(sarr));
   CHECK_CUDA(cudaFree(mem));
   CHECK_CUDA(cudaFree(lin));
   return check_end();
}
