/* SPDX-License-Identifier: MIT */
/*
 * test_hygiene.c: no passcode and no secret stays in the process's memory.
 *
 * The test makes unique random markers (32 random bytes, hex-encoded: 64
 * ASCII bytes), uses one as the passcode and one as a secret's value, wipes
 * its own copies, and then reads its whole address space (/proc/self/maps
 * and /proc/self/mem) counting the markers, at these points:
 *
 *   - unlocked, after secret_put: the library keeps only ciphertext, and
 *     set_passcode does not keep the passcode;
 *   - locked;
 *   - after a wrong unlock attempt (the wrong passcode must not linger);
 *   - after a right unlock, secret_get (into a buffer the test wipes) and a
 *     lock (the passcode typed at unlock must not linger);
 *   - after idlelock_disable, and after idlelock_destroy.
 *
 * Every count must be 0. A marker is counted whole (64 bytes) and by its
 * four 16-byte quarters, so any copy of 31 or more consecutive bytes of it
 * is found.
 *
 * The CPU's vector registers are checked at the same points: right after
 * the library call returns, the test stores every vector register
 * (x86-64: xmm0-15, or ymm0-15, or zmm0-31, as the CPU and OS have them;
 * AArch64: v0-v31; 32-bit ARM: d0-d15, and d16-d31 where the VFP has them)
 * and looks there for any 8 consecutive bytes of a marker. A fragment left
 * in a register is a fragment the next register save (a lazy PLT binding,
 * a signal, a context switch) writes to a stack; the library zeroes them
 * (Sources/CIdleLockSupport/scrub_registers.c). This is what proves the
 * scrub on each CPU, also under an emulator, where registers are not
 * memory and the memory scan alone would miss them. The test never holds a marker in plain form except in the one
 * buffer it hands to the library (wiped right after): it keeps each marker
 * bitwise inverted and compares memory against the inversion on the fly.
 *
 * Positive controls: a marker in a live buffer of the test is found (whole
 * and by quarters), a 20-byte piece of one is found by its quarter, and the
 * wiped buffer is no longer found; a marker loaded into a vector register
 * is found in the dump, and no longer once the register is zeroed.
 *
 * Scanned: every mapping except [vvar], [vvar_vclock], [vsyscall] and the
 * scanner's own read buffer; pages that cannot be read (guard pages of
 * sodium_malloc, PROT_NONE reservations that /proc/self/mem still refuses)
 * are skipped. A hit prints the mapping (address range, permissions, path)
 * and the offset: that is a library bug to fix, not a test to weaken.
 *
 * Runs twice: memory only, and with a store file and a device key. Prints
 * one line per check and "N passed, N failed".
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__arm__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include "idlelock.h"

#define MARK_HEX 64
#define MARK_COUNT 4 /* passcode, secret, wrong passcode, control */
#define FRAGS 4
#define FRAG_LEN 16

enum { M_PASS, M_SECRET, M_WRONG, M_CONTROL };
static const char *const mark_names[MARK_COUNT] = {"passcode", "secret", "wrong passcode", "control"};

static unsigned passed, failed;

/* Each marker, bitwise inverted: never the plain bytes. */
static uint8_t inverted[MARK_COUNT][MARK_HEX];

/* first_byte[b]: bit (m * FRAGS + f) set when quarter f of marker m begins
 * with byte b. Holds no marker bytes itself. */
static uint32_t first_byte[256];

/* The scanner's read buffer and the maps text, each its own mapping. */
#define CHUNK (1u << 20)
#define OVERLAP (MARK_HEX - 1)
static uint8_t *scan_buf;
static size_t scan_buf_len;
static char *maps_buf;
static const size_t maps_cap = 1u << 20;

typedef struct hits {
    unsigned long whole[MARK_COUNT];
    unsigned long quarters[MARK_COUNT];
    unsigned long mappings;
    size_t scanned, unreadable;
} hits;

static void wipe(void *p, size_t n)
{
    volatile uint8_t *v = p;
    while (n-- > 0) *v++ = 0;
}

