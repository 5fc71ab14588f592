/* test_json.c - the JSON writer (src/report/json.h) byte for byte: escaping, nesting, empty containers, number
 * precision, line breaks, misuse; round trips through jansson; the run report's writer and reader, the checks'
 * and the device preset's JSON. One line per check; nonzero on failure. */
#include <jansson.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "device/device.h"
#include "report/check_report.h"
#include "report/device_report.h"
#include "report/json.h"
#include "report/report_read.h"
#include "report/run_report.h"

static int g_fail, g_checks;

/* Record one check. */
static void check(int ok, const char *desc, const char *detail)
{
    g_checks++;
    if (!ok) g_fail++;
    printf("%s  %s%s%s\n", ok ? "PASS" : "FAIL", desc, detail ? ": " : "", detail ? detail : "");
}

/* Print text with its control characters visible, for a failed comparison. */
static void show(const char *label, const char *s, size_t n)
{
    printf("    %s: ", label);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') printf("\\n");
        else if (c < 0x20 || c >= 0x7f) printf("<%02x>", c);
        else putchar(c);
    }
    printf("\n");
}

/* Whether s begins with prefix. */
static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* Finish a memory writer and compare its text with want (wlen bytes) byte for byte; frees the writer. */
static void expect_n(ws_json *w, const char *want, size_t wlen, const char *desc)
{
    int rc = ws_json_finish(w);
    size_t len;
    const char *got = ws_json_text(w, &len);
    int ok = rc == 0 && len == wlen && !memcmp(got, want, wlen);
    check(ok, desc, rc ? ws_json_strerror(ws_json_error(w)) : NULL);
    if (!ok) {
        show("got ", got, len);
        show("want", want, wlen);
    }
    ws_json_free(w);
}

/* expect_n for a NUL-terminated want. */
static void expect(ws_json *w, const char *want, const char *desc)
{
    expect_n(w, want, strlen(want), desc);
}

/* Finish a memory writer and check it failed with error err; frees the writer. */
static void expect_error(ws_json *w, int err, const char *desc)
{
    int rc = ws_json_finish(w);
    check(rc == -1 && ws_json_error(w) == err, desc, ws_json_strerror(ws_json_error(w)));
    ws_json_free(w);
}

/* One string value written alone. */
static void string_case(const char *in, size_t n, const char *want, const char *desc)
{
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_string_n(&w, in, n);
    expect(&w, want, desc);
}

/* Escaping: quotes, backslash, control characters, UTF-8 kept, bytes that are not UTF-8 replaced. */
static void test_strings(void)
{
    string_case("", 0, "\"\"", "empty string");
    string_case("plain ascii ~!@#$%^&*()", 23, "\"plain ascii ~!@#$%^&*()\"", "plain ASCII unchanged");
    string_case("a\"b\\c/d", 7, "\"a\\\"b\\\\c/d\"", "quote and backslash escaped, slash kept");
    string_case("\n\t\r\b\f", 5, "\"\\u000a\\u0009\\u000d\\u0008\\u000c\"", "control characters as \\u00xx");
    string_case("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\x7f\"", "0x01 and 0x1f escaped, DEL kept");
    string_case("a\0b", 3, "\"a\\u0000b\"", "NUL byte inside a counted string");
    string_case("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf", 23,
                "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf\"",
                "valid UTF-8 (2, 3, 4 bytes, U+FFFF, U+10FFFF) passed through");
    string_case("\x80", 1, "\"\xef\xbf\xbd\"", "lone continuation byte -> U+FFFD");
    string_case("\xc0\xaf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"", "overlong 2-byte form -> U+FFFD per byte");
    string_case("\xe0\x80\xaf", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"", "overlong 3-byte form -> U+FFFD");
    string_case("\xed\xa0\x80", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"", "UTF-16 surrogate -> U+FFFD");
    string_case("\xf4\x90\x80\x80", 4, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"",
                "above U+10FFFF -> U+FFFD");
    string_case("x\xe2\x82", 3, "\"x\xef\xbf\xbd\xef\xbf\xbd\"", "truncated sequence at the end -> U+FFFD");
    string_case("\xff" "a", 2, "\"\xef\xbf\xbd" "a\"", "0xff -> U+FFFD, next byte kept");

    ws_json w;
    ws_json_init_mem(&w);
    ws_json_string(&w, NULL);
    expect(&w, "null", "NULL string writes null");
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "k\"ey\n", "v");
    ws_json_end_object(&w);
    expect(&w, "{\"k\\\"ey\\u000a\": \"v\"}", "keys are escaped too");
}

