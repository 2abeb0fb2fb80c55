// Attributes the device does not handle are errors wherever they are.
//@ expect_error "unknown attribute 'user'"
#include <metal_stdlib>
using namespace metal;

struct V {
    float4 pos [[user(locn0)]];
};

kernel void k(device V *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    out[i].pos = float4(1.0f);
}
