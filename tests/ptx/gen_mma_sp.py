#!/usr/bin/env python3
"""tests/ptx/gen_mma_sp.py — writes the sparse tensor-core cases tests/ptx/cases/mmasp_*.ptx.

mma.sp (PTX ISA 9.0 §9.7.14.6) multiplies a 2:4 (tf32: 1:2) structured-sparse
A, given as its nonzero half plus metadata, by a dense B.  Unlike gen_mma.py's
cases these are written per lane, not per matrix: lane l of warp w loads its
own registers a.., b.., c.., the metadata word e (in that order, one 32-bit
word each) from test w's block and stores its d registers.  The expected
lines therefore record what each lane of an H200 holds afterwards, whatever
the fragment and metadata layouts are; the layouts metalcuda implements are
checked by the case, not assumed by it.

Two kinds of data:
  onehot   one compressed element of A is 1 in each of the 8 row groups
           (lanes with the same threadID_in_group), all else 0; B's element
           (k, n) is bit n of k for n < 7 and 1 for n = 7, C is 0: each row
           of D spells the column k the element went to, so the case pins
           down the fragment layout of A and the metadata's fields
  rand / wide / special   as gen_mma.py's families, with random valid
           metadata in every lane (ordered index pairs)
B, C and D use the dense mma.sync fragment layouts of the same K (PTX ISA
9.0 §9.7.14.5); the generator needs them only to place the one-hot data.
The expected lines come from an NVIDIA GPU (tests/ptx/gen.sh); the cases
are marked hand-written so gen_cases.py leaves them alone.
"""
import random, struct, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_mma as G

OUT = G.OUT
WARPS = 8

