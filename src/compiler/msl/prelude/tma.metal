// metalcuda MSL prelude: tensor copies (cp.async.bulk.tensor, tile mode;
// src/compiler/ir/build_async.c).  Done when the thread issues them, as the
// other bulk copies are.  The tensor map is metalcuda's own (compiler.h
// MC_TMAP_*), written by cuTensorMapEncodeTiled; one the driver did not
// write fails the launch (MC_STATUS_TENSOR_MAP) and completes what the
// mbarrier still waits for, so that no thread waits forever.
//
// A box is boxDim[0] x ... x boxDim[rank-1] elements from the tensor at the
// coordinates given; elements with a coordinate outside [0, globalDim) read
// as zeros and are not written back.  The innermost coordinate must be a
// multiple of 16 bytes, and a store's coordinates must not be negative (an
// H200 stops the kernel with an illegal instruction otherwise, measured
// with probes of 15 loads and 11 stores): the copy is then not done, its
// bytes still complete so that no thread waits forever, and the launch
// fails (MC_STATUS_TENSOR_COORD).  In shared memory the box is dense,
// dimension 0 fastest, and a swizzle of span S (32, 64 or 128 bytes) moves
// each 16-byte chunk: bits 4.. of the shared address (the chunk within S)
// are xored with the bits 7.. above them (log2(S/16) bits each), the
// pattern NVIDIA's TMA and CUTLASS's Swizzle<B, 4, 3> share.
#define MC_STATUS_TENSOR_MAP 9u     // compiler.h
#define MC_STATUS_TENSOR_COORD 10u  // compiler.h
#define MC_TMAP_MAGIC 0x50414d54u // compiler.h

struct mc_tmap {
    ulong addr;
    uint esize, rank, swz;
    ulong dim[5], stride[5];
    uint box[5];
};

inline bool mc_tmap_read(thread const ulong *w, thread mc_tmap &m)
{
    if ((uint)w[1] != MC_TMAP_MAGIC)
        return false;
    m.addr = w[0];
    m.esize = (uint)(w[1] >> 32) & 0xffu;
    m.rank = (uint)(w[1] >> 40) & 0xffu;
    m.swz = (uint)(w[1] >> 48) & 0xffu;
    for (uint k = 0u; k < 5u; k++) {
        m.dim[k] = k < m.rank ? w[2u + k] : 1ul;
        m.stride[k] = k == 0u ? (ulong)m.esize : k < m.rank ? w[6u + k] : 0ul;
        m.box[k] = k < m.rank ? (uint)(w[11u + k / 4u] >> (16u * (k % 4u))) & 0xffffu : 1u;
    }
    return m.rank >= 1u && m.rank <= 5u;
}

// One element of `n` (1, 2, 4 or 8) bytes between shared memory and the
// tensor (both aligned to n), or zeros into shared memory when g is null.
inline void mc_tma_elem(MC_SMEM uchar *s, device uchar *g, uint n, bool store)
{
    if (store) {
        if (n == 8u) *reinterpret_cast<device ulong *>(g) = *reinterpret_cast<MC_SMEM ulong *>(s);
        else if (n == 4u) *reinterpret_cast<device uint *>(g) = *reinterpret_cast<MC_SMEM uint *>(s);
        else if (n == 2u) *reinterpret_cast<device ushort *>(g) = *reinterpret_cast<MC_SMEM ushort *>(s);
        else *g = *s;
    } else {
        if (n == 8u) *reinterpret_cast<MC_SMEM ulong *>(s) = g ? *reinterpret_cast<device ulong *>(g) : 0ul;
        else if (n == 4u) *reinterpret_cast<MC_SMEM uint *>(s) = g ? *reinterpret_cast<device uint *>(g) : 0u;
        else if (n == 2u) *reinterpret_cast<MC_SMEM ushort *>(s) = g ? *reinterpret_cast<device ushort *>(g) : (ushort)0;
        else *s = g ? *g : (uchar)0;
    }
}

inline uint mc_tma_swizzle(uint off, uint swz)
{
    return swz ? off ^ (((off >> 7) & (swz - 1u)) << 4) : off;
}

// Copies the box at c[] between the tensor and shared memory at byte
// offset `off` (to shared memory unless `store`); the bytes the box holds,
// ~0u for a map this driver did not write (the launch fails).
inline uint mc_tma(constant mc_launch &L, thread const ulong *w, MC_SMEM uchar *smem, uint off, thread const int *c,
                   bool store)
{
    mc_tmap m;
    if (!mc_tmap_read(w, m)) {
        atomic_fetch_max_explicit(reinterpret_cast<device atomic_uint *>(L.status), MC_STATUS_TENSOR_MAP,
                                  memory_order_relaxed);
        return ~0u;
    }
    uint bytes = m.esize * m.box[0] * m.box[1] * m.box[2] * m.box[3] * m.box[4];
    bool negative = false;
    for (uint k = 0u; k < m.rank; k++)
        negative = negative || c[k] < 0;
    if (((long)c[0] * (long)m.esize) % 16 != 0 || (store && negative)) {
        atomic_fetch_max_explicit(reinterpret_cast<device atomic_uint *>(L.status), MC_STATUS_TENSOR_COORD,
                                  memory_order_relaxed);
        return bytes;
    }
    uint n = 0u;
    for (uint i4 = 0u; i4 < m.box[4]; i4++)
    for (uint i3 = 0u; i3 < m.box[3]; i3++)
    for (uint i2 = 0u; i2 < m.box[2]; i2++)
    for (uint i1 = 0u; i1 < m.box[1]; i1++)
    for (uint i0 = 0u; i0 < m.box[0]; i0++, n++) {
        uint idx[5] = { i0, i1, i2, i3, i4 };
        bool inside = true;
        ulong a = m.addr;
        for (uint k = 0u; k < 5u; k++) {
            long g = (long)c[k] + (long)idx[k];
            inside = inside && g >= 0 && (ulong)g < m.dim[k];
            a += (ulong)g * m.stride[k];
        }
        MC_SMEM uchar *sp = smem + mc_tma_swizzle(off + n * m.esize, m.swz);
        if (inside || !store)
            mc_tma_elem(sp, inside ? MC_GADDR(L, device, a) : (device uchar *)nullptr, m.esize, store);
    }
    return bytes;
}

// A tensor load's completion: the box's bytes off the tx-count of the
// mbarrier at shared offset `mbar`, .release (the load is done first); for
// ~0u (no box: a bad map), whatever tx-count it still expects.
inline void mc_tma_complete(constant mc_launch &L, MC_SMEM uchar *smem, uint mbar, uint bytes, uint3 ctaid,
                            uint3 nctaid)
{
    MC_SMEM atomic_uint *w = reinterpret_cast<MC_SMEM atomic_uint *>(smem + mbar);
    device atomic_uint *lock = mc_atom_lock_s(L, mbar, ctaid, nctaid);
    if (bytes == ~0u) {
        int tx = (int)((uint)(mc_atom64_t(w, lock, MC_AOP_OR, 0ul, 0ul) >> 42) << 11) >> 11;   // 21-bit signed
        bytes = tx > 0 ? (uint)tx : 0u;
    }
    atomic_thread_fence(mem_flags::mem_device | mem_flags::mem_threadgroup, memory_order_seq_cst,
                        thread_scope_threadgroup);
    (void)mc_atom64_t(w, lock, MC_AOP_MBAR, (ulong)(0u - bytes) << 32, 0ul);
}
