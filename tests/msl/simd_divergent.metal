// Reconvergence on the software device: threads of a SIMD-group that take
// different sides of a branch are inactive for each other's SIMD-group
// calls, and meet again after it.  The two sides make the same call, which
// the host compiler must not merge; a loop whose trip count differs per
// lane (5 or 9) runs its SIMD-group call with the lanes still looping; the
// call after the loop sees every lane again.
//@ buffer a uint 64
//@ buffer b uint 64
//@ buffer c uint 64
//@ buffer d uint 64
//@ run k groups=1 threads=64 bind=a:0,b:1,c:2,d:3
//@ expect a = i % 32 % 3 == 0 ? 0x49249249 : 0xb6db6db6
//@ expect b = i % 32 < 8 ? 5 * 32 : 5 * 32 + 4 * 24
//@ expect c = 0xffffffff
//@ expect d = i % 32 < 8 ? 5 : 9
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint *a [[buffer(0)]], device uint *b [[buffer(1)]],
              device uint *c [[buffer(2)]], device uint *d [[buffer(3)]],
              uint tid [[thread_index_in_threadgroup]],
              uint lane [[thread_index_in_simdgroup]])
{
    if (lane % 3 == 0)
        a[tid] = (uint)(simd_vote::vote_t)simd_active_threads_mask();
    else
        a[tid] = (uint)(simd_vote::vote_t)simd_active_threads_mask();
    uint n = lane < 8 ? 5 : 9, seen = 0, it = 0;
    for (uint k = 0; k < n; k++) {
        seen += simd_sum(1u);
        it++;
    }
    b[tid] = seen;
    c[tid] = (uint)(simd_vote::vote_t)simd_active_threads_mask();
    d[tid] = it;
}
