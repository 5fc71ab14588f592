/* test_device.c - the device preset parser: valid files load, invalid ones give "file:line: field 'x': problem",
 * every preset in devices/ loads and comments each value with its source. One line per check; nonzero on failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "report/device_report.h"

static int g_fail, g_checks;
static char g_dir[256];

/* Record one check. */
static void check(int ok, const char *desc, const char *detail)
{
    g_checks++;
    if (!ok) g_fail++;
    printf("%s  %s%s%s\n", ok ? "PASS" : "FAIL", desc, detail ? ": " : "", detail ? detail : "");
}

/* Write text to DIR/name and return the path (static buffer rotated over 4 calls). */
static const char *write_preset(const char *name, const char *text)
{
    static char paths[4][512];
    static int k;
    char *p = paths[k++ % 4];
    snprintf(p, 512, "%s/%s", g_dir, name);
    FILE *f = fopen(p, "w");
    if (!f) { perror(p); exit(2); }
    fputs(text, f);
    fclose(f);
    return p;
}

/* A complete, valid preset (every required key). */
static const char *VALID =
    "# a user's device\n"
    "full_name = \"My GPU # 1\"   # quoted: the # inside is kept\n"
    "compute_capability = 8.6\n"
    "sm_count = 20\n"
    "subpartitions = 4\n"
    "warp_size = 32\n"
    "max_threads_per_block = 1024\n"
    "max_regs_per_thread = 255\n"
    "max_regs_per_block = 65536\n"
    "smem_per_block = 48 KiB\n"
    "smem_per_block_optin = 99 KiB\n"
    "smem_reserved_per_block = 1 KiB\n"
    "max_threads_per_sm = 1536\n"
    "max_warps_per_sm = 48\n"
    "max_blocks_per_sm = 16\n"
    "regs_per_sm = 65536\n"
    "reg_alloc_unit = 256\n"
    "warp_alloc_granularity = 4\n"
    "smem_per_sm = 100 KiB\n"
    "smem_alloc_unit = 128\n"
    "carveouts_kb = 0, 8, 16, 32, 64, 100\n"
    "l1_smem_per_sm = 128 KiB\n"
    "global_mem = 6 GiB\n"
    "l2_size = 2 MiB\n"
    "mem_bus_width = 96\n"
    "mem_clock_mhz = 7001\n"
    "mem_bandwidth_gbs = 168\n"
    "sm_clock_mhz = 1492\n"
    "fp32_lanes_per_sm = 128\n"
    "fp32_tflops = 7.64\n"
    "fp64_tflops = 0.119\n"
    "host_link_gbs_pinned = 12\n"
    "host_link_gbs_pageable = 6.5\n";

/* Load text as a preset file and expect an error containing every fragment (file:line: field 'x': ...). */
static void expect_error(const char *desc, const char *text, const char *frag1, const char *frag2)
{
    const char *path = write_preset("bad.preset", text);
    ws_device d;
    char err[1024] = "";
    int rc = ws_device_load_file(path, &d, err, sizeof err);
    char want1[600];
    snprintf(want1, sizeof want1, "%s:%s", path, frag1);
    int ok = rc == -1 && strstr(err, want1) && (!frag2 || strstr(err, frag2));
    check(ok, desc, err[0] ? err : "(no error)");
}

/* Replace the first line starting with key in VALID by repl (NULL: drop it); result in a static buffer. */
static const char *edit(const char *key, const char *repl)
{
    static char buf[8192];
    buf[0] = 0;
    const char *p = VALID;
    int done = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
        if (!done && !strncmp(p, key, strlen(key)) && (p[strlen(key)] == ' ' || p[strlen(key)] == '=')) {
            if (repl) { strcat(buf, repl); strcat(buf, "\n"); }
            done = 1;
        } else {
            size_t len = strlen(buf);
            memcpy(buf + len, p, n);
            buf[len + n] = 0;
        }
        p += n;
    }
    return buf;
}

/* Line number (1-based) of the first line starting with key in VALID. */
static int line_of(const char *key)
{
    int line = 1;
    for (const char *p = VALID; *p; p++) {
        if ((p == VALID || p[-1] == '\n') && !strncmp(p, key, strlen(key))) return line;
        if (*p == '\n') line++;
    }
    return -1;
}

