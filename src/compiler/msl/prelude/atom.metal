// metalcuda MSL prelude: atomics.
// Metal's atomics are relaxed, 32-bit, and lack PTX's inc/dec wrap, a
// strong compare-and-swap and an add.f32 with PTX's subnormal rules; those
// are compare-exchange loops here.  Each loop retries only after another
// thread changed the word, so among threads racing on one address at least
// one succeeds per round (lock-free: no livelock inside a SIMD-group).
// Values are uint bit containers; s32 min/max go through atomic_int.

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
}

MC_ATOMICS(device, d, true)
MC_ATOMICS(threadgroup, t, false)
#undef MC_ATOMICS

// A generic address in the local window: thread memory, which no other
// thread can reach, so a plain read-modify-write is atomic.
inline uint mc_atom_rmw_l(thread uint *p, uint op, uint v, uint v2)
{
    uint old = *p, nv = old;
    switch (op) {
    case 0u: nv = old + v; break;                                                    // add
    case 1u: nv = min(old, v); break;                                                // min.u32
    case 2u: nv = max(old, v); break;                                                // max.u32
    case 3u: nv = mc_inc_val(old, v); break;
    case 4u: nv = mc_dec_val(old, v); break;
    case 5u: nv = old & v; break;
    case 6u: nv = old | v; break;
    case 7u: nv = old ^ v; break;
    case 8u: nv = v; break;                                                          // exch
    case 9u: nv = old == v ? v2 : old; break;                                        // cas
    case 10u: nv = as_type<uint>(min(as_type<int>(old), as_type<int>(v))); break;    // min.s32
    case 11u: nv = as_type<uint>(max(as_type<int>(old), as_type<int>(v))); break;    // max.s32
    case 12u: nv = mc_fadd_val(old, v, false); break;                                // add.f32
    }
    *p = nv;
    return old;
}
