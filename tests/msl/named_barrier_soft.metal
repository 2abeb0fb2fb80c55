// metalcuda's named barriers on the software device (__mc_named_barrier,
// an extension of the soft shim that PTX bar.sync/bar.arrive use; not
// Metal).  Producers (threads 0-63) arrive at barrier 1 without waiting;
// consumers (64-127) sync on it (128 threads) and read what the producers
// wrote.  A barrier that can never complete (the consumers expect 160
// threads) fails the command buffer with its id and counts instead of
// hanging.
//@ buffer out uint 128
//@ buffer bad uint 128
//@ bytes n128 uint 1 = {128}
//@ bytes n160 uint 1 = {160}
//@ run nbar groups=2 threads=128 bind=out:0,n128:1
//@ expect out = i < 64 ? i : (i - 64) * 3 + 7
//@ run nbar groups=1 threads=128 bind=bad:0,n160:1 error="named barrier 1 (bar.sync/bar.arrive) waits for 160 threads and 128 arrived"
#include <metal_stdlib>
using namespace metal;

kernel void nbar(device uint *out [[buffer(0)]], constant uint &count [[buffer(1)]],
                 uint tid [[thread_index_in_threadgroup]], uint gid [[threadgroup_position_in_grid]])
{
    threadgroup uint v[64];
    if (tid < 64) {
        v[tid] = tid * 3 + 7;
        __mc_named_barrier(1, count, true);
        if (gid == 0)
            out[tid] = tid;
    } else {
        __mc_named_barrier(1, count, false);
        if (gid == 0)
            out[tid] = v[tid - 64];
    }
}
