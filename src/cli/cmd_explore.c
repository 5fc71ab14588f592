/* cmd_explore.c - `warpsim explore`: the "Try it" explorers of the teaching material as commands. Each explorer
 * compiles its small CUDA program (explore/NAME.cu, cached), runs it on the simulator with the right preset, and
 * prints the material's numbers as text, as JSON (--json) or as a self-contained HTML picture (--html FILE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explore_grid.h"
#include "explore_mem.h"
#include "explore_run.h"
#include "explore_warp.h"
#include "../report/explore_html.h"

/* Exit status when an explorer needs data this warpsim's runtime does not collect (the view data). */
#define EXIT_NO_VIEW 3

/* One explorer. */
typedef struct explorer {
    const char *name;
    const char *title;          /* what it shows, one line */
    const char *needs_view;     /* what of it needs the view data, or NULL */
    const cli_xopt *opts;
    int (*run)(cli_xctx *x, json_t *res);
    void (*text)(const json_t *res, FILE *out);
} explorer;

static const explorer g_explorers[] = {
    { "map", "map elements to blocks, warps and lanes, and blocks to SMs", NULL, cli_x_map_opts, cli_x_map_run,
      cli_x_map_text },
    { "fit", "what fits on a teaching SM: the four limits and the one that binds", NULL, cli_x_fit_opts,
      cli_x_fit_run, cli_x_fit_text },
    { "latency", "hide latency by picking another ready warp (LD -> ADD -> STORE)", "everything (the issue timeline)",
      cli_x_latency_opts, cli_x_latency_run, cli_x_latency_text },
    { "divergence", "follow the active lanes of an 8-lane warp through a branch", "the active masks",
      cli_x_divergence_opts, cli_x_divergence_run, cli_x_divergence_text },
    { "sectors", "count the 32-byte sectors of one load instruction", NULL, cli_x_sectors_opts, cli_x_sectors_run,
      cli_x_sectors_text },
    { "banks", "shared-memory banks: conflicts, padding, broadcast", NULL, cli_x_banks_opts, cli_x_banks_run,
      cli_x_banks_text },
    { "tile", "a complete 2 x 2 tile of a matrix product, step by step", NULL, cli_x_tile_opts, cli_x_tile_run,
      cli_x_tile_text },
    { "roofline", "a roofline you can check by hand, with the simulated vector add on it", NULL,
      cli_x_roofline_opts, cli_x_roofline_run, cli_x_roofline_text },
    { "placement", "blocks placed on a two-core GPU as space opens", "the blocks' cores over time",
      cli_x_placement_opts, cli_x_placement_run, cli_x_placement_text },
    { "rare-branch", "a branch rare for threads is common for warps", NULL, cli_x_rare_opts, cli_x_rare_run,
      cli_x_rare_text },
    { "launch", "index arithmetic, the bounds check, block order and a grid one block short", NULL,
      cli_x_launch_opts, cli_x_launch_run, cli_x_launch_text },
    { "occupancy", "the CUDA Programming Guide's occupancy examples and waves", NULL, cli_x_occupancy_opts,
      cli_x_occupancy_run, cli_x_occupancy_text },
};
#define N_EXPLORERS (sizeof g_explorers / sizeof g_explorers[0])

/* Print the list of explorers and the usage. */
static void explore_usage(FILE *f)
{
    fprintf(f, "usage: warpsim explore                         list the explorers\n"
               "       warpsim explore NAME [options] [--json] [--html FILE]\n"
               "       warpsim explore NAME --help            the explorer's options\n"
               "  --json        print the numbers as JSON (stdout)\n"
               "  --html FILE   write the picture: a self-contained HTML page\n"
               "  --verbose     show the compiler's and the simulator's messages\n"
               "Each explorer compiles its CUDA program (explore/NAME.cu, once, into the warpsim cache) and runs it\n"
               "on the simulator. Exit status: 0, 1 (the run failed), 2 (usage), %d (the explorer needs the run\n"
               "report's view data, which this warpsim's runtime does not collect).\n\nexplorers:\n", EXIT_NO_VIEW);
    for (size_t i = 0; i < N_EXPLORERS; i++) fprintf(f, "  %-12s %s\n", g_explorers[i].name, g_explorers[i].title);
}