/* Nesting, empty containers, separators, every scalar type. */
static void test_structure(void)
{
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_end_object(&w);
    expect(&w, "{}", "empty object");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_end_array(&w);
    expect(&w, "[]", "empty array");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_begin_array(&w);
    ws_json_end_array(&w);
    ws_json_begin_object(&w);
    ws_json_end_object(&w);
    ws_json_begin_array(&w);
    ws_json_begin_array(&w);
    ws_json_end_array(&w);
    ws_json_end_array(&w);
    ws_json_end_array(&w);
    expect(&w, "[[], {}, [[]]]", "empty containers inside an array");

    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_key(&w, "a");
    ws_json_begin_array(&w);
    ws_json_int(&w, 1);
    ws_json_begin_array(&w);
    ws_json_int(&w, 2);
    ws_json_begin_object(&w);
    ws_json_end_object(&w);
    ws_json_end_array(&w);
    ws_json_begin_object(&w);
    ws_json_key(&w, "b");
    ws_json_begin_array(&w);
    ws_json_end_array(&w);
    ws_json_end_object(&w);
    ws_json_end_array(&w);
    ws_json_key(&w, "c");
    ws_json_begin_object(&w);
    ws_json_member_null(&w, "d");
    ws_json_member_bool(&w, "t", 1);
    ws_json_member_bool(&w, "f", 0);
    ws_json_end_object(&w);
    ws_json_member_string(&w, "e", "");
    ws_json_end_object(&w);
    expect(&w, "{\"a\": [1, [2, {}], {\"b\": []}], \"c\": {\"d\": null, \"t\": true, \"f\": false}, \"e\": \"\"}",
           "nested objects and arrays, automatic commas");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_int(&w, 0);
    ws_json_int(&w, -1);
    ws_json_int(&w, LLONG_MAX);
    ws_json_int(&w, LLONG_MIN);
    ws_json_uint(&w, ULLONG_MAX);
    ws_json_uint(&w, 0);
    ws_json_end_array(&w);
    expect(&w, "[0, -1, 9223372036854775807, -9223372036854775808, 18446744073709551615, 0]", "integers at the limits");

    ws_json_init_mem(&w);
    ws_json_int(&w, 42);
    expect(&w, "42", "a scalar as the whole text");

    /* a nesting as deep as allowed works */
    ws_json_init_mem(&w);
    char want[2 * WS_JSON_MAX_DEPTH + 1];
    for (int i = 0; i < WS_JSON_MAX_DEPTH; i++) ws_json_begin_array(&w), want[i] = '[';
    for (int i = 0; i < WS_JSON_MAX_DEPTH; i++) ws_json_end_array(&w), want[WS_JSON_MAX_DEPTH + i] = ']';
    want[2 * WS_JSON_MAX_DEPTH] = 0;
    expect(&w, want, "nesting WS_JSON_MAX_DEPTH deep");
}

