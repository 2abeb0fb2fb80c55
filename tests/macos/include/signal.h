#ifndef _MC_SIGNAL_H
#define _MC_SIGNAL_H
#include "_mc_types.h"
#include <pthread.h>
typedef unsigned int sigset_t;
typedef int sig_atomic_t;
union sigval { int sival_int; void *sival_ptr; };
typedef struct __siginfo { int si_signo, si_errno, si_code; pid_t si_pid; uid_t si_uid; int si_status; void *si_addr; union sigval si_value; long si_band; unsigned long __pad[7]; } siginfo_t;
struct sigaction {
   union { void (*__sa_handler)(int); void (*__sa_sigaction)(int, siginfo_t *, void *); } __sigaction_u;
   sigset_t sa_mask;
   int sa_flags;
};
#define sa_handler __sigaction_u.__sa_handler
#define sa_sigaction __sigaction_u.__sa_sigaction
typedef struct { void *ss_sp; size_t ss_size; int ss_flags; } stack_t;
#define SIG_DFL ((void (*)(int))0)
#define SIG_IGN ((void (*)(int))1)
#define SIG_ERR ((void (*)(int))-1)
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGFPE 8
#define SIGKILL 9
#define SIGBUS 10
#define SIGSEGV 11
#define SIGSYS 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 20
#define SIGUSR1 30
#define SIGUSR2 31
#define SA_ONSTACK 0x0001
#define SA_RESTART 0x0002
#define SA_RESETHAND 0x0004
#define SA_NODEFER 0x0010
#define SA_SIGINFO 0x0040
#define SIG_BLOCK 1
#define SIG_UNBLOCK 2
#define SIG_SETMASK 3
#define SS_ONSTACK 0x0001
#define SS_DISABLE 0x0004
#define MINSIGSTKSZ 32768
#define SIGSTKSZ 131072
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define FPE_INTDIV 7
#define ILL_ILLOPC 1
int sigaction(int, const struct sigaction *restrict, struct sigaction *restrict);
int sigemptyset(sigset_t *);
int sigfillset(sigset_t *);
int sigaddset(sigset_t *, int);
int sigdelset(sigset_t *, int);
int sigismember(const sigset_t *, int);
int sigprocmask(int, const sigset_t *restrict, sigset_t *restrict);
int pthread_sigmask(int, const sigset_t *restrict, sigset_t *restrict);
int sigaltstack(const stack_t *restrict, stack_t *restrict);
void (*signal(int, void (*)(int)))(int);
int raise(int);
int kill(pid_t, int);
#endif
