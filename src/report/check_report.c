/* check_report.c - the checker's findings (ws_chk_finding) as JSON. */
#include "check_report.h"

/* Write an [x, y, z] array. */
static void dims(ws_json *w, const uint32_t d[3])
{
    ws_json_begin_array(w);
    for (int i = 0; i < 3; i++) ws_json_uint(w, d[i]);
    ws_json_end_array(w);
}

/* Write one finding group as a JSON object. */
static void finding_json(ws_json *w, const ws_chk_finding *f)
{
    ws_json_begin_object(w);
    ws_json_member_string(w, "class", ws_chk_name(f->check));
    ws_json_member_string(w, "title", f->title);
    ws_json_member_string(w, "kernel", f->kernel);
    if (f->file[0]) {
        ws_json_member_string(w, "file", f->file);
        ws_json_member_uint(w, "line", f->line);
    }
    if (f->at[0]) ws_json_member_string(w, "at", f->at);
    if (f->other[0]) ws_json_member_string(w, "and", f->other);
    if (f->has_thread) {
        ws_json_key(w, "thread");
        dims(w, f->thread);
        ws_json_key(w, "block");
        dims(w, f->block);
    }
    ws_json_member_uint(w, "count", f->count);
    ws_json_member_uint(w, "errors", f->errors);
    if (f->detail) ws_json_member_string(w, "detail", f->detail);
    if (f->nhost) {
        ws_json_key(w, "host_frames");
        ws_json_begin_array(w);
        for (int k = 0; k < f->nhost; k++) ws_json_string(w, f->host[k]);
        ws_json_end_array(w);
    }
    ws_json_end_object(w);
}

/* Write the checks' object: enabled checks, the error count and every finding group. */
void ws_rep_checks_json(ws_json *w, const ws_chk *c)
{
    ws_json_begin_object(w);
    ws_json_key(w, "enabled");
    ws_json_begin_array(w);
    unsigned on = ws_chk_enabled(c);
    for (unsigned bit = 1; bit <= WS_CHK_ALL; bit <<= 1)
        if (on & bit) ws_json_string(w, ws_chk_name(bit));
    ws_json_end_array(w);
    ws_json_member_uint(w, "errors", ws_chk_errors(c));
    ws_json_key(w, "findings");
    ws_json_begin_array(w);
    size_t n = ws_chk_findings(c);
    for (size_t i = 0; i < n; i++) {
        ws_chk_finding f;
        if (ws_chk_finding_get(c, i, &f)) continue;
        ws_json_break(w, 2);
        finding_json(w, &f);
    }
    if (n) ws_json_break(w, 0);
    ws_json_end_array(w);
    ws_json_end_object(w);
}