/* Doubles: the caller's precision, exactly as printf, null for what JSON cannot hold. */
static void test_numbers(void)
{
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_double(&w, 3.14159265, 2);
    ws_json_double(&w, 3.14159265, 9);
    ws_json_double(&w, 1962.4, 0);
    ws_json_double(&w, 1962.6, 0);
    ws_json_double(&w, 2.26, 1);
    ws_json_double(&w, 100.0, 2);
    ws_json_double(&w, 0.0, 2);
    ws_json_double(&w, -0.5, 2);
    ws_json_double(&w, 0.000012345, 9);
    ws_json_double(&w, 7.0, -3);
    ws_json_end_array(&w);
    expect(&w, "[3.14, 3.141592650, 1962, 1963, 2.3, 100.00, 0.00, -0.50, 0.000012345, 7]",
           "%.Nf precisions 2, 9, 0, 1 (negative counts as 0)");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_double_g(&w, 0.1, 10);
    ws_json_double_g(&w, 2.2194602272727, 10);
    ws_json_double_g(&w, 1.0, 10);
    ws_json_double_g(&w, 4800.0, 10);
    ws_json_double_g(&w, 1e20, 10);
    ws_json_double_g(&w, 1.5e-7, 10);
    ws_json_double_g(&w, 0.1, 17);
    ws_json_end_array(&w);
    expect(&w, "[0.1, 2.219460227, 1, 4800, 1e+20, 1.5e-07, 0.10000000000000001]", "%.Ng significant digits");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_double(&w, NAN, 2);
    ws_json_double(&w, INFINITY, 0);
    ws_json_double_g(&w, -INFINITY, 10);
    ws_json_end_array(&w);
    expect(&w, "[null, null, null]", "NaN and infinities are null");

    /* %f of a huge value is longer than the writer's scratch buffer */
    char big[400];
    snprintf(big, sizeof big, "%.2f", 1e300);
    ws_json_init_mem(&w);
    ws_json_double(&w, 1e300, 2);
    expect(&w, big, "%.2f of 1e300 (over 300 digits)");

    /* a locale with a decimal comma does not leak into JSON */
    const char *loc = NULL;
    const char *names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "de_DE", "fr_FR" };
    for (size_t i = 0; i < sizeof names / sizeof *names && !loc; i++) loc = setlocale(LC_NUMERIC, names[i]);
    if (loc && strcmp(localeconv()->decimal_point, ".")) {
        ws_json_init_mem(&w);
        ws_json_begin_array(&w);
        ws_json_double(&w, 1.25, 2);
        ws_json_double_g(&w, 0.5, 10);
        ws_json_end_array(&w);
        expect(&w, "[1.25, 0.5]", "decimal point is '.' under a decimal-comma locale");
    } else {
        printf("SKIP  decimal-comma locale test (no such locale installed)\n");
    }
    setlocale(LC_NUMERIC, "C");
}

/* Line breaks: only where asked, after the comma (which then has no trailing space), before a close. */
static void test_breaks(void)
{
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "device", "h200");
    ws_json_key(&w, "launches");
    ws_json_begin_array(&w);
    for (int i = 0; i < 3; i++) {
        ws_json_break(&w, 2);
        ws_json_begin_object(&w);
        ws_json_member_int(&w, "i", i);
        ws_json_member_int(&w, "j", -i);
        ws_json_end_object(&w);
    }
    ws_json_break(&w, 0);
    ws_json_end_array(&w);
    ws_json_break(&w, 1);
    ws_json_member_int(&w, "n", 3);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    expect(&w,
           "{\"device\": \"h200\", \"launches\": [\n"
           "  {\"i\": 0, \"j\": 0},\n"
           "  {\"i\": 1, \"j\": -1},\n"
           "  {\"i\": 2, \"j\": -2}\n"
           "],\n"
           " \"n\": 3}\n",
           "one element per line; ',' before a break; break before ']'; final newline");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_break(&w, 40);
    ws_json_int(&w, 1);
    ws_json_end_array(&w);
    expect(&w, "[\n                                        1]", "indent wider than the writer's space run");
}

/* Misuse is an error, remembered, and stops the output. */
static void test_misuse(void)
{
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_int(&w, 1);
    expect_error(&w, WS_JSON_EMISUSE, "value in an object without a key");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_key(&w, "k");
    expect_error(&w, WS_JSON_EMISUSE, "key in an array");

    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_key(&w, "k");
    ws_json_key(&w, "l");
    expect_error(&w, WS_JSON_EMISUSE, "two keys in a row");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_end_object(&w);
    expect_error(&w, WS_JSON_EMISUSE, "end_object closing an array");

    ws_json_init_mem(&w);
    ws_json_end_array(&w);
    expect_error(&w, WS_JSON_EMISUSE, "end with nothing open");

    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_key(&w, "k");
    ws_json_end_object(&w);
    expect_error(&w, WS_JSON_EMISUSE, "end_object right after a key");

    ws_json_init_mem(&w);
    ws_json_int(&w, 1);
    ws_json_int(&w, 2);
    expect_error(&w, WS_JSON_EMISUSE, "a second top-level value");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_int(&w, 1);
    expect_error(&w, WS_JSON_EINCOMPLETE, "finish with an array open");

    ws_json_init_mem(&w);
    expect_error(&w, WS_JSON_EINCOMPLETE, "finish with nothing written");

    ws_json_init_mem(&w);
    for (int i = 0; i <= WS_JSON_MAX_DEPTH; i++) ws_json_begin_array(&w);
    expect_error(&w, WS_JSON_EDEPTH, "nesting deeper than WS_JSON_MAX_DEPTH");

    ws_json_init_mem(&w);
    ws_json_begin_array(&w);
    ws_json_int(&w, 1);
    ws_json_key(&w, "oops");
    ws_json_int(&w, 2);
    ws_json_end_array(&w);
    ws_json_finish(&w);
    check(!strcmp(ws_json_text(&w, NULL), "[1"), "nothing is written after the first error", ws_json_text(&w, NULL));
    ws_json_free(&w);
}

