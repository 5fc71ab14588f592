/* sweep_plan.c - OUT/sweep.json, the plan of a sweep: what --resume and the Slurm array tasks (--run-point) read
 * back, so that every process sees the same points. Written with the report layer's JSON writer, read with
 * jansson. */
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "../report/json.h"
#include <jansson.h>

/* Write a string list as a JSON array. */
static void str_array(ws_json *w, char *const *v, int n)
{
    ws_json_begin_array(w);
    for (int i = 0; i < n; i++) ws_json_string(w, v[i]);
    ws_json_end_array(w);
}

/* Write OUT/sweep.json. */
int sw_plan_write(const sw_spec *s)
{
    char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
    if (cli_mkdir_p(s->out, 0777)) {
        fprintf(stderr, "warpsim sweep: cannot make %s: %s\n", s->out, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/sweep.json", s->out);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "warpsim sweep: cannot write %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    ws_json w;
    ws_json_init_file(&w, f);
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "warpsim_sweep", "plan 1");
    ws_json_break(&w, 1);
    ws_json_member_string(&w, "cwd", s->cwd);
    ws_json_member_int(&w, "timeout", s->timeout_s);
    ws_json_member_int(&w, "baseline", s->baseline);
    ws_json_member_int(&w, "jobs", s->jobs);
    ws_json_break(&w, 1);
    ws_json_key(&w, "slurm");
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "partition", s->slurm.partition);
    ws_json_member_string(&w, "time", s->slurm.time);
    ws_json_member_int(&w, "cpus_per_task", s->slurm.cpus_per_task);
    ws_json_end_object(&w);
    ws_json_break(&w, 1);
    ws_json_key(&w, "programs");
    ws_json_begin_array(&w);
    for (int i = 0; i < s->nprog; i++) {
        ws_json_break(&w, 2);
        ws_json_begin_object(&w);
        ws_json_member_string(&w, "name", s->prog[i].name);
        ws_json_key(&w, "command");
        str_array(&w, s->prog[i].argv, s->prog[i].argc);
        ws_json_key(&w, "args");
        str_array(&w, s->prog[i].args, s->prog[i].nargs);
        ws_json_end_object(&w);
    }
    ws_json_end_array(&w);
    ws_json_break(&w, 1);
    ws_json_key(&w, "axes");
    ws_json_begin_array(&w);
    for (int i = 0; i < s->naxes; i++) {
        ws_json_break(&w, 2);
        ws_json_begin_object(&w);
        ws_json_member_string(&w, "key", s->axis[i].key);
        ws_json_key(&w, "values");
        str_array(&w, s->axis[i].v, s->axis[i].n);
        ws_json_end_object(&w);
    }
    ws_json_end_array(&w);
    ws_json_break(&w, 1);
    ws_json_key(&w, "points");
    ws_json_begin_array(&w);
    int n = sw_spec_npoints(s);
    for (int id = 0; id < n; id++) {
        sw_point p;
        sw_point_decode(s, id, &p);
        char name[16];
        sw_point_name(id, name, sizeof name);
        ws_json_break(&w, 2);
        ws_json_begin_object(&w);
        ws_json_member_string(&w, "id", name);
        ws_json_member_string(&w, "program", s->prog[p.prog].name);
        ws_json_member_string(&w, "arg", s->prog[p.prog].args[p.arg]);
        for (int a = 0; a < s->naxes; a++) ws_json_member_string(&w, s->axis[a].key, s->axis[a].v[p.pick[a]]);
        char **argv = sw_point_argv(s, &p);
        int argc = 0;
        while (argv && argv[argc]) argc++;
        ws_json_key(&w, "command");
        str_array(&w, argv + 1, argc - 1);   /* without the warpsim executable's path */
        sw_argv_free(argv);
        ws_json_end_object(&w);
    }
    ws_json_break(&w, 1);
    ws_json_end_array(&w);
    ws_json_break(&w, 0);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    int bad = ws_json_finish(&w);
    if (fclose(f) || bad || rename(tmp, path)) {
        fprintf(stderr, "warpsim sweep: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

/* A JSON array of strings into a new string list (*n entries); 0, or -1 when it is not one. */
static int read_strs(const json_t *a, char ***v, int *n)
{
    *v = NULL;
    *n = 0;
    if (!json_is_array(a)) return -1;
    size_t sz = json_array_size(a);
    *v = calloc(sz ? sz : 1, sizeof **v);
    if (!*v) return -1;
    for (size_t i = 0; i < sz; i++) {
        const char *t = json_string_value(json_array_get(a, i));
        if (!t || !((*v)[i] = strdup(t))) return -1;
        (*n)++;
    }
    return 0;
}

/* Read OUT/sweep.json of folder dir back into s. */
int sw_plan_read(sw_spec *s, const char *dir)
{
    char path[PATH_MAX + 32];
    char full[2 * PATH_MAX + 2];
    if (dir[0] == '/') snprintf(full, sizeof full, "%s", dir);
    else snprintf(full, sizeof full, "%s/%s", s->cwd, dir);
    if (strlen(full) >= sizeof s->out) {
        fprintf(stderr, "warpsim sweep: %s: path too long\n", dir);
        return -1;
    }
    memcpy(s->out, full, strlen(full) + 1);
    snprintf(path, sizeof path, "%s/sweep.json", s->out);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) {
        fprintf(stderr, "warpsim sweep: %s: %s (not a sweep's results folder?)\n", path, je.text);
        return -1;
    }
    int rc = 0;
    const char *cwd = json_string_value(json_object_get(j, "cwd"));
    const json_t *progs = json_object_get(j, "programs"), *axes = json_object_get(j, "axes");
    if (!cwd || !json_is_array(progs) || !json_is_array(axes) || json_array_size(axes) > SW_MAX_AXES) {
        fprintf(stderr, "warpsim sweep: %s: not a sweep plan\n", path);
        json_decref(j);
        return -1;
    }
    snprintf(s->cwd, sizeof s->cwd, "%s", cwd);
    s->timeout_s = (int)json_integer_value(json_object_get(j, "timeout"));
    s->baseline = (int)json_integer_value(json_object_get(j, "baseline"));
    s->jobs = (int)json_integer_value(json_object_get(j, "jobs"));
    const json_t *sl = json_object_get(j, "slurm");
    const char *t;
    if (!s->slurm.partition[0] && (t = json_string_value(json_object_get(sl, "partition"))))
        snprintf(s->slurm.partition, sizeof s->slurm.partition, "%s", t);
    if (!s->slurm.time[0] && (t = json_string_value(json_object_get(sl, "time"))))
        snprintf(s->slurm.time, sizeof s->slurm.time, "%s", t);
    if (!s->slurm.cpus_per_task) s->slurm.cpus_per_task = (int)json_integer_value(json_object_get(sl, "cpus_per_task"));
    s->nprog = (int)json_array_size(progs);
    s->prog = calloc(s->nprog ? (size_t)s->nprog : 1, sizeof *s->prog);
    for (int i = 0; s->prog && i < s->nprog && !rc; i++) {
        const json_t *p = json_array_get(progs, (size_t)i);
        const char *nm = json_string_value(json_object_get(p, "name"));
        s->prog[i].name = strdup(nm ? nm : "?");
        if (read_strs(json_object_get(p, "command"), &s->prog[i].argv, &s->prog[i].argc) ||
            read_strs(json_object_get(p, "args"), &s->prog[i].args, &s->prog[i].nargs) || !s->prog[i].argc ||
            !s->prog[i].nargs)
            rc = -1;
    }
    s->naxes = (int)json_array_size(axes);
    for (int i = 0; i < s->naxes && !rc; i++) {
        const json_t *a = json_array_get(axes, (size_t)i);
        const char *k = json_string_value(json_object_get(a, "key"));
        snprintf(s->axis[i].key, sizeof s->axis[i].key, "%s", k ? k : "?");
        if (!k || read_strs(json_object_get(a, "values"), &s->axis[i].v, &s->axis[i].n) || !s->axis[i].n) rc = -1;
    }
    if (!s->prog || rc) {
        fprintf(stderr, "warpsim sweep: %s: a damaged sweep plan\n", path);
        rc = -1;
    }
    json_decref(j);
    return rc;
}
