# ncu_plain.awk - Nsight Compute CSV with quoted fields that hold thousands separators ("1,409,024") -> plain CSV:
# drop the commas inside quotes, then the quotes. Used by the truth tests in tests/cli.
{
    out = ""; q = 0
    for (i = 1; i <= length($0); i++) {
        c = substr($0, i, 1)
        if (c == "\"") { q = !q; continue }
        if (c == "," && q) continue
        out = out c
    }
    print out
}