static void check(int ok, const char *fmt, const char *what, const char *detail)
{
    if (ok) {
        passed++;
        printf("ok   ");
    } else {
        failed++;
        printf("FAIL ");
    }
    printf(fmt, what, detail);
    printf("\n");
    fflush(stdout);
}

static void random_bytes(uint8_t *out, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY);
    size_t got = 0;
    if (fd < 0) {
        perror("open /dev/urandom");
        exit(2);
    }
    while (got < n) {
        ssize_t r = read(fd, out + got, n - got);
        if (r <= 0) {
            perror("read /dev/urandom");
            exit(2);
        }
        got += (size_t)r;
    }
    close(fd);
}

/* A new random marker m, kept only inverted. */
static void new_marker(int m)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t raw[MARK_HEX / 2];
    int i, f;
    random_bytes(raw, sizeof raw);
    for (i = 0; i < MARK_HEX / 2; i++) {
        inverted[m][2 * i] = (uint8_t)~(uint8_t)hex[raw[i] >> 4];
        inverted[m][2 * i + 1] = (uint8_t)~(uint8_t)hex[raw[i] & 15];
    }
    wipe(raw, sizeof raw);
    for (f = 0; f < FRAGS; f++) {
        for (i = 0; i < 256; i++) first_byte[i] &= ~(1u << (m * FRAGS + f));
        first_byte[(uint8_t)~inverted[m][f * FRAG_LEN]] |= 1u << (m * FRAGS + f);
    }
}

/* The plain marker, written into `out` (MARK_HEX bytes). */
static void reveal(int m, uint8_t *out)
{
    volatile uint8_t *v = out;
    int i;
    for (i = 0; i < MARK_HEX; i++) v[i] = (uint8_t)~inverted[m][i];
}

/* Does p[0..len) equal ~inverted[m][off..off+len)? */
static int matches(const uint8_t *p, int m, int off, int len)
{
    int i;
    for (i = 0; i < len; i++) {
        uint8_t want = (uint8_t)~inverted[m][off + i];
        if (p[i] != want) return 0;
    }
    return 1;
}

/* ------------------------------------------------------ vector registers */

#define REG_WINDOW 8   /* a fragment this long in a register is a hit */
#define REGS_MAX 2048  /* zmm0-31 */

static uint8_t regs_dump[REGS_MAX];
static size_t regs_len;      /* bytes the last dump filled */
static size_t reg_bytes;     /* the size of one register in the dump */
static const char *regs_name = "";
static int regs_level;       /* which registers this CPU has (see regs_setup) */

#if defined(__x86_64__)
#define X16(op, reg, size) \
    op " %%" reg "0, 0*" size "(%0)\n\t" op " %%" reg "1, 1*" size "(%0)\n\t" \
    op " %%" reg "2, 2*" size "(%0)\n\t" op " %%" reg "3, 3*" size "(%0)\n\t" \
    op " %%" reg "4, 4*" size "(%0)\n\t" op " %%" reg "5, 5*" size "(%0)\n\t" \
    op " %%" reg "6, 6*" size "(%0)\n\t" op " %%" reg "7, 7*" size "(%0)\n\t" \
    op " %%" reg "8, 8*" size "(%0)\n\t" op " %%" reg "9, 9*" size "(%0)\n\t" \
    op " %%" reg "10, 10*" size "(%0)\n\t" op " %%" reg "11, 11*" size "(%0)\n\t" \
    op " %%" reg "12, 12*" size "(%0)\n\t" op " %%" reg "13, 13*" size "(%0)\n\t" \
    op " %%" reg "14, 14*" size "(%0)\n\t" op " %%" reg "15, 15*" size "(%0)\n\t"
