/* hs_view.c - the host session's side of the view (`warpsim run --view`): the view collector (src/report/view.h)
 * watches every GPU the session creates when WARPSIM_VIEW is set (options WARPSIM_VIEW_SMS, WARPSIM_VIEW_CYCLES,
 * WARPSIM_VIEW_WARP), and at exit its data goes into the run report under "view" and into WARPSIM_VIEW_JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_internal.h"
#include "../report/view.h"

static ws_view *view;
static int view_state;   /* 0 not looked at, 1 on, -1 off */

/* Whether WARPSIM_VIEW asks for the view. */
int ws_hs_view_enabled(void)
{
    if (!view_state) {
        const char *e = getenv("WARPSIM_VIEW");
        view_state = e && *e && strcmp(e, "0") ? 1 : -1;
    }
    return view_state > 0;
}

/* Read one view option from the environment into o. */
static void view_opt(ws_view_opts *o, const char *var, int which)
{
    const char *s = getenv(var);
    if (!s || !*s) return;
    char err[256];
    if (ws_view_parse_opt(o, which, s, err, sizeof err)) fprintf(stderr, "warpsim: %s: %s; using the default\n", var, err);
}

/* A new GPU: the collector watches it (timing model tm, or NULL in functional mode). */
void ws_hs_view_install(ws_gpu *g, ws_tm *tm)
{
    if (!ws_hs_view_enabled() || !g) return;
    if (!view) {
        ws_view_opts o;
        ws_view_default_opts(&o);
        view_opt(&o, "WARPSIM_VIEW_SMS", 's');
        view_opt(&o, "WARPSIM_VIEW_CYCLES", 'c');
        view_opt(&o, "WARPSIM_VIEW_WARP", 'w');
        view = ws_view_create(ws_gpu_device(g), &o);
        if (!view) return;
    }
    ws_view_attach(view, g, tm);
}

/* Write "view": {...} into the run report being written. */
void ws_hs_view_member(ws_json *w, const ws_rep_launch *launches, size_t n)
{
    if (!view) return;
    ws_json_key(w, "view");
    ws_json_begin_object(w);
    ws_view_json_members(view, w, launches, n);
    ws_json_end_object(w);
}

/* Write the view's JSON document alone (WARPSIM_VIEW_JSON) at exit. */
void ws_hs_view_files(const ws_rep_launch *launches, size_t n)
{
    if (!view) return;
    const char *jpath = getenv("WARPSIM_VIEW_JSON");
    if (!(jpath && *jpath)) return;
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_view_json_members(view, &w, launches, n);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    size_t len = 0;
    const char *text = ws_json_text(&w, &len);
    if (jpath && *jpath && text) {
        FILE *f = fopen(jpath, "w");
        if (!f || fwrite(text, 1, len, f) != len) fprintf(stderr, "warpsim: cannot write the view data %s\n", jpath);
        if (f) fclose(f);
    }
    ws_json_free(&w);
}
