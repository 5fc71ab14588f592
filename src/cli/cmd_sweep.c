/* cmd_sweep.c - `warpsim sweep`: a design-space sweep (sweep.h) run locally or through Slurm, then merged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sweep.h"

/* warpsim sweep [SPEC.toml] [options] [-- PROGRAM ARGS...] | --resume DIR | --run-point DIR ID */
int cli_sweep(int argc, char **argv)
{
    sw_spec s;
    int resume = 0, run_point = -1;
    int rc = sw_spec_from_args(&s, argc, argv, &resume, &run_point);
    if (rc) {
        sw_spec_free(&s);
        return rc > 0 ? 0 : 2;
    }
    int n = sw_spec_npoints(&s);
    if (run_point >= 0) {
        /* one Slurm array task */
        if (run_point >= n) {
            fprintf(stderr, "warpsim sweep: --run-point: no point %d (the points are 0..%d)\n", run_point, n - 1);
            sw_spec_free(&s);
            return 2;
        }
        rc = sw_point_run(&s, run_point);
        sw_spec_free(&s);
        return rc < 0 ? 2 : rc;
    }
    if (!resume) {
        char plan[PATH_MAX + 32];
        snprintf(plan, sizeof plan, "%s/sweep.json", s.out);
        if (access(plan, F_OK) == 0) {
            fprintf(stderr, "warpsim sweep: %s already holds a sweep: finish it with --resume %s, or choose another "
                    "--out\n", s.out, s.out);
            sw_spec_free(&s);
            return 2;
        }
        if (sw_spec_validate(&s) || sw_plan_write(&s)) {
            sw_spec_free(&s);
            return 2;
        }
    } else
        sw_slurm_wait_pending(&s);   /* a job of --slurm --no-wait may still be running the points */
    int *ids = malloc((size_t)(n ? n : 1) * sizeof *ids), k = 0;
    if (!ids) return 2;
    for (int id = 0; id < n; id++)
        if (!sw_point_finished(&s, id)) ids[k++] = id;
    fprintf(stderr, "warpsim sweep: %d points, %d finished, %d to run%s\n", n, n - k, k,
            !k ? "" : s.slurm.on ? " as a Slurm job array" : " here");
    if (k && s.slurm.on) {
        if (sw_slurm_run(&s, ids, k)) rc = 2;
        else if (s.slurm.no_wait) {
            fprintf(stderr, "warpsim sweep: not waiting; `warpsim sweep --resume %s` merges the results once the job "
                    "is done\n", s.out);
            free(ids);
            sw_spec_free(&s);
            return 0;
        }
    } else if (k) {
        int jobs = s.jobs;
        int failed = sw_local_run(&s, ids, k, jobs);
        if (failed < 0) {
            fprintf(stderr, "warpsim sweep: interrupted; `warpsim sweep --resume %s` runs the unfinished points\n",
                    s.out);
            free(ids);
            sw_spec_free(&s);
            return 130;
        }
    }
    free(ids);
    if (rc) {
        sw_spec_free(&s);
        return rc;
    }
    int bad = sw_merge(&s);
    if (bad >= 0)
        fprintf(stderr, "warpsim sweep: %d of %d points passed; results in %s/results.{csv,json,html}\n", n - bad, n,
                s.out);
    sw_spec_free(&s);
    return bad < 0 ? 2 : bad > 0 ? 1 : 0;
}
