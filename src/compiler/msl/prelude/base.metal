// metalcuda MSL prelude: helpers the translated kernels call.
// Every helper implements one PTX rule exactly (PTX ISA 9.0), with no
// undefined C++ behaviour: shifts, divisions, conversions and overflow are
// spelled out.  Values are passed as their bit containers (uint, ulong...).

// Device memory other threadgroups read or write during the dispatch:
// MSL 3.2's coherent(device), without which an Apple GPU keeps a
// threadgroup's device accesses coherent only within the threadgroup
// (msl/emit_mem.c says which accesses get it).
#define MC_CDEV coherent(device) device

#define MC_SHARED_WINDOW 0xfffffc0000000000ul
#define MC_LOCAL_WINDOW 0xfffffd0000000000ul
#define MC_WINDOW_SIZE 0x0000010000000000ul
#define MC_PARAM_WINDOW 0xfffffb0000000000ul   // kernel parameters (cvta.param)

// The launch block, buffer(1): must match mc_launch in src/compiler/compiler.h.
struct mc_launch {
    ulong slots;      // GPU address of the slot table: GPU address = CUDA address + its slot's delta (mc_gpu)
    ulong globals;    // CUDA address of the module data block
    ulong status;     // GPU address of a uint set on trap / assert (MC_STATUS_*)
    ulong printf_buf; // GPU address of the printf FIFO (0: the kernel has none)
    uint printf_size; // bytes of records the FIFO holds
    uint nsm;         // %nsmid
    ulong gridid;     // %gridid
    ulong time_base;  // %clock64 / %globaltimer at the launch (host nanoseconds)
    uint slot_shift;  // the table's slots: 2^slot_shift bytes of CUDA addresses each,
    uint nslots;      // nslots of them from amem; entry nslots: every other address
    ulong amem;       // CUDA address of the device memory arena
    ulong atom_locks; // GPU address of the 64-bit atomics' lock table (atom.metal)
    ulong shared_slices; // shared memory in device memory: GPU address of the slices
    ulong shared_stride; // bytes per threadgroup's slice
    ulong heap;       // CUDA address of the device heap (heap.metal; 0: the kernel has no malloc)
    ulong heap_size;  // its bytes
    uint base_x, base_y, base_z; // this dispatch's first threadgroup in the grid (a split grid's piece)
    uint grid_x, grid_y, grid_z; // the grid's threadgroups (%nctaid)
    ulong grid_ws;    // CUDA address of the launch's grid workspace (%envreg1:2)
    ulong gmem;       // GPU address of amem where every chunk has one delta (__MC_SOFT_ONE_DELTA)
};

// The address space of shared memory: threadgroup memory, or device memory
// (a per-threadgroup slice) in the variant of a kernel that needs more than
// Metal's 32 KB (compiler.h, compiler_options.shared_in_device; the
// emitter defines MC_SMEM device before the prelude then).
#ifndef MC_SMEM
#define MC_SMEM threadgroup
#endif

// Validation mode of the software device (METALCUDA_VALIDATE=1 defines
// __MC_SOFT_VALIDATE for its compiler): a global or shared access whose
// address is not a multiple of its size marks the launch, which then fails
// with cudaErrorMisalignedAddress as on an NVIDIA GPU (the access itself
// still happens: a CPU allows it).  Elsewhere MC_ALIGNED costs nothing.
#define MC_STATUS_MISALIGNED 6u
#if defined(__MC_SOFT_VALIDATE)
inline ulong mc_aligned(constant mc_launch &L, ulong a, uint n)
{
    if ((a & (ulong)(n - 1u)) != 0ul)
        atomic_fetch_max_explicit(reinterpret_cast<device atomic_uint *>(L.status), MC_STATUS_MISALIGNED,
                                  memory_order_relaxed);
    return a;
}
#define MC_ALIGNED(L, a, n) mc_aligned(L, a, n)
#else
#define MC_ALIGNED(L, a, n) (a)
#endif

// A CUDA address's GPU address: the address plus the delta of the device
// memory chunk that holds it, read from the slot table (core/arena.c); the
// index is clamped, so that a wild pointer reads the table's last entry
// (the delta of every address outside device memory) and never past it.
// The software device, unless METALCUDA_SOFT_SCATTER, maps every chunk at
// one delta and defines __MC_SOFT_ONE_DELTA: global accesses are then a
// base pointer plus an offset (MC_GADDR), which the host compiler can
// follow from thread to thread and vectorise, where a table read per access
// would make every access a gather.
inline ulong mc_gpu(constant mc_launch &L, ulong a)
{
#if defined(__MC_SOFT_ONE_DELTA)
    return a + (L.gmem - L.amem);
#else
    ulong i = min((a - L.amem) >> L.slot_shift, (ulong)L.nslots);
    return a + reinterpret_cast<device const ulong *>(L.slots)[i];
#endif
}
// The GPU address of CUDA address a as a pointer to bytes of address space as.
#if defined(__MC_SOFT_ONE_DELTA)
#define MC_GADDR(L, as, a) (reinterpret_cast<as uchar *>((L).gmem) + (long)((a) - (L).amem))
#else
#define MC_GADDR(L, as, a) reinterpret_cast<as uchar *>(mc_gpu(L, a))
#endif

// ---- float helpers (f32 as uint bits) ----

