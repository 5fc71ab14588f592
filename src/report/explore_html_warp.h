/* explore_html_warp.h - the pictures of the warp explorers: latency (cycles x warps, each issue slot coloured by
 * the instruction issued, the waits shown), divergence (the active lanes of every issued instruction) and
 * rare-branch (which warps issue the rare path, random against grouped data). */
#ifndef WS_REPORT_EXPLORE_HTML_WARP_H
#define WS_REPORT_EXPLORE_HTML_WARP_H

#include <stdio.h>
#include <jansson.h>

/* The latency page. */
void ws_rep_xh_latency(FILE *f, const json_t *r);
/* The divergence page. */
void ws_rep_xh_divergence(FILE *f, const json_t *r);
/* The rare-branch page. */
void ws_rep_xh_rare(FILE *f, const json_t *r);

#endif
