/* SPDX-License-Identifier: MIT */
/*
 * test_scrub.c: ilk_scrub_vector_registers (Sources/CIdleLockSupport/
 * scrub_registers.c) on the CPU it runs on.
 *
 * One asm statement fills every vector register with a pattern (no zero
 * byte), calls the scrub, and stores every register right after it
 * returns. Then, register by register:
 *   - each one the calling convention lets a function change is zero: a
 *     fragment of a secret left there would be spilled to a stack by the
 *     next register save;
 *   - each one it must keep holds its pattern: d8-d15 on both ARMs (AAPCS),
 *     the low 64 bits of v8-v15 on AArch64 (their upper halves must be
 *     zero). Zeroing those would corrupt the host's floating-point state.
 *
 * The hygiene test (test_hygiene.c) checks the registers after real calls;
 * under qemu-user on ARM it passes even with a scrub that does nothing,
 * because nothing there happens to leave a secret in a vector register.
 * This test is what proves each branch of the scrub: x86-64 (xmm, ymm or
 * zmm, as the CPU has them), AArch64, and 32-bit ARM with NEON (qemu's
 * default CPU) and with VFPv3-D16 only (qemu-arm -cpu cortex-r5f).
 *
 * The scrub is not exported from the library: the test links the support
 * object itself (mk/cross.mk). Prints one line per check and
 * "N passed, N failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__arm__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include "idlelock_support.h"

#define REGS_MAX (32 * 64)

static uint8_t fill[REGS_MAX], dump[REGS_MAX];
static unsigned passed, failed;

/* What this CPU has, and which bytes of each register the scrub must keep
 * (kept_lo..kept_hi within the register, for registers first_kept..last_kept). */
static const char *what = "";
static int count, bytes, first_kept = -1, last_kept = -1, kept_bytes;
static int level;

#if defined(__x86_64__)
/* One register to or from memory, and all sixteen of a kind. */
#define LOAD1(op, reg, size, base, n) op " " size "*" #n "(" base "), %%" reg #n "\n\t"
#define STORE1(op, reg, size, base, n) op " %%" reg #n ", " size "*" #n "(" base ")\n\t"
#define EACH16(one, op, reg, size, base) \
    one(op, reg, size, base, 0) one(op, reg, size, base, 1) one(op, reg, size, base, 2) \
    one(op, reg, size, base, 3) one(op, reg, size, base, 4) one(op, reg, size, base, 5) \
    one(op, reg, size, base, 6) one(op, reg, size, base, 7) one(op, reg, size, base, 8) \
    one(op, reg, size, base, 9) one(op, reg, size, base, 10) one(op, reg, size, base, 11) \
    one(op, reg, size, base, 12) one(op, reg, size, base, 13) one(op, reg, size, base, 14) \
    one(op, reg, size, base, 15)
/* zmm16-31 are spelled out: the loop macros above take registers 0-15. */
#define LOAD_Z16_31                                                                                         \
    "vmovdqu64 64*16(%%r12), %%zmm16\n\tvmovdqu64 64*17(%%r12), %%zmm17\n\t"                                 \
    "vmovdqu64 64*18(%%r12), %%zmm18\n\tvmovdqu64 64*19(%%r12), %%zmm19\n\t"                                 \
    "vmovdqu64 64*20(%%r12), %%zmm20\n\tvmovdqu64 64*21(%%r12), %%zmm21\n\t"                                 \
    "vmovdqu64 64*22(%%r12), %%zmm22\n\tvmovdqu64 64*23(%%r12), %%zmm23\n\t"                                 \
    "vmovdqu64 64*24(%%r12), %%zmm24\n\tvmovdqu64 64*25(%%r12), %%zmm25\n\t"                                 \
    "vmovdqu64 64*26(%%r12), %%zmm26\n\tvmovdqu64 64*27(%%r12), %%zmm27\n\t"                                 \
    "vmovdqu64 64*28(%%r12), %%zmm28\n\tvmovdqu64 64*29(%%r12), %%zmm29\n\t"                                 \
    "vmovdqu64 64*30(%%r12), %%zmm30\n\tvmovdqu64 64*31(%%r12), %%zmm31\n\t"