inline float mc_f(uint x) { return as_type<float>(x); }
inline uint mc_u(float x) { return as_type<uint>(x); }

// binary16 <-> binary32 with integer arithmetic: exact, round to nearest
// even, and independent of how (or whether) the compiler implements half.
// f16 arithmetic is done in float and rounded once: exact for + - * / and
// sqrt, since float has more than twice half's precision.
inline float mc_h2f(ushort h)
{
    uint s = (uint)(h & 0x8000u) << 16, e = ((uint)h >> 10) & 0x1fu, m = (uint)h & 0x3ffu;
    if (e == 0x1fu) return as_type<float>(s | 0x7f800000u | (m << 13));
    if (e == 0u) return as_type<float>(as_type<uint>((float)m * 5.9604644775390625e-8f) | s);
    return as_type<float>(s | ((e + 112u) << 23) | (m << 13));
}
inline ushort mc_f2h(float f)
{
    uint x = as_type<uint>(f), s = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a >= 0x7f800000u)   // inf or NaN (quieted, top payload bits kept)
        return (ushort)(s | 0x7c00u | (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0u));
    if (a >= 0x477ff000u) return (ushort)(s | 0x7c00u);   // >= 65520 rounds to inf
    if (a < 0x38800000u) {   // below 2^-14: subnormal or zero
        if (a <= 0x33000000u) return (ushort)s;            // <= 2^-25 rounds to zero
        uint e = a >> 23, m = (a & 0x7fffffu) | 0x800000u, sh = 126u - e;
        uint r = m >> sh, rem = m & ((1u << sh) - 1u), half_way = 1u << (sh - 1u);
        if (rem > half_way || (rem == half_way && (r & 1u))) r++;
        return (ushort)(s | r);
    }
    uint r = (a >> 13) - (112u << 10), rem = a & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) r++;
    return (ushort)(s | r);
}

// .ftz: subnormal inputs and results become zero of the same sign.
inline uint mc_ftz(uint x) { return (x & 0x7f800000u) == 0u ? (x & 0x80000000u) : x; }
inline ushort mc_ftz16(ushort x) { return (x & 0x7c00u) == 0u ? (ushort)(x & 0x8000u) : x; }

// .sat: clamp to [0.0, 1.0]; NaN and -0.0 become +0.0 (an H200 returns +0.0
// for __saturatef(-0.0): tests/cuda/floatops.cu).
inline uint mc_sat(uint x)
{
    float f = mc_f(x);
    if (isnan(f) || f <= 0.0f) return 0u;
    return f >= 1.0f ? 0x3f800000u : x;
}
inline ushort mc_sat16(ushort x)
{
    float f = mc_h2f(x);
    if (isnan(f) || f <= 0.0f) return (ushort)0u;
    return f >= 1.0f ? (ushort)0x3c00u : x;
}

inline bool mc_isnan(uint x) { return (x & 0x7fffffffu) > 0x7f800000u; }
inline bool mc_isnan16(ushort x) { return (x & 0x7fffu) > 0x7c00u; }

// NVIDIA GPUs return one canonical NaN from every f32/f16 operation whose
// result is NaN, whatever the inputs' payloads and signs: 0x7fffffff and
// 0x7fff (measured on an H200: tests/ptx/cases, abs/neg included).
inline uint mc_canon(uint x) { return mc_isnan(x) ? 0x7fffffffu : x; }
inline ushort mc_canon16(ushort x) { return mc_isnan16(x) ? (ushort)0x7fffu : x; }
inline uint mc_abs_f32(uint x) { return mc_isnan(x) ? 0x7fffffffu : x & 0x7fffffffu; }
inline uint mc_neg_f32(uint x) { return mc_isnan(x) ? 0x7fffffffu : x ^ 0x80000000u; }
inline ushort mc_abs_f16(ushort x) { return mc_isnan16(x) ? (ushort)0x7fffu : (ushort)(x & 0x7fffu); }
inline ushort mc_neg_f16(ushort x) { return mc_isnan16(x) ? (ushort)0x7fffu : (ushort)(x ^ 0x8000u); }

// ---- the software device's hints (msl/emit.c emit_thread_sync_hint) ----
// Statements at the top of a kernel in the per-thread form, read in the
// text by the software device (src/metal/soft/msl_scan.c): its threads wait
// for one another (MC_THREADS_WAIT) or never do and read at most n bytes
// of parameters (MC_THREADS_INDEPENDENT(n)), and of the latter which are
// bound by memory, their widest global element `bits` wide
// (MC_THREADS_STREAMING(bits)).  Nothing to any compiler.
#define MC_THREADS_INDEPENDENT(n)
#define MC_THREADS_WAIT
#define MC_THREADS_STREAMING(bits)

// A kernel whose opening test decides from values a row of threads
// shares which of its x go on says so with MC_THREADS_X_RANGE(f, row,
// per_row, param, launch) (msl/emit_xrange.c): f(r, param, launch, group,
// size, (0, y, z)) sets r to the x that go on as at most four runs (the
// same for every row unless per_row), row(...) whether row (y, z) goes on at
// all; the test is written MC_XTEST(c, v), v its value for the threads
// that go on.  The software device loops over those runs only, where v
// replaces c; any other compiler sees c.
#define MC_THREADS_X_RANGE(f, row, per_row, param, launch)
#define MC_XTEST(c, v) (c)