#define Z16HI \
    "vmovdqu64 %%zmm16, 16*64(%0)\n\tvmovdqu64 %%zmm17, 17*64(%0)\n\tvmovdqu64 %%zmm18, 18*64(%0)\n\t" \
    "vmovdqu64 %%zmm19, 19*64(%0)\n\tvmovdqu64 %%zmm20, 20*64(%0)\n\tvmovdqu64 %%zmm21, 21*64(%0)\n\t" \
    "vmovdqu64 %%zmm22, 22*64(%0)\n\tvmovdqu64 %%zmm23, 23*64(%0)\n\tvmovdqu64 %%zmm24, 24*64(%0)\n\t" \
    "vmovdqu64 %%zmm25, 25*64(%0)\n\tvmovdqu64 %%zmm26, 26*64(%0)\n\tvmovdqu64 %%zmm27, 27*64(%0)\n\t" \
    "vmovdqu64 %%zmm28, 28*64(%0)\n\tvmovdqu64 %%zmm29, 29*64(%0)\n\tvmovdqu64 %%zmm30, 30*64(%0)\n\t" \
    "vmovdqu64 %%zmm31, 31*64(%0)"

static void regs_setup(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        regs_level = 2, reg_bytes = 64, regs_len = 32 * 64, regs_name = "zmm0-31";
    } else if (__builtin_cpu_supports("avx")) {
        regs_level = 1, reg_bytes = 32, regs_len = 16 * 32, regs_name = "ymm0-15";
    } else {
        regs_level = 0, reg_bytes = 16, regs_len = 16 * 16, regs_name = "xmm0-15";
    }
}

/* Stores the registers into regs_dump; touches no vector register first. */
static void __attribute__((noinline)) dump_registers(void)
{
    if (regs_level == 2) {
        __asm__ volatile(X16("vmovdqu64", "zmm", "64") Z16HI : : "r"(regs_dump) : "memory");
    } else if (regs_level == 1) {
        __asm__ volatile(X16("vmovdqu", "ymm", "32") : : "r"(regs_dump) : "memory");
    } else {
        __asm__ volatile(X16("movdqu", "xmm", "16") : : "r"(regs_dump) : "memory");
    }
}

/* Controls: marker bytes into register 5, and zero it again. */
static void load_register(const uint8_t *from)
{
    __asm__ volatile("movdqu (%0), %%xmm5" : : "r"(from) : "xmm5", "memory");
}

static void zero_register(void)
{
    __asm__ volatile("pxor %%xmm5, %%xmm5" : : : "xmm5");
}
#elif defined(__aarch64__)
static void regs_setup(void)
{
    regs_level = 0, reg_bytes = 16, regs_len = 32 * 16, regs_name = "v0-v31";
}

static void __attribute__((noinline)) dump_registers(void)
{
    uint8_t *p = regs_dump;
    __asm__ volatile("st1 {v0.16b, v1.16b, v2.16b, v3.16b}, [%0], #64\n\t"
                     "st1 {v4.16b, v5.16b, v6.16b, v7.16b}, [%0], #64\n\t"
                     "st1 {v8.16b, v9.16b, v10.16b, v11.16b}, [%0], #64\n\t"
                     "st1 {v12.16b, v13.16b, v14.16b, v15.16b}, [%0], #64\n\t"
                     "st1 {v16.16b, v17.16b, v18.16b, v19.16b}, [%0], #64\n\t"
                     "st1 {v20.16b, v21.16b, v22.16b, v23.16b}, [%0], #64\n\t"
                     "st1 {v24.16b, v25.16b, v26.16b, v27.16b}, [%0], #64\n\t"
                     "st1 {v28.16b, v29.16b, v30.16b, v31.16b}, [%0], #64"
                     : "+r"(p) : : "memory");
}

static void load_register(const uint8_t *from)
{
    __asm__ volatile("ld1 {v5.16b}, [%0]" : : "r"(from) : "v5", "memory");
}

static void zero_register(void)
{
    __asm__ volatile("movi v5.16b, #0" : : : "v5");
}
#elif defined(__arm__) && defined(__ARM_FP)
static void regs_setup(void)
{
    regs_level = (getauxval(AT_HWCAP) & HWCAP_VFPD32) != 0;
    reg_bytes = 8, regs_len = (regs_level ? 32 : 16) * 8, regs_name = regs_level ? "d0-d31" : "d0-d15";
}

