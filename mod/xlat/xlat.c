// SPDX-License-Identifier: GPL-2.0
/*
 * The driver: where a packet goes, top to bottom, in both directions.
 *
 *   hook (fw/) -> tern_xlat_6to4()              tern_xlat_4to6()
 *                   struct tern_xlat on the stack: instance, config, mode
 *                   tern_6to4_translate()        tern_4to6_translate()
 *                     parse (xlat/packet.c), offload checks (xlat/gso.c)
 *                     decide: x->mode->dest*, ->source* (siit/ today)
 *                       ICMP error: xlat/icmp_err.c, the mode's ->inner*
 *                       on the quoted packet (xlat/inner.c)
 *                     rewrite in place, checksums (xlat/csum.h), route,
 *                     fragment (xlat/frag.c), send (xlat/route.c)
 *                   verdicts for the driver: a super-packet to segment
 *                   (each segment is a packet of its own), a 6->4 packet
 *                   that hairpins (its 4->6 pass, here, with the same
 *                   struct: the mode's notes travel in it)
 *
 * Lower layers never call back up: they return to the driver.
 */

#include <linux/ip.h>
#include <net/dst.h>
#include <net/icmp.h>
#include <net/ip.h>
#include "core/compat.h"
#include "xlat/gso.h"
#include "xlat/icmp_err.h"
#include "xlat/mode.h"
#include "xlat/route.h"
#include "xlat/verdict.h"
#include "xlat/xlat.h"

static unsigned int tern_run_6to4(struct tern_xlat *x, struct sk_buff *skb);
static unsigned int tern_run_4to6(struct tern_xlat *x, struct sk_buff *skb);

/*
 * The second pass of a hairpin on @skb: the IPv4 packet the first pass
 * made, or an ICMPv4 error about it (@inner: the header it quotes), as if
 * routed back to this host along @dst (the IPv4 route toward its
 * destination, may be NULL; consumed). The state the first pass made
 * stays aside: the second pass undoes its own if it drops the packet,
 * the caller the first pass's.
 */
static unsigned int tern_pass_back(struct tern_xlat *x, struct sk_buff *skb,
				   struct dst_entry *dst,
				   const struct iphdr *inner)
{
	void *first = x->fresh;
	unsigned int verdict;

	skb_dst_drop(skb);
	if (dst)
		skb_dst_set(skb, dst);
	x->back_skb = NULL;
	x->back_dst = NULL;
	x->mode->hairpin_prepare(x, ip_hdr(skb), inner);
	x->second_pass = true;
	x->fresh = NULL;
	verdict = tern_run_4to6(x, skb);
	x->fresh = first;
	return verdict;
}

/*
 * The ICMPv4 error the second pass owed @skb, which it dropped: addressed
 * to the translator's own address, it is built here and translated back
 * to the first pass's IPv6 sender, as an error about a hairpinned packet
 * is. As icmp_send() would: none about a fragment but the first, and the
 * kernel's global ICMP rate limit (Fragmentation Needed excepted; what it
 * refuses counted in OutRateLimitGlobal), not its per-destination one.
 */
static void tern_hairpin_answer(struct tern_xlat *x, struct sk_buff *skb)
{
	const unsigned int off = sizeof(struct iphdr) + sizeof(struct icmphdr);
	struct net *net = x->inst->net;
	struct sk_buff *err;
	unsigned int verdict;

	if (!x->back_err)
		return;
	x->back_err = false;
	if (ip_hdr(skb)->frag_off & htons(IP_OFFSET))
		return;
	if (!(x->back_err_type == ICMP_DEST_UNREACH &&
	      x->back_err_code == ICMP_FRAG_NEEDED) &&
	    !tern_icmp_global_allow(net)) {
		__ICMP_INC_STATS(net, ICMP_MIB_RATELIMITGLOBAL);
		return;
	}
	err = tern_icmp_err_about4(skb, x->back_err_type, x->back_err_code,
				   x->back_err_info);
	if (!err) {
		tern_stats_inc(x->inst->stats, TERN_STAT_DROP_NOMEM);
		return;
	}
	x->err = false;
	x->silent = false;
	verdict = tern_pass_back(x, err, NULL,
				 (const struct iphdr *)(err->data + off));
	/* To this host after all: a translated error never goes there. */
	if (verdict == NF_ACCEPT)
		tern_stats_inc(x->inst->stats, TERN_STAT_DROP_ERR_DEST);
	if (verdict != NF_STOLEN)
		kfree_skb(err);
}

/* Translates each segment of super-packet @skb as a packet of its own. */
static unsigned int tern_run_segments(struct tern_xlat *x,
				      struct sk_buff *skb, bool v6)
{
	struct sk_buff *segs, *seg, *next;
	void *fresh = x->fresh;
	struct tern_xlat sx;
	unsigned int verdict;
	int why;

