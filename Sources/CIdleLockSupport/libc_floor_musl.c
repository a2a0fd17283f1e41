/* What musl lacks that the shipped library needs (mk/musl.mk): the
 * Embedded Swift stdlib calls arc4random_buf (random seeds), which glibc
 * has from 2.36 and musl not at all (1.2.x). Here it is libsodium's
 * randombytes_buf, the library's one source of random bytes anyway, as
 * glibc_floor.c provides it for glibc before 2.36. Hidden: the library's
 * own references bind to it, and it is never exported (idlelock.map).
 *
 * Only the musl build defines ILK_MUSL_FLOOR; every other build compiles
 * this file to nothing (bionic and Darwin have their own arc4random_buf). */
#if defined(ILK_MUSL_FLOOR)
#include <stddef.h>
#include <sodium.h>

void arc4random_buf(void *buf, size_t size);

__attribute__((visibility("hidden"))) void arc4random_buf(void *buf, size_t size)
{
    randombytes_buf(buf, size);
}
#else
/* ISO C wants a declaration in every file. */
typedef int ilk_libc_floor_musl_unused;
#endif