/* The same document to a FILE (through the chunk buffer, with a string larger than it) and to memory. */
static void write_big(ws_json *w, const char *huge)
{
    ws_json_begin_array(w);
    for (int i = 0; i < 3000; i++) {
        ws_json_break(w, 1);
        ws_json_begin_object(w);
        ws_json_member_int(w, "i", i);
        ws_json_member_double(w, "x", i / 7.0, 3);
        ws_json_end_object(w);
        if (i == 1500) ws_json_string(w, huge);
    }
    ws_json_break(w, 0);
    ws_json_end_array(w);
}

/* File writer and memory writer give the same bytes. */
static void test_file(void)
{
    size_t hn = 10000;
    char *huge = malloc(hn + 1);
    for (size_t i = 0; i < hn; i++) huge[i] = (char)('a' + i % 26);
    huge[hn] = 0;
    ws_json m;
    ws_json_init_mem(&m);
    write_big(&m, huge);
    int rm = ws_json_finish(&m);
    size_t mlen;
    const char *mt = ws_json_text(&m, &mlen);

    FILE *f = tmpfile();
    ws_json w;
    ws_json_init_file(&w, f);
    write_big(&w, huge);
    int rf = ws_json_finish(&w);
    long flen = ftell(f);
    char *ft = malloc((size_t)flen + 1);
    rewind(f);
    size_t got = fread(ft, 1, (size_t)flen, f);
    fclose(f);
    check(rm == 0 && rf == 0 && mlen > 2 * sizeof w.chunk && got == mlen && !memcmp(ft, mt, mlen),
          "FILE writer output equals the memory writer's (several chunks, one string larger than a chunk)", NULL);

    json_error_t je;
    json_t *root = json_loadb(mt, mlen, 0, &je);
    check(root && json_array_size(root) == 3001 && json_string_length(json_array_get(root, 1501)) == hn,
          "the big document parses with jansson", root ? NULL : je.text);
    json_decref(root);
    free(ft);
    free(huge);
    ws_json_free(&m);

    ws_json_init_file(&w, NULL);
    ws_json_null(&w);
    expect_error(&w, WS_JSON_EIO, "a file writer without a FILE");
}

