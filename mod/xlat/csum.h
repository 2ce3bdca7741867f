/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_CSUM_H
#define _TERN_CSUM_H

#include <linux/in6.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/checksum.h>

/* Ones' complement sum of an IPv6 pseudo-header (RFC 8200 8.1). */
static inline __wsum tern_csum_pseudo6(const struct in6_addr *saddr,
				       const struct in6_addr *daddr,
				       u32 len, u8 proto)
{
	__wsum sum = csum_partial(saddr, sizeof(*saddr), 0);

	sum = csum_partial(daddr, sizeof(*daddr), sum);
	sum = csum_add(sum, (__force __wsum)htonl(len));
	return csum_add(sum, (__force __wsum)htonl(proto));
}

/*
 * The 32-bit word at @p, as it lies in memory. The words summed run on
 * past the header field named (saddr, then daddr): the builtin, which
 * FORTIFY_SOURCE does not bound by that field.
 */
static inline u64 tern_csum_word(const u8 *p)
{
	u32 w;

	__builtin_memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * Ones' complement sum of @len bytes at @p. Addresses (8 or 32 bytes, a
 * constant) are summed as 32-bit words inline: the 16-bit fold is the
 * same, and every packet sums two pairs of them. The words add up in 64
 * bits, their carries folded back in after (two folds bring any sum of
 * eight words under 2^32): the value csum_add() word by word gives, in
 * straight-line code.
 */
static inline __wsum tern_csum_sum(const void *p, int len)
{
	const u8 *b = p;
	u64 sum = 0;
	int i;

	if (!__builtin_constant_p(len) || len % 4 || len > 32)
		return csum_partial(p, len, 0);
	/* Left to itself, GCC keeps a loop of eight (-O2 does not grow code). */
#pragma GCC unroll 8
	for (i = 0; i < len; i += 4)
		sum += tern_csum_word(b + i);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	return (__force __wsum)(u32)sum;
}

/* Sum of @to minus sum of @from: what replacing one by the other adds. */
static inline __wsum tern_csum_diff(const void *from, int flen,
				    const void *to, int tlen)
{
	return csum_sub(tern_csum_sum(to, tlen), tern_csum_sum(from, flen));
}

/*
 * Adds @diff to a checksum field. For CHECKSUM_PARTIAL the field holds the
 * (uncomplemented) pseudo-header sum, so only pseudo-header changes apply.
 * The caller has already turned CHECKSUM_COMPLETE into CHECKSUM_NONE.
 */
static inline void tern_csum_add_diff(__sum16 *sum, const struct sk_buff *skb,
				      __wsum diff, bool pseudohdr)
{
	if (skb->ip_summed != CHECKSUM_PARTIAL)
		csum_replace_by_diff(sum, diff);
	else if (pseudohdr)
		*sum = ~csum_fold(csum_add(diff, csum_unfold(*sum)));
}

/*
 * TCP and UDP: only the addresses of the pseudo-header change between
 * IPv4 and IPv6 (length and protocol sum the same). @diff is the change.
 * Works for CHECKSUM_PARTIAL (the field holds the pseudo-header sum) too.
 */
static inline void tern_csum_l4_pseudo(struct sk_buff *skb, u8 proto,
				       void *l4, __wsum diff)
{
	if (proto == IPPROTO_TCP) {
		struct tcphdr *th = l4;

		tern_csum_add_diff(&th->check, skb, diff, true);
	} else if (proto == IPPROTO_UDP) {
		struct udphdr *uh = l4;

		/* A zero UDP checksum means "none" on IPv4; keep it so. */
		if (!uh->check && skb->ip_summed != CHECKSUM_PARTIAL)
			return;
		tern_csum_add_diff(&uh->check, skb, diff, true);
		if (!uh->check && skb->ip_summed != CHECKSUM_PARTIAL)
			uh->check = CSUM_MANGLED_0;
	}
}

/*
 * ICMP <-> ICMPv6 echo: the type changes, the code becomes 0 (the only one
 * RFC 792 and RFC 4443 define for echo messages) and the IPv6
 * pseudo-header enters (@pseudo_add) or leaves (!@pseudo_add) the
 * checksum. @ip_summed must not be CHECKSUM_PARTIAL.
 */
static inline void tern_csum_icmp(__sum16 *check, u8 *typecode,
				  u8 new_type, __wsum pseudo, bool pseudo_add)
{
	u8 old[2] = { typecode[0], typecode[1] };
	__wsum diff;

	typecode[0] = new_type;
	typecode[1] = 0;
	diff = tern_csum_diff(old, 2, typecode, 2);
	diff = pseudo_add ? csum_add(diff, pseudo) : csum_sub(diff, pseudo);
	csum_replace_by_diff(check, diff);
}

#endif /* _TERN_CSUM_H */
