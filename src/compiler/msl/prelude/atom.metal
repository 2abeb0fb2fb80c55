// metalcuda MSL prelude: atomics.
// Metal's atomics are relaxed, 32-bit, and lack PTX's inc/dec wrap, a
// strong compare-and-swap and an add.f32 with PTX's subnormal rules; those
// are compare-exchange loops here.  Each loop retries only after another
// thread changed the word, so among threads racing on one address at least
// one succeeds per round (lock-free: no livelock inside a SIMD-group).
// Values are uint bit containers; s32 min/max go through atomic_int.
// Metal has no 64-bit or 16-bit read-modify-write: 16-bit operations are
// the same compare-exchange loops on the enclosing aligned 32-bit word, and
// 64-bit ones take a lock of a table in device memory (below).

// The operation codes of the helpers that take one (emit_atom.c has the
// same numbers).  The type decides what fadd means: f32, f64, f16 (one
// half, or each half of an f16x2 word), bf16 likewise.
#define MC_AOP_ADD 0u
#define MC_AOP_MINU 1u
#define MC_AOP_MAXU 2u
#define MC_AOP_INC 3u
#define MC_AOP_DEC 4u
#define MC_AOP_AND 5u
#define MC_AOP_OR 6u
#define MC_AOP_XOR 7u
#define MC_AOP_EXCH 8u
#define MC_AOP_CAS 9u
#define MC_AOP_MINS 10u
#define MC_AOP_MAXS 11u
#define MC_AOP_FADD 12u
#define MC_AOP_HADD 13u
#define MC_AOP_BFADD 14u
#define MC_AOP_LD 15u    // a 128-bit strong load (mc_atom128_*)
#define MC_AOP_ST 16u    // a 128-bit strong store
#define MC_AOP_MBAR 17u  // an mbarrier update (mc_mbar_val)

// PTX ISA 9.0 atom: inc(r, s) = r >= s ? 0 : r + 1;  dec(r, s) = (r == 0 || r > s) ? s : r - 1.
inline uint mc_inc_val(uint r, uint s) { return r >= s ? 0u : r + 1u; }
inline uint mc_dec_val(uint r, uint s) { return (r == 0u || r > s) ? s : r - 1u; }

// add.f32 rounds to nearest even; on global memory it flushes subnormal
// inputs and results to sign-preserving zero, on shared memory it does not
// (PTX ISA 9.0, atom).  NaN results are NVIDIA's canonical NaN.
inline uint mc_fadd_val(uint a, uint b, bool ftz)
{
    if (ftz) { a = mc_ftz(a); b = mc_ftz(b); }
    uint r = mc_canon(mc_u(mc_f(a) + mc_f(b)));
    return ftz ? mc_ftz(r) : r;
}

// add.noftz.{f16,bf16}: round to nearest even, subnormals kept (PTX ISA 9.0
// atom), the canonical NaN as every f16/bf16 operation.  The f16 sum is
// exact in float and rounded once.
inline ushort mc_hadd_val(ushort a, ushort b) { return mc_canon16(mc_f2h(mc_h2f(a) + mc_h2f(b))); }

// The new value of add.noftz on one f16 or bf16 half (the callers handle
// cas.b16, the only other 16-bit atomic of PTX).
inline ushort mc_atom16_val(ushort old, uint op, ushort v)
{
    return op == MC_AOP_HADD ? mc_hadd_val(old, v) : mc_add_bf16(old, v);
}

// The new value of a 32-bit operation.
inline uint mc_atom32_val(uint old, uint op, uint v, uint v2, bool ftz)
{
    switch (op) {
    case MC_AOP_ADD: return old + v;
    case MC_AOP_MINU: return min(old, v);
    case MC_AOP_MAXU: return max(old, v);
    case MC_AOP_INC: return mc_inc_val(old, v);
    case MC_AOP_DEC: return mc_dec_val(old, v);
    case MC_AOP_AND: return old & v;
    case MC_AOP_OR: return old | v;
    case MC_AOP_XOR: return old ^ v;
    case MC_AOP_EXCH: return v;
    case MC_AOP_CAS: return old == v ? v2 : old;
    case MC_AOP_MINS: return as_type<uint>(min(as_type<int>(old), as_type<int>(v)));
    case MC_AOP_MAXS: return as_type<uint>(max(as_type<int>(old), as_type<int>(v)));
    case MC_AOP_FADD: return mc_fadd_val(old, v, ftz);
    default:   // f16x2 / bf16x2: each half on its own
        return (uint)mc_atom16_val((ushort)old, op, (ushort)v) |
               ((uint)mc_atom16_val((ushort)(old >> 16), op, (ushort)(v >> 16)) << 16);
    }
}

