/* SPDX-License-Identifier: MIT */
/* System headers for the Swift code (see module.modulemap). Declarations
 * and static inline helpers only: nothing here defines an exported symbol. */
#ifndef IDLELOCK_CSYSTEM_SHIM_H
#define IDLELOCK_CSYSTEM_SHIM_H
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>

/* A thread (Sources/IdleLock/Platform/Threads.swift). pthread_t is an
 * integer on glibc and bionic and a pointer on musl and Darwin, and a
 * start routine's argument is optional in some headers only: the Swift
 * code holds this struct and calls these, the same on every system. */
typedef struct { pthread_t id; } ilk_thread;
static inline ilk_thread ilk_thread_self(void) { ilk_thread t; t.id = pthread_self(); return t; }
static inline int ilk_thread_equal(ilk_thread a, ilk_thread b) { return pthread_equal(a.id, b.id); }
static inline int ilk_thread_create(ilk_thread *t, void *(*start)(void *), void *argument) {
    return pthread_create(&t->id, NULL, start, argument);
}
static inline int ilk_thread_join(ilk_thread t) { return pthread_join(t.id, NULL); }
static inline int ilk_thread_detach(ilk_thread t) { return pthread_detach(t.id); }

/* The platform layer's system calls (Sources/IdleLock/Platform/SystemCalls.swift). */
#if defined(__APPLE__)
#include <mach/mach_time.h>
#include <sys/event.h>
#include <sys/sysctl.h>

/* fcntl(F_FULLFSYNC) (variadic: Swift cannot call fcntl). */
static inline int ilk_full_fsync(int fd) { return fcntl(fd, F_FULLFSYNC); }
#else
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif

/* errno is a macro Swift cannot import. */
static inline int ilk_errno(void) { return errno; }

/* Sets errno: a test build's planned fault fails a call as the system
 * would (Sources/IdleLock/Platform/SystemCallFaults.swift). */
static inline void ilk_set_errno(int value) { errno = value; }

/* open(2) with a mode: Swift cannot call the variadic open. */
static inline int ilk_open(const char *path, int flags, unsigned int mode) {
    return open(path, flags, (mode_t)mode);
}

/* openat(2) with a mode (variadic too). */
static inline int ilk_openat(int dirfd, const char *path, int flags, unsigned int mode) {
    return openat(dirfd, path, flags, (mode_t)mode);
}

/* S_ISREG: whether an fstat result is a regular file (a macro). */
static inline int ilk_is_regular_file(const struct stat *info) {
    return S_ISREG(info->st_mode) ? 1 : 0;
}

/* d_name of a directory entry (a fixed array Swift imports as a tuple;
 * never NULL). */
static inline const char *_Nonnull ilk_dirent_name(const struct dirent *_Nonnull entry) {
    return entry->d_name;
}
#endif