/* d16-d31 exist only on a VFP with 32 registers (every NEON CPU). */
static void __attribute__((noinline, target("fpu=vfpv3"))) dump_registers_d16_d31(uint8_t *to)
{
    __asm__ volatile("vstmia %0, {d16-d31}" : : "r"(to) : "memory");
}

static void __attribute__((noinline)) dump_registers(void)
{
    __asm__ volatile("vstmia %0, {d0-d15}" : : "r"(regs_dump) : "memory");
    if (regs_level) dump_registers_d16_d31(regs_dump + 16 * 8);
}

/* d5 and d6 hold 16 bytes, as one q register would. */
static void load_register(const uint8_t *from)
{
    __asm__ volatile("vldmia %0, {d5-d6}" : : "r"(from) : "d5", "d6", "memory");
}

static void zero_register(void)
{
    __asm__ volatile("vmov d5, %0, %0\n\tvmov d6, %0, %0" : : "r"(0) : "d5", "d6");
}
#else
#error "test_hygiene.c: add this CPU's vector registers"
#endif

/* Counts the places in the last dump where REG_WINDOW consecutive bytes of
 * marker m begin; *first_reg gets the register of the first one. */
static unsigned long register_hits(int m, int *first_reg)
{
    unsigned long n = 0;
    size_t i;
    int off;
    *first_reg = -1;
    for (i = 0; i + REG_WINDOW <= regs_len; i++) {
        for (off = 0; off + REG_WINDOW <= MARK_HEX; off++) {
            if (matches(regs_dump + i, m, off, REG_WINDOW)) {
                if (n++ == 0) *first_reg = (int)(i / reg_bytes);
                break;
            }
        }
    }
    return n;
}

/* Counts markers starting in buf[0..len); buf holds `avail` >= len bytes. */
static void scan_block(const uint8_t *buf, size_t len, size_t avail, hits *h, hits *here)
{
    size_t i;
    for (i = 0; i < len; i++) {
        uint32_t bits = first_byte[buf[i]];
        while (bits != 0) {
            int bit = __builtin_ctz(bits);
            int m = bit / FRAGS, f = bit % FRAGS;
            bits &= bits - 1;
            if (i + FRAG_LEN > avail || !matches(buf + i, m, f * FRAG_LEN, FRAG_LEN)) continue;
            h->quarters[m]++;
            here->quarters[m]++;
            if (f == 0 && i + MARK_HEX <= avail && matches(buf + i, m, 0, MARK_HEX)) {
                h->whole[m]++;
                here->whole[m]++;
            }
        }
    }
}

/* Reads [start, end) of /proc/self/mem and scans it; returns the bytes
 * that could not be read. */
static size_t scan_range(int memfd, uintptr_t start, uintptr_t end, hits *h, hits *here)
{
    uintptr_t pos = start;
    size_t skipped = 0;
    long page = sysconf(_SC_PAGESIZE);
    while (pos < end) {
        size_t len = end - pos < CHUNK ? (size_t)(end - pos) : CHUNK;
        size_t want = end - pos < CHUNK + OVERLAP ? (size_t)(end - pos) : CHUNK + OVERLAP;
        ssize_t got = pread(memfd, scan_buf, want, (off_t)pos);
        if (got == (ssize_t)want) {
            scan_block(scan_buf, len, want, h, here);
        } else {
            /* Page by page; unreadable pages are skipped. */
            uintptr_t p;
            for (p = pos; p < pos + len; p += (uintptr_t)page) {
                size_t n = (size_t)page;
                if (pread(memfd, scan_buf, n, (off_t)p) != (ssize_t)n) {
                    skipped += n;
                    continue;
                }
                scan_block(scan_buf, n, n, h, here);
            }
        }
        pos += len;
    }
    wipe(scan_buf, scan_buf_len);
    return skipped;
}

