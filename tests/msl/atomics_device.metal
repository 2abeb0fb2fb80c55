// Device atomics from 4096 threads in 16 threadgroups running in parallel.
//@ buffer c uint 8 = {0, 0, 0, 0xffffffff, 0, 0, 0, 0}
//@ buffer s int 2 = {0, 100}
//@ buffer f float 1 = {0}
//@ run count groups=16 threads=256 bind=c:0,s:1,f:2
//@ expect c = {4096, 8386560, 4095, 0, 0xffffffff, 4096, 0, 0}
//@ expect s = {-4096, 100}
//@ expect f = {2048}
#include <metal_stdlib>
using namespace metal;

kernel void count(device atomic_uint *c [[buffer(0)]],
                  device atomic_int *s [[buffer(1)]],
                  device atomic_float *f [[buffer(2)]],
                  uint gid [[thread_position_in_grid]])
{
    atomic_fetch_add_explicit(&c[0], 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(&c[1], gid, memory_order_relaxed);
    atomic_fetch_max_explicit(&c[2], gid, memory_order_relaxed);
    atomic_fetch_min_explicit(&c[3], gid, memory_order_relaxed);
    atomic_fetch_or_explicit(&c[4], 1u << (gid % 32), memory_order_relaxed);
    // an add built from compare-exchange (the weak form may fail spuriously)
    uint expected = atomic_load_explicit(&c[5], memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&c[5], &expected, expected + 1,
                                                  memory_order_relaxed, memory_order_relaxed))
        ;
    atomic_fetch_xor_explicit(&c[6], 1u << (gid % 32), memory_order_relaxed);  // even count per bit
    atomic_fetch_sub_explicit(&s[0], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(f, 0.5f, memory_order_relaxed);
}
