/* lex.c - PTX tokenizer: words (mnemonics with dots, registers, symbols), numbers, strings, punctuation. */
#include "lex.h"
#include <ctype.h>
#include <string.h>

/* Start tokenizing src[0..len). */
void ws_lex_init(ws_lex *lx, const char *src, size_t len)
{
    lx->src = lx->cur = src;
    lx->end = src + len;
    lx->line = 1;
    ws_lex_next(lx);
}

/* Characters that may appear in a word. */
static int word_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.' || c == ':';
}

/* Advance to the next token, skipping blanks and comments. */
void ws_lex_next(ws_lex *lx)
{
    const char *p = lx->cur, *e = lx->end;
    for (;;) {
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
            if (*p == '\n') lx->line++;
            p++;
        }
        if (p + 1 < e && p[0] == '/' && p[1] == '/') {
            while (p < e && *p != '\n') p++;
            continue;
        }
        if (p + 1 < e && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < e && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') lx->line++;
                p++;
            }
            p = p + 2 <= e ? p + 2 : e;
            continue;
        }
        break;
    }
    ws_tok *t = &lx->tok;
    t->p = p;
    t->line = lx->line;
    if (p >= e) {
        t->kind = WS_TK_EOF;
        t->len = 0;
        lx->cur = p;
        return;
    }
    const char *s = p;
    if (*p == '"') {
        p++;
        while (p < e && *p != '"') {
            if (*p == '\\' && p + 1 < e) p++;
            p++;
        }
        if (p < e) p++;
        t->kind = WS_TK_STR;
    } else if (isdigit((unsigned char)*p)) {
        while (p < e && (isalnum((unsigned char)*p) || *p == '.')) p++;
        t->kind = WS_TK_NUM;
    } else if (word_char((unsigned char)*p) && *p != ':') {
        while (p < e && word_char((unsigned char)*p)) {
            /* "::" is part of words such as shared::cta, but a lone ':' ends a label */
            if (*p == ':' && !(p + 1 < e && p[1] == ':') && !(p > s && p[-1] == ':')) break;
            p++;
        }
        t->kind = WS_TK_WORD;
    } else {
        p++;
        t->kind = WS_TK_PUNCT;
    }
    t->len = (int)(p - s);
    lx->cur = p;
}

/* Whether the current token is the punctuation character c. */
int ws_lex_is(const ws_lex *lx, char c)
{
    return lx->tok.kind == WS_TK_PUNCT && lx->tok.p[0] == c;
}

/* Whether the current token is exactly the word w. */
int ws_lex_word(const ws_lex *lx, const char *w)
{
    size_t n = strlen(w);
    return lx->tok.kind == WS_TK_WORD && (size_t)lx->tok.len == n && !memcmp(lx->tok.p, w, n);
}
