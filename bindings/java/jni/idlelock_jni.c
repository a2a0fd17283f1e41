/* SPDX-License-Identifier: MIT */
/*
 * idlelock_jni.c: the JNI glue between org.idlelock (bindings/java/src) and
 * libidlelock (the self-contained libidlelock.so beside it in the jar and in
 * an Android app's jniLibs; build/libidlelock.so.1 in the development build
 * of mk/java.mk). It uses only what the Android NDK's libc (bionic)
 * offers: pthreads, malloc, string.h; no libsodium (its own copies of
 * passcodes and secrets are wiped with a volatile loop).
 *
 * Rules it keeps:
 *  - Strings cross as byte[] of UTF-8, never through NewStringUTF or
 *    GetStringUTFChars (JNI's modified UTF-8 writes NUL as C0 80 and a
 *    character outside the BMP as two 3-byte surrogates).
 *  - Every copy of a passcode or secret the glue makes is wiped before it
 *    is freed or goes out of scope.
 *  - The library may call back on a thread the JVM did not create (the
 *    watcher thread): such a thread is attached once, as a daemon, and
 *    detached when it ends, by the destructor of a pthread key.
 *  - Each handle's callbacks object (org.idlelock.Callbacks) is held by a
 *    weak global reference, created at create and deleted when the handle's
 *    glue state is freed; a callback that finds it cleared does nothing
 *    (the lock was collected).
 *  - The library never gets a pointer to glue memory as a callback's ctx:
 *    it gets a number (a context id, never reused) that each callback looks
 *    up in a table under a mutex, taking a reference on the handle's glue
 *    state for the length of the callback. Destroy takes the handle's ids
 *    out of the table first, so a callback the library makes after that
 *    (the rest of a delivery whose listener destroyed the handle, on any
 *    thread) finds nothing and returns; the state is freed by whoever drops
 *    the last reference (destroy, or the callback running when it was
 *    called). Nothing the library can still call is ever freed
 *    (include/idlelock.h, "Destroy and callbacks"; defence in depth).
 *  - Every callback pushes a local frame and pops it, so an attached thread
 *    that never returns to Java does not pile up local references.
 *  - Java never throws into C: Callbacks catches everything; a pending VM
 *    error (out of memory) is described and cleared before returning to C.
 *
 * Statuses are the library's, plus the glue's own (negative): -1 a listener
 * token not subscribed on this handle, -2 the glue could not allocate, -3
 * an (array, length) pair whose length does not fit the array (the Java
 * side checks first; the glue checks again and never reads or writes past
 * a Java array).
 */
#include <jni.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelock.h"
/* The snapshot's and the config's slots (SNAP_FIELDS, snapshot_slots,
 * CFG_FIELDS, config_from_slots), generated from the header with
 * org.idlelock.GeneratedTables by scripts/gen-bindings.py. */
#include "idlelock_jni_generated.h"

/* The glibc floor of the jar's natives (docs/PLATFORMS.md, 2.17): glibc
 * 2.34 moved the thread-specific-data calls into libc under a new version;
 * bind them to the version glibc has had since its first on the CPU (the
 * same code), and NEEDED lists libpthread.so.0, where a glibc before 2.34
 * keeps them. Only the jar's builds define IDLELOCK_JNI_GLIBC_FLOOR
 * (mk/java.mk); Android's bionic needs none of this. */
#if defined(IDLELOCK_JNI_GLIBC_FLOOR) && defined(__GLIBC__)
#if defined(__x86_64__)
#define JL_GLIBC_FIRST "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define JL_GLIBC_FIRST "GLIBC_2.17"
#elif defined(__arm__)
#define JL_GLIBC_FIRST "GLIBC_2.4"
#else
#error "idlelock_jni.c: add this CPU's first glibc version"
#endif
__asm__(".symver pthread_key_create, pthread_key_create@" JL_GLIBC_FIRST);
__asm__(".symver pthread_getspecific, pthread_getspecific@" JL_GLIBC_FIRST);
__asm__(".symver pthread_setspecific, pthread_setspecific@" JL_GLIBC_FIRST);
#endif

#define GLUE_NOT_SUBSCRIBED (-1)
#define GLUE_NO_MEMORY (-2)
#define GLUE_BAD_LENGTH (-3)


static JavaVM *g_vm;
static jclass g_callbacks;       /* global ref to org.idlelock.Callbacks */
static jmethodID g_on_listener, g_on_clock, g_auth_available, g_auth_store, g_auth_load, g_auth_delete;
static pthread_key_t g_attached; /* non-NULL on threads this glue attached */

/* For the tests: handles alive, threads attached, threads detached. */
static long g_live_handles, g_attached_count, g_detached_count;

typedef struct jl_handle jl_handle;

/* A handle's glue state. `refs` (guarded by g_table_mu) counts the table's
 * reference, until destroy, and each callback running with it. */
struct jl_handle {
    idlelock *lock;
    jweak callbacks;
    uintptr_t id;             /* the ctx of its clock and authenticator */
    unsigned refs;
    struct jl_entry *entries; /* its entries in the table (this one, listeners) */
};

/* An entry of the context table: what a ctx number stands for. */
typedef struct jl_entry {
    struct jl_entry *next;    /* in its bucket */
    struct jl_entry *sibling; /* in its handle's list */
    uintptr_t id;
    jl_handle *h;
    jlong listener;           /* the binding's listener number; 0: the handle's own */
    uint64_t token;           /* the library's listener token; 0 until subscribed */
} jl_entry;

#define TABLE_BUCKETS 256
static pthread_mutex_t g_table_mu = PTHREAD_MUTEX_INITIALIZER;
static jl_entry *g_table[TABLE_BUCKETS];
static uintptr_t g_next_id = 1; /* guarded by g_table_mu; 0 once exhausted */

static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (n--) *v++ = 0;
}

static jl_handle *H(jlong handle) { return (jl_handle *)(intptr_t)handle; }

static void count(long *counter, long delta) { __atomic_add_fetch(counter, delta, __ATOMIC_SEQ_CST); }

