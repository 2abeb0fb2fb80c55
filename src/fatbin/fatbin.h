/*
 * fatbin.h — CUDA fatbinary containers and the PTX inside them.
 *
 * What a program hands us (registration, cuModuleLoadData, cuLibraryLoadData)
 * is one of:
 *   - a fatbin wrapper {magic 0x466243B1, version 1|2, data → fatbin header,
 *     v2: NULL-terminated array of prelinked fatbin headers};
 *   - a bare fatbin header {magic 0xBA55ED50, version 1, header size, size};
 *   - NUL-terminated PTX text;
 *   - an ELF cubin (\x7fELF): SASS only, which we cannot run.
 * A fatbin holds entries back to back: PTX (kind 1) or ELF (kind 2), each
 * possibly LZ4- or zstd-compressed (nvcc 13 compresses PTX with zstd by
 * default).  See ../../../shared/notes/cuda-binary-interface.md.
 *
 * Untrusted input: every size is checked against the bound the caller gives
 * (image_len, or SIZE_MAX when only a pointer is known, as in registration,
 * where the header's own sizes are the only bound).
 */
#ifndef MC_FATBIN_H
#define MC_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum fatbin_status {
   FATBIN_OK,
   FATBIN_ERR_FORMAT,         /* malformed container (CUDA_ERROR_INVALID_IMAGE) */
   FATBIN_ERR_NO_PTX,         /* only SASS/ELF inside (CUDA_ERROR_NO_BINARY_FOR_GPU) */
   FATBIN_ERR_CODEC_MISSING,  /* libzstd/liblz4 could not be loaded */
   FATBIN_ERR_CODEC,          /* corrupt compressed data (CUDA_ERROR_INVALID_IMAGE) */
   FATBIN_ERR_NOMEM,
} fatbin_status;

typedef enum fatbin_kind { FATBIN_KIND_PTX = 1, FATBIN_KIND_ELF = 2 } fatbin_kind;

enum {
   FATBIN_FLAG_64BIT = 0x1,
   FATBIN_FLAG_DEBUG = 0x2,
   FATBIN_FLAG_LZ4 = 0x2000,
   FATBIN_FLAG_ZSTD = 0x8000,
};

typedef struct fatbin_entry {
   fatbin_kind kind;
   uint32_t sm;                 /* 75 for sm_75 / compute_75 */
   uint64_t flags;
   const uint8_t *payload;      /* points into the image */
   uint64_t payload_size;       /* bytes at payload (compressed size if compressed) */
   uint64_t uncompressed_size;  /* 0 if not compressed */
} fatbin_entry;

typedef struct fatbin_entries {
   fatbin_entry *v;             /* malloc'ed */
   uint32_t n;
} fatbin_entries;

typedef enum fatbin_image_kind {
   FATBIN_IMAGE_UNKNOWN,
   FATBIN_IMAGE_WRAPPER,
   FATBIN_IMAGE_FATBIN,
   FATBIN_IMAGE_PTX,
   FATBIN_IMAGE_ELF,
} fatbin_image_kind;

/* What kind of image starts at p (looks at the first bytes only). */
fatbin_image_kind fatbin_classify(const void *p, size_t image_len);

/* Collects every entry of every fatbin reachable from the image (wrapper v1
 * and v2, bare fatbin).  err (may be NULL) receives a message on failure. */
fatbin_status fatbin_parse(const void *image, size_t image_len, fatbin_entries *out,
                           char *err, size_t errlen);
void fatbin_entries_free(fatbin_entries *e);

/* The PTX entry to use: the one with the highest sm not above max_sm
 * (the newest PTX we can run), else the lowest one above it; NULL if none. */
const fatbin_entry *fatbin_select_ptx(const fatbin_entries *e, uint32_t max_sm);

/* Decompresses (if needed) one PTX entry into malloc'ed NUL-terminated text
 * with trailing NULs stripped. */
fatbin_status fatbin_entry_text(const fatbin_entry *e, char **text, size_t *len,
                                char *err, size_t errlen);

/* Convenience: image → selected PTX text (for any image kind above; plain
 * PTX text is copied).  */
fatbin_status fatbin_extract_ptx(const void *image, size_t image_len, uint32_t max_sm,
                                 char **text, size_t *len, char *err, size_t errlen);

/* ---- decompress.c: zstd and LZ4 through dlopen of the system libraries ---- */

/* Decompresses into dst (capacity dst_cap); *out_len gets the size. */
fatbin_status decompress_zstd(const void *src, size_t src_len, void *dst, size_t dst_cap,
                              size_t *out_len, char *err, size_t errlen);
fatbin_status decompress_lz4(const void *src, size_t src_len, void *dst, size_t dst_cap,
                             size_t *out_len, char *err, size_t errlen);

#endif
