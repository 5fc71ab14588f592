/* hs_check.c - the host session's side of `warpsim run --check`: creates the checker (src/check) when
 * WARPSIM_CHECK is set and attaches it to every simulated GPU, reports failing API calls with their host call site,
 * finds the host call stack (backtrace, dladdr, and the program's own ELF symbol table for functions it does not
 * export), and at exit prints the ERROR SUMMARY and leaves the error count where `warpsim run` reads it
 * (WARPSIM_CHECK_STATUS) for --check-exit-code. */
#include "hs_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int checking;           /* 1 under --check */
static ws_chk *checker;
static int check_state;        /* 0 not looked at, 1 on, -1 off */

/* ---------- host symbols ---------- */

/* The symbol table of one ELF file (mapped). */
typedef struct elf_syms {
    char path[512];
    void *map;
    size_t len;
    const Elf64_Sym *sym;
    size_t nsym;
    const char *str;
    size_t strlen_;
    int is_dyn;
    int ok;
} elf_syms;

static elf_syms elf_cache[8];

/* Load (once) the .symtab of an ELF file; NULL when it has none. */
static elf_syms *elf_load(const char *path)
{
    for (int i = 0; i < 8; i++)
        if (elf_cache[i].path[0] && !strcmp(elf_cache[i].path, path)) return elf_cache[i].ok ? &elf_cache[i] : NULL;
    elf_syms *e = NULL;
    for (int i = 0; i < 8 && !e; i++) if (!elf_cache[i].path[0]) e = &elf_cache[i];
    if (!e) return NULL;
    snprintf(e->path, sizeof e->path, "%s", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) { close(fd); return NULL; }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return NULL;
    const unsigned char *img = m;
    size_t size = (size_t)st.st_size;
    const Elf64_Ehdr *eh = m;
    if (memcmp(img, ELFMAG, SELFMAG) || img[EI_CLASS] != ELFCLASS64 || eh->e_shoff > size ||
        eh->e_shentsize < sizeof(Elf64_Shdr) || (uint64_t)eh->e_shnum * eh->e_shentsize > size - eh->e_shoff) {
        munmap(m, size);
        return NULL;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *ss = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset || ss->sh_offset > size ||
            ss->sh_size > size - ss->sh_offset)
            continue;
        e->sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
        e->nsym = sh[i].sh_size / sizeof(Elf64_Sym);
        e->str = (const char *)img + ss->sh_offset;
        e->strlen_ = ss->sh_size;
        break;
    }
    e->map = m;
    e->len = size;
    e->is_dyn = eh->e_type == ET_DYN;
    e->ok = e->sym != NULL;
    return e->ok ? e : NULL;
}

/* Name of the function holding addr in the file mapped at base (from .symtab), and the offset into it. */
static const char *elf_symbol(const char *path, uintptr_t base, uintptr_t addr, uintptr_t *off)
{
    elf_syms *e = elf_load(path);
    if (!e) return NULL;
    uintptr_t v = e->is_dyn ? addr - base : addr;
    for (size_t i = 0; i < e->nsym; i++) {
        const Elf64_Sym *s = &e->sym[i];
        if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_value || s->st_name >= e->strlen_) continue;
        if (v >= s->st_value && v < s->st_value + (s->st_size ? s->st_size : 1)) {
            *off = v - s->st_value;
            return e->str + s->st_name;
        }
    }
    return NULL;
}

/* a recently symbolized call stack (programs launch from few places, often in loops) */
typedef struct frames_memo {
    uint64_t key;
    int n;
    char lines[6][200];
} frames_memo;
static frames_memo memo[64];

/* Other libraries of the API (a face that calls the session through this one: the driver's libcuda.so.1), by
 * their load address: their frames count as this library's. */
static const void *api_libs[4];
static int n_api_libs;

/* Frames in the library holding addr belong to the API. */
void ws_hs_check_api_library(const void *addr)
{
    Dl_info di;
    if (!dladdr(addr, &di)) return;
    ws_hs_lock();
    int known = 0;
    for (int i = 0; i < n_api_libs; i++) known |= api_libs[i] == di.dli_fbase;
    if (!known && n_api_libs < (int)(sizeof api_libs / sizeof api_libs[0])) api_libs[n_api_libs++] = di.dli_fbase;
    ws_hs_unlock();
}

