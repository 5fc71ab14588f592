/* rt_nvtx.c - NVTX for the host timeline. NVTX 3 is header-only: the program's first NVTX call loads the library
 * named by NVTX_INJECTION64_PATH (`warpsim run` names this libcudart.so.13) and calls its InitializeInjectionNvtx2
 * with a function that hands out NVTX's tables of function pointers; the tool fills the slots it implements and the
 * rest stay no-ops. When the timeline is off, the initialization declines and every NVTX call stays a no-op in the
 * program. Implemented: ranges (push/pop and start/end, ASCII, wide and attribute forms, in the default domain and
 * in created domains), marks, registered strings, thread names and CUDA stream names. */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wchar.h>

#include "rt_internal.h"

/* UTF-8 of a wide string in buf (truncated to cap). */
static const char *utf8(const wchar_t *w, char *buf, size_t cap)
{
    size_t o = 0;
    for (; w && *w && o + 5 < cap; w++) {
        uint32_t c = (uint32_t)*w;
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
        if (c < 0x80) buf[o++] = (char)c;
        else if (c < 0x800) {
            buf[o++] = (char)(0xC0 | c >> 6);
            buf[o++] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            buf[o++] = (char)(0xE0 | c >> 12);
            buf[o++] = (char)(0x80 | (c >> 6 & 0x3F));
            buf[o++] = (char)(0x80 | (c & 0x3F));
        } else {
            buf[o++] = (char)(0xF0 | c >> 18);
            buf[o++] = (char)(0x80 | (c >> 12 & 0x3F));
            buf[o++] = (char)(0x80 | (c >> 6 & 0x3F));
            buf[o++] = (char)(0x80 | (c & 0x3F));
        }
    }
    buf[o] = 0;
    return buf;
}

/* The message of an event-attributes structure (buf holds a converted wide message). */
static const char *attr_message(const nvtxEventAttributes_t *a, char *buf, size_t cap)
{
    if (!a || a->size < offsetof(nvtxEventAttributes_t, message) + sizeof a->message) return "";
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: return a->message.ascii ? a->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE: return utf8(a->message.unicode, buf, cap);
    case NVTX_MESSAGE_TYPE_REGISTERED: return a->message.registered ? (const char *)a->message.registered : "";
    default: return "";
    }
}

/* A domain handle is the domain's interned name (NULL: the default domain). */
static const char *domain_name(nvtxDomainHandle_t d) { return (const char *)d; }

/* nvtxMarkA. */
static void NVTX_API mark_a(const char *message) { ws_hs_tl_nvtx_mark(NULL, message); }

/* nvtxMarkW. */
static void NVTX_API mark_w(const wchar_t *message)
{
    char buf[1024];
    ws_hs_tl_nvtx_mark(NULL, utf8(message, buf, sizeof buf));
}

/* nvtxMarkEx. */
static void NVTX_API mark_ex(const nvtxEventAttributes_t *a)
{
    char buf[1024];
    ws_hs_tl_nvtx_mark(NULL, attr_message(a, buf, sizeof buf));
}

/* nvtxRangeStartA. */
static nvtxRangeId_t NVTX_API start_a(const char *message) { return ws_hs_tl_nvtx_start(NULL, message); }

/* nvtxRangeStartW. */
static nvtxRangeId_t NVTX_API start_w(const wchar_t *message)
{
    char buf[1024];
    return ws_hs_tl_nvtx_start(NULL, utf8(message, buf, sizeof buf));
}

/* nvtxRangeStartEx. */
static nvtxRangeId_t NVTX_API start_ex(const nvtxEventAttributes_t *a)
{
    char buf[1024];
    return ws_hs_tl_nvtx_start(NULL, attr_message(a, buf, sizeof buf));
}

/* nvtxRangeEnd. */
static void NVTX_API range_end(nvtxRangeId_t id) { ws_hs_tl_nvtx_end(id); }

