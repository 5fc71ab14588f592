/* cr_sobol.c - Sobol direction vectors from Joe and Kuo's direction numbers (cr_joekuo.h, generated): for a
 * dimension with primitive polynomial x^s + a_1 x^(s-1) + ... + 1 and initial m_1..m_s, m_j = 2 a_1 m_(j-1) ^
 * 4 a_2 m_(j-2) ^ ... ^ 2^s m_(j-s) ^ m_(j-s), and v_j = m_j << (BITS - j). The first dimension has every m_j = 1. */
#include "cr_internal.h"

#include "cr_joekuo.h"

/* The m_j of dimension d (d >= 0), j = 1..bits, into m[0..bits-1]; 0 beyond the table. */
static int sobol_m(unsigned d, int bits, unsigned long long *m)
{
    if (d >= WS_CR_JK_DIMS) return 0;
    if (d == 0) {
        for (int j = 0; j < bits; j++) m[j] = 1;
        return 1;
    }
    /* find dimension d's bits in the stream: the sizes of every earlier dimension */
    unsigned long long at = 0;
    for (unsigned e = 1; e < d; e++) {
        unsigned s = WS_CR_JK_HEAD[e - 1] & 31;
        at += (unsigned long long)s * (s - 1) / 2;
    }
    unsigned s = WS_CR_JK_HEAD[d - 1] & 31, a = WS_CR_JK_HEAD[d - 1] >> 5;
    for (unsigned k = 1; k <= s && (int)k <= bits; k++) {
        unsigned long long v = 0;
        for (unsigned b = 0; b < k - 1; b++, at++) v |= (unsigned long long)(WS_CR_JK_M[at / 32] >> (at % 32) & 1) << b;
        m[k - 1] = v << 1 | 1;
    }
    for (int j = (int)s; j < bits; j++) {
        unsigned long long v = m[j - s] ^ (m[j - s] << s);
        for (unsigned k = 1; k < s; k++)
            if (a >> (s - 1 - k) & 1) v ^= m[j - k] << k;
        m[j] = v;
    }
    return 1;
}

/* 32-bit direction vectors. */
int ws_cr_sobol_dirs32(unsigned d, unsigned *v)
{
    unsigned long long m[32];
    if (!sobol_m(d, 32, m)) return 0;
    for (int j = 0; j < 32; j++) v[j] = (unsigned)(m[j] << (31 - j));
    return 1;
}

/* 64-bit direction vectors. */
int ws_cr_sobol_dirs64(unsigned d, unsigned long long *v)
{
    unsigned long long m[64];
    if (!sobol_m(d, 64, m)) return 0;
    for (int j = 0; j < 64; j++) v[j] = m[j] << (63 - j);
    return 1;
}

/* Dimensions in the table. */
unsigned ws_cr_sobol_dims(void) { return WS_CR_JK_DIMS; }
