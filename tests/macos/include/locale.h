#ifndef _MC_LOCALE_H
#define _MC_LOCALE_H
#define LC_ALL 0
#define LC_NUMERIC 4
struct lconv { char *decimal_point, *thousands_sep, *grouping; };
char *setlocale(int, const char *);
struct lconv *localeconv(void);
#endif
