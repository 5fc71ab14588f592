/* hs_um.c - unified memory on the host side of a timing run (session.h, "unified memory"): the page table of the
 * managed allocations (src/mem/um.h) shared with the timing model, which prices the GPU's faults; the CPU's
 * accesses trapped by protecting the host copy of every page that is not valid on the host (mprotect; a SIGSEGV
 * handler migrates the page back, as Linux UVM's CPU fault handler does), priced on the simulated host clock at
 * the next launch; prefetches on their stream; the counts for the report and the timeline. Pages are unprotected
 * while a kernel runs (the simulator reads them through the host copy). In functional mode the table only keeps
 * the advice (cudaMemRangeGetAttribute): nothing is protected and launches do not look at it. */
#include "hs_internal.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "../mem/hostwin.h"
#include "../mem/um.h"

static ws_um *um;                       /* NULL until a managed allocation is tracked */
static int trapping;                    /* timing mode: host copies protected, launches priced */
static struct sigaction old_segv;       /* the handler before ours */
static atomic_flag trap_lock = ATOMIC_FLAG_INIT;
static uint64_t cpu_mark, cpu_bytes_mark;   /* CPU faults and their bytes already priced */
static uint64_t cpu_bytes;              /* bytes CPU faults moved (the handler counts) */
static uint64_t launch_cpu_faults, launch_cpu_bytes;   /* CPU faults before the launch being recorded */
static int depth;                       /* nested launches (device-side grids) */

/* Whether managed pages are tracked and priced: timing mode. */
int ws_hs_um_on(void) { return ws_hs_timing(); }

/* The page table the timing model prices (NULL when nothing is tracked or in functional mode). */
struct ws_um *ws_hs_um_table(void) { return trapping ? um : NULL; }

/* Call the handler that was there before ours (or the default action) for a fault that is not ours. */
static void chain(int sig, siginfo_t *si, void *uc)
{
    if (old_segv.sa_flags & SA_SIGINFO) {
        if (old_segv.sa_sigaction) { old_segv.sa_sigaction(sig, si, uc); return; }
    } else if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN && old_segv.sa_handler) {
        old_segv.sa_handler(sig);
        return;
    }
    signal(SIGSEGV, SIG_DFL);   /* returning re-runs the access, which now ends the process as it would have */
}

