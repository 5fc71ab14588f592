/* ptxas_cache.c - ptxas's reports kept on disk (see ptxas_cache.h): one file per key, written to a temporary name
 * and renamed, so that processes sharing the folder never read a partial file. */
#include "ptxas_cache.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A cache file begins with this line, so that a file of another format is never taken for a report. */
#define PTXC_MAGIC "warpsim ptxas cache 1\n"

/* FNV-1a 64-bit hash of a buffer, continuing from h. */
static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 1099511628211ull; }
    return h;
}

/* The cache folder, or NULL when there is none. */
static const char *cache_dir(void)
{
    const char *d = getenv("WARPSIM_PTXAS_CACHE");
    return d && d[0] == '/' ? d : NULL;
}

/* The key of one ptxas run. */
int ws_ptxc_key(const char *ptxas, const char *options, const char *ptx, size_t len, char key[WS_PTXC_KEY_LEN])
{
    struct stat st;
    if (!cache_dir() || stat(ptxas, &st) != 0) return -1;
    char who[4200];
    int n = snprintf(who, sizeof who, "%s|%lld|%lld|%s|%zu", ptxas, (long long)st.st_size,
                     (long long)st.st_mtime, options, len);
    if (n < 0 || (size_t)n >= sizeof who) return -1;
    /* two independent 64-bit hashes: a wrong hit would need both to collide */
    uint64_t a = hash_bytes(ptx, len, hash_bytes(who, (size_t)n, 1469598103934665603ull));
    uint64_t b = hash_bytes(ptx, len, hash_bytes(who, (size_t)n, 0x9e3779b97f4a7c15ull) ^ 0x5bd1e995u);
    snprintf(key, WS_PTXC_KEY_LEN, "%016" PRIx64 "%016" PRIx64, a, b);
    return 0;
}

/* ptxas's output kept under key, or NULL. */
char *ws_ptxc_get(const char *key)
{
    const char *dir = cache_dir();
    char path[4096];
    if (!dir || (size_t)snprintf(path, sizeof path, "%s/%s.txt", dir, key) >= sizeof path) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) buf = malloc((size_t)n + 1);
    size_t ml = strlen(PTXC_MAGIC);
    if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n && (size_t)n >= ml && !memcmp(buf, PTXC_MAGIC, ml)) {
        memmove(buf, buf + ml, (size_t)n - ml);
        buf[(size_t)n - ml] = 0;
    } else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* Keep out under key. */
void ws_ptxc_put(const char *key, const char *out)
{
    const char *dir = cache_dir();
    char path[4096], tmp[4200];
    if (!dir || !out || (size_t)snprintf(path, sizeof path, "%s/%s.txt", dir, key) >= sizeof path) return;
    mkdir(dir, 0700);   /* its parent is warpsim's cache folder, made by the command line */
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return;
    int ok = fputs(PTXC_MAGIC, f) >= 0 && fputs(out, f) >= 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) unlink(tmp);
}
