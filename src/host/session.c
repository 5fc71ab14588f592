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

/* One simulated device of the process: its preset, its GPU (memory, modules), its timing model, its faults. */
typedef struct hs_dev {
    const ws_device *dev;
    ws_gpu *gpu;
    ws_tm *tm;
    int gpu_failed;
    int sticky, pending;                     /* faults of its context */
    unsigned char peer[WS_HS_MAX_DEVICES];   /* peer access to device j's memory is enabled */
} hs_dev;

static hs_dev devs[WS_HS_MAX_DEVICES];
static int ndevs = -1;                        /* -1: the device list is not read yet; 0: it could not be */
static _Thread_local int cur;                 /* the calling thread's current device (cudaSetDevice) */
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

/* Load preset `name` as device i; 0, or -1 with a message. */
static int load_preset(int i, const char *name)
{
    char msg[512];
    devs[i].dev = ws_device_get(name, msg, sizeof msg);
    if (devs[i].dev) return 0;
    fprintf(stderr, "warpsim: %s\n", msg);
    return -1;
}

/* n devices, or 0 (with a message) when the checkers run: they watch one device (`warpsim run` refuses it). */
static int checked_count(int n)
{
    if (n > 1 && ws_hs_checking()) {
        fprintf(stderr, "warpsim: the checkers (WARPSIM_CHECK) watch one device; WARPSIM_GPUS gives %d\n", n);
        return 0;
    }
    return n;
}

/* Read the device list once: WARPSIM_GPUS = N (N devices of WARPSIM_GPU's preset, default h200) or a
 * comma-separated list of presets; unset: one device of WARPSIM_GPU. 0 when it cannot be used (with a message). */
static int read_devices(void)
{
    if (ndevs >= 0) return ndevs;
    ndevs = 0;
    const char *one = getenv("WARPSIM_GPU");
    if (!one || !*one) one = "h200";
    const char *list = getenv("WARPSIM_GPUS");
    if (!list || !*list) return ndevs = load_preset(0, one) ? 0 : 1;
    char *end;
    errno = 0;
    long n = strtol(list, &end, 10);
    if (end != list && !*end) {
        if (errno || n < 1 || n > WS_HS_MAX_DEVICES) {
            fprintf(stderr, "warpsim: WARPSIM_GPUS='%s': expected 1 to %d devices\n", list, WS_HS_MAX_DEVICES);
            return 0;
        }
        for (int i = 0; i < n; i++)
            if (load_preset(i, one)) return 0;
        return ndevs = checked_count((int)n);
    }
    int k = 0;
    for (const char *p = list; ; ) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char name[128];
        if (!len || len >= sizeof name || k == WS_HS_MAX_DEVICES) {
            fprintf(stderr, "warpsim: WARPSIM_GPUS='%s': expected a count or up to %d preset names separated by "
                    "commas\n", list, WS_HS_MAX_DEVICES);
            return 0;
        }
        memcpy(name, p, len);
        name[len] = 0;
        if (load_preset(k++, name)) return 0;
        if (!c) break;
        p = c + 1;
    }
    return ndevs = checked_count(k);
}

/* Number of simulated devices (0 when the presets cannot be loaded). */
int ws_hs_device_count(void) { return read_devices(); }

/* The calling thread's current device. */
int ws_hs_current(void) { return cur; }

/* Make device i the calling thread's current device; WS_ERR_INVALID_DEVICE when there is none such. */
int ws_hs_set_current(int i)
{
    if (i < 0 || i >= read_devices()) return WS_ERR_INVALID_DEVICE_ID;
    cur = i;
    return WS_OK;
}

/* The preset of device i, or NULL. */
const ws_device *ws_hs_device_at(int i) { return i >= 0 && i < read_devices() ? devs[i].dev : NULL; }

