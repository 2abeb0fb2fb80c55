#ifndef _MC_SYS_WAIT_H
#define _MC_SYS_WAIT_H
#include "../_mc_types.h"
#define WNOHANG 1
#define WIFEXITED(s) (((s) & 0177) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) (((s) & 0177) != 0177 && ((s) & 0177) != 0)
#define WTERMSIG(s) ((s) & 0177)
pid_t waitpid(pid_t, int *, int);
pid_t wait(int *);
#endif
