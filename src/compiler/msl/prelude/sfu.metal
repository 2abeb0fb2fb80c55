// metalcuda MSL prelude: sin/cos/lg2/ex2.approx.f32 bit exact with an H200's
// special-function unit (SFU: MUFU.SIN/COS/LG2/EX2).
//
// Model (fitted from observation; tests/cuda/NATIVE.md, 2026-12-04): the
// quadratic interpolator of Oberman & Siu, "A high-performance area-efficient
// multifunction interpolator" (ARITH-17, 2005).  A 23-bit fixed-point
// argument x is split into a 6-bit table index i (64 intervals) and a 17-bit
// offset xl; the unit computes, exactly in integers,
//     V = C0[i] + C1[i]*xl + C2[i]*S(xl)
// where S is a truncated squarer: the partial products xl_a*xl_b*2^(a+b)
// (a != b counted once, at column a+b+1; a == b at column 2a) of the
// columns below 19 are dropped and the sum is shifted right by 19.  V is a
// fixed-point value with 38 fractional bits, and the result is V truncated
// (not rounded) to a 24-bit float mantissa.  C0 (about 26 significant bits),
// C1 (16 bits) and C2 (12 bits, negative for sin) are per function and
// interval (mc_sfu_c0/c1/c2 below).
//  - sin/cos: sin.approx.f32 is FMUL.RZ x*(1/2pi) (0x3e22f983) and MUFU.SIN
//    on r in revolutions.  |r| is truncated to 25 fractional bits (modulo 1):
//    quadrant q = top 2 bits (cos: q + 1), x = the low 23 bits, ones'-
//    complemented in odd quadrants; the table is sin(2*pi*x/2^25) for
//    x < 2^23; the sign is that of r for sin (so -0 for r = -0), negative for
//    q = 2, 3.  |r| < 2^-25 gives +-0; |r| >= 2^23, 1.0 or 0.  inf/NaN: NaN.
//  - ex2: x is truncated to 23 fractional bits (|x| < 2^-23 gives 1.0);
//    x >= 0: 2^I * T(F) for I.F; x < 0: its magnitude I.F is ones'-
//    complemented (2^(-I-1) * T(~F)), except F = 0 (exactly 2^-I).  T is
//    2^(x/2^23) on [1, 2).  Results below 2^-126 flush to +0, x >= 128 is
//    +inf.  Without .ftz the compiler's wrapper (in SASS) computes x < -126
//    as ex2(x/2)^2, the square rounded to nearest with subnormals.
//  - lg2: the mantissa m (23 bits) indexes the table T = log2(1 + m/2^23);
//    the exponent e is added: e = 0 gives T itself (38 fractional bits;
//    lg2(1) = +0), otherwise R = e*2^36 + (T >> 2) in two's complement, and
//    a negative R gives -(~R) (ones' complement: lg2(0.5) = -0.99999988).
//    Subnormals flush to -inf; without .ftz the wrapper computes them as
//    lg2(x*2^24) - 24 (an RN add).  -0/+0: -inf; negatives and NaN: NaN.
// The coefficients were fitted (linear feasibility per interval) to the
// unit's output for every argument of each table, pulled from an H200 with
// small CUDA probes that patch the FMUL's constant to 1.0 to reach MUFU
// itself; the model, compiled into a probe, then matched the H200 on all
// 2^32 inputs of sin/cos/lg2/ex2.approx{.ftz}.f32 (0 mismatches each).
// Integer arithmetic only: exact on an Apple GPU and the software device.

