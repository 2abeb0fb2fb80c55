// A kernel that dereferences a bad address fails its command buffer with a
// message naming the kernel and the address; the process survives and the
// next command buffer runs normally.
//@ buffer out uint 64
//@ run bad groups=4 threads=16 bind=out:0 error="kernel 'bad' faulted at address 0x10"
//@ run good groups=4 threads=16 bind=out:0
//@ run bad groups=1 threads=1 bind=out:0 error="SIGSEGV"
//@ run good groups=2 threads=32 bind=out:0
//@ expect out = i * 7
#include <metal_stdlib>
using namespace metal;

kernel void bad(device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    device uint *p = reinterpret_cast<device uint *>(ulong(0x10) + i * 0);
    out[i] = *p;
}

kernel void good(device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    out[i] = i * 7;
}