/* nvtxRangePushA. */
static int NVTX_API push_a(const char *message) { return ws_hs_tl_nvtx_push(NULL, message); }

/* nvtxRangePushW. */
static int NVTX_API push_w(const wchar_t *message)
{
    char buf[1024];
    return ws_hs_tl_nvtx_push(NULL, utf8(message, buf, sizeof buf));
}

/* nvtxRangePushEx. */
static int NVTX_API push_ex(const nvtxEventAttributes_t *a)
{
    char buf[1024];
    return ws_hs_tl_nvtx_push(NULL, attr_message(a, buf, sizeof buf));
}

/* nvtxRangePop. */
static int NVTX_API pop(void) { return ws_hs_tl_nvtx_pop(NULL); }

/* nvtxNameOsThreadA: names the calling thread when it is the one named. */
static void NVTX_API name_thread_a(uint32_t tid, const char *name)
{
    if (tid == (uint32_t)syscall(SYS_gettid)) ws_hs_tl_thread_name(name);
}

/* nvtxNameOsThreadW. */
static void NVTX_API name_thread_w(uint32_t tid, const wchar_t *name)
{
    char buf[1024];
    name_thread_a(tid, utf8(name, buf, sizeof buf));
}

/* nvtxDomainCreateA: the handle is the interned name. */
static nvtxDomainHandle_t NVTX_API domain_create_a(const char *name)
{
    return (nvtxDomainHandle_t)(uintptr_t)ws_hs_tl_intern(name ? name : "");
}

/* nvtxDomainCreateW. */
static nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t *name)
{
    char buf[1024];
    return domain_create_a(utf8(name, buf, sizeof buf));
}

/* nvtxDomainDestroy: names live as long as the process. */
static void NVTX_API domain_destroy(nvtxDomainHandle_t d) { (void)d; }

/* nvtxDomainRegisterStringA: the handle is the interned string. */
static nvtxStringHandle_t NVTX_API register_string_a(nvtxDomainHandle_t d, const char *s)
{
    (void)d;
    return (nvtxStringHandle_t)(uintptr_t)ws_hs_tl_intern(s ? s : "");
}

/* nvtxDomainRegisterStringW. */
static nvtxStringHandle_t NVTX_API register_string_w(nvtxDomainHandle_t d, const wchar_t *s)
{
    char buf[1024];
    return register_string_a(d, utf8(s, buf, sizeof buf));
}

/* nvtxDomainMarkEx. */
static void NVTX_API domain_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    char buf[1024];
    ws_hs_tl_nvtx_mark(domain_name(d), attr_message(a, buf, sizeof buf));
}

/* nvtxDomainRangeStartEx. */
static nvtxRangeId_t NVTX_API domain_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    char buf[1024];
    return ws_hs_tl_nvtx_start(domain_name(d), attr_message(a, buf, sizeof buf));
}

/* nvtxDomainRangeEnd. */
static void NVTX_API domain_end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    (void)d;
    ws_hs_tl_nvtx_end(id);
}

/* nvtxDomainRangePushEx. */
static int NVTX_API domain_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    char buf[1024];
    return ws_hs_tl_nvtx_push(domain_name(d), attr_message(a, buf, sizeof buf));
}

/* nvtxDomainRangePop. */
static int NVTX_API domain_pop(nvtxDomainHandle_t d) { return ws_hs_tl_nvtx_pop(domain_name(d)); }

/* nvtxNameCudaStreamA: the stream's name on the timeline. */
static void NVTX_API name_stream_a(nvtx_cudaStream_t stream, const char *name)
{
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    if (ws_rt_stream_get((cudaStream_t)stream, &s) == cudaSuccess) ws_hs_tl_stream_name(ws_rt_stream_id(s), name);
    ws_rt_unlock();
}

/* nvtxNameCudaStreamW. */
static void NVTX_API name_stream_w(nvtx_cudaStream_t stream, const wchar_t *name)
{
    char buf[1024];
    name_stream_a(stream, utf8(name, buf, sizeof buf));
}

