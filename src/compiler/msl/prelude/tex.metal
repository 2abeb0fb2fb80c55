
// ---- texture and surface objects (tex, suld, sust, txq, suq) ----
//
// A CUDA texture or surface object is the CUDA address of a descriptor,
// struct mc_tex (compiler.h), which src/core/array.c writes in device
// memory.  Texels are read from device memory and filtered here exactly as
// the CUDA C++ Programming Guide's appendix "Texture Fetching" defines it,
// not by a Metal sampler (whose filtering precision differs from NVIDIA's):
//  - normalised coordinates are scaled by the size; the address mode maps
//    each texel index into range (wrap: modulo; mirror: reflected; clamp:
//    to the edge; border: the border colour, read as a texel of the
//    format, into which src/core/array.c converts it as an H100 does);
//    wrap and mirror exist only with normalised coordinates (unnormalised
//    ones clamp);
//  - nearest-point sampling reads T[floor(x)];
//  - linear filtering reads T[i] and T[i+1] with i = floor(x - 0.5) and
//    weights 1 - a, a where a = frac(x - 0.5) is held in 9-bit fixed point
//    with 8 fractional bits (so 1.0 is exact): rounded half up to a
//    multiple of 1/256; in 2-D and 3-D the corners' weights are multiples
//    of 1/256 that sum to exactly 1, split along z, then x, then y
//    (mc_tex_corner_weight; in 2-D: ab rounded once, 1 - a - b + ab,
//    a - ab, b - ab), what an H200 computes (tests/cuda/tex2d.cu,
//    tex_layered.cu, tex_weights.cu: the guide's formula with unrounded
//    products differs in the last bits);
//  - a layered texture's layer index is unsigned and clamped to the last
//    layer (so -1 reads the last one: an H200), for surfaces too in the
//    clamp mode;
//  - integer coordinates (tex1Dfetch) outside the data read zeros (H200);
//  - integers read as such are filtered in integers (within a level only
//    through the driver's CU_TRSF_READ_AS_INTEGER), with the same weights
//    (mc_tex_iacc: an H200);
//  - cudaReadModeNormalizedFloat maps an unsigned N-bit channel to v / (2^N - 1)
//    and a signed one to max(v / (2^(N-1) - 1), -1); missing channels read 0;
//    the normalised formats (unorm, snorm: CU_AD_FORMAT_UNORM_INT8X1 ...)
//    read so in every read mode, and filter as such; linear filtering of
//    unsigned and signed 8/16-bit ones within a level is the H100's
//    16-bit fixed point (mc_tex_filters_fixed; mipmapped blends of them
//    too; signed 8-bit ones summed as raw integers first);
//  - f32 and half texels filter as an H100 does: aligned to the largest
//    exponent, truncated, summed exactly, rounded ties away
//    (the comment above struct mc_tex_flin says how); sRGB-decoded
//    channels the same way, cut to 8 bits below an exponent their 8-bit
//    codes choose (mc_tex_srgb_merge);
//  - linear memory reads zeros at float coordinates, and integers read as
//    elements return their bits to a float fetch (an H100).
// Surfaces are addressed in bytes along x (sust.p: in samples), elements
// along y and z; the boundary mode says what an access outside does (trap,
// clamp, zero).
// A layered array's layers are its slices (depth = the number of layers).

// Always inlined: each call site's constant mode (geometry, integer
// coordinates or results) then folds, and the per-texel loops unroll.
#define MC_TEX inline __attribute__((always_inline))

struct mc_tex {
    ulong base;
    ulong pitch;
    ulong slice;
    uint width, height, depth;
    uint kind;        // 0 unsigned, 1 signed, 2 float, 3 unorm, 4 snorm
    uint chan_bytes;
    uint nchan;
    uint addr[3];     // 0 wrap, 1 clamp, 2 mirror, 3 border
    uint flags;       // 1 linear, 2 normalised coordinates, 4 normalised read, 8 sRGB
    uint border[4];   // the border colour as a texel's raw channels (mc_tex_border_f)
    ulong mip;        // a mipmapped array's level table (mc_tex_level[nlevels]), or 0
    uint nlevels;
    int lod_bias, lod_min, lod_max;   // 1/256 of a level
    uint mip_linear;
    uint txq_size[3];   // txq's and suq's answers (compiler.h)
    uint txq_levels;
    uint txq_layer_dim;
    uint suq_size[3];
    uint aniso;         // 4: maxAnisotropy >= 2 (mipmapped); bits 8-11, 16-23: mc_tex_blend_weight's rule
};

struct mc_tex_level {
    ulong base, pitch, slice;
    uint width, height, depth, pad_;
};

MC_TEX device const mc_tex &mc_tex_desc(constant mc_launch &L, ulong h)
{
    return *reinterpret_cast<device const mc_tex *>(mc_gpu(L, h));
}

// A thread copy of the descriptor (Metal copies no struct across address
// spaces by assignment).
MC_TEX mc_tex mc_tex_load(constant mc_launch &L, ulong h)
{
    device const mc_tex &d = mc_tex_desc(L, h);
    mc_tex t;
    t.base = d.base, t.pitch = d.pitch, t.slice = d.slice;
    t.width = d.width, t.height = d.height, t.depth = d.depth;
    t.kind = d.kind, t.chan_bytes = d.chan_bytes, t.nchan = d.nchan;
    for (uint k = 0u; k < 3u; k++)
        t.addr[k] = d.addr[k];
    t.flags = d.flags;
    for (uint k = 0u; k < 4u; k++)
        t.border[k] = d.border[k];
    t.mip = d.mip, t.nlevels = d.nlevels;
    t.lod_bias = d.lod_bias, t.lod_min = d.lod_min, t.lod_max = d.lod_max;
    t.mip_linear = d.mip_linear;
    for (uint k = 0u; k < 3u; k++)
        t.txq_size[k] = d.txq_size[k];
    t.txq_levels = d.txq_levels, t.txq_layer_dim = d.txq_layer_dim;
    for (uint k = 0u; k < 3u; k++)
        t.suq_size[k] = d.suq_size[k];
    t.aniso = d.aniso;
    return t;
}

MC_TEX uint mc_tex_size(thread const mc_tex &t, uint d) { return d == 0u ? t.width : d == 1u ? t.height : t.depth; }

// One channel's raw bits, zero-extended.
MC_TEX uint mc_tex_raw(constant mc_launch &L, ulong a, uint bytes)
{
    device const uchar *p = reinterpret_cast<device const uchar *>(mc_gpu(L, a));
    if (bytes == 1u)
        return (uint)p[0];
    if (bytes == 2u)
        return (uint)*reinterpret_cast<device const ushort *>(p);
    return *reinterpret_cast<device const uint *>(p);
}

MC_TEX int mc_tex_sext(uint v, uint bytes)
{
    uint sh = 32u - 8u * bytes;
    return (int)(v << sh) >> sh;
}

// The sRGB decode of an 8-bit channel: what an H200 read for each of the
// 256 values (tests/cuda/NATIVE.md, "sRGB"), as the upper halves of the
// floats (every one has 8 significant bits).  Close to IEC 61966-2-1's
// curve but not its rounding (1 reads 0x1.4p-12, the curve 0x1.3e4p-12),
// so a table, not the formula.  sRGB changes only 8-bit unsigned
// channels: the same GPU read 16-bit, signed and half channels as without
// (and an H100 the same, and the unorm8 formats as uchar).
constant ushort mc_tex_srgb_u8[256] = {
    0x0000u, 0x39a0u, 0x3a20u, 0x3a70u, 0x3aa0u, 0x3ac8u, 0x3af0u, 0x3b0cu, 0x3b20u, 0x3b34u, 0x3b48u, 0x3b5cu,
    0x3b70u, 0x3b84u, 0x3b90u, 0x3b9cu, 0x3baau, 0x3bb8u, 0x3bc6u, 0x3bd6u, 0x3be6u, 0x3bf6u, 0x3c03u, 0x3c0cu,
    0x3c16u, 0x3c1fu, 0x3c29u, 0x3c34u, 0x3c3eu, 0x3c49u, 0x3c55u, 0x3c60u, 0x3c6cu, 0x3c7au, 0x3c83u, 0x3c8au,
    0x3c91u, 0x3c98u, 0x3c9fu, 0x3ca6u, 0x3caeu, 0x3cb6u, 0x3cbeu, 0x3cc6u, 0x3cceu, 0x3cd7u, 0x3ce0u, 0x3ce9u,
    0x3cf2u, 0x3cfcu, 0x3d03u, 0x3d08u, 0x3d0du, 0x3d12u, 0x3d17u, 0x3d1cu, 0x3d22u, 0x3d28u, 0x3d2du, 0x3d33u,
    0x3d39u, 0x3d3fu, 0x3d45u, 0x3d4cu, 0x3d52u, 0x3d58u, 0x3d60u, 0x3d66u, 0x3d6cu, 0x3d74u, 0x3d7au, 0x3d81u,
    0x3d85u, 0x3d88u, 0x3d8cu, 0x3d90u, 0x3d94u, 0x3d98u, 0x3d9cu, 0x3da0u, 0x3da4u, 0x3da9u, 0x3dadu, 0x3db1u,
    0x3db6u, 0x3dbau, 0x3dbfu, 0x3dc3u, 0x3dc8u, 0x3dcdu, 0x3dd1u, 0x3dd6u, 0x3ddbu, 0x3de0u, 0x3de5u, 0x3deau,
    0x3df0u, 0x3df4u, 0x3dfau, 0x3e00u, 0x3e02u, 0x3e05u, 0x3e08u, 0x3e0bu, 0x3e0eu, 0x3e11u, 0x3e14u, 0x3e17u,
    0x3e1au, 0x3e1du, 0x3e20u, 0x3e23u, 0x3e26u, 0x3e29u, 0x3e2cu, 0x3e30u, 0x3e33u, 0x3e36u, 0x3e3au, 0x3e3du,
    0x3e40u, 0x3e44u, 0x3e47u, 0x3e4bu, 0x3e4eu, 0x3e52u, 0x3e56u, 0x3e59u, 0x3e5du, 0x3e61u, 0x3e65u, 0x3e68u,
    0x3e6cu, 0x3e70u, 0x3e74u, 0x3e78u, 0x3e7cu, 0x3e80u, 0x3e82u, 0x3e84u, 0x3e86u, 0x3e88u, 0x3e8au, 0x3e8du,
    0x3e8fu, 0x3e91u, 0x3e93u, 0x3e95u, 0x3e98u, 0x3e9au, 0x3e9cu, 0x3e9eu, 0x3ea1u, 0x3ea3u, 0x3ea5u, 0x3ea8u,
    0x3eaau, 0x3eadu, 0x3eafu, 0x3eb2u, 0x3eb4u, 0x3eb6u, 0x3eb9u, 0x3ebcu, 0x3ebeu, 0x3ec1u, 0x3ec3u, 0x3ec6u,
    0x3ec8u, 0x3ecbu, 0x3eceu, 0x3ed1u, 0x3ed3u, 0x3ed6u, 0x3ed9u, 0x3edbu, 0x3edeu, 0x3ee1u, 0x3ee4u, 0x3ee7u,
    0x3eeau, 0x3eedu, 0x3ef0u, 0x3ef2u, 0x3ef6u, 0x3ef8u, 0x3efcu, 0x3efeu, 0x3f01u, 0x3f02u, 0x3f04u, 0x3f05u,
    0x3f07u, 0x3f09u, 0x3f0au, 0x3f0cu, 0x3f0du, 0x3f0fu, 0x3f11u, 0x3f12u, 0x3f14u, 0x3f16u, 0x3f17u, 0x3f19u,
    0x3f1bu, 0x3f1cu, 0x3f1eu, 0x3f20u, 0x3f21u, 0x3f23u, 0x3f25u, 0x3f27u, 0x3f29u, 0x3f2au, 0x3f2cu, 0x3f2eu,
    0x3f30u, 0x3f32u, 0x3f33u, 0x3f35u, 0x3f37u, 0x3f39u, 0x3f3bu, 0x3f3du, 0x3f3fu, 0x3f41u, 0x3f43u, 0x3f45u,
    0x3f47u, 0x3f49u, 0x3f4bu, 0x3f4du, 0x3f4fu, 0x3f51u, 0x3f53u, 0x3f55u, 0x3f57u, 0x3f59u, 0x3f5bu, 0x3f5du,
    0x3f5fu, 0x3f61u, 0x3f63u, 0x3f65u, 0x3f68u, 0x3f6au, 0x3f6cu, 0x3f6eu, 0x3f70u, 0x3f72u, 0x3f74u, 0x3f76u,
    0x3f7au, 0x3f7cu, 0x3f7eu, 0x3f80u,
};

MC_TEX float mc_tex_srgb(uint raw) { return as_type<float>((uint)mc_tex_srgb_u8[raw & 255u] << 16); }

// t's channels read as normalised floats (the read mode, or a normalised
// format); unsigned (plain or unorm), signed (plain or snorm).
MC_TEX bool mc_tex_reads_norm(thread const mc_tex &t) { return (t.flags & 4u) != 0u || t.kind >= 3u; }
MC_TEX bool mc_tex_unsigned(thread const mc_tex &t) { return t.kind == 0u || t.kind == 3u; }
MC_TEX bool mc_tex_signed(thread const mc_tex &t) { return t.kind == 1u || t.kind == 4u; }

