#!/usr/bin/env python3
"""gen_devlib_special.py — writes src/devlib/special_tables.h, the
coefficient tables of the device library's special functions
(src/devlib/math_special.cu): Taylor expansions of the Bessel functions
J0, J1, Y0, Y1 on [0, 8] (about their zeros where a piece holds one, the
zero as a double-double so that the result keeps its relative accuracy
there), Chebyshev series of the Hankel P and Q functions for x >= 8, of the
scaled I0 and I1 for x >= 15, Taylor expansions of Gamma on [1, 2] and of
lgamma on [0.75, 8.25], and the closed-form series (erf, the Bessel series
at 0, Stirling's correction).

Every number comes from mpmath at 60 digits, rounded once to double; each
truncation is chosen so that the dropped terms stay below 2^-60 of the
function's value (of its slope, in a piece about a zero), and the script
checks each piece against mpmath at 200 points before writing.

    python3 tools/gen_devlib_special.py            # rewrite the header
    python3 tools/gen_devlib_special.py --check    # exit 1 if it is not current
"""
import os
import sys

import mpmath as mp

mp.mp.dps = 60
OUT = os.path.join(os.path.dirname(__file__), "..", "src", "devlib", "special_tables.h")
TOL = mp.mpf(2) ** -60


def hexd(v):
    return float(v).hex() if v != 0 else "0.0"


def dd(v):
    hi = float(v)
    return hi, float(v - mp.mpf(hi))


# ---- Taylor pieces: f(c + t) = sum a_k t^k for x in [lo, hi] ----

def taylor_coefs(f, c, kmax):
    """Taylor coefficients of f about c: from the functions' own recurrences
    where they have one (numerical differentiation to order 50 at 60 digits
    is slow), else mpmath's taylor()."""
    kind = getattr(f, "kind", None)
    if kind in ("J", "Y"):
        # d^k/dx^k Z_n = 2^-k sum_j (-1)^j C(k, j) Z_{n-k+2j}  (Z = J or Y)
        n = f.order
        Z = mp.besselj if kind == "J" else mp.bessely
        vals = {}
        def z(m):
            if m not in vals:
                vals[m] = Z(m, c)
            return vals[m]
        return [mp.fsum((-1) ** j * mp.binomial(k, j) * z(n - k + 2 * j) for j in range(k + 1)) /
                (mp.mpf(2) ** k * mp.factorial(k)) for k in range(kmax)]
    if kind == "lgamma":
        return [mp.loggamma(c)] + [mp.polygamma(k - 1, c) / mp.factorial(k) for k in range(1, kmax)]
    if kind == "erfcx":
        # f' = 2 x f - 2/sqrt(pi): (k+1) a_{k+1} = 2 c a_k + 2 a_{k-1} - [k = 0] 2/sqrt(pi)
        a = [mp.erfc(c) * mp.exp(c * c)]
        a.append(2 * c * a[0] - 2 / mp.sqrt(mp.pi))
        for k in range(1, kmax - 1):
            a.append((2 * c * a[k] + 2 * a[k - 1]) / (k + 1))
        return a
    return mp.taylor(f, c, kmax - 1)


def tagged(fn, kind, order=0):
    fn.kind, fn.order = kind, order
    return fn


def taylor_piece(f, lo, hi, c, at_zero=False, kmax=48):
    lo, hi, c = mp.mpf(lo), mp.mpf(hi), mp.mpf(c)
    r = max(hi - c, c - lo)
    a = taylor_coefs(f, c, kmax)
    fmin = min(abs(f(lo + (hi - lo) * i / 16)) for i in range(17))
    scale = abs(a[1]) * r if at_zero else fmin
    n = None
    for k in range(2, kmax - 3):
        if all(abs(a[j]) * r ** j < TOL * scale for j in range(k, k + 4)):
            n = k
            break
    if n is None:
        sys.exit(f"gen_devlib_special: no convergence on [{lo}, {hi}] about {c}")
    coef = a[:n]
    if at_zero:
        coef[0] = mp.mpf(0)   # f(c) = 0 at the exact zero; t carries c's low part
    for i in range(201):   # check the truncated, double-rounded polynomial
        x = lo + (hi - lo) * i / 200
        t = x - c
        p = sum(mp.mpf(float(coef[k])) * t ** k for k in range(n))
        ref = f(x)
        err = abs(p - ref) / (abs(a[1] * t) if at_zero and ref != 0 else max(abs(ref), mp.mpf(10) ** -300))
        if err > mp.mpf(2) ** -51:
            sys.exit(f"gen_devlib_special: piece [{lo}, {hi}] about {c}: error {mp.nstr(err, 3)} at {x}")
    return coef


