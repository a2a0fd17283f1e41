/* SPDX-License-Identifier: MIT */
/*
 * fuzz_store.c: libFuzzer harness for libidlelock's store reader.
 *
 * Input: one control byte, [32 bytes,] then the bytes of a store file
 * (docs/STORE_FORMAT.md). The file is written at a store path and
 * idlelock_create opens it. When those bytes begin with "IDLKMARK", their
 * first 160 (or all of them, when fewer) are `<store>.lock` instead (the
 * rollback mark, docs/STORE_FORMAT.md "The lock file"), and the rest is the
 * store; otherwise no lock file is written beforehand. Control byte:
 *   bits 0-1  0: the file as given, no device key
 *             1: the trailing 32-byte integrity check recomputed (unkeyed
 *                BLAKE2b-256 of every byte before it), no device key; the
 *                mark's slots' checks too (unkeyed)
 *             2: flags bit 0 set, the device check value and the integrity
 *                check recomputed with the harness's device key (keyed with
 *                crypto_kdf_derive_from_key subkeys 2 and 1, ctx "idlkstor"),
 *                created with that device key; the mark's slots' checks too
 *                (subkey 4)
 *             3: the file as given, with the device key
 *   bit 2     lock_on_start 0 (only with the device key)
 *   bit 3     an authenticator: a fake keystore whose item is the next 32
 *             input bytes (the seeds carry the secret their library made)
 *   bit 4     a stray `<store>.tmp.XXXXXX` file beside the store
 *   bit 5     try the seeds' passcode (only when the file's Argon2id limits
 *             are the floor, so a run stays fast)
 *   bit 6     sign out (idlelock_disable) at the end
 *   bit 7     a wrong passcode first
 *
 * Oracles (besides ASan, UBSan, LeakSanitizer and libFuzzer's timeout):
 *  - create returns IDLELOCK_OK or IDLELOCK_ERR_STORAGE, nothing else;
 *  - on STORAGE the file is left untouched (byte for byte) and *out is NULL;
 *  - on OK the session is engaged and consistent with the file: without a
 *    device key it is LOCKED (or LOCKED_OUT); a saved lock is in force; a
 *    lockout (flag or count at the limit) is LOCKED_OUT with 0 attempts,
 *    otherwise attempts_remaining = max_attempts - failed_attempts;
 *  - every later call returns a known status and a consistent snapshot, and
 *    a locked session keeps its secrets shut;
 *  - the rollback mark (read by fuzz_mark.h from the document): a store
 *    with a lower generation than the mark, of whichever sign-in, is
 *    STORAGE;
 *    a refused create leaves `<store>.lock` as it was; an opened store
 *    leaves a mark of its sign-in at least at its generation (or a later
 *    version's file untouched);
 *  - a store that goes back a generation: once the handle has written the
 *    store, the input's file put back is STORAGE for the running handle
 *    (which then is not unlocked) and for a new create; after a sign-out,
 *    the input's file put back is STORAGE for a new create.
 */
#include <fcntl.h>
#include <sodium.h>

#include "fuzz_common.h"

#include "fuzz_mark.h"
#include "fuzz_store_seed.h"

#define STORE_MAX (1u << 20)

static int64_t now_ms = 1000000;
static uint8_t auth_secret[IDLELOCK_AUTH_SECRET_BYTES];

static int64_t fuzz_clock(void *ctx)
{
    (void)ctx;
    return now_ms;
}

static int32_t auth_is_available(void *ctx)
{
    (void)ctx;
    return 1;
}

static int32_t auth_store_secret(void *ctx, const uint8_t *secret, size_t len)
{
    (void)ctx;
    REQUIRE(len == IDLELOCK_AUTH_SECRET_BYTES, "store_secret len %zu", len);
    memcpy(auth_secret, secret, len);
    return 0;
}

static int32_t auth_load_secret(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len)
{
    (void)ctx;
    (void)reason;
    REQUIRE(cap == IDLELOCK_AUTH_SECRET_BYTES, "load_secret cap %zu", cap);
    memcpy(out, auth_secret, sizeof auth_secret);
    *out_len = sizeof auth_secret;
    return IDLELOCK_AUTH_OK;
}

