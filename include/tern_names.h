/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Names of the Tern API's counters as users see them (CLI and JSON keys),
 * with a description each. For user space: one translation unit defines
 * TERN_NAMES_DEFINE before including this. The table ends with a NULL
 * name. The settings are declared in tern_globals.h.
 */
#ifndef _TERN_NAMES_H
#define _TERN_NAMES_H

#include "tern_genl.h"

struct tern_stat_name {
	const char *name;
	const char *desc;
	int attr;			/* enum tern_stat */
};

#ifdef TERN_NAMES_DEFINE
const struct tern_stat_name tern_stat_names[] = {
	{ "xlat-6to4",
	  "IPv6 packets translated to IPv4",
	  TERN_STAT_XLAT_64 },
	{ "xlat-4to6",
	  "IPv4 packets translated to IPv6",
	  TERN_STAT_XLAT_46 },
	{ "pass-disabled",
	  "Passed: the instance is disabled",
	  TERN_STAT_PASS_DISABLED },
	{ "pass-local",
	  "Passed: addressed to this host",
	  TERN_STAT_PASS_LOCAL },
	{ "pass-no-mapping",
	  "Passed: destination not covered by pool6",
	  TERN_STAT_PASS_NO_MAPPING },
	{ "pass-special4",
	  "Passed: IPv4 address never translated (loopback, multicast, broadcast, this-network, link-local; the host's own addresses and subnet broadcasts as sources)",
	  TERN_STAT_PASS_SPECIAL4 },
	{ "drop-special4",
	  "Dropped: IPv6 packet whose embedded IPv4 address is never translated (special-purpose, or the host's own or a subnet broadcast as source)",
	  TERN_STAT_DROP_SPECIAL4 },
	{ "pass-otherhost",
	  "Passed: frame not addressed to this host (broadcast, multicast, other host)",
	  TERN_STAT_PASS_OTHERHOST },
	{ "drop-wkp-nonglobal",
	  "Dropped: non-global IPv4 address with the Well-Known Prefix (RFC 6052 3.1)",
	  TERN_STAT_DROP_WKP_NONGLOBAL },
	{ "drop-src-untranslatable",
	  "Dropped: source address cannot be translated",
	  TERN_STAT_DROP_SRC_UNTRANSLATABLE },
	{ "drop-truncated",
	  "Dropped: packet too short for its headers",
	  TERN_STAT_DROP_TRUNCATED },
	{ "drop-exthdr",
	  "Dropped: malformed or unsupported IPv6 extension header",
	  TERN_STAT_DROP_EXTHDR },
	{ "drop-routing-hdr",
	  "Dropped: Routing header with Segments Left > 0 (Parameter Problem sent)",
	  TERN_STAT_DROP_ROUTING_HDR },
	{ "drop-srcroute",
	  "Dropped: unexpired IPv4 source route option (Unreachable sent, except for ICMP errors)",
	  TERN_STAT_DROP_SRCROUTE },
	{ "drop-fragment",
	  "Dropped: fragment that cannot be translated (malformed Fragment header, or ending past 65535 bytes)",
	  TERN_STAT_DROP_FRAGMENT },
	{ "drop-icmp-error",
	  "Dropped: ICMP error type or code without an equivalent in the other protocol",
	  TERN_STAT_DROP_ICMP_ERROR },
	{ "drop-icmp-info",
	  "Dropped: ICMP informational message other than echo",
	  TERN_STAT_DROP_ICMP_INFO },
	{ "drop-icmp-other",
	  "Dropped: ICMP type with no counterpart",
	  TERN_STAT_DROP_ICMP_OTHER },
	{ "drop-udp-csum0",
	  "Dropped: IPv4 UDP with zero checksum",
	  TERN_STAT_DROP_UDP_CSUM0 },
	{ "drop-ttl",
	  "Dropped: TTL or Hop Limit exceeded (Time Exceeded sent)",
	  TERN_STAT_DROP_TTL },
	{ "drop-too-big",
	  "Dropped: bigger than the next-hop MTU (Packet Too Big / Fragmentation Needed sent)",
	  TERN_STAT_DROP_TOO_BIG },
	{ "drop-no-route",
	  "Dropped: no route for the translated packet",
	  TERN_STAT_DROP_NO_ROUTE },
	{ "drop-nomem",
	  "Dropped: out of memory",
	  TERN_STAT_DROP_NOMEM },
	{ "drop-output",
	  "Dropped: the output path refused the translated packet",
	  TERN_STAT_DROP_OUTPUT },
	{ "drop-icmp-inner",
	  "Dropped: ICMP error whose embedded packet is malformed or cannot be translated",
	  TERN_STAT_DROP_ICMP_INNER },
	{ "drop-icmp-fragment",
	  "Dropped: fragmented ICMP message (its checksum cannot be translated without the whole message)",
	  TERN_STAT_DROP_ICMP_FRAGMENT },
	{ "xlat-icmp-error-6to4",
	  "ICMPv6 errors translated to ICMPv4 errors",
	  TERN_STAT_XLAT_ICMP_ERR_64 },
	{ "xlat-icmp-error-4to6",
	  "ICMPv4 errors translated to ICMPv6 errors",
	  TERN_STAT_XLAT_ICMP_ERR_46 },
	{ "xlat-hairpin",
	  "IPv6 packets translated to IPv4 and back to IPv6 (EAM hairpinning)",
	  TERN_STAT_XLAT_HAIRPIN },
	{ "drop-igmp",
	  "Dropped: IGMP, single-hop messages that must not cross a translator (RFC 7915 4.2)",
	  TERN_STAT_DROP_IGMP },
	{ "drop-bad-checksum",
	  "Dropped: ICMP message with a wrong checksum (never made valid by translation)",
	  TERN_STAT_DROP_BAD_CSUM },
	{ "drop-error-dest",
	  "Dropped: ICMP error whose translation would go to this host or to a special-purpose address, or not to the sender of the packet it quotes",
	  TERN_STAT_DROP_ERR_DEST },
	{ "drop-to-self",
	  "Dropped: translated toward an address of this host (its answer would not be translated back)",
	  TERN_STAT_DROP_TO_SELF },
	{ "drop-bad-gso",
	  "Dropped: GSO or checksum offload metadata inconsistent with the packet (from a tun/tap or virtio device)",
	  TERN_STAT_DROP_BAD_GSO },
	{ "gso-segmented",
	  "Super-packets of a GSO type Tern does not rewrite, segmented in software (each segment then counted on its own)",
	  TERN_STAT_GSO_SEGMENTED },
	{ NULL, NULL, 0 }
};
#else
extern const struct tern_stat_name tern_stat_names[];
#endif

#endif /* _TERN_NAMES_H */
