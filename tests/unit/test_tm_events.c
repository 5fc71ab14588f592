/* test_tm_events.c - the timing model's event interface (src/timing/tm_events.h): a kernel with divergence and a
 * block barrier runs under the timing model with two listeners; the events must account for every block, every
 * executed warp instruction and every stall cycle the model counted, and be identical on one and two simulation
 * threads. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/observe.h"
#include "core/sim.h"
#include "device/device.h"
#include "timing/timing.h"

static int g_checks, g_fail;

/* Record one check. */
static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s  ", ok ? "PASS" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    g_checks++;
    if (!ok) g_fail++;
}

/* out[i] = (tid odd ? 3 * i : i + 1) summed with a neighbour's value through shared memory after a barrier */
static const char *PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b32 s[64];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  and.b32 %r5, %r1, 1;\n  setp.eq.s32 %p1, %r5, 0;\n"
    "  @%p1 bra EVEN;\n  mul.lo.s32 %r6, %r4, 3;\n  bra JOIN;\n"
    "EVEN:\n  add.s32 %r6, %r4, 1;\n"
    "JOIN:\n  mov.u32 %r7, s;\n  shl.b32 %r8, %r1, 2;\n  add.s32 %r9, %r7, %r8;\n  st.shared.u32 [%r9], %r6;\n"
    "  bar.sync 0;\n  xor.b32 %r10, %r1, 1;\n  shl.b32 %r11, %r10, 2;\n  add.s32 %r12, %r7, %r11;\n"
    "  ld.shared.u32 %r13, [%r12];\n  add.s32 %r14, %r13, %r6;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.s32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r14;\n  ret;\n}\n";

#define NBLK 300
#define NTHR 64

typedef struct tally {
    int placed[NBLK], retired[NBLK];
    uint64_t placed_t[NBLK], retired_t[NBLK];
    uint64_t issued, pops, stall[WS_ST_COUNT], waits, bad;
    uint64_t mem_req, mem_sect, mem_wf, mem_with_addr, mem_events;
    uint64_t hash;
    int launches, ends, nsm, nsp;
} tally;

/* Fold bytes into an FNV-1a hash. */
static void fold(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) { *h ^= s[i]; *h *= 1099511628211ull; }
}

/* Listener: a launch begins. */
static void on_begin(void *ctx, const ws_run *L, int nsm, int nsp)
{
    (void)L;
    tally *t = ctx;
    t->launches++;
    t->nsm = nsm;
    t->nsp = nsp;
}

/* Listener: a batch of events. */
static void on_events(void *ctx, const ws_run *L, const ws_tm_event *ev, size_t n)
{
    (void)L;
    tally *t = ctx;
    for (size_t i = 0; i < n; i++) {
        const ws_tm_event *e = &ev[i];
        uint64_t pc = e->in ? (uint64_t)(e->in - e->fn->code) : ~0ull;
        uint64_t key[9] = { e->kind, e->reason, e->sp, e->sm, e->warp, e->block, e->t0, e->wait_from, e->dep };
        fold(&t->hash, key, sizeof key);
        fold(&t->hash, &e->t1, sizeof e->t1);
        fold(&t->hash, &pc, sizeof pc);
        if (e->block >= NBLK || e->t1 < e->t0) { t->bad++; continue; }
        switch (e->kind) {
        case WS_TE_BLOCK_PLACED: t->placed[e->block]++; t->placed_t[e->block] = e->t0; break;
        case WS_TE_BLOCK_RETIRED: t->retired[e->block]++; t->retired_t[e->block] = e->t0; break;
        case WS_TE_ISSUE:
            if (e->in) t->issued++; else t->pops++;
            if (e->in && (e->exec & ~e->active)) t->bad++;
            /* the wait before the issue: dep cycles for its reason, the rest not selected */
            if (e->wait_from > e->t0 || e->dep > e->t0 - e->wait_from || e->reason >= WS_ST_COUNT) { t->bad++; break; }
            t->stall[e->reason] += e->dep;
            t->stall[WS_ST_NOT_SELECTED] += e->t0 - e->wait_from - e->dep;
            break;
        case WS_TE_BARRIER_WAIT: t->waits++; break;
        case WS_TE_MEM:
            t->mem_events++;
            t->mem_req += e->requests;
            t->mem_sect += e->sectors;
            t->mem_wf += e->wavefronts;
            if (e->addr) {
                /* the addresses are the lanes' own: shared offsets below 256 bytes, global ones in the arena */
                int l = __builtin_ctz(e->exec);
                if (e->space == WS_S_SHARED ? e->addr[l] < 256 : e->addr[l] >= 0x300000000000ull) t->mem_with_addr++;
            }
            if (!e->in || !e->exec || e->t1 < e->t0) t->bad++;
            break;
        default: t->bad++; break;
        }
    }
}

