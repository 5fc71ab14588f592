/* test_ptx_fuzz.c - replays the PTX fuzz harness (tests/fuzz/fuzz_ptx.c) over its regression inputs
 * (tests/fuzz/regress/ptx: inputs that once crashed, leaked or hung the front end) and its seed corpus, so that the
 * ordinary test suite (and `make sanitize`) keeps every fixed finding fixed. Run from the repository root. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../fuzz/fuzz_ptx.c"

/* Feed every file of dir to the harness; returns how many, -1 if dir cannot be read. */
static int replay(const char *dir, double *worst, char *worst_name, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        static uint8_t buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        LLVMFuzzerTestOneInput(buf, len);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
        if (s > *worst) { *worst = s; snprintf(worst_name, cap, "%s", path); }
        n++;
    }
    closedir(d);
    return n;
}

/* Replay both folders; every input must come back (no crash), and quickly (no hang). */
int main(void)
{
    double worst = 0;
    char name[1024] = "";
    int r = replay("tests/fuzz/regress/ptx", &worst, name, sizeof name);
    int c = replay("tests/fuzz/corpus/ptx", &worst, name, sizeof name);
    if (r < 1 || c < 1) { printf("FAIL  cannot read tests/fuzz/regress/ptx or tests/fuzz/corpus/ptx (run from the repository root)\n"); return 1; }
    printf("PASS  %d regression inputs and %d corpus inputs decode or fail cleanly\n", r, c);
    int ok = worst < 5.0;
    printf("%s  slowest input %.3f s (%s)\n", ok ? "PASS" : "FAIL", worst, name);
    ws_gpu_destroy(gpu);
    return ok ? 0 : 1;
}
