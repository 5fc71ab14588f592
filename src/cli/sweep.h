/* sweep.h - `warpsim sweep`: design-space sweeps. A sweep is the cross product of programs (each with its list
 * of arguments), device presets, preset overrides (--set FIELD=v1,v2) and run options (mode, cache control, block
 * order); each point is one ordinary `warpsim run --report` into OUT/points/ID/. The spec comes from sweep.toml
 * (sweep_spec.c) or the command line; the plan is kept in OUT/sweep.json so that --resume and the Slurm array
 * tasks (--run-point) see the same points; points run in a local process pool (sweep_local.c) or as a Slurm job
 * array (sweep_slurm.c); the merge (sweep_merge.c) writes results.csv, results.json and results.html. */
#ifndef WS_CLI_SWEEP_H
#define WS_CLI_SWEEP_H

#include <limits.h>
#include <stddef.h>

/* Most swept axes besides programs and arguments (devices, overrides, run options). */
#define SW_MAX_AXES 32

/* One swept axis: a key and its values. Keys: "gpu", "set:FIELD", "mode", "cache_control", "block_order". */
typedef struct sw_axis {
    char key[96];
    char **v;
    int n;
} sw_axis;

/* One program: a name (for the tables), its command template ({arg} is replaced by an argument; a token that is
 * exactly {arg} becomes the argument's white-space separated words) and its argument list (one "" when none). */
typedef struct sw_program {
    char *name;
    char **argv;
    int argc;
    char **args;
    int nargs;
} sw_program;

/* Slurm options (--slurm). */
typedef struct sw_slurm {
    int on;
    char partition[64];         /* "" = the cluster's default */
    char time[32];              /* per array task, sbatch --time ("" = default) */
    int cpus_per_task;          /* 0 = default (1) */
    int no_wait;                /* submit and return; `warpsim sweep --resume DIR` merges later */
    double poll_s;              /* seconds between squeue polls */
} sw_slurm;

/* A whole sweep. */
typedef struct sw_spec {
    char out[PATH_MAX];         /* absolute results folder */
    char cwd[PATH_MAX];         /* the folder the programs' paths are relative to */
    char exe[PATH_MAX];         /* this warpsim executable */
    sw_program *prog;
    int nprog;
    sw_axis axis[SW_MAX_AXES];
    int naxes;
    int jobs;                   /* parallel local points (0 = the cores) */
    int timeout_s;              /* per point (0 = none) */
    int baseline;               /* the point the speedups compare with */
    sw_slurm slurm;
} sw_spec;

/* One point of the cross product. */
typedef struct sw_point {
    int id;
    int prog, arg;
    int pick[SW_MAX_AXES];      /* value index per axis */
} sw_point;

/* sweep_spec.c: build the spec from the command line (argv[0] = "sweep"): SPEC.toml and options, or the plan of
 * --resume DIR (*resume = 1) or of the hidden --run-point DIR ID (*run_point_id = ID, else -1). 0, 1 after
 * --help, or -1 with the problem printed. */
int sw_spec_from_args(sw_spec *s, int argc, char **argv, int *resume, int *run_point_id);
/* Release what the spec holds. */
void sw_spec_free(sw_spec *s);
/* Number of points. */
int sw_spec_npoints(const sw_spec *s);
/* Point id of the cross product (programs, then arguments, then the axes in order, the last fastest). */
void sw_point_decode(const sw_spec *s, int id, sw_point *p);
/* The folder name of point id ("0007"). */
void sw_point_name(int id, char *out, size_t cap);
/* Check every device and every override combination before anything runs; 0, or -1 with the problem printed. */
int sw_spec_validate(const sw_spec *s);
/* Write OUT/sweep.json (the plan: programs, axes, options, the points); 0 on success. */
int sw_plan_write(const sw_spec *s);
/* Read OUT/sweep.json of folder dir (relative to s->cwd) back into s (the Slurm options already set in s are
 * kept); 0, or -1 with the problem printed. */
int sw_plan_read(sw_spec *s, const char *dir);

/* sweep_point.c: the argument vector of `warpsim run` for point p (NULL-terminated; free with sw_argv_free). */
char **sw_point_argv(const sw_spec *s, const sw_point *p);
/* Free an argument vector. */
void sw_argv_free(char **argv);
/* Run point id now, in this process's child: OUT/points/ID/{report.json, output.txt, status.json, done}; returns 0
 * when it passed, 1 when it failed (recorded), -1 when it could not be started or was interrupted (no marker). */
int sw_point_run(const sw_spec *s, int id);
/* Whether point id has its finished marker. */
int sw_point_finished(const sw_spec *s, int id);

/* sweep_local.c: run the points ids[0..n) with a pool of jobs child processes and a progress line on a terminal;
 * returns the number of failed points, or -1 when interrupted. */
int sw_local_run(const sw_spec *s, const int *ids, int n, int jobs);

/* sweep_slurm.c: write OUT/sweep.sbatch, submit the points ids[0..n) as a job array and wait for it (unless
 * no_wait); 0, or -1 with the problem printed. */
int sw_slurm_run(const sw_spec *s, const int *ids, int n);
/* For --resume: wait for the sweep's Slurm job (OUT/slurm.jobid) while squeue still lists it. */
void sw_slurm_wait_pending(const sw_spec *s);

/* sweep_merge.c: merge every point's report into OUT/results.csv, results.json and results.html; returns the
 * number of points that failed or did not run, or -1 when writing failed. */
int sw_merge(const sw_spec *s);

#endif
