/*
 * tex_cubemap.cu — cube-map CUDA arrays (cudaArrayCubemap, with
 * cudaArrayLayered too) against a host model of the CUDA C++ Programming
 * Guide's cubemap fetch table: the major axis m of the direction (x, y, z)
 * picks the face (+x 0, -x 1, +y 2, -y 3, +z 4, -z 5) and its coordinates
 * (sc, tc) = +x (-z, -y), -x (z, -y), +y (x, z), -y (x, -z), +z (x, -y),
 * -z (-x, -y); the face is read at s = (sc / m + 1) / 2, t = (tc / m + 1) / 2
 * scaled by the face's size:
 *
 *  - cudaMalloc3DArray with cudaArrayCubemap ({n, n, 6}) and cudaMemcpy3D
 *    of the six faces; cudaArrayGetInfo;
 *  - texCubemap<float2> with point sampling, normalised coordinates or not,
 *    at directions that fall inside texels (no ties between axes, no
 *    coordinate on a texel boundary);
 *  - linear filtering inside a face, and near its edges (the corner outside
 *    the face clamps to the face);
 *  - texCubemapLayered<float> of a layered cube map (layers of six faces),
 *    the layer unsigned and clamped to the last cube;
 *  - surfCubemapwrite then cudaMemcpy3D back;
 *  - the limits an H200 reports (maxTextureCubemap, maxTextureCubemapLayered,
 *    maxSurfaceCubemap, maxSurfaceCubemapLayered) and the shapes it refuses.
 */
#include "tex_model.h"

#include <math.h>

#define N 4
#define NC 96
#define NL 3     /* the layered cube map's faces are NL x NL */
#define CUBES 2

__global__ void k_cube(cudaTextureObject_t t, const float4 *d, float2 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = texCubemap<float2>(t, d[i].x, d[i].y, d[i].z);
}

__global__ void k_cube_layered(cudaTextureObject_t t, const float4 *d, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = texCubemapLayered<float>(t, d[i].x, d[i].y, d[i].z, (int)d[i].w);
}

__global__ void k_surf(cudaSurfaceObject_t s)
{
   int x = threadIdx.x, y = threadIdx.y, f = blockIdx.x;
   surfCubemapwrite(make_uchar2(f * 16 + y * 4 + x, 255 - f), s, x * 2, y, f);
}

static int clampi(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* Point or linear fetch of channel c from slice `slice` of faces n x n
 * (texels: slice, y, x, nchan), clamped to the face. */
static float model_fetch(const float *texels, int n, int nchan, int slice, float s, float t, bool linear, int c)
{
   float x = s * n, y = t * n;
   if (!linear)
      return texels[((slice * n + clampi((int)floorf(y), n)) * n + clampi((int)floorf(x), n)) * nchan + c];
   float xb = x - 0.5f, yb = y - 0.5f, fx = floorf(xb), fy = floorf(yb);
   int a = (int)rintf((xb - fx) * 256.0f), b = (int)rintf((yb - fy) * 256.0f), i = (int)fx, j = (int)fy;
   int ab = (a * b + 128) >> 8;
   int w[4] = { 256 - a - b + ab, a - ab, b - ab, ab };
   float r = 0;
   for (int k = 0; k < 4; k++) {
      int xi = clampi(i + (k & 1), n), yj = clampi(j + (k >> 1), n);
      r += w[k] / 256.0f * texels[((slice * n + yj) * n + xi) * nchan + c];
   }
   return r;
}

static float frac_dist(float x) { return fabsf(x - rintf(x)); }

static unsigned seed = 12345;

static unsigned next_random(void)
{
   seed = seed * 1103515245u + 12345u;
   return seed >> 8;
}

/* A random direction v of length scale m into a random face, its face
 * coordinates (s, t) in [inset, 1 - inset) as the model computes them;
 * false if two axes nearly tie (the table leaves ties open). */
static bool random_direction(float inset, float m, float *v, float *s, float *t)
{
   int f = next_random() % 6;
   float s0 = (next_random() & 0xffff) / 65536.0f * (1 - 2 * inset) + inset;
   float t0 = (next_random() & 0xffff) / 65536.0f * (1 - 2 * inset) + inset;
   tex_model_cube_direction(f, s0, t0, m, v);
   tex_model_cube_face(v, s, t);
   float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]);
   float m1 = fmaxf(ax, fmaxf(ay, az)), m2 = ax == m1 ? fmaxf(ay, az) : ay == m1 ? fmaxf(ax, az) : fmaxf(ax, ay);
   return m2 <= m1 * 0.99f;
}

