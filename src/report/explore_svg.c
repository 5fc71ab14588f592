/* explore_svg.c - the drawing kit of the explorers' pages (explore_svg.h). */
#include "explore_svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The value at a dotted path. */
const json_t *ws_rep_xs_get(const json_t *res, const char *path)
{
    const json_t *v = res;
    char key[128];
    while (v && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key) return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        if (json_is_array(v)) {
            char *end;
            long i = strtol(key, &end, 10);
            v = *end || i < 0 ? NULL : json_array_get(v, (size_t)i);
        } else if (json_is_object(v)) {
            v = json_object_get(v, key);
        } else {
            v = NULL;
        }
        path += n;
        if (*path == '.') path++;
    }
    return v;
}

/* The number at a path. */
double ws_rep_xs_d(const json_t *res, const char *path, double def)
{
    const json_t *v = ws_rep_xs_get(res, path);
    return json_is_number(v) ? json_number_value(v) : def;
}

/* The string at a path. */
const char *ws_rep_xs_s(const json_t *res, const char *path, const char *def)
{
    const json_t *v = ws_rep_xs_get(res, path);
    return json_is_string(v) ? json_string_value(v) : def;
}

/* Write escaped text. */
void ws_rep_xs_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f); break;
        }
    }
}

/* The page's style: one sheet for every explorer. */
static const char g_style[] =
    ":root{--ink:#1f2933;--muted:#6b7785;--grid:#d8dee6;--paper:#fff;--wash:#f4f6f9;--accent:#3558c8;"
    "--ld:#3b6fd8;--add:#2e9a5e;--st:#e07b28;--exit:#9aa5b1;--other:#c3cad4;--idle:#e5484d;--wait:#f2d492;"
    "--true:#3b6fd8;--false:#d9534f;--off:#eef1f5;--hot:#e5484d;--ok:#2e9a5e}"
    "*{box-sizing:border-box}body{margin:0;background:var(--wash);color:var(--ink);"
    "font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}"
    "main{max-width:1180px;margin:0 auto;padding:28px 32px 40px}"
    "header h1{font-size:26px;margin:0 0 4px;letter-spacing:-.01em}header .cmd{font:13px ui-monospace,SFMono-Regular,"
    "Menlo,Consolas,monospace;color:var(--muted);margin:0 0 12px}header .lead{max-width:900px;margin:0 0 18px}"
    ".cards{display:flex;flex-wrap:wrap;gap:12px;margin:0 0 20px}.card{background:var(--paper);border:1px solid "
    "var(--grid);border-radius:10px;padding:10px 14px;min-width:170px;flex:1 1 170px}.card .k{font-size:13px;"
    "color:var(--muted)}.card .v{font-size:22px;font-weight:650}"
    ".card .v small{font-size:13px;font-weight:500;color:var(--muted)}"
    "figure{background:var(--paper);border:1px solid var(--grid);border-radius:12px;margin:0 0 20px;padding:16px 18px}"
    "figure h2{font-size:17px;margin:0 0 8px}figcaption{color:var(--muted);font-size:13px;margin-top:8px;max-width:980px}"
    "svg{display:block;max-width:100%;height:auto}svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,"
    "sans-serif}svg .mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    "table.t{border-collapse:collapse;background:var(--paper);font-size:14px;margin:6px 0 4px}table.t th,table.t td"
    "{border-bottom:1px solid var(--grid);padding:5px 12px;text-align:right}table.t th{color:var(--muted);"
    "font-weight:600;font-size:12px;text-transform:uppercase;letter-spacing:.03em}table.t td:first-child,table.t "
    "th:first-child{text-align:left}table.t tr.hl td{background:#fff6e8}"
    "b.n{font-weight:650}.lim{color:var(--hot);font-weight:650}.note{color:var(--muted);font-size:13px}"
    "ol.steps{margin:4px 0 0;padding-left:22px}ol.steps li{margin:3px 0}code{font:13px ui-monospace,SFMono-Regular,"
    "Menlo,Consolas,monospace;background:var(--wash);padding:1px 4px;border-radius:4px}"
    "footer{color:var(--muted);font-size:12.5px;border-top:1px solid var(--grid);padding-top:10px;margin-top:8px}";

