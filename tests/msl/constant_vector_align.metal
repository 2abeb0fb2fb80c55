// A constant buffer of 32-byte vectors (ulong4): loop mode copies a small
// constant buffer into the entry's frame, and setBytes data is copied too;
// both must be aligned like a buffer (64 bytes), not just to 16, or an
// aligned 32-byte load from them faults.  A review reproduced that fault
// with a 16-byte aligned copy in one build; whether it shows depends on
// the frame layout, so this case runs the path rather than proving the
// alignment.  Bound once as a buffer, once with setBytes.
//@ buffer table ulong 64 = i * 3
//@ bytes table_bytes ulong 64 = i * 3
//@ bytes mask uint 1 = {15}
//@ buffer out ulong 1024
//@ buffer out2 ulong 1024
//@ run lookup groups=2 threads=128 bind=table:0,out:1,mask:2
//@ run lookup groups=2 threads=128 bind=table_bytes:0,out2:1,mask:2
//@ expect out = (((i >> 2) & 15) * 4 + (i & 3)) * 3 + 1
//@ expect out2 = (((i >> 2) & 15) * 4 + (i & 3)) * 3 + 1
#include <metal_stdlib>
using namespace metal;

kernel void lookup(constant ulong4 *table [[buffer(0)]],
                   device ulong4 *out [[buffer(1)]],
                   constant uint &mask [[buffer(2)]],
                   uint i [[thread_position_in_grid]])
{
    out[i] = table[i & mask] + ulong4(1);
}