/* ---------------------------------------------------------- the table */

static size_t bucket(uintptr_t id) { return (size_t)(id % TABLE_BUCKETS); }

/* A new entry of `h` (not yet in the table), or NULL when out of memory or
 * ids (2^32 on a 32-bit CPU: ids are never reused). */
static jl_entry *entry_new(jl_handle *h, jlong listener)
{
    jl_entry *e = (jl_entry *)calloc(1, sizeof *e);
    if (e == NULL) return NULL;
    pthread_mutex_lock(&g_table_mu);
    e->id = g_next_id;
    if (g_next_id != 0) g_next_id++;
    pthread_mutex_unlock(&g_table_mu);
    if (e->id == 0) {
        free(e);
        return NULL;
    }
    e->h = h;
    e->listener = listener;
    return e;
}

/* With g_table_mu held. */
static void entry_link(jl_entry *e)
{
    size_t b = bucket(e->id);
    e->next = g_table[b];
    g_table[b] = e;
    e->sibling = e->h->entries;
    e->h->entries = e;
}

/* With g_table_mu held: takes e out of the table and its handle's list. */
static void entry_unlink(jl_entry *e)
{
    for (jl_entry **p = &g_table[bucket(e->id)]; *p != NULL; p = &(*p)->next) {
        if (*p == e) {
            *p = e->next;
            break;
        }
    }
    for (jl_entry **p = &e->h->entries; *p != NULL; p = &(*p)->sibling) {
        if (*p == e) {
            *p = e->sibling;
            break;
        }
    }
}

/* The handle behind a ctx, with a reference taken (release_handle), or
 * NULL when the ctx is no longer in the table (destroyed, unsubscribed).
 * *listener: the entry's listener number. */
static jl_handle *acquire(void *ctx, jlong *listener)
{
    uintptr_t id = (uintptr_t)ctx;
    jl_handle *h = NULL;
    pthread_mutex_lock(&g_table_mu);
    for (jl_entry *e = g_table[bucket(id)]; e != NULL; e = e->next) {
        if (e->id == id) {
            h = e->h;
            h->refs++;
            if (listener != NULL) *listener = e->listener;
            break;
        }
    }
    pthread_mutex_unlock(&g_table_mu);
    return h;
}

static void free_handle(JNIEnv *env, jl_handle *h)
{
    if (h->callbacks != NULL) (*env)->DeleteWeakGlobalRef(env, h->callbacks);
    free(h);
    count(&g_live_handles, -1);
}

/* Drops a reference; the last one frees the handle's glue state. */
static void release_handle(JNIEnv *env, jl_handle *h)
{
    pthread_mutex_lock(&g_table_mu);
    int last = --h->refs == 0;
    pthread_mutex_unlock(&g_table_mu);
    if (last) free_handle(env, h);
}

static jbyteArray bytes(JNIEnv *env, const void *data, size_t len)
{
    jbyteArray a = (*env)->NewByteArray(env, (jsize)len);
    if (a != NULL && len > 0) (*env)->SetByteArrayRegion(env, a, 0, (jsize)len, (const jbyte *)data);
    return a;
}

static jbyteArray cstring_bytes(JNIEnv *env, const char *s)
{
    return bytes(env, s ? s : "", s ? strlen(s) : 0);
}

/* A byte[] as a C copy the caller frees (and wipes, when it may be secret);
 * NULL for a null array or when the copy failed. One more byte, 0, always
 * follows the copy: a C string argument (a name, a path) ends inside it
 * even when the array lacks its NUL (the Java side adds one; the library
 * never reads past the copy). */
static uint8_t *copy_in(JNIEnv *env, jbyteArray a, jsize *len)
{
    *len = 0;
    if (a == NULL) return NULL;
    jsize n = (*env)->GetArrayLength(env, a);
    uint8_t *p = (uint8_t *)malloc((size_t)n + 1);
    if (p == NULL) return NULL;
    if (n > 0) (*env)->GetByteArrayRegion(env, a, 0, n, (jbyte *)p);
    p[n] = 0;
    *len = n;
    return p;
}

/* The array holds at least `need` elements (NULL holds none). Every
 * (array, length) the glue is handed is checked with it before any call
 * into the library: a bad one is GLUE_BAD_LENGTH, never a read or write
 * past the array. */
static int fits(JNIEnv *env, jarray a, jlong need)
{
    return a != NULL && need >= 0 && (jlong)(*env)->GetArrayLength(env, a) >= need;
}

#define OUT_OK(out) ((out) == NULL || fits(env, (out), SNAP_FIELDS))

static void fill_snapshot(JNIEnv *env, jlongArray out, const idlelock_snapshot *s)
{
    if (out == NULL) return;
    jlong f[SNAP_FIELDS];
    snapshot_slots(f, s);
    (*env)->SetLongArrayRegion(env, out, 0, SNAP_FIELDS, f);
}

/* ---------------------------------------------------------------- threads */

static void detach_at_exit(void *vm)
{
    (*(JavaVM *)vm)->DetachCurrentThread((JavaVM *)vm);
    count(&g_detached_count, 1);
}

/* The JNIEnv of the calling thread, attaching it (once, as a daemon) when
 * the JVM does not know it. *foreign: the glue attached it. */
static JNIEnv *callback_env(int *foreign)
{
    JNIEnv *env = NULL;
    *foreign = 0;
    jint rc = (*g_vm)->GetEnv(g_vm, (void **)&env, JNI_VERSION_1_6);
    if (rc == JNI_OK) {
        *foreign = pthread_getspecific(g_attached) != NULL;
        return env;
    }
    if (rc != JNI_EDETACHED) return NULL;
    JavaVMAttachArgs args;
    args.version = JNI_VERSION_1_6;
    args.name = (char *)"idlelock-native";
    args.group = NULL;
#ifdef __ANDROID__
    if ((*g_vm)->AttachCurrentThreadAsDaemon(g_vm, &env, &args) != JNI_OK) return NULL;
#else
    if ((*g_vm)->AttachCurrentThreadAsDaemon(g_vm, (void **)&env, &args) != JNI_OK) return NULL;
#endif
    /* The key's destructor detaches the thread when it exits. */
    pthread_setspecific(g_attached, g_vm);
    count(&g_attached_count, 1);
    *foreign = 1;
    return env;
}

