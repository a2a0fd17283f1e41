/* SPDX-License-Identifier: MIT */
/* The per-thread last-error buffer behind idlelock_last_error(). */
#include "idlelock_support.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define ILK_ERROR_CAP 512

static _Thread_local char ilk_error_buf[ILK_ERROR_CAP];

static int ilk_clamp(size_t len) {
    return (int)(len > ILK_ERROR_CAP ? ILK_ERROR_CAP : len);
}

void ilk_error_set(const uint8_t *fn, size_t fn_len, const uint8_t *head,
                   size_t head_len, int has_value, int64_t value,
                   const uint8_t *tail, size_t tail_len) {
    char number[24] = "";
    if (has_value) {
        snprintf(number, sizeof number, "%" PRId64, value);
    }
    snprintf(ilk_error_buf, sizeof ilk_error_buf, "%.*s: %.*s%s%.*s",
             ilk_clamp(fn_len), fn ? (const char *)fn : "",
             ilk_clamp(head_len), head ? (const char *)head : "", number,
             ilk_clamp(tail_len), tail ? (const char *)tail : "");
}

void ilk_error_append(const uint8_t *text, size_t text_len, int has_value, int64_t value) {
    size_t used = strlen(ilk_error_buf); /* snprintf always ends it */
    char number[24] = "";
    if (has_value) {
        snprintf(number, sizeof number, "%" PRId64, value);
    }
    snprintf(ilk_error_buf + used, sizeof ilk_error_buf - used, "%.*s%s",
             ilk_clamp(text_len), text ? (const char *)text : "", number);
}

const char *ilk_error_get(void) { return ilk_error_buf; }