// A row's runs are built in place and read element by element, never
// copied whole: a copy moves them with wide loads of what narrow stores
// have just written, which cannot be forwarded from the store buffer and
// stalls (returned by value, the copies took about a sixth of SAXPY's
// time on Zen 4, once per threadgroup).
struct mc_xrange { uint n, b[4], e[4]; };   // x in [b[k], e[k]), k < n, ascending

inline void mc_xrange_all(thread mc_xrange &r, uint nx)
{
   r.n = nx ? 1u : 0u;
   r.b[0] = 0u;
   r.e[0] = nx;
}

// r = the x in [0, nx) for which ((u + x) mod 2^32 <cmp> n) == want, cmp 0
// eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge: at most two runs.  In the unsigned
// order (a signed one biased by 2^31) the values passing are a circular
// interval [a, a + len) of the 2^32 values, hence the x passing are the
// circular interval starting at a - u: a run up to 2^32 and, where it
// wraps, a run from 0 before it.
inline void mc_xtest_runs(thread mc_xrange &r, uint u, uint n, uint cmp, bool is_signed, bool want, uint nx)
{
   const ulong full = 0x100000000ul;
   uint bias = is_signed ? 0x80000000u : 0u, nb = n + bias;
   ulong a, len;
   switch (cmp) {
   case 0: a = nb; len = 1ul; break;
   case 1: a = (ulong)nb + 1ul; len = full - 1ul; break;
   case 2: a = 0ul; len = nb; break;
   case 3: a = 0ul; len = (ulong)nb + 1ul; break;
   case 4: a = (ulong)nb + 1ul; len = full - 1ul - nb; break;
   default: a = nb; len = full - nb; break;
   }
   if (!want) {
      a += len;
      len = full - len;
   }
   if (len >= full) {
      mc_xrange_all(r, nx);
      return;
   }
   r.n = 0u;
   ulong s = (a - (ulong)u - (ulong)bias) & (full - 1ul), end = s + len;
   if (end > full && nx) {   // the run wraps: x from 0
      r.b[0] = 0u;
      r.e[0] = (uint)min(end - full, (ulong)nx);
      r.n = 1u;
   }
   if (s < (ulong)nx && len) {
      r.b[r.n] = (uint)s;
      r.e[r.n] = (uint)min(end, (ulong)nx);
      r.n++;
   }
}

// The same for 64-bit values: mod 2^64, the passing interval's length up
// to 2^64 kept as len with `all` for 2^64 itself.
inline void mc_xtest_runs64(thread mc_xrange &r, ulong u, ulong n, uint cmp, bool is_signed, bool want, uint nx)
{
   ulong bias = is_signed ? 0x8000000000000000ul : 0ul, nb = n + bias, a, len;
   bool all = false;
   switch (cmp) {
   case 0: a = nb; len = 1ul; break;
   case 1: a = nb + 1ul; len = ~0ul; break;
   case 2: a = 0ul; len = nb; break;
   case 3: a = 0ul; len = nb + 1ul; all = nb == ~0ul; break;
   case 4: a = nb + 1ul; len = ~nb; break;
   default: a = nb; len = 0ul - nb; all = nb == 0ul; break;
   }
   if (!want) {   // the complement: [a + len, a) of length 2^64 - len
      a += len;
      all = !all && len == 0ul;
      len = 0ul - len;
   }
   if (all) {
      mc_xrange_all(r, nx);
      return;
   }
   r.n = 0u;
   ulong s = a - u - bias;
   if (s != 0ul && len > 0ul - s && nx) {   // the run wraps: x from 0 to s + len - 2^64
      r.b[0] = 0u;
      r.e[0] = (uint)min(s + len, (ulong)nx);
      r.n = 1u;
   }
   if (s < (ulong)nx && len) {
      r.b[r.n] = (uint)s;
      r.e[r.n] = len >= (ulong)nx - s ? nx : (uint)(s + len);
      r.n++;
   }
}

// r = the x in both p and q (ascending, disjoint runs): a list of p.n runs
// and one of two make at most p.n + 1, which is four where the compiler
// allows three x tests.
inline void mc_xrange_and(thread mc_xrange &r, thread const mc_xrange &p, thread const mc_xrange &q)
{
   r.n = 0u;
   uint i = 0u, j = 0u;
   while (i < p.n && j < q.n) {
      uint b = max(p.b[i], q.b[j]), e = min(p.e[i], q.e[j]);
      if (b < e && r.n < 4u) {
         r.b[r.n] = b;
         r.e[r.n] = e;
         r.n++;
      }
      if (p.e[i] < q.e[j])
         i++;
      else
         j++;
   }
}

