/* fatbin.c - NVIDIA fatbinary reader: entries, zstd (libzstd) and LZ4 (liblz4) decompression, PTX selection,
 * ELF .nv_fatbin. */
#include "fatbin.h"

#include <elf.h>
#include <limits.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FATBIN_HEADER_MIN   16u
#define ENTRY_HEADER_MIN    0x38u
#define MAX_FATBIN_BYTES    ((uint64_t)1 << 34)
#define MAX_TEXT_BYTES      ((uint64_t)1 << 30) /* largest decompressed entry accepted */

/* Write a formatted message into err (if any). */
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Read a little-endian u16. */
static unsigned rd16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Read a little-endian u32. */
static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Read a little-endian u64. */
static uint64_t rd64(const unsigned char *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* Total size of the fatbin at data, 0 when it is not one. */
size_t ws_fatbin_size(const void *data, size_t avail)
{
    const unsigned char *p = data;
    if (!p || avail < FATBIN_HEADER_MIN || rd32(p) != WS_FATBIN_MAGIC) return 0;
    unsigned hs = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hs < FATBIN_HEADER_MIN || body > MAX_FATBIN_BYTES) return 0;
    uint64_t total = hs + body;
    if (total > avail) return 0;
    return (size_t)total;
}

/* Parse the entries of one fatbin. */
int ws_fatbin_parse(const void *data, size_t avail, ws_fatbin_entry *out, int max, int *count,
                    char *err, size_t errlen)
{
    const unsigned char *p = data;
    *count = 0;
    size_t total = ws_fatbin_size(data, avail);
    if (!total) {
        set_err(err, errlen, "not a fatbin (bad magic or size)");
        return -1;
    }
    size_t off = rd16(p + 6);
    int n = 0;
    while (off + ENTRY_HEADER_MIN <= total) {
        const unsigned char *e = p + off;
        uint32_t hs = rd32(e + 4);
        uint64_t psize = rd64(e + 8);
        if (hs == 0 && rd16(e) == 0) break; /* zero padding after the last entry */
        if (hs < ENTRY_HEADER_MIN || hs > total - off || psize > total - off - hs) {
            set_err(err, errlen, "fatbin entry at offset %zu is malformed (header %u, payload %llu, fatbin %zu)",
                    off, hs, (unsigned long long)psize, total);
            return -1;
        }
        if (n < max && out) {
            ws_fatbin_entry *x = &out[n];
            memset(x, 0, sizeof *x);
            x->kind = (int)rd16(e);
            x->compressed_size = rd32(e + 0x10);
            x->minor = rd16(e + 0x18);
            x->major = rd16(e + 0x1a);
            x->arch = rd32(e + 0x1c);
            uint32_t noff = rd32(e + 0x20), nlen = rd32(e + 0x24);
            x->flags = rd64(e + 0x28);
            if (hs >= 0x40) x->uncompressed_size = (size_t)rd64(e + 0x38);
            if (noff && nlen && noff < hs && nlen <= hs - noff) {
                x->name = (const char *)e + noff;
                x->name_len = strnlen(x->name, nlen);
            }
            x->payload = e + hs;
            x->payload_size = (size_t)psize;
            if (x->compressed_size > x->payload_size) {
                set_err(err, errlen, "fatbin entry at offset %zu: compressed size %zu exceeds payload %zu",
                        off, x->compressed_size, x->payload_size);
                return -1;
            }
        }
        n++;
        off += hs + (size_t)psize;
    }
    *count = n;
    return 0;
}

/* Decode one raw LZ4 block with liblz4. */
long ws_fatbin_lz4_decode(const unsigned char *src, size_t srclen, unsigned char *dst, size_t dstcap)
{
    if (!src || !dst || srclen == 0 || srclen > LZ4_MAX_INPUT_SIZE) return -1;
    int cap = dstcap > (size_t)INT_MAX ? INT_MAX : (int)dstcap;
    int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)srclen, cap);
    return r < 0 ? -1 : (long)r;
}

