// Threads per threadgroup are limited by the pipeline's
// maxTotalThreadsPerThreadgroup: 1024 by default, or the kernel's own
// [[max_total_threads_per_threadgroup(N)]].
//@ buffer out uint 2048
//@ run k groups=1 threads=1025 bind=out:0 error="1025 threads per threadgroup exceeds the pipeline's maxTotalThreadsPerThreadgroup (1024)"
//@ run k groups=1 threads=32,32 bind=out:0
//@ run small groups=1 threads=128 bind=out:0 error="128 threads per threadgroup exceeds the pipeline's maxTotalThreadsPerThreadgroup (64)"
//@ run small groups=32 threads=64 bind=out:0
//@ expect out = i < 1024 ? i + 2 : i + 1
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint *out [[buffer(0)]], uint index [[thread_index_in_threadgroup]])
{
    out[index] = index + 2;
}

[[max_total_threads_per_threadgroup(64)]]
kernel void small(device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    if (i >= 1024)
        out[i] = i + 1;
}
