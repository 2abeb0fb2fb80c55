/*
 * file.c — whole-file reads and mappings, atomic writes, the cache
 * directory, clocks.
 * Cache writes go through a temporary file and rename(2) so a crash or a
 * concurrent process never leaves a half-written entry behind.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A file whose size cannot be asked (a pipe: nvcc --options-file <(...)),
 * read until its end. */
static char *read_stream(FILE *f, size_t *len)
{
   size_t cap = 1 << 16, n = 0;
   char *buf = mc_malloc(cap);
   for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
      n += r;
      if (n + 1 == cap) {
         char *nb = mc_realloc(buf, cap *= 2);
         if (!nb)
            free(buf);
         buf = nb;
      }
   }
   if (buf) {
      buf[n] = 0;
      if (len)
         *len = n;
   }
   return buf;
}

char *file_read(const char *path, size_t *len)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *buf = NULL;
   long n;
   if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
      clearerr(f);
      buf = read_stream(f, len);
   } else {
      buf = mc_malloc((size_t)n + 1);
      if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
         buf[n] = 0;
         if (len)
            *len = (size_t)n;
      } else {
         free(buf);
         buf = NULL;
      }
   }
   fclose(f);
   return buf;
}

const char *file_map(const char *path, size_t *len)
{
   if (fault_hit())
      return NULL;
   int fd = open(path, O_RDONLY | O_CLOEXEC);
   if (fd < 0)
      return NULL;
   struct stat st;
   void *p = MAP_FAILED;
   if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
      p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
   close(fd);
   if (p == MAP_FAILED)
      return NULL;
   *len = (size_t)st.st_size;
   return p;
}

void file_unmap(const char *p, size_t len)
{
   if (p)
      munmap((void *)p, len);
}

bool dir_create_all(const char *path)
{
   char tmp[4096];
   size_t n = strlen(path);
   if (n == 0 || n >= sizeof(tmp))
      return false;
   memcpy(tmp, path, n + 1);
   for (char *p = tmp + 1; *p; p++) {
      if (*p != '/')
         continue;
      *p = 0;
      if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
         return false;
      *p = '/';
   }
   return mkdir(tmp, 0755) == 0 || errno == EEXIST;
}

bool file_write_atomic(const char *path, const void *data, size_t len)
{
   if (fault_hit())
      return false;
   char dir[4096], tmp[4200];
   const char *slash = strrchr(path, '/');
   if (slash && (size_t)(slash - path) < sizeof(dir)) {
      memcpy(dir, path, (size_t)(slash - path));
      dir[slash - path] = 0;
      if (dir[0] && !dir_create_all(dir))
         return false;
   }
   snprintf(tmp, sizeof(tmp), "%s.tmp.%d.%lx", path, (int)getpid(), (unsigned long)time_ns());
   int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
   if (fd < 0)
      return false;
   const char *p = data;
   size_t left = len;
   while (left) {
      ssize_t w = write(fd, p, left);
      if (w <= 0) {
         if (w < 0 && errno == EINTR)
            continue;
         close(fd);
         unlink(tmp);
         return false;
      }
      p += w;
      left -= (size_t)w;
   }
   if (close(fd) != 0 || rename(tmp, path) != 0) {
      unlink(tmp);
      return false;
   }
   return true;
}

const char *cache_dir(void)
{
   static char dir[4096];
   static bool done;
   if (done)
      return dir;
   const char *e = getenv("METALCUDA_CACHE");
   const char *xdg = getenv("XDG_CACHE_HOME");
   const char *home = getenv("HOME");
   if (e && *e)
      snprintf(dir, sizeof(dir), "%s", e);
   else if (xdg && *xdg)
      snprintf(dir, sizeof(dir), "%s/metalcuda", xdg);
   else if (home && *home)
      snprintf(dir, sizeof(dir), "%s/.cache/metalcuda", home);
   else
      dir[0] = 0;
   done = true;
   return dir;
}

uint64_t time_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
