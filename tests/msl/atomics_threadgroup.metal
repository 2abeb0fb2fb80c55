// Threadgroup atomics from 64 threads per group, on an in-body threadgroup
// atomic and on dynamic threadgroup memory.  Without a barrier the final
// value cannot be read, so each thread records the value it got back; in
// any order of execution a group's values are 64 consecutive integers from
// an unknown start.  A second pass (one thread per group) checks that: the
// sum of (value - min) is 2016, the values cover all 64 offsets (two
// 32-bit masks), and max - min is 63.
//@ buffer got uint 512
//@ buffer got2 uint 512
//@ buffer res uint 32
//@ buffer res2 uint 32
//@ run bump groups=8 threads=64 bind=got:0,got2:1 tg=0:16
//@ run check groups=8 threads=1 bind=got:0,res:1
//@ run check groups=8 threads=1 bind=got2:0,res:1
//@ run check groups=8 threads=1 bind=got2:0,res2:1
//@ expect res = i % 4 == 0 ? 2016 : i % 4 == 3 ? 63 : 0xffffffff
//@ expect res2 = i % 4 == 0 ? 2016 : i % 4 == 3 ? 63 : 0xffffffff
#include <metal_stdlib>
using namespace metal;

kernel void bump(device uint *got [[buffer(0)]],
                 device uint *got2 [[buffer(1)]],
                 threadgroup atomic_uint *dyn [[threadgroup(0)]],
                 uint gid [[thread_position_in_grid]])
{
    threadgroup atomic_uint counter;
    got[gid] = atomic_fetch_add_explicit(&counter, 1u, memory_order_relaxed);
    got2[gid] = atomic_fetch_add_explicit(dyn, 1u, memory_order_relaxed);
}

kernel void check(device const uint *got [[buffer(0)]],
                  device uint *res [[buffer(1)]],
                  uint group [[threadgroup_position_in_grid]])
{
    device const uint *g = got + group * 64;
    uint lo = g[0], hi = g[0];
    for (uint k = 0; k < 64; k++) {
        lo = min(lo, g[k]);
        hi = max(hi, g[k]);
    }
    uint sum = 0, m0 = 0, m1 = 0;
    for (uint k = 0; k < 64; k++) {
        uint d = g[k] - lo;
        sum += d;
        if (d < 32)
            m0 |= 1u << d;
        else if (d < 64)
            m1 |= 1u << (d - 32);
    }
    res[group * 4] = sum;
    res[group * 4 + 1] = m0;
    res[group * 4 + 2] = m1;
    res[group * 4 + 3] = hi - lo;
}
