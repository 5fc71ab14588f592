/* drv_export.c - cuGetExportTable: NVIDIA's undocumented driver tables, asked for by UUID by NVIDIA's own CUDA
 * runtime (the static cudart inside a program or a Python wheel such as CuPy's), by NVRTC, cuBLAS and the tools.
 * warpsim provides none of them: each UUID asked for is said once (with the library that asked), and the call
 * returns CUDA_ERROR_NOT_SUPPORTED. NVRTC and cuBLAS go on without their table; NVIDIA's static runtime does
 * not, which the message for its table says. */
#include "drv_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* What a program needs to know about one table seen asked for. */
typedef struct { unsigned char id[16]; const char *what; } export_row;

/* Tables whose asker is known by observation (which library asks; nothing about their contents). */
static const export_row known_tab[] = {
    { { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 },
      "NVIDIA's CUDA runtime linked statically into that library needs it and stops with cudaErrorNotSupported "
      "(warpsim redirects such a runtime to its own libcudart.so.13 only in a library that keeps its symbol "
      "table, as CuPy's modules do; NVIDIA's cuBLAS, cuFFT and cuRAND do not)" },
    { { 0xda, 0x91, 0x51, 0xd3, 0x3a, 0xe6, 0xcc, 0x41, 0xa5, 0xc0, 0x4f, 0x26, 0xd5, 0x33, 0xe3, 0x28 },
      "NVRTC and nvJitLink ask for it and go on without it" },
    { { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 },
      "NVIDIA's static CUDA runtime asks for it first and goes on without it" },
};

#define WS_DRV_EXPORT_SEEN 32   /* distinct tables reported (more are refused without a message) */

static unsigned char seen[WS_DRV_EXPORT_SEEN][16];
static int nseen;

/* Whether table id was reported before; records it when not (under the driver's lock). */
static int export_seen(const unsigned char *id)
{
    int found = 0;
    ws_drv_lock();
    for (int i = 0; i < nseen && !found; i++) found = memcmp(seen[i], id, 16) == 0;
    if (!found && nseen < WS_DRV_EXPORT_SEEN) memcpy(seen[nseen++], id, 16);
    else if (!found) found = 1;
    ws_drv_unlock();
    return found;
}

/* Say once that table id (asked for from code at caller) is not provided. */
static void export_report(const unsigned char *id, const void *caller)
{
    if (export_seen(id) || ws_drv_quiet()) return;
    char uuid[40];
    snprintf(uuid, sizeof uuid, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", id[0], id[1],
             id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13], id[14], id[15]);
    Dl_info di;
    const char *who = dladdr(caller, &di) && di.dli_fname ? di.dli_fname : "an unknown library";
    const char *slash = strrchr(who, '/');
    const char *what = NULL;
    for (size_t i = 0; i < sizeof known_tab / sizeof known_tab[0]; i++)
        if (memcmp(known_tab[i].id, id, 16) == 0) what = known_tab[i].what;
    fprintf(stderr, "warpsim: cuGetExportTable: %s asked for NVIDIA's private driver table {%s}, which warpsim "
            "does not provide (CUDA_ERROR_NOT_SUPPORTED)%s%s\n", slash ? slash + 1 : who, uuid, what ? "; " : "",
            what ? what : "");
}

/* cuGetExportTable: no private table is provided; the UUID is reported once. */
WS_DRV_EXPORT CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *ppExportTable = NULL;
    export_report((const unsigned char *)pExportTableId->bytes, __builtin_return_address(0));
    WS_DRV_RET(CUDA_ERROR_NOT_SUPPORTED);
}