// Whether t's reads decode sRGB: 8-bit unsigned channels read as
// normalised floats, the flag set; then the colour channels, x, y and z
// of four and x of one or two (an H100 read a 2-channel format's y
// linear, as an alpha).
MC_TEX bool mc_tex_srgb_applies(thread const mc_tex &t)
{
    return (t.flags & 8u) != 0u && mc_tex_reads_norm(t) && t.chan_bytes == 1u && mc_tex_unsigned(t);
}

// How many of t's channels, from x, sRGB decodes where it applies.
MC_TEX uint mc_tex_srgb_chans(thread const mc_tex &t) { return t.nchan == 4u ? 3u : 1u; }

MC_TEX ulong mc_texel_addr(thread const mc_tex &t, thread const int *p)
{
    return t.base + (ulong)p[2] * t.slice + (ulong)p[1] * t.pitch + (ulong)p[0] * (ulong)(t.chan_bytes * t.nchan);
}

// Channel k of a texel, r its raw bits, as a float (the format's
// conversion).
MC_TEX float mc_tex_raw_f(thread const mc_tex &t, uint r, uint k)
{
    if (mc_tex_srgb_applies(t) && k < mc_tex_srgb_chans(t))
        return mc_tex_srgb(r);
    if (t.kind == 2u)
        return t.chan_bytes == 2u ? mc_h2f((ushort)r) : as_type<float>(r);
    // integers read as elements: their bits, zero- or sign-extended, what
    // the fetch's type (an H100 returns them to tex2D<float4> of uchar4,
    // char4, short2, ushort2, int and uint textures: tests/cuda/NATIVE.md,
    // 2026-12-06, twenty-seventh session)
    if (!mc_tex_reads_norm(t))
        return as_type<float>(mc_tex_signed(t) ? (uint)mc_tex_sext(r, t.chan_bytes) : r);
    if (mc_tex_unsigned(t))
        return (float)r / (float)((t.chan_bytes == 4u ? 0xffffffffu : (1u << (8u * t.chan_bytes)) - 1u));
    int s = mc_tex_sext(r, t.chan_bytes);
    return max((float)s / (float)((1u << (8u * t.chan_bytes - 1u)) - 1u), -1.0f);
}

// The raw channels of the texel at integer position p (in range), 0 for
// those the format lacks (no arrays indexed at run time: the channels stay
// in registers).
MC_TEX uint4 mc_texel_raw(constant mc_launch &L, thread const mc_tex &t, thread const int *p)
{
    const ulong a = mc_texel_addr(t, p);
    const uint n = t.nchan, b = t.chan_bytes;
    return uint4(mc_tex_raw(L, a, b), n > 1u ? mc_tex_raw(L, a + b, b) : 0u, n > 2u ? mc_tex_raw(L, a + 2u * b, b) : 0u,
                 n > 3u ? mc_tex_raw(L, a + 3u * b, b) : 0u);
}

// Raw channels as floats; a channel the format lacks reads 0.
MC_TEX float4 mc_tex_raw4_f(thread const mc_tex &t, uint4 r)
{
    const uint n = t.nchan;
    return float4(mc_tex_raw_f(t, r.x, 0u), n > 1u ? mc_tex_raw_f(t, r.y, 1u) : 0.0f,
                  n > 2u ? mc_tex_raw_f(t, r.z, 2u) : 0.0f, n > 3u ? mc_tex_raw_f(t, r.w, 3u) : 0.0f);
}

// Raw channels as integers: their bits, sign-extended for a signed kind
// (an snorm channel's too: what an integer-typed tex of a normalised
// format returns was not measured).
MC_TEX uint4 mc_tex_raw4_i(thread const mc_tex &t, uint4 r)
{
    const uint sh = 32u - 8u * t.chan_bytes;
    return mc_tex_signed(t) ? as_type<uint4>(as_type<int4>(r << sh) >> sh) : r;
}

// Texel index i of dimension d through its address mode; false: outside
// with the border mode (the border colour is read instead).
MC_TEX bool mc_tex_index(thread const mc_tex &t, uint d, thread int &i)
{
    int n = (int)mc_tex_size(t, d);
    uint m = t.addr[d];
    if ((t.flags & 2u) == 0u && m != 3u)
        m = 1u;   // unnormalised coordinates: wrap and mirror clamp
    if (m == 0u) {
        i %= n;
        if (i < 0)
            i += n;
    } else if (m == 2u) {
        int p = 2 * n;
        i %= p;
        if (i < 0)
            i += p;
        if (i >= n)
            i = p - 1 - i;
    } else if (m == 3u) {
        return i >= 0 && i < n;
    } else {
        i = clamp(i, 0, n - 1);
    }
    return true;
}

// A coordinate of dimension d in texel space (normalised ones scaled).
MC_TEX float mc_tex_coord(thread const mc_tex &t, uint d, float c)
{
    return (t.flags & 2u) != 0u ? c * (float)mc_tex_size(t, d) : c;
}

// Maps the texel position q (modified) through the address modes; false:
// the border colour.
MC_TEX bool mc_tex_place(thread const mc_tex &t, thread int *q, uint dims)
{
    bool in = true;
    for (uint d = 0u; d < dims; d++)
        in = mc_tex_index(t, d, q[d]) && in;
    return in;
}

// The border colour as floats.  Not inlined: four conversions at every
// corner of every read made texture-heavy kernels' libraries a quarter
// slower to compile (tests/cuda/tex_mipmap_int), for a path taken only
// outside the texels.
__attribute__((noinline)) inline float4 mc_tex_border_f(thread const mc_tex &t)
{
    return mc_tex_raw4_f(t, uint4(t.border[0], t.border[1], t.border[2], t.border[3]));
}

// The texel at q (modified) through the address modes as floats, or the
// border colour, which an H100 converts into the format (src/core/array.c
// here) and reads as a texel.
MC_TEX float4 mc_tex_fetch_f(constant mc_launch &L, thread const mc_tex &t, thread int *q, uint dims)
{
    return mc_tex_place(t, q, dims) ? mc_tex_raw4_f(t, mc_texel_raw(L, t, q)) : mc_tex_border_f(t);
}

// The texel at q (modified) through the address modes as integers, or the
// border colour's raw channels, each as a texel's (cudaReadModeElementType
// on an integer format; the filters' fixed point).
MC_TEX uint4 mc_tex_fetch_i(constant mc_launch &L, thread const mc_tex &t, thread int *q, uint dims)
{
    const uint4 border = uint4(t.border[0], t.border[1], t.border[2], t.border[3]);
    return mc_tex_raw4_i(t, mc_tex_place(t, q, dims) ? mc_texel_raw(L, t, q) : border);
}

// Channel c of the texel at q (modified) through the address modes, or of
// the border colour, converted as mc_tex_fetch_f / mc_tex_fetch_i convert
// it (their bits): a gather reads one channel, so it loads and converts
// only that one.
MC_TEX uint mc_tex_gather_chan(constant mc_launch &L, thread const mc_tex &t, thread int *q, uint c, bool iresult)
{
    if (c >= t.nchan)
        return 0u;   // a channel the format lacks: 0, and 0.0f
    const uint b = t.chan_bytes;
    const uint r = mc_tex_place(t, q, 2u) ? mc_tex_raw(L, mc_texel_addr(t, q) + c * b, b) : t.border[c];
    if (!iresult)
        return as_type<uint>(mc_tex_raw_f(t, r, c));
    return mc_tex_signed(t) ? (uint)mc_tex_sext(r, b) : r;
}

// tld4 (tex2Dgather): component comp of the four texels of the bilinear
// footprint, (i, j+1), (i+1, j+1), (i+1, j), (i, j) with i, j = floor(x - 0.5),
// floor(y - 0.5) (PTX ISA "tld4"; the order an H200 returns:
// tests/cuda/tex_gather.cu), each through the address modes, in slice lay
// (a layered texture's layer, already clamped; else 0).
MC_TEX uint4 mc_tex_gather(constant mc_launch &L, thread const mc_tex &t, thread const float *x, uint comp,
                           bool iresult, int lay)
{
    // the footprint of the fixed-point coordinate: a fraction that rounds
    // to 256/256 moves to the next texel (an H200 does)
    float bx = x[0] - 0.5f, by = x[1] - 0.5f, fx = floor(bx), fy = floor(by);
    int i = (int)fx + (rint((bx - fx) * 256.0f) == 256.0f ? 1 : 0);
    int j = (int)fy + (rint((by - fy) * 256.0f) == 256.0f ? 1 : 0);
    int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
    uint r[4];
    for (uint k = 0u; k < 4u; k++) {
        int q[3] = {i + di[k], j + dj[k], lay};
        r[k] = mc_tex_gather_chan(L, t, q, comp, iresult);
    }
    return uint4(r[0], r[1], r[2], r[3]);
}

// A cube map's face and its coordinates (s, t) in [0, 1] for the direction
// (x, y, z): the CUDA C++ Programming Guide's cubemap table (the major
// axis m picks the face; s = (sc / m + 1) / 2, t = (tc / m + 1) / 2).  The
// table leaves ties open: y wins over x, z over both, as on an H200 (a
// probe, tests/cuda/NATIVE.md); linear filtering clamps to the face (the
// H200's results near edges: tests/cuda/tex_cubemap.cu).
// mc_tex_cube_axes gives the face, sc, tc and m; mc_tex_cube_face s and t;
// mc_tex_cube_st the table's sc and tc of v on a given face f.
MC_TEX void mc_tex_cube_st(uint f, thread const float *v, thread float &sc, thread float &tc)
{
    switch (f) {
    case 0u: sc = -v[2], tc = -v[1]; break;
    case 1u: sc = v[2], tc = -v[1]; break;
    case 2u: sc = v[0], tc = v[2]; break;
    case 3u: sc = v[0], tc = -v[2]; break;
    case 4u: sc = v[0], tc = -v[1]; break;
    default: sc = -v[0], tc = -v[1]; break;
    }
}

MC_TEX uint mc_tex_cube_axes(float x, float y, float z, thread float &sc, thread float &tc, thread float &m)
{
    float ax = abs(x), ay = abs(y), az = abs(z), v[3] = {x, y, z};
    uint f;
    if (ax > ay && ax > az)
        m = ax, f = x >= 0.0f ? 0u : 1u;
    else if (ay > az)
        m = ay, f = y >= 0.0f ? 2u : 3u;
    else
        m = az, f = z >= 0.0f ? 4u : 5u;
    mc_tex_cube_st(f, v, sc, tc);
    return f;
}

MC_TEX uint mc_tex_cube_face(float x, float y, float z, thread float &s, thread float &t)
{
    float sc, tc, m;
    uint f = mc_tex_cube_axes(x, y, z, sc, tc, m);
    s = (sc / m + 1.0f) * 0.5f;
    t = (tc / m + 1.0f) * 0.5f;
    return f;
}

// ---- mipmapped textures: tex.level, and tex on a mipmapped array ----
//
// What an H200 computes, found by probes of each step (tests/cuda/
// tex_mipmap.cu's header), in fixed point throughout:
//  - the level of detail (lod), in 1/256 of a level: tex.level's operand
//    times 256 truncated toward zero (NaN reads 0; a plain tex has none:
//    -infinity), plus the bias (truncated to 1/256 by the API; a NaN bias is
//    15 levels), limited to
//    maxMipmapLevelClamp and then raised to minMipmapLevelClamp (min wins
//    where min > max), then to [0, (levels - 1) * 256];
//  - point between levels: level (lod + 128) >> 8; linear: level lod >> 8
//    with weight wl = 256 - f and the next with wl = f (f = lod & 255;
//    narrowed with maxAnisotropy >= 2: mc_tex_blend_weight, an H100);
//  - a normalised coordinate is truncated to 2^-21 before it is scaled by
//    the level's size (so positions are exact in 2^-21 of a texel); linear
//    filtering takes off half a texel, clamps the position to [0, size - 1]
//    in the clamp mode, and reads the fraction as a = round-half-up(frac *
//    256), 256 moving to the next texel;
//  - a level's weight wl is split along x, then along y: x1 = [a wl / 256],
//    x0 = wl - x1, w00 = [(256 - b) x0 / 256], w01 = x0 - w00, w11 =
//    [b x1 / 256], w10 = x1 - w11 ([] rounds half up); in 3-D first along
//    z: z0 = [(256 - c) wl / 256], z1 = wl - z0, each then split as in 2-D
//    (mc_tex_corner_weight; for wl = 256 these are the single-level weights
//    of mc_tex_sample);
//  - unnormalised coordinates read as normalised ones, with wrap and
//    mirror clamping (their position clamped too) as for unnormalised
//    coordinates (an H200, 2-D and 3-D: tests/cuda/NATIVE.md, "mip3d");
//  - the weighted texels are summed as if exactly and rounded once (a
//    float-float sum: the H200's results are the exact sums rounded).

MC_TEX mc_tex mc_tex_level_view(constant mc_launch &L, thread const mc_tex &t, uint lv)
{
    device const mc_tex_level &l = reinterpret_cast<device const mc_tex_level *>(mc_gpu(L, t.mip))[lv];
    mc_tex v = t;
    v.base = l.base;
    v.pitch = l.pitch;
    v.slice = l.slice;
    v.width = l.width;
    v.height = l.height;
    v.depth = l.depth;
    return v;
}

