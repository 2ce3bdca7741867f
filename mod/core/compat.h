/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels Tern builds on (6.1 and later). Features
 * are detected by Kbuild (see Kbuild), not by version numbers, so that
 * distribution backports work too.
 */
#ifndef _TERN_COMPAT_H
#define _TERN_COMPAT_H

#ifdef TERN_HAVE_NET_GSO_H
#include <net/gso.h>	/* skb_gso_validate_network_len() moved here in 6.5 */
#endif

#include <net/genetlink.h>

/* The attributes of a dump request (genl_info_dump() appeared in 6.2). */
static inline struct nlattr **tern_dump_attrs(struct netlink_callback *cb)
{
#ifdef TERN_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

#endif /* _TERN_COMPAT_H */
