#ifndef _MC_TIME_H
#define _MC_TIME_H
#include "_mc_types.h"
/* macOS 10.12 and later: clock_gettime and these clocks. */
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_MONOTONIC 6
#define CLOCK_PROCESS_CPUTIME_ID 12
#define CLOCK_THREAD_CPUTIME_ID 16
#define CLOCKS_PER_SEC 1000000
typedef unsigned long clock_t;
struct tm { int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst; long tm_gmtoff; char *tm_zone; };
int clock_gettime(clockid_t, struct timespec *);
int clock_getres(clockid_t, struct timespec *);
int nanosleep(const struct timespec *, struct timespec *);
time_t time(time_t *);
clock_t clock(void);
struct tm *localtime_r(const time_t *restrict, struct tm *restrict);
struct tm *gmtime_r(const time_t *restrict, struct tm *restrict);
size_t strftime(char *restrict, size_t, const char *restrict, const struct tm *restrict);
#endif
