/* json.c - the streaming JSON writer (json.h): separators, escaping, numbers, and the output buffer. */
#include "json.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* what a nesting level is */
enum { K_TOP, K_OBJECT, K_ARRAY };

/* Remember the first error; later output is dropped. */
static void fail(ws_json *w, int err)
{
    if (!w->err) w->err = err;
}

/* Write the file writer's buffered bytes to its FILE. */
static void flush_chunk(ws_json *w)
{
    if (w->len && fwrite(w->buf, 1, w->len, w->out) != w->len) fail(w, WS_JSON_EIO);
    w->len = 0;
}

/* Append n bytes to the output. */
static void put(ws_json *w, const void *s, size_t n)
{
    if (w->err || !n) return;
    if (w->len + n + 1 > w->cap) {
        if (w->buf == w->chunk) {
            flush_chunk(w);
            if (n + 1 > w->cap) {   /* larger than the whole chunk: straight to the file */
                if (fwrite(s, 1, n, w->out) != n) fail(w, WS_JSON_EIO);
                return;
            }
        } else {
            size_t cap = w->cap ? w->cap : 256;
            while (cap < w->len + n + 1) {
                if (cap > ((size_t)-1) / 2) { fail(w, WS_JSON_ENOMEM); return; }
                cap *= 2;
            }
            char *nb = realloc(w->buf, cap);
            if (!nb) { fail(w, WS_JSON_ENOMEM); return; }
            w->buf = nb;
            w->cap = cap;
        }
        if (w->err) return;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

/* Write the pending line break, if any. */
static void put_break(ws_json *w)
{
    static const char spaces[] = "                                ";
    if (!w->brk) return;
    int indent = w->brk - 1;
    w->brk = 0;
    put(w, "\n", 1);
    for (; indent > 0; indent -= (int)(sizeof spaces - 1))
        put(w, spaces, indent < (int)(sizeof spaces - 1) ? (size_t)indent : sizeof spaces - 1);
}

/* Length of the valid UTF-8 sequence (2 to 4 bytes) starting at p, n bytes available; 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned char lo = 0x80, hi = 0xbf;
    size_t len;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) len = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        len = 3;
        if (p[0] == 0xe0) lo = 0xa0;        /* no overlong forms */
        else if (p[0] == 0xed) hi = 0x9f;   /* no UTF-16 surrogates */
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        len = 4;
        if (p[0] == 0xf0) lo = 0x90;        /* no overlong forms */
        else if (p[0] == 0xf4) hi = 0x8f;   /* nothing above U+10FFFF */
    } else return 0;
    if (n < len || p[1] < lo || p[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if ((p[k] & 0xc0) != 0x80) return 0;
    return len;
}

/* Write n bytes as a quoted, escaped JSON string. */
static void put_string(ws_json *w, const char *str, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    size_t run = 0, i = 0;   /* s[run, i) is copied as it is */
    put(w, "\"", 1);
    while (i < n) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') { i++; continue; }
        if (c >= 0x80) {
            size_t k = utf8_len(s + i, n - i);
            if (k) { i += k; continue; }
        }
        put(w, s + run, i - run);
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            put(w, e, 2);
        } else if (c < 0x20) {
            char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            put(w, e, 6);
        } else {
            put(w, "\xef\xbf\xbd", 3);   /* U+FFFD REPLACEMENT CHARACTER for a byte that is not UTF-8 */
        }
        run = ++i;
    }
    put(w, s + run, n - run);
    put(w, "\"", 1);
}

/* Write the comma between two items: ", ", or just "," when a line break follows. */
static void put_comma(ws_json *w)
{
    put(w, ", ", w->brk ? 1 : 2);
}

/* Separator and line break before a value; 0 when nothing may be written. */
static int value_begin(ws_json *w)
{
    if (w->err) return 0;
    int d = w->depth;
    switch (w->kind[d]) {
    case K_OBJECT:
        if (!w->key_pending) { fail(w, WS_JSON_EMISUSE); return 0; }
        w->key_pending = 0;   /* the key wrote the comma */
        break;
    case K_ARRAY:
        if (w->used[d]) put_comma(w);
        break;
    default:
        if (w->used[d]) { fail(w, WS_JSON_EMISUSE); return 0; }
        break;
    }
    w->used[d] = 1;
    put_break(w);
    return !w->err;
}

