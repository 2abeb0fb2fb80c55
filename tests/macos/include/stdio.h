#ifndef _MC_STDIO_H
#define _MC_STDIO_H
#include <stdarg.h>
#include "_mc_types.h"
typedef struct __sFILE FILE;
extern FILE *__stdinp, *__stdoutp, *__stderrp;
#define stdin __stdinp
#define stdout __stdoutp
#define stderr __stderrp
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define BUFSIZ 1024
#define L_tmpnam 1024
#define _IONBF 2
#define _IOLBF 1
FILE *fopen(const char *restrict, const char *restrict);
FILE *fdopen(int, const char *);
int fclose(FILE *);
size_t fread(void *restrict, size_t, size_t, FILE *restrict);
size_t fwrite(const void *restrict, size_t, size_t, FILE *restrict);
char *fgets(char *restrict, int, FILE *restrict);
int fputs(const char *restrict, FILE *restrict);
int fputc(int, FILE *);
int putc(int, FILE *);
int putchar(int);
int puts(const char *);
int fgetc(FILE *);
int getc(FILE *);
int fflush(FILE *);
int fseek(FILE *, long, int);
long ftell(FILE *);
void rewind(FILE *);
int feof(FILE *);
int ferror(FILE *);
void clearerr(FILE *);
int fileno(FILE *);
int setvbuf(FILE *restrict, char *restrict, int, size_t);
FILE *popen(const char *, const char *);
int pclose(FILE *);
int remove(const char *);
int rename(const char *, const char *);
int printf(const char *restrict, ...);
int fprintf(FILE *restrict, const char *restrict, ...);
int sprintf(char *restrict, const char *restrict, ...);
int snprintf(char *restrict, size_t, const char *restrict, ...);
int vprintf(const char *restrict, va_list);
int vfprintf(FILE *restrict, const char *restrict, va_list);
int vsnprintf(char *restrict, size_t, const char *restrict, va_list);
int vsprintf(char *restrict, const char *restrict, va_list);
int sscanf(const char *restrict, const char *restrict, ...);
int fscanf(FILE *restrict, const char *restrict, ...);
ssize_t getline(char **restrict, size_t *restrict, FILE *restrict);
void perror(const char *);
FILE *tmpfile(void);
FILE *open_memstream(char **, size_t *);
#endif
