/* sweep_spec.c - the spec of a sweep: sweep.toml and the command line into sw_spec, the cross product's point
 * numbering, and the check of every device and override combination before anything runs. */
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_set.h"
#include "sweep_toml.h"
#include "../device/device.h"

/* Most points one sweep may have. */
#define SW_MAX_POINTS 1000000

/* A copy of s, or exit on out of memory. */
static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "warpsim sweep: out of memory\n");
        exit(2);
    }
    return d;
}

/* Append a value to a growing string list. */
static void list_add(char ***v, int *n, const char *s)
{
    char **nv = realloc(*v, (size_t)(*n + 1) * sizeof **v);
    if (!nv) {
        fprintf(stderr, "warpsim sweep: out of memory\n");
        exit(2);
    }
    *v = nv;
    (*v)[(*n)++] = xstrdup(s);
}

/* Free a string list. */
static void list_free(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* Split a comma-separated list (white space around the items trimmed) into a string list. */
static void list_split(char ***v, int *n, const char *csv)
{
    const char *p = csv;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        while (len && (*p == ' ' || *p == '\t')) p++, len--;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
        char *item = malloc(len + 1);
        if (!item) exit(2);
        memcpy(item, p, len);
        item[len] = 0;
        list_add(v, n, item);
        free(item);
        if (!c) break;
        p = c + 1;
    }
}

/* The axis with key k, created (empty) when absent; NULL when there are too many. */
static sw_axis *axis_get(sw_spec *s, const char *k)
{
    for (int i = 0; i < s->naxes; i++)
        if (!strcmp(s->axis[i].key, k)) return &s->axis[i];
    if (s->naxes >= SW_MAX_AXES) {
        fprintf(stderr, "warpsim sweep: more than %d swept parameters\n", SW_MAX_AXES);
        return NULL;
    }
    sw_axis *a = &s->axis[s->naxes++];
    memset(a, 0, sizeof *a);
    snprintf(a->key, sizeof a->key, "%s", k);
    return a;
}

/* Set an axis from a comma-separated list (replacing earlier values); 0 or -1. */
static int axis_set_csv(sw_spec *s, const char *k, const char *csv)
{
    sw_axis *a = axis_get(s, k);
    if (!a) return -1;
    list_free(a->v, a->n);
    a->v = NULL;
    a->n = 0;
    list_split(&a->v, &a->n, csv);
    return 0;
}

/* The text of a TOML scalar (string, integer or boolean) into out; 0, or -1 when it is not a scalar. */
static int scalar_text(const json_t *v, char *out, size_t cap)
{
    if (json_is_string(v)) snprintf(out, cap, "%s", json_string_value(v));
    else if (json_is_integer(v)) snprintf(out, cap, "%lld", (long long)json_integer_value(v));
    else if (json_is_boolean(v)) snprintf(out, cap, "%s", json_is_true(v) ? "true" : "false");
    else return -1;
    return 0;
}

/* A TOML value that is a scalar or an array of scalars into a string list; 0, or -1 with the problem printed. */
static int toml_list(const json_t *v, char ***list, int *n, const char *path, const char *what)
{
    char buf[4096];
    if (!json_is_array(v)) {
        if (scalar_text(v, buf, sizeof buf)) {
            fprintf(stderr, "warpsim sweep: %s: %s must be a string, an integer or an array of them\n", path, what);
            return -1;
        }
        list_add(list, n, buf);
        return 0;
    }
    size_t i;
    const json_t *e;
    json_array_foreach(v, i, e) {
        if (scalar_text(e, buf, sizeof buf)) {
            fprintf(stderr, "warpsim sweep: %s: %s[%zu] must be a string or an integer\n", path, what, i);
            return -1;
        }
        list_add(list, n, buf);
    }
    if (!*n) {
        fprintf(stderr, "warpsim sweep: %s: %s is an empty list\n", path, what);
        return -1;
    }
    return 0;
}

