/* devrt.h - the device runtime (libcudadevrt) functions PTX may call, by name: the CDP2 entry points nvcc's
 * device-side <<<>>> and cudaGetLastError & co. lower to (CUDA 12+), which the core implements as built-ins. */
#ifndef WS_DEVRT_H
#define WS_DEVRT_H

/* WS_BI_CDP_* for a device-runtime function's PTX name, WS_BI_CDP_UNSUPPORTED for another one of libcudadevrt's
 * (a load error names it), WS_BI_NONE for any other name. */
int ws_devrt_builtin(const char *name);
/* The CUDA API name behind a device-runtime PTX name ("__cudaCDP2LaunchDeviceV2" -> "cudaLaunchDevice"). */
const char *ws_devrt_api_name(const char *name, char *buf, unsigned cap);

#endif
