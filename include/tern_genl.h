/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Tern generic netlink API: the one definition shared by tern.ko and the
 * tern CLI.
 *
 * Family "tern", version TERN_GENL_VERSION (the netlink API version, see
 * below). Every command runs in the
 * network namespace of the requesting socket and needs CAP_NET_ADMIN in
 * that namespace's user namespace.
 *
 * Requests name an instance with TERN_A_INSTANCE; where it is optional and
 * absent, the kernel uses the only instance of the namespace.
 *
 * TERN_CMD_INSTANCE_ADD   INSTANCE, TYPE, [FRAMEWORK], POOL6, [GLOBALS]
 * TERN_CMD_INSTANCE_DEL   INSTANCE
 * TERN_CMD_INSTANCE_GET   dump: one message per instance:
 *                         INSTANCE, TYPE, FRAMEWORK, POOL6 (if set),
 *                         STATUS; then one per name that iptables rules
 *                         (target TERN, xt_TERN.h) use and no instance
 *                         has: INSTANCE, STATUS (no TYPE)
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
 * TERN_CMD_VERSION        (nothing) -> VERSION, API_VERSION; needs no
 *                         privilege
 *
 * NAT64 instances only (RFC 6146):
 * TERN_CMD_POOL4_ADD      [INSTANCE], POOL4 (PREFIX, PROTO, [PORT_MIN,
 *                         PORT_MAX], [MARK]); overlapping entries refused
 * TERN_CMD_POOL4_DEL      [INSTANCE], POOL4 (PREFIX, PROTO, [PORT_MIN and
 *                         PORT_MAX], [MARK]): the entry with these ports,
 *                         or without them every entry of the prefix
 * TERN_CMD_POOL4_GET      dump, [INSTANCE]: one message per entry: POOL4
 * TERN_CMD_POOL4_FLUSH    [INSTANCE]
 * TERN_CMD_BIB_ADD        [INSTANCE], BIB (PROTO, ADDR6, PORT6, ADDR4,
 *                         PORT4): a static entry
 * TERN_CMD_BIB_DEL        [INSTANCE], BIB (PROTO and either side)
 * TERN_CMD_BIB_GET        dump, [INSTANCE], [PROTO], [FILTER]: one message
 *                         per entry
 * TERN_CMD_SESSION_GET    dump, [INSTANCE], [PROTO], [FILTER]: one message
 *                         per session: SESSION
 * TERN_CMD_SESSION_FLUSH  [INSTANCE], [PROTO]: dynamic state removed
 *                         (static BIB entries stay)
 *
 * TERN_CMD_CONFIG_APPLY   the whole configuration of the namespace, as one
 *                         transaction: a sequence of top-level attributes,
 *                         CONFIG (an instance: nested INSTANCE, TYPE,
 *                         [FRAMEWORK], [POOL6], [GLOBALS], as INSTANCE_ADD
 *                         takes them) followed by its entries: EAM (EAMT),
 *                         PREFIX4 (denylist4), POOL4, BIB (static). Every
 *                         instance named is created or updated in place
 *                         (its globals: the defaults but those given),
 *                         every other one removed. Nothing changes on
 *                         a bad attribute or entry; the extack's offset
 *                         points at it. Past the checks only resources
 *                         can fail (docs/config.md): an instance that is
 *                         created once the one it replaces is gone, and
 *                         static BIB entries, added last.
 *
 * Events (NAT64): notifications multicast on the group
 * TERN_GENL_MCGRP_EVENTS of the family (joining it needs CAP_NET_ADMIN
 * where the kernel can check it: Linux 6.1.x with GENL_MCAST_CAP_NET_ADMIN
 * and later), to the sockets of the instance's namespace. Off by default:
 * the settings log-bib and log-sessions turn them on per instance.
 * TERN_CMD_EVENT          INSTANCE, EVENT, TIME, and BIB (BIB_ADD, BIB_DEL:
 *                         PROTO, ADDR6, PORT6, ADDR4, PORT4, [STATIC]) or
 *                         SESSION (SESSION_ADD, SESSION_DEL: PROTO, ADDR6,
 *                         PORT6, ADDR4, PORT4, REMOTE4, RPORT4, [STATE]
 *                         (TCP))
 * A BIB entry made with a session gives BIB_ADD then SESSION_ADD; a
 * session removed with the last of its entry gives SESSION_DEL then
 * BIB_DEL. Removing an instance sends no event for what it held. Events
 * are best effort: the packet path never waits for them. events-dropped
 * counts those that could not be allocated, that no listener got, and
 * those a listener with the socket option NETLINK_BROADCAST_ERROR could
 * not take (its receive buffer full); a listener that misses events gets
 * ENOBUFS from recv().
 */
