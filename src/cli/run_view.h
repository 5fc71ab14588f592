/* run_view.h - the view options of `warpsim run` (--view, --view-json, --view-sms, --view-cycles, --view-warp):
 * parsed here, handed to the program's runtime through the environment (WARPSIM_VIEW*). */
#ifndef WS_RUN_VIEW_H
#define WS_RUN_VIEW_H

#include <stdio.h>

typedef struct cli_view_opts {
    const char *html;          /* --view FILE.html */
    const char *json;          /* --view-json FILE.json */
    const char *sms, *cycles, *warp, *launches;
} cli_view_opts;

/* Defaults (nothing given). */
void cli_view_init(cli_view_opts *o);
/* If argv[*i] is one of the options, take it (and its value) and return 1; 0 if not; -1 on a bad value. */
int cli_view_option(int argc, char **argv, int *i, cli_view_opts *o);
/* Check the values and put them into the environment of the program; 0, or 2 after a message. */
int cli_view_env(cli_view_opts *o);
/* Usage lines of these options. */
void cli_view_usage(FILE *f);

#endif
