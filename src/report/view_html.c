/* view_html.c - the view page with its data: the template's two placeholders, the title and the JSON, filled in. */
#include <string.h>

#include "view_html.h"

#define TITLE_MARK "@WARPSIM_TITLE@"
#define DATA_MARK "@WARPSIM_DATA@"

/* Write n bytes of text with &, <, > and " as HTML character references; 0, or -1 when writing failed. */
static int put_html_escaped(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *r = NULL;
        switch (s[i]) {
        case '&': r = "&amp;"; break;
        case '<': r = "&lt;"; break;
        case '>': r = "&gt;"; break;
        case '"': r = "&quot;"; break;
        default: break;
        }
        if (r ? fputs(r, out) < 0 : putc(s[i], out) == EOF) return -1;
    }
    return 0;
}

/* Write JSON text for a script element: each '<' as \u003c, everything else as it is; 0, or -1 on failure. */
static int put_json_for_script(FILE *out, const char *s, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '<') continue;
        if (fwrite(s + start, 1, i - start, out) != i - start || fputs("\\u003c", out) < 0) return -1;
        start = i + 1;
    }
    return fwrite(s + start, 1, n - start, out) == n - start ? 0 : -1;
}

/* The page: template up to the title mark, the title, up to the data mark, the JSON, the rest. */
int ws_rep_view_html(FILE *out, const char *view_json, size_t len, const char *title)
{
    const char *page = ws_rep_view_page;
    const char *t = strstr(page, TITLE_MARK);
    const char *d = t ? strstr(t + strlen(TITLE_MARK), DATA_MARK) : NULL;
    if (!out || !d || (!view_json && len)) return -1;
    if (!title) title = "warpsim view";
    const char *rest = d + strlen(DATA_MARK);
    size_t head = (size_t)(t - page), mid = (size_t)(d - (t + strlen(TITLE_MARK)));
    size_t tail = ws_rep_view_page_len - (size_t)(rest - page);
    if (fwrite(page, 1, head, out) != head || put_html_escaped(out, title, strlen(title)) ||
        fwrite(t + strlen(TITLE_MARK), 1, mid, out) != mid || put_json_for_script(out, view_json, len) ||
        fwrite(rest, 1, tail, out) != tail)
        return -1;
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
