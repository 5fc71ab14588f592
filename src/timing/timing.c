/* timing.c - cycle-approximate GPU timing: the launch engine (windows of cycles, tm_window.c), the block scheduler
 * (placement, retirement, the block distributor, clusters, barriers), the listeners' events and the launch's
 * results. Execution-driven: the functional core runs a warp's next instruction when the model issues it
 * (tm_issue.c), so issue order is the simulated hardware's order. */
#include <stdlib.h>
#include <string.h>
#include "tm_int.h"

const char *const ws_stall_names[WS_ST_COUNT] = {
    "barrier", "long_scoreboard", "short_scoreboard", "wait", "math_pipe_throttle", "lg_throttle",
    "not_selected", "selected",
};

static void tblk_free_all(ws_tm *tm);
static void sm_free(tsm *sm);

/* Create a timing model for device dev. */
ws_tm *ws_tm_create(const ws_device *dev)
{
    ws_tm *tm = calloc(1, sizeof *tm);
    tm->dev = dev;
    tm->ms = ws_ms_create(dev);
    tm->flush_all = 1;
    pthread_mutex_init(&tm->fns_lock, NULL);
    tm_um_init(&tm->um, dev);
    return tm;
}

/* Destroy it. */
void ws_tm_destroy(ws_tm *tm)
{
    if (!tm) return;
    tm_pool_stop(tm);
    ws_ms_destroy(tm->ms);
    free(tm->fns);
    free(tm->cnt);
    free(tm->sorted);
    free(tm->l2tag);
    tblk_free_all(tm);
    if (tm->sms) {
        for (int s = 0; s < tm->nsm; s++) sm_free(&tm->sms[s]);
        free(tm->sms);
        free(tm->smwake);
        free(tm->smat);
        free(tm->actv);
    }
    free(tm->batch);
    pthread_mutex_destroy(&tm->fns_lock);
    tm_um_free(&tm->um);
    free(tm);
}

/* Price GPU accesses to um's managed pages in later launches. */
void ws_tm_set_um(ws_tm *tm, struct ws_um *um) { tm->um.um = um; }

/* The fault batches of the most recent launch. */
const ws_tm_um_batch *ws_tm_um_batches(const ws_tm *tm, size_t *n)
{
    *n = tm->um.nb;
    return tm->um.b;
}

/* Cache control for later launches. */
void ws_tm_set_cache_control(ws_tm *tm, int flush_all) { tm->flush_all = flush_all; }
/* Result of the most recent launch. */
const ws_tm_result *ws_tm_last(const ws_tm *tm) { return &tm->last; }

/* Add an event listener to later launches. */
int ws_tm_add_listener(ws_tm *tm, const ws_tm_listener *l)
{
    if (!l) return -1;
    for (int i = 0; i < tm->nlis; i++) if (tm->lis[i] == l) return 0;
    if (tm->nlis >= WS_TM_MAX_LISTENERS) return -1;
    tm->lis[tm->nlis++] = l;
    tm->want_addresses |= l->want_addresses;
    return 0;
}

/* Remove an event listener. */
void ws_tm_remove_listener(ws_tm *tm, const ws_tm_listener *l)
{
    for (int i = 0; i < tm->nlis; i++)
        if (tm->lis[i] == l) {
            memmove(&tm->lis[i], &tm->lis[i + 1], sizeof *tm->lis * (size_t)(tm->nlis - i - 1));
            tm->nlis--;
            tm->want_addresses = 0;
            for (int k = 0; k < tm->nlis; k++) tm->want_addresses |= tm->lis[k]->want_addresses;
            return;
        }
}

/* Append an event made at cycle `at` to SM s's batch (only called when someone listens). */
ws_tm_event *tm_emit(ws_tm *tm, int s, int kind, uint64_t block, uint64_t t0, uint64_t t1, uint64_t at)
{
    tsm *sm = &tm->sms[s];
    if (sm->nev == sm->capev) {
        sm->capev = sm->capev ? sm->capev * 2 : 256;
        sm->ev = realloc(sm->ev, sizeof *sm->ev * sm->capev);
    }
    ws_tm_event *e = &sm->ev[sm->nev++];
    /* every field set (no memset: this runs for every issue when someone listens) */
    e->kind = (uint8_t)kind;
    e->reason = 0;
    e->sp = 0;
    e->sm = (uint16_t)s;
    e->warp = 0;
    e->block = block;
    e->t0 = t0;
    e->t1 = t1;
    e->wait_from = t0;
    e->dep = 0;
    e->in = NULL;
    e->fn = NULL;
    e->active = e->exec = 0;
    e->space = 0;
    e->requests = e->sectors = e->wavefronts = e->conflicts = 0;
    e->addr = NULL;
    e->addr_index = UINT32_MAX;
    e->at = at;
    return e;
}

