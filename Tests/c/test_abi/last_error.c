/* SPDX-License-Identifier: MIT */
/*
 * last_error.c: idlelock_last_error() is per thread; idlelock_lifecycle's
 * message lists the names and platforms that are valid.
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

/* A name the library refuses: the message names the platform and lists its
 * states, each of which the library takes (the bindings print this list
 * instead of keeping one: it must be the table's); a platform it does not
 * know: the message lists every IDLELOCK_PLATFORM_* with its value. */
void test_lifecycle_messages(void)
{
    static const struct { int32_t value; const char *name; } platforms[] = {
        { IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "IDLELOCK_PLATFORM_IOS_SCENE_PHASE" },
        { IDLELOCK_PLATFORM_IOS_APPLICATION_STATE, "IDLELOCK_PLATFORM_IOS_APPLICATION_STATE" },
        { IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT" },
        { IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE" },
        { IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE, "IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE" },
    };
    const char *head = "idlelock_lifecycle: state_name is not a state of ";
    const char *list = "; its states are ";
    const char *tail = " (the platform's own spelling, case-sensitive)";
    idlelock *l = new_lock();
    idlelock_snapshot s = blank_snap();
    char message[512], expected[128];
    if (l == NULL) return;
    for (size_t p = 0; p < sizeof platforms / sizeof platforms[0]; p++) {
        char *names, *end, *name;
        int count = 0, accepted = 0;
        CHECK_ST(idlelock_lifecycle(l, platforms[p].value, "Nope", &s), INVAL);
        snprintf(message, sizeof message, "%s", idlelock_last_error());
        snprintf(expected, sizeof expected, "%s%s%s", head, platforms[p].name, list);
        CHECK(strncmp(message, expected, strlen(expected)) == 0);
        end = strstr(message, tail);
        CHECK(end != NULL && strlen(end) == strlen(tail));
        if (end == NULL || strncmp(message, expected, strlen(expected)) != 0) continue;
        *end = '\0';
        names = message + strlen(expected);
        for (name = strtok(names, ", "); name != NULL; name = strtok(NULL, ", ")) {
            count++;
            accepted += idlelock_lifecycle(l, platforms[p].value, name, &s) == OK;
        }
        CHECK(count >= 3);
        CHECK_EQ(accepted, count);
        CHECK_ST(idlelock_foreground(l, &s), OK);
    }
    CHECK_ST(idlelock_lifecycle(l, 99, "active", &s), INVAL);
    snprintf(message, sizeof message, "%s", idlelock_last_error());
    CHECK(strncmp(message, "idlelock_lifecycle: platform 99 is not a platform this library knows; use one of ",
                  strlen("idlelock_lifecycle: platform 99 is not a platform this library knows; use one of ")) == 0);
    for (size_t p = 0; p < sizeof platforms / sizeof platforms[0]; p++) {
        snprintf(expected, sizeof expected, "%s (%d)", platforms[p].name, (int)platforms[p].value);
        CHECK(strstr(message, expected) != NULL);
    }
    idlelock_destroy(l);
}
