#ifndef _MC_FENV_H
#define _MC_FENV_H
#if defined(__aarch64__)
#define FE_TONEAREST 0x00000000
#define FE_UPWARD 0x00400000
#define FE_DOWNWARD 0x00800000
#define FE_TOWARDZERO 0x00C00000
#else
#define FE_TONEAREST 0x0000
#define FE_DOWNWARD 0x0400
#define FE_UPWARD 0x0800
#define FE_TOWARDZERO 0x0C00
#endif
#define FE_INEXACT 0x20
#define FE_ALL_EXCEPT 0x3f
typedef struct { unsigned long long __fpcr, __fpsr; } fenv_t;
typedef unsigned short fexcept_t;
int fesetround(int);
int fegetround(void);
int feclearexcept(int);
int fetestexcept(int);
int fegetenv(fenv_t *);
int fesetenv(const fenv_t *);
/* the default environment, as C99 <fenv.h> and macOS's define it */
extern const fenv_t _FE_DFL_ENV;
#define FE_DFL_ENV (&_FE_DFL_ENV)
#endif
