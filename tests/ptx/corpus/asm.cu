// Hand-written inline PTX: modifiers in unusual orders, scoped .reg
// declarations without '%', labels made unique with %=, video selectors,
// predicates, vector moves, cache hints and fences.
#include <cstdint>

__device__ unsigned g_word;

__global__ void asmk(const unsigned *in, unsigned *out, float *f, uint64_t *q)
{
   unsigned t = threadIdx.x, v, w, p;
   uint64_t qq;
   float4 f4;
   asm volatile("ld.cs.global.b32 %0, [%1];" : "=r"(v) : "l"(in + t));
   asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
                : "=f"(f4.x), "=f"(f4.y), "=f"(f4.z), "=f"(f4.w) : "l"(f));
   asm volatile("ld.relaxed.gpu.global.u32 %0, [%1+4];" : "=r"(w) : "l"(in));
   asm volatile("ld.acquire.sys.global.b32 %0, [%1+-4];" : "=r"(p) : "l"(in + 8));
   asm volatile("st.global.wb.u32 [%0], %1;" ::"l"(out + t), "r"(v));
   asm volatile("st.release.gpu.global.b32 [%0+0x10], %1;" ::"l"(out), "r"(w));
   asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                : "=r"(w) : "r"(v));
   asm volatile("{\n\t.reg .b32 r<4>;\n\tmov.b32 r0, %1;\n\tadd.u32 r3, r0, 7;\n\tmov.b32 %0, r3;\n\t}"
                : "=r"(p) : "r"(w));
   asm volatile("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(v) : "r"(v), "r"(w), "r"(p));
   asm volatile("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(v) : "r"(v), "r"(w), "r"(p));
   asm volatile("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(w) : "r"(v), "r"(w), "r"(p));
   asm volatile("bfind.shiftamt.u32 %0, %1;" : "=r"(p) : "r"(w));
   asm volatile("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(v) : "r"(v), "r"(w), "r"(p));
   asm volatile("vadd.u32.u32.u32.sat.add %0, %1.b1, %2.b3, %3;" : "=r"(v) : "r"(v), "r"(w), "r"(p));
   asm volatile("vmax2.s32.s32.s32 %0.h1, %1.h10, %2.h32, %3;" : "=r"(w) : "r"(v), "r"(w), "r"(p));
   asm volatile("mov.b64 {%0, %1}, %2;" : "=r"(v), "=r"(w) : "l"(q[t]));
   asm volatile("mov.b64 %0, {%1, %2};" : "=l"(qq) : "r"(w), "r"(v));
   asm volatile("red.global.add.u32 [%0], %1;" ::"l"(&g_word), "r"(v));
   asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(q), "l"(qq));
   asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(p) : "l"(&g_word), "r"(v), "r"(w));
   asm volatile("membar.gl;\n\tfence.acq_rel.gpu;\n\tfence.sc.cta;\n\tmembar.sys;" ::: "memory");
   asm volatile("{\n\t.reg .pred %%px;\n\tsetp.lt.u32 %%px, %1, 16;\n\t@%%px bra.uni L_skip%=;\n\t"
                "add.u32 %0, %0, 1;\nL_skip%=:\n\t}"
                : "+r"(v) : "r"(t));
   asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.ballot.b32 %0, q, 0xffffffff;\n\t}"
                : "=r"(w) : "r"(v));
   asm volatile("activemask.b32 %0;" : "=r"(p));
   asm volatile("{\n\t.reg .pred a, b;\n\tsetp.eq.and.u32 a|b, %1, %2, 1;\n\t"
                "selp.b32 %0, %1, %2, !b;\n\t}" : "=r"(p) : "r"(v), "r"(w));
   asm volatile("mov.u32 %0, %%laneid;\n\tmov.u32 %1, %%warpid;" : "=r"(v), "=r"(w));
   asm volatile("mov.u32 %0, %%ntid.y;\n\tmov.u64 %1, %%globaltimer;" : "=r"(p), "=l"(qq));
   asm volatile("mov.u32 %0, %%lanemask_lt;\n\tmov.u32 %1, %%smid;" : "=r"(p), "=r"(w));
   asm volatile("prefetch.global.L2 [%0];\n\tprefetchu.L1 [%0];" ::"l"(in));
   asm volatile("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(f4.x), "f"(f4.y));
   asm volatile("{\n\t.reg .pred %%q;\n\ttestp.finite.f32 %%q, %1;\n\tselp.u32 %0, 1, 0, %%q;\n\t}"
                : "=r"(p) : "f"(f4.z));
   asm volatile("mul.wide.u16 %0, %1, %2;" : "=r"(p) : "h"((unsigned short)v), "h"((unsigned short)w));
   asm volatile("mad.hi.sat.s32 %0, %1, %2, %0;" : "+r"(v) : "r"(w), "r"(p));
   asm volatile("add.cc.u32 %0, %0, %2;\n\taddc.cc.u32 %1, %1, 0;\n\taddc.u32 %1, %1, 0;"
                : "+r"(v), "+r"(w) : "r"(p));
   asm volatile("bar.warp.sync 0xffffffff;\n\tbarrier.sync.aligned 0;\n\tbar.arrive 1, 64;");
   asm volatile("nanosleep.u32 20;");
   asm volatile("{\n\t.reg .pred %%q;\n\tisspacep.global %%q, %1;\n\t@!%%q mov.u32 %0, 0;\n\t}"
                : "+r"(w) : "l"(in));
   asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(qq) : "l"(qq));
   f[t] = f4.x + f4.y + f4.z + f4.w;
   out[t] = v + w + p + (unsigned)qq;
}
