/* chk_int.h - internals shared by the checker's files: findings (check.c), memory shadows (chk_mem.c), definedness
 * (chk_init.c), barriers, warp-synchronous masks and deadlock detection (chk_sync.c). */
#ifndef WS_CHK_INT_H
#define WS_CHK_INT_H

#include "check.h"
#include "../core/observe.h"

/* kinds of findings */
enum {
    CK_OOB, CK_MISALIGNED, CK_FREED, CK_HOSTPTR, CK_TRAP, CK_ASSERT,   /* memcheck, device side */
    CK_BADFREE, CK_LEAK, CK_API,                                      /* host side */
    CK_RACE, CK_RACE_BENIGN,                                          /* racecheck */
    CK_DIVBAR, CK_BARMISMATCH, CK_MASK, CK_EXITED,                    /* synccheck */
    CK_INIT_GLOBAL, CK_INIT_SHARED, CK_INIT_HOST, CK_INIT_USE,        /* initcheck */
    CK_DEADLOCK, CK_WATCHDOG                                          /* deadlock */
};

#define CHK_HOST_LINES 6
/* bytes of guard zone after every allocation under memcheck */
#define CHK_GUARD_BYTES 512

/* instructions the post callback looks at: barriers, fences, warp-synchronous ones, branches, calls and traps */
#define CHK_POST_IFLAGS (WS_IF_BARRIER | WS_IF_FENCE | WS_IF_WARPSYNC | WS_IF_BRANCH | WS_IF_CTRL)

/* one group of findings: one kind at one site (or site pair), with a count */
typedef struct chk_group {
    unsigned cls;              /* WS_CHK_* */
    int kind;                  /* CK_* */
    const void *k1, *k2;       /* grouping keys (instructions) while the launch runs */
    uint64_t k3;               /* more key: access size and direction, or an address */
    unsigned long count;       /* occurrences (threads, hazards, calls) */
    unsigned long errors;      /* what it adds to the ERROR SUMMARY */
    char title[800];           /* first line */
    char where[512];           /* "kernel(args) in file.cu:8" */
    char where2[600];          /* racecheck: the other access */
    char file[256];            /* for JSON */
    unsigned line;
    char kernel[256];
    int has_thread;            /* thread/block below are meaningful */
    uint32_t thr[3], blk[3];   /* first occurrence */
    uint64_t tmin, tmax;       /* block-linear thread ids seen */
    uint64_t bmin, bmax;       /* grid-linear block ids seen */
    char *detail;              /* extra lines (without the "=========" prefix), '\n'-separated */
    int nhost;
    char host[CHK_HOST_LINES][200];
    const char *host_what;     /* "kernel launch time", "error", "allocation time" */
    int printed;
} chk_group;

/* racecheck shadow of one 4-byte word of shared memory; accesses encoded by acc_enc */
typedef struct s_ent {
    uint32_t w, r1, r2;        /* last write, last read, last read by another warp than r1's */
    uint32_t wbar, r1bar, r2bar; /* barrier epochs of the accessing warps */
} s_ent;

/* racecheck shadow of one 4-byte word of global memory (32 bytes; valid while stamp is the launch's) */
typedef struct g_ent {
    uint32_t stamp;            /* launch that touched it (older: nothing this launch) */
    uint32_t blk, acc, bar;    /* last write: grid-linear block, access (acc_enc, 0: none), warp's barrier epoch */
    uint32_t rblk, racc, rbar; /* last plain read, likewise */
    uint16_t fence, rfence;    /* the writer's / reader's block fence count at the access */
} g_ent;

/* per-warp state */
typedef struct chk_warp {
    uint32_t epoch;            /* barriers passed */
    uint32_t tick;             /* loop-head events (sampling) */
    int32_t probe_pc;          /* deadlock probe: last sampled loop head, -1 none */
    uint64_t probe_hash, probe_gen;
    uint64_t conf_gen;         /* gen+1 when confirmed spinning at generation gen */
    uint64_t ran_gen;          /* gen+1 when it executed an instruction during generation gen */
    const ws_insn *loop_in;    /* the backward branch of the spin loop */
    const ws_func *loop_fn;
    uint64_t last_load;        /* a global address it loaded while probed (deadlock report) */
    int has_load;
    const ws_insn *last_bar;   /* the last barrier it passed */
    const ws_func *last_bar_fn;
    uint32_t cp_groups;        /* cp.async groups committed (chk_async.c) */
} chk_warp;

