/* occupancy.c - the occupancy calculator (the logic of NVIDIA's cuda_occupancy.h, driven by the device preset
 * instead of switches on the compute capability), waves, the launch advisor, and ptxas resource reports. */
#include "occupancy.h"
#include "ptxas_cache.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Smallest multiple of unit that is >= x (x itself when unit <= 0). */
static long long round_up(long long x, long long unit)
{
    return unit > 0 ? (x + unit - 1) / unit * unit : x;
}

/* The smaller of two ints. */
static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* Defaults for ws_occ_compute_ex: no barriers, default carve-out, shared-memory opt-in allowed. */
ws_occ_opts ws_occ_default_opts(void)
{
    ws_occ_opts o = { 0, -1, 1 };
    return o;
}

/* Short name of a limiter. */
const char *ws_occ_limiter_name(ws_occ_limiter l)
{
    switch (l) {
    case WS_OCC_LIMIT_THREADS: return "threads";
    case WS_OCC_LIMIT_BLOCKS: return "blocks";
    case WS_OCC_LIMIT_REGISTERS: return "registers";
    case WS_OCC_LIMIT_SHARED_MEMORY: return "shared_memory";
    case WS_OCC_LIMIT_BARRIERS: return "barriers";
    default: return "none";
    }
}

/* Round a shared-memory size up to the next carve-out the SM supports (cudaOccAlignUpShmemSizeVoltaPlus);
 * unchanged when the preset lists no carve-outs; -1 when it is larger than every carve-out. */
static long long align_carveout(const ws_device *d, long long bytes)
{
    if (d->n_carveouts <= 0) return bytes;
    for (int i = 0; i < d->n_carveouts; i++)
        if ((long long)d->carveouts_kb[i] * 1024 >= bytes) return (long long)d->carveouts_kb[i] * 1024;
    return -1;
}

/* Append a sentence to a reason buffer, separated by "; ". */
static void add_reason(char *buf, size_t cap, const char *msg)
{
    size_t n = strlen(buf);
    if (n && n + 2 < cap) { strcat(buf, "; "); n += 2; }
    snprintf(buf + n, cap - n, "%s", msg);
}

/* Waves of a grid: number of waves, fractional waves per SM and the share of block slots used. */
long long ws_occ_waves(long long grid_blocks, int sm_count, int blocks_per_sm, double *waves_per_sm,
                       double *wave_utilization)
{
    if (waves_per_sm) *waves_per_sm = 0;
    if (wave_utilization) *wave_utilization = 0;
    if (grid_blocks <= 0 || sm_count <= 0 || blocks_per_sm <= 0) return 0;
    long long slots = (long long)sm_count * blocks_per_sm;
    long long waves = (grid_blocks + slots - 1) / slots;
    if (waves_per_sm) *waves_per_sm = (double)grid_blocks / (double)slots;
    if (wave_utilization) *wave_utilization = (double)grid_blocks / ((double)waves * (double)slots);
    return waves;
}

/* Occupancy with default options. */
int ws_occ_compute(const ws_device *dev, int threads_per_block, int regs_per_thread, size_t smem_per_block_bytes,
                   long long grid_blocks_or_0, ws_occ_result *r)
{
    return ws_occ_compute_ex(dev, threads_per_block, regs_per_thread, smem_per_block_bytes, grid_blocks_or_0, NULL, r);
}

/* Occupancy: blocks per SM from each resource (warps, blocks, registers, shared memory, barriers), the minimum,
 * the limiter and the waves, following cudaOccMaxActiveBlocksPerMultiprocessor. */
