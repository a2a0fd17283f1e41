/* The first ABI version's struct sizes: the end of each struct's last v1
 * field, measured by the C compiler for the target (pointer widths and
 * alignment differ on 32-bit hosts). Hosts built against the v1 header pass
 * these sizes; fields added later are appended after them. */
#include "idlelock_support.h"

#include <stddef.h>

#include "idlelock.h"

#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

size_t ilk_config_size_v1(void) { return END_OF(idlelock_config, device_key_len); }

size_t ilk_snapshot_size_v1(void) { return END_OF(idlelock_snapshot, ms_until_idle_lock); }

size_t ilk_authenticator_size_v1(void) { return END_OF(idlelock_authenticator, delete_secret); }