/* Listener: the launch ended. */
static void on_end(void *ctx, const ws_run *L, const ws_tm_result *r)
{
    (void)L;
    (void)r;
    ((tally *)ctx)->ends++;
}

/* Run the kernel once under the timing model on `threads` simulation threads with two listeners. */
static void run(const ws_device *d, const char *threads, tally *a, tally *b, ws_tm_result *res, uint64_t *insts,
                int *out_ok)
{
    setenv("WARPSIM_THREADS", threads, 1);
    ws_options opt;
    memset(&opt, 0, sizeof opt);
    ws_gpu *g = ws_gpu_create(d, &opt);
    ws_tm *tm = ws_tm_create(d);
    ws_tm_attach(tm, g);
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    a->hash = b->hash = 1469598103934665603ull;
    ws_tm_listener la = { a, on_begin, on_events, on_end, 1 }, lb = { b, on_begin, on_events, on_end, 0 };
    check(ws_tm_add_listener(tm, &la) == 0 && ws_tm_add_listener(tm, &lb) == 0, "two listeners attach (%s thread(s))",
          threads);
    char err[512];
    ws_module *m = ws_module_load(g, PTX, strlen(PTX), "events.ptx", err, sizeof err);
    if (!m) { check(0, "events PTX loads: %s", err); ws_gpu_destroy(g); ws_tm_destroy(tm); return; }
    uint64_t out;
    ws_malloc(g, NBLK * NTHR * 4, &out);
    void *args[] = { &out };
    ws_launch_config cfg = { { NBLK, 1, 1 }, { NTHR, 1, 1 }, 0, 0, 0, 0, { 0, 0, 0 } };
    ws_launch_stats st;
    int rc = ws_launch(g, ws_module_kernel(m, "k"), &cfg, args, &st);
    check(rc == 0, "launch under the timing model: %d %s", rc, st.error);
    *res = *ws_tm_last(tm);
    *insts = st.warp_insts;
    const uint32_t *o = ws_host_view(g, out, NBLK * NTHR * 4);
    int ok = o != NULL;
    for (int i = 0; ok && i < NBLK * NTHR; i++) {
        int j = i ^ 1;
        uint32_t vi = (i & 1) ? 3u * (uint32_t)i : (uint32_t)i + 1, vj = (j & 1) ? 3u * (uint32_t)j : (uint32_t)j + 1;
        if (o[i] != vi + vj) ok = 0;
    }
    *out_ok = ok;
    ws_tm_remove_listener(tm, &la);
    ws_tm_remove_listener(tm, &lb);
    ws_gpu_destroy(g);
    ws_tm_destroy(tm);
}

