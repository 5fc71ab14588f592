/* cmd_advise.c - `warpsim advise`: the seed's occupancy and launch advisor. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../analysis/occupancy.h"
#include "../device/device.h"
#include "../report/json.h"

/* Print the usage of `warpsim advise`. */
static void advise_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim advise [--gpu NAME] --regs R --smem BYTES --elements N [--json]\n"
        "For block sizes 32, 64, 96, 128, 192, 256, 384, 512, 768 and 1024 (one thread per element) reports blocks\n"
        "per SM, occupancy, the limiting resource, the blocks N elements need, waves and wave utilization, and\n"
        "recommends a block size by this rule:\n  %s.\n"
        "It also says where the rule disagrees with \"highest occupancy wins\".\n"
        "  --gpu NAME     device preset (default %s)\n"
        "  --smem BYTES   shared memory per block (suffix K/KB/KiB = 1024, M/MB/MiB = 1048576)\n",
        WS_ADVISE_RULE, WS_DEVICE_DEFAULT);
}

/* Parse a non-negative integer that fills the whole string; 0 on success. */
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
    double m;
    if (!*end || !strcmp(end, "B")) m = 1;
    else if (!strcmp(end, "K") || !strcmp(end, "KB") || !strcmp(end, "KiB") || !strcmp(end, "k") || !strcmp(end, "kB")) m = 1024;
    else if (!strcmp(end, "M") || !strcmp(end, "MB") || !strcmp(end, "MiB")) m = 1048576;
    else return -1;
    double b = v * m;
    if (b != (double)(long long)b || b > 1e15) return -1;
    *out = (size_t)b;
    return 0;
}

/* Write the advice as JSON on stdout; 0, or -1 when writing failed. */
static int advice_json(const ws_device *dev, long long regs, size_t smem, long long elements, const ws_advice *adv)
{
    ws_json w;
    ws_json_init_file(&w, stdout);
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "device", dev->name);
    ws_json_member_int(&w, "regs", regs);
    ws_json_member_uint(&w, "smem", smem);
    ws_json_member_int(&w, "elements", elements);
    ws_json_member_int(&w, "sm_count", dev->sm_count);
    ws_json_member_string(&w, "rule", adv->rule);
    ws_json_break(&w, 1);
    ws_json_key(&w, "rows");
    ws_json_begin_array(&w);
    for (int i = 0; i < adv->n; i++) {
        const ws_advice_row *r = &adv->rows[i];
        ws_json_break(&w, 2);
        ws_json_begin_object(&w);
        ws_json_member_int(&w, "block_size", r->block_size);
        ws_json_member_int(&w, "blocks_per_sm", r->occ.blocks_per_sm);
        ws_json_member_int(&w, "warps_per_sm", r->occ.warps_per_sm);
        ws_json_member_double_g(&w, "occupancy", r->occ.occupancy, 10);
        ws_json_member_string(&w, "limiter", ws_occ_limiter_name(r->occ.limiter));
        ws_json_member_int(&w, "blocks", r->blocks);
        ws_json_member_int(&w, "idle_threads", r->idle_threads);
        if (r->occ.ok) {
            ws_json_member_int(&w, "waves", r->occ.waves);
            ws_json_member_double_g(&w, "waves_per_multiprocessor", r->occ.waves_per_sm, 10);
            ws_json_member_double_g(&w, "wave_utilization", r->occ.wave_utilization, 10);
            ws_json_member_double_g(&w, "score", r->score, 10);
            ws_json_member_null(&w, "error");
        } else {
            ws_json_member_null(&w, "waves");
            ws_json_member_null(&w, "waves_per_multiprocessor");
            ws_json_member_null(&w, "wave_utilization");
            ws_json_member_int(&w, "score", 0);
            ws_json_member_string(&w, "error", r->occ.reason);
        }
        ws_json_end_object(&w);
    }
    ws_json_break(&w, 1);
    ws_json_end_array(&w);
    ws_json_break(&w, 1);
    ws_json_key(&w, "recommended");
    if (adv->recommended >= 0) ws_json_int(&w, adv->rows[adv->recommended].block_size);
    else ws_json_null(&w);
    ws_json_key(&w, "highest_occupancy");
    if (adv->highest_occupancy >= 0) ws_json_int(&w, adv->rows[adv->highest_occupancy].block_size);
    else ws_json_null(&w);
    ws_json_member_string(&w, "disagreement", adv->disagreement[0] ? adv->disagreement : NULL);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    return ws_json_finish(&w);
}

