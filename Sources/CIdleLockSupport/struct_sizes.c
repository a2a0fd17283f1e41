/* SPDX-License-Identifier: MIT */
/* The first ABI version's struct sizes: the end of each struct's last v1
 * field, measured by the C compiler for the target (pointer widths and
 * alignment differ on 32-bit hosts). Hosts built against the v1 header pass
 * these sizes; fields added later are appended after them. And which config
 * sizes match a version of the header at all. */
#include "idlelock_support.h"

#include <stddef.h>

#include "idlelock.h"

#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

size_t ilk_snapshot_size_v1(void) { return END_OF(idlelock_snapshot, ms_until_idle_lock); }

size_t ilk_authenticator_size_v1(void) { return END_OF(idlelock_authenticator, delete_secret); }

/* A host built against a header of some version passes that version's
 * sizeof(idlelock_config): the end of its last field, or up to the padding
 * that rounds the struct to its alignment (8 on armhf: a 1.0 config there
 * ends at 92 and is 96 bytes), which is where the next version's first
 * field starts. A size that ends inside a field matches no header. */
int ilk_config_size_matches(size_t size)
{
    if (size >= END_OF(idlelock_config, device_key_len) && size <= offsetof(idlelock_config, prompt_cap_ms))
        return 1; /* 1.0 */
    if (size >= END_OF(idlelock_config, delay_schedule_len) && size <= offsetof(idlelock_config, passcode_max_age_ms))
        return 1; /* 1.1 */
    return size >= sizeof(idlelock_config); /* 1.2, or a later header's */
}
