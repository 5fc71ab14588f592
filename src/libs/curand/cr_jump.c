/* cr_jump.c - the skip-ahead matrices of the stateful generators, made once on the host: XORWOW's step is linear
 * over GF(2) on its 160 state bits (M^(2^k) by repeated squaring), MRG32k3a's on its two 3-vectors modulo m1, m2. The
 * init kernels multiply each state by the powers its subsequence and offset need. */
#include "cr_internal.h"

#include <pthread.h>
#include <string.h>

static unsigned xw_mats[WS_CR_XORWOW_MATS][WS_CR_XORWOW_MAT_WORDS];
static unsigned mrg_mats[WS_CR_MRG_MATS][WS_CR_MRG_MAT_WORDS];
static pthread_once_t jump_once = PTHREAD_ONCE_INIT;

/* One XORWOW step of the linear part (v[0..4]) applied to the 160-bit vector x. */
static void xw_step(const unsigned *x, unsigned *r)
{
    unsigned t = x[0] ^ (x[0] >> 2);
    r[0] = x[1]; r[1] = x[2]; r[2] = x[3]; r[3] = x[4];
    r[4] = (x[4] ^ (x[4] << 4)) ^ (t ^ (t << 1));
}

/* r = A x over GF(2) (A column-major: column b is the image of bit b). */
static void xw_apply(const unsigned *a, const unsigned *x, unsigned *r)
{
    memset(r, 0, 5 * sizeof *r);
    for (int b = 0; b < 160; b++)
        if (x[b / 32] >> (b % 32) & 1)
            for (int i = 0; i < 5; i++) r[i] ^= a[b * 5 + i];
}

/* a * b (mod m) for 3 x 3 matrices, row-major. */
static void mrg_mul(const unsigned *a, const unsigned *b, unsigned *r, unsigned long long m)
{
    unsigned t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            unsigned long long acc = 0;
            for (int k = 0; k < 3; k++) acc = (acc + (unsigned long long)a[i * 3 + k] * b[k * 3 + j] % m) % m;
            t[i * 3 + j] = (unsigned)acc;
        }
    memcpy(r, t, sizeof t);
}

/* Make both generators' matrices. */
static void make_jumps(void)
{
    for (int b = 0; b < 160; b++) {
        unsigned x[5] = { 0 };
        x[b / 32] = 1u << (b % 32);
        xw_step(x, &xw_mats[0][b * 5]);
    }
    for (int k = 1; k < WS_CR_XORWOW_MATS; k++)
        for (int b = 0; b < 160; b++) xw_apply(xw_mats[k - 1], &xw_mats[k - 1][b * 5], &xw_mats[k][b * 5]);
    const unsigned long long m1 = 4294967087ull, m2 = 4294944443ull;
    const unsigned a1[9] = { 0, 1, 0, 0, 0, 1, (unsigned)(m1 - 810728), 1403580, 0 };
    const unsigned a2[9] = { 0, 1, 0, 0, 0, 1, (unsigned)(m2 - 1370589), 0, 527612 };
    memcpy(mrg_mats[0], a1, sizeof a1);
    memcpy(mrg_mats[0] + 9, a2, sizeof a2);
    for (int k = 1; k < WS_CR_MRG_MATS; k++) {
        mrg_mul(mrg_mats[k - 1], mrg_mats[k - 1], mrg_mats[k], m1);
        mrg_mul(mrg_mats[k - 1] + 9, mrg_mats[k - 1] + 9, mrg_mats[k] + 9, m2);
    }
}

/* XORWOW's jump matrices. */
const unsigned *ws_cr_xorwow_mats(void)
{
    pthread_once(&jump_once, make_jumps);
    return &xw_mats[0][0];
}

/* MRG32k3a's jump matrices. */
const unsigned *ws_cr_mrg_mats(void)
{
    pthread_once(&jump_once, make_jumps);
    return &mrg_mats[0][0];
}
