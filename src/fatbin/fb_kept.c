/* fb_kept.c - PTX kept beside the cubins ptxas made from it, in a folder shared by processes (see fb_kept.h). */
#include "fb_kept.h"
#include "fatbin.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kept file's path for a cubin: FOLDER/<64-bit FNV-1a of the bytes>-<size>.ptx; -1 without a folder. */
static int kept_path(const void *cubin, size_t size, char *path, size_t cap)
{
    const char *dir = getenv(WS_FATBIN_KEPT_ENV);
    if (!dir || !*dir) return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *b = cubin;
    for (size_t i = 0; i < size; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    size_t n = (size_t)snprintf(path, cap, "%s/%016llx-%zu.ptx", dir, (unsigned long long)h, size);
    return n < cap ? 0 : -1;
}

/* Keep a cubin's PTX (written to a temporary file, then renamed: a reader never sees half of it). */
int ws_fatbin_kept_store(const void *cubin, size_t size, const char *ptx, size_t len)
{
    char path[PATH_MAX], tmp[PATH_MAX + 32];
    if (!cubin || !size || !ptx || kept_path(cubin, size, path, sizeof path)) {
        errno = EINVAL;
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    int bad = fwrite(ptx, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e ? e : EIO;
        return -1;
    }
    return 0;
}

/* The PTX kept for a cubin, or NULL. */
char *ws_fatbin_kept_load(const void *cubin, size_t size)
{
    char path[PATH_MAX], err[64];
    size_t n;
    if (!cubin || !size || kept_path(cubin, size, path, sizeof path)) return NULL;
    return (char *)ws_fatbin_read_file(path, &n, err, sizeof err);
}
