/* sweep_point.c - one point of a sweep: its `warpsim run` command and its run into OUT/points/ID/ (report.json,
 * output.txt with the program's and warpsim's output, status.json, and the finished marker "done", written
 * last). The same code serves the local pool's children and the Slurm array tasks (--run-point). */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "paths.h"
#include "../report/json.h"

/* A growing argument vector. */
typedef struct argvec {
    char **v;
    int n, cap;
} argvec;

/* Append a copy of s. */
static void av_add(argvec *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        char **nv = realloc(a->v, (size_t)a->cap * sizeof *nv);
        if (!nv) exit(2);
        a->v = nv;
    }
    a->v[a->n] = strdup(s);
    if (!a->v[a->n]) exit(2);
    a->v[++a->n] = NULL;
}

/* Append the white-space separated words of s. */
static void av_words(argvec *a, const char *s)
{
    char *c = strdup(s), *save = NULL;
    if (!c) exit(2);
    for (char *t = strtok_r(c, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) av_add(a, t);
    free(c);
}

/* Append token t with every {arg} replaced by arg. */
static void av_subst(argvec *a, const char *t, const char *arg)
{
    size_t cap = strlen(t) + 1, n = 0;
    for (const char *p = strstr(t, "{arg}"); p; p = strstr(p + 5, "{arg}")) cap += strlen(arg);
    char *b = malloc(cap);
    if (!b) exit(2);
    for (const char *p = t; *p;) {
        if (!strncmp(p, "{arg}", 5)) {
            memcpy(b + n, arg, strlen(arg));
            n += strlen(arg);
            p += 5;
        } else
            b[n++] = *p++;
    }
    b[n] = 0;
    av_add(a, b);
    free(b);
}

/* The argument vector of `warpsim run` for point p. */
char **sw_point_argv(const sw_spec *s, const sw_point *p)
{
    argvec a = { 0 };
    char name[16], path[PATH_MAX + 64];
    sw_point_name(p->id, name, sizeof name);
    av_add(&a, s->exe);
    av_add(&a, "run");
    av_add(&a, "--report");
    snprintf(path, sizeof path, "%s/points/%s/report.json", s->out, name);
    av_add(&a, path);
    for (int i = 0; i < s->naxes; i++) {
        const char *k = s->axis[i].key, *v = s->axis[i].v[p->pick[i]];
        char buf[768];
        if (!strcmp(k, "gpu")) av_add(&a, "--gpu"), av_add(&a, v);
        else if (!strncmp(k, "set:", 4)) {
            snprintf(buf, sizeof buf, "%s=%s", k + 4, v);
            av_add(&a, "--set");
            av_add(&a, buf);
        } else {
            snprintf(buf, sizeof buf, "--%s=%s", !strcmp(k, "cache_control") ? "cache-control"
                                                 : !strcmp(k, "block_order") ? "block-order" : k, v);
            av_add(&a, buf);
        }
    }
    av_add(&a, "--");
    const sw_program *pr = &s->prog[p->prog];
    const char *arg = pr->args[p->arg];
    int used = 0;
    for (int i = 0; i < pr->argc; i++) {
        if (!strcmp(pr->argv[i], "{arg}")) av_words(&a, arg), used = 1;
        else if (strstr(pr->argv[i], "{arg}")) av_subst(&a, pr->argv[i], arg), used = 1;
        else av_add(&a, pr->argv[i]);
    }
    if (!used) av_words(&a, arg);
    return a.v;
}

/* Free an argument vector. */
void sw_argv_free(char **argv)
{
    for (int i = 0; argv && argv[i]; i++) free(argv[i]);
    free(argv);
}

/* The point's folder (and file, when file is not NULL). */
static void point_path(const sw_spec *s, int id, const char *file, char *out, size_t cap)
{
    char name[16];
    sw_point_name(id, name, sizeof name);
    snprintf(out, cap, "%s/points/%s%s%s", s->out, name, file ? "/" : "", file ? file : "");
}

/* Whether point id has its finished marker. */
int sw_point_finished(const sw_spec *s, int id)
{
    char path[PATH_MAX + 64];
    point_path(s, id, "done", path, sizeof path);
    return access(path, F_OK) == 0;
}

/* How often the wait loop looks at the running point (nanoseconds). */
enum { SW_POLL_NS = 5000000 };

/* Set by SIGTERM, SIGINT and SIGHUP while a point runs: stop it, leave no marker. */
static volatile sig_atomic_t g_stop;

/* Signal handler: ask the wait loop to stop. */
static void on_stop(int sig)
{
    (void)sig;
    g_stop = 1;
}

/* Seconds on the monotonic clock. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Write text to path through a temporary file and a rename; 0 on success. */
static int write_atomic(const char *path, const char *text)
{
    char tmp[PATH_MAX + 80];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    return bad || rename(tmp, path) ? -1 : 0;
}

/* Run point id now. */
int sw_point_run(const sw_spec *s, int id)
{
    char dir[PATH_MAX + 64], path[PATH_MAX + 64], name[16];
    sw_point_name(id, name, sizeof name);
    point_path(s, id, NULL, dir, sizeof dir);
    if (cli_mkdir_p(dir, 0777)) {
        fprintf(stderr, "warpsim sweep: cannot make %s: %s\n", dir, strerror(errno));
        return -1;
    }
    static const char *const stale[] = { "done", "status.json", "report.json" };
    for (size_t k = 0; k < sizeof stale / sizeof stale[0]; k++) {
        point_path(s, id, stale[k], path, sizeof path);
        unlink(path);
    }
    point_path(s, id, "output.txt", path, sizeof path);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (out < 0) {
        fprintf(stderr, "warpsim sweep: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    sw_point p;
    sw_point_decode(s, id, &p);
    char **argv = sw_point_argv(s, &p);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    double t0 = now_s();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpsim sweep: fork: %s\n", strerror(errno));
        close(out);
        sw_argv_free(argv);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);                  /* its own group: a timeout stops the program with warpsim */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0) dup2(in, 0);
        dup2(out, 1);
        dup2(out, 2);
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        if (chdir(s->cwd)) _exit(126);
        execv(argv[0], argv);
        fprintf(stderr, "warpsim sweep: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    sw_argv_free(argv);
    int st = 0, timed_out = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) break;
        if (g_stop) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            close(out);
            return -1;
        }
        if (s->timeout_s > 0 && now_s() - t0 > s->timeout_s) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            timed_out = 1;
            break;
        }
        struct timespec ts = { 0, SW_POLL_NS };
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL);                /* nothing the program started outlives its point */
    double secs = now_s() - t0;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1, sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    int passed = !timed_out && code == 0;
    char reason[128];
    if (timed_out) snprintf(reason, sizeof reason, "timed out after %d s", s->timeout_s);
    else if (sig) snprintf(reason, sizeof reason, "killed by signal %d (%s)", sig, strsignal(sig));
    else if (code == 128 + SIGSEGV || code == 128 + SIGABRT || code == 128 + SIGBUS || code == 128 + SIGFPE)
        snprintf(reason, sizeof reason, "crashed (exit code %d: signal %d, %s)", code, code - 128,
                 strsignal(code - 128));
    else if (code) snprintf(reason, sizeof reason, "exit code %d", code);
    else snprintf(reason, sizeof reason, "passed");
    if (!passed) dprintf(out, "\nwarpsim sweep: point %s failed: %s\n", name, reason);
    close(out);
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "id", name);
    ws_json_member_string(&w, "status", passed ? "passed" : "failed");
    ws_json_member_string(&w, "reason", reason);
    if (code >= 0) ws_json_member_int(&w, "exit_code", code);
    else ws_json_member_null(&w, "exit_code");
    ws_json_member_int(&w, "signal", sig);
    ws_json_member_bool(&w, "timed_out", timed_out);
    ws_json_member_double(&w, "host_seconds", secs, 3);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    ws_json_finish(&w);
    point_path(s, id, "status.json", path, sizeof path);
    int bad = write_atomic(path, ws_json_text(&w, NULL));
    ws_json_free(&w);
    point_path(s, id, "done", path, sizeof path);
    if (bad || write_atomic(path, passed ? "passed\n" : "failed\n")) {
        fprintf(stderr, "warpsim sweep: cannot write the status of point %s in %s\n", name, dir);
        return -1;
    }
    return passed ? 0 : 1;
}
