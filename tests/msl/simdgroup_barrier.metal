// simdgroup_barrier orders threadgroup memory between the threads of a
// SIMD-group (warp-synchronous exchange): each thread writes its slot,
// waits for its SIMD-group, and reads its neighbour's, three rounds.
// Threadgroups of 64 threads (fibers) and of 1 thread (no fibers).
//@ buffer out uint 64
//@ buffer one uint 4
//@ run exchange groups=1 threads=64 bind=out:0
//@ run exchange groups=4 threads=1 bind=one:0
//@ expect out = (i ^ 1) + (i ^ 3) + (i ^ 7) + 3
//@ expect one = 3 * i + 3
#include <metal_stdlib>
using namespace metal;

kernel void exchange(device uint *out [[buffer(0)]],
                     uint tid [[thread_index_in_threadgroup]],
                     uint group [[threadgroup_position_in_grid]],
                     uint n [[threads_per_threadgroup]])
{
    threadgroup uint v[64];
    uint acc = 0, me = n == 1 ? group : tid;
    for (uint r = 1; r < 8; r = r * 2 + 1) {
        v[tid] = me + 1;
        simdgroup_barrier(mem_flags::mem_threadgroup);
        acc += v[n == 1 ? 0 : tid ^ r];
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[n == 1 ? group : tid] = acc;
}
