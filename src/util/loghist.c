/*
 * loghist.c — the driver's log that programs read (cuLogs*, cudaLogs*):
 * the error and warning messages metalcuda writes (log.c) and a line for
 * every Driver API call that fails, kept in order in at most
 * LOGHIST_BYTES bytes of text (CUDA keeps 25600), the oldest dropped
 * first, and passed to the callbacks programs register as they come.
 *
 * An iterator is the sequence number of a message (the first is 1); a dump
 * writes the messages from an iterator on, each ending in '\n', and moves
 * the iterator past them.  Messages already dropped, or left out because
 * the buffer is too small, are announced by a first line saying how many.
 */
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOGHIST_BYTES = 25600, LOGHIST_MAX = 512, LOGHIST_CALLBACKS = 64 };

typedef struct hist_entry {
   uint32_t seq;
   int level;
   char *text;                  /* without a newline */
   size_t len;
} hist_entry;

struct loghist_callback {
   loghist_fn fn;
   void *data;
   bool live;
};

static pthread_mutex_t hist_lock = PTHREAD_MUTEX_INITIALIZER;
static hist_entry hist[LOGHIST_MAX];     /* a ring: first .. first + n - 1 */
static uint32_t hist_first, hist_n, next_seq = 1;
static size_t hist_bytes;
static loghist_callback callbacks[LOGHIST_CALLBACKS];

static hist_entry *at(uint32_t k) { return &hist[(hist_first + k) % LOGHIST_MAX]; }

static void drop_oldest(void)
{
   hist_entry *e = at(0);
   hist_bytes -= e->len + 1;
   free(e->text);
   e->text = NULL;
   hist_first = (hist_first + 1) % LOGHIST_MAX;
   hist_n--;
}

void loghist_add(int level, const char *text)
{
   size_t len = strlen(text);
   if (len + 1 > LOGHIST_BYTES)
      len = LOGHIST_BYTES - 1;
   char *copy = malloc(len + 1);
   if (!copy)
      return;
   memcpy(copy, text, len);
   copy[len] = 0;
   loghist_callback cbs[LOGHIST_CALLBACKS];
   unsigned ncb = 0;
   pthread_mutex_lock(&hist_lock);
   while (hist_n && (hist_n == LOGHIST_MAX || hist_bytes + len + 1 > LOGHIST_BYTES))
      drop_oldest();
   hist_entry *e = at(hist_n++);
   *e = (hist_entry){ next_seq++, level, copy, len };
   hist_bytes += len + 1;
   for (unsigned k = 0; k < LOGHIST_CALLBACKS; k++)
      if (callbacks[k].live)
         cbs[ncb++] = callbacks[k];
   pthread_mutex_unlock(&hist_lock);
   /* outside the lock: a callback may call the API, which may log */
   for (unsigned k = 0; k < ncb; k++) {
      char *msg = strdup(text);
      if (msg) {
         cbs[k].fn(cbs[k].data, level, msg, len);
         free(msg);
      }
   }
}

loghist_callback *loghist_register(loghist_fn fn, void *data)
{
   loghist_callback *c = NULL;
   pthread_mutex_lock(&hist_lock);
   for (unsigned k = 0; k < LOGHIST_CALLBACKS && !c; k++)
      if (!callbacks[k].live) {
         c = &callbacks[k];
         *c = (loghist_callback){ fn, data, true };
      }
   pthread_mutex_unlock(&hist_lock);
   return c;
}

bool loghist_unregister(loghist_callback *c)
{
   bool ok = false;
   pthread_mutex_lock(&hist_lock);
   if (c >= callbacks && c < callbacks + LOGHIST_CALLBACKS && c->live) {
      c->live = false;
      ok = true;
   }
   pthread_mutex_unlock(&hist_lock);
   return ok;
}

uint32_t loghist_current(void)
{
   pthread_mutex_lock(&hist_lock);
   uint32_t s = next_seq;
   pthread_mutex_unlock(&hist_lock);
   return s;
}

/* The messages from *it on that fit in cap bytes (cap 0: all), newest
 * kept, as text: a heading line when some are lost, each message and its
 * '\n'.  *it moves past the last; *out is malloc'd (NULL and 0 when there
 * is nothing to write, or no message fits). */
static size_t render(uint32_t *it, size_t cap, char **out)
{
   *out = NULL;
   pthread_mutex_lock(&hist_lock);
   uint32_t from = it && *it ? *it : 1, first_seq = hist_n ? at(0)->seq : next_seq;
   uint32_t start = from < first_seq ? 0 : from - first_seq;
   uint32_t lost = from < first_seq ? first_seq - from : 0;
   if (start > hist_n)
      start = hist_n;
   uint32_t k0 = start;
   size_t total = 0;
   for (uint32_t k = start; k < hist_n; k++)
      total += at(k)->len + 1;
   char head[96];
   size_t hlen = 0;
   for (;;) {   /* drop the oldest until the heading and the rest fit */
      uint32_t missing = lost + (k0 - start);
      hlen = missing ? (size_t)snprintf(head, sizeof(head), "[metalcuda] %u earlier log messages are not here\n",
                                        missing) : 0;
      if (!cap || hlen + total < cap || k0 == hist_n)
         break;
      total -= at(k0)->len + 1;
      k0++;
   }
   size_t n = 0;
   if (k0 < hist_n && (!cap || hlen + total < cap)) {
      char *buf = malloc(hlen + total + 1);
      if (buf) {
         memcpy(buf, head, hlen);
         n = hlen;
         for (uint32_t k = k0; k < hist_n; k++) {
            memcpy(buf + n, at(k)->text, at(k)->len);
            n += at(k)->len;
            buf[n++] = '\n';
         }
         buf[n] = 0;
         *out = buf;
      }
   }
   if (it && (*out || k0 == hist_n))
      *it = next_seq;
   pthread_mutex_unlock(&hist_lock);
   return n;
}

int loghist_dump_memory(uint32_t *it, char *buffer, size_t *size)
{
   char *text;
   pthread_mutex_lock(&hist_lock);
   uint32_t from = it && *it ? *it : 1;
   bool empty = from >= next_seq;
   pthread_mutex_unlock(&hist_lock);
   if (empty) {   /* nothing to dump: an empty string */
      *size = 0;
      buffer[0] = 0;
      return 0;
   }
   size_t n = render(it, *size, &text);
   if (!text) {
      *size = 0;
      return -1;   /* not even one message fits */
   }
   memcpy(buffer, text, n + 1);
   free(text);
   *size = n;
   return 0;
}

int loghist_dump_file(uint32_t *it, const char *path)
{
   char *text;
   size_t n = render(it, 0, &text);
   FILE *f = fopen(path, "w");
   if (!f) {
      free(text);
      return -1;
   }
   bool ok = fwrite(text ? text : "", 1, n, f) == n;
   ok = fclose(f) == 0 && ok;
   free(text);
   return ok ? 0 : -1;
}
