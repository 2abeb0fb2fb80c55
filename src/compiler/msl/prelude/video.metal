
// ---- SIMD video instructions: vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4
// vmax2/4 vset2/4 (PTX ISA 9.7.18.2; build_video.c builds the operands) ----
// op: 0 add, 1 sub, 2 avrg, 3 absdiff, 4 min, 5 max, 6 + cmp vset (eq ne lt
// le gt ge); | 16 the accumulate form (.add), | 32 four byte lanes (else two
// half-word lanes).  ctl: lane i of a is element (ctl >> 3i) & 7 of the pool
// {b, a} (a's elements first), of b element (ctl >> (12 + 3i)) & 7; bits
// 24-27 the lane mask; 28/29/30 a/b/d signed; 31 .sat.
// Lane values are the selected elements sign- or zero-extended (at most 17
// bits), so every intermediate fits an int.

inline int mc_vlane(ulong pool, uint k, uint width, bool is_signed)
{
    uint v = uint(pool >> (width * k)) & ((1u << width) - 1u);
    int half = 1 << (width - 1u);
    return is_signed ? int(v ^ uint(half)) - half : int(v);
}

inline int mc_vlane_op(uint op, int x, int y)
{
    switch (op) {
    case 0u: return x + y;
    case 1u: return x - y;
    case 2u: { int s = x + y; return s >= 0 ? (s + 1) / 2 : (s - 1) / 2; }   // (s + 1) >> 1, or s >> 1 (floor)
    case 3u: return x > y ? x - y : y - x;
    case 4u: return min(x, y);
    case 5u: return max(x, y);
    case 6u: return x == y ? 1 : 0;
    case 7u: return x != y ? 1 : 0;
    case 8u: return x < y ? 1 : 0;
    case 9u: return x <= y ? 1 : 0;
    case 10u: return x > y ? 1 : 0;
    default: return x >= y ? 1 : 0;
    }
}

inline uint mc_vsimd(uint a, uint b, uint c, uint op, uint ctl)
{
    uint lanes = (op & 32u) != 0u ? 4u : 2u, width = 32u / lanes, lane_mask = (1u << width) - 1u;
    ulong pool = ((ulong)b << 32) | (ulong)a;
    bool sa = (ctl >> 28) & 1u, sb = (ctl >> 29) & 1u, sd = (ctl >> 30) & 1u, sat = (ctl >> 31) & 1u;
    bool acc = (op & 16u) != 0u;
    int lo = sd ? -(1 << (width - 1u)) : 0, hi = sd ? (1 << (width - 1u)) - 1 : int(lane_mask);
    uint d = acc ? c : 0u;
    for (uint i = 0u; i < lanes; i++) {
        int x = mc_vlane(pool, (ctl >> (3u * i)) & 7u, width, sa);
        int y = mc_vlane(pool, (ctl >> (12u + 3u * i)) & 7u, width, sb);
        int t = mc_vlane_op(op & 15u, x, y);
        if (sat)
            t = clamp(t, lo, hi);
        bool on = ((ctl >> (24u + i)) & 1u) != 0u;
        if (acc)
            d += on ? as_type<uint>(t) : 0u;
        else
            d |= ((on ? as_type<uint>(t) : c >> (width * i)) & lane_mask) << (width * i);
    }
    return d;
}
