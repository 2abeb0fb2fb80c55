// Warp-level intrinsics and the integer SIMD ("video") helpers.
#include <cuda_runtime.h>

__global__ void warp(int *out, unsigned *uout, float *fout, unsigned long long *ull)
{
   int t = threadIdx.x;
   unsigned m = __activemask();
   int v = t * 3;
   v += __shfl_sync(0xffffffff, v, 3);
   v += __shfl_up_sync(0xffffffff, v, 1);
   v += __shfl_down_sync(m, v, 2, 16);
   v += __shfl_xor_sync(0xffffffff, v, 4);
   float f = __shfl_sync(0xffffffff, fout[t], t ^ 1);
   double d = __shfl_down_sync(0xffffffff, (double)f, 1);
   unsigned b = __ballot_sync(0xffffffff, v & 1);
   int any = __any_sync(0xffffffff, v > 10);
   int all = __all_sync(0xffffffff, v > 0);
   int uni = __uni_sync(0xffffffff, v);
   unsigned ma = __match_any_sync(0xffffffff, v);
   int pred;
   unsigned mall = __match_all_sync(0xffffffff, v & 7, &pred);
   __syncwarp();
   __syncwarp(m);
   out[t] = v + any + all + uni + (int)d;
   uout[t] = b ^ ma ^ mall ^ pred;
   uout[t] += __popc(b) + __clz(v) + __ffs(v) + __brev(b) + __byte_perm(b, v, 0x3210);
   uout[t] += __popcll(ull[t]) + __clzll(ull[t]) + __ffsll(ull[t]) + __brevll(ull[t]);
   uout[t] += __funnelshift_l(b, v, 5) + __funnelshift_rc(b, v, 40);
   uout[t] += __umulhi(b, v) + __mulhi(v, 7) + __usad(b, v, 3) + __sad(v, -v, 1);
   ull[t] += __umul64hi(ull[t], 12345) + __mul64hi(ull[t], -3);
   uout[t] += __dp4a(v, (int)b, 1) + __dp2a_lo(v, (int)b, 2) + __dp2a_hi((unsigned)v, b, 3u);
}

__global__ void simd(unsigned *a, unsigned *b, unsigned *out)
{
   int t = threadIdx.x;
   unsigned x = a[t], y = b[t], r = 0;
   r += __vadd2(x, y) + __vaddss2(x, y) + __vaddus2(x, y) + __vavgs2(x, y) + __vavgu2(x, y);
   r += __vsub4(x, y) + __vsubss4(x, y) + __vabsdiffu4(x, y) + __vabsdiffs4(x, y);
   r += __vcmpeq2(x, y) + __vcmpges4(x, y) + __vcmpltu4(x, y) + __vmaxs2(x, y) + __vminu4(x, y);
   r += __vsads2(x, y) + __vsadu4(x, y) + __vneg4(x) + __vabsss2(x) + __vseteq4(x, y);
   r += __vhaddu2(x, y) + __vhaddu4(x, y) + __vsetgtu2(x, y);
   out[t] = r;
}

#if __CUDA_ARCH__ >= 800
__global__ void reduxk(unsigned *out, int *iout)
{
   unsigned v = threadIdx.x;
   out[0] = __reduce_add_sync(0xffffffff, v) + __reduce_min_sync(0xffffffff, v) +
            __reduce_max_sync(0xffffffff, v) + __reduce_and_sync(0xffffffff, v) +
            __reduce_or_sync(0xffffffff, v) + __reduce_xor_sync(0xffffffff, v);
   iout[0] = __reduce_max_sync(0xffffffff, (int)v - 16);
}
#endif
