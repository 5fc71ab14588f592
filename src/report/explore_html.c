/* explore_html.c - the pictures of `warpsim explore` (explore_html.h). */
#include "explore_html.h"
#include "explore_svg.h"

#include <string.h>

/* Write explorer name's page. */
int ws_rep_explore_html(FILE *f, const char *name, const json_t *res, char *err, size_t errlen)
{
    ws_rep_xs_begin(f, name, ws_rep_xs_s(res, "title", name), "");
    ws_rep_xs_end(f, "");
    (void)err;
    (void)errlen;
    return 0;
}
