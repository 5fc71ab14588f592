/* lib_msg.h - what warpsim's CUDA libraries (src/libs: cuBLAS, ...) share to speak to the user: whether warpsim's
 * messages are off, and the message of a function a library does not simulate (said once per function). No CUDA
 * header here: the stub tables include it too. */
#ifndef WS_LIB_MSG_H
#define WS_LIB_MSG_H

/* Whether warpsim's messages are off (warpsim run --quiet sets WARPSIM_QUIET). */
int ws_lib_quiet(void);
/* Say once that library lib's function func is not simulated and that it returns status (named status_name);
 * returns status. */
int ws_lib_missing(const char *lib, const char *func, int status, const char *status_name);

/* The weak stub of one unsimulated exported function: no arguments read, the library's status returned. */
#define WS_LIB_STUB(name, lib, status, status_name) \
    int name(void); \
    __attribute__((weak, visibility("default"))) int name(void) { return ws_lib_missing(lib, #name, status, status_name); }

#endif
