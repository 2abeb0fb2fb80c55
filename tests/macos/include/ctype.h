#ifndef _MC_CTYPE_H
#define _MC_CTYPE_H
int isalnum(int); int isalpha(int); int isdigit(int); int isxdigit(int); int isspace(int); int isupper(int);
int islower(int); int isprint(int); int ispunct(int); int iscntrl(int); int isgraph(int);
int tolower(int); int toupper(int);
#endif
