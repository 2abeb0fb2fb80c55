// A threadgroup_barrier in divergent control flow: the two halves of the
// group wait at different barrier calls.  Metal requires every thread to
// reach the same barrier: the command buffer fails and says why.
//@ buffer out uint 64
//@ run split groups=1 threads=64 bind=out:0 error="kernel 'split': the threads of a threadgroup wait at different threadgroup_barrier calls"
#include <metal_stdlib>
using namespace metal;

kernel void split(device uint *out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]])
{
    threadgroup uint v[64];
    v[tid] = tid;
    if (tid < 32) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[tid] = v[63 - tid];
    } else {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[tid] = v[63 - tid] + 1;
    }
}
