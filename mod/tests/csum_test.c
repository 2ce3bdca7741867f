// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the incremental checksum updates of csum.h against a full
 * recomputation, on random packets.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <net/ip6_checksum.h>
#include "xlat/csum.h"
#include "xlat/packet.h"
#include "kt_util.h"

#define ROUNDS 500
#define MAXLEN 1400

struct addrs6 {
	struct in6_addr s, d;
};

static void rand_addrs(struct addrs6 *a6, __be32 a4[2])
{
	get_random_bytes(a6, sizeof(*a6));
	get_random_bytes(a4, 2 * sizeof(__be32));
}

/* Full checksum of an L4 segment with an IPv4 or IPv6 pseudo-header. */
static __sum16 full4(const void *l4, int len, const __be32 a4[2], u8 proto)
{
	return csum_tcpudp_magic(a4[0], a4[1], len, proto,
				 csum_partial(l4, len, 0));
}

static __sum16 full6(const void *l4, int len, const struct addrs6 *a, u8 proto)
{
	return csum_ipv6_magic(&a->s, &a->d, len, proto, csum_partial(l4, len, 0));
}

static struct sk_buff *fake_skb(struct kunit *test)
{
	struct sk_buff *skb = alloc_skb(0, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->ip_summed = CHECKSUM_NONE;
	return skb;
}

/* TCP/UDP, 4 -> 6 and 6 -> 4: only the pseudo-header addresses change. */
static void l4_pseudo_matches_full(struct kunit *test)
{
	struct sk_buff *skb = fake_skb(test);
	u8 *buf = kunit_kmalloc(test, MAXLEN, GFP_KERNEL);
	int r;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (r = 0; r < ROUNDS; r++) {
		u8 proto = (r & 1) ? IPPROTO_TCP : IPPROTO_UDP;
		int hl = proto == IPPROTO_TCP ? sizeof(struct tcphdr) : sizeof(struct udphdr);
		int len = hl + get_random_u32() % (MAXLEN - hl);
		__sum16 *check = (__sum16 *)(buf + (proto == IPPROTO_TCP ? 16 : 6));
		struct addrs6 a6;
		__be32 a4[2];

		get_random_bytes(buf, len);
		rand_addrs(&a6, a4);

		/* 4 -> 6 */
		*check = 0;
		*check = full4(buf, len, a4, proto);
		if (proto == IPPROTO_UDP && !*check)
			*check = CSUM_MANGLED_0;
		tern_csum_l4_pseudo(skb, proto, buf, tern_csum_diff(a4, 8, &a6, 32));
		KUNIT_EXPECT_EQ(test, (__force u16)full6(buf, len, &a6, proto), 0);

		/* and back, 6 -> 4 */
		tern_csum_l4_pseudo(skb, proto, buf, tern_csum_diff(&a6, 32, a4, 8));
		KUNIT_EXPECT_EQ(test, (__force u16)full4(buf, len, a4, proto), 0);
	}
	kfree_skb(skb);
}

/* A zero UDP checksum (IPv4: none) stays zero. */
static void udp_zero_checksum_kept(struct kunit *test)
{
	struct sk_buff *skb = fake_skb(test);
	struct udphdr uh = { .check = 0 };
	struct addrs6 a6;
	__be32 a4[2];

	rand_addrs(&a6, a4);
	tern_csum_l4_pseudo(skb, IPPROTO_UDP, &uh, tern_csum_diff(a4, 8, &a6, 32));
	KUNIT_EXPECT_EQ(test, (__force u16)uh.check, 0);
	kfree_skb(skb);
}

/*
 * A UDP datagram whose IPv6 checksum computes to 0 leaves as 0xffff (RFC
 * 768; 0 would say "none", which IPv6 forbids): a payload word is chosen
 * to make it so, every round.
 */
static void udp_zero_result_sent_as_ffff(struct kunit *test)
{
	struct sk_buff *skb = fake_skb(test);
	u8 buf[64];
	struct udphdr *uh = (struct udphdr *)buf;
	__sum16 *fix = (__sum16 *)(buf + sizeof(*uh));
	struct addrs6 a6;
	__be32 a4[2];
	__sum16 c4;
	int r;

	for (r = 0; r < 16; r++) {
		get_random_bytes(buf, sizeof(buf));
		rand_addrs(&a6, a4);
		uh->check = 0;
		*fix = 0;
		*fix = full6(buf, sizeof(buf), &a6, IPPROTO_UDP);
		KUNIT_ASSERT_EQ(test, (__force u16)full6(buf, sizeof(buf), &a6,
							 IPPROTO_UDP), 0);
		c4 = full4(buf, sizeof(buf), a4, IPPROTO_UDP);
		uh->check = c4 ?: CSUM_MANGLED_0;
		tern_csum_l4_pseudo(skb, IPPROTO_UDP, buf,
				    tern_csum_diff(a4, 8, &a6, 32));
		KUNIT_EXPECT_EQ(test, (__force u16)uh->check, 0xffff);
	}
	kfree_skb(skb);
}

/* ICMP echo <-> ICMPv6 echo: type changes, the pseudo-header enters/leaves. */
static void icmp_echo_matches_full(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, MAXLEN, GFP_KERNEL);
	int r;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (r = 0; r < ROUNDS; r++) {
		int len = 8 + get_random_u32() % (MAXLEN - 8);
		bool request = r & 1;
		struct icmphdr *ih = (struct icmphdr *)buf;
		struct addrs6 a6;
		__be32 a4[2];

		get_random_bytes(buf, len);
		rand_addrs(&a6, a4);
		ih->type = request ? ICMP_ECHO : ICMP_ECHOREPLY;
		/* Echo has code 0; a nonzero one leaves as 0 (and summed so). */
		ih->code = r % 4 ? 0 : 1 + get_random_u32() % 255;
		ih->checksum = 0;
		ih->checksum = csum_fold(csum_partial(buf, len, 0));

		tern_csum_icmp(&ih->checksum, buf,
			       request ? ICMPV6_ECHO_REQUEST : ICMPV6_ECHO_REPLY,
			       tern_csum_pseudo6(&a6.s, &a6.d, len, IPPROTO_ICMPV6),
			       true);
		KUNIT_EXPECT_EQ(test, buf[1], 0);
		KUNIT_EXPECT_EQ(test, (__force u16)full6(buf, len, &a6, IPPROTO_ICMPV6), 0);
		buf[1] = r % 4 ? 0 : 1 + get_random_u32() % 255;
		csum_replace2(&ih->checksum, htons(0), htons(buf[1]));

		tern_csum_icmp(&ih->checksum, buf,
			       request ? ICMP_ECHO : ICMP_ECHOREPLY,
			       tern_csum_pseudo6(&a6.s, &a6.d, len, IPPROTO_ICMPV6),
			       false);
		KUNIT_EXPECT_EQ(test, buf[1], 0);
		KUNIT_EXPECT_EQ(test, (__force u16)csum_fold(csum_partial(buf, len, 0)), 0);
	}
}