int main(void)
{
   check_begin("tex_cubemap");
   static const struct { cudaDeviceAttr a; int v; } attrs[] = {
      { cudaDevAttrMaxTextureCubemapWidth, 32768 },        { cudaDevAttrMaxTextureCubemapLayeredWidth, 32768 },
      { cudaDevAttrMaxTextureCubemapLayeredLayers, 2046 }, { cudaDevAttrMaxSurfaceCubemapWidth, 32768 },
      { cudaDevAttrMaxSurfaceCubemapLayeredWidth, 32768 }, { cudaDevAttrMaxSurfaceCubemapLayeredLayers, 2046 },
   };
   for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++) {
      int v = -1;
      CHECK_CUDA(cudaDeviceGetAttribute(&v, attrs[k].a, 0));
      CHECK_INT(v, attrs[k].v);
   }

   /* a cube map of float2: (face * 100 + y * 10 + x, a small integer) */
   static float tex[6 * N * N * 2], back[6 * N * N * 2];
   for (int f = 0; f < 6; f++)
      for (int y = 0; y < N; y++)
         for (int x = 0; x < N; x++) {
            tex[((f * N + y) * N + x) * 2] = (float)(f * 100 + y * 10 + x);
            tex[((f * N + y) * N + x) * 2 + 1] = (float)((f * 7 + y * 5 + x * 3) % 11) - 5.0f;
         }
   cudaChannelFormatDesc c2 = cudaCreateChannelDesc<float2>();
   cudaArray_t a;
   CHECK_CUDA(cudaMalloc3DArray(&a, &c2, make_cudaExtent(N, N, 6), cudaArrayCubemap));
   tex_model_copy3d(a, tex, N * 8, N, N, 6, true);
   tex_model_copy3d(a, back, N * 8, N, N, 6, false);
   CHECK_ARRAY_F32("cudaMemcpy3D to and from a cube map", back, tex, 6 * N * N * 2);
   cudaExtent e;
   unsigned fl = 0;
   CHECK_CUDA(cudaArrayGetInfo(NULL, &e, &fl, a));
   CHECK_INT(e.width, N);
   CHECK_INT(e.height, N);
   CHECK_INT(e.depth, 6);
   CHECK_INT(fl, cudaArrayCubemap);

   /* directions: point cases inside texels, linear cases anywhere in a face */
   static float4 dirs[NC];
   float4 *ddirs;
   CHECK_CUDA(cudaMalloc(&ddirs, sizeof(dirs)));
   float2 *dout;
   static float2 out[NC];
   CHECK_CUDA(cudaMalloc(&dout, sizeof(out)));
   for (int pass = 0; pass < 3; pass++) {
      bool linear = pass == 2, norm = pass != 1;
      for (int k = 0; k < NC; k++) {
         float v[3], s2, t2;
         for (;;) {
            if (!random_direction(0.01f, 0.5f + (k % 5) * 0.75f, v, &s2, &t2))
               continue;
            if (!linear && (frac_dist(s2 * N) < 0.02f || frac_dist(t2 * N) < 0.02f))
               continue;   /* near a texel boundary */
            if (linear && (frac_dist(s2 * N * 256 - 128) < 0.05f || frac_dist(t2 * N * 256 - 128) < 0.05f))
               continue;   /* near a rounding tie of the 1.8 weights */
            break;
         }
         dirs[k] = make_float4(v[0], v[1], v[2], 0);
      }
      CHECK_CUDA(cudaMemcpy(ddirs, dirs, sizeof(dirs), cudaMemcpyHostToDevice));
      cudaTextureObject_t to = tex_model_object(a, cudaAddressModeClamp, cudaAddressModeClamp, linear, norm,
                                                cudaReadModeElementType, NULL);
      k_cube<<<1, NC>>>(to, ddirs, dout, NC);
      CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
      static float got[NC * 2], want[NC * 2];
      for (int k = 0; k < NC; k++) {
         float v[3] = { dirs[k].x, dirs[k].y, dirs[k].z }, s, t;
         int f = tex_model_cube_face(v, &s, &t);
         for (int c = 0; c < 2; c++)
            want[2 * k + c] = model_fetch(tex, N, 2, f, s, t, linear, c);
         got[2 * k] = out[k].x, got[2 * k + 1] = out[k].y;
      }
      CHECK_ARRAY_F32(pass == 0 ? "texCubemap point, normalised" : pass == 1 ? "texCubemap point, unnormalised"
                                                                             : "texCubemap linear",
                      got, want, NC * 2);
      CHECK_CUDA(cudaDestroyTextureObject(to));
   }
   CHECK_CUDA(cudaFreeArray(a));

   /* a layered cube map of floats */
   {
      static float lt[CUBES * 6 * NL * NL];
      for (int i = 0; i < CUBES * 6 * NL * NL; i++)
         lt[i] = (float)i;
      cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
      CHECK_CUDA(cudaMalloc3DArray(&a, &c1, make_cudaExtent(NL, NL, 6 * CUBES), cudaArrayCubemap | cudaArrayLayered));
      tex_model_copy3d(a, lt, NL * 4, NL, NL, 6 * CUBES, true);
      static const int layers[] = { 0, 1, 5, -1 };
      for (int k = 0; k < NC; k++) {
         float v[3], s2, t2;
         while (!random_direction(0, 1.0f, v, &s2, &t2) || frac_dist(s2 * NL) < 0.02f || frac_dist(t2 * NL) < 0.02f)
            ;
         dirs[k] = make_float4(v[0], v[1], v[2], (float)layers[k % 4]);
      }
      CHECK_CUDA(cudaMemcpy(ddirs, dirs, sizeof(dirs), cudaMemcpyHostToDevice));
      cudaTextureObject_t to = tex_model_object(a, cudaAddressModeClamp, cudaAddressModeClamp, false, true,
                                                cudaReadModeElementType, NULL);
      float *dl, got[NC], want[NC];
      CHECK_CUDA(cudaMalloc(&dl, sizeof(got)));
      k_cube_layered<<<1, NC>>>(to, ddirs, dl, NC);
      CHECK_CUDA(cudaMemcpy(got, dl, sizeof(got), cudaMemcpyDeviceToHost));
      for (int k = 0; k < NC; k++) {
         float v[3] = { dirs[k].x, dirs[k].y, dirs[k].z }, s, t;
         int f = tex_model_cube_face(v, &s, &t), l = (int)dirs[k].w;
         l = (unsigned)l >= CUBES ? CUBES - 1 : l;   /* unsigned, clamped to the last cube */
         want[k] = model_fetch(lt, NL, 1, 6 * l + f, s, t, false, 0);
      }
      CHECK_ARRAY_F32("texCubemapLayered point", got, want, NC);
      CHECK_CUDA(cudaDestroyTextureObject(to));
      CHECK_CUDA(cudaFreeArray(a));
      cudaFree(dl);
   }

   /* a cube-map surface */
   {
      cudaChannelFormatDesc cu2 = cudaCreateChannelDesc<uchar2>();
      CHECK_CUDA(cudaMalloc3DArray(&a, &cu2, make_cudaExtent(N, N, 6), cudaArrayCubemap | cudaArraySurfaceLoadStore));
      cudaResourceDesc rd;
      memset(&rd, 0, sizeof(rd));
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = a;
      cudaSurfaceObject_t s;
      CHECK_CUDA(cudaCreateSurfaceObject(&s, &rd));
      k_surf<<<6, dim3(N, N)>>>(s);
      static unsigned char sb[6 * N * N * 2], sw[6 * N * N * 2];
      tex_model_copy3d(a, sb, N * 2, N, N, 6, false);
      uint32_t gs[6 * N * N], ws[6 * N * N];
      for (int f = 0; f < 6; f++)
         for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
               int i = (f * N + y) * N + x;
               sw[2 * i] = (unsigned char)(f * 16 + y * 4 + x), sw[2 * i + 1] = (unsigned char)(255 - f);
               gs[i] = sb[2 * i] | sb[2 * i + 1] << 8;
               ws[i] = sw[2 * i] | sw[2 * i + 1] << 8;
            }
      CHECK_ARRAY_U32("surfCubemapwrite, then cudaMemcpy3D", gs, ws, 6 * N * N);
      CHECK_CUDA(cudaDestroySurfaceObject(s));
      CHECK_CUDA(cudaFreeArray(a));
   }

   /* the shapes refused */
   {
      cudaChannelFormatDesc c1 = cudaCreateChannelDesc<unsigned char>();
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(8, 4, 6), cudaArrayCubemap), cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(8, 8, 5), cudaArrayCubemap), cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(8, 8, 12), cudaArrayCubemap), cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(32769, 32769, 6), cudaArrayCubemap),
                cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(8, 8, 13), cudaArrayCubemap | cudaArrayLayered),
                cudaErrorInvalidValue);
      CHECK_ERR(cudaMalloc3DArray(&a, &c1, make_cudaExtent(8, 8, 2052), cudaArrayCubemap | cudaArrayLayered),
                cudaErrorInvalidValue);
      CHECK_CUDA(cudaMalloc3DArray(&a, &c1, make_cudaExtent(8, 8, 2046), cudaArrayCubemap | cudaArrayLayered));
      CHECK_CUDA(cudaFreeArray(a));
      cudaGetLastError();
   }
   cudaFree(ddirs);
   cudaFree(dout);
   return check_end();
}
