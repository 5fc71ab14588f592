// warpsim test: CUDA's cuRAND host API as warpsim provides it (src/libs/curand: our kernels on the simulated GPU),
// checked against what NVIDIA's library wrote on an H200 (tests/data/h200/curand/curand_host.txt, made by this
// program's dump mode there): XORWOW, MRG32k3a, Philox4_32_10, Sobol32 and Sobol64 (1-5 dimensions), seeds,
// offsets, orderings, consecutive calls, integers, uniform floats and doubles, normal and log-normal doubles, host
// generators, and the statuses of each step, bit for bit (a hash of every output); float normals within 1e-5
// (warpsim's sin/cos/lg2.approx are exact, the H200's are not); Poisson (our own method) by its mean and variance;
// means and variances of every generator; cuRAND's statuses for misuse; a stub's status.
//   curand_host [quick]      check (quick: a subset, for the timing and --check runs)
//   curand_host dump FILE    write the expected file (run on a real GPU with NVIDIA's cuRAND)
// NVCCFLAGS: -lcurand
// TIMING_ARGS: quick
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <curand.h>
#include <string>
#include <vector>

static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 20) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

enum kind { U32, U64, UF, UD, NF, ND, LF, LD, POIS };
static size_t esize(int k) { return (k == U64 || k == UD || k == ND || k == LD) ? 8 : 4; }

struct call { int kind; size_t n; double a, b; };
enum { EXACT = 0, APPROX = 1, STAT = 2, QUICK = 4 };   // how a case is compared under warpsim; QUICK: in the subset
struct tcase {
    std::string name;
    curandRngType_t type;
    unsigned long long seed;
    int set_seed;
    unsigned long long offset;
    int ordering, dims, host, flags;
    std::vector<call> calls;
    size_t keep_head, keep_tail;    // a long call keeps only its first and last values
};

// what one case produced: the statuses of its steps and its output bytes
struct result { std::string status; std::vector<unsigned char> bytes; };

// FNV-1a, 64 bits, of the bytes
static unsigned long long fnv(const std::vector<unsigned char> &b)
{
    unsigned long long h = 1469598103934665603ull;
    for (unsigned char c : b) { h ^= c; h *= 1099511628211ull; }
    return h;
}

// run one case: every call's output (device generators copied back) and the statuses of every step
static result run_case(const tcase &c)
{
    result r;
    char buf[96];
    curandGenerator_t g;
    curandStatus_t s = c.host ? curandCreateGeneratorHost(&g, c.type) : curandCreateGenerator(&g, c.type);
    auto note = [&](const char *what, int st) { snprintf(buf, sizeof buf, "%s:%d,", what, st); r.status += buf; };
    note("create", s);
    if (s) return r;
    if (c.set_seed) note("seed", curandSetPseudoRandomGeneratorSeed(g, c.seed));
    if (c.offset) note("offset", curandSetGeneratorOffset(g, c.offset));
    if (c.ordering) note("ordering", curandSetGeneratorOrdering(g, (curandOrdering_t)c.ordering));
    if (c.dims) note("dims", curandSetQuasiRandomGeneratorDimensions(g, c.dims));
    for (size_t i = 0; i < c.calls.size(); i++) {
        const call &k = c.calls[i];
        size_t bytes = k.n * esize(k.kind);
        std::vector<unsigned char> h(bytes ? bytes : 1);
        void *d = h.data();
        if (!c.host && cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess) { note("malloc", -1); break; }
        switch (k.kind) {
        case U32: s = curandGenerate(g, (unsigned *)d, k.n); break;
        case U64: s = curandGenerateLongLong(g, (unsigned long long *)d, k.n); break;
        case UF: s = curandGenerateUniform(g, (float *)d, k.n); break;
        case UD: s = curandGenerateUniformDouble(g, (double *)d, k.n); break;
        case NF: s = curandGenerateNormal(g, (float *)d, k.n, (float)k.a, (float)k.b); break;
        case ND: s = curandGenerateNormalDouble(g, (double *)d, k.n, k.a, k.b); break;
        case LF: s = curandGenerateLogNormal(g, (float *)d, k.n, (float)k.a, (float)k.b); break;
        case LD: s = curandGenerateLogNormalDouble(g, (double *)d, k.n, k.a, k.b); break;
        case POIS: s = curandGeneratePoisson(g, (unsigned *)d, k.n, k.a); break;
        }
        char what[32];
        snprintf(what, sizeof what, "call%zu", i);
        note(what, s);
        if (!c.host) {
            cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost);
            cudaFree(d);
        }
        if (s) continue;
        size_t e = esize(k.kind);
        if (c.keep_head && k.n > c.keep_head + c.keep_tail) {
            r.bytes.insert(r.bytes.end(), h.begin(), h.begin() + c.keep_head * e);
            r.bytes.insert(r.bytes.end(), h.end() - c.keep_tail * e, h.end());
        } else r.bytes.insert(r.bytes.end(), h.begin(), h.begin() + bytes);
    }
    note("destroy", curandDestroyGenerator(g));
    return r;
}

