#ifndef _MC_SYS_STAT_H
#define _MC_SYS_STAT_H
#include "../_mc_types.h"
/* Darwin's names for the POSIX 2008 time fields: st_mtimespec, not
 * st_mtim (which needs _DARWIN_C_SOURCE-era macros the project does not
 * use). */
struct stat {
   dev_t st_dev; mode_t st_mode; unsigned short st_nlink; ino_t st_ino; uid_t st_uid; gid_t st_gid; dev_t st_rdev;
   struct timespec st_atimespec, st_mtimespec, st_ctimespec, st_birthtimespec;
   off_t st_size; long long st_blocks; int st_blksize; unsigned st_flags, st_gen;
};
#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_IFLNK 0120000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_IRWXU 0000700
#define S_IRUSR 0000400
#define S_IWUSR 0000200
#define S_IXUSR 0000100
int stat(const char *restrict, struct stat *restrict);
int lstat(const char *restrict, struct stat *restrict);
int fstat(int, struct stat *);
int mkdir(const char *, mode_t);
int mkfifo(const char *, mode_t);
int chmod(const char *, mode_t);
mode_t umask(mode_t);
#endif
