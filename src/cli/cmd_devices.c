/* cmd_devices.c - `warpsim devices`: the table of device presets, or every field of one preset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../device/device.h"
#include "../report/device_report.h"
#include "../report/json.h"

#define MAX_PRESETS 256

/* Print the usage of `warpsim devices`. */
static void devices_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim devices [--json]          table of the device presets (default marked *)\n"
        "       warpsim devices [--json] NAME     every field of one preset (NAME or a path to a .preset file)\n"
        "Presets are the files %s/NAME.preset (the folder: $WARPSIM_DEVICES, else\n"
        "PREFIX/share/warpsim/devices of an installed warpsim, else the build tree's devices/);\n"
        "devices/README.md describes the format. --gpu NAME selects one in every command.\n",
        ws_device_dir());
}

/* Format a byte count compactly: "228 KiB", "60 MiB", "141 GB"-style binary units. */
static void fmt_bytes(size_t b, char *out, size_t cap)
{
    const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) { v /= 1024; u++; }
    if (v == (double)(long long)v) snprintf(out, cap, "%lld %s", (long long)v, units[u]);
    else snprintf(out, cap, "%.1f %s", v, units[u]);
}

/* Print every field of one preset (text or JSON). */
static int show_one(const char *name, int json)
{
    char err[1024];
    const ws_device *d = ws_device_get(name, err, sizeof err);
    if (!d) {
        fprintf(stderr, "warpsim devices: %s\n", err);
        return 1;
    }
    if (json) {
        ws_json w;
        ws_json_init_file(&w, stdout);
        ws_rep_device_json(&w, d);
        ws_json_break(&w, 0);
        return ws_json_finish(&w) ? 1 : 0;
    }
    int need = ws_device_format(d, NULL, 0);
    char *buf = malloc((size_t)need + 1);
    if (!buf) return 1;
    ws_device_format(d, buf, (size_t)need + 1);
    fputs(buf, stdout);
    free(buf);
    return 0;
}

/* Write the summary of one preset as a JSON object (a row of the table). */
static void summary_json(ws_json *w, const ws_device *d)
{
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    ws_json_begin_object(w);
    ws_json_member_string(w, "name", d->name);
    ws_json_member_string(w, "full_name", d->full_name);
    ws_json_member_string(w, "compute_capability", cc);
    ws_json_member_int(w, "sm_count", d->sm_count);
    ws_json_member_int(w, "warp_size", d->warp_size);
    ws_json_member_int(w, "max_threads_per_sm", d->max_threads_per_sm);
    ws_json_member_int(w, "max_warps_per_sm", d->max_warps_per_sm);
    ws_json_member_int(w, "max_blocks_per_sm", d->max_blocks_per_sm);
    ws_json_member_int(w, "regs_per_sm", d->regs_per_sm);
    ws_json_member_uint(w, "smem_per_sm", d->smem_per_sm);
    ws_json_member_uint(w, "l2_size", d->l2_size);
    ws_json_member_double_g(w, "mem_bandwidth_gbs", d->mem_bandwidth_gbs, 10);
    ws_json_member_double_g(w, "fp32_tflops", d->fp32_tflops, 10);
    ws_json_member_bool(w, "teaching", d->teaching);
    ws_json_end_object(w);
}

/* warpsim devices [--json] [NAME] */
int cli_devices(int argc, char **argv)
{
    int json = 0;
    const char *one = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { devices_usage(stdout); return 0; }
        else if (argv[i][0] == '-') {
            fprintf(stderr, "warpsim devices: unknown option '%s'\n", argv[i]);
            devices_usage(stderr);
            return 2;
        } else if (one) {
            fprintf(stderr, "warpsim devices: more than one preset named ('%s' and '%s')\n", one, argv[i]);
            return 2;
        } else one = argv[i];
    }
    if (one) return show_one(one, json);

    static char names[MAX_PRESETS][64];
    int n = ws_device_list(names, MAX_PRESETS);
    if (n == 0) {
        fprintf(stderr, "warpsim devices: no presets in %s\n", ws_device_dir());
        return 1;
    }
    int rc = 0;
    ws_json w;
    if (json) {
        ws_json_init_file(&w, stdout);
        ws_json_begin_object(&w);
        ws_json_member_string(&w, "default", WS_DEVICE_DEFAULT);
        ws_json_member_string(&w, "dir", ws_device_dir());
        ws_json_key(&w, "devices");
        ws_json_begin_array(&w);
    } else
        printf("%-16s %-38s %-5s %4s %4s %6s %5s %5s %7s %9s %8s %9s %8s\n", "NAME", "GPU", "SM", "SMs", "WARP",
               "THR/SM", "WARPS", "BLKS", "REGS/SM", "SMEM/SM", "L2", "DRAM GB/s", "FP32 TF");
    int first = 1;
    for (int i = 0; i < n; i++) {
        char err[1024];
        const ws_device *d = ws_device_get(names[i], err, sizeof err);
        if (!d) {
            fprintf(stderr, "warpsim devices: %s\n", err);
            rc = 1;
            continue;
        }
        char smem[32], l2[32];
        fmt_bytes(d->smem_per_sm, smem, sizeof smem);
        fmt_bytes(d->l2_size, l2, sizeof l2);
        if (json) {
            ws_json_break(&w, 1);
            summary_json(&w, d);
        } else {
            char nm[80];
            snprintf(nm, sizeof nm, "%s%s", d->name, strcmp(d->name, WS_DEVICE_DEFAULT) ? "" : " *");
            char cc[16];
            snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
            printf("%-16s %-38.38s %-5s %4d %4d %6d %5d %5d %7d %9s %8s %9.0f %8.2f\n", nm, d->full_name, cc, d->sm_count,
                   d->warp_size, d->max_threads_per_sm, d->max_warps_per_sm, d->max_blocks_per_sm, d->regs_per_sm, smem,
                   l2, d->mem_bandwidth_gbs, d->fp32_tflops);
        }
        first = 0;
    }
    if (json) {
        if (!first) ws_json_break(&w, 0);
        ws_json_end_array(&w);
        ws_json_end_object(&w);
        ws_json_break(&w, 0);
        if (ws_json_finish(&w)) rc = 1;
    } else printf("* default (--gpu NAME selects another; `warpsim devices NAME` shows every field)\n");
    return rc;
}