/* Hand the window's events to the listeners in one batch: each SM's by the cycle they were made in (in the order
 * it made them), the SMs' merged by cycle, SM by SM. */
void tm_flush_events(ws_tm *tm)
{
    size_t total = 0;
    for (int s = 0; s < tm->nsm; s++) {
        tsm *sm = &tm->sms[s];
        for (size_t k = 0; k < sm->nev; k++) {   /* the address pool is stable now */
            if (sm->ev[k].addr_index != UINT32_MAX) sm->ev[k].addr = sm->addrs + (size_t)sm->ev[k].addr_index * 32;
            /* insertion into the sorted prefix: nearly in order already (only the serial phase's come late) */
            ws_tm_event e = sm->ev[k];
            size_t j = k;
            while (j > 0 && sm->ev[j - 1].at > e.at) { sm->ev[j] = sm->ev[j - 1]; j--; }
            sm->ev[j] = e;
        }
        total += sm->nev;
    }
    if (!total) return;
    if (total > tm->capbatch) {
        tm->capbatch = total;
        tm->batch = realloc(tm->batch, sizeof *tm->batch * total);
    }
    size_t n = 0, *pos = calloc((size_t)tm->nsm, sizeof *pos);
    while (n < total) {   /* the SM whose next event is earliest (the lowest SM on a tie) */
        int best = -1;
        for (int s = 0; s < tm->nsm; s++)
            if (pos[s] < tm->sms[s].nev && (best < 0 || tm->sms[s].ev[pos[s]].at < tm->sms[best].ev[pos[best]].at))
                best = s;
        uint64_t at = tm->sms[best].ev[pos[best]].at;
        while (pos[best] < tm->sms[best].nev && tm->sms[best].ev[pos[best]].at == at)
            tm->batch[n++] = tm->sms[best].ev[pos[best]++];
    }
    free(pos);
    for (int i = 0; i < tm->nlis; i++)
        if (tm->lis[i]->events) tm->lis[i]->events(tm->lis[i]->ctx, tm->L, tm->batch, total);
    for (int s = 0; s < tm->nsm; s++) { tm->sms[s].nev = 0; tm->sms[s].naddrs = 0; }
}

/* Accumulate resident-warp area of a sub-partition up to time t. */
static void area_update(tsp *sp, uint64_t t)
{
    if (t > sp->area_t) { sp->active_area += (uint64_t)sp->nres * (t - sp->area_t); sp->area_t = t; }
}

static tblk *tblk_get(ws_tm *tm, int nwarps);

/* Place block lin on SM s at cycle now, its warps issuing from cycle t (>= now: the distributor's launch). Resident
 * warps are counted from now, so that the occupancy area stays a sum over cycles already simulated. */
static void place_block(ws_tm *tm, int s, int64_t lin, uint64_t now, uint64_t t)
{
    ws_run *L = tm->L;
    tsm *sm = &tm->sms[s];
    ws_block *b;
    /* the block's register rows and shared memory on the SM's own thread, before its next cycle (tm_sm_advance);
     * at once where something observes the launch or other SMs reach its shared memory (clusters) */
    if (L->nobs || L->cluster_size) b = ws_run_block_start(L, (uint64_t)lin);
    else {
        b = ws_run_block_place(L, (uint64_t)lin);
        tm_grow1((void **)&sm->rows, &sm->caprows, sm->nrows, sizeof *sm->rows);
        sm->rows[sm->nrows++] = b;
    }
    tblk *tb = b->user;
    if (!tb) b->user = tb = tblk_get(tm, b->nwarps);
    tb->b = b;
    tb->sm = s;
    b->sm = s;
    b->clock = &sm->now;
    if (!sm->active) { sm->active = 1; tm->act_dirty = 1; }
    if (tm->nlis) tm_emit(tm, s, WS_TE_BLOCK_PLACED, b->linear, t, t, now);
    if (sm->nblocks == 0) sm->busy_since = now;
    sm->nblocks++;
    if (sm->nblocks > tm->max_resident) tm->max_resident = sm->nblocks;
    for (int i = 0; i < b->nwarps; i++) {
        tw *x = &tb->warps[i];
        x->w = &b->warps[i];
        x->blk = tb;
        if (tm->nregs > WS_SR_COUNT) {   /* the scoreboard tracks declared registers only */
            memset(x->rr + WS_SR_COUNT, 0, sizeof(uint64_t) * (size_t)(tm->nregs - WS_SR_COUNT));
            memset(x->rk + WS_SR_COUNT, 0, (size_t)(tm->nregs - WS_SR_COUNT));
        }
        x->last_issue = t;
        x->waiting_bar = 0;
        memset(&x->wg, 0, sizeof x->wg);
        memset(&x->cp, 0, sizeof x->cp);
        memset(&x->bk, 0, sizeof x->bk);
        x->st_ack = 0;
        x->gen++;
        x->nwb = 0;
        x->fresh = 0;
        x->nin = NULL;
        x->age = tm->age++;
        tsp *sp = &sm->sp[sm->warp_rr++ % sm->nsp];
        x->sp = sp;
        area_update(sp, now);
        if (sp->n + 4 > sp->cap) {
            sp->cap = sp->cap ? sp->cap * 2 : 16;
            sp->warps = realloc(sp->warps, sizeof *sp->warps * (size_t)sp->cap);
            sp->rdy = realloc(sp->rdy, sizeof *sp->rdy * (size_t)sp->cap);
            sp->pipe = realloc(sp->pipe, (size_t)sp->cap);
            sp->key = realloc(sp->key, sizeof *sp->key * (size_t)sp->cap);
        }
        x->slot = sp->n;
        sp->rdy[sp->n] = x->ready;
        sp->pipe[sp->n] = (uint8_t)x->npipe;
        if (sp->n < 64) sp->pmask[x->npipe] |= 1ull << sp->n;
        sp->key[sp->n] = (uint32_t)(x->age & 0x3fffffff);
        sp->warps[sp->n++] = x;
        for (int k = sp->n; k % 4; k++) sp->rdy[k] = NEVER;
        sp->nres++;
        tm_compute_ready(tm, x, t);
        tm_wake_for(tm, x);
    }
}

