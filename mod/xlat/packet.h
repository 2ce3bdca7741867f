/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_PACKET_H
#define _TERN_PACKET_H

#include <linux/skbuff.h>
#include "tern_genl.h"

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

int tern_parse6(struct sk_buff *skb, struct tern_pkt *p);
int tern_parse4(struct sk_buff *skb, struct tern_pkt *p);
bool tern_ipv4_has_srcroute(const struct sk_buff *skb);
bool tern_icmp_csum_ok(struct sk_buff *skb, unsigned int off);

#endif /* _TERN_PACKET_H */
