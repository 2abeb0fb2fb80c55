/*
 * mc_device_simd.h — CUDA's SIMD video intrinsics (__vadd2, __vcmpgeu4,
 * __vsads2 ...: two 16-bit or four 8-bit lanes in an unsigned int), as
 * plain integer code.
 *
 * clang's __clang_cuda_device_functions.h writes them as PTX video
 * instructions (vadd2, vset4, vabsdiff2 ...), which metalcuda's PTX
 * compiler does not translate; nvcc's own forms are integer code, as here.
 * cuda_runtime.h includes this file twice: first with MC_SIMD_HIDE_CLANG
 * defined, before clang's header, to rename clang's versions out of the
 * way; then plainly, after it, to drop the names and define ours.
 * Semantics: CUDA Math API, "SIMD Intrinsics" (each lane on its own;
 * "ss" saturates signed, "us" unsigned; __vcmp* give all-ones lanes,
 * __vavgs rounds halves away from zero, __vavgu up,
 * __vset* give 1; __vsad* sum the lanes' absolute differences).
 */
#if defined(MC_SIMD_HIDE_CLANG)
#define __vabs2 __mc_clang__vabs2
#define __vabs4 __mc_clang__vabs4
#define __vabsdiffs2 __mc_clang__vabsdiffs2
#define __vabsdiffs4 __mc_clang__vabsdiffs4
#define __vabsdiffu2 __mc_clang__vabsdiffu2
#define __vabsdiffu4 __mc_clang__vabsdiffu4
#define __vabsss2 __mc_clang__vabsss2
#define __vabsss4 __mc_clang__vabsss4
#define __vadd2 __mc_clang__vadd2
#define __vadd4 __mc_clang__vadd4
#define __vaddss2 __mc_clang__vaddss2
#define __vaddss4 __mc_clang__vaddss4
#define __vaddus2 __mc_clang__vaddus2
#define __vaddus4 __mc_clang__vaddus4
#define __vavgs2 __mc_clang__vavgs2
#define __vavgs4 __mc_clang__vavgs4
#define __vavgu2 __mc_clang__vavgu2
#define __vavgu4 __mc_clang__vavgu4
#define __vcmpeq2 __mc_clang__vcmpeq2
#define __vcmpeq4 __mc_clang__vcmpeq4
#define __vcmpges2 __mc_clang__vcmpges2
#define __vcmpges4 __mc_clang__vcmpges4
#define __vcmpgeu2 __mc_clang__vcmpgeu2
#define __vcmpgeu4 __mc_clang__vcmpgeu4
#define __vcmpgts2 __mc_clang__vcmpgts2
#define __vcmpgts4 __mc_clang__vcmpgts4
#define __vcmpgtu2 __mc_clang__vcmpgtu2
#define __vcmpgtu4 __mc_clang__vcmpgtu4
#define __vcmples2 __mc_clang__vcmples2
#define __vcmples4 __mc_clang__vcmples4
#define __vcmpleu2 __mc_clang__vcmpleu2
#define __vcmpleu4 __mc_clang__vcmpleu4
#define __vcmplts2 __mc_clang__vcmplts2
#define __vcmplts4 __mc_clang__vcmplts4
#define __vcmpltu2 __mc_clang__vcmpltu2
#define __vcmpltu4 __mc_clang__vcmpltu4
#define __vcmpne2 __mc_clang__vcmpne2
#define __vcmpne4 __mc_clang__vcmpne4
#define __vhaddu2 __mc_clang__vhaddu2
#define __vhaddu4 __mc_clang__vhaddu4
#define __vmaxs2 __mc_clang__vmaxs2
#define __vmaxs4 __mc_clang__vmaxs4
#define __vmaxu2 __mc_clang__vmaxu2
#define __vmaxu4 __mc_clang__vmaxu4
#define __vmins2 __mc_clang__vmins2
#define __vmins4 __mc_clang__vmins4
#define __vminu2 __mc_clang__vminu2
#define __vminu4 __mc_clang__vminu4
#define __vneg2 __mc_clang__vneg2
#define __vneg4 __mc_clang__vneg4
#define __vnegss2 __mc_clang__vnegss2
#define __vnegss4 __mc_clang__vnegss4
#define __vsads2 __mc_clang__vsads2
#define __vsads4 __mc_clang__vsads4
#define __vsadu2 __mc_clang__vsadu2
#define __vsadu4 __mc_clang__vsadu4
#define __vseteq2 __mc_clang__vseteq2
#define __vseteq4 __mc_clang__vseteq4
#define __vsetges2 __mc_clang__vsetges2
#define __vsetges4 __mc_clang__vsetges4
#define __vsetgeu2 __mc_clang__vsetgeu2
#define __vsetgeu4 __mc_clang__vsetgeu4
#define __vsetgts2 __mc_clang__vsetgts2
#define __vsetgts4 __mc_clang__vsetgts4
#define __vsetgtu2 __mc_clang__vsetgtu2
#define __vsetgtu4 __mc_clang__vsetgtu4
#define __vsetles2 __mc_clang__vsetles2
#define __vsetles4 __mc_clang__vsetles4
#define __vsetleu2 __mc_clang__vsetleu2
#define __vsetleu4 __mc_clang__vsetleu4
#define __vsetlts2 __mc_clang__vsetlts2
#define __vsetlts4 __mc_clang__vsetlts4
#define __vsetltu2 __mc_clang__vsetltu2
#define __vsetltu4 __mc_clang__vsetltu4
#define __vsetne2 __mc_clang__vsetne2
#define __vsetne4 __mc_clang__vsetne4
#define __vsub2 __mc_clang__vsub2
#define __vsub4 __mc_clang__vsub4
#define __vsubss2 __mc_clang__vsubss2
#define __vsubss4 __mc_clang__vsubss4
#define __vsubus2 __mc_clang__vsubus2
#define __vsubus4 __mc_clang__vsubus4
#else
#undef __vabs2
#undef __vabs4
#undef __vabsdiffs2
#undef __vabsdiffs4
#undef __vabsdiffu2
#undef __vabsdiffu4
#undef __vabsss2
#undef __vabsss4
#undef __vadd2
#undef __vadd4
#undef __vaddss2
#undef __vaddss4
#undef __vaddus2
#undef __vaddus4
#undef __vavgs2
#undef __vavgs4
#undef __vavgu2
#undef __vavgu4
#undef __vcmpeq2
#undef __vcmpeq4
#undef __vcmpges2
#undef __vcmpges4
#undef __vcmpgeu2
#undef __vcmpgeu4
#undef __vcmpgts2
#undef __vcmpgts4
#undef __vcmpgtu2
#undef __vcmpgtu4
#undef __vcmples2
#undef __vcmples4
#undef __vcmpleu2
#undef __vcmpleu4
#undef __vcmplts2
#undef __vcmplts4
#undef __vcmpltu2
#undef __vcmpltu4
#undef __vcmpne2
#undef __vcmpne4
#undef __vhaddu2
#undef __vhaddu4
#undef __vmaxs2
#undef __vmaxs4
#undef __vmaxu2
#undef __vmaxu4
#undef __vmins2
#undef __vmins4
#undef __vminu2
#undef __vminu4
#undef __vneg2
#undef __vneg4
#undef __vnegss2
#undef __vnegss4
#undef __vsads2
#undef __vsads4
#undef __vsadu2
#undef __vsadu4
#undef __vseteq2
#undef __vseteq4
#undef __vsetges2
#undef __vsetges4
#undef __vsetgeu2
#undef __vsetgeu4
#undef __vsetgts2
#undef __vsetgts4
#undef __vsetgtu2
#undef __vsetgtu4
#undef __vsetles2
#undef __vsetles4
#undef __vsetleu2
#undef __vsetleu4
#undef __vsetlts2
#undef __vsetlts4
#undef __vsetltu2
#undef __vsetltu4
#undef __vsetne2
#undef __vsetne4
#undef __vsub2
#undef __vsub4
#undef __vsubss2
#undef __vsubss4
#undef __vsubus2
#undef __vsubus4
#ifndef MC_DEVICE_SIMD_H
#define MC_DEVICE_SIMD_H

