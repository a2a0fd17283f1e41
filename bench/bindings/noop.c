/* SPDX-License-Identifier: MIT */
/*
 * noop.c: the native side of the bindings' benchmarks (BENCHMARKS.md,
 * "Bindings"), built into build/bench-bindings/libidlelock_bench.so:
 *
 *  - bench_noop: a C function that does nothing, of idlelock_touch's shape
 *    (two pointers in, an int out): the floor of a P/Invoke (C#) or an ffi
 *    (LuaJIT) call;
 *  - Java_org_idlelock_bench_Bench_noop: a JNI native method that does
 *    nothing, of the binding's touch native's shape ((J)I): the floor of a
 *    JNI call;
 *  - Java_org_idlelock_bench_Bench_rawTouch: a JNI native method that
 *    calls idlelock_touch(handle, NULL) and nothing else (no binding around
 *    it), to show what the library itself costs;
 *  - bench_raw_create / bench_raw_destroy: the handle those bare calls use
 *    (C# and LuaJIT call idlelock_touch on it directly).
 */
#include <jni.h>
#include <stdint.h>

#include "idlelock.h"

int bench_noop(void *lock, void *out);

int bench_noop(void *lock, void *out)
{
    (void)lock;
    (void)out;
    return 0;
}

JNIEXPORT jint JNICALL Java_org_idlelock_bench_Bench_noop(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env;
    (void)cls;
    (void)handle;
    return 0;
}

JNIEXPORT jint JNICALL Java_org_idlelock_bench_Bench_rawTouch(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env;
    (void)cls;
    return idlelock_touch((idlelock *)(intptr_t)handle, NULL);
}

/* An engaged, unlocked handle like the bindings' benchmarks use: idle 1 h,
 * background 30 s, a passcode set with Argon2id at the floor. NULL on
 * failure. For the C# and LuaJIT benchmarks' bare calls too. */
idlelock *bench_raw_create(void);
void bench_raw_destroy(idlelock *lock);

idlelock *bench_raw_create(void)
{
    idlelock_config cfg;
    idlelock *lock = NULL;
    if (idlelock_config_init(&cfg, sizeof cfg) != IDLELOCK_OK) return NULL;
    cfg.idle_after_ms = 3600000;
    cfg.background_after_ms = 30000;
    cfg.kdf_opslimit = IDLELOCK_KDF_OPSLIMIT_MIN;
    cfg.kdf_memlimit = IDLELOCK_KDF_MEMLIMIT_MIN;
    if (idlelock_create(&cfg, &lock) != IDLELOCK_OK) return NULL;
    if (idlelock_set_passcode(lock, "2468", 4) != IDLELOCK_OK) {
        idlelock_destroy(lock);
        return NULL;
    }
    return lock;
}

void bench_raw_destroy(idlelock *lock) { idlelock_destroy(lock); }

JNIEXPORT jlong JNICALL Java_org_idlelock_bench_Bench_rawCreate(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return (jlong)(intptr_t)bench_raw_create();
}

JNIEXPORT void JNICALL Java_org_idlelock_bench_Bench_rawDestroy(JNIEnv *env, jclass cls, jlong handle)
{
    (void)env;
    (void)cls;
    bench_raw_destroy((idlelock *)(intptr_t)handle);
}
