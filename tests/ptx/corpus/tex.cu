// Texture and surface objects: fetch, sample, LOD, gradients, gather, surfaces.
#include <cuda_runtime.h>

__global__ void texk(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                     cudaSurfaceObject_t s2, float4 *out, int *iout, float x, float y)
{
   int i = threadIdx.x;
   float4 a = tex2D<float4>(t2, x + i, y);
   float b = tex1Dfetch<float>(t1, i);
   float c = tex1D<float>(t1, x);
   float4 d = tex2DLod<float4>(t2, x, y, 1.5f);
   float4 g = tex2DGrad<float4>(t2, x, y, make_float2(1, 0), make_float2(0, 1));
   float4 h = tex2Dgather<float4>(t2, x, y, 1);
   float e = tex3D<float>(t3, x, y, 0.5f);
   int f = tex2DLayered<int>(t2, x, y, 2);
   float4 cube = texCubemap<float4>(t3, x, y, 1.0f);
   bool res;
   float4 sp = tex2D<float4>(t2, x, y, &res);
   out[i] = make_float4(a.x + b + c + d.y + g.z + h.w + e + cube.x + sp.y + res, a.y, a.z, a.w);
   int v;
   surf2Dread(&v, s2, i * 4, 0);
   surf2Dwrite(v + f, s2, i * 4, 1);
   surf2Dwrite(make_float4(1, 2, 3, 4), s2, i * 16, 2, cudaBoundaryModeClamp);
   iout[i] = v;
}
