/* device.c - device presets: the plain-text preset format (devices/README.md), its parser and the cache. */
#include "device.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WS_DEVICES_DIR
#define WS_DEVICES_DIR "devices"
#endif

enum ftype { F_INT, F_SIZE, F_DBL, F_STR, F_INT3, F_LIST };

/* One key of the preset format: where it goes in ws_device and how it is read. */
typedef struct field {
    const char *key;
    enum ftype type;
    size_t off;
    size_t cap;        /* F_STR: buffer size; F_LIST: max entries */
    size_t count_off;  /* F_LIST: offset of the int that receives the entry count */
    int required;      /* 1: a preset must set it (itself or through its base) */
    double min;        /* smallest accepted value (each element for F_INT3 / F_LIST) */
    const char *deflt; /* value used when an optional key is absent (parsed like a preset value), or NULL */
} field;

#define FI(k, req, mn, d) { #k, F_INT, offsetof(ws_device, k), 0, 0, req, mn, d }
#define FZ(k, req, mn, d) { #k, F_SIZE, offsetof(ws_device, k), 0, 0, req, mn, d }
#define FD(k, req, mn, d) { #k, F_DBL, offsetof(ws_device, k), 0, 0, req, mn, d }

static const field FIELDS[] = {
    { "full_name", F_STR, offsetof(ws_device, full_name), sizeof(((ws_device *)0)->full_name), 0, 1, 0, NULL },
    { "compute_capability", F_STR, 0, 0, 0, 1, 0, NULL }, /* "X.Y" -> cc_major, cc_minor (special-cased) */
    FI(sm_count, 1, 1, NULL),
    FI(subpartitions, 1, 1, NULL),
    FI(warp_size, 1, 1, NULL),
    FI(max_threads_per_block, 1, 1, NULL),
    { "max_block_dim", F_INT3, offsetof(ws_device, max_block_dim), 3, 0, 0, 1, "1024, 1024, 64" },
    { "max_grid_dim", F_INT3, offsetof(ws_device, max_grid_dim), 3, 0, 0, 1, "2147483647, 65535, 65535" },
    FI(max_regs_per_thread, 1, 1, NULL),
    FI(max_regs_per_block, 1, 1, NULL),
    FZ(smem_per_block, 1, 0, NULL),
    FZ(smem_per_block_optin, 0, 0, NULL), /* default: smem_per_block */
    FZ(smem_reserved_per_block, 0, 0, "0"),
    FI(max_threads_per_sm, 1, 1, NULL),
    FI(max_warps_per_sm, 1, 1, NULL),
    FI(max_blocks_per_sm, 1, 1, NULL),
    FI(regs_per_sm, 1, 1, NULL),
    FI(reg_alloc_unit, 1, 0, NULL),
    FI(warp_alloc_granularity, 0, 1, "1"),
    FI(min_regs_per_thread, 0, 0, "0"),
    FI(barriers_per_sm, 0, 0, "0"),
    FZ(smem_per_sm, 1, 0, NULL),
    FZ(smem_alloc_unit, 1, 0, NULL),
    { "carveouts_kb", F_LIST, offsetof(ws_device, carveouts_kb), WS_MAX_CARVEOUTS,
      offsetof(ws_device, n_carveouts), 0, 0, NULL },
    FZ(l1_smem_per_sm, 1, 0, NULL),
    { "gpc_sms", F_LIST, offsetof(ws_device, gpc_sms), WS_MAX_GPCS, offsetof(ws_device, n_gpcs), 0, 0, NULL },
    FI(smem_banks, 0, 1, "32"),
    FI(smem_bank_bytes, 0, 1, "4"),
    FZ(global_mem, 1, 1, NULL),
    FZ(const_mem, 0, 0, "64 KiB"),
    FZ(l2_size, 1, 0, NULL),
    FI(mem_bus_width, 1, 1, NULL),
    FD(mem_clock_mhz, 1, 0, NULL),
    FD(mem_bandwidth_gbs, 1, 0, NULL),
    FD(sm_clock_mhz, 1, 1, NULL),
    FI(fp32_lanes_per_sm, 1, 1, NULL),
    FD(fp32_tflops, 1, 0, NULL),
    FD(fp64_tflops, 1, 0, NULL),
    FD(tensor_tflops, 0, 0, "0"),
    FD(host_link_gbs_pinned, 1, 0, NULL),
    FD(host_link_gbs_pageable, 1, 0, NULL),
    FD(peer_link_gbs, 0, 0, "0"),
    FD(peer_link_latency_us, 0, 0, "0"),
    FI(teaching, 0, 0, "0"),
    /* timing model (defaults: Hopper-class values; presets name their sources) */
    FI(lat_int, 0, 1, "4"),
    FI(lat_fp32, 0, 1, "4"),
    FI(lat_fp64, 0, 1, "8"),
    FI(lat_sfu, 0, 1, "18"),
    FI(lat_shfl, 0, 1, "23"),
    FI(lat_smem, 0, 1, "29"),
    FI(lat_bar, 0, 0, "20"),
    FI(lat_branch, 0, 0, "2"),
    FI(lat_cvt, 0, 1, "6"),
    FI(lanes_int_per_sm, 0, 1, "64"),
    FI(lanes_fp64_per_sm, 0, 1, "64"),
    FI(lanes_sfu_per_sm, 0, 1, "16"),
    FI(lanes_lsu_per_sm, 0, 1, "32"),
    FI(lat_tensor, 0, 1, "32"),
    FI(lat_ldsm_over_lds, 0, 0, "7"),
    FI(lat_generic_over_lds, 0, 0, "5"),
    FI(lat_movm, 0, 0, "24"),
    FI(tensor_fma_f16_per_sm, 0, 1, "1024"),
    FI(tensor_fma_tf32_per_sm, 0, 1, "512"),
    FI(tensor_fma_f64_per_sm, 0, 1, "64"),
    FI(tensor_fma_int8_per_sm, 0, 1, "2048"),
    FD(launch_overhead_us, 0, 0, "2.5"),
    FI(kernel_fixed_cycles, 0, 0, "0"),
    FI(block_launch_cycles, 0, 0, "0"),
    FD(block_dispatch_cycles, 0, 0, "0"),
    FD(graph_launch_us, 0, 0, "0.8"),
    FI(issue_sass, 0, 0, "1"),
    FD(bulk_store_bytes_per_cycle, 0, 0, "0"),
    { "sched_policy", F_STR, offsetof(ws_device, sched_policy), sizeof(((ws_device *)0)->sched_policy), 0, 0, 0, "gto" },
    /* memory timing (defaults: Hopper-class values; real presets name their sources) */
    FI(l1_hit_latency, 0, 1, "35"),
    FI(l2_hit_latency, 0, 1, "277"),
    FI(dram_latency, 0, 1, "560"),
    FI(l2_slices, 0, 1, "96"),
    FD(l2_bytes_per_clk, 0, 0, "0"),
    FD(dram_efficiency, 0, 0, "1"),
    FD(l2_atomic_cycles, 0, 0, "3"),
    /* unified memory (defaults: an x86 host over PCIe with Linux UVM; presets name their sources) */
    FZ(um_page_bytes, 0, 4096, "64 KiB"),
    FD(um_fault_latency_us, 0, 0, "30"),
    FD(um_fault_page_us, 0, 0, "0"),
    FI(um_fault_batch, 0, 1, "256"),
    FD(um_cpu_fault_us, 0, 0, "10"),
    FD(um_remote_latency_us, 0, 0, "1.5"),
};
#define NFIELDS ((int)(sizeof(FIELDS) / sizeof(FIELDS[0])))