// The level of detail before the bias, in 1/256 of a level: tex.level's
// operand (mode 512) or -infinity (a plain tex).
MC_TEX int mc_tex_lod_q(uint mode, uint bits)
{
    float lod = (mode & 512u) != 0u ? as_type<float>(bits) : -INFINITY;
    if (isnan(lod))
        lod = 0.0f;
    return (int)clamp(lod * 256.0f, -67108864.0f, 67108864.0f);   // toward zero
}

// q biased and clamped (the texture's clamps, then its levels).
MC_TEX int mc_tex_lod(thread const mc_tex &t, int q)
{
    int v = max(min(q + t.lod_bias, t.lod_max), t.lod_min);
    return clamp(v, 0, (int)(t.nlevels - 1u) * 256);
}

// ---- tex.grad: the level of detail from gradients (1-D, 2-D, some 3-D) ----
//
// What an H200 computes (found by probes of each step: about 370 000 1-D
// and 610 000 2-D fetches, every one reproduced; tests/cuda/tex_grad.cu's
// header and tests/cuda/NATIVE.md), in 1/256 of a level, for textures of
// 2^kx by 2^ky texels (other sizes: mc_grad_split_n).  Each gradient component in texels is truncated to
// 9 fraction bits of its own binary exponent (n 2^(e-9), n 512..1023; a NaN
// and a denormal read 0, an infinity gives the top level).  rho is the
// largest of
//  - |x| and |y|, the gradients' lengths: the larger component A plus
//    (11 nb + 4)/32 2^(eb-9) for the smaller, B = nb 2^(eb-9) (nothing when
//    B is 0), about A + 11/32 B;
//  - D(x + y) and D(x - y): the components summed (same signs: exactly;
//    opposite signs: the smaller magnitude truncated to 2^(e-10) of the
//    larger's exponent e first), each sum truncated to 9 fraction bits
//    again, then with S = N 2^(e-9) the larger sum and m = nm 2^(em-9) the
//    smaller: D = T9((11 N + 4)/16 2^(e-9)) + (121 nm + 32)/512 2^(em-9)
//    (the second term only when m is not 0), about 11/16 (S + 11/32 m);
// and the level is 256 E + mc_lg2_tab[i] for rho's exponent E and its 8
// fraction bits i (truncated): a table of log2(1 + i/256) in 1/256 (within
// 0.53 of 256 log2(1 + (i + 0.5)/256); read off an H200, not a formula).
// Since that is monotone, each term's level is computed and the largest
// taken.  Then the bias and clamps as for tex.level.  A 1-D texture is a
// 2-D one whose second components are 0.  Denormal gradients read as zero
// (indistinguishable there below a bias of 100 levels).  Sizes that are
// not a power of two scale the components as mc_grad_split_n says.
constant uchar mc_lg2_tab[256] = {
    0, 2, 4, 5, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19, 20, 22, 23, 24, 26, 27, 28, 30, 31, 32, 34, 35, 36,
    38, 39, 40, 42, 43, 44, 45, 47, 48, 49, 50, 52, 53, 54, 55, 57, 58, 59, 60, 62, 63, 64, 65, 66, 68,
    69, 70, 71, 72, 74, 75, 76, 77, 78, 79, 81, 82, 83, 84, 85, 86, 88, 89, 90, 91, 92, 93, 94, 95, 97,
    98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118,
    119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 135, 136, 137, 137, 138,
    139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158,
    159, 160, 161, 162, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176,
    177, 178, 179, 180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193, 194,
    195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206, 207, 208, 209, 210, 210,
    211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219, 220, 221, 222, 222, 223, 224, 225, 226, 226,
    227, 228, 229, 229, 230, 231, 232, 233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242,
    242, 243, 244, 245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255
};

// A gradient component b (bits) times 2^k as (n, e): 1, or 0 for zero (NaN
// and denormals too), 2 for an infinity.
MC_TEX uint mc_grad_split(uint b, int k, thread uint &n, thread int &e)
{
    uint a = b & 0x7fffffffu;
    n = 0u, e = 0;
    if (a >= 0x7f800000u)
        return a == 0x7f800000u ? 2u : 0u;
    if (a < 0x00800000u)
        return 0u;
    n = 512u | ((a >> 14) & 511u);
    e = (int)(a >> 23) - 127 + k;
    return 1u;
}

// A gradient component b (bits) in texels on `size` texels as (n, e), as
// mc_grad_split.  A size that is not a power of two scales the 9-bit
// component n 2^(e-9) as a truncated multiplier of two 10-bit operands
// does: with k = floor(log2 size), the size truncated to its top 10 bits
// (bits below 2^(k-9) dropped: 4095 reads as 4092, 1025 as 1024), the
// partial products n 2^j, one per set bit j of that, each truncated to a
// multiple of 2^(k-3) (exact where k <= 3), summed, plus 7 2^(k-3); then
// truncated to 9 fraction bits (an H200: every width from 3 to 200, 777
// and 1000, and five 2-D shapes up to 1000 x 777, about 440 000 probe
// fetches, session "texmip"; 50 widths from 777 to 32767, three heights,
// four 1-D widths and ten 2-D shapes up to 8191 x 100 and 1920 x 1080, 1.16
// million fetches, session "grad"; tests/cuda/NATIVE.md).
MC_TEX uint mc_grad_split_n(uint b, uint size, thread uint &n, thread int &e)
{
    if ((size & (size - 1u)) == 0u)
        return mc_grad_split(b, (int)ctz(size), n, e);
    uint c = mc_grad_split(b, 0, n, e);
    if (c != 1u)
        return c;
    uint k = 31u - clz(size), sum = 0u;
    if (k > 9u)
        size &= ~((1u << (k - 9u)) - 1u);
    for (uint j = 0u; j <= k; j++)
        if (((size >> j) & 1u) != 0u)
            sum += k > 3u ? ((n << j) >> (k - 3u)) << (k - 3u) : n << j;
    uint f = 8u * sum + (7u << k);   // in 2^(e-12)
    uint top = 31u - clz(f);
    n = f >> (top - 9u);
    e = e - 12 + (int)top;
    return 1u;
}

// The level (256 E + table) of v = f 2^(e0 + p) for v's top bit p of f
// (f > 0).
MC_TEX int mc_grad_level(uint f, int e0)
{
    int p = 31 - (int)clz(f);
    uint i = (p >= 8 ? f >> (uint)(p - 8) : f << (uint)(8 - p)) & 255u;
    return (e0 + p) * 256 + (int)mc_lg2_tab[i];
}

// Orders (n, e) pairs (n 0: zero) by magnitude: true when a < b.
MC_TEX bool mc_grad_less(uint na, int ea, uint nb, int eb)
{
    return na == 0u ? nb != 0u : nb != 0u && (ea < eb || (ea == eb && na < nb));
}

// Swaps (na, ea) and (nb, eb) where b is the larger.
MC_TEX void mc_grad_order(thread uint &na, thread int &ea, thread uint &nb, thread int &eb)
{
    if (mc_grad_less(na, ea, nb, eb)) {
        uint tn = na;
        int te = ea;
        na = nb, ea = eb, nb = tn, eb = te;
    }
}

// The level of a gradient's length (components (na, ea), (nb, eb)).
MC_TEX int mc_grad_len_level(uint na, int ea, uint nb, int eb)
{
    mc_grad_order(na, ea, nb, eb);
    if (na == 0u)
        return -67108864;
    uint f = na << 5;   // in 2^(ea-14)
    if (nb != 0u && ea - eb < 16)
        f += (11u * nb + 4u) >> (uint)(ea - eb);
    return mc_grad_level(f, ea - 14);
}

// One component of x + y (sy: y's sign differs from x's) as (n, e).
MC_TEX void mc_grad_sum(uint nx, int ex, uint ny, int ey, bool sy, thread uint &n, thread int &e)
{
    mc_grad_order(nx, ex, ny, ey);
    n = nx, e = ex;
    if (nx == 0u || ny == 0u)
        return;
    uint d = (uint)(ex - ey);
    if (!sy) {   // in 2^(ex-9), the smaller truncated there: the sum's own truncation
        uint s = nx + (d < 16u ? ny >> d : 0u);
        if (s >= 1024u)
            s >>= 1, e++;
        n = s;
        return;
    }
    uint r = 2u * nx - (d < 16u ? (2u * ny) >> d : 0u);   // in 2^(ex-10), 0 .. 2047
    if (r == 0u) {
        n = 0u;
        return;
    }
    int p = 31 - (int)clz(r);
    n = p >= 9 ? r >> (uint)(p - 9) : r << (uint)(9 - p);
    e = ex - 10 + p;
}

// The level of D(v) for v's components (na, ea), (nb, eb).
MC_TEX int mc_grad_diag_level(uint na, int ea, uint nb, int eb)
{
    mc_grad_order(na, ea, nb, eb);
    if (na == 0u)
        return -67108864;
    uint t = (11u * na + 4u) >> 4;   // 352 .. 703 in 2^(ea-9): to 9 fraction bits
    uint m10 = t >= 512u ? 2u * t : (11u * na + 4u) >> 3;   // in 2^(ea-10)
    uint f = m10 << 9;   // in 2^(ea-19)
    if (nb != 0u && ea - eb < 24)
        f += ((121u * nb + 32u) << 1) >> (uint)(ea - eb);
    return mc_grad_level(f, ea - 19);
}

// The level of a 3-D gradient's length (components' bits g, sizes sz; none
// infinite or NaN, not all zero): with the components in texels
// (mc_grad_split_n), truncated to 9 fraction bits, ordered max = na
// 2^(ea-9) >= mid = nm 2^(em-9) >= min = nn 2^(en-9) (mid and min may be
// 0), the length is
// max + T9((11 nm + 4)/32 2^(em-9)) + min/4, T9 keeping 9 fraction bits of
// its own exponent, as the components do (an H200: 253 728 probe fetches of
// 128^3 texels reproduced, and 1.57 million of every middle x smallest
// mantissa; tests/cuda/NATIVE.md).  The sum is exact here (in 2^(ea-49),
// less what lies 63 octaves below the max): the H200's own truncation of
// it did not show in the probes.
MC_TEX int mc_grad_len3_level(thread const uint *g, thread const uint *sz)
{
    uint n[3];
    int e[3];
    for (uint d = 0u; d < 3u; d++)
        mc_grad_split_n(g[d], sz[d], n[d], e[d]);
    mc_grad_order(n[1], e[1], n[2], e[2]);
    mc_grad_order(n[0], e[0], n[1], e[1]);
    mc_grad_order(n[1], e[1], n[2], e[2]);
    ulong f = (ulong)n[0] << 40;   // in 2^(e[0]-49)
    if (n[1] != 0u) {
        uint t = 11u * n[1] + 4u;   // in 2^(e[1]-14), 5636 ... 11257: 13 or 14 bits
        uint p = 31u - clz(t);
        t = (t >> (p - 9u)) << (p - 9u);   // 9 fraction bits of its own exponent
        int d = e[0] - e[1];
        f += d < 63 ? ((ulong)t << 35) >> (uint)d : 0ul;
    }
    if (n[2] != 0u) {   // min/4 = nn 2^(en-11)
        int d = e[0] - e[2];
        f += d < 63 ? ((ulong)n[2] << 38) >> (uint)d : 0ul;
    }
    int p = 63 - (int)clz(f);
    return (e[0] - 49 + p) * 256 + (int)mc_lg2_tab[(uint)(f >> (uint)(p - 8)) & 255u];
}

// The level of D(v) of a 3-D sum vector v (components (n, e), as
// mc_grad_sum makes them): ordered max N 2^(e-9) >= mid nm 2^(em-9) >= min
// nn 2^(en-9), D = T9((11 N + 4)/16 2^(e-9)) + T9((121 nm + 32)/512
// 2^(em-9)) + (88 nn + 32)/512 2^(en-9): the 2-D diagonal (its first term as
// mc_grad_diag_level's) with the second term truncated to 9 fraction bits
// of its own exponent, plus 11/16 of min/4 with the same +32 (the "tex3d"
// session's fit; with the finite differences of mc_tex_sample_grad it
// reproduces every one of 98 304 two-gradient probe fetches of an H200 on
// eight shapes, +16 or +48 in either of the last two terms missing 19 to 170
// of them: tests/cuda/NATIVE.md "grad3").  The sum is exact (in 2^(e-50),
// less what lies 60 octaves below the max).
MC_TEX int mc_grad_diag3_level(thread uint *n, thread int *e)
{
    mc_grad_order(n[1], e[1], n[2], e[2]);
    mc_grad_order(n[0], e[0], n[1], e[1]);
    mc_grad_order(n[1], e[1], n[2], e[2]);
    if (n[0] == 0u)
        return -67108864;
    uint t = (11u * n[0] + 4u) >> 4;   // in 2^(e0-9): to 9 fraction bits
    uint m10 = t >= 512u ? 2u * t : (11u * n[0] + 4u) >> 3;   // in 2^(e0-10)
    ulong f = (ulong)m10 << 40;   // in 2^(e0-50)
    if (n[1] != 0u) {
        uint v = 121u * n[1] + 32u;   // in 2^(e1-18): 16 or 17 bits
        uint p = 31u - clz(v);
        v = (v >> (p - 9u)) << (p - 9u);
        int d = e[0] - e[1];
        f += d < 60 ? ((ulong)v << 32) >> (uint)d : 0ul;
    }
    if (n[2] != 0u) {
        int d = e[0] - e[2];
        f += d < 60 ? ((ulong)(88u * n[2] + 32u) << 32) >> (uint)d : 0ul;
    }
    int p = 63 - (int)clz(f);
    return (e[0] - 50 + p) * 256 + (int)mc_lg2_tab[(uint)(f >> (uint)(p - 8)) & 255u];
}

