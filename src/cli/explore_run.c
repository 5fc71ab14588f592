/* explore_run.c - running an explorer's kernel program and reading back what it and the simulator recorded
 * (explore_run.h). A run is `warpsim run --quiet --gpu PRESET [--timing] --report FILE -- PROGRAM ARGS` started
 * from this very executable, with WARPSIM_VIEW=1 so that a runtime that collects the view data adds it to the
 * report; the program's stdout and stderr go to files in the explorer's private temporary folder. */
#include "explore_run.h"
#include "paths.h"
#include "run_cache.h"
#include "../device/device.h"
#include "../report/json.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef WS_DEVICES_DIR
#define WS_DEVICES_DIR "devices"
#endif

/* The option entry called name, or NULL. */
static const cli_xopt *find_opt(const cli_xctx *x, const char *name, int *index)
{
    for (int i = 0; x->opts && x->opts[i].name; i++)
        if (!strcmp(x->opts[i].name, name)) {
            if (index) *index = i;
            return &x->opts[i];
        }
    return NULL;
}

/* Value of option name: the given one, else its default. */
const char *cli_x_str(const cli_xctx *x, const char *name)
{
    int i = 0;
    const cli_xopt *o = find_opt(x, name, &i);
    if (!o) return NULL;
    return x->given[i] ? x->given[i] : o->deflt;
}

/* Integer option (0 when absent). */
long long cli_x_int(const cli_xctx *x, const char *name)
{
    const char *v = cli_x_str(x, name);
    return v ? strtoll(v, NULL, 0) : 0;
}

/* Decimal option (0 when absent). */
double cli_x_dbl(const cli_xctx *x, const char *name)
{
    const char *v = cli_x_str(x, name);
    return v ? strtod(v, NULL) : 0.0;
}

/* List option: comma-separated integers. */
int cli_x_list(const cli_xctx *x, const char *name, long long *v, int cap)
{
    const char *s = cli_x_str(x, name);
    int n = 0;
    while (s && *s && n < cap) {
        char *end;
        v[n++] = strtoll(s, &end, 0);
        if (*end != ',') break;
        s = end + 1;
    }
    return n;
}

/* Whether option name was given. */
int cli_x_given(const cli_xctx *x, const char *name)
{
    int i = 0;
    return find_opt(x, name, &i) && x->given[i] != NULL;
}

/* Parse one number of an option's kind and check its range; 0 or -1. */
static int check_number(const cli_xopt *o, const char *s, char **end, char *err, size_t errlen)
{
    errno = 0;
    double v;
    if (o->kind == CLI_XO_DBL) v = strtod(s, end);
    else v = (double)strtoll(s, end, 0);
    if (*end == s || errno) {
        snprintf(err, errlen, "--%s: '%s' is not %s", o->name, s, o->kind == CLI_XO_DBL ? "a number" : "an integer");
        return -1;
    }
    if (v < o->min || v > o->max) {
        snprintf(err, errlen, "--%s: %g is outside %g to %g", o->name, v, o->min, o->max);
        return -1;
    }
    return 0;
}

/* Check a value against an option's kind and range. */
int cli_x_check(const cli_xopt *o, const char *value, char *err, size_t errlen)
{
    if (o->kind == CLI_XO_STR) return 0;
    char *end = NULL;
    if (o->kind != CLI_XO_LIST) {
        if (check_number(o, value, &end, err, errlen)) return -1;
        if (*end) {
            snprintf(err, errlen, "--%s: '%s' is not %s", o->name, value, o->kind == CLI_XO_DBL ? "a number" : "an integer");
            return -1;
        }
        return 0;
    }
    int n = 0;
    for (const char *s = value;; s = end + 1) {
        if (check_number(o, s, &end, err, errlen)) return -1;
        if (++n > CLI_X_MAXLIST) {
            snprintf(err, errlen, "--%s: at most %d values", o->name, CLI_X_MAXLIST);
            return -1;
        }
        if (!*end) return 0;
        if (*end != ',') {
            snprintf(err, errlen, "--%s: '%s' is not a comma-separated list of integers", o->name, value);
            return -1;
        }
    }
}

