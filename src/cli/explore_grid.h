/* explore_grid.h - the explorers of grids, blocks and residency: map (elements to blocks, warps, lanes and
 * SMs), launch (index arithmetic, bounds check, block order, a short grid), fit (the teaching SM's four limits),
 * occupancy (the CUDA Programming Guide's worked examples and waves) and placement (blocks on the two-core GPU
 * over time). Each has an option table, a run function that fills the result object, and a text printer. */
#ifndef WS_CLI_EXPLORE_GRID_H
#define WS_CLI_EXPLORE_GRID_H

#include "explore_run.h"

extern const cli_xopt cli_x_map_opts[], cli_x_launch_opts[], cli_x_fit_opts[], cli_x_occupancy_opts[],
    cli_x_placement_opts[];

/* Run the map explorer into res; 0 or -1 (x->err). */
int cli_x_map_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_map_text(const json_t *res, FILE *out);
/* Run the launch explorer. */
int cli_x_launch_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_launch_text(const json_t *res, FILE *out);
/* Run the fit explorer. */
int cli_x_fit_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_fit_text(const json_t *res, FILE *out);
/* Run the occupancy explorer. */
int cli_x_occupancy_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_occupancy_text(const json_t *res, FILE *out);
/* Run the placement explorer. */
int cli_x_placement_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_placement_text(const json_t *res, FILE *out);

/* The occupancy a run report gives one launch: {"registers", "limits": {"threads", "blocks", "registers",
 * "shared_memory" (null: no limit)}, "blocks_per_sm", "warps_per_block", "warps_per_sm", "occupancy_pct",
 * "limiter", "limiters": [every resource at the minimum]}; NULL when the launch carries none. */
json_t *cli_x_occupancy_of(const json_t *launch, int warp_size);

#endif