// The level of detail of two 3-D gradients (bits gx, gy, finite, neither
// all zero; sizes sz): rho = max(|x|, |y|, D(x + y), D(x - y)), the lengths
// as mc_grad_len3_level, the sums per component as in 2-D (mc_grad_sum of
// the components in texels), D as mc_grad_diag3_level.
MC_TEX int mc_tex_grad3_q(thread const uint *gx, thread const uint *gy, thread const uint *sz)
{
    int q = max(mc_grad_len3_level(gx, sz), mc_grad_len3_level(gy, sz));
    uint nx[3], ny[3];
    int ex[3], ey[3];
    for (uint d = 0u; d < 3u; d++) {
        mc_grad_split_n(gx[d], sz[d], nx[d], ex[d]);
        mc_grad_split_n(gy[d], sz[d], ny[d], ey[d]);
    }
    for (uint k = 0u; k < 2u; k++) {   // x + y, then x - y
        uint n[3];
        int e[3];
        for (uint d = 0u; d < 3u; d++)
            mc_grad_sum(nx[d], ex[d], ny[d], ey[d], (((gx[d] ^ gy[d]) >> 31) != 0u) != (k == 1u), n[d], e[d]);
        q = max(q, mc_grad_diag3_level(n, e));
    }
    return q;
}

// The level of detail (1/256, before bias and clamps) from gradients dPdx =
// (x0, x1), dPdy = (y0, y1) (bits; x1 = y1 = 0 in 1-D) on wx by wy texels
// (any sizes: mc_grad_split_n).
MC_TEX int mc_tex_grad_q(uint x0, uint x1, uint y0, uint y1, uint wx, uint wy)
{
    uint n[4];
    int e[4];
    uint c0 = mc_grad_split_n(x0, wx, n[0], e[0]), c1 = mc_grad_split_n(x1, wy, n[1], e[1]);
    uint c2 = mc_grad_split_n(y0, wx, n[2], e[2]), c3 = mc_grad_split_n(y1, wy, n[3], e[3]);
    if (c0 == 2u || c1 == 2u || c2 == 2u || c3 == 2u)
        return 67108864;
    int q = max(mc_grad_len_level(n[0], e[0], n[1], e[1]), mc_grad_len_level(n[2], e[2], n[3], e[3]));
    bool s0 = ((x0 ^ y0) >> 31) != 0u, s1 = ((x1 ^ y1) >> 31) != 0u;
    for (uint k = 0u; k < 2u; k++) {   // x + y, then x - y
        uint a, b;
        int ea, eb;
        mc_grad_sum(n[0], e[0], n[2], e[2], s0 != (k == 1u), a, ea);
        mc_grad_sum(n[1], e[1], n[3], e[3], s1 != (k == 1u), b, eb);
        q = max(q, mc_grad_diag_level(a, ea, b, eb));
    }
    return q;
}

// The position of normalised coordinate c on n texels (less half a texel
// when half), in 2^-21 of a texel; n = 1: c is a texel position.
MC_TEX long mc_mip_pos(float c, uint n, bool half)
{
    long ci = (long)floor(clamp(c, -1048576.0f, 1048576.0f) * 2097152.0f);
    return ci * (long)n - (half ? 1048576l : 0l);
}

// s + e += w * v, exactly but for the last bits of e (Dekker's product and
// Knuth's two-sum); plain is the ordinary sum, for infinities and NaNs.
MC_TEX void mc_tex_acc(thread float4 &s, thread float4 &e, thread float4 &plain, float w, float4 v)
{
    float4 p = w * v;
    float4 pe = fma(float4(w), v, -p);
    float4 u = s + p;
    float4 bp = u - s;
    e += ((s - (u - bp)) + (p - bp)) + pe;
    s = u;
    plain += p;
}

// Filtering of float texels (f32 and half channels) as an H100 computes it
// (CUDA 13.0, driver 580: every one of 393 216 linear reads of random f32
// and half texels on 1-D and 2-D arrays and pitched memory, 65 536 reads
// of non-finite, subnormal, zero and extreme texels, and the mipmapped,
// 3-D, layered and border reads of tests/cuda/NATIVE.md, 2026-12-06,
// twenty-seventh session):
//  - the texels read are those of the footprint: along an axis whose
//    weight in 1/256 is 0 the upper texel is not read; if one is NaN, or
//    +inf and -inf are both there, the result is NaN (f32 0x7fffffff; a
//    half's 0x7fff read as a float), else an infinity is the result;
//  - f32 texels that are subnormal read as zeros of their sign (halves
//    keep theirs);
//  - the texels of non-zero corner weight are aligned to the largest
//    exponent E among them and truncated toward zero to the format's
//    significand and 4 bits more (28 bits for f32, 15 for half: units of
//    2^(E - 28) or 2^(E - 15), E the exponent of frexp), summed exactly
//    with the corner weights, and the sum rounded to the format's
//    precision, ties away from zero (half: to half, subnormals included;
//    f32: a result below 2^-126 is a zero of its sign);
//  - a zero sum is +0, or -0 where every texel of non-zero weight is -0;
//  - the slices of a 3-D footprint and the levels of a mipmapped blend are
//    aligned each on its own ("groups") and the parts added exactly: 32 760
//    of 32 768 3-D reads and 32 767 of 32 768 mipmapped ones equal an
//    H100's, the rest one ulp off (how it adds them was not found).
// The corner weights are mc_tex_corner_weight's (1/256, summing to 256).
#define MC_TEX_FLIN_MAX 16u
struct mc_tex_flin {
    float4 v[MC_TEX_FLIN_MAX];
    uint w[MC_TEX_FLIN_MAX];
    uint g[MC_TEX_FLIN_MAX];   // its group: level * 2 + the upper slice (3-D)
    uint n;
};

// A texel of the footprint with its corner weight (0: read, not weighed)
// and group, added in the groups' order (mc_tex_flin_sum finds them so).
// Not inlined: inlined, mipmapped fetches ran about 1.3x faster on the
// software device but tex_grad's kernel compiled in 35-37 s, not 26-31.
__attribute__((noinline)) inline void mc_tex_flin_add(thread mc_tex_flin &f, uint w, uint g, float4 v)
{
    f.v[f.n] = v;
    f.w[f.n] = w;
    f.g[f.n] = g;
    f.n++;
}

// What the filter keeps of a texel below the largest exponent E of its
// footprint, as the bits cut from 28 (the significand and 4 bits): f32
// texels keep 28 bits, half ones 15, sRGB-decoded channels 8 (their
// table's values have 8 significant bits; mc_tex_srgb_merge).  The
// last two round to half precision, f32 to f32.
#define MC_TEX_FLIN_F32 0u
#define MC_TEX_FLIN_HALF 13u
#define MC_TEX_FLIN_SRGB 20u

// The texels' bits as the filter reads them: f32 subnormals as zeros.
MC_TEX uint4 mc_tex_flin_bits(float4 v, uint cut)
{
    uint4 b = as_type<uint4>(v);
    return cut == MC_TEX_FLIN_F32 ? select(b, b & 0x80000000u, (b & 0x7f800000u) == 0u) : b;
}

// The biased exponent field the alignment counts (a subnormal's: 1; 0 for
// a zero, which takes no part in it).
MC_TEX uint4 mc_tex_flin_field(uint4 b)
{
    return select(uint4(0u), max((b >> 23) & 255u, uint4(1u)), (b & 0x7fffffffu) != 0u);
}

// The largest exponent field among the texels v[0, n) of non-zero weight
// (0: none; E - 126 is frexp's exponent).
MC_TEX uint4 mc_tex_flin_top(thread const float4 *v, thread const uint *w, uint n, uint cut)
{
    uint4 E = uint4(0u);
    for (uint k = 0u; k < n; k++)
        if (w[k] != 0u)
            E = max(E, mc_tex_flin_field(mc_tex_flin_bits(v[k], cut)));
    return E;
}

// An sRGB-decoded texel aligns at the exponent field of the largest value
// of its code's segment of eight (codes 8s to 8s + 7: mc_tex_srgb_merge),
// which steps up by one at the decoded values of codes 8, 16, 32, 48, 64,
// 96, 136, 184 and 248 (mc_tex_srgb_u8's entries there, the codes where a
// segment's largest value lies a binade above the last segment's) from
// 118, the field of code 7's value; 0 for code 0, which takes no part.
constant uint mc_tex_srgb_align_steps[9] = {
    0x3b200000u, 0x3baa0000u, 0x3c6c0000u, 0x3cf20000u, 0x3d520000u, 0x3df00000u, 0x3e7c0000u, 0x3ef60000u, 0x3f700000u,
};

MC_TEX uint4 mc_tex_srgb_align_field(uint4 b)
{
    uint4 f = uint4(118u);
    for (uint j = 0u; j < 9u; j++)
        f += select(uint4(0u), uint4(1u), b >= mc_tex_srgb_align_steps[j]);
    return select(uint4(0u), f, b != 0u);
}

// The largest alignment field among the sRGB-decoded texels v[0, n) of
// non-zero weight (mc_tex_flin_top's for them).
MC_TEX uint4 mc_tex_flin_srgb_top(thread const float4 *v, thread const uint *w, uint n)
{
    uint4 E = uint4(0u);
    for (uint k = 0u; k < n; k++)
        if (w[k] != 0u)
            E = max(E, mc_tex_srgb_align_field(as_type<uint4>(v[k])));
    return E;
}

// The weighted sum of the texels v[0, n) of non-zero weight, each channel
// in units of 2^(E - 162 + cut) (E: mc_tex_flin_top's, or for sRGB
// mc_tex_flin_srgb_top's).
// The texels' significands (with 4 more bits) are cut to the alignment in
// 32 bits: they fit in 28.
MC_TEX long4 mc_tex_flin_part(thread const float4 *v, thread const uint *w, uint n, uint cut, uint4 E)
{
    long4 acc = long4(0l);
    for (uint k = 0u; k < n; k++) {
        if (w[k] == 0u)
            continue;
        uint4 b = mc_tex_flin_bits(v[k], cut), e = mc_tex_flin_field(b);
        uint4 m = ((b & 0x7fffffu) | select(uint4(0u), uint4(0x800000u), (b & 0x7f800000u) != 0u)) << 4;
        uint4 sh = E - e + cut;
        int4 t = int4(select(uint4(0u), m >> min(sh, uint4(31u)), e != 0u && sh < 28u));
        acc += long4(select(t, -t, (b >> 31) != 0u)) * (long)w[k];
    }
    return acc;
}

// acc x 2^base rounded to the format's precision, ties away from zero.
MC_TEX float4 mc_tex_flin_round(long4 acc, int4 base, bool half)
{
    const int sig = half ? 11 : 24;
    ulong4 u = ulong4(select(acc, -acc, acc < 0l));
    int4 top = 64 - int4(clz(u)) + base;   // frexp's exponent of the sum
    int4 ue = max(top - sig, int4(half ? -24 : -149));   // the result's unit
    int4 sh = ue - base;
    ulong4 half_unit = ulong4(1ul) << ulong4(uint4(clamp(sh - 1, 0, 62)));
    ulong4 up = (u + half_unit) >> ulong4(uint4(clamp(sh, 0, 63)));
    ulong4 q = select(select(up, ulong4(0ul), sh > 62), u << ulong4(uint4(clamp(-sh, 0, 63))), sh <= 0);
    // q <= 2^24 is exact in f32; 2^ue in two normal halves built from their
    // bits (-149 <= ue <= 104): exact but for what flushes, and a sum that
    // rounds to 2^128 overflows to inf as it should
    int4 ua = ue / 2, ub = ue - ua;
    float4 r = float4(q) * as_type<float4>(uint4(ua + 127) << 23) * as_type<float4>(uint4(ub + 127) << 23);
    if (!half)
        r = select(r, float4(0.0f), r < 0x1p-126f);
    return select(r, -r, acc < 0l);
}

// What the footprint's texels decide besides their sum, per channel: 1
// where a NaN, +inf or -inf was read, and whether every texel of non-zero
// weight is -0 (masks as uint4: select takes them everywhere).
struct mc_tex_flin_seen {
    uint4 nan, pinf, ninf, negzero;
};

MC_TEX mc_tex_flin_seen mc_tex_flin_unseen()
{
    return mc_tex_flin_seen{uint4(0u), uint4(0u), uint4(0u), uint4(1u)};
}

// Texel x, read, of weight w.
MC_TEX void mc_tex_flin_see(thread mc_tex_flin_seen &s, float4 x, uint w, uint cut)
{
    s.nan |= select(uint4(0u), uint4(1u), isnan(x));
    s.pinf |= select(uint4(0u), uint4(1u), x == INFINITY);
    s.ninf |= select(uint4(0u), uint4(1u), x == -INFINITY);
    if (w != 0u)
        s.negzero &= select(uint4(0u), uint4(1u), mc_tex_flin_bits(x, cut) == 0x80000000u);
}

