// SPDX-License-Identifier: GPL-2.0-only
/* tern CLI: the one definition of the API's user-visible names. */
#include <stddef.h>

#include "tern.h"

#define TERN_NAMES_DEFINE
#include "tern_names.h"

/* The CLI needs no field offsets. */
#define TERN_GLOBALS_DEFINE
#define TERN_CFG(field) 0
#include "tern_globals.h"

/*
 * Every counter of enum tern_stat has its line in tern_stat_names (name,
 * meaning, group), which ends with a NULL one.
 */
_Static_assert(ARRAY_SIZE(tern_stat_names) == TERN_STAT_MAX - TERN_STAT_PAD + 1,
	       "a counter of enum tern_stat lacks its line in tern_stat_names (tern_names.h)");

const char *tern_type_name(unsigned int v)
{
	static const char *const names[] = {
		[TERN_TYPE_SIIT] = "siit",
		[TERN_TYPE_NAT64] = "nat64",
	};

	return v < ARRAY_SIZE(names) ? names[v] : NULL;
}

const char *tern_fw_name(unsigned int v)
{
	static const char *const names[] = {
		[TERN_FW_NETFILTER] = "netfilter",
		[TERN_FW_IPTABLES] = "iptables",
	};

	return v < ARRAY_SIZE(names) ? names[v] : NULL;
}
