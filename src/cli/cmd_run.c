/* cmd_run.c - `warpsim run`: run an unmodified CUDA program (built with nvcc -cudart shared) on the simulated
 * GPU by starting it with warpsim's libcudart.so.13 and libcuda.so.1 (the driver API) in front of NVIDIA's.
 * Options reach the runtime through the environment: WARPSIM_GPU, WARPSIM_GPUS, WARPSIM_REPORT, WARPSIM_BLOCK_ORDER, WARPSIM_SIMT, WARPSIM_QUIET, WARPSIM_ROOT_PID, WARPSIM_THREADS,
 * WARPSIM_DEVICES (the preset folder this process uses, so the program's runtime reads the same presets), and
 * those of the checking options (run_check.h) and of the host timeline's (run_timeline.h); libraries the program
 * opens while it runs (Python modules) get libwarpsim_preload.so and CuPy's settings (run_libs.h). */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "paths.h"
#include "run_cache.h"
#include "run_check.h"
#include "run_libs.h"
#include "run_set.h"
#include "run_view.h"
#include "run_timeline.h"
#include "../device/device.h"

#define MAX_PRESETS 256

/* Print the usage of `warpsim run`. */
static void run_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim run [options] [--] PROGRAM|FILE.cu [args...]\n"
        "  --gpu NAME              device preset to simulate (default h200; `warpsim devices` lists them)\n"
        "  --gpus N|NAME,NAME,...  several simulated devices (up to 16): N of --gpu's preset, or one per preset named\n"
        "                          (e.g. --gpus h200,h200,a100); device i is cudaSetDevice(i); peer copies take the\n"
        "                          presets' peer_link_gbs (sets WARPSIM_GPUS)\n"
        "  --report FILE.json      write per-launch counts (instructions, grid, block, time) as JSON at exit\n"
        "  --block-order=random:SEED  run the blocks of every launch in a shuffled order\n"
        "  --quiet                 no warpsim messages (fault descriptions, compile notes, timing summary)\n"
        "  --timing, --mode=timing run the cycle-approximate timing model (adds Nsight Compute metrics to --report\n"
        "                          and prints a summary per kernel at exit); --mode=functional is the default\n"
        "  --cache-control all|none  flush L1/L2 before every launch (all, Nsight Compute's default) or keep them\n"
        "  --simt=its|stack        independent thread scheduling (its, sm_70+, the default: a lane spinning on a lock\n"
        "                          its warp's other lanes hold lets them run; __syncwarp waits for its lanes) or the\n"
        "                          pre-Volta reconvergence stack (divergent paths run one after the other)\n"
        "  --threads N             timing mode: simulate the SMs on N threads (default: the cores; results are\n"
        "                          bit-identical at any N; sets WARPSIM_THREADS)\n");
    cli_set_usage(f);
    cli_check_usage(f);
    cli_view_usage(f);
    cli_tl_usage(f);
    fprintf(f,
        "PROGRAM is linked with the shared CUDA runtime (nvcc -cudart shared ...), with the static one (nvcc's\n"
        "default; not stripped: its symbol table shows where the runtime's functions are), or uses only the driver\n"
        "API (linked with -lcuda), or is an interpreter (python3 app.py) whose modules open CUDA while it runs: their\n"
        "CUDA runtime, even one linked into them statically (CuPy), is warpsim's, and CuPy runs with\n"
        "CUPY_COMPILE_WITH_PTX=1 and CUPY_ACCELERATORS= (PTX kernels, no CUB) unless they are set;\n"
        "FILE.cu is first compiled with nvcc -cudart shared -lineinfo into $XDG_CACHE_HOME/warpsim/run/\n"
        "(default ~/.cache/warpsim/run/); an unchanged source (headers and nvcc included) is not recompiled.\n");
}

/* Whether s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void unknown_gpu(const char *name, const char *err);

/* Check --gpus (a count from 1 to 16, or preset names separated by commas) against --gpu, --set and --check;
 * the number of devices, or 0 after a message. */
