/* tmap.h - warpsim's layout of the 128-byte CUtensorMap that cuTensorMapEncodeTiled (src/driver/drv_tmap.c) fills
 * and cp.async.bulk.tensor (src/core/ops_bulk.c) reads: a tiled map of a 1-5 dimensional array in global memory.
 * Header only: the driver, a host library above the core, writes it; the core decodes it. */
#ifndef WS_TMAP_H
#define WS_TMAP_H

#include <stdint.h>

#define WS_TMAP_MAGIC 0x50544d57u   /* "WMTP": a map this layout describes */
#define WS_TMAP_MAX_RANK 5

/* swizzle modes (CUtensorMapSwizzle's first four): the span in bytes whose 16-byte chunks are permuted */
enum ws_tmap_swizzle { WS_TMAP_SWIZZLE_NONE, WS_TMAP_SWIZZLE_32B, WS_TMAP_SWIZZLE_64B, WS_TMAP_SWIZZLE_128B };

typedef struct ws_tmap {
    uint32_t magic;                    /* WS_TMAP_MAGIC */
    uint8_t rank;                      /* dimensions, 1-5 */
    uint8_t elem_size;                 /* bytes per element (1, 2, 4, 8) */
    uint8_t dtype;                     /* CUtensorMapDataType */
    uint8_t swizzle;                   /* enum ws_tmap_swizzle */
    uint64_t addr;                     /* global address of element 0 */
    uint32_t dim[WS_TMAP_MAX_RANK];    /* elements per dimension (1 - 2^32: stored minus 1) */
    uint8_t box[WS_TMAP_MAX_RANK];     /* box elements per dimension (1 - 256: stored minus 1) */
    uint8_t estride[WS_TMAP_MAX_RANK]; /* traversal stride per dimension (1 - 8) */
    uint8_t pad[2];
    uint64_t stride[WS_TMAP_MAX_RANK]; /* bytes between consecutive indices of each dimension (stride[0]: elem_size) */
} ws_tmap;

_Static_assert(sizeof(ws_tmap) <= 128, "a tensor map fits CUtensorMap's 128 bytes");

/* the span of a swizzle mode in bytes (0 for none) */
static inline unsigned ws_tmap_swizzle_span(int sw) { return sw == WS_TMAP_SWIZZLE_NONE ? 0 : 16u << sw; }

/* A shared-memory byte address after a swizzle mode: the 16-byte chunk bits [4, 4+b) are XORed with the bits
 * [7, 7+b) above them, b = 1, 2, 3 for 32B, 64B, 128B (the patterns of the PTX ISA's tensor swizzling modes). */
static inline uint32_t ws_tmap_swizzle(uint32_t a, int sw)
{
    if (sw == WS_TMAP_SWIZZLE_NONE) return a;
    uint32_t mask = (1u << sw) - 1;
    return a ^ (((a >> 7) & mask) << 4);
}

#endif
