/* fatbin.h - NVIDIA fatbinary reader: finds the PTX that nvcc embeds in a CUDA program.
 *
 * Layout (little endian), as produced by nvcc 12-13:
 *   registration wrapper (__fatBinC_Wrapper_t, section .nvFatBinSegment):
 *     u32 magic 0x466243b1, u32 version (1; 2 = device-linked), ptr data, ptr prelinked fatbins
 *   fatbin header (at data, section .nv_fatbin):
 *     u32 magic 0xBA55ED50, u16 version, u16 header_size, u64 entries_size
 *   entries, back to back, each:
 *     +0x00 u16 kind (1 PTX, 2 ELF/cubin)   +0x02 u16 format version
 *     +0x04 u32 header_size                 +0x08 u64 payload_size (padded to 8)
 *     +0x10 u32 compressed_size (0: stored) +0x14 u32 offset of the ptxas-options descriptor (u32 off, u32 len)
 *     +0x18 u16 minor, +0x1a u16 major (PTX ISA version for PTX entries)
 *     +0x1c u32 arch (e.g. 75, 90)          +0x20 u32 name offset, +0x24 u32 name length
 *     +0x28 u64 flags (0x2000 LZ4, 0x8000 zstd, 0x1 64-bit, 0x10 Linux host)
 *     +0x30 u64 reserved                    +0x38 u64 uncompressed size (header_size >= 0x40)
 *   payload follows the entry header. PTX text is stored with comments stripped and NUL-terminated.
 *   A compressed entry (nvcc --compress-mode=speed: LZ4, default/size/balance: zstd; -Xfatbin -compress-all
 *   compresses ELF entries too) holds compressed_size bytes: one raw LZ4 block, or zstd frames, that expand
 *   to exactly the uncompressed size; payload_size is that padded to 8.
 */
#ifndef WS_FATBIN_H
#define WS_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define WS_FATBIN_WRAPPER_MAGIC 0x466243b1u
#define WS_FATBIN_MAGIC         0xBA55ED50u
#define WS_FATBIN_KIND_PTX      1
#define WS_FATBIN_KIND_ELF      2
#define WS_FATBIN_FLAG_LZ4      0x2000u
#define WS_FATBIN_FLAG_ZSTD     0x8000u

/* One entry of a fatbin (pointers point into the fatbin itself). */
typedef struct ws_fatbin_entry {
    int kind;                   /* WS_FATBIN_KIND_PTX or WS_FATBIN_KIND_ELF (other values kept as is) */
    unsigned arch;              /* SM / compute architecture number, e.g. 75 for sm_75 / compute_75 */
    unsigned major, minor;      /* PTX ISA version for PTX entries */
    uint64_t flags;             /* WS_FATBIN_FLAG_* and others */
    const unsigned char *payload; /* stored bytes (compressed or not) */
    size_t payload_size;        /* bytes available at payload */
    size_t compressed_size;     /* bytes of compressed data, 0 when stored plainly */
    size_t uncompressed_size;   /* size after decompression, 0 when unknown or not compressed */
    const char *name;           /* source object name (not NUL-terminated), or NULL */
    size_t name_len;
} ws_fatbin_entry;

/* Total size of the fatbin at data (header plus entries), or 0 when data does not start with a fatbin header. */
size_t ws_fatbin_size(const void *data, size_t avail);

/* Parse the entries of the fatbin at data (at most avail bytes readable; SIZE_MAX when unknown).
 * Stores up to max entries in out and their total number in *count. 0 on success, -1 with a message. */
int ws_fatbin_parse(const void *data, size_t avail, ws_fatbin_entry *out, int max, int *count,
                    char *err, size_t errlen);

/* Text of one PTX entry, decompressed when needed: malloc'd, NUL-terminated; *len = strlen. NULL on error. */
char *ws_fatbin_entry_text(const ws_fatbin_entry *e, size_t *len, char *err, size_t errlen);

/* Index of the PTX entry to use on a device of compute capability cc (major*10+minor): the highest arch <= cc,
 * else the lowest arch; -1 when there is no PTX entry. */
int ws_fatbin_select_ptx(const ws_fatbin_entry *e, int n, int cc);

/* PTX for compute capability cc from the pointer a program passes to __cudaRegisterFatBinary (the wrapper,
 * or a bare fatbin). On success 0, *ptx malloc'd NUL-terminated, *len its length, *arch the entry's arch. */
int ws_fatbin_ptx_from_wrapper(const void *wrapper, int cc, char **ptx, size_t *len, unsigned *arch,
                               char *err, size_t errlen);

/* PTX for cc of every translation unit behind a registration wrapper: the wrapper's own fatbin and, for a
 * device-linked program (-rdc, wrapper version 2), each per-object fatbin it lists; fatbins without PTX are
 * skipped. Arrays and texts malloc'd (free with ws_fatbin_free_texts and free(*archs)). 0 on success with
 * *count >= 1, -1 with a message (no PTX at all, or a corrupt fatbin). */
int ws_fatbin_ptx_units_from_wrapper(const void *wrapper, int cc, char ***ptx_texts, size_t **lens, unsigned **archs,
                                     int *count, char *err, size_t errlen);

/* Whether a PTX text is libcudadevrt's device code (it defines the CDP2 entry points __cudaCDP2*): the per-object
 * fatbin -lcudadevrt adds to a device-linked program, which ws_fatbin_ptx_units_from_wrapper leaves out (the core
 * implements the device runtime's functions itself). */
int ws_fatbin_ptx_is_devrt(const char *ptx);

/* Whether the fatbin(s) behind a registration wrapper hold SASS (an ELF entry) that a real GPU of compute
 * capability cc could run: same major version, minor not above cc's. */
int ws_fatbin_wrapper_has_sass(const void *wrapper, int cc);

/* All PTX texts of the executable or shared object at elf_path (its .nv_fatbin section), in file order:
 * *ptx_texts and *lens are malloc'd arrays of *count entries, each text malloc'd and NUL-terminated.
 * 0 on success (count may be 0), -1 with a message. Free with ws_fatbin_free_texts. */
int ws_fatbin_ptx_from_file(const char *elf_path, char ***ptx_texts, size_t **lens, int *count,
                            char *err, size_t errlen);

/* The same for an ELF image of size bytes already in memory (messages without a file name). */
int ws_fatbin_ptx_from_image(const void *image, size_t size, char ***ptx_texts, size_t **lens, int *count,
                             char *err, size_t errlen);

/* Free what ws_fatbin_ptx_from_file returned. */
void ws_fatbin_free_texts(char **ptx_texts, size_t *lens, int count);

/* Decode one raw LZ4 block (no frame) of srclen bytes into dst (dstcap bytes) with liblz4. Returns bytes
 * written, or -1 when the block is corrupt or does not fit. */
long ws_fatbin_lz4_decode(const unsigned char *src, size_t srclen, unsigned char *dst, size_t dstcap);

/* The bytes a 64-bit ELF image spans according to its headers (the end of its section or program header table,
 * whichever is last), or 0 when it is no 64-bit ELF. */
size_t ws_fatbin_elf_extent(const void *image);

/* A whole file's bytes (malloc'd, a zero byte after them; *size without it), or NULL with a message in err. */
unsigned char *ws_fatbin_read_file(const char *path, size_t *size, char *err, size_t errlen);

#endif