static int check_gpus(const char *spec, const char *gpu, int nsets, int checking)
{
    char err[1024] = "";
    int n = 0;
    const char *p = spec;
    while (*p >= '0' && *p <= '9') p++;
    if (p != spec && !*p) {
        long v = strtol(spec, NULL, 10);
        if (v < 1 || v > 16) {
            fprintf(stderr, "warpsim run: --gpus=%s: expected 1 to 16 devices\n", spec);
            return 0;
        }
        n = (int)v;
    } else {
        if (gpu) {
            fprintf(stderr, "warpsim run: --gpus=%s names the presets; leave out --gpu, or give --gpus a count\n", spec);
            return 0;
        }
        if (nsets) {
            fprintf(stderr, "warpsim run: --set changes --gpu's preset; with it give --gpus a count, not a list\n");
            return 0;
        }
        for (const char *s = spec;; n++) {
            const char *c = strchr(s, ',');
            size_t len = c ? (size_t)(c - s) : strlen(s);
            char name[128];
            if (!len || len >= sizeof name || n == 16) {
                fprintf(stderr, "warpsim run: --gpus=%s: expected a count or up to 16 preset names separated by "
                        "commas (e.g. --gpus h200,a100)\n", spec);
                return 0;
            }
            memcpy(name, s, len);
            name[len] = 0;
            if (!ws_device_get(name, err, sizeof err)) {
                unknown_gpu(name, err);
                return 0;
            }
            if (!c) { n++; break; }
            s = c + 1;
        }
    }
    if (n > 1 && checking) {
        fprintf(stderr, "warpsim run: --check runs on one device; leave out --gpus (or use --gpus 1)\n");
        return 0;
    }
    return n;
}

/* Print the unknown-device error with the list of presets. */
static void unknown_gpu(const char *name, const char *err)
{
    fprintf(stderr, "warpsim run: unknown GPU '%s': %s\n", name, err);
    static char names[MAX_PRESETS][64];
    int n = ws_device_list(names, MAX_PRESETS);
    fprintf(stderr, "available presets (%s):", ws_device_dir());
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", names[i]);
    fprintf(stderr, "%s\n", n ? "" : " none found");
}

/* Check a --block-order value: random:SEED (decimal or 0x hex). */
static int valid_block_order(const char *v)
{
    if (strncmp(v, "random:", 7) != 0 || !v[7]) return 0;
    char *end;
    errno = 0;
    (void)strtoull(v + 7, &end, 0);
    return errno == 0 && *end == 0;
}

/* Check a --threads value: a decimal number from 1 to 4096. */
static int valid_threads(const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    return errno == 0 && *v && *end == 0 && n >= 1 && n <= 4096;
}

/* Read a whole file; NULL on failure. */
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    unsigned char *buf = malloc(n ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* What the ELF check found. */
enum { ELF_NOT_ELF, ELF_SHARED_CUDART, ELF_OTHER_CUDART, ELF_STATIC_CUDA, ELF_STATIC_REDIRECT, ELF_DRIVER_API,
       ELF_NO_CUDA };

/* The names NVIDIA's static CUDA runtime gives its private functions: in a program's symbol table they show that
 * libwarpsim_preload.so can send its cuda* functions to warpsim's runtime (src/preload). */
static const char static_marker[] = "libcudart_static_";

/* Inspect an executable: which libcudart it needs (name of an unsupported one in other), whether it holds
 * CUDA device code. */
static int inspect_elf(const char *path, char *other, size_t othercap)
{
    size_t size = 0;
    unsigned char *img = slurp(path, &size);
    if (!img) return ELF_NOT_ELF;
    int result = ELF_NOT_ELF;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (size < sizeof *eh || memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize < sizeof(Elf64_Shdr) || eh->e_shoff > size ||
        (uint64_t)eh->e_shnum * eh->e_shentsize > size - eh->e_shoff || eh->e_shstrndx >= eh->e_shnum) {
        free(img);
        return ELF_NOT_ELF;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    const Elf64_Shdr *shstr = &sh[eh->e_shstrndx];
    int has_fatbin = 0, shared = 0, other_rt = 0, driver = 0, symtab_static = 0;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < eh->e_shnum) {
            const Elf64_Shdr *st = &sh[sh[i].sh_link];
            if (st->sh_offset <= size && st->sh_size <= size - st->sh_offset &&
                memmem(img + st->sh_offset, st->sh_size, static_marker, sizeof static_marker - 1))
                symtab_static = 1;
        }
        if (shstr->sh_offset < size && sh[i].sh_name < size - shstr->sh_offset) {
            const char *nm = (const char *)img + shstr->sh_offset + sh[i].sh_name;
            size_t room = size - shstr->sh_offset - sh[i].sh_name;
            if (strnlen(nm, room) < room && strcmp(nm, ".nv_fatbin") == 0) has_fatbin = 1;
        }
        if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset || str->sh_offset > size ||
            str->sh_size > size - str->sh_offset)
            continue;
        const Elf64_Dyn *dyn = (const Elf64_Dyn *)(img + sh[i].sh_offset);
        size_t nd = sh[i].sh_size / sizeof *dyn;
        for (size_t j = 0; j < nd && dyn[j].d_tag != DT_NULL; j++) {
            if (dyn[j].d_tag != DT_NEEDED || dyn[j].d_un.d_val >= str->sh_size) continue;
            const char *lib = (const char *)img + str->sh_offset + dyn[j].d_un.d_val;
            size_t room = str->sh_size - dyn[j].d_un.d_val;
            if (strnlen(lib, room) == room) continue;
            if (strcmp(lib, "libcudart.so.13") == 0) shared = 1;
            else if (strcmp(lib, "libcuda.so.1") == 0 || strcmp(lib, "libcuda.so") == 0) driver = 1;
            else if (strncmp(lib, "libcudart.so", 12) == 0) {
                other_rt = 1;
                snprintf(other, othercap, "%s", lib);
            }
        }
    }
    /* the static CUDA runtime opens the driver by name; its string gives it away even without device code */
    static const char drv[] = "libcuda.so.1";
    int opens_driver = memmem(img, size, drv, sizeof drv) != NULL;
    free(img);
    if (shared) result = ELF_SHARED_CUDART;
    else if (other_rt) result = ELF_OTHER_CUDART;
    else if (driver && !has_fatbin) result = ELF_DRIVER_API;   /* our libcuda.so.1 serves it */
    else if ((has_fatbin || opens_driver) && symtab_static) result = ELF_STATIC_REDIRECT;
    else if (has_fatbin || opens_driver) result = ELF_STATIC_CUDA;
    else result = ELF_NO_CUDA;
    return result;
}

