/* hmap.h - string -> int hash map (open addressing, FNV-1a) used by the PTX front end for names and labels. */
#ifndef WS_HMAP_H
#define WS_HMAP_H

typedef struct ws_hent { char *key; int val; } ws_hent;
typedef struct ws_hmap { ws_hent *e; int cap, n; } ws_hmap;

/* Slot for key in the map (existing or empty); the map must have a table. */
ws_hent *ws_hmap_slot(ws_hmap *m, const char *k, int len);
/* Look up key; -1 when absent. */
int ws_hmap_get(ws_hmap *m, const char *k, int len);
/* Insert or replace key; returns the previous value or -1. */
int ws_hmap_put(ws_hmap *m, const char *k, int len, int val);
/* Free the map's keys and table (the map is empty and reusable afterwards). */
void ws_hmap_free(ws_hmap *m);

#endif
