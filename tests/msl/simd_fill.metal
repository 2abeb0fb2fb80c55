// simd_shuffle_and_fill_up/down: lanes whose source falls off their
// segment (the SIMD-group, or `modulo` lanes) take filling_data from the
// other end of the segment.  Values 10 * tid + 1, filling 1000 + tid.
//@ buffer a uint 64
//@ buffer b uint 64
//@ buffer c uint 64
//@ buffer d uint 64
//@ run fill groups=1 threads=64 bind=a:0,b:1,c:2,d:3
//@ expect a = i % 32 >= 3 ? (i - 3) * 10 + 1 : 1000 + i + 29
//@ expect b = i % 32 + 3 < 32 ? (i + 3) * 10 + 1 : 1000 + i - 29
//@ expect c = i % 8 >= 2 ? (i - 2) * 10 + 1 : 1000 + i + 6
//@ expect d = i % 8 + 2 < 8 ? (i + 2) * 10 + 1 : 1000 + i - 6
#include <metal_stdlib>
using namespace metal;

kernel void fill(device uint *a [[buffer(0)]], device uint *b [[buffer(1)]],
                 device uint *c [[buffer(2)]], device uint *d [[buffer(3)]],
                 uint tid [[thread_index_in_threadgroup]])
{
    uint v = tid * 10 + 1, fill = 1000 + tid;
    a[tid] = simd_shuffle_and_fill_up(v, fill, 3);
    b[tid] = simd_shuffle_and_fill_down(v, fill, 3);
    c[tid] = simd_shuffle_and_fill_up(v, fill, 2, 8);
    d[tid] = simd_shuffle_and_fill_down(v, fill, 2, 8);
}
