/* explore_html_mem.c - the pictures of the memory explorers (explore_html_mem.h). */
#include "explore_html_mem.h"
#include "explore_svg.h"

/* The sectors page. */
void ws_rep_xh_sectors(FILE *f, const json_t *r) { ws_rep_xs_begin(f, "sectors", "x", ""); ws_rep_xs_end(f, ""); (void)r; }
/* The banks page. */
void ws_rep_xh_banks(FILE *f, const json_t *r) { ws_rep_xs_begin(f, "banks", "x", ""); ws_rep_xs_end(f, ""); (void)r; }
/* The tile page. */
void ws_rep_xh_tile(FILE *f, const json_t *r) { ws_rep_xs_begin(f, "tile", "x", ""); ws_rep_xs_end(f, ""); (void)r; }
/* The roofline page. */
void ws_rep_xh_roofline(FILE *f, const json_t *r) { ws_rep_xs_begin(f, "roofline", "x", ""); ws_rep_xs_end(f, ""); (void)r; }
