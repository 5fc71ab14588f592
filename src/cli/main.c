/* main.c - warpsim entry point: dispatches to the subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "paths.h"
#include "../fatbin/fb_kept.h"

/* Print the top-level usage. */
static void usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim COMMAND [options]\n"
        "  run [--gpu NAME] [--set FIELD=VALUE] [--report FILE.json] [--block-order=random:SEED] PROGRAM|FILE.cu [args...]\n"
        "                       run a CUDA program (linked with -cudart shared) on the simulated GPU\n"
        "  devices              list the device presets\n"
        "  occupancy ...        occupancy calculator (warpsim occupancy --help)\n"
        "  advise ...           launch advisor (warpsim advise --help)\n"
        "  ptx FILE.ptx         decode a PTX file and print the decoded listing (or the front end's error)\n"
        "  ptxas ARGS...        the toolkit's ptxas, keeping the PTX of each cubin it makes so that warpsim can run\n"
        "                       that cubin (warpsim run hands it to Triton as build/lib/ptxas)\n"
        "  sweep [SPEC.toml] [options] [-- PROGRAM ARGS]\n"
        "                       a design-space sweep: programs x devices x --set overrides x options, run locally\n"
        "                       or as a Slurm job array, merged into CSV, JSON and an HTML page (warpsim sweep --help)\n"
        "  explore [NAME]       the teaching material's \"Try it\" explorers, on real kernels (warpsim explore)\n");
}

/* ptxas's reports are kept in the user's cache folder (ptxas/) for this command and the programs it runs, unless
 * WARPSIM_PTXAS_CACHE says where (an empty value: nowhere) */
static void ptxas_cache_env(void)
{
    char dir[4096], err[256];
    if (getenv("WARPSIM_PTXAS_CACHE")) return;
    if (cli_cache_dir("ptxas", dir, sizeof dir, err, sizeof err) == 0) setenv("WARPSIM_PTXAS_CACHE", dir, 1);
}

/* The PTX of cubins `warpsim ptxas` made is kept in the user's cache folder (kept/), for the programs this command
 * runs and later ones (Triton caches its cubins), unless WARPSIM_KEPT_DIR says where (an empty value: nowhere) */
static void kept_dir_env(void)
{
    char dir[4096], err[256];
    if (getenv(WS_FATBIN_KEPT_ENV)) return;
    if (cli_cache_dir("kept", dir, sizeof dir, err, sizeof err) == 0) setenv(WS_FATBIN_KEPT_ENV, dir, 1);
}

int main(int argc, char **argv)
{
    const char *base = strrchr(argv[0], '/');
    if (!strcmp(base ? base + 1 : argv[0], "ptxas")) {   /* run as build/lib/ptxas */
        ptxas_cache_env();
        kept_dir_env();
        return cli_ptxas(argc, argv);
    }
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    ptxas_cache_env();
    kept_dir_env();
    if (!strcmp(cmd, "ptxas")) return cli_ptxas(argc - 1, argv + 1);
    if (!strcmp(cmd, "run")) return cli_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "devices")) return cli_devices(argc - 1, argv + 1);
    if (!strcmp(cmd, "occupancy")) return cli_occupancy(argc - 1, argv + 1);
    if (!strcmp(cmd, "advise")) return cli_advise(argc - 1, argv + 1);
    if (!strcmp(cmd, "ptx")) return cli_ptx(argc - 1, argv + 1);
    if (!strcmp(cmd, "view")) return cli_view(argc - 1, argv + 1);
    if (!strcmp(cmd, "sweep")) return cli_sweep(argc - 1, argv + 1);
    if (!strcmp(cmd, "explore")) return cli_explore(argc - 1, argv + 1);
    fprintf(stderr, "warpsim: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