/* Run every check and report the count of failures. */
int main(void)
{
    snprintf(g_dir, sizeof g_dir, "%s/warpsim-test-device-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(g_dir)) { perror("mkdtemp"); return 2; }
    char err[1024], frag[256];

    /* a valid user preset */
    ws_device d;
    const char *path = write_preset("mine.preset", VALID);
    int rc = ws_device_load_file(path, &d, err, sizeof err);
    check(rc == 0, "valid preset loads", rc ? err : NULL);
    check(!strcmp(d.name, "mine") && !strcmp(d.full_name, "My GPU # 1"), "name from the file, quoted full_name", d.full_name);
    check(d.cc_major == 8 && d.cc_minor == 6 && d.sm_count == 20 && d.max_warps_per_sm == 48, "integers", NULL);
    check(d.smem_per_block == 49152 && d.smem_per_block_optin == 101376 && d.smem_reserved_per_block == 1024 &&
          d.global_mem == 6ull << 30 && d.l2_size == 2u << 20, "sizes with KiB/MiB/GiB units", NULL);
    check(d.n_carveouts == 6 && d.carveouts_kb[5] == 100 && d.carveouts_kb[0] == 0, "carve-out list", NULL);
    check(d.max_block_dim[2] == 64 && d.max_grid_dim[0] == 2147483647 && d.smem_banks == 32 &&
          d.const_mem == 65536 && d.min_regs_per_thread == 0 && d.teaching == 0, "defaults of optional fields", NULL);
    check(d.host_link_gbs_pageable == 6.5 && d.fp32_tflops == 7.64, "decimals", NULL);

    /* base = inherits; later keys override */
    write_preset("parent.preset", VALID);
    path = write_preset("child.preset", "base = parent   # everything from parent.preset\nsm_count = 16   # a cut-down part\n");
    rc = ws_device_load_file(path, &d, err, sizeof err);
    check(rc == 0 && d.sm_count == 16 && d.max_warps_per_sm == 48 && !strcmp(d.name, "child"), "base = parent, override",
          rc ? err : NULL);

    /* errors name the file, the line and the field */
    snprintf(frag, sizeof frag, "%d: field 'warp_sizee': unknown field", line_of("warp_size"));
    expect_error("unknown key", edit("warp_size", "warp_sizee = 32"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'sm_count': bad number 'twenty'", line_of("sm_count"));
    expect_error("bad integer", edit("sm_count", "sm_count = twenty  # oops"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'sm_count': ", line_of("sm_count"));
    expect_error("integer with junk", edit("sm_count", "sm_count = 20x"), frag, "bad number");
    snprintf(frag, sizeof frag, "%d: field 'smem_per_sm': unknown unit 'KB/s'", line_of("smem_per_sm"));
    expect_error("bad unit", edit("smem_per_sm", "smem_per_sm = 100 KB/s"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'fp32_tflops': bad number", line_of("fp32_tflops"));
    expect_error("bad decimal", edit("fp32_tflops", "fp32_tflops = 7.6.4"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'compute_capability': expected MAJOR.MINOR", line_of("compute_capability"));
    expect_error("bad compute capability", edit("compute_capability", "compute_capability = sm_86"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'carveouts_kb': values must be ascending", line_of("carveouts_kb"));
    expect_error("list not ascending", edit("carveouts_kb", "carveouts_kb = 0, 64, 8"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'warp_size': out of range", line_of("warp_size"));
    expect_error("zero warp size", edit("warp_size", "warp_size = 0"), "", "field 'warp_size': 0 out of range");
    expect_error("missing required field", edit("regs_per_sm", NULL), "33: field 'regs_per_sm': missing required field",
                 NULL);
    {
        char twice[8192];
        snprintf(twice, sizeof twice, "%ssm_count = 30\n", VALID);
        snprintf(frag, sizeof frag, "34: field 'sm_count': set twice (first at line %d)", line_of("sm_count"));
        expect_error("duplicate key", twice, frag, NULL);
    }
    snprintf(frag, sizeof frag, "%d: expected 'key = value'", line_of("sm_count"));
    expect_error("line without '='", edit("sm_count", "sm_count 20"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'sm_count': missing value", line_of("sm_count"));
    expect_error("missing value", edit("sm_count", "sm_count =   # nothing"), frag, NULL);
    snprintf(frag, sizeof frag, "%d: field 'max_warps_per_sm': 64 warps", line_of("max_warps_per_sm"));
    expect_error("inconsistent warps and threads", edit("max_warps_per_sm", "max_warps_per_sm = 64"), frag, NULL);
    expect_error("base that does not exist", "base = nothere\n", "1: field 'base': cannot load base preset 'nothere'",
                 NULL);
    path = write_preset("loop.preset", "base = loop\n");
    rc = ws_device_load_file(path, &d, err, sizeof err);
    check(rc == -1 && strstr(err, "loop.preset:1: field 'base'") && strstr(err, "cycle"), "base cycle is an error", err);

    /* ws_device_get: names, paths, cache, default, errors */
    const ws_device *a = ws_device_get("h200", err, sizeof err), *b = ws_device_get("h200", err, sizeof err);
    check(a && a == b, "ws_device_get caches (same pointer twice)", a ? NULL : err);
    const ws_device *def = ws_device_get(NULL, err, sizeof err);
    check(def && !strcmp(def->name, WS_DEVICE_DEFAULT), "NULL selects the default preset", def ? def->name : err);
    path = write_preset("bypath.preset", VALID);
    const ws_device *p = ws_device_get(path, err, sizeof err);
    check(p && !strcmp(p->name, "bypath"), "ws_device_get by path", p ? NULL : err);
    const ws_device *none = ws_device_get("no-such-gpu", err, sizeof err);
    check(!none && strstr(err, "unknown device 'no-such-gpu'"), "unknown name is an error", err);
    path = write_preset("broken.preset", edit("sm_count", "sm_count = -3"));
    none = ws_device_get(path, err, sizeof err);
    check(!none && strstr(err, "broken.preset:") && strstr(err, "field 'sm_count'"), "ws_device_get reports file:line:field",
          err);

    /* round trip: ws_device_format's text loads back to the same values */
    {
        int need = ws_device_format(a, NULL, 0);
        char *text = malloc((size_t)need + 1);
        ws_device_format(a, text, (size_t)need + 1);
        path = write_preset("h200.preset", text);
        ws_device back;
        rc = ws_device_load_file(path, &back, err, sizeof err);
        check(rc == 0 && !memcmp(&back, a, sizeof back), "ws_device_format text loads back identically", rc ? err : NULL);
        ws_json w;
        ws_json_init_mem(&w);
        ws_rep_device_json(&w, a);
        const char *js = ws_json_finish(&w) ? "" : ws_json_text(&w, NULL);
        check(js[0] == '{' && strstr(js, "\"sm_count\": 132") && strstr(js, "\"carveouts_kb\": [0, 8,"), "JSON form", NULL);
        free(text);
        ws_json_free(&w);
    }

    /* every preset in devices/ loads, and every value line carries a '# source' comment */
    char names[64][64];
    int n = ws_device_list(names, 64);
    char nbuf[64];
    snprintf(nbuf, sizeof nbuf, "%d presets in %s", n, ws_device_dir());
    check(n >= 9, "ws_device_list finds the presets", nbuf);
    const char *need[] = { "teaching-sm", "two-core", "teaching-8lane", "t4", "v100", "a100", "rtx3050-laptop", "h100", "h200" };
    for (int i = 0; i < 9; i++) {
        int found = 0;
        for (int k = 0; k < n; k++) found |= !strcmp(names[k], need[i]);
        check(found, "required preset present", need[i]);
    }
    for (int i = 0; i < n; i++) {
        const ws_device *x = ws_device_get(names[i], err, sizeof err);
        char desc[128];
        snprintf(desc, sizeof desc, "preset %.63s loads", names[i]);
        check(x != NULL, desc, x ? NULL : err);
        char fpath[1024], line[1024];
        snprintf(fpath, sizeof fpath, "%.900s/%.63s.preset", ws_device_dir(), names[i]);
        FILE *f = fopen(fpath, "r");
        int lineno = 0, bad = 0;
        while (f && fgets(line, sizeof line, f)) {
            lineno++;
            char *s = line;
            while (*s == ' ' || *s == '\t') s++;
            if (*s == '#' || *s == '\n' || !*s) continue;
            if (!strchr(s, '#')) {
                if (!bad) printf("      %s:%d has no source comment\n", fpath, lineno);
                bad++;
            }
        }
        if (f) fclose(f);
        snprintf(desc, sizeof desc, "preset %.63s: every value has a '# source' comment", names[i]);
        check(f && bad == 0, desc, NULL);
    }

    /* WARPSIM_DEVICES overrides the directory */
    setenv("WARPSIM_DEVICES", g_dir, 1);
    n = ws_device_list(names, 64);
    int has_mine = 0;
    for (int k = 0; k < n; k++) has_mine |= !strcmp(names[k], "mine");
    check(!strcmp(ws_device_dir(), g_dir) && has_mine, "WARPSIM_DEVICES selects another directory", ws_device_dir());
    const ws_device *m = ws_device_get("mine", err, sizeof err);
    check(m && m->sm_count == 20, "a user's preset by name from WARPSIM_DEVICES", m ? NULL : err);
    unsetenv("WARPSIM_DEVICES");

    /* clean up */
    const char *files[] = { "mine", "parent", "child", "bad", "loop", "bypath", "broken", "h200" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char fp[512];
        snprintf(fp, sizeof fp, "%s/%s.preset", g_dir, files[i]);
        unlink(fp);
    }
    rmdir(g_dir);
    printf("%d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
