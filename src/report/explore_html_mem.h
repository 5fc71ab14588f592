/* explore_html_mem.h - the pictures of the memory explorers: sectors (lanes -> addresses -> 32-byte sectors and
 * 128-byte lines), banks (lanes -> words -> banks, conflicts coloured), tile (the tiled product step by step) and
 * roofline (the roofline with the simulated kernel on it). */
#ifndef WS_REPORT_EXPLORE_HTML_MEM_H
#define WS_REPORT_EXPLORE_HTML_MEM_H

#include <stdio.h>
#include <jansson.h>

/* The sectors page. */
void ws_rep_xh_sectors(FILE *f, const json_t *r);
/* The banks page. */
void ws_rep_xh_banks(FILE *f, const json_t *r);
/* The tile page. */
void ws_rep_xh_tile(FILE *f, const json_t *r);
/* The roofline page. */
void ws_rep_xh_roofline(FILE *f, const json_t *r);

#endif
