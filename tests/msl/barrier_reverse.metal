// threadgroup_barrier with the threads of each threadgroup running as
// fibers: every thread writes its slot of a threadgroup array, waits, then
// reads the slot mirrored across the group.  Threadgroups of 1 (no fibers
// needed), 32, 33 (a partial SIMD-group), 1024 threads, and a 3-D one of
// 8 x 4 x 3; several groups per dispatch so groups run in parallel.
//@ buffer a uint 4
//@ buffer b uint 128
//@ buffer c uint 132
//@ buffer d uint 2048
//@ buffer e uint 192
//@ run reverse groups=4 threads=1 bind=a:0
//@ run reverse groups=4 threads=32 bind=b:0
//@ run reverse groups=4 threads=33 bind=c:0
//@ run reverse groups=2 threads=1024 bind=d:0
//@ run reverse groups=2 threads=8,4,3 bind=e:0
//@ expect a = i
//@ expect b = i / 32 * 32 + 31 - i % 32
//@ expect c = i / 33 * 33 + 32 - i % 33
//@ expect d = i / 1024 * 1024 + 1023 - i % 1024
//@ expect e = i / 96 * 96 + 95 - i % 96
#include <metal_stdlib>
using namespace metal;

kernel void reverse(device uint *out [[buffer(0)]],
                    uint tid [[thread_index_in_threadgroup]],
                    uint3 tpg [[threads_per_threadgroup]],
                    uint group [[threadgroup_position_in_grid]])
{
    threadgroup uint v[1024];
    uint n = tpg.x * tpg.y * tpg.z;
    v[tid] = group * n + tid;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[group * n + tid] = v[n - 1 - tid];
}
