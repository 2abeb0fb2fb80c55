/*
 * fiber_arm64.S — the fiber context switch for arm64 (AAPCS64: Linux and
 * Apple platforms).
 *
 *   void soft_fiber_switch(void **save_sp, void *load_sp);
 *
 * Saves the callee-saved registers x19-x28, the frame pointer x29, the
 * link register x30 and the low halves d8-d15 of v8-v15 in a 160-byte
 * frame on the current stack, stores sp in *save_sp, loads load_sp and
 * restores the same frame from there; `ret` then jumps to the other
 * fiber's x30, just after its own call to soft_fiber_switch.  FPCR is
 * callee-saved too, but kernels never change it, so every fiber of a
 * thread shares the thread's value.
 *
 * A new fiber's frame (soft_fiber_prepare, fiber.c): x19 = the entry
 * function, x20 = its argument, x29 = 0 (ends backtraces), x30 =
 * soft_fiber_trampoline, which calls entry(arg); entry never returns.
 */
#if defined(__aarch64__) && !defined(SOFT_FIBER_UCONTEXT)

#ifdef __APPLE__
#define SYM(x) _##x
#define FUNC(x) .private_extern SYM(x) %% SYM(x):
#define END(x)
#else
#define SYM(x) x
#define FUNC(x) .hidden x; .type x, %function; x:
#define END(x) .size x, . - x
#endif

        .text
        .globl SYM(soft_fiber_switch)
        .p2align 4
FUNC(soft_fiber_switch)
        sub     sp, sp, #160
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mov     x2, sp
        str     x2, [x0]
        mov     sp, x1
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        add     sp, sp, #160
        ret
END(soft_fiber_switch)

        .globl SYM(soft_fiber_trampoline)
        .p2align 4
FUNC(soft_fiber_trampoline)
        mov     x0, x20
        blr     x19
        brk     #0
END(soft_fiber_trampoline)

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
