/*
 * fiber_x86_64.S — the fiber context switch for x86-64 (System V ABI).
 *
 *   void soft_fiber_switch(void **save_sp, void *load_sp);
 *
 * Pushes the callee-saved registers (rbp, rbx, r12-r15) on the current
 * stack, stores the stack pointer in *save_sp, loads load_sp and pops the
 * same registers from there: the return lands in the other fiber, just
 * after its own call to soft_fiber_switch.  Caller-saved registers need no
 * saving (the call clobbers them).  The x87 control word and MXCSR are
 * callee-saved too, but kernels never change them (the shim has no
 * fesetround), so every fiber of a thread shares the thread's values.
 *
 * A new fiber's stack is laid out by soft_fiber_prepare (fiber.c) as if
 * soft_fiber_switch had been called on it: six register slots (r12 = the
 * entry function, r13 = its argument) and soft_fiber_trampoline as the
 * return address.  The trampoline calls entry(arg), which never returns.
 *
 * Built only on x86-64; the ucontext fallback in fiber.c covers other
 * architectures (and SOFT_FIBER_UCONTEXT forces it, for testing).
 */
#if defined(__x86_64__) && !defined(SOFT_FIBER_UCONTEXT)

#ifdef __APPLE__
#define SYM(x) _##x
#define FUNC(x) .private_extern SYM(x); SYM(x):
#define END(x)
#else
#define SYM(x) x
#define FUNC(x) .hidden x; .type x, @function; x:
#define END(x) .size x, . - x
#endif

        .text
        .globl SYM(soft_fiber_switch)
        .p2align 4
FUNC(soft_fiber_switch)
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
END(soft_fiber_switch)

        .globl SYM(soft_fiber_trampoline)
        .p2align 4
FUNC(soft_fiber_trampoline)
        /* rsp is 16-byte aligned here (fiber.c lays the frame out so), as
         * a call needs; rbp is 0, ending backtraces. */
        movq    %r13, %rdi
        call    *%r12
        ud2
END(soft_fiber_trampoline)

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
