/* explore_svg.h - the drawing kit of the explorers' pages (explore_html.c): the page frame (inline CSS, no
 * script, no network), numbers tied to the result JSON, and SVG primitives. Every number a page shows from the
 * result is written by ws_rep_xs_num as <b class="n" data-k="PATH">TEXT</b>, PATH being its place in the
 * explorer's --json output ("cases.0.blocks_per_sm"), so a test can compare the page with the JSON. */
#ifndef WS_REPORT_EXPLORE_SVG_H
#define WS_REPORT_EXPLORE_SVG_H

#include <stdio.h>
#include <jansson.h>

/* The colours the pictures share (CSS custom properties of the page, usable as fill="var(--ld)"). */
#define XS_INK "#1f2933"
#define XS_MUTED "#6b7785"
#define XS_GRID "#d8dee6"
#define XS_PAPER "#ffffff"

/* The value at a dotted path of res ("runs.0.sectors": object keys and array indexes), or NULL. */
const json_t *ws_rep_xs_get(const json_t *res, const char *path);
/* The number at a path (def when absent or not a number). */
double ws_rep_xs_d(const json_t *res, const char *path, double def);
/* The string at a path (def when absent). */
const char *ws_rep_xs_s(const json_t *res, const char *path, const char *def);

/* Write the page's head, style and header: title, the command line, a lead paragraph (HTML). */
void ws_rep_xs_begin(FILE *f, const char *name, const char *title, const char *lead);
/* The same frame for another command's page: main id, the command line shown, title and lead (HTML). */
void ws_rep_xs_begin_page(FILE *f, const char *id, const char *cmd, const char *title, const char *lead);
/* Close the page, with the footer saying where the data came from (HTML). */
void ws_rep_xs_end(FILE *f, const char *sources);
/* Write text with &, <, >, " escaped. */
void ws_rep_xs_esc(FILE *f, const char *s);
/* Write the number at path as <b class="n" data-k="path">: prec < 0 as an integer, else with prec decimals;
 * a missing value is written as "-" (data-k still set). */
void ws_rep_xs_num(FILE *f, const json_t *res, const char *path, int prec);
/* The same with a printf-style path. */
void ws_rep_xs_numf(FILE *f, const json_t *res, int prec, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Open an SVG of w x h pixels with an id and an accessible title. */
void ws_rep_xs_svg(FILE *f, const char *id, double w, double h, const char *label);
/* Close it. */
void ws_rep_xs_svg_end(FILE *f);
/* A rectangle; stroke may be NULL (none); cls NULL or a CSS class. */
void ws_rep_xs_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *stroke,
                    const char *cls);
/* A rectangle with rounded corners r. */
void ws_rep_xs_rrect(FILE *f, double x, double y, double w, double h, double r, const char *fill, const char *stroke);
/* A line; dash NULL or a dash array ("3 2"). */
void ws_rep_xs_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width,
                    const char *dash);
/* Text at (x, y): anchor "start", "middle" or "end"; size in pixels; weight 400/600; the text is escaped. */
void ws_rep_xs_text(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill,
                    const char *text);
/* printf-style text. */
void ws_rep_xs_textf(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill,
                     const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* Text of a number tied to the JSON (an SVG <text> with class n and data-k), prec as in ws_rep_xs_num. */
void ws_rep_xs_tnum(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill,
                    const json_t *res, const char *path, int prec);
/* Open a text element whose content follows as ws_rep_xs_span / ws_rep_xs_snum pieces (they flow inline). */
void ws_rep_xs_text_open(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill);
/* A piece of plain text inside an open text element (weight 0 and fill NULL: the element's). */
void ws_rep_xs_span(FILE *f, int weight, const char *fill, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A number tied to the JSON inside an open text element; the path is printf-style; prec as in ws_rep_xs_num. */
void ws_rep_xs_snum(FILE *f, int weight, const char *fill, const json_t *res, int prec, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Close an open text element. */
void ws_rep_xs_text_close(FILE *f);
/* Format an integer with thousands separators ("8,192") into buf. */
void ws_rep_xs_int(char *buf, size_t cap, long long v);
/* A circle. */
void ws_rep_xs_circle(FILE *f, double cx, double cy, double r, const char *fill, const char *stroke);
/* An arrow from (x1, y1) to (x2, y2) with a small head. */
void ws_rep_xs_arrow(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width);
/* A legend entry: a swatch and its words at (x, y); returns the x after it. */
double ws_rep_xs_key(FILE *f, double x, double y, const char *fill, const char *stroke, const char *words);

#endif
