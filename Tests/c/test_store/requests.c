/* SPDX-License-Identifier: MIT */
/*
 * requests.c: another process that turns the biometric shortcut off, or
 * replaces it, voids this process's open requests of the two-phase pair
 * once this process looks at the store (issue 19, finding 8).
 *
 * This process (the app) holds a handle on a store with a device key, the
 * shortcut on, and two requests open on its unlocked session: a re-check
 * (UNLOCK) and an ENABLE. A second process (a widget, forked) then:
 * disables the shortcut; finishes a request of its own with a secret that
 * does not open the wrap (an enrolment change); enables another shortcut;
 * sets a new passcode; signs out. The app's next call that looks at the
 * store (the gate) sees it: its requests that can no longer count are void
 * (finishing them is INVALID_ARGUMENT) and defer nothing any more, so the
 * next deadline is the idle lock (10 minutes), not a request's cap
 * (prompt_cap_ms, 2 minutes). Regression: the shortcut turned off or
 * replaced elsewhere left the requests open (their finish answered "the
 * shortcut changed"), deferring the idle lock up to prompt_cap_ms.
 */
#include "harness.h"

enum other_action { TURN_OFF, WRONG_SECRET, REPLACE, NEW_PASSCODE, SIGN_OUT };

static const char *const action_names[] = {"disable_biometrics", "a wrong secret", "another enable",
                                           "a new passcode", "a sign-out"};

static char rq_path[200];

struct widget_job {
    enum other_action action;
    const uint8_t *secret; /* the shortcut's, as the app enabled it */
};

static idlelock *open_unlocked(const char *path, const char *who)
{
    idlelock_config cfg;
    idlelock *h = NULL;
    make_config(&cfg, path, 5, 0, 1);
    CHECK_ST(idlelock_create(&cfg, &h), IDLELOCK_OK, who);
    if (h != NULL) CHECK_ST(idlelock_start(h, NULL), IDLELOCK_OK, "idlelock_start");
    return h;
}

/* The widget's process: one action on the shared store. */
static void widget(void *arg, int64_t values[4])
{
    const struct widget_job *job = arg;
    idlelock *h = open_unlocked(rq_path, "idlelock_create (widget)");
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
    uint64_t token = 0;
    (void)values;
    if (h == NULL) return;
    switch (job->action) {
    case TURN_OFF:
        CHECK_ST(idlelock_disable_biometrics(h), IDLELOCK_OK, "widget: idlelock_disable_biometrics");
        break;
    case WRONG_SECRET:
        memcpy(secret, job->secret, sizeof secret);
        secret[5] ^= 0x10; /* the item after an enrolment change */
        CHECK_ST(idlelock_biometric_begin(h, IDLELOCK_BIOMETRIC_UNLOCK, &token, NULL, 0, NULL), IDLELOCK_OK,
                 "widget: begin (UNLOCK)");
        CHECK_ST(idlelock_biometric_finish(h, token, IDLELOCK_AUTH_OK, secret, sizeof secret, NULL),
                 IDLELOCK_ERR_LOCK_UNAVAILABLE, "widget: finish with a secret that does not open the wrap");
        break;
    case REPLACE:
        CHECK_ST(idlelock_biometric_begin(h, IDLELOCK_BIOMETRIC_ENABLE, &token, secret, sizeof secret, NULL),
                 IDLELOCK_OK, "widget: begin (ENABLE)");
        CHECK_ST(idlelock_biometric_finish(h, token, IDLELOCK_AUTH_OK, NULL, 0, NULL), IDLELOCK_OK,
                 "widget: finish (ENABLE)");
        break;
    case NEW_PASSCODE:
        CHECK_ST(idlelock_set_passcode(h, "1357", 4), IDLELOCK_OK, "widget: idlelock_set_passcode");
        break;
    case SIGN_OUT:
        CHECK_ST(idlelock_disable(h), IDLELOCK_OK, "widget: idlelock_disable");
        break;
    }
    CHECK(snap(h).is_biometrics_enabled == (job->action == REPLACE), "widget: the shortcut after %s",
          action_names[job->action]);
    idlelock_destroy(h);
}