/* initcheck's definedness shadow of one warp (chk_init.c): registers mirror the warp's register stack (one 64-bit
 * word of undefined bits per register lane, predicates as a lane mask in lane 0's word), local memory a byte per
 * byte of each lane's stack; origins name the load that brought the undefined bits in (an instruction site) */
typedef struct chk_ish {
    uint64_t *rsh;             /* per register-stack entry: its undefined bits */
    uint32_t *rorg;            /* per register-stack entry: origin site of those bits (0 none) */
    size_t rcap;               /* entries of rsh/rorg */
    uint8_t *lsh;              /* per local byte of every lane: CHK_LD_* */
    uint32_t *lorg;            /* per 4 local bytes of every lane: origin site of poisoned bytes */
    size_t lcap;               /* bytes of lsh */
    int lfresh;                /* lsh was reset for the warp's block */
    int dirty;                 /* some register bit became undefined since the block began (else all are defined) */
    int depth;                 /* call frames the shadow has followed */
    const ws_func **callee;    /* per frame: the function called (return values) */
    int ccap;
} chk_ish;

/* states of a local byte in chk_ish.lsh */
enum { CHK_LD_DEF, CHK_LD_NEVER, CHK_LD_POISON };

/* where an undefined value came from: the first load of its site in the launch (chk_init.c) */
typedef struct chk_origin {
    uint32_t launch;           /* launch number it was set in (older: unset) */
    uint8_t space;             /* WS_S_GLOBAL / SHARED / LOCAL */
    unsigned size;             /* bytes the load read */
    uint64_t addr;             /* address in that space */
    uint32_t thr[3], blk[3];   /* the thread that loaded it */
} chk_origin;

/* per-block state */
typedef struct chk_blk {
    ws_block *b;               /* key */
    int live;                  /* resident (began, not ended) */
    chk_warp *warps;
    int nwarps;
    s_ent *sh;                 /* racecheck shadow of shared memory */
    size_t sh_n, sh_lo, sh_hi; /* words, touched range */
    uint8_t *sh_init;          /* initcheck: bit per shared byte written */
    uint8_t *sh_poison;        /* initcheck: bit per shared byte whose last store stored undefined bits */
    uint32_t *sh_org;          /* initcheck: per shared word, the origin site of its poisoned bytes */
    int any_poison;            /* some byte of sh_poison is set */
    size_t init_bytes;
    chk_ish *ish;              /* initcheck: per warp, the definedness shadow */
    int nish;
    size_t smem;
    const ws_insn *phase_in[16]; /* the barrier instruction the first arrival of each phase used */
    int exit_noted;            /* some threads exited */
    uint64_t exit_tmin, exit_tmax;
    uint32_t exit_epoch;       /* lowest barrier epoch at which threads exited */
    struct chk_async *pend;    /* cp.async copies not yet waited for (chk_async.c) */
    int npend, cap_pend;
} chk_blk;

/* a device allocation the checker knows of */
typedef struct chk_alloc {
    uint64_t addr;
    size_t size;
    int nhost;
    char (*host)[200];         /* allocation call stack (leak check), or NULL */
} chk_alloc;