# ---- Chebyshev series of g(v) on v in [a, b] (s = (2v - a - b)/(b - a)) ----

def cheb(g, a, b, nmax=60):
    a, b = mp.mpf(a), mp.mpf(b)
    N = nmax
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / N) for j in range(N)]
    vals = [g((b - a) / 2 * s + (a + b) / 2) for s in nodes]
    c = []
    for k in range(N):
        c.append(2 * mp.fsum(vals[j] * mp.cos(mp.pi * k * (j + mp.mpf(1) / 2) / N) for j in range(N)) / N)
    c[0] /= 2
    gmin = min(abs(v) for v in vals)
    n = None
    for k in range(2, N - 3):
        if all(abs(c[j]) < TOL * gmin for j in range(k, k + 4)):
            n = k
            break
    if n is None:
        sys.exit(f"gen_devlib_special: Chebyshev series on [{a}, {b}] does not converge")
    return c[:n]


def emit_array(lines, name, vals, comment):
    lines.append(f"/* {comment} */")
    lines.append(f"static DEVCONST const double {name}[{len(vals)}] = {{")
    row = []
    for v in vals:
        row.append(hexd(v))
        if len(row) == 3:
            lines.append("   " + ", ".join(row) + ",")
            row = []
    if row:
        lines.append("   " + ", ".join(row) + ",")
    lines.append("};")


def pieces_table(lines, name, f, spec):
    """spec: (lo, hi, center, is_zero) per piece; writes NAME_P (lo, hi,
    c_hi, c_lo, first coefficient, count) and NAME_C (coefficients, lowest
    first)."""
    coefs, rows = [], []
    for lo, hi, c, z in spec:
        cc = mp.findroot(f, c) if z else mp.mpf(c)
        k = taylor_piece(f, lo, hi, cc, at_zero=z)
        ch, cl = dd(cc)
        rows.append(f"   {{ {hexd(mp.mpf(lo))}, {hexd(mp.mpf(hi))}, {ch.hex()}, {hexd(cl)}, {len(coefs)}, {len(k)} }},")
        coefs.extend(k)
    lines.append(f"static DEVCONST const sf_piece {name}_P[{len(rows)}] = {{")
    lines.extend(rows)
    lines.append("};")
    emit_array(lines, f"{name}_C", coefs, f"{name}: Taylor coefficients, lowest first, per piece")


