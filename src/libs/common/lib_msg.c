/* lib_msg.c - the libraries' shared messages: --quiet, and "not simulated" said once per function. */
#include "lib_msg.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Functions already reported (a process rarely calls more than a few unsimulated ones). */
#define LIB_MSG_SAID_MAX 64

/* Whether warpsim's messages are off. */
int ws_lib_quiet(void)
{
    const char *q = getenv("WARPSIM_QUIET");
    return q && *q && strcmp(q, "0");
}

/* Report once that func is not simulated; its status. */
int ws_lib_missing(const char *lib, const char *func, int status, const char *status_name)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static const char *said[LIB_MSG_SAID_MAX];
    static int nsaid;
    int seen = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nsaid; i++) seen |= !strcmp(said[i], func);
    if (!seen && nsaid < LIB_MSG_SAID_MAX) said[nsaid++] = func;
    pthread_mutex_unlock(&lock);
    if (!seen && !ws_lib_quiet())
        fprintf(stderr, "warpsim: %s is not simulated by warpsim's %s (it returns %s)\n", func, lib, status_name);
    return status;
}
