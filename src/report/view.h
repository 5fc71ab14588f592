/* view.h - the view collector: what a person wants to see of each kernel launch (docs/view-format.md), gathered
 * while the launch runs and written as JSON: per-instruction and per-source-line counts (warp instructions, active
 * lanes, global requests and sectors, shared wavefronts and conflicts; issue cycles and stall reasons in timing
 * mode), blocks on SMs over time, a warp timeline window, one warp's active masks, and the lanes' addresses of
 * the first execution of each memory instruction. In functional mode it observes the core (src/core/observe.h);
 * in timing mode it listens to the timing model (src/timing/tm_events.h) and the simulation keeps both threads.
 * Everything is bounded (limits in the options); what had to stop says "truncated". */
#ifndef WS_VIEW_H
#define WS_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include "json.h"
#include "run_report.h"
#include "../core/sim.h"
#include "../device/device.h"

#define WS_VIEW_MAX_SMS 8

typedef struct ws_view_opts {
    int sms[WS_VIEW_MAX_SMS];  /* SMs whose warp timeline is kept (default 0 and 1) */
    int nsms;
    uint64_t t0, t1;           /* the timeline's cycle window [t0, t1) (default 0 to 20,000) */
    uint64_t div_block;        /* the warp whose active masks are kept: grid-linear block ... */
    int div_warp;              /* ... and warp within it (default 0:0) */
    int max_detailed;          /* launches that keep timeline, blocks, divergence and memory samples (default 16) */
    size_t max_launches;       /* launches kept at all (default 1,024); later ones are only counted */
    size_t max_timeline;       /* timeline entries per launch (default 400,000) */
    size_t max_blocks;         /* block entries per launch (default 1,000,000) */
} ws_view_opts;

typedef struct ws_view ws_view;
struct ws_tm;

/* The default options. */
void ws_view_default_opts(ws_view_opts *o);
/* Parse "A:B" cycles, "0,1" SMs, "BLOCK:WARP" or a count of detailed launches into o (which = 'c', 's', 'w' or
 * 'l'); 0, or -1 with a message. */
int ws_view_parse_opt(ws_view_opts *o, int which, const char *s, char *err, size_t errlen);
/* Create a collector for device d. */
ws_view *ws_view_create(const ws_device *d, const ws_view_opts *o);
/* Watch launches on g: in timing mode through the timing model tm (listener), else as an observer of g. */
void ws_view_attach(ws_view *v, ws_gpu *g, struct ws_tm *tm);
/* Stop watching g (and tm). */
void ws_view_detach(ws_view *v, ws_gpu *g, struct ws_tm *tm);
/* Write the members of the "view" object (version, mode, device, sources, launches) into the open object of w;
 * launches[i] is the run report's record of the i-th launch the collector saw (n of them). */
void ws_view_json_members(ws_view *v, ws_json *w, const ws_rep_launch *launches, size_t n);
/* Launches seen so far. */
size_t ws_view_launches(const ws_view *v);
/* Free the collector (detach it first). */
void ws_view_destroy(ws_view *v);

#endif