struct ws_chk {
    unsigned checks;
    FILE *out;
    int leak_check;
    int benign_races;          /* 1: report benign races (every write stored the value already there) as warnings */
    unsigned long benign;      /* benign races reported (not errors) */
    ws_chk_host_fn host_frames;
    ws_gpu *gpu;
    ws_observer obs;
    /* allocations */
    chk_alloc *live;
    size_t nlive, caplive;
    chk_alloc freed[256];      /* recently freed (use after free) */
    int nfreed, freed_next;
    char pending_free[400];    /* detail of the last bad free, for the API error that follows */
    /* initcheck: bit per global-arena byte written (covers [0, ginit_cover)) */
    uint8_t *ginit;
    size_t ginit_map, ginit_cover;
    /* initcheck's origins, by site number; the launch number they belong to */
    chk_origin *org;
    uint32_t norg;
    uint32_t launch_no;
    /* a host-side copy's source in the arena, until its destination is written (WS_HM_READ, then WS_HM_WRITE) */
    uint64_t hread_off;
    size_t hread_len;
    /* racecheck: global shadow per word of the arena (covers [0, gsh_cover)) */
    g_ent *gsh;
    size_t gsh_map, gsh_cover;
    uint32_t stamp;
    uint32_t *fence;           /* per block (index & (nfence - 1)): fences executed */
    size_t nfence;             /* a power of two */
    /* instruction sites (racecheck shadow stores a site number) */
    const ws_insn **site_in;
    const ws_func **site_fn;
    uint32_t nsites, capsites;
    uint32_t *site_hash;       /* open addressing: site numbers, 0 empty */
    uint32_t site_hcap;
    /* the running launch */
    ws_run *L;
    char kname[512];
    int nhost_launch;
    char host_launch[CHK_HOST_LINES][200];
    chk_blk **btab;            /* open addressing by ws_block pointer */
    size_t btab_cap, btab_n;
    chk_blk *last;
    uint64_t admitted, live_blocks;
    /* memcheck: the launch fails at its end when an access was invalid */
    int mc_fault;
    unsigned mc_lanes;
    char mc_msg[400];
    /* allocation lookup cache */
    uint64_t c_lo, c_hi;
    int c_kind;
    /* deadlock */
    uint64_t since_end;        /* warp instructions since a block last finished */
    uint64_t gen;              /* memory-change generation while probing */
    uint64_t gen_since;        /* since_end when gen last changed */
    int probing, dl_reported;
    int probe_nw;              /* lanes with saved old bytes (stores while probing) */
    uint8_t probe_old[32][16];
    uint8_t *probe_ptr[32];
    unsigned probe_size;
    /* findings */
    chk_group *g;
    size_t ng, capg, open_from;
    unsigned long errors, dropped;
    /* per function: whether each instruction can still reach a barrier or warp-synchronous op before exiting */
    struct chk_fninfo *fninfo;
    size_t nfninfo, capfninfo;
};

/* a grouping key for an instruction's source line (instructions of one line group together) */
const void *chk_line_key(const ws_insn *in, const ws_func *fn);

/* ---- check.c ---- */
/* Find or create the group for a finding; NULL when the table is full. *fresh says it was created. */
chk_group *chk_group_get(ws_chk *c, unsigned cls, int kind, const void *k1, const void *k2, uint64_t k3, int *fresh);
/* Count one occurrence by lane l of warp w in group grp (first occurrence fills thread/block). */
void chk_group_hit(ws_chk *c, chk_group *grp, ws_warp *w, int lane);
/* "func(args) in file:line" for an instruction of fn; file/line also returned. */
void chk_where(ws_chk *c, const ws_func *fn, const ws_insn *in, char *buf, size_t cap, char *file, size_t fcap,
               unsigned *line);
