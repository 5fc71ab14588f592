/* run_cache.c - the compile cache of `warpsim run FILE.cu`, under the user's cache folder (paths.h):
 *   CACHE/run/KEY/NAME        the executable
 *   CACHE/run/KEY/NAME.deps   what it was built from: "SIZE MTIME_S MTIME_NS PATH" per line, written last
 * KEY hashes the source's path and contents, the flags, nvcc's resolved path and --version text, the host
 * compilers on PATH (gcc, g++), and NVCC_PREPEND_FLAGS, NVCC_APPEND_FLAGS and NVCC_CCBIN. An entry is reused while every file NAME.deps lists (the source and every
 * header nvcc -MD reported) keeps its size and modification time. A new build goes into a private temporary
 * folder inside KEY and is renamed into place, so concurrent runs never see a partial file. */
#include "run_cache.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CACHE_FORMAT "warpsim-run-cache 1"

/* The nvcc flags every FILE.cu is compiled with (part of the cache key). */
static const char *const g_flags[] = { "-cudart", "shared", "-lineinfo" };
#define N_FLAGS (sizeof g_flags / sizeof g_flags[0])

/* FNV-1a 64-bit hash of n bytes, continuing from h. */
static uint64_t rc_hash(const void *p, size_t n, uint64_t h)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Hash a string and its terminating NUL (so "ab","c" and "a","bc" differ); NULL counts as "". */
static uint64_t rc_hash_str(const char *s, uint64_t h)
{
    if (!s) s = "";
    return rc_hash(s, strlen(s) + 1, h);
}

/* Read a whole file into a malloc'd buffer (NUL-terminated); NULL with errno set on failure. */
static char *rc_read(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0) buf = NULL;
    else if (!S_ISREG(st.st_mode)) errno = EINVAL;
    else buf = malloc((size_t)st.st_size + 1);
    size_t n = 0;
    while (buf && n < (size_t)st.st_size) {
        ssize_t got = read(fd, buf + n, (size_t)st.st_size - n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (buf) buf[n] = 0;
    if (size) *size = n;
    return buf;
}

/* Find an executable on PATH (as execvp would); 0 with its path in out. */
static int rc_find_on_path(const char *name, char *out, size_t cap)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        const char *c = strchr(p, ':');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if ((size_t)snprintf(out, cap, "%.*s/%s", (int)n, n ? p : ".", name) < cap) {
            struct stat st;
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0) return 0;
        }
        if (!c) return -1;
        p = c + 1;
    }
}

/* Fold the host compilers nvcc would call (gcc and g++ on PATH: resolved path, size, mtime) into h, so that
 * switching or upgrading them starts a new cache entry. */
