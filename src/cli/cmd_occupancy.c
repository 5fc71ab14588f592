/* cmd_occupancy.c - `warpsim occupancy`: the occupancy calculator, and every kernel of a CUDA program with its
 * ptxas resource usage and the occupancy of the launch configurations the program really uses. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "../analysis/occupancy.h"
#include "../device/device.h"
#include "../fatbin/fatbin.h"

/* Print the usage of `warpsim occupancy`. */
static void occ_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim occupancy [--gpu NAME] --threads T --regs R --smem BYTES [--grid BLOCKS] [--json]\n"
        "                         [--barriers N] [--carveout PCT] [--no-optin]\n"
        "       warpsim occupancy [--gpu NAME] [--json] [--no-run] PROGRAM [ARGS...]\n"
        "The first form computes the theoretical occupancy of blocks of T threads using R registers per thread and\n"
        "BYTES of shared memory per block (static + dynamic; suffix K/KB/KiB = 1024, M/MB/MiB = 1048576), as NVIDIA's\n"
        "cuda_occupancy.h does; --grid adds waves. The second form lists every kernel of a CUDA program with the\n"
        "registers and shared memory ptxas reports for the preset's architecture, then runs the program on the\n"
        "simulator (skipped with --no-run) and shows the occupancy of each launch configuration it used.\n"
        "  --gpu NAME      device preset (default %s; `warpsim devices` lists them)\n"
        "  --barriers N    named barriers per block (ptxas 'used N barriers'; limits blocks from sm_90)\n"
        "  --carveout PCT  shared-memory carve-out preference, percent (default: the driver's choice)\n"
        "  --no-optin      the block has not opted in to more than the default 48 KiB of shared memory\n"
        "  --json          machine-readable output\n",
        WS_DEVICE_DEFAULT);
}