/* Append a formatted line to a group's detail. */
void chk_detail(chk_group *grp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The per-block state of b (created on first use). */
chk_blk *chk_blk_of(ws_chk *c, ws_block *b);
/* Block-linear thread id of lane l of warp w. */
static inline uint64_t chk_thr(const ws_warp *w, int lane)
{
    return (uint64_t)w->warp_in_block * (uint64_t)w->L->warp_size + (uint64_t)lane;
}
/* Format a thread (block-linear id) as x,y,z of the launch's block shape. */
void chk_thr_dims(const ws_run *L, uint64_t t, uint32_t d[3]);
/* Format a block (grid-linear id) as x,y,z. */
void chk_blk_dims(const ws_run *L, uint64_t b, uint32_t d[3]);
/* Demangle a C++ name into buf (the name itself when it is not mangled). */
void chk_demangle(const char *name, char *buf, size_t cap);
/* Copy the launch's host frames into a group. */
void chk_group_launch_frames(ws_chk *c, chk_group *grp);
/* The allocation record holding addr in its requested bytes, else NULL. */
const chk_alloc *chk_live_find(const ws_chk *c, uint64_t addr);
/* Record a new device allocation / forget a freed one. */
void chk_live_add(ws_chk *c, uint64_t addr, size_t size);
void chk_live_remove(ws_chk *c, uint64_t addr);
/* The GPU is being destroyed: leak report, forget its memory. */
void chk_gpu_reset(ws_chk *c);

/* ---- chk_mem.c ---- */
/* Observer: before a memory instruction. */
void chk_pre_mem(void *ctx, ws_warp *w, ws_rec *r);
/* After a wmma.store: mark the bytes it wrote initialized (chk_mem.c). */
void chk_mem_wmma_store(ws_chk *c, ws_warp *w, const ws_rec *r);
/* observer: a bulk copy wrote shared or global memory (initialized from then on) */
void chk_async_write(void *ctx, ws_warp *w, ws_block *dst, int space, uint64_t a, uint64_t len);
/* Bytes [a, a+len) of cb's shared memory were written with defined data outside a store record (chk_mem.c). */
void chk_mem_shared_written(chk_blk *cb, uint64_t a, uint64_t len);
/* Host-side memory events. */
void chk_host_mem(void *ctx, int what, uint64_t addr, size_t len);
/* Make the racecheck shadow cover the launch's arena; reset per launch by a new stamp. */
void chk_mem_launch(ws_chk *c, ws_run *L);
/* Reset a block's shared-memory shadows for a new block. */
void chk_mem_block(ws_chk *c, chk_blk *cb, ws_block *b);
/* Number of an instruction site (1..), 0 when the table is full. */
uint32_t chk_site(ws_chk *c, const ws_insn *in, const ws_func *fn);
/* Release the shadows. */
void chk_mem_free(ws_chk *c);

/* ---- chk_init.c: definedness (initcheck as MemorySanitizer does it) ---- */
/* Observer: before every instruction: propagate definedness through it, report uses of undefined values. */
void chk_init_pre(void *ctx, ws_warp *w, const ws_rec *r);
/* A new block: clear its warps' register shadows, mark their local memory unwritten. */
void chk_init_block(ws_chk *c, chk_blk *cb, ws_block *b);
/* Free a block's shadows. */
void chk_init_blk_free(chk_blk *cb);
/* The shadow of warp w (grown to its register stack). */
chk_ish *chk_init_ish(ws_chk *c, chk_blk *cb, ws_warp *w);
/* Lane l's load of size bytes at a (space sp) is about to run: set its destinations' shadows. undef: bit i set when
 * byte i of the access is undefined (all defined: 0); never: bits of those never written; org: origin of the rest. */
void chk_init_load(ws_chk *c, chk_ish *s, ws_warp *w, const ws_rec *r, int l, int sp, uint64_t a, uint32_t undef,
                   uint32_t never, uint32_t org);
/* Undefined bytes of lane l's store data (bit i: byte i of the stored bytes), its origin in *org. */
uint32_t chk_init_store_undef(const chk_ish *s, ws_warp *w, const ws_rec *r, int l, uint32_t *org);
/* Report a use of an undefined value by lane l: what (CHK_USE_*), origin site, bytes of the use. */
void chk_init_use(ws_chk *c, ws_warp *w, const ws_rec *r, int l, int what, uint32_t org);
/* Lane l read size never-written bytes at a (space sp): the origin site of the value, its origin set. */
uint32_t chk_init_origin(ws_chk *c, ws_warp *w, const ws_rec *r, int l, int sp, uint64_t a, unsigned size);
/* Local-memory shadow of lane l of w at offset a (NULL when outside its stack). */
uint8_t *chk_init_local(chk_ish *s, ws_warp *w, int l, uint64_t a, unsigned size, uint32_t **org);

/* ---- chk_prop.c: definedness through instructions without a memory part ---- */
/* The lanes of mask executed an ALU, move, compare or warp-synchronous instruction: set its destinations'
 * undefined bits from its sources' (S/O: the shadow and origins of the warp's current register window). */
void chk_prop_alu(const ws_warp *w, const ws_insn *in, uint64_t *S, uint32_t *O, uint32_t mask);
/* Registers a tensor, matrix or texture instruction writes for the lanes of mask: defined. */
void chk_prop_define(uint64_t *S, uint32_t *O, const ws_insn *in, uint32_t mask);

/* register shadow access (chk_init.c, chk_prop.c): S and O are a register window's shadow and origins */
/* Run body for every lane l set in mask. */
#define CHK_EACH_LANE(mask, ...) do { \
    for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); __VA_ARGS__; } \
} while (0)

