/* check.h - warpsim's bug checkers: memcheck, racecheck, synccheck, initcheck and deadlock detection, run as one
 * observer of the functional core (src/core/observe.h). Findings are grouped per site, printed in
 * compute-sanitizer's shape ("========= Invalid __global__ write of size 4 bytes" ...), counted for the
 * "ERROR SUMMARY" line and listed through ws_chk_finding_get (src/report writes them into the --report JSON). The
 * runtime (src/runtime/rt_check.c) creates the checker when `warpsim run --check` asks for it; with checking
 * off nothing is attached. */
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
    WS_CHK_INITCHECK = 8,  /* uses of undefined values: branches, addresses, atomics, global stores, printf, copies */
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
/* Report benign races (on: every write of the race stored the value already there) as warnings, or hide them. */
void ws_chk_set_benign_races(ws_chk *c, int on);
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

/* Most host call-stack lines a finding carries. */
#define WS_CHK_HOST_FRAMES 6

/* One group of findings (one kind at one site), as reports show it; the strings live as long as the checker. */
typedef struct ws_chk_finding {
    unsigned check;              /* WS_CHK_* bit of the check that found it */
    const char *title;           /* the first line of the message */
    const char *kernel;          /* the kernel, or the API function of a host-side finding */
    const char *file;            /* source file, "" when unknown */
    unsigned line;               /* source line (when file is set) */
    const char *at;              /* "kernel(args) in file.cu:8", "" when none */
    const char *other;           /* racecheck: the other access, "" when none */
    int has_thread;              /* thread and block hold the first occurrence */
    uint32_t thread[3], block[3];
    unsigned long count;         /* occurrences (threads, hazards, calls) */
    unsigned long errors;        /* what it adds to the ERROR SUMMARY */
    const char *detail;          /* more lines, '\n'-separated, or NULL */
    int nhost;                   /* host call-stack lines in host[] */
    const char *host[WS_CHK_HOST_FRAMES];
} ws_chk_finding;

/* The check bits the checker runs (WS_CHK_*). */
unsigned ws_chk_enabled(const ws_chk *c);
/* Number of finding groups so far. */
size_t ws_chk_findings(const ws_chk *c);
/* Finding group i (0 <= i < ws_chk_findings) into *f; 0, or -1 when i is out of range. */
int ws_chk_finding_get(const ws_chk *c, size_t i, ws_chk_finding *f);

#endif