/* The current device's preset. */
const ws_device *ws_hs_device(int *err)
{
    if (!read_devices()) { *err = WS_ERR_NO_DEVICE; return NULL; }
    return devs[cur].dev;
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

/* Tell every existing GPU about the others (peer access as enabled; host-visible memory always). */
static void link_peers(void)
{
    for (int i = 0; i < ndevs; i++)
        for (int j = 0; j < ndevs; j++)
            if (i != j && devs[i].gpu) ws_gpu_set_peer(devs[i].gpu, j, devs[j].gpu, devs[i].peer[j]);
}

/* Device i's simulated GPU, created on first use (NULL with *err set). */
ws_gpu *ws_hs_gpu_at(int i, int *err)
{
    if (i < 0 || i >= read_devices()) { *err = read_devices() ? WS_ERR_INVALID_DEVICE_ID : WS_ERR_NO_DEVICE; return NULL; }
    hs_dev *x = &devs[i];
    if (x->gpu) return x->gpu;
    if (x->gpu_failed) { *err = WS_ERR_NO_DEVICE; return NULL; }
    const ws_device *d = x->dev;
    ws_options opt;
    options_from_env(d, &opt);
    opt.device_index = i;
    x->gpu = ws_gpu_create(d, &opt);
    if (!x->gpu) {
        x->gpu_failed = 1;
        fprintf(stderr, "warpsim: cannot create the simulated device '%s'\n", d->name);
        *err = WS_ERR_NO_DEVICE;
        return NULL;
    }
    ws_gpu *gpu = x->gpu;
    link_peers();
    for (int k = 0; k < ncreated_hooks; k++) created_hooks[k](gpu);
    ws_hs_chk_install(gpu);   /* --check: the checkers observe this GPU */
    ws_hs_progress_install(gpu);   /* a progress line for long launches on a terminal */
    if (ws_hs_timing()) {
        /* a fresh timing model (empty caches) for every GPU; the clock goes on */
        ws_tm_destroy(x->tm);
        x->tm = ws_tm_create(d);
        const char *cc = getenv("WARPSIM_CACHE_CONTROL");
        ws_tm_set_cache_control(x->tm, !(cc && !strcmp(cc, "none")));
        ws_tm_set_um(x->tm, ws_hs_um_table());   /* managed pages tracked so far */
        ws_hs_clock_start(i, d);
        ws_tm_attach(x->tm, gpu);
    }
    ws_hs_view_install(gpu, ws_hs_timing() ? x->tm : NULL);   /* --view: what each launch did */
    ws_hs_tl_install(gpu, ws_hs_timing() ? x->tm : NULL);   /* the host timeline: device, SM blocks for a trace */
    return gpu;
}

/* The current device's simulated GPU, created on first use. */
ws_gpu *ws_hs_gpu(int *err)
{
    if (!read_devices()) { *err = WS_ERR_NO_DEVICE; return NULL; }
    return ws_hs_gpu_at(cur, err);
}

/* The current device's simulated GPU if it exists. */
ws_gpu *ws_hs_current_gpu(void) { return ndevs > 0 ? devs[cur].gpu : NULL; }

/* Device i's GPU if it exists. */
ws_gpu *ws_hs_gpu_if(int i) { return i >= 0 && i < ndevs ? devs[i].gpu : NULL; }

/* The device whose address range holds addr (allocated or not), or -1. */
int ws_hs_device_of(uint64_t addr)
{
    for (int i = 0; i < ndevs; i++)
        if (devs[i].gpu && ws_gpu_owns_range(devs[i].gpu, addr)) return i;
    return -1;
}

/* Destroy the current device's GPU and clear its fault state. */
void ws_hs_gpu_reset(void)
{
    if (ndevs <= 0) return;
    hs_dev *x = &devs[cur];
    if (x->gpu) {
        for (int j = 0; j < ndevs; j++)
            if (devs[j].gpu && j != cur) ws_gpu_set_peer(devs[j].gpu, cur, NULL, 0);
        ws_gpu_destroy(x->gpu);
        x->gpu = NULL;
    }
    /* a reset context has no peer mappings, and nobody keeps one to it */
    memset(x->peer, 0, sizeof x->peer);
    for (int j = 0; j < ndevs; j++) devs[j].peer[cur] = 0;
    x->sticky = x->pending = 0;
}

/* Whether the current device has enabled access to device peer's memory. */
int ws_hs_peer_enabled(int peer) { return ndevs > 0 && peer >= 0 && peer < ndevs && devs[cur].peer[peer]; }

/* Enable (1) or disable (0) the current device's access to device peer's memory. */
void ws_hs_peer_set(int peer, int enabled)
{
    if (ndevs <= 0 || peer < 0 || peer >= ndevs || peer == cur) return;
    devs[cur].peer[peer] = (unsigned char)(enabled != 0);
    link_peers();
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

/* The current device's timing model, or NULL. */
ws_tm *ws_hs_tm(void) { return ndevs > 0 ? devs[cur].tm : NULL; }

/* Device i's timing model, or NULL. */
ws_tm *ws_hs_tm_at(int i) { return i >= 0 && i < ndevs ? devs[i].tm : NULL; }

/* The current device's fault state (a dummy before the device list is read). */
static hs_dev *fault_dev(void)
{
    static hs_dev none;
    return ndevs > 0 ? &devs[cur] : &none;
}

/* Sticky error check at the start of an API call (the current device's context). */
int ws_hs_fault_check(int sync)
{
    hs_dev *x = fault_dev();
    if (sync && x->pending && !x->sticky) {
        x->sticky = x->pending;
        x->pending = 0;
    }
    return x->sticky;
}

/* Remember a kernel fault of the current device until the next synchronizing call. */
void ws_hs_fault(int code)
{
    hs_dev *x = fault_dev();
    if (!x->sticky && !x->pending) x->pending = code;
}

/* A fault of the current device not yet reported, or 0. */
int ws_hs_fault_pending(void) { return fault_dev()->pending; }

/* Set the face's namer of status codes. */
void ws_hs_set_error_namer(const char *(*name)(int code)) { error_namer = name; }

/* The face's name of a status code, or NULL. */
const char *ws_hs_error_name(int code) { return error_namer ? error_namer(code) : NULL; }
