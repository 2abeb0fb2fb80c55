// The SIMD-group attributes: 32 consecutive threads of the threadgroup
// (in thread_index_in_threadgroup order, x fastest) form a SIMD-group.
// A 3-D threadgroup of 8 x 4 x 3 (3 SIMD-groups) and one of 33 threads
// (2, the second of one thread); ushort and uint forms.
//@ buffer a uint 96
//@ buffer b uint 33
//@ buffer c uint 96
//@ run attrs groups=1 threads=8,4,3 bind=a:0,c:1
//@ run attrs groups=1 threads=33 bind=b:0,c:1
//@ expect a = i % 32 + (i / 32 << 8) + (32 << 16) + (3 << 24)
//@ expect b = i % 32 + (i / 32 << 8) + (32 << 16) + (2 << 24)
//@ expect c = i % 4 + (i / 4 << 8)
#include <metal_stdlib>
using namespace metal;

kernel void attrs(device uint *out [[buffer(0)]], device uint *quad [[buffer(1)]],
                  uint3 pos [[thread_position_in_threadgroup]],
                  uint3 tpg [[threads_per_threadgroup]],
                  uint lane [[thread_index_in_simdgroup]],
                  ushort sg [[simdgroup_index_in_threadgroup]],
                  uint width [[threads_per_simdgroup]],
                  uint nsg [[simdgroups_per_threadgroup]],
                  ushort qlane [[thread_index_in_quadgroup]],
                  uint qg [[quadgroup_index_in_threadgroup]])
{
    uint tid = pos.x + tpg.x * (pos.y + tpg.y * pos.z);
    out[tid] = lane | uint(sg) << 8 | width << 16 | nsg << 24;
    quad[tid] = qlane | qg << 8;
}
