/* SPDX-License-Identifier: MIT */
/* malloc_count.h: the counter of bench/malloc_count.c. */
#ifndef BENCH_MALLOC_COUNT_H
#define BENCH_MALLOC_COUNT_H
#include <stdint.h>

/* Counting is on between start and stop (one thread at a time). */
void malloc_count_start(void);
void malloc_count_stop(void);
/* Running totals since the program started (only counted spans add). */
void malloc_count_read(uint64_t *allocs, uint64_t *bytes, uint64_t *frees);
#endif
