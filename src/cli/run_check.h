/* run_check.h - the checking and watchdog options of `warpsim run` (--check, --check-exit-code, --leak-check,
 * --max-cycles, --max-instructions): parsed here, handed to the program's runtime through the environment. */
#ifndef WS_RUN_CHECK_H
#define WS_RUN_CHECK_H

#include <stdio.h>

typedef struct cli_check_opts {
    const char *checks;        /* --check[=LIST]: list ("" = all), NULL when not given */
    int exit_code;             /* --check-exit-code N (-1: not given) */
    int leak_check;            /* --leak-check */
    const char *benign;        /* --check-benign-races=on|off ("on" or "off"), or NULL */
    const char *max_cycles;    /* --max-cycles N */
    const char *max_insts;     /* --max-instructions N */
    char status[512];          /* file where the program leaves its error count */
} cli_check_opts;

/* Defaults (nothing given). */
void cli_check_init(cli_check_opts *o);
/* If argv[*i] is one of the options, take it (and its value) and return 1; 0 if not; -1 on a bad value. */
int cli_check_option(int argc, char **argv, int *i, cli_check_opts *o);
/* Check the values and put them into the environment of the program; 0, or 2 after a message. */
int cli_check_env(cli_check_opts *o);
/* The program exited with rc: the status `warpsim run` returns (N of --check-exit-code when errors were found). */
int cli_check_exit(cli_check_opts *o, int rc);
/* Usage lines of these options. */
void cli_check_usage(FILE *f);

#endif
