/* SPDX-License-Identifier: MIT */
/*
 * destroy.c: idlelock_destroy called from inside a listener, on a host
 * thread and on the watcher thread, and from another thread while the
 * watcher runs a listener. Once destroy returns, no callback of that
 * handle runs on any thread: not the other listeners of the delivery in
 * progress, not the clock or an authenticator callback for what was left
 * of the call that was delivering (header: idlelock_destroy, "Listeners").
 * test-c-sanitized runs this under ASan too, which also catches a handle
 * freed under the rest of a call.
 *
 * Regression (issue 19, finding 1): a listener on the watcher thread that
 * destroyed the handle was followed by the remaining listeners of the same
 * delivery, after idlelock_destroy had returned; the Java glue, which
 * frees its callback contexts in destroy, crashed the JVM in its listener
 * trampoline, and C# crashed in GCHandle.FromIntPtr.
 */
#include "harness.h"

#include <errno.h>
#include <unistd.h>

/* Listeners subscribed after the one that destroys (a binding's seven
 * other subscribers in the report). */
#define FOLLOWERS 7
/* How long a test waits for the watcher before it calls it a hang. */
#define WAIT_S 60

struct probe {
    idlelock *lock;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int64_t clock;            /* the handle's clock, when it has this one */
    int destroyed;            /* idlelock_destroy has returned */
    int destroyer_calls;
    int follower_calls;
    int after_destroy;        /* any callback of the handle after that */
    int in_listener;          /* the blocking listener has been entered */
    int destroy_returned_inside; /* destroy returned while it still ran */
    uint8_t kept[IDLELOCK_AUTH_SECRET_BYTES]; /* the fake keystore's item */
    int has_item;
};

static void probe_init(struct probe *p)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mutex, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->clock = 1000000;
}

static void probe_free(struct probe *p)
{
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->mutex);
}

/* Every callback notes whether the handle was destroyed before it ran. */
static void note_callback(struct probe *p)
{
    pthread_mutex_lock(&p->mutex);
    if (p->destroyed)
        p->after_destroy++;
    pthread_mutex_unlock(&p->mutex);
}

static void destroy_now(struct probe *p)
{
    idlelock_destroy(p->lock);
    pthread_mutex_lock(&p->mutex);
    p->destroyed = 1;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->mutex);
}

static void destroyer(void *ctx, const idlelock_snapshot *s)
{
    struct probe *p = ctx;
    (void)s;
    note_callback(p);
    pthread_mutex_lock(&p->mutex);
    p->destroyer_calls++;
    pthread_mutex_unlock(&p->mutex);
    if (p->destroyer_calls == 1)
        destroy_now(p);
}

static void follower(void *ctx, const idlelock_snapshot *s)
{
    struct probe *p = ctx;
    (void)s;
    note_callback(p);
    pthread_mutex_lock(&p->mutex);
    p->follower_calls++;
    pthread_mutex_unlock(&p->mutex);
}

static int64_t probe_clock(void *ctx)
{
    struct probe *p = ctx;
    note_callback(p);
    return p->clock;
}

static int32_t probe_available(void *ctx)
{
    note_callback(ctx);
    return 1;
}

static int32_t probe_store(void *ctx, const uint8_t *secret, size_t len)
{
    struct probe *p = ctx;
    note_callback(p);
    if (len != sizeof p->kept)
        return 1;
    memcpy(p->kept, secret, len);
    p->has_item = 1;
    return 0;
}

static int32_t probe_load(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len)
{
    struct probe *p = ctx;
    (void)reason;
    note_callback(p);
    if (!p->has_item || cap < sizeof p->kept)
        return IDLELOCK_AUTH_UNAVAILABLE;
    memcpy(out, p->kept, sizeof p->kept);
    *out_len = sizeof p->kept;
    return IDLELOCK_AUTH_OK;
}

static int32_t probe_delete(void *ctx)
{
    struct probe *p = ctx;
    note_callback(p);
    p->has_item = 0;
    return 0;
}

/* A lock on the probe's clock and fake keystore, with passcode "1234". */
static idlelock *probe_lock(struct probe *p, idlelock_authenticator *a)
{
    idlelock_config c;
    base_config(&c);
    c.clock = probe_clock;
    c.clock_ctx = p;
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->ctx = p;
    a->is_available = probe_available;
    a->store_secret = probe_store;
    a->load_secret = probe_load;
    a->delete_secret = probe_delete;
    c.authenticator = a;
    p->lock = create_or_report(&c, __FILE__, __LINE__);
    if (p->lock != NULL)
        CHECK_ST(idlelock_set_passcode(p->lock, LIT("1234")), OK);
    return p->lock;
}

