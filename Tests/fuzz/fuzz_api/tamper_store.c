/* SPDX-License-Identifier: MIT */
/*
 * tamper_store.c: the store file changed between calls: deleted,
 * truncated, a bit flipped, saved and rolled back, a stray temporary.
 *
 * A store that goes back a generation (docs/STORE.md, "Rollback"): when
 * the copy put back is of the sign-in the mark in `<store>.lock` names
 * (read by fuzz_mark.h from the document) and of a lower generation than
 * the mark, a new create must refuse it (STORAGE), and so must the handle
 * under test at its next gate (STORAGE; it is then not unlocked), when no
 * second handle wrote the store behind its back (the cheap look of a
 * handle takes a copy of the very generation it last saw as unchanged).
 */
#include <fcntl.h>

#include "fuzz_api.h"
#include "fuzz_mark.h"

static void older_copy_refused(void)
{
    idlelock_config cfg;
    idlelock *other = (idlelock *)(uintptr_t)1;
    int st;
    if (!store_shared) {
        st = idlelock_require_unlocked(H);
        check_status(st, "require_unlocked on an older copy of the store");
        REQUIRE(st == IDLELOCK_ERR_STORAGE, "the handle took an older copy of its store (status %d)", st);
        if (!reentrant_listener) {
            idlelock_snapshot s = snap_now();
            REQUIRE(!s.is_enabled || s.state != IDLELOCK_STATE_UNLOCKED, "unlocked on an older copy of the store");
        }
    }
    REQUIRE(idlelock_config_init(&cfg, sizeof cfg) == IDLELOCK_OK, "config_init");
    cfg.idle_after_ms = 60000;
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    cfg.store_path = store_path;
    cfg.clock = fuzz_clock;
    cfg.clock_ctx = &clk;
    if (use_key_now) {
        cfg.device_key = device_key;
        cfg.device_key_len = sizeof device_key;
    }
    st = idlelock_create(&cfg, &other);
    check_status(st, "create on an older copy of the store");
    REQUIRE(st == IDLELOCK_ERR_STORAGE, "a new handle took an older copy of the store (status %d)", st);
    REQUIRE(other == NULL, "create failed but *out is %p", (void *)other);
}

void tamper_store(reader *r)
{
    uint8_t sel = rd_u8(r) % 6;
    int fd;
    struct stat st;
    model_valid = 0; /* the model no longer predicts the secrets */
    switch (sel) {
    case 0: unlink(store_path); break;
    case 1:
        if (stat(store_path, &st) == 0) (void)truncate(store_path, (off_t)(rd_u16(r) % (st.st_size + 1)));
        break;
    case 2:
        fd = open(store_path, O_RDWR);
        if (fd >= 0) {
            if (fstat(fd, &st) == 0 && st.st_size > 0) {
                off_t off = (off_t)(rd_u32(r) % (uint32_t)st.st_size);
                uint8_t b = 0;
                if (pread(fd, &b, 1, off) == 1) {
                    b ^= (uint8_t)(1u << (rd_u8(r) % 8));
                    (void)pwrite(fd, &b, 1, off);
                }
            }
            close(fd);
        }
        break;
    case 3: /* remember the file as it is now */
        fd = open(store_path, O_RDONLY);
        saved_store_len = -1;
        if (fd >= 0) {
            saved_store_len = read(fd, saved_store, sizeof saved_store);
            close(fd);
        }
        break;
    case 4: /* roll back to the remembered file */
        if (saved_store_len >= 0) {
            char lock[300];
            uint8_t session[16];
            uint64_t generation = 0;
            fuzz_mark mark;
            int older;
            snprintf(lock, sizeof lock, "%s.lock", store_path);
            mark = fuzz_mark_read(lock, use_key_now ? device_key : NULL);
            older = mark.state == FUZZ_MARK_SET &&
                    fuzz_store_identity(saved_store, (size_t)saved_store_len, &generation, session) &&
                    memcmp(session, mark.session, 16) == 0 && generation < mark.generation;
            fd = open(store_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd >= 0) {
                (void)write(fd, saved_store, (size_t)saved_store_len);
                close(fd);
            }
            if (trace > 0)
                fprintf(stderr, "trace: store rolled back to generation %llu (mark %llu): %s\n",
                        (unsigned long long)generation, (unsigned long long)mark.generation,
                        older ? "an older copy" : "no rollback the mark sees");
            if (older && fd >= 0) older_copy_refused();
        }
        break;
    default: { /* a stray temporary file beside it */
        char tmp[300];
        snprintf(tmp, sizeof tmp, "%s.tmp.%06u", store_path, (unsigned)(rd_u16(r) % 1000000));
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) close(fd);
        break;
    }
    }
}
