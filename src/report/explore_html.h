/* explore_html.h - the pictures of `warpsim explore`: one self-contained HTML page per explorer (inline SVG and
 * CSS, no script, no network), drawn from the explorer's result object alone (what `warpsim explore NAME --json`
 * prints), so the page and the JSON always agree. */
#ifndef WS_REPORT_EXPLORE_HTML_H
#define WS_REPORT_EXPLORE_HTML_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* Write explorer name's page for result res to f. 0, or -1 with a message in err (an unknown explorer). */
int ws_rep_explore_html(FILE *f, const char *name, const json_t *res, char *err, size_t errlen);

#endif