/* Zeroes the first n bytes of a Java byte[] that carried a secret. */
static void zero_java_array(JNIEnv *env, jbyteArray arr, jsize n)
{
    static const jbyte zero[64];
    jsize at = 0;
    while (at < n) {
        jsize k = n - at < 64 ? n - at : 64;
        (*env)->SetByteArrayRegion(env, arr, at, k, zero);
        at += k;
    }
}

static void clear_vm_error(JNIEnv *env)
{
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionDescribe(env);
        (*env)->ExceptionClear(env);
    }
}

/* -------------------------------------------------------------- callbacks */

/* The start of every callback: the thread's env, the handle's state
 * (referenced) and a local frame of `frame` slots; NULL when there is none
 * to call. For a listener, `listener` gets its id (read with the handle,
 * under the table's mutex); `foreign`, when given, whether the thread was
 * attached here (not a Java thread). */
static JNIEnv *enter_callback(void *ctx, jint frame, jl_handle **out, jlong *listener, int *foreign)
{
    int attached;
    *out = NULL;
    JNIEnv *env = callback_env(&attached);
    if (env == NULL) return NULL;
    if (foreign != NULL) *foreign = attached;
    jl_handle *h = acquire(ctx, listener);
    if (h == NULL) return NULL;
    if ((*env)->PushLocalFrame(env, frame) != 0) {
        clear_vm_error(env);
        release_handle(env, h);
        return NULL;
    }
    *out = h;
    return env;
}

static void leave_callback(JNIEnv *env, jl_handle *h)
{
    clear_vm_error(env);
    (*env)->PopLocalFrame(env, NULL);
    release_handle(env, h);
}

static void on_listener(void *ctx, const idlelock_snapshot *s)
{
    int foreign;
    jlong id = 0;
    jl_handle *h;
    if (s == NULL) return;
    /* The listener may unsubscribe itself or destroy the handle (from the
     * watcher thread): the reference keeps the handle's state until this
     * returns, and the entry's fields were copied under the table's mutex. */
    JNIEnv *env = enter_callback(ctx, 4, &h, &id, &foreign);
    if (env == NULL) return; /* destroyed or unsubscribed: nothing to call */
    jobject target = (*env)->NewLocalRef(env, h->callbacks);
    if (target != NULL) {
        jlongArray arr = (*env)->NewLongArray(env, SNAP_FIELDS);
        if (arr != NULL) {
            fill_snapshot(env, arr, s);
            (*env)->CallStaticVoidMethod(env, g_callbacks, g_on_listener, target, id, arr,
                                         (jboolean)(foreign ? JNI_TRUE : JNI_FALSE));
        }
    }
    leave_callback(env, h);
}

static int64_t on_clock(void *ctx)
{
    jl_handle *h;
    int64_t now = INT64_MIN; /* fail closed: earlier than anything recorded */
    JNIEnv *env = enter_callback(ctx, 2, &h, NULL, NULL);
    if (env == NULL) return now;
    jobject target = (*env)->NewLocalRef(env, h->callbacks);
    if (target != NULL) {
        now = (int64_t)(*env)->CallStaticLongMethod(env, g_callbacks, g_on_clock, target);
        if ((*env)->ExceptionCheck(env)) now = INT64_MIN;
    }
    leave_callback(env, h);
    return now;
}

static int32_t auth_available(void *ctx)
{
    jl_handle *h;
    int32_t r = 0;
    JNIEnv *env = enter_callback(ctx, 2, &h, NULL, NULL);
    if (env == NULL) return 0;
    jobject target = (*env)->NewLocalRef(env, h->callbacks);
    if (target != NULL) r = (*env)->CallStaticIntMethod(env, g_callbacks, g_auth_available, target);
    if ((*env)->ExceptionCheck(env)) r = 0;
    leave_callback(env, h);
    return r;
}

static int32_t auth_store(void *ctx, const uint8_t *secret, size_t len)
{
    jl_handle *h;
    int32_t r = 1;
    if (secret == NULL || len > 4096) return 1;
    JNIEnv *env = enter_callback(ctx, 4, &h, NULL, NULL);
    if (env == NULL) return 1;
    jobject target = (*env)->NewLocalRef(env, h->callbacks);
    jbyteArray arr = target != NULL ? bytes(env, secret, len) : NULL;
    if (arr != NULL) {
        r = (*env)->CallStaticIntMethod(env, g_callbacks, g_auth_store, target, arr);
        if ((*env)->ExceptionCheck(env)) r = 1;
        clear_vm_error(env);
        /* Callbacks.onAuthStore wiped it; wipe again in case the host
         * replaced its contents. */
        zero_java_array(env, arr, (jsize)len);
    }
    leave_callback(env, h);
    return r;
}

static int32_t auth_load(void *ctx, const char *reason, uint8_t *out, size_t cap, size_t *out_len)
{
    jl_handle *h;
    int32_t r = IDLELOCK_AUTH_FAILED;
    if (out == NULL || out_len == NULL || cap == 0 || cap > 4096) return IDLELOCK_AUTH_FAILED;
    JNIEnv *env = enter_callback(ctx, 4, &h, NULL, NULL);
    if (env == NULL) return IDLELOCK_AUTH_FAILED;
    jobject target = (*env)->NewLocalRef(env, h->callbacks);
    jbyteArray why = reason != NULL ? cstring_bytes(env, reason) : NULL;
    jbyteArray arr = (*env)->NewByteArray(env, (jsize)cap);
    if (target != NULL && arr != NULL && (reason == NULL || why != NULL)) {
        r = (*env)->CallStaticIntMethod(env, g_callbacks, g_auth_load, target, why, arr);
        if ((*env)->ExceptionCheck(env)) r = IDLELOCK_AUTH_FAILED;
        clear_vm_error(env);
        /* Callbacks.onAuthLoad hands back exactly cap bytes (it checked
         * the host's length); the array is the glue's own, of cap bytes. */
        if (r == IDLELOCK_AUTH_OK && (*env)->GetArrayLength(env, arr) == (jsize)cap) {
            (*env)->GetByteArrayRegion(env, arr, 0, (jsize)cap, (jbyte *)out);
            *out_len = cap;
        } else if (r == IDLELOCK_AUTH_OK) {
            r = IDLELOCK_AUTH_FAILED;
        }
        /* The Java copy: zero it before it is left to the collector. */
        zero_java_array(env, arr, (jsize)cap);
    }
    leave_callback(env, h);
    return r;
}

