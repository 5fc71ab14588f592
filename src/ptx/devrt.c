/* devrt.c - device-runtime (libcudadevrt) function names and the built-ins the core gives them. */
#include <stdio.h>
#include <string.h>
#include "devrt.h"
#include "insn.h"

/* The device runtime's functions warpsim implements, by the PTX names nvcc 12-13 emits. */
static const struct { const char *name; int builtin; } devrt_funcs[] = {
    { "__cudaCDP2GetParameterBufferV2", WS_BI_CDP_PARAM_BUFFER },
    { "__cudaCDP2LaunchDeviceV2", WS_BI_CDP_LAUNCH },
    { "__cudaCDP2GetLastError", WS_BI_CDP_GET_LAST_ERROR },
    { "__cudaCDP2PeekAtLastError", WS_BI_CDP_PEEK_LAST_ERROR },
    { "__cudaCDP2GetDevice", WS_BI_CDP_GET_DEVICE },
    { "__cudaCDP2DeviceGetAttribute", WS_BI_CDP_DEVICE_ATTR },
    { "__cudaCDP2StreamCreateWithFlags", WS_BI_CDP_STREAM_CREATE },
    { "__cudaCDP2StreamDestroy", WS_BI_CDP_STREAM_DESTROY },
};

/* Built-in for a device-runtime function name. */
int ws_devrt_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof devrt_funcs / sizeof devrt_funcs[0]; i++)
        if (!strcmp(name, devrt_funcs[i].name)) return devrt_funcs[i].builtin;
    /* the rest of libcudadevrt: CDP2 names, the CDP1 entry points and device-side synchronisation */
    if (!strncmp(name, "__cudaCDP2", 10) || !strncmp(name, "cudaGetParameterBuffer", 22) ||
        !strncmp(name, "cudaLaunchDevice", 16) || !strcmp(name, "cudaDeviceSynchronize") ||
        !strcmp(name, "__cudaDeviceSynchronizeDeprecationAvoidance") || !strncmp(name, "cudaCGGetIntrinsicHandle", 24))
        return WS_BI_CDP_UNSUPPORTED;
    return WS_BI_NONE;
}

/* The CUDA name of a device-runtime function. */
const char *ws_devrt_api_name(const char *name, char *buf, unsigned cap)
{
    const char *n = !strncmp(name, "__cudaCDP2", 10) ? name + 10 : name;
    if (!strncmp(name, "__cudaDeviceSynchronize", 23)) n = "DeviceSynchronize";
    size_t len = strlen(n);
    if (len > 2 && (!strcmp(n + len - 2, "V2"))) len -= 2;
    snprintf(buf, cap, "%s%.*s", strncmp(n, "cuda", 4) ? "cuda" : "", (int)len, n);
    return buf;
}
