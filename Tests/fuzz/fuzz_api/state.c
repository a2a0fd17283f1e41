/* SPDX-License-Identifier: MIT */
/*
 * state.c: what the harness knows between the calls of one input (reset
 * by main.c at the start of each): the handle under test, the fakes'
 * settings, the model of the secrets, the live tokens, the store's paths.
 */
#include "fuzz_api.h"

clock_state clk;
clock_state clk_other;
fake_auth fauth;
idlelock *H;                  /* the handle under test */
int max_attempts_cfg;
int kdf_left;
int reentrant_listener;       /* a listener that can change state */
int model_valid;
model_entry model[NAME_COUNT];
uint64_t tokens[MAX_TOKENS];
uint64_t prompts[MAX_TOKENS];
int prompts_left_open;
uint64_t last_prompt_ended;
int in_load_secret;
int listener_kind[MAX_TOKENS];
uint64_t last_seq;
uint64_t listener_last_seq[MAX_TOKENS];
int listener_heard[MAX_TOKENS];
char store_path[256];
char store2_path[256];
char folder_path[300];
uint8_t last_passcode[IDLELOCK_PASSCODE_MAX_BYTES];
size_t last_passcode_len;
uint8_t saved_store[1 << 17];
ssize_t saved_store_len = -1;
const char *const unlock_reason_text = "Unlock the fuzzer";

const uint8_t device_key[IDLELOCK_DEVICE_KEY_BYTES] = {
    0x5a, 0x11, 0xe7, 0x03, 0x9c, 0x42, 0x81, 0x6f, 0x20, 0xd4, 0xbb, 0x17, 0x08, 0x66, 0xf1, 0x3e,
    0x94, 0x2d, 0x70, 0xc5, 0x1a, 0x8e, 0x53, 0xfa, 0x39, 0x07, 0xcc, 0x61, 0xb2, 0x4f, 0xd8, 0x25};

/* Fixed secret names: index 0..3 valid, 4 is 64 bytes (valid), 5 is 65
 * bytes (invalid). */
const char *name_of(int i)
{
    static char n64[65], n65[66];
    static const char *const small[] = {"token", "profile", "a", "\xc3\xa9t\xc3\xa9"};
    if (n64[0] == '\0') {
        memset(n64, 'n', 64);
        memset(n65, 'm', 65);
    }
    if (i < 4) return small[i];
    return i == 4 ? n64 : n65;
}

/* FUZZ_TRACE=1 in the environment prints each checked call; -1 until the
 * environment was read. */
int trace = -1;
/* The handle under test has a store (snapshot_get may then return STORAGE). */
int use_store_now;
/* ... and a device key (the rollback mark's check is then keyed). */
int use_key_now;
/* A second handle opened the main store: the handle under test may not
 * have seen every generation written (tamper_store.c). */
int store_shared;
