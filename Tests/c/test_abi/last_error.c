/* SPDX-License-Identifier: MIT */
/*
 * last_error.c: idlelock_last_error() is per thread.
 */
#include "harness.h"

struct thread_result {
    int initial_empty;    /* "" before this thread failed */
    int status;
    int names_attempts;   /* its message names max_attempts */
};

static void *failing_thread(void *arg)
{
    struct thread_result *r = arg;
    idlelock_config c;
    idlelock *l = NULL;
    const char *e = idlelock_last_error();
    r->initial_empty = e != NULL && e[0] == '\0';
    fill_config(&c);
    c.max_attempts = 0;
    r->status = idlelock_create(&c, &l);
    e = idlelock_last_error();
    r->names_attempts = e != NULL && strstr(e, "max_attempts") != NULL;
    return NULL;
}

void test_last_error_threads(void)
{
    struct thread_result r = { 0, -1, 0 };
    pthread_t t;
    idlelock_config c;
    idlelock *l = NULL;
    char mine[512];
    CHECK(idlelock_last_error() != NULL);
    base_config(&c);
    c.grace_ms = 60001;
    CHECK_ST(idlelock_create(&c, &l), INVAL);
    snprintf(mine, sizeof mine, "%s", idlelock_last_error());
    CHECK(strstr(mine, "grace_ms") != NULL);
    CHECK(pthread_create(&t, NULL, failing_thread, &r) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(r.initial_empty);
    CHECK_ST(r.status, INVAL);
    CHECK(r.names_attempts);
    CHECK(strcmp(idlelock_last_error(), mine) == 0);
    /* A successful call does not replace the last failure's message. */
    CHECK(idlelock_version() != NULL);
    l = new_lock();
    CHECK(strcmp(idlelock_last_error(), mine) == 0);
    idlelock_destroy(l);
}