// An mbarrier's 64-bit word (src/compiler/ir/build_async.c): pending
// arrivals in bits 0..20, expected arrivals in 21..41, the tx-count (two's
// complement, 21 bits) in 42..62, the current phase's parity in bit 63.
// v: arrivals (low 32 bits) and a signed tx-count delta (high 32), applied
// first; drop: how much arrive_drop takes from the expected count.  The
// phase completes when pending arrivals and tx-count are both zero: the
// parity flips and the next phase expects the expected count again.
inline ulong mc_mbar_val(ulong old, ulong v, ulong drop)
{
    const uint M = 0x1fffffu;
    uint pending = (uint)old & M, expected = (uint)(old >> 21) & M, tx = (uint)(old >> 42) & M;
    ulong phase = old >> 63;
    tx = (tx + (uint)(v >> 32)) & M;
    pending = (pending - (uint)v) & M;
    expected = (expected - (uint)drop) & M;
    if (pending == 0u && tx == 0u) {
        phase ^= 1ul;
        pending = expected;
    }
    return (ulong)pending | (ulong)expected << 21 | (ulong)tx << 42 | phase << 63;
}

// The new value of a 64-bit operation (add.f64 is the binary64 software
// addition of f64.metal, round to nearest even).
inline ulong mc_atom64_val(ulong old, uint op, ulong v, ulong v2)
{
    switch (op) {
    case MC_AOP_ADD: return old + v;
    case MC_AOP_MINU: return min(old, v);
    case MC_AOP_MAXU: return max(old, v);
    case MC_AOP_AND: return old & v;
    case MC_AOP_OR: return old | v;
    case MC_AOP_XOR: return old ^ v;
    case MC_AOP_EXCH: return v;
    case MC_AOP_CAS: return old == v ? v2 : old;
    case MC_AOP_MINS: return as_type<ulong>(min(as_type<long>(old), as_type<long>(v)));
    case MC_AOP_MAXS: return as_type<ulong>(max(as_type<long>(old), as_type<long>(v)));
    case MC_AOP_MBAR: return mc_mbar_val(old, v, v2);
    default: return mc_d_add(old, v, 0);   // MC_AOP_FADD
    }
}

// 64-bit atomics take a lock from a table of MC_ATOM_LOCKS words in device
// memory (mc_launch.atom_locks; the runtime zeroes it once per context:
// every holder releases its lock before it leaves the helper, so the table
// is all zero again after every kernel).  One table serves global and
// shared memory: a lock in device memory may guard threadgroup data, and a
// threadgroup table would have to be zeroed, behind a barrier, at the start
// of every kernel.  Shared addresses are hashed with the threadgroup's
// index, so groups rarely share a lock (sharing one only costs time).
// Must match MC_ATOM_LOCKS in src/compiler/compiler.h.
#define MC_ATOM_LOCKS 4096u
inline device atomic_uint *mc_atom_lock(constant mc_launch &L, ulong key)
{
    key ^= key >> 17;
    key *= 0x9e3779b97f4a7c15ul;
    uint k = (uint)(key >> 52) & (MC_ATOM_LOCKS - 1u);
    return reinterpret_cast<device atomic_uint *>(L.atom_locks) + k;
}
inline device atomic_uint *mc_atom_lock_g(constant mc_launch &L, ulong cuda_addr) { return mc_atom_lock(L, cuda_addr); }
inline device atomic_uint *mc_atom_lock_s(constant mc_launch &L, uint offset, uint3 ctaid, uint3 nctaid)
{
    uint group = ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z);
    return mc_atom_lock(L, MC_SHARED_WINDOW ^ ((ulong)group << 24) ^ (ulong)offset);
}

