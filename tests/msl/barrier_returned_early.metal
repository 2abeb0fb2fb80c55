// Metal requires every thread of a threadgroup to reach each barrier.
// Threads that returned before it: the command buffer fails with a message
// naming the kernel and the counts (a GPU would hang or misbehave).  The
// same kernel with no thread returning runs.
//@ buffer out uint 64
//@ buffer ok uint 64
//@ run early groups=1 threads=64 bind=out:0 error="kernel 'early': threadgroup_barrier reached by 48 of the 64 threads of the threadgroup; the other 16 returned before it"
//@ run early groups=1 threads=48 bind=ok:0
//@ expect ok = i < 48 ? i : 0xcdcdcdcd
#include <metal_stdlib>
using namespace metal;

kernel void early(device uint *out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]])
{
    threadgroup uint v[64];
    if (tid >= 48)
        return;
    v[tid] = tid;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[tid] = v[tid];
}