/* Open a container of kind k with bracket c. */
static void begin(ws_json *w, int k, char c)
{
    if (!w->err && w->depth >= WS_JSON_MAX_DEPTH) fail(w, WS_JSON_EDEPTH);
    if (!value_begin(w)) return;
    put(w, &c, 1);
    w->depth++;
    w->kind[w->depth] = (unsigned char)k;
    w->used[w->depth] = 0;
}

/* Close the innermost container, which must be of kind k, with bracket c. */
static void end(ws_json *w, int k, char c)
{
    if (w->err) return;
    if (w->depth == 0 || w->kind[w->depth] != k || w->key_pending) { fail(w, WS_JSON_EMISUSE); return; }
    put_break(w);
    put(w, &c, 1);
    w->depth--;
}

/* Start a writer over a FILE. */
void ws_json_init_file(ws_json *w, FILE *out)
{
    memset(w, 0, offsetof(ws_json, chunk));
    w->out = out;
    w->buf = w->chunk;
    w->cap = sizeof w->chunk;
    if (!out) w->err = WS_JSON_EIO;
}

/* Start a writer over a growing memory buffer. */
void ws_json_init_mem(ws_json *w)
{
    memset(w, 0, offsetof(ws_json, chunk));
}

/* Check completeness, write what is pending and flush the FILE. */
int ws_json_finish(ws_json *w)
{
    if (!w->err && (w->depth || w->key_pending || !w->used[0])) fail(w, WS_JSON_EINCOMPLETE);
    if (!w->err) put_break(w);
    if (w->buf == w->chunk) {
        if (!w->err) flush_chunk(w);
        if (!w->err && (fflush(w->out) || ferror(w->out))) fail(w, WS_JSON_EIO);
        w->len = 0;
    }
    return w->err ? -1 : 0;
}

/* The first error. */
int ws_json_error(const ws_json *w)
{
    return w->err;
}

/* Words for an error code. */
const char *ws_json_strerror(int err)
{
    switch (err) {
    case WS_JSON_OK: return "no error";
    case WS_JSON_EMISUSE: return "JSON writer calls out of order";
    case WS_JSON_EDEPTH: return "JSON nested too deeply";
    case WS_JSON_ENOMEM: return "out of memory";
    case WS_JSON_EIO: return "write error";
    case WS_JSON_EINCOMPLETE: return "JSON text incomplete";
    default: return "unknown JSON writer error";
    }
}

/* The memory writer's text, NUL-terminated. */
const char *ws_json_text(const ws_json *w, size_t *len)
{
    if (!w->buf || w->buf == w->chunk) {   /* a file writer, or nothing written */
        if (len) *len = 0;
        return "";
    }
    w->buf[w->len] = 0;   /* put always leaves room for the terminator */
    if (len) *len = w->len;
    return w->buf;
}

/* Release the memory buffer. */
void ws_json_free(ws_json *w)
{
    if (w->buf != w->chunk) free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
}

/* Ask for a line break before the next item. */
void ws_json_break(ws_json *w, int indent)
{
    w->brk = (indent > 0 ? indent : 0) + 1;
}

/* Open an object. */
void ws_json_begin_object(ws_json *w) { begin(w, K_OBJECT, '{'); }

/* Close an object. */
void ws_json_end_object(ws_json *w) { end(w, K_OBJECT, '}'); }

/* Open an array. */
void ws_json_begin_array(ws_json *w) { begin(w, K_ARRAY, '['); }

/* Close an array. */
void ws_json_end_array(ws_json *w) { end(w, K_ARRAY, ']'); }

/* Write a member key: comma, line break, "key": . */
void ws_json_key(ws_json *w, const char *key)
{
    if (w->err) return;
    int d = w->depth;
    if (w->kind[d] != K_OBJECT || w->key_pending || !key) { fail(w, WS_JSON_EMISUSE); return; }
    if (w->used[d]) put_comma(w);
    w->used[d] = 1;
    put_break(w);
    put_string(w, key, strlen(key));
    put(w, ": ", 2);
    w->key_pending = 1;
}