#define MC_ATOMICS(AS, SFX, FTZ)                                                              \
inline uint mc_atom_add_##SFX(AS atomic_uint *p, uint v) { return atomic_fetch_add_explicit(p, v, memory_order_relaxed); } \
inline uint mc_atom_and_##SFX(AS atomic_uint *p, uint v) { return atomic_fetch_and_explicit(p, v, memory_order_relaxed); } \
inline uint mc_atom_or_##SFX(AS atomic_uint *p, uint v) { return atomic_fetch_or_explicit(p, v, memory_order_relaxed); } \
inline uint mc_atom_xor_##SFX(AS atomic_uint *p, uint v) { return atomic_fetch_xor_explicit(p, v, memory_order_relaxed); } \
inline uint mc_atom_exch_##SFX(AS atomic_uint *p, uint v) { return atomic_exchange_explicit(p, v, memory_order_relaxed); } \
inline uint mc_atom_minu_##SFX(AS atomic_uint *p, uint v) { return atomic_fetch_min_explicit(p, v, memory_order_relaxed); } \
inline uint mc_atom_maxu_##SFX(AS atomic_uint *p, uint v) { return atomic_fetch_max_explicit(p, v, memory_order_relaxed); } \
inline uint mc_atom_mins_##SFX(AS atomic_uint *p, uint v)                                     \
{                                                                                             \
    return as_type<uint>(atomic_fetch_min_explicit(reinterpret_cast<AS atomic_int *>(p), as_type<int>(v), \
                                                   memory_order_relaxed));                   \
}                                                                                             \
inline uint mc_atom_maxs_##SFX(AS atomic_uint *p, uint v)                                     \
{                                                                                             \
    return as_type<uint>(atomic_fetch_max_explicit(reinterpret_cast<AS atomic_int *>(p), as_type<int>(v), \
                                                   memory_order_relaxed));                   \
}                                                                                             \
/* Strong CAS from the weak one: retry while it fails and the word still   */                 \
/* holds the expected value (a spurious failure); return what was there.  */                  \
inline uint mc_atom_cas_##SFX(AS atomic_uint *p, uint cmp, uint v)                            \
{                                                                                             \
    uint seen = cmp;                                                                          \
    while (!atomic_compare_exchange_weak_explicit(p, &seen, v, memory_order_relaxed, memory_order_relaxed) && \
           seen == cmp) {                                                                     \
    }                                                                                         \
    return seen;                                                                              \
}                                                                                             \
inline uint mc_atom_inc_##SFX(AS atomic_uint *p, uint s)                                      \
{                                                                                             \
    uint old = atomic_load_explicit(p, memory_order_relaxed);                                 \
    while (!atomic_compare_exchange_weak_explicit(p, &old, mc_inc_val(old, s), memory_order_relaxed, \
                                                  memory_order_relaxed)) {                    \
    }                                                                                         \
    return old;                                                                               \
}                                                                                             \
inline uint mc_atom_dec_##SFX(AS atomic_uint *p, uint s)                                      \
{                                                                                             \
    uint old = atomic_load_explicit(p, memory_order_relaxed);                                 \
    while (!atomic_compare_exchange_weak_explicit(p, &old, mc_dec_val(old, s), memory_order_relaxed, \
                                                  memory_order_relaxed)) {                    \
    }                                                                                         \
    return old;                                                                               \
}                                                                                             \
inline uint mc_atom_fadd_##SFX(AS atomic_uint *p, uint v)                                     \
{                                                                                             \
    uint old = atomic_load_explicit(p, memory_order_relaxed);                                 \
    while (!atomic_compare_exchange_weak_explicit(p, &old, mc_fadd_val(old, v, FTZ), memory_order_relaxed, \
                                                  memory_order_relaxed)) {                    \
    }                                                                                         \
    return old;                                                                               \
}                                                                                             \
/* add.noftz.f16x2 / .bf16x2: a compare-exchange loop on the word. */                         \
inline uint mc_atom_rmw32_##SFX(AS atomic_uint *p, uint op, uint v)                           \
{                                                                                             \
    uint old = atomic_load_explicit(p, memory_order_relaxed);                                 \
    while (!atomic_compare_exchange_weak_explicit(p, &old, mc_atom32_val(old, op, v, 0u, FTZ), \
                                                  memory_order_relaxed, memory_order_relaxed)) { \
    }                                                                                         \
    return old;                                                                               \
}                                                                                             \
/* cp.reduce.async.bulk: each 32-bit element of s reduced into d, one      */                 \
/* relaxed atomic each (src/compiler/ir/build_async.c).                    */                 \
inline void mc_cp_reduce32_##SFX(AS atomic_uint *d, MC_SMEM const uint *s, uint bytes, uint op) \
{                                                                                             \
    for (uint k = 0u; k < bytes / 4u; k++)                                                    \
        (void)mc_atom_rmw32_##SFX(d + k, op, s[k]);                                           \
}                                                                                             \
/* A 16-bit operation on the half at bit sh (0 or 16) of the aligned word  */                 \
/* p: a compare-exchange loop on the word, which leaves the other half as  */                 \
/* it finds it.  cas.b16 returns without writing when its half differs.    */                 \
inline ushort mc_atom16_##SFX(AS atomic_uint *p, uint sh, uint op, ushort v, ushort v2)       \
{                                                                                             \
    uint old = atomic_load_explicit(p, memory_order_relaxed);                                 \
    for (;;) {                                                                                \
        ushort h = (ushort)(old >> sh);                                                       \
        ushort nh = op == MC_AOP_CAS ? v2 : mc_atom16_val(h, op, v);                          \
        if (op == MC_AOP_CAS && h != v)                                                       \
            return h;                                                                         \
        uint nw = (old & ~(0xffffu << sh)) | ((uint)nh << sh);                                \
        if (atomic_compare_exchange_weak_explicit(p, &old, nw, memory_order_relaxed, memory_order_relaxed)) \
            return h;                                                                         \
    }                                                                                         \
}                                                                                             \
/* A 64-bit operation on the words p[0] (low) and p[1] (high) under the    */                 \
/* lock (the protocol is described below, before the instantiations).     */                 \
inline ulong mc_atom64_##SFX(AS atomic_uint *p, device atomic_uint *lock, uint op, ulong v, ulong v2) \
{                                                                                             \
    ulong old = 0ul;                                                                          \
    bool done = false;                                                                        \
    while (!done) {                                                                           \
        uint unlocked = 0u;                                                                   \
        if (atomic_compare_exchange_weak_explicit(lock, &unlocked, 1u, memory_order_relaxed,  \
                                                  memory_order_relaxed)) {                    \
            MC_ATOM64_FENCE();                                                                \
            old = (ulong)atomic_load_explicit(p, memory_order_relaxed) |                      \
                  ((ulong)atomic_load_explicit(p + 1, memory_order_relaxed) << 32);           \
            ulong nv = mc_atom64_val(old, op, v, v2);                                         \
            if (nv != old) {                                                                  \
                atomic_store_explicit(p, (uint)nv, memory_order_relaxed);                     \
                atomic_store_explicit(p + 1, (uint)(nv >> 32), memory_order_relaxed);        \
            }                                                                                 \
            MC_ATOM64_FENCE();                                                                \
            atomic_store_explicit(lock, 0u, memory_order_relaxed);                            \
            done = true;                                                                      \
        }                                                                                     \
    }                                                                                         \
    return old;                                                                               \
}                                                                                             \
/* A 128-bit access to the words p[0..3] (low first) under the lock, in   */                 \
/* the same loop: a strong ld/st of 128 bits (MC_AOP_LD, MC_AOP_ST) or    */                 \
/* exch/cas.b128.  Every such access of the location takes its lock, so   */                 \
/* they are atomic with respect to each other.  Returns the old value.    */                 \
inline ulong2 mc_atom128_##SFX(AS atomic_uint *p, device atomic_uint *lock, uint op, ulong2 v, ulong2 v2) \
{                                                                                             \
    ulong2 old = ulong2(0ul);                                                                 \
    bool done = false;                                                                        \
    while (!done) {                                                                           \
        uint unlocked = 0u;                                                                   \
        if (atomic_compare_exchange_weak_explicit(lock, &unlocked, 1u, memory_order_relaxed,  \
                                                  memory_order_relaxed)) {                    \
            MC_ATOM64_FENCE();                                                                \
            if (op != MC_AOP_ST)                                                              \
                old = ulong2((ulong)atomic_load_explicit(p, memory_order_relaxed) |           \
                                 ((ulong)atomic_load_explicit(p + 1, memory_order_relaxed) << 32), \
                             (ulong)atomic_load_explicit(p + 2, memory_order_relaxed) |       \
                                 ((ulong)atomic_load_explicit(p + 3, memory_order_relaxed) << 32)); \
            bool write = op == MC_AOP_ST || op == MC_AOP_EXCH ||                              \
                         (op == MC_AOP_CAS && old.x == v.x && old.y == v.y);                  \
            ulong2 nv = op == MC_AOP_CAS ? v2 : v;                                            \
            if (write) {                                                                      \
                atomic_store_explicit(p, (uint)nv.x, memory_order_relaxed);                   \
                atomic_store_explicit(p + 1, (uint)(nv.x >> 32), memory_order_relaxed);      \
                atomic_store_explicit(p + 2, (uint)nv.y, memory_order_relaxed);               \
                atomic_store_explicit(p + 3, (uint)(nv.y >> 32), memory_order_relaxed);      \
            }                                                                                 \
            MC_ATOM64_FENCE();                                                                \
            atomic_store_explicit(lock, 0u, memory_order_relaxed);                            \
            done = true;                                                                      \
        }                                                                                     \
    }                                                                                         \
    return old;                                                                               \
}