/* Whether a library (by load address) is this one or another of the API. */
static int is_api_lib(const void *fbase, const void *self)
{
    if (fbase == self) return 1;
    for (int i = 0; i < n_api_libs; i++)
        if (api_libs[i] == fbase) return 1;
    return 0;
}

/* Host call stack outside this library: "function+0xOFF in file" per frame, up to main. */
static int host_frames(char (*lines)[200], int n)
{
    void *fr[64];
    int nf = backtrace(fr, 64);
    uint64_t key = 1469598103934665603ull;
    for (int i = 0; i < nf; i++) key = (key ^ (uint64_t)(uintptr_t)fr[i]) * 1099511628211ull;
    frames_memo *mm = &memo[key & 63];
    if (mm->key == key && n <= 6) {
        for (int i = 0; i < mm->n && i < n; i++) memcpy(lines[i], mm->lines[i], 200);
        return mm->n < n ? mm->n : n;
    }
    Dl_info self;
    if (!dladdr((void *)host_frames, &self)) return 0;
    int k = 0, in_self = 0;
    for (int i = 0; i < nf && k < n; i++) {
        Dl_info di;
        if (!dladdr(fr[i], &di) || !di.dli_fname) continue;
        if (is_api_lib(di.dli_fbase, self.dli_fbase)) {
            if (k) break;   /* back in the runtime: a callback; stop */
            in_self = 1;
            continue;
        }
        if (!in_self) continue;   /* below this library: backtrace's own machinery (a sanitizer's interceptor) */
        uintptr_t a = (uintptr_t)fr[i], off = 0;
        const char *name = di.dli_sname;
        if (name && di.dli_saddr) off = a - (uintptr_t)di.dli_saddr;
        else name = elf_symbol(di.dli_fname, (uintptr_t)di.dli_fbase, a, &off);
        const char *file = strrchr(di.dli_fname, '/');
        file = file ? file + 1 : di.dli_fname;
        char dn[160];
        if (name) {
            ws_chk_demangle(name, dn, sizeof dn);
            snprintf(lines[k++], 200, "%s+0x%lx in %s", dn, (unsigned long)off, file);
            if (!strcmp(name, "main")) break;
        } else {
            snprintf(lines[k++], 200, "0x%lx in %s", (unsigned long)(a - (uintptr_t)di.dli_fbase), file);
        }
    }
    if (n <= 6) {
        mm->key = key;
        mm->n = k;
        for (int i = 0; i < k; i++) memcpy(mm->lines[i], lines[i], 200);
    }
    return k;
}

/* The function a call instruction ending just before return address ra calls (through the PLT or the GOT), or
 * NULL. Tail calls inside the runtime leave no frame of the API function itself, so the caller's call site is
 * the reliable place to learn which function the program called. */
static void *call_target(const unsigned char *ra)
{
#if defined(__x86_64__)
    const unsigned char *t = NULL;
    int32_t d;
    if (ra[-5] == 0xe8) {                               /* call rel32 */
        memcpy(&d, ra - 4, 4);
        t = ra + d;
    } else if (ra[-6] == 0xff && ra[-5] == 0x15) {      /* call *disp32(%rip) (-fno-plt) */
        memcpy(&d, ra - 4, 4);
        void *f;
        memcpy(&f, ra + d, sizeof f);
        return f;
    }
    if (!t) return NULL;
    Dl_info di;
    if (!dladdr(t, &di)) return NULL;
    if (di.dli_saddr == t) return (void *)t;           /* a direct call */
    /* a PLT entry: [endbr64] [bnd] jmp *disp32(%rip) */
    if (t[0] == 0xf3 && t[1] == 0x0f && t[2] == 0x1e && t[3] == 0xfa) t += 4;
    if (t[0] == 0xf2) t++;
    if (t[0] == 0xff && t[1] == 0x25) {
        memcpy(&d, t + 2, 4);
        void *f;
        memcpy(&f, t + 6 + d, sizeof f);
        return f;
    }
#else
    (void)ra;
#endif
    return NULL;
}