static int32_t auth_delete(void *ctx)
{
    jl_handle *h;
    int32_t r = 1;
    JNIEnv *env = enter_callback(ctx, 2, &h, NULL, NULL);
    if (env == NULL) return 1;
    jobject target = (*env)->NewLocalRef(env, h->callbacks);
    if (target != NULL) r = (*env)->CallStaticIntMethod(env, g_callbacks, g_auth_delete, target);
    if ((*env)->ExceptionCheck(env)) r = 1;
    leave_callback(env, h);
    return r;
}

/* ---------------------------------------------------------- natives: misc */

static jbyteArray n_check_abi(JNIEnv *env, jclass cls, jint java_version)
{
    (void)cls;
    char msg[512];
    int lib = idlelock_version_number();
    msg[0] = 0;
    if (java_version != IDLELOCK_VERSION_NUMBER) {
        snprintf(msg, sizeof msg, "the glue was built against header %d, the Java classes against %d: build them together",
                 IDLELOCK_VERSION_NUMBER, (int)java_version);
    } else if (lib / 10000 != IDLELOCK_VERSION_MAJOR || lib / 100 % 100 < IDLELOCK_VERSION_MINOR) {
        snprintf(msg, sizeof msg, "the library is version %d, the binding needs %d.%d or a later %d.x",
                 lib, IDLELOCK_VERSION_MAJOR, IDLELOCK_VERSION_MINOR, IDLELOCK_VERSION_MAJOR);
    } else {
        /* The structs the glue fills, against the library's sizes: equal
         * for the same minor, at least ours for a later one (structs only
         * grow, and the glue passes its own size). */
        int same = lib / 100 == IDLELOCK_VERSION_NUMBER / 100;
        struct { const char *name; size_t ours, theirs; } s[4] = {
            {"idlelock_config", sizeof(idlelock_config), idlelock_config_size()},
            {"idlelock_snapshot", sizeof(idlelock_snapshot), idlelock_snapshot_size()},
            {"idlelock_authenticator", sizeof(idlelock_authenticator), idlelock_authenticator_size()},
            {"idlelock_delay_step", sizeof(idlelock_delay_step), idlelock_delay_step_size()},
        };
        for (int i = 0; i < 4; i++) {
            if (same ? s[i].theirs != s[i].ours : s[i].theirs < s[i].ours) {
                snprintf(msg, sizeof msg, "%s is %lu bytes in the library, %lu in the glue: a broken build",
                         s[i].name, (unsigned long)s[i].theirs, (unsigned long)s[i].ours);
                break;
            }
        }
    }
    return msg[0] ? cstring_bytes(env, msg) : NULL;
}

static jbyteArray n_version(JNIEnv *env, jclass cls) { (void)cls; return cstring_bytes(env, idlelock_version()); }
static jint n_version_number(JNIEnv *env, jclass cls) { (void)env; (void)cls; return idlelock_version_number(); }
static jbyteArray n_status_name(JNIEnv *env, jclass cls, jint st) { (void)cls; return cstring_bytes(env, idlelock_status_name(st)); }
static jbyteArray n_last_error(JNIEnv *env, jclass cls) { (void)cls; return cstring_bytes(env, idlelock_last_error()); }

static jlongArray n_struct_sizes(JNIEnv *env, jclass cls)
{
    (void)cls;
    jlong v[8] = {(jlong)sizeof(idlelock_config), (jlong)idlelock_config_size(),
                  (jlong)sizeof(idlelock_snapshot), (jlong)idlelock_snapshot_size(),
                  (jlong)sizeof(idlelock_authenticator), (jlong)idlelock_authenticator_size(),
                  (jlong)sizeof(idlelock_delay_step), (jlong)idlelock_delay_step_size()};
    jlongArray a = (*env)->NewLongArray(env, 8);
    if (a != NULL) (*env)->SetLongArrayRegion(env, a, 0, 8, v);
    return a;
}

static jlongArray n_ios_delay_schedule(JNIEnv *env, jclass cls)
{
    (void)cls;
    const idlelock_delay_step *steps = NULL;
    size_t n = 0;
    if (idlelock_delay_schedule_ios(&steps, &n) != IDLELOCK_OK || steps == NULL) n = 0;
    if (n > 64) n = 64;
    jlong v[128];
    for (size_t i = 0; i < n; i++) {
        v[2 * i] = steps[i].failed_attempts;
        v[2 * i + 1] = steps[i].delay_ms;
    }
    jlongArray a = (*env)->NewLongArray(env, (jsize)(2 * n));
    if (a != NULL && n > 0) (*env)->SetLongArrayRegion(env, a, 0, (jsize)(2 * n), v);
    return a;
}

static jlongArray n_glue_counters(JNIEnv *env, jclass cls)
{
    (void)cls;
    jlong v[3] = {__atomic_load_n(&g_live_handles, __ATOMIC_SEQ_CST),
                  __atomic_load_n(&g_attached_count, __ATOMIC_SEQ_CST),
                  __atomic_load_n(&g_detached_count, __ATOMIC_SEQ_CST)};
    jlongArray a = (*env)->NewLongArray(env, 3);
    if (a != NULL) (*env)->SetLongArrayRegion(env, a, 0, 3, v);
    return a;
}

/* ------------------------------------------------------ natives: lifecycle */

