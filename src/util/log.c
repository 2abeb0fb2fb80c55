/*
 * log.c — leveled logging with channels (Wine's debug channels).
 *
 * METALCUDA_LOG=error|warn|info|trace (default warn) sets the level once.
 * Messages go to stderr as "metalcuda: <level>: <channel>: <func>: text"
 * unless a sink is installed (tests capture messages that way).  Errors
 * and warnings also go to the log programs read (loghist.c).
 */
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int level_cached = -1;
static void (*log_sink)(int, const char *, void *);
static void *log_sink_data;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static int level_from_env(void)
{
   const char *e = getenv("METALCUDA_LOG");
   if (!e || !*e)
      return LOG_LEVEL_WARN;
   static const struct { const char *name; int level; } names[] = {
      { "none", LOG_LEVEL_NONE }, { "error", LOG_LEVEL_ERROR }, { "warn", LOG_LEVEL_WARN },
      { "info", LOG_LEVEL_INFO }, { "trace", LOG_LEVEL_TRACE },
   };
   for (size_t i = 0; i < ARRAY_SIZE(names); i++)
      if (!strcmp(e, names[i].name))
         return names[i].level;
   return LOG_LEVEL_WARN;
}

int log_level(void)
{
   int l = __atomic_load_n(&level_cached, __ATOMIC_RELAXED);
   if (l < 0) {
      l = level_from_env();
      __atomic_store_n(&level_cached, l, __ATOMIC_RELAXED);
   }
   return l;
}

void log_set_level(int level) { __atomic_store_n(&level_cached, level, __ATOMIC_RELAXED); }

void log_set_sink(void (*sink)(int, const char *, void *), void *data)
{
   pthread_mutex_lock(&log_lock);
   log_sink = sink;
   log_sink_data = data;
   pthread_mutex_unlock(&log_lock);
}

void log_msg(int level, const char *channel, const char *func, const char *fmt, ...)
{
   static const char *const level_names[] = { "", "error", "warn", "info", "trace" };
   if (level > log_level())
      return;
   char msg[2048];
   int n = snprintf(msg, sizeof(msg), "metalcuda: %s: %s: %s: ", level_names[level], channel, func);
   va_list ap;
   va_start(ap, fmt);
   if (n >= 0 && (size_t)n < sizeof(msg))
      vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
   va_end(ap);
   if (level == LOG_LEVEL_ERROR || level == LOG_LEVEL_WARN)
      loghist_add(level, msg);
   pthread_mutex_lock(&log_lock);
   if (log_sink)
      log_sink(level, msg, log_sink_data);
   else
      fprintf(stderr, "%s\n", msg);
   pthread_mutex_unlock(&log_lock);
}

void mc_die(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "metalcuda: internal error: ");
   vfprintf(stderr, fmt, ap);
   fprintf(stderr, "\n");
   va_end(ap);
   abort();
}
