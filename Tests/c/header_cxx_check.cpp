// SPDX-License-Identifier: MIT
/*
 * header_cxx_check.cpp: proves include/idlelock.h is clean C++.
 *
 * Only compiled, never run or linked:
 *   g++ -std=c++11 -Wall -Wextra -pedantic -Werror -Iinclude \
 *       -c Tests/c/header_cxx_check.cpp -o build/header_cxx_check.o
 * It includes the header, mirrors a listener and a clock with C++
 * linkage-compatible signatures, and takes the address of a few functions
 * to check their declared types.
 */
#include "idlelock.h"

namespace {

int64_t fixed_clock(void *ctx)
{
    return *static_cast<const int64_t *>(ctx);
}

void listener(void *, const idlelock_snapshot *) {}

}  // namespace

int header_cxx_check(void);

int header_cxx_check(void)
{
    int (*create)(const idlelock_config *, idlelock **) = &idlelock_create;
    int (*unlock)(idlelock *, const char *, size_t, idlelock_snapshot *) = &idlelock_unlock;
    void (*destroy)(idlelock *) = &idlelock_destroy;
    idlelock_config cfg = idlelock_config();
    idlelock *lock = nullptr;
    int64_t now = 0;
    uint64_t token = 0;
    if (idlelock_config_init(&cfg, sizeof cfg) != IDLELOCK_OK)
        return 1;
    cfg.idle_after_ms = 60000;
    cfg.clock = fixed_clock;
    cfg.clock_ctx = &now;
    if (create(&cfg, &lock) != IDLELOCK_OK)
        return 1;
    idlelock_subscribe(lock, listener, nullptr, &token);
    unlock(lock, "1234", 4, nullptr);
    destroy(lock);
    static_assert(IDLELOCK_NEVER == INT64_MAX, "IDLELOCK_NEVER");
    static_assert(IDLELOCK_KDF_MEMLIMIT_MIN == 19u * 1024 * 1024, "floor");
    return idlelock_version_number() == IDLELOCK_VERSION_NUMBER ? 0 : 1;
}