constant long mc_sfu_c0[192] = {
    // sin (quarter revolution)
    0l, 6745808896l, 13487603712l, 20221247488l, 26942717952l, 33647968256l,
    40332926976l, 46993620992l, 53625987072l, 60226076672l, 66789867520l, 73313435648l,
    79792824320l, 86224183296l, 92603555840l, 98927165440l, 105191219200l, 111391891456l,
    117525438464l, 123588214784l, 129576550400l, 135486799872l, 141315457024l, 147059032064l,
    152713953280l, 158276943872l, 163744563200l, 169113567232l, 174380670976l, 179542761472l,
    184596692992l, 189539434496l, 194368020480l, 199079510016l, 203671093248l, 208139968512l,
    212483473408l, 216699027456l, 220783984640l, 224735993856l, 228552605696l, 232231591936l,
    235770626048l, 239167676416l, 242420645888l, 245527609344l, 248486674432l, 251296055296l,
    253954072576l, 256459096064l, 258809643008l, 261004320768l, 263041761280l, 264920768512l,
    266640138240l, 268198969344l, 269596213248l, 270831058944l, 271902777344l, 272810696704l,
    273554284544l, 274133131264l, 274546802688l, 274795118592l,
    // ex2 (fraction)
    274877937634l, 277871155170l, 280896985058l, 283955738594l, 287047833570l, 290173564898l,
    293333342178l, 296527542242l, 299756525538l, 303020652514l, 306320316386l, 309655943138l,
    313027868642l, 316436518882l, 319882295265l, 323365582818l, 326886799330l, 330446362592l,
    334044674018l, 337682192354l, 341359302626l, 345076471778l, 348834093026l, 352632649698l,
    356472567778l, 360354297826l, 364278298594l, 368245037026l, 372254955490l, 376308545506l,
    380406290402l, 384548632546l, 388736088034l, 392969156578l, 397248313314l, 401574049762l,
    405946906594l, 410367383522l, 414835996642l, 419353253858l, 423919712226l, 428535896034l,
    433202354146l, 437919610850l, 442688239586l, 447508797410l, 452381849570l, 457307961314l,
    462287730658l, 467321706466l, 472410503138l, 477554726882l, 482754959330l, 488011814882l,
    493325907938l, 498697877474l, 504128346082l, 509617936354l, 515167311842l, 520777111522l,
    526448007138l, 532180654050l, 537975715810l, 543833888736l,
    // lg2 (mantissa)
    29508l, 6148432709l, 12203000644l, 18166489924l, 24041640772l, 29831013189l,
    35537077061l, 41162191684l, 46708667204l, 52178604868l, 57574130500l, 62897230661l,
    68149822277l, 73333732164l, 78450783044l, 83502646085l, 88490939204l, 93417288517l,
    98283180868l, 103090078533l, 107839419204l, 112532534084l, 117170770756l, 121755394880l,
    126287618884l, 130768622404l, 135199564608l, 139581543237l, 143915623236l, 148202869572l,
    152444248900l, 156640731973l, 160793285444l, 164902798149l, 168970179396l, 172996260677l,
    176981869381l, 180927816517l, 184834904900l, 188703847236l, 192535413573l, 196330328900l,
    200089273156l, 203812897604l, 207501906756l, 211156931397l, 214778549061l, 218367394629l,
    221924049733l, 225449096004l, 228943086404l, 232406541125l, 235840037700l, 239244047173l,
    242619102016l, 245965656900l, 249284195141l, 252575208260l, 255839150917l, 259076424516l,
    262287512389l, 265472783172l, 268632675140l, 271767585605l,
};
constant int mc_sfu_c1[192] = {
    // sin
    51474, 51460, 51412, 51336, 51226, 51088, 50918, 50716, 50486, 50224, 49932, 49610,
    49258, 48876, 48466, 48026, 47556, 47058, 46532, 45978, 45396, 44788, 44152, 43488,
    42800, 42084, 41344, 40580, 39790, 38978, 38140, 37280, 36398, 35494, 34568, 33622,
    32656, 31668, 30664, 29640, 28598, 27538, 26464, 25372, 24266, 23144, 22008, 20860,
    19698, 18526, 17342, 16146, 14942, 13728, 12508, 11278, 10042, 8800, 7552, 6302,
    5046, 3786, 2526, 1264,
    // ex2
    22713, 22960, 23210, 23463, 23718, 23977, 24238, 24502, 24768, 25038, 25311, 25586,
    25865, 26147, 26431, 26719, 27010, 27304, 27602, 27902, 28206, 28513, 28824, 29138,
    29455, 29776, 30100, 30428, 30759, 31094, 31432, 31775, 32121, 32471, 32824, 33182,
    33543, 33908, 34277, 34651, 35028, 35409, 35795, 36185, 36579, 36977, 37380, 37787,
    38198, 38614, 39035, 39460, 39889, 40324, 40763, 41207, 41655, 42109, 42568, 43031,
    43500, 43973, 44452, 44936,
    // lg2
    47272, 46545, 45840, 45156, 44492, 43847, 43221, 42612, 42020, 41444, 40884, 40339,
    39809, 39292, 38788, 38297, 37818, 37351, 36896, 36451, 36018, 35594, 35180, 34776,
    34380, 33994, 33616, 33247, 32886, 32532, 32186, 31847, 31516, 31191, 30872, 30561,
    30255, 29955, 29662, 29374, 29091, 28814, 28542, 28276, 28014, 27757, 27505, 27257,
    27013, 26774, 26540, 26309, 26082, 25859, 25640, 25424, 25213, 25004, 24799, 24598,
    24399, 24204, 24012, 23823,
};
constant short mc_sfu_c2[192] = {
    // sin
    -28, -96, -152, -220, -274, -342, -402, -458, -524, -584, -644, -704,
    -762, -820, -882, -940, -994, -1050, -1106, -1162, -1216, -1274, -1328, -1376,
    -1430, -1476, -1526, -1580, -1624, -1678, -1718, -1762, -1808, -1852, -1892, -1934,
    -1976, -2008, -2050, -2086, -2118, -2148, -2186, -2214, -2246, -2272, -2296, -2324,
    -2344, -2370, -2392, -2406, -2426, -2440, -2460, -2472, -2484, -2494, -2500, -2516,
    -2520, -2520, -2526, -2530,
    // ex2
    494, 501, 506, 511, 518, 521, 527, 532, 541, 546, 551, 559,
    564, 568, 577, 583, 589, 596, 600, 609, 615, 622, 627, 633,
    641, 647, 655, 661, 670, 677, 686, 691, 699, 705, 715, 721,
    730, 739, 748, 753, 763, 773, 779, 787, 796, 806, 813, 822,
    833, 842, 849, 858, 870, 877, 887, 896, 909, 917, 925, 938,
    946, 959, 969, 980,
    // lg2
    -1454, -1410, -1370, -1330, -1292, -1254, -1220, -1184, -1152, -1118, -1088, -1060,
    -1036, -1008, -982, -958, -932, -910, -890, -866, -850, -828, -808, -792,
    -770, -754, -736, -722, -708, -692, -678, -662, -652, -638, -622, -614,
    -600, -586, -578, -566, -552, -542, -532, -524, -514, -506, -498, -488,
    -476, -468, -464, -454, -446, -438, -432, -422, -418, -408, -402, -398,
    -390, -384, -378, -372,
};
#define MC_SFU_SIN 0
#define MC_SFU_EX2 64
#define MC_SFU_LG2 128

