
// metalcuda MSL prelude: warp-level matrix operations (PTX ISA 9.0
// §9.7.14: mma.sync, wmma, ldmatrix, stmatrix, movmatrix; ir/build_mma.c).
// The lanes of a warp exchange their fragments with SIMD-group shuffles;
// each lane then computes its own elements of D in plain arithmetic, in
// the way an NVIDIA tensor core rounds (measured on an H200, driver
// 580.159.04, by the tests/ptx mma_* cases; tests/ptx/gen_mma.py):
//   f16, bf16, tf32 inputs, f32 accumulation: the products are exact; the
//   largest "nominal" exponent emax among the nonzero terms (ea + eb for a
//   product, the exponent of C) sets a grid of 2^(emax - 25); every term
//   is truncated toward zero to that grid, the truncated terms are added
//   exactly (all K products and C at once), and the sum is rounded toward
//   zero to f32 (an overflow is an infinity); a NaN anywhere, inf * 0 or
//   inf - inf give 0x7fffffff.  tf32 operands are the top 19 bits of their
//   register (the low 13 are ignored).  With an f16 accumulator, C enters
//   as its f16 value and the f32 result is rounded to nearest f16.
//   f64 (m8n8k4): fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, c)))),
//   each IEEE (f64.metal mc_d_fma): all 1024 elements of the H200's
//   mma_f64_m8n8k4_rand/_wide results; the reversed chain, the exactly
//   rounded sum and "C added last" miss 47/12%, 38/7%, 38/5% of them.
//   s8/u8, s4/u4: the exact sum, wrapped to 32 bits, or clamped with
//   .satfinite; b1: C + popc(a xor/and b), wrapped.
//   A sum that truncates to zero is +0 whatever its sign.
// mma.sp (sparse A): the same sums over A's K/2 nonzero elements only (a
// B element an omitted A element would meet is not read: an infinity or
// NaN there does not reach D), all of them with C at once, also for
// m16n8k32 (tests/ptx mmasp_* cases: summing each k16 half in turn misses
// up to 26% of the elements, a dense sum with zeros for the omitted ones
// the NaNs of up to 23%).  Layout, measured with one-hot inputs
// (mmasp_*_onehot_*): D, C and B are the dense shape's; A's row g + 8 h
// (g = lane / 4) has 2 na compressed words, word w being register
// 2 (w / 4) + h of lane 4 g + w % 4; a word holds U = 2 index units (f16,
// bf16 elements; tf32 halves) or 4 (bytes: s8/u8 elements, s4/u4 pairs),
// unit u of word w being the row's compressed unit cu = U w + u, at column
// 4 (cu / 2) + index (in units); the index is metadata field f = U (8 (w /
// 4) + 4 h + w % 4) + u, bits 2 (f % 16) of the word of lane
// 4 g + nm sel + f / 16 (nm = U na / 4 metadata words a group).  A tf32
// element reads its first unit's index (0 or 2).
// simdgroup_matrix is not used: its rounding is not this one.  On the
// software device (__MC_SOFT_SIMD_GATHER) the fragments are exchanged in
// one rendezvous of the SIMD-group instead of one per shuffle.

#define MC_MMA inline __attribute__((always_inline))
// mc_mma_dot, the bulk of an operation: on the software device one copy a
// library (a call per element of D) rather than one per mma in the kernel,
// which clang++ took minutes to compile for a wmma-heavy kernel
// (cuda-samples' cudaTensorCoreGemm: 64 inlined mc_mma_float).
#if defined(__MC_METAL_STDLIB__)
#define MC_MMA_DOT inline __attribute__((noinline))
#else
#define MC_MMA_DOT MC_MMA
#endif

// A 16-bit or tf32 input decoded: sign, nominal exponent (floor(log2|x|)),
// significand with its leading one at bit mb (subnormals normalised), and
// class (0 zero, 1 finite, 2 infinity, 3 NaN).
struct mc_mel {
    int e;
    uint m;
    uint neg;
    uint cls;
};

