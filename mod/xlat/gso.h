/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_GSO_H
#define _TERN_GSO_H

#include <linux/skbuff.h>
#include "xlat/packet.h"

/* What Tern does with a packet's offload metadata (GSO, CHECKSUM_PARTIAL). */
enum tern_gso_action {
	TERN_GSO_AS_IS,		/* translated as it is (a super-packet or not) */
	TERN_GSO_CSUM_HELP,	/* its checksum completed in software first */
	TERN_GSO_SEGMENT,	/* segmented in software, segments translated */
	TERN_GSO_BAD,		/* inconsistent with the packet: dropped */
};

/* The metadata and what the parser found, offsets from the network header. */
struct tern_gso_meta {
	unsigned int gso_type;
	unsigned int gso_size;	/* 0: not a GSO packet */
	bool partial;		/* CHECKSUM_PARTIAL */
	bool encap;		/* skb->encapsulation */
	int csum_start;
	unsigned int csum_offset;
	unsigned int len;	/* the whole packet */
	unsigned int l3len;	/* network headers */
	unsigned int thlen;	/* TCP header length (TCP only) */
	u8 proto;		/* upper-layer protocol */
	bool v6;
	bool fragment;
	bool nonfirst;
};

enum tern_gso_action tern_gso_classify(const struct tern_gso_meta *m);

int tern_gso_check_meta(struct sk_buff *skb, const struct tern_pkt *p,
			bool v6, bool *segment);

/*
 * Checks @skb's offload metadata against @p (from the parser). Returns 0,
 * or the TERN_STAT_* reason to drop it; *@segment tells to translate its
 * segments (tern_gso_segment()) rather than the packet. A packet with
 * neither (most of those a router forwards) costs a test, not a call.
 */
static inline int tern_gso_check(struct sk_buff *skb,
				 const struct tern_pkt *p, bool v6,
				 bool *segment)
{
	*segment = false;
	if (!skb_is_gso(skb) && skb->ip_summed != CHECKSUM_PARTIAL)
		return 0;
	return tern_gso_check_meta(skb, p, v6, segment);
}

/*
 * Segments super-packet @skb in software: returns 0 and the segments in
 * *@segs (@skb consumed), or the TERN_STAT_* reason (@skb untouched).
 */
int tern_gso_segment(struct sk_buff *skb, struct sk_buff **segs);

#endif /* _TERN_GSO_H */
