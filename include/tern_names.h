/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Names of the Tern API's counters as users see them (CLI and JSON keys),
 * with a description and a group each: a new counter is one line of
 * tern_stat_names. For user space: one translation unit defines
 * TERN_NAMES_DEFINE before including this. The table ends with a NULL
 * name. The settings are declared in tern_globals.h.
 */
#ifndef _TERN_NAMES_H
#define _TERN_NAMES_H

#include "tern_genl.h"

/*
 * What a counter says of the packets it counts: tern stats shows the
 * counters by group, in this order (tern_stat_groups: the JSON key and
 * the heading of each). 0 is no group: every counter has one.
 */
enum tern_stat_group {
	TERN_SG_NONE,
	TERN_SG_TRANSLATED,		/* translated */
	TERN_SG_PASSED,			/* passed on untranslated */
	TERN_SG_DROP_MALFORMED,		/* dropped: malformed */
	TERN_SG_DROP_UNTRANSLATABLE,	/* dropped: no translation exists */
	TERN_SG_DROP_FORWARDING,	/* dropped: could not be sent on */
	TERN_SG_DROP_NAT64,		/* dropped: NAT64 state or limits */
	TERN_SG_OTHER,			/* other outcomes, not packet outcomes */
	__TERN_SG_MAX
};

struct tern_stat_group_name {
	const char *key;		/* JSON key, kebab-case */
	const char *title;		/* heading of the text output */
};

struct tern_stat_name {
	const char *name;
	const char *desc;
	int attr;			/* enum tern_stat */
	int group;			/* enum tern_stat_group */
};

#ifdef TERN_NAMES_DEFINE
const struct tern_stat_group_name tern_stat_groups[__TERN_SG_MAX] = {
	[TERN_SG_TRANSLATED] = { "translated", "Translated" },
	[TERN_SG_PASSED] = { "passed", "Passed on untranslated" },
	[TERN_SG_DROP_MALFORMED] = { "dropped-malformed",
				     "Dropped: malformed or inconsistent" },
	[TERN_SG_DROP_UNTRANSLATABLE] = { "dropped-untranslatable",
					  "Dropped: not to be translated" },
	[TERN_SG_DROP_FORWARDING] = { "dropped-forwarding",
				      "Dropped: could not be sent on" },
	[TERN_SG_DROP_NAT64] = { "dropped-nat64",
				 "Dropped (NAT64): no state, or state refused" },
	[TERN_SG_OTHER] = { "other",
			    "Other outcomes and events" },
};