/* Strings and numbers survive a trip through jansson. */
static void test_roundtrip(void)
{
    char all[256];   /* every byte value 1..255: controls, ASCII, and bytes that are not UTF-8 alone */
    for (int i = 1; i < 256; i++) all[i - 1] = (char)i;
    all[255] = 0;
    const char *valid[] = { "", "plain", "quote \" backslash \\ slash /", "tab\tnewline\ncr\r",
                            "\x01\x02\x1e\x1f\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\xef\xbf\xbd",
                            "{\"not\": [\"json\"]}" };
    int nv = (int)(sizeof valid / sizeof *valid);
    long long ints[] = { 0, 1, -1, LLONG_MAX, LLONG_MIN, 4294967296LL };
    double dbls[] = { 0.0, 0.1, -2.5, 1e-300, 1e300, 3.141592653589793, 123456789.123456789 };
    ws_json w;
    ws_json_init_mem(&w);
    ws_json_begin_object(&w);
    ws_json_key(&w, "valid");
    ws_json_begin_array(&w);
    for (int i = 0; i < nv; i++) ws_json_string(&w, valid[i]);
    ws_json_end_array(&w);
    ws_json_member_string(&w, "all", all);
    ws_json_key(&w, "nul");
    ws_json_string_n(&w, "a\0b", 3);
    ws_json_key(&w, "ints");
    ws_json_begin_array(&w);
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) ws_json_int(&w, ints[i]);
    ws_json_end_array(&w);
    ws_json_key(&w, "dbls");
    ws_json_begin_array(&w);
    for (size_t i = 0; i < sizeof dbls / sizeof *dbls; i++) ws_json_double_g(&w, dbls[i], 17);
    ws_json_end_array(&w);
    ws_json_key(&w, "deep");
    for (int i = 0; i < 10; i++) ws_json_begin_array(&w);
    for (int i = 0; i < 10; i++) ws_json_end_array(&w);
    ws_json_member_bool(&w, "t", 1);
    ws_json_member_null(&w, "z");
    ws_json_end_object(&w);
    int rc = ws_json_finish(&w);
    size_t len;
    const char *text = ws_json_text(&w, &len);

    json_error_t je;
    json_t *root = rc ? NULL : json_loadb(text, len, JSON_ALLOW_NUL, &je);
    check(root != NULL, "writer output parses with jansson", root ? NULL : je.text);
    if (!root) { ws_json_free(&w); return; }
    int ok = 1;
    json_t *va = json_object_get(root, "valid");
    for (int i = 0; i < nv; i++) ok &= !strcmp(json_string_value(json_array_get(va, (size_t)i)), valid[i]);
    check(ok, "valid strings come back unchanged", NULL);

    /* "all": bytes 1..127 come back unchanged; each of 128..255 is followed by a byte that cannot continue a
     * sequence, so none is valid UTF-8 and each comes back as one U+FFFD */
    const char *back = json_string_value(json_object_get(root, "all"));
    ok = back && strlen(back) == 127 + 128 * 3 && !memcmp(back, all, 127);
    for (int i = 0; ok && i < 128; i++) ok = !memcmp(back + 127 + 3 * i, "\xef\xbf\xbd", 3);
    check(ok, "bytes 1..127 come back unchanged, 128..255 as U+FFFD each", NULL);

    json_t *nul = json_object_get(root, "nul");
    check(json_string_length(nul) == 3 && !memcmp(json_string_value(nul), "a\0b", 3), "NUL byte round trip", NULL);
    ok = 1;
    json_t *ia = json_object_get(root, "ints");
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        ok &= json_is_integer(json_array_get(ia, i)) && json_integer_value(json_array_get(ia, i)) == ints[i];
    check(ok, "integers round trip exactly", NULL);
    ok = 1;
    json_t *da = json_object_get(root, "dbls");
    for (size_t i = 0; i < sizeof dbls / sizeof *dbls; i++) ok &= json_number_value(json_array_get(da, i)) == dbls[i];
    check(ok, "doubles written with %.17g round trip exactly", NULL);
    check(json_is_true(json_object_get(root, "t")) && json_is_null(json_object_get(root, "z")) &&
          json_is_array(json_object_get(root, "deep")), "bool, null and nested arrays parse", NULL);

    /* jansson's own dump of the parse equals our text with its separators (same order, same values) */
    char *dump = json_dumps(root, JSON_PRESERVE_ORDER | JSON_COMPACT);
    json_t *again = dump ? json_loads(dump, JSON_ALLOW_NUL, &je) : NULL;
    check(again && json_equal(root, again), "jansson's re-dump parses to the same value", NULL);
    free(dump);
    json_decref(again);
    json_decref(root);
    ws_json_free(&w);
}

