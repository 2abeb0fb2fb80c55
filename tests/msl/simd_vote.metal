// Votes and masks (MSL §6.9.2) count active threads only: 80 threads (the
// third SIMD-group has 16), then the same calls inside a branch that
// lanes 0, 4, 8, ... do not take, and in its else branch.  simd_vote's
// all() asks every thread of the SIMD-group, any() any bit.
//@ buffer a uint 80
//@ buffer b uint 80
//@ buffer c uint 80
//@ buffer d uint 80
//@ buffer e uint 80
//@ buffer f uint 80
//@ buffer g uint 80
//@ run votes groups=1 threads=80 bind=a:0,b:1,c:2,d:3,e:4,f:5,g:6
//@ expect a = i < 64 ? 0xaaaaaaaa : 0xaaaa
//@ expect b = i < 64 ? 0xffffffff : 0xffff
//@ expect c = i < 64 ? 3 : 1
//@ expect d = i % 4 != 0 ? (i < 64 ? 0xeeeeeeee : 0xeeee) : (i < 64 ? 0x11111111 : 0x1111)
//@ expect e = i % 4 != 0 ? (i % 32 == 1 ? 1 : 0) : (i % 32 == 0 ? 5 : 6)
//@ expect f = i % 4 != 0 ? 2 : 9
//@ expect g = 6
#include <metal_stdlib>
using namespace metal;

kernel void votes(device uint *a [[buffer(0)]], device uint *b [[buffer(1)]],
                  device uint *c [[buffer(2)]], device uint *d [[buffer(3)]],
                  device uint *e [[buffer(4)]], device uint *f [[buffer(5)]],
                  device uint *g [[buffer(6)]],
                  uint tid [[thread_index_in_threadgroup]],
                  uint lane [[thread_index_in_simdgroup]])
{
    bool odd = (lane & 1) != 0;
    a[tid] = (uint)(simd_vote::vote_t)simd_ballot(odd);
    b[tid] = (uint)(simd_vote::vote_t)simd_active_threads_mask();
    c[tid] = (simd_all(tid < 1000) ? 1 : 0) + (simd_any(lane == 31) ? 2 : 0);
    if (lane % 4 != 0) {
        d[tid] = (uint)(simd_vote::vote_t)simd_active_threads_mask();
        e[tid] = simd_is_first() ? 1 : 0;
        f[tid] = (simd_all(odd) ? 1 : 0) + (simd_any(lane == 2) ? 2 : 0);
    } else {
        d[tid] = (uint)(simd_vote::vote_t)simd_ballot(true);
        e[tid] = simd_is_first() ? 5 : 6;
        f[tid] = 9;
    }
    simd_vote low = simd_ballot(lane < 8), all = simd_ballot(true);
    g[tid] = (low.all() ? 1 : 0) + (low.any() ? 2 : 0) + (all.all() ? 4 : 0);
}