// ---- lane form (msl/emit_lanes.c) ----
// A kernel in lane form runs mc_nl threads per invocation under an
// execution mask (mc_lmask): one on an Apple GPU (every thread is an
// invocation of one lane, the masks are flags of its control flow); the
// whole threadgroup on the software device (__MC_SOFT_LANES, its most
// threads per threadgroup: the kernel is called once per threadgroup with
// lane 0 at the origin, and a barrier is the end of the lane loops before
// it).  MC_LANES_BEGIN declares the lane count, the lanes started
// (mc_init) and the mask; MC_LANE_TID(l) is lane l's position.
#if defined(__MC_SOFT_LANES)
#define MC_NLANES __MC_SOFT_LANES
#else
#define MC_NLANES 1
#endif
#if MC_NLANES == 1
template <typename T> inline T mc_lsel(bool on, T n, T o) { return on ? n : o; }
typedef uint mc_lmask;
inline mc_lmask mc_lm_none() { return 0u; }
inline bool mc_lm_any(mc_lmask m) { return m != 0u; }
inline bool mc_lm_on(mc_lmask m, uint l) { return (m >> l & 1u) != 0u; }
inline bool mc_lm_eq(mc_lmask a, mc_lmask b) { return a == b; }
inline mc_lmask mc_lm_or(mc_lmask a, mc_lmask b) { return a | b; }
inline mc_lmask mc_lm_andnot(mc_lmask a, mc_lmask b) { return a & ~b; }
inline mc_lmask mc_lm_ballot(thread const bool *c, mc_lmask m, uint nl) { (void)nl; return c[0] ? m : 0u; }
#define MC_LANES_BEGIN const uint mc_nl = 1u; const mc_lmask mc_init = 1u; mc_lmask mc_mask = mc_init;
#define MC_LANES_FOR(m) for (uint mc_l = 0u; mc_l < 1u; mc_l++) { const bool mc_on = (m) != 0u;
#define MC_LANES_FOR_POS(m) MC_LANES_FOR(m)
#define MC_LANES_FOR_POS_IF(m) MC_LANES_FOR(m)
#define MC_LANES_END }
#define MC_LANE_LANEID(l) ((mc_tid0.x + mc_ntid.x * (mc_tid0.y + mc_ntid.y * mc_tid0.z)) & 31u)
#define MC_LANE_SHFL(v, l, j) simd_shuffle((v)[0], (ushort)(j))
#define MC_LANE_SYNC_BEGIN(kind) mc_warp_sync(mc_L, 0xffffffffu, (kind), false)
#define MC_LANE_SYNC_END() mc_warp_sync_end()
// A warp meet of warp-synchronous code in lane form (emit_lanes.c): with
// one lane per invocation, the per-thread form's meet (MC_WARP_MEET: on a
// GPU nothing, its SIMD-group being lockstep; on the software device's
// one-lane build, validation's, the fiber scheduler's meet); with a
// threadgroup of lanes nothing, the lane loops ending there.
#define MC_LANES_WARP_MEET(rank) MC_WARP_MEET(rank)
#define MC_LANE_VOTE(fn, v, l, m) mc_vote_##fn((v)[0], 0xffffffffu)
#define MC_LANE_VOTE_U(fn, p, l, m) mc_vote_##fn((p), 0xffffffffu)
#define MC_LANE_REDUX(fn, v, l, m) mc_redux_##fn((v)[0], 0xffffffffu, MC_LANE_LANEID(l))
#define MC_LANE_REDUX_U(fn, a, l, m) mc_redux_##fn((a), 0xffffffffu, MC_LANE_LANEID(l))
#define MC_LANES_WARP_BARRIER(kind)                                                     \
    do {                                                                                \
        mc_warp_sync(mc_L, 0xffffffffu, (kind), false);                                 \
        simdgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);          \
        mc_warp_sync_end();                                                             \
    } while (0)
