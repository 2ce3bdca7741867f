/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Tern generic netlink API: the one definition shared by tern.ko and the
 * tern CLI.
 *
 * Family "tern", version TERN_GENL_VERSION. Every command runs in the
 * network namespace of the requesting socket and needs CAP_NET_ADMIN in
 * that namespace's user namespace.
 *
 * Requests name an instance with TERN_A_INSTANCE; where it is optional and
 * absent, the kernel uses the only instance of the namespace.
 *
 * TERN_CMD_INSTANCE_ADD   INSTANCE, TYPE, [FRAMEWORK], POOL6, [GLOBALS]
 * TERN_CMD_INSTANCE_DEL   INSTANCE
 * TERN_CMD_INSTANCE_GET   dump: one message per instance:
 *                         INSTANCE, TYPE, FRAMEWORK, POOL6 (if set)
 * TERN_CMD_GLOBAL_GET     [INSTANCE] -> INSTANCE, GLOBALS
 * TERN_CMD_GLOBAL_SET     [INSTANCE], GLOBALS (any subset; all or nothing)
 * TERN_CMD_STATS_GET      [INSTANCE] -> INSTANCE, STATS
 * TERN_CMD_EAMT_ADD       [INSTANCE], EAM (both prefixes; same suffix length)
 * TERN_CMD_EAMT_DEL       [INSTANCE], EAM (either prefix or both)
 * TERN_CMD_EAMT_GET       dump, [INSTANCE]: one message per entry: EAM
 * TERN_CMD_EAMT_FLUSH     [INSTANCE]
 * TERN_CMD_DENY4_ADD      [INSTANCE], PREFIX4
 * TERN_CMD_DENY4_DEL      [INSTANCE], PREFIX4
 * TERN_CMD_DENY4_GET      dump, [INSTANCE]: one message per prefix: PREFIX4
 * TERN_CMD_DENY4_FLUSH    [INSTANCE]
 * TERN_CMD_ADDR_QUERY     [INSTANCE], ADDR -> INSTANCE, QUERY
 */
#ifndef _UAPI_TERN_GENL_H
#define _UAPI_TERN_GENL_H

#define TERN_GENL_NAME		"tern"
#define TERN_GENL_VERSION	1
#define TERN_INSTANCE_NAMSIZ	16	/* including the terminating NUL */

enum tern_cmd {
	TERN_CMD_UNSPEC,
	TERN_CMD_INSTANCE_ADD,
	TERN_CMD_INSTANCE_DEL,
	TERN_CMD_INSTANCE_GET,
	TERN_CMD_GLOBAL_GET,
	TERN_CMD_GLOBAL_SET,
	TERN_CMD_STATS_GET,
	TERN_CMD_EAMT_ADD,
	TERN_CMD_EAMT_DEL,
	TERN_CMD_EAMT_GET,
	TERN_CMD_EAMT_FLUSH,
	TERN_CMD_DENY4_ADD,
	TERN_CMD_DENY4_DEL,
	TERN_CMD_DENY4_GET,
	TERN_CMD_DENY4_FLUSH,
	TERN_CMD_ADDR_QUERY,
	__TERN_CMD_MAX
};
#define TERN_CMD_MAX (__TERN_CMD_MAX - 1)

enum tern_attr {
	TERN_A_UNSPEC,
	TERN_A_INSTANCE,	/* string, < TERN_INSTANCE_NAMSIZ */
	TERN_A_TYPE,		/* u8, enum tern_type */
	TERN_A_FRAMEWORK,	/* u8, enum tern_framework */
	TERN_A_POOL6,		/* nested, enum tern_prefix_attr */
	TERN_A_GLOBALS,		/* nested, enum tern_global */
	TERN_A_STATS,		/* nested, enum tern_stat: u64 each */
	TERN_A_EAM,		/* nested, enum tern_eam_attr */
	TERN_A_PREFIX4,		/* nested, enum tern_prefix_attr (IPv4) */
	TERN_A_ADDR,		/* binary, 4 (IPv4) or 16 (IPv6) bytes */
	TERN_A_QUERY,		/* nested, enum tern_query_attr */
	__TERN_A_MAX
};
#define TERN_A_MAX (__TERN_A_MAX - 1)

enum tern_type {
	TERN_TYPE_SIIT = 1,
	TERN_TYPE_NAT64 = 2,
};

enum tern_framework {
	TERN_FW_NETFILTER = 1,
	TERN_FW_IPTABLES = 2,
};

/* An IPv6 or IPv4 prefix. */
enum tern_prefix_attr {
	TERN_PREFIX_UNSPEC,
	TERN_PREFIX_ADDR,	/* binary, 16 (IPv6) or 4 (IPv4) bytes */
	TERN_PREFIX_LEN,	/* u8 */
	__TERN_PREFIX_MAX
};
#define TERN_PREFIX_MAX (__TERN_PREFIX_MAX - 1)

/* An Explicit Address Mapping (RFC 7757): two prefixes, same suffix length. */
enum tern_eam_attr {
	TERN_EAM_UNSPEC,
	TERN_EAM_PREFIX6,	/* nested, enum tern_prefix_attr (IPv6) */
	TERN_EAM_PREFIX4,	/* nested, enum tern_prefix_attr (IPv4) */
	__TERN_EAM_MAX
};
#define TERN_EAM_MAX (__TERN_EAM_MAX - 1)

/* How an address is (or is not) translated. */
enum tern_map_via {
	TERN_VIA_NONE,		/* not translated; TERN_Q_WHY says why */
	TERN_VIA_EAMT,		/* an EAMT entry (TERN_Q_EAM) */
	TERN_VIA_POOL6,		/* pool6, RFC 6052 (TERN_Q_POOL6) */
};