/* warpsim advise [--gpu NAME] --regs R --smem BYTES --elements N [--json] */
int cli_advise(int argc, char **argv)
{
    const char *gpu = NULL;
    long long regs = -1, elements = -1;
    size_t smem = 0;
    int have_smem = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { advise_usage(stdout); return 0; }
        if (!strcmp(a, "--json")) { json = 1; continue; }
        const char *names[] = { "--gpu", "--regs", "--smem", "--elements" };
        int which = -1;
        const char *val = NULL;
        for (int k = 0; k < 4; k++) {
            size_t n = strlen(names[k]);
            if (!strncmp(a, names[k], n) && (a[n] == 0 || a[n] == '=')) {
                which = k;
                if (a[n] == '=') val = a + n + 1;
                else if (i + 1 < argc) val = argv[++i];
                break;
            }
        }
        if (which < 0) {
            fprintf(stderr, "warpsim advise: unknown %s '%s'\n", a[0] == '-' ? "option" : "argument", a);
            advise_usage(stderr);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "warpsim advise: %s needs a value\n", names[which]);
            return 2;
        }
        int bad = 0;
        switch (which) {
        case 0: gpu = val; break;
        case 1: bad = parse_count(val, INT_MAX, &regs); break;
        case 2: bad = parse_bytes(val, &smem); have_smem = 1; break;
        case 3: bad = parse_count(val, LLONG_MAX / 4, &elements) || elements < 1; break;
        }
        if (bad) {
            fprintf(stderr, "warpsim advise: %s: invalid value '%s' (%s)\n", names[which], val,
                    which == 2 ? "bytes, optionally with K or M" : which == 3 ? "a positive integer"
                                                                              : "a non-negative integer");
            return 2;
        }
    }
    if (regs < 0 || !have_smem || elements < 1) {
        fprintf(stderr, "warpsim advise: missing %s\n", regs < 0 ? "--regs" : !have_smem ? "--smem" : "--elements");
        advise_usage(stderr);
        return 2;
    }
    char err[1024];
    const ws_device *dev = ws_device_get(gpu, err, sizeof err);
    if (!dev) {
        fprintf(stderr, "warpsim advise: %s\n", err);
        return 2;
    }
    ws_advice adv;
    if (ws_occ_advise(dev, (int)regs, smem, elements, &adv)) {
        fprintf(stderr, "warpsim advise: invalid input\n");
        return 2;
    }
    if (json) {
        if (advice_json(dev, regs, smem, elements, &adv)) return 1;
        return adv.recommended >= 0 ? 0 : 1;
    }
    printf("Launch advisor: %s (%s, sm_%d%d, %d SMs, %d warps/SM), %lld registers/thread, %zu bytes shared "
           "memory/block, %lld elements (one thread each)\n\n", dev->name, dev->full_name, dev->cc_major, dev->cc_minor,
           dev->sm_count, dev->max_warps_per_sm, regs, smem, elements);
    printf("%6s %7s %6s %6s %-13s %9s %6s %8s %7s %7s\n", "BLOCK", "BLK/SM", "WARPS", "OCC", "LIMITER", "BLOCKS",
           "WAVES", "WAVE UTIL", "IDLE", "SCORE");
    for (int i = 0; i < adv.n; i++) {
        const ws_advice_row *r = &adv.rows[i];
        if (!r->occ.ok) {
            printf("%6d  cannot run: %s\n", r->block_size, r->occ.reason);
            continue;
        }
        printf("%6d %7d %6d %5.1f%% %-13s %9lld %6lld %8.1f%% %7lld %6.1f%%%s%s\n", r->block_size, r->occ.blocks_per_sm,
               r->occ.warps_per_sm, 100 * r->occ.occupancy, ws_occ_limiter_name(r->occ.limiter), r->blocks,
               r->occ.waves, 100 * r->occ.wave_utilization, r->idle_threads, 100 * r->score,
               i == adv.recommended ? "  <- recommended" : "",
               i == adv.highest_occupancy ? (i == adv.recommended ? ", highest occupancy" : "  <- highest occupancy")
                                          : "");
    }
    printf("\nSCORE = occupancy x wave utilization x lane utilization; IDLE = threads launched beyond the elements.\n");
    printf("Rule: %s.\n", adv.rule);
    if (adv.recommended < 0) {
        printf("No block size can run with these resources.\n");
        return 1;
    }
    printf("Recommended block size: %d.\n", adv.rows[adv.recommended].block_size);
    if (adv.disagreement[0]) printf("Disagreement with \"highest occupancy wins\": %s.\n", adv.disagreement);
    else printf("\"Highest occupancy wins\" picks the same block size.\n");
    return 0;
}
