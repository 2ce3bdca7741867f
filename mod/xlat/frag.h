/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_FRAG_H
#define _TERN_FRAG_H

#include <linux/skbuff.h>

struct dst_entry;
struct net;

int tern_frag6_output(struct net *net, struct sk_buff *skb,
		      struct dst_entry *dst, unsigned int mtu, __be32 id);
int tern_frag6_gso_output(struct net *net, struct sk_buff *skb,
			  struct dst_entry *dst, unsigned int mtu, u16 id,
			  bool fixedid);

#endif /* _TERN_FRAG_H */
