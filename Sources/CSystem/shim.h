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
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>

/* errno is a macro Swift cannot import. */
static inline int ilk_errno(void) { return errno; }

/* open(2) with a mode: Swift cannot call the variadic open. */
static inline int ilk_open(const char *path, int flags, unsigned int mode) {
    return open(path, flags, (mode_t)mode);
}

/* d_name of a directory entry (a fixed array Swift imports as a tuple). */
static inline const char *ilk_dirent_name(const struct dirent *entry) {
    return entry->d_name;
}
#endif
