/* SPDX-License-Identifier: MIT */
/* The per-thread last-error buffer behind idlelock_last_error().
 *
 * Two ways to keep one buffer per thread:
 *   - a _Thread_local array (every build but Android's);
 *   - a pthread key whose value is the thread's buffer, allocated at the
 *     thread's first failed call and freed when the thread ends
 *     (ILK_LAST_ERROR_PTHREAD_KEY; every Android build). Android's ELF TLS
 *     begins at API 29: below it the NDK's clang turns _Thread_local into
 *     emulated TLS (__emutls_get_address from its runtime), which a library
 *     built against the API-24 stubs here does not have, and a PT_TLS
 *     segment would not load (docs/PLATFORMS.md, "Android").
 * Both behave alike: never NULL, "" before the thread's first failure, the
 * message cut at 511 bytes. The key's one difference: a thread that cannot
 * get a buffer (no memory) keeps no message, and reads "". */
#include "idlelock_support.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#if defined(__ANDROID__) && !defined(ILK_LAST_ERROR_PTHREAD_KEY)
#define ILK_LAST_ERROR_PTHREAD_KEY 1
#endif

#define ILK_ERROR_CAP 512

#if defined(ILK_LAST_ERROR_PTHREAD_KEY)
#include <pthread.h>
#include <stdlib.h>

static pthread_key_t ilk_error_key;
static pthread_once_t ilk_error_once = PTHREAD_ONCE_INIT;
static int ilk_error_key_ok;

static void ilk_error_make_key(void) {
    ilk_error_key_ok = pthread_key_create(&ilk_error_key, free) == 0;
}

/* A library can be unloaded (dlclose) and loaded again: the key goes with
 * it, or each load would take another of the process's few keys (bionic
 * has 128). The unloading thread's buffer is freed; those of other threads
 * still running are not (their exit no longer frees them). */
__attribute__((destructor)) static void ilk_error_delete_key(void) {
    if (ilk_error_key_ok) {
        free(pthread_getspecific(ilk_error_key));
        pthread_key_delete(ilk_error_key);
        ilk_error_key_ok = 0;
    }
}

/* This thread's buffer; with `create`, allocated if it has none. NULL
 * when there is none (or no key, or no memory). */
static char *ilk_error_buffer(int create) {
    if (pthread_once(&ilk_error_once, ilk_error_make_key) != 0 || !ilk_error_key_ok) {
        return NULL;
    }
    char *buf = pthread_getspecific(ilk_error_key);
    if (buf == NULL && create) {
        buf = calloc(1, ILK_ERROR_CAP);
        if (buf != NULL && pthread_setspecific(ilk_error_key, buf) != 0) {
            free(buf);
            buf = NULL;
        }
    }
    return buf;
}
#else
static _Thread_local char ilk_error_tls[ILK_ERROR_CAP];

static char *ilk_error_buffer(int create) {
    (void)create;
    return ilk_error_tls;
}
#endif

static int ilk_clamp(size_t len) {
    return (int)(len > ILK_ERROR_CAP ? ILK_ERROR_CAP : len);
}

void ilk_error_set(const uint8_t *fn, size_t fn_len, const uint8_t *head,
                   size_t head_len, int has_value, int64_t value,
                   const uint8_t *tail, size_t tail_len) {
    char *buf = ilk_error_buffer(1);
    if (buf == NULL) {
        return;
    }
    char number[24] = "";
    if (has_value) {
        snprintf(number, sizeof number, "%" PRId64, value);
    }
    snprintf(buf, ILK_ERROR_CAP, "%.*s: %.*s%s%.*s",
             ilk_clamp(fn_len), fn ? (const char *)fn : "",
             ilk_clamp(head_len), head ? (const char *)head : "", number,
             ilk_clamp(tail_len), tail ? (const char *)tail : "");
}

void ilk_error_append(const uint8_t *text, size_t text_len, int has_value, int64_t value) {
    char *buf = ilk_error_buffer(1);
    if (buf == NULL) {
        return;
    }
    size_t used = strlen(buf); /* snprintf always ends it */
    char number[24] = "";
    if (has_value) {
        snprintf(number, sizeof number, "%" PRId64, value);
    }
    snprintf(buf + used, ILK_ERROR_CAP - used, "%.*s%s", ilk_clamp(text_len), text ? (const char *)text : "",
             number);
}

const char *ilk_error_get(void) {
    const char *buf = ilk_error_buffer(0);
    return buf != NULL ? buf : "";
}