/* Format "file:line: field 'key': problem" into err. */
static void seterr(char *err, size_t errlen, const char *file, int line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void seterr(char *err, size_t errlen, const char *file, int line, const char *key, const char *fmt, ...)
{
    if (!err || !errlen) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (key)
        snprintf(err, errlen, "%s:%d: field '%s': %s", file, line, key, msg);
    else
        snprintf(err, errlen, "%s:%d: %s", file, line, msg);
}

/* Trim leading and trailing white space in place; returns the start. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* Parse a decimal number (no unit) that fills the whole string; 0 on success. */
static int parse_double(const char *s, double *out)
{
    if (!*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* Parse an integer that fills the whole string; 0 on success. */
static int parse_ll(const char *s, long long *out)
{
    if (!*s) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno) return -1;
    *out = v;
    return 0;
}

/* Parse a byte count with an optional unit (B, KiB, MiB, GiB, TiB, kB/KB, MB, GB, TB); 0 on success, else
 * -1 with the problem in why. */
static int parse_size(const char *s, unsigned long long *out, char *why, size_t whylen)
{
    char num[64];
    size_t i = 0;
    while (s[i] && (isdigit((unsigned char)s[i]) || s[i] == '.') && i < sizeof num - 1) { num[i] = s[i]; i++; }
    num[i] = 0;
    const char *unit = s + i;
    while (isspace((unsigned char)*unit)) unit++;
    double v;
    if (!i || parse_double(num, &v)) { snprintf(why, whylen, "bad number '%s'", s); return -1; }
    static const struct { const char *u; double m; } units[] = {
        { "", 1 }, { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
        { "TiB", 1099511627776.0 }, { "kB", 1e3 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 },
    };
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
        if (strcmp(unit, units[k].u)) continue;
        double b = v * units[k].m;
        if (b != floor(b) || b > 1.8e19) { snprintf(why, whylen, "'%s' is not a whole number of bytes", s); return -1; }
        *out = (unsigned long long)b;
        return 0;
    }
    snprintf(why, whylen, "unknown unit '%s' in '%s' (use B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)", unit, s);
    return -1;
}

/* Store one value for field f into d; 0 on success, else -1 with the problem in why. */
static int set_field(ws_device *d, const field *f, const char *val, char *why, size_t whylen)
{
    char *base = (char *)d;
    if (!strcmp(f->key, "compute_capability")) {
        int ma, mi;
        char extra;
        if (sscanf(val, "%d.%d%c", &ma, &mi, &extra) != 2 || ma < 1 || mi < 0 || mi > 9) {
            snprintf(why, whylen, "expected MAJOR.MINOR such as 9.0, got '%s'", val);
            return -1;
        }
        d->cc_major = ma;
        d->cc_minor = mi;
        return 0;
    }
    switch (f->type) {
    case F_STR: {
        size_t n = strlen(val);
        if (n >= 2 && val[0] == '"' && val[n - 1] == '"') { val++; n -= 2; }
        if (n == 0) { snprintf(why, whylen, "empty value"); return -1; }
        if (n >= f->cap) { snprintf(why, whylen, "longer than %zu characters", f->cap - 1); return -1; }
        memcpy(base + f->off, val, n);
        (base + f->off)[n] = 0;
        return 0;
    }
    case F_INT: {
        long long v;
        if (parse_ll(val, &v)) { snprintf(why, whylen, "bad number '%s' (expected an integer)", val); return -1; }
        if (v < f->min || v > INT_MAX) { snprintf(why, whylen, "%lld out of range (at least %.0f)", v, f->min); return -1; }
        *(int *)(base + f->off) = (int)v;
        return 0;
    }
    case F_SIZE: {
        unsigned long long v;
        if (parse_size(val, &v, why, whylen)) return -1;
        if ((double)v < f->min) { snprintf(why, whylen, "%llu out of range (at least %.0f)", v, f->min); return -1; }
        *(size_t *)(base + f->off) = (size_t)v;
        return 0;
    }
    case F_DBL: {
        double v;
        if (parse_double(val, &v)) { snprintf(why, whylen, "bad number '%s'", val); return -1; }
        if (v < f->min) { snprintf(why, whylen, "%g out of range (at least %g)", v, f->min); return -1; }
        *(double *)(base + f->off) = v;
        return 0;
    }
    case F_INT3:
    case F_LIST: {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", val);
        int n = 0;
        int tmp[WS_MAX_CARVEOUTS];
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            tok = trim(tok);
            long long v;
            if (parse_ll(tok, &v)) { snprintf(why, whylen, "bad number '%s' in list '%s'", tok, val); return -1; }
            if (v < f->min || v > INT_MAX) { snprintf(why, whylen, "%lld out of range in list", v); return -1; }
            if ((size_t)n >= f->cap) { snprintf(why, whylen, "more than %zu values", f->cap); return -1; }
            tmp[n++] = (int)v;
        }
        if (f->type == F_INT3 && n != 3) { snprintf(why, whylen, "expected 3 comma-separated values, got %d", n); return -1; }
        if (f->type == F_LIST && n == 0) { snprintf(why, whylen, "empty list"); return -1; }
        for (int i = 1; f->type == F_LIST && i < n; i++)
            if (tmp[i] < tmp[i - 1]) { snprintf(why, whylen, "values must be ascending"); return -1; }
        memcpy(base + f->off, tmp, (size_t)n * sizeof(int));
        if (f->type == F_LIST) *(int *)(base + f->count_off) = n;
        return 0;
    }
    }
    return -1;
}

/* Find a field by key, or NULL. */
static const field *find_field(const char *key)
{
    for (int i = 0; i < NFIELDS; i++)
        if (!strcmp(FIELDS[i].key, key)) return &FIELDS[i];
    return NULL;
}

/* Check one preset override: key names a preset field and val is a valid value for it. */
int ws_device_check_value(const char *key, const char *val, char *err, size_t errlen)
{
    const field *f = find_field(key);
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "unknown preset field '%s' (devices/README.md lists the fields)", key);
        return -1;
    }
    if (!*val) {
        if (err && errlen) snprintf(err, errlen, "field '%s': missing value", key);
        return -1;
    }
    ws_device scratch;
    memset(&scratch, 0, sizeof scratch);
    char why[512];
    if (set_field(&scratch, f, val, why, sizeof why)) {
        if (err && errlen) snprintf(err, errlen, "field '%s': invalid value '%s': %s", key, val, why);
        return -1;
    }
    return 0;
}