// fmt: 0 f16, 1 bf16, 2 tf32 (the register's top 19 bits), 3 f32 (C).
MC_MMA mc_mel mc_mma_dec(uint bits, uint fmt)
{
    uint eb = fmt == 0u ? 5u : 8u, mb = fmt == 0u ? 10u : fmt == 1u ? 7u : fmt == 2u ? 10u : 23u;
    uint x = fmt == 2u ? bits >> 13 : fmt == 3u ? bits : bits & 0xffffu;
    uint emask = (1u << eb) - 1u, E = (x >> mb) & emask, M = x & ((1u << mb) - 1u);
    mc_mel r;
    r.neg = (x >> (eb + mb)) & 1u;
    r.e = 0;
    r.m = 0u;
    int bias = (int)(emask >> 1);
    if (E == emask) {
        r.cls = M != 0u ? 3u : 2u;
    } else if (E == 0u) {
        r.cls = M != 0u ? 1u : 0u;
        int e = 1 - bias;
        while (M != 0u && (M >> mb) == 0u) {
            M <<= 1;
            e--;
        }
        r.e = e;
        r.m = M;
    } else {
        r.cls = 1u;
        r.e = (int)E - bias;
        r.m = M | (1u << mb);
    }
    return r;
}

// A term of the fused sum on the grid 2^unit, truncated toward zero:
// significand m with its lowest bit worth 2^lsb.
MC_MMA long mc_mma_term(ulong m, int lsb, int unit, uint neg)
{
    int sh = lsb - unit;
    ulong v = sh >= 0 ? (sh >= 40 ? 0ul : m << (uint)sh) : (-sh >= 64 ? 0ul : m >> (uint)(-sh));
    return neg != 0u ? -(long)v : (long)v;
}

// The f32 bits of s * 2^unit rounded toward zero (an overflow: infinity).
MC_MMA uint mc_mma_rz_f32(long s, int unit)
{
    if (s == 0)
        return 0u;
    uint sign = s < 0 ? 0x80000000u : 0u;
    ulong mag = s < 0 ? (ulong)(-s) : (ulong)s;
    int L = 63 - (int)clz(mag), E = L + unit;
    if (E > 127)
        return sign | 0x7f800000u;
    if (E < -126) {   // subnormal: the grid of 2^-149
        int sh = -149 - unit;
        ulong v = sh >= 0 ? (sh >= 64 ? 0ul : mag >> (uint)sh) : mag << (uint)(-sh);
        return v != 0ul ? sign | (uint)v : 0u;   // truncated to zero: +0 (H200)
    }
    ulong sig = L >= 23 ? mag >> (uint)(L - 23) : mag << (uint)(23 - L);
    return sign | (uint)(E + 127) << 23 | ((uint)sig & 0x7fffffu);
}

// One element of D: the K products a[k] * b[k] and C (f32 bits, or f16
// bits with cf16), in the tensor core's rounding (see the top).
MC_MMA_DOT uint mc_mma_dot(thread const mc_mel *a, thread const mc_mel *b, uint K, uint cbits, bool cf16, uint mb)
{
    mc_mel c = mc_mma_dec(cbits, cf16 ? 0u : 3u);
    uint cmb = cf16 ? 10u : 23u;
    bool nan = c.cls == 3u, pinf = c.cls == 2u && c.neg == 0u, ninf = c.cls == 2u && c.neg != 0u;
    int emax = c.cls == 1u ? c.e : -100000;
    for (uint k = 0u; k < K; k++) {
        uint ca = a[k].cls, cb = b[k].cls, neg = a[k].neg ^ b[k].neg;
        if (ca == 3u || cb == 3u || (ca == 2u && cb == 0u) || (ca == 0u && cb == 2u))
            nan = true;
        else if (ca == 2u || cb == 2u)
            (neg != 0u ? ninf : pinf) = true;
        else if (ca == 1u && cb == 1u)
            emax = max(emax, a[k].e + b[k].e);
    }
    if (nan || (pinf && ninf))
        return 0x7fffffffu;
    if (pinf || ninf)
        return pinf ? 0x7f800000u : 0xff800000u;
    if (emax == -100000)
        return 0u;
    int unit = emax - 25;
    long s = c.cls == 1u ? mc_mma_term(c.m, c.e - (int)cmb, unit, c.neg) : 0;
    for (uint k = 0u; k < K; k++)
        if (a[k].cls == 1u && b[k].cls == 1u)
            s += mc_mma_term((ulong)a[k].m * b[k].m, a[k].e + b[k].e - 2 * (int)mb, unit, a[k].neg ^ b[k].neg);
    return mc_mma_rz_f32(s, unit);
}

