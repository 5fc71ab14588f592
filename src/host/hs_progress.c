/* hs_progress.c - the progress line of long launches (part of the host session): when stderr is a terminal and a
 * launch has run for more than 2 seconds, one line on stderr, rewritten about 4 times a second: the kernel, blocks
 * done of the grid's, the simulated cycle (timing mode), warp instructions per second and the seconds so far;
 * erased when the launch ends. Nothing when stderr is not a terminal, under --quiet (WARPSIM_QUIET) or with
 * WARPSIM_PROGRESS=0. WARPSIM_PROGRESS_DELAY=SECONDS changes the 2 seconds (the tests use a shorter delay).
 *
 * The engines report progress through ws_gpu_set_progress (src/core/sim.h) when they get to it (the functional
 * engine when a block finishes, the timing engine every few thousand cycles), so a small thread, started with the
 * first launch and asleep between launches, writes the line on time with the latest figures. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "hs_internal.h"

#define PROGRESS_DELAY 2.0       /* seconds a launch runs before the line appears */
#define PROGRESS_PERIOD 0.25     /* seconds between updates */

static int wanted = -1;          /* -1: not decided yet */
static double delay = PROGRESS_DELAY;   /* seconds before the line appears (WARPSIM_PROGRESS_DELAY) */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv;        /* wakes the thread: a launch began or ended */
static int thread_up;            /* the writer thread runs */
static int active;               /* a launch is running */
static int shown;                /* the line is on the terminal */
static double started;           /* the launch's start (CLOCK_MONOTONIC seconds) */
static const char *kernel;       /* the running kernel (mangled) */
static uint64_t done, total, cycle, insts;   /* its latest progress */
static const char *named;        /* kernel whose short name is cached */
static char short_name[128];

/* Monotonic seconds. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether this process shows a progress line (decided once). */
static int progress_wanted(void)
{
    if (wanted < 0) {
        const char *p = getenv("WARPSIM_PROGRESS");
        wanted = !(p && !strcmp(p, "0")) && !ws_hs_quiet() && isatty(STDERR_FILENO) && ws_hs_root_process();
        const char *d = getenv("WARPSIM_PROGRESS_DELAY");
        char *end;
        double v = d && *d ? strtod(d, &end) : -1;
        if (d && *d && !*end && v >= 0 && v <= 3600) delay = v;
    }
    return wanted;
}

/* Width of the terminal on stderr (80 when unknown). */
static int term_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) return ws.ws_col;
    return 80;
}

/* A rate with a unit prefix ("12.3 M"). */
static void scaled(char *buf, size_t cap, double v)
{
    if (v >= 1e9) snprintf(buf, cap, "%.2f G", v / 1e9);
    else if (v >= 1e6) snprintf(buf, cap, "%.2f M", v / 1e6);
    else if (v >= 1e3) snprintf(buf, cap, "%.1f k", v / 1e3);
    else snprintf(buf, cap, "%.0f ", v);
}

/* Write the line with the latest figures (under mu). */
static void draw(double now)
{
    if (kernel != named) {
        ws_rep_kernel_short_name(kernel, short_name, sizeof short_name);
        named = kernel;
    }
    char line[512], rate[32], cyc[64] = "", ins[64] = "";
    double secs = now - started;
    if (cycle) snprintf(cyc, sizeof cyc, ", cycle %llu", (unsigned long long)cycle);
    if (insts) {
        scaled(rate, sizeof rate, secs > 0 ? (double)insts / secs : 0);
        snprintf(ins, sizeof ins, ", %swarp-insts/s", rate);
    }
    int n = snprintf(line, sizeof line, "warpsim: %s: %llu/%llu blocks%s%s, %.0f s", short_name,
                     (unsigned long long)done, (unsigned long long)total, cyc, ins, secs);
    int width = term_width() - 1;
    if (n > width) line[width > 0 ? width : 0] = 0;
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    shown = 1;
}

/* The writer thread: asleep between launches; during one, redraws the line every period once it is due. */
static void *writer(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);   /* signals are the program's threads' business */
    pthread_mutex_lock(&mu);
    for (;;) {
        while (!active) pthread_cond_wait(&cv, &mu);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += (long)(PROGRESS_PERIOD * 1e9);
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&cv, &mu, &until);
        double now = now_s();
        if (active && now - started >= delay) draw(now);
    }
    return NULL;
}

/* The engines' progress callback: keep the latest figures for the writer. */
static void progress_cb(void *ctx, const char *k, uint64_t d, uint64_t t, uint64_t c, uint64_t w)
{
    (void)ctx;
    pthread_mutex_lock(&mu);
    kernel = k, done = d, total = t, cycle = c, insts = w;
    pthread_mutex_unlock(&mu);
}

/* Start the writer thread (once); 0 when it could not be started (then no line is shown). */
static int start_writer(void)
{
    if (thread_up) return 1;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t th;
    if (pthread_create(&th, NULL, writer, NULL) != 0) {
        wanted = 0;
        return 0;
    }
    pthread_detach(th);
    thread_up = 1;
    return 1;
}

/* A new simulated GPU: install the callback when this process shows progress. */
void ws_hs_progress_install(ws_gpu *g)
{
    if (progress_wanted()) ws_gpu_set_progress(g, progress_cb, NULL);
}

/* A launch of kernel k over `blocks` blocks starts. */
void ws_hs_progress_begin(const char *k, uint64_t blocks)
{
    if (wanted != 1 || !start_writer()) return;
    pthread_mutex_lock(&mu);
    kernel = k, done = 0, total = blocks, cycle = 0, insts = 0;
    started = now_s();
    active = 1;
    shown = 0;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
}

/* A launch ended: erase the line if it was shown. */
void ws_hs_progress_end(void)
{
    if (wanted != 1 || !thread_up) return;
    pthread_mutex_lock(&mu);
    active = 0;
    if (shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        shown = 0;
    }
    pthread_mutex_unlock(&mu);
}
