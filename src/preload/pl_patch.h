/* pl_patch.h - redirect the CUDA runtime that a library carries inside itself (NVIDIA's static cudart, as in
 * CuPy's wheels) to warpsim's libcudart.so.13: each of its cuda* functions that warpsim's runtime exports starts
 * with a jump to warpsim's. */
#ifndef WS_PL_PATCH_H
#define WS_PL_PATCH_H

#include <stddef.h>

/* Look at every loaded object not seen before; redirect the static CUDA runtime of those that carry one. */
void ws_pl_scan(void);

#endif