/* Id of a preset from its path: the file name without directory and ".preset". */
static void preset_id(const char *path, char *out, size_t cap)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, cap, "%s", b);
    size_t n = strlen(out);
    if (n > 7 && !strcmp(out + n - 7, ".preset")) out[n - 7] = 0;
}

/* Resolve a preset name or path to a file path. */
static void resolve_path(const char *name_or_path, char *out, size_t cap)
{
    size_t n = strlen(name_or_path);
    if (strchr(name_or_path, '/') || (n > 7 && !strcmp(name_or_path + n - 7, ".preset")))
        snprintf(out, cap, "%s", name_or_path);
    else
        snprintf(out, cap, "%s/%s.preset", ws_device_dir(), name_or_path);
}

/* The preset file a name or path resolves to (not checked to exist). */
void ws_device_resolve(const char *name_or_path, char *out, size_t cap)
{
    resolve_path(name_or_path && *name_or_path ? name_or_path : WS_DEVICE_DEFAULT, out, cap);
}

#define MAX_BASE_DEPTH 8

/* Parse one file into *out; set[] records the line (>0) at which each field was given. chain[0..depth-1] holds
 * the files that named this one as their base (to report cycles). */
static int load_file(const char *path, ws_device *out, int *set, int depth, char chain[][4096], char *err,
                     size_t errlen)
{
    if (!realpath(path, chain[depth])) snprintf(chain[depth], 4096, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f) {
        seterr(err, errlen, path, 0, NULL, "cannot open preset: %s", strerror(errno));
        return -1;
    }
    int seen[NFIELDS];
    memset(seen, 0, sizeof seen);
    char line[1024];
    int lineno = 0, rc = 0, base_line = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            seterr(err, errlen, path, lineno, NULL, "line longer than %zu characters", sizeof line - 2);
            rc = -1;
            break;
        }
        /* strip the comment: '#' outside double quotes */
        int inq = 0;
        for (char *p = line; *p; p++) {
            if (*p == '"') inq = !inq;
            else if (*p == '#' && !inq) { *p = 0; break; }
        }
        char *s = trim(line);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            seterr(err, errlen, path, lineno, NULL, "expected 'key = value', got '%s'", s);
            rc = -1;
            break;
        }
        *eq = 0;
        char *key = trim(s), *val = trim(eq + 1);
        if (!*key) {
            seterr(err, errlen, path, lineno, NULL, "missing key before '='");
            rc = -1;
            break;
        }
        if (!strcmp(key, "base")) {
            /* inherit every field from another preset; must come before any other key */
            int any = 0;
            for (int i = 0; i < NFIELDS; i++) any |= seen[i];
            if (any || base_line) {
                seterr(err, errlen, path, lineno, "base", "must be the first key and appear once");
                rc = -1;
                break;
            }
            if (depth + 1 >= MAX_BASE_DEPTH) {
                seterr(err, errlen, path, lineno, "base", "base presets nested more than %d deep", MAX_BASE_DEPTH);
                rc = -1;
                break;
            }
            char bpath[4096];
            if (strchr(val, '/') || !strchr(path, '/')) {
                resolve_path(val, bpath, sizeof bpath);
            } else {
                /* a bare name is looked up next to the file that names it */
                const char *slash = strrchr(path, '/');
                snprintf(bpath, sizeof bpath, "%.*s/%s.preset", (int)(slash - path), path, val);
            }
            char real[4096];
            int cycle = 0;
            if (realpath(bpath, real))
                for (int i = 0; i <= depth; i++) cycle |= !strcmp(chain[i], real);
            if (cycle) {
                seterr(err, errlen, path, lineno, "base", "'%s' is this preset or one that names it as its base (a cycle)",
                       val);
                rc = -1;
                break;
            }
            char sub[1024];
            if (load_file(bpath, out, set, depth + 1, chain, sub, sizeof sub)) {
                seterr(err, errlen, path, lineno, "base", "cannot load base preset '%s': %s", val, sub);
                rc = -1;
                break;
            }
            base_line = lineno;
            continue;
        }
        const field *fd = find_field(key);
        if (!fd) {
            seterr(err, errlen, path, lineno, key, "unknown field (devices/README.md lists the fields)");
            rc = -1;
            break;
        }
        int idx = (int)(fd - FIELDS);
        if (seen[idx]) {
            seterr(err, errlen, path, lineno, key, "set twice (first at line %d)", seen[idx]);
            rc = -1;
            break;
        }
        if (!*val) {
            seterr(err, errlen, path, lineno, key, "missing value");
            rc = -1;
            break;
        }
        char why[512];
        if (set_field(out, fd, val, why, sizeof why)) {
            seterr(err, errlen, path, lineno, key, "%s", why);
            rc = -1;
            break;
        }
        seen[idx] = lineno;
        set[idx] = lineno;
    }
    if (rc == 0 && ferror(f)) {
        seterr(err, errlen, path, lineno, NULL, "read error");
        rc = -1;
    }
    fclose(f);
    if (rc == 0) set[NFIELDS] = lineno; /* remember the last line for end-of-file messages */
    return rc;
}

