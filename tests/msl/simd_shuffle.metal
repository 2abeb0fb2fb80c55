// SIMD-group shuffles (MSL §6.9.2), 80 threads: two full SIMD-groups and
// one of 16 threads, whose lanes 16-31 do not exist.  Each thread's value
// is 10 * tid + 1, so 0 marks what Metal leaves undefined (a source lane
// that is not active: 0 on the software device).  shuffle_up/down leave
// lanes whose source is outside the SIMD-group unchanged; rotate wraps.
// The broadcast_first call is in a branch lanes 0-3 skip.
//@ buffer a uint 80
//@ buffer b uint 80
//@ buffer c uint 80
//@ buffer d uint 80
//@ buffer e uint 80
//@ buffer f uint 80
//@ buffer g uint 80
//@ buffer h uint 80
//@ run shuffles groups=2 threads=80 bind=a:0,b:1,c:2,d:3,e:4,f:5,g:6,h:7
//@ expect a = (i % 32 * 7 % 32) < (i < 64 ? 32 : 16) ? (i / 32 * 32 + i % 32 * 7 % 32) * 10 + 1 : 0
//@ expect b = i % 32 >= 3 ? (i - 3) * 10 + 1 : i * 10 + 1
//@ expect c = i % 32 + 5 < 32 ? (i % 32 + 5 < (i < 64 ? 32 : 16) ? (i + 5) * 10 + 1 : 0) : i * 10 + 1
//@ expect d = (i / 32 * 32 + (i % 32 ^ 6)) * 10 + 1
//@ expect e = (i % 32 + 29) % 32 < (i < 64 ? 32 : 16) ? (i / 32 * 32 + (i % 32 + 29) % 32) * 10 + 1 : 0
//@ expect f = (i % 32 + 5) % 32 < (i < 64 ? 32 : 16) ? (i / 32 * 32 + (i % 32 + 5) % 32) * 10 + 1 : 0
//@ expect g = (i / 32 * 32 + 9) * 10 + 1
//@ expect h = i % 32 >= 4 ? (i / 32 * 32 + 4) * 10 + 1 : 7
#include <metal_stdlib>
using namespace metal;

kernel void shuffles(device uint *a [[buffer(0)]], device uint *b [[buffer(1)]],
                     device uint *c [[buffer(2)]], device uint *d [[buffer(3)]],
                     device uint *e [[buffer(4)]], device uint *f [[buffer(5)]],
                     device uint *g [[buffer(6)]], device uint *h [[buffer(7)]],
                     uint tid [[thread_index_in_threadgroup]],
                     ushort lane [[thread_index_in_simdgroup]])
{
    uint v = tid * 10 + 1;
    a[tid] = simd_shuffle(v, (ushort)(lane * 7 % 32));
    b[tid] = simd_shuffle_up(v, 3);
    c[tid] = simd_shuffle_down(v, 5);
    d[tid] = simd_shuffle_xor(v, 6);
    e[tid] = simd_shuffle_rotate_up(v, 3);
    f[tid] = simd_shuffle_rotate_down(v, 5);
    g[tid] = simd_broadcast(v, 9);
    if (lane >= 4)
        h[tid] = simd_broadcast_first(v);
    else
        h[tid] = 7;
}