#ifndef _UAPI_TERN_GENL_H
#define _UAPI_TERN_GENL_H

#define TERN_GENL_NAME		"tern"

/*
 * The netlink API version: the family's version (what the generic netlink
 * controller reports for "tern", CTRL_ATTR_VERSION) and TERN_A_API_VERSION.
 * The CLI refuses to talk to a module of another version.
 *
 * Bump it when a CLI built against the old header would misread the new
 * module or be misread by it: an enum value renumbered or removed, an
 * attribute whose type, size, unit or meaning changed, a command whose
 * required attributes or replies changed. Adding a command, an attribute,
 * a global or a counter at the end of its enum does not bump it: older
 * CLIs ignore what they do not know, and the kernel says what it refuses.
 * Enum values are only ever added at the end.
 */
#define TERN_GENL_API_VERSION	1
#define TERN_GENL_VERSION	TERN_GENL_API_VERSION
#define TERN_INSTANCE_NAMSIZ	16	/* including the terminating NUL */

/*
 * The characters of an instance name: printable ASCII but blanks, quotes
 * and backslashes (what iptables-save writes back unquoted). Its length
 * is checked apart (1 to TERN_INSTANCE_NAMSIZ - 1).
 */
static inline int tern_instance_name_chars_ok(const char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == '"' || *s == '\'' ||
		    *s == '\\')
			return 0;
	return 1;
}
#define TERN_GENL_MCGRP_EVENTS	"events"

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
	TERN_CMD_POOL4_ADD,
	TERN_CMD_POOL4_DEL,
	TERN_CMD_POOL4_GET,
	TERN_CMD_POOL4_FLUSH,
	TERN_CMD_BIB_ADD,
	TERN_CMD_BIB_DEL,
	TERN_CMD_BIB_GET,
	TERN_CMD_SESSION_GET,
	TERN_CMD_SESSION_FLUSH,
	TERN_CMD_EVENT,		/* notifications only (TERN_GENL_MCGRP_EVENTS) */
	TERN_CMD_VERSION,
	TERN_CMD_CONFIG_APPLY,
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
	TERN_A_POOL4,		/* nested, enum tern_pool4_attr */
	TERN_A_BIB,		/* nested, enum tern_bib_attr */
	TERN_A_SESSION,		/* nested, enum tern_session_attr */
	TERN_A_PROTO,		/* u8: IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMP */
	TERN_A_TABLES,		/* nested, enum tern_tables_attr (STATS_GET) */
	TERN_A_EVENT,		/* u8, enum tern_event */
	TERN_A_TIME,		/* u64: when, ns since the epoch (CLOCK_REALTIME) */
	TERN_A_PAD,		/* attribute padding for u64 values */
	TERN_A_VERSION,		/* string: the module's version ("0.1.0") */
	TERN_A_API_VERSION,	/* u32: TERN_GENL_API_VERSION */
	TERN_A_CONFIG,		/* nested, enum tern_attr (CONFIG_APPLY) */
	TERN_A_STATUS,		/* nested, enum tern_status_attr (INSTANCE_GET) */
	TERN_A_FILTER,		/* nested, enum tern_filter_attr (BIB/SESSION_GET) */
	TERN_A_BLOCK,		/* nested, enum tern_block_attr (events) */
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

/*
 * What TERN_CMD_INSTANCE_GET says of an instance and of the iptables rules
 * naming it (rules naming a netfilter instance, or no instance, pass
 * their packets on untouched and count them in MISSED).
 */
