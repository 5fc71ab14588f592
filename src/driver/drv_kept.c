/* drv_kept.c - the PTX behind cubins made at run time. NVRTC compiled for a real architecture (-arch=sm_XX) hands
 * out a cubin holding SASS only, which warpsim cannot run, but it has the PTX too: libwarpsim_preload.so's
 * nvrtcGetCUBIN gives both to ws_drv_keep_ptx, and a module loaded later from a cubin with the same bytes loads
 * that PTX instead (drv_module.c). */
#include "drv_internal.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define WS_DRV_KEPT_MAX 4096   /* cubins remembered (the oldest is forgotten past that) */

/* One cubin and its PTX. */
typedef struct { unsigned char *cubin; size_t size; char *ptx; } kept_row;

static kept_row kept[WS_DRV_KEPT_MAX];
static int nkept, next_slot;

/* The bytes an ELF image at image spans (the end of its section or program header table, whichever is last), or
 * 0 when it is no 64-bit ELF. */
static size_t elf_extent(const void *image)
{
    const unsigned char *b = image;   /* byte by byte: a short NUL-terminated PTX text stops at its first byte */
    for (int i = 0; i < SELFMAG; i++)
        if (b[i] != (unsigned char)ELFMAG[i]) return 0;
    const Elf64_Ehdr *eh = image;
    if (eh->e_ident[EI_CLASS] != ELFCLASS64) return 0;
    size_t sh = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
    size_t ph = (size_t)eh->e_phoff + (size_t)eh->e_phnum * eh->e_phentsize;
    return sh > ph ? sh : ph;
}

/* Remember that cubin (size bytes) was compiled from ptx (copies of both are kept). */
WS_DRV_EXPORT void ws_drv_keep_ptx(const void *cubin, size_t size, const char *ptx)
{
    if (!cubin || size < sizeof(Elf64_Ehdr) || !ptx || elf_extent(cubin) != size) return;
    unsigned char *c = malloc(size);
    char *p = strdup(ptx);
    if (!c || !p) { free(c); free(p); return; }
    memcpy(c, cubin, size);
    ws_drv_lock();
    kept_row *r = &kept[next_slot];
    free(r->cubin);
    free(r->ptx);
    *r = (kept_row){ c, size, p };
    next_slot = (next_slot + 1) % WS_DRV_KEPT_MAX;
    if (nkept < WS_DRV_KEPT_MAX) nkept++;
    ws_drv_unlock();
}

/* The PTX kept for the cubin at image (size bytes, 0 when unknown), or NULL. */
const char *ws_drv_kept_ptx(const void *image, size_t size)
{
    if (size && size < sizeof(Elf64_Ehdr)) return NULL;
    size_t extent = elf_extent(image);
    if (!extent || (size && size < extent)) return NULL;
    const char *found = NULL;
    ws_drv_lock();
    for (int i = 0; i < nkept && !found; i++)
        if (kept[i].size == extent && memcmp(kept[i].cubin, image, extent) == 0) found = kept[i].ptx;
    ws_drv_unlock();
    return found;
}
