/* run_timeline.h - the host-timeline options of `warpsim run` (--trace FILE.json, --stats[=FILE]): parsed here and
 * handed to the program's runtime through the environment (WARPSIM_TRACE_FILE, WARPSIM_STATS), with
 * NVTX_INJECTION64_PATH naming warpsim's libcudart.so.13 so the program's NVTX ranges reach the timeline. */
#ifndef WS_RUN_TIMELINE_H
#define WS_RUN_TIMELINE_H

#include <stdio.h>

typedef struct cli_tl_opts {
    const char *trace;         /* --trace FILE: the Chrome trace to write, NULL when not given */
    const char *stats;         /* --stats: "1" (stderr), --stats=FILE (or "-", stdout), NULL when not given */
    char trace_abs[4352], stats_abs[4352];   /* the paths made absolute (the program may change directory) */
} cli_tl_opts;

/* Defaults (nothing given). */
void cli_tl_init(cli_tl_opts *o);
/* If argv[*i] is one of the options, take it (and its value) and return 1; 0 if not; -1 on a bad value. */
int cli_tl_option(int argc, char **argv, int *i, cli_tl_opts *o);
/* Put the options into the environment of the program (libdir: the folder of warpsim's libcudart.so.13);
 * 0, or 2 after a message. */
int cli_tl_env(cli_tl_opts *o, const char *libdir);
/* Usage lines of these options. */
void cli_tl_usage(FILE *f);

#endif
