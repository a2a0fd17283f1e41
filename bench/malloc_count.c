/* SPDX-License-Identifier: MIT */
/*
 * malloc_count.c: a heap-allocation counter linked into the benchmark
 * executable (bench/allocations.c, section 4).
 *
 * The executable defines the glibc allocator entry points itself, so every
 * shared object in the process (libidlelock.so.1 included: its Swift
 * runtime allocates with posix_memalign and frees with free) binds to these
 * through ELF interposition; each one forwards to glibc's own allocator
 * (__libc_malloc and friends, exported by glibc for this purpose) and, while
 * counting is on, adds one to the tally. Counting is switched on by the
 * benchmark only around the call being counted, on one thread; when it is
 * off the cost is one load and a branch.
 *
 * libsodium's sodium_malloc (guarded pages from mmap) is not a heap
 * allocation and is not counted here.
 */
#define _GNU_SOURCE 1
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "malloc_count.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);
extern void __libc_free(void *p);

static volatile int counting;
static uint64_t count_allocs;
static uint64_t count_bytes;
static uint64_t count_frees;

static void note(size_t size)
{
    if (counting) {
        __atomic_fetch_add(&count_allocs, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&count_bytes, (uint64_t)size, __ATOMIC_RELAXED);
    }
}

void *malloc(size_t size)
{
    note(size);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    note(n * size);
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    note(size);
    return __libc_realloc(p, size);
}

void free(void *p)
{
    if (counting && p != NULL) {
        __atomic_fetch_add(&count_frees, 1, __ATOMIC_RELAXED);
    }
    __libc_free(p);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    void *p;
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) {
        return 22; /* EINVAL */
    }
    note(size);
    p = __libc_memalign(alignment, size);
    if (p == NULL) {
        return 12; /* ENOMEM */
    }
    *out = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size)
{
    note(size);
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size)
{
    note(size);
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size)
{
    note(size);
    return __libc_valloc(size);
}

void *pvalloc(size_t size)
{
    note(size);
    return __libc_pvalloc(size);
}

void malloc_count_start(void)
{
    counting = 1;
}

void malloc_count_stop(void)
{
    counting = 0;
}

void malloc_count_read(uint64_t *allocs, uint64_t *bytes, uint64_t *frees)
{
    *allocs = __atomic_load_n(&count_allocs, __ATOMIC_RELAXED);
    *bytes = __atomic_load_n(&count_bytes, __ATOMIC_RELAXED);
    *frees = __atomic_load_n(&count_frees, __ATOMIC_RELAXED);
}
