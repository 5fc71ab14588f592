/* pl_patch.c - NVIDIA's CUDA runtime linked statically into a library (CuPy's wheels do so) talks to the driver
 * through private tables that warpsim does not provide. Such a library keeps its symbol table (.symtab): its
 * cuda* API functions are local symbols there, beside the runtime's own libcudart_static_* ones. For each such
 * function that warpsim's libcudart.so.13 exports under the same name (the same CUDA 13 API and ABI), the first
 * bytes of the static one become an absolute jump to warpsim's, so the library's CUDA calls are served by the
 * simulator like a program's built with nvcc -cudart shared. A function warpsim's runtime lacks says so by name
 * and returns cudaErrorNotSupported. Code pages are written only for the jump, then protected
 * again. */
#include "pl_patch.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WS_PL_JUMP_BYTES 12        /* movabs rax, imm64 (10 bytes); jmp rax (2 bytes) */
#define WS_PL_THUNK_BYTES 22       /* movabs rdi, imm64; movabs rax, imm64; jmp rax */
#define WS_PL_NOT_SUPPORTED 801    /* cudaErrorNotSupported */
#define WS_PL_MAX_MISSING 256      /* missing functions reported by name */
#define WS_PL_MAX_SEEN 8192        /* loaded objects remembered as looked at */

/* The static runtime's marker: the names its private functions carry. */
static const char static_marker[] = "libcudart_static_";

static pthread_mutex_t scan_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t missing_mutex = PTHREAD_MUTEX_INITIALIZER;
static __thread int scanning;      /* the scan's own dlopen of warpsim's runtime comes back here */
static uintptr_t seen[WS_PL_MAX_SEEN];
static int nseen;
static unsigned long long last_adds;
static void *rt_handle;            /* warpsim's libcudart.so.13 */

/* Whether warpsim's messages are silenced (WARPSIM_QUIET). */
static int pl_quiet(void)
{
    const char *q = getenv("WARPSIM_QUIET");
    return q && *q && *q != '0';
}

/* Warpsim's libcudart.so.13, from the folder this library is in (NULL when it cannot be opened). */
static void *pl_runtime(void)
{
    if (rt_handle) return rt_handle;
    Dl_info di;
    if (!dladdr((void *)(uintptr_t)pl_runtime, &di) || !di.dli_fname) return NULL;
    char path[4096];
    const char *slash = strrchr(di.dli_fname, '/');
    int dirlen = slash ? (int)(slash - di.dli_fname) : 1;
    if (snprintf(path, sizeof path, "%.*s/libcudart.so.13", dirlen, slash ? di.dli_fname : ".") >= (int)sizeof path)
        return NULL;
    rt_handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    return rt_handle;
}

static const char *missing_said[WS_PL_MAX_MISSING];
static int nmissing;

/* A CUDA runtime function warpsim's runtime lacks, called in a library's static runtime: says so once by name
 * and returns cudaErrorNotSupported (the static runtime itself would fail for want of NVIDIA's private tables). */
static int pl_missing(const char *name)
{
    pthread_mutex_lock(&missing_mutex);
    int said = 0;
    for (int i = 0; i < nmissing && !said; i++) said = missing_said[i] == name;
    if (!said && nmissing < WS_PL_MAX_MISSING) missing_said[nmissing++] = name;
    pthread_mutex_unlock(&missing_mutex);
    if (!said && !pl_quiet())
        fprintf(stderr, "warpsim: the CUDA runtime function %s is not implemented by warpsim; it returns "
                "cudaErrorNotSupported\n", name);
    return WS_PL_NOT_SUPPORTED;
}

/* Write code of n bytes at code address at (the page(s) writable only meanwhile). 0 on success. */
static int pl_write_code(unsigned char *at, const unsigned char *code, size_t n)
{
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)at & ~(uintptr_t)(pg - 1);
    uintptr_t hi = ((uintptr_t)at + n + (uintptr_t)pg - 1) & ~(uintptr_t)(pg - 1);
    if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return -1;
    memcpy(at, code, n);
    __builtin___clear_cache((char *)at, (char *)at + n);
    return mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC);
}

