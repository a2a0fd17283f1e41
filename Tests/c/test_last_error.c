/* SPDX-License-Identifier: MIT */
/* test_last_error.c: the per-thread last-error buffer of
 * Sources/CIdleLockSupport/last_error.c, run here in both of its forms:
 * the _Thread_local array, and the pthread key that every Android build
 * uses (ILK_LAST_ERROR_PTHREAD_KEY; Android has no ELF TLS below API 29).
 *
 *   test_last_error LIBRARY.so
 *
 * LIBRARY.so is last_error.c built alone as a shared library (mk/android.mk
 * builds one of each form); it is loaded with dlopen. Checked: "" before a
 * thread's first failure, never NULL; a message is this thread's own while
 * eight threads write theirs at once; the 511-byte cut; a thread's buffer
 * freed when the thread ends (valgrind's leak check, in the suite); and the
 * library loaded and unloaded 1100 times in one process still keeps
 * messages (a pthread key not given back at unload would run out: glibc
 * has 1024, bionic 128). Prints one line per check and "N passed, N
 * failed". */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*set_fn)(const uint8_t *, size_t, const uint8_t *, size_t, int, int64_t, const uint8_t *, size_t);
typedef const char *(*get_fn)(void);

static set_fn error_set;
static get_fn error_get;
static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok)
        passed++;
    else
        failed++;
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
}

static void set_message(const char *fn, const char *head, int64_t value)
{
    error_set((const uint8_t *)fn, strlen(fn), (const uint8_t *)head, strlen(head), 1, value,
              (const uint8_t *)"", 0);
}

static int load(const char *path, void **handle)
{
    *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (*handle == NULL)
        return 0;
    error_set = (set_fn)(uintptr_t)dlsym(*handle, "ilk_error_set");
    error_get = (get_fn)(uintptr_t)dlsym(*handle, "ilk_error_get");
    return error_set != NULL && error_get != NULL;
}

#define THREADS 8
static pthread_barrier_t all_set;
static int thread_ok[THREADS];

static void *writer(void *arg)
{
    int i = (int)(intptr_t)arg;
    char want[64];
    const char *before = error_get();
    int ok = before != NULL && before[0] == '\0';
    set_message("idlelock_unlock", "thread ", i);
    snprintf(want, sizeof want, "idlelock_unlock: thread %d", i);
    pthread_barrier_wait(&all_set); /* every thread has written its own */
    ok = ok && strcmp(error_get(), want) == 0;
    thread_ok[i] = ok;
    return NULL;
}

int main(int argc, char **argv)
{
    void *handle;
    if (argc != 2 || !load(argv[1], &handle)) {
        fprintf(stderr, "test_last_error: usage: test_last_error LIBRARY.so (%s)\n", dlerror());
        return 2;
    }
    const char *first = error_get();
    check(first != NULL && first[0] == '\0', "\"\" before this thread's first failure");
    set_message("idlelock_create", "bad value ", -7);
    check(strcmp(error_get(), "idlelock_create: bad value -7") == 0, "the message as set");

    char longer[2000];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    set_message("f", longer, 1);
    check(strlen(error_get()) == 511, "a long message is cut at 511 bytes");

    pthread_t t[THREADS];
    pthread_barrier_init(&all_set, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, writer, (void *)(intptr_t)i);
    int all = 1;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        all = all && thread_ok[i];
    }
    pthread_barrier_destroy(&all_set);
    check(all, "8 threads at once: each reads \"\" first, then its own message");
    check(strlen(error_get()) == 511, "their messages left this thread's alone");
    dlclose(handle);

    int kept = 1;
    for (int round = 0; round < 1100 && kept; round++) {
        kept = load(argv[1], &handle);
        if (kept) {
            set_message("round", "", round);
            char want[32];
            snprintf(want, sizeof want, "round: %d", round);
            kept = strcmp(error_get(), want) == 0;
            dlclose(handle);
        }
    }
    check(kept, "loaded and unloaded 1100 times: a message is kept every time");
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
