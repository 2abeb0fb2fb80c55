// metalcuda MSL prelude: calls, printf, assertions, clocks.

// ---- device printf and assert: records in the launch's FIFO ----
// CUDA's scheme: a kernel appends records to a buffer in device memory and
// the runtime formats them on the host at synchronisation points (src/core/
// printf.c reads exactly this layout).  The FIFO is a uint cursor (bytes
// used), 12 bytes of padding, then records:
//   uint size    total bytes, a multiple of 8 (0: no record here)
//   uint kind    1 printf, 2 assert
//   uint args    bytes of the argument area that follows (a multiple of 8)
//   uint nargs   printf: arguments the format consumed
//   args         printf: the argument buffer as the kernel packed it (each
//                argument aligned to its size), a %s slot holding instead
//                the record offset of its copied string (0: NULL); assert:
//                line, block x y z, thread x y z, 0
//   strings      NUL-terminated: printf the format then the %s strings in
//                order; assert the message, file and function
// A record that does not fit is dropped whole, as CUDA drops output beyond
// cudaLimitPrintfFifoSize.  Strings are copied, so a format or %s string in
// shared or local memory prints too.
#define MC_STATUS_ASSERT 2u
#define MC_REC_PRINTF 1u
#define MC_REC_ASSERT 2u
#define MC_FIFO_HEADER 16u
#define MC_PRINTF_MAX_STRING 65536u   // bound on a string scan (an unterminated string)

// A byte at a generic address (ARCHITECTURE §3 windows).
inline uint mc_gb(constant mc_launch &L, MC_SMEM uchar *smem, thread uchar *loc, ulong a)
{
    if (a - MC_SHARED_WINDOW < MC_WINDOW_SIZE)
        return smem ? (uint)smem[(uint)(a - MC_SHARED_WINDOW)] : 0u;
    if (a - MC_LOCAL_WINDOW < MC_WINDOW_SIZE)
        return loc ? (uint)loc[(uint)(a - MC_LOCAL_WINDOW)] : 0u;
    return (uint)*reinterpret_cast<device uchar *>(mc_gpu(L, a));
}

inline ulong mc_g64(constant mc_launch &L, MC_SMEM uchar *smem, thread uchar *loc, ulong a)
{
    ulong v = 0ul;
    for (uint k = 0u; k < 8u; k++)
        v |= (ulong)mc_gb(L, smem, loc, a + k) << (8u * k);
    return v;
}

inline uint mc_gstrlen(constant mc_launch &L, MC_SMEM uchar *smem, thread uchar *loc, ulong a)
{
    uint n = 0u;
    while (n < MC_PRINTF_MAX_STRING && mc_gb(L, smem, loc, a + n) != 0u)
        n++;
    return n;
}

// Copies n bytes from a generic address to device memory, then a NUL.
inline void mc_gcopy(constant mc_launch &L, MC_SMEM uchar *smem, thread uchar *loc, device uchar *to, ulong from,
                     uint n)
{
    for (uint k = 0u; k < n; k++)
        to[k] = (uchar)mc_gb(L, smem, loc, from + k);
    to[n] = (uchar)0;
}

inline void mc_put32(device uchar *p, uint v) { *reinterpret_cast<device uint *>(p) = v; }
inline void mc_put64(device uchar *p, ulong v)
{
    for (uint k = 0u; k < 8u; k++)
        p[k] = (uchar)(v >> (8u * k));
}

// The next argument of a printf format, from byte pos on: its size (4 or
// 8), its conversion character in conv ('*' for a width or precision), or
// 0 at the end of the format.  spec carries the state inside a conversion
// between calls (0 outside, 1 inside, 2 inside after an 8-byte length).
// The host's formatter (src/core/printf.c) scans with the same rules:
// d i u o x X → int, 8 bytes with l ll z j t q L; c → int; e E f F g G a A
// → double; s p n → pointer; anything else ends the conversion, printed as
// written, with no argument.
inline uint mc_pf_next(constant mc_launch &L, MC_SMEM uchar *smem, thread uchar *loc, ulong fmt,
                       thread uint &pos, thread uint &spec, thread uint &conv)
{
    for (uint guard = 0u; guard < MC_PRINTF_MAX_STRING; guard++) {
        uint ch = mc_gb(L, smem, loc, fmt + pos);
        if (ch == 0u)
            return 0u;
        pos++;
        if (spec == 0u) {
            if (ch != (uint)'%')
                continue;
            if (mc_gb(L, smem, loc, fmt + pos) == (uint)'%') {
                pos++;
                continue;
            }
            spec = 1u;
            continue;
        }
        conv = ch;
        if (ch == (uint)'*')
            return 4u;
        if (ch == (uint)'-' || ch == (uint)'+' || ch == (uint)' ' || ch == (uint)'#' || ch == (uint)'\'' ||
            ch == (uint)'.' || (ch >= (uint)'0' && ch <= (uint)'9') || ch == (uint)'h')
            continue;
        if (ch == (uint)'l' || ch == (uint)'z' || ch == (uint)'j' || ch == (uint)'t' || ch == (uint)'q' ||
            ch == (uint)'L') {
            spec = 2u;
            continue;
        }
        bool wide = spec == 2u;
        spec = 0u;
        switch (ch) {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
            return wide ? 8u : 4u;
        case 'c':
            return 4u;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
        case 's': case 'p': case 'n':
            return 8u;
        default:
            continue;
        }
    }
    return 0u;
}