/* Write a string value. */
void ws_json_string(ws_json *w, const char *s)
{
    if (!s) { ws_json_null(w); return; }
    if (value_begin(w)) put_string(w, s, strlen(s));
}

/* Write n bytes as a string value. */
void ws_json_string_n(ws_json *w, const char *s, size_t n)
{
    if (!s) { ws_json_null(w); return; }
    if (value_begin(w)) put_string(w, s, n);
}

/* Write the decimal digits of v, with a '-' when neg. */
static void put_digits(ws_json *w, unsigned long long v, int neg)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do tmp[--i] = (char)('0' + v % 10); while (v /= 10);
    if (neg) tmp[--i] = '-';
    put(w, tmp + i, sizeof tmp - i);
}

/* Write a signed integer. */
void ws_json_int(ws_json *w, long long v)
{
    if (value_begin(w)) put_digits(w, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0);
}

/* Write an unsigned integer. */
void ws_json_uint(ws_json *w, unsigned long long v)
{
    if (value_begin(w)) put_digits(w, v, 0);
}

/* Write a finite double with printf's %.*f (g = 0) or %.*g (g = 1), else null. */
static void put_double(ws_json *w, double v, int prec, int g)
{
    if (!value_begin(w)) return;
    if (!isfinite(v)) { put(w, "null", 4); return; }
    char tmp[128], *s = tmp;
    int n = g ? snprintf(tmp, sizeof tmp, "%.*g", prec, v) : snprintf(tmp, sizeof tmp, "%.*f", prec, v);
    if (n < 0) { fail(w, WS_JSON_EIO); return; }
    if ((size_t)n >= sizeof tmp) {   /* %f of a huge value */
        s = malloc((size_t)n + 1);
        if (!s) { fail(w, WS_JSON_ENOMEM); return; }
        if (g) snprintf(s, (size_t)n + 1, "%.*g", prec, v);
        else snprintf(s, (size_t)n + 1, "%.*f", prec, v);
    }
    /* a program may have set a locale whose decimal point is not '.' (JSON wants '.') */
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && strcmp(dp, ".")) {
        char *q = strstr(s, dp);
        if (q) {
            size_t dl = strlen(dp);
            *q = '.';
            memmove(q + 1, q + dl, strlen(q + dl) + 1);
            n = (int)strlen(s);
        }
    }
    put(w, s, (size_t)n);
    if (s != tmp) free(s);
}

/* Write a double as %.*f. */
void ws_json_double(ws_json *w, double v, int prec)
{
    put_double(w, v, prec > 0 ? prec : 0, 0);
}

/* Write a double as %.*g. */
void ws_json_double_g(ws_json *w, double v, int digits)
{
    put_double(w, v, digits > 1 ? digits : 1, 1);
}

/* Write true or false. */
void ws_json_bool(ws_json *w, int v)
{
    if (value_begin(w)) put(w, v ? "true" : "false", v ? 4 : 5);
}

/* Write null. */
void ws_json_null(ws_json *w)
{
    if (value_begin(w)) put(w, "null", 4);
}

/* Write "key": string. */
void ws_json_member_string(ws_json *w, const char *key, const char *s)
{
    ws_json_key(w, key);
    ws_json_string(w, s);
}

/* Write "key": signed integer. */
void ws_json_member_int(ws_json *w, const char *key, long long v)
{
    ws_json_key(w, key);
    ws_json_int(w, v);
}

/* Write "key": unsigned integer. */
void ws_json_member_uint(ws_json *w, const char *key, unsigned long long v)
{
    ws_json_key(w, key);
    ws_json_uint(w, v);
}

/* Write "key": double as %.*f. */
void ws_json_member_double(ws_json *w, const char *key, double v, int prec)
{
    ws_json_key(w, key);
    ws_json_double(w, v, prec);
}

/* Write "key": double as %.*g. */
void ws_json_member_double_g(ws_json *w, const char *key, double v, int digits)
{
    ws_json_key(w, key);
    ws_json_double_g(w, v, digits);
}

/* Write "key": true or false. */
void ws_json_member_bool(ws_json *w, const char *key, int v)
{
    ws_json_key(w, key);
    ws_json_bool(w, v);
}

/* Write "key": null. */
void ws_json_member_null(ws_json *w, const char *key)
{
    ws_json_key(w, key);
    ws_json_null(w);
}
