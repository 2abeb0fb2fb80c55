#!/usr/bin/env python3
"""mt19937_subseq_search.py — the search for how NVIDIA's MT19937 generator
starts its subsequences 1..8191 (src/libs/curand/README.md, MT19937), kept
so that it can be taken up again.  Nothing here is NVIDIA's: MT19937 is
Matsumoto and Nishimura's (ACM TOMACS 8, 1998), the jumps are the
polynomial method of Haramoto et al. (INFORMS J. Comput. 20, 2008).

Input: the file that `tests/libs/native/curand_mt19937_probe.c --dump FILE`
writes from NVIDIA's host generator (seed 1234): a line per subsequence
(0, 1, 2, 3, 8191) of its first 1248 elements (two blocks of 624).

What it does:
 1. puts each subsequence's elements back in MT19937 order (the block order
    of the README), untempers them, checks the MT19937 recurrence (it holds:
    every subsequence is a plain MT19937 stream) and undoes the first twist
    to the initial state, and checks whether that is init_genrand's of some
    seed (only subsequence 0's is: the seed);
 2. finds MT19937's characteristic polynomial p (Berlekamp-Massey on one
    bit of the word sequence; degree 19937) and, by the field
    GF(2)[z]/c(z) (c = p reversed) in which each subsequence's bit
    sequence is a ratio g / c, the distance of subsequence 1 from 0 as a
    power of z^-1, compared with z^-(2^k) for k = 0..19937; then whether
    subsequences 2, 3 and 8191 are 2, 3 and 8191 times that distance on.
    About a minute and a half.  Found (2026-12-04): 2^2048, and yes.

    python3 tools/mt19937_subseq_search.py FILE
    python3 tools/mt19937_subseq_search.py --jump OUT   # x^(2^2048) mod p,
        624 words (bit i of the polynomial: bit i % 32 of word i / 32), for
        tests/libs/native/curand_mt19937_model.c
    python3 tools/mt19937_subseq_search.py --header     # x^(2^(2048 + b))
        mod p, b = 0..12, as the C table src/libs/curand/mt19937_jump.h
        (committed: it is MT19937's arithmetic, nothing of NVIDIA's);
        --check: whether that file is up to date.  About 10 s.
"""
import sys

N, M, L = 624, 397, 19937
M32 = 0xFFFFFFFF
FIRST = [0, 113, 170, 283, 340, 397, 510, 567]


def mt_init(s):
    x = [s & M32]
    for i in range(1, N):
        x.append((1812433253 * (x[-1] ^ (x[-1] >> 30)) + i) & M32)
    return x


def words(x, count):
    """the word sequence x[0..] from a state x[0..623], COUNT words on"""
    x = list(x)
    for k in range(count):
        y = (x[k] & 0x80000000) | (x[k + 1] & 0x7FFFFFFF)
        x.append(x[k + M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0))
    return x


def untemper(y):
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    t = y
    for _ in range(5):
        t = y ^ ((t << 7) & 0x9D2C5680)
    y = t
    for _ in range(3):
        t = y ^ (t >> 11)
    return t & M32


