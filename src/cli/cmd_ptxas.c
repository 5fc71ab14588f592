/* cmd_ptxas.c - `warpsim ptxas ARGS...`, also run as a link named ptxas to warpsim (build/lib/ptxas, which
 * `warpsim run` names to Triton): runs the toolkit's ptxas with the same arguments, then keeps the PTX of the cubin
 * it wrote (src/fatbin/fb_kept.h), so that when the program loads that cubin, which holds SASS only, warpsim runs
 * the PTX it came from. ptxas's output, messages and exit status are the program's to see, unchanged. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "../analysis/occupancy.h"
#include "../fatbin/fatbin.h"
#include "../fatbin/fb_kept.h"

/* ptxas's output file when no -o is given. */
#define PTXAS_DEFAULT_OUT "elf.o"

/* The one PTX input file and the output file of a ptxas command line (args after the program name); 0 when both
 * are known, -1 when the command makes no single cubin from a single PTX file (ptxas --version, several inputs). */
static int ptxas_files(int argc, char **argv, const char **in, const char **out)
{
    *in = NULL;
    *out = PTXAS_DEFAULT_OUT;
    int inputs = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "-o") || !strcmp(a, "--output-file")) && i + 1 < argc) {
            *out = argv[++i];
        } else if (!strncmp(a, "--output-file=", 14)) {
            *out = a + 14;
        } else if (a[0] != '-') {
            size_t n = strlen(a);
            struct stat st;
            if (n > 4 && !strcmp(a + n - 4, ".ptx") && stat(a, &st) == 0 && S_ISREG(st.st_mode)) {
                *in = a;
                inputs++;
            }
        }
    }
    return inputs == 1 ? 0 : -1;
}

/* Keep the PTX of the cubin ptxas just wrote (said, not fatal, when it cannot be kept). */
static void keep(const char *in, const char *out)
{
    size_t nptx = 0, ncubin = 0;
    char err[256];
    char *ptx = (char *)ws_fatbin_read_file(in, &nptx, err, sizeof err);
    char *cubin = (char *)ws_fatbin_read_file(out, &ncubin, err, sizeof err);
    size_t extent = cubin ? ws_fatbin_elf_extent(cubin) : 0;
    if (ptx && extent && extent <= ncubin && ws_fatbin_kept_store(cubin, extent, ptx, nptx) != 0)
        fprintf(stderr, "warpsim ptxas: cannot keep the PTX of %s (%s): warpsim will not run that cubin\n", out,
                strerror(errno));
    free(ptx);
    free(cubin);
}

/* warpsim ptxas ARGS: the toolkit's ptxas, and the PTX of its cubin kept. */
int cli_ptxas(int argc, char **argv)
{
    char real[PATH_MAX], self[PATH_MAX], rreal[PATH_MAX];
    if (ws_occ_find_ptxas(real, sizeof real) != 0) {
        fprintf(stderr, "warpsim ptxas: the toolkit's ptxas was not found (set WARPSIM_PTXAS, CUDA_HOME or PATH)\n");
        return 127;
    }
    ssize_t ns = readlink("/proc/self/exe", self, sizeof self - 1);
    if (ns > 0) self[ns] = 0;
    if (ns > 0 && realpath(real, rreal) && !strcmp(rreal, self)) {
        fprintf(stderr, "warpsim ptxas: %s is warpsim itself, not the toolkit's ptxas\n", real);
        return 127;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpsim ptxas: fork: %s\n", strerror(errno));
        return 127;
    }
    if (pid == 0) {
        argv[0] = "ptxas";
        execv(real, argv);
        fprintf(stderr, "warpsim ptxas: cannot run %s: %s\n", real, strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 127;
    if (!WIFEXITED(status)) return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    const char *in, *out;
    if (WEXITSTATUS(status) == 0 && ptxas_files(argc - 1, argv + 1, &in, &out) == 0) keep(in, out);
    return WEXITSTATUS(status);
}
