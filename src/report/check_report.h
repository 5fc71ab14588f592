/* check_report.h - the findings of `warpsim run --check` as JSON: the value of the run report's "checks" member. */
#ifndef WS_CHECK_REPORT_H
#define WS_CHECK_REPORT_H

#include "json.h"
#include "../check/check.h"

/* Write {"enabled": [check names], "errors": N, "findings": [one object per finding group, one per line]}. */
void ws_rep_checks_json(ws_json *w, const ws_chk *c);

#endif