enum tern_status_attr {
	TERN_STATUS_UNSPEC,
	TERN_STATUS_PAD,	/* attribute padding for u64 values */
	TERN_STATUS_ENABLED,	/* u8 0/1 (instances only): setting enabled */
	TERN_STATUS_RULES,	/* u32: TERN target entries naming it */
	TERN_STATUS_MISSED,	/* u64: packets they passed (no instance) */
	__TERN_STATUS_MAX
};
#define TERN_STATUS_MAX (__TERN_STATUS_MAX - 1)

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
	/*
	 * flag: in EAMT_ADD and CONFIG_APPLY, the entry may overlap others
	 * (nest inside or around them; the longest prefix wins); in dumps,
	 * it does.
	 */
	TERN_EAM_FORCE,
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

/*
 * NAT64 objects. PROTO is a u8 IPPROTO_TCP, IPPROTO_UDP or IPPROTO_ICMP
 * (ICMP: the ports are query identifiers). Ports are u16 in host order.
 */
enum tern_pool4_attr {
	TERN_POOL4_UNSPEC,
	TERN_POOL4_PREFIX,	/* nested, enum tern_prefix_attr (IPv4) */
	TERN_POOL4_PROTO,	/* u8 */
	TERN_POOL4_PORT_MIN,	/* u16; default 1024 (ICMP: 0) */
	TERN_POOL4_PORT_MAX,	/* u16; default 65535 */
	TERN_POOL4_MARK,	/* u32: packets with this mark use it; default 0 */
	__TERN_POOL4_MAX
};
#define TERN_POOL4_MAX (__TERN_POOL4_MAX - 1)

enum tern_bib_attr {
	TERN_BIB_UNSPEC,
	TERN_BIB_PROTO,		/* u8 */
	TERN_BIB_ADDR6,		/* binary, 16 bytes */
	TERN_BIB_PORT6,		/* u16 */
	TERN_BIB_ADDR4,		/* binary, 4 bytes */
	TERN_BIB_PORT4,		/* u16 */
	TERN_BIB_STATIC,	/* flag (dumps): added by an operator */
	TERN_BIB_SESSIONS,	/* u32 (dumps): its sessions */
	__TERN_BIB_MAX
};
#define TERN_BIB_MAX (__TERN_BIB_MAX - 1)

/* TCP states of RFC 6146 3.5.2 (TERN_SESSION_STATE); UDP/ICMP: 0. */
enum tern_tcp_state {
	TERN_TCP_CLOSED,
	TERN_TCP_V4_INIT,
	TERN_TCP_V6_INIT,
	TERN_TCP_ESTABLISHED,
	TERN_TCP_V4_FIN_RCV,
	TERN_TCP_V6_FIN_RCV,
	TERN_TCP_V4_FIN_V6_FIN_RCV,
	TERN_TCP_TRANS,
	TERN_TCP_V6_REBUILT,	/* Tern: rebuilt from a non-SYN (det mode) */
	__TERN_TCP_STATE_MAX
};

enum tern_session_attr {
	TERN_SESSION_UNSPEC,
	TERN_SESSION_PROTO,	/* u8 */
	TERN_SESSION_ADDR6,	/* binary 16: the IPv6 host */
	TERN_SESSION_PORT6,	/* u16 */
	TERN_SESSION_ADDR4,	/* binary 4: its IPv4 transport address */
	TERN_SESSION_PORT4,	/* u16 */
	TERN_SESSION_REMOTE4,	/* binary 4: the IPv4 peer */
	TERN_SESSION_RPORT4,	/* u16 */
	TERN_SESSION_STATE,	/* u8, enum tern_tcp_state */
	TERN_SESSION_EXPIRES,	/* u32: milliseconds until it expires */
	__TERN_SESSION_MAX
};
#define TERN_SESSION_MAX (__TERN_SESSION_MAX - 1)