// The f16 of f32 bits, to nearest even (float.metal mc_f2h's rule; NaN:
// the canonical 0x7fff).
MC_MMA uint mc_mma_f16(uint f)
{
    if ((f & 0x7fffffffu) > 0x7f800000u)
        return 0x7fffu;
    return (uint)mc_f2h(as_type<float>(f));
}

// Fragments of the m16n8 shapes (PTX ISA 9.0 §9.7.14.5.x): a row of A and
// a column of B are nw 32-bit words; word w of row r is register
// (w >= 4 ? 2 : 0) + (r >= 8) of lane 4 (r % 8) + w % 4, word w of
// column n register (w >= 4) of lane 4 n + w % 4; D element (r, n) is
// register 2 (r >= 8) + n % 2 of lane 4 (r % 8) + n / 2.  This lane needs
// rows g and g + 8 and columns 2t and 2t + 1, of nblk blocks of columns
// with the same A (wmma's m16n16 shapes: two), block k's B registers from
// b[nbk k] on: ra[row][w], cb[block][column][w].
MC_MMA void mc_mma_gather(thread const uint *a, thread const uint *b, uint nw, uint nblk, uint lane,
                          thread uint (*ra)[8], thread uint (*cb)[2][8])
{
    uint g = lane >> 2, t = lane & 3u, nbk = nw > 4u ? 2u : 1u;
#ifdef __MC_SOFT_SIMD_GATHER
    // the software device: every lane's A and B registers in one exchange
    uint4 all[64];
    __mc_simd_gather8(uint4(a[0], a[1], a[2], a[3]), uint4(b[0], b[1], b[2], b[3]), all);
    for (uint w = 0u; w < nw; w++) {
        uint hi = w >= 4u ? 1u : 0u;
        for (uint h = 0u; h < 2u; h++) {
            ra[h][w] = all[2u * (4u * g + (w & 3u))][2u * hi + h];
            for (uint k = 0u; k < nblk; k++)
                cb[k][h][w] = all[2u * (4u * (2u * t + h) + (w & 3u)) + 1u][nbk * k + hi];
        }
    }
#else
    for (uint w = 0u; w < nw; w++) {
        uint hi = w >= 4u ? 1u : 0u;
        for (uint h = 0u; h < 2u; h++) {
            ra[h][w] = simd_shuffle(a[2u * hi + h], (ushort)(4u * g + (w & 3u)));
            for (uint k = 0u; k < nblk; k++)
                cb[k][h][w] = simd_shuffle(b[nbk * k + hi], (ushort)(4u * (2u * t + h) + (w & 3u)));
        }
    }
#endif
}

