// A tree reduction in threadgroup memory: a barrier in a loop whose trip
// count every thread computes alike, then a second pass over the same
// array (the barrier after the loop keeps the readers of the first pass
// ahead of the writers of the second).  1024 threads per group.
//@ buffer sum uint 8
//@ buffer max uint 8
//@ run reduce groups=8 threads=1024 bind=sum:0,max:1
//@ expect sum = 1024 * i + 523776
//@ expect max = i * 1000 + 1023
#include <metal_stdlib>
using namespace metal;

kernel void reduce(device uint *sum [[buffer(0)]], device uint *mx [[buffer(1)]],
                   uint tid [[thread_index_in_threadgroup]],
                   uint n [[threads_per_threadgroup]],
                   uint group [[threadgroup_position_in_grid]])
{
    threadgroup uint v[1024];
    v[tid] = tid + group;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = n / 2; s > 0; s /= 2) {
        if (tid < s)
            v[tid] += v[tid + s];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (tid == 0)
        sum[group] = v[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    v[tid] = tid + group * 1000;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = n / 2; s > 0; s /= 2) {
        if (tid < s)
            v[tid] = max(v[tid], v[tid + s]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (tid == 0)
        mx[group] = v[0];
}