int ws_occ_compute_ex(const ws_device *dev, int threads_per_block, int regs_per_thread, size_t smem_per_block_bytes,
                      long long grid_blocks_or_0, const ws_occ_opts *opts, ws_occ_result *r)
{
    memset(r, 0, sizeof *r);
    ws_occ_opts o = opts ? *opts : ws_occ_default_opts();
    if (!dev || dev->warp_size <= 0) {
        snprintf(r->reason, sizeof r->reason, "no device");
        return -1;
    }
    if (threads_per_block <= 0 || regs_per_thread < 0 || grid_blocks_or_0 < 0 || o.barriers < 0 ||
        o.carveout_pct > 100) {
        snprintf(r->reason, sizeof r->reason, "invalid input: threads per block must be at least 1, registers, "
                 "grid, barriers must not be negative, carve-out at most 100%%");
        return -1;
    }
    char why[256] = "", msg[256];
    const int warp = dev->warp_size;
    const int wpb = (threads_per_block + warp - 1) / warp;
    r->threads_per_block = threads_per_block;
    r->warps_per_block = wpb;
    r->max_warps_per_sm = dev->max_warps_per_sm;
    r->grid_blocks = grid_blocks_or_0;

    /* warp slots (cudaOccMaxBlocksPerSMWarpsLimit) */
    int lim_thr;
    if (threads_per_block > dev->max_threads_per_block) {
        lim_thr = 0;
        snprintf(msg, sizeof msg, "%d threads per block exceed the device's maximum of %d", threads_per_block,
                 dev->max_threads_per_block);
        add_reason(why, sizeof why, msg);
    } else {
        int max_warps = imin(dev->max_warps_per_sm, dev->max_threads_per_sm / warp);
        lim_thr = max_warps / wpb;
    }

    /* block slots (cudaOccMaxBlocksPerMultiprocessor) */
    int lim_blk = dev->max_blocks_per_sm;

    /* registers (cudaOccMaxBlocksPerSMRegsLimit): per warp, rounded to the allocation unit, split over the
     * sub-partitions; the per-block hardware check rounds the warps up to warp_alloc_granularity */
    int regs = regs_per_thread < dev->min_regs_per_thread ? dev->min_regs_per_thread : regs_per_thread;
    long long per_warp, per_block, assumed;
    if (dev->reg_alloc_unit > 0) {
        per_warp = round_up((long long)regs * warp, dev->reg_alloc_unit);
        per_block = per_warp * wpb;
        int g = dev->warp_alloc_granularity > 0 ? dev->warp_alloc_granularity : 1;
        assumed = per_warp * round_up(wpb, g);
    } else {
        /* no granularity (teaching machines): a block takes exactly threads x registers */
        per_warp = (long long)regs * warp;
        per_block = (long long)regs * threads_per_block;
        assumed = per_block;
    }
    r->regs_per_thread = regs;
    r->regs_per_warp = (int)per_warp;
    r->regs_per_block = (int)per_block;
    int lim_reg;
    if (regs_per_thread > dev->max_regs_per_thread) {
        lim_reg = 0;
        snprintf(msg, sizeof msg, "%d registers per thread exceed the maximum of %d", regs_per_thread,
                 dev->max_regs_per_thread);
        add_reason(why, sizeof why, msg);
    } else if (assumed > dev->max_regs_per_block || per_block > dev->max_regs_per_block) {
        lim_reg = 0;
        snprintf(msg, sizeof msg, "a block needs %lld registers (%d per thread x %d threads%s), more than the %d "
                 "a block may use", assumed, regs, threads_per_block,
                 dev->reg_alloc_unit > 0 ? ", allocated per warp" : "", dev->max_regs_per_block);
        add_reason(why, sizeof why, msg);
    } else if (per_block == 0) {
        lim_reg = WS_OCC_UNLIMITED;
    } else if (dev->reg_alloc_unit > 0) {
        int sub = dev->subpartitions > 0 ? dev->subpartitions : 1;
        long long warps_per_sub = (dev->regs_per_sm / sub) / per_warp;
        lim_reg = (int)(warps_per_sub * sub / wpb);
    } else {
        lim_reg = (int)(dev->regs_per_sm / per_block);
    }

    /* shared memory (cudaOccMaxBlocksPerSMSmemLimit): static + dynamic + the driver's reservation, rounded to the
     * allocation unit; the carve-out is the preference when a block fits in it, else the next carve-out up */
    long long alloc = round_up((long long)smem_per_block_bytes + (long long)dev->smem_reserved_per_block,
                               (long long)dev->smem_alloc_unit);
    r->smem_per_block = (size_t)alloc;
    int optin = o.smem_optin && smem_per_block_bytes > dev->smem_per_block;
    long long block_limit = (long long)(optin ? dev->smem_per_block_optin : dev->smem_per_block) +
                            (long long)dev->smem_reserved_per_block;
    int lim_smem;
    long long pref = o.carveout_pct < 0 ? (long long)dev->smem_per_sm
                                        : (long long)o.carveout_pct * (long long)dev->smem_per_sm / 100;
    pref = align_carveout(dev, pref);
    if (pref < 0) pref = (long long)dev->smem_per_sm;
    r->smem_config = (size_t)pref;
    if (alloc > block_limit) {
        lim_smem = 0;
        if (!o.smem_optin && smem_per_block_bytes <= dev->smem_per_block_optin)
            snprintf(msg, sizeof msg, "%zu bytes of shared memory per block exceed the %zu a block may use without "
                     "opting in (cudaFuncSetAttribute MaxDynamicSharedMemorySize)", smem_per_block_bytes,
                     dev->smem_per_block);
        else
            snprintf(msg, sizeof msg, "%zu bytes of shared memory per block exceed the device's maximum of %zu",
                     smem_per_block_bytes, dev->smem_per_block_optin);
        add_reason(why, sizeof why, msg);
    } else if (alloc == 0) {
        lim_smem = WS_OCC_UNLIMITED;
    } else {
        long long cap = pref;
        if (pref < alloc) {
            cap = align_carveout(dev, alloc);
            if (cap < 0 || dev->n_carveouts <= 0) cap = (long long)dev->smem_per_sm;
        }
        r->smem_config = (size_t)cap;
        lim_smem = (int)(cap / alloc);
    }

    /* named barriers (cudaOccMaxBlocksPerSMBlockBarrierLimit, sm_90 and later) */
    int lim_bar = WS_OCC_UNLIMITED;
    if (dev->barriers_per_sm > 0 && o.barriers > 0) lim_bar = dev->barriers_per_sm / o.barriers;

    int blocks = imin(lim_thr, imin(lim_blk, imin(lim_reg, imin(lim_smem, lim_bar))));
    r->limit_threads = lim_thr;
    r->limit_blocks = lim_blk;
    r->limit_registers = lim_reg;
    r->limit_shared_memory = lim_smem;
    r->limit_barriers = lim_bar;
    const int lims[] = { 0, lim_thr, lim_blk, lim_reg, lim_smem, lim_bar };
    for (int l = WS_OCC_LIMIT_THREADS; l <= WS_OCC_LIMIT_BARRIERS; l++) {
        if (lims[l] != blocks) continue;
        r->limiters |= WS_OCC_BIT(l);
        if (r->limiter == WS_OCC_LIMIT_NONE) r->limiter = (ws_occ_limiter)l;
    }
    r->blocks_per_sm = blocks;
    r->warps_per_sm = blocks * wpb;
    r->occupancy = dev->max_warps_per_sm > 0 ? (double)r->warps_per_sm / dev->max_warps_per_sm : 0;
    if (blocks <= 0) {
        if (!why[0])
            snprintf(why, sizeof why, "no block fits on an SM (limited by %s)", ws_occ_limiter_name(r->limiter));
        snprintf(r->reason, sizeof r->reason, "%s", why);
        r->ok = 0;
        return -1;
    }
    r->ok = 1;
    r->waves = ws_occ_waves(grid_blocks_or_0, dev->sm_count, blocks, &r->waves_per_sm, &r->wave_utilization);
    return 0;
}

