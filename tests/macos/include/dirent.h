#ifndef _MC_DIRENT_H
#define _MC_DIRENT_H
#include "_mc_types.h"
#define DT_UNKNOWN 0
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10
typedef struct __mc_dir DIR;
struct dirent { ino_t d_ino; unsigned long long d_seekoff; unsigned short d_reclen, d_namlen; unsigned char d_type; char d_name[1024]; };
DIR *opendir(const char *);
struct dirent *readdir(DIR *);
int closedir(DIR *);
#endif
