/*
 * objcheck.c — Metal rules checked on the compiled object, where C++
 * cannot express them.
 *
 * MSL forbids writable program-scope variables ("program scope variable
 * must reside in constant address space") and static locals outside the
 * constant address space.  Once compiled, every such variable is a data
 * symbol in a writable section (.data, .bss, .tbss, common), while
 * `constant` ones land in .rodata.  The object file (before linking, so no
 * C runtime start-up symbols are mixed in) is read as ELF and every data
 * symbol in a writable section fails the library — except the ones the
 * generated code owns, whose names contain "__mc" (the threadgroup
 * storage and the current-launch pointer), and .data.rel.ro, which is
 * read-only after relocation (constant arrays of pointers).
 */
#include "soft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__ELF__)
#include <elf.h>

/* The variable's own name from an Itanium-mangled symbol: the last
 * <length><identifier> component (_ZL7counter, _ZN2ns1xE, _ZZ1fvE5calls). */
static void plain_name(const char *sym, char *out, size_t cap)
{
   snprintf(out, cap, "%s", sym);
   if (strncmp(sym, "_Z", 2))
      return;
   const char *p = sym + 2, *best = NULL;
   size_t best_len = 0;
   while (*p) {
      if (*p >= '1' && *p <= '9') {
         char *end;
         unsigned long n = strtoul(p, &end, 10);
         if (strlen(end) < n)
            break;
         best = end;
         best_len = n;
         p = end + n;
      } else {
         p++;
      }
   }
   if (best)
      snprintf(out, cap, "%.*s", (int)best_len, best);
}

static bool in_range(size_t off, size_t size, size_t len)
{
   return off <= len && size <= len - off;
}

static bool check_elf(const uint8_t *img, size_t len, char **err)
{
   const Elf64_Ehdr *eh = (const void *)img;
   if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
       eh->e_shentsize != sizeof(Elf64_Shdr) ||
       !in_range(eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr), len)) {
      mtl_set_err(err, "compiled object is not a 64-bit ELF file");
      return false;
   }
   const Elf64_Shdr *sh = (const void *)(img + eh->e_shoff);
   const Elf64_Shdr *shstr = eh->e_shstrndx < eh->e_shnum ? &sh[eh->e_shstrndx] : NULL;
   for (unsigned i = 0; i < eh->e_shnum; i++) {
      if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
          !in_range(sh[i].sh_offset, sh[i].sh_size, len))
         continue;
      const Elf64_Shdr *strs = &sh[sh[i].sh_link];
      if (!in_range(strs->sh_offset, strs->sh_size, len))
         continue;
      const Elf64_Sym *syms = (const void *)(img + sh[i].sh_offset);
      size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
      const char *names = (const char *)img + strs->sh_offset;
      for (size_t k = 0; k < nsym; k++) {
         unsigned type = ELF64_ST_TYPE(syms[k].st_info);
         if (type != STT_OBJECT && type != STT_TLS && type != STT_COMMON)
            continue;
         if (syms[k].st_name >= strs->sh_size)
            continue;
         const char *name = names + syms[k].st_name;
         if (strstr(name, "__mc"))
            continue;
         bool writable = syms[k].st_shndx == SHN_COMMON;
         if (syms[k].st_shndx < eh->e_shnum) {
            const Elf64_Shdr *s = &sh[syms[k].st_shndx];
            const char *secname = shstr && s->sh_name < shstr->sh_size && in_range(shstr->sh_offset, shstr->sh_size, len)
                                     ? (const char *)img + shstr->sh_offset + s->sh_name : "";
            writable = (s->sh_flags & SHF_WRITE) && strncmp(secname, ".data.rel.ro", 12);
         }
         if (writable) {
            char plain[256];
            plain_name(name, plain, sizeof(plain));
            mtl_set_err(err, "program_source: error: '%s' is a writable program-scope or static "
                        "variable: Metal allows program-scope variables only in the constant "
                        "address space", plain);
            return false;
         }
      }
   }
   return true;
}

bool soft_check_object(const char *obj_path, char **err)
{
   size_t len;
   char *img = file_read(obj_path, &len);
   if (!img) {
      mtl_set_err(err, "cannot read the compiled object %s", obj_path);
      return false;
   }
   bool ok = check_elf((const uint8_t *)img, len, err);
   free(img);
   return ok;
}

#else

LOG_CHANNEL(soft);

bool soft_check_object(const char *obj_path, char **err)
{
   (void)obj_path;
   (void)err;
   LOG_ONCE(LOG_LEVEL_WARN, "writable program-scope variables are not checked on this platform");
   return true;
}

#endif
