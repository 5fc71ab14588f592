/* fuse.h - ptxas's shared-memory fusion, as a table per function: ptxas merges scalar 32-bit ld.shared of one
 * base register at offsets k, k+4, k+8, k+12 (k and the base provably 16-byte aligned; 8 for pairs) into one
 * LDS.128 (LDS.64), and two adjacent st.shared of one base at k, k+4 (8-byte aligned) into one STS.64. The first member in program order is the LEADER and carries the fused access (width bytes per lane
 * starting delta bytes before its own address); the others are FOLLOWERs and cost no shared-memory traffic. */
#ifndef WS_FUSE_H
#define WS_FUSE_H

#include <stdint.h>
#include "insn.h"

enum { WS_FUSE_NONE, WS_FUSE_LEADER, WS_FUSE_FOLLOWER };

/* the fusion role of one instruction */
typedef struct ws_fuse {
    uint8_t role;        /* WS_FUSE_* */
    uint8_t width;       /* bytes per lane of the fused access (leader) */
    int16_t delta;       /* leader's offset minus the fused access's start */
} ws_fuse;

/* The fusion table of a linked function: fn->ncode entries (malloc'd; the caller frees it), NULL when out of
 * memory. */
ws_fuse *ws_ptx_fusion(const ws_func *fn);

#endif
