/* run_timeline.c - the host-timeline options of `warpsim run` (run_timeline.h). The timeline itself is recorded
 * inside the program by warpsim's libcudart (src/host/hs_timeline.c) and written when it exits. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_timeline.h"

/* Defaults. */
void cli_tl_init(cli_tl_opts *o) { memset(o, 0, sizeof *o); }

/* Usage lines. */
void cli_tl_usage(FILE *f)
{
    fprintf(f,
        "  --trace FILE.json       write a Chrome trace of the run at exit (Perfetto, chrome://tracing): API calls\n"
        "                          and NVTX ranges per host thread, kernels and copies per stream, and in timing\n"
        "                          mode the blocks on every SM; times are simulated in timing mode, else wall time\n"
        "  --stats[=FILE]          print nsys-style summaries at exit (CUDA API, GPU kernels, memory operations by\n"
        "                          time and size, NVTX ranges) on stderr, or into FILE (- for stdout)\n");
}

/* Take one option at argv[*i]. */
int cli_tl_option(int argc, char **argv, int *i, cli_tl_opts *o)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--stats")) { o->stats = "1"; return 1; }
    if (!strncmp(a, "--stats=", 8)) {
        if (!a[8]) {
            fprintf(stderr, "warpsim run: --stats=: expected a file name (or - for stdout)\n");
            return -1;
        }
        o->stats = a + 8;
        return 1;
    }
    if (strncmp(a, "--trace", 7) || (a[7] && a[7] != '=')) return 0;
    const char *v = a[7] == '=' ? a + 8 : NULL;
    if (!v) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "warpsim run: --trace needs a file name\n");
            return -1;
        }
        v = argv[++*i];
    }
    if (!*v) {
        fprintf(stderr, "warpsim run: --trace: expected a file name\n");
        return -1;
    }
    o->trace = v;
    return 1;
}

/* path made absolute into buf (relative to the current folder); path itself when that fails. */
static const char *absolute(const char *path, char *buf, size_t cap)
{
    if (path[0] == '/') return path;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) || (size_t)snprintf(buf, cap, "%s/%s", cwd, path) >= cap) return path;
    return buf;
}

/* Put the options into the environment. */
int cli_tl_env(cli_tl_opts *o, const char *libdir)
{
    char lib[PATH_MAX + 32];
    int bad = 0;
    if (o->trace) {
        const char *t = absolute(o->trace, o->trace_abs, sizeof o->trace_abs);
        unlink(t);   /* a stale trace must not pass for this run's */
        bad |= setenv("WARPSIM_TRACE_FILE", t, 1);
    }
    if (o->stats) {
        int file = strcmp(o->stats, "1") && strcmp(o->stats, "-");
        bad |= setenv("WARPSIM_STATS", file ? absolute(o->stats, o->stats_abs, sizeof o->stats_abs) : o->stats, 1);
    }
    /* NVTX finds its tool through this variable: warpsim's runtime, which declines unless the timeline records */
    const char *nvtx = getenv("NVTX_INJECTION64_PATH");
    if (!nvtx || !*nvtx) {
        if ((size_t)snprintf(lib, sizeof lib, "%s/libcudart.so.13", libdir) < sizeof lib)
            bad |= setenv("NVTX_INJECTION64_PATH", lib, 1);
    } else if (o->trace || o->stats) {
        fprintf(stderr, "warpsim: note: NVTX_INJECTION64_PATH is set (%s); the program's NVTX ranges go there, not "
                "to warpsim's timeline\n", nvtx);
    }
    if (bad) {
        fprintf(stderr, "warpsim run: cannot set up the environment\n");
        return 2;
    }
    return 0;
}
