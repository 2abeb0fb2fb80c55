#ifndef _MC_UNISTD_H
#define _MC_UNISTD_H
#include "_mc_types.h"
#define R_OK 4
#define W_OK 2
#define X_OK 1
#define F_OK 0
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define _SC_PAGESIZE 29
#define _SC_PAGE_SIZE _SC_PAGESIZE
#define _SC_NPROCESSORS_ONLN 58
#define _SC_NPROCESSORS_CONF 57
#define _SC_PHYS_PAGES 200
ssize_t read(int, void *, size_t);
ssize_t write(int, const void *, size_t);
ssize_t pread(int, void *, size_t, off_t);
ssize_t pwrite(int, const void *, size_t, off_t);
int close(int);
off_t lseek(int, off_t, int);
int ftruncate(int, off_t);
int fsync(int);
int unlink(const char *);
int rmdir(const char *);
int access(const char *, int);
int chdir(const char *);
char *getcwd(char *, size_t);
ssize_t readlink(const char *restrict, char *restrict, size_t);
int symlink(const char *, const char *);
long sysconf(int);
int getpagesize(void);
pid_t getpid(void);
pid_t getppid(void);
uid_t getuid(void);
pid_t fork(void);
int pipe(int[2]);
int dup(int);
int dup2(int, int);
int execv(const char *, char *const[]);
int execvp(const char *, char *const[]);
int execve(const char *, char *const[], char *const[]);
_Noreturn void _exit(int);
unsigned alarm(unsigned);
unsigned sleep(unsigned);
int usleep(useconds_t);
int isatty(int);
extern char **environ;
#endif
