/* stats.c - nsys-style summary tables of a run's host timeline (stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"

/* One measured occurrence: what it is (key, domain, style) and its value (ns, or MB in the size table). */
typedef struct item {
    const char *key;
    const char *domain;
    int style;
    double v;
} item;

/* One row of a table. */
typedef struct row {
    char name[1024];
    const char *style;
    long long n;
    double total, avg, med, min, max, sd;
} row;

/* Order items by key, domain, style, value. */
static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c) return c;
    c = strcmp(x->domain ? x->domain : "", y->domain ? y->domain : "");
    if (c) return c;
    if (x->style != y->style) return x->style < y->style ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* Order rows by total, largest first, then by name. */
static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->total != y->total) return x->total > y->total ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Whether items a and b belong to the same row. */
static int same_group(const item *a, const item *b)
{
    return !strcmp(a->key, b->key) && !strcmp(a->domain ? a->domain : "", b->domain ? b->domain : "") &&
           a->style == b->style;
}

/* Statistics of the sorted values v[0..n). */
static void summarize(const item *v, size_t n, row *r)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += v[i].v;
    r->n = (long long)n;
    r->total = sum;
    r->avg = sum / (double)n;
    r->min = v[0].v;
    r->max = v[n - 1].v;
    r->med = n % 2 ? v[n / 2].v : (v[n / 2 - 1].v + v[n / 2].v) / 2;
    double ss = 0;
    for (size_t i = 0; i < n; i++) ss += (v[i].v - r->avg) * (v[i].v - r->avg);
    r->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

/* Group sorted items into rows (name from namer, or the key); returns the number of rows, -1 when out of memory. */
static long make_rows(item *it, size_t n, row **out, void (*namer)(const item *, char *, size_t))
{
    *out = NULL;
    if (!n) return 0;
    qsort(it, n, sizeof *it, item_cmp);
    size_t ngroups = 1;
    for (size_t i = 1; i < n; i++) ngroups += !same_group(&it[i - 1], &it[i]);
    row *rows = calloc(ngroups, sizeof *rows);
    if (!rows) return -1;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && same_group(&it[i], &it[j])) j++;
        row *r = &rows[k++];
        summarize(&it[i], j - i, r);
        if (namer) namer(&it[i], r->name, sizeof r->name);
        else snprintf(r->name, sizeof r->name, "%s", it[i].key);
        r->style = it[i].style == WS_REP_NVTX_STARTEND ? "StartEnd" : "PushPop";
        i = j;
    }
    qsort(rows, ngroups, sizeof *rows, row_cmp);
    *out = rows;
    return (long)ngroups;
}

/* A number with `decimals` digits after the point and commas between thousands ("1,234,567.8"). */
static void fmt_num(char *buf, size_t cap, double v, int decimals)
{
    char raw[64];
    snprintf(raw, sizeof raw, "%.*f", decimals, v);
    const char *digits = raw[0] == '-' ? raw + 1 : raw;
    const char *dot = strchr(digits, '.');
    size_t nint = dot ? (size_t)(dot - digits) : strlen(digits);
    size_t o = 0;
    if (raw[0] == '-' && o + 1 < cap) buf[o++] = '-';
    for (size_t i = 0; i < nint && o + 1 < cap; i++) {
        if (i && (nint - i) % 3 == 0 && o + 1 < cap) buf[o++] = ',';
        if (o + 1 < cap) buf[o++] = digits[i];
    }
    for (const char *p = dot; p && *p && o + 1 < cap; p++) buf[o++] = *p;
    buf[o] = 0;
}

enum { MAXCOLS = 10, CELL = 64 };

/* A table being printed: headers, then rows of cells; every column right-aligned except the last. */
typedef struct table {
    int ncols;
    const char *head[MAXCOLS];
    size_t nrows;
    char (*cells)[MAXCOLS][CELL];
    const char **last;                  /* the last column's text per row (names can be long) */
} table;

/* Print a table in nsys's layout: one leading space, two between columns, dashes under the headers. */
static void table_print(FILE *out, const table *t)
{
    size_t width[MAXCOLS];
    for (int c = 0; c < t->ncols; c++) width[c] = strlen(t->head[c]);
    for (size_t r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            size_t l = c == t->ncols - 1 ? strlen(t->last[r]) : strlen(t->cells[r][c]);
            if (l > width[c]) width[c] = l;
        }
    for (int c = 0; c < t->ncols; c++) {
        if (c == t->ncols - 1) fprintf(out, "  %s", t->head[c]);
        else fprintf(out, "%s%*s", c ? "  " : " ", (int)width[c], t->head[c]);
    }
    fputc('\n', out);
    for (int c = 0; c < t->ncols; c++) {
        fputs(c ? "  " : " ", out);
        for (size_t i = 0; i < width[c]; i++) fputc('-', out);
    }
    fputc('\n', out);
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c == t->ncols - 1) fprintf(out, "  %s", t->last[r]);
            else fprintf(out, "%s%*s", c ? "  " : " ", (int)width[c], t->cells[r][c]);
        }
        fputc('\n', out);
    }
}

