/* SPDX-License-Identifier: MIT */
/* bionic_shim.c: a stand-in for Android's libc.so on x86-64 Linux, so that
 * the x86_64 Android build of libidlelock.so (mk/android.mk) runs here, on
 * glibc, under the C suites and the traces (make test-android).
 *
 * Built as a library named libc.so (soname libc.so, version LIBC), it
 * defines each function the Android library imports, with bionic's
 * version, and forwards it to glibc's. That is sound for exactly the ABI
 * the two C libraries share on x86-64: the kernel's types and constants
 * (struct stat, dirent, timespec, flags, errno values, system call
 * numbers), and the pthread types the library uses (mutex 40 bytes,
 * condition 48, key and once an int, on both). Where bionic differs, the
 * shim translates: __errno (glibc's __errno_location), __assert2, the
 * sysconf names, __stack_chk_guard (glibc keeps the canary in the thread
 * block; a variable here, which only the library's own frames read).
 *
 * What this shows: the Android build's own code (the Swift core as compiled
 * for Android, its C support files, libsodium for Android) is right, run
 * here. What it cannot show: bionic itself, Android's kernel, SELinux and
 * seccomp (docs/PLATFORMS.md, "Android"). A function the library imports
 * that is missing here fails at load (the glibc loader: undefined symbol),
 * so a new import gets its forwarder here, after checking the two ABIs
 * agree for it. */
#define _GNU_SOURCE
#include <assert.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "bionic_shim.c: the two C libraries' ABIs are compared for x86-64 only"
#endif

/* glibc's definition of NAME (the shim's own, exported as NAME@@LIBC, comes
 * after glibc in the global search order). The shim calls every function it
 * also exports through this: a plain call would bind to its own export. */
static void *glibc(const char *name)
{
    void *f = dlsym(RTLD_DEFAULT, name);
    if (f == NULL)
        abort();
    return f;
}

#define EXPORT(name) __asm__(".symver shim_" #name "," #name "@@LIBC");

/* FWD(ret, name, (params), (args)): shim_name forwards to glibc's name;
 * FWDV the same for a function that returns nothing. */