/* Parse a non-negative integer argument that fills the whole string; 0 on success. */
static int parse_count(const char *s, long long max, long long *out)
{
    if (!s || !*s || !isdigit((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v > max) return -1;
    *out = v;
    return 0;
}

/* Parse a byte count with an optional K/KB/KiB or M/MB/MiB suffix (binary); 0 on success. */
static int parse_bytes(const char *s, size_t *out)
{
    if (!s || !*s || !isdigit((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || v < 0) return -1;
    double m = 1;
    if (!*end || !strcmp(end, "B")) m = 1;
    else if (!strcmp(end, "K") || !strcmp(end, "KB") || !strcmp(end, "KiB") || !strcmp(end, "k") || !strcmp(end, "kB")) m = 1024;
    else if (!strcmp(end, "M") || !strcmp(end, "MB") || !strcmp(end, "MiB")) m = 1048576;
    else return -1;
    double b = v * m;
    if (b != (double)(long long)b || b > 1e15) return -1;
    *out = (size_t)b;
    return 0;
}

/* Print a JSON string literal. */
static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned char)*s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

/* Print a per-resource limit as a JSON number, or null when the resource does not limit. */
static void jlimit(FILE *f, int v)
{
    if (v == WS_OCC_UNLIMITED) fprintf(f, "null");
    else fprintf(f, "%d", v);
}

/* Print the occupancy fields of a result as JSON members (no braces). */
static void json_occ_fields(FILE *f, const ws_occ_result *r)
{
    fprintf(f, "\"blocks_per_sm\": %d, \"warps_per_sm\": %d, \"max_warps_per_sm\": %d, \"occupancy\": %.10g, "
            "\"limiter\": \"%s\", \"limiters\": [", r->blocks_per_sm, r->warps_per_sm, r->max_warps_per_sm,
            r->occupancy, ws_occ_limiter_name(r->limiter));
    int first = 1;
    for (int l = WS_OCC_LIMIT_THREADS; l <= WS_OCC_LIMIT_BARRIERS; l++)
        if (r->limiters & WS_OCC_BIT(l)) { fprintf(f, "%s\"%s\"", first ? "" : ", ", ws_occ_limiter_name((ws_occ_limiter)l)); first = 0; }
    fprintf(f, "], \"limits\": {\"threads\": ");
    jlimit(f, r->limit_threads);
    fprintf(f, ", \"blocks\": ");
    jlimit(f, r->limit_blocks);
    fprintf(f, ", \"registers\": ");
    jlimit(f, r->limit_registers);
    fprintf(f, ", \"shared_memory\": ");
    jlimit(f, r->limit_shared_memory);
    fprintf(f, ", \"barriers\": ");
    jlimit(f, r->limit_barriers);
    fprintf(f, "}, \"registers_per_thread\": %d, \"registers_per_block\": %d, \"shared_memory_per_block\": %zu, "
            "\"shared_memory_config\": %zu", r->regs_per_thread, r->regs_per_block, r->smem_per_block, r->smem_config);
    if (r->grid_blocks > 0 && r->ok)
        fprintf(f, ", \"grid_blocks\": %lld, \"waves\": %lld, \"waves_per_multiprocessor\": %.10g, \"wave_utilization\": %.10g",
                r->grid_blocks, r->waves, r->waves_per_sm, r->wave_utilization);
    fprintf(f, ", \"error\": ");
    if (r->ok) fprintf(f, "null");
    else jstr(f, r->reason);
}

/* Text for a per-resource limit: the number, or "no limit". */
static const char *limtxt(int v, char *buf, size_t cap)
{
    if (v == WS_OCC_UNLIMITED) snprintf(buf, cap, "no limit");
    else snprintf(buf, cap, "%d", v);
    return buf;
}

/* Human-readable report of one calculator result. */
static void print_occ_human(const ws_device *d, const ws_occ_result *r, int regs, size_t smem)
{
    char a[16], b[16], c[16], e[16], g[16];
    printf("device            %s (%s, sm_%d%d, %d SMs)\n", d->name, d->full_name, d->cc_major, d->cc_minor, d->sm_count);
    printf("block             %d threads (%d warp%s of %d), %d registers/thread, %zu bytes shared memory\n",
           r->threads_per_block, r->warps_per_block, r->warps_per_block == 1 ? "" : "s", d->warp_size, regs, smem);
    printf("allocated         %d registers/thread, %d/warp, %d/block; %zu bytes shared memory/block",
           r->regs_per_thread, r->regs_per_warp, r->regs_per_block, r->smem_per_block);
    if (d->smem_reserved_per_block) printf(" (incl. %zu reserved)", d->smem_reserved_per_block);
    printf("\n");
    printf("blocks/SM limits  threads %s, blocks %s, registers %s, shared memory %s (of %zu bytes)",
           limtxt(r->limit_threads, a, sizeof a), limtxt(r->limit_blocks, b, sizeof b),
           limtxt(r->limit_registers, c, sizeof c), limtxt(r->limit_shared_memory, e, sizeof e), r->smem_config);
    if (r->limit_barriers != WS_OCC_UNLIMITED) printf(", barriers %s", limtxt(r->limit_barriers, g, sizeof g));
    printf("\n");
    if (!r->ok) {
        printf("blocks/SM         0: the block cannot run: %s\n", r->reason);
        return;
    }
    printf("blocks/SM         %d (limited by %s", r->blocks_per_sm, ws_occ_limiter_name(r->limiter));
    for (int l = WS_OCC_LIMIT_THREADS; l <= WS_OCC_LIMIT_BARRIERS; l++)
        if ((r->limiters & WS_OCC_BIT(l)) && l != (int)r->limiter) printf("; %s ties", ws_occ_limiter_name((ws_occ_limiter)l));
    printf(")\n");
    printf("warps/SM          %d of %d\n", r->warps_per_sm, r->max_warps_per_sm);
    printf("occupancy         %.2f%%\n", 100 * r->occupancy);
    if (r->grid_blocks > 0)
        printf("waves             %lld blocks on %d SMs x %d = %lld wave%s (%.*f waves/SM), wave utilization %.1f%%\n",
               r->grid_blocks, d->sm_count, r->blocks_per_sm, r->waves, r->waves == 1 ? "" : "s",
               r->waves_per_sm < 0.01 ? 4 : 2, r->waves_per_sm, 100 * r->wave_utilization);
}

/* ---- a small JSON reader for the run report ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* One JSON value; objects keep their keys in keys[] parallel to items[]. */
typedef struct jval {
    int type;
    double num;
    char *str;
    struct jval *items;
    char **keys;
    int n;
} jval;

/* Parser state. */
typedef struct jparser {
    const char *p, *end;
    int depth;
} jparser;

/* Skip white space. */
static void jws(jparser *ps)
{
    while (ps->p < ps->end && isspace((unsigned char)*ps->p)) ps->p++;
}

/* Parse a JSON string literal at ps->p into a malloc'd UTF-8 string; NULL on error. */
static char *jparse_str(jparser *ps)
{
    if (ps->p >= ps->end || *ps->p != '"') return NULL;
    ps->p++;
    size_t cap = 32, n = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
    while (ps->p < ps->end && *ps->p != '"') {
        char c = *ps->p++;
        unsigned cp = (unsigned char)c;
        if (c == '\\') {
            if (ps->p >= ps->end) { free(s); return NULL; }
            char e = *ps->p++;
            switch (e) {
            case 'n': cp = '\n'; break;
            case 't': cp = '\t'; break;
            case 'r': cp = '\r'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'u': {
                if (ps->end - ps->p < 4) { free(s); return NULL; }
                char hex[5] = { ps->p[0], ps->p[1], ps->p[2], ps->p[3], 0 };
                cp = (unsigned)strtoul(hex, NULL, 16);
                ps->p += 4;
                break;
            }
            default: cp = (unsigned char)e; break;
            }
        }
        if (n + 4 >= cap) {
            char *ns = realloc(s, cap *= 2);
            if (!ns) { free(s); return NULL; }
            s = ns;
        }
        if (cp < 0x80) s[n++] = (char)cp;
        else if (cp < 0x800) { s[n++] = (char)(0xc0 | (cp >> 6)); s[n++] = (char)(0x80 | (cp & 0x3f)); }
        else { s[n++] = (char)(0xe0 | (cp >> 12)); s[n++] = (char)(0x80 | ((cp >> 6) & 0x3f)); s[n++] = (char)(0x80 | (cp & 0x3f)); }
    }
    if (ps->p >= ps->end) { free(s); return NULL; }
    ps->p++;
    s[n] = 0;
    return s;
}

/* Free a parsed JSON value's contents. */
static void jfree(jval *v)
{
    if (!v) return;
    free(v->str);
    for (int i = 0; i < v->n; i++) {
        jfree(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    memset(v, 0, sizeof *v);
}

/* Parse one JSON value into *v; 0 on success. */
static int jparse(jparser *ps, jval *v)
{
    memset(v, 0, sizeof *v);
    jws(ps);
    if (ps->p >= ps->end || ps->depth > 64) return -1;
    char c = *ps->p;
    if (c == '"') {
        v->type = J_STR;
        v->str = jparse_str(ps);
        return v->str ? 0 : -1;
    }
    if (c == '{' || c == '[') {
        int obj = c == '{';
        v->type = obj ? J_OBJ : J_ARR;
        ps->p++;
        ps->depth++;
        int cap = 0;
        jws(ps);
        if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) { ps->p++; ps->depth--; return 0; }
        for (;;) {
            if (v->n == cap) {
                cap = cap ? cap * 2 : 8;
                jval *ni = realloc(v->items, (size_t)cap * sizeof *ni);
                if (!ni) return -1;
                v->items = ni;
                if (obj) {
                    char **nk = realloc(v->keys, (size_t)cap * sizeof *nk);
                    if (!nk) return -1;
                    v->keys = nk;
                }
            }
            if (obj) {
                jws(ps);
                char *k = jparse_str(ps);
                if (!k) return -1;
                v->keys[v->n] = k;
                jws(ps);
                if (ps->p >= ps->end || *ps->p != ':') { v->items[v->n++].type = J_NULL; return -1; }
                ps->p++;
            }
            int rc = jparse(ps, &v->items[v->n]);
            v->n++;
            if (rc) return -1;
            jws(ps);
            if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
            if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) { ps->p++; ps->depth--; return 0; }
            return -1;
        }
    }
    if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
        v->type = J_BOOL;
        v->num = *ps->p == 't';
        ps->p += *ps->p == 't' ? 4 : 5;
        return 0;
    }
    if (!strncmp(ps->p, "null", 4)) {
        v->type = J_NULL;
        ps->p += 4;
        return 0;
    }
    char *end;
    v->num = strtod(ps->p, &end);
    if (end == ps->p) return -1;
    v->type = J_NUM;
    ps->p = end;
    return 0;
}

/* Member key of object v, or NULL. */
static const jval *jget(const jval *v, const char *key)
{
    if (!v || v->type != J_OBJ) return NULL;
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->keys[i], key)) return &v->items[i];
    return NULL;
}

