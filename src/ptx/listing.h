/* listing.h - a parsed module as text: symbols, functions and every decoded instruction with its operands,
 * modifiers, branch targets, reconvergence points and the table properties it resolved to (`warpsim ptx`, and the
 * front end's golden tests in tests/golden). */
#ifndef WS_LISTING_H
#define WS_LISTING_H

#include <stdio.h>
#include "insn.h"

/* Print the decoded listing of m to out. */
void ws_ptx_listing(FILE *out, const ws_ptx_module *m);

#endif
