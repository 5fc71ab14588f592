/* huge.c - large zeroed host arrays on huge pages (huge.h). */
#include "huge.h"

#include <stdint.h>
#include <sys/mman.h>

#define WS_HUGE_PAGE ((size_t)2 << 20)

/* Round bytes up to whole huge pages. */
static size_t huge_span(size_t bytes) { return (bytes + WS_HUGE_PAGE - 1) & ~(WS_HUGE_PAGE - 1); }

/* bytes of zeroed memory on 2 MiB boundaries, huge pages asked for (see huge.h). */
void *ws_huge_alloc(size_t bytes)
{
    if (!bytes) bytes = 1;
    size_t span = huge_span(bytes), map = span + WS_HUGE_PAGE;
    uint8_t *p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    /* keep the aligned span, give back the rest */
    uint8_t *a = (uint8_t *)(((uintptr_t)p + WS_HUGE_PAGE - 1) & ~(uintptr_t)(WS_HUGE_PAGE - 1));
    if (a > p) munmap(p, (size_t)(a - p));
    if (p + map > a + span) munmap(a + span, (size_t)(p + map - (a + span)));
#ifdef MADV_HUGEPAGE
    madvise(a, span, MADV_HUGEPAGE);
#endif
    return a;
}

/* Free what ws_huge_alloc(bytes) returned. */
void ws_huge_free(void *p, size_t bytes)
{
    if (p) munmap(p, huge_span(bytes ? bytes : 1));
}