// The sum acc (units of 2^(E - 162 + cut - shift)) rounded, then what s
// decides: NaN, an infinity, or a zero where no texel counted (E 0).
MC_TEX float4 mc_tex_flin_finish(long4 acc, uint4 E, int shift, thread const mc_tex_flin_seen &s, uint cut)
{
    const bool half = cut != MC_TEX_FLIN_F32;
    float4 r = mc_tex_flin_round(acc, int4(E) - 162 + (int)cut - shift, half);
    r = select(r, select(float4(0.0f), float4(-0.0f), s.negzero != 0u), E == 0u);
    r = select(r, select(float4(-INFINITY), float4(INFINITY), s.pinf != 0u), (s.pinf | s.ninf) != 0u);
    return select(r, as_type<float4>(uint4(half ? 0x7fffe000u : 0x7fffffffu)), (s.nan | (s.pinf & s.ninf)) != 0u);
}

// The filtered value of the texels v[0, n) of one group (a 1-D or 2-D
// footprint, n a constant where it is inlined), read[k] whether texel k is
// in the footprint: inlined, so that the software device's row loop runs
// it over many threads at once.
MC_TEX float4 mc_tex_flin_one(thread const float4 *v, thread const uint *w, thread const bool *read, uint n,
                              uint cut)
{
    mc_tex_flin_seen s = mc_tex_flin_unseen();
    for (uint k = 0u; k < n; k++)
        if (read[k])
            mc_tex_flin_see(s, v[k], w[k], cut);
    uint4 E = mc_tex_flin_top(v, w, n, cut);   // a texel not read weighs 0
    return mc_tex_flin_finish(mc_tex_flin_part(v, w, n, cut, E), E, 0, s, cut);
}

// The filtered value of the four channels of f's texels: the groups' sums
// (each < 2^40 units) added exactly where their exponents are within 21 of
// the largest, else shifted down with the lost bits kept as a sticky bit
// (exact unless the larger groups cancel to within 2^-31 of their texels).
// Not inlined: one copy serves every texture read of a kernel (inlined at
// each, it made a kernel of many tex.grad reads compile ten times slower).
__attribute__((noinline)) inline float4 mc_tex_flin_sum(thread const mc_tex_flin &f, uint cut)
{
    mc_tex_flin_seen s = mc_tex_flin_unseen();
    for (uint k = 0u; k < f.n; k++)
        mc_tex_flin_see(s, f.v[k], f.w[k], cut);
    long4 a[4];
    uint4 e[4], E = uint4(0u);
    uint lo = 0u;
    for (uint g = 0u; g < 4u; g++) {   // groups come in order (mc_tex_flin_add)
        uint hi = lo;
        while (hi < f.n && f.g[hi] == g)
            hi++;
        e[g] = cut == MC_TEX_FLIN_SRGB ? mc_tex_flin_srgb_top(f.v + lo, f.w + lo, hi - lo)
                                       : mc_tex_flin_top(f.v + lo, f.w + lo, hi - lo, cut);
        a[g] = mc_tex_flin_part(f.v + lo, f.w + lo, hi - lo, cut, e[g]);
        E = max(E, e[g]);
        lo = hi;
    }
    long4 acc = long4(0l);
    for (uint g = 0u; g < 4u; g++) {
        int4 d = int4(E) - int4(e[g]);
        long4 near = a[g] << ulong4(uint4(clamp(21 - d, 0, 63)));
        ulong4 sh = ulong4(uint4(clamp(d - 21, 0, 63)));
        long4 lo_bits = a[g] >> sh;   // arithmetic: floor
        long4 far = select(lo_bits, lo_bits | 1l, (lo_bits << sh) != a[g]);
        acc += select(select(far, near, d <= 21), long4(0l), e[g] == 0u);
    }
    return mc_tex_flin_finish(acc, E, 21, s, cut);
}

// Whether corner c of a footprint with per-axis weights w is read: along
// each axis the upper texel only with a non-zero weight.
MC_TEX bool mc_tex_corner_read(thread const uint *w, uint dims, uint c)
{
    for (uint d = 0u; d < dims; d++)
        if ((c & (1u << d)) != 0u && w[d] == 0u)
            return false;
    return true;
}

// Whether linear filtering clamps the position x - 0.5 itself to the
// texels along an axis of address mode addr: the clamp mode, and wrap and
// mirror with unnormalised coordinates (flags bit 1 clear), which clamp
// there (mc_tex_index; an H200).
MC_TEX bool mc_tex_clamps_position(uint addr, uint flags)
{
    return addr == 1u || ((flags & 2u) == 0u && addr != 3u);
}

// A 1-D texture (not a layered one) whose second address mode is border
// filters as a 2-D one of height 1 at y = 0, half a texel above its row,
// so half the weight goes to the border colour (whatever the first mode:
// an H200): *dims becomes 2 and x[1] 0.
MC_TEX void mc_tex_1d_border_as_2d(thread const mc_tex &t, uint mode, thread uint &dims, thread float *x)
{
    if (dims == 1u && (mode & 4u) == 0u && t.addr[1] == 3u) {
        dims = 2u;
        x[1] = 0.0f;
    }
}

// Linear filtering of normalised reads in 16-bit fixed point (an H100,
// CUDA 13.0, driver 580: every one of 261 120 one-dimensional and 32 768
// two-dimensional uchar4 reads, and 9 024 to 36 096 reads of each of
// unorm8x1/x4, uchar, unorm16x1/x4 and snorm16x1; tests/cuda/NATIVE.md,
// 2026-12-06): each texel's channel as a 16-bit integer (an 8-bit one
// times 257), the corner weights' sum rounded half up to 16 bits
// (floor((s + 128) / 256)), then / 65535 (unsigned) or / 32767 clamped at
// -1 (signed 16-bit).  Signed 8-bit channels (snorm8, char read as
// normalised floats) are summed as they are, S = the sum of weight x s
// (-128 too: the filter does not clamp a texel at -1), and S becomes 16-bit
// steps as S + floor((floor(S / 16) x 257 + 1024) / 2048), then / 32767
// clamped at -1 (every one of an H100's 16 777 216 reads of two char
// texels, all 65 536 pairs at every 1/256: tests/cuda/NATIVE.md,
// thirty-second session).  Not for sRGB (mc_tex_srgb_merge).  The
// border colour is a texel of the format here (mc_tex_fetch_i; an H100,
// 65 536 reads across the edges of each of unorm8x4, snorm8x4,
// unorm16x4 and snorm16x4: tests/cuda/NATIVE.md, thirtieth session).
MC_TEX bool mc_tex_filters_fixed(thread const mc_tex &t)
{
    const bool fits = t.chan_bytes <= 2u && (mc_tex_unsigned(t) || mc_tex_signed(t));
    return mc_tex_reads_norm(t) && !mc_tex_srgb_applies(t) && fits;
}

// Linear filtering of sRGB-decoded channels (an H100, CUDA 13.0, driver
// 580: every one of 16 777 216 reads between two texels, all 65 536 pairs
// of codes at every 1/256: tests/cuda/NATIVE.md, thirty-second session):
// the texels are decoded first (mc_tex_srgb's table, whose values have 8
// significant bits) and then filtered as float texels are, aligned to the
// largest exponent among them but keeping 8 bits below it
// (MC_TEX_FLIN_SRGB), where a texel's exponent is not its own but that of
// the largest value of its code's segment of eight (mc_tex_srgb_align_field:
// codes 64 to 71 align as 71, one binade above 64 to 70), the sum rounded
// to half precision, ties away from zero; the channels sRGB leaves alone
// (alpha, a 2-channel format's y) filter in 16-bit fixed point as unorm8
// ones do (mc_tex_filters_fixed).  The border colour is a texel of the
// format here too (mc_tex_fetch_f).
//
// mc_tex_srgb_merge: the channels sRGB decodes (mc_tex_srgb_chans) from
// dec (that filter's), the others from lin (the fixed-point one's).
MC_TEX float4 mc_tex_srgb_merge(thread const mc_tex &t, float4 dec, float4 lin)
{
    return select(lin, dec, uint4(0u, 1u, 2u, 3u) < uint4(mc_tex_srgb_chans(t)));
}

// How the float filter keeps a float texture's texels (MC_TEX_FLIN_F32 or
// _HALF; sRGB's filter passes MC_TEX_FLIN_SRGB itself).
MC_TEX uint mc_tex_flin_cut(thread const mc_tex &t)
{
    return t.chan_bytes == 2u ? MC_TEX_FLIN_HALF : MC_TEX_FLIN_F32;
}

// The sum S of weight x s of signed 8-bit channels as the result
// (mc_tex_filters_fixed).  Not inlined: it would be at every texture read
// of a kernel, whatever its format.
__attribute__((noinline)) inline float4 mc_tex_snorm8_16_f(int4 acc)
{
    const int4 steps = acc + (((acc >> 4) * 257 + 1024) >> 11);   // arithmetic shifts: floor
    return float4(max(steps, int4(-32767))) / 32767.0f;
}

// A texel's channels (mc_tex_fetch_i's bits, signed ones sign-extended
// there) as 16-bit integers; signed 8-bit ones as they are
// (mc_tex_snorm8_16_f converts their sum).
MC_TEX int4 mc_tex_fixed16(thread const mc_tex &t, uint4 v)
{
    return mc_tex_unsigned(t) && t.chan_bytes == 1u ? int4(v) * 257 : as_type<int4>(v);
}

MC_TEX float4 mc_tex_fixed16_f(thread const mc_tex &t, int4 acc)
{
    if (mc_tex_signed(t) && t.chan_bytes == 1u)
        return mc_tex_snorm8_16_f(acc);
    const int4 n = (acc + 128) >> 8;   // arithmetic: floor
    if (mc_tex_unsigned(t))
        return float4(n) / 65535.0f;
    return max(float4(n) / 32767.0f, float4(-1.0f));
}

// The sRGB filter's result: the decoded channels from fl's texels, the
// others from iacc (mc_tex_fixed16's sum).  Not inlined: one copy serves
// every texture read of a kernel.
__attribute__((noinline)) inline float4 mc_tex_srgb_finish(thread const mc_tex &t, thread const mc_tex_flin &fl,
                                                           int4 iacc)
{
    return mc_tex_srgb_merge(t, mc_tex_flin_sum(fl, MC_TEX_FLIN_SRGB), mc_tex_fixed16_f(t, iacc));
}

// The weight, in 1/256, of corner c (bit d set: the upper texel along axis
// d) of the linear footprint of a level weighing wl (256 for one level),
// for the axes' fractions w in 1.8 fixed point: wl is split along z, then
// along x, then each part along y, every split rounding one side's share
// half up and giving the rest to the other: z0 = [(256 - c) wl / 256], z1 =
// wl - z0; in each, x1 = [a z / 256], x0 = z - x1, w00 = [(256 - b) x0 /
// 256], w01 = x0 - w00, w11 = [b x1 / 256], w10 = x1 - w11 (an H200, on
// plain and mipmapped arrays, 1-D to 3-D: tests/cuda/NATIVE.md, "mip3d").
// With wl = 256 in 2-D these are 1 - a - b + ab, a - ab, b - ab, ab with
// ab rounded once.
MC_TEX uint mc_tex_corner_weight(thread const uint *w, uint wl, uint dims, uint c)
{
    if (dims == 3u) {
        uint z0 = ((256u - w[2]) * wl + 128u) >> 8;
        wl = (c & 4u) != 0u ? wl - z0 : z0;
    }
    uint x1 = (w[0] * wl + 128u) >> 8, x0 = wl - x1;
    bool hx = (c & 1u) != 0u, hy = (c & 2u) != 0u;
    if (dims == 1u)
        return hx ? x1 : x0;
    if (hx) {
        uint w11 = (w[1] * x1 + 128u) >> 8;
        return hy ? w11 : x1 - w11;
    }
    uint w00 = ((256u - w[1]) * x0 + 128u) >> 8;
    return hy ? x0 - w00 : w00;
}

// Integer filtering (integers read as such, tex.*.s32/.u32 of an integer
// format, from a mipmapped texture): an H200 blends them too, between
// levels (mipmapFilterMode linear) and, through the driver's
// CU_TRSF_READ_AS_INTEGER, within a level (filterMode linear), with the
// float path's weights in 1/256 (each level's wl split by
// mc_tex_corner_weight), the exact sum of weight x texel (signed or
// unsigned by the format; 40 bits at most) divided by 256 once: rounded
// half up for 8- and 16-bit channels, floor for 32-bit ones (probes of
// 704 000 channel values of every integer format, tests/cuda/NATIVE.md
// "texmip"; tests/cuda/tex_mipmap_int.cu).
MC_TEX void mc_tex_iacc(thread const mc_tex &t, thread long4 &acc, uint w, uint4 v)
{
    long4 x = t.kind == 1u ? long4((long)(int)v.x, (long)(int)v.y, (long)(int)v.z, (long)(int)v.w)
                           : long4((long)v.x, (long)v.y, (long)v.z, (long)v.w);
    acc += x * (long)w;
}

MC_TEX uint4 mc_tex_iround(thread const mc_tex &t, long4 acc)
{
    if (t.chan_bytes != 4u)
        acc += long4(128l);
    acc >>= long4(8l);   // arithmetic: floor
    return uint4((uint)acc.x, (uint)acc.y, (uint)acc.z, (uint)acc.w);
}