/* Check the loaded device for missing fields and inconsistent values; 0 when fine. */
static int validate(const char *path, ws_device *d, const int *set, char *err, size_t errlen)
{
    int eof = set[NFIELDS] + 1;
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &FIELDS[i];
        if (set[i]) continue;
        if (f->required) {
            seterr(err, errlen, path, eof, f->key, "missing required field");
            return -1;
        }
        if (f->deflt) {
            char why[256];
            if (set_field(d, f, f->deflt, why, sizeof why)) {
                seterr(err, errlen, path, eof, f->key, "bad built-in default: %s", why);
                return -1;
            }
        }
    }
#define LINE_OF(k) (set[find_field(#k) - FIELDS] ? set[find_field(#k) - FIELDS] : eof)
    if (!set[find_field("smem_per_block_optin") - FIELDS]) d->smem_per_block_optin = d->smem_per_block;
    if (d->smem_per_block_optin < d->smem_per_block) {
        seterr(err, errlen, path, LINE_OF(smem_per_block_optin), "smem_per_block_optin",
               "smaller than smem_per_block (%zu)", d->smem_per_block);
        return -1;
    }
    if (d->max_threads_per_sm < d->max_threads_per_block) {
        seterr(err, errlen, path, LINE_OF(max_threads_per_block), "max_threads_per_block",
               "a block of %d threads could never be resident (max_threads_per_sm = %d)", d->max_threads_per_block,
               d->max_threads_per_sm);
        return -1;
    }
    if (d->max_warps_per_sm > (d->max_threads_per_sm + d->warp_size - 1) / d->warp_size) {
        seterr(err, errlen, path, LINE_OF(max_warps_per_sm), "max_warps_per_sm",
               "%d warps of %d threads exceed max_threads_per_sm = %d", d->max_warps_per_sm, d->warp_size,
               d->max_threads_per_sm);
        return -1;
    }
    if (d->max_regs_per_block > d->regs_per_sm) {
        seterr(err, errlen, path, LINE_OF(max_regs_per_block), "max_regs_per_block",
               "larger than regs_per_sm (%d)", d->regs_per_sm);
        return -1;
    }
    if (d->smem_per_block_optin > d->smem_per_sm) {
        seterr(err, errlen, path, LINE_OF(smem_per_block_optin), "smem_per_block_optin",
               "larger than smem_per_sm (%zu)", d->smem_per_sm);
        return -1;
    }
    if (d->n_carveouts > 0 && (size_t)d->carveouts_kb[d->n_carveouts - 1] * 1024 < d->smem_per_sm) {
        seterr(err, errlen, path, LINE_OF(carveouts_kb), "carveouts_kb",
               "largest carve-out (%d KiB) is smaller than smem_per_sm (%zu bytes)",
               d->carveouts_kb[d->n_carveouts - 1], d->smem_per_sm);
        return -1;
    }
    if (d->max_block_dim[0] > d->max_threads_per_block) {
        seterr(err, errlen, path, LINE_OF(max_block_dim), "max_block_dim",
               "x dimension %d exceeds max_threads_per_block", d->max_block_dim[0]);
        return -1;
    }
