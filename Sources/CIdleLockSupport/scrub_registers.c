/* SPDX-License-Identifier: MIT */
/* Zeroes the vector registers after the library has decrypted a secret.
 *
 * libsodium's XChaCha20-Poly1305 and the C library's memcpy run in SSE/AVX
 * (or NEON) registers, and leave pieces of the plaintext there after they
 * return. Registers are not memory, but anything that later saves them
 * spills them to a stack: the dynamic linker resolving a lazily bound
 * symbol (`_dl_runtime_resolve_xsave`), a signal handler, a context
 * switch's save area. Tests/c/test_hygiene.c found a secret's fragments on the
 * host's stack that way, after idlelock_disable. Wiping memory with
 * sodium_memzero cannot reach them; this can. */
#include "idlelock_support.h"

/* Only the registers a called function may change are zeroed: the ones the
 * calling convention leaves to the callee (all of xmm/ymm/zmm on x86-64,
 * xmm0-7/ymm0-7 on 32-bit x86;
 * v0-v7, v16-v31 and the upper halves of v8-v15 on AArch64; d0-d7 and
 * d16-d31 on 32-bit ARM). The others (d8-d15 on both ARMs) every function
 * saves and restores, so when the library returns they hold the host's own
 * values again, and zeroing them would break the host. */

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* 0: SSE only; 1: AVX usable (the CPU has it and the OS saves the ymm
 * state: OSXSAVE, XCR0 bits 1-2); 2: AVX-512 too (XCR0 bits 5-7: the C
 * library's memcpy may use zmm16-31, which vzeroall leaves alone). Asked
 * once (an atomic cache: two threads racing only both ask). */
static int vector_level(void)
{
    static int cached = -1;
    int known = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (known < 0) {
        unsigned a, b, c, d, lo, hi;
        int level = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6) == 6) {
                level = 1;
                if ((lo & 0xe0) == 0xe0 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX512F))
                    level = 2;
            }
        }
        known = level;
        __atomic_store_n(&cached, known, __ATOMIC_RELAXED);
    }
    return known;
}
#elif defined(__arm__) && defined(__ARM_FP)
#include <asm/hwcap.h>
#include <sys/auxv.h>

/* 32-bit ARM with a VFP (hard float, or Android's softfp: the registers
 * and which of them are callee-saved are the same). The library is built
 * for the ARMv7 hard-float baseline
 * (VFPv3-D16, no NEON: Debian armhf, the oldest armeabi-v7a CPUs), but the
 * C library's memcpy picks a NEON or VFP-D32 version where the CPU has one
 * (glibc's ifuncs), so the registers to zero are the CPU's, asked once
 * (HWCAP, an atomic cache as on x86-64): 2: NEON, whose q0-q15 are d0-d31;
 * 1: VFP with 32 d registers, no NEON; 0: VFP with d0-d15. */
static int arm_vector_level(void)
{
    static int cached = -1;
    int known = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (known < 0) {
        unsigned long hwcap = getauxval(AT_HWCAP);
        known = (hwcap & HWCAP_NEON) ? 2 : (hwcap & HWCAP_VFPD32) ? 1 : 0;
        __atomic_store_n(&cached, known, __ATOMIC_RELAXED);
    }
    return known;
}

#if defined(__clang__)
/* clang (Android's builds) takes no target attribute that adds NEON or
 * d16-d31 to a VFPv3-D16 build: the same instructions as below, written as
 * their encodings (A32 or Thumb-2, as the file is compiled). d16-d31 need
 * no clobber there: a VFPv3-D16 build never allocates them. */
#if defined(__thumb__)
#define ILK_ARM_INST(a32, t32) ".inst.w " t32 "\n\t"
#else
#define ILK_ARM_INST(a32, t32) ".inst " a32 "\n\t"
#endif
/* vmov.i8 q<n>, #0: hi "8" for q0-q7, "c" for q8-q15; n twice the number
 * within the eight, in hex. */
#define ILK_VMOV_Q_ZERO(hi, n) ILK_ARM_INST("0xf2" hi "0" n "e50", "0xef" hi "0" n "e50")
/* vmov d<16+n>, r0, r0 (one encoding in both). */
#define ILK_VMOV_D_R0(n) ILK_ARM_INST("0xec400b3" n, "0xec400b3" n)