#define MC_SD static __inline__ __device__ __attribute__((always_inline))

/* One lane of W bits at bit s: unsigned and sign-extended. */
#define MC_LANE_U(v, W, s) (((v) >> (s)) & ((1u << (W)) - 1u))
#define MC_LANE_S(v, W, s) ((int)(MC_LANE_U(v, W, s) << (32 - (W))) >> (32 - (W)))

/* NAME(a, b): EXPR per lane, from ua/ub (unsigned lanes) and sa/sb (signed),
 * with LO/HI the signed range and UMAX the unsigned maximum of a lane. */
#define MC_SIMD(NAME, W, EXPR)                                                              \
   MC_SD unsigned int NAME(unsigned int a, unsigned int b)                                  \
   {                                                                                        \
      const int LO = -(1 << ((W) - 1)), HI = (1 << ((W) - 1)) - 1;                          \
      const unsigned UMAX = (1u << (W)) - 1u;                                               \
      unsigned r = 0;                                                                       \
      for (int s = 0; s < 32; s += (W)) {                                                   \
         unsigned ua = MC_LANE_U(a, W, s), ub = MC_LANE_U(b, W, s);                         \
         int sa = MC_LANE_S(a, W, s), sb = MC_LANE_S(b, W, s);                              \
         (void)ua; (void)ub; (void)sa; (void)sb; (void)LO; (void)HI;                        \
         r |= ((unsigned)(EXPR) & UMAX) << s;                                               \
      }                                                                                     \
      return r;                                                                             \
   }
#define MC_SIMD24(NAME, EXPR) MC_SIMD(NAME##2, 16, EXPR) MC_SIMD(NAME##4, 8, EXPR)
#define MC_CLAMP(v) ((v) < LO ? LO : (v) > HI ? HI : (v))
#define MC_ABS(v) ((v) < 0 ? -(v) : (v))

