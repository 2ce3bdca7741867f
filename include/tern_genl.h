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

/*
 * Global (per-instance) settings. TERN_GLOBALS(X) lists them as
 * X(enum suffix, CLI key, kind); kind is BOOL (u8 0/1), U8 or PREFIX6
 * (nested tern_prefix_attr).
 */
#define TERN_GLOBALS(X)						\
	X(ENABLED,		"enabled",		BOOL)		\
	X(POOL6,		"pool6",		PREFIX6)	\
	X(STRICT_WKP,		"strict-wkp",		BOOL)		\
	X(ZEROIZE_TC,		"zeroize-traffic-class", BOOL)		\
	X(OVERRIDE_TOS,		"override-tos",		BOOL)		\
	X(TOS,			"tos",			U8)

#define TERN_GLOBAL_ENUM_(name, key, kind) TERN_G_##name,
enum tern_global {
	TERN_G_UNSPEC,
	TERN_GLOBALS(TERN_GLOBAL_ENUM_)
	__TERN_G_MAX
};
#undef TERN_GLOBAL_ENUM_
#define TERN_G_MAX (__TERN_G_MAX - 1)

/*
 * Counters. TERN_STATS(X) lists them as X(enum suffix, name, description).
 * Every packet that reaches a hook of an instance bumps exactly one.
 */
#define TERN_STATS(X)							\
	X(XLAT_64,	"xlat-6to4",	"IPv6 packets translated to IPv4")	\
	X(XLAT_46,	"xlat-4to6",	"IPv4 packets translated to IPv6")	\
	X(PASS_DISABLED, "pass-disabled", "Passed: the instance is disabled") \
	X(PASS_LOCAL,	"pass-local",	"Passed: addressed to this host")	\
	X(PASS_NO_MAPPING, "pass-no-mapping", "Passed: destination not covered by pool6") \
	X(PASS_SPECIAL4, "pass-special4", "Passed: IPv4 address never translated (loopback, multicast, broadcast, this-network, link-local)") \
	X(DROP_SPECIAL4, "drop-special4", "Dropped: IPv6 packet whose embedded IPv4 address is never translated") \
	X(PASS_OTHERHOST, "pass-otherhost", "Passed: frame not addressed to this host (broadcast, multicast, other host)") \
	X(DROP_WKP_NONGLOBAL, "drop-wkp-nonglobal", "Dropped: non-global IPv4 address with the Well-Known Prefix (RFC 6052 3.1)") \
	X(DROP_SRC_UNTRANSLATABLE, "drop-src-untranslatable", "Dropped: source address cannot be translated") \
	X(DROP_TRUNCATED, "drop-truncated", "Dropped: packet too short for its headers") \
	X(DROP_EXTHDR,	"drop-exthdr",	"Dropped: malformed or unsupported IPv6 extension header") \
	X(DROP_ROUTING_HDR, "drop-routing-hdr", "Dropped: Routing header with Segments Left > 0 (Parameter Problem sent)") \
	X(DROP_SRCROUTE, "drop-srcroute", "Dropped: unexpired IPv4 source route option (Unreachable sent)") \
	X(DROP_FRAGMENT, "drop-fragment", "Dropped: fragment (fragment translation not supported yet)") \
	X(DROP_ICMP_ERROR, "drop-icmp-error", "Dropped: ICMP error (translation of ICMP errors not supported yet)") \
	X(DROP_ICMP_INFO, "drop-icmp-info", "Dropped: ICMP informational message other than echo") \
	X(DROP_ICMP_OTHER, "drop-icmp-other", "Dropped: ICMP type with no counterpart") \
	X(DROP_UDP_CSUM0, "drop-udp-csum0", "Dropped: IPv4 UDP with zero checksum") \
	X(DROP_TTL,	"drop-ttl",	"Dropped: TTL or Hop Limit exceeded (Time Exceeded sent)") \
	X(DROP_TOO_BIG,	"drop-too-big",	"Dropped: bigger than the next-hop MTU (Packet Too Big / Fragmentation Needed sent)") \
	X(DROP_NO_ROUTE, "drop-no-route", "Dropped: no route for the translated packet") \
	X(DROP_NOMEM,	"drop-nomem",	"Dropped: out of memory")		\
	X(DROP_OUTPUT,	"drop-output",	"Dropped: the output path refused the translated packet")

#define TERN_STAT_ENUM_(name, key, desc) TERN_STAT_##name,
enum tern_stat {
	TERN_STAT_UNSPEC,
	TERN_STAT_PAD,		/* attribute padding for u64 values */
	TERN_STATS(TERN_STAT_ENUM_)
	__TERN_STAT_MAX
};
#undef TERN_STAT_ENUM_
#define TERN_STAT_MAX (__TERN_STAT_MAX - 1)

#endif /* _UAPI_TERN_GENL_H */