/* Whether libdir holds library name. */
static int lib_present(const char *libdir, const char *name)
{
    char path[PATH_MAX];
    return (size_t)snprintf(path, sizeof path, "%s/%s", libdir, name) < sizeof path && access(path, R_OK) == 0;
}

/* Find a program: a path as given, else ./NAME, else on PATH. 0 on success with the path in out. */
static int find_program(const char *name, char *out, size_t cap)
{
    if (strchr(name, '/')) {
        if (access(name, F_OK) != 0) return -1;
        snprintf(out, cap, "%s", name);
        return 0;
    }
    if (access(name, X_OK) == 0) {
        snprintf(out, cap, "./%s", name);
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path) return -1;
    char *copy = strdup(path);
    if (!copy) return -1;
    int rc = -1;
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        if ((size_t)snprintf(out, cap, "%s/%s", *dir ? dir : ".", name) >= cap) continue;
        if (access(out, X_OK) == 0) {
            rc = 0;
            break;
        }
    }
    free(copy);
    return rc;
}

/* Prepend dir to the colon-separated environment variable var. */
static int env_prepend(const char *var, const char *dir)
{
    const char *old = getenv(var);
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (!v) return -1;
    if (old && *old) snprintf(v, n, "%s:%s", dir, old);
    else snprintf(v, n, "%s", dir);
    int rc = setenv(var, v, 1);
    free(v);
    return rc;
}

/* Fetch the value of an option given as "--opt VALUE" or "--opt=VALUE"; NULL if argv[*i] is not opt. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt, int *missing)
{
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != 0) return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* The --set overrides of this run (a static: the exit handler removes their derived preset). */
static cli_set_opts sets;

/* Remove the derived preset of --set at exit. */
static void set_cleanup_at_exit(void)
{
    cli_set_cleanup(&sets);
}