MC_SIMD24(__mc_vabs, MC_ABS(sa))
MC_SIMD24(__mc_vabsss, MC_CLAMP(MC_ABS(sa)))
MC_SIMD24(__mc_vneg, -sa)
MC_SIMD24(__mc_vnegss, MC_CLAMP(-sa))
MC_SIMD24(__vabsdiffs, MC_ABS(sa - sb))
MC_SIMD24(__vabsdiffu, ua > ub ? ua - ub : ub - ua)
MC_SIMD24(__vadd, ua + ub)
MC_SIMD24(__vaddss, MC_CLAMP(sa + sb))
MC_SIMD24(__vaddus, ua + ub > UMAX ? UMAX : ua + ub)
MC_SIMD24(__vsub, ua - ub)
MC_SIMD24(__vsubss, MC_CLAMP(sa - sb))
MC_SIMD24(__vsubus, ua > ub ? ua - ub : 0u)
MC_SIMD24(__vavgs, ((sa + sb) + (sa + sb >= 0 ? 1 : -1)) / 2)   /* halves away from zero */
MC_SIMD24(__vavgu, (ua + ub + 1) >> 1)
MC_SIMD24(__vhaddu, (ua + ub) >> 1)
MC_SIMD24(__vmaxs, sa > sb ? sa : sb)
MC_SIMD24(__vmaxu, ua > ub ? ua : ub)
MC_SIMD24(__vmins, sa < sb ? sa : sb)
MC_SIMD24(__vminu, ua < ub ? ua : ub)
MC_SIMD24(__vcmpeq, ua == ub ? UMAX : 0u)
MC_SIMD24(__vcmpne, ua != ub ? UMAX : 0u)
MC_SIMD24(__vcmpges, sa >= sb ? UMAX : 0u)
MC_SIMD24(__vcmpgeu, ua >= ub ? UMAX : 0u)
MC_SIMD24(__vcmpgts, sa > sb ? UMAX : 0u)
MC_SIMD24(__vcmpgtu, ua > ub ? UMAX : 0u)
MC_SIMD24(__vcmples, sa <= sb ? UMAX : 0u)
MC_SIMD24(__vcmpleu, ua <= ub ? UMAX : 0u)
MC_SIMD24(__vcmplts, sa < sb ? UMAX : 0u)
MC_SIMD24(__vcmpltu, ua < ub ? UMAX : 0u)
MC_SIMD24(__vseteq, ua == ub)
MC_SIMD24(__vsetne, ua != ub)
MC_SIMD24(__vsetges, sa >= sb)
MC_SIMD24(__vsetgeu, ua >= ub)
MC_SIMD24(__vsetgts, sa > sb)
MC_SIMD24(__vsetgtu, ua > ub)
MC_SIMD24(__vsetles, sa <= sb)
MC_SIMD24(__vsetleu, ua <= ub)
MC_SIMD24(__vsetlts, sa < sb)
MC_SIMD24(__vsetltu, ua < ub)

/* the one-operand forms */
MC_SD unsigned int __vabs2(unsigned int a) { return __mc_vabs2(a, 0); }
MC_SD unsigned int __vabs4(unsigned int a) { return __mc_vabs4(a, 0); }
MC_SD unsigned int __vabsss2(unsigned int a) { return __mc_vabsss2(a, 0); }
MC_SD unsigned int __vabsss4(unsigned int a) { return __mc_vabsss4(a, 0); }
MC_SD unsigned int __vneg2(unsigned int a) { return __mc_vneg2(a, 0); }
MC_SD unsigned int __vneg4(unsigned int a) { return __mc_vneg4(a, 0); }
MC_SD unsigned int __vnegss2(unsigned int a) { return __mc_vnegss2(a, 0); }
MC_SD unsigned int __vnegss4(unsigned int a) { return __mc_vnegss4(a, 0); }

/* sums of the lanes' absolute differences */
#define MC_SAD(NAME, W, DIFF)                                                               \
   MC_SD unsigned int NAME(unsigned int a, unsigned int b)                                  \
   {                                                                                        \
      unsigned r = 0;                                                                       \
      for (int s = 0; s < 32; s += (W)) {                                                   \
         unsigned ua = MC_LANE_U(a, W, s), ub = MC_LANE_U(b, W, s);                         \
         int sa = MC_LANE_S(a, W, s), sb = MC_LANE_S(b, W, s);                              \
         (void)ua; (void)ub; (void)sa; (void)sb;                                            \
         r += (unsigned)(DIFF);                                                             \
      }                                                                                     \
      return r;                                                                             \
   }
MC_SAD(__vsads2, 16, MC_ABS(sa - sb))
MC_SAD(__vsads4, 8, MC_ABS(sa - sb))
MC_SAD(__vsadu2, 16, ua > ub ? ua - ub : ub - ua)
MC_SAD(__vsadu4, 8, ua > ub ? ua - ub : ub - ua)

#undef MC_SAD
#undef MC_SIMD24
#undef MC_SIMD
#undef MC_CLAMP
#undef MC_ABS
#undef MC_LANE_U
#undef MC_LANE_S
#undef MC_SD
#endif
#endif