/* Short name of an entry's kind for messages. */
static const char *kind_name(int kind)
{
    return kind == WS_FATBIN_KIND_PTX ? "PTX" : kind == WS_FATBIN_KIND_ELF ? "ELF" : "unknown-kind";
}

/* Bytes of compressed data of entry e: the declared compressed size, or for zstd without one the size of the
 * frames at the start of the payload. 0 with a message when there is none. */
static size_t compressed_bytes(const ws_fatbin_entry *e, int zs, char *err, size_t errlen)
{
    if (e->compressed_size) return e->compressed_size;
    if (zs) {
        size_t n = ZSTD_findFrameCompressedSize(e->payload, e->payload_size);
        if (!ZSTD_isError(n) && n > 0 && n <= e->payload_size) return n;
    }
    set_err(err, errlen, "%s: compressed %s entry (arch %u) declares no compressed size", zs ? "zstd" : "lz4",
            kind_name(e->kind), e->arch);
    return 0;
}

/* Uncompressed size of entry e (csize compressed bytes), checked against what the codec can produce from csize
 * bytes and, for zstd, against the frame header. 0 with a message when the sizes are missing or inconsistent. */
static uint64_t uncompressed_bytes(const ws_fatbin_entry *e, int zs, size_t csize, char *err, size_t errlen)
{
    const char *codec = zs ? "zstd" : "lz4";
    uint64_t usize = e->uncompressed_size;
    if (zs) {
        unsigned long long fcs = ZSTD_getFrameContentSize(e->payload, csize);
        if (fcs == ZSTD_CONTENTSIZE_ERROR) {
            set_err(err, errlen, "zstd: %s entry (arch %u) does not start with a zstd frame", kind_name(e->kind),
                    e->arch);
            return 0;
        }
        /* a frame may omit its size, and the fatbin header may too; one of them must say it. The frame's size
         * is the whole entry's only when that frame is all the compressed data */
        size_t first = ZSTD_findFrameCompressedSize(e->payload, csize);
        int whole = !ZSTD_isError(first) && first == csize && fcs != ZSTD_CONTENTSIZE_UNKNOWN;
        if (whole && usize && fcs != usize) {
            set_err(err, errlen, "zstd: %s entry (arch %u): the fatbin header declares %llu uncompressed bytes, "
                    "its zstd frame %llu", kind_name(e->kind), e->arch, (unsigned long long)usize, fcs);
            return 0;
        }
        if (whole && !usize) usize = fcs;
    }
    if (!usize) {
        set_err(err, errlen, "%s: compressed %s entry (arch %u) declares no uncompressed size", codec,
                kind_name(e->kind), e->arch);
        return 0;
    }
    /* LZ4 turns one input byte into at most 255 output bytes; zstd at most 32768 (a 4-byte RLE block of 128 KiB) */
    uint64_t most = zs ? (uint64_t)csize << 15 : (uint64_t)csize * 255;
    if (usize > most) {
        set_err(err, errlen, "%s: compressed %s entry (arch %u) declares %llu uncompressed bytes, more than %s can "
                "produce from its %zu compressed bytes", codec, kind_name(e->kind), e->arch,
                (unsigned long long)usize, codec, csize);
        return 0;
    }
    if (usize > MAX_TEXT_BYTES) {
        set_err(err, errlen, "%s: compressed %s entry (arch %u) declares %llu uncompressed bytes, more than the "
                "%llu accepted", codec, kind_name(e->kind), e->arch, (unsigned long long)usize,
                (unsigned long long)MAX_TEXT_BYTES);
        return 0;
    }
    if (!zs && csize > LZ4_MAX_INPUT_SIZE) {
        set_err(err, errlen, "lz4: compressed %s entry (arch %u) of %zu bytes is larger than LZ4 allows",
                kind_name(e->kind), e->arch, csize);
        return 0;
    }
    return usize;
}