	why = tern_gso_segment(skb, &segs);
	if (why) {
		tern_unwind(x);
		return tern_drop(x->inst, why);
	}
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		/*
		 * One Tern would let pass (impossible: its super-packet was
		 * checked) cannot be handed back to the stack: freed.
		 */
		if (skb_is_gso(seg)) {
			kfree_skb(seg);
			tern_stats_inc(x->inst->stats, TERN_STAT_DROP_BAD_GSO);
			continue;
		}
		/*
		 * Decided anew; a hairpin's second pass keeps its notes. The
		 * state made for the super-packet is the first segment's to
		 * undo: a later segment dropped would undo what earlier ones
		 * went out with (and undo it again).
		 */
		sx = *x;
		sx.fresh = fresh;
		fresh = NULL;
		verdict = v6 ? tern_run_6to4(&sx, seg) : tern_run_4to6(&sx, seg);
		if (verdict == NF_DROP)
			tern_hairpin_answer(&sx, seg);
		if (verdict != NF_STOLEN)
			kfree_skb(seg);
	}
	/* The first segment's now (it may have forgotten it). */
	x->fresh = NULL;
	return tern_stolen(x->inst, TERN_STAT_GSO_SEGMENTED);
}

static void tern_ttl_add(struct iphdr *iph, int delta)
{
	iph->ttl += delta;
	ip_send_check(iph);
}

/*
 * The second pass of a hairpin: the IPv4 packet the 6->4 pass made
 * (x->back_skb) translated back to IPv6, with the TTL that pass took
 * given back (the U-turn costs one hop). An ICMPv4 error built for an
 * ICMPv6 one (x->back_error) quotes a packet whose destination is the
 * other end of the path. Consumes the packet and the route.
 */
static unsigned int tern_hairpin_back(struct tern_xlat *x)
{
	const unsigned int off = sizeof(struct iphdr) + sizeof(struct icmphdr);
	struct sk_buff *skb = x->back_skb;
	struct dst_entry *dst;
	bool error = x->back_error;
	const struct iphdr *inner = NULL;
	struct iphdr *iph = ip_hdr(skb);
	unsigned int verdict;

	/* An error built by tern_icmp_err_6to4(): linear, 20-byte header. */
	if (error && skb->len >= off + sizeof(*inner))
		inner = (const struct iphdr *)(skb->data + off);
	tern_ttl_add(iph, 1);
	verdict = tern_pass_back(x, skb, x->back_dst, inner);
	if (error) {
		/*
		 * Passed: its destination is this host after all. A translated
		 * error never goes there (the second pass counted why).
		 */
		if (verdict == NF_ACCEPT) {
			kfree_skb(skb);
			return tern_stolen(x->inst, TERN_STAT_DROP_ERR_DEST);
		}
		tern_stats_inc(x->inst->stats, TERN_STAT_XLAT_HAIRPIN);
		if (verdict == NF_DROP)
			kfree_skb(skb);
		return NF_STOLEN;
	}
	if (verdict == NF_ACCEPT) {
		/* Not for IPv6 after all (e.g. addressed to this host). */
		iph = ip_hdr(skb);
		tern_ttl_add(iph, -1);
		dst = skb_dst(skb) ? dst_clone(skb_dst(skb)) :
		      tern_route4(x->inst->net, skb, iph->saddr, iph->daddr,
				  iph->tos, iph->protocol);
		if (!dst) {
			tern_unwind(x);
			return tern_drop(x->inst, TERN_STAT_DROP_NO_ROUTE);
		}
		/* A translated packet never goes to this host (security.md). */
		if (tern_dst_local(dst)) {
			dst_release(dst);
			tern_unwind(x);
			return tern_drop(x->inst, TERN_STAT_DROP_TO_SELF);
		}
		tern_output(x->inst->net, skb, dst);
		return tern_stolen(x->inst, TERN_STAT_XLAT_64);
	}
	/* Dropped by the second pass: it went nowhere; its sender hears why. */
	if (verdict == NF_DROP) {
		tern_hairpin_answer(x, skb);
		tern_unwind(x);
	}
	tern_stats_inc(x->inst->stats, TERN_STAT_XLAT_HAIRPIN);
	return verdict;
}

static unsigned int tern_run_6to4(struct tern_xlat *x, struct sk_buff *skb)
{
	unsigned int verdict = tern_6to4_translate(x, skb);

	switch (verdict) {
	case TERN_XLAT_SEGMENT:
		return tern_run_segments(x, skb, true);
	case TERN_XLAT_HAIRPIN:
		return tern_hairpin_back(x);
	}
	return verdict;
}

static unsigned int tern_run_4to6(struct tern_xlat *x, struct sk_buff *skb)
{
	unsigned int verdict = tern_4to6_translate(x, skb);

	if (verdict == TERN_XLAT_SEGMENT)
		return tern_run_segments(x, skb, false);
	return verdict;
}

/* What the instance lets through untouched before any decision. */
static int tern_xlat_start(struct tern_xlat *x, struct tern_instance *inst,
			   const struct sk_buff *skb)
{
	const struct tern_config *cfg = tern_instance_config(inst);

	if (!cfg->enabled)
		return TERN_STAT_PASS_DISABLED;
	if (skb->pkt_type != PACKET_HOST)
		return TERN_STAT_PASS_OTHERHOST;
	tern_xlat_init(x, inst, cfg);
	return 0;
}

unsigned int tern_xlat_6to4(struct tern_instance *inst, struct sk_buff *skb)
{
	struct tern_xlat x;
	int why = tern_xlat_start(&x, inst, skb);

	return why ? tern_pass(inst, why) : tern_run_6to4(&x, skb);
}

unsigned int tern_xlat_4to6(struct tern_instance *inst, struct sk_buff *skb)
{
	struct tern_xlat x;
	int why = tern_xlat_start(&x, inst, skb);

	return why ? tern_pass(inst, why) : tern_run_4to6(&x, skb);
}
