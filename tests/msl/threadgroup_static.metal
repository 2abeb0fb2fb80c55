// Threadgroup arrays declared in the kernel body, with threadgroups running
// in parallel on several worker threads: each group must see its own
// storage.  Each group repeatedly writes a pattern of its own and sums it.
//@ buffer out uint 64
//@ run tiles groups=64 threads=1 bind=out:0
//@ expect out = 50 * (256 * i + 32640)
#include <metal_stdlib>
using namespace metal;

[[max_total_threads_per_threadgroup(64)]]
kernel void tiles(device uint *out [[buffer(0)]],
                  uint group [[threadgroup_position_in_grid]])
{
    threadgroup uint tile[16][16];
    threadgroup uint scratch[4], total;
    total = 0;
    for (uint rep = 0; rep < 50; rep++) {
        for (uint y = 0; y < 16; y++)
            for (uint x = 0; x < 16; x++)
                tile[y][x] = group + y * 16 + x;
        scratch[rep % 4] = 0;
        for (uint y = 0; y < 16; y++)
            for (uint x = 0; x < 16; x++)
                scratch[rep % 4] += tile[y][x];
        total += scratch[rep % 4];
    }
    out[group] = total;
}
