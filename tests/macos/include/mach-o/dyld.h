#ifndef _MC_MACHO_DYLD_H
#define _MC_MACHO_DYLD_H
#include <stdint.h>
int _NSGetExecutablePath(char *buf, uint32_t *bufsize);
#endif
