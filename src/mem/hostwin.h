/* hostwin.h - host memory the device also addresses (managed memory, page-locked host memory) at fixed addresses:
 * each kind has a window of the address space, and allocations are placed first-fit in it, so the same program
 * gets the same addresses in every run. The timing model's caches index by address, so addresses that moved with
 * the C library's heap and ASLR made cycle counts differ between runs of one managed-memory program. */
#ifndef WS_HOSTWIN_H
#define WS_HOSTWIN_H

#include <stddef.h>
#include <stdint.h>

/* the windows (beside mem.h's device ranges) */
#define WS_MANAGED_WIN  0x350000000000ull  /* cudaMallocManaged */
#define WS_PINNED_WIN   0x360000000000ull  /* cudaMallocHost / cudaHostAlloc */
#define WS_HOSTWIN_SPAN 0x10000000000ull   /* 1 TiB each */
/* allocations are placed and sized in units of this (the unified-memory page of every preset divides it) */
#define WS_HOSTWIN_ALIGN ((size_t)2 << 20)

enum ws_hostwin_kind { WS_HOSTWIN_MANAGED, WS_HOSTWIN_PINNED };

/* Zero-filled, read-write memory of size bytes in the window of kind (MAP_NORESERVE: pages are committed when
 * touched, so managed memory can exceed the device's and the host's free memory until it is used); NULL when
 * the window is full or the mapping fails. Thread-safe. */
void *ws_hostwin_alloc(int kind, size_t size);
/* Release an allocation of ws_hostwin_alloc; -1 when p is not one. */
int ws_hostwin_free(void *p);
/* Bytes the allocation at p spans (its size rounded up to WS_HOSTWIN_ALIGN), 0 when p is not one. */
size_t ws_hostwin_span(const void *p);
/* Whether addr lies in the window of kind. */
static inline int ws_hostwin_in(int kind, uint64_t addr)
{
    uint64_t base = kind == WS_HOSTWIN_MANAGED ? WS_MANAGED_WIN : WS_PINNED_WIN;
    return addr - base < WS_HOSTWIN_SPAN;
}

#endif
