// A fault inside a kernel whose threads run as fibers (it has a barrier)
// fails its command buffer like any fault, naming the kernel, and the
// fibers of that threadgroup are abandoned: the next command buffers (a
// barrier kernel in the same worker threads) run normally.  A kernel that
// overflows a fiber's stack is reported as such; with one thread per
// group (no fibers: the OS thread's stack) the same kernel runs.
//@ buffer out uint 256
//@ buffer big uint 4
//@ run bad groups=4 threads=64 bind=out:0 error="kernel 'bad' faulted at address 0x10"
//@ run good groups=4 threads=64 bind=out:0
//@ run deep groups=2 threads=2 bind=big:0 error="kernel 'deep' overflowed a thread's stack"
//@ run deep groups=4 threads=1 bind=big:0
//@ expect out = i / 64 * 64 + 63 - i % 64
//@ expect big = 4199999 * 7
#include <metal_stdlib>
using namespace metal;

kernel void bad(device uint *out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]],
                uint gid [[thread_position_in_grid]])
{
    threadgroup uint v[64];
    v[tid] = gid;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    device uint *p = reinterpret_cast<device uint *>(ulong(0x10) + tid * 0);
    if (tid == 17)
        out[gid] = *p;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = v[63 - tid];
}

kernel void good(device uint *out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]],
                 uint gid [[thread_position_in_grid]])
{
    threadgroup uint v[64];
    v[tid] = gid;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = v[63 - tid];
}

// 4.2 MB of thread memory: more than a fiber's stack (SOFT_FIBER_STACK,
// 4 MB), its lowest byte inside the 64 KB guard below it; less than an OS
// thread's (SOFT_THREAD_STACK, 8 MB).
kernel void deep(device uint *out [[buffer(0)]], uint group [[threadgroup_position_in_grid]],
                 uint tid [[thread_index_in_threadgroup]])
{
    volatile uchar buf[4200000];
    for (uint k = 0; k < 4200000; k += 4096)
        buf[k] = (uchar)k;
    buf[4199999] = 7;
    threadgroup_barrier(mem_flags::mem_none);
    if (tid == 0)
        out[group] = 4199999u * buf[4199999];
}
