// A language version newer than the software device's shim implements
// (MSL 3.2) is refused, not compiled as if it were 3.2.
//@ device soft
//@ msl_version 400
//@ expect_error "the software device implements MSL 3.0 to 3.2"
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = i; }