/* Read a [x, y, z] array (missing entries are 1) into out; 0 on success. */
static int jdim3(const jval *v, long long out[3])
{
    out[0] = out[1] = out[2] = 1;
    if (!v) return -1;
    if (v->type == J_NUM) { out[0] = (long long)v->num; return 0; }
    if (v->type != J_ARR || v->n < 1 || v->n > 3) return -1;
    for (int i = 0; i < v->n; i++) {
        if (v->items[i].type != J_NUM) return -1;
        out[i] = (long long)v->items[i].num;
    }
    return 0;
}

/* ---- program mode ---- */

/* A kernel of the program with its ptxas report. */
typedef struct kern {
    ws_ptxas_kernel k;
    char short_name[256];
} kern;

/* A distinct launch configuration with how many launches used it. */
typedef struct launch_cfg {
    char kernel[512];
    long long grid[3], block[3];
    size_t dyn_smem;
    long count;
} launch_cfg;

/* Readable name of a mangled kernel: the identifier, with simple template arguments (_Z8dot_treeILi256EE... ->
 * dot_tree<256>); anything it does not understand is left as is. */
static void short_name(const char *m, char *out, size_t cap)
{
    snprintf(out, cap, "%s", m);
    if (strncmp(m, "_Z", 2)) return;
    const char *p = m + 2;
    char buf[512] = "";
    size_t n = 0;
    int nested = *p == 'N';
    if (nested) p++;
    do {
        if (!isdigit((unsigned char)*p)) return;
        long len = strtol(p, (char **)&p, 10);
        if (len <= 0 || (long)strlen(p) < len) return;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%.*s", n ? "::" : "", (int)len, p);
        if (n >= sizeof buf) return;
        p += len;
    } while (nested && *p && *p != 'E' && *p != 'I');
    if (*p == 'I') {
        p++;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "<");
        int first = 1;
        while (*p == 'L') {
            p++;
            while (*p && isalpha((unsigned char)*p) && *p != 'n') p++; /* the literal's type, e.g. 'i' */
            int neg = *p == 'n';
            if (neg) p++;
            const char *d = p;
            while (isdigit((unsigned char)*p)) p++;
            if (*p != 'E' || d == p) return;
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s%.*s", first ? "" : ",", neg ? "-" : "", (int)(p - d), d);
            if (n >= sizeof buf) return;
            p++;
            first = 0;
        }
        if (*p != 'E') return;
        snprintf(buf + n, sizeof buf - n, ">");
    }
    size_t len = strlen(buf);
    if (len >= cap) len = cap - 1;
    memcpy(out, buf, len);
    out[len] = 0;
}

