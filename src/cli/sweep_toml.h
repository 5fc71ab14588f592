/* sweep_toml.h - the small TOML subset of sweep.toml, read into a jansson tree: [table] and [a.b] headers,
 * [[array.of.tables]], key = value with bare or "quoted" keys, values that are "basic strings" (\" \\ \n \t
 * escapes), 'literal strings', integers (decimal, with _ separators), true/false, and arrays of those (nested,
 * over several lines, a trailing comma allowed); # comments. Anything else is an error naming the line. */
#ifndef WS_CLI_SWEEP_TOML_H
#define WS_CLI_SWEEP_TOML_H

#include <stddef.h>
#include <jansson.h>

/* Parse text (len bytes) into a new object (json_decref it); NULL with "name:line: problem" in err. */
json_t *sw_toml_parse(const char *text, size_t len, const char *name, char *err, size_t errlen);
/* Read and parse the file at path; NULL with the problem in err. */
json_t *sw_toml_read(const char *path, char *err, size_t errlen);

#endif