/* ---- advisor ---- */

const int ws_advise_block_sizes[WS_ADVISE_NSIZES] = { 32, 64, 96, 128, 192, 256, 384, 512, 768, 1024 };

/* Whether two scores are equal up to rounding. */
static int same(double a, double b)
{
    double d = a - b, m = a > b ? a : b;
    return d < 1e-9 * m + 1e-15 && -d < 1e-9 * m + 1e-15;
}

/* SMs that get at least one block in the first wave. */
static long long busy_sms(const ws_advice_row *r, const ws_device *dev)
{
    return r->blocks < dev->sm_count ? r->blocks : dev->sm_count;
}

/* Whether row c beats row b under the advisor's rule (see WS_ADVISE_RULE). */
static int rule_better(const ws_advice_row *c, const ws_advice_row *b, const ws_device *dev)
{
    if (!same(c->score, b->score)) return c->score > b->score;
    if (busy_sms(c, dev) != busy_sms(b, dev)) return busy_sms(c, dev) > busy_sms(b, dev);
    if (c->idle_threads != b->idle_threads) return c->idle_threads < b->idle_threads;
    if (!same(c->occ.occupancy, b->occ.occupancy)) return c->occ.occupancy > b->occ.occupancy;
    return 0; /* the smaller block (earlier in the list) stays */
}

