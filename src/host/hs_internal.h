/* hs_internal.h - what the host session's files share (session.c, hs_launch.c, hs_report.c, hs_check.c). */
#ifndef WS_HS_INTERNAL_H
#define WS_HS_INTERNAL_H

#include "session.h"
#include "../analysis/occupancy.h"
#include "../check/check.h"
#include "../report/run_report.h"
#include "../timing/timing.h"

/* The timing model, or NULL in functional mode. */
ws_tm *ws_hs_tm(void);
/* Whether this process is the one `warpsim run` started (not a child that inherited the environment). */
int ws_hs_root_process(void);
/* The face's name of a status code (for the report), or NULL when none was set. */
const char *ws_hs_error_name(int code);

/* hs_report.c: record one launch for the report and the timing summary; returns its index in the report's
 * "launches" (counted even when no report is written). */
long ws_hs_report_launch(const char *kernel, ws_dim3 grid, ws_dim3 block, size_t smem, int status,
                         const ws_launch_stats *st, const ws_occ_result *occ, const ws_tm_result *tm);

/* The launch of report index `index` is a child grid at nesting depth `depth` of the launch `parent`. */
void ws_hs_report_parent(long index, int depth, long parent);

/* hs_view.c */
/* Whether the view is collected (WARPSIM_VIEW). */
int ws_hs_view_enabled(void);
/* A new GPU: the view collector watches it (through tm in timing mode, else as an observer). */
void ws_hs_view_install(ws_gpu *g, ws_tm *tm);
/* Write the "view" member of the run report. */
void ws_hs_view_member(ws_json *w, const ws_rep_launch *launches, size_t n);
/* At exit: the view data alone, when WARPSIM_VIEW_JSON names a file. */
void ws_hs_view_files(const ws_rep_launch *launches, size_t n);
/* hs_timeline.c */
/* A kernel that ran on stream `stream` (its launch: index in the report's "launches"), from t0 to t1. */
void ws_hs_tl_kernel(const char *name, ws_dim3 grid, ws_dim3 block, int stream, long launch, double t0, double t1);
/* A new simulated GPU and its timing model (NULL in functional mode): the device's name and clock; the block
 * listener when a trace is written. */
void ws_hs_tl_install(ws_gpu *g, ws_tm *tm);
/* At exit, before the report is written: end the NVTX ranges still open. */
void ws_hs_tl_close(void);
/* At exit: end open NVTX ranges, write the trace, print the statistics. */
void ws_hs_tl_finish(void);

/* hs_um.c */
struct ws_um;
struct ws_um_counts;
/* The page table shared with the timing model (NULL until a managed allocation is tracked). */
struct ws_um *ws_hs_um_table(void);
/* Around every launch: begin prices the CPU faults so far and unprotects the pages; end protects them again and
 * puts the launch's GPU fault batches on the timeline (the launch ran on stream from t0; timed: it has a
 * simulated interval). */
void ws_hs_um_launch_begin(void);
void ws_hs_um_launch_end(int stream, double t0, int timed);
/* CPU page faults and their bytes priced before the launch just recorded. */
void ws_hs_um_launch_cpu(uint64_t *faults, uint64_t *bytes);
/* The run's totals and the page size (NULL / 0 when nothing was tracked). */
const struct ws_um_counts *ws_hs_um_counts(void);
size_t ws_hs_um_page_bytes(void);
/* The launch of report index `index` (the last one recorded) took cpu_faults CPU faults moving cpu_bytes first. */
void ws_hs_report_um(long index, uint64_t cpu_faults, uint64_t cpu_bytes);

/* hs_progress.c */
/* Install the progress line's callback on a new GPU (when stderr is a terminal and not quiet). */
void ws_hs_progress_install(ws_gpu *g);
/* A launch of kernel (mangled name) over `blocks` blocks starts / ended (the line is erased). */
void ws_hs_progress_begin(const char *kernel, uint64_t blocks);
void ws_hs_progress_end(void);

/* hs_check.c */
/* Attach the checker (when WARPSIM_CHECK asks for one) to a new GPU. */
void ws_hs_chk_install(ws_gpu *g);
/* Program exit: leak check, ERROR SUMMARY, error count for --check-exit-code. */
void ws_hs_chk_exit(void);
/* The checker whose findings the report lists, or NULL. */
const ws_chk *ws_hs_chk_report(void);

#endif
