/*
 * shim.c — the embedded metal_stdlib and its copy on disk.
 *
 * The shim text lives inside the library (shim.S); the first library
 * compiled by a process writes it to <cache>/soft/shim-<hash>/, next to
 * small forwarding headers for MSL's other header names.  The directory
 * name carries the text's hash, so an updated shim never mixes with an old
 * one and concurrent processes write identical files (atomically).
 */
#include "soft.h"
#include "soft_shim_digest.h"   /* MC_SOFT_SHIM_SHA256, made by the Makefile */

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

LOG_CHANNEL(soft);

extern const char soft_shim_start[], soft_shim_end[];

const char *soft_shim_text(size_t *len)
{
   if (len)
      *len = (size_t)(soft_shim_end - soft_shim_start);
   return soft_shim_start;
}

/* The text's SHA-256 (the directory's name, the libraries' cache keys in
 * compile.c) comes from the build (MC_SOFT_SHIM_SHA256, of the file shim.S
 * embeds): hashing the 88 KB here took 0.4 ms of every process. */
static uint8_t shim_digest[32];
static char shim_hash[17];
static pthread_once_t hash_once = PTHREAD_ONCE_INIT;

static void hash_shim(void)
{
   static const char hex[] = MC_SOFT_SHIM_SHA256;
   _Static_assert(sizeof(hex) == 65, "a SHA-256 in hex");
   for (int i = 0; i < 32; i++) {
      unsigned byte = 0;
      sscanf(hex + 2 * i, "%2x", &byte);
      shim_digest[i] = (uint8_t)byte;
   }
   memcpy(shim_hash, hex, 16);
   shim_hash[16] = 0;
}

const char *soft_shim_hash(void)
{
   pthread_once(&hash_once, hash_shim);
   return shim_hash;
}

const uint8_t *soft_shim_digest(void)
{
   pthread_once(&hash_once, hash_shim);
   return shim_digest;
}

/* MSL headers other than metal_stdlib that programs include. */
static const char *const forward_headers[] = {
   "metal_atomic", "metal_common", "metal_compute", "metal_geometric", "metal_integer",
   "metal_math", "metal_relational", "metal_simdgroup", "metal_types",
};

static bool write_if_missing(const char *path, const char *data, size_t len)
{
   struct stat st;
   if (stat(path, &st) == 0 && (size_t)st.st_size == len)
      return true;
   return file_write_atomic(path, data, len);
}

static bool write_shim(const char *dir)
{
   char path[4200];
   size_t len;
   const char *text = soft_shim_text(&len);
   snprintf(path, sizeof(path), "%s/metal_stdlib", dir);
   if (!write_if_missing(path, text, len))
      return false;
   static const char fwd[] = "#include <metal_stdlib>\n";
   for (size_t i = 0; i < ARRAY_SIZE(forward_headers); i++) {
      snprintf(path, sizeof(path), "%s/%s", dir, forward_headers[i]);
      if (!write_if_missing(path, fwd, sizeof(fwd) - 1))
         return false;
   }
   return true;
}

static pthread_mutex_t shim_lock = PTHREAD_MUTEX_INITIALIZER;
static char shim_dir[4096];
static bool shim_done;

/* The prepared directory's copy of this shim (prepared.c), whole: it is
 * in the cache keys and the precompiled prelude made there records it. */
static bool prepared_shim(char *dir, size_t cap)
{
   char name[64], path[4300];
   size_t len;
   struct stat st;
   soft_shim_text(&len);
   snprintf(name, sizeof(name), "shim-%s", soft_shim_hash());
   if (!soft_prepared_path(name, dir, cap))
      return false;
   for (size_t i = 0; i <= ARRAY_SIZE(forward_headers); i++) {
      snprintf(path, sizeof(path), "%s/%s", dir, i ? forward_headers[i - 1] : "metal_stdlib");
      if (stat(path, &st) != 0 || (!i && (size_t)st.st_size != len))
         return false;
   }
   return true;
}

const char *soft_shim_dir(const char *base, char **err)
{
   pthread_mutex_lock(&shim_lock);
   if (!shim_done && prepared_shim(shim_dir, sizeof(shim_dir))) {
      shim_done = true;
      LOG_INFO("metal_stdlib shim in %s", shim_dir);
   }
   if (!shim_done) {
      snprintf(shim_dir, sizeof(shim_dir), "%s/shim-%s", base, soft_shim_hash());
      if (write_shim(shim_dir)) {
         shim_done = true;
         LOG_INFO("metal_stdlib shim in %s", shim_dir);
      } else {
         mtl_set_err(err, "cannot write the metal_stdlib shim to %s", shim_dir);
      }
   }
   const char *r = shim_done ? shim_dir : NULL;
   pthread_mutex_unlock(&shim_lock);
   return r;
}
