// The "last block" reduction of coherent_device.metal with plain device
// memory: on an Apple GPU the last threadgroup may read stale partials
// (device memory is coherent only within a threadgroup unless declared
// coherent(device)), so the software device refuses it although a CPU
// would give the right sum (issue 15, finding 7).
//@ device soft
//@ expect_error "kernel 'last_group_sums' fences at device scope"
#include <metal_stdlib>
using namespace metal;

kernel void last_group_sums(device uint *part [[buffer(0)]],
                            device atomic_uint *ticket [[buffer(1)]],
                            threadgroup uint *s [[threadgroup(0)]],
                            uint gid [[thread_position_in_grid]],
                            uint t [[thread_index_in_threadgroup]],
                            uint g [[threadgroup_position_in_grid]])
{
    s[t] = gid;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint d = 128; d > 0; d /= 2) {
        if (t < d)
            s[t] += s[t + d];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (t == 0) {
        part[g] = s[0];
        atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
        if (atomic_fetch_add_explicit(ticket, 1u, memory_order_relaxed) == 15u) {
            atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
            uint sum = 0;
            for (uint k = 0; k < 16u; k++)
                sum += part[k];
            part[16] = sum;
        }
    }
}
