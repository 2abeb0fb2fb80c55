#!/usr/bin/env python3
"""tests/ptx/gen_mma.py — writes the tensor-core cases tests/ptx/cases/mma_*.ptx.

Each case runs 8 warps; warp w computes one mma.sync of test w: it gathers
its fragments from the input by the fragment layouts of PTX ISA 9.0
§9.7.14.5 (A row-major, B column-major, C and D row-major matrices, one
after the other per test), runs the instruction and scatters D back as a
row-major matrix.  A layout slip therefore shows as a wrong product.
The data families (RANDOM seeded, so a rerun writes the same inputs):
  rand     values near 1 (exponents -3..3), C likewise
  wide     exponents over most of the input format's range, C too: sums
           whose terms differ in magnitude by up to 2^40 — they expose
           how the hardware aligns, truncates and rounds
  probe    B = +-1 (exact products), rows of A built to sit on rounding
           boundaries: one large term with many tiny ones, cancellation,
           equal tiny terms that carry across the last bit of C
  special  zeros of both signs, infinities, NaNs, subnormals, overflow
The expected lines come from an NVIDIA GPU (tests/ptx/gen.sh); the cases are
marked hand-written so gen_cases.py leaves them alone.
"""
import random, struct, os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
WARPS = 8

def f2b(x): return struct.unpack("<I", struct.pack("<f", x))[0]
def d2b(x): return struct.unpack("<Q", struct.pack("<d", x))[0]

def f16_bits(rng, fam):
    s = rng.getrandbits(1) << 15
    if fam == "rand":
        e = rng.randint(-3, 3) + 15
        return s | e << 10 | rng.getrandbits(10)
    if fam in ("wide", "probe"):
        e = rng.randint(0, 30)
        return s | e << 10 | rng.getrandbits(10)
    r = rng.random()
    if r < 0.15: return s
    if r < 0.25: return s | 0x7c00
    if r < 0.30: return s | 0x7c00 | (rng.getrandbits(10) | 1)
    if r < 0.50: return s | rng.getrandbits(10)
    if r < 0.65: return s | 0x7bff
    return s | rng.randint(1, 30) << 10 | rng.getrandbits(10)

def bf16_bits(rng, fam):
    s = rng.getrandbits(1) << 15
    if fam == "rand":
        return s | (rng.randint(-3, 3) + 127) << 7 | rng.getrandbits(7)
    if fam in ("wide", "probe"):
        return s | rng.randint(60, 190) << 7 | rng.getrandbits(7)
    r = rng.random()
    if r < 0.15: return s
    if r < 0.25: return s | 0x7f80
    if r < 0.30: return s | 0x7f80 | (rng.getrandbits(7) | 1)
    if r < 0.50: return s | rng.getrandbits(7)
    if r < 0.65: return s | 0x7f7f
    return s | rng.randint(1, 254) << 7 | rng.getrandbits(7)

def f32_bits(rng, fam, lo=-3, hi=3):
    s = rng.getrandbits(1) << 31
    if fam == "rand":
        return s | (rng.randint(lo, hi) + 127) << 23 | rng.getrandbits(23)
    if fam in ("wide", "probe"):
        return s | rng.randint(70, 180) << 23 | rng.getrandbits(23)
    r = rng.random()
    if r < 0.15: return s
    if r < 0.25: return s | 0x7f800000
    if r < 0.30: return s | 0x7fc00000 | rng.getrandbits(22)
    if r < 0.50: return s | rng.getrandbits(23)
    if r < 0.65: return s | 0x7f7fffff
    return s | rng.randint(1, 254) << 23 | rng.getrandbits(23)