// The weight in 1/256 of the upper of two levels at the fraction f of the
// level of detail.  With maxAnisotropy >= 2 and the trilinear optimisation
// on, an H100 narrows the blend to the middle of the interval (tests/cuda/
// NATIVE.md, thirtieth session: every 1/256 of three intervals, 1-D, 2-D
// and 3-D, maxAnisotropy 2 to 1000): floor(s (f - f0)) clamped to [0, 256],
// s = 6/4, f0 = 42 for maxAnisotropy 2 and 3; 7/4, 54 for 4 to 7; 8/4, 64
// from 8 up (f0 = 128 (1 - 1 / s), rounded down).  The descriptor holds
// 4 s - 4 and f0 (mc_tex.aniso bits 8-11, 16-23; 0, 0: f itself), so the
// rule is arithmetic: a switch here, inlined at every read of a level,
// made tests/cuda/tex_grad's library take 64-66 s to compile against 49.
MC_TEX uint mc_tex_blend_weight(thread const mc_tex &t, uint f)
{
    const int s4 = 4 + (int)((t.aniso >> 8) & 15u), f0 = (int)((t.aniso >> 16) & 255u);
    return (uint)clamp((s4 * ((int)f - f0)) >> 2, 0, 256);
}

MC_TEX uint4 mc_tex_sample_mip(constant mc_launch &L, thread const mc_tex &t, uint mode, uint c0, uint c1, uint c2,
                               uint layer, int lodq)
{
    uint dims = mode & 3u;
    bool iresult = (mode & 32u) != 0u;
    float x[3] = {as_type<float>(c0), as_type<float>(c1), as_type<float>(c2)};
    int lay = 0;
    if ((mode & 8u) != 0u) {
        float s, r;
        uint f = mc_tex_cube_face(x[0], x[1], x[2], s, r);
        x[0] = s;
        x[1] = r;
        dims = 2u;
        lay = (int)(6u * ((mode & 4u) != 0u ? min(layer, t.depth / 6u - 1u) : 0u) + f);
    } else if ((mode & 4u) != 0u) {
        lay = (int)min(layer, t.depth - 1u);
    }
    int lod = t.mip != 0ul ? mc_tex_lod(t, lodq) : 0;   // a plain array: integers filtered (mc_tex_sample)
    // integers filter in integers (mc_tex_iacc); an integer result of a
    // float format reads the nearest texel of the nearest level
    bool ifilt = iresult && t.kind < 2u;
    uint l0 = (uint)(lod + 128) >> 8, wl0 = 256u;
    if (t.mip_linear != 0u && (!iresult || ifilt))
        l0 = (uint)lod >> 8, wl0 = 256u - mc_tex_blend_weight(t, (uint)lod & 255u);
    bool linear = (t.flags & 1u) != 0u && (!iresult || ifilt);
    float4 s = float4(0.0f), e = float4(0.0f), plain = float4(0.0f);
    long4 iacc = long4(0l);
    const bool floats = t.kind == 2u && !iresult;   // mc_tex_flin_sum's filter
    // normalised formats blend levels in 16-bit fixed point as they filter
    // within one (mc_tex_filters_fixed: an H100, tests/cuda/NATIVE.md,
    // 2026-12-06, twenty-eighth session)
    const bool fixed = !iresult && mc_tex_filters_fixed(t);
    const bool srgb = !iresult && mc_tex_srgb_applies(t);
    mc_tex_flin fl;
    fl.n = 0u;
    for (uint k = 0u; k < 2u; k++) {
        uint wl = k == 0u ? wl0 : 256u - wl0;
        if (wl == 0u)
            continue;
        mc_tex v = t.mip != 0ul ? mc_tex_level_view(L, t, l0 + k) : t;
        int p[3] = {0, 0, lay};
        if (!linear) {
            for (uint d = 0u; d < dims; d++)
                p[d] = (int)(mc_mip_pos(x[d], mc_tex_size(v, d), false) >> 21);
            if (iresult && wl == 256u)
                return mc_tex_fetch_i(L, v, p, dims);
            if (iresult) {
                mc_tex_iacc(t, iacc, wl, mc_tex_fetch_i(L, v, p, dims));
                continue;
            }
            if (fixed || srgb)
                iacc += (long)wl * long4(mc_tex_fixed16(t, mc_tex_fetch_i(L, v, p, dims)));
            if (fixed)
                continue;
            float4 tv = mc_tex_fetch_f(L, v, p, dims);
            if (floats || srgb)
                mc_tex_flin_add(fl, wl, 2u * k, tv);
            else
                mc_tex_acc(s, e, plain, (float)wl * (1.0f / 256.0f), tv);
            continue;
        }
        uint w[3] = {0u, 0u, 0u};
        mc_tex_1d_border_as_2d(t, mode, dims, x);
        for (uint d = 0u; d < dims; d++) {
            uint n = mc_tex_size(v, d);
            // unnormalised coordinates on a plain array (integers read as
            // such) are texel positions already; a mipmapped one reads them
            // as normalised (an H200: tex_mipmap.cu)
            long q = mc_mip_pos(x[d], (t.flags & 2u) != 0u || t.mip != 0ul ? n : 1u, true);
            if (mc_tex_clamps_position(v.addr[d], t.flags)) {
                long top = (long)(n - 1u) << 21;
                q = q < 0l ? 0l : q > top ? top : q;
            }
            p[d] = (int)(q >> 21);
            w[d] = ((uint)(q & 0x1fffffl) + 4096u) >> 13;
            if (w[d] == 256u) {
                w[d] = 0u;
                p[d] += 1;
            }
        }
        uint corners = 1u << dims;
        for (uint c = 0u; c < corners; c++) {
            uint wk = mc_tex_corner_weight(w, wl, dims, c);
            bool hx = (c & 1u) != 0u, hy = (c & 2u) != 0u;
            int q[3] = {p[0] + (hx ? 1 : 0), p[1] + (hy ? 1 : 0), p[2] + ((c & 4u) != 0u ? 1 : 0)};
            if (dims < 3u)
                q[2] = lay;
            if (iresult) {
                mc_tex_iacc(t, iacc, wk, mc_tex_fetch_i(L, v, q, dims));
                continue;
            }
            if (fixed || srgb)
                iacc += (long)wk * long4(mc_tex_fixed16(t, mc_tex_fetch_i(L, v, q, dims)));
            if (fixed)
                continue;
            float4 tv = mc_tex_fetch_f(L, v, q, dims);
            if (!floats && !srgb)
                mc_tex_acc(s, e, plain, (float)wk * (1.0f / 256.0f), tv);
            else if (mc_tex_corner_read(w, dims, c))
                mc_tex_flin_add(fl, wk, 2u * k + (c >> 2), tv);
        }
    }
    if (iresult)
        return mc_tex_iround(t, iacc);
    if (fixed)
        return as_type<uint4>(mc_tex_fixed16_f(t, int4(iacc)));
    if (floats)
        return as_type<uint4>(mc_tex_flin_sum(fl, mc_tex_flin_cut(t)));
    if (srgb)
        return as_type<uint4>(mc_tex_srgb_finish(t, fl, int4(iacc)));
    float4 r = s + e;
    return as_type<uint4>(select(plain, r, isfinite(r)));
}

// tex.{1d,2d,3d,a1d,a2d,cube,acube} and tld4: mode bits 0-1 the
// dimensions, 4 layered (layer is the array index: the slice, clamped to
// the layers), 8 cube map (the face's (s, t) scaled by the size, read as a
// 2-D texture in slice 6 * layer + face; the texture object clamps), 16
// integer coordinates, 32 integer result, 64 gather of component bits 7-8,
// 512 an explicit level of detail (lod's bits); c0..c2 the coordinates'
// bits.  A mipmapped texture, and integers read as such with linear
// filtering, sample through mc_tex_sample_mip (tld4 and
// integer coordinates read level 0).  Returns the result's bits.
MC_TEX uint4 mc_tex_sample(constant mc_launch &L, ulong h, uint mode, uint c0, uint c1, uint c2, uint layer,
                           uint lod)
{
    mc_tex t = mc_tex_load(L, h);
    // linear memory is read at integer coordinates only (tex1Dfetch): an
    // H100 reads zeros at float ones, with every filter and coordinate mode
    // (tests/cuda/NATIVE.md, 2026-12-06, twenty-seventh session)
    if ((t.flags & 16u) != 0u && (mode & 16u) == 0u)
        return uint4(0u);
    // What an integer texture returns follows its read mode, not the
    // fetch's type: a float fetch (tex2D<float4> ...) of integers read as
    // elements returns the bits an integer fetch does, and an integer fetch
    // (tex2D<uint4> ...) of one read as normalised floats the floats' bits,
    // filtered or not (point, linear with coordinates normalised or not,
    // mipmap blends; 8-, 16- and 32-bit integers on an H100:
    // tests/cuda/NATIVE.md, 2026-12-06, twenty-eighth session)
    if (t.kind != 2u)
        mode = mc_tex_reads_norm(t) ? mode & ~32u : mode | 32u;
    // integers read as such with linear filtering (the driver's
    // CU_TRSF_READ_AS_INTEGER; no cube map: the driver refuses that) are
    // positioned on a plain array as on a
    // mipmapped one, the coordinate truncated to 2^-21 and scaled exactly
    // (an H200: 196 608 channel values of a 48 x 20 array, every integer
    // format; the float path's product in f32 reads 56 of them otherwise)
    bool ilinear = (mode & 32u) != 0u && t.kind < 2u && (t.flags & 1u) != 0u;
    if ((t.mip != 0ul || ilinear) && (mode & (16u | 64u)) == 0u)
        return mc_tex_sample_mip(L, t, mode, c0, c1, c2, layer, mc_tex_lod_q(mode, lod));
    uint dims = mode & 3u;
    bool icoord = (mode & 16u) != 0u, iresult = (mode & 32u) != 0u;
    uint cb[3] = {c0, c1, c2};
    float x[3] = {0.0f, 0.0f, 0.0f};
    int p[3] = {0, 0, 0};
    int lay;
    if ((mode & 8u) != 0u) {
        float s, r;
        uint f = mc_tex_cube_face(as_type<float>(c0), as_type<float>(c1), as_type<float>(c2), s, r);
        x[0] = s * (float)t.width;
        x[1] = r * (float)t.height;
        dims = 2u;
        lay = (int)(6u * ((mode & 4u) != 0u ? min(layer, t.depth / 6u - 1u) : 0u) + f);
        if ((mode & 64u) != 0u)   // tld4: the footprint on the face, clamped to it as filtering is
            return mc_tex_gather(L, t, x, (mode >> 7) & 3u, iresult, lay);
    } else {
        for (uint d = 0u; d < dims; d++)
            x[d] = icoord ? (float)(int)cb[d] : mc_tex_coord(t, d, as_type<float>(cb[d]));
        lay = (mode & 4u) != 0u ? (int)min(layer, t.depth - 1u) : 0;
        if ((mode & 64u) != 0u)
            return mc_tex_gather(L, t, x, (mode >> 7) & 3u, iresult, lay);
    }
    p[2] = lay;
    if (icoord || (t.flags & 1u) == 0u || iresult) {
        // nearest point (integer coordinates: tex1Dfetch-style, unfiltered)
        for (uint d = 0u; d < dims; d++) {
            p[d] = icoord ? (int)cb[d] : (int)floor(x[d]);
            if (icoord && (p[d] < 0 || p[d] >= (int)mc_tex_size(t, d)))
                return uint4(0u);
        }
        if (iresult)
            return mc_tex_fetch_i(L, t, p, dims);
        return as_type<uint4>(mc_tex_fetch_f(L, t, p, dims));
    }
    // linear (an H200: tests/cuda/tex_weights.cu): per-axis weights in 1.8
    // fixed point, a = frac(x - 0.5) * 256 rounded half up, 256 moving on
    // to the next texel; x - 0.5 clamped to [0, size - 1] where
    // mc_tex_clamps_position says; each corner's weight from them by
    // mc_tex_corner_weight.
    mc_tex_1d_border_as_2d(t, mode, dims, x);
    uint w[3] = {0u, 0u, 0u};
    for (uint d = 0u; d < dims; d++) {
        float b = x[d] - 0.5f;
        if (mc_tex_clamps_position(t.addr[d], t.flags))
            b = clamp(b, 0.0f, (float)(mc_tex_size(t, d) - 1u));
        float f = floor(b);
        p[d] = (int)f;
        float a = (b - f) * 256.0f;   // exact
        float ai = floor(a);
        w[d] = (uint)ai + (a - ai >= 0.5f ? 1u : 0u);
        if (w[d] == 256u) {
            w[d] = 0u;
            p[d] += 1;
        }
    }
    const bool fixed = mc_tex_filters_fixed(t), floats = t.kind == 2u;
    const bool srgb = mc_tex_srgb_applies(t);
    float4 acc = float4(0.0f);
    int4 iacc = int4(0);
    mc_tex_flin fl;
    fl.n = 0u;
    uint corners = 1u << dims;
    if (floats && dims < 3u) {   // one group: the inlined sum
        float4 tv[4];
        uint tw[4];
        bool rd[4];
        for (uint k = 0u; k < corners; k++) {
            int q[3] = {p[0] + (int)(k & 1u), p[1] + (int)((k >> 1) & 1u), lay};
            tw[k] = mc_tex_corner_weight(w, 256u, dims, k);
            rd[k] = mc_tex_corner_read(w, dims, k);
            tv[k] = mc_tex_fetch_f(L, t, q, dims);
        }
        return as_type<uint4>(mc_tex_flin_one(tv, tw, rd, corners, mc_tex_flin_cut(t)));
    }
    for (uint k = 0u; k < corners; k++) {
        int q[3] = {p[0] + (int)(k & 1u), p[1] + (int)((k >> 1) & 1u), dims == 3u ? p[2] + (int)((k >> 2) & 1u) : lay};
        uint wk = mc_tex_corner_weight(w, 256u, dims, k);
        if (fixed || srgb)
            iacc += (int)wk * mc_tex_fixed16(t, mc_tex_fetch_i(L, t, q, dims));
        if (fixed)
            continue;
        float4 tv = mc_tex_fetch_f(L, t, q, dims);
        if (!floats && !srgb)
            acc += ((float)wk * (1.0f / 256.0f)) * tv;
        else if (mc_tex_corner_read(w, dims, k))
            mc_tex_flin_add(fl, wk, k >> 2, tv);
    }
    if (floats)
        return as_type<uint4>(mc_tex_flin_sum(fl, mc_tex_flin_cut(t)));
    if (srgb)
        return as_type<uint4>(mc_tex_srgb_finish(t, fl, iacc));
    return as_type<uint4>(fixed ? mc_tex_fixed16_f(t, iacc) : acc);
}