/* Print one time table ("Time (%)", totals in ns, ...) of rows; count_head names the count column. */
static int print_time_table(FILE *out, const char *title, const row *rows, long nrows, const char *count_head,
                            int nvtx, const char *name_head, const char *empty)
{
    fprintf(out, "\n ** %s:\n\n", title);
    if (nrows <= 0) {
        fprintf(out, " SKIPPED: %s\n", empty);
        return 0;
    }
    double sum = 0;
    for (long i = 0; i < nrows; i++) sum += rows[i].total;
    table t = { 0 };
    const char *heads[] = { "Time (%)", "Total Time (ns)", count_head, "Avg (ns)", "Med (ns)", "Min (ns)",
                            "Max (ns)", "StdDev (ns)", "Style", name_head };
    int nc = 0;
    for (int c = 0; c < 10; c++) {
        if (c == 8 && !nvtx) continue;
        t.head[nc++] = heads[c];
    }
    t.ncols = nc;
    t.nrows = (size_t)nrows;
    t.cells = calloc((size_t)nrows, sizeof *t.cells);
    t.last = calloc((size_t)nrows, sizeof *t.last);
    if (!t.cells || !t.last) {
        free(t.cells);
        free((void *)t.last);
        return -1;
    }
    for (long i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        char (*cell)[CELL] = t.cells[i];
        snprintf(cell[0], CELL, "%.1f", sum > 0 ? 100.0 * r->total / sum : 0.0);
        fmt_num(cell[1], CELL, r->total, 0);
        fmt_num(cell[2], CELL, (double)r->n, 0);
        fmt_num(cell[3], CELL, r->avg, 1);
        fmt_num(cell[4], CELL, r->med, 1);
        fmt_num(cell[5], CELL, r->min, 0);
        fmt_num(cell[6], CELL, r->max, 0);
        fmt_num(cell[7], CELL, r->sd, 1);
        if (nvtx) snprintf(cell[8], CELL, "%s", r->style);
        t.last[i] = r->name;
    }
    table_print(out, &t);
    free(t.cells);
    free((void *)t.last);
    return 0;
}

/* Print the memory-size table (MB = 10^6 bytes, as nsys). */
static int print_size_table(FILE *out, const row *rows, long nrows)
{
    fprintf(out, "\n ** CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum):\n\n");
    if (nrows <= 0) {
        fprintf(out, " SKIPPED: no memory copies or fills were recorded.\n");
        return 0;
    }
    table t = { 0 };
    const char *heads[] = { "Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)", "StdDev (MB)",
                            "Operation" };
    for (int c = 0; c < 8; c++) t.head[c] = heads[c];
    t.ncols = 8;
    t.nrows = (size_t)nrows;
    t.cells = calloc((size_t)nrows, sizeof *t.cells);
    t.last = calloc((size_t)nrows, sizeof *t.last);
    if (!t.cells || !t.last) {
        free(t.cells);
        free((void *)t.last);
        return -1;
    }
    for (long i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        fmt_num(t.cells[i][0], CELL, r->total, 3);
        fmt_num(t.cells[i][1], CELL, (double)r->n, 0);
        fmt_num(t.cells[i][2], CELL, r->avg, 3);
        fmt_num(t.cells[i][3], CELL, r->med, 3);
        fmt_num(t.cells[i][4], CELL, r->min, 3);
        fmt_num(t.cells[i][5], CELL, r->max, 3);
        fmt_num(t.cells[i][6], CELL, r->sd, 3);
        t.last[i] = r->name;
    }
    table_print(out, &t);
    free(t.cells);
    free((void *)t.last);
    return 0;
}

/* nsys's name of a memory operation. */
static const char *memop_name(const ws_rep_hevent *e)
{
    if (e->kind == WS_REP_HK_MEMSET) return "[CUDA memset]";
    if (e->managed) return e->sub == WS_REP_DTOH ? "[CUDA Unified Memory memcpy DtoH]" : "[CUDA Unified Memory memcpy HtoD]";
    switch (e->sub) {
    case WS_REP_HTOD: return "[CUDA memcpy Host-to-Device]";
    case WS_REP_DTOH: return "[CUDA memcpy Device-to-Host]";
    case WS_REP_DTOD: return "[CUDA memcpy Device-to-Device]";
    case WS_REP_PTOP: return "[CUDA memcpy Peer-to-Peer]";
    default: return "[CUDA memcpy Host-to-Host]";
    }
}

/* The unified-memory page faults of the run (as nsys's um_total_sum lists them), when there were migrations. */
static void um_table(FILE *out, const ws_rep_host *h)
{
    uint64_t gf = 0, cf = 0, hb = 0, db = 0, n = 0;
    for (size_t i = 0; i < h->nevents; i++) {
        const ws_rep_hevent *e = &h->events[i];
        if (e->kind != WS_REP_HK_MEMCPY || !e->managed) continue;
        n++;
        if (e->sub == WS_REP_DTOH) { cf += e->faults; db += e->bytes; }
        else { gf += e->faults; hb += e->bytes; }
    }
    if (!n) return;
    fprintf(out, "\n ** Unified Memory Totals (um_total_sum):\n\n");
    fprintf(out, " Total HtoD Migration Size (MB)  Total DtoH Migration Size (MB)  Total CPU Page Faults  Total GPU PageFaults\n");
    fprintf(out, " ------------------------------  ------------------------------  ---------------------  --------------------\n");
    fprintf(out, " %30.3f  %30.3f  %21llu  %20llu\n", (double)hb / 1e6, (double)db / 1e6, (unsigned long long)cf,
            (unsigned long long)gf);
}

