// threadgroup_barrier in a threadgroup of more than one thread needs the
// fiber scheduler (not written yet): a clear command-buffer error instead
// of a wrong result.  With one thread per group the barrier is a no-op.
//@ buffer out uint 64
//@ run reduce groups=1 threads=64 bind=out:0 error="threadgroup_barrier needs the fiber scheduler (not implemented yet)"
//@ run reduce groups=64 threads=1 bind=out:0
//@ expect out = i + 1
#include <metal_stdlib>
using namespace metal;

kernel void reduce(device uint *out [[buffer(0)]],
                   uint gid [[thread_position_in_grid]])
{
    threadgroup uint v[64];
    v[gid % 64] = gid;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = v[gid % 64] + 1;
}