#undef LINE_OF
    return 0;
}

/* Parse one preset file into *out; 0 on success, -1 with "file:line: field 'x': problem" in err. */
int ws_device_load_file(const char *path, ws_device *out, char *err, size_t errlen)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    int set[NFIELDS + 1];
    memset(set, 0, sizeof set);
    char (*chain)[4096] = malloc(MAX_BASE_DEPTH * sizeof *chain);
    if (!chain) {
        seterr(err, errlen, path, 0, NULL, "out of memory");
        return -1;
    }
    int rc = load_file(path, &d, set, 0, chain, err, errlen);
    free(chain);
    if (rc) return -1;
    if (validate(path, &d, set, err, errlen)) return -1;
    preset_id(path, d.name, sizeof d.name);
    *out = d;
    return 0;
}

/* The preset folder found next to the code (installed layout), else the compiled-in one; set once. */
static char g_found_dir[PATH_MAX];
static pthread_once_t g_found_once = PTHREAD_ONCE_INIT;

/* Folder of the file that holds this code: the warpsim executable (PREFIX/bin) or the simulated runtime
 * loaded into a program (PREFIX/lib/warpsim); 0 on success. */
static int code_dir(char *out, size_t cap)
{
    char path[PATH_MAX];
    Dl_info di;
    struct link_map *lm = NULL;
    /* the main program's link map has an empty name (dli_fname is then argv[0], maybe relative) */
    if (dladdr1((void *)&code_dir, &di, (void **)&lm, RTLD_DL_LINKMAP) && lm && lm->l_name && lm->l_name[0]) {
        if (!realpath(lm->l_name, path)) return -1;
    } else {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0) return -1;
        path[n] = 0;
    }
    char *slash = strrchr(path, '/');
    if (!slash) return -1;
    *slash = 0;
    return (size_t)snprintf(out, cap, "%s", path) < cap ? 0 : -1;
}