/* Decompress entry e into a malloc'd buffer of its declared size plus a NUL; NULL with a message. */
static char *decompress_entry(const ws_fatbin_entry *e, int zs, size_t *n, char *err, size_t errlen)
{
    const char *codec = zs ? "zstd" : "lz4";
    size_t csize = compressed_bytes(e, zs, err, errlen);
    if (!csize) return NULL;
    uint64_t usize = uncompressed_bytes(e, zs, csize, err, errlen);
    if (!usize) return NULL;
    char *out = malloc((size_t)usize + 1);
    if (!out) {
        set_err(err, errlen, "out of memory decompressing a %s entry (%llu bytes)", kind_name(e->kind),
                (unsigned long long)usize);
        return NULL;
    }
    size_t got = 0;
    if (zs) {
        size_t r = ZSTD_decompress(out, (size_t)usize, e->payload, csize);
        if (ZSTD_isError(r)) {
            set_err(err, errlen, "zstd: cannot decompress %s entry (arch %u): %s", kind_name(e->kind), e->arch,
                    ZSTD_getErrorName(r));
            free(out);
            return NULL;
        }
        got = r;
    } else {
        int r = LZ4_decompress_safe((const char *)e->payload, out, (int)csize, (int)usize);
        if (r < 0) {
            set_err(err, errlen, "lz4: %s entry (arch %u) is corrupt or larger than its declared %llu bytes",
                    kind_name(e->kind), e->arch, (unsigned long long)usize);
            free(out);
            return NULL;
        }
        got = (size_t)r;
    }
    if (got != usize) {
        set_err(err, errlen, "%s: %s entry (arch %u) decompressed to %zu bytes, the fatbin header declares %llu",
                codec, kind_name(e->kind), e->arch, got, (unsigned long long)usize);
        free(out);
        return NULL;
    }
    *n = got;
    return out;
}

/* Text of one PTX entry, decompressed when needed. */
char *ws_fatbin_entry_text(const ws_fatbin_entry *e, size_t *len, char *err, size_t errlen)
{
    char *out = NULL;
    size_t n = 0;
    int lz4 = (e->flags & WS_FATBIN_FLAG_LZ4) != 0, zs = (e->flags & WS_FATBIN_FLAG_ZSTD) != 0;
    if (lz4 && zs) {
        set_err(err, errlen, "%s entry (arch %u) is flagged both LZ4- and zstd-compressed", kind_name(e->kind),
                e->arch);
        return NULL;
    }
    if (lz4 || zs) {
        out = decompress_entry(e, zs, &n, err, errlen);
        if (!out) return NULL;
    } else {
        out = malloc(e->payload_size + 1);
        if (!out) {
            set_err(err, errlen, "out of memory copying PTX");
            return NULL;
        }
        memcpy(out, e->payload, e->payload_size);
        n = e->payload_size;
    }
    out[n] = 0;
    *len = strlen(out); /* the stored text ends with NUL and padding */
    return out;
}

/* Choose the PTX entry for compute capability cc. */
int ws_fatbin_select_ptx(const ws_fatbin_entry *e, int n, int cc)
{
    int best = -1, lowest = -1;
    for (int i = 0; i < n; i++) {
        if (e[i].kind != WS_FATBIN_KIND_PTX) continue;
        if (lowest < 0 || e[i].arch < e[lowest].arch) lowest = i;
        if ((int)e[i].arch <= cc && (best < 0 || e[i].arch > e[best].arch)) best = i;
    }
    return best >= 0 ? best : lowest;
}