/* The destroyer first, then FOLLOWERS more. */
static void subscribe_all(struct probe *p, idlelock_listener_fn first)
{
    uint64_t token;
    int i;
    CHECK_ST(idlelock_subscribe(p->lock, first, p, &token), OK);
    for (i = 0; i < FOLLOWERS; i++)
        CHECK_ST(idlelock_subscribe(p->lock, follower, p, &token), OK);
}

/* After a call whose delivery destroyed the handle: the destroyer ran
 * once, nothing else of the handle ran after it. */
static void check_stopped(struct probe *p, const char *file, int line)
{
    check_i64(p->destroyed, 1, file, line, "destroyed by the listener");
    check_i64(p->destroyer_calls, 1, file, line, "destroyer_calls");
    check_i64(p->follower_calls, 0, file, line, "listeners after the one that destroyed");
    check_i64(p->after_destroy, 0, file, line, "callbacks after idlelock_destroy returned");
}

enum host_call { CALL_LOCK, CALL_TOUCH, CALL_UNLOCK, CALL_BIO_UNLOCK, CALL_DISABLE, CALL_SET_PASSCODE,
                 CALL_DISABLE_BIOMETRICS };

/* One call on a host thread whose delivery destroys the handle; `want` is
 * the call's status (OK when its work was done before it delivered; a
 * call with work left after the delivery says INVALID_ARGUMENT and does
 * not do it). */
static void destroy_during(enum host_call call, int want, int line)
{
    struct probe p;
    idlelock_authenticator a;
    idlelock_snapshot s = blank_snap();
    int st = -1;
    probe_init(&p);
    if (probe_lock(&p, &a) == NULL) {
        probe_free(&p);
        return;
    }
    if (call == CALL_BIO_UNLOCK || call == CALL_DISABLE || call == CALL_SET_PASSCODE || call == CALL_DISABLE_BIOMETRICS)
        check_status(idlelock_enable_biometrics(p.lock), OK, __FILE__, line, "idlelock_enable_biometrics");
    if (call == CALL_UNLOCK)
        check_status(idlelock_lock(p.lock, NULL), OK, __FILE__, line, "idlelock_lock");
    /* Past the idle timeout: the call's first judgement locks (IDLE). */
    if (call == CALL_TOUCH || call == CALL_BIO_UNLOCK)
        p.clock += 60000;
    subscribe_all(&p, destroyer);
    switch (call) {
    case CALL_LOCK: st = idlelock_lock(p.lock, &s); break;
    case CALL_TOUCH: st = idlelock_touch(p.lock, &s); break;
    case CALL_UNLOCK: st = idlelock_unlock(p.lock, LIT("1234"), &s); break;
    case CALL_BIO_UNLOCK: st = idlelock_unlock_with_biometrics(p.lock, &s); break;
    case CALL_DISABLE: st = idlelock_disable(p.lock); break;
    case CALL_SET_PASSCODE: st = idlelock_set_passcode(p.lock, LIT("5678")); break;
    case CALL_DISABLE_BIOMETRICS: st = idlelock_disable_biometrics(p.lock); break;
    }
    check_status(st, want, __FILE__, line, "the call whose listener destroyed the handle");
    check_stopped(&p, __FILE__, line);
    /* A delete_secret left after the delivery was skipped: the item is
     * still the host's to delete, which the status says. */
    if (call == CALL_DISABLE || call == CALL_SET_PASSCODE || call == CALL_DISABLE_BIOMETRICS)
        check_i64(p.has_item, 1, __FILE__, line, "the keystore item (delete_secret skipped)");
    if (call == CALL_LOCK || call == CALL_TOUCH)
        check_i64(s.state, IDLELOCK_STATE_LOCKED, __FILE__, line, "the call's own snapshot");
    probe_free(&p);
}

/* ---------------------------------------------------------------------- */
/* The watcher thread                                                     */
/* ---------------------------------------------------------------------- */

