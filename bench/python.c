/* SPDX-License-Identifier: MIT */
/*
 * python.c: section 6: the Python binding (bench_python.py, run as a
 * child): a call of the package against a bare ctypes call.
 */
#include "bench.h"

python_figures P;

static void py_line(const char *key, const char *value)
{
    if (P.n < PY_MAX) {
        snprintf(P.key[P.n], sizeof P.key[0], "%s", key);
        snprintf(P.value[P.n], sizeof P.value[0], "%s", value);
        P.n++;
    }
}

double py_get(const char *key)
{
    int i;
    for (i = 0; i < P.n; i++) {
        if (strcmp(P.key[i], key) == 0) {
            return atof(P.value[i]);
        }
    }
    return -1;
}

const char *py_str(const char *key)
{
    int i;
    for (i = 0; i < P.n; i++) {
        if (strcmp(P.key[i], key) == 0) {
            return P.value[i];
        }
    }
    return "";
}

void run_python(void)
{
    char cmd[4096];
    int rc;
    if (opt.python == NULL) {
        return;
    }
    snprintf(cmd, sizeof cmd, "%s --kv --iters %ld --rounds %d", opt.python, opt.py_iters,
             opt.py_rounds);
    rc = run_child(cmd, py_line);
    if (rc != 0) {
        fprintf(stderr, "idlelock-bench: the Python benchmark failed (status %d): %s\n", rc, cmd);
        child_failures++;
        P.failed = 1;
        return;
    }
    P.ok = P.n > 0;
}
