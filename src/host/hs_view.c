/* hs_view.c - the host session's side of the view (`warpsim run --view`): the view collector (src/report/view.h)
 * watches every GPU the session creates when WARPSIM_VIEW is set (options WARPSIM_VIEW_SMS, WARPSIM_VIEW_CYCLES,
 * WARPSIM_VIEW_WARP, WARPSIM_VIEW_LAUNCHES), and at exit its data goes into the run report under "view" and into WARPSIM_VIEW_JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_internal.h"
#include "../report/view.h"
#include "../report/view_html.h"
#include "../report/trace.h"
#include "hs_timeline.h"

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
        view_opt(&o, "WARPSIM_VIEW_LAUNCHES", 'l');
        view = ws_view_create(ws_gpu_device(g), &o);
        if (!view) return;
    }
    ws_view_attach(view, g, tm);
}

/* The view's members (launches, sources, ...) and the host timeline's "host", into the object being written. */
static void view_members(ws_json *w, const ws_rep_launch *launches, size_t n)
{
    ws_view_json_members(view, w, launches, n);
    if (ws_hs_tl_on()) {
        ws_json_key(w, "host");
        ws_rep_host_json(w, ws_hs_tl_data());   /* the caller holds the session's lock */
    }
}

/* Write "view": {...} into the run report being written. */
void ws_hs_view_member(ws_json *w, const ws_rep_launch *launches, size_t n)
{
    if (!view) return;
    ws_json_key(w, "view");
    ws_json_begin_object(w);
    view_members(w, launches, n);
    ws_json_end_object(w);
}

/* Write text (len bytes) to path, or say why not; 0 when written. */
static int write_file(const char *path, const char *what, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    int bad = !f || fwrite(text, 1, len, f) != len;
    if (f && fclose(f) != 0) bad = 1;
    if (bad) fprintf(stderr, "warpsim: cannot write the %s %s: %s\n", what, path, strerror(errno));
    return bad;
}

/* At exit: the view data alone (WARPSIM_VIEW_JSON) and its page (WARPSIM_VIEW_HTML). */
void ws_hs_view_files(const ws_rep_launch *launches, size_t n)
{
    if (!view) return;
    const char *jpath = getenv("WARPSIM_VIEW_JSON"), *hpath = getenv("WARPSIM_VIEW_HTML");
    if (!(jpath && *jpath) && !(hpath && *hpath)) return;
    int locked = ws_hs_lock_timed(2);
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    view_members(&w, launches, n);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    if (locked) ws_hs_unlock();
    size_t len = 0;
    const char *text = ws_json_text(&w, &len);
    if (!text) fprintf(stderr, "warpsim: out of memory writing the view\n");
    if (text && jpath && *jpath) write_file(jpath, "view data", text, len);
    if (text && hpath && *hpath) {
        char title[512];
        snprintf(title, sizeof title, "warpsim view: %s", ws_hs_program_name());
        FILE *f = fopen(hpath, "w");
        int bad = !f || ws_rep_view_html(f, text, len, title) != 0;
        if (f && fclose(f) != 0) bad = 1;
        if (bad) fprintf(stderr, "warpsim: cannot write the view page %s: %s\n", hpath, strerror(errno ? errno : EIO));
        else if (!ws_hs_quiet()) fprintf(stderr, "warpsim: view written to %s (open it in a browser)\n", hpath);
    }
    ws_json_free(&w);
}