/* qsort order for kernels: by readable name, then mangled name. */
static int cmp_kern(const void *a, const void *b)
{
    const kern *x = a, *y = b;
    int c = strcmp(x->short_name, y->short_name);
    return c ? c : strcmp(x->k.name, y->k.name);
}

/* Architecture number in a PTX text's .target directive (0 when absent). */
static int text_target(const char *t)
{
    const char *p = strstr(t, ".target");
    while (p && p > t && !isspace((unsigned char)p[-1])) p = strstr(p + 1, ".target");
    if (!p) return 0;
    p += 7;
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, "sm_", 3)) return 0;
    return atoi(p + 3);
}

/* Path of the running warpsim executable. */
static int self_exe(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n <= 0) return -1;
    out[n] = 0;
    return 0;
}

/* Read a whole file into a malloc'd NUL-terminated buffer; NULL on error. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap) break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb) { free(buf); buf = NULL; }
        else buf = nb;
    }
    fclose(f);
    if (buf) buf[n] = 0;
    if (len) *len = n;
    return buf;
}

/* Run the program under `warpsim run --quiet --report` and collect its launch configurations.
 * Returns 0 when a report was read (run_status gets the run's exit status), -1 with a message. */
static int collect_launches(const char *gpu, char **prog_argv, launch_cfg **cfgs, int *ncfg, long *nlaunch,
                            int *run_status, char *err, size_t errlen)
{
    *cfgs = NULL;
    *ncfg = 0;
    *nlaunch = 0;
    *run_status = -1;
    char exe[4096];
    if (self_exe(exe, sizeof exe)) {
        snprintf(err, errlen, "cannot find the warpsim executable (/proc/self/exe)");
        return -1;
    }
    const char *tmpdir = getenv("TMPDIR");
    char report[4096];
    snprintf(report, sizeof report, "%s/warpsim-report-XXXXXX.json", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemps(report, 5);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary report file: %s", strerror(errno));
        return -1;
    }
    close(fd);
    int pargc = 0;
    while (prog_argv[pargc]) pargc++;
    char **av = calloc((size_t)pargc + 9, sizeof *av);
    if (!av) { unlink(report); snprintf(err, errlen, "out of memory"); return -1; }
    int k = 0;
    av[k++] = exe;
    av[k++] = "run";
    av[k++] = "--quiet";
    if (gpu) { av[k++] = "--gpu"; av[k++] = (char *)gpu; }
    av[k++] = "--report";
    av[k++] = report;
    for (int i = 0; i < pargc; i++) av[k++] = prog_argv[i];
    av[k] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        free(av);
        unlink(report);
        snprintf(err, errlen, "fork failed: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(2, 1); /* the program's output goes to stderr: stdout carries only the occupancy report */
        execv(exe, av);
        _exit(127);
    }
    free(av);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    *run_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    size_t len = 0;
    char *text = read_file(report, &len);
    unlink(report);
    if (!text || len == 0) {
        free(text);
        snprintf(err, errlen, "`warpsim run` wrote no report (exit status %d)", *run_status);
        return -1;
    }
    jparser ps = { text, text + len, 0 };
    jval root;
    int rc = jparse(&ps, &root);
    free(text);
    if (rc) {
        jfree(&root);
        snprintf(err, errlen, "cannot parse the run report (not JSON)");
        return -1;
    }
    const jval *ls = jget(&root, "launches");
    if (!ls || ls->type != J_ARR) {
        jfree(&root);
        snprintf(err, errlen, "the run report has no \"launches\" array");
        return -1;
    }
    launch_cfg *out = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < ls->n; i++) {
        const jval *l = &ls->items[i];
        const jval *kn = jget(l, "kernel");
        long long g[3], b[3];
        if (!kn || kn->type != J_STR || jdim3(jget(l, "grid"), g) || jdim3(jget(l, "block"), b)) continue;
        const jval *ds = jget(l, "dynamic_smem");
        size_t dyn = ds && ds->type == J_NUM && ds->num > 0 ? (size_t)ds->num : 0;
        (*nlaunch)++;
        int j;
        for (j = 0; j < n; j++)
            if (!strcmp(out[j].kernel, kn->str) && out[j].dyn_smem == dyn && !memcmp(out[j].grid, g, sizeof g) &&
                !memcmp(out[j].block, b, sizeof b))
                break;
        if (j < n) { out[j].count++; continue; }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            launch_cfg *no = realloc(out, (size_t)cap * sizeof *no);
            if (!no) break;
            out = no;
        }
        launch_cfg *c = &out[n++];
        memset(c, 0, sizeof *c);
        snprintf(c->kernel, sizeof c->kernel, "%s", kn->str);
        memcpy(c->grid, g, sizeof g);
        memcpy(c->block, b, sizeof b);
        c->dyn_smem = dyn;
        c->count = 1;
    }
    jfree(&root);
    *cfgs = out;
    *ncfg = n;
    return 0;
}

