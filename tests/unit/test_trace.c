/* test_trace.c - the host timeline's writers (src/report/trace.h, stats.h) on hand-made data: kernel short names,
 * the view data's "host" object byte for byte, the Chrome trace (every event's fields, nesting order of events that
 * start together, async pairs, block tracks, through jansson), and the nsys-style tables (columns, thousands
 * separators, median, standard deviation, order, skipped tables). One line per check; nonzero on failure. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "report/stats.h"
#include "report/trace.h"

static int g_fail, g_checks;

/* Record one check. */
static void check(int ok, const char *desc, const char *detail)
{
    g_checks++;
    if (!ok) g_fail++;
    printf("%s  %s%s%s\n", ok ? "PASS" : "FAIL", desc, !ok && detail ? ": " : "", !ok && detail ? detail : "");
}

/* A host event. */
static ws_rep_hevent ev(int kind, const char *name, int stream, double t0, double t1)
{
    ws_rep_hevent e;
    memset(&e, 0, sizeof e);
    e.kind = (uint8_t)kind;
    e.name = name;
    e.stream = stream;
    e.launch = -1;
    e.t0 = t0;
    e.t1 = t1;
    return e;
}

/* Short names of kernels. */
static void test_names(void)
{
    char buf[256];
    ws_rep_kernel_short_name("_Z6vecAddPKfS0_Pfi", buf, sizeof buf);
    check(!strcmp(buf, "vecAdd"), "short name of a plain kernel", buf);
    ws_rep_kernel_short_name("_Z4spinIfEvPT_i", buf, sizeof buf);
    check(!strcmp(buf, "spin<float>"), "short name of a template kernel (no return type)", buf);
    ws_rep_kernel_short_name("plain_c_kernel", buf, sizeof buf);
    check(!strcmp(buf, "plain_c_kernel"), "an extern \"C\" kernel keeps its name", buf);
    check(!strcmp(ws_rep_hkind_name(WS_REP_HK_NVTX), "nvtx") && !strcmp(ws_rep_copy_dir_name(WS_REP_DTOH), "DtoH"),
          "kind and direction names", NULL);
}

/* A small timeline: an API call holding a copy on stream 1 and a kernel, NVTX ranges, a mark. */
static ws_rep_hevent g_ev[8];
static ws_rep_hstream g_streams[2] = { { 0, NULL, 0 }, { 1, "work", 0 } };
static ws_rep_hblock g_blocks[2];

/* Fill the sample host data into h. */
static void sample(ws_rep_host *h)
{
    g_ev[0] = ev(WS_REP_HK_MEMCPY, "HtoD", 1, 1e-6, 3e-6);
    g_ev[0].bytes = 4096;
    g_ev[0].sub = WS_REP_HTOD;
    g_ev[0].pinned = 1;
    g_ev[1] = ev(WS_REP_HK_API, "cudaMemcpyAsync", -1, 1e-6, 1e-6);
    g_ev[2] = ev(WS_REP_HK_KERNEL, "_Z6vecAddPKfS0_Pfi", 1, 3e-6, 5.5e-6);
    g_ev[2].launch = 0;
    g_ev[2].grid[0] = 2, g_ev[2].grid[1] = g_ev[2].grid[2] = 1;
    g_ev[2].block[0] = 64, g_ev[2].block[1] = g_ev[2].block[2] = 1;
    g_ev[3] = ev(WS_REP_HK_API, "cudaLaunchKernel", -1, 1e-6, 3.5e-6);
    g_ev[4] = ev(WS_REP_HK_NVTX, "inner", -1, 1e-6, 3.5e-6);   /* same interval as its child API call */
    g_ev[4].depth = 1;
    g_ev[5] = ev(WS_REP_HK_NVTX, "outer", -1, 0, 4e-6);
    g_ev[6] = ev(WS_REP_HK_NVTX, "mark", -1, 2e-6, 2e-6);
    g_ev[6].sub = WS_REP_NVTX_MARK;
    g_ev[7] = ev(WS_REP_HK_NVTX, "async", -1, 0.5e-6, 6e-6);
    g_ev[7].sub = WS_REP_NVTX_STARTEND;
    g_ev[7].domain = "lib";
    g_blocks[0] = (ws_rep_hblock){ 3e-6, 4e-6, 0, 2, 2, 0 };   /* t0, t1, block, event, sm, slot */
    g_blocks[1] = (ws_rep_hblock){ 3e-6, 5e-6, 1, 2, 2, 1 };
    memset(h, 0, sizeof *h);
    h->simulated = 1;
    h->device = "Test GPU";
    h->events = g_ev;
    h->nevents = 8;
    h->streams = g_streams;
    h->nstreams = 2;
    h->blocks = g_blocks;
    h->nblocks = 2;
}

