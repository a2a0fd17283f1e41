/* SPDX-License-Identifier: MIT */
/* Keeps the glibc that the shipped library needs at 2.17 (manylinux2014).
 *
 * The library is built against the build machine's glibc (2.36 on Debian
 * 12), and the linker binds each call to the newest version of its symbol
 * there. Four of the library's calls would then require a glibc far newer
 * than the code needs:
 *
 *   arc4random_buf@GLIBC_2.36  called by the Embedded Swift stdlib (random
 *                              seeds); here it is libsodium's
 *                              randombytes_buf, the library's one source of
 *                              random bytes anyway;
 *   fstat@GLIBC_2.33           glibc 2.33 turned fstat from a header inline
 *                              into a symbol; before, every program called
 *                              __fxstat(_STAT_VER, ...), which glibc still
 *                              exports at its first version; on 32-bit ARM
 *                              also fstat64@GLIBC_2.33 (__fxstat64): the
 *                              Swift code is built with 64-bit file
 *                              offsets there (mk/cross.mk), and calls
 *                              fstat64, while Debian's libsodium.a of the
 *                              self-contained variant calls fstat;
 *   pthread_create, _join, _detach @GLIBC_2.34
 *                              glibc 2.34 moved them from libpthread into
 *                              libc under a new version; the code is the
 *                              same, and the old version stays exported. The
 *                              library lists libpthread.so.0 in NEEDED so
 *                              that a glibc older than 2.34 finds them there.
 *
 * Each function below is a hidden definition of that name: the linker binds
 * the library's own references to it (and, in the self-contained variant,
 * libsodium's), and it calls the same glibc code through an entry point that
 * glibc has had since its first version on the CPU (2.2.5 on x86-64, 2.4 on
 * 32-bit ARM, 2.17 on AArch64). What remains is clock_gettime@GLIBC_2.17
 * (glibc moved it from librt into libc in 2.17): the floor, checked by
 * scripts/check-glibc-floor.sh and explained in docs/PLATFORMS.md.
 * glibc_floor_sodium.c does the same for the static libsodium of the
 * self-contained variant.
 *
 * Only the shipped library's builds define ILK_GLIBC_FLOOR (the Makefile,
 * mk/cross.mk). `swift test` and the sanitized builds link as usual: a
 * definition of pthread_create there would stand between the sanitizers'
 * interceptors and glibc. Other C libraries (Android's bionic) have their
 * own arc4random_buf and need none of this. */
#if defined(ILK_GLIBC_FLOOR) && defined(__linux__)
#if defined(__arm__)
#define _LARGEFILE64_SOURCE 1 /* struct stat64 */
#endif
#include <features.h>
#endif

#if defined(ILK_GLIBC_FLOOR) && defined(__GLIBC__)
#include <pthread.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sodium.h>

#if defined(__x86_64__)
#define ILK_GLIBC_FIRST "GLIBC_2.2.5"
#define ILK_STAT_VER 1 /* _STAT_VER_LINUX, sysdeps/unix/sysv/linux/x86/xstatver.h */
#elif defined(__aarch64__)
#define ILK_GLIBC_FIRST "GLIBC_2.17"
#define ILK_STAT_VER 0 /* _STAT_VER_KERNEL, sysdeps/unix/sysv/linux/generic/xstatver.h */
#elif defined(__arm__)
#define ILK_GLIBC_FIRST "GLIBC_2.4"
#define ILK_STAT_VER 3 /* _STAT_VER_LINUX, sysdeps/unix/sysv/linux/arm/xstatver.h */
#else
#error "glibc_floor.c: add this CPU's first glibc version and _STAT_VER"
#endif

#define ILK_HIDDEN __attribute__((visibility("hidden")))

/* glibc's entry points, declared here: 2.33+ headers no longer declare
 * __fxstat, and the pthread ones are bound to their first version. */
extern int __fxstat(int version, int fd, struct stat *buf);
#if defined(__arm__)
extern int __fxstat64(int version, int fd, struct stat64 *buf);
#endif
extern int ilk_glibc_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
extern int ilk_glibc_pthread_join(pthread_t, void **);
extern int ilk_glibc_pthread_detach(pthread_t);
__asm__(".symver ilk_glibc_pthread_create, pthread_create@" ILK_GLIBC_FIRST);
__asm__(".symver ilk_glibc_pthread_join, pthread_join@" ILK_GLIBC_FIRST);
__asm__(".symver ilk_glibc_pthread_detach, pthread_detach@" ILK_GLIBC_FIRST);

ILK_HIDDEN void arc4random_buf(void *buf, size_t size)
{
    randombytes_buf(buf, size);
}

ILK_HIDDEN int fstat(int fd, struct stat *buf)
{
    return __fxstat(ILK_STAT_VER, fd, buf);
}

#if defined(__arm__)
ILK_HIDDEN int fstat64(int fd, struct stat64 *buf)
{
    return __fxstat64(ILK_STAT_VER, fd, buf);
}
#endif

ILK_HIDDEN int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
    return ilk_glibc_pthread_create(thread, attr, start, arg);
}

ILK_HIDDEN int pthread_join(pthread_t thread, void **result)
{
    return ilk_glibc_pthread_join(thread, result);
}

ILK_HIDDEN int pthread_detach(pthread_t thread)
{
    return ilk_glibc_pthread_detach(thread);
}
#else
/* Not a glibc build of the shipped library: nothing to do (ISO C wants a
 * declaration in every file). */
typedef int ilk_glibc_floor_unused;
#endif