static jint n_create(JNIEnv *env, jclass cls, jlongArray numbers, jint mask, jbyteArray store_path,
                     jbyteArray unlock_reason, jbyteArray device_key, jlongArray delay_steps,
                     jobject callbacks, jboolean has_clock, jboolean has_auth, jlongArray out)
{
    if (!fits(env, numbers, CFG_FIELDS) || !fits(env, out, 1)) return GLUE_BAD_LENGTH;
    (void)cls;
    idlelock_config cfg;
    jlong num[CFG_FIELDS];
    jsize path_len = 0, reason_len = 0, key_len = 0, steps_len = 0;
    uint8_t *path = NULL, *reason = NULL, *key = NULL;
    idlelock_delay_step *steps = NULL;
    idlelock_authenticator auth;
    jl_handle *h = NULL;
    jl_entry *self = NULL;
    idlelock *lock = NULL;
    int rc;

    if (idlelock_config_init(&cfg, sizeof cfg) != IDLELOCK_OK) return IDLELOCK_ERR_INTERNAL;
    (*env)->GetLongArrayRegion(env, numbers, 0, CFG_FIELDS, num);
    config_from_slots(&cfg, num, mask);

    h = (jl_handle *)calloc(1, sizeof *h);
    if (h == NULL) return GLUE_NO_MEMORY;
    h->refs = 1; /* the table's */
    h->callbacks = (*env)->NewWeakGlobalRef(env, callbacks);
    self = h->callbacks != NULL ? entry_new(h, 0) : NULL;
    if (self == NULL) {
        rc = GLUE_NO_MEMORY;
        goto done;
    }
    h->id = self->id;
    /* In the table before create: create already asks is_available. */
    pthread_mutex_lock(&g_table_mu);
    entry_link(self);
    pthread_mutex_unlock(&g_table_mu);

    /* The Java side made them NUL-terminated UTF-8 with no inner NUL. */
    path = copy_in(env, store_path, &path_len);
    reason = copy_in(env, unlock_reason, &reason_len);
    key = copy_in(env, device_key, &key_len);
    if ((store_path && !path) || (unlock_reason && !reason) || (device_key && !key)) {
        rc = GLUE_NO_MEMORY;
        goto done;
    }
    cfg.store_path = (const char *)path;
    cfg.unlock_reason = (const char *)reason;
    cfg.device_key = key;
    cfg.device_key_len = (size_t)key_len;

    if (delay_steps != NULL) {
        steps_len = (*env)->GetArrayLength(env, delay_steps) / 2;
        jlong *pairs = (jlong *)malloc((size_t)(steps_len > 0 ? steps_len : 1) * 2 * sizeof(jlong));
        steps = (idlelock_delay_step *)calloc((size_t)(steps_len > 0 ? steps_len : 1), sizeof *steps);
        if (pairs == NULL || steps == NULL) {
            free(pairs);
            rc = GLUE_NO_MEMORY;
            goto done;
        }
        if (steps_len > 0) (*env)->GetLongArrayRegion(env, delay_steps, 0, steps_len * 2, pairs);
        for (jsize i = 0; i < steps_len; i++) {
            jlong a = pairs[2 * i];
            /* An int the library range-checks; out of int32 range is surely out of its range. */
            steps[i].failed_attempts = a < INT32_MIN ? INT32_MIN : a > INT32_MAX ? INT32_MAX : (int32_t)a;
            steps[i].delay_ms = pairs[2 * i + 1];
        }
        free(pairs);
        cfg.delay_schedule = steps;
        cfg.delay_schedule_len = (size_t)steps_len;
    }
    if (has_clock) {
        cfg.clock = on_clock;
        cfg.clock_ctx = (void *)h->id;
    }
    if (has_auth) {
        memset(&auth, 0, sizeof auth);
        auth.size = sizeof auth;
        auth.ctx = (void *)h->id;
        auth.is_available = auth_available;
        auth.store_secret = auth_store;
        auth.load_secret = auth_load;
        auth.delete_secret = auth_delete;
        cfg.authenticator = &auth; /* copied at create */
    }

    rc = idlelock_create(&cfg, &lock);
    if (rc == IDLELOCK_OK) {
        h->lock = lock;
        jlong value = (jlong)(intptr_t)h;
        (*env)->SetLongArrayRegion(env, out, 0, 1, &value);
        count(&g_live_handles, 1);
        h = NULL;
        self = NULL;
    }
done:
    if (key != NULL) wipe(key, (size_t)key_len);
    free(key);
    free(path);
    free(reason);
    free(steps);
    if (h != NULL) {
        /* Not created: no callback of it can run any more. */
        if (self != NULL) {
            pthread_mutex_lock(&g_table_mu);
            if (h->entries != NULL) entry_unlink(self);
            pthread_mutex_unlock(&g_table_mu);
            free(self);
        }
        if (h->callbacks != NULL) (*env)->DeleteWeakGlobalRef(env, h->callbacks);
        free(h);
    }
    return rc;
}

/* Destroy: the handle's context ids leave the table first, so no callback
 * the library makes from now on (the rest of a delivery whose listener
 * called this, on any thread) reaches the glue's state or Java; then the
 * library's destroy; the glue's state goes with the last reference (here,
 * or when a callback running now returns). */
static void n_destroy(JNIEnv *env, jclass cls, jlong handle)
{
    (void)cls;
    jl_handle *h = H(handle);
    if (h == NULL) return;
    idlelock *lock = h->lock;
    pthread_mutex_lock(&g_table_mu);
    jl_entry *gone = h->entries;
    while (h->entries != NULL) entry_unlink(h->entries);
    pthread_mutex_unlock(&g_table_mu);
    /* Stops the watcher and waits for it (unless this is a listener on it). */
    idlelock_destroy(lock);
    while (gone != NULL) {
        jl_entry *next = gone->sibling;
        free(gone);
        gone = next;
    }
    release_handle(env, h);
}

static jint n_watch_start(JNIEnv *env, jclass cls, jlong handle) { (void)env; (void)cls; return idlelock_watch_start(H(handle)->lock); }
static jint n_watch_stop(JNIEnv *env, jclass cls, jlong handle) { (void)env; (void)cls; return idlelock_watch_stop(H(handle)->lock); }