/* Locate the preset folder once: DIR/../share/warpsim/devices (DIR = PREFIX/bin) or
 * DIR/../../share/warpsim/devices (DIR = PREFIX/lib/warpsim), else the build tree's (WS_DEVICES_DIR). */
static void find_device_dir(void)
{
    static const char *const rel[] = { "../share/warpsim/devices", "../../share/warpsim/devices" };
    char dir[PATH_MAX], cand[PATH_MAX + 64], real[PATH_MAX];
    snprintf(g_found_dir, sizeof g_found_dir, "%s", WS_DEVICES_DIR);
    if (code_dir(dir, sizeof dir)) return;
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        struct stat st;
        if ((size_t)snprintf(cand, sizeof cand, "%s/%s", dir, rel[i]) >= sizeof cand) continue;
        if (stat(cand, &st) || !S_ISDIR(st.st_mode) || !realpath(cand, real)) continue;
        snprintf(g_found_dir, sizeof g_found_dir, "%s", real);
        return;
    }
}

/* Directory holding the preset files: $WARPSIM_DEVICES, else share/warpsim/devices of the installation this
 * code belongs to, else the build tree's devices/ (compiled in). */
const char *ws_device_dir(void)
{
    const char *e = getenv("WARPSIM_DEVICES");
    if (e && *e) return e;
    pthread_once(&g_found_once, find_device_dir);
    return g_found_dir;
}