/* Timing state for a block of nwarps warps: one kept from an earlier launch that holds it, else a new one (within
 * a launch it stays with its block's storage: its warps keep their static facts). */
static tblk *tblk_get(ws_tm *tm, int nwarps)
{
    for (tblk **pp = &tm->tb_free; *pp; pp = &(*pp)->next) {
        tblk *tb = *pp;
        if (tb->capwarps < nwarps || tb->capregs < tm->nregs) continue;
        *pp = tb->next;
        /* static facts are made afresh in every launch */
        for (int i = 0; i < tb->capwarps; i++) tb->warps[i].sfn = NULL;
        return tb;
    }
    tblk *tb = calloc(1, sizeof *tb);
    tb->warps = calloc((size_t)nwarps, sizeof *tb->warps);
    tb->capwarps = nwarps;
    tb->capregs = tm->nregs;
    for (int i = 0; i < nwarps; i++) {
        tb->warps[i].rr = calloc((size_t)tm->nregs, sizeof(uint64_t));
        tb->warps[i].rk = calloc((size_t)tm->nregs, 1);
    }
    return tb;
}

/* Free the blocks' timing state kept between launches. */
static void tblk_free_all(ws_tm *tm)
{
    while (tm->tb_free) {
        tblk *tb = tm->tb_free;
        tm->tb_free = tb->next;
        for (int k = 0; k < tb->capwarps; k++) { free(tb->warps[k].rr); free(tb->warps[k].rk); free(tb->warps[k].mx); }
        free(tb->warps);
        free(tb);
    }
}

/* Empty SM state sm for a launch on nsp sub-partitions, keeping its arrays (and their capacities). */
static void sm_reset(tsm *sm, int nsp)
{
    tsm keep = *sm;
    memset(sm, 0, sizeof *sm);
    sm->it = keep.it; sm->capit = keep.capit;
    sm->q = keep.q;
    ws_ms_defer_reset(&sm->q);
    sm->st = keep.st;
    ws_stage_clear(&sm->st);
    sm->acs = keep.acs; sm->capacs = keep.capacs;
    sm->recs = keep.recs; sm->caprecs = keep.caprecs;
    sm->fresh = keep.fresh; sm->capfresh = keep.capfresh;
    sm->rows = keep.rows; sm->caprows = keep.caprows;
    sm->ev = keep.ev; sm->capev = keep.capev;
    sm->addrs = keep.addrs; sm->capaddrs = keep.capaddrs;
    sm->nsp = nsp;
    for (int k = 0; k < 8; k++) {
        tsp *sp = &sm->sp[k];
        sp->warps = keep.sp[k].warps;
        sp->rdy = keep.sp[k].rdy;
        sp->pipe = keep.sp[k].pipe;
        sp->key = keep.sp[k].key;
        sp->cap = keep.sp[k].cap;
        sp->wake = NEVER;
    }
}

/* Free SM state sm's arrays. */
static void sm_free(tsm *sm)
{
    free(sm->it);
    ws_ms_defer_free(&sm->q);
    ws_stage_free(&sm->st);
    free(sm->acs);
    free(sm->recs);
    free(sm->fresh);
    free(sm->rows);
    free(sm->ev);
    free(sm->addrs);
    for (int k = 0; k < 8; k++) {
        free(sm->sp[k].warps);
        free(sm->sp[k].rdy);
        free(sm->sp[k].pipe);
        free(sm->sp[k].key);
    }
}