static int32_t auth_delete_secret(void *ctx)
{
    (void)ctx;
    return 0;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void write_file(const char *path, const uint8_t *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0, "open %s", path);
    REQUIRE(n == 0 || write(fd, data, n) == (ssize_t)n, "write %s", path);
    close(fd);
}

/* The file's bytes now (NULL when it is gone); *n receives the size. */
static uint8_t *read_file(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    uint8_t *buf;
    *n = 0;
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return NULL;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (buf == NULL) abort();
    *n = (size_t)read(fd, buf, (size_t)st.st_size);
    close(fd);
    return buf;
}

/* Recomputes the integrity check (and, keyed, the device check value). */
static void fix_mac(uint8_t *file, size_t n, int keyed)
{
    uint8_t sub[32];
    if (n < 32) return;
    if (keyed) {
        static const char label[] = "idlelock device key check v1";
        if (n >= 16) file[12] |= 1;
        if (n >= 152 + 32) {
            crypto_kdf_derive_from_key(sub, sizeof sub, 2, "idlkstor", fuzz_seed_device_key);
            crypto_generichash(file + 120, 32, (const uint8_t *)label, sizeof label - 1, sub, sizeof sub);
        }
        crypto_kdf_derive_from_key(sub, sizeof sub, 1, "idlkstor", fuzz_seed_device_key);
        crypto_generichash(file + n - 32, 32, file, n - 32, sub, sizeof sub);
    } else {
        crypto_generichash(file + n - 32, 32, file, n - 32, NULL, 0);
    }
}

static void check(idlelock *h, int st, const idlelock_snapshot *s, const char *what, int max_attempts)
{
    REQUIRE(valid_status(st), "%s returned unknown status %d", what, st);
    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "%s returned INVALID_ARGUMENT", what);
    if (st != IDLELOCK_OK) REQUIRE(idlelock_last_error()[0] != '\0', "%s failed without a message", what);
    if (s != NULL) {
        check_snapshot(s, max_attempts);
        if (s->state != IDLELOCK_STATE_UNLOCKED) {
            uint8_t buf[16];
            size_t len = sizeof buf;
            int g = idlelock_secret_get(h, fuzz_seed_secret_name, buf, &len);
            /* The gate judges again and re-checks the store, so only a
             * still-locked session is asked. */
            if (g == IDLELOCK_OK) {
                idlelock_snapshot t;
                memset(&t, 0, sizeof t);
                t.size = sizeof t;
                REQUIRE(idlelock_snapshot_get(h, &t) == IDLELOCK_OK, "snapshot_get");
                REQUIRE(t.state == IDLELOCK_STATE_UNLOCKED, "%s: a secret was read while locked", what);
            }
        }
    }
}

/* A store that goes back a generation: the input's file (`orig`, which
 * opened) put back once the handle has written a later generation of its
 * sign-in, or after a sign-out, is an older copy: STORAGE for the running
 * handle (which is then not unlocked) and for a new create, and left as it
 * is. (A generation the library would wrap, near UINT64_MAX, is out: the
 * library starts every sign-in below 2^63. With a later version's lock file
 * the library keeps no mark: only the running handle is asked.) */
