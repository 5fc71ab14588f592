/* observe.h - the executor's instrumentation interface. The functional core produces one record per executed
 * warp instruction; observers (the checkers, tracers, several at once) and the timing engine consume them. With
 * no observer attached the executor runs its plain loop and pays nothing for this interface. */
#ifndef WS_OBSERVE_H
#define WS_OBSERVE_H

#include "exec.h"

/* one executed warp instruction */
typedef struct ws_rec {
    const ws_insn *in;       /* the decoded instruction (opcode, types, space, flags, .loc line) */
    const ws_func *fn;       /* the function it belongs to */
    uint32_t active;         /* lanes active when it issued (before the guard predicate) */
    uint32_t exec;           /* lanes that executed it (after the guard; pre_mem may clear lanes) */
    int is_mem;              /* 1 for ld/ldu/st/atom/red (addr/space below are valid for lanes in exec) */
    int is_write;            /* st, atom, red */
    int is_read;             /* ld, ldu, atom (atom both reads and writes) */
    unsigned size;           /* bytes each lane accesses (vector loads/stores: all elements) */
    uint8_t space[32];       /* per-lane resolved state space (WS_S_GLOBAL/SHARED/LOCAL/CONST/PARAM_K); generic resolved */
    uint64_t addr[32];       /* per-lane address in that space: global device address, shared offset, local offset */
} ws_rec;

/* callbacks; any may be NULL */
typedef struct ws_observer {
    void *ctx;
    /* a launch starts (after its configuration was checked) / ends (status: WS_OK or the fault) */
    void (*launch_begin)(void *ctx, ws_run *L);
    void (*launch_end)(void *ctx, ws_run *L, int status);
    /* a block becomes resident / finishes */
    void (*block_begin)(void *ctx, ws_run *L, ws_block *b);
    void (*block_end)(void *ctx, ws_run *L, ws_block *b);
    /* before every executed warp instruction, its guard applied (in, fn, active and exec are set, the memory part
     * is not yet): the instruction's source registers still hold their values (initcheck's definedness shadow) */
    void (*pre)(void *ctx, ws_warp *w, const ws_rec *r);
    /* before a memory instruction touches memory: may clear lanes of r->exec (those lanes then skip the access)
     * or stop the kernel with ws_fault */
    void (*pre_mem)(void *ctx, ws_warp *w, ws_rec *r);
    /* after every executed warp instruction (including barriers, branches, calls) */
    void (*post)(void *ctx, ws_warp *w, const ws_rec *r);
    /* an asynchronous copy (cp.async.bulk) that makes no memory record wrote [addr, addr+len) of space
     * (WS_S_SHARED: of block dst's shared memory; WS_S_GLOBAL: global memory); w is the warp that issued it or
     * whose mbarrier operation landed it */
    void (*async_write)(void *ctx, ws_warp *w, ws_block *dst, int space, uint64_t addr, uint64_t len);
    /* host-side memory events (WS_HM_*): allocations, frees, copies and fills done by the runtime */
    void (*host_mem)(void *ctx, int what, uint64_t addr, size_t len);
} ws_observer;

/* what a host_mem event is */
enum {
    WS_HM_ALLOC,     /* cudaMalloc: [addr, addr+len) is a new device allocation (contents undefined) */
    WS_HM_FREE,      /* the device allocation at addr (len bytes) was freed */
    WS_HM_BADFREE,   /* a free of addr failed: not the start of a live allocation */
    WS_HM_WRITE,     /* the host side (cudaMemcpy, cudaMemset) wrote [addr, addr+len) */
    WS_HM_READ,      /* the host side (cudaMemcpy) read [addr, addr+len) */
    WS_HM_RESET      /* the GPU is being destroyed (cudaDeviceReset): every allocation goes */
};

/* Attach an observer to every later launch on g (up to WS_MAX_OBSERVERS; they are called in the order they were
 * added). The observer must outlive those launches. 0, or -1 when there is no room. */
int ws_gpu_add_observer(ws_gpu *g, const ws_observer *obs);
/* Detach an observer added with ws_gpu_add_observer (nothing happens when it is not attached). */
void ws_gpu_remove_observer(ws_gpu *g, const ws_observer *obs);

/* Resolve a generic address for lane l of warp w into (space, address in that space). */
int ws_resolve_generic(const ws_warp *w, uint64_t addr, uint64_t *out);

/* One warp-wide memory access of a matrix instruction or asynchronous copy, for the timing engine: the lanes in
 * mask access size bytes at addr[lane] of space (WS_S_SHARED offsets or WS_S_GLOBAL addresses); 16-byte-row
 * accesses (ldmatrix's) use the first lanes for the rows. */
typedef struct ws_mx_access {
    uint64_t addr[32];
    uint32_t mask;
    uint8_t space, size;
} ws_mx_access;
#define WS_MX_MAX_ACCESSES 32   /* the most a wmma.load/store makes */
/* The accesses a wmma.load / wmma.store of warp w (just executed) makes, as the SASS that implements it on sm_70+
 * does: 16-bit fragments (and 8-bit ones whose registers hold bytes contiguous in memory) from shared memory as
 * ldmatrix rows (eight 16-byte rows an access: LDSM, .trans where needed); otherwise one access per chunk of each
 * lane's elements contiguous in memory (up to 16 bytes: LDS/LDG/STG.32/64/128, LDS.U8 for a gathered byte).
 * Returns their number (0: none, or not such an instruction). */
int ws_mma_accesses(ws_warp *w, const ws_insn *in, ws_mx_access *out);

#endif
