/* run_check.c - the checking and watchdog options of `warpsim run`. The checks themselves run inside the
 * program, in warpsim's libcudart (src/runtime/rt_check.c, src/check): WARPSIM_CHECK selects them,
 * WARPSIM_LEAK_CHECK adds the leak report, WARPSIM_MAX_INSTRUCTIONS / WARPSIM_MAX_CYCLES arm the watchdog, and
 * the program writes its error count to WARPSIM_CHECK_STATUS at exit for --check-exit-code. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_check.h"
#include "../check/check.h"

/* Defaults. */
void cli_check_init(cli_check_opts *o)
{
    memset(o, 0, sizeof *o);
    o->exit_code = -1;
}

/* Usage lines. */
void cli_check_usage(FILE *f)
{
    fprintf(f,
        "  --check[=LIST]          find bugs: memcheck,racecheck,synccheck,initcheck,deadlock (default: all);\n"
        "                          findings in compute-sanitizer's format on stderr, ERROR SUMMARY at exit, --report\n"
        "  --check-exit-code N     exit with N when a check found an error (implies --check)\n"
        "  --leak-check            report device memory not freed at exit (implies --check)\n"
        "  --check-benign-races=on|off  report races in which every write stored the value already there as\n"
        "                          warnings (on, the default) or hide them\n"
        "  --max-instructions N    watchdog: stop a kernel after N warp instructions\n"
        "  --max-cycles N          watchdog: stop a kernel that would run past N cycles (N x 4 x SMs instructions)\n");
}

/* Whether s is a whole non-negative decimal (or 0x hex) number. */
static int is_number(const char *s)
{
    if (!s || !*s || *s == '-') return 0;
    char *end;
    errno = 0;
    (void)strtoull(s, &end, 0);
    return !errno && !*end;
}

/* Take one option at argv[*i]. */
int cli_check_option(int argc, char **argv, int *i, cli_check_opts *o)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--check")) { o->checks = ""; return 1; }
    if (!strncmp(a, "--check=", 8)) { o->checks = a + 8; return 1; }
    if (!strcmp(a, "--leak-check") || !strcmp(a, "--leak-check=full") || !strcmp(a, "--leak-check=yes")) {
        o->leak_check = 1;
        return 1;
    }
    if (!strcmp(a, "--leak-check=no")) { o->leak_check = 0; return 1; }
    if (!strcmp(a, "--check-benign-races=on") || !strcmp(a, "--check-benign-races=off")) {
        o->benign = a + 21;
        return 1;
    }
    if (!strncmp(a, "--check-benign-races", 20)) {
        fprintf(stderr, "warpsim run: %s: expected --check-benign-races=on or --check-benign-races=off\n", a);
        return -1;
    }
    static const char *const valued[] = { "--check-exit-code", "--max-cycles", "--max-instructions" };
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(valued[k]);
        if (strncmp(a, valued[k], n) || (a[n] && a[n] != '=')) continue;
        const char *v = a[n] == '=' ? a + n + 1 : NULL;
        if (!v) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "warpsim run: %s needs a value\n", valued[k]);
                return -1;
            }
            v = argv[++*i];
        }
        if (!is_number(v)) {
            fprintf(stderr, "warpsim run: %s %s: expected a number\n", valued[k], v);
            return -1;
        }
        if (k == 0) {
            long x = strtol(v, NULL, 0);
            if (x < 0 || x > 255) {
                fprintf(stderr, "warpsim run: --check-exit-code %s: expected 0..255\n", v);
                return -1;
            }
            o->exit_code = (int)x;
        } else if (k == 1) {
            o->max_cycles = v;
        } else {
            o->max_insts = v;
        }
        return 1;
    }
    return 0;
}

/* Validate and export the options. */
int cli_check_env(cli_check_opts *o)
{
    if (!o->checks && (o->exit_code >= 0 || o->leak_check || o->benign)) o->checks = "";
    if ((o->max_insts && setenv("WARPSIM_MAX_INSTRUCTIONS", o->max_insts, 1)) ||
        (o->max_cycles && setenv("WARPSIM_MAX_CYCLES", o->max_cycles, 1))) {
        fprintf(stderr, "warpsim run: cannot set up the environment\n");
        return 2;
    }
    if (!o->checks) return 0;
    unsigned bits = 0;
    char err[256];
    if (ws_chk_parse(o->checks, &bits, err, sizeof err)) {
        fprintf(stderr, "warpsim run: --check=%s: %s\n", o->checks, err);
        return 2;
    }
    if (setenv("WARPSIM_CHECK", *o->checks ? o->checks : "all", 1) ||
        (o->benign && setenv("WARPSIM_CHECK_BENIGN_RACES", o->benign, 1)) ||
        (o->leak_check && setenv("WARPSIM_LEAK_CHECK", "1", 1))) {
        fprintf(stderr, "warpsim run: cannot set up the environment\n");
        return 2;
    }
    const char *t = getenv("TMPDIR");
    snprintf(o->status, sizeof o->status, "%s/warpsim-check-XXXXXX", t && *t ? t : "/tmp");
    int fd = mkstemp(o->status);
    if (fd < 0) {
        o->status[0] = 0;
        return 0;   /* checking still works; only --check-exit-code cannot see the count */
    }
    close(fd);
    setenv("WARPSIM_CHECK_STATUS", o->status, 1);
    return 0;
}

/* Exit status after the program ended with rc. */
int cli_check_exit(cli_check_opts *o, int rc)
{
    if (!o->status[0]) return rc;
    unsigned long errors = 0;
    FILE *f = fopen(o->status, "r");
    if (f) {
        if (fscanf(f, "%lu", &errors) != 1) errors = 0;
        fclose(f);
    }
    unlink(o->status);
    if (o->exit_code >= 0 && errors > 0) return o->exit_code;
    return rc;
}
