#ifndef _MC_LIMITS_H
#define _MC_LIMITS_H
#include_next <limits.h>
#define PATH_MAX 1024
#define NAME_MAX 255
#define PIPE_BUF 512
#endif
