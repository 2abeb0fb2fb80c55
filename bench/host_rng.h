/*
 * host_rng.h — the plain host loops' generator steps that bench/libs/curand.cu
 * and bench/curand_device.cu measure against: Philox4x32-10 (Salmon et al.,
 * SC11) on one counter, and one XORWOW step (Marsaglia 2003), written from
 * the papers.
 */
#ifndef BENCH_HOST_RNG_H
#define BENCH_HOST_RNG_H

/* ten rounds on the counter C under the key (K0, K1) */
static inline void host_philox10(unsigned c[4], unsigned k0, unsigned k1)
{
   for (int r = 0; r < 10; r++) {
      unsigned long long p0 = (unsigned long long)0xD2511F53u * c[0], p1 = (unsigned long long)0xCD9E8D57u * c[2];
      unsigned n0 = (unsigned)(p1 >> 32) ^ c[1] ^ k0, n1 = (unsigned)p1, n2 = (unsigned)(p0 >> 32) ^ c[3] ^ k1,
               n3 = (unsigned)p0;
      c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
      k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
   }
}

/* the next word of the state V, D */
static inline unsigned host_xorwow_next(unsigned v[5], unsigned *d)
{
   unsigned t = v[0] ^ (v[0] >> 2);
   v[0] = v[1], v[1] = v[2], v[2] = v[3], v[3] = v[4];
   v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
   *d += 362437u;
   return v[4] + *d;
}

#endif
