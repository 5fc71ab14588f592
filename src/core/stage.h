/* stage.h - global-memory writes held back while the timing engine simulates a window of cycles. The SMs of a
 * window run at once, on several threads, so none of them may change global memory that another could read in the
 * same window: an SM's plain stores and atomics are captured here (bytes, or each lane's operands) and applied in
 * the serial phase that closes the window, in (cycle, SM) order. An SM's loads see what the SM itself wrote: the
 * engine asks ws_stage_overlaps and runs an overlapping load in the serial phase, after the writes before it.
 * So a load sees global memory as the windows before left it plus its own SM's writes: CUDA's memory model allows
 * it (another SM's store becomes visible at the window's end, in the order it was made), and the results do not
 * depend on how many threads simulate the SMs. */
#ifndef WS_STAGE_H
#define WS_STAGE_H

#include <stdint.h>
#include <stddef.h>
#include "exec.h"
#include "observe.h"

/* bytes [off, off + len) of the global arena (L->gstore), taken from ws_stage.bytes + data */
typedef struct ws_stage_seg { uint64_t off; uint32_t len, data; } ws_stage_seg;

/* one captured atomic or reduction: each lane's arena offset and operands, applied lane by lane as h_atom does */
typedef struct ws_stage_atom {
    const ws_insn *in;
    uint32_t mask;             /* lanes that execute it */
    uint8_t wb;                /* write the old values to its destination (the result is read later) */
    size_t regs_off;           /* the register window the result goes to (its storage's offset in the warp's register stack:
                                * ws_warp_win) */
    uint64_t off[32], b[32], c[32];
} ws_stage_atomop;

/* one SM's writes of the current window */
typedef struct ws_stage {
    uint8_t *bytes;
    size_t nbytes, capbytes;
    ws_stage_seg *segs;
    uint32_t nsegs, capsegs;
    ws_stage_atomop *atoms;
    uint32_t natoms, capatoms;
    /* the 32-byte sectors written so far (open addressing: sector + 1, 0 empty) with a bit per byte written */
    uint64_t *wkey;
    uint32_t *wbits;
    uint32_t *wused;           /* the slots in use, wn of them */
    uint32_t wcap, wn;
    uint64_t wlo, whi;         /* the bytes written lie in [wlo, whi) (when wn > 0) */
    int unknown;               /* a write of unknown extent is pending (an instruction left whole to the serial
                                * phase): every later load of global memory waits for it too */
} ws_stage;

/* Capture store r of warp w (a plain st whose executing lanes all address the arena, aligned to their size): its
 * bytes as segments [*seg0, *seg0 + *nseg). Returns 0, capturing nothing, when it cannot be (the real handler
 * then runs in the serial phase and reports what is wrong). */
int ws_stage_store(ws_stage *s, ws_warp *w, const ws_rec *r, uint32_t *seg0, uint32_t *nseg);
/* Capture atomic or reduction r of warp w (its executing lanes all in the arena, aligned); wb: its result is read,
 * so the serial phase writes the old values to its destination; *idx: the capture. 0 when it cannot be. */
int ws_stage_atom(ws_stage *s, ws_warp *w, const ws_rec *r, int wb, uint32_t *idx);
/* Apply captured segments [seg0, seg0 + nseg) to L's global memory. */
void ws_stage_apply_store(const ws_stage *s, ws_run *L, uint32_t seg0, uint32_t nseg);
/* Apply captured atomic idx for warp w (the results to its register window when wb). */
void ws_stage_apply_atom(const ws_stage *s, ws_warp *w, uint32_t idx);
/* Whether load r (its executing global lanes) reads bytes the SM wrote in this window. */
int ws_stage_overlaps(const ws_stage *s, const ws_rec *r);
/* A write of r's executing global lanes left to the serial phase (later loads of those bytes wait for it). */
void ws_stage_mark(ws_stage *s, const ws_rec *r);
/* Where the executing lanes of r go: WS_STAGE_GLOBAL (some lanes in global or constant memory inside L's arena,
 * aligned to the access size) or'd with WS_STAGE_OTHER (some in the SM's own spaces: shared, local, parameters);
 * WS_STAGE_BAD when a lane is anywhere else (another block's shared memory, outside the arena, misaligned). */
enum { WS_STAGE_BAD = -1, WS_STAGE_GLOBAL = 1, WS_STAGE_OTHER = 2 };
int ws_stage_lanes(const ws_run *L, const ws_rec *r);
/* Whether the SM wrote global memory in this window (or left a write of unknown extent to the serial phase). */
static inline int ws_stage_written(const ws_stage *s) { return s->wn || s->unknown; }
/* Forget the window's writes (after the serial phase applied them). */
void ws_stage_clear(ws_stage *s);
/* Free s's arrays. */
void ws_stage_free(ws_stage *s);

#endif