// S(xl): the truncated square of the 17-bit xl (columns < 19 dropped), >> 19.
inline long mc_sfu_sq(long xl)
{
    long dropped = 0;
    for (int a = 0; a <= 9; a++) {
        if (((xl >> a) & 1) == 0)
            continue;
        dropped += 1l << (2 * a);                          // a == b: column 2a (< 19 for a <= 9)
        long cross = xl & ((1l << (18 - a)) - 1) & ~((1l << (a + 1)) - 1);   // b in a+1..17-a
        dropped += cross << (a + 1);                       // a < b: column a + b + 1 < 19
    }
    return (xl * xl - dropped) >> 19;
}
inline long mc_sfu_poly(int tab, uint x)   // x: 23 bits
{
    int i = tab + (int)(x >> 17);
    long xl = (long)(x & 0x1ffffu);
    return mc_sfu_c0[i] + (long)mc_sfu_c1[i] * xl + (long)mc_sfu_c2[i] * mc_sfu_sq(xl);
}
// V > 0 with U fractional bits, truncated to a float (always normal here).
inline uint mc_sfu_float(ulong v, int u)
{
    int p = 63 - (int)clz(v);
    ulong m = p >= 23 ? v >> (uint)(p - 23) : v << (uint)(23 - p);
    return ((uint)(p - u + 127) << 23) | ((uint)m & 0x7fffffu);
}

