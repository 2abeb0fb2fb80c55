/*
 * tex_gather_cube.cu — tld4 on cube maps (PTX tld4.{r,g,b,a}.cube and
 * .acube, inline PTX: CUDA C++ has no cube-map gather) against a host
 * model: the face and its (s, t) by the CUDA C++ Programming Guide's
 * cubemap table (tex_model.h, as tex_cubemap.cu: the major axis picks the face), then
 * the 2-D gather of tex_gather.cu on that face — component comp of the
 * four texels of the bilinear footprint of (s n, t n) in 1.8 fixed point,
 * (T[i][j+1], T[i+1][j+1], T[i+1][j], T[i][j]) — each texel clamped to
 * the face, as cube-map linear filtering clamps (tex_cubemap.cu).
 *  - a 5 x 5 cube map of float4, random directions of random lengths
 *    inside the faces and within a texel of their edges (no near-ties
 *    between axes: the table leaves ties open);
 *  - a layered cube map (2 cubes of 3 x 3), tld4.acube with layers 0, 1
 *    and 7 (clamped to the last cube, as texCubemapLayered clamps).
 */
#include "tex_model.h"

enum { N = 5, NL = 3, CUBES = 2, ND = 128 };

static float texel(int cube, int f, int y, int x, int c)
{
   return (float)(cube * 10000 + f * 1000 + y * 100 + x * 10 + c) + 0.5f;
}

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static void model_gather(const float *v, int n, int cube, int comp, float out[4])
{
   float s, t;
   int f = tex_model_cube_face(v, &s, &t), i, j;
   tex_model_gather_origin(s * n, t * n, &i, &j);
   for (int k = 0; k < 4; k++)
      out[k] = texel(cube, f, clampi(j + tex_model_gather_dj[k], n), clampi(i + tex_model_gather_di[k], n), comp);
}

static unsigned seed = 2026;

static unsigned next_random(void)
{
   seed = seed * 1103515245u + 12345u;
   return seed >> 8;
}

/* Random directions, half of them within a texel of a face's edge. */
static void make_directions(float4 *d, int n)
{
   static const float scales[] = { 1.0f, 0.37f, 5.5f, 123.0f };
   for (int k = 0; k < ND;) {
      int f = (int)(next_random() % 6);
      float edge = 1.0f / (float)n;
      float s = (next_random() & 0xffff) / 65536.0f, t = (next_random() & 0xffff) / 65536.0f;
      if (k % 2) {   /* near an edge: one coordinate within a texel of 0 or 1 */
         float e = (next_random() & 0xffff) / 65536.0f * edge;
         if (next_random() & 1)
            s = (next_random() & 1) ? e : 1.0f - e;
         else
            t = (next_random() & 1) ? e : 1.0f - e;
      }
      float v[3];
      tex_model_cube_direction(f, s, t, scales[k % 4], v);
      float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]);
      float m1 = fmaxf(ax, fmaxf(ay, az)), m2 = ax == m1 ? fmaxf(ay, az) : ay == m1 ? fmaxf(ax, az) : fmaxf(ax, ay);
      if (m2 > m1 * 0.999f)
         continue;
      d[k++] = make_float4(v[0], v[1], v[2], 0.0f);
   }
}

