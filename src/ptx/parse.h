/* parse.h - the PTX front end's entry points: parse and decode a PTX text into a ws_ptx_module. */
#ifndef WS_PARSE_H
#define WS_PARSE_H

#include <stddef.h>
#include "insn.h"

/* Parse and decode PTX text ptx[0..len) (origin names it in messages). NULL on failure with a message
 * "origin:LINE: ..." naming the unsupported opcode, modifier or construct in err. */
ws_ptx_module *ws_ptx_parse(const char *ptx, size_t len, const char *origin, char *err, size_t errlen);
/* Free a parsed module (and everything it owns). */
void ws_ptx_free(ws_ptx_module *m);

#endif