inline bool mc_lm_warps_whole(mc_lmask m, mc_lmask init) { (void)m; (void)init; return true; }
#define MC_LANE_TID(l) mc_tid0
#define MC_LANE_TID_DIV(l) mc_tid0
#define MC_LANES_BARRIER() threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device)
inline void mc_lanes_diverged(constant mc_launch &L) { (void)L; }
#define MC_LANES_PREFETCH(a0, a1) ((void)(a0), (void)(a1))
#else
#define MC_LANE_WORDS (MC_NLANES / 64)
// A phi copy in a lane loop: the lane's new value where it is active, else
// its old one.  A blend, not a select: clang turns a select between two
// lane arrays' elements into a load through a selected pointer, which its
// vectoriser cannot bound, and the copy loop stayed scalar (the block
// reduction's grid-stride loop spent most of its time there).
template <typename T> inline T mc_lsel(bool on, T n, T o) { return n ^ ((n ^ o) & (T)((T)0 - (T)!on)); }
template <> inline bool mc_lsel(bool on, bool n, bool o) { return ((uchar)n & (uchar)on) | ((uchar)o & (uchar)!on); }
// A mask is a vector of 64-bit words (clang's vector extension: a value,
// not memory, so the host compiler keeps it in registers and needs no
// scalar replacement of aggregates for every mask operation).
typedef ulong mc_lmask __attribute__((ext_vector_type(MC_LANE_WORDS)));
inline mc_lmask mc_lm_none() { return (mc_lmask)0ul; }
inline ulong mc_lm_reduce_or(mc_lmask m)
{
    ulong a = 0ul;
    for (uint k = 0u; k < MC_LANE_WORDS; k++)
        a |= m[k];
    return a;
}
inline bool mc_lm_any(mc_lmask m) { return mc_lm_reduce_or(m) != 0ul; }
inline bool mc_lm_on(mc_lmask m, uint l) { return (m[l >> 6] >> (l & 63u) & 1ul) != 0ul; }
inline bool mc_lm_eq(mc_lmask a, mc_lmask b) { return mc_lm_reduce_or(a ^ b) == 0ul; }
inline mc_lmask mc_lm_or(mc_lmask a, mc_lmask b) { return a | b; }
inline mc_lmask mc_lm_andnot(mc_lmask a, mc_lmask b) { return a & ~b; }
// A mask from its words.  Writing a word of a mask vector at an index
// the host compiler cannot see makes it store the vector, overwrite the
// word and load the vector back, a store-forwarding stall for every word
// (a quarter of the block reduction's time was there); the words are
// built in memory and loaded once instead.
inline mc_lmask mc_lm_from_words(thread const ulong *w)
{
    mc_lmask m;
    __builtin_memcpy(&m, w, sizeof(m));
    return m;
}
// The lanes of m where c holds.  c has MC_NLANES elements (a lane array,
// zeroed at the start, each a bool stored as 0 or 1); eight lanes are
// gathered at a time: the multiplier moves byte i's low bit to bit 56 + i
// and no two partial products meet (8i - 7j differs for every i, j < 8).
// Out of line: inlined, every divergent branch of a kernel got its own
// unrolled copy (128 multiplies for 1024 lanes), and clang spent 13-27 %
// of a lane-form kernel's compile on them (tests/cuda/lane_divergence);
// a call per branch and threadgroup costs next to the lane loops.
__attribute__((noinline)) inline mc_lmask mc_lm_ballot(thread const bool *c, mc_lmask m, uint nl)
{
    ulong w[MC_LANE_WORDS];
    for (uint k = 0u; k < MC_LANE_WORDS; k++) {
        ulong bits = 0ul;
        for (uint b = 0u; b < 64u && k * 64u < nl; b += 8u) {
            ulong x;
            __builtin_memcpy(&x, c + k * 64u + b, sizeof(x));
            bits |= (x * 0x0102040810204080ul) >> 56 << b;
        }
        w[k] = bits;
    }
    return m & mc_lm_from_words(w);
}
// The lanes in runs ("segments") that stay in one row of the threadgroup
// (one y and z) and one 64-lane mask word: lane l0 + i of a segment is the
// thread (x0 + i, y, z).  A lane loop runs segment by segment, so a
// thread's x is the inner loop's counter plus a value the loop does not
// change, and the host compiler sees x-consecutive accesses as consecutive
// (a vector load, not a gather) and y as uniform.  Lanes are the threads
// in CUDA's and Metal's order, x fastest.
struct mc_lseg { uint l0, n, x0, y, z; };
inline uint mc_lanes_setup(uint3 n, thread mc_lseg *seg, thread uint *nseg, thread mc_lmask *init)
{
    uint k = 0u, s = 0u;
    for (uint c = 0u; c < n.z; c++)
        for (uint b = 0u; b < n.y; b++)
            for (uint a = 0u; a < n.x; k += seg[s].n, a += seg[s].n, s++) {
                uint room = 64u - (k & 63u);   // to the end of the mask word
                seg[s].l0 = k;
                seg[s].n = n.x - a < room ? n.x - a : room;
                seg[s].x0 = a;
                seg[s].y = b;
                seg[s].z = c;
            }
    *nseg = s;
    ulong w[MC_LANE_WORDS];
    for (uint i = 0u; i < MC_LANE_WORDS; i++)   // lanes 0 to k - 1
        w[i] = k >= 64u * (i + 1u) ? ~0ul : k > 64u * i ? (1ul << (k - 64u * i)) - 1ul : 0ul;
    *init = mc_lm_from_words(w);
    return k;
}
// at most one segment per row and per word boundary
#define MC_LANES_BEGIN                                                                  \
    mc_lseg mc_seg[MC_NLANES + MC_LANE_WORDS];                                          \
    uint mc_nseg;                                                                       \
    mc_lmask mc_init;                                                                   \
    const uint mc_nl = mc_lanes_setup(mc_ntid, mc_seg, &mc_nseg, &mc_init);             \
    mc_lmask mc_mask = mc_init;
