/* explore_html_warp.c - the pictures of the warp explorers (explore_html_warp.h). */
#include "explore_html_warp.h"
#include "explore_svg.h"

/* The latency page. */
void ws_rep_xh_latency(FILE *f, const json_t *r) { ws_rep_xs_begin(f, "latency", "x", ""); ws_rep_xs_end(f, ""); (void)r; }
/* The divergence page. */
void ws_rep_xh_divergence(FILE *f, const json_t *r) { ws_rep_xs_begin(f, "divergence", "x", ""); ws_rep_xs_end(f, ""); (void)r; }
/* The rare-branch page. */
void ws_rep_xh_rare(FILE *f, const json_t *r) { ws_rep_xs_begin(f, "rare-branch", "x", ""); ws_rep_xs_end(f, ""); (void)r; }
