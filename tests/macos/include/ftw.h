#ifndef _MC_FTW_H
#define _MC_FTW_H
#include <sys/stat.h>
/* nftw(3) as POSIX (XSI) and macOS's manual page give it */
struct FTW {
   int base;
   int level;
};
#define FTW_F 0
#define FTW_D 1
#define FTW_DNR 2
#define FTW_NS 3
#define FTW_SL 4
#define FTW_DP 5
#define FTW_SLN 6
#define FTW_PHYS 0x01
#define FTW_MOUNT 0x02
#define FTW_DEPTH 0x04
#define FTW_CHDIR 0x08
int nftw(const char *, int (*)(const char *, const struct stat *, int, struct FTW *), int, int);
#endif