/*
 * Which entries a BIB or session dump lists (TERN_A_FILTER): those that
 * match every attribute given (and TERN_A_PROTO). ADDR4 and PORT4 are the
 * entry's IPv4 transport address (from pool4, not the session's peer);
 * PORT4 needs ADDR4. PREFIX6 holds the entry's IPv6 address (no bits set
 * past its length). SUBSCRIBER is an IPv6 address: the entries of its
 * subscriber, the prefix that max-sessions-per-subscriber counts (the
 * entry's address cut to the subscriber-prefix-len in force when the
 * entry was made; a static entry: its own address). STATIC: static
 * entries only (of a session dump: the sessions of static entries); a BIB
 * dump of static entries only is flagged NLM_F_DUMP_INTR only when static
 * entries were added or removed, or the table resized, between two of its
 * parts, not by the dynamic entries traffic makes and ends.
 */
enum tern_filter_attr {
	TERN_FILTER_UNSPEC,
	TERN_FILTER_ADDR4,	/* binary, 4 bytes */
	TERN_FILTER_PORT4,	/* u16 */
	TERN_FILTER_PREFIX6,	/* nested, enum tern_prefix_attr (IPv6) */
	TERN_FILTER_SUBSCRIBER,	/* binary, 16 bytes */
	TERN_FILTER_STATIC,	/* flag */
	__TERN_FILTER_MAX
};
#define TERN_FILTER_MAX (__TERN_FILTER_MAX - 1)

/* NAT64 table sizes in STATS_GET replies (TERN_A_TABLES), u64 each. */
enum tern_tables_attr {
	TERN_TABLES_UNSPEC,
	TERN_TABLES_PAD,
	TERN_TABLES_BIB,	/* BIB entries, all protocols */
	TERN_TABLES_SESSIONS,	/* sessions, all protocols */
	TERN_TABLES_BYTES,	/* memory the entries take (slab objects) */
	TERN_TABLES_MAX_SESSIONS, /* the limit in force */
	TERN_TABLES_STORED_SYNS, /* IPv4 SYNs waiting (simultaneous open) */
	TERN_TABLES_BUCKET_BYTES, /* memory the hash arrays take */
	__TERN_TABLES_MAX
};
#define TERN_TABLES_MAX (__TERN_TABLES_MAX - 1)

/* TERN_A_EVENT values. */
enum tern_event {
	TERN_EV_BIB_ADD,
	TERN_EV_BIB_DEL,
	TERN_EV_SESSION_ADD,
	TERN_EV_SESSION_DEL,
	TERN_EV_BLOCK_ADD,	/* a port block given to a subscriber */
	TERN_EV_BLOCK_DEL,	/* a port block returned (its last BIB entry went) */
};

/* TERN_A_BLOCK: a port block of a subscriber (port-block-size). */
enum tern_block_attr {
	TERN_BLOCK_UNSPEC,
	TERN_BLOCK_PROTO,	/* u8: IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMP */
	TERN_BLOCK_PREFIX6,	/* binary, 16 bytes: the subscriber's prefix */
	TERN_BLOCK_PLEN,	/* u8: its length */
	TERN_BLOCK_ADDR4,	/* binary, 4 bytes */
	TERN_BLOCK_PORT_MIN,	/* u16: first port of the block */
	TERN_BLOCK_PORT_MAX,	/* u16: last port of the block */
	__TERN_BLOCK_MAX
};
#define TERN_BLOCK_MAX (__TERN_BLOCK_MAX - 1)

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
	TERN_G_UDP_TIMEOUT,		/* u32 seconds, NAT64 */
	TERN_G_TCP_EST_TIMEOUT,		/* u32 seconds, NAT64 */
	TERN_G_TCP_TRANS_TIMEOUT,	/* u32 seconds, NAT64 */
	TERN_G_ICMP_TIMEOUT,		/* u32 seconds, NAT64 */
	TERN_G_ADF,			/* u8 0/1: address-dependent filtering */
	TERN_G_DROP_EXT_TCP,		/* u8 0/1 */
	TERN_G_MAX_SESSIONS,		/* u32; 0: derived from RAM */
	TERN_G_MAX_SESS_PER_SUB,	/* u32; 0: no limit */
	TERN_G_MAX_PORTS_PER_SUB,	/* u32; 0: no limit */
	TERN_G_SUB_PREFIX_LEN,		/* u32, 32..128 */
	TERN_G_MAX_STORED_SYNS,		/* u32 */
	TERN_G_LOG_BIB,			/* u8 0/1: BIB events */
	TERN_G_LOG_SESSIONS,		/* u8 0/1: session events */
	TERN_G_TCP_NOSYN_BIB,		/* u8 0/1: TCP without session */
	TERN_G_MAX_BIB_SESS4,		/* u32, 1..65535 */
	TERN_G_MAX_STATIC_BIB,		/* u32 */
	TERN_G_DET_SPACE,		/* nested prefix (IPv6); empty: off */
	TERN_G_DET_BLOCK_SIZE,		/* u32 ports, 0..65536; 0: derived */
	TERN_G_DET_PORT_KEY,		/* u32: key of the port choice */
	TERN_G_PORT_BLOCK_SIZE,		/* u32 ports, 0..65536; 0: off */
	TERN_G_BOX_COUNT,		/* u32, 1..1024: boxes sharing pool4 */
	TERN_G_BOX_INDEX,		/* u32, 0..1023: this box (< count) */
	TERN_G_TCP_RST_FIN_RCV,		/* u8 0/1: RST in FIN RCV: TCP_TRANS */
	__TERN_G_MAX
};
#define TERN_G_MAX (__TERN_G_MAX - 1)