/* Remove a finished block's warps from their sub-partitions and retire it. */
static void unplace_block(ws_tm *tm, tblk *tb, uint64_t t)
{
    ws_run *L = tm->L;
    tsm *sm = &tm->sms[tb->sm];
    for (int i = 0; i < tb->b->nwarps; i++) {
        tw *x = &tb->warps[i];
        tsp *sp = x->sp;
        area_update(sp, t);
        for (int k = 0; k < sp->n; k++)
            if (sp->warps[k] == x) {
                tw *moved = sp->warps[--sp->n];
                if (k < 64) sp->pmask[sp->pipe[k]] &= ~(1ull << k);
                if (sp->n < 64) sp->pmask[sp->pipe[sp->n]] &= ~(1ull << sp->n);
                if (k < 64 && k != sp->n) sp->pmask[sp->pipe[sp->n]] |= 1ull << k;
                sp->warps[k] = moved;
                sp->rdy[k] = sp->rdy[sp->n];
                sp->pipe[k] = sp->pipe[sp->n];
                sp->key[k] = sp->key[sp->n];
                sp->rdy[sp->n] = NEVER;
                moved->slot = k;
                break;
            }
        x->slot = -1;
        sp->nres--;
        if (sp->last == x) sp->last = NULL;
    }
    if (tm->nlis) tm_emit(tm, tb->sm, WS_TE_BLOCK_RETIRED, tb->b->linear, t, t, t);
    ws_run_block_retire(L, tb->b);
    tm->retired++;
    sm->nblocks--;
    if (sm->nblocks == 0) sm->active_cycles += t - sm->busy_since;
}

/* When block tb, whose last warp finished at t, frees its SM resources: once L2 has acknowledged its stores. */
static uint64_t block_freed(const tblk *tb, uint64_t t)
{
    for (int i = 0; i < tb->b->nwarps; i++) if (tb->warps[i].st_ack > t) t = tb->warps[i].st_ack;
    return t;
}

/* The cycle at which a block that may start at `ready` is launched: the block distributor launches one block per
 * block_dispatch_cycles across the GPU, in the order the blocks are handed out (the serial phase: deterministic).
 * A successor placed by a window's serial phase starts after that window (its SM has simulated it already). */
static uint64_t dispatch_at(ws_tm *tm, uint64_t ready)
{
    if (ready < tm->win_end) ready = tm->win_end;
    double at = (double)ready > tm->dispatch_free ? (double)ready : tm->dispatch_free;
    tm->dispatch_free = at + tm->dev->block_dispatch_cycles;
    return (uint64_t)(at + 0.999999);
}

/* Retire a finished block and admit the next one on its SM. A cluster's blocks stay resident until all of them
 * finished; then they retire together and the next cluster takes their places (the same SMs of one GPC). */
void tm_retire_block(ws_tm *tm, tblk *tb, uint64_t t)
{
    ws_run *L = tm->L;
    if (!tb->b->in_use || !tb->b->done) return;   /* retired with its cluster already */
    if (tb->b->cl) {
        ws_cluster *cl = tb->b->cl;
        if (!ws_cluster_done(tb->b)) return;
        int n = cl->n, sms[WS_CLUSTER_MAX_NONPORTABLE];
        tblk *all[WS_CLUSTER_MAX_NONPORTABLE];
        uint64_t freed = t;
        for (int i = 0; i < n; i++) {
            all[i] = cl->blk[i]->user;
            sms[i] = all[i]->sm;
            uint64_t f = block_freed(all[i], t);
            if (f > freed) freed = f;
        }
        for (int i = 0; i < n; i++) unplace_block(tm, all[i], t);
        for (int i = 0; i < n; i++) {
            int64_t lin = ws_run_next_block(L);
            if (lin < 0) break;
            place_block(tm, sms[i], lin, t, dispatch_at(tm, freed + 1 + (uint64_t)tm->dev->block_launch_cycles));
        }
        return;
    }
    uint64_t freed = block_freed(tb, t);
    unplace_block(tm, tb, t);
    int64_t lin = ws_run_next_block(L);
    if (lin >= 0) place_block(tm, tb->sm, lin, t, dispatch_at(tm, freed + 1 + (uint64_t)tm->dev->block_launch_cycles));
}

/* The first wave of a cluster launch: one cluster per GPC in turn while a GPC has block slots for a whole one, its
 * blocks on the GPC's SMs with the most free slots. 0 when not even one cluster fits. */