#define MC_LANE_TID(l) uint3(mc_sx + mc_b, mc_sy, mc_sz)
// a lane's position by division, in a loop over mask words (used where the
// code reads it without the emitter knowing: an assert's message)
#define MC_LANE_TID_DIV(l) uint3((l) % mc_ntid.x, (l) / mc_ntid.x % mc_ntid.y, (l) / (mc_ntid.x * mc_ntid.y))
#define MC_LANES_BARRIER() ((void)0)
// The lines from the lower to the higher of two addresses of a load's next
// iteration (emit_lanes.c "the next iteration's loads"), when they are at
// most 8 KB apart.  A prefetch never faults: a wild address costs the hint.
inline void mc_lanes_prefetch(constant mc_launch &L, ulong a0, ulong a1)
{
    const ulong lo = min(a0, a1) & ~63ul, hi = max(a0, a1);
    if (hi - lo > 8192ul)
        return;
    for (ulong a = lo; a <= hi; a += 64ul)
        __builtin_prefetch(MC_GADDR(L, device, a));
}
#define MC_LANES_PREFETCH(a0, a1) mc_lanes_prefetch(mc_L, (a0), (a1))
#if defined(__MC_SOFT_LANES_BY_RUNS)
// The software device's lane loops (src/metal/soft/compile.c
// lanes_by_runs: every CPU unless METALCUDA_SOFT_LANE_LOOPS=masked) walk
// the runs of consecutive active lanes of each mask word (or segment)
// with mc_on true: plain vector loads and stores, a whole word or segment
// one run where every lane is active.  Inactive lanes are skipped, as the
// masked loops' code does nothing for them but keep their array elements.
// Masked, a loop with `if (mc_on)` around its accesses is vectorised with
// masked stores, microcoded on AMD's CPUs without AVX-512 (about 24 cycles
// a store even with a full mask), and on a Zen 4 SGEMM's broadcast tile
// read became a masked gather (3x slower).
inline ulong mc_lanes_low(uint n) { return n < 64u ? (1ul << n) - 1ul : ~0ul; }
// the end of the run of set bits starting at r0 (64: to the word's end)
inline uint mc_lanes_run_end(ulong bits, uint r0)
{
    const ulong rest = ~(bits >> r0);
    return rest != 0ul ? r0 + (uint)__builtin_ctzl(rest) : 64u;
}
// the runs of the set bits of `bits` (a variable, cleared as they are
// taken): lane mc_b from each run's first bit to its end
#define MC_LANES_RUNS(bits, pragma_inner)                                               \
        _Pragma("clang loop unroll(disable)")                                           \
        while ((bits) != 0ul) {                                                         \
            const uint mc_r0 = (uint)__builtin_ctzl(bits);                              \
            const uint mc_r1 = mc_lanes_run_end((bits), mc_r0);                         \
            (bits) &= ~mc_lanes_low(mc_r1);                                             \
            _Pragma(pragma_inner)                                                       \
            for (uint mc_b = mc_r0; mc_b < mc_r1; mc_b++) {
// The next run of set bits of *m (lanes below nl) from lane `from` on, as
// r0 | r1 << 32 for lanes [r0, r1), which may span mask words; 0 when
// there is none.  Out of line: MC_LANES_FOR below is then two loops, not
// a loop over words around the runs loop, and the host compiler spent
// 15-20 % less on kernels of many lane loops (tests/cuda/lane_divergence's
// tiles_kernel<true> and local_kernel, kernels.cu's shuffle reduction,
// compiled by hand), where the word loops were most of the loops.
__attribute__((noinline)) inline ulong mc_lanes_next_run(thread const mc_lmask *m, uint nl, uint from)
{
    for (uint l = from; l < nl;) {
        const ulong bits = (*m)[l >> 6] >> (l & 63u);
        if (bits == 0ul) {
            l = (l | 63u) + 1u;   // the next word
            continue;
        }
        l += (uint)__builtin_ctzl(bits);
        uint e = l;
        for (;;) {   // to the run's end, word by word
            const uint b = e & 63u, end = mc_lanes_run_end((*m)[e >> 6], b);
            e += end - b;
            if (end < 64u || e >= nl)
                break;
        }
        return (ulong)l | (ulong)(e < nl ? e : nl) << 32;
    }
    return 0ul;
}
#define MC_LANES_FOR(m)                                                                 \
    { const mc_lmask mc_m = (m);                                                        \
    _Pragma("clang loop unroll(disable)")                                               \
    for (ulong mc_q = mc_lanes_next_run(&mc_m, mc_nl, 0u); mc_q != 0ul;                 \
         mc_q = mc_lanes_next_run(&mc_m, mc_nl, (uint)(mc_q >> 32))) {                  \
        const uint mc_r0 = (uint)mc_q, mc_r1 = (uint)(mc_q >> 32);                      \
        _Pragma("clang loop unroll(disable) interleave_count(1)")                       \
        for (uint mc_l = mc_r0; mc_l < mc_r1; mc_l++) {                                 \
            const bool mc_on = true;
// The segments' runs of lanes in m, the inner loop under pragma_inner.
#define MC_LANES_SEG_RUNS(m, pragma_inner)                                              \
    _Pragma("clang loop unroll(disable)")                                               \
    for (uint mc_s = 0u; mc_s < mc_nseg; mc_s++) {                                      \
        const uint mc_l0 = mc_seg[mc_s].l0, mc_sn = mc_seg[mc_s].n;                     \
        const uint mc_sx = mc_seg[mc_s].x0, mc_sy = mc_seg[mc_s].y, mc_sz = mc_seg[mc_s].z; \
        ulong mc_bits = (m)[mc_l0 >> 6] >> (mc_l0 & 63u) & mc_lanes_low(mc_sn);         \
        MC_LANES_RUNS(mc_bits, pragma_inner)                                            \
            const uint mc_l = mc_l0 + mc_b;                                             \
            const bool mc_on = true;
#define MC_LANES_FOR_POS(m)                                                             \
    MC_LANES_SEG_RUNS(m, "clang loop unroll(disable) interleave_count(1) vectorize(assume_safety)")
// The same for a loop whose lanes branch (a divergent branch of plain
// code inside the loop: emit_lanes.c flush_run), not forced to vectorise.
// Forced, the vectoriser computed both arms for every lane, made a store
// under the branch a masked store (the slow kind on a Zen 3) or a scalar store
// behind a test of each element, a load a gather or a masked load and a
// division eight scalar ones, and clang spent a quarter to a third of
// tests/cuda/lane_divergence's lane-form compiles on such loops
// (bench/README.md, compile time); left to its cost model, the loop is
// vectorised only where it proves the vector form safe and cheaper.
#define MC_LANES_FOR_POS_IF(m) MC_LANES_SEG_RUNS(m, "clang loop unroll(disable) interleave_count(1)")
#define MC_LANES_END }}}
#else
// A loop over the lanes, mc_on telling whether lane mc_l is in m: 64 lanes
// of a mask word at a time, the inner loop the one the host compiler
// vectorises (its trip count fixed, so no remainder loop; the word's bits
// loop-invariant).  For code that does not read the lane's position.
#define MC_LANES_FOR(m)                                                                 \
    _Pragma("clang loop unroll(disable)")                                               \
    for (uint mc_w = 0u; mc_w * 64u < mc_nl; mc_w++) {                                  \
        const ulong mc_bits = (m)[mc_w];                                                \
        _Pragma("clang loop unroll(disable) interleave_count(1)")                       \
        for (uint mc_b = 0u; mc_b < 64u; mc_b++) {                                      \
            const uint mc_l = mc_w * 64u + mc_b;                                        \
            const bool mc_on = (mc_bits >> mc_b & 1ul) != 0ul;
// The same a segment at a time, for code that reads the position (the
// emitter's choice: MC_LANE_TID then is the segment's x plus the counter).
// Its iterations are threads between two barriers, which CUDA's memory
// model leaves unordered (a thread reading what another writes there is a
// race), or, in warp-synchronous code, between two points where the lanes
// are in lockstep (emit_lanes.c plan_meets: the accesses between are ones
// mark_lockstep.c left unmarked, alike whether lanes run one after another
// or in lockstep, and a vector of lanes is some of each), so the vectoriser may
// assume them independent: without that it needed bounds for a
// shared-memory address beside the lanes' arrays and gave up.
#define MC_LANES_FOR_POS(m)                                                             \
    _Pragma("clang loop unroll(disable)")                                               \
    for (uint mc_s = 0u; mc_s < mc_nseg; mc_s++) {                                      \
        const uint mc_l0 = mc_seg[mc_s].l0, mc_sn = mc_seg[mc_s].n;                     \
        const uint mc_sx = mc_seg[mc_s].x0, mc_sy = mc_seg[mc_s].y, mc_sz = mc_seg[mc_s].z; \
        const ulong mc_bits = (m)[mc_l0 >> 6] >> (mc_l0 & 63u);                         \
        _Pragma("clang loop unroll(disable) interleave_count(1) vectorize(assume_safety)") \
        for (uint mc_b = 0u; mc_b < mc_sn; mc_b++) {                                    \
            const uint mc_l = mc_l0 + mc_b;                                             \
            const bool mc_on = (mc_bits >> mc_b & 1ul) != 0ul;
// Lanes that branch: masked loads and stores.
#define MC_LANES_FOR_POS_IF(m) MC_LANES_FOR_POS(m)
#define MC_LANES_END }}
#endif
// Warp operations: lane l is the threadgroup's linear thread l, so its
// SIMD-group's lanes are the 32 from l & ~31; every lane of a SIMD-group
// is at the operation or none is (mc_lm_warps_whole).
#define MC_LANE_LANEID(l) ((l) & 31u)
#define MC_LANE_SHFL(v, l, j) (v)[((l) & ~31u) | (j)]
#define MC_LANE_SYNC_BEGIN(kind) ((void)(kind))
#define MC_LANE_SYNC_END() ((void)0)
#define MC_LANES_WARP_MEET(rank) ((void)(rank))
// __syncwarp over the full mask: the lane loops before it ended, which is
// all it asks of lanes that run one after another.
#define MC_LANES_WARP_BARRIER(kind) ((void)(kind))
// Votes over the full mask: the lanes of l's SIMD-group that are in m (all
// of it or none: mc_lm_warps_whole), and the ballot of their predicates;
// all, any and uni as mc_vote_* reduce a ballot (prelude warp.metal).
inline uint mc_lane_members(uint l, mc_lmask m) { return (uint)(m[l >> 6] >> (l & 32u)); }
template <typename T> inline uint mc_lane_ballot(thread const T *v, uint l, mc_lmask m)
{
    thread const T *w = v + (l & ~31u);
    uint b = 0u;
    for (uint k = 0u; k < 32u; k++)
        b |= w[k] != (T)0 ? 1u << k : 0u;
    return b & mc_lane_members(l, m);
}
inline bool mc_lane_vote_all(uint b, uint in) { return b == in; }
inline bool mc_lane_vote_any(uint b, uint in) { (void)in; return b != 0u; }
inline bool mc_lane_vote_uni(uint b, uint in) { return b == 0u || b == in; }
inline uint mc_lane_vote_ballot(uint b, uint in) { (void)in; return b; }
#define MC_LANE_VOTE(fn, v, l, m) mc_lane_vote_##fn(mc_lane_ballot((v), (l), (m)), mc_lane_members((l), (m)))
#define MC_LANE_VOTE_U(fn, p, l, m) \
    mc_lane_vote_##fn((p) ? mc_lane_members((l), (m)) : 0u, mc_lane_members((l), (m)))
// redux.sync over the full mask: the values of l's SIMD-group's lanes in m
// (w[k * step]: step 0 for a uniform value), as mc_redux_* combine them.
#define MC_LANE_REDUX_OP(name, T, id, op)                                               \
    inline uint mc_lane_redux_##name(thread const uint *w, uint step, uint in)          \
    {                                                                                   \
        T r = (T)(id);                                                                  \
        for (uint k = 0u; k < 32u; k++)                                                 \
            if ((in >> k & 1u) != 0u) {                                                 \
                T a = (T)w[k * step];                                                   \
                r = op;                                                                 \
            }                                                                           \
        return (uint)r;                                                                 \
    }                                                                                   \
    inline uint mc_lane_redux_u_##name(uint a, uint in) { return mc_lane_redux_##name(&a, 0u, in); }
MC_LANE_REDUX_OP(add, uint, 0u, r + a)
MC_LANE_REDUX_OP(min_u32, uint, 0xffffffffu, a < r ? a : r)
MC_LANE_REDUX_OP(max_u32, uint, 0u, a > r ? a : r)
MC_LANE_REDUX_OP(min_s32, int, INT_MAX, a < r ? a : r)
MC_LANE_REDUX_OP(max_s32, int, INT_MIN, a > r ? a : r)
MC_LANE_REDUX_OP(and, uint, 0xffffffffu, r & a)
MC_LANE_REDUX_OP(or, uint, 0u, r | a)
MC_LANE_REDUX_OP(xor, uint, 0u, r ^ a)
#define MC_LANE_REDUX(fn, v, l, m) mc_lane_redux_##fn((v) + ((l) & ~31u), 1u, mc_lane_members((l), (m)))
#define MC_LANE_REDUX_U(fn, a, l, m) mc_lane_redux_u_##fn((a), mc_lane_members((l), (m)))
// (out of line, as mc_lm_ballot: a check before every warp operation)
__attribute__((noinline)) inline bool mc_lm_warps_whole(mc_lmask m, mc_lmask init)
{
    ulong bad = 0ul;
    for (uint k = 0u; k < MC_LANE_WORDS; k++) {
        ulong d = m[k] ^ init[k];   // lanes started but not here
        ulong lo = m[k] & 0xfffffffful, hi = m[k] >> 32;
        bad |= (lo != 0ul ? d & 0xfffffffful : 0ul) | (hi != 0ul ? d >> 32 : 0ul);
    }
    return bad == 0ul;
}
// Lanes at a barrier that not all lanes reached: the software device fails
// the dispatch (its shim), as for threads.
inline void mc_lanes_diverged(constant mc_launch &L) { (void)L; __mc_lanes_diverged(); }
#endif

// ---- trap ----

inline void mc_trap(constant mc_launch &L)
{
    device atomic_uint *status = reinterpret_cast<device atomic_uint *>(L.status);
    atomic_fetch_max_explicit(status, 1u, memory_order_relaxed);   // an assert (2) wins over a trap
}

// A recursive call beyond the stack (msl/emit_rec.c): MC_STATUS_STACK, 7.
inline void mc_stack_overflow(constant mc_launch &L)
{
    device atomic_uint *status = reinterpret_cast<device atomic_uint *>(L.status);
    atomic_fetch_max_explicit(status, 7u, memory_order_relaxed);
}

// ---- cp.async / cp.async.bulk (src/compiler/ir/build_async.c) ----
// Done synchronously, when the thread issues them.  cp.async copies n (4,
// 8 or 16) bytes of which only the first src_bytes are read, the rest of
// the destination zeroed (src-size, ignore-src); a bulk copy moves a
// multiple of 16 bytes between 16-byte aligned addresses.  DEV: the
// global side's address space (MC_CDEV in a kernel that fences at device
// scope, emit_mem.c).
#define MC_CP_HELPERS(DEV, SFX)                                                              \
inline void mc_cp_async_##SFX(MC_SMEM uchar *d, DEV const uchar *s, uint n, uint src_bytes)   \
{                                                                                             \
    if (src_bytes >= n) {                                                                     \
        if (n == 16u)                                                                         \
            *reinterpret_cast<MC_SMEM uint4 *>(d) = *reinterpret_cast<DEV const uint4 *>(s);  \
        else if (n == 8u)                                                                     \
            *reinterpret_cast<MC_SMEM uint2 *>(d) = *reinterpret_cast<DEV const uint2 *>(s);  \
        else                                                                                  \
            *reinterpret_cast<MC_SMEM uint *>(d) = *reinterpret_cast<DEV const uint *>(s);    \
        return;                                                                               \
    }                                                                                         \
    for (uint k = 0u; k < n; k++)                                                             \
        d[k] = k < src_bytes ? s[k] : (uchar)0;                                               \
}                                                                                             \
inline void mc_cp_bulk_in_##SFX(MC_SMEM uchar *d, DEV const uchar *s, uint bytes)             \
{                                                                                             \
    for (uint k = 0u; k + 16u <= bytes; k += 16u)                                             \
        *reinterpret_cast<MC_SMEM uint4 *>(d + k) = *reinterpret_cast<DEV const uint4 *>(s + k); \
}                                                                                             \
inline void mc_cp_bulk_out_##SFX(DEV uchar *d, MC_SMEM const uchar *s, uint bytes)            \
{                                                                                             \
    for (uint k = 0u; k + 16u <= bytes; k += 16u)                                             \
        *reinterpret_cast<DEV uint4 *>(d + k) = *reinterpret_cast<MC_SMEM const uint4 *>(s + k); \
}
MC_CP_HELPERS(device, d)
// st.bulk: bytes (a multiple of 8) of zeros.
inline void mc_st_bulk(MC_SMEM ulong *d, ulong bytes)
{
    for (ulong k = 0ul; k < bytes / 8ul; k++)
        d[k] = 0ul;
}
MC_CP_HELPERS(MC_CDEV, c)
#undef MC_CP_HELPERS
