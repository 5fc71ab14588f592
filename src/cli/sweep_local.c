/* sweep_local.c - the local process pool of a sweep: up to N points at once, each in a child process that runs
 * sw_point_run, and a one-line progress bar on a terminal (points done, running, failed, ETA). */
#include "sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Set by SIGINT, SIGTERM and SIGHUP: stop the running points and return. */
static volatile sig_atomic_t g_interrupted;

/* Signal handler of the pool. */
static void on_signal(int sig)
{
    (void)sig;
    g_interrupted = 1;
}

/* Seconds on the monotonic clock. */
static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Draw the progress line: a bar, done/total, running, failed and the estimated time left. */
static void progress(int done, int total, int running, int failed, double elapsed)
{
    char bar[41];
    int w = 30, fill = total ? done * w / total : w;
    for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
    bar[w] = 0;
    char eta[32] = "--";
    if (done > 0 && done < total) {
        double left = elapsed / done * (total - done);
        snprintf(eta, sizeof eta, "%dm%02ds", (int)left / 60, (int)left % 60);
    } else if (done == total)
        snprintf(eta, sizeof eta, "0s");
    fprintf(stderr, "\r\033[K[%s] %d/%d done, %d running, %d failed, ETA %s", bar, done, total, running, failed, eta);
    fflush(stderr);
}

/* Run the points with a pool of child processes. */
int sw_local_run(const sw_spec *s, const int *ids, int n, int jobs)
{
    if (jobs <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = c > 0 ? (int)c : 1;
    }
    pid_t *slot = calloc((size_t)jobs, sizeof *slot);
    if (!slot) return -1;
    struct sigaction sa, old_int, old_term, old_hup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    int tty = isatty(2), next = 0, done = 0, failed = 0, running = 0;
    double t0 = mono_s();
    pid_t parent = getpid();
    if (tty) progress(0, n, 0, 0, 0);
    while ((next < n || running) && !g_interrupted) {
        while (next < n && running < jobs && !g_interrupted) {
            int k = 0;
            while (slot[k]) k++;
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) {
                fprintf(stderr, "warpsim sweep: fork: %s\n", strerror(errno));
                g_interrupted = 1;
                break;
            }
            if (pid == 0) {
                /* if the pool dies (even by SIGKILL), its points stop too and leave no marker for --resume */
                prctl(PR_SET_PDEATHSIG, SIGTERM);
                if (getppid() != parent) _exit(2);
                signal(SIGINT, SIG_DFL);
                signal(SIGTERM, SIG_DFL);
                signal(SIGHUP, SIG_DFL);
                int rc = sw_point_run(s, ids[next]);
                _exit(rc < 0 ? 2 : rc);
            }
            slot[k] = pid;
            next++;
            running++;
        }
        if (tty) progress(done, n, running, failed, mono_s() - t0);
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int k = 0; k < jobs; k++)
            if (slot[k] == pid) {
                slot[k] = 0;
                running--;
                done++;
                if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) failed++;
            }
    }
    if (g_interrupted) {
        for (int k = 0; k < jobs; k++)
            if (slot[k]) kill(slot[k], SIGTERM);
        for (int k = 0; k < jobs; k++)
            if (slot[k]) waitpid(slot[k], NULL, 0);
    }
    if (tty) {
        progress(done, n, 0, failed, mono_s() - t0);
        fputc('\n', stderr);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    free(slot);
    return g_interrupted ? -1 : failed;
}
