// A kernel reading memory through a raw GPU address stored in a buffer
// (reinterpret_cast<device T*>(ulong), Metal 3), made resident with
// useResource.  The address is the buffer's GPU view; its CPU view is a
// different address, so a CPU address would not read these values.
//@ buffer data float 66 = i * 3
//@ buffer ptrs ulong 1 = &data
//@ buffer out float 64
//@ run deref groups=2 threads=32 bind=ptrs:0,out:1 use=data
//@ expect out = i * 3 + 1 + (i % 2) * 3
#include <metal_stdlib>
using namespace metal;

kernel void deref(device const ulong *ptrs [[buffer(0)]],
                  device float *out [[buffer(1)]],
                  uint i [[thread_position_in_grid]])
{
    device float *p = reinterpret_cast<device float *>(ptrs[0]);
    ulong addr = reinterpret_cast<ulong>(p) + (i % 2) * sizeof(float);
    out[i] = p[i] + 1.0f + (reinterpret_cast<device float *>(addr)[i] - p[i]);
}