static int place_clusters(ws_tm *tm, int bps, uint64_t t)
{
    ws_run *L = tm->L;
    const ws_device *d = tm->dev;
    int gpc[WS_MAX_GPCS + 1], ngpc = ws_device_gpcs(d, gpc), first[WS_MAX_GPCS + 2], csz = L->cluster_size, placed = 0;
    first[0] = 0;
    for (int g = 0; g < ngpc; g++) first[g + 1] = first[g] + gpc[g];
    if (first[ngpc] > tm->nsm) first[ngpc] = tm->nsm;
    int *slots = calloc((size_t)tm->nsm, sizeof *slots);
    for (int s = 0; s < tm->nsm; s++) slots[s] = bps;
    for (int progress = 1; progress;) {
        progress = 0;
        for (int g = 0; g < ngpc; g++) {
            int have = 0;
            for (int s = first[g]; s < first[g + 1] && s < tm->nsm; s++) have += slots[s];
            if (have < csz) continue;
            for (int r = 0; r < csz; r++) {
                int best = -1;
                for (int s = first[g]; s < first[g + 1] && s < tm->nsm; s++)
                    if (slots[s] > 0 && (best < 0 || slots[s] > slots[best])) best = s;
                int64_t lin = ws_run_next_block(L);
                if (lin < 0) goto done;
                place_block(tm, best, lin, t, t);
                slots[best]--;
            }
            placed++;
            progress = 1;
        }
    }
done:
    free(slots);
    return placed > 0 || L->nblocks == 0;
}

/* Release the warps parked at a barrier in every block of tb's cluster (tb's alone outside clusters). */
void tm_cluster_released(ws_tm *tm, tblk *tb, uint64_t t)
{
    ws_cluster *cl = tb->b->cl;
    if (!cl) { tm_barrier_released(tm, tb, t); return; }
    for (int i = 0; i < cl->n; i++) if (cl->blk[i] && cl->blk[i]->user) tm_barrier_released(tm, cl->blk[i]->user, t);
}

/* A warp of tb's block finished: its cluster's barrier may complete without it (serial phase only). */
void tm_cluster_warp_done(ws_tm *tm, tblk *tb, uint64_t t)
{
    if (!tb->b->cl || !tb->b->in_use) return;
    ws_cluster_barrier_check(tb->b);
    tm_cluster_released(tm, tb, t);
}

/* Release warps of block tb parked at a barrier that the core has just completed. */
void tm_barrier_released(ws_tm *tm, tblk *tb, uint64_t t)
{
    for (int i = 0; i < tb->b->nwarps; i++) {
        tw *x = &tb->warps[i];
        if (x->waiting_bar && x->w->state == WS_W_RUN) {
            x->waiting_bar = 0;
            if (tm->nlis) {
                ws_tm_event *e = tm_emit(tm, tb->sm, WS_TE_BARRIER_WAIT, tb->b->linear, x->bar_since, t, t);
                e->warp = (uint32_t)x->w->warp_in_block;
                e->sp = (uint8_t)(x->sp - tm->sms[tb->sm].sp);
            }
            tm_compute_ready(tm, x, t + (uint64_t)tm->dev->lat_bar);
            if (x->ready < t + (uint64_t)tm->dev->lat_bar) tm_set_ready(x, t + (uint64_t)tm->dev->lat_bar);
            x->reason = WS_ST_BARRIER;
            tm_wake_for(tm, x);
        }
    }
}


/* The WS_TE_MEM event of access r of warp x issued at t, ready at done: what it added to the counters (a). */
void tm_mem_event(ws_tm *tm, const tw *x, const ws_rec *r, const ws_ms_access_counts *a, uint64_t t, uint64_t done)
{
    int s = x->blk->sm;
    ws_tm_event *e = tm_emit(tm, s, WS_TE_MEM, x->blk->b->linear, t, done, t);
    e->warp = (uint32_t)x->w->warp_in_block;
    e->sp = (uint8_t)(x->sp - tm->sms[s].sp);
    e->in = r->in;
    e->fn = r->fn;
    e->active = r->active;
    e->exec = r->exec;
    e->space = r->space[__builtin_ctz(r->exec)];
    e->requests = a->requests;
    e->sectors = a->sectors;
    e->wavefronts = a->wavefronts;
    e->conflicts = a->conflicts;
    if (tm->want_addresses) {
        tsm *sm = &tm->sms[s];
        if (sm->naddrs == sm->capaddrs) {
            sm->capaddrs = sm->capaddrs ? sm->capaddrs * 2 : 64;
            sm->addrs = realloc(sm->addrs, sizeof *sm->addrs * 32 * sm->capaddrs);
        }
        memcpy(sm->addrs + sm->naddrs * 32, r->addr, sizeof *sm->addrs * 32);
        e->addr_index = (uint32_t)sm->naddrs++;
    }
}

/* The event of an issue at t (r NULL: only a reconvergence pop happened) after waiting since wait_from, the
 * first dep cycles for `reason`. */