// every case: for each pseudo-random generator the same list, then Sobol's
static std::vector<tcase> cases()
{
    std::vector<tcase> v;
    struct { const char *name; curandRngType_t t; } ps[] = {
        { "xorwow", CURAND_RNG_PSEUDO_XORWOW }, { "mrg", CURAND_RNG_PSEUDO_MRG32K3A },
        { "philox", CURAND_RNG_PSEUDO_PHILOX4_32_10 } };
    for (auto &p : ps) {
        auto add = [&](const char *suffix, unsigned long long seed, int set_seed, unsigned long long off, int ord,
                       int flags, std::vector<call> calls, size_t head = 0, size_t tail = 0) {
            v.push_back({ std::string(p.name) + "_" + suffix, p.t, seed, set_seed, off, ord, 0, 0, flags, calls,
                          head, tail });
        };
        add("u32_main", 1234, 1, 0, 0, EXACT, { { U32, 1 << 17, 0, 0 } });
        add("u32_noseed", 0, 0, 0, 0, EXACT, { { U32, 4096, 0, 0 } });
        add("u32_seed64", 0xfedcba9876543210ull, 1, 0, 0, QUICK, { { U32, 4096, 0, 0 } });
        add("u32_calls", 1234, 1, 0, 0, EXACT, { { U32, 1000, 0, 0 }, { U32, 3001, 0, 0 }, { U32, 70000, 0, 0 } });
        add("u32_off777", 1234, 1, 777, 0, QUICK, { { U32, 4096, 0, 0 } });
        add("u32_off1M", 1234, 1, 1000003, 0, EXACT, { { U32, 4096, 0, 0 } });
        add("uf", 1234, 1, 0, 0, QUICK, { { UF, 4096, 0, 0 }, { UF, 1001, 0, 0 } });
        add("ud", 1234, 1, 0, 0, EXACT, { { UD, 4096, 0, 0 }, { UD, 1001, 0, 0 } });
        add("nf", 1234, 1, 0, 0, APPROX, { { NF, 4096, 1, 2 }, { NF, 1002, 0, 1 } });
        add("nd", 1234, 1, 0, 0, QUICK, { { ND, 4096, 1, 2 }, { ND, 1002, 0, 1 } });
        add("nf_odd", 1234, 1, 0, 0, APPROX, { { NF, 1001, 0, 1 } });
        add("lf", 1234, 1, 0, 0, APPROX, { { LF, 4096, 0.5, 0.25 } });
        add("ld", 1234, 1, 0, 0, EXACT, { { LD, 4096, 0.5, 0.25 } });
        add("pois", 1234, 1, 0, 0, STAT, { { POIS, 4096, 3.5, 0 }, { POIS, 4096, 1000, 0 }, { POIS, 4096, 0.01, 0 } });
        add("mixed_s0", 0, 1, 0, 0, EXACT, { { UD, 1000, 0, 0 }, { ND, 1000, 0, 1 }, { UF, 1000, 0, 0 } });
        add("ord_best", 1234, 1, 0, CURAND_ORDERING_PSEUDO_BEST, EXACT, { { U32, 1 << 16, 0, 0 } });
        add("ord_legacy", 1234, 1, 0, CURAND_ORDERING_PSEUDO_LEGACY, EXACT, { { U32, 1 << 16, 0, 0 } });
        add("ord_dynamic", 1234, 1, 0, CURAND_ORDERING_PSEUDO_DYNAMIC, EXACT, { { U32, 1 << 16, 0, 0 } });
        add("ord_quasi", 1234, 1, 0, CURAND_ORDERING_QUASI_DEFAULT, EXACT, { { U32, 16, 0, 0 } });
        add("longlong", 1234, 1, 0, 0, EXACT, { { U64, 16, 0, 0 } });
        add("u32_big", 1234, 1, 0, 0, EXACT, { { U32, (3u << 20) + 7, 0, 0 } }, 32768, 32768);
        v.push_back({ std::string("host_") + p.name, p.t, 99, 1, 5, 0, 0, 1, QUICK,
                      { { U32, 3000, 0, 0 }, { UF, 2000, 0, 0 }, { UD, 1000, 0, 0 } }, 0, 0 });
    }
    // what CuPy's legacy cupy.random.seed(42); rand(1000); randn(1000); rand(1000, dtype=float32) ask of cuRAND
    // (tests/python/cupy_random.py compares CuPy's arrays with this case's hash)
    v.push_back({ "xorwow_cupy_s42", CURAND_RNG_PSEUDO_XORWOW, 42, 1, 0, 0, 0, 0, EXACT,
                  { { UD, 1000, 0, 0 }, { ND, 1000, 0, 1 }, { UF, 1000, 0, 0 } }, 0, 0 });
    struct { const char *name; curandRngType_t t; int is64; } qs[] = {
        { "sobol32", CURAND_RNG_QUASI_SOBOL32, 0 }, { "sobol64", CURAND_RNG_QUASI_SOBOL64, 1 } };
    for (auto &q : qs) {
        int I = q.is64 ? U64 : U32;
        auto add = [&](const char *suffix, unsigned long long off, int ord, int dims, int flags, std::vector<call> calls,
                       size_t head = 0, size_t tail = 0) {
            v.push_back({ std::string(q.name) + "_" + suffix, q.t, 0, 0, off, ord, dims, 0, flags, calls, head,
                          tail });
        };
        add("int_d1", 0, 0, 0, EXACT, { { I, 4096, 0, 0 } });
        add("int_d5", 0, 0, 5, QUICK, { { I, 5 * 4096, 0, 0 } });
        add("int_d5_calls", 0, 0, 5, EXACT, { { I, 5 * 100, 0, 0 }, { I, 5 * 1001, 0, 0 } });
        add("int_d3_off100", 100, 0, 3, EXACT, { { I, 3 * 1000, 0, 0 } });
        add("int_d7_bad", 0, 0, 7, EXACT, { { I, 100, 0, 0 } });
        add("wrongint", 0, 0, 0, EXACT, { { q.is64 ? U32 : U64, 16, 0, 0 } });
        add("uf_d3", 0, 0, 3, EXACT, { { UF, 3 * 1024, 0, 0 } });
        add("ud_d3", 0, 0, 3, EXACT, { { UD, 3 * 1024, 0, 0 } });
        add("nf_d2", 0, 0, 2, APPROX, { { NF, 2 * 1024, 1, 2 } });
        add("nd_d2", 0, 0, 2, QUICK, { { ND, 2 * 1024, 1, 2 } });
        add("lf_d2", 0, 0, 2, APPROX, { { LF, 2 * 1024, 0.5, 0.25 } });
        add("pois_d2", 0, 0, 2, STAT, { { POIS, 2 * 1024, 3.5, 0 } });
        add("ord_best", 0, CURAND_ORDERING_PSEUDO_BEST, 0, EXACT, { { I, 16, 0, 0 } });
        add("big_d4", 0, 0, 4, EXACT, { { I, 1u << 22, 0, 0 } }, 16384, 16384);
    }
    return v;
}

