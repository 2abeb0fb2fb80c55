// Every one of the 65536 halves: half -> float -> half gives the same bits
// (NaN stays NaN), and every rounding boundary of float -> half is where
// round-to-nearest-even puts it: the float midway between two neighbouring
// halves (exact in float) rounds to the even one, the float just beyond it
// to the farther one, the float just short of it to the nearer one.
// bad[i] is 0 or says what failed for the half with bits i: 1 round trip,
// 2 midpoint, 4 just beyond, 8 just short.
//@ requires half
//@ buffer bad ushort 65536
//@ run half_roundtrip groups=64 threads=1024 bind=bad:0
//@ expect bad = {0}
#include <metal_stdlib>
using namespace metal;

kernel void half_roundtrip(device ushort *bad [[buffer(0)]],
                           uint i [[thread_position_in_grid]])
{
    half h = as_type<half>(ushort(i));
    half back = half(float(h));
    ushort r = 0;
    if (isnan(h) ? !isnan(back) : as_type<ushort>(back) != ushort(i))
        r |= 1;
    // The next half away from zero, when it is finite.
    ushort up = ushort(i + 1);
    if ((i & 0x7fffu) < 0x7bffu) {
        float lo = float(h), hi = float(as_type<half>(up));
        float mid = (lo + hi) * 0.5f;
        ushort even = (i & 1u) ? up : ushort(i);
        if (as_type<ushort>(half(mid)) != even)
            r |= 2;
        if (as_type<ushort>(half(as_type<float>(as_type<uint>(mid) + 1u))) != up)
            r |= 4;
        if (as_type<ushort>(half(as_type<float>(as_type<uint>(mid) - 1u))) != ushort(i))
            r |= 8;
    }
    bad[i] = r;
}