/* Split a command string on white space into a string list. */
static void split_words(char ***v, int *n, const char *cmd)
{
    char *c = xstrdup(cmd), *save = NULL;
    for (char *t = strtok_r(c, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) list_add(v, n, t);
    free(c);
}

/* Add a program; its arguments default to one empty argument. */
static sw_program *prog_add(sw_spec *s, const char *name)
{
    sw_program *np = realloc(s->prog, (size_t)(s->nprog + 1) * sizeof *np);
    if (!np) exit(2);
    s->prog = np;
    sw_program *p = &s->prog[s->nprog++];
    memset(p, 0, sizeof *p);
    p->name = xstrdup(name);
    return p;
}

/* The name of a program from its command: the file name of the first word. */
static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* One program table of sweep.toml (name NULL: take it from "name" or the command). */
static int toml_program(sw_spec *s, const char *name, const json_t *t, const char *path)
{
    if (!json_is_object(t)) {
        fprintf(stderr, "warpsim sweep: %s: program '%s' must be a table\n", path, name ? name : "?");
        return -1;
    }
    const json_t *cmd = json_object_get(t, "command"), *args = json_object_get(t, "args");
    const json_t *nm = json_object_get(t, "name");
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)t, k, v) {
        if (strcmp(k, "command") && strcmp(k, "args") && strcmp(k, "name")) {
            fprintf(stderr, "warpsim sweep: %s: program %s: unknown key '%s' (command, args, name)\n", path,
                    name ? name : "", k);
            return -1;
        }
    }
    if (!cmd) {
        fprintf(stderr, "warpsim sweep: %s: program %s has no command\n", path, name ? name : "");
        return -1;
    }
    char **argv = NULL;
    int argc = 0;
    if (json_is_string(cmd)) split_words(&argv, &argc, json_string_value(cmd));
    else if (toml_list(cmd, &argv, &argc, path, "command")) return -1;
    if (!argc) {
        fprintf(stderr, "warpsim sweep: %s: program %s: empty command\n", path, name ? name : "");
        return -1;
    }
    if (!name) name = json_is_string(nm) ? json_string_value(nm) : base_name(argv[0]);
    sw_program *p = prog_add(s, name);
    p->argv = argv;
    p->argc = argc;
    if (args && toml_list(args, &p->args, &p->nargs, path, "args")) return -1;
    if (!p->nargs) list_add(&p->args, &p->nargs, "");
    return 0;
}

/* Read sweep.toml into the spec; 0, or -1 with the problem printed. */
static int spec_toml(sw_spec *s, const char *path)
{
    char err[1024];
    json_t *t = sw_toml_read(path, err, sizeof err);
    if (!t) {
        fprintf(stderr, "warpsim sweep: %s\n", err);
        return -1;
    }
    int rc = 0;
    const char *k;
    json_t *v;
    char buf[PATH_MAX];
    json_object_foreach(t, k, v) {
        if (rc) break;
        if (!strcmp(k, "out") || !strcmp(k, "jobs") || !strcmp(k, "timeout") || !strcmp(k, "baseline")) {
            if (scalar_text(v, buf, sizeof buf)) {
                fprintf(stderr, "warpsim sweep: %s: %s must be a string or an integer\n", path, k);
                rc = -1;
            } else if (!strcmp(k, "out")) snprintf(s->out, sizeof s->out, "%s", buf);
            else if (!strcmp(k, "jobs")) s->jobs = atoi(buf);
            else if (!strcmp(k, "timeout")) s->timeout_s = atoi(buf);
            else s->baseline = atoi(buf);
        } else if (!strcmp(k, "gpu") || !strcmp(k, "mode") || !strcmp(k, "cache_control") ||
                   !strcmp(k, "block_order")) {
            sw_axis *a = axis_get(s, k);
            rc = a ? toml_list(v, &a->v, &a->n, path, k) : -1;
        } else if (!strcmp(k, "set")) {
            const char *f;
            json_t *fv;
            if (!json_is_object(v)) {
                fprintf(stderr, "warpsim sweep: %s: set must be a table ([set] FIELD = [values])\n", path);
                rc = -1;
            }
            json_object_foreach(v, f, fv) {
                if (rc) break;
                char key[96];
                snprintf(key, sizeof key, "set:%s", f);
                sw_axis *a = axis_get(s, key);
                rc = a ? toml_list(fv, &a->v, &a->n, path, f) : -1;
            }
        } else if (!strcmp(k, "program")) {
            if (json_is_array(v)) {
                size_t i;
                json_t *e;
                json_array_foreach(v, i, e) if (!rc) rc = toml_program(s, NULL, e, path);
            } else if (json_is_object(v)) {
                const char *pn;
                json_t *pv;
                json_object_foreach(v, pn, pv) if (!rc) rc = toml_program(s, pn, pv, path);
            }
        } else if (!strcmp(k, "slurm")) {
            const char *sk;
            json_t *sv;
            json_object_foreach(v, sk, sv) {
                if (scalar_text(sv, buf, sizeof buf)) buf[0] = 0;
                char *dst = !strcmp(sk, "partition") ? s->slurm.partition : !strcmp(sk, "time") ? s->slurm.time : NULL;
                size_t cap = dst == s->slurm.partition ? sizeof s->slurm.partition : sizeof s->slurm.time;
                if (dst) {
                    if (strlen(buf) >= cap) {
                        fprintf(stderr, "warpsim sweep: %s: [slurm]: %s '%s' is too long\n", path, sk, buf);
                        rc = -1;
                        break;
                    }
                    memcpy(dst, buf, strlen(buf) + 1);
                }
                else if (!strcmp(sk, "cpus_per_task")) s->slurm.cpus_per_task = atoi(buf);
                else {
                    fprintf(stderr, "warpsim sweep: %s: [slurm]: unknown key '%s' (partition, time, cpus_per_task)\n",
                            path, sk);
                    rc = -1;
                    break;
                }
            }
        } else {
            fprintf(stderr, "warpsim sweep: %s: unknown key '%s' (out, jobs, timeout, baseline, gpu, mode, "
                    "cache_control, block_order, [set], [program.NAME], [slurm])\n", path, k);
            rc = -1;
        }
    }
    json_decref(t);
    return rc;
}

