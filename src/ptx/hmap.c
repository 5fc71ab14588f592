/* hmap.c - string -> int hash map with linear probing; keys are copied. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hmap.h"

/* FNV-1a hash of a byte string. */
static uint32_t hash_str(const char *s, int len)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Slot for key in the map (existing or empty). */
ws_hent *ws_hmap_slot(ws_hmap *m, const char *k, int len)
{
    uint32_t i = hash_str(k, len) & (uint32_t)(m->cap - 1);
    for (;;) {
        ws_hent *e = &m->e[i];
        if (!e->key || ((int)strlen(e->key) == len && !memcmp(e->key, k, (size_t)len))) return e;
        i = (i + 1) & (uint32_t)(m->cap - 1);
    }
}

/* Look up key; -1 when absent. */
int ws_hmap_get(ws_hmap *m, const char *k, int len)
{
    if (!m->cap) return -1;
    ws_hent *e = ws_hmap_slot(m, k, len);
    return e->key ? e->val : -1;
}

/* Insert or replace key; returns the previous value or -1. */
int ws_hmap_put(ws_hmap *m, const char *k, int len, int val)
{
    if ((m->n + 1) * 2 > m->cap) {
        int cap = m->cap ? m->cap * 2 : 256;
        ws_hmap nm = { calloc((size_t)cap, sizeof(ws_hent)), cap, 0 };
        for (int i = 0; i < m->cap; i++)
            if (m->e[i].key) {
                ws_hent *e = ws_hmap_slot(&nm, m->e[i].key, (int)strlen(m->e[i].key));
                *e = m->e[i];
                nm.n++;
            }
        free(m->e);
        *m = nm;
    }
    ws_hent *e = ws_hmap_slot(m, k, len);
    if (e->key) {
        int old = e->val;
        e->val = val;
        return old;
    }
    e->key = strndup(k, (size_t)len);
    e->val = val;
    m->n++;
    return -1;
}

/* Free the map's keys and table. */
void ws_hmap_free(ws_hmap *m)
{
    for (int i = 0; i < m->cap; i++) free(m->e[i].key);
    free(m->e);
    memset(m, 0, sizeof *m);
}
