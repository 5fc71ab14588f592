/* lex.h - PTX tokenizer. */
#ifndef WS_LEX_H
#define WS_LEX_H

#include <stddef.h>

enum ws_tok_kind { WS_TK_EOF, WS_TK_WORD, WS_TK_NUM, WS_TK_STR, WS_TK_PUNCT };

typedef struct ws_tok {
    int kind;
    const char *p;   /* start in the source text */
    int len;
    int line;
} ws_tok;

typedef struct ws_lex {
    const char *src, *end, *cur;
    int line;
    ws_tok tok;      /* current token */
} ws_lex;

/* Start tokenizing src[0..len). */
void ws_lex_init(ws_lex *lx, const char *src, size_t len);
/* Advance to the next token. */
void ws_lex_next(ws_lex *lx);
/* Whether the current token is the punctuation character c. */
int ws_lex_is(const ws_lex *lx, char c);
/* Whether the current token is exactly the word w. */
int ws_lex_word(const ws_lex *lx, const char *w);

#endif