static void went_back(idlelock *h, const idlelock_config *cfg, const char *path, const uint8_t *orig, size_t orig_n,
                      int signed_out, int mark_kept, int max_attempts)
{
    uint8_t orig_session[16], now_session[16], *now;
    uint64_t orig_gen, now_gen;
    size_t now_n;
    idlelock *other = (idlelock *)(uintptr_t)1;
    idlelock_snapshot s;
    int st;
    if (!fuzz_store_identity(orig, orig_n, &orig_gen, orig_session) || orig_gen >= UINT64_MAX / 2) return;
    if (signed_out && !mark_kept) return; /* nothing left to tell */
    now = read_file(path, &now_n);
    if (!signed_out) {
        int later = now != NULL && fuzz_store_identity(now, now_n, &now_gen, now_session) &&
                    memcmp(now_session, orig_session, 16) == 0 && now_gen > orig_gen;
        if (!later) {
            free(now);
            return;
        }
    }
    write_file(path, orig, orig_n);
    if (!signed_out) {
        st = idlelock_require_unlocked(h);
        check(h, st, NULL, "require_unlocked on an older copy", max_attempts);
        REQUIRE(st == IDLELOCK_ERR_STORAGE, "the running handle took an older copy of its store (status %d)", st);
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        REQUIRE(idlelock_snapshot_get(h, &s) == IDLELOCK_OK, "snapshot_get");
        REQUIRE(!s.is_enabled || s.state != IDLELOCK_STATE_UNLOCKED, "unlocked on an older copy of the store");
    }
    if (mark_kept) {
        st = idlelock_create(cfg, &other);
        REQUIRE(st == IDLELOCK_ERR_STORAGE, "a new handle took an older copy of the store (%s, status %d)",
                signed_out ? "after a sign-out" : "a later one written", st);
        REQUIRE(other == NULL, "create failed but *out is %p", (void *)other);
    }
    free(now);
    now = read_file(path, &now_n);
    REQUIRE(now != NULL && now_n == orig_n && memcmp(now, orig, orig_n) == 0, "the older copy was written over");
    free(now);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256], stray[300], lock_path[300];
    uint8_t ctl, *file, *after;
    uint8_t lock_in[FUZZ_MARK_BYTES], lock_now[FUZZ_MARK_BYTES], file_session[16];
    size_t n, after_n, lock_len = 0;
    uint64_t file_gen = 0;
    int has_lock = 0, older_than_mark = 0, signed_out = 0;
    fuzz_mark mark;
    int mode, keyed, st, max_attempts = IDLELOCK_MAX_ATTEMPTS_MAX;
    idlelock_config cfg;
    idlelock_authenticator auth;
    idlelock *h = (idlelock *)(uintptr_t)1;
    idlelock_snapshot s;

    if (size == 0 || size - 1 > STORE_MAX) return 0;
    if (sodium_init() < 0) abort();
    ctl = data[0];
    data++;
    n = size - 1;
    if (ctl & 8) {
        if (n < sizeof auth_secret) return 0;
        memcpy(auth_secret, data, sizeof auth_secret);
        data += sizeof auth_secret;
        n -= sizeof auth_secret;
    }
    mode = ctl & 3;
    keyed = mode >= 2;
    if (n >= 8 && memcmp(data, "IDLKMARK", 8) == 0) {
        lock_len = n < FUZZ_MARK_BYTES ? n : FUZZ_MARK_BYTES;
        memcpy(lock_in, data, lock_len);
        if (mode == 1 || mode == 2) fuzz_mark_seal(lock_in, lock_len, mode == 2 ? fuzz_seed_device_key : NULL);
        has_lock = 1;
        data += lock_len;
        n -= lock_len;
    }
    file = exact_copy(data, n);
    if (mode == 1 || mode == 2) fix_mac(file, n, mode == 2);

    fuzz_dir_get();
    fuzz_dir_clear();
    snprintf(path, sizeof path, "%s/store", fuzz_dir);
    snprintf(lock_path, sizeof lock_path, "%s/store.lock", fuzz_dir);
    write_file(path, file, n);
    if (has_lock) write_file(lock_path, lock_in, lock_len);
    mark = fuzz_mark_parse(lock_in, lock_len, keyed ? fuzz_seed_device_key : NULL);
    /* Generations continue across sign-ins (1.2.2): a store of any sign-in
     * below the mark is an older copy. */
    if (mark.state == FUZZ_MARK_SET && fuzz_store_identity(file, n, &file_gen, file_session) &&
        file_gen < mark.generation)
        older_than_mark = 1;
    if (ctl & 16) {
        snprintf(stray, sizeof stray, "%s.tmp.a1B2c3", path);
        write_file(stray, (const uint8_t *)"junk", 4);
    }

    idlelock_config_init(&cfg, sizeof cfg);
    cfg.idle_after_ms = 60000;
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg.store_path = path;
    cfg.clock = fuzz_clock;
    cfg.lock_on_start = keyed && (ctl & 4) ? 0 : 1;
    if (keyed) {
        cfg.device_key = fuzz_seed_device_key;
        cfg.device_key_len = 32;
    }
    if (ctl & 8) {
        memset(&auth, 0, sizeof auth);
        auth.size = sizeof auth;
        auth.is_available = auth_is_available;
        auth.store_secret = auth_store_secret;
        auth.load_secret = auth_load_secret;
        auth.delete_secret = auth_delete_secret;
        cfg.authenticator = &auth;
    }

    st = idlelock_create(&cfg, &h);
    REQUIRE(st == IDLELOCK_OK || st == IDLELOCK_ERR_STORAGE, "create on a %zu-byte store returned %d (%s)", n, st,
            idlelock_status_name(st));
    REQUIRE(!older_than_mark || st == IDLELOCK_ERR_STORAGE,
            "a store older than the mark opened (generation %llu, mark %llu)",
            (unsigned long long)file_gen, (unsigned long long)mark.generation);
    if (st != IDLELOCK_OK) {
        REQUIRE(h == NULL, "create failed but *out is %p", (void *)h);
        REQUIRE(idlelock_last_error()[0] != '\0', "STORAGE without a message");
        after = read_file(path, &after_n);
        REQUIRE(after != NULL && after_n == n && memcmp(after, file, n) == 0,
                "a store create refused was changed (%zu bytes, now %zu)", n, after_n);
        free(after);
        REQUIRE(fuzz_mark_slurp(lock_path, lock_now) == lock_len && memcmp(lock_now, lock_in, lock_len) == 0,
                "a create refused changed <store>.lock");
        free(file);
        fuzz_dir_clear();
        return 0;
    }
    {
        /* Opened: the mark names this sign-in at its generation or later
         * (create raises it under the store lock), or a later version's
         * file is left as it was. */
        fuzz_mark now = fuzz_mark_read(lock_path, keyed ? fuzz_seed_device_key : NULL);
        if (mark.state == FUZZ_MARK_NEWER) {
            REQUIRE(fuzz_mark_slurp(lock_path, lock_now) == lock_len && memcmp(lock_now, lock_in, lock_len) == 0,
                    "a later version's <store>.lock was written over");
        } else if (fuzz_store_identity(file, n, &file_gen, file_session)) {
            REQUIRE(now.state == FUZZ_MARK_SET && memcmp(now.session, file_session, 16) == 0 &&
                        now.generation >= file_gen,
                    "after create the mark is state %d generation %llu for a store at %llu", now.state,
                    (unsigned long long)now.generation, (unsigned long long)file_gen);
        }
    }

    /* Opened: the file decoded, so its fields are as written. */
    REQUIRE(h != NULL, "create OK with NULL");
    REQUIRE(n >= 392 + 32, "a %zu-byte store opened", n);
    {
        uint32_t max = le32(file + 40), failed = le32(file + 44), saved_state = le32(file + 48);
        uint32_t locked_out = le32(file + 100);
        uint64_t ops = le64(file + 24), mem = le64(file + 32);
        REQUIRE(ops >= IDLELOCK_KDF_OPSLIMIT_MIN && ops <= IDLELOCK_KDF_OPSLIMIT_MAX &&
                    mem >= IDLELOCK_KDF_MEMLIMIT_MIN && mem <= IDLELOCK_KDF_MEMLIMIT_MAX,
                "opened with Argon2id limits %llu/%llu", (unsigned long long)ops, (unsigned long long)mem);
        REQUIRE(max >= 1 && max <= IDLELOCK_MAX_ATTEMPTS_MAX && failed <= max, "opened with count %u of %u", failed, max);
        REQUIRE(locked_out <= 1 && saved_state <= 1, "opened with lockout %u saved state %u", locked_out, saved_state);
        max_attempts = (int)max;
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        REQUIRE(idlelock_snapshot_get(h, &s) == IDLELOCK_OK, "snapshot_get after create");
        check_snapshot(&s, max_attempts);
        REQUIRE(s.is_enabled == 1, "a store opened but the lock is not engaged");
        if (locked_out || failed == max) {
            REQUIRE(s.state == IDLELOCK_STATE_LOCKED_OUT && s.attempts_remaining == 0,
                    "a locked-out store opened as state %d with %d attempts", (int)s.state, (int)s.attempts_remaining);
        } else {
            REQUIRE(s.attempts_remaining == (int)(max - failed), "store count %u of %u but %d remaining", failed, max,
                    (int)s.attempts_remaining);
            if (!keyed || saved_state == 1)
                REQUIRE(s.state == IDLELOCK_STATE_LOCKED, "store (keyed %d, saved state %u) opened as state %d", keyed,
                        saved_state, (int)s.state);
        }
        if (s.state != IDLELOCK_STATE_UNLOCKED) {
            uint8_t buf[16];
            size_t len = sizeof buf;
            REQUIRE(idlelock_secret_get(h, fuzz_seed_secret_name, buf, &len) == IDLELOCK_ERR_SESSION_LOCKED,
                    "a locked store gave a secret");
            REQUIRE(idlelock_require_unlocked(h) == IDLELOCK_ERR_SESSION_LOCKED, "a locked store opened the gate");
        }

        now_ms += 10;
        st = idlelock_start(h, &s);
        check(h, st, &s, "start", max_attempts);
        if (s.state == IDLELOCK_STATE_UNLOCKED) {
            uint8_t buf[IDLELOCK_SECRET_VALUE_MAX_BYTES];
            size_t len = sizeof buf;
            st = idlelock_secret_get(h, fuzz_seed_secret_name, buf, &len);
            check(h, st, NULL, "secret_get", max_attempts);
            st = idlelock_secret_put(h, "fuzz", (const uint8_t *)"v", 1);
            check(h, st, NULL, "secret_put", max_attempts);
        }
        if (ops == IDLELOCK_KDF_OPSLIMIT_MIN && mem == IDLELOCK_KDF_MEMLIMIT_MIN) {
            if (ctl & 128) {
                st = idlelock_unlock(h, "wrong-pass", 10, &s);
                check(h, st, &s, "unlock (wrong)", max_attempts);
                REQUIRE(st != IDLELOCK_OK, "a wrong passcode unlocked");
            }
            if (ctl & 32) {
                st = idlelock_unlock(h, fuzz_seed_passcode, strlen(fuzz_seed_passcode), &s);
                check(h, st, &s, "unlock", max_attempts);
                if (st == IDLELOCK_OK) {
                    uint8_t buf[IDLELOCK_SECRET_VALUE_MAX_BYTES];
                    size_t len = sizeof buf;
                    REQUIRE(s.state == IDLELOCK_STATE_UNLOCKED, "unlock OK but state %d", (int)s.state);
                    st = idlelock_secret_get(h, fuzz_seed_secret_name, buf, &len);
                    check(h, st, NULL, "secret_get after unlock", max_attempts);
                }
            }
        }
        if (ctl & 8) {
            st = idlelock_unlock_with_biometrics(h, &s);
            check(h, st, &s, "unlock_with_biometrics", max_attempts);
        }
        now_ms += 100000;
        st = idlelock_check(h, &s);
        check(h, st, &s, "check", max_attempts);
        st = idlelock_lock(h, &s);
        check(h, st, &s, "lock", max_attempts);
        REQUIRE(!s.is_enabled || s.state != IDLELOCK_STATE_UNLOCKED, "still unlocked after lock");
        if (ctl & 64) {
            st = idlelock_disable(h);
            check(h, st, NULL, "disable", max_attempts);
            REQUIRE(st == IDLELOCK_OK, "disable returned %d", st);
            REQUIRE(access(path, F_OK) != 0, "the store is still there after disable");
            signed_out = 1;
        }
        went_back(h, &cfg, path, file, n, signed_out, mark.state != FUZZ_MARK_NEWER, max_attempts);
    }
    idlelock_destroy(h);
    free(file);
    fuzz_dir_clear();
    return 0;
}
