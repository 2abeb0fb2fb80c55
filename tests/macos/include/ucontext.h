#ifndef _MC_UCONTEXT_H
#define _MC_UCONTEXT_H
/* Deprecated on macOS (and an error there without _XOPEN_SOURCE), but
 * present: the declarations exist. */
#include <signal.h>
typedef struct __mc_ucontext { int uc_onstack; sigset_t uc_sigmask; stack_t uc_stack; struct __mc_ucontext *uc_link; size_t uc_mcsize; void *uc_mcontext; } ucontext_t;
int getcontext(ucontext_t *);
int setcontext(const ucontext_t *);
void makecontext(ucontext_t *, void (*)(), int, ...);
int swapcontext(ucontext_t *restrict, const ucontext_t *restrict);
#endif
