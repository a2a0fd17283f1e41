-- SPDX-License-Identifier: MIT
-- Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit.
-- The build inserts it into idlelock.in.lua (its --@@GENERATED@@ line).
local IDLELOCK_CDEF = [[
typedef struct idlelock idlelock;
typedef int64_t (*idlelock_clock_fn)(void *ctx);
typedef struct idlelock_authenticator {
    uint32_t size;
    uint32_t reserved0;
    void *ctx;
    int32_t (*is_available)(void *ctx);
    int32_t (*store_secret)(void *ctx, const uint8_t *secret, size_t len);
    int32_t (*load_secret)(void *ctx, const char *reason, uint8_t *out, size_t cap,
                           size_t *out_len);
    int32_t (*delete_secret)(void *ctx);
} idlelock_authenticator;
typedef struct idlelock_delay_step {
    int32_t failed_attempts;
    int32_t reserved0;
    int64_t delay_ms;
} idlelock_delay_step;
int idlelock_delay_schedule_ios(const idlelock_delay_step **steps, size_t *len);
typedef struct idlelock_config {
    uint32_t size;
    int32_t lock_on_start;
    int64_t idle_after_ms;
    int64_t background_after_ms;
    int64_t inactive_after_ms;
    int64_t grace_ms;
    int32_t max_attempts;
    uint32_t reserved0;
    uint64_t kdf_opslimit;
    uint64_t kdf_memlimit;
    const char *store_path;
    idlelock_clock_fn clock;
    void *clock_ctx;
    const idlelock_authenticator *authenticator;
    const char *unlock_reason;
    const uint8_t *device_key;
    size_t device_key_len;
    int64_t prompt_cap_ms;
    int64_t warn_before_ms;
    const idlelock_delay_step *delay_schedule;
    size_t delay_schedule_len;
    int64_t passcode_max_age_ms;
    int32_t passcode_after_reboot;
    int32_t biometric_max_uses;
} idlelock_config;
typedef struct idlelock_snapshot {
    uint32_t size;
    int32_t state;
    uint64_t seq;
    int32_t reason;
    int32_t is_enabled;
    int32_t is_biometrics_enabled;
    int32_t is_biometrics_available;
    int32_t is_away;
    int32_t attempts_remaining;
    int64_t last_activity_ms;
    int64_t ms_until_idle_lock;
    int32_t is_warning;
    int32_t reserved1;
    int64_t ms_until_warning;
    int64_t ms_until_retry;
    int64_t ms_until_next_deadline;
    int32_t is_passcode_required;
    int32_t reserved2;
    int64_t last_auth_ms;
} idlelock_snapshot;
typedef void (*idlelock_listener_fn)(void *ctx, const idlelock_snapshot *snapshot);
int idlelock_config_init(idlelock_config *cfg, size_t size);
int idlelock_create(const idlelock_config *cfg, idlelock **out);
void idlelock_destroy(idlelock *lock);
int idlelock_watch_start(idlelock *lock);
int idlelock_watch_stop(idlelock *lock);
int idlelock_start(idlelock *lock, idlelock_snapshot *out);
int idlelock_touch(idlelock *lock, idlelock_snapshot *out);
int idlelock_inactive(idlelock *lock, idlelock_snapshot *out);
int idlelock_background(idlelock *lock, idlelock_snapshot *out);
int idlelock_foreground(idlelock *lock, idlelock_snapshot *out);
int idlelock_check(idlelock *lock, idlelock_snapshot *out);
int idlelock_lock(idlelock *lock, idlelock_snapshot *out);
int idlelock_lifecycle(idlelock *lock, int32_t platform, const char *state_name,
                       idlelock_snapshot *out);
int idlelock_prompt_begin(idlelock *lock, uint64_t *token);
int idlelock_prompt_end(idlelock *lock, uint64_t token);
int idlelock_snapshot_get(idlelock *lock, idlelock_snapshot *out);
int idlelock_set_passcode(idlelock *lock, const char *utf8, size_t len);
int idlelock_unlock(idlelock *lock, const char *utf8, size_t len, idlelock_snapshot *out);
int idlelock_enable_biometrics(idlelock *lock);
int idlelock_disable_biometrics(idlelock *lock);
int idlelock_unlock_with_biometrics(idlelock *lock, idlelock_snapshot *out);
int idlelock_biometric_begin(idlelock *lock, int32_t purpose, uint64_t *token, uint8_t *secret,
                             size_t secret_len, idlelock_snapshot *out);
int idlelock_biometric_finish(idlelock *lock, uint64_t token, int32_t result, const uint8_t *secret,
                              size_t secret_len, idlelock_snapshot *out);
int idlelock_require_recent_auth(idlelock *lock, int64_t max_age_ms);
int idlelock_disable(idlelock *lock);
int idlelock_subscribe(idlelock *lock, idlelock_listener_fn fn, void *ctx, uint64_t *token);
int idlelock_unsubscribe(idlelock *lock, uint64_t token);
int idlelock_secret_put(idlelock *lock, const char *name, const uint8_t *data, size_t len);
int idlelock_secret_get(idlelock *lock, const char *name, uint8_t *buf, size_t *len);
int idlelock_secret_remove(idlelock *lock, const char *name);
int idlelock_require_unlocked(idlelock *lock);
const char *idlelock_status_name(int status);
const char *idlelock_last_error(void);
const char *idlelock_version(void);
int idlelock_version_number(void);
size_t idlelock_config_size(void);
size_t idlelock_snapshot_size(void);
size_t idlelock_authenticator_size(void);
size_t idlelock_delay_step_size(void);
]]
local IDLELOCK_CONSTANTS = {
  IDLELOCK_VERSION_MAJOR = 1,
  IDLELOCK_VERSION_MINOR = 2,
  IDLELOCK_VERSION_PATCH = 2,
  IDLELOCK_VERSION_STRING = "1.2.2",
  IDLELOCK_VERSION_NUMBER = 10202,
  IDLELOCK_OK = 0,
  IDLELOCK_ERR_INVALID_ARGUMENT = 1,
  IDLELOCK_ERR_SESSION_LOCKED = 2,
  IDLELOCK_ERR_INVALID_PASSCODE = 3,
  IDLELOCK_ERR_LOCKED_OUT = 4,
  IDLELOCK_ERR_LOCK_UNAVAILABLE = 5,
  IDLELOCK_ERR_NO_PASSCODE = 6,
  IDLELOCK_ERR_STORAGE = 7,
  IDLELOCK_ERR_NOT_FOUND = 8,
  IDLELOCK_ERR_BUFFER_TOO_SMALL = 9,
  IDLELOCK_ERR_NO_MEMORY = 10,
  IDLELOCK_ERR_INTERNAL = 11,
  IDLELOCK_ERR_RETRY_LATER = 12,
  IDLELOCK_ERR_REAUTH_REQUIRED = 13,
  IDLELOCK_NEVER = 0x7fffffffffffffffLL,
  IDLELOCK_SAME_AS_IDLE = -1LL,
  IDLELOCK_STATE_UNLOCKED = 0,
  IDLELOCK_STATE_LOCKED = 1,
  IDLELOCK_STATE_LOCKED_OUT = 2,
  IDLELOCK_REASON_NONE = 0,
  IDLELOCK_REASON_IDLE = 1,
  IDLELOCK_REASON_BACKGROUNDED = 2,
  IDLELOCK_REASON_STARTUP = 3,
  IDLELOCK_REASON_MANUAL = 4,
  IDLELOCK_REASON_CLOCK = 5,
  IDLELOCK_GRACE_MAX_MS = 60000,
  IDLELOCK_MAX_ATTEMPTS_MAX = 100,
  IDLELOCK_PASSCODE_MIN_SCALARS = 4,
  IDLELOCK_PASSCODE_MAX_BYTES = 1024,
  IDLELOCK_SECRET_NAME_MAX_BYTES = 64,
  IDLELOCK_SECRET_VALUE_MAX_BYTES = 65536,
  IDLELOCK_SECRETS_MAX = 256,
  IDLELOCK_LISTENERS_MAX = 64,
  IDLELOCK_UNLOCK_REASON_MAX_BYTES = 512,
  IDLELOCK_DEVICE_KEY_BYTES = 32,
  IDLELOCK_KDF_OPSLIMIT_MIN = 2,
  IDLELOCK_KDF_OPSLIMIT_MAX = 10,
  IDLELOCK_KDF_MEMLIMIT_MIN = 19922944ULL,
  IDLELOCK_KDF_MEMLIMIT_MAX = 1073741824ULL,
  IDLELOCK_PASSCODE_MAX_AGE_MIN_MS = 3600000LL,
  IDLELOCK_PASSCODE_MAX_AGE_MAX_MS = 2592000000LL,
  IDLELOCK_BIOMETRIC_MAX_USES_MAX = 1000,
  IDLELOCK_RECENT_AUTH_MAX_MS = 2592000000LL,
  IDLELOCK_AUTH_OK = 0,
  IDLELOCK_AUTH_FAILED = 1,
  IDLELOCK_AUTH_CANCELLED = 2,
  IDLELOCK_AUTH_UNAVAILABLE = 3,
  IDLELOCK_AUTH_SECRET_BYTES = 32,
  IDLELOCK_PLATFORM_IOS_SCENE_PHASE = 1,
  IDLELOCK_PLATFORM_IOS_APPLICATION_STATE = 2,
  IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT = 3,
  IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE = 4,
  IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE = 5,
  IDLELOCK_BIOMETRIC_UNLOCK = 1,
  IDLELOCK_BIOMETRIC_ENABLE = 2,
  IDLELOCK_BIOMETRIC_REQUESTS_MAX = 8,
}
-- Bounds the header states in its prose.
local IDLELOCK_BOUNDS = {
  PROMPT_CAP_MAX_MS = 600000,
  DELAY_MAX_MS = 86400000,
  DELAY_SCHEDULE_MAX_STEPS = 32,
}
-- C name -> this module's, for the library's messages (bindings/names.txt).
local IDLELOCK_NAMES = {
  idlelock_unlock_with_biometrics = "lock:unlock_with_biometrics()",
  idlelock_disable_biometrics = "lock:disable_biometrics()",
  idlelock_enable_biometrics = "lock:enable_biometrics()",
  idlelock_biometric_finish = "req:finish()",
  idlelock_biometric_begin = "lock:begin_biometric_unlock()",
  idlelock_prompt_begin = "lock:prompt_begin()",
  idlelock_set_passcode = "lock:set_passcode()",
  idlelock_prompt_end = "lock:prompt_end()",
  idlelock_lifecycle = "lock:lifecycle()",
  idlelock_disable = "lock:disable()",
  idlelock_unlock = "lock:unlock()",
  idlelock_check = "lock:check()",
  idlelock_start = "lock:start()",
  idlelock_lock = "lock:lock()",
  secret_len = "the secret's length",
}