/* Pick and extract the PTX of one fatbin for cc; 1 = found, 0 = none there, -1 = error. */
static int ptx_of_fatbin(const void *fb, int cc, char **ptx, size_t *len, unsigned *arch, char *err, size_t errlen)
{
    int count = 0;
    if (ws_fatbin_parse(fb, SIZE_MAX, NULL, 0, &count, err, errlen)) return -1;
    ws_fatbin_entry *es = calloc(count ? (size_t)count : 1, sizeof *es);
    if (!es) {
        set_err(err, errlen, "out of memory");
        return -1;
    }
    int n = 0;
    if (ws_fatbin_parse(fb, SIZE_MAX, es, count, &n, err, errlen)) {
        free(es);
        return -1;
    }
    int i = ws_fatbin_select_ptx(es, n, cc);
    if (i < 0) {
        free(es);
        return 0;
    }
    *ptx = ws_fatbin_entry_text(&es[i], len, err, errlen);
    if (arch) *arch = es[i].arch;
    free(es);
    return *ptx ? 1 : -1;
}

/* PTX for cc from a registration wrapper (or a bare fatbin). */
int ws_fatbin_ptx_from_wrapper(const void *wrapper, int cc, char **ptx, size_t *len, unsigned *arch,
                               char *err, size_t errlen)
{
    *ptx = NULL;
    *len = 0;
    if (!wrapper) {
        set_err(err, errlen, "null fatbin");
        return -1;
    }
    const unsigned char *w = wrapper;
    uint32_t magic = rd32(w);
    if (magic == WS_FATBIN_MAGIC) {
        int r = ptx_of_fatbin(wrapper, cc, ptx, len, arch, err, errlen);
        if (r == 0) set_err(err, errlen, "the fatbin holds no PTX (only SASS); rebuild with a compute_XX target");
        return r == 1 ? 0 : -1;
    }
    if (magic != WS_FATBIN_WRAPPER_MAGIC) {
        set_err(err, errlen, "unknown fatbin wrapper magic 0x%08x", magic);
        return -1;
    }
    int version = (int)rd32(w + 4);
    const void *data;
    void *extra;
    memcpy(&data, w + 8, sizeof data);
    memcpy(&extra, w + 8 + sizeof(void *), sizeof extra);
    if (!data || rd32(data) != WS_FATBIN_MAGIC) {
        set_err(err, errlen, "fatbin wrapper (version %d) does not point at a fatbin", version);
        return -1;
    }
    int r = ptx_of_fatbin(data, cc, ptx, len, arch, err, errlen);
    if (r == 1) return 0;
    if (r < 0) return -1;
    if (version == 2 && extra) {
        /* device-linked binary: the per-object fatbins are listed in a NULL-terminated array */
        const void *const *list = extra;
        for (int i = 0; i < 4096 && list[i]; i++) {
            if (rd32(list[i]) != WS_FATBIN_MAGIC) continue;
            r = ptx_of_fatbin(list[i], cc, ptx, len, arch, err, errlen);
            if (r == 1) return 0;
            if (r < 0) return -1;
        }
    }
    set_err(err, errlen, "the fatbin holds no PTX (only SASS); rebuild with a compute_XX target");
    return -1;
}

/* Append one text and its arch to the growing result arrays; -1 when out of memory. */
static int push_unit(char ***texts, size_t **lens, unsigned **archs, int *count, char *t, size_t len, unsigned arch)
{
    unsigned *na = realloc(*archs, (size_t)(*count + 1) * sizeof *na);
    if (!na) return -1;
    *archs = na;
    na[*count] = arch;
    char **nt = realloc(*texts, (size_t)(*count + 1) * sizeof *nt);
    if (!nt) return -1;
    *texts = nt;
    size_t *nl = realloc(*lens, (size_t)(*count + 1) * sizeof *nl);
    if (!nl) return -1;
    *lens = nl;
    nt[*count] = t;
    nl[*count] = len;
    (*count)++;
    return 0;
}

/* Whether a PTX text is libcudadevrt's own device code: it defines (not just declares) the CDP2 entry points. */
int ws_fatbin_ptx_is_devrt(const char *ptx)
{
    for (const char *p = strstr(ptx, "__cudaCDP2"); p; p = strstr(p + 10, "__cudaCDP2")) {
        const char *line = p;
        while (line > ptx && line[-1] != '\n') line--;
        if (!strncmp(line, ".visible .func", 14) || !strncmp(line, ".weak .func", 11)) return 1;
    }
    return 0;
}