static uint64_t rc_hash_host_compilers(uint64_t h)
{
    static const char *const names[] = { "gcc", "g++" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[PATH_MAX], real[PATH_MAX];
        struct stat st;
        if (rc_find_on_path(names[i], path, sizeof path) != 0 || !realpath(path, real) || stat(real, &st) != 0) {
            h = rc_hash_str("-", h);
            continue;
        }
        long long v[3] = { (long long)st.st_size, (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec };
        h = rc_hash(v, sizeof v, rc_hash_str(real, h));
    }
    return h;
}

/* Run argv and wait; its exit status (128+N for signal N), or -1 when it could not start. With capture, its
 * stdout and stderr together go to *capture (malloc'd, NUL-terminated). */
static int rc_run(char *const argv[], char **capture)
{
    int fds[2] = { -1, -1 };
    if (capture) {
        *capture = NULL;
        if (pipe(fds)) return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        if (capture) {
            close(fds[0]);
            close(fds[1]);
        }
        return -1;
    }
    if (pid == 0) {
        if (capture) {
            dup2(fds[1], 1);
            dup2(fds[1], 2);
            close(fds[0]);
            close(fds[1]);
        }
        execv(argv[0], argv);
        fprintf(stderr, "warpsim run: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (capture) {
        close(fds[1]);
        size_t cap = 4096, n = 0;
        char *buf = malloc(cap);
        for (;;) {
            if (buf && cap - n < 1024) {
                char *nb = realloc(buf, cap * 2);
                if (!nb) free(buf);
                buf = nb;
                cap *= 2;
            }
            char sink[1024];
            ssize_t got = buf ? read(fds[0], buf + n, cap - n - 1) : read(fds[0], sink, sizeof sink);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            if (buf) n += (size_t)got;
        }
        close(fds[0]);
        if (buf) buf[n] = 0;
        *capture = buf;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Whether every file a NAME.deps manifest lists still has the recorded size and modification time. */
static int rc_deps_fresh(const char *manifest)
{
    char *text = rc_read(manifest, NULL);
    if (!text) return 0;
    int fresh = 1, lines = 0;
    for (char *line = text, *next; fresh && *line; line = next) {
        next = strchr(line, '\n');
        if (!next) { /* a manifest always ends with a newline; anything else is damaged */
            fresh = 0;
            break;
        }
        *next++ = 0;
        long long size, sec;
        long nsec;
        int at = 0;
        struct stat st;
        if (sscanf(line, "%lld %lld %ld %n", &size, &sec, &nsec, &at) != 3 || !line[at] ||
            stat(line + at, &st) != 0 || (long long)st.st_size != size || (long long)st.st_mtim.tv_sec != sec ||
            st.st_mtim.tv_nsec != nsec)
            fresh = 0;
        lines++;
    }
    free(text);
    return fresh && lines > 0;
}

/* Turn the make-style dependency file nvcc -MD wrote into a NAME.deps manifest at path out. Returns -1 (build
 * not cacheable) with the reason in why when a dependency is unreadable, has an unusable name, or changed
 * within a second before start or later (an edit during the build would go unseen by the size-and-time check). */
static int rc_write_manifest(const char *depfile, const char *out, time_t start, char *why, size_t whylen)
{
    char *text = rc_read(depfile, NULL);
    char cwd[PATH_MAX];
    FILE *f = NULL;
    if (!text || !getcwd(cwd, sizeof cwd) || !(f = fopen(out, "w"))) {
        snprintf(why, whylen, "no dependency list from nvcc -MD: %s", strerror(errno));
        free(text);
        return -1;
    }
    int rc = 0, past_target = 0, ndeps = 0;
    size_t cap = strlen(text) + 1, n = 0;
    char *tok = malloc(cap);
    for (const char *p = text; tok && rc == 0; p++) {
        int end = !*p || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
        if (*p == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) { /* line continuation */
            p += p[1] == '\r' ? 2 : 1;
            end = 1;
        } else if (*p == '\\' && (p[1] == ' ' || p[1] == '#')) {
            tok[n++] = *++p;
            continue;
        } else if (*p == '$' && p[1] == '$') {
            tok[n++] = *++p;
            continue;
        }
        if (!end) {
            tok[n++] = *p;
            continue;
        }
        if (n) {
            tok[n] = 0;
            if (!past_target) {
                past_target = tok[n - 1] == ':';
            } else {
                char abs[2 * PATH_MAX + 2];
                struct stat st;
                const char *bad = NULL;
                if ((size_t)snprintf(abs, sizeof abs, "%s%s%s", tok[0] == '/' ? "" : cwd, tok[0] == '/' ? "" : "/",
                                     tok) >= sizeof abs || strchr(abs, '\n'))
                    bad = "an unusable file name";
                else if (stat(abs, &st) != 0)
                    bad = "cannot be read";
                else if (st.st_mtim.tv_sec + 1 >= start) /* file times may be whole seconds */
                    bad = "changed within a second of the build (or is dated in the future)";
                else if (fprintf(f, "%lld %lld %ld %s\n", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                                 (long)st.st_mtim.tv_nsec, abs) < 0)
                    bad = "cannot write the manifest";
                if (bad) {
                    snprintf(why, whylen, "%.*s: %s", PATH_MAX, abs, bad);
                    rc = -1;
                }
                ndeps++;
            }
            n = 0;
        }
        if (!*p) break;
    }
    if (rc == 0 && (!tok || ndeps == 0)) {
        snprintf(why, whylen, "nvcc -MD listed no dependencies");
        rc = -1;
    }
    free(tok);
    free(text);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(why, whylen, "cannot write the manifest %s", out);
        rc = -1;
    }
    return rc;
}

/* Remove the files of a flat temporary folder (names given) and the folder itself. */
static void rc_remove_tmp(const char *dir, const char *const names[], int n)
{
    char path[PATH_MAX * 2];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* Compile FILE.cu into a fresh temporary folder when the cache folder is not usable (no reuse). */
static int rc_compile_uncached(const char *nvcc, const char *cu, const char *name, int quiet, char *out,
                               size_t cap)
{
    const char *t = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/warpsim-run-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "warpsim run: cannot create a folder for the compiled program in %s: %s\n",
                t && *t ? t : "/tmp", strerror(errno));
        return -1;
    }
    if ((size_t)snprintf(out, cap, "%s/%s", dir, name) >= cap) return -1;
    if (!quiet) fprintf(stderr, "warpsim: nvcc -cudart shared -lineinfo -o %s %s\n", out, cu);
    char *argv[] = { (char *)nvcc, "-cudart", "shared", "-lineinfo", "-o", out, (char *)cu, NULL };
    int rc = rc_run(argv, NULL);
    if (rc != 0) {
        fprintf(stderr, "warpsim run: nvcc failed to compile %s (exit %d)\n", cu, rc);
        return -1;
    }
    return 0;
}

/* Compile FILE.cu with nvcc into the user's cache folder, reusing an unchanged earlier build. */
int cli_compile_cu(const char *cu, int quiet, char *out, size_t cap)
{
    size_t srclen = 0;
    char *src = rc_read(cu, &srclen);
    char real_cu[PATH_MAX];
    if (!src || !realpath(cu, real_cu)) {
        fprintf(stderr, "warpsim run: cannot read %s: %s\n", cu, strerror(errno));
        free(src);
        return -1;
    }
    const char *base = strrchr(cu, '/');
    base = base ? base + 1 : cu;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - 3), base);
    if (!name[0]) snprintf(name, sizeof name, "program");

    char nvcc[PATH_MAX], real_nvcc[PATH_MAX];
    if (rc_find_on_path("nvcc", nvcc, sizeof nvcc) != 0 || !realpath(nvcc, real_nvcc)) {
        fprintf(stderr, "warpsim run: nvcc not found on PATH; install the CUDA toolkit or put its bin folder on "
                "PATH\n");
        free(src);
        return -1;
    }
    char *version = NULL;
    char *vargv[] = { nvcc, "--version", NULL };
    if (rc_run(vargv, &version) != 0 || !version) {
        fprintf(stderr, "warpsim run: %s --version failed%s%s\n", nvcc, version ? ": " : "", version ? version : "");
        free(version);
        free(src);
        return -1;
    }

    uint64_t h = rc_hash_str(CACHE_FORMAT, 1469598103934665603ull);
    for (size_t i = 0; i < N_FLAGS; i++) h = rc_hash_str(g_flags[i], h);
    h = rc_hash_str(real_nvcc, h);
    h = rc_hash_str(version, h);
    h = rc_hash_str(getenv("NVCC_PREPEND_FLAGS"), h);
    h = rc_hash_str(getenv("NVCC_APPEND_FLAGS"), h);
    h = rc_hash_str(getenv("NVCC_CCBIN"), h);
    h = rc_hash_host_compilers(h);
    h = rc_hash_str(real_cu, h);
    h = rc_hash_str(cu, h); /* -lineinfo records the path as given */
    h = rc_hash(src, srclen, h);
    free(version);
    free(src);

    char entry[PATH_MAX], err[PATH_MAX + 128];
    if (cli_cache_dir("run", entry, sizeof entry, err, sizeof err) != 0) {
        if (!quiet) fprintf(stderr, "warpsim: note: %s; compiling into a temporary folder\n", err);
        return rc_compile_uncached(nvcc, cu, name, quiet, out, cap);
    }
    size_t len = strlen(entry);
    if ((size_t)snprintf(entry + len, sizeof entry - len, "/%016llx", (unsigned long long)h) >= sizeof entry - len ||
        cli_mkdir_p(entry, 0700) != 0) {
        if (!quiet) fprintf(stderr, "warpsim: note: cannot create %s; compiling into a temporary folder\n", entry);
        return rc_compile_uncached(nvcc, cu, name, quiet, out, cap);
    }
    char manifest[PATH_MAX + 300];
    if ((size_t)snprintf(out, cap, "%s/%s", entry, name) >= cap ||
        (size_t)snprintf(manifest, sizeof manifest, "%s/%s.deps", entry, name) >= sizeof manifest) {
        fprintf(stderr, "warpsim run: the cache path for %s is too long\n", cu);
        return -1;
    }
    if (rc_deps_fresh(manifest) && access(out, X_OK) == 0) {
        if (!quiet) fprintf(stderr, "warpsim: %s is unchanged; running the cached build %s\n", cu, out);
        return 0;
    }

    char tmp[PATH_MAX], t_exe[PATH_MAX + 16], t_dep[PATH_MAX + 16], t_man[PATH_MAX + 16];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", entry) >= sizeof tmp || !mkdtemp(tmp)) {
        if (!quiet)
            fprintf(stderr, "warpsim: note: cannot write in %s (%s); compiling into a temporary folder\n", entry,
                    strerror(errno));
        return rc_compile_uncached(nvcc, cu, name, quiet, out, cap);
    }
    static const char *const tmp_names[] = { "a.out", "a.d", "a.deps" };
    snprintf(t_exe, sizeof t_exe, "%s/%s", tmp, tmp_names[0]);
    snprintf(t_dep, sizeof t_dep, "%s/%s", tmp, tmp_names[1]);
    snprintf(t_man, sizeof t_man, "%s/%s", tmp, tmp_names[2]);
    if (!quiet) fprintf(stderr, "warpsim: nvcc -cudart shared -lineinfo -o %s %s\n", out, cu);
    time_t start = time(NULL);
    char *argv[] = { nvcc, "-cudart", "shared", "-lineinfo", "-MD", "-MF", t_dep, "-o", t_exe, (char *)cu, NULL };
    int rc = rc_run(argv, NULL);
    if (rc != 0) {
        rc_remove_tmp(tmp, tmp_names, 3);
        rmdir(entry); /* only when no earlier build lives there */
        fprintf(stderr, "warpsim run: nvcc failed to compile %s (exit %d)\n", cu, rc);
        return -1;
    }
    /* the executable first, the manifest that makes the entry valid last */
    char why[PATH_MAX + 128] = "";
    int cacheable = rc_write_manifest(t_dep, t_man, start, why, sizeof why) == 0;
    if (rename(t_exe, out) != 0) {
        fprintf(stderr, "warpsim run: cannot move the compiled program to %s: %s\n", out, strerror(errno));
        rc_remove_tmp(tmp, tmp_names, 3);
        return -1;
    }
    if (cacheable && rename(t_man, manifest) != 0) {
        snprintf(why, sizeof why, "cannot rename the manifest into %s: %s", entry, strerror(errno));
        cacheable = 0;
    }
    if (!cacheable) {
        unlink(manifest); /* rebuilt next time */
        if (!quiet) fprintf(stderr, "warpsim: note: this build of %s will not be reused: %s\n", cu, why);
    }
    rc_remove_tmp(tmp, tmp_names, 3);
    return 0;
}
