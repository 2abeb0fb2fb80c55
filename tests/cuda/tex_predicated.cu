/*
 * tex_predicated.cu — guarded texture and surface loads (PTX `@p tex`,
 * `@!p tex`, `@p tld4`, `@p suld`, inline PTX, since nvcc chooses for
 * itself whether to predicate CUDA C++) against a host model of PTX ISA
 * 9.0 §11.1: a thread whose guard holds gets the fetch; one whose guard
 * fails keeps its registers as they were, and the instruction does not
 * run there at all — those threads are given handle 0 (no texture) or,
 * for the surface loads in .trap mode, coordinates far outside the array,
 * so an instruction that ran anyway would read nothing sensible or fault
 * the launch.
 *  - tex.2d.v4.f32.f32 on a float4 array, point filtering, unnormalised
 *    coordinates at texel centres: the texel (every component defined);
 *  - tld4.r.2d.v4.f32.f32 at a texel corner: (T[i][j+1], T[i+1][j+1],
 *    T[i+1][j], T[i][j]) of component r, the PTX ISA's tld4 order;
 *  - suld.b.2d.b32.trap of a 32-bit array and suld.b.2d.v2.b64.trap of a
 *    16-byte one (x in bytes).
 * The registers start as a per-thread pattern, so "kept" is checked, not
 * assumed.
 */
#include "tex_model.h"

enum { W = 13, H = 7, N = 96 };

static __host__ __device__ float texel(int x, int y, int c)
{
   return (float)(y * 100 + x) + 0.25f * (float)c;
}

static __host__ __device__ unsigned word(int x, int y)
{
   return 0x9e3779b9u * (unsigned)(y * 64 + x + 1);
}

static __host__ __device__ unsigned long long wide(int x, int y, int k)
{
   return 0xd1b54a32d192ed03ull * (unsigned long long)(y * 64 + x * 2 + k + 7);
}

/* thread t: guard = t % 3 != 0; texel (t % (W - 1), t / (W - 1) % (H - 1)) */
static __host__ __device__ bool guard_of(int t) { return t % 3 != 0; }
static __host__ __device__ int x_of(int t) { return t % (W - 1); }
static __host__ __device__ int y_of(int t) { return t / (W - 1) % (H - 1); }
static __host__ __device__ float before(int t, int k) { return -1000.0f - (float)(4 * t + k); }

__global__ void k_tex(cudaTextureObject_t tex, float4 *out, float4 *out_neg, float4 *gather)
{
   int t = threadIdx.x + blockIdx.x * blockDim.x;
   if (t >= N)
      return;
   int g = guard_of(t);
   unsigned long long h = g ? tex : 0;   /* no texture where the guard fails */
   float x = (float)x_of(t) + 0.5f, y = (float)y_of(t) + 0.5f;
   float a = before(t, 0), b = before(t, 1), c = before(t, 2), d = before(t, 3);
   asm volatile("{ .reg .pred p; setp.ne.s32 p, %5, 0;\n"
                "@p tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%6, %7}]; }"
                : "+f"(a), "+f"(b), "+f"(c), "+f"(d)
                : "l"(h), "r"(g), "f"(x), "f"(y));
   out[t] = make_float4(a, b, c, d);

   unsigned long long hn = g ? 0 : tex;  /* the negated guard: the other threads */
   a = before(t, 0), b = before(t, 1), c = before(t, 2), d = before(t, 3);
   asm volatile("{ .reg .pred p; setp.ne.s32 p, %5, 0;\n"
                "@!p tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%6, %7}]; }"
                : "+f"(a), "+f"(b), "+f"(c), "+f"(d)
                : "l"(hn), "r"(g), "f"(x), "f"(y));
   out_neg[t] = make_float4(a, b, c, d);

   /* at the corner between texels (i, j) and (i + 1, j + 1) */
   a = before(t, 0), b = before(t, 1), c = before(t, 2), d = before(t, 3);
   asm volatile("{ .reg .pred p; setp.ne.s32 p, %5, 0;\n"
                "@p tld4.r.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%6, %7}]; }"
                : "+f"(a), "+f"(b), "+f"(c), "+f"(d)
                : "l"(h), "r"(g), "f"(x + 0.5f), "f"(y + 0.5f));
   gather[t] = make_float4(a, b, c, d);
}

__global__ void k_surf(cudaSurfaceObject_t s32, cudaSurfaceObject_t s128, unsigned *out32,
                       unsigned long long *out128)
{
   int t = threadIdx.x + blockIdx.x * blockDim.x;
   if (t >= N)
      return;
   int g = guard_of(t);
   /* far outside where the guard fails: a .trap load that ran would fault */
   int x = g ? x_of(t) : -100000, y = g ? y_of(t) : 1 << 20;
   unsigned v = (unsigned)t * 77u;
   asm volatile("{ .reg .pred p; setp.ne.s32 p, %2, 0;\n"
                "@p suld.b.2d.b32.trap {%0}, [%1, {%3, %4}]; }"
                : "+r"(v)
                : "l"(s32), "r"(g), "r"(x * 4), "r"(y));
   out32[t] = v;
   unsigned long long lo = (unsigned long long)t << 40, hi = ~lo;
   asm volatile("{ .reg .pred p; setp.ne.s32 p, %3, 0;\n"
                "@p suld.b.2d.v2.b64.trap {%0, %1}, [%2, {%4, %5}]; }"
                : "+l"(lo), "+l"(hi)
                : "l"(s128), "r"(g), "r"(x * 16), "r"(y));
   out128[2 * t] = lo;
   out128[2 * t + 1] = hi;
}