// mma.m16n8k{4,8,16} with f16/bf16/tf32 inputs (fmt as mc_mma_dec), over
// nblk blocks of columns; acc16: C and D are two f16x2 registers a block,
// else four f32.
MC_MMA void mc_mma_float(thread const uint *a, thread const uint *b, thread const uint *c, thread uint *d, uint K,
                         uint fmt, bool acc16, uint nblk, uint lane)
{
    uint per = fmt == 2u ? 1u : 2u, nw = K / per, mb = fmt == 1u ? 7u : 10u;
    uint ra[2][8], cb[2][2][8];
    mc_mma_gather(a, b, nw, nblk, lane, ra, cb);
    mc_mel ea[2][16], eb[2][16];
    for (uint h = 0u; h < 2u; h++)
        for (uint k = 0u; k < K; k++) {
            uint wa = ra[h][k / per];
            if (per == 2u)
                wa = (k & 1u) != 0u ? wa >> 16 : wa & 0xffffu;
            ea[h][k] = mc_mma_dec(wa, fmt);
        }
    for (uint blk = 0u; blk < nblk; blk++) {
        for (uint h = 0u; h < 2u; h++)
            for (uint k = 0u; k < K; k++) {
                uint wb = cb[blk][h][k / per];
                if (per == 2u)
                    wb = (k & 1u) != 0u ? wb >> 16 : wb & 0xffffu;
                eb[h][k] = mc_mma_dec(wb, fmt);
            }
        if (acc16) {
            for (uint h = 0u; h < 2u; h++) {
                uint cw = c[2u * blk + h];
                uint lo = mc_mma_dot(ea[h], eb[0], K, cw & 0xffffu, true, mb);
                uint hi = mc_mma_dot(ea[h], eb[1], K, cw >> 16, true, mb);
                d[2u * blk + h] = mc_mma_f16(lo) | mc_mma_f16(hi) << 16;
            }
            continue;
        }
        for (uint j = 0u; j < 4u; j++)
            d[4u * blk + j] = mc_mma_dot(ea[j >> 1], eb[j & 1u], K, c[4u * blk + j], false, mb);
    }
}

// Integer mma (.s32 accumulators): nw words of a row of A / column of B
// (the m16n8 fragments; the m8n8 shapes are their rows 0-7, nd = 2 a
// block), elements of ew = 8 or 4 bits (element e of a word at bit ew e,
// s8/u8, s4/u4): the exact sum, wrapped to 32 bits or clamped
// (.satfinite); nblk blocks of columns.
MC_MMA void mc_mma_int(thread const uint *a, thread const uint *b, thread const uint *c, thread uint *d, uint nw,
                       uint ew, bool a_signed, bool b_signed, bool sat, uint nd, uint nblk, uint lane)
{
    uint ra[2][8], cb[2][2][8];
    mc_mma_gather(a, b, nw, nblk, lane, ra, cb);
    uint per = 32u / ew, sh = 32u - ew;
    for (uint blk = 0u; blk < nblk; blk++)
        for (uint j = 0u; j < nd; j++) {
            long s = (long)as_type<int>(c[nd * blk + j]);
            for (uint w = 0u; w < nw; w++) {
                uint wa = ra[j >> 1][w], wb = cb[blk][j & 1u][w];
                for (uint e = 0u; e < per; e++) {
                    uint va = wa << (sh - ew * e), vb = wb << (sh - ew * e);   // element e at the top
                    int x = a_signed ? as_type<int>(va) >> sh : (int)(va >> sh);
                    int y = b_signed ? as_type<int>(vb) >> sh : (int)(vb >> sh);
                    s += (long)(x * y);
                }
            }
            if (sat)
                s = clamp(s, (long)(-2147483647 - 1), (long)2147483647);
            d[nd * blk + j] = (uint)(ulong)s;
        }
}

// b1 mma (.xor.popc / .and.popc): C plus the population count of the
// words of a row of A combined with those of a column of B, wrapped to 32
// bits.
MC_MMA void mc_mma_bin(thread const uint *a, thread const uint *b, thread const uint *c, thread uint *d, uint nw,
                       bool and_op, uint nd, uint lane)
{
    uint ra[2][8], cb[2][2][8];
    mc_mma_gather(a, b, nw, 1u, lane, ra, cb);
    for (uint j = 0u; j < nd; j++) {
        uint s = c[j];
        for (uint w = 0u; w < nw; w++) {
            uint wa = ra[j >> 1][w], wb = cb[0][j & 1u][w];
            s += popcount(and_op ? wa & wb : wa ^ wb);
        }
        d[j] = s;
    }
}

// mma.sp's operands from the lanes that hold them: register r of A or B,
// or the metadata word, of lane l.  The software device gathers every
// lane's registers in two exchanges instead of a shuffle each.
#ifdef __MC_SOFT_SIMD_GATHER
#define MC_SP_FETCH(a, b, e)                                                 \
    uint4 mc_sp_all[64], mc_sp_ex[64];                                       \
    __mc_simd_gather8(uint4(a[0], a[1], a[2], a[3]), uint4(b[0], b[1], b[2], b[3]), mc_sp_all); \
    __mc_simd_gather8(uint4(e, 0u, 0u, 0u), uint4(0u), mc_sp_ex)
