/* SPDX-License-Identifier: MIT */
/* Internal support for libidlelock: the per-thread last-error message.
 * Embedded Swift has no thread-locals, so the buffer lives here in C. These
 * names are not exported from libidlelock.so (see idlelock.map). */
#ifndef IDLELOCK_SUPPORT_H
#define IDLELOCK_SUPPORT_H
#include <stddef.h>
#include <stdint.h>

/* Replace this thread's message with "<fn>: <head><value><tail>": the
 * decimal `value` only when has_value is non-zero. fn, head and tail are
 * UTF-8 of the given lengths (not NUL-terminated); the message is cut at
 * 511 bytes. */
void ilk_error_set(const uint8_t *fn, size_t fn_len, const uint8_t *head,
                   size_t head_len, int has_value, int64_t value,
                   const uint8_t *tail, size_t tail_len);

/* Append "<text><value>" to this thread's message (the decimal `value`
 * only when has_value is non-zero), within the same 511 bytes: a message
 * that lists what is valid (idlelock_lifecycle's names). */
void ilk_error_append(const uint8_t *text, size_t text_len, int has_value, int64_t value);

/* This thread's message, NUL-terminated, "" before the first failure. */
const char *ilk_error_get(void);

/* The v1 sizes of the public structs (struct_sizes.c): the smallest `size`
 * the library accepts from a host. */
size_t ilk_snapshot_size_v1(void);
size_t ilk_authenticator_size_v1(void);
/* 1 when a config of `size` bytes matches a version of the header (the
 * sizes of every version, with their trailing padding), else 0. */
int ilk_config_size_matches(size_t size);

/* Zeroes the vector registers (scrub_registers.c): called after a secret
 * was decrypted, so no fragment of it is left where a later register save
 * would spill it to a stack. */
void ilk_scrub_vector_registers(void);
#endif
