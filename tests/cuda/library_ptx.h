/*
 * library_ptx.h — the PTX library that library_mgmt.cu (runtime) and
 * library_drv.cu (driver) load, written by hand for .target sm_75, and the
 * fatbin those programs wrap it in.
 *
 *  - scale_add(int *out, const int *in, int a, int n):
 *      out[i] = in[i] * a + bias for i < n, and each such thread adds 1 to
 *      the managed counter mcount;
 *  - smem_rev(int *out, const int *in, int top): reverses each block's
 *      slice of in through the dynamic shared memory, each thread t storing
 *      at word top - t, so a launch must give (top + 1) * 4 bytes of it;
 *  - bias: a .global int, 7 at load; mcount: a managed .global int, 5 at
 *      load; table: 4 .global ints {1, 2, 3, 4} (its size is checked).
 */
#ifndef TESTS_CUDA_LIBRARY_PTX_H
#define TESTS_CUDA_LIBRARY_PTX_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LIB_KERNELS 2
#define LIB_BIAS0 7
#define LIB_MCOUNT0 5

static const char library_ptx[] =
   ".version 7.0\n"
   ".target sm_75\n"
   ".address_size 64\n"
   "\n"
   ".visible .global .align 4 .s32 bias = 7;\n"
   ".visible .global .attribute(.managed) .align 4 .u32 mcount = 5;\n"
   ".visible .global .align 4 .b32 table[4] = {1, 2, 3, 4};\n"
   ".extern .shared .align 4 .b8 dyn_smem[];\n"
   "\n"
   ".visible .entry scale_add(\n"
   "   .param .u64 scale_add_out,\n"
   "   .param .u64 scale_add_in,\n"
   "   .param .u32 scale_add_a,\n"
   "   .param .u32 scale_add_n\n"
   ")\n"
   "{\n"
   "   .reg .pred %p<2>;\n"
   "   .reg .b32 %r<12>;\n"
   "   .reg .b64 %rd<8>;\n"
   "   ld.param.u64 %rd1, [scale_add_out];\n"
   "   ld.param.u64 %rd2, [scale_add_in];\n"
   "   ld.param.u32 %r1, [scale_add_a];\n"
   "   ld.param.u32 %r2, [scale_add_n];\n"
   "   mov.u32 %r3, %ctaid.x;\n"
   "   mov.u32 %r4, %ntid.x;\n"
   "   mov.u32 %r5, %tid.x;\n"
   "   mad.lo.s32 %r6, %r3, %r4, %r5;\n"
   "   setp.ge.s32 %p1, %r6, %r2;\n"
   "   @%p1 bra DONE;\n"
   "   cvta.to.global.u64 %rd3, %rd1;\n"
   "   cvta.to.global.u64 %rd4, %rd2;\n"
   "   mul.wide.s32 %rd5, %r6, 4;\n"
   "   add.s64 %rd6, %rd4, %rd5;\n"
   "   ld.global.u32 %r7, [%rd6];\n"
   "   ld.global.u32 %r8, [bias];\n"
   "   mad.lo.s32 %r9, %r7, %r1, %r8;\n"
   "   add.s64 %rd7, %rd3, %rd5;\n"
   "   st.global.u32 [%rd7], %r9;\n"
   "   atom.global.add.u32 %r10, [mcount], 1;\n"
   "DONE:\n"
   "   ret;\n"
   "}\n"
   "\n"
   ".visible .entry smem_rev(\n"
   "   .param .u64 smem_rev_out,\n"
   "   .param .u64 smem_rev_in,\n"
   "   .param .u32 smem_rev_top\n"
   ")\n"
   "{\n"
   "   .reg .b32 %r<16>;\n"
   "   .reg .b64 %rd<10>;\n"
   "   ld.param.u64 %rd1, [smem_rev_out];\n"
   "   ld.param.u64 %rd2, [smem_rev_in];\n"
   "   ld.param.u32 %r1, [smem_rev_top];\n"
   "   mov.u32 %r2, %tid.x;\n"
   "   mov.u32 %r3, %ntid.x;\n"
   "   mov.u32 %r4, %ctaid.x;\n"
   "   mad.lo.s32 %r5, %r4, %r3, %r2;\n"
   "   cvta.to.global.u64 %rd3, %rd2;\n"
   "   mul.wide.u32 %rd4, %r5, 4;\n"
   "   add.s64 %rd5, %rd3, %rd4;\n"
   "   ld.global.u32 %r6, [%rd5];\n"
   "   mov.u32 %r7, dyn_smem;\n"
   "   sub.s32 %r8, %r1, %r2;\n"
   "   shl.b32 %r9, %r8, 2;\n"
   "   add.s32 %r10, %r7, %r9;\n"
   "   st.shared.u32 [%r10], %r6;\n"
   "   bar.sync 0;\n"
   "   sub.s32 %r11, %r3, 1;\n"
   "   sub.s32 %r12, %r11, %r2;\n"
   "   sub.s32 %r13, %r1, %r12;\n"
   "   shl.b32 %r14, %r13, 2;\n"
   "   add.s32 %r15, %r7, %r14;\n"
   "   ld.shared.u32 %r6, [%r15];\n"
   "   cvta.to.global.u64 %rd6, %rd1;\n"
   "   add.s64 %rd7, %rd6, %rd4;\n"
   "   st.global.u32 [%rd7], %r6;\n"
   "   ret;\n"
   "}\n";

