/* drv_stubs.c - every function NVIDIA's libcuda.so.1 exports (drv_names.h) exists in ours: the ones warpsim does
 * not implement are weak stubs that say once which function is missing and return CUDA_ERROR_NOT_SUPPORTED; an
 * implemented function's strong definition replaces its stub at link time. Also the table of all of them by
 * name for cuGetProcAddress. This file does not include cuda.h: every stub has the same shape. */
#include <stdlib.h>
#include <string.h>

/* drv_errors.c: report an unimplemented function (returns CUDA_ERROR_NOT_SUPPORTED). */
int ws_drv_missing_code(const char *func);
/* The address of an exported driver function by exact name, or NULL (used by drv_proc.c). */
void *ws_drv_symbol(const char *name);

#define WS_DRV_FN(name) \
    int name(void); \
    __attribute__((weak, visibility("default"))) int name(void) { return ws_drv_missing_code(#name); }
#include "drv_names.h"
#undef WS_DRV_FN

/* One exported function by name. */
typedef struct { const char *name; int (*fn)(void); } sym_row;

static const sym_row sym_tab[] = {
#define WS_DRV_FN(name) { #name, name },
#include "drv_names.h"
#undef WS_DRV_FN
};

/* Order of two table rows by name. */
static int sym_cmp(const void *key, const void *row)
{
    return strcmp((const char *)key, ((const sym_row *)row)->name);
}

/* The address of exported function `name` (the table is sorted by name, as drv_names.h lists them). */
void *ws_drv_symbol(const char *name)
{
    const sym_row *r = bsearch(name, sym_tab, sizeof sym_tab / sizeof sym_tab[0], sizeof sym_tab[0], sym_cmp);
    return r ? (void *)(size_t)r->fn : NULL;
}