/* out[(k * 4 + comp) * 4 + q] */
__global__ void k_cube(cudaTextureObject_t t, const float4 *d, float *out)
{
   int k = blockIdx.x * blockDim.x + threadIdx.x;
   if (k >= ND)
      return;
   float x = d[k].x, y = d[k].y, z = d[k].z, r[4][4];
   asm("tld4.r.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[0][0]), "=f"(r[0][1]), "=f"(r[0][2]), "=f"(r[0][3]) : "l"(t), "f"(x), "f"(y), "f"(z));
   asm("tld4.g.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[1][0]), "=f"(r[1][1]), "=f"(r[1][2]), "=f"(r[1][3]) : "l"(t), "f"(x), "f"(y), "f"(z));
   asm("tld4.b.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[2][0]), "=f"(r[2][1]), "=f"(r[2][2]), "=f"(r[2][3]) : "l"(t), "f"(x), "f"(y), "f"(z));
   asm("tld4.a.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
       : "=f"(r[3][0]), "=f"(r[3][1]), "=f"(r[3][2]), "=f"(r[3][3]) : "l"(t), "f"(x), "f"(y), "f"(z));
   for (int c = 0; c < 4; c++)
      for (int q = 0; q < 4; q++)
         out[(k * 4 + c) * 4 + q] = r[c][q];
}

/* out[((li * ND + k) * 4 + q], component g */
__global__ void k_acube(cudaTextureObject_t t, const float4 *d, const unsigned *lay, float *out)
{
   int k = threadIdx.x + blockIdx.x * blockDim.x, li = blockIdx.y;
   if (k >= ND)
      return;
   float r0, r1, r2, r3;
   asm("tld4.g.acube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];"
       : "=f"(r0), "=f"(r1), "=f"(r2), "=f"(r3)
       : "l"(t), "r"(lay[li]), "f"(d[k].x), "f"(d[k].y), "f"(d[k].z));
   float *o = out + (li * ND + k) * 4;
   o[0] = r0, o[1] = r1, o[2] = r2, o[3] = r3;
}

static cudaArray_t make_cube(int n, int cubes, float *host)
{
   cudaChannelFormatDesc cf4 = cudaCreateChannelDesc<float4>();
   cudaArray_t a;
   unsigned flags = cudaArrayCubemap | (cubes > 1 ? cudaArrayLayered : 0);
   CHECK_CUDA(cudaMalloc3DArray(&a, &cf4, make_cudaExtent(n, n, 6 * cubes), flags));
   tex_model_copy3d(a, host, n * 16, n, n, 6 * cubes, true);
   return a;
}

int main(void)
{
   check_begin("tex_gather_cube");
   CHECK_CUDA(cudaSetDevice(0));
   static float4 dirs[ND];
   float4 *dd;
   float *dout;
   static float got[ND * 16 * 3], want[ND * 16 * 3];
   CHECK_CUDA(cudaMalloc(&dd, sizeof dirs));
   CHECK_CUDA(cudaMalloc(&dout, sizeof got));

   /* one cube of N x N faces */
   {
      static float host[6 * N * N * 4];
      for (int f = 0; f < 6; f++)
         for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++)
               for (int c = 0; c < 4; c++)
                  host[((f * N + y) * N + x) * 4 + c] = texel(0, f, y, x, c);
      cudaArray_t a = make_cube(N, 1, host);
      cudaTextureObject_t t = tex_model_point_object(a);
      make_directions(dirs, N);
      CHECK_CUDA(cudaMemcpy(dd, dirs, sizeof dirs, cudaMemcpyHostToDevice));
      k_cube<<<ND / 64, 64>>>(t, dd, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaMemcpy(got, dout, ND * 16 * sizeof(float), cudaMemcpyDeviceToHost));
      for (int k = 0; k < ND; k++) {
         float v[3] = { dirs[k].x, dirs[k].y, dirs[k].z };
         for (int c = 0; c < 4; c++)
            model_gather(v, N, 0, c, &want[(k * 4 + c) * 4]);
      }
      CHECK_ARRAY_F32("tld4.{r,g,b,a}.cube, inside faces and near their edges", got, want, ND * 16);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeArray(a));
   }

   /* a layered cube map: CUBES cubes of NL x NL faces */
   {
      static float host[CUBES * 6 * NL * NL * 4];
      for (int q = 0; q < CUBES; q++)
         for (int f = 0; f < 6; f++)
            for (int y = 0; y < NL; y++)
               for (int x = 0; x < NL; x++)
                  for (int c = 0; c < 4; c++)
                     host[(((q * 6 + f) * NL + y) * NL + x) * 4 + c] = texel(q, f, y, x, c);
      cudaArray_t a = make_cube(NL, CUBES, host);
      cudaTextureObject_t t = tex_model_point_object(a);
      make_directions(dirs, NL);
      CHECK_CUDA(cudaMemcpy(dd, dirs, sizeof dirs, cudaMemcpyHostToDevice));
      static const unsigned lays[3] = { 0u, 1u, 7u };
      unsigned *dl;
      CHECK_CUDA(cudaMalloc(&dl, sizeof lays));
      CHECK_CUDA(cudaMemcpy(dl, lays, sizeof lays, cudaMemcpyHostToDevice));
      k_acube<<<dim3(ND / 64, 3), 64>>>(t, dd, dl, dout);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaMemcpy(got, dout, 3 * ND * 4 * sizeof(float), cudaMemcpyDeviceToHost));
      for (int li = 0; li < 3; li++)
         for (int k = 0; k < ND; k++) {
            float v[3] = { dirs[k].x, dirs[k].y, dirs[k].z };
            int cube = lays[li] > CUBES - 1 ? CUBES - 1 : (int)lays[li];
            model_gather(v, NL, cube, 1, &want[(li * ND + k) * 4]);
         }
      CHECK_ARRAY_F32("tld4.g.acube, cubes 0, 1 and 7 (clamped)", got, want, 3 * ND * 4);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeArray(a));
      cudaFree(dl);
   }
   cudaFree(dd);
   cudaFree(dout);
   return check_end();
}
