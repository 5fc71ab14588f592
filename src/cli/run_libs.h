/* run_libs.h - the environment `warpsim run` gives the CUDA code a program loads while it runs (Python modules):
 * libwarpsim_preload.so preloaded (a CUDA runtime linked statically into a library calls warpsim's), and CuPy's
 * settings that keep its kernels simulable. */
#ifndef WS_CLI_RUN_LIBS_H
#define WS_CLI_RUN_LIBS_H

/* Set the environment for the program (libdir holds warpsim's libraries). 0 on success, else says why. */
int cli_libs_env(const char *libdir);

#endif
