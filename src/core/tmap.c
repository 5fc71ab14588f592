/* tmap.c - cuTensorMapEncodeTiled's work: check a tiled tensor map's description as the CUDA driver documents
 * its requirements and write it in warpsim's layout (tmap.h) for cp.async.bulk.tensor. */
#include <stdio.h>
#include <string.h>
#include "sim.h"
#include "tmap.h"

/* bytes per element of each CUtensorMapDataType warpsim copies (0: not supported) */
static const uint8_t dtype_size[] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };   /* UINT8 .. TFLOAT32_FTZ */

/* Check and encode a tiled tensor map into out (128 bytes, 64-byte aligned); WS_OK, or WS_ERR_INVALID_VALUE /
 * WS_ERR_NOT_SUPPORTED with the reason in why. */
int ws_tmap_encode(void *out, int dtype, unsigned rank, uint64_t addr, const uint64_t *dims, const uint64_t *strides,
                   const uint32_t *box, const uint32_t *estrides, int interleave, int swizzle, int l2promo, int oobfill,
                   char *why, size_t whylen)
{
#define BAD(code, ...) do { snprintf(why, whylen, __VA_ARGS__); return code; } while (0)
    if (!out || ((uintptr_t)out & 63)) BAD(WS_ERR_INVALID_VALUE, "the CUtensorMap must be 64-byte aligned");
    if (dtype < 0 || dtype >= (int)sizeof dtype_size) BAD(WS_ERR_NOT_SUPPORTED, "tensor map data type %d is not supported by warpsim", dtype);
    if (rank < 1 || rank > WS_TMAP_MAX_RANK) BAD(WS_ERR_INVALID_VALUE, "tensorRank %u (1 to 5)", rank);
    if (interleave != 0) BAD(WS_ERR_NOT_SUPPORTED, "interleaved tensor maps are not supported by warpsim");
    if (swizzle < WS_TMAP_SWIZZLE_NONE || swizzle > WS_TMAP_SWIZZLE_128B)
        BAD(swizzle > WS_TMAP_SWIZZLE_128B && swizzle <= 6 ? WS_ERR_NOT_SUPPORTED : WS_ERR_INVALID_VALUE,
            "swizzle mode %d (warpsim has none, 32B, 64B, 128B)", swizzle);
    if (l2promo < 0 || l2promo > 3) BAD(WS_ERR_INVALID_VALUE, "l2Promotion %d", l2promo);
    if (oobfill != 0) BAD(oobfill == 1 ? WS_ERR_NOT_SUPPORTED : WS_ERR_INVALID_VALUE,
                          "out-of-bounds fill %d (warpsim fills with zeros only)", oobfill);
    if (!addr || (addr & 15)) BAD(WS_ERR_INVALID_VALUE, "globalAddress 0x%llx must be 16-byte aligned", (unsigned long long)addr);
    if (!dims || !box || (rank > 1 && !strides)) BAD(WS_ERR_INVALID_VALUE, "globalDim, globalStrides and boxDim are required");
    unsigned es = dtype_size[dtype];
    ws_tmap t;
    memset(&t, 0, sizeof t);
    t.magic = WS_TMAP_MAGIC;
    t.rank = (uint8_t)rank;
    t.elem_size = (uint8_t)es;
    t.dtype = (uint8_t)dtype;
    t.swizzle = (uint8_t)swizzle;
    t.addr = addr;
    for (unsigned i = 0; i < rank; i++) {
        if (!dims[i] || dims[i] > (1ull << 32)) BAD(WS_ERR_INVALID_VALUE, "globalDim[%u] = %llu (1 to 2^32)", i, (unsigned long long)dims[i]);
        if (!box[i] || box[i] > 256) BAD(WS_ERR_INVALID_VALUE, "boxDim[%u] = %u (1 to 256)", i, box[i]);
        uint32_t e = estrides ? estrides[i] : 1;
        if (!e || e > 8) BAD(WS_ERR_INVALID_VALUE, "elementStrides[%u] = %u (1 to 8)", i, e);
        t.dim[i] = (uint32_t)(dims[i] - 1);
        t.box[i] = (uint8_t)(box[i] - 1);
        t.estride[i] = (uint8_t)e;
        if (i == 0) t.stride[0] = es;
        else {
            uint64_t s = strides[i - 1];
            if (s % 16 || s >= (1ull << 40)) BAD(WS_ERR_INVALID_VALUE, "globalStrides[%u] = %llu (a multiple of 16 below 2^40)", i - 1, (unsigned long long)s);
            t.stride[i] = s;
        }
    }
    if ((uint64_t)box[0] * es % 16) BAD(WS_ERR_INVALID_VALUE, "boxDim[0] x the element size (%llu bytes) must be a multiple of 16",
                                        (unsigned long long)box[0] * es);
    unsigned span = ws_tmap_swizzle_span(swizzle);
    if (span && (uint64_t)box[0] * es > span)
        BAD(WS_ERR_INVALID_VALUE, "the inner box dimension (%llu bytes) exceeds the %u-byte swizzle span", (unsigned long long)box[0] * es, span);
    memset(out, 0, 128);
    memcpy(out, &t, sizeof t);
    return WS_OK;
#undef BAD
}
