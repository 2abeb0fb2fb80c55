#ifndef _MC_STDLIB_H
#define _MC_STDLIB_H
#include "_mc_types.h"
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
int posix_memalign(void **, size_t, size_t);
void *aligned_alloc(size_t, size_t);
_Noreturn void abort(void);
_Noreturn void exit(int);
_Noreturn void _Exit(int);
int atexit(void (*)(void));
char *getenv(const char *);
int setenv(const char *, const char *, int);
int unsetenv(const char *);
int atoi(const char *);
long atol(const char *);
long long atoll(const char *);
long strtol(const char *restrict, char **restrict, int);
unsigned long strtoul(const char *restrict, char **restrict, int);
long long strtoll(const char *restrict, char **restrict, int);
unsigned long long strtoull(const char *restrict, char **restrict, int);
double strtod(const char *restrict, char **restrict);
float strtof(const char *restrict, char **restrict);
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
void *bsearch(const void *, const void *, size_t, size_t, int (*)(const void *, const void *));
int system(const char *);
char *realpath(const char *restrict, char *restrict);
char *mkdtemp(char *);
int mkstemp(char *);
int abs(int);
long labs(long);
int rand(void);
void srand(unsigned);
#endif
