/* SPDX-License-Identifier: MIT */
/*
 * fuzz_mark.h: the rollback mark in `<store>.lock`, read and sealed by the
 * harnesses from docs/STORE_FORMAT.md ("The lock file"), not from the
 * library's code, so that what the library makes of a mark is checked
 * against the document (an oracle). Header-only; not part of the library.
 *
 * Two slots of 80 bytes (offsets 0 and 80), each: magic "IDLKMARK",
 * version (u32, 1), flags (u32, bit 0: made with a device key), sequence
 * (u64), session_id (16 bytes), generation (u64), and a BLAKE2b-256 check
 * of the slot's first 48 bytes, keyed with crypto_kdf_derive_from_key
 * subkey 4 of context "idlkstor" when there is a device key. The mark is
 * the valid slot with the higher sequence; a slot with the magic and a
 * higher version makes the file a later library's (neither read nor
 * written).
 */
#ifndef IDLELOCK_FUZZ_MARK_H
#define IDLELOCK_FUZZ_MARK_H

#include <fcntl.h>
#include <sodium.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_MARK_SLOT_BYTES 80
#define FUZZ_MARK_BYTES 160

enum { FUZZ_MARK_NONE = 0, FUZZ_MARK_SET = 1, FUZZ_MARK_NEWER = 2 };

typedef struct fuzz_mark {
    int state; /* FUZZ_MARK_* */
    uint8_t session[16];
    uint64_t generation;
} fuzz_mark;

static inline uint64_t fuzz_mark_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* The check of a slot's first 48 bytes; `key`: the 32-byte device key, or
 * NULL. */
static inline void fuzz_mark_check(const uint8_t *body, const uint8_t *key, uint8_t out[32])
{
    if (key != NULL) {
        uint8_t sub[32];
        crypto_kdf_derive_from_key(sub, sizeof sub, 4, "idlkstor", key);
        crypto_generichash(out, 32, body, 48, sub, sizeof sub);
    } else {
        crypto_generichash(out, 32, body, 48, NULL, 0);
    }
}

/* What `bytes` (a lock file's first bytes) hold, for a handle with `key`
 * (NULL: none). */
static inline fuzz_mark fuzz_mark_parse(const uint8_t *bytes, size_t n, const uint8_t *key)
{
    fuzz_mark m;
    uint64_t best = 0;
    memset(&m, 0, sizeof m);
    for (size_t slot = 0; slot < 2; slot++) {
        const uint8_t *p = bytes + slot * FUZZ_MARK_SLOT_BYTES;
        uint8_t check[32];
        uint64_t version, sequence;
        if (n < (slot + 1) * FUZZ_MARK_SLOT_BYTES) break;
        if (memcmp(p, "IDLKMARK", 8) != 0) continue;
        version = fuzz_mark_le(p + 8, 4);
        if (version > 1) {
            m.state = FUZZ_MARK_NEWER;
            return m;
        }
        if (version != 1 || fuzz_mark_le(p + 12, 4) != (key != NULL ? 1u : 0u)) continue;
        fuzz_mark_check(p, key, check);
        if (memcmp(check, p + 48, 32) != 0) continue;
        sequence = fuzz_mark_le(p + 16, 8);
        if (m.state == FUZZ_MARK_SET && best >= sequence) continue;
        m.state = FUZZ_MARK_SET;
        best = sequence;
        memcpy(m.session, p + 24, 16);
        m.generation = fuzz_mark_le(p + 40, 8);
    }
    return m;
}

/* The lock file's first bytes (0 when absent); returns the count. */
static inline size_t fuzz_mark_slurp(const char *lock_path, uint8_t bytes[FUZZ_MARK_BYTES])
{
    int fd = open(lock_path, O_RDONLY);
    ssize_t got;
    if (fd < 0) return 0;
    got = pread(fd, bytes, FUZZ_MARK_BYTES, 0);
    close(fd);
    return got > 0 ? (size_t)got : 0;
}

static inline fuzz_mark fuzz_mark_read(const char *lock_path, const uint8_t *key)
{
    uint8_t bytes[FUZZ_MARK_BYTES];
    size_t n = fuzz_mark_slurp(lock_path, bytes);
    return fuzz_mark_parse(bytes, n, key);
}

/* Recomputes the check of every complete slot of `bytes` that carries the
 * magic, for `key` (an input's mark can then be valid). */
static inline void fuzz_mark_seal(uint8_t *bytes, size_t n, const uint8_t *key)
{
    for (size_t slot = 0; slot < 2; slot++) {
        uint8_t *p = bytes + slot * FUZZ_MARK_SLOT_BYTES;
        if (n < (slot + 1) * FUZZ_MARK_SLOT_BYTES) break;
        if (memcmp(p, "IDLKMARK", 8) == 0) fuzz_mark_check(p, key, p + 48);
    }
}

/* The store file's generation and session id (offsets 16 and 104), when
 * it is long enough and has the magic; 0 otherwise. */
static inline int fuzz_store_identity(const uint8_t *file, size_t n, uint64_t *generation, uint8_t session[16])
{
    if (n < 120 || memcmp(file, "IDLELOCK", 8) != 0) return 0;
    *generation = fuzz_mark_le(file + 16, 8);
    memcpy(session, file + 104, 16);
    return 1;
}

#endif