/* warpsim run [options] [--] PROGRAM|FILE.cu [args...] */
int cli_run(int argc, char **argv)
{
    const char *gpu = NULL, *report = NULL, *block_order = NULL, *cache_control = NULL, *mode = NULL, *simt = NULL;
    const char *threads = NULL, *gpus = NULL;
    int quiet = 0, timing = 0, i = 1;
    cli_check_opts chk;
    cli_check_init(&chk);
    cli_view_opts view;
    cli_view_init(&view);
    cli_tl_opts tlo;
    cli_tl_init(&tlo);
    cli_set_init(&sets);
    atexit(set_cleanup_at_exit);   /* the derived preset of --set goes when warpsim exits, whatever the path */
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        int missing = 0;
        int co = cli_check_option(argc, argv, &i, &chk);   /* --check, --max-cycles, ... */
        if (co < 0) return 2;
        if (co) continue;
        int vo = cli_view_option(argc, argv, &i, &view);   /* --view, --view-json, ... */
        if (vo < 0) return 2;
        if (vo) continue;
        int to = cli_tl_option(argc, argv, &i, &tlo);   /* --trace, --stats */
        if (to < 0) return 2;
        if (to) continue;
        int so = cli_set_option(argc, argv, &i, &sets, "warpsim run");   /* --set FIELD=VALUE */
        if (so < 0) return 2;
        if (so) continue;
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            run_usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = 1;
            continue;
        }
        if (!strcmp(a, "--timing")) {
            timing = 1;
            continue;
        }
        if ((v = opt_value(argc, argv, &i, "--gpus", &missing))) gpus = v;
        else if ((v = opt_value(argc, argv, &i, "--gpu", &missing))) gpu = v;
        else if ((v = opt_value(argc, argv, &i, "--report", &missing))) report = v;
        else if ((v = opt_value(argc, argv, &i, "--block-order", &missing))) block_order = v;
        else if ((v = opt_value(argc, argv, &i, "--cache-control", &missing))) cache_control = v;
        else if ((v = opt_value(argc, argv, &i, "--simt", &missing))) simt = v;
        else if ((v = opt_value(argc, argv, &i, "--mode", &missing))) mode = v;
        else if ((v = opt_value(argc, argv, &i, "--threads", &missing))) threads = v;
        else if (missing) {
            fprintf(stderr, "warpsim run: %s needs a value\n", a);
            return 2;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim run: unknown option '%s'\n", a);
            run_usage(stderr);
            return 2;
        } else {
            break; /* the program */
        }
    }
    if (i >= argc) {
        fprintf(stderr, "warpsim run: no program given\n");
        run_usage(stderr);
        return 2;
    }

    if (mode && strcmp(mode, "functional") && strcmp(mode, "timing")) {
        fprintf(stderr, "warpsim run: --mode=%s: expected functional or timing\n", mode);
        return 2;
    }
    if (mode && !strcmp(mode, "timing")) timing = 1;
    if (simt && strcmp(simt, "its") && strcmp(simt, "stack")) {
        fprintf(stderr, "warpsim run: --simt=%s: expected its or stack\n", simt);
        return 2;
    }
    if (threads && !valid_threads(threads)) {
        fprintf(stderr, "warpsim run: --threads=%s: expected a number of threads from 1 to 4096\n", threads);
        return 2;
    }
    if (cache_control && strcmp(cache_control, "all") && strcmp(cache_control, "none")) {
        fprintf(stderr, "warpsim run: --cache-control=%s: expected all or none\n", cache_control);
        return 2;
    }
    char err[1024] = "";
    if (gpu && strchr(gpu, ',')) {
        fprintf(stderr, "warpsim run: --gpu=%s: one preset; several devices are --gpus %s\n", gpu, gpu);
        return 2;
    }
    if (gpu && !ws_device_get(gpu, err, sizeof err)) {
        unknown_gpu(gpu, err);
        return 2;
    }
    if (gpus && !check_gpus(gpus, gpu, sets.n, chk.checks != NULL)) return 2;
    if (cli_set_prepare(&sets, gpu, "warpsim run")) return 2;
    if (sets.n) gpu = sets.preset;   /* the derived preset, removed when the program has exited */
    if (block_order && !valid_block_order(block_order)) {
        fprintf(stderr, "warpsim run: --block-order=%s: expected random:SEED (e.g. random:42)\n", block_order);
        return 2;
    }
    char libdir[PATH_MAX];
    if (cli_lib_dir(libdir, sizeof libdir, err, sizeof err) != 0) {
        fprintf(stderr, "warpsim run: %s\n", err);
        return 2;
    }
    /* the runtime in the program reads the presets from the folder this process found (absolute: the program
     * may change directory) */
    char devdir[PATH_MAX];
    if (!realpath(ws_device_dir(), devdir)) snprintf(devdir, sizeof devdir, "%s", ws_device_dir());

    char prog[PATH_MAX];
    const char *given = argv[i];
    if (ends_with(given, ".cu")) {
        if (cli_compile_cu(given, quiet, prog, sizeof prog) != 0) return 2;
    } else if (find_program(given, prog, sizeof prog) != 0) {
        fprintf(stderr, "warpsim run: %s: no such program\n", given);
        return 2;
    }

    char other[128] = "";
    switch (inspect_elf(prog, other, sizeof other)) {
    case ELF_STATIC_CUDA:
        fprintf(stderr,
                "warpsim run: %s was linked with the static CUDA runtime (nvcc's default) and stripped of its "
                "symbol table, so warpsim cannot serve its CUDA calls; rebuild with nvcc -cudart shared (or do not "
                "strip it)\n", given);
        return 2;
    case ELF_STATIC_REDIRECT:
        if (!lib_present(libdir, "libwarpsim_preload.so")) {
            fprintf(stderr, "warpsim run: %s was linked with the static CUDA runtime (nvcc's default), and "
                    "%s/libwarpsim_preload.so, which serves it, is missing (run make)\n", given, libdir);
            return 2;
        }
        break;
    case ELF_OTHER_CUDART:
        fprintf(stderr, "warpsim run: %s needs %s; warpsim provides the CUDA 13 runtime (libcudart.so.13): "
                "rebuild with CUDA 13's nvcc -cudart shared\n", given, other);
        return 2;
    case ELF_DRIVER_API:
        if (!lib_present(libdir, "libcuda.so.1")) {
            fprintf(stderr, "warpsim run: %s uses the CUDA driver API, but %s/libcuda.so.1 is missing (run make)\n",
                    given, libdir);
            return 2;
        }
        break;
    case ELF_NO_CUDA:
        if (!quiet)
            fprintf(stderr, "warpsim: note: %s does not link a CUDA library; running it anyway (the CUDA "
                    "libraries it opens while it runs, as Python modules do, are warpsim's)\n", given);
        break;
    default:
        break;
    }

    char report_abs[PATH_MAX + 256];
    if (report && report[0] != '/') { /* the program may change directory before it exits */
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd) && (size_t)snprintf(report_abs, sizeof report_abs, "%s/%s", cwd, report) <
                                           sizeof report_abs)
            report = report_abs;
    }
    if (env_prepend("LD_LIBRARY_PATH", libdir) != 0 || setenv("WARPSIM_DEVICES", devdir, 1) != 0 || (gpu && setenv("WARPSIM_GPU", gpu, 1) != 0) ||
        (report && setenv("WARPSIM_REPORT", report, 1) != 0) ||
        (block_order && setenv("WARPSIM_BLOCK_ORDER", block_order, 1) != 0) ||
        (quiet && setenv("WARPSIM_QUIET", "1", 1) != 0) || (timing && setenv("WARPSIM_TIMING", "1", 1) != 0) ||
        (cache_control && setenv("WARPSIM_CACHE_CONTROL", cache_control, 1) != 0) ||
        (simt && setenv("WARPSIM_SIMT", simt, 1) != 0) ||
        (threads && setenv("WARPSIM_THREADS", threads, 1) != 0) || (gpus && setenv("WARPSIM_GPUS", gpus, 1) != 0)) {
        fprintf(stderr, "warpsim run: cannot set up the environment\n");
        return 2;
    }
    if (report) unlink(report); /* a stale report must not pass for this run's */
    if (cli_libs_env(libdir) != 0) {
        fprintf(stderr, "warpsim run: cannot set up the environment\n");
        return 2;
    }
    if (cli_check_env(&chk)) return 2;
    if (cli_view_env(&view)) return 2;
    if (cli_tl_env(&tlo, libdir)) return 2;

    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpsim run: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        char pidbuf[32];
        snprintf(pidbuf, sizeof pidbuf, "%ld", (long)getpid());
        setenv("WARPSIM_ROOT_PID", pidbuf, 1); /* only this process writes the report, not its children */
        argv[i] = prog;
        execv(prog, argv + i);
        fprintf(stderr, "warpsim run: cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    /* the child gets terminal signals itself; warpsim waits for it */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "warpsim run: waitpid: %s\n", strerror(errno));
            return 2;
        }
    }
    if (WIFEXITED(st)) return cli_check_exit(&chk, WEXITSTATUS(st));
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        if (!quiet) fprintf(stderr, "warpsim: %s was killed by signal %d (%s)\n", given, sig, strsignal(sig));
        return cli_check_exit(&chk, 128 + sig);
    }
    return 2;
}
