/* device_report.c - a device preset as JSON, from the preset's field table (ws_device_field). */
#include "device_report.h"

/* Write every field of a preset as one JSON object. */
void ws_rep_device_json(ws_json *w, const ws_device *d)
{
    ws_json_begin_object(w);
    ws_json_member_string(w, "name", d->name);
    int n = ws_device_nfields();
    for (int i = 0; i < n; i++) {
        ws_device_value v;
        if (ws_device_field(d, i, &v)) continue;
        ws_json_break(w, 1);
        ws_json_key(w, v.key);
        switch (v.type) {
        case WS_DEVICE_INT: ws_json_int(w, v.i); break;
        case WS_DEVICE_SIZE: ws_json_uint(w, v.z); break;
        case WS_DEVICE_DOUBLE: ws_json_double_g(w, v.d, 10); break;
        case WS_DEVICE_STRING: ws_json_string(w, v.s); break;
        case WS_DEVICE_INTS:
            ws_json_begin_array(w);
            for (int k = 0; k < v.nints; k++) ws_json_int(w, v.ints[k]);
            ws_json_end_array(w);
            break;
        }
    }
    ws_json_end_object(w);
}
