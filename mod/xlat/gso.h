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
	TERN_GSO_WHOLE,		/* a datagram for IP fragmentation: whole */
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
			bool v6, enum tern_gso_action *later);

/*
 * Checks @skb's offload metadata against @p (from the parser). Returns 0,
 * or the TERN_STAT_* reason to drop it; *@later tells what to do once
 * the packet is to be translated: TERN_GSO_SEGMENT, translate its segments
 * (tern_gso_segment()) rather than the packet; TERN_GSO_WHOLE, make it
 * the datagram it stands for first (tern_gso_whole()); otherwise nothing.
 * A packet with neither GSO nor CHECKSUM_PARTIAL (most of those a router
 * forwards) costs a test, not a call.
 */
static inline int tern_gso_check(struct sk_buff *skb,
				 const struct tern_pkt *p, bool v6,
				 enum tern_gso_action *later)
{
	*later = TERN_GSO_AS_IS;
	if (!skb_is_gso(skb) && skb->ip_summed != CHECKSUM_PARTIAL)
		return 0;
	return tern_gso_check_meta(skb, p, v6, later);
}

/*
 * Segments super-packet @skb in software: returns 0 and the segments in
 * *@segs (@skb consumed), or the TERN_STAT_* reason (@skb untouched).
 */
int tern_gso_segment(struct sk_buff *skb, struct sk_buff **segs);

int tern_gso_whole(struct sk_buff *skb, const struct tern_pkt *p, bool v6);

#endif /* _TERN_GSO_H */