/* Three launch records: plain, with occupancy and timing, failed. */
static void sample_launches(ws_rep_launch l[3])
{
    memset(l, 0, 3 * sizeof *l);
    l[0].kernel = "_Z4fillPii";
    l[0].grid = (ws_dim3){ 2, 1, 1 };
    l[0].block = (ws_dim3){ 4, 1, 1 };
    l[0].stats.warp_insts = 10;
    l[0].stats.thread_insts = 40;
    l[0].stats.host_seconds = 0.000123;
    l[1].kernel = "_Z6matmulPKfS0_Pfiii \"odd\" name";
    l[1].grid = (ws_dim3){ 8, 4, 2 };
    l[1].block = (ws_dim3){ 16, 16, 1 };
    l[1].dyn_smem = 4096;
    l[1].stats.warp_insts = 215;
    l[1].stats.thread_insts = 5564;
    l[1].has_occ = 1;
    l[1].occ.regs_per_thread = 32;
    l[1].occ.occupancy = 0.5;
    l[1].occ.limit_threads = 8;
    l[1].occ.limit_blocks = 32;
    l[1].occ.limit_registers = 8;
    l[1].occ.limit_shared_memory = 0x7fffffff;
    l[1].occ.waves_per_sm = 0.126;
    l[1].occ.limiter = WS_OCC_LIMIT_THREADS;
    l[1].has_tm = 1;
    l[1].tm.valid = 1;
    l[1].tm.duration_ns = 1962.4;
    l[1].tm.cycles = 3884;
    l[1].tm.sm_active_cycles_avg = 12.26;
    l[1].tm.mem.l1_sectors = 3;
    l[1].tm.mem.l1_hit_sectors = 1;
    for (int i = 0; i < WS_ST_COUNT; i++) l[1].tm.stall_cycles[i] = (uint64_t)i * 100;
    l[2].kernel = "_Z3badPi";
    l[2].grid = (ws_dim3){ 1, 1, 1 };
    l[2].block = (ws_dim3){ 1, 1, 1 };
    l[2].error = "cudaErrorIllegalAddress";
}