// vprintf(format, args): returns the number of arguments, -1 for a NULL
// format (CUDA's printf).
inline int mc_vprintf(constant mc_launch &L, MC_SMEM uchar *smem, thread uchar *loc, ulong fmt, ulong args)
{
    if (fmt == 0ul)
        return -1;
    uint pos = 0u, spec = 0u, conv = 0u, off = 0u, n = 0u, strs = 0u;
    for (uint sz; (sz = mc_pf_next(L, smem, loc, fmt, pos, spec, conv)) != 0u; n++) {
        off = (off + sz - 1u) & ~(sz - 1u);
        if (conv == (uint)'s') {
            ulong p = mc_g64(L, smem, loc, args + off);
            if (p != 0ul)
                strs += mc_gstrlen(L, smem, loc, p) + 1u;
        }
        off += sz;
    }
    uint flen = mc_gstrlen(L, smem, loc, fmt);
    uint abytes = (off + 7u) & ~7u;
    uint size = (16u + abytes + flen + 1u + strs + 7u) & ~7u;
    if (L.printf_buf == 0ul)
        return (int)n;
    device uchar *fifo = reinterpret_cast<device uchar *>(L.printf_buf);
    uint at = atomic_fetch_add_explicit(reinterpret_cast<device atomic_uint *>(fifo), size, memory_order_relaxed);
    if (at > L.printf_size || size > L.printf_size - at)
        return (int)n;                       // the FIFO is full: dropped, as on CUDA
    device uchar *rec = fifo + MC_FIFO_HEADER + at;
    for (uint k = 0u; k < abytes; k++)
        rec[16u + k] = k < off ? (uchar)mc_gb(L, smem, loc, args + k) : (uchar)0;
    uint at_str = 16u + abytes;
    mc_gcopy(L, smem, loc, rec + at_str, fmt, flen);
    at_str += flen + 1u;
    pos = 0u, spec = 0u, off = 0u;
    for (uint sz; (sz = mc_pf_next(L, smem, loc, fmt, pos, spec, conv)) != 0u;) {
        off = (off + sz - 1u) & ~(sz - 1u);
        if (conv == (uint)'s') {
            ulong p = mc_g64(L, smem, loc, args + off);
            mc_put64(rec + 16u + off, p != 0ul ? (ulong)at_str : 0ul);
            if (p != 0ul) {
                uint len = mc_gstrlen(L, smem, loc, p);
                mc_gcopy(L, smem, loc, rec + at_str, p, len);
                at_str += len + 1u;
            }
        }
        off += sz;
    }
    mc_put32(rec + 4u, MC_REC_PRINTF);
    mc_put32(rec + 8u, abytes);
    mc_put32(rec + 12u, n);
    mc_put32(rec, size);                     // last: a record with a size is complete
    return (int)n;
}

// __assertfail: records the assertion for the host to print, marks the
// launch (cudaErrorAssert); link_calls.c ends the thread after it.
inline void mc_assertfail(constant mc_launch &L, MC_SMEM uchar *smem, thread uchar *loc, ulong msg, ulong file,
                          uint line, ulong func, uint3 ctaid, uint3 tid)
{
    device atomic_uint *status = reinterpret_cast<device atomic_uint *>(L.status);
    atomic_fetch_max_explicit(status, MC_STATUS_ASSERT, memory_order_relaxed);
    if (L.printf_buf == 0ul)
        return;
    uint lm = msg ? mc_gstrlen(L, smem, loc, msg) : 0u, lf = file ? mc_gstrlen(L, smem, loc, file) : 0u;
    uint ln = func ? mc_gstrlen(L, smem, loc, func) : 0u;
    uint size = (16u + 32u + lm + lf + ln + 3u + 7u) & ~7u;
    device uchar *fifo = reinterpret_cast<device uchar *>(L.printf_buf);
    uint at = atomic_fetch_add_explicit(reinterpret_cast<device atomic_uint *>(fifo), size, memory_order_relaxed);
    if (at > L.printf_size || size > L.printf_size - at)
        return;
    device uchar *rec = fifo + MC_FIFO_HEADER + at;
    uint v[8] = { line, ctaid.x, ctaid.y, ctaid.z, tid.x, tid.y, tid.z, 0u };
    for (uint k = 0u; k < 8u; k++)
        mc_put32(rec + 16u + 4u * k, v[k]);
    uint s = 48u;
    mc_gcopy(L, smem, loc, rec + s, msg, lm);
    s += lm + 1u;
    mc_gcopy(L, smem, loc, rec + s, file, lf);
    s += lf + 1u;
    mc_gcopy(L, smem, loc, rec + s, func, ln);
    mc_put32(rec + 4u, MC_REC_ASSERT);
    mc_put32(rec + 8u, 32u);
    mc_put32(rec + 12u, 0u);
    mc_put32(rec, size);
}

// %clock64 / %globaltimer: MSL has no clock; every read of a thread is
// one later than its last, from the launch's host time on.
inline ulong mc_clock(constant mc_launch &L, thread ulong &clk)
{
    clk += 1ul;
    return L.time_base + clk;
}