/*
 * tern_icmp_csum_ok() on IPv4 and IPv6 ICMP messages, linear or paged,
 * right or corrupt, for each way the skb may come: CHECKSUM_NONE (summed),
 * CHECKSUM_COMPLETE with the device's sum right or wrong (a wrong device
 * sum is not believed either way), CHECKSUM_UNNECESSARY (not believed
 * either: summed as CHECKSUM_NONE), CHECKSUM_PARTIAL (completed as the
 * device would, then checked: corrupt is a wrong seed in the field).
 */
static void icmp_verify(struct kunit *test)
{
	static const u8 s6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const u8 d6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	u8 *buf = kunit_kzalloc(test, 40 + MAXLEN, GFP_KERNEL);
	unsigned int round;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (round = 0; round < 80; round++) {
		bool v6 = round & 1, corrupt = round & 2, paged = round & 4;
		unsigned int mode = (round >> 3) % 5;
		unsigned int hl = v6 ? 40 : 20, len = 8 + get_random_u32() % 600;
		u8 *l4 = buf + hl;
		struct sk_buff *skb;
		__wsum dev_sum;
		__sum16 seed;
		bool ok;

		get_random_bytes(l4, len);
		l4[0] = v6 ? ICMPV6_DEST_UNREACH : ICMP_DEST_UNREACH;
		if (v6) {
			tern_kt_ip6(buf, len, IPPROTO_ICMPV6,
				    (const struct in6_addr *)s6,
				    (const struct in6_addr *)d6, 64);
			tern_kt_l4csum6(l4, len, IPPROTO_ICMPV6,
					(const struct in6_addr *)s6,
					(const struct in6_addr *)d6);
		} else {
			tern_kt_ip4(buf, 20 + len, IPPROTO_ICMP,
				    TERN_KT_H4(1), TERN_KT_H6(1), 64, 1, 0);
			l4[2] = l4[3] = 0;
			*(__sum16 *)(l4 + 2) = csum_fold(csum_partial(l4, len,
								      0));
		}
		if (corrupt && mode != 4)
			l4[4 + get_random_u32() % (len - 4)] ^= 0x40;
		skb = tern_kt_skb(buf, hl + len, v6, paged ? hl + 4 : hl + len);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		/* What a device would have summed: the bytes as received. */
		dev_sum = skb_checksum(skb, 0, skb->len, 0);
		switch (mode) {
		case 1:
			skb->ip_summed = CHECKSUM_COMPLETE;
			skb->csum = dev_sum;
			break;
		case 2:		/* a device that summed wrong */
			skb->ip_summed = CHECKSUM_COMPLETE;
			skb->csum = csum_add(dev_sum, (__force __wsum)0x1234);
			break;
		case 3:
			skb->ip_summed = CHECKSUM_UNNECESSARY;
			break;
		case 4:		/* the seed a sender leaves for the device */
			seed = v6 ? ~csum_ipv6_magic((const struct in6_addr *)s6,
						     (const struct in6_addr *)d6,
						     len, IPPROTO_ICMPV6, 0) :
				    0;
			if (corrupt)
				seed ^= (__force __sum16)0x40;
			*(__sum16 *)(skb->data + hl + 2) = seed;
			skb->ip_summed = CHECKSUM_PARTIAL;
			skb->csum_start = skb_headroom(skb) + hl;
			skb->csum_offset = 2;
			break;
		}
		ok = tern_icmp_csum_ok(skb, hl);
		KUNIT_EXPECT_EQ_MSG(test, ok, !corrupt,
				    "v6 %d paged %d mode %u len %u",
				    v6, paged, mode, len);
		kfree_skb(skb);
	}
}

static struct kunit_case tern_csum_cases[] = {
	KUNIT_CASE(icmp_verify),
	KUNIT_CASE(l4_pseudo_matches_full),
	KUNIT_CASE(udp_zero_checksum_kept),
	KUNIT_CASE(udp_zero_result_sent_as_ffff),
	KUNIT_CASE(icmp_echo_matches_full),
	{}
};

static struct kunit_suite tern_csum_suite = {
	.name = "tern_csum",
	.test_cases = tern_csum_cases,
};

kunit_test_suite(tern_csum_suite);