static void scrub_neon(void)
{
    __asm__ volatile(ILK_VMOV_Q_ZERO("8", "0") ILK_VMOV_Q_ZERO("8", "2") ILK_VMOV_Q_ZERO("8", "4")
                     ILK_VMOV_Q_ZERO("8", "6") ILK_VMOV_Q_ZERO("c", "0") ILK_VMOV_Q_ZERO("c", "2")
                     ILK_VMOV_Q_ZERO("c", "4") ILK_VMOV_Q_ZERO("c", "6") ILK_VMOV_Q_ZERO("c", "8")
                     ILK_VMOV_Q_ZERO("c", "a") ILK_VMOV_Q_ZERO("c", "c") ILK_VMOV_Q_ZERO("c", "e")
                     ::: "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7");
}

static void scrub_vfp_d16_d31(void)
{
    register unsigned zero __asm__("r0") = 0;
    __asm__ volatile(ILK_VMOV_D_R0("0") ILK_VMOV_D_R0("1") ILK_VMOV_D_R0("2") ILK_VMOV_D_R0("3")
                     ILK_VMOV_D_R0("4") ILK_VMOV_D_R0("5") ILK_VMOV_D_R0("6") ILK_VMOV_D_R0("7")
                     ILK_VMOV_D_R0("8") ILK_VMOV_D_R0("9") ILK_VMOV_D_R0("a") ILK_VMOV_D_R0("b")
                     ILK_VMOV_D_R0("c") ILK_VMOV_D_R0("d") ILK_VMOV_D_R0("e") ILK_VMOV_D_R0("f")
                     : : "r"(zero));
}
#else
/* q0-q3 (d0-d7) and q8-q15 (d16-d31); q4-q7 are d8-d15. Built for NEON
 * (the attribute), called only where the CPU has it. */
__attribute__((target("fpu=neon"))) static void scrub_neon(void)
{
    __asm__ volatile("vmov.i8 q0, #0\n\tvmov.i8 q1, #0\n\tvmov.i8 q2, #0\n\tvmov.i8 q3, #0\n\t"
                     "vmov.i8 q8, #0\n\tvmov.i8 q9, #0\n\tvmov.i8 q10, #0\n\tvmov.i8 q11, #0\n\t"
                     "vmov.i8 q12, #0\n\tvmov.i8 q13, #0\n\tvmov.i8 q14, #0\n\tvmov.i8 q15, #0"
                     ::: "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d16", "d17", "d18", "d19",
                     "d20", "d21", "d22", "d23", "d24", "d25", "d26", "d27", "d28", "d29", "d30", "d31");
}

/* d16-d31 of a VFP-D32 unit without NEON. */
__attribute__((target("fpu=vfpv3"))) static void scrub_vfp_d16_d31(void)
{
    __asm__ volatile("vmov d16, %0, %0\n\tvmov d17, %0, %0\n\tvmov d18, %0, %0\n\tvmov d19, %0, %0\n\t"
                     "vmov d20, %0, %0\n\tvmov d21, %0, %0\n\tvmov d22, %0, %0\n\tvmov d23, %0, %0\n\t"
                     "vmov d24, %0, %0\n\tvmov d25, %0, %0\n\tvmov d26, %0, %0\n\tvmov d27, %0, %0\n\t"
                     "vmov d28, %0, %0\n\tvmov d29, %0, %0\n\tvmov d30, %0, %0\n\tvmov d31, %0, %0"
                     : : "r"(0) : "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23", "d24", "d25",
                     "d26", "d27", "d28", "d29", "d30", "d31");
}
#endif
#endif