/* Name of the CUDA function the program called: the call the first frame outside the API's libraries made. */
static void api_name(char *buf, size_t cap)
{
    void *fr[64];
    int nf = backtrace(fr, 64);
    Dl_info self;
    buf[0] = 0;
    if (!dladdr((void *)api_name, &self)) return;
    int in_self = 0;
    for (int i = 0; i < nf; i++) {
        Dl_info di;
        if (!dladdr(fr[i], &di)) continue;
        if (is_api_lib(di.dli_fbase, self.dli_fbase)) { in_self = 1; continue; }
        if (!in_self) continue;   /* backtrace's own machinery (a sanitizer's interceptor) */
        void *f = call_target(fr[i]);
        Dl_info fi;
        if (f && dladdr(f, &fi) && is_api_lib(fi.dli_fbase, self.dli_fbase) && fi.dli_sname && fi.dli_saddr == f) {
            snprintf(buf, cap, "%s", fi.dli_sname + (strncmp(fi.dli_sname, "__cuda", 6) ? 0 : 2));
            char *u = strstr(buf, "_pt");   /* cudaMemcpy_ptds -> cudaMemcpy */
            if (u && (!strcmp(u, "_ptds") || !strcmp(u, "_ptsz"))) *u = 0;
        }
        return;
    }
}

/* ---------- hooks used by the rest of the runtime ---------- */

/* Create the checker on first use when WARPSIM_CHECK asks for one; NULL when checking is off. */
static ws_chk *checker_get(void)
{
    if (check_state) return checker;
    check_state = -1;
    const char *spec = getenv("WARPSIM_CHECK");
    if (!spec || !*spec || !strcmp(spec, "0") || !strcmp(spec, "off")) return NULL;
    unsigned checks = 0;
    char err[256];
    if (ws_chk_parse(spec, &checks, err, sizeof err)) {
        fprintf(stderr, "warpsim: WARPSIM_CHECK: %s; checking everything\n", err);
        checks = WS_CHK_ALL;
    }
    checker = ws_chk_create(checks, stderr);
    if (!checker) return NULL;
    const char *lc = getenv("WARPSIM_LEAK_CHECK");
    ws_chk_set_leak_check(checker, lc && *lc && strcmp(lc, "0") && strcmp(lc, "no"));
    const char *br = getenv("WARPSIM_CHECK_BENIGN_RACES");
    ws_chk_set_benign_races(checker, !(br && (!strcmp(br, "off") || !strcmp(br, "0") || !strcmp(br, "no"))));
    ws_chk_set_host_frames(checker, host_frames);
    check_state = 1;
    checking = 1;
    return checker;
}

/* A new simulated GPU: attach the checker to it (under --check). */
void ws_hs_chk_install(ws_gpu *g)
{
    ws_chk *c = checker_get();
    if (c && g) ws_chk_attach(c, g);
}

/* Whether the checkers run. */
int ws_hs_checking(void)
{
    checker_get();
    return checking;
}

/* An API call is about to return error code: report it with its call site (under --check). */
void ws_hs_check_api_error(int code, const char *name, const char *description)
{
    if (!checking || !checker) return;
    /* a kernel's fault comes back from every later call: report the first call that returned it */
    static int fault_seen;
    if (ws_hs_is_fault(code)) {
        if (fault_seen == code) return;
        fault_seen = code;
    }
    ws_hs_lock();
    char api[128];
    api_name(api, sizeof api);
    ws_chk_api_error(checker, code, name, description, api);
    ws_hs_unlock();
}

/* Program exit: leak check, the ERROR SUMMARY, and the error count for `warpsim run --check-exit-code`. */
void ws_hs_chk_exit(void)
{
    static int done;
    if (!checker_get() || done || !ws_hs_root_process()) return;   /* (also when the program made no CUDA call) */
    done = 1;
    ws_chk_finish(checker);
    const char *st = getenv("WARPSIM_CHECK_STATUS");
    if (st && *st) {
        FILE *f = fopen(st, "w");
        if (f) {
            fprintf(f, "%lu\n", ws_chk_errors(checker));
            fclose(f);
        }
    }
}

/* The checker whose findings the report lists, if checking. */
const ws_chk *ws_hs_chk_report(void)
{
    return checking ? checker : NULL;
}
