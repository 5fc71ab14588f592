/* listing.h - a parsed module as text: symbols, functions and every decoded instruction with its operands,
 * modifiers, branch targets, reconvergence points and the table properties it resolved to (`warpsim ptx`, and the
 * front end's golden tests in tests/golden). */
#ifndef WS_LISTING_H
#define WS_LISTING_H

#include <stdio.h>
#include "insn.h"

/* Print the decoded listing of m to out. */
void ws_ptx_listing(FILE *out, const ws_ptx_module *m);
/* Text of decoded instruction pc of f (operation and operands, as in the listing) into buf; returns buf. */
const char *ws_ptx_insn_text(const ws_ptx_module *m, const ws_func *f, int pc, char *buf, size_t cap);
/* Name of a pipe (WS_PIPE_*: "INT", "FP32", ...). */
const char *ws_ptx_pipe_name(int pipe);

#endif
