/*
 * crt/mc_rdc_unit.h — the device code of one translation unit compiled
 * with relocatable device code (nvcc -dc, -rdc=true), carried in its host
 * object for the device link (src/toolchain/README.md, "Separate
 * compilation").
 *
 * metalcuda's driver compiles the unit's PTX into a fatbin, then compiles
 * the host side with __MC_RDC_FATBIN (that file's path, quoted) and
 * __MC_RDC_UNIT (a name unique to the unit) defined; this puts the fatbin's
 * bytes into the object under that name (hidden: the device link is per
 * executable or shared library, as nvlink's is).  The device link (nvcc
 * -dlink, or the link step) lists every such symbol of its objects and
 * archives in one image the runtime links at load.  The bytes come in
 * through the assembler's .incbin, so the file is no dependency a build
 * system sees (-MD lists headers, not it).
 */
#ifndef MC_RDC_UNIT_H
#define MC_RDC_UNIT_H
#if defined(__MC_RDC_FATBIN) && defined(__MC_RDC_UNIT) && !defined(__CUDA_ARCH__)

#define __MC_RDC_STR2(x) #x
#define __MC_RDC_STR(x) __MC_RDC_STR2(x)
#if defined(__APPLE__)
#define __MC_RDC_SYM "_" __MC_RDC_STR(__MC_RDC_UNIT)
#define __MC_RDC_SECTION ".pushsection __TEXT,__mc_relfatbin\n"
#define __MC_RDC_HIDE ".private_extern "
#else
#define __MC_RDC_SYM __MC_RDC_STR(__MC_RDC_UNIT)
#define __MC_RDC_SECTION ".pushsection .mc_relfatbin,\"a\",@progbits\n"
#define __MC_RDC_HIDE ".hidden "
#endif

/* the tag before the symbol marks a unit's fatbin for the device link's
 * check of undefined symbols (src/toolchain/rdc_check.c: MC_RDC_TAG) */
__asm__(__MC_RDC_SECTION
        ".p2align 3\n"
        ".ascii \"MCRDCU01\"\n"
        ".globl " __MC_RDC_SYM "\n"
        __MC_RDC_HIDE __MC_RDC_SYM "\n"
        __MC_RDC_SYM ":\n"
        ".incbin \"" __MC_RDC_FATBIN "\"\n"
        ".popsection\n");

#undef __MC_RDC_SYM
#undef __MC_RDC_SECTION
#undef __MC_RDC_HIDE
#endif
#endif