/* Advise a block size: every size's occupancy and waves, the rule's pick and "highest occupancy wins". */
int ws_occ_advise(const ws_device *dev, int regs, size_t smem, long long elements, ws_advice *out)
{
    memset(out, 0, sizeof *out);
    out->recommended = out->highest_occupancy = -1;
    out->rule = WS_ADVISE_RULE;
    if (!dev || elements < 1 || regs < 0) return -1;
    for (int i = 0; i < WS_ADVISE_NSIZES; i++) {
        ws_advice_row *row = &out->rows[out->n++];
        row->block_size = ws_advise_block_sizes[i];
        row->blocks = (elements + row->block_size - 1) / row->block_size;
        row->idle_threads = row->blocks * row->block_size - elements;
        ws_occ_compute(dev, row->block_size, regs, smem, row->blocks, &row->occ);
        row->lane_utilization = (double)elements / ((double)row->blocks * row->block_size);
        row->score = row->occ.ok ? row->occ.occupancy * row->occ.wave_utilization * row->lane_utilization : 0;
    }
    for (int i = 0; i < out->n; i++) {
        const ws_advice_row *c = &out->rows[i];
        if (!c->occ.ok) continue;
        if (out->highest_occupancy < 0 ||
            (c->occ.occupancy > out->rows[out->highest_occupancy].occ.occupancy &&
             !same(c->occ.occupancy, out->rows[out->highest_occupancy].occ.occupancy)))
            out->highest_occupancy = i;
        if (out->recommended < 0 || rule_better(c, &out->rows[out->recommended], dev)) out->recommended = i;
    }
    if (out->recommended >= 0 && out->recommended != out->highest_occupancy) {
        const ws_advice_row *a = &out->rows[out->recommended], *h = &out->rows[out->highest_occupancy];
        char why[320];
        if (!same(a->score, h->score)) {
            const char *cause;
            if (a->occ.wave_utilization > h->occ.wave_utilization && !same(a->occ.wave_utilization, h->occ.wave_utilization))
                cause = a->occ.waves < h->occ.waves ? "it needs fewer waves" : "its last wave is fuller";
            else if (a->lane_utilization > h->lane_utilization)
                cause = "fewer of its threads are idle";
            else
                cause = "its higher occupancy outweighs the emptier last wave";
            snprintf(why, sizeof why, "%d-thread blocks put an element in %.1f%% of the GPU's thread slots over the "
                     "whole launch against %.1f%%, because %s", a->block_size, 100 * a->score, 100 * h->score, cause);
        } else if (busy_sms(a, dev) != busy_sms(h, dev)) {
            snprintf(why, sizeof why, "equal efficiency (%.1f%%), but %d-thread blocks keep %lld SMs busy against %lld",
                     100 * a->score, a->block_size, busy_sms(a, dev), busy_sms(h, dev));
        } else {
            snprintf(why, sizeof why, "equal efficiency (%.1f%%), but %d-thread blocks launch %lld idle threads "
                     "against %lld", 100 * a->score, a->block_size, a->idle_threads, h->idle_threads);
        }
        snprintf(out->disagreement, sizeof out->disagreement,
                 "the rule picks %d threads (occupancy %.1f%%, %lld wave%s, wave utilization %.1f%%) where highest "
                 "occupancy picks %d (occupancy %.1f%%, %lld wave%s, wave utilization %.1f%%): %s",
                 a->block_size, 100 * a->occ.occupancy, a->occ.waves, a->occ.waves == 1 ? "" : "s",
                 100 * a->occ.wave_utilization, h->block_size, 100 * h->occ.occupancy, h->occ.waves,
                 h->occ.waves == 1 ? "" : "s", 100 * h->occ.wave_utilization, why);
    }
    return 0;
}

/* ---- ptxas ---- */

/* One cached ptxas run. */
typedef struct ptxas_node {
    char *text;          /* the PTX it was made for (a copy: a lookup compares texts, which is exact and faster
                          * than hashing one on every launch) */
    size_t len;
    ws_ptxas_table t;
    struct ptxas_node *next;
} ptxas_node;
static ptxas_node *g_ptxas;
static pthread_mutex_t g_ptxas_lock = PTHREAD_MUTEX_INITIALIZER;

/* FNV-1a 64-bit hash of a buffer, continuing from h. */
static uint64_t fnv1a(const void *p, size_t n, uint64_t h)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 1099511628211ull; }
    return h;
}

/* Whether path names an executable file. */
static int is_exec(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Find ptxas: $WARPSIM_PTXAS, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin. 0 with the path in out, else -1. */
int ws_occ_find_ptxas(char *out, size_t cap)
{
    const char *e = getenv("WARPSIM_PTXAS");
    if (e && *e) {
        snprintf(out, cap, "%s", e);
        return is_exec(out) ? 0 : -1;
    }
    const char *path = getenv("PATH");
    if (path) {
        const char *p = path;
        while (*p) {
            const char *c = strchr(p, ':');
            size_t n = c ? (size_t)(c - p) : strlen(p);
            if (n) {
                snprintf(out, cap, "%.*s/ptxas", (int)n, p);
                if (is_exec(out)) return 0;
            }
            p += n + (c ? 1 : 0);
        }
    }
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(out, cap, "%s/bin/ptxas", home);
        if (is_exec(out)) return 0;
    }
    snprintf(out, cap, "/usr/local/cuda/bin/ptxas");
    return is_exec(out) ? 0 : -1;
}