// cuRAND's statuses for misuse, as one string
static std::string misuse()
{
    std::string r;
    char buf[64];
    auto note = [&](const char *what, int st) { snprintf(buf, sizeof buf, "%s:%d,", what, st); r += buf; };
    curandGenerator_t g;
    note("create_bad", curandCreateGenerator(&g, (curandRngType_t)99));
    note("destroy_null", curandDestroyGenerator(NULL));
    int ma = -1, mi = -1, pa = -1, v = 0;
    curandGetProperty(MAJOR_VERSION, &ma);
    curandGetProperty(MINOR_VERSION, &mi);
    curandGetProperty(PATCH_LEVEL, &pa);
    note("major", ma);
    note("minor", mi);
    note("property_bad", curandGetProperty((libraryPropertyType)7, &v));
    note("version", curandGetVersion(&v));
    note("version_value", v);
    curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW);
    note("dims_on_pseudo", curandSetQuasiRandomGeneratorDimensions(g, 3));
    note("seeds", curandGenerateSeeds(g));
    note("stream", curandSetStream(g, 0));
    note("pois_neg", curandGeneratePoisson(g, NULL, 16, -1.0));
    note("ordering_bad", curandSetGeneratorOrdering(g, (curandOrdering_t)7));
    note("normal_odd", curandGenerateNormal(g, NULL, 7, 0.0f, 1.0f));
    curandDestroyGenerator(g);
    curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MRG32K3A);
    note("mrg_seeded", curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_SEEDED));
    curandDestroyGenerator(g);
    curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32);
    note("seed_on_quasi", curandSetPseudoRandomGeneratorSeed(g, 3));
    note("dims0", curandSetQuasiRandomGeneratorDimensions(g, 0));
    note("dims_20001", curandSetQuasiRandomGeneratorDimensions(g, 20001));
    note("ordering_pseudo_on_quasi", curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT));
    note("seeds", curandGenerateSeeds(g));
    curandDestroyGenerator(g);
    unsigned *dv = NULL;
    note("dirs32", curandGetDirectionVectors32((curandDirectionVectors32_t **)&dv, CURAND_DIRECTION_VECTORS_32_JOEKUO6));
    note("dirs32_dim1_v1", dv ? (int)(dv[32 + 1] >> 16) : -1);
    note("dirs32_dim99_v5", dv ? (int)(dv[99 * 32 + 5] >> 16) : -1);
    unsigned long long *dv64 = NULL;
    note("dirs64", curandGetDirectionVectors64((curandDirectionVectors64_t **)&dv64, CURAND_DIRECTION_VECTORS_64_JOEKUO6));
    note("dirs64_dim2047_v40", dv64 ? (int)(dv64[2047 * 64 + 40] >> 40) : -1);
    note("dirs_wrong_set", curandGetDirectionVectors32((curandDirectionVectors32_t **)&dv,
                                                       CURAND_DIRECTION_VECTORS_64_JOEKUO6));
    return r;
}