/* The view data's host object, byte for byte. */
static void test_host_json(void)
{
    ws_rep_host h;
    sample(&h);
    ws_json w;
    ws_json_init_mem(&w);
    ws_rep_host_json(&w, &h);
    int rc = ws_json_finish(&w);
    const char *got = ws_json_text(&w, NULL);
    const char *want =
        "{\"clock\": \"simulated\", \"streams\": [{\"id\": 0, \"name\": \"default\"}, {\"id\": 1, \"name\": \"work\"}], "
        "\"events\": [\n"
        "  {\"kind\": \"nvtx\", \"name\": \"outer\", \"t0\": 0, \"t1\": 4e-06, \"depth\": 0},\n"
        "  {\"kind\": \"nvtx\", \"name\": \"async\", \"t0\": 5e-07, \"t1\": 6e-06, \"depth\": 0},\n"
        "  {\"kind\": \"api\", \"name\": \"cudaLaunchKernel\", \"t0\": 1e-06, \"t1\": 3.5e-06},\n"
        "  {\"kind\": \"nvtx\", \"name\": \"inner\", \"t0\": 1e-06, \"t1\": 3.5e-06, \"depth\": 1},\n"
        "  {\"kind\": \"memcpy\", \"name\": \"HtoD\", \"stream\": 1, \"t0\": 1e-06, \"t1\": 3e-06, \"bytes\": 4096},\n"
        "  {\"kind\": \"api\", \"name\": \"cudaMemcpyAsync\", \"t0\": 1e-06, \"t1\": 1e-06},\n"
        "  {\"kind\": \"nvtx\", \"name\": \"mark\", \"t0\": 2e-06, \"t1\": 2e-06, \"depth\": 0},\n"
        "  {\"kind\": \"kernel\", \"name\": \"vecAdd\", \"stream\": 1, \"t0\": 3e-06, \"t1\": 5.5e-06, \"launch\": 0}]}";
    int ok = rc == 0 && !strcmp(got, want);
    check(ok, "host object: docs/view-format.md's fields, events by start (longer first, then as recorded)", NULL);
    if (!ok) printf("    got:  %s\n    want: %s\n", got, want);
    ws_json_free(&w);
    h.dropped = 3;
    ws_json_init_mem(&w);
    ws_rep_host_json(&w, &h);
    ws_json_finish(&w);
    check(strstr(ws_json_text(&w, NULL), "], \"truncated\": true}") != NULL, "host object says when it was truncated",
          NULL);
    ws_json_free(&w);
}

