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

/* hs_report.c: record one launch for the report and the timing summary. */
void ws_hs_report_launch(const char *kernel, ws_dim3 grid, ws_dim3 block, size_t smem, int status,
                         const ws_launch_stats *st, const ws_occ_result *occ, const ws_tm_result *tm);

/* hs_view.c */
/* Whether the view is collected (WARPSIM_VIEW). */
int ws_hs_view_enabled(void);
/* A new GPU: the view collector watches it (through tm in timing mode, else as an observer). */
void ws_hs_view_install(ws_gpu *g, ws_tm *tm);
/* Write the "view" member of the run report. */
void ws_hs_view_member(ws_json *w, const ws_rep_launch *launches, size_t n);
/* At exit: the view data alone, when WARPSIM_VIEW_JSON names a file. */
void ws_hs_view_files(const ws_rep_launch *launches, size_t n);

/* hs_check.c */
/* Attach the checker (when WARPSIM_CHECK asks for one) to a new GPU. */
void ws_hs_chk_install(ws_gpu *g);
/* Program exit: leak check, ERROR SUMMARY, error count for --check-exit-code. */
void ws_hs_chk_exit(void);
/* The checker whose findings the report lists, or NULL. */
const ws_chk *ws_hs_chk_report(void);

#endif