#define MC_SP_A(a, r, l) mc_sp_all[2u * (l)][r]
#define MC_SP_B(b, r, l) mc_sp_all[2u * (l) + 1u][r]
#define MC_SP_E(e, l) mc_sp_ex[2u * (l)].x
#else
#define MC_SP_FETCH(a, b, e)
#define MC_SP_A(a, r, l) simd_shuffle(a[r], (ushort)(l))
#define MC_SP_B(b, r, l) simd_shuffle(b[r], (ushort)(l))
#define MC_SP_E(e, l) simd_shuffle(e, (ushort)(l))
#endif

// This lane's share of an mma.sp (the header's layout): rows g and g + 8
// of A as K/2 (word, unit, column) triples, columns 2 t and 2 t + 1 of B
// as their nwb words.  U: index units a compressed word.
MC_MMA void mc_mma_sp_gather(thread const uint *a, thread const uint *b, uint e, uint na, uint nwb, uint U,
                             uint sel, uint lane, thread uint (*ra)[8], thread uchar (*col)[32],
                             thread uint (*cb)[16])
{
    uint g = lane >> 2, t = lane & 3u, nm = U * na / 4u;
    MC_SP_FETCH(a, b, e);
    uint meta[4];
    for (uint i = 0u; i < 4u; i++)
        meta[i] = i < nm ? MC_SP_E(e, 4u * g + nm * sel + i) : 0u;
    for (uint w = 0u; w < 2u * na; w++)
        for (uint h = 0u; h < 2u; h++) {
            ra[h][w] = MC_SP_A(a, 2u * (w >> 2) + h, 4u * g + (w & 3u));
            for (uint u = 0u; u < U; u++) {
                uint f = U * (8u * (w >> 2) + 4u * h + (w & 3u)) + u, cu = U * w + u;
                col[h][cu] = (uchar)(4u * (cu >> 1) + ((meta[f >> 4] >> (2u * (f & 15u))) & 3u));
            }
        }
    for (uint w = 0u; w < nwb; w++)
        for (uint j = 0u; j < 2u; j++)
            cb[j][w] = MC_SP_B(b, w >> 2, 4u * (2u * t + j) + (w & 3u));
}

// mma.sp m16n8k16/k32 f16/bf16 (fmt 0, 1) or m16n8k8/k16 tf32 (fmt 2);
// na compressed A registers; acc16 as mc_mma_float.
MC_MMA void mc_mma_sp_float(thread const uint *a, thread const uint *b, thread const uint *c, thread uint *d, uint e,
                            uint na, uint K, uint fmt, bool acc16, uint sel, uint lane)
{
    uint per = fmt == 2u ? 1u : 2u, mb = fmt == 1u ? 7u : 10u, n = K / 2u;
    uint ra[2][8], cb[2][16];
    uchar col[2][32];
    mc_mma_sp_gather(a, b, e, na, K / per, 2u, sel, lane, ra, col, cb);
    mc_mel ea[2][16], eb[2][2][16];
    for (uint h = 0u; h < 2u; h++)
        for (uint k = 0u; k < n; k++) {
            // element k: half k % 2 of word k / 2, or tf32 word k (its first unit's column, in halves)
            uint wa = per == 2u ? (ra[h][k >> 1] >> (16u * (k & 1u))) & 0xffffu : ra[h][k];
            uint kk = per == 2u ? col[h][k] : col[h][2u * k] >> 1;
            ea[h][k] = mc_mma_dec(wa, fmt);
            for (uint j = 0u; j < 2u; j++) {
                uint wb = per == 2u ? (cb[j][kk >> 1] >> (16u * (kk & 1u))) & 0xffffu : cb[j][kk];
                eb[h][j][k] = mc_mma_dec(wb, fmt);
            }
        }
    if (acc16) {
        for (uint h = 0u; h < 2u; h++) {
            uint lo = mc_mma_dot(ea[h], eb[h][0], n, c[h] & 0xffffu, true, mb);
            uint hi = mc_mma_dot(ea[h], eb[h][1], n, c[h] >> 16, true, mb);
            d[h] = mc_mma_f16(lo) | mc_mma_f16(hi) << 16;
        }
        return;
    }
    for (uint j = 0u; j < 4u; j++)
        d[j] = mc_mma_dot(ea[j >> 1], eb[j >> 1][j & 1u], n, c[j], false, mb);
}