void tm_issue_event(ws_tm *tm, const tw *x, const ws_rec *r, uint64_t t, uint64_t wait_from, uint64_t dep,
                        int reason)
{
    int s = x->blk->sm;
    ws_tm_event *e = tm_emit(tm, s, WS_TE_ISSUE, x->blk->b->linear, t, t + 1, t);
    e->warp = (uint32_t)x->w->warp_in_block;
    e->sp = (uint8_t)(x->sp - tm->sms[s].sp);
    e->wait_from = wait_from;
    e->dep = (uint32_t)dep;
    e->reason = (uint8_t)reason;
    if (r) {
        e->in = r->in;
        e->fn = r->fn;
        e->active = r->active;
        e->exec = r->exec;
    }
}

/* Simulated cycles between two looks at the watchdog, the progress line and a cooperative grid's barrier. */
#define WS_TM_LOOK_CYCLES 16384

/* Windows in which fewer SMs than this have work run on the main thread alone: waking the others would cost more
 * than it saves (which thread simulates an SM changes no result). */
#define WS_TM_PAR_MIN_SMS 2


/* List the SMs a block was placed on in tm->actv. */
static void act_rebuild(ws_tm *tm)
{
    tm->nactv = 0;
    for (int s = 0; s < tm->nsm; s++) if (tm->sms[s].active) tm->actv[tm->nactv++] = s;
    tm->act_dirty = 0;
}


/* The timing engine: run the launch in windows of cycles, each SM's simulated on its own (skipping the cycles it
 * sleeps through) and closed by a serial phase that takes what reached beyond the SMs (tm_window.c). */
