/* SPDX-License-Identifier: MIT */
#include <sodium.h>
