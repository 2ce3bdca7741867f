// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6 fragmentation of translated packets (RFC 7915 4.1). The kernel's
 * ip6_fragment() picks its own Identification; a translator must carry the
 * IPv4 one over, so Tern cuts the fragments itself. Only packets that
 * need it come here (IPv4 DF=0 bigger than lowest-ipv6-mtu): rare and
 * never on the fast path.
 */

#include <linux/ipv6.h>
#include <net/dst.h>
#include <net/ipv6.h>
#include "core/compat.h"
#include "xlat/frag.h"
#include "xlat/hdr.h"
#include "xlat/route.h"

/*
 * @skb is a translated IPv6 packet, with a Fragment header right after the
 * fixed header if it is already a fragment. Sends it as fragments of at
 * most @mtu bytes, with Identification @id unless it had one. Consumes
 * @skb and the reference on @dst; returns 0 or a negative error (some
 * fragments may have been sent). Nothing is sent if the fragments would
 * end past the largest datagram (an offset would not fit 16 bits): the
 * caller checks that first (tern_frag_end_ok()), this is the last guard.
 */
int tern_frag6_output(struct net *net, struct sk_buff *skb,
		      struct dst_entry *dst, unsigned int mtu, __be32 id)
{
	struct ipv6hdr ip6 = *ipv6_hdr(skb);
	unsigned int hlen = sizeof(ip6), chunk, off = 0, payload;
	struct frag_hdr fh = { .nexthdr = ip6.nexthdr, .identification = id };
	unsigned int base = 0, hroom;
	bool more_last = false;
	int ret = 0;

	if (ip6.nexthdr == NEXTHDR_FRAGMENT) {
		if (skb_copy_bits(skb, hlen, &fh, sizeof(fh))) {
			ret = -EINVAL;
			goto out;
		}
		base = ntohs(fh.frag_off) & ~7;
		more_last = fh.frag_off & htons(IP6_MF);
		hlen += sizeof(fh);
	}
	if (skb->ip_summed == CHECKSUM_PARTIAL && skb_checksum_help(skb)) {
		ret = -ENOMEM;
		goto out;
	}
	payload = skb->len - hlen;
	chunk = mtu > sizeof(ip6) + sizeof(fh) ?
		(mtu - sizeof(ip6) - sizeof(fh)) & ~7 : 0;
	if (!chunk || !tern_frag_end_ok(base, payload, IPV6_MAXPLEN)) {
		ret = -EMSGSIZE;
		goto out;
	}
	hroom = LL_RESERVED_SPACE(dst->dev) + dst->header_len;

	while (off < payload) {
		unsigned int len = min(chunk, payload - off);
		bool more = off + len < payload || more_last;
		struct sk_buff *frag;
		struct ipv6hdr *h;
		struct frag_hdr *f;

		frag = alloc_skb(hroom + sizeof(ip6) + sizeof(fh) + len +
				 dst->dev->needed_tailroom, GFP_ATOMIC);
		if (!frag) {
			ret = -ENOMEM;
			break;
		}
		skb_reserve(frag, hroom);
		skb_reset_network_header(frag);
		h = skb_put(frag, sizeof(ip6));
		*h = ip6;
		h->payload_len = htons(sizeof(fh) + len);
		h->nexthdr = NEXTHDR_FRAGMENT;
		f = skb_put(frag, sizeof(fh));
		tern_frag_hdr_set(f, fh.nexthdr, base + off, more,
				  fh.identification);
		skb_set_transport_header(frag, sizeof(ip6) + sizeof(fh));
		if (skb_copy_bits(skb, hlen + off, skb_put(frag, len), len)) {
			kfree_skb(frag);
			ret = -EINVAL;
			break;
		}
		frag->protocol = htons(ETH_P_IPV6);
		frag->priority = skb->priority;
		frag->mark = skb->mark;
		frag->dev = dst->dev;
		skb_dst_set(frag, dst_clone(dst));
		ret = dst_output(net, NULL, frag);
		if (ret < 0)
			break;
		ret = 0;
		off += len;
	}
out:
	dst_release(dst);
	consume_skb(skb);
	return ret;
}

/*
 * @skb is a translated IPv6 TCP super-packet (GSO) from IPv4 segments sent
 * with DF=0 (e.g. merged by GRO), and its segments are bigger than @mtu:
 * cuts it into its segments in software and sends each, as fragments if it
 * is still too big. Segment n was IPv4 packet @id + n (GRO merges DF=0
 * packets only when their IDs are consecutive) unless @fixedid, when all
 * had @id. Consumes
 * @skb and the reference on @dst; returns 0 or a negative error (nothing
 * sent if segmenting failed; the first fragmenting error of a segment
 * otherwise, the other segments sent).
 */
int tern_frag6_gso_output(struct net *net, struct sk_buff *skb,
			  struct dst_entry *dst, unsigned int mtu, u16 id,
			  bool fixedid)
{
	struct sk_buff *segs, *seg, *next;
	int ret = 0;

	segs = skb_gso_segment(skb, 0);
	if (IS_ERR_OR_NULL(segs)) {
		ret = segs ? PTR_ERR(segs) : -EINVAL;
		kfree_skb(skb);
		goto out;
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, seg, next) {
		int err = 0;

		skb_mark_not_on_list(seg);
		if (seg->len > mtu)
			err = tern_frag6_output(net, seg, dst_clone(dst), mtu,
						htonl(id));
		else
			tern_output(net, seg, dst_clone(dst));
		if (err && !ret)
			ret = err;
		if (!fixedid)
			id++;
	}
out:
	dst_release(dst);
	return ret;
}
