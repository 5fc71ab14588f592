/* cr_kinds.h - what warpsim's cuRAND host code (C) and its kernels (cr_kernels.cu) agree on: the output kinds a
 * generate kernel writes, and the generators' shapes (states, skip-ahead matrices). No CUDA header here. */
#ifndef WS_CR_KINDS_H
#define WS_CR_KINDS_H

/* What one generate call writes. */
enum ws_cr_kind {
    WS_CR_U32,       /* curandGenerate: 32-bit integers */
    WS_CR_U64,       /* curandGenerateLongLong (64-bit Sobol) */
    WS_CR_UNIFORM,   /* floats in (0, 1] */
    WS_CR_UNIFORM_D, /* doubles in (0, 1] */
    WS_CR_NORMAL,    /* floats, mean a, standard deviation b */
    WS_CR_NORMAL_D,
    WS_CR_LOGNORMAL, /* exp of a normal of mean a, standard deviation b */
    WS_CR_LOGNORMAL_D,
    WS_CR_POISSON,   /* 32-bit integers, mean a */
    WS_CR_KIND_COUNT
};

/* XORWOW: states (threads) of the host API's default ordering, words per state (v[5], d), and each state's
 * subsequence is 2^67 steps from the next. */
#define WS_CR_XORWOW_STATES 4096
/* ... and of CURAND_ORDERING_PSEUDO_DYNAMIC, which NVIDIA fits to the device (this is the H200's) */
#define WS_CR_XORWOW_STATES_DYNAMIC 2816
#define WS_CR_XORWOW_WORDS 6
#define WS_CR_XORWOW_SUBSEQ_LOG2 67
/* One XORWOW jump matrix over GF(2): 160 columns (the image of each state bit) of 5 words. */
#define WS_CR_XORWOW_MAT_WORDS (160 * 5)
/* Jump matrices kept: M^(2^k) for k < WS_CR_XORWOW_MATS (steps within a subsequence and subsequences). */
#define WS_CR_XORWOW_MATS (WS_CR_XORWOW_SUBSEQ_LOG2 + 12)

/* MRG32k3a: states of the default ordering, subsequences 2^76 steps apart; its two component moduli. */
#define WS_CR_MRG_STATES 81920
/* ... and of CURAND_ORDERING_PSEUDO_LEGACY */
#define WS_CR_MRG_STATES_LEGACY 4096
#define WS_CR_MRG_SUBSEQ_LOG2 76
#define WS_CR_MRG_MATS (WS_CR_MRG_SUBSEQ_LOG2 + 17)
/* One MRG jump: the 3 x 3 matrices of both components (18 words). */
#define WS_CR_MRG_MAT_WORDS 18

/* Philox4x32-10: counters (threads) of the default ordering; each makes 4 values per counter. */
#define WS_CR_PHILOX_STATES 65536

#endif