/* The cache of loaded presets: one node per resolved path. */
typedef struct cache_node {
    char path[4096];
    ws_device dev;
    struct cache_node *next;
} cache_node;
static cache_node *g_cache;
static pthread_mutex_t g_cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* Load a preset by name or path, caching it for the life of the process; NULL with a message on failure. */
const ws_device *ws_device_get(const char *name_or_path, char *err, size_t errlen)
{
    if (!name_or_path || !*name_or_path) name_or_path = WS_DEVICE_DEFAULT;
    char path[4096], real[4096];
    resolve_path(name_or_path, path, sizeof path);
    const char *key = realpath(path, real) ? real : path;
    pthread_mutex_lock(&g_cache_lock);
    for (cache_node *n = g_cache; n; n = n->next) {
        if (!strcmp(n->path, key)) {
            pthread_mutex_unlock(&g_cache_lock);
            return &n->dev;
        }
    }
    cache_node *n = calloc(1, sizeof *n);
    if (!n) {
        pthread_mutex_unlock(&g_cache_lock);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NULL;
    }
    FILE *probe = fopen(path, "r");
    if (!probe && !strchr(name_or_path, '/') && !strstr(name_or_path, ".preset")) {
        pthread_mutex_unlock(&g_cache_lock);
        free(n);
        if (err && errlen)
            snprintf(err, errlen, "unknown device '%s': no preset file %s (`warpsim devices` lists the presets)",
                     name_or_path, path);
        return NULL;
    }
    if (probe) fclose(probe);
    if (ws_device_load_file(path, &n->dev, err, errlen)) {
        pthread_mutex_unlock(&g_cache_lock);
        free(n);
        return NULL;
    }
    snprintf(n->path, sizeof n->path, "%s", key);
    n->next = g_cache;
    g_cache = n;
    pthread_mutex_unlock(&g_cache_lock);
    return &n->dev;
}

/* qsort comparison for preset names. */
static int cmp_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Fill names[] with the preset ids found in the devices directory (sorted); returns how many. */
int ws_device_list(char names[][64], int max)
{
    DIR *dir = opendir(ws_device_dir());
    if (!dir) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= 7 || strcmp(e->d_name + len - 7, ".preset")) continue;
        if (len - 7 >= 64) continue;
        if (n >= max) break;
        memcpy(names[n], e->d_name, len - 7);
        names[n][len - 7] = 0;
        n++;
    }
    closedir(dir);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    return n;
}