/* One implemented slot of a module's table. */
typedef struct slot {
    unsigned id;
    NvtxFunctionPointer fn;
} slot;

/* Fill the slots of NVTX module `module` that warpsim implements; 0 when the module's table is unavailable. */
static int fill(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module, const slot *slots, size_t n)
{
    NvtxFunctionTable table = NULL;
    unsigned size = 0;
    if (!cb->GetModuleFunctionTable(module, &table, &size) || !table) return 0;
    for (size_t i = 0; i < n; i++)
        if (slots[i].id < size && table[slots[i].id]) *table[slots[i].id] = slots[i].fn;
    return 1;
}

#define FN(f) ((NvtxFunctionPointer)(f))

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable);
/* The NVTX handshake: take the program's NVTX calls when the host timeline records (1), else decline (0). */
WS_RT_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable)
{
    if (!getExportTable || !ws_hs_tl_on()) return 0;
    const NvtxExportTableCallbacks *cb = getExportTable(NVTX_ETID_CALLBACKS);
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable) return 0;
    static const slot core[] = {
        { NVTX_CBID_CORE_MarkEx, FN(mark_ex) }, { NVTX_CBID_CORE_MarkA, FN(mark_a) },
        { NVTX_CBID_CORE_MarkW, FN(mark_w) }, { NVTX_CBID_CORE_RangeStartEx, FN(start_ex) },
        { NVTX_CBID_CORE_RangeStartA, FN(start_a) }, { NVTX_CBID_CORE_RangeStartW, FN(start_w) },
        { NVTX_CBID_CORE_RangeEnd, FN(range_end) }, { NVTX_CBID_CORE_RangePushEx, FN(push_ex) },
        { NVTX_CBID_CORE_RangePushA, FN(push_a) }, { NVTX_CBID_CORE_RangePushW, FN(push_w) },
        { NVTX_CBID_CORE_RangePop, FN(pop) }, { NVTX_CBID_CORE_NameOsThreadA, FN(name_thread_a) },
        { NVTX_CBID_CORE_NameOsThreadW, FN(name_thread_w) },
    };
    static const slot core2[] = {
        { NVTX_CBID_CORE2_DomainMarkEx, FN(domain_mark_ex) },
        { NVTX_CBID_CORE2_DomainRangeStartEx, FN(domain_start_ex) },
        { NVTX_CBID_CORE2_DomainRangeEnd, FN(domain_end) },
        { NVTX_CBID_CORE2_DomainRangePushEx, FN(domain_push_ex) },
        { NVTX_CBID_CORE2_DomainRangePop, FN(domain_pop) },
        { NVTX_CBID_CORE2_DomainRegisterStringA, FN(register_string_a) },
        { NVTX_CBID_CORE2_DomainRegisterStringW, FN(register_string_w) },
        { NVTX_CBID_CORE2_DomainCreateA, FN(domain_create_a) },
        { NVTX_CBID_CORE2_DomainCreateW, FN(domain_create_w) },
        { NVTX_CBID_CORE2_DomainDestroy, FN(domain_destroy) },
    };
    static const slot cudart[] = {
        { NVTX_CBID_CUDART_NameCudaStreamA, FN(name_stream_a) },
        { NVTX_CBID_CUDART_NameCudaStreamW, FN(name_stream_w) },
    };
    if (!fill(cb, NVTX_CB_MODULE_CORE, core, sizeof core / sizeof *core)) return 0;
    fill(cb, NVTX_CB_MODULE_CORE2, core2, sizeof core2 / sizeof *core2);
    fill(cb, NVTX_CB_MODULE_CUDART, cudart, sizeof cudart / sizeof *cudart);
    const NvtxExportTableVersionInfo *vi = getExportTable(NVTX_ETID_VERSIONINFO);
    if (vi && vi->struct_size >= sizeof *vi && vi->SetInjectionNvtxVersion) vi->SetInjectionNvtxVersion(NVTX_VERSION);
    return 1;
}