// MUFU.SIN / MUFU.COS of r in revolutions.
inline uint mc_sfu_sincos(uint r, bool is_cos)
{
    uint fe = (r >> 23) & 0xffu;
    if (fe == 0xffu)
        return 0x7fffffffu;
    ulong m = fe != 0u ? (ulong)((r & 0x7fffffu) | 0x800000u) : 0ul;   // subnormals: 0
    int sh = (int)fe - 125;                                           // |r|*2^25 = m*2^sh
    uint k = sh >= 25 ? 0u : sh >= 0 ? (uint)(m << (uint)sh) & 0x1ffffffu : sh > -32 ? (uint)(m >> (uint)(-sh)) : 0u;
    uint q = (k >> 23) + (is_cos ? 1u : 0u), x = k & 0x7fffffu;
    if ((q & 1u) != 0u)
        x ^= 0x7fffffu;
    uint sign = ((q & 2u) != 0u ? 0x80000000u : 0u) ^ (is_cos ? 0u : r & 0x80000000u);
    long v = mc_sfu_poly(MC_SFU_SIN, x);
    return sign | (v > 0 ? mc_sfu_float((ulong)v, 38) : 0u);
}
inline uint mc_sin_approx(uint x) { return mc_sfu_sincos(mc_mul_rnd(x, 0x3e22f983u, MC_RZ), false); }
inline uint mc_cos_approx(uint x) { return mc_sfu_sincos(mc_mul_rnd(x, 0x3e22f983u, MC_RZ), true); }

// MUFU.EX2 (= ex2.approx.ftz.f32).
inline uint mc_sfu_ex2(uint x)
{
    uint fe = (x >> 23) & 0xffu;
    bool neg = (x & 0x80000000u) != 0u;
    if (fe == 0xffu)
        return (x & 0x7fffffu) != 0u ? 0x7fffffffu : neg ? 0u : 0x7f800000u;
    if (fe >= 135u)                                                   // |x| >= 256
        return neg ? 0u : 0x7f800000u;
    ulong m = fe != 0u ? (ulong)((x & 0x7fffffu) | 0x800000u) : 0ul;
    int sh = (int)fe - 127;                                           // |x|*2^23 = m*2^sh
    ulong mag = sh >= 0 ? m << (uint)sh : sh > -32 ? m >> (uint)(-sh) : 0ul;
    int ip = (int)(mag >> 23);
    uint f = (uint)mag & 0x7fffffu;
    int n = !neg ? ip : f == 0u ? -ip : -ip - 1;
    if (neg && f != 0u)
        f ^= 0x7fffffu;
    if (n >= 128)
        return 0x7f800000u;
    if (n < -126)
        return 0u;
    return mc_sfu_float((ulong)mc_sfu_poly(MC_SFU_EX2, f), 38) + ((uint)n << 23);
}
inline uint mc_ex2_approx(uint x, bool ftz)
{
    if (ftz || !(mc_f(x) < -126.0f))                                 // NaN too
        return mc_sfu_ex2(x);
    if (x == 0xff800000u)
        return 0u;
    uint r = mc_sfu_ex2(x - 0x800000u);                               // x/2 (x < -126: normal)
    return mc_mul_rnd(r, r, MC_RN);                                   // subnormal results kept
}

// MUFU.LG2 (= lg2.approx.ftz.f32).
inline uint mc_sfu_lg2(uint x)
{
    uint fe = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (fe == 0xffu)
        return m != 0u || (x & 0x80000000u) != 0u ? 0x7fffffffu : 0x7f800000u;
    if (fe == 0u)
        return 0xff800000u;                                           // +-0 and flushed subnormals
    if ((x & 0x80000000u) != 0u)
        return 0x7fffffffu;
    int e = (int)fe - 127;
    if (e == 0 && m == 0u)
        return 0u;
    long v = mc_sfu_poly(MC_SFU_LG2, m);
    if (e == 0)
        return mc_sfu_float((ulong)v, 38);
    long r = (long)e * (1l << 36) + (v >> 2);
    return r > 0 ? mc_sfu_float((ulong)r, 36) : 0x80000000u | mc_sfu_float((ulong)~r, 36);
}
inline uint mc_lg2_approx(uint x, bool ftz)
{
    uint fe = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (ftz || fe != 0u || m == 0u)
        return mc_sfu_lg2(x);
    if ((x & 0x80000000u) != 0u)
        return 0x7fffffffu;                                           // a negative subnormal
    uint p = 31u - clz(m);                                            // x*2^24 exactly: normal
    uint r = mc_sfu_lg2(((p + 2u) << 23) | ((m << (23u - p)) & 0x7fffffu));
    return mc_add_rnd(r, 0xc1c00000u, MC_RN);                         // - 24
}
