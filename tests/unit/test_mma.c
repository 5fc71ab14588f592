/* test_mma.c - the tensor-core float arithmetic (src/core/ops_mma.c): the fast whole-operand mma (every output's
 * sum formed with vector-friendly loops) against the per-output reference that the hw_wmma/hw_mma_sync tests check
 * bit for bit against the H200, on random operand sets of every float shape (f16, bf16, tf32, e4m3, e5m2 inputs;
 * f16 and f32 accumulators): random bits with infinities, NaNs and subnormals, narrow and wide exponent ranges, and
 * accumulators that cancel most of the sum. */
#include <stdio.h>

#include "core/exec.h"

/* Run the comparison over several seeds. */
int main(void)
{
    char err[256];
    int fail = 0;
    for (unsigned seed = 1; seed <= 4; seed++) {
        int rc = ws_mx_selftest(seed * 7919u, 135, err, sizeof err);
        printf("%s  seed %u: 135 rounds x 9 shapes%s%s\n", rc ? "FAIL" : "PASS", seed, rc ? ": " : "", rc ? err : "");
        fail |= rc != 0;
    }
    return fail;
}
