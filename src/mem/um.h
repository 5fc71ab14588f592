/* um.h - unified (managed) memory pages, the policy of NVIDIA's UVM driver without time: where each page of every
 * cudaMallocManaged allocation is valid (nowhere yet, the host, the device, or both as read-only duplicates), the
 * advice on it (cudaMemAdvise), the device copies in LRU order (evicted to the host when the device's memory is
 * full: oversubscription), and the counts of faults and migrated bytes. The timing model (src/timing/tm_um.c)
 * prices the GPU's faults, the host session (src/host/hs_um.c) traps the CPU's accesses and prices them and the
 * prefetches. Only timing mode keeps one; functional mode never sees this.
 *
 * A page is the migration unit, um_page_bytes of the preset (64 KiB on the real presets: the GPU's big page,
 * which Linux UVM allocates and, with its density prefetcher, usually migrates whole for a fault on one of its
 * 4 KiB system pages; tests/data/h200/um_faults.txt has the H200's numbers). */
#ifndef WS_UM_H
#define WS_UM_H

#include <stddef.h>
#include <stdint.h>

/* where a page is valid */
enum ws_um_loc {
    WS_UM_NONE,   /* never touched: the first processor to touch it populates it (no transfer) */
    WS_UM_HOST,   /* host memory only */
    WS_UM_DEV,    /* device memory only (the host copy is stale: the host session protects it) */
    WS_UM_BOTH    /* read-mostly duplicates on both (the host may read its copy; a write collapses them) */
};

/* advice bits (cudaMemAdvise) and mapping state of a page */
enum {
    WS_UM_ADV_READ_MOSTLY = 1,   /* cudaMemAdviseSetReadMostly: reads duplicate instead of migrating */
    WS_UM_ADV_PREF_DEV = 2,      /* cudaMemAdviseSetPreferredLocation (the device) */
    WS_UM_ADV_PREF_HOST = 4,     /* cudaMemAdviseSetPreferredLocation (the host): GPU faults map, not migrate */
    WS_UM_ADV_ACCESSED_BY = 8,   /* cudaMemAdviseSetAccessedBy (the device): mapped, accessed over the link */
    WS_UM_MAPPED = 16            /* host page mapped into the GPU's page table (after a PREF_HOST fault) */
};

/* what a GPU access to one page needs */
enum ws_um_need {
    WS_UM_RESIDENT,   /* a device copy is there */
    WS_UM_REMOTE,     /* the host copy is mapped: the access crosses the link, nothing migrates */
    WS_UM_FAULT       /* a page fault (its transition is already applied; htod/dtoh say what it moves) */
};

/* one page */
typedef struct ws_um_page {
    uint8_t loc;        /* enum ws_um_loc */
    uint8_t adv;        /* WS_UM_ADV_* and WS_UM_MAPPED */
    int32_t prev, next; /* LRU list of device copies (page numbers; -1 ends it), most recently used first */
    uint32_t epoch;     /* timing: the launch whose cycle `ready` is */
    uint64_t ready;     /* timing: cycle of that launch at which the page's migration completes */
} ws_um_page;

/* counts since the table was made */
typedef struct ws_um_counts {
    uint64_t gpu_faults;            /* pages the GPU faulted on (first touch, migration, duplicate, mapping) */
    uint64_t cpu_faults;            /* pages the CPU faulted on (first touch or migration back) */
    uint64_t htod_bytes;            /* moved host -> device by GPU faults */
    uint64_t dtoh_bytes;            /* moved device -> host by CPU faults and evictions */
    uint64_t evicted_pages;         /* device copies dropped to make room (oversubscription) */
    uint64_t prefetch_htod_bytes;   /* moved by cudaMemPrefetchAsync */
    uint64_t prefetch_dtoh_bytes;
    uint64_t remote_bytes;          /* timing: bytes the GPU read or wrote over the link in mapped host pages */
} ws_um_counts;

typedef struct ws_um ws_um;

/* An empty table with pages of page_bytes (a power of two). */
ws_um *ws_um_create(size_t page_bytes);
void ws_um_destroy(ws_um *u);
/* Bytes of a page. */
size_t ws_um_page_bytes(const ws_um *u);
/* Bytes of device memory managed pages may occupy (the preset's memory less the device allocations). */
void ws_um_set_capacity(ws_um *u, uint64_t bytes);
/* Track a managed allocation [base, base+size) (every page WS_UM_NONE); 0, or -1 when out of memory. */
int ws_um_add(ws_um *u, uint64_t base, size_t size);
/* Forget the allocation starting at base (its device copies free their room). */
void ws_um_remove(ws_um *u, uint64_t base);
/* Whether any allocation is tracked. */
int ws_um_any(const ws_um *u);
/* Page number of addr, or -1 when addr is in no tracked allocation. */
int64_t ws_um_page_of(const ws_um *u, uint64_t addr);
/* Page gp (a number from ws_um_page_of / ws_um_range). */
ws_um_page *ws_um_page_get(ws_um *u, int64_t gp);
/* Allocation i (0 <= i < count): its base, bytes, first page and page count; returns the count. */
int ws_um_range(const ws_um *u, int i, uint64_t *base, size_t *size, int64_t *first, int64_t *npages);

/* A GPU access (write: a store or atomic) to page gp; for WS_UM_FAULT the page's new state is applied and *htod
 * gets the bytes moved to the device (0 for a first touch, a collapse or a mapping), *dtoh the bytes evicted to
 * make room. */
int ws_um_gpu_access(ws_um *u, int64_t gp, int write, uint64_t *htod, uint64_t *dtoh);
/* A CPU access to page gp that the host copy's protection trapped: the page's new state; returns the bytes moved
 * to the host. No allocation (the host session calls it from a signal handler). */
uint64_t ws_um_cpu_access(ws_um *u, int64_t gp, int write);
/* Protection the host copy of page gp needs: 0 none, 1 read only, 3 read and write (PROT_* values). */
int ws_um_host_prot(const ws_um *u, int64_t gp);
/* cudaMemPrefetchAsync of [addr, addr+len) to the device (to_device) or the host: returns the bytes it moves;
 * *evicted_bytes gets the device copies moved out to make room. */
uint64_t ws_um_prefetch(ws_um *u, uint64_t addr, size_t len, int to_device, uint64_t *evicted_bytes);
/* cudaMemAdvise: set (or clear) advice bit `bit` on the pages of [addr, addr+len). */
void ws_um_advise(ws_um *u, uint64_t addr, size_t len, int bit, int set);
/* Whether every page of [addr, addr+len) has advice bit `bit`. */
int ws_um_range_has(const ws_um *u, uint64_t addr, size_t len, int bit);
/* The counts. */
const ws_um_counts *ws_um_counts_get(const ws_um *u);
/* Add bytes that went over the link without migrating (the timing model). */
void ws_um_add_remote(ws_um *u, uint64_t bytes);

#endif