// mc_atom64_d / mc_atom64_t / mc_atom128_d / mc_atom128_t: the lock protocol.
//  - No independent thread scheduling on Metal (metal-semantics D7): the
//    lanes of a SIMD-group share one program counter, so a lane that
//    spins on a lock held by another lane of its group, waiting for that
//    lane to reach its unlock, never lets it get there.  Hence the
//    converged "done flag" loop: each round every lane still looking tries
//    the lock once; the winner does the whole operation and releases the
//    lock inside the same round, and only then does the group loop back.
//    No lane waits on a lock outside the code that also releases it, so
//    among the lanes contending for one lock, one finishes every round.
//  - Ordering: the 64-bit value is read and written as two relaxed 32-bit
//    atomic accesses (atomics never sit in a non-coherent cache) between
//    sequentially consistent device-scope fences after the acquire and
//    before the release, so the next holder sees them.
//  - Only the 64-bit atomics and the 128-bit strong accesses and atomics
//    take the locks: a plain load or store elsewhere (or a 32-bit atomic
//    on one half) is not atomic with respect to them, and a plain load can
//    see one half updated.  CUDA code mixes such accesses only after a
//    barrier or a kernel boundary.
//  - A 128-bit access keys its lock on its own address, so it shares the
//    lock of a 64-bit atomic on its low half: harmless, as no thread holds
//    two locks.
#define MC_ATOM64_FENCE() \
    atomic_thread_fence(mem_flags::mem_device | mem_flags::mem_threadgroup, memory_order_seq_cst, thread_scope_device)