/* Every check of one run's tallies against the model's own result. */
static void verify(const char *label, const tally *t, const ws_tm_result *r, uint64_t insts)
{
    int once = 1, order = 1;
    for (int i = 0; i < NBLK; i++) {
        if (t->placed[i] != 1 || t->retired[i] != 1) once = 0;
        if (t->retired_t[i] < t->placed_t[i]) order = 0;
    }
    check(t->launches == 1 && t->ends == 1 && t->nsm == 132 && t->nsp == 4,
          "%s: one launch on 132 SMs x 4 sub-partitions (got %d launches, %d ends, %d x %d)", label, t->launches,
          t->ends, t->nsm, t->nsp);
    check(once && order, "%s: every block placed once and retired once, never before it was placed", label);
    check(t->bad == 0, "%s: no malformed event (%llu)", label, (unsigned long long)t->bad);
    check(t->issued == insts, "%s: issue events %llu = warp instructions executed %llu", label,
          (unsigned long long)t->issued, (unsigned long long)insts);
    check(t->issued + t->pops == r->stall_cycles[WS_ST_SELECTED],
          "%s: issues + reconvergence steps %llu = selected cycles %llu", label,
          (unsigned long long)(t->issued + t->pops), (unsigned long long)r->stall_cycles[WS_ST_SELECTED]);
    int same = 1;
    for (int k = 0; k < WS_ST_COUNT; k++) if (k != WS_ST_SELECTED && t->stall[k] != r->stall_cycles[k]) same = 0;
    check(same, "%s: stall intervals add up to the model's stall cycles for every reason (barrier %llu = %llu)", label,
          (unsigned long long)t->stall[WS_ST_BARRIER], (unsigned long long)r->stall_cycles[WS_ST_BARRIER]);
    check(t->waits >= (uint64_t)NBLK, "%s: barrier waits recorded (%llu for %d blocks of 2 warps)", label,
          (unsigned long long)t->waits, NBLK);
    const ws_ms_counts *m = &r->mem;
    check(t->mem_req == m->gld_requests + m->gst_requests + m->gatom_requests + m->lld_requests + m->lst_requests &&
          t->mem_sect == m->gld_sectors + m->gst_sectors + m->gatom_sectors + m->lld_sectors + m->lst_sectors &&
          t->mem_wf == m->shld_wavefronts + m->shst_wavefronts + m->shatom_wavefronts,
          "%s: memory events add up to the launch's requests (%llu), sectors (%llu) and shared wavefronts (%llu)", label,
          (unsigned long long)t->mem_req, (unsigned long long)t->mem_sect, (unsigned long long)t->mem_wf);
}

/* Run on one and on two threads; compare. */
int main(void)
{
    char err[512];
    const ws_device *d = ws_device_get("h200", err, sizeof err);
    if (!d) { printf("FAIL  h200 preset: %s\n", err); return 1; }
    tally *a1 = calloc(1, sizeof *a1), *b1 = calloc(1, sizeof *b1), *a2 = calloc(1, sizeof *a2), *b2 = calloc(1, sizeof *b2);
    ws_tm_result r1, r2;
    uint64_t i1 = 0, i2 = 0;
    int ok1 = 0, ok2 = 0;
    run(d, "1", a1, b1, &r1, &i1, &ok1);
    run(d, "2", a2, b2, &r2, &i2, &ok2);
    check(ok1 && ok2, "the kernel's results are right on one and two threads");
    verify("1 thread", a1, &r1, i1);
    verify("2 threads", a2, &r2, i2);
    check(a1->hash == b1->hash && a2->hash == b2->hash, "both listeners see the same events");
    check(a1->mem_events > 0 && a1->mem_with_addr == a1->mem_events && a2->mem_with_addr == a2->mem_events,
          "memory events carry the lanes' addresses (%llu of %llu)", (unsigned long long)a1->mem_with_addr,
          (unsigned long long)a1->mem_events);
    check(a1->hash == a2->hash && r1.cycles == r2.cycles,
          "the event stream is identical on one and two threads (hash %016llx vs %016llx, %llu vs %llu cycles)",
          (unsigned long long)a1->hash, (unsigned long long)a2->hash, (unsigned long long)r1.cycles,
          (unsigned long long)r2.cycles);
    free(a1); free(b1); free(a2); free(b2);
    printf("%d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