/* Print the usage of `warpsim sweep`. */
static void sweep_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim sweep [SPEC.toml] [options] [-- PROGRAM ARGS... ({arg} takes each --arg value)]\n"
        "       warpsim sweep --resume DIR [--jobs N] [--slurm ...]\n"
        "  --out DIR               results folder (points/ID/, results.csv, results.json, results.html)\n"
        "  --gpu A,B               device presets to sweep (default h200)\n"
        "  --set FIELD=V1,V2       preset field values to sweep (repeatable; one axis per field)\n"
        "  --arg \"X,Y\"             the program's argument values ({arg} in the command, else appended)\n"
        "  --mode M1,M2            functional and/or timing\n"
        "  --cache-control C1,C2   all and/or none;  --block-order random:S1,random:S2\n"
        "  --jobs N                parallel points (default: the cores);  --timeout S  per point (default none)\n"
        "  --baseline ID           the point the page's speedups compare with (default 0)\n"
        "  --resume DIR            run the points of DIR that have no finished marker, then merge\n"
        "  --slurm                 run the points as a Slurm job array (sbatch --array); options:\n"
        "  --partition P  --time T  --cpus-per-task N  --no-wait (submit only; --resume DIR merges later)\n"
        "A failed point (crash, timeout, nonzero exit) is recorded with its output; the sweep goes on and exits 1.\n"
        "docs/sweep.md describes sweep.toml.\n");
}

/* Value of "--opt V" or "--opt=V" at argv[*i]; NULL when argv[*i] is not opt (*bad set when V is missing). */
static const char *optv(int argc, char **argv, int *i, const char *opt, int *bad)
{
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n)) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n]) return NULL;
    if (*i + 1 >= argc) {
        *bad = 1;
        return NULL;
    }
    return argv[++*i];
}

/* A whole non-negative number for option opt into *out; 0, or -1 with the problem printed. */
static int count_opt(const char *opt, const char *v, int *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (!*v || *end || errno || n < 0 || n > 1000000000) {
        fprintf(stderr, "warpsim sweep: %s %s: expected a whole number\n", opt, v);
        return -1;
    }
    *out = (int)n;
    return 0;
}

/* Build the spec from the command line (see sweep.h). resume receives 1 for --resume, run_point_id the id of
 * --run-point (else -1); out then holds the folder. Returns 0, 1 after --help, or -1. */
