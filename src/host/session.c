/* session.c - the host session's state: the lock, the device preset and the simulated GPU made from the
 * environment, the timing model, the sticky fault state. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hs_internal.h"

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static const ws_device *dev;
static ws_gpu *gpu;
static ws_tm *tm;
static int dev_failed, gpu_failed;
static int sticky, pending;
static void (*created_hooks[4])(ws_gpu *g);
static int ncreated_hooks;
static const char *(*error_namer)(int code);

/* Take the session lock. */
void ws_hs_lock(void) { pthread_mutex_lock(&lock); }

/* Release the session lock. */
void ws_hs_unlock(void) { pthread_mutex_unlock(&lock); }

/* Take the lock within `seconds`; 1 when taken. */
int ws_hs_lock_timed(double seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)seconds;
    return pthread_mutex_timedlock(&lock, &until) == 0;
}

/* The program's short name. */
const char *ws_hs_program_name(void)
{
    extern char *program_invocation_short_name;
    return program_invocation_short_name && *program_invocation_short_name ? program_invocation_short_name : "program";
}

/* Whether WARPSIM_QUIET asks for no warpsim messages. */
int ws_hs_quiet(void)
{
    const char *q = getenv("WARPSIM_QUIET");
    return q && *q && strcmp(q, "0") != 0;
}

/* Whether this process is the one `warpsim run` started. */
int ws_hs_root_process(void)
{
    const char *root = getenv("WARPSIM_ROOT_PID");
    return !root || !*root || strtol(root, NULL, 10) == (long)getpid();
}

/* The device preset selected by WARPSIM_GPU (default h200). */
const ws_device *ws_hs_device(int *err)
{
    if (dev) return dev;
    if (dev_failed) { *err = WS_ERR_NO_DEVICE; return NULL; }
    const char *name = getenv("WARPSIM_GPU");
    if (!name || !*name) name = "h200";
    char msg[512];
    dev = ws_device_get(name, msg, sizeof msg);
    if (!dev) {
        dev_failed = 1;
        fprintf(stderr, "warpsim: %s\n", msg);
        *err = WS_ERR_NO_DEVICE;
        return NULL;
    }
    return dev;
}

/* Parse WARPSIM_BLOCK_ORDER ("random:SEED", "random", "inorder") into opt; 0 on success. */
static int parse_block_order(const char *s, ws_options *opt)
{
    if (!s || !*s || !strcmp(s, "inorder") || !strcmp(s, "in-order")) return 0;
    if (!strncmp(s, "random", 6) && (s[6] == 0 || s[6] == ':')) {
        opt->block_order_random = 1;
        opt->block_order_seed = 1;
        if (s[6] == ':') {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(s + 7, &end, 0);
            if (errno || end == s + 7 || *end) return -1;
            opt->block_order_seed = v;
        }
        return 0;
    }
    return -1;
}

/* Options of a new GPU from the environment. */
static void options_from_env(const ws_device *d, ws_options *opt)
{
    memset(opt, 0, sizeof *opt);
    const char *bo = getenv("WARPSIM_BLOCK_ORDER");
    if (parse_block_order(bo, opt)) {
        fprintf(stderr, "warpsim: WARPSIM_BLOCK_ORDER='%s': expected random:SEED; running blocks in order\n", bo);
        memset(opt, 0, sizeof *opt);
    }
    const char *simt = getenv("WARPSIM_SIMT");
    if (simt && *simt && strcmp(simt, "its") && strcmp(simt, "stack"))
        fprintf(stderr, "warpsim: WARPSIM_SIMT='%s': expected its or stack; using its\n", simt);
    opt->simt_stack = simt && !strcmp(simt, "stack");
    const char *tr = getenv("WARPSIM_TRACE");
    opt->trace = tr && *tr && strcmp(tr, "0") != 0;
    const char *mi = getenv("WARPSIM_MAX_INSTRUCTIONS");
    if (mi && *mi) opt->max_instructions = strtoull(mi, NULL, 0);
    /* --max-cycles: an SM issues at most 4 warp instructions a cycle, so stop past cycles x 4 x SMs of them */
    const char *mc = getenv("WARPSIM_MAX_CYCLES");
    uint64_t mcv = mc && *mc ? strtoull(mc, NULL, 0) * 4 * (uint64_t)(d->sm_count > 0 ? d->sm_count : 1) : 0;
    if (mcv && (!opt->max_instructions || mcv < opt->max_instructions)) opt->max_instructions = mcv;
}