/* PTX for cc of every translation unit behind a registration wrapper. */
int ws_fatbin_ptx_units_from_wrapper(const void *wrapper, int cc, char ***ptx_texts, size_t **lens, unsigned **archs,
                                     int *count, char *err, size_t errlen)
{
    *ptx_texts = NULL;
    *lens = NULL;
    *archs = NULL;
    *count = 0;
    const unsigned char *w = wrapper;
    if (!w || rd32(w) != WS_FATBIN_WRAPPER_MAGIC || rd32(w + 4) != 2) {
        char *t = NULL;
        size_t len = 0;
        unsigned arch = 0;
        if (ws_fatbin_ptx_from_wrapper(wrapper, cc, &t, &len, &arch, err, errlen)) return -1;
        if (push_unit(ptx_texts, lens, archs, count, t, len, arch)) {
            free(t);
            set_err(err, errlen, "out of memory");
            return -1;
        }
        return 0;
    }
    const void *data;
    const void *const *list;
    memcpy(&data, w + 8, sizeof data);
    memcpy(&list, w + 8 + sizeof(void *), sizeof list);
    /* the per-object fatbins hold the PTX; the device-linked fatbin at data only when the list has none */
    for (int i = 0; i <= 4096; i++) {
        const void *fb = list && i < 4096 ? list[i] : NULL;
        if (!fb) {
            if (*count || !data) break;
            fb = data;
            i = 4096;
        }
        if (rd32(fb) != WS_FATBIN_MAGIC) continue;
        char *t = NULL;
        size_t len = 0;
        unsigned arch = 0;
        int r = ptx_of_fatbin(fb, cc, &t, &len, &arch, err, errlen);
        if (r == 1 && ws_fatbin_ptx_is_devrt(t)) {
            free(t);   /* libcudadevrt's device code (-lcudadevrt): the simulator implements the device runtime */
            continue;
        }
        if (r < 0 || (r == 1 && push_unit(ptx_texts, lens, archs, count, t, len, arch))) {
            if (r == 1) {
                free(t);
                set_err(err, errlen, "out of memory");
            }
            ws_fatbin_free_texts(*ptx_texts, *lens, *count);
            free(*archs);
            *ptx_texts = NULL, *lens = NULL, *archs = NULL, *count = 0;
            return -1;
        }
    }
    if (*count == 0) {
        set_err(err, errlen, "the fatbin holds no PTX (only SASS); rebuild with a compute_XX target");
        return -1;
    }
    return 0;
}

/* Whether one fatbin holds an ELF entry runnable on cc. */
static int fatbin_has_sass(const void *fb, int cc)
{
    int n = 0;
    char err[16];
    if (rd32(fb) != WS_FATBIN_MAGIC || ws_fatbin_parse(fb, SIZE_MAX, NULL, 0, &n, err, sizeof err) || n <= 0)
        return 0;
    ws_fatbin_entry *es = calloc((size_t)n, sizeof *es);
    if (!es) return 0;
    int found = 0;
    if (!ws_fatbin_parse(fb, SIZE_MAX, es, n, &n, err, sizeof err))
        for (int i = 0; i < n && !found; i++)
            found = es[i].kind == WS_FATBIN_KIND_ELF && (int)es[i].arch / 10 == cc / 10 && (int)es[i].arch <= cc;
    free(es);
    return found;
}

/* Whether the wrapper's fatbins hold SASS runnable on cc. */
int ws_fatbin_wrapper_has_sass(const void *wrapper, int cc)
{
    const unsigned char *w = wrapper;
    if (!w) return 0;
    if (rd32(w) == WS_FATBIN_MAGIC) return fatbin_has_sass(w, cc);
    if (rd32(w) != WS_FATBIN_WRAPPER_MAGIC) return 0;
    const void *data;
    const void *const *list;
    memcpy(&data, w + 8, sizeof data);
    memcpy(&list, w + 8 + sizeof(void *), sizeof list);
    if (data && fatbin_has_sass(data, cc)) return 1;
    if (rd32(w + 4) == 2 && list)
        for (int i = 0; i < 4096 && list[i]; i++)
            if (fatbin_has_sass(list[i], cc)) return 1;
    return 0;
}

