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
 * where the header's own sizes are the only bound).  With a finite bound,
 * every pointer a wrapper holds (data, the v2 array and its elements) must
 * point inside [image, image + image_len), so a byte buffer of any content
 * is safe to hand over (the fuzz target relies on this); with SIZE_MAX the
 * pointers are trusted, as they come from the program's own data.
 *
 * Layout as nvcc 13.0.88 writes it (measured; src/fatbin/README.md):
 *   fatbin header, 16 bytes: magic u32, version u16 (1), header_size u16,
 *     files_size u64; entries follow at header_size, files_size bytes;
 *   entry header, header_size bytes (64 for SASS, 72..128 for PTX: name and
 *     ptxas options trail the fixed 64): kind u16, version u16 (0x101),
 *     header_size u32, size u64 (the stride: payload padded to 8),
 *     compressed_size u32, options_offset u32, isa_minor u16, isa_major u16,
 *     sm u32, name_offset u32, name_len u32, flags u64, unknown u64,
 *     uncompressed_size u64.
 *   The next entry starts at entry + header_size + max(size, compressed_size);
 *   nvcc always writes size = compressed_size rounded up to 8.
 * With a finite bound, fatbins that follow each other back to back (as in a
 * whole .nv_fatbin section, 8-aligned) are all read; with SIZE_MAX only the
 * one the pointer names.
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

/* Entry kinds.  Other values are kept as read (the enum holds any u16) and
 * never selected. */
typedef enum fatbin_kind {
   FATBIN_KIND_PTX = 1,
   FATBIN_KIND_ELF = 2,
   FATBIN_KIND_LTOIR = 8,       /* NVVM IR from -gencode ...,code=lto_NN */
} fatbin_kind;

enum {
   FATBIN_FLAG_64BIT = 0x1,
   FATBIN_FLAG_DEBUG = 0x2,
   FATBIN_FLAG_LZ4 = 0x2000,
   FATBIN_FLAG_ZSTD = 0x8000,
   FATBIN_FLAG_ARCH_SPECIFIC = 0x100000,   /* sm_90a-style target (measured) */
   FATBIN_FLAG_FAMILY = 0x200000,          /* sm_100f-style target (measured) */
};

typedef struct fatbin_entry {
   fatbin_kind kind;
   uint32_t sm;                 /* 75 for sm_75 / compute_75 */
   uint64_t flags;
   const uint8_t *payload;      /* points into the image */
   uint64_t payload_size;       /* bytes at payload (compressed size if compressed) */
   uint64_t uncompressed_size;  /* 0 if not compressed (or not known) */
   uint16_t isa_major, isa_minor; /* PTX ISA version of a PTX entry (9.0) */
   uint32_t unit;               /* 0: the image's own fatbin(s) (a wrapper's data); i + 1:
                                 * a v2 wrapper's prelinked fatbin i, one unit of -rdc code */
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
 * with trailing NULs stripped; *len excludes the NUL.  A NUL inside the text
 * is FATBIN_ERR_FORMAT; an entry of another kind is FATBIN_ERR_NO_PTX. */
fatbin_status fatbin_entry_text(const fatbin_entry *e, char **text, size_t *len,
                                char *err, size_t errlen);

/* The payload of any entry, decompressed if needed, into a malloc'ed buffer
 * of *len bytes (ELF images, LTO-IR; padding kept). */
fatbin_status fatbin_entry_data(const fatbin_entry *e, uint8_t **data, size_t *len,
                                char *err, size_t errlen);

/* A one-word name for a status, for messages and test output. */
const char *fatbin_status_name(fatbin_status s);

/* Convenience: image → selected PTX text (for any image kind above; plain
 * PTX text is copied up to its NUL or image_len).  An image without PTX is
 * FATBIN_ERR_NO_PTX with a message that says how to rebuild it.  */
fatbin_status fatbin_extract_ptx(const void *image, size_t image_len, uint32_t max_sm,
                                 char **text, size_t *len, char *err, size_t errlen);

/* The PTX of every unit of relocatable device code (nvcc -rdc=true): a
 * v2 wrapper (the device-link image nvcc's link step registers) lists the
 * fatbin of each translation unit, and each unit's PTX (chosen as
 * fatbin_select_ptx chooses) is one text, in the list's order, for the
 * compiler to link.  Any other image — or a v2 wrapper whose units carry
 * no PTX — gives one text, as fatbin_extract_ptx.  A unit with SASS only
 * among units with PTX is FATBIN_ERR_NO_PTX (it cannot be left out: the
 * others call into it). */
typedef struct fatbin_ptx_units {
   char **text;                 /* malloc'ed, NUL-terminated */
   size_t *len;
   uint32_t n;
} fatbin_ptx_units;
fatbin_status fatbin_extract_ptx_units(const void *image, size_t image_len, uint32_t max_sm,
                                       fatbin_ptx_units *out, char *err, size_t errlen);
void fatbin_ptx_units_free(fatbin_ptx_units *u);
/* Appends text (malloc'ed, NUL-terminated; u owns it once this succeeds). */
bool fatbin_ptx_units_add(fatbin_ptx_units *u, char *text, size_t len);

/* ---- decompress.c: zstd and LZ4 through dlopen of the system libraries ---- */

/* Decompresses into dst (capacity dst_cap); *out_len gets the size.  A
 * library that cannot be loaded is FATBIN_ERR_CODEC_MISSING (fault_hit()
 * simulates that on every call); corrupt input or a too-small dst is
 * FATBIN_ERR_CODEC. */
fatbin_status decompress_zstd(const void *src, size_t src_len, void *dst, size_t dst_cap,
                              size_t *out_len, char *err, size_t errlen);
fatbin_status decompress_lz4(const void *src, size_t src_len, void *dst, size_t dst_cap,
                             size_t *out_len, char *err, size_t errlen);
/* The content size a zstd frame header declares; 0 if it declares none. */
fatbin_status decompress_zstd_frame_size(const void *src, size_t src_len, uint64_t *size,
                                         char *err, size_t errlen);

#endif
