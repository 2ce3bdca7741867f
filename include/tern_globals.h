/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The global (per-instance) settings: one entry each, the only place a
 * setting is declared. tern.ko derives from it the netlink policy of
 * TERN_A_GLOBALS, the validation, the defaults, the apply and the dump
 * (mod/nl/globals.c); the tern CLI derives `tern global set/show`, their
 * parsing, printing and help (usr/cli/global.c).
 *
 * Adding a setting: an attribute at the end of enum tern_global
 * (tern_genl.h), a field in struct tern_config (mod/core/instance.h), an entry
 * below. Its kind says how its value travels (u8, u32, nested prefix, u16
 * array) and how both sides parse and print it.
 *
 * One translation unit of each side defines TERN_GLOBALS_DEFINE and
 * TERN_CFG(field) (tern.ko: the field's offset in struct tern_config; the
 * CLI: 0) before including this.
 */
#ifndef _TERN_GLOBALS_H
#define _TERN_GLOBALS_H

#include "tern_genl.h"

enum tern_global_kind {
	TERN_KIND_BOOL,		/* u8 0/1 */
	TERN_KIND_U8,		/* u8, min..max */
	TERN_KIND_PREFIX6,	/* nested tern_prefix_attr, IPv6, RFC 6052 */
	TERN_KIND_U32,		/* u32, min..max */
	TERN_KIND_PLATEAUS,	/* array of u16 (host order) */
	TERN_KIND_PREFIX4_OPT,	/* nested tern_prefix_attr, IPv4; empty: unset */
	TERN_KIND_PREFIX6_OPT,	/* nested tern_prefix_attr, IPv6; empty: unset */
	TERN_KIND_HAIRPIN,	/* u8, enum tern_hairpin_mode */
};

struct tern_global_meta {
	const char *key;	/* CLI and JSON name */
	unsigned int attr;	/* enum tern_global */
	enum tern_global_kind kind;
	/* U8, U32, HAIRPIN: bounds; BOOL, U8, U32, HAIRPIN: default. */
	unsigned int min, max, def;
	/*
	 * tern.ko: offset of the value in struct tern_config, and of its
	 * companion: the "is set" flag of a prefix, the count of plateaus.
	 */
	unsigned int off, aux;
	const char *help;
};

