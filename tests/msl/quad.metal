// Quad-group functions: groups of 4 consecutive threads (lane q = tid % 4
// in its quad).  Values 10 * tid + 1.
//@ buffer a uint 64
//@ buffer b uint 64
//@ buffer c uint 64
//@ buffer d uint 64
//@ buffer e uint 64
//@ buffer f uint 64
//@ buffer g uint 64
//@ buffer h uint 64
//@ buffer k uint 64
//@ buffer l uint 64
//@ buffer m uint 64
//@ buffer n uint 64
//@ run quads groups=1 threads=64 bind=a:0,b:1,c:2,d:3,e:4,f:5,g:6,h:7,k:8,l:9,m:10,n:11
//@ expect a = (i + 3 - 2 * (i % 4)) * 10 + 1
//@ expect b = i % 4 >= 1 ? (i - 1) * 10 + 1 : i * 10 + 1
//@ expect c = i % 4 < 2 ? (i + 2) * 10 + 1 : i * 10 + 1
//@ expect d = (i ^ 1) * 10 + 1
//@ expect e = (i - i % 4 + (i % 4 + 3) % 4) * 10 + 1
//@ expect f = (i - i % 4 + 2) * 10 + 1
//@ expect g = (i - i % 4) * 40 + 64
//@ expect h = 10
//@ expect k = i % 4
//@ expect l = 2
//@ expect m = i % 4 == 0 ? 1 : 0
//@ expect n = i % 4 >= 1 ? (i - 1) * 10 + 1 : 1000 + i + 3
#include <metal_stdlib>
using namespace metal;

kernel void quads(device uint *a [[buffer(0)]], device uint *b [[buffer(1)]],
                  device uint *c [[buffer(2)]], device uint *d [[buffer(3)]],
                  device uint *e [[buffer(4)]], device uint *f [[buffer(5)]],
                  device uint *g [[buffer(6)]], device uint *h [[buffer(7)]],
                  device uint *k [[buffer(8)]], device uint *l [[buffer(9)]],
                  device uint *m [[buffer(10)]], device uint *n [[buffer(11)]],
                  uint tid [[thread_index_in_threadgroup]],
                  ushort q [[thread_index_in_quadgroup]])
{
    uint v = tid * 10 + 1;
    a[tid] = quad_shuffle(v, (ushort)(3 - q));
    b[tid] = quad_shuffle_up(v, 1);
    c[tid] = quad_shuffle_down(v, 2);
    d[tid] = quad_shuffle_xor(v, 1);
    e[tid] = quad_shuffle_rotate_up(v, 1);
    f[tid] = quad_broadcast(v, 2);
    g[tid] = quad_sum(v);
    h[tid] = (uint)(quad_vote::vote_t)quad_ballot((q & 1) != 0);
    k[tid] = quad_prefix_exclusive_sum(1u);
    l[tid] = (quad_all(q < 3) ? 1 : 0) + (quad_any(q == 3) ? 2 : 0);
    m[tid] = quad_is_first() ? 1 : 0;
    n[tid] = quad_shuffle_and_fill_up(v, 1000 + tid, 1);
}
