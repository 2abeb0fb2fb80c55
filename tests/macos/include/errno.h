#ifndef _MC_ERRNO_H
#define _MC_ERRNO_H
extern int *__error(void);
#define errno (*__error())
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define EBADF 9
#define EAGAIN 35
#define ENOMEM 12
#define EACCES 13
#define EEXIST 17
#define ENOTDIR 20
#define EINVAL 22
#define ENOSPC 28
#define ERANGE 34
#define ETIMEDOUT 60
#define ENOSYS 78
#define ENOTSUP 45
#endif
