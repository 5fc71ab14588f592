/* mem.h - the simulated device address space: global arena, allocation table, generic-address windows. */
#ifndef WS_MEM_H
#define WS_MEM_H

#include <stddef.h>
#include <stdint.h>

/* Fixed device address ranges. They are reserved PROT_NONE in the host process, so a host dereference of a
 * device pointer faults as it would with a real GPU. Fixed addresses keep runs bit-for-bit repeatable. */
#define WS_GLOBAL_BASE  0x300000000000ull  /* global (and constant) memory */
#define WS_GLOBAL_SPAN  0x1000000000ull    /* 64 GiB of address space */
#define WS_SHARED_WIN   0x310000000000ull  /* generic window onto the block's shared memory */
#define WS_LOCAL_WIN    0x320000000000ull  /* generic window onto the thread's local memory */
#define WS_WIN_SPAN     0x100000000ull     /* 4 GiB per window */
#define WS_FUNC_BASE    0x330000000000ull  /* "addresses" of device functions (function pointers): base + 16 * index */
#define WS_PARAM_WIN    0x340000000000ull  /* generic window onto the launch's kernel parameters (cvta.param) */

/* what an allocation is */
enum ws_alloc_kind {
    WS_ALLOC_DEVICE,      /* cudaMalloc */
    WS_ALLOC_MODVAR,      /* a module's .global / .const variable */
    WS_ALLOC_MANAGED,     /* managed memory (one address on host and device) */
    WS_ALLOC_HOST         /* registered / pinned host memory visible to kernels */
};

typedef struct ws_alloc {
    uint64_t addr;
    size_t size;       /* bytes requested */
    size_t span;       /* bytes reserved (aligned) */
    int kind;          /* enum ws_alloc_kind */
    void *host;        /* host-visible allocations: the host pointer (== addr) */
} ws_alloc;

typedef struct ws_mem ws_mem;

/* Most simulated devices of one process: device i's global range starts at WS_GLOBAL_BASE + i * WS_GLOBAL_SPAN,
 * so pointers of different devices never collide (16 ranges fit below WS_SHARED_WIN). */
#define WS_MEM_MAX_DEVICES 16

/* Create the address space of device `index` (reserves the ranges above and the backing store). */
ws_mem *ws_mem_create(size_t capacity, int index);
/* First address of the global range (WS_GLOBAL_BASE + index * WS_GLOBAL_SPAN). */
uint64_t ws_mem_base(const ws_mem *m);
/* Whether addr lies in this address space's global range (allocated or not). */
int ws_mem_in_range(const ws_mem *m, uint64_t addr);
/* Another device's address space as peer `index` (NULL forgets it): its host-visible ranges are always reachable,
 * its global memory only when enabled (peer access); else an access there finds no memory. */
void ws_mem_set_peer(ws_mem *m, int index, ws_mem *peer, int enabled);
/* Release everything. */
void ws_mem_destroy(ws_mem *m);
/* Allocate size bytes aligned to 256; 0 and *addr on success, -1 when out of memory. */
int ws_mem_alloc(ws_mem *m, size_t size, int kind, uint64_t *addr);
/* Leave guard bytes (rounded up to 256) free after every later allocation, inside its span: an access past the
 * end then lands in no other allocation (--check's guard zones). */
void ws_mem_set_guard(ws_mem *m, size_t guard);
/* Free the allocation starting exactly at addr; -1 when addr is not one. */
int ws_mem_free(ws_mem *m, uint64_t addr);
/* Record a host-visible range (managed or pinned host memory) at its host address. */
void ws_mem_add_host(ws_mem *m, void *p, size_t size, int kind);
/* Forget a host-visible range; -1 when unknown. */
int ws_mem_remove_host(ws_mem *m, void *p);
/* Allocation containing addr (device or host-visible), or NULL. */
const ws_alloc *ws_mem_find(const ws_mem *m, uint64_t addr);
/* Device allocation (cudaMalloc or module variable) nearest to addr: the one holding addr in its requested
 * bytes, else the closest one before or after; NULL when there is none. */
const ws_alloc *ws_mem_nearest(const ws_mem *m, uint64_t addr);
/* Host pointer for [addr, addr+len) when it lies inside one allocation, else NULL. */
void *ws_mem_view(ws_mem *m, uint64_t addr, size_t len);
/* Backing store base and committed limit (for the executor's inline fast path). */
uint8_t *ws_mem_store(const ws_mem *m);
/* Bytes of the global range in use (the fast path accepts offsets below this). */
uint64_t ws_mem_limit(const ws_mem *m);
/* Host pointer for an address outside the global arena (host-visible ranges), or NULL. */
void *ws_mem_view_slow(ws_mem *m, uint64_t addr, size_t len);
/* Total and free bytes for cudaMemGetInfo. */
void ws_mem_info(const ws_mem *m, size_t *free_bytes, size_t *total);

#endif
