/* SPDX-License-Identifier: MIT */
/*
 * The areas of a C suite (test_abi, test_store): `SUITE NAME...` runs only
 * the areas named (libuv's `run-tests NAME`), `SUITE --list` lists them,
 * and with no name every area runs, in its table's order.
 */
#ifndef IDLELOCK_TEST_AREAS_H
#define IDLELOCK_TEST_AREAS_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct test_area {
    const char *name;
    void (*run)(void);
};

/* Sets chosen[a] (count entries) for each area argv names, or for every
 * area when it names none. `-v` sets *verbose where the suite has one
 * (verbose not NULL), and is an unknown name otherwise. Returns -1 to go
 * on, or the exit status: 0 after --list, 2 for a name no area has. */
static int test_areas_choose(const char *suite, const struct test_area *areas, size_t count,
                             int argc, char **argv, int *chosen, int *verbose)
{
    int any_chosen = 0;
    size_t a;
    int i;
    for (a = 0; a < count; a++) chosen[a] = 0;
    for (i = 1; i < argc; i++) {
        if (verbose != NULL && strcmp(argv[i], "-v") == 0) {
            *verbose = 1;
            continue;
        }
        if (strcmp(argv[i], "--list") == 0) {
            for (a = 0; a < count; a++) printf("%s\n", areas[a].name);
            return 0;
        }
        for (a = 0; a < count && strcmp(argv[i], areas[a].name) != 0; a++) {
        }
        if (a == count) {
            printf("%s: no area named '%s' (--list lists them)\n", suite, argv[i]);
            return 2;
        }
        chosen[a] = 1;
        any_chosen = 1;
    }
    if (!any_chosen)
        for (a = 0; a < count; a++) chosen[a] = 1;
    return -1;
}

/* Runs the areas chosen, in the table's order. */
static void test_areas_run(const struct test_area *areas, size_t count, const int *chosen)
{
    size_t a;
    for (a = 0; a < count; a++)
        if (chosen[a]) areas[a].run();
}

#endif