/* --------------------------------------------------------- natives: events */

static jint n_touch(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env;
    (void)cls;
    return idlelock_touch(H(handle)->lock, NULL);
}

static jint n_event(JNIEnv *env, jclass cls, jlong handle, jint kind, jlongArray out)
{
    if (!OUT_OK(out)) return GLUE_BAD_LENGTH;
    (void)cls;
    idlelock *lock = H(handle)->lock;
    idlelock_snapshot s;
    idlelock_snapshot *sp = out != NULL ? &s : NULL;
    int rc;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    switch (kind) {
    case 0: rc = idlelock_start(lock, sp); break;
    case 1: rc = idlelock_touch(lock, sp); break;
    case 2: rc = idlelock_inactive(lock, sp); break;
    case 3: rc = idlelock_background(lock, sp); break;
    case 4: rc = idlelock_foreground(lock, sp); break;
    case 5: rc = idlelock_check(lock, sp); break;
    case 6: rc = idlelock_lock(lock, sp); break;
    case 7: rc = idlelock_snapshot_get(lock, sp); break;
    default: return IDLELOCK_ERR_INVALID_ARGUMENT;
    }
    fill_snapshot(env, out, &s);
    return rc;
}

static jint n_lifecycle(JNIEnv *env, jclass cls, jlong handle, jint platform, jbyteArray name, jlongArray out)
{
    if (!OUT_OK(out)) return GLUE_BAD_LENGTH;
    (void)cls;
    jsize len;
    uint8_t *n = copy_in(env, name, &len);
    if (name != NULL && n == NULL) return GLUE_NO_MEMORY;
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    int rc = idlelock_lifecycle(H(handle)->lock, platform, (const char *)n, out != NULL ? &s : NULL);
    free(n);
    fill_snapshot(env, out, &s);
    return rc;
}

static jint n_prompt_begin(JNIEnv *env, jclass cls, jlong handle, jlongArray out)
{
    if (!fits(env, out, 1)) return GLUE_BAD_LENGTH;
    (void)cls;
    uint64_t token = 0;
    int rc = idlelock_prompt_begin(H(handle)->lock, &token);
    jlong v = (jlong)token;
    if (rc == IDLELOCK_OK) (*env)->SetLongArrayRegion(env, out, 0, 1, &v);
    return rc;
}

static jint n_prompt_end(JNIEnv *env, jclass cls, jlong handle, jlong token)
{
    (void)env;
    (void)cls;
    return idlelock_prompt_end(H(handle)->lock, (uint64_t)token);
}

/* ------------------------------------------------------- natives: passcode */

/* The first len bytes of utf8, copied to C (a stack buffer up to the
 * library's limit), passed on, wiped. A length past the limit is passed
 * as is with a copy of that length: the library refuses it with its own
 * message. A length outside the array is GLUE_BAD_LENGTH. */
#define PASSCODE_STACK IDLELOCK_PASSCODE_MAX_BYTES

static jint n_set_passcode(JNIEnv *env, jclass cls, jlong handle, jbyteArray utf8, jint len)
{
    (void)cls;
    uint8_t stack[PASSCODE_STACK];
    uint8_t *buf = stack;
    if (utf8 == NULL) return idlelock_set_passcode(H(handle)->lock, NULL, 0);
    if (!fits(env, utf8, len)) return GLUE_BAD_LENGTH;
    if (len > PASSCODE_STACK && (buf = (uint8_t *)malloc((size_t)len)) == NULL) return GLUE_NO_MEMORY;
    (*env)->GetByteArrayRegion(env, utf8, 0, len, (jbyte *)buf);
    int rc = idlelock_set_passcode(H(handle)->lock, (const char *)buf, (size_t)len);
    wipe(buf, (size_t)len);
    if (buf != stack) free(buf);
    return rc;
}

static jint n_unlock(JNIEnv *env, jclass cls, jlong handle, jbyteArray utf8, jint len, jlongArray out)
{
    (void)cls;
    uint8_t stack[PASSCODE_STACK];
    uint8_t *buf = stack;
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    if (!OUT_OK(out)) return GLUE_BAD_LENGTH;
    if (utf8 == NULL) return idlelock_unlock(H(handle)->lock, NULL, 0, NULL);
    if (!fits(env, utf8, len)) return GLUE_BAD_LENGTH;
    if (len > PASSCODE_STACK && (buf = (uint8_t *)malloc((size_t)len)) == NULL) return GLUE_NO_MEMORY;
    (*env)->GetByteArrayRegion(env, utf8, 0, len, (jbyte *)buf);
    int rc = idlelock_unlock(H(handle)->lock, (const char *)buf, (size_t)len, out != NULL ? &s : NULL);
    wipe(buf, (size_t)len);
    if (buf != stack) free(buf);
    fill_snapshot(env, out, &s);
    return rc;
}

/* ----------------------------------------------------- natives: biometrics */

static jint n_enable_biometrics(JNIEnv *env, jclass cls, jlong handle) { (void)env; (void)cls; return idlelock_enable_biometrics(H(handle)->lock); }
static jint n_disable_biometrics(JNIEnv *env, jclass cls, jlong handle) { (void)env; (void)cls; return idlelock_disable_biometrics(H(handle)->lock); }

static jint n_unlock_with_biometrics(JNIEnv *env, jclass cls, jlong handle, jlongArray out)
{
    if (!OUT_OK(out)) return GLUE_BAD_LENGTH;
    (void)cls;
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    int rc = idlelock_unlock_with_biometrics(H(handle)->lock, out != NULL ? &s : NULL);
    fill_snapshot(env, out, &s);
    return rc;
}

static jint n_disable(JNIEnv *env, jclass cls, jlong handle) { (void)env; (void)cls; return idlelock_disable(H(handle)->lock); }

/* The two-phase pair (1.2). begin: for ENABLE the library writes the new
 * secret into a C buffer here, which is copied into the caller's byte[32]
 * (the request's array, wiped by the Java side when the request ends) and
 * wiped; token[0] receives the token on success. */
