// Threadgroup memory through [[threadgroup(0)]] (dynamic length): one
// thread per group fills and sums a block; then many threads each using
// their own slot (no barrier needed).
//@ buffer sums float 8
//@ buffer own uint 256
//@ run fill_sum groups=8 threads=1 bind=sums:0 tg=0:64
//@ run own_slot groups=4 threads=64 bind=own:0 tg=0:256
//@ expect sums = 16 * i + 120
//@ expect own = (i % 64) * 2 + 1
#include <metal_stdlib>
using namespace metal;

kernel void fill_sum(device float *sums [[buffer(0)]],
                     threadgroup float *tg [[threadgroup(0)]],
                     uint group [[threadgroup_position_in_grid]])
{
    for (uint k = 0; k < 16; k++)
        tg[k] = float(group + k);
    float s = 0.0f;
    for (uint k = 0; k < 16; k++)
        s += tg[k];
    sums[group] = s;
}

kernel void own_slot(device uint *own [[buffer(0)]],
                     threadgroup uint *tg [[threadgroup(0)]],
                     uint lid [[thread_index_in_threadgroup]],
                     uint gid [[thread_position_in_grid]])
{
    tg[lid] = lid * 2;
    own[gid] = tg[lid] + 1;
}