#define FWD(ret, name, params, args)                      \
    ret shim_##name params;                               \
    ret shim_##name params                                \
    {                                                     \
        static ret(*real) params;                         \
        if (real == NULL)                                 \
            *(void **)&real = glibc(#name);               \
        return real args;                                 \
    }                                                     \
    EXPORT(name)
#define FWDV(name, params, args)                          \
    void shim_##name params;                              \
    void shim_##name params                               \
    {                                                     \
        static void(*real) params;                        \
        if (real == NULL)                                 \
            *(void **)&real = glibc(#name);               \
        real args;                                        \
    }                                                     \
    EXPORT(name)

FWD(void *, calloc, (size_t n, size_t s), (n, s))
FWD(void *, malloc, (size_t s), (s))
FWDV(free, (void *p), (p))
FWD(int, posix_memalign, (void **p, size_t a, size_t s), (p, a, s))
FWDV(abort, (void), ())
FWD(int, raise, (int s), (s))
FWD(int, clock_gettime, (clockid_t c, struct timespec *t), (c, t))
FWD(int, nanosleep, (const struct timespec *a, struct timespec *b), (a, b))
FWD(int, close, (int fd), (fd))
FWD(ssize_t, read, (int fd, void *b, size_t n), (fd, b, n))
FWD(ssize_t, write, (int fd, const void *b, size_t n), (fd, b, n))
FWD(ssize_t, pread, (int fd, void *b, size_t n, off_t o), (fd, b, n, o))
FWD(ssize_t, pwrite, (int fd, const void *b, size_t n, off_t o), (fd, b, n, o))
FWD(int, fsync, (int fd), (fd))
FWD(int, fchmod, (int fd, mode_t m), (fd, m))
FWD(int, fstat, (int fd, struct stat *s), (fd, s))
FWD(int, flock, (int fd, int op), (fd, op))
FWD(int, renameat, (int a, const char *b, int c, const char *d), (a, b, c, d))
FWD(int, unlinkat, (int a, const char *b, int c), (a, b, c))
FWD(DIR *, fdopendir, (int fd), (fd))
FWD(struct dirent *, readdir, (DIR *d), (d))
FWD(int, closedir, (DIR *d), (d))
FWD(int, poll, (struct pollfd *p, nfds_t n, int t), (p, n, t))
FWD(int, eventfd, (unsigned int v, int f), (v, f))
FWD(int, timerfd_create, (int c, int f), (c, f))
FWD(int, timerfd_settime, (int fd, int f, const struct itimerspec *a, struct itimerspec *b), (fd, f, a, b))
FWD(void *, mmap, (void *a, size_t l, int p, int f, int fd, off_t o), (a, l, p, f, fd, o))
FWD(int, munmap, (void *a, size_t l), (a, l))
FWD(int, mprotect, (void *a, size_t l, int p), (a, l, p))
FWD(int, madvise, (void *a, size_t l, int adv), (a, l, adv))
FWD(int, mlock, (const void *a, size_t l), (a, l))
FWD(int, munlock, (const void *a, size_t l), (a, l))
FWD(int, memcmp, (const void *a, const void *b, size_t n), (a, b, n))
FWD(void *, memcpy, (void *a, const void *b, size_t n), (a, b, n))
FWD(void *, memmove, (void *a, const void *b, size_t n), (a, b, n))
FWD(void *, memset, (void *a, int c, size_t n), (a, c, n))
FWD(size_t, strlen, (const char *s), (s))
FWD(size_t, strnlen, (const char *s, size_t n), (s, n))
FWD(char *, strchr, (const char *s, int c), (s, c))
FWD(int, strncmp, (const char *a, const char *b, size_t n), (a, b, n))
FWDV(arc4random_buf, (void *b, size_t n), (b, n))
FWD(int, pthread_create, (pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *p), (t, a, f, p))
FWD(int, pthread_join, (pthread_t t, void **r), (t, r))
FWD(int, pthread_detach, (pthread_t t), (t))
FWD(int, pthread_equal, (pthread_t a, pthread_t b), (a, b))
FWD(pthread_t, pthread_self, (void), ())
FWD(int, pthread_once, (pthread_once_t *o, void (*f)(void)), (o, f))
FWD(int, pthread_key_create, (pthread_key_t *k, void (*d)(void *)), (k, d))
FWD(int, pthread_key_delete, (pthread_key_t k), (k))
FWD(void *, pthread_getspecific, (pthread_key_t k), (k))
FWD(int, pthread_setspecific, (pthread_key_t k, const void *v), (k, v))
FWD(int, pthread_mutex_init, (pthread_mutex_t *m, const pthread_mutexattr_t *a), (m, a))
FWD(int, pthread_mutex_destroy, (pthread_mutex_t *m), (m))
FWD(int, pthread_mutex_lock, (pthread_mutex_t *m), (m))
FWD(int, pthread_mutex_unlock, (pthread_mutex_t *m), (m))
FWD(int, pthread_cond_init, (pthread_cond_t *c, const pthread_condattr_t *a), (c, a))
FWD(int, pthread_cond_destroy, (pthread_cond_t *c), (c))
FWD(int, pthread_cond_wait, (pthread_cond_t *c, pthread_mutex_t *m), (c, m))
FWD(int, pthread_cond_broadcast, (pthread_cond_t *c), (c))
FWDV(__stack_chk_fail, (void), ())

/* The variadic ones: the mode or argument is read as the callee would. */
int shim_open(const char *path, int flags, ...);
int shim_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    unsigned mode = va_arg(ap, unsigned);
    va_end(ap);
    static int (*real)(const char *, int, ...);
    if (real == NULL)
        *(void **)&real = glibc("open");
    return real(path, flags, mode);
}
EXPORT(open)

int shim_openat(int dir, const char *path, int flags, ...);
int shim_openat(int dir, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    unsigned mode = va_arg(ap, unsigned);
    va_end(ap);
    static int (*real)(int, const char *, int, ...);
    if (real == NULL)
        *(void **)&real = glibc("openat");
    return real(dir, path, flags, mode);
}
EXPORT(openat)

int shim_fcntl(int fd, int cmd, ...);
int shim_fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    static int (*real)(int, int, ...);
    if (real == NULL)
        *(void **)&real = glibc("fcntl");
    return real(fd, cmd, arg);
}
EXPORT(fcntl)

long shim_syscall(long n, ...);
long shim_syscall(long n, ...)
{
    va_list ap;
    va_start(ap, n);
    long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
    long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
    va_end(ap);
    static long (*real)(long, ...);
    if (real == NULL)
        *(void **)&real = glibc("syscall");
    return real(n, a, b, c, d, e, f);
}
EXPORT(syscall)

int shim_snprintf(char *buf, size_t size, const char *format, ...);
int shim_snprintf(char *buf, size_t size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(buf, size, format, ap);
    va_end(ap);
    return n;
}
EXPORT(snprintf)

/* Where bionic and glibc differ. */
int *shim___errno(void);
int *shim___errno(void) { return &errno; }
EXPORT(__errno)

void shim___assert2(const char *file, int line, const char *function, const char *message);
void shim___assert2(const char *file, int line, const char *function, const char *message)
{
    fprintf(stderr, "%s:%d: %s: assertion \"%s\" failed\n", file, line, function, message);
    abort();
}
EXPORT(__assert2)

/* bionic's sysconf names (bits/sysconf.h): only the page size is asked. */
#define BIONIC_SC_PAGESIZE 0x0027
#define BIONIC_SC_PAGE_SIZE 0x0028
long shim_sysconf(int name);
long shim_sysconf(int name)
{
    static long (*real)(int);
    if (real == NULL)
        *(void **)&real = glibc("sysconf");
    if (name == BIONIC_SC_PAGESIZE || name == BIONIC_SC_PAGE_SIZE)
        return real(_SC_PAGESIZE);
    errno = EINVAL;
    return -1;
}
EXPORT(sysconf)

uintptr_t shim___stack_chk_guard = 0x5f6d1c3aa7e40000u;
__asm__(".symver shim___stack_chk_guard,__stack_chk_guard@@LIBC");
