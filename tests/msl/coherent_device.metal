// coherent(device) (MSL 3.2): writes one threadgroup makes are visible to
// the others within the dispatch.  The last threadgroup to finish (an
// atomic ticket) sums every group's partial through the coherent buffer,
// after an atomic_thread_fence: the "last block" pattern of CUDA's
// threadFenceReduction.  Expected: sum of 0..4095 = 8386560, in the last
// slot, whatever order the groups ran in.
//@ buffer part uint 17
//@ buffer ticket uint 1 = {0}
//@ run last_group_sums groups=16 threads=256 bind=part:0,ticket:1 tg=0:1024
//@ expect part = i < 16 ? 256 * (256 * i) + 32640 : 8386560
//@ expect ticket = {16}
#include <metal_stdlib>
using namespace metal;

kernel void last_group_sums(coherent(device) device uint *part [[buffer(0)]],
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
