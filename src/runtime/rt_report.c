/* rt_report.c - the per-launch JSON report written at exit when WARPSIM_REPORT=FILE is set:
 * {"device": "h200", "launches": [{"kernel": ..., "grid": [..], "block": [..], "dynamic_smem": N,
 *   "smsp__inst_executed.sum": N, "smsp__thread_inst_executed.sum": N, "host_seconds": S}, ...]} */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Whether a report was requested (looked up once); under `warpsim run` only the program itself writes it,
 * not child processes that inherit the environment (WARPSIM_ROOT_PID). */
static int report_enabled(void)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *f = getenv("WARPSIM_REPORT");
        const char *root = getenv("WARPSIM_ROOT_PID");
        enabled = f && *f && (!root || !*root || strtol(root, NULL, 10) == (long)getpid());
    }
    return enabled;
}

/* Append one launch to the report. */
void ws_rt_report_launch(const ws_rt_func *f, ws_dim3 grid, ws_dim3 block, size_t smem, int status,
                         const ws_launch_stats *st)
{
    if (!report_enabled()) return;
    if (ws_rt_g.nlaunches == ws_rt_g.caplaunches) {
        size_t cap = ws_rt_g.caplaunches ? ws_rt_g.caplaunches * 2 : 64;
        ws_rt_launch_rec *n = realloc(ws_rt_g.launches, cap * sizeof *n);
        if (!n) return;
        ws_rt_g.launches = n;
        ws_rt_g.caplaunches = cap;
    }
    ws_rt_launch_rec *r = &ws_rt_g.launches[ws_rt_g.nlaunches++];
    memset(r, 0, sizeof *r);
    r->kernel = f->name; /* registration records live for the whole process */
    r->grid = grid;
    r->block = block;
    r->dyn_smem = smem;
    r->status = status;
    r->stats = *st;
}

/* Write s as a JSON string. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

/* Write one launch record as a JSON object: the one place that lists the per-launch metrics. */
static void json_launch(FILE *out, const ws_rt_launch_rec *r)
{
    fputs("{\"kernel\": ", out);
    json_string(out, r->kernel);
    fprintf(out, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"dynamic_smem\": %zu", r->grid.x, r->grid.y,
            r->grid.z, r->block.x, r->block.y, r->block.z, r->dyn_smem);
    fprintf(out, ", \"smsp__inst_executed.sum\": %llu", (unsigned long long)r->stats.warp_insts);
    fprintf(out, ", \"smsp__thread_inst_executed.sum\": %llu", (unsigned long long)r->stats.thread_insts);
    fprintf(out, ", \"host_seconds\": %.9f", r->stats.host_seconds);
    if (r->status) {
        fputs(", \"error\": ", out);
        json_string(out, ws_rt_error_name((cudaError_t)r->status));
    }
    fputc('}', out);
}

/* Write the report file named by WARPSIM_REPORT. */
void ws_rt_report_write(void)
{
    if (!report_enabled()) return;
    const char *path = getenv("WARPSIM_REPORT");
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "warpsim: cannot write the report %s\n", path);
        return;
    }
    /* another thread may still be inside a call at exit: wait a little for it, then write anyway */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    int locked = pthread_mutex_timedlock(&ws_rt_g.lock, &until) == 0;
    cudaError_t e = cudaSuccess;
    const ws_device *d = ws_rt_g.dev ? ws_rt_g.dev : ws_rt_device(&e);
    fputs("{\"device\": ", out);
    json_string(out, d ? d->name : "unknown");
    fputs(", \"launches\": [", out);
    for (size_t i = 0; i < ws_rt_g.nlaunches; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        json_launch(out, &ws_rt_g.launches[i]);
    }
    fputs(ws_rt_g.nlaunches ? "\n]}\n" : "]}\n", out);
    if (locked) ws_rt_unlock();
    if (fclose(out) != 0) fprintf(stderr, "warpsim: error writing the report %s\n", path);
}

/* At unload (after the program's atexit handlers): write the report. */
__attribute__((destructor)) static void ws_rt_fini(void)
{
    ws_rt_report_write();
}
