/* SPDX-License-Identifier: MIT */
/*
 * fuzz_store_seed.h: the constants shared by fuzz_store.c and the seed
 * maker (make_seeds.c): the device key, passcode and secret name the
 * committed seed stores were made with.
 */
#ifndef IDLELOCK_FUZZ_STORE_SEED_H
#define IDLELOCK_FUZZ_STORE_SEED_H

#include <stdint.h>

static const uint8_t fuzz_seed_device_key[32] = {
    0x5a, 0x11, 0xe7, 0x03, 0x9c, 0x42, 0x81, 0x6f, 0x20, 0xd4, 0xbb, 0x17, 0x08, 0x66, 0xf1, 0x3e,
    0x94, 0x2d, 0x70, 0xc5, 0x1a, 0x8e, 0x53, 0xfa, 0x39, 0x07, 0xcc, 0x61, 0xb2, 0x4f, 0xd8, 0x25};

static const char fuzz_seed_passcode[] = "fuzz-pass";
static const char fuzz_seed_secret_name[] = "token";

#endif