/* The run report: exact text of a plain launch, metric order, and the reader getting the launches back. */
static void test_run_report(void)
{
    ws_rep_launch l[3];
    sample_launches(l);
    ws_json w;
    ws_json_init_mem(&w);
    ws_rep_launch_json(&w, &l[0]);
    expect(&w,
           "{\"kernel\": \"_Z4fillPii\", \"grid\": [2, 1, 1], \"block\": [4, 1, 1], \"dynamic_smem\": 0, "
           "\"smsp__inst_executed.sum\": 10, \"warpsim__inst_executed_basis\": \"ptx\", "
           "\"warpsim__ptx_inst_executed.sum\": 10, \"smsp__thread_inst_executed.sum\": 40, \"host_seconds\": 0.000123000}",
           "a launch without occupancy or timing, byte for byte");

    FILE *f = tmpfile();
    int rc = ws_rep_run_write(f, "h200", l, 3, NULL);
    long n = ftell(f);
    char *text = malloc((size_t)n + 1);
    rewind(f);
    text[fread(text, 1, (size_t)n, f)] = 0;
    fclose(f);
    check(rc == 0 && starts(text, "{\"device\": \"h200\", \"launches\": [\n  {\"kernel\": ") && n >= 5 &&
          !strcmp(text + n - 5, "}\n]}\n"),
          "run report layout: one launch per line, closing \"]}\" and a newline", NULL);
    int lines = 0;
    for (char *p = text; *p; p++) lines += *p == '\n';
    check(lines == 5, "run report: 3 launches on their own lines", NULL);

    const char *order[] = { "\"host_seconds\": 0.000000000", "\"launch__registers_per_thread\": 32",
                            "\"sm__maximum_warps_per_active_cycle_pct\": 50.00",
                            "\"launch__occupancy_limit_shared_mem\": 2147483647",
                            "\"launch__waves_per_multiprocessor\": 0.13", "\"occupancy_limiter\": \"threads\"",
                            "\"gpu__time_duration.sum\": 1962", "\"sm__cycles_elapsed.max\": 3884",
                            "\"sm__cycles_active.avg\": 12.3",
                            "\"smsp__thread_inst_executed_per_inst_executed.ratio\": 25.88",
                            "\"l1tex__t_sector_hit_rate.pct\": 33.33", "\"lts__t_sector_hit_rate.pct\": 0.00",
                            "\"dram__bytes_write.sum\": 0",
                            "\"stalls\": {\"smsp__pcsamp_warps_issue_stalled_barrier\": 0",
                            "\"smsp__pcsamp_warps_issue_stalled_long_scoreboard\": 100" };
    const char *line2 = strstr(text, "matmul");
    const char *p = line2;
    int ok = p != NULL;
    for (size_t i = 0; ok && i < sizeof order / sizeof *order; i++) {
        const char *q = strstr(p, order[i]);
        if (!q || memchr(p, '\n', (size_t)(q - p))) {
            check(0, "timing launch metric in order", order[i]);
            ok = 0;
        } else p = q;
    }
    if (ok) check(1, "occupancy and timing metrics in today's order and precisions", NULL);
    check(strstr(text, "\"block\": [1, 1, 1], \"dynamic_smem\": 0, \"smsp__inst_executed.sum\": 0, "
                       "\"warpsim__inst_executed_basis\": \"ptx\", \"warpsim__ptx_inst_executed.sum\": 0, "
                       "\"smsp__thread_inst_executed.sum\": 0, \"host_seconds\": 0.000000000, \"error\": "
                       "\"cudaErrorIllegalAddress\"}") != NULL, "failed launch ends with its error name", NULL);

    ws_rep_launches got;
    char err[512];
    rc = ws_rep_parse_launches(text, (size_t)n, "report.json", &got, err, sizeof err);
    check(rc == 0 && got.n == 3, "reader finds the 3 launches", rc ? err : NULL);
    if (rc == 0 && got.n == 3) {
        ok = 1;
        for (int i = 0; i < 3; i++) {
            ok &= !strcmp(got.v[i].kernel, l[i].kernel) && got.v[i].dyn_smem == l[i].dyn_smem;
            ok &= got.v[i].grid[0] == l[i].grid.x && got.v[i].grid[1] == l[i].grid.y && got.v[i].grid[2] == l[i].grid.z;
            ok &= got.v[i].block[0] == l[i].block.x && got.v[i].block[1] == l[i].block.y &&
                  got.v[i].block[2] == l[i].block.z;
        }
        check(ok, "reader: kernel, grid, block, dynamic_smem as written", NULL);
    }
    ws_rep_launches_free(&got);
    free(text);

    /* the reader's messages */
    struct { const char *text, *want, *desc; } bad[] = {
        { "{\"launches\": [", "report.json:1:", "truncated JSON: file:line:column" },
        { "", "report.json", "empty text" },
        { "[1, 2]", "no \"launches\" array", "not an object" },
        { "{\"device\": \"x\"}", "no \"launches\" array", "no launches" },
        { "{\"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [1]}, {\"grid\": [1], \"block\": [1]}]}",
          "launch 2: \"kernel\" is missing", "launch without a kernel" },
        { "{\"launches\": [{\"kernel\": \"k\", \"grid\": [1, \"x\"], \"block\": [1]}]}",
          "launch 1: \"grid\" is not an array of integers", "grid with a string" },
        { "{\"launches\": [{\"kernel\": \"k\", \"grid\": [1, 1, 1, 1], \"block\": [1]}]}",
          "launch 1: \"grid\" is not an array of 1 to 3 integers", "grid of 4" },
        { "{\"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [-4]}]}",
          "launch 1: \"block\" has a negative dimension", "negative block" },
        { "{\"launches\": [{\"kernel\": \"k\", \"grid\": [1], \"block\": [1], \"dynamic_smem\": 1.5}]}",
          "launch 1: \"dynamic_smem\" is not a non-negative integer", "fractional dynamic_smem" },
        { "{\"launches\": [3]}", "launch 1: the launch is not an object", "launch that is a number" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc = ws_rep_parse_launches(bad[i].text, strlen(bad[i].text), "report.json", &got, err, sizeof err);
        char desc[160];
        snprintf(desc, sizeof desc, "reader error: %s", bad[i].desc);
        check(rc == -1 && strstr(err, bad[i].want) && got.n == 0 && !got.v, desc, err);
    }
    const char *lenient = "{\"launches\": [{\"kernel\": \"k\", \"grid\": 7, \"block\": [32, 2]}]}";
    rc = ws_rep_parse_launches(lenient, strlen(lenient), "r", &got, err, sizeof err);
    check(rc == 0 && got.n == 1 && got.v[0].grid[0] == 7 && got.v[0].grid[1] == 1 && got.v[0].block[1] == 2 &&
          got.v[0].block[2] == 1 && got.v[0].dyn_smem == 0, "reader: a number grid, a short block, no dynamic_smem",
          rc ? err : NULL);
    ws_rep_launches_free(&got);
    rc = ws_rep_read_launches("/nonexistent/report.json", &got, err, sizeof err);
    check(rc == -1 && strstr(err, "/nonexistent/report.json"), "reader: a missing file names it", err);
}

/* The checks' JSON of a checker without findings, and inside a run report. */
static void test_checks(void)
{
    ws_chk *c = ws_chk_create(WS_CHK_MEMCHECK | WS_CHK_INITCHECK, stderr);
    ws_json w;
    ws_json_init_mem(&w);
    ws_rep_checks_json(&w, c);
    expect(&w, "{\"enabled\": [\"memcheck\", \"initcheck\"], \"errors\": 0, \"findings\": []}",
           "checks without findings, byte for byte");
    check(ws_chk_findings(c) == 0, "ws_chk_findings counts none", NULL);
    ws_chk_finding f;
    check(ws_chk_finding_get(c, 0, &f) == -1, "ws_chk_finding_get out of range is -1", NULL);

    FILE *out = tmpfile();
    ws_rep_launch l[3];
    sample_launches(l);
    int rc = ws_rep_run_write(out, "t4", l, 1, c);
    long n = ftell(out);
    char *text = malloc((size_t)n + 1);
    rewind(out);
    text[fread(text, 1, (size_t)n, out)] = 0;
    fclose(out);
    const char *tail =
        "\n], \"checks\": {\"enabled\": [\"memcheck\", \"initcheck\"], \"errors\": 0, \"findings\": []}}\n";
    check(rc == 0 && (size_t)n > strlen(tail) && !strcmp(text + n - (long)strlen(tail), tail),
          "run report with --check ends with the \"checks\" member", NULL);
    free(text);
    ws_chk_destroy(c);
}

/* The device preset's JSON: its layout, and every field read back with jansson equals ws_device_field. */
static void test_device(void)
{
    char err[1024];
    const ws_device *d = ws_device_get("h200", err, sizeof err);
    check(d != NULL, "h200 preset loads", d ? NULL : err);
    if (!d) return;
    ws_json w;
    ws_json_init_mem(&w);
    ws_rep_device_json(&w, d);
    int rc = ws_json_finish(&w);
    size_t len;
    const char *text = ws_json_text(&w, &len);
    check(rc == 0 &&
          starts(text, "{\"name\": \"h200\",\n \"full_name\": \"NVIDIA H200\",\n \"compute_capability\": \"9.0\",\n"),
          "device JSON: one member per line, indented by one space", NULL);
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    check(root && json_object_size(root) == (size_t)ws_device_nfields() + 1, "device JSON parses: name + every field",
          root ? NULL : je.text);
    int ok = root != NULL;
    for (int i = 0; ok && i < ws_device_nfields(); i++) {
        ws_device_value v;
        ws_device_field(d, i, &v);
        json_t *x = json_object_get(root, v.key);
        switch (v.type) {
        case WS_DEVICE_INT: ok = json_is_integer(x) && json_integer_value(x) == v.i; break;
        case WS_DEVICE_SIZE: ok = json_is_integer(x) && (size_t)json_integer_value(x) == v.z; break;
        case WS_DEVICE_DOUBLE: ok = json_is_number(x) && fabs(json_number_value(x) - v.d) <= 1e-9 * fabs(v.d); break;
        case WS_DEVICE_STRING: ok = json_is_string(x) && !strcmp(json_string_value(x), v.s); break;
        case WS_DEVICE_INTS:
            ok = json_is_array(x) && json_array_size(x) == (size_t)v.nints;
            for (int k = 0; ok && k < v.nints; k++) ok = json_integer_value(json_array_get(x, (size_t)k)) == v.ints[k];
            break;
        }
        if (!ok) check(0, "device JSON field equals ws_device_field", v.key);
    }
    if (ok) check(1, "device JSON: every field equals ws_device_field", NULL);
    json_decref(root);
    ws_json_free(&w);
}

/* Run every group of checks; exit status 1 on any failure. */
int main(void)
{
    test_strings();
    test_structure();
    test_numbers();
    test_breaks();
    test_misuse();
    test_file();
    test_roundtrip();
    test_run_report();
    test_checks();
    test_device();
    printf("%d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