def f64_bits(rng, fam):
    s = rng.getrandbits(1) << 63
    if fam == "rand":
        return s | (rng.randint(-3, 3) + 1023) << 52 | rng.getrandbits(52)
    if fam in ("wide", "probe"):
        return s | rng.randint(900, 1150) << 52 | rng.getrandbits(52)
    r = rng.random()
    if r < 0.15: return s
    if r < 0.25: return s | 0x7ff << 52
    if r < 0.30: return s | 0x7ff8 << 48 | rng.getrandbits(48)
    if r < 0.50: return s | rng.getrandbits(52)
    if r < 0.65: return s | 0x7fefffffffffffff
    return s | rng.randint(1, 2046) << 52 | rng.getrandbits(52)

# A probe row: K terms of a 16-bit format (exponent field width ew, bias,
# mantissa bits mb) meant to sit on alignment/rounding boundaries.
def probe_row(rng, K, ew, mb):
    bias = (1 << (ew - 1)) - 1
    emax = (1 << ew) - 2
    kind = rng.randint(0, 4)
    top = rng.randint(bias - 2, min(emax, bias + 8))
    def val(e, m=None, s=None):
        e = max(1, min(emax, e))
        return (rng.getrandbits(1) if s is None else s) << (ew + mb) | e << mb | (rng.getrandbits(mb) if m is None else m)
    row = []
    if kind == 0:    # one large term, the rest 10..30 binades below, same sign
        s = rng.getrandbits(1)
        row = [val(top, s=s)] + [val(top - rng.randint(10, 30), s=s) for _ in range(K - 1)]
    elif kind == 1:  # exact cancellation of the large terms, small ones left
        x = val(top)
        row = [x, x ^ (1 << (ew + mb))] + [val(top - rng.randint(12, 28)) for _ in range(K - 2)]
    elif kind == 2:  # equal tiny terms
        t = val(top - rng.randint(18, 26), m=rng.getrandbits(mb) | 1, s=0)
        row = [t] * K
    elif kind == 3:  # alternating signs, graded exponents
        row = [val(top - k * rng.randint(1, 3), s=k & 1) for k in range(K)]
    else:            # random over a 40-binade window
        row = [val(top - rng.randint(0, 40)) for _ in range(K)]
    rng.shuffle(row)
    return row

# Forms: name, mma spelling, M, N, K, element formats of A/B/C, fragment
# word maps: a list per fragment of (g stride, t stride, offset) in
# elements of the register width (32 bits, or 64 for f64).
F16K16 = dict(A=[(8, 1, 0), (8, 1, 64), (8, 1, 4), (8, 1, 68)], B=[(8, 1, 0), (8, 1, 4)],
              C=[(8, 2, 0), (8, 2, 1), (8, 2, 64), (8, 2, 65)])
F16K8 = dict(A=[(4, 1, 0), (4, 1, 32)], B=[(4, 1, 0)], C=F16K16["C"])
TF32K8 = dict(A=[(8, 1, 0), (8, 1, 64), (8, 1, 4), (8, 1, 68)], B=[(8, 1, 0), (8, 1, 4)], C=F16K16["C"])
TF32K4 = dict(A=[(4, 1, 0), (4, 1, 32)], B=[(4, 1, 0)], C=F16K16["C"])
F64K4 = dict(A=[(4, 1, 0)], B=[(4, 1, 0)], C=[(8, 2, 0), (8, 2, 1)])
I8K32 = dict(A=[(8, 1, 0), (8, 1, 64), (8, 1, 4), (8, 1, 68)], B=[(8, 1, 0), (8, 1, 4)], C=F16K16["C"])
I8K16 = dict(A=[(4, 1, 0), (4, 1, 32)], B=[(4, 1, 0)], C=F16K16["C"])
I8M8 = dict(A=[(4, 1, 0)], B=[(4, 1, 0)], C=F64K4["C"])   # m8n8: one word a row, D row g
H16C = dict(A=F16K16["A"], B=F16K16["B"], C=[(4, 1, 0), (4, 1, 32)])

