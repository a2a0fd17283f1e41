/* System headers for the Swift code (see module.modulemap). Declarations
 * only: nothing here defines a symbol. */
#ifndef IDLELOCK_CSYSTEM_SHIM_H
#define IDLELOCK_CSYSTEM_SHIM_H
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>
#endif
