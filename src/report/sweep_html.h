/* sweep_html.h - the results page of `warpsim sweep` (OUT/results.html): self-contained (inline CSS and SVG, a few
 * lines of script for the metric select box, no network). For every swept parameter with two or more values, a
 * plot of the chosen metric against it, one line per program (and device, when the device is not the parameter),
 * the other parameters held at the baseline point's values (or, for a metric the baseline lacks, the first point's
 * that has it); then a table of every point with the metric and its
 * speedup against the baseline (the point with the same program and argument and the baseline's other
 * parameters: baseline value / point value). A point's metric is the sum over its launches for ".sum" metrics
 * and host_seconds, else the mean. Every metric's plots and table are in the page; the select box shows one. */
#ifndef WS_REPORT_SWEEP_HTML_H
#define WS_REPORT_SWEEP_HTML_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* Write the page of a sweep's results tree (results.json's content; out_dir shown as its source); 0, or -1 with
 * the problem in err. */
int ws_rep_sweep_html(FILE *f, const json_t *res, const char *out_dir, char *err, size_t errlen);

#endif
