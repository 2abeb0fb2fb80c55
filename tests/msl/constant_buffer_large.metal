// A constant buffer larger than the 4 KB that loop mode copies into the
// entry's frame (src/metal/soft/msl_scan.c) takes the per-thread path: the
// threads must still read all 8192 entries (32 KB), the last ones
// included.  A small one is copied; the same pipeline serves both.
//@ buffer table uint 8192 = i * 7 + 3
//@ buffer small uint 16 = 100 + i
//@ bytes mask_all uint 1 = {8191}
//@ bytes mask_small uint 1 = {15}
//@ buffer out uint 8192
//@ buffer out2 uint 8192
//@ run lookup groups=32 threads=256 bind=table:0,out:1,mask_all:2
//@ run lookup groups=32 threads=256 bind=small:0,out2:1,mask_small:2
//@ expect out = i * 7 + 3
//@ expect out2 = 100 + (i & 15)
#include <metal_stdlib>
using namespace metal;

kernel void lookup(constant uint *table [[buffer(0)]],
                   device uint *out [[buffer(1)]],
                   constant uint &mask [[buffer(2)]],
                   uint i [[thread_position_in_grid]])
{
    out[i] = table[i & mask];
}