/* The simulated GPU, created on first use. */
ws_gpu *ws_hs_gpu(int *err)
{
    if (gpu) return gpu;
    if (gpu_failed) { *err = WS_ERR_NO_DEVICE; return NULL; }
    const ws_device *d = ws_hs_device(err);
    if (!d) return NULL;
    ws_options opt;
    options_from_env(d, &opt);
    gpu = ws_gpu_create(d, &opt);
    if (!gpu) {
        gpu_failed = 1;
        fprintf(stderr, "warpsim: cannot create the simulated device '%s'\n", d->name);
        *err = WS_ERR_NO_DEVICE;
        return NULL;
    }
    for (int i = 0; i < ncreated_hooks; i++) created_hooks[i](gpu);
    ws_hs_chk_install(gpu);   /* --check: the checkers observe this GPU */
    ws_hs_progress_install(gpu);   /* a progress line for long launches on a terminal */
    if (ws_hs_timing()) {
        /* a fresh timing model (empty caches) for every GPU; the clock goes on */
        ws_tm_destroy(tm);
        tm = ws_tm_create(d);
        const char *cc = getenv("WARPSIM_CACHE_CONTROL");
        ws_tm_set_cache_control(tm, !(cc && !strcmp(cc, "none")));
        ws_tm_set_um(tm, ws_hs_um_table());   /* managed pages tracked so far */
        ws_hs_clock_start(d);
        ws_tm_attach(tm, gpu);
    }
    ws_hs_view_install(gpu, ws_hs_timing() ? tm : NULL);   /* --view: what each launch did */
    ws_hs_tl_install(gpu, ws_hs_timing() ? tm : NULL);   /* the host timeline: device, SM blocks for a trace */
    return gpu;
}

/* The simulated GPU if it exists. */
ws_gpu *ws_hs_current_gpu(void) { return gpu; }

/* Destroy the GPU and clear the fault state. */
void ws_hs_gpu_reset(void)
{
    if (gpu) {
        ws_gpu_destroy(gpu);
        gpu = NULL;
    }
    sticky = pending = 0;
}

/* Register a hook called for every GPU created from now on. */
void ws_hs_on_gpu_created(void (*fn)(ws_gpu *g))
{
    if (ncreated_hooks < (int)(sizeof created_hooks / sizeof *created_hooks)) created_hooks[ncreated_hooks++] = fn;
}

/* Whether WARPSIM_TIMING asks for the timing model. */
int ws_hs_timing(void)
{
    const char *t = getenv("WARPSIM_TIMING");
    return t && *t && strcmp(t, "0") != 0;
}

/* The timing model, or NULL. */
ws_tm *ws_hs_tm(void) { return tm; }

/* Sticky error check at the start of an API call. */
int ws_hs_fault_check(int sync)
{
    if (sync && pending && !sticky) {
        sticky = pending;
        pending = 0;
    }
    return sticky;
}

/* Remember a kernel fault until the next synchronizing call. */
void ws_hs_fault(int code)
{
    if (!sticky && !pending) pending = code;
}

/* A fault not yet reported, or 0. */
int ws_hs_fault_pending(void) { return pending; }

/* Set the face's namer of status codes. */
void ws_hs_set_error_namer(const char *(*name)(int code)) { error_namer = name; }

/* The face's name of a status code, or NULL. */
const char *ws_hs_error_name(int code) { return error_namer ? error_namer(code) : NULL; }
