// The same fence compiles and runs at MSL 3.2, the version metalcuda pins
// (err_fence_msl31.metal is the 3.1 side).
//@ msl_version 320
//@ buffer out uint 64 = 0
//@ run k groups=2 threads=32 bind=out:0
//@ expect out = i
#include <metal_stdlib>
using namespace metal;

kernel void k(coherent(device) device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    out[i] = i;
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
}
