/* Common types of the stand-in macOS headers (tests/macos/include/README). */
#ifndef _MC_TYPES_H
#define _MC_TYPES_H
#include <stddef.h>
#include <stdint.h>
typedef long ssize_t;
typedef long long off_t;
typedef int pid_t;
typedef unsigned int uid_t, gid_t;
typedef unsigned short mode_t;
typedef long time_t;
typedef int clockid_t;
typedef unsigned long long ino_t;
typedef int dev_t;
typedef unsigned int useconds_t;
struct timespec { time_t tv_sec; long tv_nsec; };
#endif