/* Make the function at code address at jump to target. 0 on success. */
static int pl_write_jump(unsigned char *at, const void *target)
{
    unsigned char jump[WS_PL_JUMP_BYTES] = { 0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0 };
    uint64_t t = (uint64_t)(uintptr_t)target;
    memcpy(jump + 2, &t, sizeof t);
    return pl_write_code(at, jump, sizeof jump);
}

/* the names the thunks of pl_write_missing pass, kept for the process's life (and in a list a global points to,
 * so that LeakSanitizer, which does not read machine code, sees them referenced) */
struct pl_kept { struct pl_kept *next; char name[]; };
static struct pl_kept *pl_kept_names;

/* Make the function at code address at call pl_missing(name) (a copy of name is kept). 0 on success. */
static int pl_write_missing(unsigned char *at, const char *name)
{
    size_t len = strlen(name);
    struct pl_kept *k = malloc(sizeof *k + len + 1);
    if (!k) return -1;
    memcpy(k->name, name, len + 1);
    k->next = pl_kept_names;
    pl_kept_names = k;
    char *keep = k->name;
    unsigned char thunk[WS_PL_THUNK_BYTES] = { 0x48, 0xbf, 0, 0, 0, 0, 0, 0, 0, 0,
                                               0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0 };
    uint64_t a = (uint64_t)(uintptr_t)keep, f = (uint64_t)(uintptr_t)pl_missing;
    memcpy(thunk + 2, &a, sizeof a);
    memcpy(thunk + 12, &f, sizeof f);
    return pl_write_code(at, thunk, sizeof thunk);
}

/* The symbol table and its strings of an ELF image of size bytes, or 0 when it has none. */
static int pl_symtab(const unsigned char *img, size_t size, const Elf64_Sym **syms, size_t *nsyms,
                     const char **strs, size_t *strsize)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (size < sizeof *eh || memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
        (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size - eh->e_shoff)
        return 0;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *st = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset || st->sh_offset > size ||
            st->sh_size > size - st->sh_offset || st->sh_size == 0)
            return 0;
        *syms = (const Elf64_Sym *)(img + sh[i].sh_offset);
        *nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
        *strs = (const char *)img + st->sh_offset;
        *strsize = st->sh_size;
        return 1;
    }
    return 0;
}

/* The name of symbol s when it is a function defined in the object (its name ends inside the string table), else
 * NULL. */
static const char *pl_func_name(const Elf64_Sym *s, const char *strs, size_t strsize)
{
    if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF || s->st_name >= strsize || s->st_value == 0)
        return NULL;
    const char *name = strs + s->st_name;
    return strnlen(name, strsize - s->st_name) == strsize - s->st_name ? NULL : name;
}

/* The object's registration functions (nvcc's __sti____cudaRegisterAll of each unit with device code) ran when it
 * was loaded, into NVIDIA's static runtime; run them again now that its __cudaRegister* calls reach warpsim's
 * runtime (whose unregistration at exit is harmless twice). The number of units. */
static int pl_register_again(const Elf64_Sym *syms, size_t nsyms, const char *strs, size_t strsize, uintptr_t base)
{
    int units = 0;
    for (size_t i = 0; i < nsyms; i++) {
        const Elf64_Sym *s = &syms[i];
        const char *name = pl_func_name(s, strs, strsize);
        if (!name || !strstr(name, "__sti____cudaRegisterAll") || strchr(name, '.')) continue;
        void (*reg)(void) = (void (*)(void))(base + s->st_value);
        reg();
        units++;
    }
    return units;
}

/* Redirect the static CUDA runtime in the object at load bias base, read from file path (if it has one); its
 * device code is registered again when replay is set (its constructors ran already). */
