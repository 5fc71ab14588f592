/* view_html.h - the view page (src/report/view_page.html): one self-contained HTML file that draws a program's
 * kernel launches from the run report's "view" JSON (docs/view-format.md). The page is compiled into warpsim
 * (the Makefile turns the .html into $(B)/gen/view_page.c); this unit fills in its title and embeds the JSON. */
#ifndef WS_VIEW_HTML_H
#define WS_VIEW_HTML_H

#include <stddef.h>
#include <stdio.h>

/* The page template, NUL-terminated, and its length (generated from src/report/view_page.html). */
extern const char ws_rep_view_page[];
extern const size_t ws_rep_view_page_len;

/* Write the page to out with view_json (len bytes: the "view" object's JSON text) embedded in its
 * <script type="application/json" id="warpsim-data"> element and title (NULL: "warpsim view") as its title.
 * Inside the JSON every '<' is written as the JSON escape \u003c, so no "</script>" (or "<!--") in a string can
 * end the element early; the JSON's meaning is unchanged (a '<' can only occur inside a JSON string). The title
 * is HTML-escaped. 0, or -1 when writing failed or the template lacks its placeholders. */
int ws_rep_view_html(FILE *out, const char *view_json, size_t len, const char *title);

#endif