// A 3-D gradient component g (bits) at coordinate c as the texture unit
// reads it: the difference of the quad's lanes c + g (rounded to f32) and
// c, taken exactly.  Only its truncation to 9 fraction bits counts
// (mc_grad_split_n), which is that of the f32 difference d less one ulp
// towards zero where d was rounded up in magnitude (its rounding error, by
// Knuth's two-sum, has the other sign): 9-bit grid points are f32 values,
// so nothing lies between.  An H200 reads all 81 920 fetches of a probe
// around the "grad3" miss so (its coordinate or gradient moved by -4096
// ... 4095 ulps, and random ones), where the rounded f32 difference
// misses 2 050 of them (tests/cuda/NATIVE.md "grad3b").
MC_TEX uint mc_grad3_diff(float c, uint g)
{
    float s = c + as_type<float>(g), d = s - c, bp = d - s;
    if (isnan(s))   // a NaN lane reads as the coordinate 0
        return as_type<uint>(-c);
    float err = (s - (d - bp)) + (-c - bp);
    uint b = as_type<uint>(d);
    if (isfinite(d) && d != 0.0f && err != 0.0f && (err < 0.0f) != (d < 0.0f))
        b -= 1u;   // one ulp towards zero (sign and magnitude)
    return b;
}

// tex.grad.{1d,2d,3d,a1d,a2d} (mode as mc_tex_sample's; x0, x1, y0, y1 the
// gradients' bits along x and y, x2, y2 along z, 0 where the geometry has
// no such axis): a mipmapped texture samples at the level of detail of
// mc_tex_grad_q; one without levels samples as a plain tex.  Sizes that are
// not a power of two scale the gradients as mc_grad_split_n says.  In 3-D
// the gradients are first taken as differences of the coordinates, each
// component g read as the exact difference of c + g (rounded to f32) and
// its coordinate c (mc_grad3_diff; an H200 calls a routine of the driver for tex.grad.3d, which has no
// instruction of its own (on sm_75 ... sm_89 ptxas writes it as one fetch
// of a quad whose lanes hold c, c + dPdx, c + dPdy, with implicit
// derivatives: these are those lanes; tests/cuda/NATIVE.md "cube"), and
// reads so: every one of 517 120 probe fetches of ten 3-D textures, nine
// of them not powers of two, at fixed and random coordinates, normalised
// and not; 5 902 of them read otherwise with the gradients as given, 48 on
// 64 x 32 x 16 texels; tests/cuda/NATIVE.md "grad"; the f32 difference
// (c + g) - c fitted those too, but reads a component one 9-bit step high
// where it rounds up onto that grid: "grad3", "grad3b" there).  In 3-D (an
// H200: tests/cuda/NATIVE.md, 2026-12-04 "tex3d", and tests/cuda/
// tex_grad.cu): an infinite component gives the top level; where dPdx and
// dPdy both read zero along one axis (+-0 or a denormal) the level of
// detail is the 2-D one of the other two axes, each scaled by its own size
// (about 55 000 such fetches reproduced); where one gradient is zero, that
// of the other's length (mc_grad_len3_level: the two diagonal terms are
// 11/16 of it and never decide); where both are along all three axes,
// mc_tex_grad3_q.  NaNs, unlike in 1-D and 2-D, do not read as zero: they
// are the quad's lanes' (an H100, tests/cuda/NATIVE.md "g3nan": 20 000 of
// 20 000 fetches each at 128^3 and 64^3 read as the substitutions): a lane
// c + g that is NaN reads as the coordinate 0 (the component is then -c,
// exactly); a NaN coordinate makes every lane along its axis NaN, so 0
// (both components 0); an infinite coordinate gives the top level.
// tex.grad on a cube map, as an H200 computes it (tests/cuda/NATIVE.md
// "cube"; ptxas writes the method out for sm_75 to sm_89): the quad's lanes
// P, P + dPdx and P + dPdy (f32 sums), each scaled by MUFU.RCP of its
// largest magnitude onto the unit cube (mc_tex_cube_lane), each lane's face
// chosen by mc_tex_cube_hwface.
//  - All three lanes on lane 0's face f0: their face coordinates (sc, tc)
//    on f0, the differences from lane 0's halved into [0, 1] units, then the
//    2-D level of detail of those two gradients on the face's size
//    (mc_tex_grad_q).  Every one of 843 858 probe fetches on 128^2, 64^2
//    (layered) and 100^2 faces reproduced.
//  - A lane on the face opposite f0: the top level.
//  - A lane on a face adjacent to f0 (the two faces share an edge): that
//    lane is unfolded about the edge into f0's plane (the cube's net).  Its
//    component along the edge is the difference of the face coordinates as
//    above; its component across the edge is the texture unit's sum of two
//    parts, lane 0's distance to the edge, a = (1 - sgk v0[ak]) / 2, and
//    the lane's distance beyond it, b = (1 - sg0 vj[a0]) / 2 ([0, 1]
//    units, f32; axis ak and sign sgk the lane's face, a0 and sg0 f0's):
//    each in texels truncated to 9 fraction bits (mc_grad_split_n), then
//    added as a same-sign component sum (mc_grad_sum: the smaller truncated
//    to the larger's 9-bit grid, the sum again to 9 bits).  Of the lod's
//    terms only the two gradients' lengths count (no diagonal terms).  The
//    parts are truncated apart: where the lane's part decides the sum's
//    exponent, lane 0's part loses its bits below that grid, so the distance
//    falls short of an f32 unfolded difference by less than a step of that
//    grid (1/32 texel where the sum is 16 to 32 texels): what an earlier
//    model missed.
//    Every probe fetch this serves is reproduced: 365 906 of 368 476 with a
//    lane off f0 (128^2, 64^2 layered and 100^2 faces, an H200; the rest are
//    refused below), 131 072 with lane 0 on whole texels and lane 1 swept
//    across an edge (an H100), and 165 888 crossings of a 1/256 step of the
//    lod found to the ulp, lane 0 or lane 1 moved along six face pairs (an
//    H100; tests/cuda/NATIVE.md "cube").
//  - Infinite and NaN gradients: a lane (P + d) * MUFU.RCP(inf) is (+-0,
//    +-0, NaN); the face ignores NaN (mc_tex_cube_hwface), the NaN then
//    reads as 0, and the rules above apply (all 4 608 probe fetches with an
//    infinite or NaN component, and the random ones of the probe).
//  - P not finite or zero (an H100, tests/cuda/NATIVE.md "cubenan": 20 000
//    of 20 000 fetches of each kind read as the substitution): a NaN
//    component of P is a NaN in every lane, ignored and read as 0 as
//    above, so it reads as P and both gradients 0 there; P all NaN and P
//    with an infinite component (finite gradients: every lane scaled by
//    MUFU.RCP(inf) = 0 to the same point) read as the bottom level of
//    detail; P = 0 makes lane 0 0 * MUFU.RCP(0) = NaN, the +z face's
//    centre, as P = (0, 0, +tiny) reads.
// Not reproduced, so failing the launch (MC_STATUS_TEX_GRAD_CUBE): a lane
// off f0 while lane 0 lies exactly on an edge or a corner (two of its
// magnitudes equal: 32 of 6 819 such probe fetches read 1/256 or 2/256
// higher than the rule gives), a lane off f0 on such a tie itself (2
// fetches), and P not finite or zero with a gradient component that is not
// finite (not probed; a NaN in P then does not read as 0 there: the
// lanes' NaNs from MUFU.RCP(inf) = 0 pick other faces).
// The largest magnitude of three components, NaN ignored (all NaN: 0)
MC_TEX float mc_abs_max3(thread const float *v)
{
    float m = 0.0f;
    for (uint k = 0u; k < 3u; k++)
        m = abs(v[k]) > m ? abs(v[k]) : m;
    return m;
}

MC_TEX void mc_tex_cube_lane(thread const float *p, uint d0, uint d1, uint d2, thread float *v)
{
    float q[3] = {p[0] + as_type<float>(d0), p[1] + as_type<float>(d1), p[2] + as_type<float>(d2)};
    float m = mc_abs_max3(q);   // an all-NaN lane: 0, then NaN again
    float r = as_type<float>(mc_sfu_rcp(as_type<uint>(m)));
    for (uint k = 0u; k < 3u; k++)
        v[k] = q[k] * r;
}

// The face of a scaled lane as the H200 picks it (probes: NaN components
// ignored): m the largest magnitude; z unless |z| != m and |y| or |x| is m,
// then y unless |y| != m (ties: z over y over x, as mc_tex_cube_axes); all
// NaN: +z; the positive face unless the component is below 0.
MC_TEX uint mc_tex_cube_hwface(thread const float *v)
{
    float ax = abs(v[0]), ay = abs(v[1]), az = abs(v[2]), m = mc_abs_max3(v);
    if (az != m && ay == m)
        return v[1] < 0.0f ? 3u : 2u;
    if (az != m && ay != m && ax == m)
        return v[0] < 0.0f ? 1u : 0u;
    return v[2] < 0.0f ? 5u : 4u;
}

MC_TEX bool mc_tex_cube_grad_q(thread const mc_tex &t, uint c0, uint c1, uint c2, uint x0, uint x1, uint x2,
                               uint y0, uint y1, uint y2, thread int &q)
{
    float p[3] = {as_type<float>(c0), as_type<float>(c1), as_type<float>(c2)};
    uint d[3][3] = {{0u, 0u, 0u}, {x0, x1, x2}, {y0, y1, y2}};
    bool special = !isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]) ||
                   (p[0] == 0.0f && p[1] == 0.0f && p[2] == 0.0f);
    for (uint j = 1u; j < 3u && special; j++)   // P not finite or 0: probed with finite gradients only
        for (uint k = 0u; k < 3u; k++)
            if ((d[j][k] & 0x7f800000u) == 0x7f800000u)
                return false;
    float v[3][3], sc[3], tc[3];
    uint f[3];
    for (uint j = 0u; j < 3u; j++) {
        mc_tex_cube_lane(p, d[j][0], d[j][1], d[j][2], v[j]);
        f[j] = mc_tex_cube_hwface(v[j]);
        for (uint k = 0u; k < 3u; k++)
            v[j][k] = isnan(v[j][k]) ? 0.0f : v[j][k];
    }
    uint f0 = f[0], a0 = f0 / 2u;
    bool off = false;
    for (uint j = 1u; j < 3u; j++) {
        if (f[j] != f0 && f[j] / 2u == a0) {   // the opposite face
            q = 67108864;
            return true;
        }
        off = off || f[j] != f0;
    }
    for (uint j = 0u; j < 3u; j++)
        mc_tex_cube_st(f0, v[j], sc[j], tc[j]);
    if (!off) {
        q = mc_tex_grad_q(as_type<uint>((sc[1] - sc[0]) * 0.5f), as_type<uint>((tc[1] - tc[0]) * 0.5f),
                          as_type<uint>((sc[2] - sc[0]) * 0.5f), as_type<uint>((tc[2] - tc[0]) * 0.5f), t.width,
                          t.width);
        return true;
    }
    float ax = abs(v[0][0]), ay = abs(v[0][1]), az = abs(v[0][2]), m = max(max(ax, ay), az);
    // lane 0 on an edge: not known (m is 0 only for P = 0, which reads as (0, 0, +tiny): no edge)
    if (m > 0.0f && (ax == m ? 1 : 0) + (ay == m ? 1 : 0) + (az == m ? 1 : 0) > 1)
        return false;
    uint sax = a0 == 0u ? 2u : 0u;   // the axis along which f0's sc runs
    float sg0 = (f0 & 1u) != 0u ? -1.0f : 1.0f;
    q = -67108864;
    for (uint j = 1u; j < 3u; j++) {
        uint n[2];
        int e[2];
        mc_grad_split_n(as_type<uint>((sc[j] - sc[0]) * 0.5f), t.width, n[0], e[0]);
        mc_grad_split_n(as_type<uint>((tc[j] - tc[0]) * 0.5f), t.width, n[1], e[1]);
        if (f[j] != f0) {   // across the edge: lane 0's part and the lane's, summed by the texture unit
            uint ak = f[j] / 2u, c = ak == sax ? 0u : 1u, na, nb;
            int ea, eb;
            float sgk = (f[j] & 1u) != 0u ? -1.0f : 1.0f;
            float a = 1.0f - sgk * v[0][ak], b = 1.0f - sg0 * v[j][a0];
            if (!(a > 0.0f) || b < 0.0f)   // a lane that ties two axes (2 probe fetches)
                return false;
            mc_grad_split_n(as_type<uint>(a * 0.5f), t.width, na, ea);
            mc_grad_split_n(as_type<uint>(b * 0.5f), t.width, nb, eb);
            mc_grad_sum(na, ea, nb, eb, false, n[c], e[c]);
        }
        q = max(q, mc_grad_len_level(n[0], e[0], n[1], e[1]));
    }
    return true;
}

