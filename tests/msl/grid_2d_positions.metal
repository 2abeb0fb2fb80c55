// A 2-D grid of 2x2 threadgroups of 8x5 threads (grid 16x10) writing every
// position and size attribute, in several declared types.  Thread t writes
// at t = y * 16 + x; pairs hold (x, y).
//@ buffer pos uint 320
//@ buffer tpos uint 320
//@ buffer gpos uint 320
//@ buffer sizes uint 960
//@ buffer lin uint 160
//@ buffer lane uint 160
//@ buffer simd uint 160
//@ buffer simdsz uint 320
//@ buffer pos3 uint 480
//@ run positions groups=2,2 threads=8,5 bind=pos:0,tpos:1,gpos:2,sizes:3,lin:4,lane:5,simd:6,simdsz:7,pos3:8
//@ expect pos = i % 2 == 0 ? (i / 2) % 16 : (i / 2) / 16
//@ expect tpos = i % 2 == 0 ? (i / 2) % 16 % 8 : (i / 2) / 16 % 5
//@ expect gpos = i % 2 == 0 ? (i / 2) % 16 / 8 : (i / 2) / 16 / 5
//@ expect sizes = i % 6 == 0 ? 8 : i % 6 == 1 ? 5 : i % 6 == 2 ? 2 : i % 6 == 3 ? 2 : i % 6 == 4 ? 16 : 10
//@ expect lin = ((i / 16) % 5) * 8 + (i % 16) % 8
//@ expect lane = (((i / 16) % 5) * 8 + (i % 16) % 8) % 32
//@ expect simd = (((i / 16) % 5) * 8 + (i % 16) % 8) / 32
//@ expect simdsz = i % 2 == 0 ? 32 : 2
//@ expect pos3 = i % 3 == 0 ? (i / 3) % 16 : i % 3 == 1 ? (i / 3) / 16 : 0
#include <metal_stdlib>
using namespace metal;

kernel void positions(device uint *pos [[buffer(0)]],
                      device uint *tpos [[buffer(1)]],
                      device uint *gpos [[buffer(2)]],
                      device uint *sizes [[buffer(3)]],
                      device uint *lin [[buffer(4)]],
                      device uint *lane [[buffer(5)]],
                      device uint *simd [[buffer(6)]],
                      device uint *simdsz [[buffer(7)]],
                      device uint *pos3 [[buffer(8)]],
                      uint2 gid [[thread_position_in_grid]],
                      ushort2 tid [[thread_position_in_threadgroup]],
                      uint2 group [[threadgroup_position_in_grid]],
                      uint2 tpt [[threads_per_threadgroup]],
                      uint3 groups [[threadgroups_per_grid]],
                      uint2 grid [[threads_per_grid]],
                      uint index [[thread_index_in_threadgroup]],
                      ushort lane_id [[thread_index_in_simdgroup]],
                      uint simd_id [[simdgroup_index_in_threadgroup]],
                      uint simd_width [[threads_per_simdgroup]],
                      ushort nsimd [[simdgroups_per_threadgroup]],
                      uint3 gid3 [[thread_position_in_grid]])
{
    uint t = gid.y * grid.x + gid.x;
    pos[2 * t] = gid.x;
    pos[2 * t + 1] = gid.y;
    tpos[2 * t] = tid.x;
    tpos[2 * t + 1] = tid.y;
    gpos[2 * t] = group.x;
    gpos[2 * t + 1] = group.y;
    sizes[6 * t] = tpt.x;
    sizes[6 * t + 1] = tpt.y;
    sizes[6 * t + 2] = groups.x;
    sizes[6 * t + 3] = groups.y;
    sizes[6 * t + 4] = grid.x;
    sizes[6 * t + 5] = grid.y + groups.z - 1;
    lin[t] = index;
    lane[t] = lane_id;
    simd[t] = simd_id;
    simdsz[2 * t] = simd_width;
    simdsz[2 * t + 1] = nsimd;
    pos3[3 * t] = gid3.x;
    pos3[3 * t + 1] = gid3.y;
    pos3[3 * t + 2] = gid3.z;
}