// the float values of a result, for the within-tolerance comparison
static std::vector<float> floats(const result &r)
{
    std::vector<float> f(r.bytes.size() / 4);
    memcpy(f.data(), r.bytes.data(), f.size() * 4);
    return f;
}

// mean and variance of n values from a device array of T
template <typename T> static void moments(const T *d, size_t n, double &mean, double &var)
{
    std::vector<T> h(n);
    cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
    double s = 0, s2 = 0;
    for (T x : h) { s += (double)x; s2 += (double)x * (double)x; }
    mean = s / n;
    var = s2 / n - mean * mean;
}

// means and variances of each generator's uniforms, normals and Poisson values against the distributions'
static void statistics(size_t n)
{
    struct { const char *name; curandRngType_t t; } gs[] = {
        { "xorwow", CURAND_RNG_PSEUDO_XORWOW }, { "mrg", CURAND_RNG_PSEUDO_MRG32K3A },
        { "philox", CURAND_RNG_PSEUDO_PHILOX4_32_10 }, { "sobol32", CURAND_RNG_QUASI_SOBOL32 },
        { "sobol64", CURAND_RNG_QUASI_SOBOL64 } };
    float *f;
    double *d;
    unsigned *u;
    cudaMalloc(&f, n * sizeof *f);
    cudaMalloc(&d, n * sizeof *d);
    cudaMalloc(&u, n * sizeof *u);
    for (auto &g : gs) {
        curandGenerator_t gen;
        if (curandCreateGenerator(&gen, g.t) != CURAND_STATUS_SUCCESS) { EXPECT(0, "%s: create", g.name); continue; }
        if (g.t < CURAND_RNG_QUASI_DEFAULT) curandSetPseudoRandomGeneratorSeed(gen, 777);
        double m, v, sd = sqrt(1.0 / n);   // a standard error unit
        EXPECT(curandGenerateUniform(gen, f, n) == 0, "%s: uniform", g.name);
        moments(f, n, m, v);
        EXPECT(fabs(m - 0.5) < 6 * sd * sqrt(1.0 / 12) && fabs(v - 1.0 / 12) < 0.05 / 12, "%s uniform: mean %g var %g",
               g.name, m, v);
        EXPECT(curandGenerateNormalDouble(gen, d, n, 2.0, 3.0) == 0, "%s: normal", g.name);
        moments(d, n, m, v);
        EXPECT(fabs(m - 2.0) < 6 * 3 * sd && fabs(v - 9.0) < 0.1 * 9, "%s normal: mean %g var %g", g.name, m, v);
        for (double lam : { 3.5, 200.0 }) {
            EXPECT(curandGeneratePoisson(gen, u, n, lam) == 0, "%s: Poisson", g.name);
            moments(u, n, m, v);
            EXPECT(fabs(m - lam) < 6 * sqrt(lam) * sd && fabs(v - lam) < 0.1 * lam, "%s Poisson(%g): mean %g var %g",
                   g.name, lam, m, v);
        }
        curandDestroyGenerator(gen);
    }
    cudaFree(f);
    cudaFree(d);
    cudaFree(u);
}