static void tm_engine(void *ctx, ws_run *L)
{
    ws_tm *tm = ctx;
    const ws_device *d = tm->dev;
    tm->L = L;
    tm->policy = !strcmp(d->sched_policy, "lrr") ? POL_LRR : !strcmp(d->sched_policy, "lowest") ? POL_LOWEST : POL_GTO;
    tm->nsm = d->sm_count > 0 ? d->sm_count : 1;
    if (!tm->sms) {   /* kept from launch to launch with their arrays (sms_reset empties them) */
        tm->sms = calloc((size_t)tm->nsm, sizeof *tm->sms);
        tm->smwake = calloc((size_t)tm->nsm, sizeof *tm->smwake);
        tm->smat = calloc((size_t)tm->nsm, sizeof *tm->smat);
        tm->actv = calloc((size_t)tm->nsm, sizeof *tm->actv);
        for (int s = 0; s < tm->nsm; s++) ws_ms_attach_defer(tm->ms, s, &tm->sms[s].q);
    }
    int nsp = d->subpartitions > 0 ? d->subpartitions : 4;
    if (nsp > 8) nsp = 8;
    if (tm->sms_nsp != nsp) {   /* the first launch: every SM */
        for (int s = 0; s < tm->nsm; s++) sm_reset(&tm->sms[s], nsp);
        tm->sms_nsp = nsp;
    } else {   /* the SMs the last launch placed blocks on; the others are as sm_reset left them (but for their
                * sub-partitions' area_t, which counts for nothing while no warp is resident) */
        act_rebuild(tm);
        for (int i = 0; i < tm->nactv; i++) sm_reset(&tm->sms[tm->actv[i]], nsp);
    }
    memset(tm->smwake, 0, sizeof *tm->smwake * (size_t)tm->nsm);   /* 0: every SM looks at cycle 0 */
    memset(tm->smat, 0, sizeof *tm->smat * (size_t)tm->nsm);
    /* pipeline issue intervals (cycles between two warp instructions of one sub-partition) */
    int ws = L->warp_size;
    int per_sp = nsp;
    tm->pipe_interval[WS_PIPE_FP32] = d->fp32_lanes_per_sm ? (ws * per_sp + d->fp32_lanes_per_sm - 1) / d->fp32_lanes_per_sm : 1;
    tm->pipe_interval[WS_PIPE_INT] = (ws * per_sp + d->lanes_int_per_sm - 1) / d->lanes_int_per_sm;
    tm->pipe_interval[WS_PIPE_FP64] = (ws * per_sp + d->lanes_fp64_per_sm - 1) / d->lanes_fp64_per_sm;
    tm->pipe_interval[WS_PIPE_SFU] = (ws * per_sp + d->lanes_sfu_per_sm - 1) / d->lanes_sfu_per_sm;
    tm->pipe_interval[WS_PIPE_LSU] = (ws * per_sp + d->lanes_lsu_per_sm - 1) / d->lanes_lsu_per_sm;
    tm->pipe_interval[WS_PIPE_CTRL] = 1;
    /* one texture unit per sub-partition filters a quad (4 lanes) per cycle */
    tm->pipe_interval[WS_PIPE_TEX] = (ws + WS_TM_TEX_LANES_PER_SP - 1) / WS_TM_TEX_LANES_PER_SP;
    tm->pipe_interval[WS_PIPE_TENSOR] = 1;   /* per instruction: tensor_cycles() */
    tm_latency_table(d, tm->lat_cycles, tm->lat_kind);
    for (int p = 0; p < WS_PIPE_COUNT; p++) if (tm->pipe_interval[p] < 1) tm->pipe_interval[p] = 1;
    /* registers tracked by the scoreboard: the largest window of any function */
    tm->nregs = 0;
    for (int i = 0; i < L->mod->nfuncs; i++) if (L->mod->funcs[i].nregs > tm->nregs) tm->nregs = L->mod->funcs[i].nregs;
    /* residency */
    int bps = L->blocks_per_sm;   /* the launch configuration's residency */
    tm->max_resident = 0;
    tm->age = 0;
    tm->retired = 0;
    tm->flops = 0;
    tm->end = 0;
    memset(&tm->last, 0, sizeof tm->last);
    if (tm->flush_all) ws_ms_flush(tm->ms);
    else ws_ms_new_launch(tm->ms);
    ws_ms_reset_counts(tm->ms);
    tm_um_begin(&tm->um);
    /* the L1 gets what the shared-memory carve-out of this launch leaves */
    ws_ms_set_smem_per_sm(tm->ms, (size_t)bps * (L->entry->static_smem + L->dyn_smem + d->smem_reserved_per_block));
    for (int i = 0; i < tm->nlis; i++)
        if (tm->lis[i]->launch_begin) tm->lis[i]->launch_begin(tm->lis[i]->ctx, L, tm->nsm, nsp);
    /* first wave: consecutive blocks go to consecutive SMs (a cluster launch: whole clusters to GPCs) */
    uint64_t start = 0;
    if (L->cluster_size) {
        if (!place_clusters(tm, bps, start)) {
            L->fault = WS_ERR_LAUNCH_FAILURE;
            snprintf(L->fault_msg, sizeof L->fault_msg, "a cluster of %d blocks of %s does not fit in one GPC "
                     "(%d block(s) per SM)", L->cluster_size, L->entry->name, bps);
        }
        goto placed;
    }
    tm->dispatch_free = (double)start;
    tm->win_end = 0;
    for (int round = 0; round < bps; round++)
        for (int s = 0; s < tm->nsm; s++) {
            int64_t lin = ws_run_next_block(L);
            if (lin < 0) goto placed;
            place_block(tm, s, lin, start, dispatch_at(tm, start));
        }
placed:;
    uint64_t t = start, next_look = start + WS_TM_LOOK_CYCLES;
    int gb_armed = 0;          /* cooperative grids: the grid-barrier deadlock check's state */
    uint32_t gb_last = 0;
    tacc acc;
    memset(&acc, 0, sizeof acc);
    int nthreads = tm_threads_for(L, tm->nsm), nwk = tm_pool_grow(tm, nthreads - 1);
    tworker **wk = tm->wk;
    for (int i = 0; i < nwk; i++) memset(&wk[i]->acc, 0, sizeof wk[i]->acc);
    act_rebuild(tm);
    L->timed = 1;
    tm->um_live = tm->um.um && ws_um_any(tm->um.um);
    tm_sched_init();
    tm->win = tm_window_cycles(tm, L);
    tm->tagwk = nwk ? wk[0] : NULL;   /* the serial phases' L2 tag stages run there */
    tm->last_retire = NEVER;
    L->gate = tm_gate;
    L->gate_ctx = tm;
    uint64_t nwin = 0;
    while (!L->fault) {
        /* the next window starts at the earliest cycle an SM has something to do */
        if (tm->act_dirty) act_rebuild(tm);
        uint64_t t0 = NEVER;
        int runnable = 0;
        for (int i = 0; i < tm->nactv; i++) {
            uint64_t c = tm_sm_next(tm, tm->actv[i]);
            if (c < t0) t0 = c;
            runnable += c != NEVER;
        }
        if (t0 >= WS_MS_PEND) {
            if (!L->fault) {
                L->fault = WS_ERR_LAUNCH_FAILURE;
                snprintf(L->fault_msg, sizeof L->fault_msg,
                         "deadlock: no warp of %s can make progress (resident warps all wait at barriers)", L->entry->name);
            }
            break;
        }
        uint64_t h = t0 + tm->win;
        tm->win_end = h;
        tm->nwin = ++nwin;
        L->cycle = t0;
        int par = nwk && runnable >= WS_TM_PAR_MIN_SMS;
        tm_run_phase(tm, &acc, wk, par ? nwk : 0, h);
        tm_phase_serial(tm, &acc, t0, h);
        tm_run_phase(tm, &acc, wk, par ? nwk : 0, 0);
        if (tm->nlis) tm_flush_events(tm);
        t = h - 1;
        if (tm->retired >= L->nblocks) { t = tm->last_retire; break; }
        if (L->cycle < next_look) continue;
        next_look = L->cycle + WS_TM_LOOK_CYCLES;
        if (L->gpu->progress) ws_run_progress(L);
        if (L->coop_ws && ws_run_grid_stuck(L, &gb_armed, &gb_last)) {
            L->fault = WS_ERR_LAUNCH_FAILURE;
            snprintf(L->fault_msg, sizeof L->fault_msg,
                     "deadlock: the grid barrier (this_grid().sync()) of the cooperative kernel %s can never complete: "
                     "the blocks that have not finished wait at it", L->entry->name);
            break;
        }
        ws_run_watchdog(L);
    }
    L->gate = NULL;
    tm->tagwk = NULL;
    ws_run_watchdog(L);   /* and at the end: whether a launch exceeded the limit does not depend on when it was looked at */
    for (int i = 0; i < nwk; i++) {   /* the workers sleep until the next launch */
        tacc *a = &wk[i]->acc;
        atomic_store(&wk[i]->park, 1);
        for (int k = 0; k < WS_ST_COUNT; k++) acc.stall[k] += a->stall[k];
        acc.flops += a->flops;
        acc.tensor_insts += a->tensor_insts;
        acc.tensor_cycles += a->tensor_cycles;
        acc.sass_insts += a->sass_insts;
        if (a->end > acc.end) acc.end = a->end;
        ws_ms_counts_add(tm->ms, &a->mc);
    }
    ws_ms_counts_add(tm->ms, &acc.mc);
    for (int i = 0; i < WS_ST_COUNT; i++) tm->last.stall_cycles[i] = acc.stall[i];
    tm->flops = acc.flops;
    tm->end = acc.end;
    uint64_t end = t > tm->end ? t : tm->end;
    uint64_t drain = ws_ms_drain_cycle(tm->ms);
    if (drain > end) end = drain;
    end += (uint64_t)d->kernel_fixed_cycles;   /* launch ramp and teardown the SMs count as elapsed */
    ws_ms_end_launch(tm->ms);
    /* results */
    ws_tm_result *R = &tm->last;
    R->valid = !L->fault;
    R->cycles = end;
    R->duration_ns = (double)R->cycles / d->sm_clock_mhz * 1e3;
    double act = 0, area = 0, issued = 0, elig = 0;
    for (int s = 0; s < tm->nsm; s++) {
        tsm *sm = &tm->sms[s];
        if (sm->nblocks) sm->active_cycles += end - sm->busy_since;
        act += (double)sm->active_cycles;
        for (int k = 0; k < sm->nsp; k++) {
            tsp *sp = &sm->sp[k];
            area_update(sp, end);
            area += (double)sp->active_area;
            issued += (double)sp->issued;
            elig += (double)sp->eligible_sum;
        }
    }
    R->sm_active_cycles_avg = act / tm->nsm;
    double sp_active = act * (double)nsp;   /* sub-partition active cycles */
    R->warps_active_per_cycle = sp_active > 0 ? area / sp_active : 0;
    R->achieved_occupancy_pct = sp_active > 0 ? 100.0 * area / (act * (double)d->max_warps_per_sm) : 0;
    R->warps_eligible_per_cycle = sp_active > 0 ? elig / sp_active : 0;
    R->issue_active_pct = sp_active > 0 ? 100.0 * issued / sp_active : 0;
    R->blocks_per_sm = bps;
    R->max_resident_blocks = tm->max_resident;
    R->waves = (double)L->nblocks / ((double)bps * tm->nsm);
    R->mem = *ws_ms_counts_get(tm->ms);
    R->flops = tm->flops;
    R->tensor_insts = acc.tensor_insts;
    R->sass_insts = L->entry->sass_w ? (acc.sass_insts + WS_SASS_ONE / 2) / WS_SASS_ONE : 0;
    R->tensor_active_pct = sp_active > 0 ? 100.0 * (double)acc.tensor_cycles / sp_active : 0;
    tm_um_end(&tm->um, &R->um);
    for (int i = 0; i < L->npool; i++) {   /* the blocks' timing state goes back to the pool for the next launches */
        tblk *tb = L->pool[i]->user;
        if (!tb) continue;
        tb->next = tm->tb_free;
        tm->tb_free = tb;
        L->pool[i]->user = NULL;
    }
    /* blocks still resident after a fault are retired by the launcher */
    for (int i = 0; i < L->npool; i++) if (L->pool[i]->in_use) ws_run_block_retire(L, L->pool[i]);
    if (tm->nlis) {
        tm_flush_events(tm);
        for (int i = 0; i < tm->nlis; i++)
            if (tm->lis[i]->launch_end) tm->lis[i]->launch_end(tm->lis[i]->ctx, L, R);
    }
    for (int i = 0; i < tm->nfns; i++) free(tm->fns[i].tab);
    tm->nfns = 0;
    tm->L = NULL;
}

/* Make tm the launch engine of g. */
void ws_tm_attach(ws_tm *tm, ws_gpu *g) { ws_gpu_set_engine(g, tm_engine, tm); }