const struct tern_stat_name tern_stat_names[] = {
	{ "xlat-6to4",
	  "IPv6 packets translated to IPv4",
	  TERN_STAT_XLAT_64, TERN_SG_TRANSLATED },
	{ "xlat-4to6",
	  "IPv4 packets translated to IPv6",
	  TERN_STAT_XLAT_46, TERN_SG_TRANSLATED },
	{ "pass-disabled",
	  "Passed: the instance is disabled",
	  TERN_STAT_PASS_DISABLED, TERN_SG_PASSED },
	{ "pass-local",
	  "Passed: addressed to this host",
	  TERN_STAT_PASS_LOCAL, TERN_SG_PASSED },
	{ "pass-no-mapping",
	  "Passed: destination not covered by pool6",
	  TERN_STAT_PASS_NO_MAPPING, TERN_SG_PASSED },
	{ "pass-special4",
	  "Passed: IPv4 address never translated (loopback, multicast, broadcast, this-network, link-local; the host's own addresses and subnet broadcasts as sources)",
	  TERN_STAT_PASS_SPECIAL4, TERN_SG_PASSED },
	{ "drop-special4",
	  "Dropped: IPv4 address never translated (an IPv6 packet's embedded one: special-purpose, or the host's own or a subnet broadcast as source); NAT64 with the Well-Known Prefix and strict-wkp: a non-global IPv4 peer",
	  TERN_STAT_DROP_SPECIAL4, TERN_SG_DROP_UNTRANSLATABLE },
	{ "pass-otherhost",
	  "Passed: frame not addressed to this host (broadcast, multicast, other host)",
	  TERN_STAT_PASS_OTHERHOST, TERN_SG_PASSED },
	{ "drop-wkp-nonglobal",
	  "Dropped: non-global IPv4 address with the Well-Known Prefix (RFC 6052 3.1)",
	  TERN_STAT_DROP_WKP_NONGLOBAL, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-src-untranslatable",
	  "Dropped: source address cannot be translated",
	  TERN_STAT_DROP_SRC_UNTRANSLATABLE, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-truncated",
	  "Dropped: packet too short for its headers",
	  TERN_STAT_DROP_TRUNCATED, TERN_SG_DROP_MALFORMED },
	{ "drop-exthdr",
	  "Dropped: malformed or unsupported IPv6 extension header",
	  TERN_STAT_DROP_EXTHDR, TERN_SG_DROP_MALFORMED },
	{ "drop-routing-hdr",
	  "Dropped: Routing header with Segments Left > 0 (Parameter Problem sent)",
	  TERN_STAT_DROP_ROUTING_HDR, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-srcroute",
	  "Dropped: unexpired IPv4 source route option (Unreachable sent, except for ICMP errors)",
	  TERN_STAT_DROP_SRCROUTE, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-fragment",
	  "Dropped: fragment that cannot be translated (malformed Fragment header, or ending past 65535 bytes)",
	  TERN_STAT_DROP_FRAGMENT, TERN_SG_DROP_MALFORMED },
	{ "drop-icmp-error",
	  "Dropped: ICMP error type or code without an equivalent in the other protocol",
	  TERN_STAT_DROP_ICMP_ERROR, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-icmp-info",
	  "Dropped: ICMP informational message other than echo",
	  TERN_STAT_DROP_ICMP_INFO, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-icmp-other",
	  "Dropped: ICMP type with no counterpart",
	  TERN_STAT_DROP_ICMP_OTHER, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-udp-csum0",
	  "Dropped: IPv4 UDP with zero checksum",
	  TERN_STAT_DROP_UDP_CSUM0, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-ttl",
	  "Dropped: TTL or Hop Limit exceeded (Time Exceeded sent)",
	  TERN_STAT_DROP_TTL, TERN_SG_DROP_FORWARDING },
	{ "drop-too-big",
	  "Dropped: bigger than the next-hop MTU (Packet Too Big / Fragmentation Needed sent)",
	  TERN_STAT_DROP_TOO_BIG, TERN_SG_DROP_FORWARDING },
	{ "drop-no-route",
	  "Dropped: no route for the translated packet",
	  TERN_STAT_DROP_NO_ROUTE, TERN_SG_DROP_FORWARDING },
	{ "drop-nomem",
	  "Dropped: out of memory",
	  TERN_STAT_DROP_NOMEM, TERN_SG_DROP_FORWARDING },
	{ "drop-output",
	  "Dropped: the output path refused the translated packet",
	  TERN_STAT_DROP_OUTPUT, TERN_SG_DROP_FORWARDING },
	{ "drop-icmp-inner",
	  "Dropped: ICMP error whose embedded packet is malformed or cannot be translated",
	  TERN_STAT_DROP_ICMP_INNER, TERN_SG_DROP_MALFORMED },
	{ "drop-icmp-fragment",
	  "Dropped: fragmented ICMP message (its checksum cannot be translated without the whole message)",
	  TERN_STAT_DROP_ICMP_FRAGMENT, TERN_SG_DROP_UNTRANSLATABLE },
	{ "xlat-icmp-error-6to4",
	  "ICMPv6 errors translated to ICMPv4 errors",
	  TERN_STAT_XLAT_ICMP_ERR_64, TERN_SG_TRANSLATED },
	{ "xlat-icmp-error-4to6",
	  "ICMPv4 errors translated to ICMPv6 errors",
	  TERN_STAT_XLAT_ICMP_ERR_46, TERN_SG_TRANSLATED },
	{ "xlat-hairpin",
	  "IPv6 packets translated to IPv4 and back to IPv6 (EAM hairpinning)",
	  TERN_STAT_XLAT_HAIRPIN, TERN_SG_TRANSLATED },
	{ "drop-igmp",
	  "Dropped: IGMP, single-hop messages that must not cross a translator (RFC 7915 4.2)",
	  TERN_STAT_DROP_IGMP, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-other-family",
	  "Dropped: a protocol number of the other IP version (ICMPv6 or IPv6 extension header 0, 43, 44 or 60 in IPv4; ICMPv4 or IGMP in IPv6)",
	  TERN_STAT_DROP_OTHER_FAMILY, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-bad-checksum",
	  "Dropped: ICMP message with a wrong checksum (never made valid by translation)",
	  TERN_STAT_DROP_BAD_CSUM, TERN_SG_DROP_MALFORMED },
	{ "drop-error-dest",
	  "Dropped: ICMP error whose translation would go to this host or to a special-purpose address, or not to the sender of the packet it quotes",
	  TERN_STAT_DROP_ERR_DEST, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-to-self",
	  "Dropped: translated toward an address of this host (its answer would not be translated back)",
	  TERN_STAT_DROP_TO_SELF, TERN_SG_DROP_UNTRANSLATABLE },
	{ "drop-bad-gso",
	  "Dropped: GSO or checksum offload metadata inconsistent with the packet (from a tun/tap or virtio device)",
	  TERN_STAT_DROP_BAD_GSO, TERN_SG_DROP_MALFORMED },
	{ "gso-segmented",
	  "Super-packets of a GSO type Tern does not rewrite, segmented in software (each segment then counted on its own)",
	  TERN_STAT_GSO_SEGMENTED, TERN_SG_OTHER },
	{ "drop-no-pool4",
	  "Dropped (NAT64): pool4 has no address for this protocol and mark",
	  TERN_STAT_DROP_NO_POOL4, TERN_SG_DROP_NAT64 },
	{ "drop-pool4-full",
	  "Dropped (NAT64): no free pool4 port found for a new BIB entry",
	  TERN_STAT_DROP_POOL4_FULL, TERN_SG_DROP_NAT64 },
	{ "drop-no-session",
	  "Dropped (NAT64): IPv4 packet matching no BIB entry or session",
	  TERN_STAT_DROP_NO_SESSION, TERN_SG_DROP_NAT64 },
	{ "drop-filtered",
	  "Dropped (NAT64): IPv4 peer unknown to the BIB entry (address-dependent filtering)",
	  TERN_STAT_DROP_FILTERED, TERN_SG_DROP_NAT64 },
	{ "drop-max-sessions",
	  "Dropped (NAT64): new flow refused, max-sessions reached",
	  TERN_STAT_DROP_MAX_SESSIONS, TERN_SG_DROP_NAT64 },
	{ "drop-subscriber-sessions",
	  "Dropped (NAT64): new flow refused, max-sessions-per-subscriber reached",
	  TERN_STAT_DROP_SUB_SESSIONS, TERN_SG_DROP_NAT64 },
	{ "drop-subscriber-ports",
	  "Dropped (NAT64): new flow refused, max-ports-per-subscriber reached",
	  TERN_STAT_DROP_SUB_PORTS, TERN_SG_DROP_NAT64 },
	{ "drop-tcp-nosyn",
	  "Dropped (NAT64): TCP segment of no session that is not a SYN",
	  TERN_STAT_DROP_TCP_NOSYN, TERN_SG_DROP_NAT64 },
	{ "drop-ext-tcp",
	  "Dropped (NAT64): IPv4 SYN refused (drop-externally-initiated-tcp)",
	  TERN_STAT_DROP_EXT_TCP, TERN_SG_DROP_NAT64 },
	{ "syn-stored",
	  "NAT64: IPv4 SYN kept for a simultaneous open",
	  TERN_STAT_SYN_STORED, TERN_SG_OTHER },
	{ "drop-syn-store-full",
	  "Dropped (NAT64): IPv4 SYN not kept, max-stored-syns (or its bytes) reached",
	  TERN_STAT_DROP_SYN_STORE_FULL, TERN_SG_DROP_NAT64 },
	{ "events-dropped",
	  "Not a packet outcome: events (log-bib, log-sessions) lost: no memory, no listener took them, or the buffer of a listener that asks (tern monitor) was full",
	  TERN_STAT_EVENTS_DROPPED, TERN_SG_OTHER },
	{ "tcp-probes",
	  "Not a packet outcome (NAT64): probes sent to the IPv6 end of an established TCP session whose lifetime ran out (RFC 6146 3.5.2.2; the session is in TRANS)",
	  TERN_STAT_TCP_PROBES, TERN_SG_OTHER },
	{ "evict-unconfirmed",
	  "Not a packet outcome (NAT64): sessions that had not seen traffic both ways removed at max-sessions to make room for a new one",
	  TERN_STAT_EVICT_UNCONFIRMED, TERN_SG_OTHER },
	{ "evict-expired",
	  "Not a packet outcome (NAT64): expired sessions not yet swept removed at max-sessions to make room for a new one",
	  TERN_STAT_EVICT_EXPIRED, TERN_SG_OTHER },
	{ "drop-bib-sessions-from-ipv4",
	  "Dropped (NAT64): new flow from IPv4 refused, max-sessions-per-bib-from-ipv4 reached",
	  TERN_STAT_DROP_BIB_SESS4, TERN_SG_DROP_NAT64 },
	{ "drop-det-outside-space",
	  "Dropped (NAT64): new flow refused, deterministic mode and its source outside det-space",
	  TERN_STAT_DROP_DET_OUTSIDE, TERN_SG_DROP_NAT64 },
	{ "drop-det-block-full",
	  "Dropped (NAT64): new flow refused, deterministic mode and every port of its subscriber's block taken",
	  TERN_STAT_DROP_DET_FULL, TERN_SG_DROP_NAT64 },
	{ "tcp-rebuilt",
	  "Not a packet outcome (NAT64): TCP sessions rebuilt in deterministic mode with tcp-nosyn-with-bib from an IPv6 segment that was not a SYN (a flow another box had: failover)",
	  TERN_STAT_TCP_REBUILT, TERN_SG_OTHER },
	{ "block-allocations",
	  "Not a packet outcome (NAT64): port blocks given to subscribers (port-block-size)",
	  TERN_STAT_BLOCK_ALLOC, TERN_SG_OTHER },
	{ "block-releases",
	  "Not a packet outcome (NAT64): port blocks returned, their last BIB entry gone (port-block-size)",
	  TERN_STAT_BLOCK_RELEASE, TERN_SG_OTHER },
	{ "drop-block-refused",
	  "Dropped (NAT64): new flow refused, port blocks: its subscriber's blocks full and it has its most (max-ports-per-subscriber), or no free block in pool4",
	  TERN_STAT_DROP_BLOCK_REFUSED, TERN_SG_DROP_NAT64 },
	{ "drop-contended",
	  "Dropped (NAT64): a new flow from IPv6 whose session lost its insert to other CPUs' changes of the same entries several times in a row (a table under a flood of new flows)",
	  TERN_STAT_DROP_CONTENDED, TERN_SG_DROP_NAT64 },
	{ NULL, NULL, 0, TERN_SG_NONE }
};
#else
extern const struct tern_stat_group_name tern_stat_groups[__TERN_SG_MAX];
extern const struct tern_stat_name tern_stat_names[];
#endif

#endif /* _TERN_NAMES_H */