/* Read a whole file into memory, a zero byte after it. */
unsigned char *ws_fatbin_read_file(const char *path, size_t *size, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "%s: cannot open", path);
        return NULL;
    }
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            cap = cap ? cap * 2 : 1 << 20;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                set_err(err, errlen, "%s: out of memory", path);
                return NULL;
            }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        set_err(err, errlen, "%s: read error", path);
        return NULL;
    }
    buf[n] = 0;
    *size = n;
    return buf;
}

/* The bytes an ELF image spans. */
size_t ws_fatbin_elf_extent(const void *image)
{
    const unsigned char *b = image;   /* byte by byte: a short NUL-terminated text stops at its first byte */
    for (int i = 0; i < SELFMAG; i++)
        if (b[i] != (unsigned char)ELFMAG[i]) return 0;
    if (b[EI_CLASS] != ELFCLASS64) return 0;
    uint64_t sh = rd64(b + offsetof(Elf64_Ehdr, e_shoff)) +
                  (uint64_t)rd16(b + offsetof(Elf64_Ehdr, e_shnum)) * rd16(b + offsetof(Elf64_Ehdr, e_shentsize));
    uint64_t ph = rd64(b + offsetof(Elf64_Ehdr, e_phoff)) +
                  (uint64_t)rd16(b + offsetof(Elf64_Ehdr, e_phnum)) * rd16(b + offsetof(Elf64_Ehdr, e_phentsize));
    return (size_t)(sh > ph ? sh : ph);
}

/* Locate the .nv_fatbin section of a 64-bit little-endian ELF image: 1 found, 0 absent, -1 not such an ELF. */
static int find_fatbin_section(const unsigned char *img, size_t size, size_t *off, size_t *len)
{
    if (size < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) != 0) return -1;
    if (img[EI_CLASS] != ELFCLASS64 || img[EI_DATA] != ELFDATA2LSB) return -1;
    uint64_t shoff = rd64(img + offsetof(Elf64_Ehdr, e_shoff));
    unsigned shentsize = rd16(img + offsetof(Elf64_Ehdr, e_shentsize));
    unsigned shnum = rd16(img + offsetof(Elf64_Ehdr, e_shnum));
    unsigned shstrndx = rd16(img + offsetof(Elf64_Ehdr, e_shstrndx));
    if (shentsize < sizeof(Elf64_Shdr) || shoff > size || (uint64_t)shnum * shentsize > size - shoff ||
        shstrndx >= shnum)
        return -1;
    const unsigned char *strsh = img + shoff + (size_t)shstrndx * shentsize;
    uint64_t stroff = rd64(strsh + offsetof(Elf64_Shdr, sh_offset));
    uint64_t strsize = rd64(strsh + offsetof(Elf64_Shdr, sh_size));
    if (stroff > size || strsize > size - stroff) return -1;
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *sh = img + shoff + (size_t)i * shentsize;
        uint32_t name = rd32(sh + offsetof(Elf64_Shdr, sh_name));
        uint32_t type = rd32(sh + offsetof(Elf64_Shdr, sh_type));
        if (name >= strsize || type == SHT_NOBITS) continue;
        const char *nm = (const char *)img + stroff + name;
        if (strnlen(nm, strsize - name) == strsize - name || strcmp(nm, ".nv_fatbin") != 0) continue;
        uint64_t o = rd64(sh + offsetof(Elf64_Shdr, sh_offset));
        uint64_t l = rd64(sh + offsetof(Elf64_Shdr, sh_size));
        if (o > size || l > size - o) return -1;
        *off = (size_t)o;
        *len = (size_t)l;
        return 1;
    }
    return 0;
}

