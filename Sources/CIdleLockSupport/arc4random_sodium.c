/* SPDX-License-Identifier: MIT */
/* arc4random_buf from libsodium, for the builds whose C library has none or
 * must not be the source: the Embedded Swift stdlib calls arc4random_buf
 * (random seeds), and every random byte of the library comes from
 * libsodium's randombytes_buf.
 *
 *   musl (mk/musl.mk)    musl 1.2 has no arc4random_buf at all
 *   Android (mk/android.mk) bionic has one; the library's own references
 *                        bind to this hidden definition instead
 *   Darwin (mk/apple.mk) libSystem has one; the library's own references
 *                        bind to this definition instead, which the join
 *                        into one object makes local (no clash with
 *                        libSystem's, which the app keeps using)
 *
 * glibc builds get the same from glibc_floor.c (glibc before 2.36 has
 * none). Hidden: never exported (idlelock.map, the Apple join's export
 * list). Only those builds define ILK_ARC4RANDOM_SODIUM; every other build
 * (SwiftPM's, the glibc ones) compiles this file to nothing. */
#if defined(ILK_ARC4RANDOM_SODIUM)
#include <stddef.h>
#include <sodium.h>

void arc4random_buf(void *buf, size_t size);

__attribute__((visibility("hidden"))) void arc4random_buf(void *buf, size_t size)
{
    randombytes_buf(buf, size);
}
#else
/* ISO C wants a declaration in every file. */
typedef int ilk_arc4random_sodium_unused;
#endif