#ifdef TERN_GLOBALS_DEFINE
const struct tern_global_meta tern_globals[] = {
	{ .key = "enabled", .attr = TERN_G_ENABLED, .kind = TERN_KIND_BOOL,
	  .def = 1, .off = TERN_CFG(enabled),
	  .help = "translate; false passes every packet untouched" },
	{ .key = "pool6", .attr = TERN_G_POOL6, .kind = TERN_KIND_PREFIX6,
	  .off = TERN_CFG(pool6), .aux = TERN_CFG(pool6_set),
	  .help = "RFC 6052 prefix of the IPv4-embedded IPv6 addresses" },
	{ .key = "strict-wkp", .attr = TERN_G_STRICT_WKP, .kind = TERN_KIND_BOOL,
	  .def = 1, .off = TERN_CFG(strict_wkp),
	  .help = "with 64:ff9b::/96, only global IPv4 addresses (RFC 6052 3.1)" },
	{ .key = "zeroize-traffic-class", .attr = TERN_G_ZEROIZE_TC,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(zeroize_tc),
	  .help = "4->6: Traffic Class 0 instead of the TOS" },
	{ .key = "override-tos", .attr = TERN_G_OVERRIDE_TOS,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(override_tos),
	  .help = "6->4: TOS from 'tos' instead of the Traffic Class" },
	{ .key = "tos", .attr = TERN_G_TOS, .kind = TERN_KIND_U8, .max = 255,
	  .off = TERN_CFG(tos),
	  .help = "the TOS used with override-tos" },
	{ .key = "amend-udp-checksum-zero", .attr = TERN_G_AMEND_UDP_CSUM0,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(amend_udp_csum0),
	  .help = "4->6: compute missing UDP checksums (RFC 7915 4.5)" },
	{ .key = "lowest-ipv6-mtu", .attr = TERN_G_LOWEST_IPV6_MTU,
	  .kind = TERN_KIND_U32, .min = 1280, .max = 65535, .def = 1280,
	  .off = TERN_CFG(lowest_ipv6_mtu),
	  .help = "4->6: DF=0 packets are fragmented to this size" },
	{ .key = "mtu-plateaus", .attr = TERN_G_MTU_PLATEAUS,
	  .kind = TERN_KIND_PLATEAUS, .off = TERN_CFG(plateaus),
	  .aux = TERN_CFG(n_plateaus),
	  .help = "4->6: MTUs guessed for Fragmentation Needed with MTU 0" },
	{ .key = "rfc6791v4-prefix", .attr = TERN_G_RFC6791V4,
	  .kind = TERN_KIND_PREFIX4_OPT, .off = TERN_CFG(rfc6791v4),
	  .aux = TERN_CFG(rfc6791v4_set),
	  .help = "6->4: sources of errors from untranslatable addresses" },
	{ .key = "rfc6791v6-prefix", .attr = TERN_G_RFC6791V6,
	  .kind = TERN_KIND_PREFIX6_OPT, .off = TERN_CFG(rfc6791v6),
	  .aux = TERN_CFG(rfc6791v6_set),
	  .help = "4->6: sources of errors from untranslatable addresses" },
	{ .key = "eam-hairpin-mode", .attr = TERN_G_EAM_HAIRPIN,
	  .kind = TERN_KIND_HAIRPIN, .max = TERN_HAIRPIN_INTRINSIC,
	  .def = TERN_HAIRPIN_INTRINSIC, .off = TERN_CFG(eam_hairpin),
	  .help = "EAM hairpinning (RFC 7757 4.2)" },
	{ .key = "icmp-on-drop", .attr = TERN_G_ICMP_ON_DROP,
	  .kind = TERN_KIND_BOOL, .def = 1,
	  .off = TERN_CFG(icmp_on_drop),
	  .help = "answer policy drops with ICMP (RFC 7915 4.4, 5.4)" },
	{ .key = "udp-timeout", .attr = TERN_G_UDP_TIMEOUT,
	  .kind = TERN_KIND_U32, .min = 120, .max = 86400 * 7, .def = 300,
	  .off = TERN_CFG(udp_timeout),
	  .help = "NAT64: seconds an idle UDP session lives (RFC 6146: 120 at least)" },
	{ .key = "tcp-est-timeout", .attr = TERN_G_TCP_EST_TIMEOUT,
	  .kind = TERN_KIND_U32, .min = 7440, .max = 86400 * 7, .def = 7440,
	  .off = TERN_CFG(tcp_est_timeout),
	  .help = "NAT64: seconds an idle established TCP session lives" },
	{ .key = "tcp-trans-timeout", .attr = TERN_G_TCP_TRANS_TIMEOUT,
	  .kind = TERN_KIND_U32, .min = 240, .max = 86400, .def = 240,
	  .off = TERN_CFG(tcp_trans_timeout),
	  .help = "NAT64: seconds a TCP session opening or closing lives" },
	{ .key = "icmp-timeout", .attr = TERN_G_ICMP_TIMEOUT,
	  .kind = TERN_KIND_U32, .min = 60, .max = 86400, .def = 60,
	  .off = TERN_CFG(icmp_timeout),
	  .help = "NAT64: seconds an idle ICMP query session lives (RFC 5508: 60 at least)" },
	{ .key = "address-dependent-filtering", .attr = TERN_G_ADF,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(adf),
	  .help = "NAT64: IPv4 packets only from peers a session knows (RFC 4787)" },
	{ .key = "drop-externally-initiated-tcp", .attr = TERN_G_DROP_EXT_TCP,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(drop_ext_tcp),
	  .help = "NAT64: drop IPv4 SYNs that would open a session" },
	{ .key = "max-sessions", .attr = TERN_G_MAX_SESSIONS,
	  .kind = TERN_KIND_U32, .max = 1U << 26, .def = 0,
	  .off = TERN_CFG(max_sessions),
	  .help = "NAT64: most sessions (0: 1/32 of RAM's worth)" },
	{ .key = "max-sessions-per-subscriber", .attr = TERN_G_MAX_SESS_PER_SUB,
	  .kind = TERN_KIND_U32, .max = 1U << 26, .def = 0,
	  .off = TERN_CFG(max_sess_per_sub),
	  .help = "NAT64: most sessions of one subscriber (0: no limit)" },
	{ .key = "max-ports-per-subscriber", .attr = TERN_G_MAX_PORTS_PER_SUB,
	  .kind = TERN_KIND_U32, .max = 1U << 26, .def = 0,
	  .off = TERN_CFG(max_ports_per_sub),
	  .help = "NAT64: most BIB entries of one subscriber (0: no limit)" },
	{ .key = "subscriber-prefix-len", .attr = TERN_G_SUB_PREFIX_LEN,
	  .kind = TERN_KIND_U32, .min = 32, .max = 128, .def = 56,
	  .off = TERN_CFG(sub_prefix_len),
	  .help = "NAT64: IPv6 prefix length of a subscriber" },
	{ .key = "max-stored-syns", .attr = TERN_G_MAX_STORED_SYNS,
	  .kind = TERN_KIND_U32, .max = 65536, .def = 64,
	  .off = TERN_CFG(max_stored_syns),
	  .help = "NAT64: most IPv4 SYNs kept for simultaneous open" },
	{ .key = "log-bib", .attr = TERN_G_LOG_BIB, .kind = TERN_KIND_BOOL,
	  .off = TERN_CFG(log_bib),
	  .help = "NAT64: BIB entries made and removed sent as events (tern monitor)" },
	{ .key = "log-sessions", .attr = TERN_G_LOG_SESSIONS,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(log_sessions),
	  .help = "NAT64: sessions made and removed sent as events (tern monitor)" },
	{ .key = "tcp-nosyn-with-bib", .attr = TERN_G_TCP_NOSYN_BIB,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(tcp_nosyn_bib),
	  .help = "NAT64: translate TCP other than SYN without session if the BIB has its entry" },
	{ .key = "tcp-rst-during-fin-rcv", .attr = TERN_G_TCP_RST_FIN_RCV,
	  .kind = TERN_KIND_BOOL, .off = TERN_CFG(tcp_rst_fin_rcv),
	  .help = "NAT64: a RST in V4/V6 FIN RCV gives tcp-trans-timeout (RFC 6146: tcp-est-timeout)" },
	{ .key = "max-sessions-per-bib-from-ipv4", .attr = TERN_G_MAX_BIB_SESS4,
	  .kind = TERN_KIND_U32, .min = 1, .max = 65535, .def = 4096,
	  .off = TERN_CFG(max_bib_sess4),
	  .help = "NAT64: most sessions opened from IPv4 on one BIB entry" },
	{ .key = "max-static-bib-entries", .attr = TERN_G_MAX_STATIC_BIB,
	  .kind = TERN_KIND_U32, .max = 1U << 20, .def = 65536,
	  .off = TERN_CFG(max_static_bib),
	  .help = "NAT64: most static BIB entries (bib add)" },
	{ .key = "det-space", .attr = TERN_G_DET_SPACE,
	  .kind = TERN_KIND_PREFIX6_OPT, .off = TERN_CFG(det_space),
	  .aux = TERN_CFG(det_space_set),
	  .help = "NAT64: deterministic mode (RFC 7422): the subscribers' IPv6 space; none: off" },
	{ .key = "det-block-size", .attr = TERN_G_DET_BLOCK_SIZE,
	  .kind = TERN_KIND_U32, .max = 65536, .def = 0,
	  .off = TERN_CFG(det_block),
	  .help = "NAT64: deterministic mode: ports per subscriber (0: as many as fit)" },
	{ .key = "det-port-key", .attr = TERN_G_DET_PORT_KEY,
	  .kind = TERN_KIND_U32, .def = 0, .max = 4294967295,
	  .off = TERN_CFG(det_port_key),
	  .help = "NAT64: deterministic mode: key of the port choice in a block (same on every box)" },
	{ .key = "port-block-size", .attr = TERN_G_PORT_BLOCK_SIZE,
	  .kind = TERN_KIND_U32, .max = 65536, .def = 0,
	  .off = TERN_CFG(port_block),
	  .help = "NAT64: port blocks (RFC 7422): ports a subscriber gets at a time; 0: off" },
	{ .key = "box-count", .attr = TERN_G_BOX_COUNT,
	  .kind = TERN_KIND_U32, .min = 1, .max = 1024, .def = 1,
	  .off = TERN_CFG(box_count),
	  .help = "NAT64: boxes sharing this configuration, each using its share of pool4" },
	{ .key = "box-index", .attr = TERN_G_BOX_INDEX,
	  .kind = TERN_KIND_U32, .max = 1023, .def = 0,
	  .off = TERN_CFG(box_index),
	  .help = "NAT64: this box among box-count (0 to box-count - 1): which share of pool4" },
	{ .key = NULL }
};
#else
extern const struct tern_global_meta tern_globals[];
#endif

#endif /* _TERN_GLOBALS_H */
