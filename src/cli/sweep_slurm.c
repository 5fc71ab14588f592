/* sweep_slurm.c - a sweep as a Slurm job array: OUT/sweep.sbatch (one array task per point, each running the
 * hidden `warpsim sweep --run-point OUT ID`), submitted with sbatch, then squeue polled until the job has left
 * the queue. The job id is kept in OUT/slurm.jobid, so that --resume first waits for a job still queued. */
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Write s as a single-quoted shell word. */
static void shell_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

/* The ids as a Slurm array list with ranges ("0-23", "3,5-7"), into a new string. */
static char *array_list(const int *ids, int n)
{
    size_t cap = (size_t)n * 16 + 16, len = 0;
    char *b = malloc(cap);
    if (!b) return NULL;
    b[0] = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ids[j + 1] == ids[j] + 1) j++;
        len += (size_t)snprintf(b + len, cap - len, "%s%d", i ? "," : "", ids[i]);
        if (j > i) len += (size_t)snprintf(b + len, cap - len, "-%d", ids[j]);
        i = j + 1;
    }
    return b;
}

/* What squeue says of a job. */
enum { JOB_GONE, JOB_QUEUED, JOB_UNKNOWN };

/* Ask squeue whether job is still pending or running: JOB_QUEUED, JOB_GONE (not listed, or an invalid job id: it
 * finished and was purged), or JOB_UNKNOWN (squeue failed otherwise, e.g. the controller did not answer). */
static int job_state(const char *job)
{
    char cmd[256], line[512];
    snprintf(cmd, sizeof cmd, "squeue -h -j %s -o %%i 2>&1", job);
    FILE *p = popen(cmd, "r");
    if (!p) return JOB_UNKNOWN;
    int listed = 0, invalid = 0;
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, "Invalid job id")) invalid = 1;
        else if (!strncmp(line, job, strlen(job))) listed = 1;
    }
    int st = pclose(p);
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (invalid || (ok && !listed)) return JOB_GONE;
    return ok ? JOB_QUEUED : JOB_UNKNOWN;
}

/* Whether job is still queued; a squeue that keeps failing (about a minute) counts as gone. */
static int job_queued(const char *job, double poll_s)
{
    for (int tries = 0;; tries++) {
        int st = job_state(job);
        if (st != JOB_UNKNOWN) return st == JOB_QUEUED;
        if ((double)tries * poll_s > 60) {
            fprintf(stderr, "warpsim sweep: squeue keeps failing for job %s; merging what finished\n", job);
            return 0;
        }
        struct timespec ts = { (time_t)poll_s, (long)((poll_s - (double)(time_t)poll_s) * 1e9) };
        nanosleep(&ts, NULL);
    }
}

/* Sleep for seconds. */
static void nap(double seconds)
{
    struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
    nanosleep(&ts, NULL);
}

/* Wait until job has left the queue, with a progress line on a terminal. */
static void wait_job(const sw_spec *s, const char *job, const int *ids, int n)
{
    int tty = isatty(2);
    while (job_queued(job, s->slurm.poll_s > 0 ? s->slurm.poll_s : 1.0)) {
        if (tty) {
            int done = 0;
            for (int i = 0; i < n; i++) done += sw_point_finished(s, ids[i]);
            fprintf(stderr, "\r\033[KSlurm job %s: %d/%d points done", job, done, n);
        }
        nap(s->slurm.poll_s > 0 ? s->slurm.poll_s : 1.0);
    }
    if (tty) fprintf(stderr, "\r\033[KSlurm job %s: finished\n", job);
}

/* The job id kept in OUT/slurm.jobid (out: cap bytes); 0 when there is one. */
static int read_jobid(const sw_spec *s, char *out, size_t cap)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/slurm.jobid", s->out);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int ok = fgets(out, (int)cap, f) != NULL;
    fclose(f);
    out[strcspn(out, "\n")] = 0;
    return ok && out[0] ? 0 : -1;
}

/* For --resume: wait for the sweep's Slurm job when it is still queued. */
void sw_slurm_wait_pending(const sw_spec *s)
{
    char job[64];
    if (read_jobid(s, job, sizeof job) || job_state(job) != JOB_QUEUED) return;
    fprintf(stderr, "warpsim sweep: waiting for Slurm job %s of this sweep\n", job);
    int n = sw_spec_npoints(s);
    int *ids = malloc((size_t)n * sizeof *ids);
    if (!ids) return;
    for (int i = 0; i < n; i++) ids[i] = i;
    wait_job(s, job, ids, n);
    free(ids);
}

/* Write the job script, submit it and wait. */
int sw_slurm_run(const sw_spec *s, const int *ids, int n)
{
    char path[PATH_MAX + 32], cmd[PATH_MAX + 256];
    char *list = array_list(ids, n);
    if (!list) return -1;
    snprintf(path, sizeof path, "%s/sweep.sbatch", s->out);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warpsim sweep: cannot write %s: %s\n", path, strerror(errno));
        free(list);
        return -1;
    }
    fprintf(f, "#!/bin/sh\n# warpsim sweep: one array task per point (submitted as: sbatch --array=%s %s)\n", list, path);
    fprintf(f, "#SBATCH --job-name=warpsim-sweep\n#SBATCH --array=%s\n", list);
    fprintf(f, "#SBATCH --output=%s/points/slurm-%%A_%%a.out\n#SBATCH --chdir=%s\n", s->out, s->cwd);
    if (s->slurm.partition[0]) fprintf(f, "#SBATCH --partition=%s\n", s->slurm.partition);
    if (s->slurm.time[0]) fprintf(f, "#SBATCH --time=%s\n", s->slurm.time);
    if (s->slurm.cpus_per_task > 0) fprintf(f, "#SBATCH --cpus-per-task=%d\n", s->slurm.cpus_per_task);
    fprintf(f, "exec ");
    shell_quote(f, s->exe);
    fprintf(f, " sweep --run-point ");
    shell_quote(f, s->out);
    fprintf(f, " \"$SLURM_ARRAY_TASK_ID\"\n");
    if (fclose(f)) {
        free(list);
        return -1;
    }
    char pdir[PATH_MAX + 16];
    snprintf(pdir, sizeof pdir, "%s/points", s->out);
    mkdir(pdir, 0777);
    snprintf(cmd, sizeof cmd, "sbatch --parsable --array=%s '%s'", list, path);
    free(list);
    FILE *p = popen(cmd, "r");
    char line[256] = "";
    if (!p || !fgets(line, sizeof line, p)) {
        if (p) pclose(p);
        fprintf(stderr, "warpsim sweep: sbatch failed (is Slurm installed and running?): %s\n", cmd);
        return -1;
    }
    int st = pclose(p);
    line[strcspn(line, ";\n")] = 0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !line[0]) {
        fprintf(stderr, "warpsim sweep: sbatch failed: %s\n", cmd);
        return -1;
    }
    snprintf(path, sizeof path, "%s/slurm.jobid", s->out);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", line);
        fclose(f);
    }
    fprintf(stderr, "warpsim sweep: submitted Slurm job %s (%d array tasks)\n", line, n);
    if (s->slurm.no_wait) return 0;
    wait_job(s, line, ids, n);
    return 0;
}
