#ifndef _MC_SYS_MMAN_H
#define _MC_SYS_MMAN_H
#include "../_mc_types.h"
/* No memfd_create, mremap, MAP_STACK, MAP_GROWSDOWN, MAP_POPULATE on
 * macOS; MAP_NORESERVE exists (and is ignored). */
#define PROT_NONE 0x00
#define PROT_READ 0x01
#define PROT_WRITE 0x02
#define PROT_EXEC 0x04
#define MAP_SHARED 0x0001
#define MAP_PRIVATE 0x0002
#define MAP_FIXED 0x0010
#define MAP_NORESERVE 0x0040
#define MAP_ANON 0x1000
#define MAP_ANONYMOUS MAP_ANON
#define MAP_FAILED ((void *)-1)
#define MADV_NORMAL 0
#define MADV_DONTNEED 4
#define MADV_FREE 5
#define MS_SYNC 0x0010
void *mmap(void *, size_t, int, int, int, off_t);
int munmap(void *, size_t);
int mprotect(void *, size_t, int);
int madvise(void *, size_t, int);
int msync(void *, size_t, int);
int shm_open(const char *, int, ...);
int shm_unlink(const char *);
#endif
