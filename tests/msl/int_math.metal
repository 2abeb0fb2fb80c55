// MSL integer functions (metal_integer); expected values worked out by hand.
//@ buffer out uint 32
//@ run int_math groups=1 threads=1 bind=out:0
//@ expect out = {8, 32, 20, 16, 0x80000000, 3, 0xffffffff, 12, 0xffffffff, 0x7fffffff, 0x80000000, 0, 0x18, 0xd12, 0xffffffff, 0xfffff00f, 7, 10, 9, 0xfffffffe, 15, 8, 0x8000, 32, 31, 30, 29, 28, 0xfffffffd, 0xffffffff, 1, 0xcdcdcdcd}
#include <metal_stdlib>
using namespace metal;

kernel void int_math(device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    volatile uint zero = i;           // keeps the compiler from folding everything
    uint z = zero;
    out[0] = clz(0x00f00000u + z);
    out[1] = clz(z);
    out[2] = ctz(0x00f00000u + z);
    out[3] = popcount(0xf0f0f0f0u + z);
    out[4] = reverse_bits(1u + z);
    out[5] = mulhi(0x80000000u + z, 6u);
    out[6] = as_type<uint>(mulhi(-2 + int(z), 0x40000000));
    out[7] = absdiff(-5 + int(z), 7);
    out[8] = addsat(0xfffffff0u + z, 0x20u);
    out[9] = uint(addsat(0x7ffffff0 + int(z), 0x20));
    out[10] = uint(subsat(-0x7ffffff0 + int(z), 0x20));
    out[11] = subsat(5u + z, 7u);
    out[12] = rotate(0x80000001u + z, 4u);
    out[13] = extract_bits(0xabcd1234u + z, 8u, 12u);
    out[14] = uint(extract_bits(int(0x00000f00 + z), 8u, 4u));
    out[15] = insert_bits(0xffffffffu + z, 0u, 4u, 8u);
    out[16] = uint(abs(-7 + int(z)));
    out[17] = uint(clamp(15 + int(z), 0, 10));
    out[18] = max(3u + z, 9u);
    out[19] = hadd(0xffffffffu + z, 0xfffffffdu);
    out[20] = uint(clz(ushort(1 + z)));
    out[21] = uint(popcount(uchar(0xff + z)));
    out[22] = uint(reverse_bits(ushort(1 + z)));
    out[23] = ctz(z);
    uint4 v = clz(uint4(1, 2, 4, 8) + z);
    out[24] = v.x;
    out[25] = v.y;
    out[26] = v.z;
    out[27] = v.w;
    out[28] = uint((-7 + int(z)) / 2);
    out[29] = uint((-7 + int(z)) % 2);
    out[30] = uint(min(int(z) - 1, 1) + 2);
}