/* Architecture number of the PTX's .target (90 for sm_90 / sm_90a); where the token starts and ends; 0 if none. */
static int ptx_target(const char *ptx, size_t len, size_t *tok_start, size_t *tok_end)
{
    const char *key = ".target";
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl < len; i++) {
        if (ptx[i] != '.' || memcmp(ptx + i, key, kl) || (i && !isspace((unsigned char)ptx[i - 1]))) continue;
        size_t j = i + kl;
        while (j < len && (ptx[j] == ' ' || ptx[j] == '\t')) j++;
        if (j + 3 >= len || memcmp(ptx + j, "sm_", 3)) return 0;
        size_t k = j + 3;
        int v = 0;
        while (k < len && isdigit((unsigned char)ptx[k])) v = v * 10 + (ptx[k++] - '0');
        while (k < len && isalpha((unsigned char)ptx[k])) k++;
        *tok_start = j;
        *tok_end = k;
        return v;
    }
    return 0;
}

/* Write all of buf to fd; 0 on success. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n) {
        ssize_t w = write(fd, buf, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The span of the number after ".version" in a PTX text (0 when there is none). */
static int ptx_version_span(const char *ptx, size_t len, size_t *start, size_t *end)
{
    const char *key = ".version";
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl < len; i++) {
        if (ptx[i] != '.' || memcmp(ptx + i, key, kl) || (i && !isspace((unsigned char)ptx[i - 1]))) continue;
        size_t j = i + kl;
        while (j < len && (ptx[j] == ' ' || ptx[j] == '\t')) j++;
        size_t k = j;
        while (k < len && (isdigit((unsigned char)ptx[k]) || ptx[k] == '.')) k++;
        if (k == j) return 0;
        *start = j;
        *end = k;
        return 1;
    }
    return 0;
}

/* Write a PTX text to fd with its .target token [ts, te) replaced by arch and its .version number by ver (each
 * when not NULL); 0 on success. */
static int write_ptx(int fd, const char *ptx, size_t len, const char *arch, size_t ts, size_t te, const char *ver)
{
    size_t vs = 0, ve = 0;
    if (!ver || !ptx_version_span(ptx, len, &vs, &ve)) ver = NULL;
    struct ptx_cut { size_t s, e; const char *with; } cut[2];
    int n = 0;
    if (ver) cut[n++] = (struct ptx_cut){ vs, ve, ver };
    if (arch) cut[n++] = (struct ptx_cut){ ts, te, arch };
    if (n == 2 && cut[1].s < cut[0].s) {
        struct ptx_cut t = cut[0];
        cut[0] = cut[1];
        cut[1] = t;
    }
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        if (cut[i].s < at) return -1;
        if (write_all(fd, ptx + at, cut[i].s - at) || write_all(fd, cut[i].with, strlen(cut[i].with))) return -1;
        at = cut[i].e;
    }
    return write_all(fd, ptx + at, len - at);
}

/* From ptxas's "Unsupported .version X; current version is 'Y'", the version Y it knows; 1 when found. */
static int ptxas_known_version(const char *out, char *ver, size_t vlen)
{
    const char *key = "current version is '";
    const char *p = out ? strstr(out, key) : NULL;
    if (!p) return 0;
    p += strlen(key);
    size_t n = 0;
    while ((isdigit((unsigned char)p[n]) || p[n] == '.') && n + 1 < vlen) n++;
    if (!n || p[n] != '\'') return 0;
    memcpy(ver, p, n);
    ver[n] = 0;
    return 1;
}

/* Run ptxas -lineinfo on file for arch, its cubin written to cubin_file; its combined output in *outp (malloc'd);
 * returns the exit status or -1. */
static int run_ptxas(const char *ptxas, const char *arch, const char *file, const char *cubin_file, int relocatable,
                     char **outp)
{
    *outp = NULL;
    char archopt[64];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    int fds[2];
    if (pipe(fds)) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        if (relocatable) execl(ptxas, "ptxas", archopt, "-c", "-v", "-lineinfo", "-o", cubin_file, file, (char *)NULL);
        else execl(ptxas, "ptxas", archopt, "-v", "-lineinfo", "-o", cubin_file, file, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf && n + 4096 > cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; }
            else { buf = nb; cap *= 2; }
        }
        char tmp[4096];
        ssize_t got = read(fds[0], buf ? buf + n : tmp, buf ? cap - n - 1 : sizeof tmp);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        if (buf) n += (size_t)got;
    }
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (buf) buf[n] = 0;
    *outp = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Append the SASS line tables of the cubin ptxas wrote (sass_lines.h) to its output *out, as text lines; a cubin
 * without them adds nothing (the timing model then counts PTX instructions). */