int sw_spec_from_args(sw_spec *s, int argc, char **argv, int *resume, int *run_point_id)
{
    memset(s, 0, sizeof *s);
    s->slurm.poll_s = 0.5;
    *resume = 0;
    *run_point_id = -1;
    const char *toml = NULL, *out = NULL, *args = NULL;
    char **sets = NULL;
    int nsets = 0, i = 1, prog_at = -1;
    /* the axes the command line can give as comma-separated lists */
    enum { AX_GPU, AX_MODE, AX_CACHE, AX_ORDER, AX_N };
    char *axis_cli[AX_N] = { NULL, NULL, NULL, NULL };
    static const char *const axis_opt[AX_N] = { "--gpu", "--mode", "--cache-control", "--block-order" };
    static const char *const axis_key[AX_N] = { "gpu", "mode", "cache_control", "block_order" };
    int jobs = -1, timeout = -1, baseline = -1;
    for (; i < argc; i++) {
        const char *a = argv[i], *v;
        int bad = 0, hit = 0;
        if (!strcmp(a, "--")) {
            prog_at = i + 1;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            sweep_usage(stdout);
            return 1;
        }
        for (int k = 0; k < AX_N && !hit; k++)
            if ((v = optv(argc, argv, &i, axis_opt[k], &bad))) axis_cli[k] = (char *)v, hit = 1;
        if (hit) continue;
        if (!strcmp(a, "--slurm")) s->slurm.on = 1;
        else if (!strcmp(a, "--no-wait")) s->slurm.no_wait = 1;
        else if ((v = optv(argc, argv, &i, "--out", &bad))) out = v;
        else if ((v = optv(argc, argv, &i, "--set", &bad))) list_add(&sets, &nsets, v);
        else if ((v = optv(argc, argv, &i, "--arg", &bad))) args = v;
        else if ((v = optv(argc, argv, &i, "--jobs", &bad))) {
            if (count_opt(a, v, &jobs)) return -1;
        } else if ((v = optv(argc, argv, &i, "--timeout", &bad))) {
            if (count_opt(a, v, &timeout)) return -1;
        } else if ((v = optv(argc, argv, &i, "--baseline", &bad))) {
            if (count_opt(a, v, &baseline)) return -1;
        }
        else if ((v = optv(argc, argv, &i, "--partition", &bad)))
            snprintf(s->slurm.partition, sizeof s->slurm.partition, "%s", v);
        else if ((v = optv(argc, argv, &i, "--time", &bad))) snprintf(s->slurm.time, sizeof s->slurm.time, "%s", v);
        else if ((v = optv(argc, argv, &i, "--cpus-per-task", &bad))) {
            if (count_opt(a, v, &s->slurm.cpus_per_task)) return -1;
        }
        else if ((v = optv(argc, argv, &i, "--resume", &bad))) out = v, *resume = 1;
        else if (!strcmp(a, "--run-point") && i + 2 < argc) {
            out = argv[++i];
            *run_point_id = atoi(argv[++i]);
        } else if (bad) {
            fprintf(stderr, "warpsim sweep: %s needs a value\n", a);
            return -1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim sweep: unknown option '%s'\n", a);
            sweep_usage(stderr);
            return -1;
        } else if (!toml) toml = a;
        else {
            fprintf(stderr, "warpsim sweep: unexpected '%s' (the program goes after --)\n", a);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "warpsim sweep: %s needs a value\n", a);
            return -1;
        }
    }
    ssize_t el = readlink("/proc/self/exe", s->exe, sizeof s->exe - 1);
    if (!getcwd(s->cwd, sizeof s->cwd) || el <= 0) {
        fprintf(stderr, "warpsim sweep: cannot find the current folder or the warpsim executable\n");
        return -1;
    }
    s->exe[el] = 0;
    if (*resume || *run_point_id >= 0) {
        if (toml || prog_at >= 0 || nsets || args || axis_cli[AX_GPU] || axis_cli[AX_MODE] || axis_cli[AX_CACHE] ||
            axis_cli[AX_ORDER]) {
            fprintf(stderr, "warpsim sweep: --resume takes the folder's plan (sweep.json); give no spec with it\n");
            return -1;
        }
        int rc = sw_plan_read(s, out);
        if (!rc && jobs >= 0) s->jobs = jobs;
        if (!rc && timeout >= 0) s->timeout_s = timeout;
        return rc;
    }
    if (toml && spec_toml(s, toml)) return -1;
    for (int k = 0; k < AX_N; k++)
        if (axis_cli[k] && axis_set_csv(s, axis_key[k], axis_cli[k])) return -1;
    for (int k = 0; k < nsets; k++) {
        const char *eq = strchr(sets[k], '=');
        if (!eq || eq == sets[k]) {
            fprintf(stderr, "warpsim sweep: --set %s: expected FIELD=V1,V2,...\n", sets[k]);
            return -1;
        }
        char key[96];
        snprintf(key, sizeof key, "set:%.*s", (int)(eq - sets[k]), sets[k]);
        if (axis_set_csv(s, key, eq + 1)) return -1;
    }
    list_free(sets, nsets);
    if (prog_at >= 0) {
        if (prog_at >= argc) {
            fprintf(stderr, "warpsim sweep: no program after --\n");
            return -1;
        }
        sw_program *p = prog_add(s, base_name(argv[prog_at]));
        for (int k = prog_at; k < argc; k++) list_add(&p->argv, &p->argc, argv[k]);
        if (args) list_split(&p->args, &p->nargs, args);
        else list_add(&p->args, &p->nargs, "");
    } else if (args) {
        fprintf(stderr, "warpsim sweep: --arg needs a program after --\n");
        return -1;
    }
    if (!s->nprog) {
        fprintf(stderr, "warpsim sweep: no program: give SPEC.toml with [program.NAME] tables or -- PROGRAM ARGS\n");
        sweep_usage(stderr);
        return -1;
    }
    if (out) snprintf(s->out, sizeof s->out, "%s", out);
    if (!s->out[0]) {
        fprintf(stderr, "warpsim sweep: no results folder: give --out DIR (or out = \"DIR\" in the spec)\n");
        return -1;
    }
    if (s->out[0] != '/') {
        char rel[PATH_MAX];
        snprintf(rel, sizeof rel, "%s", s->out);
        if ((size_t)snprintf(s->out, sizeof s->out, "%s/%s", s->cwd, rel) >= sizeof s->out) return -1;
    }
    if (jobs >= 0) s->jobs = jobs;
    if (timeout >= 0) s->timeout_s = timeout;
    if (baseline >= 0) s->baseline = baseline;
    /* the device axis comes first and is always there (a column of the tables) */
    sw_axis *g = axis_get(s, "gpu");
    if (!g) return -1;
    if (!g->n) list_add(&g->v, &g->n, WS_DEVICE_DEFAULT);
    int gi = (int)(g - s->axis);
    sw_axis tmp = s->axis[gi];
    memmove(&s->axis[1], &s->axis[0], (size_t)gi * sizeof tmp);
    s->axis[0] = tmp;
    /* run options last, in a fixed order */
    static const char *const tail[3] = { "mode", "cache_control", "block_order" };
    for (int t = 0; t < 3; t++)
        for (int k = 1; k < s->naxes - 1; k++)
            if (!strcmp(s->axis[k].key, tail[t])) {
                tmp = s->axis[k];
                memmove(&s->axis[k], &s->axis[k + 1], (size_t)(s->naxes - 1 - k) * sizeof tmp);
                s->axis[s->naxes - 1] = tmp;
                break;
            }
    int n = sw_spec_npoints(s);
    if (n <= 0 || n > SW_MAX_POINTS) {
        fprintf(stderr, "warpsim sweep: %d points (at most %d)\n", n, SW_MAX_POINTS);
        return -1;
    }
    if (s->baseline < 0 || s->baseline >= n) {
        fprintf(stderr, "warpsim sweep: --baseline %d: the points are 0..%d\n", s->baseline, n - 1);
        return -1;
    }
    return 0;
}