// the Poisson call of a STAT case: the mean of each call's values near its lambda
static void poisson_case(const tcase &c, const result &r)
{
    size_t at = 0;
    for (const call &k : c.calls) {
        if (at + k.n * 4 > r.bytes.size()) { EXPECT(0, "%s: short output", c.name.c_str()); return; }
        const unsigned *p = (const unsigned *)(r.bytes.data() + at);
        double s = 0;
        for (size_t i = 0; i < k.n; i++) s += p[i];
        double m = s / k.n;
        EXPECT(fabs(m - k.a) < 6 * sqrt(k.a / k.n) + 1e-9, "%s: Poisson(%g) mean %g", c.name.c_str(), k.a, m);
        at += k.n * 4;
    }
}

int main(int argc, char **argv)
{
    int dump = argc > 2 && !strcmp(argv[1], "dump"), quick = argc > 1 && !strcmp(argv[1], "quick");
    int warpsim = getenv("WARPSIM_ROOT_PID") != NULL;
    std::vector<tcase> all = cases();
    if (dump) {
        FILE *out = fopen(argv[2], "w");
        if (!out) return 2;
        fprintf(out, "# curand_host dump: NAME BYTES FNV1A64 STATUSES; vals NAME COUNT HEX... for float-normal cases\n");
        for (const tcase &c : all) {
            result r = run_case(c);
            fprintf(out, "case %s %zu %016llx %s\n", c.name.c_str(), r.bytes.size(), fnv(r.bytes), r.status.c_str());
            if (c.flags & APPROX) {
                std::vector<float> f = floats(r);
                if (f.size() > 1024) f.resize(1024);   // the first 1024 values are compared
                fprintf(out, "vals %s %zu", c.name.c_str(), f.size());
                for (float x : f) { unsigned b; memcpy(&b, &x, 4); fprintf(out, " %08x", b); }
                fprintf(out, "\n");
            }
        }
        fprintf(out, "misuse %s\n", misuse().c_str());
        fclose(out);
        return 0;
    }
    const char *path = "tests/data/h200/curand/curand_host.txt";
    FILE *in = fopen(path, "r");
    if (!in) { printf("FAIL: cannot read %s (run from the repository root)\n", path); return 1; }
    std::vector<std::string> lines;
    static char line[1 << 20];
    while (fgets(line, sizeof line, in)) { line[strcspn(line, "\n")] = 0; lines.push_back(line); }
    fclose(in);
    auto find = [&](const char *tag, const std::string &name) -> std::string {
        std::string key = std::string(tag) + " " + name + " ";
        for (auto &l : lines) if (!l.compare(0, key.size(), key)) return l.substr(key.size());
        return "";
    };
    int ran = 0;
    for (const tcase &c : all) {
        if (quick && !(c.flags & QUICK)) continue;
        std::string want = find("case", c.name);
        if (want.empty()) { EXPECT(0, "%s: not in %s", c.name.c_str(), path); continue; }
        char hash[32], status[512];
        size_t bytes = 0;
        if (sscanf(want.c_str(), "%zu %31s %511s", &bytes, hash, status) != 3) { EXPECT(0, "%s: bad line", c.name.c_str()); continue; }
        result r = run_case(c);
        ran++;
        EXPECT(r.status == status, "%s: statuses %s, H200 %s", c.name.c_str(), r.status.c_str(), status);
        EXPECT(r.bytes.size() == bytes, "%s: %zu bytes, H200 %zu", c.name.c_str(), r.bytes.size(), bytes);
        char ours[32];
        snprintf(ours, sizeof ours, "%016llx", fnv(r.bytes));
        if (warpsim && (c.flags & STAT)) poisson_case(c, r);
        else if (warpsim && (c.flags & APPROX)) {
            std::string vals = find("vals", c.name);
            std::vector<float> f = floats(r);
            const char *p = vals.c_str();
            char *e;
            size_t n = strtoul(p, &e, 10), bad = 0, first = 0;
            for (size_t i = 0; i < n && i < f.size(); i++) {
                unsigned b = (unsigned)strtoul(e, &e, 16);
                float h;
                memcpy(&h, &b, 4);
                if (!(fabsf(f[i] - h) <= 1e-5f * fmaxf(1.0f, fabsf(h)))) { if (!bad) first = i; bad++; }
            }
            EXPECT(n <= f.size() && !bad, "%s: %zu of %zu values beyond 1e-5 of the H200's (first: %zu)", c.name.c_str(),
                   bad, n, first);
        } else EXPECT(!strcmp(ours, hash), "%s: output hash %s, H200 %s", c.name.c_str(), ours, hash);
    }
    std::string m = misuse(), want;
    for (auto &l : lines) if (!l.compare(0, 7, "misuse ")) want = l.substr(7);
    EXPECT(m == want, "misuse statuses\n  ours %s\n  H200 %s", m.c_str(), want.c_str());
    if (warpsim) {
        // what warpsim does not simulate says so with cuRAND's status
        curandGenerator_t g;
        EXPECT(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MTGP32) == CURAND_STATUS_TYPE_ERROR, "MTGP32 accepted");
        EXPECT(curandCreateGenerator(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32) == CURAND_STATUS_TYPE_ERROR,
               "scrambled Sobol accepted");
        curandDiscreteDistribution_t dist;
        EXPECT(curandCreatePoissonDistribution(3.0, &dist) == CURAND_STATUS_NOT_INITIALIZED,
               "curandCreatePoissonDistribution: not the stub's CURAND_STATUS_NOT_INITIALIZED");
    }
    statistics(quick ? 1 << 12 : 1 << 16);
    if (g_fail) { printf("FAILED: %d checks\n", g_fail); return 1; }
    printf("PASS curand_host: %d cases against the H200%s, statistics, misuse\n", ran, quick ? " (quick)" : "");
    return 0;
}
