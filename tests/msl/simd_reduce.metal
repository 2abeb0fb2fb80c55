// Reductions and scans (MSL §6.9.2) over the active threads: 80 threads
// (the third SIMD-group has 16 lanes), then over the even lanes only.
// Integers wrap; the float sum is exact (multiples of 0.5).
//@ buffer a uint 80
//@ buffer b uint 80
//@ buffer c int 80
//@ buffer d int 80
//@ buffer e uint 80
//@ buffer f uint 80
//@ buffer g uint 80
//@ buffer h uint 80
//@ buffer k uint 80
//@ buffer l uint 80
//@ buffer m uint 80
//@ buffer x float 80
//@ buffer v uint 160
//@ buffer w uint 80
//@ run reduce groups=1 threads=80 bind=a:0,b:1,c:2,d:3,e:4,f:5,g:6,h:7,k:8,l:9,m:10,x:11,v:12,w:13
//@ expect a = (i < 64 ? 32 : 16) * (i / 32 * 32 + 1) + (i < 64 ? 496 : 120)
//@ expect b = 720
//@ expect c = i < 64 ? 69 : 85
//@ expect d = i < 64 ? -9 : -25
//@ expect e = 0xff00
//@ expect f = i < 64 ? 0xffffffff : 0xffff
//@ expect g = 0x53
//@ expect h = i % 32 + 1
//@ expect k = i % 32 * (i % 32 - 1) / 2
//@ expect l = 1 << min(i % 32 + 1, 4)
//@ expect m = 1 << min(i % 32, 4)
//@ expect x = i < 64 ? 248 : 60
//@ expect v = i % 2 == 0 ? (i < 128 ? 32 : 16) : (i < 128 ? 496 : 120)
//@ expect w = i % 2 == 0 ? (i < 64 ? 16 : 8) * 1000 + i % 32 / 2 : 5
#include <metal_stdlib>
using namespace metal;

kernel void reduce(device uint *a [[buffer(0)]], device uint *b [[buffer(1)]],
                   device int *c [[buffer(2)]], device int *d [[buffer(3)]],
                   device uint *e [[buffer(4)]], device uint *f [[buffer(5)]],
                   device uint *g [[buffer(6)]], device uint *h [[buffer(7)]],
                   device uint *k [[buffer(8)]], device uint *l [[buffer(9)]],
                   device uint *m [[buffer(10)]], device float *x [[buffer(11)]],
                   device uint2 *v [[buffer(12)]], device uint *w [[buffer(13)]],
                   uint tid [[thread_index_in_threadgroup]],
                   uint lane [[thread_index_in_simdgroup]])
{
    a[tid] = simd_sum(tid + 1);
    b[tid] = simd_product(lane < 6 ? lane + 1 : 1u);
    c[tid] = simd_min(100 - (int)lane);
    d[tid] = simd_max((int)lane - 40);
    e[tid] = simd_and(0xff00u | (1u << (lane % 8)));
    f[tid] = simd_or(1u << lane);
    g[tid] = simd_xor(lane == 5 ? 0x50u : lane == 9 ? 0x3u : 0u);
    h[tid] = simd_prefix_inclusive_sum(1u);
    k[tid] = simd_prefix_exclusive_sum(lane);
    l[tid] = simd_prefix_inclusive_product(lane < 4 ? 2u : 1u);
    m[tid] = simd_prefix_exclusive_product(lane < 4 ? 2u : 1u);
    x[tid] = simd_sum(float(lane) * 0.5f);
    v[tid] = simd_sum(uint2(1, lane));
    if (lane % 2 == 0)
        w[tid] = simd_sum(1u) * 1000 + simd_prefix_exclusive_sum(1u);
    else
        w[tid] = 5;
}