static void pl_patch_object(const char *path, const char *shown, uintptr_t base, int replay)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat sb;
    void *map = MAP_FAILED;
    if (fstat(fd, &sb) == 0 && sb.st_size > 0) map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    size_t size = (size_t)sb.st_size;
    const Elf64_Sym *syms;
    const char *strs;
    size_t nsyms, strsize;
    if (pl_symtab(map, size, &syms, &nsyms, &strs, &strsize) &&
        memmem(strs, strsize, static_marker, sizeof static_marker - 1) && pl_runtime()) {
        int done = 0, lacking = 0;
        for (size_t i = 0; i < nsyms; i++) {
            const Elf64_Sym *s = &syms[i];
            const char *name = pl_func_name(s, strs, strsize);
            if (!name || (strncmp(name, "cuda", 4) != 0 && strncmp(name, "__cuda", 6) != 0)) continue;
            void *target = dlsym(rt_handle, name);
            unsigned char *at = (unsigned char *)(base + s->st_value);
            if (target && s->st_size >= WS_PL_JUMP_BYTES && pl_write_jump(at, target) == 0) done++;
            else if (!target && name[0] == 'c' && s->st_size >= WS_PL_THUNK_BYTES && pl_write_missing(at, name) == 0)
                lacking++;
        }
        if (done && replay) pl_register_again(syms, nsyms, strs, strsize, base);
        static int said;
        if (done && !said && !pl_quiet()) {
            const char *slash = strrchr(shown, '/');
            fprintf(stderr, "warpsim: %s holds NVIDIA's CUDA runtime linked statically: its CUDA calls and its "
                    "device code go to warpsim's libcudart.so.13 (%d functions; %d that warpsim lacks say so when "
                    "called); the same for every such library\n", slash ? slash + 1 : shown, done, lacking);
            said = 1;
        }
    }
    munmap(map, size);
}

/* Whether the object at base was looked at; remembers it when not. */
static int pl_seen(uintptr_t base)
{
    for (int i = 0; i < nseen; i++)
        if (seen[i] == base) return 1;
    if (nseen < WS_PL_MAX_SEEN) seen[nseen++] = base;
    return 0;
}

/* dl_iterate_phdr's callback: one loaded object. */
static int pl_visit(struct dl_phdr_info *info, size_t sz, void *data)
{
    (void)sz;
    (void)data;
    if (pl_seen((uintptr_t)info->dlpi_addr + (uintptr_t)info->dlpi_phdr)) return 0;
    /* the program itself is looked at from the preload's constructor, before its own constructors register its
     * device code (with warpsim's runtime then) */
    int program = !info->dlpi_name || !info->dlpi_name[0];
    const char *path = program ? "/proc/self/exe" : info->dlpi_name;
    if (strstr(path, "linux-vdso") || strstr(path, "ld-linux")) return 0;
    pl_patch_object(path, program ? program_invocation_short_name : path, (uintptr_t)info->dlpi_addr, !program);
    return 0;
}

/* Counts the objects loaded so far (dl_iterate_phdr's adds counter). */
static int pl_adds(struct dl_phdr_info *info, size_t sz, void *data)
{
    if (sz >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof info->dlpi_adds)
        *(unsigned long long *)data = info->dlpi_adds;
    return 1;
}

/* Look at every loaded object not seen before (x86-64 only: the jumps written are x86-64 code). */
void ws_pl_scan(void)
{
#if !defined(__x86_64__)
    return;
#endif
    if (scanning) return;
    scanning = 1;
    pthread_mutex_lock(&scan_mutex);
    unsigned long long adds = 0;
    dl_iterate_phdr(pl_adds, &adds);
    if (adds == 0 || adds != last_adds) {
        last_adds = adds;
        dl_iterate_phdr(pl_visit, NULL);
    }
    pthread_mutex_unlock(&scan_mutex);
    scanning = 0;
}
