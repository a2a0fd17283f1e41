/* SPDX-License-Identifier: MIT */
/* deny_boot_id.so: open(2) of /proc/sys/kernel/random/boot_id fails with
 * EACCES, as it does for an app under Android 8's SELinux policy
 * (docs/PLATFORMS.md, "Android"); every other open is the C library's.
 * Preloaded (LD_PRELOAD) under the trace replay by test-traces: every
 * trace must hold with the boot id unreadable (a process that cannot read
 * it is its own boot: Sources/IdleLock/Platform/BootID.swift). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/types.h>

static const char boot_id[] = "/proc/sys/kernel/random/boot_id";

int open(const char *path, int flags, ...)
{
    static int (*real_open)(const char *, int, ...);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    if (strcmp(path, boot_id) == 0) {
        errno = EACCES;
        return -1;
    }
    if (real_open == NULL)
        *(void **)&real_open = dlsym(RTLD_NEXT, "open");
    return real_open(path, flags, mode);
}
