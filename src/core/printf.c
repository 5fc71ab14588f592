/* printf.c - device-side output: printf (vprintf calls, formatted per lane in lane order) and the message of a
 * failed assert. */
#include <stdlib.h>
#include <string.h>
#include "ops.h"

/* Read a NUL-terminated device string at a generic address into buf. */
static void read_cstr(ws_warp *w, uint64_t addr, int lane, char *buf, size_t cap)
{
    size_t i = 0;
    for (; i + 1 < cap; i++) {
        const char *p = ws_xlate_slow(w, addr + i, 1, lane);
        if (!p) break;
        buf[i] = *p;
        if (!*p) return;
    }
    buf[i] = 0;
}

/* __assertfail(message, file, line, function, charSize) */
void ws_assert_fail(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_call *c = in->call;
    size_t stride = w->L->local_stride;
    int l = __builtin_ctz(mask);
    uint8_t *fb = w->local + (size_t)l * stride + w->local_base;
    uint64_t a[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < c->nargs && i < 4; i++) memcpy(&a[i], fb + c->args[i].src_off, 8);
    char msg[256], file[256], fn[256];
    read_cstr(w, a[0], l, msg, sizeof msg);
    read_cstr(w, a[1], l, file, sizeof file);
    read_cstr(w, a[3], l, fn, sizeof fn);
    fflush(stdout);
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, (unsigned)a[2], fn,
            w->blk->id.x, w->blk->id.y, w->blk->id.z, (unsigned)RG(WS_SR_TID_X, l), (unsigned)RG(WS_SR_TID_Y, l),
            (unsigned)RG(WS_SR_TID_Z, l), msg);
    ws_fault(w, in, WS_ERR_ASSERT, "device-side assert triggered: %s:%u: %s", file, (unsigned)a[2], msg);
}

/* ---------- device printf ---------- */
/* Append formatted text to a growing buffer. */
static void out_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = 0;
}

/* Parse a conversion specification from just past its '%': flags, width, precision and length modifiers (*longs
 * counts l/L/q/j/z/t, *half counts h); *conv gets the conversion character (0 at the end). Returns what follows. */
static const char *parse_conv(const char *p, int *longs, int *half, char *conv)
{
    while (*p && strchr("-+ #0", *p)) p++;
    while (*p && (*p >= '0' && *p <= '9')) p++;
    if (*p == '.') { p++; while (*p && (*p >= '0' && *p <= '9')) p++; }
    *longs = *half = 0;
    while (*p && strchr("hlLqjzt", *p)) {
        if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't') (*longs)++;
        if (*p == 'h') (*half)++;
        p++;
    }
    *conv = *p ? *p++ : 0;
    return p;
}

/* Bytes (and alignment) of the argument a conversion takes from the packed buffer; 0 when it takes none. */
static unsigned conv_arg_size(char conv, int longs)
{
    if (!conv) return 0;
    if (strchr("diuxXoc", conv)) return longs ? 8 : 4;
    if (strchr("fFeEgGaAsp", conv)) return 8;
    return 0;
}

/* Where the arguments of lane l's printf call lie in its packed buffer: offsets and sizes of up to max of them, as
 * format_lane reads them (the checkers see which bytes are arguments, not alignment padding). Returns how many. */
int ws_printf_args(ws_warp *w, int l, uint64_t fmt_addr, uint32_t *off, uint8_t *size, int max)
{
    char fmt[4096];
    read_cstr(w, fmt_addr, l, fmt, sizeof fmt);
    size_t ap = 0;
    int n = 0;
    for (const char *p = fmt; *p && n < max;) {
        if (*p != '%') { p++; continue; }
        if (p[1] == '%') { p += 2; continue; }
        int longs, half;
        char conv;
        p = parse_conv(p + 1, &longs, &half, &conv);
        unsigned sz = conv_arg_size(conv, longs);
        if (!sz) continue;
        ap = (ap + sz - 1) & ~(size_t)(sz - 1);
        off[n] = (uint32_t)ap;
        size[n++] = (uint8_t)sz;
        ap += sz;
    }
    return n;
}