static jint n_biometric_begin(JNIEnv *env, jclass cls, jlong handle, jint purpose, jlongArray token,
                              jbyteArray secret_out, jlongArray out)
{
    if (!OUT_OK(out) || !fits(env, token, 1)) return GLUE_BAD_LENGTH;
    (void)cls;
    uint8_t secret[IDLELOCK_AUTH_SECRET_BYTES];
    uint64_t t = 0;
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    int with_secret = secret_out != NULL && (*env)->GetArrayLength(env, secret_out) == (jsize)sizeof secret;
    int rc = idlelock_biometric_begin(H(handle)->lock, purpose, &t, with_secret ? secret : NULL,
                                      with_secret ? sizeof secret : 0, out != NULL ? &s : NULL);
    if (rc == IDLELOCK_OK) {
        jlong v = (jlong)t;
        (*env)->SetLongArrayRegion(env, token, 0, 1, &v);
        if (with_secret) (*env)->SetByteArrayRegion(env, secret_out, 0, (jsize)sizeof secret, (const jbyte *)secret);
    }
    wipe(secret, sizeof secret);
    fill_snapshot(env, out, &s);
    return rc;
}

/* finish: the first len bytes of `secret` (the Java side checked the
 * length: 0, or 32 for an unlock that passed), copied to C for the call
 * and wiped; the Java side wipes the caller's array. */
static jint n_biometric_finish(JNIEnv *env, jclass cls, jlong handle, jlong token, jint result,
                               jbyteArray secret, jint len, jlongArray out)
{
    (void)cls;
    uint8_t buf[IDLELOCK_AUTH_SECRET_BYTES];
    idlelock_snapshot s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    if (!OUT_OK(out)) return GLUE_BAD_LENGTH;
    if (secret == NULL ? len != 0 : len > (jint)sizeof buf || !fits(env, secret, len)) return GLUE_BAD_LENGTH;
    if (len > 0) (*env)->GetByteArrayRegion(env, secret, 0, len, (jbyte *)buf);
    int rc = idlelock_biometric_finish(H(handle)->lock, (uint64_t)token, result, len > 0 ? buf : NULL,
                                       (size_t)len, out != NULL ? &s : NULL);
    wipe(buf, sizeof buf);
    fill_snapshot(env, out, &s);
    return rc;
}

static jint n_require_recent_auth(JNIEnv *env, jclass cls, jlong handle, jlong max_age_ms)
{
    (void)env;
    (void)cls;
    return idlelock_require_recent_auth(H(handle)->lock, (int64_t)max_age_ms);
}

/* ------------------------------------------------------ natives: listeners */

static jint n_subscribe(JNIEnv *env, jclass cls, jlong handle, jlong id)
{
    (void)env;
    (void)cls;
    jl_handle *h = H(handle);
    jl_entry *e = entry_new(h, id);
    if (e == NULL) return GLUE_NO_MEMORY;
    /* In the table before subscribing: once subscribed it may be called at once. */
    pthread_mutex_lock(&g_table_mu);
    entry_link(e);
    pthread_mutex_unlock(&g_table_mu);
    uint64_t token = 0;
    int rc = idlelock_subscribe(h->lock, on_listener, (void *)e->id, &token);
    pthread_mutex_lock(&g_table_mu);
    if (rc == IDLELOCK_OK) {
        e->token = token;
        e = NULL;
    } else {
        entry_unlink(e);
    }
    pthread_mutex_unlock(&g_table_mu);
    free(e); /* never called: the subscription failed */
    return rc;
}

static jint n_unsubscribe(JNIEnv *env, jclass cls, jlong handle, jlong id)
{
    (void)env;
    (void)cls;
    jl_handle *h = H(handle);
    jl_entry *found = NULL;
    uint64_t token = 0;
    pthread_mutex_lock(&g_table_mu);
    for (jl_entry *e = h->entries; e != NULL; e = e->sibling) {
        if (e->listener == id && id != 0 && e->token != 0) {
            found = e;
            token = e->token;
            break;
        }
    }
    pthread_mutex_unlock(&g_table_mu);
    if (found == NULL) return GLUE_NOT_SUBSCRIBED;
    /* Waits for a call of it on another thread; may call listeners that
     * subscribe: the table's mutex is not held. */
    int rc = idlelock_unsubscribe(h->lock, token);
    if (rc != IDLELOCK_OK) return rc == IDLELOCK_ERR_INVALID_ARGUMENT ? GLUE_NOT_SUBSCRIBED : rc;
    /* Only the thread whose unsubscribe succeeded unlinks and frees it; a
     * call of it running on this thread copied what it needs. */
    pthread_mutex_lock(&g_table_mu);
    entry_unlink(found);
    pthread_mutex_unlock(&g_table_mu);
    free(found);
    return IDLELOCK_OK;
}

/* -------------------------------------------------------- natives: secrets */

static jint n_secret_put(JNIEnv *env, jclass cls, jlong handle, jbyteArray name, jbyteArray value)
{
    (void)cls;
    jsize name_len, value_len;
    uint8_t *n = copy_in(env, name, &name_len);
    uint8_t *v = copy_in(env, value, &value_len);
    int rc;
    if ((name != NULL && n == NULL) || (value != NULL && v == NULL)) {
        rc = GLUE_NO_MEMORY;
    } else {
        rc = idlelock_secret_put(H(handle)->lock, (const char *)n, v, (size_t)value_len);
    }
    if (v != NULL) wipe(v, (size_t)value_len);
    free(v);
    free(n);
    return rc;
}