/* Find a kernel by mangled name, or NULL. */
static const kern *find_kern(const kern *ks, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(ks[i].k.name, name)) return &ks[i];
    return NULL;
}

/* warpsim occupancy [--gpu NAME] [--json] [--no-run] PROGRAM [ARGS...] */
static int program_mode(const ws_device *dev, const char *gpu, int json, int no_run, char **prog_argv)
{
    const char *prog = prog_argv[0];
    char err[1024] = "";
    char **texts = NULL;
    size_t *lens = NULL;
    int count = 0;
    if (access(prog, R_OK)) {
        fprintf(stderr, "warpsim occupancy: cannot read '%s': %s\n", prog, strerror(errno));
        return 2;
    }
    if (ws_fatbin_ptx_from_file(prog, &texts, &lens, &count, err, sizeof err)) {
        fprintf(stderr, "warpsim occupancy: %s: %s\n", prog, err);
        return 1;
    }
    if (count == 0) {
        fprintf(stderr, "warpsim occupancy: %s carries no PTX (build it with nvcc -arch=sm_XY so the fatbin "
                "includes PTX)\n", prog);
        ws_fatbin_free_texts(texts, lens, count);
        return 1;
    }
    /* use the PTX of the highest architecture the device supports (else the lowest there is) */
    int want = dev->cc_major * 10 + dev->cc_minor, best = -1, lowest = INT_MAX;
    for (int i = 0; i < count; i++) {
        int t = text_target(texts[i]);
        if (t <= want && t > best) best = t;
        if (t < lowest) lowest = t;
    }
    if (best < 0) best = lowest;
    kern *ks = NULL;
    int nk = 0, retargeted = 0, rc = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        if (text_target(texts[i]) != best) continue;
        const ws_ptxas_table *t = ws_occ_ptxas_table(texts[i], lens[i], dev, err, sizeof err);
        if (!t) {
            fprintf(stderr, "warpsim occupancy: %s: %s\n", prog, err);
            rc = 1;
            break;
        }
        retargeted |= t->retargeted;
        for (int j = 0; j < t->n; j++) {
            if (find_kern(ks, nk, t->k[j].name)) continue;
            kern *nks = realloc(ks, (size_t)(nk + 1) * sizeof *nks);
            if (!nks) { rc = 1; break; }
            ks = nks;
            ks[nk].k = t->k[j];
            short_name(t->k[j].name, ks[nk].short_name, sizeof ks[nk].short_name);
            nk++;
        }
    }
    ws_fatbin_free_texts(texts, lens, count);
    if (rc) { free(ks); return rc; }
    qsort(ks, (size_t)nk, sizeof *ks, cmp_kern);

    launch_cfg *cfgs = NULL;
    int ncfg = 0, run_status = -1, run_ok = 0;
    long nlaunch = 0;
    char run_err[1024] = "";
    if (!no_run) {
        if (collect_launches(gpu ? gpu : dev->name, prog_argv, &cfgs, &ncfg, &nlaunch, &run_status, run_err, sizeof run_err) == 0) {
            run_ok = run_status == 0;
            if (!run_ok) snprintf(run_err, sizeof run_err, "the program exited with status %d under the simulator", run_status);
        }
    }
    int min_regs = dev->min_regs_per_thread;
    if (json) {
        printf("{\"device\": ");
        jstr(stdout, dev->name);
        printf(", \"arch\": \"sm_%d%d\", \"program\": ", dev->cc_major, dev->cc_minor);
        jstr(stdout, prog);
        printf(", \"ptx_target\": \"sm_%d\", \"ptx_retargeted\": %s,\n \"kernels\": [", best, retargeted ? "true" : "false");
        for (int i = 0; i < nk; i++) {
            const ws_ptxas_kernel *k = &ks[i].k;
            printf("%s\n  {\"kernel\": ", i ? "," : "");
            jstr(stdout, k->name);
            printf(", \"name\": ");
            jstr(stdout, ks[i].short_name);
            printf(", \"registers\": %d, \"registers_per_thread\": %d, \"static_smem\": %zu, \"barriers\": %d, "
                   "\"stack_frame\": %zu, \"spill_stores\": %zu, \"spill_loads\": %zu}", k->regs,
                   k->regs < min_regs ? min_regs : k->regs, k->static_smem, k->barriers, k->stack_frame,
                   k->spill_stores, k->spill_loads);
        }
        printf("\n ],\n \"run\": {\"attempted\": %s, \"ok\": %s, \"status\": %d, \"launches\": %ld, \"error\": ",
               no_run ? "false" : "true", run_ok ? "true" : "false", run_status, nlaunch);
        if (run_err[0]) jstr(stdout, run_err);
        else printf("null");
        printf("},\n \"launches\": [");
    } else {
        printf("%s on %s (%s, sm_%d%d, %d SMs)\n", prog, dev->name, dev->full_name, dev->cc_major, dev->cc_minor,
               dev->sm_count);
        printf("\nKernels (ptxas -arch=sm_%d%d -v on the program's sm_%d PTX%s):\n", dev->cc_major, dev->cc_minor,
               best, retargeted ? ", .target lowered to the device" : "");
        printf("  %-40s %5s %6s %10s %5s %6s %7s\n", "KERNEL", "REGS", "ALLOC", "SMEM", "BARS", "STACK", "SPILLS");
        for (int i = 0; i < nk; i++) {
            const ws_ptxas_kernel *k = &ks[i].k;
            printf("  %-40.40s %5d %6d %10zu %5d %6zu %7zu\n", ks[i].short_name, k->regs,
                   k->regs < min_regs ? min_regs : k->regs, k->static_smem, k->barriers, k->stack_frame,
                   k->spill_stores + k->spill_loads);
        }
        printf("  (REGS: ptxas; ALLOC: registers a launch allocates per thread, at least %d; SMEM: static bytes)\n",
               min_regs);
        if (no_run) printf("\nLaunches: not run (--no-run)\n");
        else if (run_err[0] && ncfg == 0) printf("\nLaunches: none recorded: %s\n", run_err);
        else {
            printf("\nLaunches (%ld launch%s, %d configuration%s)%s%s:\n", nlaunch, nlaunch == 1 ? "" : "es", ncfg,
                   ncfg == 1 ? "" : "s", run_err[0] ? "; " : "", run_err);
            printf("  %-28s %-16s %-12s %8s %6s %5s %6s %5s %7s %-13s %8s %5s\n", "KERNEL", "GRID", "BLOCK", "DYN SMEM",
                   "COUNT", "REGS", "BLK/SM", "WARPS", "OCC", "LIMITER", "WAVES/SM", "WAVES");
        }
    }
    for (int i = 0; i < ncfg; i++) {
        const launch_cfg *c = &cfgs[i];
        const kern *k = find_kern(ks, nk, c->kernel);
        long long threads = c->block[0] * c->block[1] * c->block[2];
        long long blocks = c->grid[0] * c->grid[1] * c->grid[2];
        ws_occ_result r;
        memset(&r, 0, sizeof r);
        int have = k != NULL && threads > 0 && threads <= INT_MAX;
        if (have) {
            ws_occ_opts o = ws_occ_default_opts();
            o.barriers = k->k.barriers;
            ws_occ_compute_ex(dev, (int)threads, k->k.regs, k->k.static_smem + c->dyn_smem, blocks, &o, &r);
        }
        char sn[256];
        if (k) snprintf(sn, sizeof sn, "%s", k->short_name);
        else short_name(c->kernel, sn, sizeof sn);
        if (json) {
            printf("%s\n  {\"kernel\": ", i ? "," : "");
            jstr(stdout, c->kernel);
            printf(", \"name\": ");
            jstr(stdout, sn);
            printf(", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"dynamic_smem\": %zu, \"count\": %ld, "
                   "\"threads_per_block\": %lld", c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
                   c->block[2], c->dyn_smem, c->count, threads);
            if (have) {
                printf(", \"registers\": %d, \"static_smem\": %zu, \"barriers\": %d, ", k->k.regs, k->k.static_smem,
                       k->k.barriers);
                json_occ_fields(stdout, &r);
            } else {
                printf(", \"error\": \"kernel not found in the program's PTX\"");
            }
            printf("}");
        } else {
            char g[40], b[40], occ[16], wps[16], wv[16];
            snprintf(g, sizeof g, "%lldx%lldx%lld", c->grid[0], c->grid[1], c->grid[2]);
            snprintf(b, sizeof b, "%lldx%lldx%lld", c->block[0], c->block[1], c->block[2]);
            if (!have) {
                printf("  %-28.28s %-16s %-12s %8zu %6ld  (kernel not found in the PTX)\n", sn, g, b, c->dyn_smem, c->count);
                continue;
            }
            if (!r.ok) {
                printf("  %-28.28s %-16s %-12s %8zu %6ld %5d  cannot run: %s\n", sn, g, b, c->dyn_smem, c->count,
                       r.regs_per_thread, r.reason);
                continue;
            }
            snprintf(occ, sizeof occ, "%.2f%%", 100 * r.occupancy);
            snprintf(wps, sizeof wps, "%.2f", r.waves_per_sm);
            snprintf(wv, sizeof wv, "%lld", r.waves);
            printf("  %-28.28s %-16s %-12s %8zu %6ld %5d %6d %5d %7s %-13s %8s %5s\n", sn, g, b, c->dyn_smem, c->count,
                   r.regs_per_thread, r.blocks_per_sm, r.warps_per_sm, occ, ws_occ_limiter_name(r.limiter), wps, wv);
        }
    }
    if (json) printf("\n ]}\n");
    free(cfgs);
    free(ks);
    if (!no_run && ncfg == 0 && run_err[0]) {
        if (!json) fprintf(stderr, "warpsim occupancy: %s\n", run_err);
        return 1;
    }
    return 0;
}