#define STORE_Z16_31                                                                                        \
    "vmovdqu64 %%zmm16, 64*16(%%r13)\n\tvmovdqu64 %%zmm17, 64*17(%%r13)\n\t"                                 \
    "vmovdqu64 %%zmm18, 64*18(%%r13)\n\tvmovdqu64 %%zmm19, 64*19(%%r13)\n\t"                                 \
    "vmovdqu64 %%zmm20, 64*20(%%r13)\n\tvmovdqu64 %%zmm21, 64*21(%%r13)\n\t"                                 \
    "vmovdqu64 %%zmm22, 64*22(%%r13)\n\tvmovdqu64 %%zmm23, 64*23(%%r13)\n\t"                                 \
    "vmovdqu64 %%zmm24, 64*24(%%r13)\n\tvmovdqu64 %%zmm25, 64*25(%%r13)\n\t"                                 \
    "vmovdqu64 %%zmm26, 64*26(%%r13)\n\tvmovdqu64 %%zmm27, 64*27(%%r13)\n\t"                                 \
    "vmovdqu64 %%zmm28, 64*28(%%r13)\n\tvmovdqu64 %%zmm29, 64*29(%%r13)\n\t"                                 \
    "vmovdqu64 %%zmm30, 64*30(%%r13)\n\tvmovdqu64 %%zmm31, 64*31(%%r13)\n\t"
/* The call from inside the asm: the buffers' addresses in callee-saved
 * r12/r13, the stack pointer saved in rbx, 128 bytes below it skipped (the
 * red zone of this function) and realigned to 16 for the call. Every
 * register the scrub may change is declared clobbered (zmm16-31 cannot be
 * named without -mavx512f; this file keeps nothing in them). */
#define CALL_SCRUB(loads, stores)                                                                           \
    __asm__ volatile("mov %0, %%r12\n\tmov %1, %%r13\n\tmov %%rsp, %%rbx\n\t"                                \
                     "sub $128, %%rsp\n\tand $-16, %%rsp\n\t" loads                                           \
                     "call ilk_scrub_vector_registers\n\t" stores "mov %%rbx, %%rsp"                          \
                     :                                                                                        \
                     : "r"(fill), "r"(dump)                                                                   \
                     : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",      \
                       "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",          \
                       "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory", "cc")

static void setup(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        level = 2, count = 32, bytes = 64, what = "x86-64, zmm0-31";
    } else if (__builtin_cpu_supports("avx")) {
        level = 1, count = 16, bytes = 32, what = "x86-64, ymm0-15";
    } else {
        level = 0, count = 16, bytes = 16, what = "x86-64, xmm0-15";
    }
}

static void __attribute__((noinline)) probe(void)
{
    if (level == 2) {
        CALL_SCRUB(EACH16(LOAD1, "vmovdqu64", "zmm", "64", "%%r12") LOAD_Z16_31,
                   EACH16(STORE1, "vmovdqu64", "zmm", "64", "%%r13") STORE_Z16_31);
    } else if (level == 1) {
        CALL_SCRUB(EACH16(LOAD1, "vmovdqu", "ymm", "32", "%%r12"), EACH16(STORE1, "vmovdqu", "ymm", "32", "%%r13"));
    } else {
        CALL_SCRUB(EACH16(LOAD1, "movdqu", "xmm", "16", "%%r12"), EACH16(STORE1, "movdqu", "xmm", "16", "%%r13"));
    }
}
#elif defined(__aarch64__)
static void setup(void)
{
    level = 0, count = 32, bytes = 16, what = "AArch64, v0-v31";
    first_kept = 8, last_kept = 15, kept_bytes = 8; /* AAPCS64: d8-d15 */
}