/* Scans the whole address space; prints where each hit was. */
static hits scan_memory(const char *when)
{
    hits h;
    int mapsfd, memfd, m;
    size_t n = 0;
    char *line, *next;
    uintptr_t buf_lo = (uintptr_t)scan_buf, buf_hi = (uintptr_t)scan_buf + scan_buf_len;
    memset(&h, 0, sizeof h);
    mapsfd = open("/proc/self/maps", O_RDONLY);
    memfd = open("/proc/self/mem", O_RDONLY);
    if (mapsfd < 0 || memfd < 0) {
        perror("open /proc/self/maps or mem");
        exit(2);
    }
    for (;;) {
        ssize_t r = read(mapsfd, maps_buf + n, maps_cap - 1 - n);
        if (r <= 0) break;
        n += (size_t)r;
    }
    maps_buf[n] = '\0';
    close(mapsfd);
    for (line = maps_buf; line != NULL && *line != '\0'; line = next) {
        unsigned long lo, hi;
        char perms[8] = "", path[512] = "";
        hits here;
        next = strchr(line, '\n');
        if (next != NULL) *next++ = '\0';
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %511[^\n]", &lo, &hi, perms, path) < 3) continue;
        if (strstr(path, "[vvar") != NULL || strcmp(path, "[vsyscall]") == 0) continue;
        memset(&here, 0, sizeof here);
        h.mappings++;
        /* Everything but the read buffer itself. */
        if (hi <= buf_lo || lo >= buf_hi) {
            h.unreadable += scan_range(memfd, lo, hi, &h, &here);
            h.scanned += hi - lo;
        } else {
            if (lo < buf_lo) h.unreadable += scan_range(memfd, lo, buf_lo, &h, &here);
            if (hi > buf_hi) h.unreadable += scan_range(memfd, buf_hi, hi, &h, &here);
            h.scanned += (hi - lo) - (buf_hi - buf_lo);
        }
        for (m = 0; m < MARK_COUNT; m++) {
            if (here.quarters[m] > 0 && m != M_CONTROL) {
                printf("     %s: %s marker in %lx-%lx %s %s: %lu whole, %lu quarters\n", when, mark_names[m], lo,
                       hi, perms, path[0] ? path : "[anonymous]", here.whole[m], here.quarters[m]);
            }
        }
    }
    close(memfd);
    return h;
}

/* Checks that none of the markers in `mask` is in the vector registers as
 * the last dump_registers() found them (right after the last library call),
 * nor in memory. */
static void expect_clean(const char *when, unsigned mask)
{
    hits h;
    int m;
    for (m = 0; m < MARK_COUNT; m++) {
        char detail[160];
        int reg;
        unsigned long n;
        if (!(mask & (1u << m))) continue;
        n = register_hits(m, &reg);
        snprintf(detail, sizeof detail, "%s marker in the vector registers (%s): %lu fragments%s", mark_names[m],
                 regs_name, n, n ? ", the first in register " : "");
        if (n) snprintf(detail + strlen(detail), sizeof detail - strlen(detail), "%d", reg);
        check(n == 0, "%s: no %s", when, detail);
    }
    wipe(regs_dump, sizeof regs_dump);
    h = scan_memory(when);
    for (m = 0; m < MARK_COUNT; m++) {
        char detail[160];
        if (!(mask & (1u << m))) continue;
        snprintf(detail, sizeof detail, "%s marker: %lu whole, %lu quarters", mark_names[m], h.whole[m],
                 h.quarters[m]);
        check(h.whole[m] == 0 && h.quarters[m] == 0, "%s: no %s", when, detail);
    }
}

static int status_is(int got, int want, const char *what)
{
    if (got != want) {
        printf("FAIL %s returned %s, expected %s (%s)\n", what, idlelock_status_name(got), idlelock_status_name(want),
               idlelock_last_error());
        failed++;
        return 0;
    }
    return 1;
}