/* Format one printf call for lane l: fmt at a generic address, arguments packed in a buffer. */
static int format_lane(ws_warp *w, int l, uint64_t fmt_addr, uint64_t args_addr, char **out, size_t *olen, size_t *ocap)
{
    int nargs = 0;
    char fmt[4096];
    read_cstr(w, fmt_addr, l, fmt, sizeof fmt);
    size_t ap = 0;
    const char *p = fmt;
    while (*p) {
        if (*p != '%') {
            const char *q = p;
            while (*q && *q != '%') q++;
            out_append(out, olen, ocap, p, (size_t)(q - p));
            p = q;
            continue;
        }
        if (p[1] == '%') { out_append(out, olen, ocap, "%", 1); p += 2; continue; }
        const char *s = p++;
        int longs, half;
        char conv;
        p = parse_conv(p, &longs, &half, &conv);
        char spec[96];
        size_t sl = (size_t)(p - s);
        if (sl >= sizeof spec - 4) sl = sizeof spec - 4;
        char tmp[512];
        int n = 0;
        /* rebuild the spec without length modifiers, then add our own */
        char core[64];
        size_t cl = 0;
        for (const char *c = s; c < p - 1 && cl < sizeof core - 4; c++)
            if (!strchr("hlLqjzt", *c)) core[cl++] = *c;
        core[cl] = 0;
        if (conv == 'd' || conv == 'i' || conv == 'u' || conv == 'x' || conv == 'X' || conv == 'o' || conv == 'c') {
            unsigned sz = longs ? 8 : 4;
            ap = (ap + sz - 1) & ~(size_t)(sz - 1);
            uint8_t *q = ws_xlate_slow(w, args_addr + ap, sz, l);
            uint64_t v = 0;
            if (q) memcpy(&v, q, sz);
            ap += sz;
            snprintf(spec, sizeof spec, "%sll%c", core, conv == 'c' ? 'd' : conv);
            if (conv == 'c') { snprintf(spec, sizeof spec, "%sc", core); n = snprintf(tmp, sizeof tmp, spec, (int)v); }
            else if (conv == 'd' || conv == 'i') {
                long long sv = longs ? (long long)v : (long long)(int32_t)v;
                if (half == 1) sv = (short)sv;
                if (half >= 2) sv = (signed char)sv;
                n = snprintf(tmp, sizeof tmp, spec, sv);
            } else {
                unsigned long long uv = longs ? v : (uint32_t)v;
                if (half == 1) uv = (unsigned short)uv;
                if (half >= 2) uv = (unsigned char)uv;
                n = snprintf(tmp, sizeof tmp, spec, uv);
            }
        } else if (strchr("fFeEgGaA", conv) && conv) {
            ap = (ap + 7) & ~(size_t)7;
            uint8_t *q = ws_xlate_slow(w, args_addr + ap, 8, l);
            double v = 0;
            if (q) memcpy(&v, q, 8);
            ap += 8;
            snprintf(spec, sizeof spec, "%s%c", core, conv);
            n = snprintf(tmp, sizeof tmp, spec, v);
        } else if (conv == 's') {
            ap = (ap + 7) & ~(size_t)7;
            uint8_t *q = ws_xlate_slow(w, args_addr + ap, 8, l);
            uint64_t v = 0;
            if (q) memcpy(&v, q, 8);
            ap += 8;
            char str[1024];
            if (v) read_cstr(w, v, l, str, sizeof str); else snprintf(str, sizeof str, "(null)");
            snprintf(spec, sizeof spec, "%ss", core);
            n = snprintf(tmp, sizeof tmp, spec, str);
        } else if (conv == 'p') {
            ap = (ap + 7) & ~(size_t)7;
            uint8_t *q = ws_xlate_slow(w, args_addr + ap, 8, l);
            uint64_t v = 0;
            if (q) memcpy(&v, q, 8);
            ap += 8;
            n = snprintf(tmp, sizeof tmp, "%p", (void *)(uintptr_t)v);
        } else {
            out_append(out, olen, ocap, s, (size_t)(p - s));
            continue;
        }
        nargs++;
        if (n > 0) out_append(out, olen, ocap, tmp, (size_t)(n < (int)sizeof tmp ? n : (int)sizeof tmp - 1));
    }
    return nargs;
}

/* Print device printf output for the active lanes of a vprintf call, in lane order. */
void ws_vprintf(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_call *c = in->call;
    size_t stride = w->L->local_stride;
    char *out = NULL;
    size_t olen = 0, ocap = 0;
    uint32_t m = mask;
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        uint8_t *fb = w->local + (size_t)l * stride + w->local_base;
        uint64_t fmt = 0, args = 0;
        if (c->nargs > 0) memcpy(&fmt, fb + c->args[0].src_off, 8);
        if (c->nargs > 1) memcpy(&args, fb + c->args[1].src_off, 8);
        int32_t r = format_lane(w, l, fmt, args, &out, &olen, &ocap);
        if (c->has_ret) memcpy(fb + c->ret.dst_off, &r, 4);
    }
    if (olen) fwrite(out, 1, olen, w->L->printf_out ? w->L->printf_out : stdout);
    free(out);
}

