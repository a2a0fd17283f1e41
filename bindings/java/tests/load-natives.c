/* SPDX-License-Identifier: MIT */
/*
 * load-natives.c: loads a jar's JNI glue on its own CPU (under qemu-user
 * for ARM; run-natives.sh) as the JVM's System.load would: dlopen resolves
 * the glue's NEEDED libidlelock.so through its RUNPATH $ORIGIN, then the
 * library answers idlelock_version() and creates and destroys a lock.
 * Prints "VERSION ok" and exits 0, or says what failed and exits 1.
 *
 *   load-natives PATH/libidlelock_jni.so
 */
#include <dlfcn.h>
#include <stdio.h>

#include "idlelock.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: load-natives PATH/libidlelock_jni.so\n", stderr);
        return 1;
    }
    void *glue = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (glue == NULL) {
        printf("dlopen: %s\n", dlerror());
        return 1;
    }
    if (dlsym(glue, "JNI_OnLoad") == NULL) {
        printf("the glue exports no JNI_OnLoad\n");
        return 1;
    }
    /* The glue's own dependency: found beside it, not on any path of ours. */
    const char *(*version)(void) = (const char *(*)(void))dlsym(glue, "idlelock_version");
    int (*config_init)(idlelock_config *, size_t) = (int (*)(idlelock_config *, size_t))dlsym(glue, "idlelock_config_init");
    int (*create)(const idlelock_config *, idlelock **) = (int (*)(const idlelock_config *, idlelock **))dlsym(glue, "idlelock_create");
    void (*destroy)(idlelock *) = (void (*)(idlelock *))dlsym(glue, "idlelock_destroy");
    if (version == NULL || config_init == NULL || create == NULL || destroy == NULL) {
        printf("libidlelock.so's functions are not reachable through the glue: %s\n", dlerror());
        return 1;
    }
    idlelock_config cfg;
    idlelock *lock = NULL;
    if (config_init(&cfg, sizeof cfg) != IDLELOCK_OK) return 1;
    cfg.idle_after_ms = 60000;
    if (create(&cfg, &lock) != IDLELOCK_OK || lock == NULL) {
        printf("idlelock_create failed\n");
        return 1;
    }
    destroy(lock);
    printf("%s ok\n", version());
    return 0;
}
