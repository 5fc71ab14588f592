/* explore_mem.h - the explorers of memory traffic: sectors (32-byte sectors one load instruction touches, by
 * stride, and an array of {x, y} records against a separate x[] array), banks (shared-memory rounds of one 8-lane
 * load on 8 banks), tile (the 2 x 2-tiled product, step by step) and roofline (the vector add's simulated point
 * on the teaching device's roofline, and the matrix presets). */
#ifndef WS_CLI_EXPLORE_MEM_H
#define WS_CLI_EXPLORE_MEM_H

#include "explore_run.h"

extern const cli_xopt cli_x_sectors_opts[], cli_x_banks_opts[], cli_x_tile_opts[], cli_x_roofline_opts[];

/* Run the sectors explorer into res; 0 or -1 (x->err). */
int cli_x_sectors_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_sectors_text(const json_t *res, FILE *out);
/* Run the banks explorer. */
int cli_x_banks_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_banks_text(const json_t *res, FILE *out);
/* Run the tile explorer. */
int cli_x_tile_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_tile_text(const json_t *res, FILE *out);
/* Run the roofline explorer. */
int cli_x_roofline_run(cli_xctx *x, json_t *res);
/* Print its result. */
void cli_x_roofline_text(const json_t *res, FILE *out);

#endif
