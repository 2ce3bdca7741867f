/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_INST_H
#define _TERN_INST_H

/*
 * An instance as the packet path sees it: its settings, its parts and
 * inline accessors. No code of its own: the lifecycle (core/instance.c)
 * sits above the packet path, which never calls it.
 */

#include <linux/list.h>
#include <linux/netfilter.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include "core/addr.h"
#include "core/host.h"
#include "core/stats.h"
#include "tern_genl.h"

struct tern_eamt;
struct tern_deny4;
struct tern_pool4;
struct tern_nat64;
struct tern_xt_slot;

/*
 * Settings an instance's packet path reads. Never modified once
 * published: netlink builds a new copy and swaps it in (RCU).
 */
struct tern_config {
	struct rcu_head rcu;
	bool enabled;
	bool strict_wkp;
	bool zeroize_tc;
	bool override_tos;
	u8 tos;
	bool amend_udp_csum0;
	bool icmp_on_drop;		/* RFC 7915 4.4, 5.4 */
	bool pool6_set;
	struct tern_prefix6 pool6;
	u32 lowest_ipv6_mtu;
	u8 eam_hairpin;			/* enum tern_hairpin_mode */
	bool rfc6791v4_set;
	bool rfc6791v6_set;
	struct tern_prefix4 rfc6791v4;
	struct tern_prefix6 rfc6791v6;
	u8 n_plateaus;
	u16 plateaus[TERN_PLATEAUS_MAX];	/* descending, no duplicates */
	/* NAT64 (RFC 6146); timeouts in seconds. */
	u32 udp_timeout;
	u32 tcp_est_timeout;
	u32 tcp_trans_timeout;
	u32 icmp_timeout;
	bool adf;			/* address-dependent filtering */
	bool drop_ext_tcp;
	bool tcp_nosyn_bib;		/* RFC 6146 3.5.2.2, CLOSED */
	bool tcp_rst_fin_rcv;		/* not RFC 6146: nat64/tcp.c */
	u32 max_sessions;		/* 0: derived from RAM */
	u32 max_sess_per_sub;		/* 0: no limit */
	u32 max_ports_per_sub;		/* 0: no limit */
	u32 sub_prefix_len;
	u32 max_stored_syns;
	u32 max_bib_sess4;		/* sessions opened from IPv4, a BIB entry */
	u32 max_static_bib;		/* static BIB entries */
	bool log_bib;			/* events (nat64/events.c) */
	bool log_sessions;
	/* Deterministic NAT64 (RFC 7422, nat64/det.c). */
	bool det_space_set;
	struct tern_prefix6 det_space;
	u32 det_block;			/* 0: derived */
	u32 det_port_key;
	u32 port_block;			/* port blocks (nat64/blocks.c); 0: off */
	/* Several boxes, one pool (include/tern_share.h). */
	u32 box_count;
	u32 box_index;			/* < box_count */
	/*
	 * The instance's tables when this copy was published (set by
	 * tern_instance_set_config() from the instance's own pointers): a
	 * packet reads them through the configuration it read, so a change
	 * of several (config apply) reaches it as one. A table replaced is
	 * freed after the copy that named it was replaced.
	 */
	const struct tern_eamt *eamt;
	const struct tern_deny4 *deny4;
	const struct tern_pool4 *pool4;
};

/*
 * The Well-Known Prefix as pool6 under strict-wkp: pool6 then never stands
 * for a non-global IPv4 address (RFC 6052 3.1).
 */
static inline bool tern_cfg_wkp_strict(const struct tern_config *cfg)
{
	return cfg->strict_wkp && tern_prefix6_is_wkp(&cfg->pool6);
}

struct tern_instance {
	struct list_head list;		/* in tern_net.instances */
	struct net *net;		/* owner; the instance dies with it */
	char name[TERN_INSTANCE_NAMSIZ];
	u8 type;			/* enum tern_type */
	u8 framework;			/* enum tern_framework */
	struct tern_config __rcu *cfg;
	struct tern_eamt __rcu *eamt;	/* RFC 7757; NULL: empty */
	struct tern_deny4 __rcu *deny4;	/* NULL: empty */
	struct tern_pool4 __rcu *pool4;	/* NAT64; NULL: empty */
	struct tern_nat64 *nat64;	/* NAT64 state; NULL for SIIT */
	struct tern_stats __percpu *stats;
	struct tern_host_cache __percpu *host;	/* core/host.c */
	struct tern_route_cache __percpu *routes; /* core/route_cache.c */
	struct nf_hook_ops hook_ops[2];	/* netfilter mode */
	struct tern_xt_slot *xt_slot;	/* iptables mode (fw/xt.c) */
};

/* The kind of IPv4 address @a is for the instance's host (RTN_*). */
static inline unsigned int tern_addr4_type(const struct tern_instance *inst,
					   __be32 a)
{
	return tern_host4_type(inst->host, inst->net, a);
}

/* Is @a the host's or a broadcast address of one of its subnets? */
static inline bool tern_addr4_is_host(const struct tern_instance *inst,
				      __be32 a)
{
	unsigned int type = tern_addr4_type(inst, a);

	return type == RTN_LOCAL || type == RTN_BROADCAST;
}

/* Is @a one of the instance's host's IPv6 addresses? */
static inline bool tern_addr6_is_host(const struct tern_instance *inst,
				      const struct in6_addr *a)
{
	return tern_host6_is_local(inst->host, inst->net, a);
}

static inline const struct tern_config *
tern_instance_config(const struct tern_instance *inst)
{
	return rcu_dereference(inst->cfg);
}

#endif /* _TERN_INST_H */