/* Append one text to the growing result arrays; -1 when out of memory. */
static int push_text(char ***texts, size_t **lens, int *count, char *t, size_t len)
{
    char **nt = realloc(*texts, (size_t)(*count + 1) * sizeof *nt);
    if (!nt) return -1;
    *texts = nt;
    size_t *nl = realloc(*lens, (size_t)(*count + 1) * sizeof *nl);
    if (!nl) return -1;
    *lens = nl;
    nt[*count] = t;
    nl[*count] = len;
    (*count)++;
    return 0;
}

/* All PTX texts in the .nv_fatbin section of an ELF image in memory. */
int ws_fatbin_ptx_from_image(const void *image, size_t size, char ***ptx_texts, size_t **lens, int *count,
                             char *err, size_t errlen)
{
    *ptx_texts = NULL;
    *lens = NULL;
    *count = 0;
    const unsigned char *img = image;
    size_t off = 0, len = 0;
    int r = img ? find_fatbin_section(img, size, &off, &len) : -1;
    if (r < 0) {
        set_err(err, errlen, "not a 64-bit little-endian ELF file");
        return -1;
    }
    if (r == 0) {
        set_err(err, errlen, "no .nv_fatbin section (no CUDA device code)");
        return -1;
    }
    const unsigned char *sec = img + off;
    size_t pos = 0;
    int rc = 0;
    while (pos + FATBIN_HEADER_MIN <= len) {
        size_t fsize = ws_fatbin_size(sec + pos, len - pos);
        if (!fsize) {
            pos += 8; /* fatbins are 8-byte aligned; skip padding */
            continue;
        }
        int n = 0;
        if (ws_fatbin_parse(sec + pos, len - pos, NULL, 0, &n, err, errlen)) {
            rc = -1;
            break;
        }
        ws_fatbin_entry *es = calloc(n ? (size_t)n : 1, sizeof *es);
        if (!es || ws_fatbin_parse(sec + pos, len - pos, es, n, &n, err, errlen)) {
            if (!es) set_err(err, errlen, "out of memory");
            free(es);
            rc = -1;
            break;
        }
        for (int i = 0; i < n && rc == 0; i++) {
            if (es[i].kind != WS_FATBIN_KIND_PTX) continue;
            size_t tl = 0;
            char *t = ws_fatbin_entry_text(&es[i], &tl, err, errlen);
            if (!t || push_text(ptx_texts, lens, count, t, tl)) {
                if (t) {
                    free(t);
                    set_err(err, errlen, "out of memory");
                }
                rc = -1;
            }
        }
        free(es);
        if (rc) break;
        pos += (fsize + 7) & ~(size_t)7;
    }
    if (rc) {
        ws_fatbin_free_texts(*ptx_texts, *lens, *count);
        *ptx_texts = NULL;
        *lens = NULL;
        *count = 0;
    }
    return rc;
}

/* All PTX texts in an executable's .nv_fatbin section. */
int ws_fatbin_ptx_from_file(const char *elf_path, char ***ptx_texts, size_t **lens, int *count,
                            char *err, size_t errlen)
{
    *ptx_texts = NULL;
    *lens = NULL;
    *count = 0;
    size_t size = 0;
    unsigned char *img = ws_fatbin_read_file(elf_path, &size, err, errlen);
    if (!img) return -1;
    int rc = ws_fatbin_ptx_from_image(img, size, ptx_texts, lens, count, err, errlen);
    free(img);
    if (rc && err && errlen) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", err);
        set_err(err, errlen, "%s: %s", elf_path, tmp);
    }
    return rc;
}

/* Free the arrays returned by ws_fatbin_ptx_from_file. */
void ws_fatbin_free_texts(char **ptx_texts, size_t *lens, int count)
{
    for (int i = 0; i < count; i++) free(ptx_texts[i]);
    free(ptx_texts);
    free(lens);
}
