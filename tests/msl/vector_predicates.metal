// Component-wise predicates on float vectors (isfinite, isnan, isinf,
// signbit) give boolN, whose components select() and all()/any() read.
// metalcuda's own MSL uses select(plain, r, isfinite(r)); the shim's boolN
// is a vector of signed char, which clang 14 (no bool vectors) also
// compiles.  Expected: IEEE classification of the inputs.
//@ buffer in float 4 = {1.5, -0.0, 0, 3}
//@ buffer out float 12
//@ buffer flags uint 6
//@ run preds groups=1 threads=1 bind=in:0,out:1,flags:2
//@ expect out = {1.5, -0.0, 7, 7, 0, 1, 0, 1, 1.5, -0.0, 0, 3}
//@ expect flags = {1, 0, 1, 1, 1, 0}
#include <metal_stdlib>
using namespace metal;

kernel void preds(device const float *in [[buffer(0)]],
                  device float *out [[buffer(1)]],
                  device uint *flags [[buffer(2)]],
                  uint i [[thread_position_in_grid]])
{
    float4 v = float4(in[0], in[1], in[2], in[3]);
    float zero = in[2];
    float4 w = float4(v.x, v.y, 1.0f / zero, zero / zero);     // 1.5, -0, inf, nan
    float4 seven = float4(7.0f + zero);
    float4 kept = select(seven, w, isfinite(w));               // 1.5, -0, 7, 7
    out[0] = kept.x; out[1] = kept.y; out[2] = kept.z; out[3] = kept.w;
    bool4 n = isnan(w), f = isinf(w);
    out[4] = n.x ? 1.0f : 0.0f;
    out[5] = n.w ? 1.0f : 0.0f;
    out[6] = f.x ? 1.0f : 0.0f;
    out[7] = f.z ? 1.0f : 0.0f;
    float4 plain = select(v, seven, signbit(v) && !isfinite(v));   // none: v itself
    out[8] = plain.x; out[9] = plain.y; out[10] = plain.z; out[11] = plain.w;
    flags[0] = all(isfinite(v)) ? 1u : 0u;
    flags[1] = all(isfinite(w)) ? 1u : 0u;
    flags[2] = any(isnan(w)) ? 1u : 0u;
    flags[3] = any(signbit(v)) ? 1u : 0u;
    flags[4] = signbit(w).y ? 1u : 0u;
    flags[5] = any(isinf(v)) ? 1u : 0u;
}
