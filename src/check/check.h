/* check.h - warpsim's bug checkers: memcheck, racecheck, synccheck, initcheck and deadlock detection, run as one
 * observer of the functional core (src/core/observe.h). Findings are grouped per site, printed in
 * compute-sanitizer's shape ("========= Invalid __global__ write of size 4 bytes" ...), counted for the
 * "ERROR SUMMARY" line and written into the --report JSON. The runtime (src/runtime/rt_check.c) creates the
 * checker when `warpsim run --check` asks for it; with checking off nothing is attached. */
#ifndef WS_CHECK_H
#define WS_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../core/sim.h"

/* the checks, as bits */
enum {
    WS_CHK_MEMCHECK = 1,   /* out of bounds, misaligned, freed memory, host pointers, trap/assert, leaks */
    WS_CHK_RACECHECK = 2,  /* shared and global memory hazards between threads not ordered by barriers/fences */
    WS_CHK_SYNCCHECK = 4,  /* divergent barriers, bad member masks, shared entries left unwritten by exited threads */
    WS_CHK_INITCHECK = 8,  /* reads of global or shared memory nobody wrote */
    WS_CHK_DEADLOCK = 16,  /* no warp can make progress: barriers that cannot complete, spin waits on blocks */
    WS_CHK_ALL = 31
};

typedef struct ws_chk ws_chk;

/* Fills up to n lines (each at most 200 bytes) describing the host call stack of the current runtime call
 * (e.g. "main+0x8c in app"); returns how many. Provided by the runtime. */
typedef int (*ws_chk_host_fn)(char (*lines)[200], int n);

/* Parse a check list ("memcheck,racecheck", "all", or empty for all) into bits; 0, or -1 with a message. */
int ws_chk_parse(const char *spec, unsigned *checks, char *err, size_t errlen);
/* Name of one check bit ("memcheck", ...). */
const char *ws_chk_name(unsigned check);

/* Create a checker for the given checks, printing to out. */
ws_chk *ws_chk_create(unsigned checks, FILE *out);
/* Report leaked device allocations when the GPU goes away or at exit (--leak-check). */
void ws_chk_set_leak_check(ws_chk *c, int on);
/* Where host call stacks come from (kernel launches, API errors, allocations). */
void ws_chk_set_host_frames(ws_chk *c, ws_chk_host_fn fn);
/* Attach the checker to a GPU (its observer); a new GPU after cudaDeviceReset is attached again. */
void ws_chk_attach(ws_chk *c, ws_gpu *g);
/* Free the checker (detach it first by destroying or re-observing its GPU). */
void ws_chk_destroy(ws_chk *c);

/* A runtime call failed with NVIDIA's error code: report it with its API name and host frames. */
void ws_chk_api_error(ws_chk *c, int code, const char *ename, const char *estr, const char *api);
/* End of the program: leak check (if on) for the current GPU, then the ERROR SUMMARY line. */
void ws_chk_finish(ws_chk *c);
/* Demangle a C++ name with the program's libstdc++ demangler, when loaded (else copy it). */
void ws_chk_demangle(const char *name, char *buf, size_t cap);
/* Errors found so far. */
unsigned long ws_chk_errors(const ws_chk *c);
/* Write `"checks": {...}` (without a leading comma) describing every finding as JSON. */
void ws_chk_json(const ws_chk *c, FILE *out);

#endif