void ilk_scrub_vector_registers(void)
{
#if defined(__x86_64__)
    int level = vector_level();
    if (level == 2) {
        __asm__ volatile("vpxord %%zmm16, %%zmm16, %%zmm16\n\tvpxord %%zmm17, %%zmm17, %%zmm17\n\t"
                         "vpxord %%zmm18, %%zmm18, %%zmm18\n\tvpxord %%zmm19, %%zmm19, %%zmm19\n\t"
                         "vpxord %%zmm20, %%zmm20, %%zmm20\n\tvpxord %%zmm21, %%zmm21, %%zmm21\n\t"
                         "vpxord %%zmm22, %%zmm22, %%zmm22\n\tvpxord %%zmm23, %%zmm23, %%zmm23\n\t"
                         "vpxord %%zmm24, %%zmm24, %%zmm24\n\tvpxord %%zmm25, %%zmm25, %%zmm25\n\t"
                         "vpxord %%zmm26, %%zmm26, %%zmm26\n\tvpxord %%zmm27, %%zmm27, %%zmm27\n\t"
                         "vpxord %%zmm28, %%zmm28, %%zmm28\n\tvpxord %%zmm29, %%zmm29, %%zmm29\n\t"
                         "vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31" ::: "memory");
    }
    if (level >= 1) {
        /* ymm0-15 and the upper bits of zmm0-15. */
        __asm__ volatile("vzeroall" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                         "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
    } else {
        __asm__ volatile("xorps %%xmm0, %%xmm0\n\txorps %%xmm1, %%xmm1\n\t"
                         "xorps %%xmm2, %%xmm2\n\txorps %%xmm3, %%xmm3\n\t"
                         "xorps %%xmm4, %%xmm4\n\txorps %%xmm5, %%xmm5\n\t"
                         "xorps %%xmm6, %%xmm6\n\txorps %%xmm7, %%xmm7\n\t"
                         "xorps %%xmm8, %%xmm8\n\txorps %%xmm9, %%xmm9\n\t"
                         "xorps %%xmm10, %%xmm10\n\txorps %%xmm11, %%xmm11\n\t"
                         "xorps %%xmm12, %%xmm12\n\txorps %%xmm13, %%xmm13\n\t"
                         "xorps %%xmm14, %%xmm14\n\txorps %%xmm15, %%xmm15"
                         ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                         "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
    }
#elif defined(__i386__)
    /* Android's x86 (SSSE3 at least): eight registers, each the callee's;
     * vzeroall also clears the upper bits of zmm0-7. */
    if (vector_level() >= 1) {
        __asm__ volatile("vzeroall" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7");
    } else {
        __asm__ volatile("xorps %%xmm0, %%xmm0\n\txorps %%xmm1, %%xmm1\n\t"
                         "xorps %%xmm2, %%xmm2\n\txorps %%xmm3, %%xmm3\n\t"
                         "xorps %%xmm4, %%xmm4\n\txorps %%xmm5, %%xmm5\n\t"
                         "xorps %%xmm6, %%xmm6\n\txorps %%xmm7, %%xmm7"
                         ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7");
    }
#elif defined(__aarch64__)
    __asm__ volatile("movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\tmovi v3.16b, #0\n\t"
                     "movi v4.16b, #0\n\tmovi v5.16b, #0\n\tmovi v6.16b, #0\n\tmovi v7.16b, #0\n\t"
                     "movi v16.16b, #0\n\tmovi v17.16b, #0\n\tmovi v18.16b, #0\n\tmovi v19.16b, #0\n\t"
                     "movi v20.16b, #0\n\tmovi v21.16b, #0\n\tmovi v22.16b, #0\n\tmovi v23.16b, #0\n\t"
                     "movi v24.16b, #0\n\tmovi v25.16b, #0\n\tmovi v26.16b, #0\n\tmovi v27.16b, #0\n\t"
                     "movi v28.16b, #0\n\tmovi v29.16b, #0\n\tmovi v30.16b, #0\n\tmovi v31.16b, #0\n\t"
                     /* v8-v15: only the low 64 bits are the caller's. */
                     "mov v8.d[1], xzr\n\tmov v9.d[1], xzr\n\tmov v10.d[1], xzr\n\tmov v11.d[1], xzr\n\t"
                     "mov v12.d[1], xzr\n\tmov v13.d[1], xzr\n\tmov v14.d[1], xzr\n\tmov v15.d[1], xzr"
                     ::: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18", "v19",
                     "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31");
#elif defined(__arm__) && defined(__ARM_FP)
    int level = arm_vector_level();
    if (level == 2) {
        scrub_neon();
    } else {
        __asm__ volatile("vmov d0, %0, %0\n\tvmov d1, %0, %0\n\tvmov d2, %0, %0\n\tvmov d3, %0, %0\n\t"
                         "vmov d4, %0, %0\n\tvmov d5, %0, %0\n\tvmov d6, %0, %0\n\tvmov d7, %0, %0"
                         : : "r"(0) : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7");
        if (level == 1) scrub_vfp_d16_d31();
    }
#elif defined(__arm__)
    /* 32-bit ARM without a VFP (soft float): no vector registers. */
#else
#error "scrub_registers.c: add this CPU's vector registers (or confirm it has none)"
#endif
}
