/* explore_warp.h - the explorers of what a warp issues: latency (LD -> ADD -> STORE warps on one issue slot per
 * cycle, from the view data's issue timeline), divergence (an 8-lane warp through a branch: active masks from the
 * view data, values from the kernel, instruction counts from the run report) and rare-branch (how often a branch
 * that is rare per thread splits a warp, counted by the kernel). */
#ifndef WS_CLI_EXPLORE_WARP_H
#define WS_CLI_EXPLORE_WARP_H

#include "explore_run.h"

extern const cli_xopt cli_x_latency_opts[], cli_x_divergence_opts[], cli_x_rare_opts[];

/* Run the latency explorer into res; 0 or -1 (x->err). */
int cli_x_latency_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_latency_text(const json_t *res, FILE *out);
/* Run the divergence explorer. */
int cli_x_divergence_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_divergence_text(const json_t *res, FILE *out);
/* Run the rare-branch explorer. */
int cli_x_rare_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_rare_text(const json_t *res, FILE *out);

#endif