// mma.sp m16n8k32/k64 s8/u8 (ew 8) or m16n8k64/k128 s4/u4 (ew 4): a byte
// unit is one element, or two nibbles at columns 2 c and 2 c + 1.
MC_MMA void mc_mma_sp_int(thread const uint *a, thread const uint *b, thread const uint *c, thread uint *d, uint e,
                          uint na, uint K, uint ew, bool a_signed, bool b_signed, bool sat, uint sel, uint lane)
{
    uint ra[2][8], cb[2][16];
    uchar col[2][32];
    uint per = 32u / ew, sh = 32u - ew;
    mc_mma_sp_gather(a, b, e, na, K / per, 4u, sel, lane, ra, col, cb);
    for (uint j = 0u; j < 4u; j++) {
        uint h = j >> 1, n = j & 1u;
        long s = (long)as_type<int>(c[j]);
        for (uint cu = 0u; cu < 8u * na; cu++)
            for (uint q = 0u; q < 8u / ew; q++) {
                uint i = (8u / ew) * cu + q;                       // element of the compressed row
                uint k = ew == 8u ? col[h][cu] : 2u * col[h][cu] + q;
                uint va = ra[h][i / per] << (sh - ew * (i % per)), vb = cb[n][k / per] << (sh - ew * (k % per));
                int x = a_signed ? as_type<int>(va) >> sh : (int)(va >> sh);
                int y = b_signed ? as_type<int>(vb) >> sh : (int)(vb >> sh);
                s += (long)(x * y);
            }
        if (sat)
            s = clamp(s, (long)(-2147483647 - 1), (long)2147483647);
        d[j] = (uint)(ulong)s;
    }
}

// mma.m8n8k4 .f16 (Volta's quad-pair form): lanes 4q .. 4q + 3 (low) and
// 4q + 16 .. 4q + 19 (high) compute product q, each lane x = lane % 4 of
// half h (high: 1) holding (PTX ISA 9.0 §9.7.14.5.1): A row-major, row
// x + 4h (col-major: column x of rows 4h .. 4h + 3); B row-major, row x of
// columns 4h .. 4h + 3 (col-major: column x + 4h); C/D .f16, row x + 4h;
// C/D .f32, element i at row (lane & 1) + (i & 2) + 4h, column (i & 4) +
// (lane & 2) + (i & 1).  Rounding, measured on an H200 (tests/ptx
// mma_*_m8n8k4_*_lanes): an .f32 D is ((((a0 b0 + a1 b1) + a2 b2) + a3 b3)
// + C) in f32 arithmetic, each addition rounded to nearest (the products are
// exact); an .f16 D is the m16n8k8 tensor core's sum (mc_mma_dot) rounded to
// f16.
MC_MMA ushort mc_qp_half(thread const uint (*w)[4], uint j, uint r, uint e)
{
    return (ushort)(w[j][r + (e >> 1)] >> (16u * (e & 1u)));
}

