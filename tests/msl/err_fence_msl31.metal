// atomic_thread_fence with a thread scope is MSL 3.2 (macOS 15); compiled
// for MSL 3.1 (macOS 14) the software device refuses it, as Apple's
// compiler does, instead of hiding that the program needs 3.2 (issue 15).
//@ device soft
//@ msl_version 310
//@ expect_error "needs_msl_3_2"
#include <metal_stdlib>
using namespace metal;

kernel void k(device atomic_uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    atomic_store_explicit(out + i, i, memory_order_relaxed);
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
}