static void append_sass(const char *cubin, char **out)
{
    int fd = open(cubin, O_RDONLY);
    if (fd < 0) return;
    struct stat st;
    uint8_t *img = fstat(fd, &st) == 0 && st.st_size > 0 ? malloc((size_t)st.st_size) : NULL;
    size_t got = 0;
    while (img && got < (size_t)st.st_size) {
        ssize_t r = read(fd, img + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    ws_sass_fn *fns = NULL;
    int nfns = 0;
    char err[256];
    if (img && got == (size_t)st.st_size && ws_sass_from_cubin(img, got, &fns, &nfns, err, sizeof err) == 0) {
        size_t len = *out ? strlen(*out) : 0;
        char *buf = *out;
        if (!buf) { buf = malloc(1); if (buf) buf[0] = 0; }
        if (buf && len && buf[len - 1] != '\n') {
            char *nb = realloc(buf, len + 2);
            if (nb) { buf = nb; buf[len++] = '\n'; buf[len] = 0; }
        }
        if (buf) ws_sass_format(fns, nfns, &buf, &len);
        *out = buf;
    }
    ws_sass_free(fns, nfns);
    free(img);
}

/* Find the kernel entry called name in a table being built, or NULL. */
static ws_ptxas_kernel *table_find(ws_ptxas_table *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->k[i].name, name)) return &t->k[i];
    return NULL;
}

/* Copy the text between the first pair of single quotes after key in line into out; 0 when found. */
static int quoted_after(const char *line, const char *key, char *out, size_t cap)
{
    const char *p = strstr(line, key);
    if (!p) return -1;
    p = strchr(p + strlen(key), '\'');
    if (!p) return -1;
    const char *q = strchr(p + 1, '\'');
    if (!q) return -1;
    snprintf(out, cap, "%.*s", (int)(q - p - 1), p + 1);
    return 0;
}

/* Parse ptxas -v output into t; 0 on success. */
static int parse_ptxas(const char *text, ws_ptxas_table *t)
{
    int cap = 0;
    ws_ptxas_kernel *cur = NULL, *props = NULL;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (!strncmp(p, "warpsim-sass ", 13)) {   /* a SASS line table kept with the report (sass_lines.h) */
            char *l = strndup(p, n);
            ws_sass_fn f, *nf = l ? realloc(t->sass, sizeof *nf * (size_t)(t->nsass + 1)) : NULL;
            if (!nf) { free(l); return -1; }
            t->sass = nf;
            if (ws_sass_parse(l, &f) == 0) t->sass[t->nsass++] = f;
            free(l);
            p += n + (nl ? 1 : 0);
            continue;
        }
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
        p += n + (nl ? 1 : 0);
        char name[512];
        if (strstr(line, "Compiling entry function") && !quoted_after(line, "Compiling entry function", name, sizeof name)) {
            if (t->n == cap) {
                cap = cap ? cap * 2 : 16;
                ws_ptxas_kernel *nk = realloc(t->k, (size_t)cap * sizeof *nk);
                if (!nk) return -1;
                t->k = nk;
            }
            cur = &t->k[t->n++];
            memset(cur, 0, sizeof *cur);
            snprintf(cur->name, sizeof cur->name, "%s", name);
            props = cur;
            continue;
        }
        if (strstr(line, "Compiling function")) { cur = NULL; props = NULL; continue; }
        const char *fp = strstr(line, "Function properties for ");
        if (fp) {
            char fname[512];
            snprintf(fname, sizeof fname, "%s", fp + strlen("Function properties for "));
            char *e = fname + strlen(fname);
            while (e > fname && isspace((unsigned char)e[-1])) *--e = 0;
            props = table_find(t, fname);
            continue;
        }
        if (strstr(line, "bytes stack frame")) {
            if (props) {
                unsigned long a = 0, b = 0, c = 0;
                if (sscanf(line, " %lu bytes stack frame, %lu bytes spill stores, %lu bytes spill loads", &a, &b, &c) >= 1) {
                    props->stack_frame = a;
                    props->spill_stores = b;
                    props->spill_loads = c;
                }
            }
            continue;
        }
        const char *u = strstr(line, "Used ");
        if (u && cur) {
            int regs = 0;
            if (sscanf(u, "Used %d registers", &regs) == 1) cur->regs = regs;
            for (const char *c = strchr(u, ','); c; c = strchr(c + 1, ',')) {
                unsigned long v;
                char what[64];
                if (sscanf(c + 1, " used %lu barriers", &v) == 1) cur->barriers = (int)v;
                else if (sscanf(c + 1, " %lu bytes %63[a-z0-9[]]", &v, what) == 2) {
                    if (!strcmp(what, "smem")) cur->static_smem = v;
                    else if (!strcmp(what, "cmem[0]")) cur->cmem0 = v;
                }
            }
            continue;
        }
    }
    return 0;
}

