// Kernel parameters through setBytes: a struct bound as constant Params&.
//@ bytes params struct 12 = {uint 10, float 2.5, int -3}
//@ buffer out float 16
//@ run scale groups=1 threads=16 bind=params:0,out:1
//@ expect out = i < 10 ? (i - 3) * 2.5 : -1
#include <metal_stdlib>
using namespace metal;

struct Params {
    uint n;
    float scale;
    int offset;
};

kernel void scale(constant Params &p [[buffer(0)]],
                  device float *out [[buffer(1)]],
                  uint i [[thread_position_in_grid]])
{
    out[i] = i < p.n ? float(int(i) + p.offset) * p.scale : -1.0f;
}