FORMS = {
    "f32_f16_m16n8k16": ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80", 16, 8, 16, "f16", "f32", F16K16),
    "f32_f16_m16n8k8": ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "sm_75", 16, 8, 8, "f16", "f32", F16K8),
    "f32_bf16_m16n8k16": ("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_80", 16, 8, 16, "bf16", "f32", F16K16),
    "f32_bf16_m16n8k8": ("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", "sm_80", 16, 8, 8, "bf16", "f32", F16K8),
    "f32_tf32_m16n8k8": ("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "sm_80", 16, 8, 8, "tf32", "f32", TF32K8),
    "f32_tf32_m16n8k4": ("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", "sm_80", 16, 8, 4, "tf32", "f32", TF32K4),
    "f16_f16_m16n8k16": ("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "sm_80", 16, 8, 16, "f16", "f16", dict(H16C)),
    "f64_m8n8k4": ("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "sm_80", 8, 8, 4, "f64", "f64", F64K4),
    "s32_s8_m16n8k32": ("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "sm_80", 16, 8, 32, "s8", "s32", I8K32),
    "s32_u8_s8_m16n8k16": ("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32", "sm_80", 16, 8, 16, "u8s8", "s32", I8K16),
    "s32_s8_satfinite_m16n8k32": ("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", "sm_80", 16, 8, 32, "s8", "s32", I8K32),
    # the m8n8 integer shapes and the sub-byte / binary forms: the same
    # word maps (a word of 4 s8, 8 s4/u4 or 32 b1 elements)
    "s32_s8_m8n8k16": ("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", "sm_75", 8, 8, 16, "s8", "s32", I8M8),
    "s32_u4_m8n8k32": ("mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32", "sm_75", 8, 8, 32, "u4", "s32", I8M8),
    "s32_u4_s4_m16n8k32": ("mma.sync.aligned.m16n8k32.row.col.s32.u4.s4.s32", "sm_80", 16, 8, 32, "u4s4", "s32", I8K16),
    "s32_s4_satfinite_m16n8k64": ("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32", "sm_80", 16, 8, 64, "s4", "s32", I8K32),
    "s32_b1_and_m8n8k128": ("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc", "sm_80", 8, 8, 128, "b1", "s32", I8M8),
    "s32_b1_xor_m16n8k128": ("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", "sm_80", 16, 8, 128, "b1", "s32", I8K16),
    "s32_b1_xor_m16n8k256": ("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", "sm_80", 16, 8, 256, "b1", "s32", I8K32),
}

EBITS = {"f16": 16, "bf16": 16, "tf32": 32, "f64": 64, "s8": 8, "u8s8": 8, "s4": 4, "u4": 4, "u4s4": 4, "b1": 1}

def elems(rng, fmt, n, fam):
    """n input elements of fmt as a list of 32-bit (or 64-bit) words, packed."""
    if fmt in ("f16", "bf16"):
        g = f16_bits if fmt == "f16" else bf16_bits
        h = [g(rng, fam) for _ in range(n)]
        return [h[i] | h[i + 1] << 16 for i in range(0, n, 2)]
    if fmt == "tf32":
        return [f32_bits(rng, fam) for _ in range(n)]
    if fmt == "f64":
        return [f64_bits(rng, fam) for _ in range(n)]
    if fmt in ("s8", "u8s8"):
        b = [rng.getrandbits(8) for _ in range(n)]
        if fam == "special":
            b = [rng.choice([0x7f, 0x80, 0xff, 0x00, 0x01]) for _ in range(n)]
        return [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24 for i in range(0, n, 4)]
    if fmt in ("s4", "u4", "u4s4", "b1"):
        if fam == "special" and fmt != "b1":   # nibbles at the ends of the range
            return [sum(rng.choice([0x7, 0x8, 0xf, 0x0, 0x1]) << (4 * i) for i in range(8)) for _ in range(n // 8)]
        return [rng.getrandbits(32) for _ in range(n * EBITS[fmt] // 32)]
    raise ValueError(fmt)

def acc_elems(rng, fmt, n, fam):
    if fmt == "f32":
        return [f32_bits(rng, fam, -3, 3) if rng.random() < 0.9 else 0 for _ in range(n)]
    if fmt == "f16":
        h = [f16_bits(rng, fam) for _ in range(n)]
        return [h[i] | h[i + 1] << 16 for i in range(0, n, 2)]
    if fmt == "f64":
        return [f64_bits(rng, fam) for _ in range(n)]
    if fmt == "s32":
        if fam == "special":
            return [rng.choice([0x7fffffff, 0x80000000, 0x7fff0000, 0x80010000, 0]) for _ in range(n)]
        return [rng.getrandbits(32) for _ in range(n)]
    raise ValueError(fmt)

def probe_ab(rng, fmt, M, N, K):
    """A rows of probe terms, B = +-1 (column-major)."""
    ew, mb = (5, 10) if fmt == "f16" else (8, 7)
    one = 0x3c00 if fmt == "f16" else 0x3f80
    A = []
    for r in range(M):
        A += probe_row(rng, K, ew, mb)
    B = [one | rng.getrandbits(1) << 15 for _ in range(N * K)]
    pack = lambda h: [h[i] | h[i + 1] << 16 for i in range(0, len(h), 2)]
    return pack(A), pack(B)

def write_keeping_expect(fn, head, body):
    """Writes a case, keeping the expected lines of an unchanged one."""
    text = "\n".join(head + body)
    old = open(fn).read() if os.path.exists(fn) else ""
    exp = [l for l in old.splitlines() if l.startswith("// expect:")]
    if exp and [l for l in old.splitlines() if not l.startswith("// expect:")] == text.splitlines():
        text = "\n".join(head + exp + body)
    open(fn, "w").write(text)

def write_case(name, fam, seed):
    spell, target, M, N, K, fin, facc, maps = FORMS[name]
    rng = random.Random(seed)
    wide64 = fin == "f64"
    words = []   # 32-bit input words
    for w in range(WARPS):
        if fam == "probe":
            A, B = probe_ab(rng, fin, M, N, K)
        else:
            A, B = elems(rng, fin, M * K, fam), elems(rng, fin, K * N, fam)
        C = acc_elems(rng, facc, M * N, fam)
        if fam == "probe" and facc == "f32":   # C near the top of the row's terms
            C = [f32_bits(rng, "rand", -2, 6) if rng.random() < 0.8 else 0 for _ in range(M * N)]
        for v in A + B + C:
            if wide64:
                words += [v & 0xffffffff, v >> 32]
            else:
                words.append(v)
    per_test = len(words) // WARPS
    unit = 2 if wide64 else 1          # 32-bit words per register
    a_words = M * K * EBITS[fin] // 32
    b_words = K * N * EBITS[fin] // 32
    c_words = M * N * {"f32": 32, "f16": 16, "f64": 64, "s32": 32}[facc] // 32
    assert a_words + b_words + c_words == per_test
    out_words = c_words * WARPS
    rt = "b64" if wide64 else "b32"
    ab_t = "f64" if wide64 else "b32"                     # mma wants typed registers
    cd_t = {"f32": "f32", "f64": "f64", "s32": "s32", "f16": "b32"}[facc]
    ra, rb, rc = len(maps["A"]), len(maps["B"]), len(maps["C"])
    lines = [
        "// hand-written (tests/ptx/gen_mma.py %s %s %d)" % (name, fam, seed),
        "// block: %d" % (32 * WARPS),
    ]
    for i in range(0, len(words), 8):
        lines.append("// in: u32 " + " ".join("0x%x" % x for x in words[i:i + 8]))
    lines.append("// out: u32 %d" % out_words)
    lines.append("// %s: %s data; warp w multiplies test w (A %dx%d row-major, B %dx%d column-major," % (spell, fam, M, K, K, N))
    lines.append("// C and D %dx%d row-major; fragments by PTX ISA 9.0 9.7.14.5)" % (M, N))
    body = [".version 8.0", ".target %s" % target, ".address_size 64", "",
            ".visible .entry test(.param .u64 in, .param .u64 out)", "{",
            "   .reg .b32 %r<16>;", "   .reg .b64 %rd<16>;",
            "   .reg .%s %%a<4>;" % ab_t, "   .reg .%s %%b<2>;" % ab_t, "   .reg .%s %%c<4>;" % cd_t, "   .reg .%s %%d<4>;" % cd_t,
            "   ld.param.u64 %rd1, [in];", "   ld.param.u64 %rd2, [out];",
            "   cvta.to.global.u64 %rd1, %rd1;", "   cvta.to.global.u64 %rd2, %rd2;",
            "   mov.u32 %r1, %tid.x;", "   shr.u32 %r2, %r1, 5;", "   and.b32 %r3, %r1, 31;",
            "   shr.u32 %r4, %r3, 2;", "   and.b32 %r5, %r3, 3;",
            "   mul.wide.u32 %%rd3, %%r2, %d;" % (per_test * 4),
            "   add.s64 %rd4, %rd1, %rd3;",
            "   mul.wide.u32 %%rd5, %%r2, %d;" % (c_words * 4),
            "   add.s64 %rd6, %rd2, %rd5;"]
    esz = 8 if wide64 else 4
    def frag(regs, base_words, mp, load, reg):
        out = []
        lt = (ab_t if reg in "ab" else cd_t)
        for j, (gs, ts, off) in enumerate(mp):
            out += ["   mul.lo.u32 %%r6, %%r4, %d;" % gs,
                    "   mad.lo.u32 %%r6, %%r5, %d, %%r6;" % ts,
                    "   add.u32 %%r6, %%r6, %d;" % (off + base_words // unit),
                    "   mul.wide.u32 %%rd7, %%r6, %d;" % esz]
            if load:
                out += ["   add.s64 %rd8, %rd4, %rd7;", "   ld.global.%s %%%s%d, [%%rd8];" % (lt, reg, j)]
            else:
                out += ["   add.s64 %rd8, %rd6, %rd7;", "   st.global.%s [%%rd8], %%%s%d;" % (lt, reg, j)]
        return out
    body += frag(ra, 0, maps["A"], True, "a")
    body += frag(rb, a_words, maps["B"], True, "b")
    body += frag(rc, a_words + b_words, maps["C"], True, "c")
    lst = lambda r, n: "{" + ", ".join("%%%s%d" % (r, k) for k in range(n)) + "}"
    body.append("   %s %s, %s, %s, %s;" % (spell, lst("d", rc), lst("a", ra), lst("b", rb), lst("c", rc)))
    body += frag(rc, 0, maps["C"], False, "d")
    body += ["   ret;", "}", ""]
    write_keeping_expect(os.path.join(OUT, "mma_%s_%s.ptx" % (name, fam)), lines, body)

CASES = [
    ("f32_f16_m16n8k16", "rand"), ("f32_f16_m16n8k16", "wide"), ("f32_f16_m16n8k16", "probe"),
    ("f32_f16_m16n8k16", "special"),
    ("f32_f16_m16n8k8", "rand"), ("f32_f16_m16n8k8", "wide"), ("f32_f16_m16n8k8", "probe"),
    ("f32_bf16_m16n8k16", "rand"), ("f32_bf16_m16n8k16", "wide"), ("f32_bf16_m16n8k16", "probe"),
    ("f32_bf16_m16n8k16", "special"),
    ("f32_bf16_m16n8k8", "wide"),
    ("f32_tf32_m16n8k8", "rand"), ("f32_tf32_m16n8k8", "wide"), ("f32_tf32_m16n8k8", "special"),
    ("f32_tf32_m16n8k4", "wide"),
    ("f16_f16_m16n8k16", "rand"), ("f16_f16_m16n8k16", "wide"), ("f16_f16_m16n8k16", "special"),
    ("f64_m8n8k4", "rand"), ("f64_m8n8k4", "wide"), ("f64_m8n8k4", "special"),
    ("s32_s8_m16n8k32", "rand"), ("s32_u8_s8_m16n8k16", "rand"), ("s32_s8_satfinite_m16n8k32", "special"),
]
# appended so that the seeds of the cases above stay as they were
CASES += [
    ("s32_s8_m8n8k16", "rand"), ("s32_u4_m8n8k32", "rand"), ("s32_u4_s4_m16n8k32", "rand"),
    ("s32_s4_satfinite_m16n8k64", "special"), ("s32_b1_and_m8n8k128", "rand"), ("s32_b1_xor_m16n8k128", "rand"),
    ("s32_b1_xor_m16n8k256", "rand"),
]

def write_wmma(fam, seed):
    """wmma.load/mma/store m16n16k16, f16 in, f32 accumulate (sm_70)."""
    rng = random.Random(seed)
    words = []
    for w in range(WARPS):
        words += elems(rng, "f16", 256, fam) + elems(rng, "f16", 256, fam) + acc_elems(rng, "f32", 256, fam)
    per_test = len(words) // WARPS
    lines = ["// hand-written (tests/ptx/gen_mma.py wmma %s %d)" % (fam, seed), "// block: %d" % (32 * WARPS)]
    for i in range(0, len(words), 8):
        lines.append("// in: u32 " + " ".join("0x%x" % x for x in words[i:i + 8]))
    lines.append("// out: u32 %d" % (256 * WARPS))
    lines.append("// wmma m16n16k16 (f16 in, f32 accumulate): %s data; warp w loads A (row-major), B" % fam)
    lines.append("// (column-major) and C (row-major) of test w, multiplies, stores D (row-major)")
    regs = lambda r, n: "{" + ", ".join("%%%s%d" % (r, k) for k in range(n)) + "}"
    body = [".version 8.0", ".target sm_70", ".address_size 64", "",
            ".visible .entry test(.param .u64 in, .param .u64 out)", "{",
            "   .reg .b32 %r<8>;", "   .reg .b64 %rd<16>;", "   .reg .b32 %a<8>;", "   .reg .b32 %b<8>;",
            "   .reg .f32 %c<8>;", "   .reg .f32 %d<8>;",
            "   ld.param.u64 %rd1, [in];", "   ld.param.u64 %rd2, [out];",
            "   cvta.to.global.u64 %rd1, %rd1;", "   cvta.to.global.u64 %rd2, %rd2;",
            "   mov.u32 %r1, %tid.x;", "   shr.u32 %r2, %r1, 5;",
            "   mul.wide.u32 %%rd3, %%r2, %d;" % (per_test * 4), "   add.s64 %rd4, %rd1, %rd3;",
            "   mul.wide.u32 %rd5, %r2, 1024;", "   add.s64 %rd6, %rd2, %rd5;",
            "   wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%rd4], 16;" % regs("a", 8),
            "   wmma.load.b.sync.aligned.col.m16n16k16.global.f16 %s, [%%rd4+512], 16;" % regs("b", 8),
            "   wmma.load.c.sync.aligned.row.m16n16k16.global.f32 %s, [%%rd4+1024], 16;" % regs("c", 8),
            "   wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 %s, %s, %s, %s;" % (regs("d", 8), regs("a", 8), regs("b", 8), regs("c", 8)),
            "   wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%%rd6], %s, 16;" % regs("d", 8),
            "   ret;", "}", ""]
    write_keeping_expect(os.path.join(OUT, "wmma_f32_f16_m16n16k16_%s.ptx" % fam), lines, body)

if __name__ == "__main__":
    for k, (name, fam) in enumerate(CASES):
        write_case(name, fam, 1000 + k)
    write_wmma("rand", 2000)
    write_wmma("wide", 2001)