/* Append formatted text to buf at *pos (counting what does not fit), like snprintf. */
static void appendf(char *buf, size_t cap, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void appendf(char *buf, size_t cap, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*pos < cap ? buf + *pos : NULL, *pos < cap ? cap - *pos : 0, fmt, ap);
    va_end(ap);
    if (n > 0) *pos += (size_t)n;
}

/* Write every field of d as preset text; returns the length needed. */
int ws_device_format(const ws_device *d, char *buf, size_t cap)
{
    size_t pos = 0;
    if (cap) buf[0] = 0;
    appendf(buf, cap, &pos, "# %s", d->name);
    const char *base = (const char *)d;
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &FIELDS[i];
        if (f->type == F_LIST && *(const int *)(base + f->count_off) == 0) continue; /* absent list */
        appendf(buf, cap, &pos, "\n%s = ", f->key);
        if (!strcmp(f->key, "compute_capability")) {
            appendf(buf, cap, &pos, "%d.%d", d->cc_major, d->cc_minor);
            continue;
        }
        switch (f->type) {
        case F_STR: appendf(buf, cap, &pos, "%s", base + f->off); break;
        case F_INT: appendf(buf, cap, &pos, "%d", *(const int *)(base + f->off)); break;
        case F_SIZE: appendf(buf, cap, &pos, "%zu", *(const size_t *)(base + f->off)); break;
        case F_DBL: appendf(buf, cap, &pos, "%.10g", *(const double *)(base + f->off)); break;
        case F_INT3:
        case F_LIST: {
            int n = f->type == F_INT3 ? 3 : *(const int *)(base + f->count_off);
            const int *v = (const int *)(base + f->off);
            for (int k = 0; k < n; k++) appendf(buf, cap, &pos, "%s%d", k ? ", " : "", v[k]);
            break;
        }
        }
    }
    appendf(buf, cap, &pos, "\n");
    return (int)pos;
}

/* Number of preset fields. */
int ws_device_nfields(void)
{
    return NFIELDS;
}

/* Field i of d and its value. */
int ws_device_field(const ws_device *d, int i, ws_device_value *v)
{
    if (i < 0 || i >= NFIELDS) return -1;
    const field *f = &FIELDS[i];
    const char *base = (const char *)d;
    memset(v, 0, sizeof *v);
    v->key = f->key;
    if (!strcmp(f->key, "compute_capability")) {
        snprintf(v->text, sizeof v->text, "%d.%d", d->cc_major, d->cc_minor);
        v->type = WS_DEVICE_STRING;
        v->s = v->text;
        return 0;
    }
    switch (f->type) {
    case F_STR: v->type = WS_DEVICE_STRING; v->s = base + f->off; break;
    case F_INT: v->type = WS_DEVICE_INT; v->i = *(const int *)(base + f->off); break;
    case F_SIZE: v->type = WS_DEVICE_SIZE; v->z = *(const size_t *)(base + f->off); break;
    case F_DBL: v->type = WS_DEVICE_DOUBLE; v->d = *(const double *)(base + f->off); break;
    case F_INT3:
    case F_LIST:
        v->type = WS_DEVICE_INTS;
        v->ints = (const int *)(base + f->off);
        v->nints = f->type == F_INT3 ? 3 : *(const int *)(base + f->count_off);
        break;
    }
    return 0;
}

/* The GPCs as clusters see them: gpc_sms cut or extended to sm_count. */
int ws_device_gpcs(const ws_device *d, int *gpc)
{
    int n = 0, left = d->sm_count;
    for (int i = 0; i < d->n_gpcs && left > 0; i++) {
        int k = d->gpc_sms[i] < left ? d->gpc_sms[i] : left;
        gpc[n++] = k;
        left -= k;
    }
    if (left > 0) gpc[n++] = left;
    return n;
}
