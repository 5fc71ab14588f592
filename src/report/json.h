/* json.h - warpsim's one JSON writer: streams JSON text to a FILE * or into a growing memory buffer.
 *
 * Hand-written on purpose, while reading JSON goes through jansson (report_read.h): a streaming writer emits
 * each value as it comes, with no tree of allocated nodes to build and then dump, so it is smaller and faster
 * than building a jansson json_t tree - and trace files hold millions of events.
 *
 * Shape of the text: ", " between members and elements and ": " after a key (commas are automatic), and no
 * other white space except the line breaks the caller asks for with ws_json_break (the comma before a break
 * is just ","). Strings: '"' and '\' are escaped with a backslash, control characters (below 0x20) as \u00xx,
 * valid UTF-8 is passed through, and a byte that does not start a valid UTF-8 sequence is written as U+FFFD,
 * so the text is always valid JSON. Integers are exact; doubles use the caller's printf precision (%.*f or
 * %.*g) with a '.' decimal point whatever the locale; NaN and infinities, which JSON cannot express, are
 * written as null.
 *
 * Misuse (a value in an object without a key, a key in an array, an end that does not match its begin,
 * nesting deeper than WS_JSON_MAX_DEPTH, a second top-level value), running out of memory and write errors
 * are remembered: the first one stops all further output and ws_json_finish reports it.
 *
 *     ws_json w;
 *     ws_json_init_file(&w, stdout);
 *     ws_json_begin_object(&w);
 *     ws_json_member_string(&w, "device", "h200");
 *     ws_json_key(&w, "launches");
 *     ws_json_begin_array(&w);
 *     ...
 *     ws_json_end_array(&w);
 *     ws_json_end_object(&w);
 *     ws_json_break(&w, 0);       (a final newline)
 *     if (ws_json_finish(&w)) ...  */
#ifndef WS_JSON_H
#define WS_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Deepest nesting of objects and arrays the writer accepts. */
#define WS_JSON_MAX_DEPTH 64

/* Errors a writer remembers (ws_json_error). */
enum {
    WS_JSON_OK = 0,
    WS_JSON_EMISUSE,      /* calls out of order: value without key, key in an array, mismatched end, ... */
    WS_JSON_EDEPTH,       /* nesting deeper than WS_JSON_MAX_DEPTH */
    WS_JSON_ENOMEM,       /* the memory buffer could not grow */
    WS_JSON_EIO,          /* writing to the FILE failed */
    WS_JSON_EINCOMPLETE   /* ws_json_finish before the top-level value was complete */
};

/* A writer. Set it up with ws_json_init_file or ws_json_init_mem; it must not be copied afterwards. */
typedef struct ws_json {
    FILE *out;                                  /* destination, or NULL for the memory buffer */
    char *buf;                                  /* pending output (file) or the whole text (memory) */
    size_t len, cap;
    int err;                                    /* first error, WS_JSON_OK while none */
    int depth;                                  /* open containers */
    unsigned char kind[WS_JSON_MAX_DEPTH + 1];  /* per level: top, object or array */
    unsigned char used[WS_JSON_MAX_DEPTH + 1];  /* per level: something was written in it */
    int key_pending;                            /* a key was written; its value comes next */
    int brk;                                    /* pending line break: indent + 1, 0 when none */
    char chunk[4096];                           /* the file mode's output buffer */
} ws_json;

/* Start a writer that writes to out (buffered; ws_json_finish flushes). */
void ws_json_init_file(ws_json *w, FILE *out);
/* Start a writer that collects the text in memory (ws_json_text; ws_json_free releases it). */
void ws_json_init_mem(ws_json *w);
/* Flush pending output and check the text is one complete value; 0, or -1 with ws_json_error set. */
int ws_json_finish(ws_json *w);
/* The first error (WS_JSON_OK when none). */
int ws_json_error(const ws_json *w);
/* Words for an error code. */
const char *ws_json_strerror(int err);
/* Memory writer: the text so far, NUL-terminated (never NULL); *len (if given) receives its length. */
const char *ws_json_text(const ws_json *w, size_t *len);
/* Release a memory writer's buffer (nothing to do for a file writer). */
void ws_json_free(ws_json *w);

/* Put a line break and indent spaces before the next member, element or closing bracket (after its comma);
 * still pending at ws_json_finish, it is written there (ws_json_break(w, 0) then ends the text with "\n"). */
void ws_json_break(ws_json *w, int indent);

/* Open an object "{". */
void ws_json_begin_object(ws_json *w);
/* Close the innermost object "}". */
void ws_json_end_object(ws_json *w);
/* Open an array "[". */
void ws_json_begin_array(ws_json *w);
/* Close the innermost array "]". */
void ws_json_end_array(ws_json *w);
/* Write the key of the next member of the innermost object. */
void ws_json_key(ws_json *w, const char *key);

/* Write a NUL-terminated string value (NULL writes null). */
void ws_json_string(ws_json *w, const char *s);
/* Write n bytes as a string value (NUL bytes become \u0000; NULL writes null). */
void ws_json_string_n(ws_json *w, const char *s, size_t n);
/* Write a signed integer. */
void ws_json_int(ws_json *w, long long v);
/* Write an unsigned integer. */
void ws_json_uint(ws_json *w, unsigned long long v);
/* Write a double as printf's %.*f with prec digits after the point (prec < 0 counts as 0). */
void ws_json_double(ws_json *w, double v, int prec);
/* Write a double as printf's %.*g with digits significant digits (digits < 1 counts as 1). */
void ws_json_double_g(ws_json *w, double v, int digits);
/* Write true or false. */
void ws_json_bool(ws_json *w, int v);
/* Write null. */
void ws_json_null(ws_json *w);

/* Object members: ws_json_key followed by the value. */
/* Write "key": string (NULL writes null). */
void ws_json_member_string(ws_json *w, const char *key, const char *s);
/* Write "key": signed integer. */
void ws_json_member_int(ws_json *w, const char *key, long long v);
/* Write "key": unsigned integer. */
void ws_json_member_uint(ws_json *w, const char *key, unsigned long long v);
/* Write "key": double as %.*f. */
void ws_json_member_double(ws_json *w, const char *key, double v, int prec);
/* Write "key": double as %.*g. */
void ws_json_member_double_g(ws_json *w, const char *key, double v, int digits);
/* Write "key": true or false. */
void ws_json_member_bool(ws_json *w, const char *key, int v);
/* Write "key": null. */
void ws_json_member_null(ws_json *w, const char *key);

#endif
