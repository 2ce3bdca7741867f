/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_PACKET_H
#define _TERN_PACKET_H

#include <linux/in.h>
#include <linux/skbuff.h>
#include <net/ipv6.h>
#include "tern_genl.h"

/*
 * Protocol numbers of the other IP version: IPv4's ICMP and IGMP in an
 * IPv6 packet; ICMPv6 and the IPv6 extension headers a receiver parses
 * in an IPv4 one (0, 43, 44, 60: RFC 8200 4). Copied (RFC 7915 4.1,
 * 5.1), they would make a message of the other version's control
 * protocol, or IPv6 headers (Hop-by-Hop, Routing, Fragment), that Tern
 * never checked. Other numbers (AH, ESP, Mobility, ...) are copied.
 */
#define TERN_PROTO_V4ONLY	(BIT_ULL(IPPROTO_ICMP) | BIT_ULL(IPPROTO_IGMP))
#define TERN_PROTO_V6HDRS	(BIT_ULL(NEXTHDR_HOP) | BIT_ULL(NEXTHDR_ROUTING) | \
				 BIT_ULL(NEXTHDR_FRAGMENT) | BIT_ULL(NEXTHDR_DEST))
#define TERN_PROTO_V6ONLY	(TERN_PROTO_V6HDRS | BIT_ULL(NEXTHDR_ICMP))

static inline bool tern_proto_in(u8 proto, u64 set)
{
	return proto < 64 && (set >> proto) & 1;
}

/* What the parsers learn about a packet before it is translated. */
struct tern_pkt {
	unsigned int l3len;	/* network headers, incl. IPv6 extensions */
	unsigned int l4len;	/* transport header bytes we touch */
	u8 proto;		/* upper-layer protocol */
	int rthdr_segleft_pos;	/* IPv6: offset of a non-zero Segments Left */
	int frag6;		/* IPv6: offset of the Fragment header, or -1 */
	bool fragment;		/* a fragment (offset or More Fragments) */
	bool nonfirst;		/* a fragment other than the first */
};

/*
 * The transport identifiers of a packet (a whole one or a first
 * fragment): TCP and UDP ports, or the identifier of an ICMP echo message
 * in both. What a stateful mode keys its sessions on, and rewrites.
 */
struct tern_l4id {
	__be16 port[2];		/* source, destination */
	u8 tcp_flags;		/* TCP: byte 13 of its header */
	bool valid;
};

/*
 * Reads them from the transport header at @l4 (@len bytes; a quoted one
 * may be cut short), of protocol @proto (before ICMP types are
 * translated).
 */
void tern_l4id_parse(u8 proto, const u8 *l4, unsigned int len,
		     struct tern_l4id *id);
/* The same for a parsed packet. */
void tern_l4id_read(const struct sk_buff *skb, const struct tern_pkt *p,
		    struct tern_l4id *id);
/*
 * Writes @nport over @id's ports (both the same for ICMP: one identifier)
 * and updates the transport checksum for the change (the packet is
 * writable, its checksum not CHECKSUM_COMPLETE).
 */
void tern_l4id_write(struct sk_buff *skb, const struct tern_pkt *p,
		     const struct tern_l4id *id, const __be16 *nport);

int tern_parse6(struct sk_buff *skb, struct tern_pkt *p);
/*
 * The IPv6 extension header walk of tern_parse6(), also for the packet an
 * ICMP error quotes: the packet at @data, @len bytes long (the rest of
 * @skb's if @skb is not NULL: @data is its data then). Fills in @p but
 * l4len; returns 0 or the TERN_STAT_* reason. The walk of a later
 * fragment ends at its Fragment header (what follows is data). @outer
 * adds the rules for a packet Tern translates (Hop-by-Hop first, Segments
 * Left zero, nothing after a fragment's Fragment header); a quoted packet
 * need only be walkable.
 */
int tern_ipv6_walk(const struct sk_buff *skb, const u8 *data,
		   unsigned int len, bool outer, struct tern_pkt *p);
int tern_parse4(struct sk_buff *skb, struct tern_pkt *p);
bool tern_ipv4_has_srcroute(const struct sk_buff *skb);
bool tern_icmp_csum_ok(struct sk_buff *skb, unsigned int off);

#endif /* _TERN_PACKET_H */