def main():
    check = "--check" in sys.argv[1:]
    L = []
    L.append("/* special_tables.h — GENERATED by tools/gen_devlib_special.py from mpmath; do not edit. */")
    L.append("#ifndef MC_SPECIAL_TABLES_H")
    L.append("#define MC_SPECIAL_TABLES_H")
    L.append("")
    L.append("/* f(x) = sum C[first + k] t^k, t = (x - c_hi) - c_lo, for x in [lo, hi] */")
    L.append("typedef struct sf_piece { double lo, hi, c_hi, c_lo; int first, n; } sf_piece;")
    L.append("")

    j0 = tagged(lambda x: mp.besselj(0, x), "J", 0)
    j1 = tagged(lambda x: mp.besselj(1, x), "J", 1)
    y0 = tagged(lambda x: mp.bessely(0, x), "Y", 0)
    y1 = tagged(lambda x: mp.bessely(1, x), "Y", 1)
    pieces_table(L, "J0", j0, [(1.5, 3.25, 2.4, True), (3.25, 4.5, 3.875, False), (4.5, 6.75, 5.52, True),
                              (6.75, 8.0, 7.375, False)])
    pieces_table(L, "J1", j1, [(1.5, 2.75, 2.125, False), (2.75, 4.9, 3.83, True), (4.9, 6.1, 5.5, False),
                              (6.1, 8.0, 7.0, True)])
    pieces_table(L, "Y0", y0, [(0.75, 1.1, 0.89, True), (1.1, 1.6, 1.35, False), (1.6, 2.4, 2.0, False),
                              (2.4, 3.2, 2.8, False), (3.2, 4.7, 3.96, True), (4.7, 6.2, 5.45, False),
                              (6.2, 8.0, 7.09, True)])
    pieces_table(L, "Y1", y1, [(1.2, 1.7, 1.45, False), (1.7, 2.7, 2.2, True), (2.7, 3.7, 3.2, False),
                              (3.7, 4.7, 4.2, False), (4.7, 6.2, 5.43, True), (6.2, 8.0, 7.1, False)])
    L.append("")

    # series at 0: J0 = sum a_k x^2k, J1 = x sum b_k x^2k; Y0 = (2/pi) ln(x/2) J0 + sum s_k x^2k,
    # Y1 = (2/pi) ln(x/2) J1 - 2/(pi x) + x sum t_k x^2k  (A&S 9.1.11, 9.1.13)
    K = 24
    a = [(-1) ** k / (mp.mpf(4) ** k * mp.factorial(k) ** 2) for k in range(K)]
    b = [(-1) ** k / (2 * mp.mpf(4) ** k * mp.factorial(k) * mp.factorial(k + 1)) for k in range(K)]
    s = [-(2 / mp.pi) * (-1) ** k * mp.digamma(k + 1) / (mp.mpf(4) ** k * mp.factorial(k) ** 2) for k in range(K)]
    t = [-(1 / mp.pi) * (-1) ** k * (mp.digamma(k + 1) + mp.digamma(k + 2)) /
         (2 * mp.mpf(4) ** k * mp.factorial(k) * mp.factorial(k + 1)) for k in range(K)]
    for x in (mp.mpf("0.3"), mp.mpf("0.7"), mp.mpf("1.2")):
        y0s = 2 / mp.pi * mp.log(x / 2) * mp.besselj(0, x) + mp.fsum(s[k] * x ** (2 * k) for k in range(K))
        y1s = (2 / mp.pi * mp.log(x / 2) * mp.besselj(1, x) - 2 / (mp.pi * x) +
               x * mp.fsum(t[k] * x ** (2 * k) for k in range(K)))
        assert abs(y0s - mp.bessely(0, x)) < mp.mpf(10) ** -40, "Y0 series"
        assert abs(y1s - mp.bessely(1, x)) < mp.mpf(10) ** -40, "Y1 series"
    emit_array(L, "J0_S", a[:12], "J0(x) = sum J0_S[k] x^2k, |x| <= 1.5")
    emit_array(L, "J1_S", b[:12], "J1(x) = x sum J1_S[k] x^2k, |x| <= 1.5")
    emit_array(L, "Y0_S", s[:14], "Y0(x) = (2/pi) ln(x/2) J0(x) + sum Y0_S[k] x^2k, x <= 1.2")
    emit_array(L, "Y1_S", t[:14], "Y1(x) = (2/pi) ln(x/2) J1(x) - 2/(pi x) + x sum Y1_S[k] x^2k, x <= 1.2")
    L.append("")

    # Hankel's P and Q for x >= 8, in u = (8/x)^2: J_n = sqrt(2/(pi x)) (P cos chi - Q sin chi),
    # Y_n = sqrt(2/(pi x)) (P sin chi + Q cos chi), chi = x - (2n+1) pi/4; Q is fitted as x Q / 8
    for n in (0, 1):
        def pq(u, which, n=n):
            if u == 0:
                return mp.mpf(1) if which == "P" else (4 * n * n - 1) / mp.mpf(64)
            x = 8 / mp.sqrt(u)
            chi = x - (2 * n + 1) * mp.pi / 4
            j, y = mp.besselj(n, x), mp.bessely(n, x)
            f = mp.sqrt(mp.pi * x / 2)
            return f * (j * mp.cos(chi) + y * mp.sin(chi)) if which == "P" else f * (y * mp.cos(chi) - j * mp.sin(chi)) * x / 8
        emit_array(L, f"P{n}_CH", cheb(lambda u: pq(u, "P"), 0, 1), f"P{n}(x) = Chebyshev series in s = 2 (8/x)^2 - 1")
        emit_array(L, f"Q{n}_CH", cheb(lambda u: pq(u, "Q"), 0, 1), f"Q{n}(x) x / 8, the same way")
    L.append("")

    # I0, I1: series to 7.5 (beyond, the sum of its growing terms rounds too
    # often), then e^x / sqrt(x) times a Chebyshev series in v = 7.5/x
    sw = mp.mpf("7.5")
    L.append("#define I_SWITCH 7.5")
    i0s = [1 / (mp.mpf(4) ** k * mp.factorial(k) ** 2) for k in range(24)]
    i1s = [1 / (2 * mp.mpf(4) ** k * mp.factorial(k) * mp.factorial(k + 1)) for k in range(24)]
    emit_array(L, "I0_S", i0s, "I0(x) = sum I0_S[k] x^2k, x <= I_SWITCH")
    emit_array(L, "I1_S", i1s, "I1(x) = x sum I1_S[k] x^2k, x <= I_SWITCH")
    for n in (0, 1):
        g = lambda v, n=n: (mp.besseli(n, sw / v) * mp.exp(-sw / v) * mp.sqrt(sw / v)) if v != 0 else 1 / mp.sqrt(2 * mp.pi)
        emit_array(L, f"I{n}_CH", cheb(g, 0, 1), f"I{n}(x) e^-x sqrt(x): Chebyshev series in s = 2 (I_SWITCH/x) - 1")
    L.append("")

    # erfcx on [0.5, 2]
    pieces_table(L, "ERFCX", tagged(lambda x: mp.erfc(x) * mp.exp(x * x), "erfcx"),
                 [(0.5, 1.0, 0.75, False), (1.0, 1.5, 1.25, False), (1.5, 2.0, 1.75, False)])
    L.append("")

    # Gamma on [1, 2] and lgamma on [0.75, 8.25]
    pieces_table(L, "GAM", mp.gamma, [(1.0, 1.5, 1.25, False), (1.5, 2.0, 1.75, False)])
    spec = []
    c = mp.mpf(1)
    while c <= 8:
        spec.append((c - mp.mpf("0.25"), c + mp.mpf("0.25"), c, False))
        c += mp.mpf("0.5")
    # lgamma(1) = lgamma(2) = 0 exactly: those pieces are about a zero with no low part
    coefs, rows = [], []
    for lo, hi, cc, _ in spec:
        z = cc in (1, 2)
        k = taylor_piece(tagged(lambda x: mp.loggamma(x), "lgamma"), lo, hi, cc, at_zero=z)
        rows.append(f"   {{ {hexd(lo)}, {hexd(hi)}, {hexd(cc)}, 0.0, {len(coefs)}, {len(k)} }},")
        coefs.extend(k)
    L.append(f"static DEVCONST const sf_piece LGAM_P[{len(rows)}] = {{")
    L.extend(rows)
    L.append("};")
    emit_array(L, "LGAM_C", coefs, "lgamma: Taylor coefficients, lowest first, per piece of width 1/2 about 1, 1.5, ..., 8")
    stirling = [mp.bernoulli(2 * k) / (2 * k * (2 * k - 1)) for k in range(1, 12)]
    emit_array(L, "STIRLING", stirling, "B_2k / (2k (2k - 1)): ln Gamma(x) - Stirling = sum STIRLING[k-1] x^(1-2k)")
    erf_s = [2 / mp.sqrt(mp.pi) * (-1) ** n / (mp.factorial(n) * (2 * n + 1)) for n in range(22)]
    emit_array(L, "ERF_S", erf_s, "erf(x) = x sum ERF_S[n] x^2n, |x| <= 1")
    L.append("")
    L.append("#endif")
    text = "\n".join(L) + "\n"
    if check:
        cur = open(OUT).read() if os.path.exists(OUT) else ""
        if cur != text:
            print("special_tables.h is not what tools/gen_devlib_special.py writes now")
            sys.exit(1)
        return
    with open(OUT, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