/* Undefined bits of data operand r in lane l (special registers and constants are defined; the carry flag is
 * tracked as a register). */
static inline uint64_t chk_sget(const uint64_t *S, int r, int l)
{
    return r < WS_SR_COUNT && r != WS_SR_CARRY ? 0 : S[(size_t)r * WS_LANES + (size_t)l];
}

/* Origin of operand r's undefined bits in lane l. */
static inline uint32_t chk_oget(const uint32_t *O, int r, int l) { return O[(size_t)r * WS_LANES + (size_t)l]; }

/* Set the undefined bits of destination r in lane l (the sink and special registers keep none). */
static inline void chk_sput(uint64_t *S, uint32_t *O, int r, int l, uint64_t sh, uint32_t org)
{
    if (r < WS_SR_COUNT && r != WS_SR_CARRY) return;
    S[(size_t)r * WS_LANES + (size_t)l] = sh;
    O[(size_t)r * WS_LANES + (size_t)l] = sh ? org : 0;
}

/* Undefined lanes of predicate r. */
static inline uint32_t chk_pget(const uint64_t *S, int r)
{
    return r < WS_SR_COUNT ? 0 : (uint32_t)S[(size_t)r * WS_LANES];
}

/* Set predicate r's undefined lanes under mask (undef: those of them that become undefined, with origin org). */
static inline void chk_pput(uint64_t *S, uint32_t *O, int r, uint32_t mask, uint32_t undef, uint32_t org)
{
    if (r < WS_SR_COUNT) return;
    uint64_t *p = &S[(size_t)r * WS_LANES];
    *p = (uint32_t)((((uint32_t)*p) & ~mask) | (undef & mask));
    for (uint32_t m = undef & mask; m; m &= m - 1) O[(size_t)r * WS_LANES + (size_t)__builtin_ctz(m)] = org;
}

/* Bits of a register a type uses (predicates: the lane's bit). */
static inline uint64_t chk_wmask(int t)
{
    int n = ws_type_size(t);
    return n >= 8 || n <= 0 ? ~0ull : (1ull << (8 * n)) - 1;
}

/* uses of an undefined value that initcheck reports */
enum { CHK_USE_BRANCH, CHK_USE_GUARD, CHK_USE_ADDR, CHK_USE_ATOM, CHK_USE_STORE, CHK_USE_PRINTF, CHK_USE_TARGET,
       CHK_USE_COUNT };

/* ---- chk_sync.c ---- */
/* Observer: after every instruction. */
void chk_post(void *ctx, ws_warp *w, const ws_rec *r);
/* Racecheck of asynchronous copies (chk_async.c): a cp.async issued (site: its chk_site), an access of shared
 * memory while copies are pending, a commit / wait / mbarrier arrival of the issuing warp. */
void chk_async_issue(ws_chk *c, chk_blk *cb, ws_warp *w, const ws_rec *r, uint32_t site);
void chk_async_access(ws_chk *c, chk_blk *cb, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size);
void chk_async_group(ws_chk *c, ws_warp *w, const ws_rec *r);
/* Launch end: describe a deadlock or watchdog stop the engine detected. */
void chk_sync_launch_end(ws_chk *c, ws_run *L, int status);
/* Free the per-function analyses. */
void chk_sync_free(ws_chk *c);

#endif