/* Integer member of a jansson object, or -1. */
static long long jint(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* The Chrome trace through jansson. */
static void test_trace(void)
{
    ws_rep_host h;
    sample(&h);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = ws_rep_trace_write(f, &h);
    fclose(f);
    check(rc == 0, "trace written", NULL);
    json_error_t err;
    json_t *root = json_loadb(buf, len, 0, &err);
    check(root != NULL, "trace is JSON", err.text);
    if (!root) { free(buf); return; }
    json_t *evs = json_object_get(root, "traceEvents");
    size_t i;
    json_t *e;
    int fields = 1, x = 0, blocks = 0, b = 0, en = 0, inst = 0, outer_first = -1, inner_at = -1, api_at = -1;
    json_array_foreach(evs, i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        const char *name = json_string_value(json_object_get(e, "name"));
        fields &= ph && name && json_is_number(json_object_get(e, "ts")) && jint(e, "pid") >= 0 && jint(e, "tid") >= 0;
        if (!ph || !name) continue;
        if (!strcmp(ph, "X")) {
            x++;
            fields &= json_is_number(json_object_get(e, "dur"));
            if (jint(e, "pid") == 3) blocks++;
            if (!strcmp(name, "outer")) outer_first = (int)i;
            if (!strcmp(name, "inner")) inner_at = (int)i;
            if (!strcmp(name, "cudaLaunchKernel")) api_at = (int)i;
        }
        if (!strcmp(ph, "b")) b++;
        if (!strcmp(ph, "e")) en++;
        if (!strcmp(ph, "i")) inst++;
    }
    check(fields, "every trace event has name, ph, ts, pid, tid (and dur when complete)", NULL);
    check(x == 8 && blocks == 2, "complete events: 6 host events and 2 blocks", NULL);
    check(b == 1 && en == 1 && inst == 1, "a start/end range is an async pair, a mark an instant", NULL);
    check(outer_first >= 0 && outer_first < api_at && api_at < inner_at,
          "events starting together: the longer first, equal ones as recorded", NULL);
    int named = 0;
    json_array_foreach(evs, i, e) {
        const char *n = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
        if (n && (!strcmp(n, "stream 1 (work)") || !strcmp(n, "stream 0 (default)") || !strcmp(n, "SM 2") ||
                  !strcmp(n, "SM 2 (slot 1)")))
            named++;
        if (!strcmp(json_string_value(json_object_get(e, "name")), "Memcpy HtoD (pinned)"))
            check(json_real_value(json_object_get(e, "ts")) == 1.0 && json_real_value(json_object_get(e, "dur")) == 2.0,
                  "copy times in microseconds", NULL);
    }
    check(named == 4, "stream and SM tracks are named", NULL);
    check(!strcmp(json_string_value(json_object_get(json_object_get(root, "otherData"), "clock")), "simulated"),
          "the trace names its clock", NULL);
    json_decref(root);
    free(buf);
}

/* The nsys-style tables. */
static void test_stats(void)
{
    static ws_rep_hevent e[8];
    double d[4] = { 1000, 2000, 3000, 1234567000 };   /* ns of four API calls */
    for (int i = 0; i < 4; i++) e[i] = ev(WS_REP_HK_API, "cudaMalloc", -1, 0, d[i] * 1e-9);
    e[4] = ev(WS_REP_HK_API, "cudaFree", -1, 0, 5e-6);
    e[5] = ev(WS_REP_HK_MEMCPY, "HtoD", 0, 0, 1e-6);
    e[5].bytes = 3000000;
    e[6] = ev(WS_REP_HK_MEMSET, "memset", 0, 0, 2e-6);
    e[6].bytes = 1000000;
    e[7] = ev(WS_REP_HK_NVTX, "mark", -1, 0, 0);
    e[7].sub = WS_REP_NVTX_MARK;
    ws_rep_host h;
    memset(&h, 0, sizeof h);
    h.events = e;
    h.nevents = 8;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = ws_rep_stats_print(f, &h, "prog");
    fclose(f);
    check(rc == 0, "tables printed", NULL);
    const char *head =
        " Time (%)  Total Time (ns)  Num Calls       Avg (ns)  Med (ns)  Min (ns)       Max (ns)    StdDev (ns)  Name\n"
        " --------  ---------------  ---------  -------------  --------  --------  -------------  -------------  ----------\n";
    check(strstr(buf, head) != NULL, "API table: nsys's columns, widths from the widest cell", NULL);
    const char *row =
        "    100.0    1,234,573,000          4  308,643,250.0   2,500.0     1,000  1,234,567,000  617,282,500.0  cudaMalloc";
    check(strstr(buf, row) != NULL, "API row: thousands separators, median of an even count, sample deviation", NULL);
    check(strstr(buf, "cudaMalloc\n      0.0            5,000          1") != NULL, "rows by total time", NULL);
    check(strstr(buf, "(functional mode, wall time") != NULL, "the header says functional mode times are wall time",
          NULL);
    check(strstr(buf, "      3.000      1     3.000     3.000     3.000     3.000        0.000  [CUDA memcpy Host-to-Device]")
          != NULL, "size table in MB (10^6 bytes)", NULL);
    check(strstr(buf, "[CUDA memset]") && strstr(buf, " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n\n SKIPPED"),
          "fills are memory operations; a table without rows is skipped", NULL);
    check(strstr(buf, " ** NVTX Range Summary (nvtx_sum):\n\n SKIPPED") != NULL, "marks are not ranges", NULL);
    if (g_fail) printf("%s", buf);
    free(buf);
}

/* Run every check. */
int main(void)
{
    test_names();
    test_host_json();
    test_trace();
    test_stats();
    printf("%d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
