/*
 * shim.S — embeds shim/metal_stdlib in the library, so the software device
 * works without the source tree (shim.c writes it to the cache directory).
 * Assembled from the repository root with -Wa,-I,. (see the Makefile).
 */
#if defined(__APPLE__)
        .const_data
        .globl _soft_shim_start
        .private_extern _soft_shim_start
        .globl _soft_shim_end
        .private_extern _soft_shim_end
        .p2align 4
_soft_shim_start:
        .incbin "src/metal/soft/shim/metal_stdlib"
_soft_shim_end:
        .byte 0
#else
        .section .rodata
        .globl soft_shim_start
        .hidden soft_shim_start
        .globl soft_shim_end
        .hidden soft_shim_end
        .balign 16
soft_shim_start:
        .incbin "src/metal/soft/shim/metal_stdlib"
soft_shim_end:
        .byte 0
        .section .note.GNU-stack,"",%progbits
#endif