/* Release what the spec holds. */
void sw_spec_free(sw_spec *s)
{
    for (int i = 0; i < s->nprog; i++) {
        free(s->prog[i].name);
        list_free(s->prog[i].argv, s->prog[i].argc);
        list_free(s->prog[i].args, s->prog[i].nargs);
    }
    free(s->prog);
    for (int i = 0; i < s->naxes; i++) list_free(s->axis[i].v, s->axis[i].n);
    memset(s, 0, sizeof *s);
}

/* Points of the axes alone (the product of their sizes). */
static int axes_points(const sw_spec *s)
{
    long long n = 1;
    for (int i = 0; i < s->naxes; i++) {
        n *= s->axis[i].n;
        if (n > SW_MAX_POINTS) return SW_MAX_POINTS + 1;
    }
    return (int)n;
}

/* Number of points. */
int sw_spec_npoints(const sw_spec *s)
{
    long long n = 0, per = axes_points(s);
    for (int i = 0; i < s->nprog; i++) n += (long long)s->prog[i].nargs * per;
    return n > SW_MAX_POINTS ? SW_MAX_POINTS + 1 : (int)n;
}

/* Point id of the cross product. */
void sw_point_decode(const sw_spec *s, int id, sw_point *p)
{
    memset(p, 0, sizeof *p);
    p->id = id;
    int per = axes_points(s), rest = id;
    for (p->prog = 0; p->prog < s->nprog - 1 && rest >= s->prog[p->prog].nargs * per; p->prog++)
        rest -= s->prog[p->prog].nargs * per;
    p->arg = rest / per;
    rest %= per;
    for (int i = s->naxes - 1; i >= 0; i--) {
        p->pick[i] = rest % s->axis[i].n;
        rest /= s->axis[i].n;
    }
}