# name: (spelling without the selector, target, K, element format, acc
# format, A registers, B registers, C/D registers, selector)
FORMS = {
    "f32_f16_m16n8k16": ("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, "f16", "f32", 2, 2, 4),
    "f32_f16_m16n8k32": ("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 32, "f16", "f32", 4, 4, 4),
    "f16_f16_m16n8k16": ("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 16, "f16", "f16", 2, 2, 2),
    "f32_bf16_m16n8k16": ("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, "bf16", "f32", 2, 2, 4),
    "f32_bf16_m16n8k32": ("mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32", 32, "bf16", "f32", 4, 4, 4),
    "f32_tf32_m16n8k8": ("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 8, "tf32", "f32", 2, 2, 4),
    "f32_tf32_m16n8k16": ("mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", 16, "tf32", "f32", 4, 4, 4),
    "s32_s8_m16n8k32": ("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 32, "s8", "s32", 2, 2, 4),
    "s32_s8_m16n8k64": ("mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32", 64, "s8", "s32", 4, 4, 4),
    "s32_u8_s8_satfinite_m16n8k32": ("mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32", 32, "u8s8", "s32", 2, 2, 4),
    "s32_s4_m16n8k64": ("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", 64, "s4", "s32", 2, 2, 4),
    "s32_u4_m16n8k128": ("mma.sp.sync.aligned.m16n8k128.row.col.s32.u4.u4.s32", 128, "u4", "s32", 4, 4, 4),
    "f32_f16_m16n8k16_ordered": ("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, "f16", "f32", 2, 2, 4),
    # Volta's quad-pair m8n8k4 (dense, no metadata: the selector is None):
    # per-lane cases for the same reason, its layouts being the odd ones
    "f32_f16_m8n8k4_row_col": ("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", 4, "f16", "f32", 2, 2, 8),
    "f32_f16_m8n8k4_col_row": ("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32", 4, "f16", "f32", 2, 2, 8),
    "f16_f16_m8n8k4_row_row": ("mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16", 4, "f16", "f16", 2, 2, 4),
    "f32_f16_f16_m8n8k4_col_col": ("mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f16", 4, "f16", "f16", 2, 2, 4),
}

EB = {"f16": 16, "bf16": 16, "tf32": 32, "s8": 8, "u8s8": 8, "s4": 4, "u4": 4}
ONE = {"f16": 0x3c00, "bf16": 0x3f80, "tf32": 0x3f800000, "s8": 1, "u8s8": 1, "s4": 1, "u4": 1}

def b_row(K, eb, lane, j, q):
    """The k of element q of B register j in lane (dense layouts of §9.7.14.5:
    a register holds 32/eb consecutive k of column groupID; tf32 registers
    step by 4 in k, the others by 8 elements of 16 bits' worth)."""
    tig = lane % 4
    per = 32 // eb
    if eb == 32:
        return tig + 4 * j
    return tig * per + j * 4 * per + q

def b_regs(K, eb, fmt, lane, val):
    """B's registers for lane, element (k, n) = val(k, n) (column n = groupID)."""
    n = lane // 4
    per = 32 // eb
    regs = []
    for j in range(K // (4 * per)):
        w = 0
        for q in range(per):
            k = b_row(K, eb, lane, j, q)
            w |= (val(k, n) & ((1 << eb) - 1)) << (q * eb)
        regs.append(w)
    return regs

def meta_word(rng, fmt):
    if fmt == "tf32":
        nib = [0x4, 0xe]
    else:
        nib = [0x4, 0x8, 0xc, 0x9, 0xd, 0xe]   # idx0 < idx1
    return sum(rng.choice(nib) << (4 * i) for i in range(8))

def enc(fmt, v):
    """The element encoding of small integer v (0 or 1 for B's bits)."""
    if v == 0:
        return 0
    return ONE[fmt]

def write(name, fam, sel, seed):
    spell, K, fin, facc, ra, rb, rc = FORMS[name]
    eb = EB[fin]
    per = 32 // eb
    rng = random.Random(seed)
    tests = []   # per test: 32 lanes of [a.., b.., c.., e]
    if fam == "onehot":
        nelem = ra * per    # compressed elements of A per lane
        for tig in range(4):
            for i in range(nelem):
                lanes = []
                for lane in range(32):
                    a = [0] * ra
                    if lane % 4 == tig:
                        a[i // per] = ONE[fin] << ((i % per) * eb)
                    bval = lambda k, n: enc(fin, 1 if n == 7 else (k >> n) & 1)
                    b = b_regs(K, eb, fin, lane, bval)
                    assert len(b) == rb, (name, len(b), rb)
                    lanes.append(a + b + [0] * rc + [meta_word(rng, fin)])
                tests.append(lanes)
    else:
        for t in range(WARPS):
            lanes = []
            for lane in range(32):
                a = G.elems(rng, fin, ra * per, fam)
                b = G.elems(rng, fin, rb * per, fam)
                c = G.acc_elems(rng, facc, rc * (2 if facc == "f16" else 1), fam)
                lanes.append(a + b + c + [meta_word(rng, fin)])
                if sel is None:
                    lanes[-1].pop()
            tests.append(lanes)
    nt = len(tests)
    per_lane = ra + rb + rc + (0 if sel is None else 1)
    words = [w for lanes in tests for l in lanes for w in l]
    grid = (nt + WARPS - 1) // WARPS
    while len(tests) < grid * WARPS:   # pad to whole blocks
        tests.append(tests[-1])
        words += words[-32 * per_lane:]
    ab_t = "b32"
    cd_t = {"f32": "f32", "s32": "s32", "f16": "b32"}[facc]
    dense = sel is None
    # D's type is the spelling's first type: an f32 D from an f16 C (m8n8k4)
    # has 8 registers where C has 4
    d_f32_c_f16 = spell.split(".")[-4] == "f32" and facc == "f16"
    rd = 8 if d_f32_c_f16 else rc
    dt = "f32" if d_f32_c_f16 else cd_t
    lines = ["// hand-written (tests/ptx/gen_mma_sp.py %s %s %s %d)" % (name, fam, sel, seed),
             "// block: %d" % (32 * WARPS), "// grid: %d" % grid]
    for i in range(0, len(words), 8):
        lines.append("// in: u32 " + " ".join("0x%x" % x for x in words[i:i + 8]))
    lines.append("// out: u32 %d" % (grid * WARPS * 32 * rd))
    if dense:
        lines.append("// %s: %s data; lane l of warp w loads its a, b, c registers from test w's" % (spell, fam))
        lines.append("// block and stores its d registers (per-lane, layout-free)")
    else:
        lines.append("// %s, selector %d: %s data; lane l of warp w loads its a, b, c registers and" % (spell, sel, fam))
        lines.append("// metadata from test w's block and stores its d registers (per-lane, layout-free)")
    target = "sm_80"
    body = [".version 8.5" if "ordered" in spell else ".version 8.0", ".target %s" % target, ".address_size 64", "",
            ".visible .entry test(.param .u64 in, .param .u64 out)", "{",
            "   .reg .b32 %r<16>;", "   .reg .b64 %rd<16>;",
            "   .reg .%s %%a<4>;" % ab_t, "   .reg .%s %%b<4>;" % ab_t,
            "   .reg .%s %%c<8>;" % cd_t if rc == 8 else "   .reg .%s %%c<4>;" % cd_t,
            "   .reg .%s %%d<8>;" % dt, "   .reg .b32 %e;",
            "   ld.param.u64 %rd1, [in];", "   ld.param.u64 %rd2, [out];",
            "   cvta.to.global.u64 %rd1, %rd1;", "   cvta.to.global.u64 %rd2, %rd2;",
            "   mov.u32 %r1, %tid.x;", "   mov.u32 %r2, %ctaid.x;", "   mad.lo.u32 %r3, %r2, 256, %r1;",
            "   mul.wide.u32 %%rd3, %%r3, %d;" % (per_lane * 4), "   add.s64 %rd4, %rd1, %rd3;",
            "   mul.wide.u32 %%rd5, %%r3, %d;" % (rd * 4), "   add.s64 %rd6, %rd2, %rd5;"]
    off = 0
    for reg, n, t in (("a", ra, ab_t), ("b", rb, ab_t), ("c", rc, cd_t)):
        for k in range(n):
            body.append("   ld.global.%s %%%s%d, [%%rd4+%d];" % (t, reg, k, off))
            off += 4
    if sel is not None:
        body.append("   ld.global.b32 %%e, [%%rd4+%d];" % off)
    lst = lambda r, n: "{" + ", ".join("%%%s%d" % (r, k) for k in range(n)) + "}"
    if dense:
        body.append("   %s %s, %s, %s, %s;" % (spell, lst("d", rd), lst("a", ra), lst("b", rb), lst("c", rc)))
    else:
        body.append("   %s %s, %s, %s, %s, %%e, %d;" % (spell, lst("d", rc), lst("a", ra), lst("b", rb), lst("c", rc), sel))
    for k in range(rd):
        body.append("   st.global.%s [%%rd6+%d], %%d%d;" % (dt, 4 * k, k))
    body += ["   ret;", "}", ""]
    fn = os.path.join(OUT, "mma_%s_%s_lanes.ptx" % (name, fam) if dense else
                      "mmasp_%s_%s_sel%d.ptx" % (name, fam, sel))
    G.write_keeping_expect(fn, lines, body)

CASES = [
    ("f32_f16_m16n8k16", "onehot", 0), ("f32_f16_m16n8k16", "onehot", 1), ("f32_f16_m16n8k16", "onehot", 2),
    ("f32_f16_m16n8k16", "onehot", 3),
    ("f32_f16_m16n8k32", "onehot", 0), ("f32_f16_m16n8k32", "onehot", 1),
    ("f32_tf32_m16n8k8", "onehot", 0), ("f32_tf32_m16n8k8", "onehot", 1),
    ("f32_tf32_m16n8k16", "onehot", 0), ("f32_tf32_m16n8k16", "onehot", 1),
    ("s32_s8_m16n8k32", "onehot", 0), ("s32_s8_m16n8k32", "onehot", 1),
    ("s32_s8_m16n8k64", "onehot", 0),
    ("s32_s4_m16n8k64", "onehot", 0), ("s32_s4_m16n8k64", "onehot", 1),
    ("s32_u4_m16n8k128", "onehot", 0),
    ("f32_f16_m16n8k16", "rand", 0), ("f32_f16_m16n8k16", "wide", 0), ("f32_f16_m16n8k16", "special", 1),
    ("f32_f16_m16n8k32", "wide", 0), ("f32_f16_m16n8k32", "special", 1),
    ("f16_f16_m16n8k16", "rand", 0), ("f16_f16_m16n8k16", "special", 0),
    ("f32_bf16_m16n8k16", "wide", 0), ("f32_bf16_m16n8k32", "wide", 1), ("f32_bf16_m16n8k32", "special", 0),
    ("f32_tf32_m16n8k8", "wide", 0), ("f32_tf32_m16n8k8", "special", 0),
    ("f32_tf32_m16n8k16", "wide", 0), ("f32_tf32_m16n8k16", "special", 1),
    ("s32_s8_m16n8k32", "rand", 0), ("s32_s8_m16n8k64", "rand", 0),
    ("s32_u8_s8_satfinite_m16n8k32", "special", 1),
    ("s32_s4_m16n8k64", "rand", 1), ("s32_u4_m16n8k128", "rand", 0),
    ("f32_f16_m16n8k16_ordered", "wide", 0),
]
CASES += [
    ("f32_f16_m8n8k4_row_col", "rand", None), ("f32_f16_m8n8k4_row_col", "wide", None),
    ("f32_f16_m8n8k4_row_col", "special", None), ("f32_f16_m8n8k4_col_row", "wide", None),
    ("f16_f16_m8n8k4_row_row", "rand", None), ("f16_f16_m8n8k4_row_row", "special", None),
    ("f32_f16_f16_m8n8k4_col_col", "wide", None),
]

if __name__ == "__main__":
    for k, (name, fam, sel) in enumerate(CASES):
        write(name, fam, sel, 3000 + k)