/* warpsim occupancy ... (see occ_usage) */
int cli_occupancy(int argc, char **argv)
{
    const char *gpu = NULL;
    long long threads = -1, regs = -1, grid = 0, barriers = 0, carve = -1;
    size_t smem = 0;
    int have_smem = 0, json = 0, no_run = 0, no_optin = 0;
    int i;
    for (i = 1; i < argc; i++) {
        char *a = argv[i];
        if (a[0] != '-') break;
        if (!strcmp(a, "--")) { i++; break; }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { occ_usage(stdout); return 0; }
        if (!strcmp(a, "--json")) { json = 1; continue; }
        if (!strcmp(a, "--no-run")) { no_run = 1; continue; }
        if (!strcmp(a, "--no-optin")) { no_optin = 1; continue; }
        /* options with a value: --opt VALUE or --opt=VALUE */
        const char *names[] = { "--gpu", "--threads", "--regs", "--smem", "--grid", "--barriers", "--carveout" };
        int which = -1;
        const char *val = NULL;
        for (int k = 0; k < 7; k++) {
            size_t n = strlen(names[k]);
            if (!strncmp(a, names[k], n) && (a[n] == 0 || a[n] == '=')) {
                which = k;
                if (a[n] == '=') val = a + n + 1;
                else if (i + 1 < argc) val = argv[++i];
                break;
            }
        }
        if (which < 0) {
            fprintf(stderr, "warpsim occupancy: unknown option '%s'\n", a);
            occ_usage(stderr);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "warpsim occupancy: %s needs a value\n", names[which]);
            return 2;
        }
        int bad = 0;
        switch (which) {
        case 0: gpu = val; break;
        case 1: bad = parse_count(val, INT_MAX, &threads) || threads < 1; break;
        case 2: bad = parse_count(val, INT_MAX, &regs); break;
        case 3: bad = parse_bytes(val, &smem); have_smem = 1; break;
        case 4: bad = parse_count(val, LLONG_MAX / 2, &grid) || grid < 1; break;
        case 5: bad = parse_count(val, 1024, &barriers); break;
        case 6: bad = parse_count(val, 100, &carve); break;
        }
        if (bad) {
            fprintf(stderr, "warpsim occupancy: %s: invalid value '%s' (%s)\n", names[which], val,
                    which == 3 ? "bytes, optionally with K or M" : which == 6 ? "a percentage 0-100"
                    : which == 1 || which == 4 ? "a positive integer" : "a non-negative integer");
            return 2;
        }
    }
    char err[1024];
    int calc = threads >= 0 || regs >= 0 || have_smem || grid > 0;
    if (i < argc) {
        if (calc) {
            fprintf(stderr, "warpsim occupancy: give either --threads/--regs/--smem or a PROGRAM, not both\n");
            return 2;
        }
        const ws_device *dev = ws_device_get(gpu, err, sizeof err);
        if (!dev) {
            fprintf(stderr, "warpsim occupancy: %s\n", err);
            return 2;
        }
        return program_mode(dev, gpu, json, no_run, argv + i);
    }
    if (!calc) {
        occ_usage(stderr);
        return 2;
    }
    if (threads < 0 || regs < 0 || !have_smem) {
        fprintf(stderr, "warpsim occupancy: the calculator needs --threads, --regs and --smem (missing %s)\n",
                threads < 0 ? "--threads" : regs < 0 ? "--regs" : "--smem");
        return 2;
    }
    const ws_device *dev = ws_device_get(gpu, err, sizeof err);
    if (!dev) {
        fprintf(stderr, "warpsim occupancy: %s\n", err);
        return 2;
    }
    ws_occ_opts o = ws_occ_default_opts();
    o.barriers = (int)barriers;
    o.carveout_pct = (int)carve;
    o.smem_optin = !no_optin;
    ws_occ_result r;
    int rc = ws_occ_compute_ex(dev, (int)threads, (int)regs, smem, grid, &o, &r);
    if (json) {
        printf("{\"device\": ");
        jstr(stdout, dev->name);
        printf(", \"threads\": %lld, \"regs\": %lld, \"smem\": %zu, ", threads, regs, smem);
        json_occ_fields(stdout, &r);
        printf("}\n");
    } else {
        print_occ_human(dev, &r, (int)regs, smem);
    }
    return rc ? 1 : 0;
}