/* The folder name of point id. */
void sw_point_name(int id, char *out, size_t cap)
{
    snprintf(out, cap, "%04d", id);
}

/* Check one run option's values; 0, or -1 with the problem printed. */
static int check_option(const sw_axis *a)
{
    for (int i = 0; i < a->n; i++) {
        const char *v = a->v[i];
        int ok = 1;
        if (!strcmp(a->key, "mode")) ok = !strcmp(v, "functional") || !strcmp(v, "timing");
        else if (!strcmp(a->key, "cache_control")) ok = !strcmp(v, "all") || !strcmp(v, "none");
        else if (!strcmp(a->key, "block_order")) {
            char *end = NULL;
            errno = 0;
            ok = !strncmp(v, "random:", 7) && v[7] && (strtoull(v + 7, &end, 0), errno == 0 && *end == 0);
        }
        if (!ok) {
            fprintf(stderr, "warpsim sweep: %s value '%s': expected %s\n", a->key, v,
                    !strcmp(a->key, "mode") ? "functional or timing"
                    : !strcmp(a->key, "cache_control") ? "all or none" : "random:SEED");
            return -1;
        }
    }
    return 0;
}

/* Check every device and every override combination before anything runs. */
int sw_spec_validate(const sw_spec *s)
{
    const sw_axis *gpu = &s->axis[0];
    int set_ax[SW_MAX_AXES], nset = 0;
    for (int i = 1; i < s->naxes; i++) {
        if (!strncmp(s->axis[i].key, "set:", 4)) set_ax[nset++] = i;
        else if (check_option(&s->axis[i])) return -1;
        for (int k = 0; k < s->axis[i].n; k++)
            if (!s->axis[i].v[k][0]) {
                fprintf(stderr, "warpsim sweep: %s has an empty value\n", s->axis[i].key);
                return -1;
            }
    }
    char err[2048];
    for (int g = 0; g < gpu->n; g++) {
        if (!ws_device_get(gpu->v[g], err, sizeof err)) {
            fprintf(stderr, "warpsim sweep: --gpu %s: %s\n", gpu->v[g], err);
            return -1;
        }
        int pick[SW_MAX_AXES] = { 0 };
        for (;;) {
            char buf[SW_MAX_AXES][640];
            const char *sets[SW_MAX_AXES];
            for (int k = 0; k < nset; k++) {
                const sw_axis *a = &s->axis[set_ax[k]];
                snprintf(buf[k], sizeof buf[k], "%s=%s", a->key + 4, a->v[pick[k]]);
                sets[k] = buf[k];
            }
            if (nset && cli_set_make(gpu->v[g], sets, nset, NULL, NULL, 0, err, sizeof err)) {
                fprintf(stderr, "warpsim sweep: %s (on %s); nothing was run\n", err, gpu->v[g]);
                return -1;
            }
            int k = nset - 1;
            while (k >= 0 && ++pick[k] == s->axis[set_ax[k]].n) pick[k--] = 0;
            if (k < 0) break;
        }
    }
    for (int p = 0; p < s->nprog; p++) {
        const char *exe = s->prog[p].argv[0];
        if (strchr(exe, '/') && access(exe, F_OK)) {
            fprintf(stderr, "warpsim sweep: program %s: %s: %s; nothing was run\n", s->prog[p].name, exe,
                    strerror(errno));
            return -1;
        }
    }
    return 0;
}
