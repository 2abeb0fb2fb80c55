#!/usr/bin/env python3
"""curand_device_dist_compare.py A B [N] — compare two `curand_device_dist
--sample N FILE` outputs (A: an NVIDIA GPU's, B: metalcuda's), operation by
operation: the largest float/double distance in ulps of max(|A value|, 1),
how many Poisson/discrete integers differ (and by how much), how many next
words differ.  The figures of src/libs/curand/README.md come from it."""
import math
import struct
import sys

STATES = ["XORWOW", "Philox4_32_10", "MRG32k3a", "MTGP32", "Sobol32", "ScrambledSobol32", "Sobol64",
          "ScrambledSobol64"]
# the operations of tests/libs/curand_device_dist.cu, in its order: (name, kind)
OPS = [("normal", "F"), ("normal_double", "D"), ("log_normal", "F"), ("log_normal_double", "D"),
       ("normal2", "F"), ("normal2_double", "D"), ("log_normal2", "F"), ("log_normal2_double", "D"),
       ("normal4", "F"), ("normal4_double", "D"), ("log_normal4", "F"), ("log_normal4_double", "D"),
       ("cache mix", "F"), ("poisson(4.5)", "U"), ("poisson(30)", "U"), ("poisson(200)", "U"),
       ("poisson(700)", "U"), ("poisson(2500)", "U"), ("poisson(5000)", "U"), ("poisson4(4.5)", "U"),
       ("poisson4(200)", "U"), ("poisson4(5000)", "U"), ("discrete(30)", "U"), ("discrete(3000)", "U"),
       ("discrete4(30)", "U"), ("discrete4(3000)", "U")]
NV = 9
# values each writes a thread
COUNT = [5, 5, 5, 5, 4, 4, 4, 4, 8, 4, 8, 4, 8, 6, 6, 6, 6, 6, 5, 8, 8, 8, 6, 5, 8, 8]


def ulps(kind, a, b):
    if a == b:
        return 0.0
    if kind == "F":
        x, y = struct.unpack("<2f", struct.pack("<2I", a & 0xffffffff, b & 0xffffffff))
        bits = 24
    else:
        x, y = struct.unpack("<2d", struct.pack("<2Q", a, b))
        bits = 53
    if not (math.isfinite(x) and math.isfinite(y)):
        return math.inf
    e = math.frexp(max(abs(x), 1.0))[1]
    return abs(x - y) / 2.0 ** (e - bits)


def main():
    a = open(sys.argv[1], "rb").read()
    b = open(sys.argv[2], "rb").read()
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 512
    count = len(a) // 8
    assert len(a) == len(b) == 8 * len(STATES) * len(OPS) * NV * n, "sizes"
    A = struct.unpack("<%dQ" % count, a)
    B = struct.unpack("<%dQ" % count, b)
    worst = {"F": 0.0, "D": 0.0}
    ints = diffs = words = 0
    big = 0
    for s, sname in enumerate(STATES):
        for o, (oname, kind) in enumerate(OPS):
            base = (s * len(OPS) + o) * NV * n
            vals = A[base:base + NV * n]
            if not any(vals):
                continue   # not run for this state
            w = 0.0
            d = nw = 0
            for t in range(n):
                for i in range(COUNT[o]):
                    x, y = A[base + NV * t + i], B[base + NV * t + i]
                    if kind == "U":
                        ints += 1
                        if x != y:
                            d += 1
                            big += abs(x - y) > 1
                    else:
                        w = max(w, ulps(kind, x, y))
                nw += A[base + NV * t + NV - 1] != B[base + NV * t + NV - 1]
            if kind != "U":
                worst[kind] = max(worst[kind], w)
            diffs += d
            words += nw
            print("%-17s %-19s %s" % (sname, oname, "%.1f ulp" % w if kind != "U" else "%d differ" % d),
                  "%d next words differ" % nw if nw else "")
    print("largest: float %.1f ulp, double %.1f ulp; integers %d of %d differ (%d by more than 1); "
          "%d next words differ" % (worst["F"], worst["D"], diffs, ints, big, words))


main()