/* Write the head, style and header. */
void ws_rep_xs_begin(FILE *f, const char *name, const char *title, const char *lead)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>warpsim explore ");
    ws_rep_xs_esc(f, name);
    fprintf(f, ": ");
    ws_rep_xs_esc(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<main id=\"explorer\" data-explorer=\"", g_style);
    ws_rep_xs_esc(f, name);
    fprintf(f, "\">\n<header><h1>");
    ws_rep_xs_esc(f, title);
    fprintf(f, "</h1><p class=\"cmd\">warpsim explore ");
    ws_rep_xs_esc(f, name);
    fprintf(f, "</p><p class=\"lead\">%s</p></header>\n", lead);
}

/* Write the head, style and header of another command's page (cmd: the command line shown under the title). */
void ws_rep_xs_begin_page(FILE *f, const char *id, const char *cmd, const char *title, const char *lead)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    ws_rep_xs_esc(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<main id=\"", g_style);
    ws_rep_xs_esc(f, id);
    fprintf(f, "\">\n<header><h1>");
    ws_rep_xs_esc(f, title);
    fprintf(f, "</h1><p class=\"cmd\">");
    ws_rep_xs_esc(f, cmd);
    fprintf(f, "</p><p class=\"lead\">%s</p></header>\n", lead);
}

/* Close the page. */
void ws_rep_xs_end(FILE *f, const char *sources)
{
    fprintf(f, "<footer>%s</footer>\n</main>\n</body>\n</html>\n", sources);
}

/* Format an integer with thousands separators ("8,192"). */
void ws_rep_xs_int(char *buf, size_t cap, long long v)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v);
    size_t n = strlen(digits), o = 0;
    if (v < 0 && o + 1 < cap) buf[o++] = '-';
    for (size_t i = 0; i < n && o + 2 < cap; i++) {
        buf[o++] = digits[i];
        if (n > 3 && (n - i - 1) % 3 == 0 && i + 1 < n) buf[o++] = ',';
    }
    buf[o] = 0;
}

/* Format the number at path into buf; "-" when missing. */
static void fmt_num(char *buf, size_t cap, const json_t *res, const char *path, int prec)
{
    const json_t *v = ws_rep_xs_get(res, path);
    if (!json_is_number(v)) snprintf(buf, cap, "-");
    else if (prec < 0) ws_rep_xs_int(buf, cap, (long long)llround(json_number_value(v)));
    else snprintf(buf, cap, "%.*f", prec, json_number_value(v));
}

/* A number tied to the JSON. */
void ws_rep_xs_num(FILE *f, const json_t *res, const char *path, int prec)
{
    char buf[64];
    fmt_num(buf, sizeof buf, res, path, prec);
    fprintf(f, "<b class=\"n\" data-k=\"");
    ws_rep_xs_esc(f, path);
    fprintf(f, "\">%s</b>", buf);
}

/* The same with a printf-style path. */
void ws_rep_xs_numf(FILE *f, const json_t *res, int prec, const char *fmt, ...)
{
    char path[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    ws_rep_xs_num(f, res, path, prec);
}

/* Open an SVG. */
void ws_rep_xs_svg(FILE *f, const char *id, double w, double h, const char *label)
{
    fprintf(f, "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
               "height=\"%.0f\" role=\"img\" aria-label=\"", id, w, h, w, h);
    ws_rep_xs_esc(f, label);
    fprintf(f, "\">\n<defs><pattern id=\"%s-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
               "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f3f4f6\"/><line x1=\"0\" y1=\"0\" "
               "x2=\"0\" y2=\"6\" stroke=\"#c9ced6\" stroke-width=\"2.5\"/></pattern>"
               "<marker id=\"%s-head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
               "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker></defs>\n",
            id, id);
}

/* Close it. */
void ws_rep_xs_svg_end(FILE *f) { fprintf(f, "</svg>\n"); }

/* A rectangle. */
void ws_rep_xs_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *stroke,
                    const char *cls)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x, y, w > 0 ? w : 0,
            h > 0 ? h : 0, fill ? fill : "none");
    if (stroke) fprintf(f, " stroke=\"%s\"", stroke);
    if (cls) fprintf(f, " class=\"%s\"", cls);
    fprintf(f, "/>\n");
}

/* A rounded rectangle. */
void ws_rep_xs_rrect(FILE *f, double x, double y, double w, double h, double r, const char *fill, const char *stroke)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%.1f\" fill=\"%s\"", x, y,
            w > 0 ? w : 0, h > 0 ? h : 0, r, fill ? fill : "none");
    if (stroke) fprintf(f, " stroke=\"%s\"", stroke);
    fprintf(f, "/>\n");
}