/* Record the first error. */
int cli_x_fail(cli_xctx *x, const char *fmt, ...)
{
    if (x->err[0]) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, sizeof x->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* Make the private temporary folder on first use. */
static int ensure_tmp(cli_xctx *x)
{
    if (x->tmp[0]) return 0;
    const char *t = getenv("TMPDIR");
    snprintf(x->tmp, sizeof x->tmp, "%s/warpsim-explore-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(x->tmp)) {
        int e = errno;
        x->tmp[0] = 0;
        return cli_x_fail(x, "cannot create a temporary folder in %s: %s", t && *t ? t : "/tmp", strerror(e));
    }
    return 0;
}

/* Remove the temporary folder (flat: only files). */
void cli_x_cleanup(cli_xctx *x)
{
    if (!x->tmp[0]) return;
    DIR *d = opendir(x->tmp);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char p[PATH_MAX + 300];
            snprintf(p, sizeof p, "%s/%s", x->tmp, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(x->tmp);
    x->tmp[0] = 0;
}

/* Write a temporary preset based on a shipped one. */
int cli_x_preset(cli_xctx *x, const char *name, const char *base, const char *const *lines, char *path, size_t cap)
{
    if (ensure_tmp(x)) return -1;
    char basefile[PATH_MAX + 64], real[PATH_MAX];
    snprintf(basefile, sizeof basefile, "%s/%s.preset", ws_device_dir(), base);
    if (!realpath(basefile, real)) return cli_x_fail(x, "cannot find the preset %s: %s", basefile, strerror(errno));
    if ((size_t)snprintf(path, cap, "%s/%s.preset", x->tmp, name) >= cap) return cli_x_fail(x, "path too long");
    FILE *f = fopen(path, "w");
    if (!f) return cli_x_fail(x, "cannot write %s: %s", path, strerror(errno));
    fprintf(f, "# written by warpsim explore %s\nbase = %s\n", x->name, real);
    for (int i = 0; lines && lines[i]; i++) fprintf(f, "%s\n", lines[i]);
    if (fclose(f) != 0) return cli_x_fail(x, "cannot write %s", path);
    char err[1024];
    if (!ws_device_get(path, err, sizeof err)) return cli_x_fail(x, "the explorer's preset is invalid: %s", err);
    return 0;
}

/* Where the explorer kernels live. */
int cli_x_dir(cli_xctx *x, char *dir, size_t cap)
{
    const char *e = getenv("WARPSIM_EXPLORE_DIR");
    char cand[3][PATH_MAX + 64], exe[PATH_MAX];
    int n = 0;
    if (e && *e) snprintf(cand[n++], sizeof cand[0], "%s", e);
    else {
        if (cli_exe_dir(exe, sizeof exe) == 0) snprintf(cand[n++], sizeof cand[0], "%s/../share/warpsim/explore", exe);
        snprintf(cand[n++], sizeof cand[0], "%s/../explore", WS_DEVICES_DIR);
    }
    for (int i = 0; i < n; i++) {
        struct stat st;
        char real[PATH_MAX];
        if (stat(cand[i], &st) == 0 && S_ISDIR(st.st_mode) && realpath(cand[i], real)) {
            if ((size_t)snprintf(dir, cap, "%s", real) >= cap) break;
            return 0;
        }
    }
    return cli_x_fail(x, "the explorer kernels are in none of %s%s%s (set WARPSIM_EXPLORE_DIR)", cand[0],
                      n > 1 ? ", " : "", n > 1 ? cand[1] : "");
}

/* Read a whole file (NUL-terminated); NULL when unreadable. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (cap - n < 2048) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    if (buf) buf[n] = 0;
    if (len) *len = n;
    return buf;
}

/* Copy the last lines of a message file into the error (what went wrong inside the run). */
static void tail_into(char *dst, size_t cap, const char *text)
{
    if (!text || !*text) return;
    size_t n = strlen(text);
    const char *p = n > 900 ? text + n - 900 : text;
    size_t have = strlen(dst);
    snprintf(dst + have, cap - have, ":\n%s", p);
    have = strlen(dst);
    while (have && (dst[have - 1] == '\n' || dst[have - 1] == ' ')) dst[--have] = 0;
}

/* Compile and run an explorer program. */
int cli_x_run(cli_xctx *x, const cli_xspec *s, cli_xrun *r)
{
    memset(r, 0, sizeof *r);
    r->status = -1;
    char dir[PATH_MAX], cu[PATH_MAX + 300], prog[PATH_MAX + 300], exe[PATH_MAX + 1];
    const char *pname = s->program ? s->program : x->name;
    if (cli_x_dir(x, dir, sizeof dir) || ensure_tmp(x)) return -1;
    snprintf(cu, sizeof cu, "%s/%s.cu", dir, pname);
    if (access(cu, R_OK) != 0) return cli_x_fail(x, "cannot read the explorer's kernel %s: %s", cu, strerror(errno));
    if (cli_compile_cu(cu, !x->verbose, prog, sizeof prog) != 0)
        return cli_x_fail(x, "could not compile %s (see above)", cu);
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return cli_x_fail(x, "cannot find the warpsim executable (/proc/self/exe)");
    exe[len] = 0;
    int k = x->runs++;
    char report[PATH_MAX + 64], outf[PATH_MAX + 64], errf[PATH_MAX + 64], bo[256];
    snprintf(report, sizeof report, "%s/report-%d.json", x->tmp, k);
    snprintf(outf, sizeof outf, "%s/stdout-%d.txt", x->tmp, k);
    snprintf(errf, sizeof errf, "%s/stderr-%d.txt", x->tmp, k);
    const char *av[96];
    int n = 0;
    av[n++] = exe;
    av[n++] = "run";
    av[n++] = "--quiet";
    av[n++] = "--gpu";
    av[n++] = s->gpu;
    if (s->timing) av[n++] = "--timing";
    if (s->block_order) {
        snprintf(bo, sizeof bo, "--block-order=%s", s->block_order);
        av[n++] = bo;
    }
    av[n++] = "--report";
    av[n++] = report;
    av[n++] = "--";
    av[n++] = prog;
    for (int i = 0; s->args && s->args[i] && n < 94; i++) av[n++] = s->args[i];
    av[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return cli_x_fail(x, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fo = open(outf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = x->verbose ? -1 : open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || (!x->verbose && fe < 0)) _exit(126);
        dup2(fo, 1);
        if (fe >= 0) dup2(fe, 2);
        setenv("WARPSIM_VIEW", "1", 1);
        setenv("WARPSIM_VIEW_LAUNCHES", "64", 1);   /* latency runs a launch per warp count, up to 34 */
        execv(exe, (char *const *)av);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return cli_x_fail(x, "waitpid: %s", strerror(errno));
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    size_t olen = 0;
    char *out = read_all(outf, &olen), *msgs = read_all(errf, NULL);
    if (out && olen) {
        json_error_t je;
        r->out = json_loadb(out, olen, 0, &je);
        if (!r->out || !json_is_object(r->out)) {
            json_decref(r->out);
            r->out = NULL;
        }
    }
    json_error_t je;
    r->report = json_load_file(report, 0, &je);
    if (r->report && !json_is_object(r->report)) { json_decref(r->report); r->report = NULL; }
    int rc = 0;
    if (!r->out || !r->report) {
        cli_x_fail(x, "%s on %s %s (exit status %d)", pname, s->gpu,
                   !r->out ? "printed no result" : "left no run report", r->status);
        tail_into(x->err, sizeof x->err, msgs);
        rc = -1;
    }
    if (r->report && cli_x_view(r, 0)) x->view_seen = 1;
    free(out);
    free(msgs);
    unlink(report);
    unlink(outf);
    unlink(errf);
    if (rc) cli_x_run_free(r);
    return rc;
}

/* Release a run. */
void cli_x_run_free(cli_xrun *r)
{
    json_decref(r->out);
    json_decref(r->report);
    r->out = r->report = NULL;
}

/* The i-th launch of the report. */
json_t *cli_x_launch(const cli_xrun *r, size_t i)
{
    return r->report ? json_array_get(json_object_get(r->report, "launches"), i) : NULL;
}

/* Number of launches. */
size_t cli_x_nlaunches(const cli_xrun *r)
{
    return r->report ? json_array_size(json_object_get(r->report, "launches")) : 0;
}

/* The view data of the i-th launch. */
json_t *cli_x_view(const cli_xrun *r, size_t i)
{
    json_t *v = r->report ? json_object_get(r->report, "view") : NULL;
    json_t *l = json_array_get(json_object_get(v, "launches"), i);
    return json_is_object(l) ? l : NULL;
}

/* Number member as a double. */
double cli_x_num(const json_t *obj, const char *key, double def)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : def;
}

/* Integer member. */
long long cli_x_i(const json_t *obj, const char *key, long long def)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    if (json_is_integer(v)) return (long long)json_integer_value(v);
    if (json_is_real(v)) return (long long)llround(json_real_value(v));
    return def;
}

/* String member. */
const char *cli_x_s(const json_t *obj, const char *key, const char *def)
{
    json_t *v = obj ? json_object_get(obj, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : def;
}

/* Write one jansson value with the JSON writer; depth 0 breaks lines between the top object's members. */
static void write_value(ws_json *w, const json_t *v, int depth)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        ws_json_begin_object(w);
        const char *key;
        json_t *m;
        json_object_foreach((json_t *)v, key, m) {
            if (depth == 0) ws_json_break(w, 1);
            ws_json_key(w, key);
            write_value(w, m, depth + 1);
        }
        if (depth == 0) ws_json_break(w, 0);
        ws_json_end_object(w);
        break;
    }
    case JSON_ARRAY: {
        ws_json_begin_array(w);
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) write_value(w, e, depth + 1);
        ws_json_end_array(w);
        break;
    }
    case JSON_STRING: ws_json_string_n(w, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: ws_json_int(w, (long long)json_integer_value(v)); break;
    case JSON_REAL: ws_json_double_g(w, json_real_value(v), 10); break;
    case JSON_TRUE: ws_json_bool(w, 1); break;
    case JSON_FALSE: ws_json_bool(w, 0); break;
    default: ws_json_null(w); break;
    }
}

/* Write a jansson value through the JSON writer. */
int cli_x_write_json(FILE *out, const json_t *v)
{
    ws_json w;
    ws_json_init_file(&w, out);
    write_value(&w, v, 0);
    ws_json_break(&w, 0);
    return ws_json_finish(&w);
}

/* Set an integer member. */
void cli_x_set_int(json_t *obj, const char *key, long long v) { json_object_set_new(obj, key, json_integer(v)); }
/* Set a real member (non-finite values become null). */
void cli_x_set_dbl(json_t *obj, const char *key, double v)
{
    json_object_set_new(obj, key, isfinite(v) ? json_real(v) : json_null());
}
/* Set a string member (NULL: null). */
void cli_x_set_str(json_t *obj, const char *key, const char *v)
{
    json_object_set_new(obj, key, v ? json_string(v) : json_null());
}
/* Set a boolean member. */
void cli_x_set_bool(json_t *obj, const char *key, int v) { json_object_set_new(obj, key, json_boolean(v)); }
/* Append an integer. */
void cli_x_push_int(json_t *arr, long long v) { json_array_append_new(arr, json_integer(v)); }