/* Hands marker m to the library through a heap buffer wiped right after. */
static int with_marker(int m, idlelock *h, int (*call)(idlelock *, const uint8_t *, size_t))
{
    uint8_t *buf = malloc(MARK_HEX);
    int st;
    if (buf == NULL) exit(2);
    reveal(m, buf);
    st = call(h, buf, MARK_HEX);
    dump_registers();
    wipe(buf, MARK_HEX);
    free(buf);
    return st;
}

static int call_set(idlelock *h, const uint8_t *p, size_t n) { return idlelock_set_passcode(h, (const char *)p, n); }
static int call_unlock(idlelock *h, const uint8_t *p, size_t n) { return idlelock_unlock(h, (const char *)p, n, NULL); }
static int call_put(idlelock *h, const uint8_t *p, size_t n) { return idlelock_secret_put(h, "token", p, n); }

/* Leaves marker m in a dead stack frame, 16 KiB below the caller's (deeper
 * than the scanner's own frames reach). */
static void __attribute__((noinline)) leave_on_stack(int m)
{
    volatile uint8_t deep[16384];
    int i;
    for (i = 0; i < MARK_HEX; i++) deep[i] = (uint8_t)~inverted[m][i];
    deep[sizeof deep - 1] = 0;
}

static void __attribute__((noinline)) clear_stack(void)
{
    volatile uint8_t deep[16384];
    size_t i;
    for (i = 0; i < sizeof deep; i++) deep[i] = 0;
}

/* A marker in a vector register is found in the dump; zeroed, it is not. */
static void register_controls(uint8_t *buf)
{
    char detail[160];
    int reg;
    unsigned long n;
    reveal(M_CONTROL, buf);
    load_register(buf + 24);
    wipe(buf, MARK_HEX);
    dump_registers();
    n = register_hits(M_CONTROL, &reg);
    snprintf(detail, sizeof detail, "%lu fragments, the first in register %d of %s", n, reg, regs_name);
    check(n >= 1 && reg == 5, "%s: a marker in a vector register is found (%s)", "control",
          detail);
    zero_register();
    dump_registers();
    n = register_hits(M_CONTROL, &reg);
    snprintf(detail, sizeof detail, "%lu fragments", n);
    check(n == 0, "%s: a zeroed register holds no marker (%s)", "control", detail);
    wipe(regs_dump, sizeof regs_dump);
}

static void controls(void)
{
    uint8_t *live = malloc(MARK_HEX), *piece = malloc(MARK_HEX);
    hits h;
    char detail[200];
    if (live == NULL || piece == NULL) exit(2);
    new_marker(M_CONTROL);
    reveal(M_CONTROL, live);
    h = scan_memory("control");
    snprintf(detail, sizeof detail, "%lu mappings, %zu KiB, %zu KiB unreadable", h.mappings, h.scanned / 1024,
             h.unreadable / 1024);
    check(h.whole[M_CONTROL] >= 1 && h.quarters[M_CONTROL] >= FRAGS, "%s: a marker in a live heap buffer is found "
          "whole and by its four quarters (scanned %s)", "control", detail);
    wipe(live, MARK_HEX);
    leave_on_stack(M_CONTROL);
    h = scan_memory("control");
    check(h.whole[M_CONTROL] >= 1, "%s: %s", "control", "a marker left in a dead stack frame is found");
    clear_stack();
    /* 20 bytes from the middle: only quarter 1 (bytes 16..31) lies inside. */
    reveal(M_CONTROL, piece);
    memmove(piece, piece + 14, 20);
    wipe(piece + 20, MARK_HEX - 20);
    h = scan_memory("control");
    check(h.whole[M_CONTROL] == 0 && h.quarters[M_CONTROL] == 1, "%s: %s", "control",
          "a 20-byte piece of a marker is found by its quarter, not whole");
    wipe(piece, MARK_HEX);
    h = scan_memory("control");
    check(h.whole[M_CONTROL] == 0 && h.quarters[M_CONTROL] == 0, "%s: %s", "control",
          "a wiped marker is no longer found");
    register_controls(live);
    free(live);
    free(piece);
}

