/* SPDX-License-Identifier: MIT */
/* Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit. */
/* The snapshot as the long[] org.idlelock.Snapshot reads, and the config's
 * numbers as IdleLock.Builder sets them: the slots of GeneratedTables.SNAP_*
 * and GeneratedTables.CFG_* (included once, by idlelock_jni.c). */

#define SNAP_FIELDS 16
#define CFG_FIELDS 13

static void snapshot_slots(jlong *f, const idlelock_snapshot *s)
{
    f[0] = (jlong)s->state;
    f[1] = (jlong)s->seq;
    f[2] = (jlong)s->reason;
    f[3] = (jlong)s->is_enabled;
    f[4] = (jlong)s->is_biometrics_enabled;
    f[5] = (jlong)s->is_biometrics_available;
    f[6] = (jlong)s->is_away;
    f[7] = (jlong)s->attempts_remaining;
    f[8] = (jlong)s->last_activity_ms;
    f[9] = (jlong)s->ms_until_idle_lock;
    f[10] = (jlong)s->is_warning;
    f[11] = (jlong)s->ms_until_warning;
    f[12] = (jlong)s->ms_until_retry;
    f[13] = (jlong)s->ms_until_next_deadline;
    f[14] = (jlong)s->is_passcode_required;
    f[15] = (jlong)s->last_auth_ms;
}

/* Sets each field whose bit (1 << slot) is in mask; the others keep config_init's default. */
static void config_from_slots(idlelock_config *cfg, const jlong *num, jint mask)
{
    if (mask & (1 << 0)) cfg->lock_on_start = (int32_t)num[0];
    if (mask & (1 << 1)) cfg->idle_after_ms = (int64_t)num[1];
    if (mask & (1 << 2)) cfg->background_after_ms = (int64_t)num[2];
    if (mask & (1 << 3)) cfg->inactive_after_ms = (int64_t)num[3];
    if (mask & (1 << 4)) cfg->grace_ms = (int64_t)num[4];
    if (mask & (1 << 5)) cfg->max_attempts = (int32_t)num[5];
    if (mask & (1 << 6)) cfg->kdf_opslimit = (uint64_t)num[6];
    if (mask & (1 << 7)) cfg->kdf_memlimit = (uint64_t)num[7];
    if (mask & (1 << 8)) cfg->prompt_cap_ms = (int64_t)num[8];
    if (mask & (1 << 9)) cfg->warn_before_ms = (int64_t)num[9];
    if (mask & (1 << 10)) cfg->passcode_max_age_ms = (int64_t)num[10];
    if (mask & (1 << 11)) cfg->passcode_after_reboot = (int32_t)num[11];
    if (mask & (1 << 12)) cfg->biometric_max_uses = (int32_t)num[12];
}
