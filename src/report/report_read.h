/* report_read.h - reading a run report (run_report.h) back, through jansson: the launches it lists. */
#ifndef WS_REPORT_READ_H
#define WS_REPORT_READ_H

#include <stddef.h>

/* One launch read from a run report: the configuration it ran with. */
typedef struct ws_rep_launch_cfg {
    char *kernel;               /* mangled kernel name */
    long long grid[3], block[3];
    size_t dyn_smem;            /* dynamic shared memory, bytes */
} ws_rep_launch_cfg;

/* The launches of a run report, in launch order. */
typedef struct ws_rep_launches {
    ws_rep_launch_cfg *v;
    size_t n;
} ws_rep_launches;

/* Read the run report file at path into *out; 0, or -1 with "path:line:column: problem" (not JSON) or
 * "path: launch N: problem" (not a run report) in err. */
int ws_rep_read_launches(const char *path, ws_rep_launches *out, char *err, size_t errlen);
/* The same for a report held in memory (len bytes of text); name labels the messages. */
int ws_rep_parse_launches(const char *text, size_t len, const char *name, ws_rep_launches *out, char *err,
                          size_t errlen);
/* Free what a read filled in (*l becomes empty). */
void ws_rep_launches_free(ws_rep_launches *l);

#endif