static cudaArray_t make_array(int bits, int channels, cudaChannelFormatKind kind, unsigned flags)
{
   cudaChannelFormatDesc cd = cudaCreateChannelDesc(bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0,
                                                    channels > 3 ? bits : 0, kind);
   cudaArray_t a = NULL;
   CHECK_CUDA(cudaMallocArray(&a, &cd, W, H, flags));
   return a;
}

static void check_tex(void)
{
   static float host[W * H * 4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            host[(y * W + x) * 4 + c] = texel(x, y, c);
   cudaArray_t a = make_array(32, 4, cudaChannelFormatKindFloat, cudaArrayTextureGather);
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, host, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   cudaResourceDesc rd = tex_model_array_resource(a);
   cudaTextureDesc td;
   memset(&td, 0, sizeof td);
   td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
   td.filterMode = cudaFilterModePoint;
   td.readMode = cudaReadModeElementType;
   cudaTextureObject_t tex = 0;
   CHECK_CUDA(cudaCreateTextureObject(&tex, &rd, &td, NULL));

   float4 *d;
   CHECK_CUDA(cudaMalloc(&d, 3 * N * sizeof(float4)));
   k_tex<<<3, 32>>>(tex, d, d + N, d + 2 * N);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   static float got[3 * N * 4], want[3 * N * 4];
   CHECK_CUDA(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
   for (int t = 0; t < N; t++) {
      int x = x_of(t), y = y_of(t);
      bool g = guard_of(t);
      for (int k = 0; k < 4; k++) {
         want[4 * t + k] = g ? texel(x, y, k) : before(t, k);
         want[4 * (N + t) + k] = g ? before(t, k) : texel(x, y, k);
      }
      float *w = want + 4 * (2 * N + t);
      if (g) {
         w[0] = texel(x, y + 1, 0), w[1] = texel(x + 1, y + 1, 0);
         w[2] = texel(x + 1, y, 0), w[3] = texel(x, y, 0);
      } else {
         for (int k = 0; k < 4; k++)
            w[k] = before(t, k);
      }
   }
   CHECK_ARRAY_F32("@p tex.2d: the texel, or the registers kept", got, want, 4 * N);
   CHECK_ARRAY_F32("@!p tex.2d: the texel, or the registers kept", got + 4 * N, want + 4 * N, 4 * N);
   CHECK_ARRAY_F32("@p tld4.r.2d: the four texels, or the registers kept", got + 8 * N, want + 8 * N, 4 * N);
   CHECK_CUDA(cudaDestroyTextureObject(tex));
   CHECK_CUDA(cudaFreeArray(a));
   CHECK_CUDA(cudaFree(d));
}

static void check_surf(void)
{
   static unsigned h32[W * H];
   static unsigned long long h128[W * H * 2];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         h32[y * W + x] = word(x, y);
         h128[2 * (y * W + x)] = wide(x, y, 0);
         h128[2 * (y * W + x) + 1] = wide(x, y, 1);
      }
   cudaArray_t a32 = make_array(32, 1, cudaChannelFormatKindUnsigned, cudaArraySurfaceLoadStore);
   cudaArray_t a128 = make_array(32, 4, cudaChannelFormatKindUnsigned, cudaArraySurfaceLoadStore);
   CHECK_CUDA(cudaMemcpy2DToArray(a32, 0, 0, h32, W * 4, W * 4, H, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy2DToArray(a128, 0, 0, h128, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   cudaResourceDesc r32 = tex_model_array_resource(a32), r128 = tex_model_array_resource(a128);
   cudaSurfaceObject_t s32 = 0, s128 = 0;
   CHECK_CUDA(cudaCreateSurfaceObject(&s32, &r32));
   CHECK_CUDA(cudaCreateSurfaceObject(&s128, &r128));

   unsigned *d32;
   unsigned long long *d128;
   CHECK_CUDA(cudaMalloc(&d32, N * sizeof(unsigned)));
   CHECK_CUDA(cudaMalloc(&d128, 2 * N * sizeof(unsigned long long)));
   k_surf<<<3, 32>>>(s32, s128, d32, d128);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   static unsigned g32[N], w32[N];
   static uint64_t g128[2 * N], w128[2 * N];
   CHECK_CUDA(cudaMemcpy(g32, d32, sizeof g32, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(g128, d128, sizeof g128, cudaMemcpyDeviceToHost));
   for (int t = 0; t < N; t++) {
      bool g = guard_of(t);
      int x = x_of(t), y = y_of(t);
      w32[t] = g ? word(x, y) : (unsigned)t * 77u;
      unsigned long long lo = (unsigned long long)t << 40;
      w128[2 * t] = g ? wide(x, y, 0) : lo;
      w128[2 * t + 1] = g ? wide(x, y, 1) : ~lo;
   }
   CHECK_ARRAY_U32("@p suld.b.2d.b32.trap: the texel, or the register kept (no trap)", g32, w32, N);
   CHECK_ARRAY_U64("@p suld.b.2d.v2.b64.trap: the texel, or the registers kept (no trap)", g128, w128, 2 * N);
   CHECK_CUDA(cudaDestroySurfaceObject(s32));
   CHECK_CUDA(cudaDestroySurfaceObject(s128));
   CHECK_CUDA(cudaFreeArray(a32));
   CHECK_CUDA(cudaFreeArray(a128));
   CHECK_CUDA(cudaFree(d32));
   CHECK_CUDA(cudaFree(d128));
}

int main(void)
{
   check_begin("tex_predicated");
   CHECK_CUDA(cudaSetDevice(0));
   check_tex();
   check_surf();
   return check_end();
}