/* Waits until `*flag` is set, at most WAIT_S seconds; a hang ends the run. */
static void wait_for(struct probe *p, const int *flag, const char *what)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += WAIT_S;
    pthread_mutex_lock(&p->mutex);
    while (!*flag) {
        if (pthread_cond_timedwait(&p->cond, &p->mutex, &deadline) == ETIMEDOUT) {
            printf("FAIL %s:%d: waited %d s for %s\n", __FILE__, __LINE__, WAIT_S, what);
            printf("%u passed, %u failed\n", passed, failed + 1);
            fflush(stdout);
            _exit(1);
        }
    }
    pthread_mutex_unlock(&p->mutex);
}

/* A lock on the default clock (the watcher's), engaged, idle after 50 ms,
 * with its watcher running. */
static idlelock *watched_lock(struct probe *p)
{
    idlelock_config c;
    base_config(&c);
    c.clock = NULL;
    c.clock_ctx = NULL;
    c.idle_after_ms = 50;
    p->lock = create_or_report(&c, __FILE__, __LINE__);
    if (p->lock != NULL)
        CHECK_ST(idlelock_set_passcode(p->lock, LIT("1234")), OK);
    return p->lock;
}

/* The watcher locks the session (IDLE) and runs the listeners on its
 * thread; the first destroys the handle. */
static void destroy_on_watcher(void)
{
    struct probe p;
    int before = thread_count_low();
    probe_init(&p);
    if (watched_lock(&p) == NULL) {
        probe_free(&p);
        return;
    }
    subscribe_all(&p, destroyer);
    CHECK_ST(idlelock_watch_start(p.lock), OK);
    wait_for(&p, &p.destroyed, "the watcher's listener to destroy the handle");
    /* The watcher thread ends once its delivery is over: then nothing of
     * the handle can run any more. */
    CHECK(thread_count_settled(before) <= before);
    check_stopped(&p, __FILE__, __LINE__);
    probe_free(&p);
}

/* A listener on the watcher thread that stays until destroy, called on
 * another thread, has had time to wait for it. */
static void lingerer(void *ctx, const idlelock_snapshot *s)
{
    struct probe *p = ctx;
    struct timespec pause = {0, 200000000};
    (void)s;
    note_callback(p);
    pthread_mutex_lock(&p->mutex);
    p->in_listener = 1;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->mutex);
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&p->mutex);
    if (p->destroyed)
        p->destroy_returned_inside++;
    pthread_mutex_unlock(&p->mutex);
}

static void *destroy_thread(void *arg)
{
    destroy_now(arg);
    return NULL;
}

/* destroy on a host thread while the watcher runs a listener: destroy
 * returns only after that listener, and no other listener runs after. */
static void destroy_while_watcher_delivers(void)
{
    struct probe p;
    pthread_t t;
    int before = thread_count_low();
    probe_init(&p);
    if (watched_lock(&p) == NULL) {
        probe_free(&p);
        return;
    }
    subscribe_all(&p, lingerer);
    CHECK_ST(idlelock_watch_start(p.lock), OK);
    wait_for(&p, &p.in_listener, "the watcher's listener to run");
    CHECK(pthread_create(&t, NULL, destroy_thread, &p) == 0);
    pthread_join(t, NULL);
    CHECK(thread_count_settled(before) <= before);
    CHECK_EQ(p.destroy_returned_inside, 0);
    CHECK_EQ(p.after_destroy, 0);
    probe_free(&p);
}

void test_destroy_from_listeners(void)
{
    destroy_during(CALL_LOCK, OK, __LINE__);
    destroy_during(CALL_TOUCH, OK, __LINE__);
    /* Left after the delivery: the check of the passcode (unlock), the
     * host's check (load_secret), and the delete_secret of a sign-out, a
     * new passcode or disable_biometrics that turned the shortcut off:
     * skipped, and the call says so (INVALID_ARGUMENT), so the host knows
     * its item is still there. (enable_biometrics's first transaction
     * opens its check's prompt, which holds the warning back, and any lock
     * fails it: it delivers nothing of its own before store_secret.)
     * Regression (red team): the three that skipped delete_secret returned
     * OK, against the header's idlelock_destroy. */
    destroy_during(CALL_UNLOCK, INVAL, __LINE__);
    destroy_during(CALL_BIO_UNLOCK, INVAL, __LINE__);
    destroy_during(CALL_DISABLE, INVAL, __LINE__);
    destroy_during(CALL_SET_PASSCODE, INVAL, __LINE__);
    destroy_during(CALL_DISABLE_BIOMETRICS, INVAL, __LINE__);
    destroy_on_watcher();
    destroy_while_watcher_delivers();
}