MC_TEX uint4 mc_tex_sample_grad(constant mc_launch &L, ulong h, uint mode, uint c0, uint c1, uint c2, uint layer,
                                uint x0, uint x1, uint y0, uint y1, uint x2, uint y2)
{
    mc_tex t = mc_tex_load(L, h);
    if (t.mip == 0ul || (mode & 16u) != 0u)
        return mc_tex_sample(L, h, mode, c0, c1, c2, layer, 0u);
    // anisotropic filtering: its level of detail and samples were not
    // fitted (an H100 reads even isotropic gradients differently there)
    if ((t.aniso & 4u) != 0u) {
        atomic_fetch_max_explicit(reinterpret_cast<device atomic_uint *>(L.status), 16u, memory_order_relaxed);
        return uint4(0u);
    }
    if ((mode & 8u) != 0u) {   // a cube map
        int qc;
        if (!mc_tex_cube_grad_q(t, c0, c1, c2, x0, x1, x2, y0, y1, y2, qc)) {
            atomic_fetch_max_explicit(reinterpret_cast<device atomic_uint *>(L.status), 13u, memory_order_relaxed);
            return uint4(0u);
        }
        return mc_tex_sample_mip(L, t, mode, c0, c1, c2, layer, qc);
    }
    uint dims = mode & 3u;
    uint sz[3] = {t.width, dims >= 2u ? t.height : 1u, dims == 3u ? t.depth : 1u};
    uint gx[3] = {x0, x1, x2}, gy[3] = {y0, y1, y2};
    uint a = 0u, b = 1u;   // the two axes whose gradients count
    if (dims == 3u) {
        float c[3] = {as_type<float>(c0), as_type<float>(c1), as_type<float>(c2)};
        // the lanes' differences, each sum rounded to f32; a NaN coordinate
        // makes every lane along its axis read 0, an infinite one the top level
        bool inf = false;
        for (uint d = 0u; d < 3u; d++) {
            inf = inf || isinf(c[d]);
            gx[d] = isnan(c[d]) ? 0u : mc_grad3_diff(c[d], gx[d]);
            gy[d] = isnan(c[d]) ? 0u : mc_grad3_diff(c[d], gy[d]);
        }
        uint zero = 3u;   // an axis both gradients read as zero along
        for (uint d = 3u; d-- > 0u;) {
            uint ax = gx[d] & 0x7fffffffu, ay = gy[d] & 0x7fffffffu;
            inf = inf || ax == 0x7f800000u || ay == 0x7f800000u;
            if (ax < 0x00800000u && ay < 0x00800000u)
                zero = d;
        }
        if (inf)
            return mc_tex_sample_mip(L, t, mode, c0, c1, c2, layer, 67108864);
        bool xz = (gx[0] & 0x7f800000u) == 0u && (gx[1] & 0x7f800000u) == 0u && (gx[2] & 0x7f800000u) == 0u;
        bool yz = (gy[0] & 0x7f800000u) == 0u && (gy[1] & 0x7f800000u) == 0u && (gy[2] & 0x7f800000u) == 0u;
        if (zero == 3u && (xz || yz))   // one gradient along all three axes, the other zero
            return mc_tex_sample_mip(L, t, mode, c0, c1, c2, layer, mc_grad_len3_level(xz ? gy : gx, sz));
        if (zero == 3u)   // two gradients along all three axes
            return mc_tex_sample_mip(L, t, mode, c0, c1, c2, layer, mc_tex_grad3_q(gx, gy, sz));
        a = zero == 0u ? 1u : 0u;
        b = zero == 2u ? 1u : 2u;
    }
    int q = mc_tex_grad_q(gx[a], gx[b], gy[a], gy[b], sz[a], sz[b]);
    return mc_tex_sample_mip(L, t, mode, c0, c1, c2, layer, q);
}

// txq/suq: q & 31 is 0 width, 1 height, 2 depth; q & 32: txq.level at
// level lod; q & 64: suq.  Each answers what an H100 and an H200 answer
// (compiler.h, txq_size, suq_size): 0 for a dimension the resource lacks;
// txq.level at a level past the last (or below 0) 0 in all three, and
// each other dimension halved from level to level, down to 1, but for the
// layers' (tests/cuda/tex_txq.cu).
MC_TEX uint mc_txq(constant mc_launch &L, ulong h, uint q, uint lod)
{
    device const mc_tex &t = mc_tex_desc(L, h);
    uint k = q & 31u;
    if ((q & 64u) != 0u)
        return t.suq_size[k];
    uint v = t.txq_size[k];
    if ((q & 32u) == 0u)
        return v;
    int l = (int)lod;
    if (l < 0 || (uint)l >= t.txq_levels)
        return 0u;
    return v == 0u || k == t.txq_layer_dim ? v : max(1u, v >> (uint)l);
}

// The byte address of a surface access of `bytes` bytes at x (bytes), y, z
// (elements) or, layered (dims & 4), in layer `layer` (the slice); false
// when outside (after clamping, for the clamp mode).  The layer is bounded
// as a coordinate.  Trap mode: an access outside fails the kernel with an
// illegal address.
MC_TEX bool mc_surf_addr(constant mc_launch &L, device const mc_tex &t, uint dims, uint clampm, int x, int y,
                         int z, int layer, uint bytes, thread ulong &a)
{
    bool layered = (dims & 4u) != 0u;
    dims &= 3u;
    int lim[3] = {(int)(t.width * t.chan_bytes * t.nchan) - (int)bytes, (int)t.height - 1, (int)t.depth - 1};
    // a layer is unsigned: a negative one is past the last (an H200 clamps -1 to the last layer)
    int c[3] = {x, dims > 1u ? y : 0, layered ? (layer < 0 ? INT_MAX : layer) : dims > 2u ? z : 0};
    for (uint d = 0u; d < 3u; d++) {
        if (c[d] >= 0 && c[d] <= lim[d])
            continue;
        if (clampm == 1u) {
            c[d] = clamp(c[d], 0, lim[d]);
            if (d == 0u)
                c[d] -= c[d] % (int)bytes;
            continue;
        }
        if (clampm == 0u)   // MC_STATUS_SURFACE: cudaErrorIllegalAddress, as on an H200
            atomic_fetch_max_explicit(reinterpret_cast<device atomic_uint *>(L.status), 8u, memory_order_relaxed);
        return false;
    }
    a = t.base + (ulong)c[2] * t.slice + (ulong)c[1] * t.pitch + (ulong)c[0];
    return true;
}

// suld.b: n elements of `size` bytes (1, 2, 4), zero-extended.
MC_TEX uint4 mc_suld(constant mc_launch &L, ulong h, uint dims, uint clampm, int x, int y, int z, uint layer,
                     uint size, uint n)
{
    device const mc_tex &t = mc_tex_desc(L, h);
    ulong a;
    uint v[4] = {0u, 0u, 0u, 0u};
    if (mc_surf_addr(L, t, dims, clampm, x, y, z, (int)layer, size * n, a))
        for (uint k = 0u; k < n; k++)
            v[k] = mc_tex_raw(L, a + (ulong)(k * size), size);
    return uint4(v[0], v[1], v[2], v[3]);
}

MC_TEX void mc_sust(constant mc_launch &L, ulong h, uint dims, uint clampm, int x, int y, int z, uint layer,
                    uint size, uint n, uint4 v)
{
    device const mc_tex &t = mc_tex_desc(L, h);
    ulong a;
    if (!mc_surf_addr(L, t, dims, clampm, x, y, z, (int)layer, size * n, a))
        return;
    for (uint k = 0u; k < n; k++) {
        device uchar *p = reinterpret_cast<device uchar *>(mc_gpu(L, a + (ulong)(k * size)));
        if (size == 1u)
            p[0] = (uchar)v[k];
        else if (size == 2u)
            *reinterpret_cast<device ushort *>(p) = (ushort)v[k];
        else
            *reinterpret_cast<device uint *>(p) = v[k];
    }
}

// sust.p into a normalised channel of b bits (8, 16), as an H100 converts
// (native-run probe of every format, 0 misses of 114 688 channels;
// tests/cuda/tex_unorm.cu): unorm: NaN, -0 and v <= 0 give 0, v >= 1 gives 2^b - 1; otherwise v is
// cut to b + 4 fraction bits, t = floor(v 2^(b+4)), and the channel is
// (t (2^b - 1) + 2^(b+3) - 1) >> (b + 4), so a tie (only 0.5) goes down:
// 0.5 gives 127.  snorm: the same on |v| with b - 1 bits, the sign applied
// after (-1 gives -127, never -128); NaN gives 0.
MC_TEX uint mc_sust_p_norm(uint v, uint kind, uint bytes)
{
    float f = as_type<float>(v);
    uint b = 8u * bytes - (kind == 4u ? 1u : 0u), top = (1u << b) - 1u;
    float a = kind == 4u ? fabs(f) : f;
    uint r;
    if (!(a > 0.0f))   // NaN, zeros, negative unorm values
        r = 0u;
    else if (a >= 1.0f)
        r = top;
    else {
        ulong t = (ulong)(a * (float)(1u << (b + 4u)));   // exact scaling, then floor
        r = (uint)((t * (ulong)top + (1ul << (b + 3u)) - 1ul) >> (b + 4u));
    }
    if (kind == 4u && f < 0.0f)
        r = 0u - r;
    return r & (bytes == 1u ? 0xffu : 0xffffu);
}

// sust.p: the 32-bit value of one channel converted to the surface's
// format (kind, bytes), as an H100 converts it (native-run probe of every
// format, tests/cuda/surf_formatted.cu): integers saturate to the
// channel's range (unsigned as unsigned, signed as signed); a float
// channel of 4 bytes takes the bits as they are (NaN payloads and
// subnormals kept); a half channel rounds toward zero, so a finite value
// past the largest half becomes it (+-65504), infinities stay, a NaN
// keeps its sign and top 10 payload bits (1 where they are all zero).
// A normalised channel (kind 3 unorm, 4 snorm): mc_sust_p_norm.
MC_TEX uint mc_sust_p_conv(uint v, uint kind, uint bytes)
{
    if (kind >= 3u)
        return mc_sust_p_norm(v, kind, bytes);
    if (bytes == 4u)
        return v;
    if (kind == 0u)   // unsigned
        return min(v, bytes == 1u ? 0xffu : 0xffffu);
    if (kind == 1u) {  // signed
        int lim = bytes == 1u ? 127 : 32767;
        return (uint)clamp((int)v, -lim - 1, lim) & (bytes == 1u ? 0xffu : 0xffffu);
    }
    uint s = (v >> 16) & 0x8000u, e = (v >> 23) & 0xffu, m = v & 0x7fffffu;
    if (e == 255u)
        return s | 0x7c00u | (m != 0u ? max(m >> 13, 1u) : 0u);
    if (e > 142u)   // 2^16 and above: past the largest half
        return s | 0x7bffu;
    if (e >= 113u)  // a normal half: exponent e - 127 + 15, mantissa truncated
        return s | ((e - 112u) << 10) | (m >> 13);
    uint sh = 126u - e;   // a subnormal half: the value in units of 2^-24, truncated
    return s | (sh < 24u ? (m | 0x800000u) >> sh : 0u);
}

// sust.p: n values (R, G, B, A) stored into the sample at x (samples), y, z
// or layer, each converted to the format; channels the format lacks are
// dropped, and those past n get the conversion of 0 (an H100 writes zeros
// there: the PTX ISA calls them unpredictable).
MC_TEX void mc_sust_p(constant mc_launch &L, ulong h, uint dims, uint clampm, int x, int y, int z, uint layer, uint n,
                      uint4 v)
{
    device const mc_tex &t = mc_tex_desc(L, h);
    uint size = t.chan_bytes, elem = size * t.nchan;
    // x in bytes, saturated so that a far sample stays outside
    long xl = (long)x * (long)elem;
    int xb = xl > (long)INT_MAX ? INT_MAX : xl < (long)INT_MIN ? INT_MIN : (int)xl;
    ulong a;
    if (!mc_surf_addr(L, t, dims, clampm, xb, y, z, (int)layer, elem, a))
        return;
    uint vals[4] = {v.x, v.y, v.z, v.w};
    for (uint k = 0u; k < t.nchan; k++) {
        uint c = mc_sust_p_conv(k < n ? vals[k] : 0u, t.kind, size);
        device uchar *p = reinterpret_cast<device uchar *>(mc_gpu(L, a + (ulong)(k * size)));
        if (size == 1u)
            p[0] = (uchar)c;
        else if (size == 2u)
            *reinterpret_cast<device ushort *>(p) = (ushort)c;
        else
            *reinterpret_cast<device uint *>(p) = c;
    }
}