/* The expected outputs, computed on the host. */
static inline void lib_scale_add_ref(int *out, const int *in, int a, int bias, int n)
{
   for (int i = 0; i < n; i++)
      out[i] = (int)((unsigned)in[i] * (unsigned)a + (unsigned)bias);
}

static inline void lib_smem_rev_ref(int *out, const int *in, int block, int n)
{
   for (int i = 0; i < n; i++) {
      int base = i / block * block, t = i % block;
      out[i] = in[base + block - 1 - t];
   }
}

/* The PTX in a fatbin of one uncompressed PTX entry for compute_75, laid
 * out as nvcc 13's -fatbin -compress-mode=none writes one (a 16-byte
 * header, an 80-byte entry header, the text padded with NULs to 8 bytes):
 * malloc'ed, *len its size. */
static inline unsigned char *lib_fatbin(size_t *len)
{
   size_t text = sizeof(library_ptx);   /* with its NUL */
   size_t padded = (text + 7) / 8 * 8;
   size_t total = 16 + 80 + padded;
   unsigned char *f = (unsigned char *)calloc(1, total);
   if (!f)
      return NULL;
   uint32_t magic = 0xBA55ED50u;
   uint16_t version = 1, header = 16;
   uint64_t files = 80 + padded;
   memcpy(f, &magic, 4);
   memcpy(f + 4, &version, 2);
   memcpy(f + 6, &header, 2);
   memcpy(f + 8, &files, 8);
   unsigned char *e = f + 16;
   uint16_t kind = 1, eversion = 0x0101, isa_minor = 0, isa_major = 7;
   uint32_t eheader = 80, options_offset = 64, sm = 75, options_len = 0x48;
   uint64_t size = padded, flags = 0x11;
   memcpy(e, &kind, 2);
   memcpy(e + 2, &eversion, 2);
   memcpy(e + 4, &eheader, 4);
   memcpy(e + 8, &size, 8);
   memcpy(e + 20, &options_offset, 4);
   memcpy(e + 24, &isa_minor, 2);
   memcpy(e + 26, &isa_major, 2);
   memcpy(e + 28, &sm, 4);
   memcpy(e + 40, &flags, 8);
   memcpy(e + 64, &options_len, 4);
   memcpy(e + 80, library_ptx, text);
   *len = total;
   return f;
}

#endif