MC_MMA void mc_mma_quadpair(thread const uint *a, thread const uint *b, thread const uint *c, thread uint *d,
                            bool arow, bool brow, bool c16, bool d16, uint lane)
{
    uint q = (lane >> 2) & 3u, h = lane >> 4;
    uint w[8][4], cw[8][4];   // the product's lanes (low 0-3, high 4-7): a0 a1 b0 b1; c0-c3
#ifdef __MC_SOFT_SIMD_GATHER
    uint4 all[64];
    __mc_simd_gather8(uint4(a[0], a[1], b[0], b[1]), c16 ? uint4(c[0], c[1], c[2], c[3]) : uint4(0u), all);
    for (uint j = 0u; j < 8u; j++) {
        uint l = 4u * q + (j & 3u) + 16u * (j >> 2);
        for (uint k = 0u; k < 4u; k++) {
            w[j][k] = all[2u * l][k];
            cw[j][k] = all[2u * l + 1u][k];
        }
    }
#else
    for (uint j = 0u; j < 8u; j++) {
        ushort l = (ushort)(4u * q + (j & 3u) + 16u * (j >> 2));
        w[j][0] = simd_shuffle(a[0], l);
        w[j][1] = simd_shuffle(a[1], l);
        w[j][2] = simd_shuffle(b[0], l);
        w[j][3] = simd_shuffle(b[1], l);
        for (uint k = 0u; k < 4u; k++)
            cw[j][k] = c16 ? simd_shuffle(c[k], l) : 0u;
    }
#endif
    for (uint i = 0u; i < 8u; i++) {
        uint r = d16 ? (lane & 3u) + 4u * h : (lane & 1u) + (i & 2u) + 4u * h;
        uint col = d16 ? i : (i & 4u) + (lane & 2u) + (i & 1u);
        ushort av[4], bv[4];
        for (uint k = 0u; k < 4u; k++) {
            av[k] = arow ? mc_qp_half(w, (r & 3u) + 4u * (r >> 2), 0u, k) : mc_qp_half(w, k + 4u * (r >> 2), 0u, r & 3u);
            bv[k] = brow ? mc_qp_half(w, k + 4u * (col >> 2), 2u, col & 3u)
                         : mc_qp_half(w, (col & 3u) + 4u * (col >> 2), 2u, k);
        }
        // C(r, col): an .f16 C is held as D .f16 is, by lane (r & 3) + 4 (r >> 2) of the product
        uint cb = c16 ? (uint)mc_qp_half(cw, (r & 3u) + 4u * (r >> 2), 0u, col) : c[i];
        if (d16) {
            mc_mel ea[4], eb[4];
            for (uint k = 0u; k < 4u; k++) {
                ea[k] = mc_mma_dec(av[k], 0u);
                eb[k] = mc_mma_dec(bv[k], 0u);
            }
            uint v = mc_mma_f16(mc_mma_dot(ea, eb, 4u, cb, true, 10u));
            d[i >> 1] = (i & 1u) != 0u ? (d[i >> 1] & 0xffffu) | v << 16 : v;
            continue;
        }
        uint acc = mc_u(mc_h2f(av[0]) * mc_h2f(bv[0]));
        for (uint k = 1u; k < 4u; k++)
            acc = mc_fadd_val(acc, mc_u(mc_h2f(av[k]) * mc_h2f(bv[k])), false);
        d[i] = mc_fadd_val(acc, c16 ? mc_u(mc_h2f((ushort)cb)) : cb, false);
    }
}

MC_MMA ulong mc_shfl64(ulong v, uint lane)
{
    uint2 w = as_type<uint2>(v);
    return as_type<ulong>(uint2(simd_shuffle(w.x, (ushort)lane), simd_shuffle(w.y, (ushort)lane)));
}

// mma.m8n8k4.f64: A element (r, k) in lane 4 r + k, B (k, n) in lane
// 4 n + k, D (r, n) register n % 2 of lane 4 r + n / 2.
MC_MMA void mc_mma_f64(ulong a, ulong b, thread const ulong *c, thread ulong *d, uint lane)
{
    uint g = lane >> 2, t = lane & 3u;
    ulong ra[4], cb[2][4];
#ifdef __MC_SOFT_SIMD_GATHER
    uint4 all[64];
    uint2 wa = as_type<uint2>(a), wb = as_type<uint2>(b);
    __mc_simd_gather8(uint4(wa.x, wa.y, wb.x, wb.y), uint4(0u), all);
    for (uint k = 0u; k < 4u; k++) {
        ra[k] = as_type<ulong>(all[2u * (4u * g + k)].xy);
        for (uint h = 0u; h < 2u; h++)
            cb[h][k] = as_type<ulong>(all[2u * (4u * (2u * t + h) + k)].zw);
    }
#else
    for (uint k = 0u; k < 4u; k++) {
        ra[k] = mc_shfl64(a, 4u * g + k);
        for (uint h = 0u; h < 2u; h++)
            cb[h][k] = mc_shfl64(b, 4u * (2u * t + h) + k);
    }
#endif
    for (uint h = 0u; h < 2u; h++) {
        ulong acc = c[h];
        for (uint k = 0u; k < 4u; k++)
            acc = mc_d_fma(ra[k], cb[h][k], acc, 0);
        d[h] = acc;
    }
}