/* A line. */
void ws_rep_xs_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width,
                    const char *dash)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.2f\"", x1, y1, x2,
            y2, stroke, width);
    if (dash) fprintf(f, " stroke-dasharray=\"%s\"", dash);
    fprintf(f, "/>\n");
}

/* Open a text element. */
static void text_open(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.1f\" font-weight=\"%d\" fill=\"%s\"", x, y,
            anchor, size, weight, fill);
}

/* Text. */
void ws_rep_xs_text(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill,
                    const char *text)
{
    text_open(f, x, y, anchor, size, weight, fill);
    fprintf(f, ">");
    ws_rep_xs_esc(f, text);
    fprintf(f, "</text>\n");
}

/* printf-style text. */
void ws_rep_xs_textf(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill,
                     const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ws_rep_xs_text(f, x, y, anchor, size, weight, fill, buf);
}

/* Text of a number tied to the JSON. */
void ws_rep_xs_tnum(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill,
                    const json_t *res, const char *path, int prec)
{
    char buf[64];
    fmt_num(buf, sizeof buf, res, path, prec);
    text_open(f, x, y, anchor, size, weight, fill);
    fprintf(f, " class=\"n\" data-k=\"");
    ws_rep_xs_esc(f, path);
    fprintf(f, "\">%s</text>\n", buf);
}

/* Open a text element whose content follows as ws_rep_xs_span / ws_rep_xs_snum pieces. */
void ws_rep_xs_text_open(FILE *f, double x, double y, const char *anchor, double size, int weight, const char *fill)
{
    text_open(f, x, y, anchor, size, weight, fill);
    fprintf(f, ">");
}

/* A piece of plain text inside an open text element; weight 0 keeps the element's. */
void ws_rep_xs_span(FILE *f, int weight, const char *fill, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!weight && !fill) {
        ws_rep_xs_esc(f, buf);
        return;
    }
    fprintf(f, "<tspan");
    if (weight) fprintf(f, " font-weight=\"%d\"", weight);
    if (fill) fprintf(f, " fill=\"%s\"", fill);
    fprintf(f, ">");
    ws_rep_xs_esc(f, buf);
    fprintf(f, "</tspan>");
}

/* A number tied to the JSON inside an open text element (a tspan with class n and data-k). */
void ws_rep_xs_snum(FILE *f, int weight, const char *fill, const json_t *res, int prec, const char *fmt, ...)
{
    char path[256], buf[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    fmt_num(buf, sizeof buf, res, path, prec);
    fprintf(f, "<tspan class=\"n\" data-k=\"");
    ws_rep_xs_esc(f, path);
    fprintf(f, "\"");
    if (weight) fprintf(f, " font-weight=\"%d\"", weight);
    if (fill) fprintf(f, " fill=\"%s\"", fill);
    fprintf(f, ">%s</tspan>", buf);
}

/* Close an open text element. */
void ws_rep_xs_text_close(FILE *f) { fprintf(f, "</text>\n"); }

/* A circle. */
void ws_rep_xs_circle(FILE *f, double cx, double cy, double r, const char *fill, const char *stroke)
{
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"", cx, cy, r, fill ? fill : "none");
    if (stroke) fprintf(f, " stroke=\"%s\" stroke-width=\"1.5\"", stroke);
    fprintf(f, "/>\n");
}

/* An arrow (the marker of the current SVG is not known here, so the head is drawn as a small triangle). */
void ws_rep_xs_arrow(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width)
{
    ws_rep_xs_line(f, x1, y1, x2, y2, stroke, width, NULL);
    double dx = x2 - x1, dy = y2 - y1, len = sqrt(dx * dx + dy * dy);
    if (len < 1e-9) return;
    double ux = dx / len, uy = dy / len, s = 4.0 + width * 1.5;
    fprintf(f, "<path d=\"M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f z\" fill=\"%s\"/>\n", x2, y2, x2 - ux * s * 1.6 - uy * s,
            y2 - uy * s * 1.6 + ux * s, x2 - ux * s * 1.6 + uy * s, y2 - uy * s * 1.6 - ux * s, stroke);
}

/* A legend entry. */
double ws_rep_xs_key(FILE *f, double x, double y, const char *fill, const char *stroke, const char *words)
{
    ws_rep_xs_rrect(f, x, y - 10, 14, 14, 3, fill, stroke);
    ws_rep_xs_text(f, x + 20, y + 1, "start", 12.5, 400, XS_INK, words);
    return x + 20 + 7.0 * (double)strlen(words) + 18;
}
