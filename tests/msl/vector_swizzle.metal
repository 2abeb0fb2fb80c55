// Vector types: constructors (scalar splat, concatenation, conversion),
// swizzles (read and write, xyzw and rgba), component-wise functions.
//@ buffer out float 24
//@ buffer iout int 8
//@ run swizzle groups=1 threads=1 bind=out:0,iout:1
//@ expect out = {4, 3, 2, 1, 3, 4, 3, 4, 1, 2, 9, 7, 7, 7, 7, 30, 2, 1, 0, 1, 5, 6, 0.5, 1}
//@ expect iout = {-1, 2, -3, 4, 1, 0, 5, 7}
#include <metal_stdlib>
using namespace metal;

kernel void swizzle(device float *out [[buffer(0)]],
                    device int *iout [[buffer(1)]],
                    uint i [[thread_position_in_grid]])
{
    float4 v = float4(1.0f, 2.0f, 3.0f, 4.0f + float(i));
    float4 r = v.wzyx;
    out[0] = r.x; out[1] = r.y; out[2] = r.z; out[3] = r.w;
    float4 w = v;
    w.xy = v.zw;
    out[4] = w.x; out[5] = w.y; out[6] = w.z; out[7] = w.w;
    float3 t = float3(v.xy, 9.0f);
    out[8] = t.x; out[9] = t.y; out[10] = t.z;
    float4 s = float4(7.0f);
    out[11] = s.x; out[12] = s.y; out[13] = s.z; out[14] = s.a;
    out[15] = dot(v, v);
    out[16] = v.g;
    float2 m = max(v.xy, float2(1.5f)) - min(v.xy, float2(1.0f));
    out[17] = m.y;
    bool4 gt = bool4(v > 2.5f);
    out[18] = all(gt) ? 1.0f : 0.0f;
    out[19] = any(gt) ? 1.0f : 0.0f;
    uint3 u = uint3(5, 6, 7);
    out[20] = float(u.x);
    out[21] = float(u.yz.x);
    out[22] = clamp(v, 0.0f, 0.5f).y;
    out[23] = select(float4(0.0f), float4(1.0f), gt).w;
    int4 iv = int4(float4(-1.5f, 2.5f, -3.5f, 4.5f));   // value conversion, truncating
    iout[0] = iv.x; iout[1] = iv.y; iout[2] = iv.z; iout[3] = iv.w;
    int4 cv = static_cast<int4>(float4(1.0f, 0.0f, 5.9f, 7.0f));
    iout[4] = cv.x; iout[5] = cv.y; iout[6] = cv.z; iout[7] = cv.w;
}