/* Content hashes of the PTX texts ptxas failed on (each launch would run it again otherwise). */
#define WS_PTXAS_FAILED_MAX 64
static uint64_t g_ptxas_failed[WS_PTXAS_FAILED_MAX];
static int g_ptxas_nfailed;

/* ptxas's table for a PTX text on dev's architecture, cached by content hash. */
const ws_ptxas_table *ws_occ_ptxas_table(const char *ptx, size_t len, const ws_device *dev, char *err, size_t errlen)
{
    char arch[16];
    if (!ptx || !dev) {
        if (err && errlen) snprintf(err, errlen, "no PTX or no device");
        return NULL;
    }
    snprintf(arch, sizeof arch, "sm_%d%d", dev->cc_major, dev->cc_minor);
    /* PTX for the device's architecture with its arch-specific features (.target sm_90a: wgmma, setmaxnreg) is
     * sized as that target: ptxas -arch=sm_90 refuses those instructions */
    size_t ts = 0, te = 0;
    int target = ptx_target(ptx, len, &ts, &te);
    int want = dev->cc_major * 10 + dev->cc_minor;
    if (target == want && te > ts && te - ts < sizeof arch && isalpha((unsigned char)ptx[te - 1]))
        snprintf(arch, sizeof arch, "%.*s", (int)(te - ts), ptx + ts);
    pthread_mutex_lock(&g_ptxas_lock);
    for (ptxas_node *n = g_ptxas; n; n = n->next) {
        if (n->len == len && !strcmp(n->t.arch, arch) && !memcmp(n->text, ptx, len)) {
            pthread_mutex_unlock(&g_ptxas_lock);
            return &n->t;
        }
    }
    uint64_t h = fnv1a(arch, strlen(arch), fnv1a(ptx, len, 1469598103934665603ull));
    for (int i = 0; i < g_ptxas_nfailed; i++)
        if (g_ptxas_failed[i] == h) {
            pthread_mutex_unlock(&g_ptxas_lock);
            if (err && errlen) snprintf(err, errlen, "ptxas -arch=%s failed on this PTX before", arch);
            return NULL;
        }
    ptxas_node *node = calloc(1, sizeof *node);
    char ptxas[4096], file[4096];
    char *out = NULL;
    int fd = -1, rc = -1;
    if (!node) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        goto done;
    }
    snprintf(node->t.arch, sizeof node->t.arch, "%s", arch);
    if (ws_occ_find_ptxas(ptxas, sizeof ptxas)) {
        if (err && errlen)
            snprintf(err, errlen, "ptxas not found (set WARPSIM_PTXAS, put the CUDA toolkit's bin on PATH, or set "
                     "CUDA_HOME)");
        goto done;
    }
    /* lower a .target newer than the device so ptxas accepts it (the simulator runs such PTX on any preset); a
     * .version newer than this ptxas knows (PTX from a newer toolkit, as CuPy's wheels carry) is lowered to the one
     * ptxas names, once, and kept only if ptxas then accepts the text */
    if (target > want) node->t.retargeted = 1;
    char ver[16] = "";
    int st = -1;
    /* another process may have sized this text already (ptxas's report on disk, keyed by ptxas and the text) */
    char key[WS_PTXC_KEY_LEN], opts[64];
    snprintf(opts, sizeof opts, "-arch=%s -v -lineinfo %s", arch, WS_SASS_TABLE_VERSION);
    int keyed = ws_ptxc_key(ptxas, opts, ptx, len, key) == 0, hit = 0;
    if (keyed && (out = ws_ptxc_get(key)) != NULL) st = 0, hit = 1;
    for (int attempt = 0; attempt < 2 && !out; attempt++) {
        const char *tmpdir = getenv("TMPDIR");
        snprintf(file, sizeof file, "%s/warpsim-ptx-XXXXXX.ptx", tmpdir && *tmpdir ? tmpdir : "/tmp");
        fd = mkstemps(file, 4);
        if (fd < 0) {
            if (err && errlen) snprintf(err, errlen, "cannot create a temporary file %s: %s", file, strerror(errno));
            goto done;
        }
        int werr = write_ptx(fd, ptx, len, target > want ? arch : NULL, ts, te, ver[0] ? ver : NULL);
        close(fd);
        if (werr) {
            if (err && errlen) snprintf(err, errlen, "cannot write %s: %s", file, strerror(errno));
            unlink(file);
            goto done;
        }
        char cubin[4096 + 8];
        snprintf(cubin, sizeof cubin, "%s.cubin", file);
        st = run_ptxas(ptxas, arch, file, cubin, 0, &out);
        if (st != 0 && memmem(ptx, len, ".extern", 7)) {
            /* relocatable device code (-rdc): functions or variables of other units, compiled as ptxas -c does */
            free(out);
            out = NULL;
            st = run_ptxas(ptxas, arch, file, cubin, 1, &out);
        }
        if (st == 0) append_sass(cubin, &out);
        unlink(cubin);
        unlink(file);
        if (st == 0 || attempt || !ptxas_known_version(out, ver, sizeof ver)) break;
        free(out);
        out = NULL;
    }
    if (st != 0) {
        if (err && errlen) {
            const char *first = out ? out : "";
            const char *e = strstr(first, "error");
            if (!e) e = strstr(first, "fatal");
            if (!e) e = first;
            const char *nl = strchr(e, '\n');
            snprintf(err, errlen, "ptxas -arch=%s failed (status %d): %.*s", arch, st,
                     (int)(nl ? (size_t)(nl - e) : strlen(e)), e);
        }
        goto done;
    }
    if (keyed && !hit) ws_ptxc_put(key, out ? out : "");
    if (parse_ptxas(out ? out : "", &node->t)) {
        if (err && errlen) snprintf(err, errlen, "out of memory parsing ptxas output");
        goto done;
    }
    node->text = malloc(len ? len : 1);
    if (!node->text) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        goto done;
    }
    memcpy(node->text, ptx, len);
    node->len = len;
    node->next = g_ptxas;
    g_ptxas = node;
    rc = 0;