static jbyteArray n_secret_get(JNIEnv *env, jclass cls, jlong handle, jbyteArray name, jintArray status)
{
    if (!fits(env, status, 1)) return NULL;
    (void)cls;
    jsize name_len;
    jint rc;
    jbyteArray result = NULL;
    uint8_t *n = copy_in(env, name, &name_len);
    idlelock *lock = H(handle)->lock;
    if (name != NULL && n == NULL) {
        rc = GLUE_NO_MEMORY;
    } else {
        /* Ask for the size, then read; another thread may replace the
         * secret in between, so repeat while the buffer is too small. */
        size_t len = 0;
        rc = idlelock_secret_get(lock, (const char *)n, NULL, &len);
        while (rc == IDLELOCK_ERR_BUFFER_TOO_SMALL) {
            size_t cap = len;
            uint8_t *buf = (uint8_t *)malloc(cap > 0 ? cap : 1);
            if (buf == NULL) {
                rc = GLUE_NO_MEMORY;
                break;
            }
            len = cap;
            rc = idlelock_secret_get(lock, (const char *)n, buf, &len);
            if (rc == IDLELOCK_OK) result = bytes(env, buf, len);
            wipe(buf, cap);
            free(buf);
        }
        if (rc == IDLELOCK_OK && result == NULL && !(*env)->ExceptionCheck(env)) result = (*env)->NewByteArray(env, 0);
    }
    free(n);
    /* The Java array could not be made (OutOfMemoryError pending): no
     * other JNI call may run now; the error is thrown on return. */
    if ((*env)->ExceptionCheck(env)) return NULL;
    (*env)->SetIntArrayRegion(env, status, 0, 1, &rc);
    return result;
}

static jint n_secret_remove(JNIEnv *env, jclass cls, jlong handle, jbyteArray name)
{
    (void)cls;
    jsize len;
    uint8_t *n = copy_in(env, name, &len);
    int rc = (name != NULL && n == NULL) ? GLUE_NO_MEMORY : idlelock_secret_remove(H(handle)->lock, (const char *)n);
    free(n);
    return rc;
}

static jint n_require_unlocked(JNIEnv *env, jclass cls, jlong handle) { (void)env; (void)cls; return idlelock_require_unlocked(H(handle)->lock); }

/* --------------------------------------------------------------- loading */

static const JNINativeMethod g_methods[] = {
    {"checkAbi", "(I)[B", (void *)n_check_abi},
    {"version", "()[B", (void *)n_version},
    {"versionNumber", "()I", (void *)n_version_number},
    {"statusName", "(I)[B", (void *)n_status_name},
    {"lastError", "()[B", (void *)n_last_error},
    {"structSizes", "()[J", (void *)n_struct_sizes},
    {"iosDelaySchedule", "()[J", (void *)n_ios_delay_schedule},
    {"glueCounters", "()[J", (void *)n_glue_counters},
    {"create", "([JI[B[B[B[JLjava/lang/Object;ZZ[J)I", (void *)n_create},
    {"destroy", "(J)V", (void *)n_destroy},
    {"watchStart", "(J)I", (void *)n_watch_start},
    {"watchStop", "(J)I", (void *)n_watch_stop},
    {"touch", "(J)I", (void *)n_touch},
    {"event", "(JI[J)I", (void *)n_event},
    {"lifecycle", "(JI[B[J)I", (void *)n_lifecycle},
    {"promptBegin", "(J[J)I", (void *)n_prompt_begin},
    {"promptEnd", "(JJ)I", (void *)n_prompt_end},
    {"setPasscode", "(J[BI)I", (void *)n_set_passcode},
    {"unlock", "(J[BI[J)I", (void *)n_unlock},
    {"enableBiometrics", "(J)I", (void *)n_enable_biometrics},
    {"disableBiometrics", "(J)I", (void *)n_disable_biometrics},
    {"unlockWithBiometrics", "(J[J)I", (void *)n_unlock_with_biometrics},
    {"disable", "(J)I", (void *)n_disable},
    {"biometricBegin", "(JI[J[B[J)I", (void *)n_biometric_begin},
    {"biometricFinish", "(JJI[BI[J)I", (void *)n_biometric_finish},
    {"requireRecentAuth", "(JJ)I", (void *)n_require_recent_auth},
    {"subscribe", "(JJ)I", (void *)n_subscribe},
    {"unsubscribe", "(JJ)I", (void *)n_unsubscribe},
    {"secretPut", "(J[B[B)I", (void *)n_secret_put},
    {"secretGet", "(J[B[I)[B", (void *)n_secret_get},
    {"secretRemove", "(J[B)I", (void *)n_secret_remove},
    {"requireUnlocked", "(J)I", (void *)n_require_unlocked},
};

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK) return JNI_ERR;
    g_vm = vm;
    if (pthread_key_create(&g_attached, detach_at_exit) != 0) return JNI_ERR;

    jclass native = (*env)->FindClass(env, "org/idlelock/Native");
    if (native == NULL) return JNI_ERR;
    if ((*env)->RegisterNatives(env, native, g_methods, (jint)(sizeof g_methods / sizeof g_methods[0])) != 0)
        return JNI_ERR;

    jclass cb = (*env)->FindClass(env, "org/idlelock/Callbacks");
    if (cb == NULL) return JNI_ERR;
    g_callbacks = (jclass)(*env)->NewGlobalRef(env, cb);
    g_on_listener = (*env)->GetStaticMethodID(env, cb, "onListener", "(Ljava/lang/Object;J[JZ)V");
    g_on_clock = (*env)->GetStaticMethodID(env, cb, "onClock", "(Ljava/lang/Object;)J");
    g_auth_available = (*env)->GetStaticMethodID(env, cb, "onAuthAvailable", "(Ljava/lang/Object;)I");
    g_auth_store = (*env)->GetStaticMethodID(env, cb, "onAuthStore", "(Ljava/lang/Object;[B)I");
    g_auth_load = (*env)->GetStaticMethodID(env, cb, "onAuthLoad", "(Ljava/lang/Object;[B[B)I");
    g_auth_delete = (*env)->GetStaticMethodID(env, cb, "onAuthDelete", "(Ljava/lang/Object;)I");
    if (g_callbacks == NULL || !g_on_listener || !g_on_clock || !g_auth_available || !g_auth_store ||
        !g_auth_load || !g_auth_delete)
        return JNI_ERR;
    return JNI_VERSION_1_6;
}