/* Row name of a kernel: its demangled name. */
static void kernel_namer(const item *it, char *buf, size_t cap) { ws_chk_demangle(it->key, buf, cap); }

/* Row name of an NVTX range: "domain:message" (":message" in the default domain, as nsys writes it). */
static void nvtx_namer(const item *it, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s:%s", it->domain ? it->domain : "", it->key);
}

/* Collect the items of events selected by kind into it (values in ns, or MB when size is set). */
static size_t collect(const ws_rep_host *h, item *it, int kind, int size)
{
    size_t n = 0;
    for (size_t i = 0; i < h->nevents; i++) {
        const ws_rep_hevent *e = &h->events[i];
        int mem = e->kind == WS_REP_HK_MEMCPY || e->kind == WS_REP_HK_MEMSET;
        if (kind == WS_REP_HK_MEMCPY ? !mem : e->kind != kind) continue;
        if (kind == WS_REP_HK_NVTX && e->sub == WS_REP_NVTX_MARK) continue;
        item *x = &it[n++];
        x->key = kind == WS_REP_HK_MEMCPY ? memop_name(e) : e->name ? e->name : "";
        x->domain = kind == WS_REP_HK_NVTX ? e->domain : NULL;
        x->style = kind == WS_REP_HK_NVTX ? e->sub : 0;
        x->v = size ? (double)e->bytes / 1e6 : (double)llround((e->t1 - e->t0) * 1e9);   /* whole ns, as nsys */
    }
    return n;
}

/* Print the tables of h on out. */
int ws_rep_stats_print(FILE *out, const ws_rep_host *h, const char *program)
{
    item *it = h->nevents ? malloc(h->nevents * sizeof *it) : NULL;
    if (h->nevents && !it) return -1;
    fprintf(out, "\nwarpsim stats%s%s%s%s", program ? " of " : "", program ? program : "", h->device ? " on the " : "",
            h->device ? h->device : "");
    if (h->simulated)
        fprintf(out, " (simulated time of the timing model: kernels and copies on the simulated GPU, API calls and "
                     "NVTX ranges on the simulated host)\n");
    else
        fprintf(out, " (functional mode, wall time: a kernel's time is how long the simulator took to run it, not "
                     "GPU time; run with --timing for simulated time)\n");
    if (h->dropped)
        fprintf(out, "note: the host timeline kept its first %zu events; %llu later ones are not in these tables\n",
                h->nevents, (unsigned long long)h->dropped);
    int rc = 0;
    static const struct { int kind; const char *title, *count, *name, *empty; } time_tables[] = {
        { WS_REP_HK_API, "CUDA API Summary (cuda_api_sum)", "Num Calls", "Name", "no CUDA API calls were recorded." },
        { WS_REP_HK_KERNEL, "CUDA GPU Kernel Summary (cuda_gpu_kern_sum)", "Instances", "Name",
          "no kernels ran." },
        { WS_REP_HK_MEMCPY, "CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum)", "Count", "Operation",
          "no memory copies or fills were recorded." },
    };
    for (size_t t = 0; t < sizeof time_tables / sizeof *time_tables; t++) {
        size_t n = collect(h, it, time_tables[t].kind, 0);
        row *rows = NULL;
        long nr = make_rows(it, n, &rows, time_tables[t].kind == WS_REP_HK_KERNEL ? kernel_namer : NULL);
        if (nr < 0 || print_time_table(out, time_tables[t].title, rows, nr, time_tables[t].count, 0,
                                       time_tables[t].name, time_tables[t].empty))
            rc = -1;
        free(rows);
        if (time_tables[t].kind == WS_REP_HK_MEMCPY) {
            n = collect(h, it, WS_REP_HK_MEMCPY, 1);
            nr = make_rows(it, n, &rows, NULL);
            if (nr < 0 || print_size_table(out, rows, nr)) rc = -1;
            free(rows);
        }
    }
    um_table(out, h);
    size_t n = collect(h, it, WS_REP_HK_NVTX, 0);
    row *rows = NULL;
    long nr = make_rows(it, n, &rows, nvtx_namer);
    if (nr < 0 || print_time_table(out, "NVTX Range Summary (nvtx_sum)", rows, nr, "Instances", 1, "Range",
                                   "no NVTX ranges were recorded (the program uses no nvtxRangePush/Start)."))
        rc = -1;
    free(rows);
    free(it);
    fputc('\n', out);
    if (fflush(out) != 0 || ferror(out)) rc = -1;
    return rc;
}