done:
    free(out);
    if (rc && g_ptxas_nfailed < WS_PTXAS_FAILED_MAX) g_ptxas_failed[g_ptxas_nfailed++] = h;   /* not asked again */
    if (rc) {
        if (node) {
            free(node->t.k);
            ws_sass_free(node->t.sass, node->t.nsass);
        }
        free(node);
        node = NULL;
    }
    pthread_mutex_unlock(&g_ptxas_lock);
    return node ? &node->t : NULL;
}

/* The ptxas entry of one kernel, or NULL. */
const ws_ptxas_kernel *ws_occ_kernel_info(const char *ptx, size_t len, const char *kernel_name, const ws_device *dev)
{
    char err[512];
    const ws_ptxas_table *t = ws_occ_ptxas_table(ptx, len, dev, err, sizeof err);
    if (!t || !kernel_name) return NULL;
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->k[i].name, kernel_name)) return &t->k[i];
    return NULL;
}

/* Registers per thread and static shared memory of a kernel as ptxas reports them; 0, -1 absent, -2 no ptxas. */
int ws_occ_kernel_regs(const char *ptx, size_t len, const char *kernel_name, const ws_device *dev, int *regs,
                       size_t *static_smem)
{
    char err[512];
    const ws_ptxas_table *t = ws_occ_ptxas_table(ptx, len, dev, err, sizeof err);
    if (!t) return -2;
    for (int i = 0; kernel_name && i < t->n; i++) {
        if (strcmp(t->k[i].name, kernel_name)) continue;
        if (regs) *regs = t->k[i].regs;
        if (static_smem) *static_smem = t->k[i].static_smem;
        return 0;
    }
    return -1;
}

/* Clusters of cluster_size blocks resident at once with blocks_per_sm blocks per SM (per GPC, then summed). */
int ws_occ_max_clusters(const ws_device *dev, int blocks_per_sm, int cluster_size)
{
    if (blocks_per_sm <= 0 || cluster_size <= 0) return 0;
    int gpc[WS_MAX_GPCS + 1], ng = ws_device_gpcs(dev, gpc), n = 0;
    for (int g = 0; g < ng; g++) n += gpc[g] * blocks_per_sm / cluster_size;
    return n;
}