// ldmatrix: register i (matrix i) of this lane.  Lanes 8 i .. 8 i + 7 give
// the shared-memory addresses of matrix i's rows (16 bytes each); lane l
// gets the word of row l / 4 at byte 4 (l % 4), or with .trans the halves
// of rows 2 (l % 4) and 2 (l % 4) + 1 at column l / 4.
MC_MMA uint mc_ldmatrix(MC_SMEM uchar *smem, uint addr, uint i, bool trans, uint lane)
{
    if (!trans) {
        uint row = simd_shuffle(addr, (ushort)(8u * i + (lane >> 2)));
        return *reinterpret_cast<MC_SMEM uint *>(smem + row + 4u * (lane & 3u));
    }
    uint r0 = simd_shuffle(addr, (ushort)(8u * i + 2u * (lane & 3u)));
    uint r1 = simd_shuffle(addr, (ushort)(8u * i + 2u * (lane & 3u) + 1u));
    uint lo = *reinterpret_cast<MC_SMEM ushort *>(smem + r0 + 2u * (lane >> 2));
    uint hi = *reinterpret_cast<MC_SMEM ushort *>(smem + r1 + 2u * (lane >> 2));
    return lo | hi << 16;
}

// stmatrix: the inverse of ldmatrix.  Lane l < 8 n stores row l % 8 of
// matrix l / 8 (16 bytes) at its address, gathered from the fragments.
MC_MMA void mc_stmatrix(MC_SMEM uchar *smem, uint addr, thread const uint *r, uint n, bool trans, uint lane)
{
    uint mine = lane >> 3, row = lane & 7u, out[4] = { 0u, 0u, 0u, 0u };
    for (uint i = 0u; i < n; i++) {
        for (uint q = 0u; q < 4u; q++) {
            uint v;
            if (!trans) {
                v = simd_shuffle(r[i], (ushort)(4u * row + q));
            } else {   // element (row, c) is half row % 2 of lane 4 c + row / 2
                uint hs = (row & 1u) * 16u;
                uint lo = simd_shuffle(r[i], (ushort)(8u * q + (row >> 1)));
                uint hi = simd_shuffle(r[i], (ushort)(8u * q + 4u + (row >> 1)));
                v = ((lo >> hs) & 0xffffu) | ((hi >> hs) & 0xffffu) << 16;
            }
            if (i == mine)
                out[q] = v;
        }
    }
    if (mine < n)
        for (uint q = 0u; q < 4u; q++)
            *reinterpret_cast<MC_SMEM uint *>(smem + addr + 4u * q) = out[q];
}

// movmatrix.trans: lane l gets elements (l / 4, 2 (l % 4) + h) of the
// transpose, element (2 (l % 4) + h, l / 4) of the fragment's matrix,
// which is half (l / 4) % 2 of lane 4 (2 (l % 4) + h) + l / 8.
MC_MMA uint mc_movmatrix(uint a, uint lane)
{
    uint c = lane >> 2, hs = (c & 1u) * 16u;
    uint lo = simd_shuffle(a, (ushort)(8u * (lane & 3u) + (c >> 1)));
    uint hi = simd_shuffle(a, (ushort)(8u * (lane & 3u) + 4u + (c >> 1)));
    return ((lo >> hs) & 0xffffu) | ((hi >> hs) & 0xffffu) << 16;
}
