/* SPDX-License-Identifier: MIT */
/*
 * noop.c: the C no-op behind the Python binding's baseline
 * (bench/bench_python.py). Same shape as idlelock_touch: two pointers in,
 * an int status out, and nothing done.
 */
int bench_noop(void *lock, void *out);

int bench_noop(void *lock, void *out)
{
    (void)lock;
    (void)out;
    return 0;
}