/*
 * Counters, nested in TERN_A_STATS as u64 each. Every packet that reaches
 * a hook of an instance bumps exactly one of them but EVENTS_DROPPED,
 * which counts events, TCP_PROBES, packets Tern sends of its own, the
 * EVICT_* ones, sessions removed to make room, and TCP_REBUILT, sessions
 * made for a packet that XLAT_64 counts too. Names in tern_names.h.
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
	TERN_STAT_DROP_NO_POOL4,	/* NAT64: pool4 has no entry for it */
	TERN_STAT_DROP_POOL4_FULL,	/* NAT64: no free port (bounded probes) */
	TERN_STAT_DROP_NO_SESSION,	/* NAT64 4->6: no BIB entry/session */
	TERN_STAT_DROP_FILTERED,	/* NAT64 4->6: address-dependent filter */
	TERN_STAT_DROP_MAX_SESSIONS,	/* NAT64: max-sessions reached */
	TERN_STAT_DROP_SUB_SESSIONS,	/* max-sessions-per-subscriber */
	TERN_STAT_DROP_SUB_PORTS,	/* max-ports-per-subscriber */
	TERN_STAT_DROP_TCP_NOSYN,	/* NAT64: no session, not a SYN */
	TERN_STAT_DROP_EXT_TCP,		/* drop-externally-initiated-tcp */
	TERN_STAT_SYN_STORED,		/* IPv4 SYN kept for simultaneous open */
	TERN_STAT_DROP_SYN_STORE_FULL,	/* max-stored-syns reached */
	TERN_STAT_EVENTS_DROPPED,	/* not a packet: events lost */
	TERN_STAT_TCP_PROBES,		/* not a packet: RFC 6146 probes sent */
	TERN_STAT_EVICT_UNCONFIRMED,	/* not a packet: early drop */
	TERN_STAT_EVICT_EXPIRED,	/* not a packet: early drop */
	TERN_STAT_DROP_BIB_SESS4,	/* max-sessions-per-bib-from-ipv4 */
	TERN_STAT_DROP_DET_OUTSIDE,	/* deterministic: outside det-space */
	TERN_STAT_DROP_DET_FULL,	/* deterministic: port block full */
	TERN_STAT_TCP_REBUILT,		/* not a packet: TCP sessions rebuilt */
	TERN_STAT_BLOCK_ALLOC,		/* not a packet: port blocks given */
	TERN_STAT_BLOCK_RELEASE,	/* not a packet: port blocks returned */
	TERN_STAT_DROP_BLOCK_REFUSED,	/* port blocks: subscriber has its most */
	TERN_STAT_DROP_OTHER_FAMILY,	/* a protocol of the other IP version */
	TERN_STAT_DROP_CONTENDED,	/* NAT64: insert lost to other CPUs */
	__TERN_STAT_MAX
};
#define TERN_STAT_MAX (__TERN_STAT_MAX - 1)

#endif /* _UAPI_TERN_GENL_H */
