/* SPDX-License-Identifier: MIT */
/* The glibc floor of the self-contained variant (libidlelock.so, libsodium
 * linked in): what glibc_floor.c does for the library's own calls, for the
 * two calls in Debian's libsodium.a that need glibc 2.25. Linked only into
 * that variant (mk/cross.mk); the other builds use the system's
 * libsodium.so, which brings its own glibc.
 *
 *   getrandom@GLIBC_2.25            the getrandom(2) system call, made here
 *                                   through syscall(2). On a kernel older
 *                                   than 3.17 it fails with ENOSYS, and
 *                                   libsodium then reads /dev/urandom, as it
 *                                   does when built without getrandom;
 *   __explicit_bzero_chk@GLIBC_2.25 sodium_memzero's explicit_bzero under
 *                                   _FORTIFY_SOURCE; glibc's own code: the
 *                                   bounds check, memset, and a compiler
 *                                   barrier that keeps the stores;
 *   fcntl@GLIBC_2.28 (32-bit ARM)   glibc 2.28 gave 32-bit CPUs a new fcntl
 *                                   for 64-bit file locks; libsodium only
 *                                   reads and sets FD_CLOEXEC, which the
 *                                   first one does the same. */
#define _DEFAULT_SOURCE /* syscall() */
#if defined(ILK_GLIBC_FLOOR) && defined(__linux__)
#include <features.h>
#endif

#if defined(ILK_GLIBC_FLOOR) && defined(__GLIBC__)
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define ILK_HIDDEN __attribute__((visibility("hidden")))

#if defined(__arm__)
#include <fcntl.h>
#include <stdarg.h>

extern int ilk_glibc_fcntl(int fd, int command, ...);
__asm__(".symver ilk_glibc_fcntl, fcntl@GLIBC_2.4");

/* As glibc's own fcntl: the argument, when there is one, is passed on as
 * a pointer-sized value (an int and a pointer share a register here). */
ILK_HIDDEN int fcntl(int fd, int command, ...)
{
    va_list ap;
    void *argument;
    va_start(ap, command);
    argument = va_arg(ap, void *);
    va_end(ap);
    return ilk_glibc_fcntl(fd, command, argument);
}
#endif

extern void __chk_fail(void) __attribute__((noreturn));
ssize_t getrandom(void *buf, size_t length, unsigned int flags);
void __explicit_bzero_chk(void *dst, size_t length, size_t dst_length);

ILK_HIDDEN ssize_t getrandom(void *buf, size_t length, unsigned int flags)
{
    return (ssize_t)syscall(SYS_getrandom, buf, length, flags);
}

ILK_HIDDEN void __explicit_bzero_chk(void *dst, size_t length, size_t dst_length)
{
    if (dst_length < length) __chk_fail();
    memset(dst, 0, length);
    __asm__ volatile("" : : "r"(dst) : "memory");
}
#else
typedef int ilk_glibc_floor_sodium_unused;
#endif
