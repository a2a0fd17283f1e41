/* SPDX-License-Identifier: MIT */
/*
 * ops.c: one input's sequence of calls on the handle under test:
 * the events, the clock, passcodes, biometrics, listeners, secrets, the
 * gate, lifecycle names, prompts, the watcher, bad snapshot sizes.
 */
#include "fuzz_api.h"

static int64_t step(int64_t now, int64_t delta)
{
    return (int64_t)((uint64_t)now + (uint64_t)delta);
}

void run_ops(reader *r, int use_store)
{
    int ops = 0;
    while (r->n > 0 && ops++ < MAX_OPS) {
        uint8_t op = rd_u8(r) % 33;
        int st;
        if (trace > 0) fprintf(stderr, "trace: op %u\n", (unsigned)op);
        pair_observer_tidy();
        switch (op) {
        case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: {
            static const char *const names[] = {"touch", "inactive", "background", "foreground",
                                                "check", "lock", "start", "snapshot_get"};
            out_arg o = make_out(r);
            switch (op) {
            case 0: st = idlelock_touch(H, o.p); break;
            case 1: st = idlelock_inactive(H, o.p); break;
            case 2: st = idlelock_background(H, o.p); break;
            case 3: st = idlelock_foreground(H, o.p); break;
            case 4: st = idlelock_check(H, o.p); break;
            case 5: st = idlelock_lock(H, o.p); break;
            case 6: st = idlelock_start(H, o.p); break;
            default:
                st = idlelock_snapshot_get(H, o.p);
                if (o.p == NULL) REQUIRE(st == IDLELOCK_ERR_INVALID_ARGUMENT, "snapshot_get(NULL out)");
                break;
            }
            check_status(st, names[op]);
            if (!o.bad && o.p != NULL)
                REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE), "%s returned %d",
                        names[op], st);
            finish_out(&o, st, names[op]);
            break;
        }
        case 8: { /* the clock */
            uint8_t k = rd_u8(r) % 9;
            static const int64_t extremes[] = {INT64_MAX, INT64_MIN, 0, -1, INT64_MAX - 1, INT64_MIN + 1};
            switch (k) {
            /* Steps wrap (as unsigned): past INT64_MAX is a jump backwards. */
            case 0: case 1: case 2: clk.now = step(clk.now, (int64_t)rd_u8(r) * 10); break;
            case 3: clk.now = step(clk.now, rd_u16(r)); break;
            case 4: clk.now = step(clk.now, (int64_t)rd_u32(r)); break;
            case 5: clk.now = step(clk.now, -(int64_t)rd_u16(r)); break;
            case 6: clk.now = extremes[rd_u8(r) % 6]; break;
            case 7: clk.now = (int64_t)rd_u64(r); break;
            default: clk.now = step(clk.now, 1500 + rd_u8(r) % 3 - 1); break; /* the grace edge */
            }
            if (trace > 0) fprintf(stderr, "trace: clock now %lld\n", (long long)clk.now);
            break;
        }
        case 9: case 10: { /* set_passcode / unlock */
            int is_set = op == 9;
            pass_arg a = make_pass(r, is_set);
            out_arg o = is_set ? (out_arg){0} : make_out(r);
            if (a.kdf && kdf_left <= 0) {
                free(a.owned);
                finish_out(&o, IDLELOCK_ERR_INVALID_ARGUMENT, "unused");
                break;
            }
            if (a.bad || o.bad) {
                if (is_set) EXPECT_INVALID(idlelock_set_passcode(H, a.p, a.len), "set_passcode(bad)");
                else EXPECT_INVALID(idlelock_unlock(H, a.p, a.len, o.p), "unlock(bad)");
                o.bad = 1;
                finish_out(&o, IDLELOCK_ERR_INVALID_ARGUMENT, "unlock(bad)");
            } else {
                kdf_left--;
                if (is_set) {
                    st = idlelock_set_passcode(H, a.p, a.len);
                    check_status(st, "set_passcode");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "set_passcode refused %zu bytes of valid UTF-8",
                            a.len);
                    if (st == IDLELOCK_OK) {
                        memcpy(last_passcode, a.p, a.len);
                        last_passcode_len = a.len;
                        pair_void_all(); /* a new passcode voids every biometric request */
                    }
                } else {
                    st = idlelock_unlock(H, a.p, a.len, o.p);
                    check_status(st, "unlock");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "unlock refused %zu bytes of valid UTF-8", a.len);
                    if (st == IDLELOCK_ERR_RETRY_LATER) {
                        kdf_left++; /* refused before any key derivation */
                        if (o.p != NULL && o.size >= END_OF(idlelock_snapshot, ms_until_next_deadline))
                            REQUIRE(o.p->ms_until_retry > 0, "RETRY_LATER with ms_until_retry %lld",
                                    (long long)o.p->ms_until_retry);
                    }
                    finish_out(&o, st, "unlock");
                }
            }
            free(a.owned);
            break;
        }
        case 11: { /* the fake authenticator's next behaviour */
            uint8_t b = rd_u8(r);
            static const int32_t answers[] = {IDLELOCK_AUTH_OK, IDLELOCK_AUTH_OK, IDLELOCK_AUTH_FAILED,
                                              IDLELOCK_AUTH_CANCELLED, IDLELOCK_AUTH_UNAVAILABLE, 77, -1,
                                              IDLELOCK_AUTH_OK};
            fauth.available = (b & 1) == 0;
            fauth.fail_store = (b & 2) != 0 && (b & 4) != 0;
            fauth.answer = answers[(b >> 3) & 7];
            fauth.bad_len = (b & 0x40) != 0 && (b & 0x80) != 0;
            fauth.corrupt = (b & 0x40) != 0 && (b & 0x80) == 0 && (b & 4) == 0;
            fauth.reenter = (b >> 6) == 2 ? 1 + rd_u8(r) % 3 : 0;
            break;
        }
        case 12:
            st = idlelock_enable_biometrics(H);
            check_status(st, "enable_biometrics");
            if (st == IDLELOCK_OK) pair_shortcut_replaced(); /* a new wrap */
            break;
        case 13:
            st = idlelock_disable_biometrics(H);
            check_status(st, "disable_biometrics");
            if (st == IDLELOCK_OK) pair_void_all();
            break;
        case 14: {
            out_arg o = make_out(r);
            st = idlelock_unlock_with_biometrics(H, o.p);
            check_status(st, "unlock_with_biometrics");
            finish_out(&o, st, "unlock_with_biometrics");
            break;
        }
        case 15: {
            idlelock_snapshot s;
            st = idlelock_disable(H);
            check_status(st, "disable");
            REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE), "disable returned %d", st);
            pair_void_all(); /* in memory first, whatever the store said */
            for (int i = 0; i < NAME_COUNT; i++) {
                free(model[i].value);
                memset(&model[i], 0, sizeof model[i]);
            }
            last_passcode_len = 0;
            s = snap_now();
            REQUIRE(!s.is_enabled && s.state == IDLELOCK_STATE_UNLOCKED && !s.is_biometrics_enabled &&
                        s.attempts_remaining == max_attempts_cfg,
                    "after disable: enabled %d state %d bio %d attempts %d", (int)s.is_enabled, (int)s.state,
                    (int)s.is_biometrics_enabled, (int)s.attempts_remaining);
            break;
        }
        case 16: { /* subscribe */
            int slot = rd_u8(r) % MAX_TOKENS;
            uint8_t k = rd_u8(r) % 8;
            uint64_t tok = 0;
            if (k == 7) {
                EXPECT_INVALID(idlelock_subscribe(H, NULL, NULL, &tok), "subscribe(NULL fn)");
                EXPECT_INVALID(idlelock_subscribe(H, listener_other, NULL, NULL), "subscribe(NULL token)");
                break;
            }
            if (tokens[slot] != 0) break;
            listener_kind[slot] = k % 5;
            listener_heard[slot] = 0;
            if (listener_kind[slot] == 2 || listener_kind[slot] == 4) reentrant_listener = 1;
            st = idlelock_subscribe(H, listener, (void *)(intptr_t)slot, &tok);
            check_status(st, "subscribe");
            REQUIRE(st == IDLELOCK_OK && tok != 0, "subscribe returned %d token %llu", st, (unsigned long long)tok);
            for (int i = 0; i < MAX_TOKENS; i++) REQUIRE(tokens[i] != tok, "token %llu given twice", (unsigned long long)tok);
            tokens[slot] = tok;
            break;
        }
        case 17: { /* unsubscribe */
            int slot = rd_u8(r) % MAX_TOKENS;
            if (tokens[slot] != 0) {
                st = idlelock_unsubscribe(H, tokens[slot]);
                REQUIRE(st == IDLELOCK_OK, "unsubscribe of a live token returned %d", st);
                tokens[slot] = 0;
            } else {
                uint64_t bogus = rd_u8(r) % 2 ? 0 : rd_u64(r) | (1ull << 62);
                EXPECT_INVALID(idlelock_unsubscribe(H, bogus), "unsubscribe(unknown token)");
            }
            break;
        }
        case 18: case 19: case 20: { /* secrets */
            uint8_t ns = rd_u8(r) % 10;
            const char *name;
            char *fuzz_name = NULL;
            int idx = -1, name_bad = 0;
            if (ns < NAME_COUNT) {
                idx = ns;
                name = name_of(idx);
                name_bad = idx == 5;
            } else if (ns == 6) {
                name = NULL;
                name_bad = 1;
            } else if (ns == 7) {
                name = "";
                name_bad = 1;
            } else {
                const uint8_t *b;
                size_t n = rd_take(r, rd_u8(r) % 72, &b);
                size_t m = 0;
                fuzz_name = malloc(n + 1);
                if (fuzz_name == NULL) abort();
                for (size_t i = 0; i < n; i++) if (b[i] != 0) fuzz_name[m++] = (char)b[i];
                fuzz_name[m] = '\0';
                name = fuzz_name;
                name_bad = m == 0 || m > IDLELOCK_SECRET_NAME_MAX_BYTES || utf8_scalars((const uint8_t *)name, m) < 0;
                for (int i = 0; i < NAME_COUNT && !name_bad; i++)
                    if (strcmp(name, name_of(i)) == 0) idx = i;
                if (idx < 0) model_valid = 0; /* names outside the model */
            }
            if (op == 18) { /* put */
                uint8_t ds = rd_u8(r) % 8;
                const uint8_t *b;
                uint8_t *data = NULL;
                size_t len = 0;
                int bad = name_bad;
                switch (ds) {
                case 0: data = NULL; len = 0; break;
                case 1: data = NULL; len = 1 + rd_u8(r); bad = 1; break;
                case 2: data = exact_copy((const uint8_t *)"x", 1); len = SIZE_MAX - rd_u8(r); bad = 1; break;
                case 3: data = exact_copy((const uint8_t *)"x", 1); len = IDLELOCK_SECRET_VALUE_MAX_BYTES + 1; bad = 1; break;
                case 4:
                    len = IDLELOCK_SECRET_VALUE_MAX_BYTES - rd_u8(r) % 2;
                    data = malloc(len);
                    if (data == NULL) abort();
                    memset(data, rd_u8(r), len);
                    break;
                default:
                    len = rd_take(r, rd_u8(r) % 48, &b);
                    data = exact_copy(b, len);
                    break;
                }
                if (bad) {
                    EXPECT_INVALID(idlelock_secret_put(H, name, data, len), "secret_put(bad)");
                } else {
                    st = idlelock_secret_put(H, name, data, len);
                    check_status(st, "secret_put");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "secret_put refused a valid name/value (%zu)", len);
                    if (st == IDLELOCK_OK && idx >= 0) {
                        free(model[idx].value);
                        model[idx].value = exact_copy(data == NULL ? (const uint8_t *)"" : data, len);
                        model[idx].len = len;
                        model[idx].present = 1;
                    }
                }
                free(data);
            } else if (op == 19) { /* get */
                uint8_t bs = rd_u8(r) % 6;
                uint8_t *buf = NULL;
                size_t cap = 0;
                size_t *lenp = &cap;
                int bad = name_bad;
                switch (bs) {
                case 0: buf = NULL; cap = 0; break;
                case 1: buf = NULL; cap = 1 + rd_u8(r); bad = 1; break;
                case 2: lenp = NULL; buf = malloc(8); bad = 1; break;
                case 3: cap = rd_u8(r) % 8; buf = malloc(cap == 0 ? 1 : cap); break;
                default: cap = IDLELOCK_SECRET_VALUE_MAX_BYTES; buf = malloc(cap); break;
                }
                if (bad) {
                    EXPECT_INVALID(idlelock_secret_get(H, name, buf, lenp), "secret_get(bad)");
                } else {
                    size_t asked = cap;
                    st = idlelock_secret_get(H, name, buf, lenp);
                    check_status(st, "secret_get");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "secret_get refused valid arguments");
                    if (st == IDLELOCK_OK) {
                        REQUIRE(cap <= asked, "secret_get: %zu bytes into %zu", cap, asked);
                        if (!reentrant_listener)
                            REQUIRE(snap_now().state == IDLELOCK_STATE_UNLOCKED, "secret_get OK while locked");
                    }
                    if (st == IDLELOCK_ERR_BUFFER_TOO_SMALL) REQUIRE(cap > asked, "BUFFER_TOO_SMALL but needs %zu <= %zu", cap, asked);
                    if (model_valid && idx >= 0) {
                        if (st == IDLELOCK_OK) {
                            REQUIRE(model[idx].present, "secret %d read back but never put", idx);
                            REQUIRE(cap == model[idx].len && (cap == 0 || memcmp(buf, model[idx].value, cap) == 0),
                                    "secret %d read back differs (%zu vs %zu bytes)", idx, cap, model[idx].len);
                        } else if (st == IDLELOCK_ERR_NOT_FOUND) {
                            REQUIRE(!model[idx].present, "secret %d put but NOT_FOUND", idx);
                        } else if (st == IDLELOCK_ERR_BUFFER_TOO_SMALL) {
                            REQUIRE(model[idx].present && cap == model[idx].len, "secret %d: needs %zu, model %zu", idx,
                                    cap, model[idx].len);
                        }
                    }
                }
                free(buf);
            } else { /* remove */
                if (name_bad) {
                    EXPECT_INVALID(idlelock_secret_remove(H, name), "secret_remove(bad)");
                } else {
                    st = idlelock_secret_remove(H, name);
                    check_status(st, "secret_remove");
                    REQUIRE(st != IDLELOCK_ERR_INVALID_ARGUMENT, "secret_remove refused a valid name");
                    if (model_valid && idx >= 0) {
                        if (st == IDLELOCK_ERR_NOT_FOUND) REQUIRE(!model[idx].present, "remove: %d NOT_FOUND", idx);
                        if (st == IDLELOCK_OK) REQUIRE(model[idx].present, "remove: %d never put", idx);
                    }
                    if (st == IDLELOCK_OK && idx >= 0) {
                        free(model[idx].value);
                        memset(&model[idx], 0, sizeof model[idx]);
                    }
                }
            }
            free(fuzz_name);
            break;
        }
        case 21:
            st = idlelock_require_unlocked(H);
            check_status(st, "require_unlocked");
            REQUIRE(st == IDLELOCK_OK || st == IDLELOCK_ERR_SESSION_LOCKED || (use_store && st == IDLELOCK_ERR_STORAGE),
                    "require_unlocked returned %d", st);
            if (!reentrant_listener && st == IDLELOCK_OK)
                REQUIRE(snap_now().state == IDLELOCK_STATE_UNLOCKED, "gate open while locked");
            if (st == IDLELOCK_ERR_SESSION_LOCKED)
                REQUIRE(snap_now().state != IDLELOCK_STATE_UNLOCKED || reentrant_listener, "gate shut while unlocked");
            break;
        case 22:
            null_handle_calls(r);
            break;
        case 23:
            second_handle(r);
            break;
        case 24:
            if (use_store) tamper_store(r);
            break;
        case 26: { /* lifecycle adapters */
            static const char *const names[] = {"active", "inactive", "background", "ON_CREATE", "ON_START",
                                                "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY", "resumed",
                                                "hidden", "paused", "detached", "unknown", "extension",
                                                "Active", "ON_STOP ", "", "\xff"};
            int32_t platform = (int32_t)(rd_u8(r) % 8) - 1; /* -1..6: 1..5 exist */
            uint8_t ns = rd_u8(r) % 21;
            const char *name = ns < 19 ? names[ns] : NULL;
            char *fuzz_name = NULL;
            out_arg o = make_out(r);
            int known = 0;
            if (ns == 20) {
                const uint8_t *b;
                size_t n = rd_take(r, rd_u8(r) % 16, &b);
                fuzz_name = malloc(n + 1);
                if (fuzz_name == NULL) abort();
                memcpy(fuzz_name, b, n);
                fuzz_name[n] = '\0';
                name = fuzz_name;
            }
            if (name != NULL && platform >= 1 && platform <= 5) {
                /* The platforms' own spellings (include/idlelock.h, README). */
                static const char *const ios[] = {"active", "inactive", "background", NULL};
                static const char *const android[] = {"ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE",
                                                      "ON_STOP", "ON_DESTROY", NULL};
                static const char *const flutter[] = {"resumed", "inactive", "hidden", "paused", "detached", NULL};
                static const char *const rn[] = {"active", "inactive", "background", "unknown", "extension", NULL};
                const char *const *table = platform <= 2 ? ios : platform == 3 ? android : platform == 4 ? flutter : rn;
                for (int i = 0; table[i] != NULL; i++) if (strcmp(table[i], name) == 0) known = 1;
            }
            if (!known || o.bad) {
                EXPECT_INVALID(idlelock_lifecycle(H, platform, name, o.p), "lifecycle(bad)");
                o.bad = 1;
                finish_out(&o, IDLELOCK_ERR_INVALID_ARGUMENT, "lifecycle(bad)");
            } else {
                st = idlelock_lifecycle(H, platform, name, o.p);
                check_status(st, "lifecycle");
                REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE), "lifecycle(%d, %s) returned %d",
                        (int)platform, name, st);
                finish_out(&o, st, "lifecycle");
            }
            free(fuzz_name);
            break;
        }
        case 27: { /* prompt_begin */
            int slot = rd_u8(r) % MAX_TOKENS;
            uint64_t tok = 0;
            if (rd_u8(r) % 8 == 0) {
                EXPECT_INVALID(idlelock_prompt_begin(H, NULL), "prompt_begin(NULL token)");
                break;
            }
            st = idlelock_prompt_begin(H, &tok);
            check_status(st, "prompt_begin");
            /* Like snapshot_get, prompt_begin judges first, and returns
             * STORAGE (no token) when that locked the session and the lock
             * could not be saved: its header block lists only OK and
             * INVALID_ARGUMENT (see the report). */
            if (use_store && st == IDLELOCK_ERR_STORAGE) break;
            REQUIRE(st == IDLELOCK_OK && tok != 0, "prompt_begin returned %d token %llu", st, (unsigned long long)tok);
            for (int i = 0; i < MAX_TOKENS; i++)
                REQUIRE(prompts[i] != tok, "prompt token %llu given twice", (unsigned long long)tok);
            REQUIRE(tok != last_prompt_ended, "prompt token %llu reused", (unsigned long long)tok);
            if (prompts[slot] == 0) prompts[slot] = tok;
            else prompts_left_open++; /* its slot is taken: it stays open for good */
            break;
        }
        case 28: { /* prompt_end */
            int slot = rd_u8(r) % MAX_TOKENS;
            if (prompts[slot] != 0) {
                st = idlelock_prompt_end(H, prompts[slot]);
                check_status(st, "prompt_end");
                REQUIRE(st == IDLELOCK_OK || (use_store && st == IDLELOCK_ERR_STORAGE),
                        "prompt_end of an open prompt returned %d", st);
                last_prompt_ended = prompts[slot];
                prompts[slot] = 0;
                if (st == IDLELOCK_OK) EXPECT_INVALID(idlelock_prompt_end(H, last_prompt_ended), "prompt_end twice");
            } else {
                uint64_t bogus = rd_u8(r) % 2 ? 0 : rd_u64(r) | (1ull << 61);
                EXPECT_INVALID(idlelock_prompt_end(H, bogus), "prompt_end(unknown token)");
            }
            break;
        }
        case 30: case 31: /* the two-phase biometric pair (1.2) */
            biometric_pair_ops(r);
            break;
        case 32: /* the step-up check (1.2) */
            recent_auth_op(r);
            break;
        case 29: { /* the watcher needs the default clock: refused here */
            uint8_t k = rd_u8(r);
            if (k % 4 == 3) { /* or: destroy from inside a listener, on a handle of its own */
                destroy_in_delivery(r);
                break;
            }
            if (k % 2) EXPECT_INVALID(idlelock_watch_start(H), "watch_start with a caller clock");
            else REQUIRE(idlelock_watch_stop(H) == IDLELOCK_OK, "watch_stop of a stopped watcher");
            REQUIRE(idlelock_watch_start(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "watch_start(NULL)");
            REQUIRE(idlelock_watch_stop(NULL) == IDLELOCK_ERR_INVALID_ARGUMENT, "watch_stop(NULL)");
            break;
        }
        default: { /* a bad snapshot size on every event at once */
            idlelock_snapshot s;
            memset(&s, 0, sizeof s);
            s.size = rd_u8(r) % 2 ? 0 : (uint32_t)SNAPSHOT_V1_SIZE - 4;
            EXPECT_INVALID(idlelock_touch(H, &s), "touch(bad out)");
            EXPECT_INVALID(idlelock_lock(H, &s), "lock(bad out)");
            EXPECT_INVALID(idlelock_foreground(H, &s), "foreground(bad out)");
            EXPECT_INVALID(idlelock_snapshot_get(H, &s), "snapshot_get(bad out)");
            break;
        }
        }
    }
}
