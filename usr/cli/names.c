// SPDX-License-Identifier: GPL-2.0-only
/* tern CLI: the one definition of the API's user-visible names. */
#include <stddef.h>

#define TERN_NAMES_DEFINE
#include "tern_names.h"

/* The CLI needs no field offsets. */
#define TERN_GLOBALS_DEFINE
#define TERN_CFG(field) 0
#include "tern_globals.h"