static const uint8_t device_key[IDLELOCK_DEVICE_KEY_BYTES] = {
    7, 1, 4, 9, 22, 3, 8, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 2, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

static void session(const char *label, const char *store_path)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    uint8_t *got;
    size_t len = MARK_HEX;
    char when[96];
    int m, st;

    printf("# %s\n", label);
    for (m = 0; m < M_CONTROL; m++) new_marker(m);
    idlelock_config_init(&cfg, sizeof cfg);
    cfg.idle_after_ms = 600000;
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    if (store_path != NULL) {
        cfg.store_path = store_path;
        cfg.device_key = device_key;
        cfg.device_key_len = sizeof device_key;
    }
    if (!status_is(idlelock_create(&cfg, &h), IDLELOCK_OK, "create")) return;
    if (!status_is(with_marker(M_PASS, h, call_set), IDLELOCK_OK, "set_passcode")) return;
    if (!status_is(with_marker(M_SECRET, h, call_put), IDLELOCK_OK, "secret_put")) return;

    snprintf(when, sizeof when, "%s, unlocked after set_passcode and secret_put", label);
    expect_clean(when, 1u << M_PASS | 1u << M_SECRET);

    st = idlelock_lock(h, NULL);
    dump_registers();
    status_is(st, IDLELOCK_OK, "lock");
    snprintf(when, sizeof when, "%s, locked", label);
    expect_clean(when, 1u << M_PASS | 1u << M_SECRET);

    status_is(with_marker(M_WRONG, h, call_unlock), IDLELOCK_ERR_INVALID_PASSCODE, "unlock (wrong)");
    snprintf(when, sizeof when, "%s, after a wrong unlock", label);
    expect_clean(when, 1u << M_PASS | 1u << M_SECRET | 1u << M_WRONG);

    status_is(with_marker(M_PASS, h, call_unlock), IDLELOCK_OK, "unlock");
    got = malloc(MARK_HEX);
    if (got == NULL) exit(2);
    st = idlelock_secret_get(h, "token", got, &len);
    dump_registers();
    status_is(st, IDLELOCK_OK, "secret_get");
    check(len == MARK_HEX && matches(got, M_SECRET, 0, MARK_HEX), "%s: %s", label, "secret_get returns the secret");
    wipe(got, MARK_HEX);
    free(got);
    snprintf(when, sizeof when, "%s, unlocked after secret_get (buffer wiped)", label);
    expect_clean(when, 1u << M_PASS | 1u << M_SECRET | 1u << M_WRONG);
    st = idlelock_lock(h, NULL);
    dump_registers();
    status_is(st, IDLELOCK_OK, "lock");
    snprintf(when, sizeof when, "%s, after a right unlock and a lock", label);
    expect_clean(when, 1u << M_PASS | 1u << M_SECRET | 1u << M_WRONG);

    st = idlelock_disable(h);
    dump_registers();
    status_is(st, IDLELOCK_OK, "disable");
    snprintf(when, sizeof when, "%s, after disable", label);
    expect_clean(when, 1u << M_PASS | 1u << M_SECRET | 1u << M_WRONG);

    idlelock_destroy(h);
    dump_registers();
    snprintf(when, sizeof when, "%s, after destroy", label);
    expect_clean(when, 1u << M_PASS | 1u << M_SECRET | 1u << M_WRONG);
}

int main(void)
{
    char dir[] = "/tmp/idlelock-hygiene-XXXXXX";
    char store[128], lockp[160];

    scan_buf_len = CHUNK + OVERLAP;
    scan_buf = mmap(NULL, scan_buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    maps_buf = mmap(NULL, maps_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (scan_buf == MAP_FAILED || maps_buf == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    regs_setup();
    controls();
    session("memory only", NULL);
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(store, sizeof store, "%s/store", dir);
    session("store with a device key", store);
    unlink(store);
    snprintf(lockp, sizeof lockp, "%s.lock", store);
    unlink(lockp);
    rmdir(dir);

    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