MC_ATOMICS(device, d, true)
MC_ATOMICS(MC_SMEM, t, false)   // shared memory (device memory in the >32 KB variant)
#undef MC_ATOMICS
#undef MC_ATOM64_FENCE

// A generic address in the local window: thread memory, which no other
// thread can reach, so a plain read-modify-write is atomic.
inline uint mc_atom_rmw_l(thread uint *p, uint op, uint v, uint v2)
{
    uint old = *p;
    *p = mc_atom32_val(old, op, v, v2, false);
    return old;
}
inline ulong mc_atom64_l(thread ulong *p, uint op, ulong v, ulong v2)
{
    ulong old = *p;
    *p = mc_atom64_val(old, op, v, v2);
    return old;
}
inline ulong2 mc_atom128_l(thread ulong *p, uint op, ulong2 v, ulong2 v2)
{
    ulong2 old = ulong2(p[0], p[1]);
    if (op == MC_AOP_ST || op == MC_AOP_EXCH || (op == MC_AOP_CAS && old.x == v.x && old.y == v.y)) {
        ulong2 nv = op == MC_AOP_CAS ? v2 : v;
        p[0] = nv.x;
        p[1] = nv.y;
    }
    return old;
}
inline ushort mc_atom16_l(thread ushort *p, uint op, ushort v, ushort v2)
{
    ushort old = *p;
    *p = op == MC_AOP_CAS ? (old == v ? v2 : old) : mc_atom16_val(old, op, v);
    return old;
}
