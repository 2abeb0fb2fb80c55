/*
 * kernels.S — embeds the PTX of kernels.cu (built by metalcuda's nvcc into
 * $(BUILD)/libs/cublasLt/kernels.ptx, found through -Wa,-I: the Makefile) in
 * the library, NUL-terminated for cuModuleLoadData.
 */
#if defined(__APPLE__)
        .const_data
        .globl _lt_kernels_ptx
        .private_extern _lt_kernels_ptx
        .p2align 4
_lt_kernels_ptx:
        .incbin "kernels.ptx"
        .byte 0
#else
        .section .rodata
        .globl lt_kernels_ptx
        .hidden lt_kernels_ptx
        .balign 16
lt_kernels_ptx:
        .incbin "kernels.ptx"
        .byte 0
        .section .note.GNU-stack,"",%progbits
#endif