/* The buffers' addresses in callee-saved x19/x20 across the call. */
static void __attribute__((noinline)) probe(void)
{
    __asm__ volatile("mov x19, %0\n\tmov x20, %1\n\t"
                     "ld1 {v0.16b, v1.16b, v2.16b, v3.16b}, [x19], #64\n\t"
                     "ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x19], #64\n\t"
                     "ld1 {v8.16b, v9.16b, v10.16b, v11.16b}, [x19], #64\n\t"
                     "ld1 {v12.16b, v13.16b, v14.16b, v15.16b}, [x19], #64\n\t"
                     "ld1 {v16.16b, v17.16b, v18.16b, v19.16b}, [x19], #64\n\t"
                     "ld1 {v20.16b, v21.16b, v22.16b, v23.16b}, [x19], #64\n\t"
                     "ld1 {v24.16b, v25.16b, v26.16b, v27.16b}, [x19], #64\n\t"
                     "ld1 {v28.16b, v29.16b, v30.16b, v31.16b}, [x19], #64\n\t"
                     "bl ilk_scrub_vector_registers\n\t"
                     "st1 {v0.16b, v1.16b, v2.16b, v3.16b}, [x20], #64\n\t"
                     "st1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x20], #64\n\t"
                     "st1 {v8.16b, v9.16b, v10.16b, v11.16b}, [x20], #64\n\t"
                     "st1 {v12.16b, v13.16b, v14.16b, v15.16b}, [x20], #64\n\t"
                     "st1 {v16.16b, v17.16b, v18.16b, v19.16b}, [x20], #64\n\t"
                     "st1 {v20.16b, v21.16b, v22.16b, v23.16b}, [x20], #64\n\t"
                     "st1 {v24.16b, v25.16b, v26.16b, v27.16b}, [x20], #64\n\t"
                     "st1 {v28.16b, v29.16b, v30.16b, v31.16b}, [x20], #64"
                     :
                     : "r"(fill), "r"(dump)
                     : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
                       "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x30", "v0", "v1", "v2", "v3", "v4", "v5",
                       "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18",
                       "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31",
                       "memory", "cc");
}
#elif defined(__arm__) && defined(__ARM_FP)
static void setup(void)
{
    unsigned long hwcap = getauxval(AT_HWCAP);
    level = (hwcap & HWCAP_VFPD32) != 0;
    count = level ? 32 : 16, bytes = 8;
    what = (hwcap & HWCAP_NEON) ? "32-bit ARM with NEON, d0-d31 (q0-q15)"
           : level              ? "32-bit ARM, VFP with d0-d31, no NEON"
                                : "32-bit ARM, VFPv3-D16 (no NEON), d0-d15";
    first_kept = 8, last_kept = 15, kept_bytes = 8; /* AAPCS: d8-d15 */
}

#define ARM_CLOBBERS "r0", "r1", "r2", "r3", "r4", "r5", "r12", "lr", "memory", "cc", \
    "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"

/* The buffers' addresses in callee-saved r4/r5 across the call. */
static void __attribute__((noinline)) probe_d16(void)
{
    __asm__ volatile("mov r4, %0\n\tmov r5, %1\n\tvldmia r4, {d0-d15}\n\t"
                     "bl ilk_scrub_vector_registers\n\tvstmia r5, {d0-d15}"
                     :
                     : "r"(fill), "r"(dump)
                     : ARM_CLOBBERS);
}

/* d16-d31 exist only on a VFP with 32 registers (every NEON CPU). */
static void __attribute__((noinline, target("fpu=vfpv3"))) probe_d32(void)
{
    __asm__ volatile("mov r4, %0\n\tmov r5, %1\n\tvldmia r4!, {d0-d15}\n\tvldmia r4, {d16-d31}\n\t"
                     "bl ilk_scrub_vector_registers\n\tvstmia r5!, {d0-d15}\n\tvstmia r5, {d16-d31}"
                     :
                     : "r"(fill), "r"(dump)
                     : ARM_CLOBBERS, "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23", "d24", "d25", "d26",
                       "d27", "d28", "d29", "d30", "d31");
}

static void probe(void)
{
    if (level) probe_d32(); else probe_d16();
}
#else
#error "test_scrub.c: add this CPU's vector registers"
#endif

static void check(int ok, const char *fmt, int reg, const char *detail)
{
    if (ok) passed++; else failed++;
    printf("%s ", ok ? "ok  " : "FAIL");
    printf(fmt, reg, detail);
    printf("\n");
}

int main(void)
{
    int r, i;
    setup();
    for (i = 0; i < REGS_MAX; i++) fill[i] = (uint8_t)(i % 251 + 1);
    memset(dump, 0, sizeof dump);
    printf("# %s\n", what);
    probe();
    for (r = 0; r < count; r++) {
        const uint8_t *got = dump + r * bytes, *was = fill + r * bytes;
        int kept = r >= first_kept && r <= last_kept;
        int low = kept ? kept_bytes : 0;
        int zero = 1;
        for (i = low; i < bytes; i++) zero &= got[i] == 0;
        if (kept) {
            check(memcmp(got, was, (size_t)low) == 0, "register %d: the caller's low bytes are kept (%s)", r,
                  "callee-saved");
            if (low < bytes) check(zero, "register %d: %s are zero", r, "the upper bytes");
        } else {
            check(zero, "register %d: %s", r, "zero");
        }
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
