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
#include <net/ip.h>

/* The attributes of a dump request (genl_info_dump() appeared in 6.2). */
static inline struct nlattr **tern_dump_attrs(struct netlink_callback *cb)
{
#ifdef TERN_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * The kernel's global ICMP rate limit (net.ipv4.icmp_msgs_per_sec), for an
 * error Tern builds itself: one credit. The check and the charge were
 * split in 6.12 (and 6.1.112), then made per network namespace.
 */
static inline bool tern_icmp_global_allow(struct net *net)
{
#if defined(TERN_HAVE_ICMP_GLOBAL_NETNS)
	if (!icmp_global_allow(net))
		return false;
	icmp_global_consume(net);
	return true;
#elif defined(TERN_HAVE_ICMP_GLOBAL_CONSUME)
	if (!icmp_global_allow())
		return false;
	icmp_global_consume();
	return true;
#else
	return icmp_global_allow();
#endif
}

#endif /* _TERN_COMPAT_H */