static void one_action(enum other_action action)
{
    char what[120];
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES], unused[IDLELOCK_AUTH_SECRET_BYTES];
    uint64_t enable = 0, recheck = 0, enabling = 0;
    struct widget_job job;
    struct child c;
    idlelock_snapshot s;
    int64_t values[4];
    idlelock *app;
    int status;

    remove_files(tmpdir);
    app = open_unlocked(rq_path, "idlelock_create (app)");
    if (app == NULL) return;
    CHECK_ST(idlelock_set_passcode(app, RIGHT, strlen(RIGHT)), IDLELOCK_OK, "app: idlelock_set_passcode");
    CHECK_ST(idlelock_biometric_begin(app, IDLELOCK_BIOMETRIC_ENABLE, &enable, secret, sizeof secret, NULL),
             IDLELOCK_OK, "app: begin (ENABLE)");
    CHECK_ST(idlelock_biometric_finish(app, enable, IDLELOCK_AUTH_OK, NULL, 0, NULL), IDLELOCK_OK,
             "app: finish (ENABLE)");
    CHECK_ST(idlelock_biometric_begin(app, IDLELOCK_BIOMETRIC_UNLOCK, &recheck, NULL, 0, NULL), IDLELOCK_OK,
             "app: begin (UNLOCK, a re-check)");
    CHECK_ST(idlelock_biometric_begin(app, IDLELOCK_BIOMETRIC_ENABLE, &enabling, unused, sizeof unused, NULL),
             IDLELOCK_OK, "app: begin (ENABLE, another one)");
    s = snap(app);
    snprintf(what, sizeof what, "app, before %s: the requests defer the idle lock (next deadline %" PRId64 " ms)",
             action_names[action], s.ms_until_next_deadline);
    CHECK(s.ms_until_next_deadline <= 120000, "%s", what);

    job.action = action;
    job.secret = secret;
    c = spawn("widget", widget, &job);
    CHECK(join(c, values), "the widget reported (%s)", action_names[action]);

    /* The gate looks at the store: a sign-out is seen as one, the rest taken on. */
    status = idlelock_require_unlocked(app);
    CHECK_ST(status, IDLELOCK_OK, "app: idlelock_require_unlocked after the widget");
    if (action != REPLACE) {
        s = snap(app);
        snprintf(what, sizeof what, "app, after %s: next deadline %" PRId64 " ms (a request still defers the idle lock)",
                 action_names[action], s.ms_until_next_deadline);
        CHECK(s.ms_until_next_deadline > 120000, "%s", what);
    }
    snprintf(what, sizeof what, "app: finish of the re-check after %s", action_names[action]);
    CHECK_ST(idlelock_biometric_finish(app, recheck, IDLELOCK_AUTH_OK, secret, sizeof secret, NULL),
             IDLELOCK_ERR_INVALID_ARGUMENT, what);
    /* A replaced shortcut leaves the ENABLE request open: it may replace it again. */
    snprintf(what, sizeof what, "app: finish of the ENABLE request after %s", action_names[action]);
    CHECK_ST(idlelock_biometric_finish(app, enabling, IDLELOCK_AUTH_OK, NULL, 0, NULL),
             action == REPLACE ? IDLELOCK_OK : IDLELOCK_ERR_INVALID_ARGUMENT, what);
    if (action == REPLACE) {
        s = snap(app);
        CHECK(s.ms_until_next_deadline > 120000,
              "app, after another enable: next deadline %" PRId64 " ms (the voided re-check still defers the idle lock)",
              s.ms_until_next_deadline);
    }
    memset(secret, 0, sizeof secret); /* a test's secrets: no need for sodium_memzero */
    memset(unused, 0, sizeof unused);
    idlelock_destroy(app);
}

void test_requests_across_processes(void)
{
    store_path(rq_path, sizeof rq_path, "requests");
    one_action(TURN_OFF);
    one_action(WRONG_SECRET);
    one_action(REPLACE);
    one_action(NEW_PASSCODE);
    one_action(SIGN_OUT);
    remove_files(tmpdir);
}
