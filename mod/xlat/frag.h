/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_FRAG_H
#define _TERN_FRAG_H

#include <linux/skbuff.h>

struct dst_entry;
struct net;

/*
 * Whether a fragment of @len bytes at byte offset @off ends within a
 * datagram of at most @max bytes (IPv6: IPV6_MAXPLEN of fragmentable
 * part; IPv4: 65535 minus the header). Beyond that the receiver cannot
 * reassemble it, and offsets computed from it wrap.
 */
static inline bool tern_frag_end_ok(unsigned int off, unsigned int len,
				    unsigned int max)
{
	return off <= max && len <= max - off;
}

int tern_frag6_output(struct net *net, struct sk_buff *skb,
		      struct dst_entry *dst, unsigned int mtu, __be32 id);
int tern_frag6_gso_output(struct net *net, struct sk_buff *skb,
			  struct dst_entry *dst, unsigned int mtu, u16 id,
			  bool fixedid);

#endif /* _TERN_FRAG_H */