def element_of(e):
    """where element E of a subsequence is among its plain outputs"""
    blk, r, t = e // 624, e % 624 // 8, e % 8
    if r == 0:
        return 624 * blk + FIRST[t]
    k = 56 * ((r - 1) // 7) + 7 * t + (r - 1) % 7
    for f in FIRST:
        if f > k:
            break
        k += 1
    return 624 * blk + k


def initial_state(vals):
    """the state x[0..623] before the first twist (x[0]: top bit only)"""
    x = [None] * 1872
    for e, v in enumerate(vals):
        x[N + element_of(e)] = untemper(v)
    rec = all(x[k + N] == x[k + M] ^ ((((x[k] & 0x80000000) | (x[k + 1] & 0x7FFFFFFF)) >> 1) ^
                                      (0x9908B0DF if x[k + 1] & 1 else 0)) for k in range(N, 1248 - 1))
    up, lo = [0] * N, [0] * (N + 1)

    def solve(k):
        t = x[k + N] ^ x[k + M]
        odd = t >> 31
        if odd:
            t ^= 0x9908B0DF
        y = ((t << 1) & M32) | odd
        up[k], lo[k + 1] = y & 0x80000000, y & 0x7FFFFFFF
    for k in range(N - 1, N - M - 1, -1):
        solve(k)
    for k in range(M, N):
        x[k] = up[k] | lo[k]
    for k in range(N - M - 1, -1, -1):
        solve(k)
    for k in range(1, N):
        x[k] = up[k] | lo[k]
    x[0] = up[0]
    return rec, x[:N]


def charpoly():
    bits = [w & 1 for w in words(mt_init(5489), 2 * L + 10)[N:]]
    c, b, deg, m, win = 1, 1, 0, 1, 0
    for n, s in enumerate(bits):
        win = (win << 1) | s
        if (c & win).bit_count() & 1:
            t = c
            c ^= b << m
            if 2 * deg <= n:
                deg, b, m = n + 1 - deg, t, 1
            else:
                m += 1
        else:
            m += 1
    assert deg == L
    return int(bin(c)[2:].zfill(L + 1)[::-1], 2)


P = None
TAB = []


def mod(a):
    n = a.bit_length()
    while n > L + 8:
        sh = n - (L + 8)
        a ^= TAB[a >> (sh + L)] << sh
        n = a.bit_length()
    while n > L:
        a ^= P << (n - 1 - L)
        n = a.bit_length()
    return a


def sqr(a):
    return mod(int("0".join(bin(a)[2:]), 2))


def clmul(a, b):
    if a.bit_length() < b.bit_length():
        a, b = b, a
    r = 0
    while b:
        lb = b & -b
        r ^= a << (lb.bit_length() - 1)
        b ^= lb
    return r


def inverse(a, q):
    """a^-1 mod q over GF(2) (extended Euclid)"""
    r0, r1, s0, s1 = q, a, 0, 1
    while r1:
        while r0.bit_length() >= r1.bit_length():
            sh = r0.bit_length() - r1.bit_length()
            r0 ^= r1 << sh
            s0 ^= s1 << sh
        r0, r1, s0, s1 = r1, r0, s1, s0
    assert r0 == 1
    return s0


def numerator(x, c):
    """g(z) = S(z) c(z) mod z^L for the bit sequence s_n = bit 0 of word
    n + 1 of the state X's sequence (S its generating function, c the
    connection polynomial: S = g / c)"""
    w = words(x, L + 2)
    s = 0
    for n in range(L):
        s |= (w[n + 1] & 1) << n
    return clmul(s, c) & ((1 << L) - 1)


def set_modulus(q):
    """mod() and sqr() work modulo Q (degree L) from now on"""
    global P
    P = q
    TAB.clear()
    for v in range(256):
        r = v << L
        for b in range(L + 7, L - 1, -1):
            if r >> b & 1:
                r ^= P << (b - L)
        TAB.append((v << L) ^ r)


def jump_table(count):
    """x^(2^(2048 + b)) mod p for b < COUNT, each as 624 words"""
    set_modulus(charpoly())
    a = 2
    for _ in range(2048):
        a = sqr(a)
    out = []
    for _ in range(count):
        out.append([a >> (32 * i) & M32 for i in range(N)])
        a = sqr(a)
    return out


def jump_words(extra=0):
    """x^(2^(2048 + EXTRA)) mod p as 624 words, checked against stepping
    on a smaller power"""
    set_modulus(charpoly())
    a = 2
    for _ in range(15):
        a = sqr(a)
    # x^(2^15) applied to a state is 32768 steps of it
    x = mt_init(1234)
    xs, w = words(x, L + N), [0] * N
    for i in range(L):
        if a >> i & 1:
            for j in range(N):
                w[j] ^= xs[i + j]
    ref = words(x, 32768)[32768:32768 + N]
    assert w[1:] == ref[1:] and w[0] >> 31 == ref[0] >> 31
    for _ in range(2048 + extra - 15):
        a = sqr(a)
    return [a >> (32 * i) & M32 for i in range(N)]


def write_jump(path):
    with open(path, "w") as f:
        f.write(" ".join(str(w) for w in jump_words()) + "\n")


HEADER = "src/libs/curand/mt19937_jump.h"


def header_text():
    def rows(w):
        return ",\n".join("      " + ", ".join(f"0x{v:08x}u" for v in w[i:i + 6]) for i in range(0, N, 6))
    jump_words()   # the check of the method against stepping
    tab = jump_table(13)
    return ("/* mt19937_jump.h — generated by tools/mt19937_subseq_search.py --header; do not edit.\n"
            " * x^(2^(2048 + b)) mod p for b = 0..12, p MT19937's characteristic\n"
            " * polynomial (degree 19937, found by Berlekamp-Massey on its bit sequence):\n"
            " * bit i of a polynomial is bit i % 32 of word i / 32.  Applied to a state\n"
            " * (Haramoto et al.'s polynomial jump) they move it 2^b times 2^2048 values\n"
            " * on, 2^2048 being cuRAND's subsequence spacing. */\n"
            "static const rng_u32 cr_mt_jump_poly[13][624] = {\n" +
            ",\n".join("   {\n" + rows(w) + "\n   }" for w in tab) + "\n};\n")


def main():
    if sys.argv[1] == "--jump":
        write_jump(sys.argv[2])
        return
    if sys.argv[1] in ("--header", "--check"):
        text = header_text()
        if sys.argv[1] == "--check":
            ok = open(HEADER).read() == text
            print(f"{HEADER}: {'up to date' if ok else 'STALE'}")
            sys.exit(0 if ok else 1)
        with open(HEADER, "w") as f:
            f.write(text)
        return
    lines = [list(map(int, l.split())) for l in open(sys.argv[1])]
    states = []
    for n, vals in enumerate(lines):
        rec, x = initial_state(vals)
        init = all(x[i] == (1812433253 * (x[i - 1] ^ (x[i - 1] >> 30)) + i) & M32 for i in range(2, N))
        print(f"subsequence line {n}: MT19937 recurrence {rec}, init_genrand's state {init}")
        states.append(x)
    # The sequences of characteristic polynomial p form a cyclic module
    # over GF(2)[E] (E the shift), isomorphic to GF(2)[z]/c(z), c the
    # reciprocal of p (the connection polynomial), with E acting as z^-1:
    # a sequence s = g / c.  If subsequence n is subsequence 0 J values on,
    # g_n = z^-J g_0 mod c: the ratio g_n / g_0 is compared with z^-(2^k).
    c = int(bin(charpoly())[2:].zfill(L + 1)[::-1], 2)
    set_modulus(c)
    g0i = inverse(numerator(states[0], c), c)
    ratio = [mod(clmul(numerator(x, c), g0i)) for x in states]
    u = mod(inverse(2, c))   # z^-1
    # a check: the state 5 values on is z^-5 times
    r5 = mod(clmul(numerator(words(states[0], 5)[5:5 + N], c), g0i))
    u5 = 1
    for _ in range(5):
        u5 = mod(clmul(u5, u))
    assert r5 == u5
    for k in range(L + 1):
        for n in range(1, len(ratio)):
            if ratio[n] == u:
                print(f"subsequence line {n}: subsequence 0 jumped 2^{k} values")
        u = sqr(u)
    sub = [0, 1, 2, 3, 8191]
    r1 = ratio[1]
    for n in range(2, len(ratio)):
        e, a, res = sub[n], r1, 1
        while e:
            if e & 1:
                res = mod(clmul(res, a))
            a, e = sqr(a), e >> 1
        print(f"subsequence {sub[n]} = subsequence 1's jump applied {sub[n]} times: {res == ratio[n]}")


if __name__ == "__main__":
    main()
