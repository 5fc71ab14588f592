/* stats.h - the summary tables `nsys profile --stats=true` prints, computed from a run's host timeline (trace.h),
 * for `warpsim run --stats`: CUDA API summary (cuda_api_sum), GPU kernel summary (cuda_gpu_kern_sum), memory
 * operations by time (cuda_gpu_mem_time_sum) and by size (cuda_gpu_mem_size_sum), NVTX range summary (nvtx_sum).
 * Each row has the count, total, average, median, minimum, maximum and standard deviation (and the percent of the
 * table's time), rows sorted by total, in nsys's column layout (thousands separated by commas). Times are
 * nanoseconds of simulated time in timing mode; in functional mode they are wall time, and a kernel's time is how
 * long the simulator took to run it (the header says which). */
#ifndef WS_STATS_H
#define WS_STATS_H

#include <stdio.h>

#include "trace.h"

/* Print the tables of h on out, under a header naming program (NULL: none); 0, or -1 when out of memory or
 * writing failed. */
int ws_rep_stats_print(FILE *out, const ws_rep_host *h, const char *program);

#endif