/* Print one explorer's options. */
static void explorer_help(const explorer *e, FILE *f)
{
    fprintf(f, "usage: warpsim explore %s [options] [--json] [--html FILE]\n  %s\n", e->name, e->title);
    for (int i = 0; e->opts[i].name; i++) {
        const cli_xopt *o = &e->opts[i];
        fprintf(f, "  --%-10s %s", o->name, o->help);
        if (o->deflt) fprintf(f, " [%s]", o->deflt);
        fprintf(f, "\n");
    }
    if (e->needs_view) fprintf(f, "needs the run report's view data for: %s\n", e->needs_view);
}

/* warpsim explore [NAME [options]] */
int cli_explore(int argc, char **argv)
{
    if (argc < 2) {
        explore_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        explore_usage(stdout);
        return 0;
    }
    const explorer *e = NULL;
    for (size_t i = 0; i < N_EXPLORERS; i++) if (!strcmp(g_explorers[i].name, argv[1])) e = &g_explorers[i];
    if (!e) {
        fprintf(stderr, "warpsim explore: unknown explorer '%s'\n", argv[1]);
        explore_usage(stderr);
        return 2;
    }
    cli_xctx x;
    memset(&x, 0, sizeof x);
    x.name = e->name;
    x.opts = e->opts;
    int json = 0;
    const char *html = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            explorer_help(e, stdout);
            return 0;
        }
        if (!strcmp(a, "--json")) { json = 1; continue; }
        if (!strcmp(a, "--verbose")) { x.verbose = 1; continue; }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "warpsim explore %s: unexpected argument '%s'\n", e->name, a);
            return 2;
        }
        const char *eq = strchr(a, '='), *name = a + 2, *val = NULL;
        size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
        if (eq) val = eq + 1;
        else if (i + 1 < argc) val = argv[i + 1];
        if (nlen == 4 && !strncmp(name, "html", 4)) {
            if (!val) { fprintf(stderr, "warpsim explore: --html needs a file name\n"); return 2; }
            html = val;
            if (!eq) i++;
            continue;
        }
        int k = -1;
        for (int j = 0; e->opts[j].name; j++)
            if (strlen(e->opts[j].name) == nlen && !strncmp(e->opts[j].name, name, nlen)) k = j;
        if (k < 0) {
            fprintf(stderr, "warpsim explore %s: unknown option '%.*s' (warpsim explore %s --help)\n", e->name,
                    (int)nlen + 2, a, e->name);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "warpsim explore %s: --%s needs a value\n", e->name, e->opts[k].name);
            return 2;
        }
        char err[512];
        if (cli_x_check(&e->opts[k], val, err, sizeof err)) {
            fprintf(stderr, "warpsim explore %s: %s\n", e->name, err);
            return 2;
        }
        x.given[k] = val;
        if (!eq) i++;
    }
    json_t *res = json_object();
    cli_x_set_str(res, "explorer", e->name);
    cli_x_set_str(res, "title", e->title);
    int rc = e->run(&x, res);
    cli_x_set_bool(res, "view", x.view_seen);
    cli_x_cleanup(&x);
    if (rc) {
        fprintf(stderr, "warpsim explore %s: %s\n", e->name, x.err[0] ? x.err : "failed");
        json_decref(res);
        return strstr(x.err, "view data") ? EXIT_NO_VIEW : 1;
    }
    int bad = 0;
    if (json) bad |= cli_x_write_json(stdout, res) != 0;
    else e->text(res, stdout);
    if (html) {
        FILE *f = fopen(html, "w");
        if (!f) {
            fprintf(stderr, "warpsim explore %s: cannot write %s\n", e->name, html);
            bad = 1;
        } else {
            char err[512] = "";
            if (ws_rep_explore_html(f, e->name, res, err, sizeof err)) {
                fprintf(stderr, "warpsim explore %s: %s\n", e->name, err[0] ? err : "cannot draw the picture");
                bad = 1;
            }
            if (fclose(f) != 0) bad = 1;
        }
    }
    json_decref(res);
    return bad;
}
