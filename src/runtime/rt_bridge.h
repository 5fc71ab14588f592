/* rt_bridge.h - what libcudart.so.13 offers the driver API face (src/driver, libcuda.so.1) beyond the public CUDA
 * runtime API: modules loaded from memory (PTX text, a fatbin, an ELF image) whose kernels are the runtime's own
 * kernel records, so a CUfunction is a cudaKernel_t that cudaLaunchKernel accepts; device address ranges; and
 * the session's messages and checkers. Exported under the private version node WARPSIM_PRIVATE (libcudart.map). */
#ifndef WS_RT_BRIDGE_H
#define WS_RT_BRIDGE_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

/* The driver's JIT linker output (cuLinkComplete) for several PTX units: a text starting with the line
 * "WS_RTX_LINKED_MAGIC N", then each unit as a line "WS_RTX_LINKED_UNIT LEN" and LEN bytes of PTX and a newline.
 * ws_rtx_module_load device-links the units into one module; ws_rtx_image_ptx gives them back one by one. */
#define WS_RTX_LINKED_MAGIC "// warpsim device-link image: PTX units"
#define WS_RTX_LINKED_UNIT "// warpsim unit, bytes:"

/* Load a module from image (size bytes, 0 when unknown: PTX text is then NUL-terminated); origin names it in
 * messages. *mod receives the handle. On failure a message in msg (also printed unless quiet):
 * cudaErrorInvalidPtx (the PTX did not load), cudaErrorNoKernelImageForDevice (no PTX: SASS only),
 * cudaErrorInvalidKernelImage (not a module), cudaErrorMemoryAllocation. */
cudaError_t ws_rtx_module_load(const void *image, size_t size, const char *origin, void **mod, char *msg,
                               size_t msglen);
/* The PTX units of an image as ws_rtx_module_load reads it, without loading them: *texts and *lens malloc'd
 * (*count entries, each text NUL-terminated; free with ws_rtx_free_texts). Errors as ws_rtx_module_load's. */
cudaError_t ws_rtx_image_ptx(const void *image, size_t size, const char *origin, char ***texts, size_t **lens,
                             int *count, char *msg, size_t msglen);
/* Free what ws_rtx_image_ptx returned. */
void ws_rtx_free_texts(char **texts, size_t *lens, int count);

/* cuTensorMapEncodeTiled's work: check a tiled tensor map and write it into out (128 bytes) in warpsim's layout;
 * cudaErrorInvalidValue / cudaErrorNotSupported with the reason in why (CUtensorMap* enum values as ints). */
cudaError_t ws_rtx_tmap_encode(void *out, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                               const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
                               int interleave, int swizzle, int l2promo, int oobfill, char *why, size_t whylen);

/* Whether mod is a live module handle. */
int ws_rtx_module_valid(const void *mod);
/* Kernel `name` of a module: *func is a kernel handle (cudaKernel_t); cudaErrorInvalidDeviceFunction if absent. */
cudaError_t ws_rtx_module_function(void *mod, const char *name, void **func);
/* Module variable `name`: device address and size; cudaErrorInvalidSymbol if absent. */
cudaError_t ws_rtx_module_global(void *mod, const char *name, unsigned long long *addr, size_t *size);
/* Unload a module: its kernel handles become invalid. */
cudaError_t ws_rtx_module_unload(void *mod);
/* Kernels of a module: how many; *func receives the i-th when i < count. */
int ws_rtx_module_functions(void *mod, int i, void **func);
/* Whether func is a kernel handle of the runtime (registered or loaded). */
int ws_rtx_func_valid(const void *func);
/* A kernel's mangled name (NULL for an invalid handle). */
const char *ws_rtx_func_name(const void *func);
/* A kernel's parameters: count, offsets and sizes (arrays owned by the kernel) and the buffer's total bytes. */
cudaError_t ws_rtx_func_params(const void *func, int *n, const size_t **offset, const size_t **size, size_t *total);
/* The module a kernel handle belongs to (NULL for a kernel registered by the program itself). */
void *ws_rtx_func_module(const void *func);
/* The allocation holding device address p: its base and size; 0 when p is not device memory. */
int ws_rtx_mem_range(unsigned long long p, unsigned long long *base, size_t *size);
/* Whether the simulated GPU exists (the runtime or the driver has used the device). */
int ws_rtx_gpu_exists(void);
/* Whether warpsim's messages are silenced (WARPSIM_QUIET). */
int ws_rtx_quiet(void);
/* Driver function `name` (a string that lives for the whole process) starts: until ws_rtx_driver_return the runtime
 * calls it makes leave the runtime's last error alone, are not reported under --check, and the host timeline
 * records the call under the driver's name instead of theirs. */
void ws_rtx_driver_call(const char *name);
/* The driver function that started last returns. */
void ws_rtx_driver_return(void);
/* A driver call fails with code (its name and description): report it with its call site under --check. */
void ws_rtx_check_api_error(int code, const char *name, const char *description);

#endif
