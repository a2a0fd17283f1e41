/* SPDX-License-Identifier: MIT */
/*
 * arguments.c: arguments chosen by the input: `out` snapshots of every
 * size (good and bad) and passcodes (NULL, huge lengths, invalid UTF-8,
 * the last one set).
 */
#include "fuzz_api.h"

out_arg make_out(reader *r)
{
    out_arg o;
    uint8_t sel = rd_u8(r) % 8;
    memset(&o, 0, sizeof o);
    switch (sel) {
    case 0: return o; /* NULL */
    case 1: o.size = sizeof(idlelock_snapshot); break;
    case 2: o.size = SNAPSHOT_V1_SIZE + 8 * (rd_u8(r) % 8); /* a 1.0 host, or between */
        if (o.size > sizeof(idlelock_snapshot)) o.size = sizeof(idlelock_snapshot);
        break;
    case 3: o.size = sizeof(idlelock_snapshot) + 8 * (1 + rd_u8(r) % 16); break;
    case 4: o.size = 4096; break;
    case 5: o.size = rd_u8(r) % SNAPSHOT_V1_SIZE; o.bad = 1; break;
    case 6: o.size = 4097; o.bad = 1; break;
    default: o.size = 0xFFFFFFFFu - rd_u8(r); o.bad = 1; break;
    }
    /* A bad size gets a buffer of the real struct only: the library must
     * not write past it. */
    o.alloc = o.bad ? SNAPSHOT_V1_SIZE : o.size;
    o.p = malloc(o.alloc);
    if (o.p == NULL) abort();
    memset(o.p, 0xA5, o.alloc);
    o.p->size = o.size;
    return o;
}

pass_arg make_pass(reader *r, int for_set)
{
    pass_arg a;
    uint8_t sel = rd_u8(r) % 10;
    const uint8_t *bytes;
    size_t n;
    long scalars;
    memset(&a, 0, sizeof a);
    switch (sel) {
    case 0: a.p = NULL; a.len = rd_u8(r) % 2 ? 4 : 0; a.bad = 1; return a;
    case 1: a.owned = exact_copy((const uint8_t *)"1234", 4); a.p = (const char *)a.owned;
        a.len = SIZE_MAX - rd_u8(r); a.bad = 1; return a;
    case 2: a.owned = exact_copy((const uint8_t *)"1234", 4); a.p = (const char *)a.owned;
        a.len = IDLELOCK_PASSCODE_MAX_BYTES + 1 + rd_u16(r); a.bad = 1; return a;
    case 3: a.owned = exact_copy((const uint8_t *)"1234", 4); a.p = (const char *)a.owned; a.len = 0;
        a.bad = 1; return a;
    case 4: case 5:
        if (last_passcode_len > 0 && !for_set) {
            a.owned = exact_copy(last_passcode, last_passcode_len);
            a.len = last_passcode_len;
            break;
        }
        /* fall through */
    default:
        n = rd_take(r, rd_u8(r) % 24, &bytes);
        if (sel == 9) { /* a long one */
            n = rd_take(r, rd_u16(r) % (IDLELOCK_PASSCODE_MAX_BYTES + 64), &bytes);
        }
        a.owned = exact_copy(bytes, n);
        a.len = n;
        break;
    }
    a.p = (const char *)a.owned;
    scalars = utf8_scalars(a.owned, a.len);
    if (a.len == 0 || a.len > IDLELOCK_PASSCODE_MAX_BYTES || scalars < 0) a.bad = 1;
    else if (for_set && scalars < IDLELOCK_PASSCODE_MIN_SCALARS) a.bad = 1;
    a.kdf = !a.bad;
    return a;
}
