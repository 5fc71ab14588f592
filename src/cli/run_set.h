/* run_set.h - `--set FIELD=VALUE`: preset overrides for `warpsim run` and `warpsim sweep`. The overrides are
 * checked against the preset schema (device.h), then written with the base preset as a derived preset file
 * (DIR/NAME.preset: "base = /path/of/NAME.preset" and one line per override), which the program's runtime loads
 * through WARPSIM_GPU; the report's device name stays the base preset's. */
#ifndef WS_CLI_RUN_SET_H
#define WS_CLI_RUN_SET_H

#include <stddef.h>
#include <stdio.h>

/* Most --set options one run takes. */
#define CLI_SET_MAX 64

/* The --set options of one command line. */
typedef struct cli_set_opts {
    const char *v[CLI_SET_MAX];     /* "FIELD=VALUE", as given */
    int n;
    char dir[4096];                 /* the temporary folder of the derived preset ("" when none) */
    char preset[4096];              /* the derived preset file, once made */
} cli_set_opts;

/* Start with no overrides. */
void cli_set_init(cli_set_opts *o);
/* Print the usage line of --set. */
void cli_set_usage(FILE *f);
/* Take argv[*i] if it is --set FIELD=VALUE (or --set=FIELD=VALUE): 1 taken, 0 not this option, -1 bad (message
 * printed with prog as its prefix). */
int cli_set_option(int argc, char **argv, int *i, cli_set_opts *o, const char *prog);
/* Check n overrides against the preset schema and gpu's preset (NULL: the default), and write the derived
 * preset into dir (NULL: no file is kept; the check alone) as out (cap bytes; may be NULL with dir NULL).
 * 0, or -1 with "--set FIELD=VALUE: problem" in err. */
int cli_set_make(const char *gpu, const char *const *sets, int n, const char *dir, char *out, size_t cap, char *err,
                 size_t errlen);
/* For `warpsim run`: make the derived preset of o in a new temporary folder; o->preset is then the preset to
 * run. 0, or -1 (message printed with prog as its prefix). Nothing to do without overrides. */
int cli_set_prepare(cli_set_opts *o, const char *gpu, const char *prog);
/* Remove the temporary folder of cli_set_prepare. */
void cli_set_cleanup(cli_set_opts *o);

#endif
