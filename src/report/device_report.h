/* device_report.h - a device preset as JSON (`warpsim devices --json NAME`): every field of the preset format. */
#ifndef WS_DEVICE_REPORT_H
#define WS_DEVICE_REPORT_H

#include "json.h"
#include "../device/device.h"

/* Write every field of d as one JSON object: {"name": ..., then each preset key in the preset format's order},
 * one member per line. */
void ws_rep_device_json(ws_json *w, const ws_device *d);

#endif
