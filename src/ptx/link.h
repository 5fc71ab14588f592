/* link.h - device linking of separately compiled PTX units (nvcc -rdc=true, device libraries, nvlink's linked
 * fatbins): one module from several, as nvlink would make one program. Every function and variable of every unit
 * keeps its place (unit by unit); .extern declarations resolve to the .visible (or .weak) definition of another
 * unit, local names stay private to their unit, and every index (calls, relocations, shared scopes, .file
 * numbers) is renumbered into the linked module. */
#ifndef WS_LINK_H
#define WS_LINK_H

#include <stddef.h>
#include "insn.h"

/* Link n parsed units into one module named origin; the units are consumed (freed) whether it succeeds or not.
 * NULL with a message naming the symbol on an unresolved .extern or a symbol defined twice. */
ws_ptx_module *ws_ptx_link(ws_ptx_module **units, int n, const char *origin, char *err, size_t errlen);

#endif