/* Why an address is not translated. */
enum tern_query_why {
	TERN_WHY_NONE,
	TERN_WHY_NO_MAPPING,	/* outside the EAMT and pool6 */
	TERN_WHY_DENYLIST4,	/* pool6 would map it, denylist4 forbids it */
	TERN_WHY_SPECIAL4,	/* an IPv4 address never translated (RFC 6890) */
	TERN_WHY_WKP_NONGLOBAL,	/* non-global IPv4 with the Well-Known Prefix */
};

/* The answer to TERN_CMD_ADDR_QUERY. */
enum tern_query_attr {
	TERN_Q_UNSPEC,
	TERN_Q_ADDR,		/* binary: the translated address (if any) */
	TERN_Q_VIA,		/* u8, enum tern_map_via */
	TERN_Q_WHY,		/* u8, enum tern_query_why (VIA_NONE only) */
	TERN_Q_EAM,		/* nested, enum tern_eam_attr: entry used */
	TERN_Q_POOL6,		/* nested, enum tern_prefix_attr: prefix used */
	TERN_Q_LOCAL,		/* flag: an address of this host */
	__TERN_Q_MAX
};
#define TERN_Q_MAX (__TERN_Q_MAX - 1)

/* TERN_G_EAM_HAIRPIN values (RFC 7757 4.2 and appendix B). */
enum tern_hairpin_mode {
	TERN_HAIRPIN_OFF,
	TERN_HAIRPIN_SIMPLE,
	TERN_HAIRPIN_INTRINSIC,
};

/* Most entries of TERN_G_MTU_PLATEAUS. */
#define TERN_PLATEAUS_MAX	64

/*
 * Global (per-instance) settings, nested in TERN_A_GLOBALS. Booleans are
 * u8 0/1; TERN_G_TOS is a u8; prefixes are nested tern_prefix_attr (an
 * empty nest unsets an optional one: RFC6791V4/V6); LOWEST_IPV6_MTU is a
 * u32 (1280..65535); MTU_PLATEAUS is an array of u16 in host order (1 to
 * TERN_PLATEAUS_MAX values 68..65535; the kernel sorts them descending and
 * drops duplicates); EAM_HAIRPIN is a u8 enum tern_hairpin_mode.
 * Each is declared (name, kind, bounds, default) in tern_globals.h.
 */
enum tern_global {
	TERN_G_UNSPEC,
	TERN_G_ENABLED,
	TERN_G_POOL6,
	TERN_G_STRICT_WKP,
	TERN_G_ZEROIZE_TC,
	TERN_G_OVERRIDE_TOS,
	TERN_G_TOS,
	TERN_G_AMEND_UDP_CSUM0,
	TERN_G_LOWEST_IPV6_MTU,
	TERN_G_MTU_PLATEAUS,
	TERN_G_RFC6791V4,
	TERN_G_RFC6791V6,
	TERN_G_EAM_HAIRPIN,
	TERN_G_ICMP_ON_DROP,
	__TERN_G_MAX
};
#define TERN_G_MAX (__TERN_G_MAX - 1)

/*
 * Counters, nested in TERN_A_STATS as u64 each. Every packet that reaches
 * a hook of an instance bumps exactly one. Names in tern_names.h.
 */
enum tern_stat {
	TERN_STAT_UNSPEC,
	TERN_STAT_PAD,		/* attribute padding for u64 values */
	TERN_STAT_XLAT_64,
	TERN_STAT_XLAT_46,
	TERN_STAT_PASS_DISABLED,
	TERN_STAT_PASS_LOCAL,
	TERN_STAT_PASS_NO_MAPPING,
	TERN_STAT_PASS_SPECIAL4,
	TERN_STAT_DROP_SPECIAL4,
	TERN_STAT_PASS_OTHERHOST,
	TERN_STAT_DROP_WKP_NONGLOBAL,
	TERN_STAT_DROP_SRC_UNTRANSLATABLE,
	TERN_STAT_DROP_TRUNCATED,
	TERN_STAT_DROP_EXTHDR,
	TERN_STAT_DROP_ROUTING_HDR,
	TERN_STAT_DROP_SRCROUTE,
	TERN_STAT_DROP_FRAGMENT,
	TERN_STAT_DROP_ICMP_ERROR,
	TERN_STAT_DROP_ICMP_INFO,
	TERN_STAT_DROP_ICMP_OTHER,
	TERN_STAT_DROP_UDP_CSUM0,
	TERN_STAT_DROP_TTL,
	TERN_STAT_DROP_TOO_BIG,
	TERN_STAT_DROP_NO_ROUTE,
	TERN_STAT_DROP_NOMEM,
	TERN_STAT_DROP_OUTPUT,
	TERN_STAT_DROP_ICMP_INNER,
	TERN_STAT_DROP_ICMP_FRAGMENT,
	TERN_STAT_XLAT_ICMP_ERR_64,
	TERN_STAT_XLAT_ICMP_ERR_46,
	TERN_STAT_XLAT_HAIRPIN,
	TERN_STAT_DROP_IGMP,
	TERN_STAT_DROP_BAD_CSUM,
	TERN_STAT_DROP_ERR_DEST,
	TERN_STAT_DROP_TO_SELF,
	TERN_STAT_DROP_BAD_GSO,
	TERN_STAT_GSO_SEGMENTED,
	__TERN_STAT_MAX
};
#define TERN_STAT_MAX (__TERN_STAT_MAX - 1)

#endif /* _UAPI_TERN_GENL_H */
