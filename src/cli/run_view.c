/* run_view.c - the view options of `warpsim run` (run_view.h). */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_view.h"
#include "../report/view.h"

/* Defaults. */
void cli_view_init(cli_view_opts *o) { memset(o, 0, sizeof *o); }

/* The value of option `name` at argv[*i] ("--name V" or "--name=V"), or NULL when argv[*i] is not it. */
static const char *value_of(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n)) return NULL;
    if (a[n] == '=') return a + n + 1;
    if (a[n]) return NULL;
    if (*i + 1 >= argc) { *missing = 1; return NULL; }
    return argv[++*i];
}

/* Take one of the view options. */
int cli_view_option(int argc, char **argv, int *i, cli_view_opts *o)
{
    static const struct { const char *name; size_t off; } opts[] = {
        { "--view", offsetof(cli_view_opts, html) }, { "--view-json", offsetof(cli_view_opts, json) },
        { "--view-sms", offsetof(cli_view_opts, sms) }, { "--view-cycles", offsetof(cli_view_opts, cycles) },
        { "--view-warp", offsetof(cli_view_opts, warp) }, { "--view-launches", offsetof(cli_view_opts, launches) },
    };
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        int missing = 0;
        const char *v = value_of(argc, argv, i, opts[k].name, &missing);
        if (missing) { fprintf(stderr, "warpsim run: %s needs a value\n", opts[k].name); return -1; }
        if (!v) continue;
        *(const char **)((char *)o + opts[k].off) = v;
        return 1;
    }
    return 0;
}

/* An absolute form of path (the program may change directory before it exits) in buf. */
static const char *absolute(const char *path, char *buf, size_t cap)
{
    if (!path || path[0] == '/') return path;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) || (size_t)snprintf(buf, cap, "%s/%s", cwd, path) >= cap) return path;
    return buf;
}

/* Check the values and set the environment. */
int cli_view_env(cli_view_opts *o)
{
    if (!o->html && !o->json && (o->sms || o->cycles || o->warp || o->launches)) {
        fprintf(stderr, "warpsim run: --view-sms, --view-cycles, --view-warp and --view-launches need --view or --view-json\n");
        return 2;
    }
    if (!o->html && !o->json) return 0;
    ws_view_opts vo;
    ws_view_default_opts(&vo);
    char err[256];
    if ((o->sms && ws_view_parse_opt(&vo, 's', o->sms, err, sizeof err)) ||
        (o->cycles && ws_view_parse_opt(&vo, 'c', o->cycles, err, sizeof err)) ||
        (o->warp && ws_view_parse_opt(&vo, 'w', o->warp, err, sizeof err)) ||
        (o->launches && ws_view_parse_opt(&vo, 'l', o->launches, err, sizeof err))) {
        fprintf(stderr, "warpsim run: %s\n", err);
        return 2;
    }
    static char hbuf[PATH_MAX + 256], jbuf[PATH_MAX + 256];
    const char *h = absolute(o->html, hbuf, sizeof hbuf), *j = absolute(o->json, jbuf, sizeof jbuf);
    if (setenv("WARPSIM_VIEW", "1", 1) || (h && setenv("WARPSIM_VIEW_HTML", h, 1)) ||
        (j && setenv("WARPSIM_VIEW_JSON", j, 1)) || (o->sms && setenv("WARPSIM_VIEW_SMS", o->sms, 1)) ||
        (o->cycles && setenv("WARPSIM_VIEW_CYCLES", o->cycles, 1)) || (o->warp && setenv("WARPSIM_VIEW_WARP", o->warp, 1)) ||
        (o->launches && setenv("WARPSIM_VIEW_LAUNCHES", o->launches, 1))) {
        fprintf(stderr, "warpsim run: cannot set up the environment\n");
        return 2;
    }
    if (h) unlink(h);   /* a stale page must not pass for this run's */
    if (j) unlink(j);
    return 0;
}

/* Usage lines. */
void cli_view_usage(FILE *f)
{
    fprintf(f,
        "  --view FILE.html        at exit, a page of every launch: source view, warp timeline (timing mode), blocks\n"
        "                          on SMs, divergence, memory, occupancy, roofline, host timeline\n"
        "  --view-json FILE.json   the page's data (also in --report under \"view\")\n"
        "  --view-sms 0,1          SMs whose warp timeline is kept (default 0,1)\n"
        "  --view-cycles A:B       the timeline's cycle window (default 0:20000)\n"
        "  --view-warp BLOCK:WARP  the warp whose active masks are shown (default 0:0)\n"
        "  --view-launches N       launches that keep their timeline, blocks, divergence and memory samples (default\n"
        "                          the first 16; the others keep their counts)\n");
}