/* SIGSEGV: a CPU access to a managed page whose host copy is protected migrates the page; others are chained. */
static void on_segv(int sig, siginfo_t *si, void *uc)
{
    uint64_t a = (uint64_t)(uintptr_t)si->si_addr;
    ws_um *u = um;
    int64_t gp = u && ws_hostwin_in(WS_HOSTWIN_MANAGED, a) ? ws_um_page_of(u, a) : -1;
    if (gp < 0 || ws_um_host_prot(u, gp) == 3) { chain(sig, si, uc); return; }
    int write = 1;
#if defined(__x86_64__)
    write = (((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;   /* the page fault's W/R bit */
#endif
    while (atomic_flag_test_and_set_explicit(&trap_lock, memory_order_acquire)) { }
    cpu_bytes += ws_um_cpu_access(u, gp, write);
    int prot = ws_um_host_prot(u, gp);
    if (prot == 0 || (write && prot != 3)) prot = 3;   /* never trap the same access twice */
    size_t pb = ws_um_page_bytes(u);
    mprotect((void *)(uintptr_t)(a & ~(uint64_t)(pb - 1)), pb, prot);
    atomic_flag_clear_explicit(&trap_lock, memory_order_release);
}

/* Give every page of allocation i the protection its state needs (runs of equal protection in one call). */
static void protect_range(int i)
{
    uint64_t base;
    int64_t first, n;
    ws_um_range(um, i, &base, NULL, &first, &n);
    size_t pb = ws_um_page_bytes(um);
    int64_t k = 0;
    while (k < n) {
        int prot = ws_um_host_prot(um, first + k);
        int64_t e = k + 1;
        while (e < n && ws_um_host_prot(um, first + e) == prot) e++;
        mprotect((void *)(uintptr_t)(base + (uint64_t)k * pb), (size_t)(e - k) * pb, prot);
        k = e;
    }
}

/* Protect every page as its state needs. */
static void protect_all(void)
{
    int n = ws_um_range(um, 0, NULL, NULL, NULL, NULL);
    for (int i = 0; i < n; i++) protect_range(i);
}

/* Unprotect every page (a kernel runs). */
static void unprotect_all(void)
{
    size_t pb = ws_um_page_bytes(um);
    int n = ws_um_range(um, 0, NULL, NULL, NULL, NULL);
    for (int i = 0; i < n; i++) {
        uint64_t base;
        int64_t np;
        ws_um_range(um, i, &base, NULL, NULL, &np);
        mprotect((void *)(uintptr_t)base, (size_t)np * pb, PROT_READ | PROT_WRITE);
    }
}

/* Device memory the managed pages may use: the preset's, less what the device arena holds (cudaMalloc, module
 * variables). */
static void update_capacity(void)
{
    int e = 0;
    const ws_device *d = ws_hs_device(&e);
    ws_gpu *g = ws_hs_current_gpu();
    uint64_t cap = d ? d->global_mem : 0;
    size_t freeb = 0, total = 0;
    if (g) {
        ws_gpu_mem_info(g, &freeb, &total);
        if (total > freeb && cap > total - freeb) cap -= total - freeb;
    }
    ws_um_set_capacity(um, cap);
}

/* Price the CPU faults since the last time on the host clock and the timeline (one DtoH migration). */
static void fold_cpu(void)
{
    const ws_um_counts *c = ws_um_counts_get(um);
    uint64_t n = c->cpu_faults - cpu_mark, bytes = cpu_bytes - cpu_bytes_mark;
    launch_cpu_faults += n;
    launch_cpu_bytes += bytes;
    cpu_mark = c->cpu_faults;
    cpu_bytes_mark = cpu_bytes;
    if (!n) return;
    int e = 0;
    const ws_device *d = ws_hs_device(&e);
    if (!d) return;
    double secs = (double)n * d->um_cpu_fault_us * 1e-6 + (double)bytes / (d->host_link_gbs_pinned * 1e9);
    double t0 = ws_hs_clock_host();
    ws_hs_clock_host_busy(secs);
    ws_hs_tl_um(0, WS_REP_DTOH, bytes, (uint32_t)n, t0, t0 + secs);
}

/* A managed allocation was made. */
void ws_hs_um_alloc(void *p, size_t size)
{
    if (!ws_hostwin_in(WS_HOSTWIN_MANAGED, (uint64_t)(uintptr_t)p)) return;
    if (!um) {
        int e = 0;
        const ws_device *d = ws_hs_device(&e);
        if (!d || !(um = ws_um_create(d->um_page_bytes))) return;
        if (ws_um_page_bytes(um) > WS_HOSTWIN_ALIGN) {   /* pages must tile the fixed windows' allocations */
            ws_um_destroy(um);
            um = NULL;
            fprintf(stderr, "warpsim: um_page_bytes is larger than %zu: unified memory is not modelled\n",
                    (size_t)WS_HOSTWIN_ALIGN);
            return;
        }
        trapping = ws_hs_um_on();
        if (!trapping) goto add;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_segv;
        sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, &old_segv);
        if (ws_hs_tm()) ws_tm_set_um(ws_hs_tm(), um);
    }
add:
    if (ws_um_add(um, (uint64_t)(uintptr_t)p, size) || !trapping) return;
    int n = ws_um_range(um, 0, NULL, NULL, NULL, NULL);
    for (int i = 0; i < n; i++) {
        uint64_t b;
        ws_um_range(um, i, &b, NULL, NULL, NULL);
        if (b == (uint64_t)(uintptr_t)p) protect_range(i);   /* untouched pages trap the first CPU access too */
    }
}

/* A managed allocation is being freed: forget it, its pages readable again for the free. */
void ws_hs_um_free(void *p)
{
    if (!um) return;
    size_t span = ws_hostwin_span(p);
    if (span) mprotect(p, span, PROT_READ | PROT_WRITE);
    ws_um_remove(um, (uint64_t)(uintptr_t)p);
}

/* A launch begins (outermost only): CPU faults so far are priced, pages are unprotected for the simulator. */
void ws_hs_um_launch_begin(void)
{
    if (!trapping || depth++) return;
    fold_cpu();
    update_capacity();
    unprotect_all();
}

/* A launch ended: pages not valid on the host are protected again; the fault batches of the launch that ran from
 * t0 (seconds on the timeline) on stream go on the timeline. */
void ws_hs_um_launch_end(int stream, double t0, int timed)
{
    if (!trapping) return;
    ws_tm *tm = ws_hs_tm();
    if (tm && timed && ws_hs_tl_on()) {
        int e = 0;
        const ws_device *d = ws_hs_device(&e);
        size_t nb = 0;
        const ws_tm_um_batch *b = ws_tm_um_batches(tm, &nb);
        double hz = d ? d->sm_clock_mhz * 1e6 : 1e9;
        for (size_t i = 0; i < nb; i++)
            ws_hs_tl_um(stream, WS_REP_HTOD, b[i].htod_bytes, b[i].faults, t0 + (double)b[i].t0 / hz,
                        t0 + (double)b[i].t1 / hz);
    }
    if (depth > 0 && --depth) return;
    protect_all();
}

/* CPU faults (count, bytes) priced before the launch just recorded. */
void ws_hs_um_launch_cpu(uint64_t *faults, uint64_t *bytes)
{
    *faults = launch_cpu_faults;
    *bytes = launch_cpu_bytes;
    launch_cpu_faults = launch_cpu_bytes = 0;
}

/* An API call begins: CPU faults since the last call are priced now, before the call's own work (an event it
 * records comes after them, as on a GPU, where they happened while the host ran). */
void ws_hs_um_api(void)
{
    if (!trapping) return;
    const ws_um_counts *c = ws_um_counts_get(um);
    if (c->cpu_faults == cpu_mark && cpu_bytes == cpu_bytes_mark) return;
    ws_hs_lock();
    fold_cpu();
    ws_hs_unlock();
}

/* cudaMemPrefetchAsync of [p, p+n) to the device or the host on queue q (stream number `stream`). */
void ws_hs_um_prefetch(const void *p, size_t n, int to_device, ws_hs_queue *q, int stream)
{
    if (!um) return;
    if (trapping) {
        fold_cpu();
        update_capacity();
    }
    uint64_t ev = 0, moved = ws_um_prefetch(um, (uint64_t)(uintptr_t)p, n, to_device, &ev);
    if (!trapping) return;
    protect_all();
    int tl = ws_hs_tl_on();
    if (moved) {
        ws_hs_clock_copy(q, moved, to_device ? WS_HS_H2D : WS_HS_D2H, 1, 0);
        if (tl) {
            double t0, t1;
            ws_hs_clock_last(&t0, &t1);
            ws_hs_tl_um(stream, to_device ? WS_REP_HTOD : WS_REP_DTOH, moved, 0, t0, t1);
        }
    }
    if (ev) {
        ws_hs_clock_copy(q, ev, WS_HS_D2H, 1, 0);
        if (tl) {
            double t0, t1;
            ws_hs_clock_last(&t0, &t1);
            ws_hs_tl_um(stream, WS_REP_DTOH, ev, 0, t0, t1);
        }
    }
}

/* The page table's bit of a face's advice. */
static int advice_bit(int advice)
{
    switch (advice) {
    case WS_HS_UM_READ_MOSTLY: return WS_UM_ADV_READ_MOSTLY;
    case WS_HS_UM_PREFER_DEVICE: return WS_UM_ADV_PREF_DEV;
    case WS_HS_UM_PREFER_HOST: return WS_UM_ADV_PREF_HOST;
    default: return WS_UM_ADV_ACCESSED_BY;
    }
}

/* cudaMemAdvise: set or clear advice on [p, p+n). */
void ws_hs_um_advise(const void *p, size_t n, int advice, int set)
{
    if (!um) return;
    int bit = advice_bit(advice);
    ws_um_advise(um, (uint64_t)(uintptr_t)p, n, bit, set);
    if (trapping) protect_all();
}

/* Whether every page of [p, p+n) has advice bit; -1 when pages are not tracked. */
int ws_hs_um_range_has(const void *p, size_t n, int advice)
{
    if (!um) return -1;
    return ws_um_range_has(um, (uint64_t)(uintptr_t)p, n, advice_bit(advice));
}

/* The run's totals (NULL when nothing was tracked). */
const struct ws_um_counts *ws_hs_um_counts(void) { return trapping ? ws_um_counts_get(um) : NULL; }

/* Bytes of a page (0 when nothing is tracked). */
size_t ws_hs_um_page_bytes(void) { return trapping ? ws_um_page_bytes(um) : 0; }
