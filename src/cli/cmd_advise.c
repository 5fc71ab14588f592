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

/* Print a JSON string literal. */
static void jstr(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned char)*s);
        else putchar(*s);
    }
    putchar('"');
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
        printf("{\"device\": ");
        jstr(dev->name);
        printf(", \"regs\": %lld, \"smem\": %zu, \"elements\": %lld, \"sm_count\": %d, \"rule\": ", regs, smem,
               elements, dev->sm_count);
        jstr(adv.rule);
        printf(",\n \"rows\": [");
        for (int i = 0; i < adv.n; i++) {
            const ws_advice_row *r = &adv.rows[i];
            printf("%s\n  {\"block_size\": %d, \"blocks_per_sm\": %d, \"warps_per_sm\": %d, \"occupancy\": %.10g, "
                   "\"limiter\": \"%s\", \"blocks\": %lld, \"idle_threads\": %lld", i ? "," : "", r->block_size,
                   r->occ.blocks_per_sm, r->occ.warps_per_sm, r->occ.occupancy, ws_occ_limiter_name(r->occ.limiter),
                   r->blocks, r->idle_threads);
            if (r->occ.ok)
                printf(", \"waves\": %lld, \"waves_per_multiprocessor\": %.10g, \"wave_utilization\": %.10g, "
                       "\"score\": %.10g, \"error\": null}", r->occ.waves, r->occ.waves_per_sm, r->occ.wave_utilization,
                       r->score);
            else {
                printf(", \"waves\": null, \"waves_per_multiprocessor\": null, \"wave_utilization\": null, "
                       "\"score\": 0, \"error\": ");
                jstr(r->occ.reason);
                printf("}");
            }
        }
        printf("\n ],\n \"recommended\": ");
        if (adv.recommended >= 0) printf("%d", adv.rows[adv.recommended].block_size);
        else printf("null");
        printf(", \"highest_occupancy\": ");
        if (adv.highest_occupancy >= 0) printf("%d", adv.rows[adv.highest_occupancy].block_size);
        else printf("null");
        printf(", \"disagreement\": ");
        if (adv.disagreement[0]) jstr(adv.disagreement);
        else printf("null");
        printf("}\n");
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
