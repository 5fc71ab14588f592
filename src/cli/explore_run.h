/* explore_run.h - what every `warpsim explore` explorer shares: its options, running its kernel program
 * (explore/NAME.cu, compiled once into the user's cache) under `warpsim run` on a preset (a shipped one or a
 * temporary one with the option values it needs), and reading back what the program printed (one JSON object on
 * stdout), the run report (WARPSIM_REPORT) and, where the runtime collects it (WARPSIM_VIEW=1), the per-launch
 * view data of docs/view-format.md. Results are jansson trees; --json writes them through the one JSON writer. */
#ifndef WS_CLI_EXPLORE_RUN_H
#define WS_CLI_EXPLORE_RUN_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* Kinds of explorer options. */
enum { CLI_XO_INT, CLI_XO_DBL, CLI_XO_STR, CLI_XO_LIST };

/* One option of an explorer: --name VALUE (or --name=VALUE). */
typedef struct cli_xopt {
    const char *name;
    int kind;                  /* CLI_XO_*; LIST: comma-separated integers */
    const char *deflt;         /* default value (parsed like a given one), NULL: none */
    double min, max;           /* accepted range (every element of a list) */
    const char *help;
} cli_xopt;

#define CLI_X_MAXOPTS 12
#define CLI_X_MAXLIST 64

/* One explorer invocation: its options' values, the temporary folder, the first error. */
typedef struct cli_xctx {
    const char *name;          /* explorer name */
    const cli_xopt *opts;      /* its option table (ends with a NULL name) */
    const char *given[CLI_X_MAXOPTS];   /* value given on the command line, else NULL */
    int verbose;               /* pass the programs' and warpsim's messages through */
    char tmp[4096];            /* private temporary folder (made on first use), "" until then */
    int runs;                  /* programs run so far (names the report files) */
    int view_seen;             /* some run's report carried view data */
    char err[2048];            /* the first error, for the message */
} cli_xctx;

/* What one program run left: its printed JSON, the run report, its exit status. */
typedef struct cli_xrun {
    json_t *out;               /* the object the program printed (NULL when it printed none) */
    json_t *report;            /* the run report (NULL when none was written) */
    int status;                /* the program's exit status under warpsim run */
} cli_xrun;

/* How to run the program of an explorer. */
typedef struct cli_xspec {
    const char *program;       /* explore/PROGRAM.cu (default: the explorer's name) */
    const char *gpu;           /* preset name or path */
    int timing;                /* --timing */
    const char *block_order;   /* --block-order=..., or NULL */
    const char *const *args;   /* program arguments (NULL-terminated), or NULL */
} cli_xspec;

/* Value of option name: the given one, else its default; NULL when neither. */
const char *cli_x_str(const cli_xctx *x, const char *name);
/* Integer option (0 when absent). */
long long cli_x_int(const cli_xctx *x, const char *name);
/* Decimal option (0 when absent). */
double cli_x_dbl(const cli_xctx *x, const char *name);
/* List option: up to cap integers into v; returns the count. */
int cli_x_list(const cli_xctx *x, const char *name, long long *v, int cap);
/* Whether option name was given on the command line. */
int cli_x_given(const cli_xctx *x, const char *name);
/* Check a value against an option's kind and range; 0, or -1 with a message in err. */
int cli_x_check(const cli_xopt *o, const char *value, char *err, size_t errlen);

/* Set x->err (printf-style) unless an error is already recorded; returns -1. */
int cli_x_fail(cli_xctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write a temporary preset "base = BASE" (a shipped preset's name, resolved to its file) followed by the
 * "key = value" lines into the explorer's temporary folder as NAME.preset; its path goes to path. 0 or -1. */
int cli_x_preset(cli_xctx *x, const char *name, const char *base, const char *const *lines, char *path, size_t cap);

/* Compile explore/PROGRAM.cu (cached) and run it under `warpsim run --quiet --report` with WARPSIM_VIEW=1;
 * fills r. Returns 0 when the program printed its JSON and a report was written, -1 (x->err) otherwise. */
int cli_x_run(cli_xctx *x, const cli_xspec *s, cli_xrun *r);
/* Release what a run filled in. */
void cli_x_run_free(cli_xrun *r);
/* Remove the temporary folder and everything in it. */
void cli_x_cleanup(cli_xctx *x);

/* The i-th launch of a run report, or NULL. */
json_t *cli_x_launch(const cli_xrun *r, size_t i);
/* The number of launches in a run report. */
size_t cli_x_nlaunches(const cli_xrun *r);
/* The view data of the i-th launch (report "view" -> "launches"[i]), or NULL when the report has none. */
json_t *cli_x_view(const cli_xrun *r, size_t i);
/* Number member key of obj (integer or real) as a double, or def. */
double cli_x_num(const json_t *obj, const char *key, double def);
/* Integer member key of obj, or def. */
long long cli_x_i(const json_t *obj, const char *key, long long def);
/* String member key of obj, or def. */
const char *cli_x_s(const json_t *obj, const char *key, const char *def);

/* Where the explorer kernels live: $WARPSIM_EXPLORE_DIR, else share/warpsim/explore next to an installed
 * warpsim, else the source tree's explore/ (next to the compiled-in devices folder). 0 or -1 (x->err). */
int cli_x_dir(cli_xctx *x, char *dir, size_t cap);

/* Write a jansson value through warpsim's JSON writer to out (objects one member a line at the top level). */
int cli_x_write_json(FILE *out, const json_t *v);

/* Set obj[key] to a new integer / real / string / boolean (jansson steals the reference). */
void cli_x_set_int(json_t *obj, const char *key, long long v);
void cli_x_set_dbl(json_t *obj, const char *key, double v);
void cli_x_set_str(json_t *obj, const char *key, const char *v);
void cli_x_set_bool(json_t *obj, const char *key, int v);
/* Append an integer to a JSON array. */
void cli_x_push_int(json_t *arr, long long v);

#endif
