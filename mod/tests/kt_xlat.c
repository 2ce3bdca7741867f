// SPDX-License-Identifier: GPL-2.0
/* KUnit helpers of the tern_xlat_* suites: whole packets, counters, checks. */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/ip.h>
#include "kt_xlat.h"

void tern_kt_snap(struct kunit *test)
{
	tern_kt_stats_total(&tern_kt_xlat_of(test)->ki, tern_kt_xlat_of(test)->before);
	tern_kt_capture_reset();
}

/* Exactly one counter moved since tern_kt_snap(), by one, and it is @stat. */
void tern_kt_expect_counter(struct kunit *test, int stat)
{
	struct tern_kt_xlat *c = tern_kt_xlat_of(test);
	u64 now[TERN_STAT_MAX + 1];
	int i;

	tern_kt_stats_total(&c->ki, now);
	for (i = 0; i <= TERN_STAT_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, now[i] - c->before[i], i == stat ? 1ULL : 0ULL,
				    "counter %d (expected %d to move)", i, stat);
}

/* Runs one packet; returns the verdict. */
unsigned int tern_kt_run_buf(struct kunit *test, unsigned int len, bool v6,
			     unsigned int linear)
{
	struct sk_buff *skb = tern_kt_skb(tern_kt_xlat_of(test)->buf, len, v6, linear);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	return tern_kt_run(&tern_kt_xlat_of(test)->ki, skb);
}

/*
 * Runs the first @len bytes of the buffer (all linear) after
 * tern_kt_snap(): the verdict is @verdict, and @stat the one counter moved.
 */
void tern_kt_expect_run(struct kunit *test, unsigned int len, bool v6,
			unsigned int verdict, int stat)
{
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, v6, TERN_KT_BUF),
			verdict);
	tern_kt_expect_counter(test, stat);
}

void tern_kt_fill(u8 *p, unsigned int len, u8 seed)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = seed + i * 7;
}

/* IPv6 packet @s -> @d (IPv4 addresses, pool6-mapped) with an L4 segment. */
unsigned int tern_kt_pkt6(u8 *p, __be32 s4, __be32 d4, u8 proto,
			  unsigned int l4len, u8 hlim)
{
	struct in6_addr s, d;

	tern_kt_map6(s4, &s);
	tern_kt_map6(d4, &d);
	tern_kt_fill(p + 40, l4len, 0x11);
	if (proto == IPPROTO_UDP) {
		p[44] = l4len >> 8;
		p[45] = l4len;
	} else if (proto == IPPROTO_ICMPV6) {
		p[40] = ICMPV6_ECHO_REQUEST;
		p[41] = 0;
	} else if (proto == IPPROTO_TCP) {
		p[52] = 5 << 4;
	}
	tern_kt_l4csum6(p + 40, l4len, proto, &s, &d);
	tern_kt_ip6(p, l4len, proto, &s, &d, hlim);
	return 40 + l4len;
}

unsigned int tern_kt_pkt4(u8 *p, __be32 s, __be32 d, u8 proto,
			  unsigned int l4len, u8 ttl, u16 id, u16 frag_off)
{
	tern_kt_fill(p + 20, l4len, 0x22);
	if (proto == IPPROTO_UDP) {
		p[24] = l4len >> 8;
		p[25] = l4len;
	} else if (proto == IPPROTO_ICMP) {
		p[20] = ICMP_ECHO;
		p[21] = 0;
	} else if (proto == IPPROTO_TCP) {
		p[32] = 5 << 4;
	}
	tern_kt_l4csum4(p + 20, l4len, proto, s, d);
	tern_kt_ip4(p, 20 + l4len, proto, s, d, ttl, id, frag_off);
	return 20 + l4len;
}

struct tern_kt_pkt *tern_kt_expect_captured(struct kunit *test, unsigned int n,
					    unsigned int i, u8 family)
{
	struct tern_kt_pkt *p;

	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), n);
	p = tern_kt_captured(i);
	KUNIT_ASSERT_NOT_NULL_MSG(test, p, "packet %u not captured", i);
	KUNIT_ASSERT_EQ(test, p->family, family);
	return p;
}

/* Checks of any IPv4 header: version, IHL, lengths, header checksum. */
struct iphdr *tern_kt_check4(struct kunit *test, struct tern_kt_pkt *p)
{
	struct iphdr *iph = (struct iphdr *)p->data;

	KUNIT_ASSERT_GE(test, p->len, 20U);
	KUNIT_EXPECT_EQ(test, p->data[0] >> 4, 4);
	KUNIT_EXPECT_EQ(test, p->data[0] & 15, 5);
	KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), p->len);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(iph, 5), 0);
	return iph;
}

struct ipv6hdr *tern_kt_check6(struct kunit *test, struct tern_kt_pkt *p)
{
	struct ipv6hdr *ip6 = (struct ipv6hdr *)p->data;

	KUNIT_ASSERT_GE(test, p->len, 40U);
	KUNIT_EXPECT_EQ(test, p->data[0] >> 4, 6);
	KUNIT_EXPECT_EQ(test, ntohs(ip6->payload_len) + 40, p->len);
	return ip6;
}

void tern_kt_expect_addr6(struct kunit *test, const struct in6_addr *a,
			  __be32 a4)
{
	struct in6_addr w;

	tern_kt_map6(a4, &w);
	TERN_KT_EXPECT_BYTES(test, a, &w, 16, "IPv6 address");
}

int tern_kt_xlat_init(struct kunit *test)
{
	struct tern_kt_xlat *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	c->buf = kunit_kzalloc(test, TERN_KT_BUF, GFP_KERNEL);
	if (!c->buf || tern_kt_inst_init(&c->ki))
		return -ENOMEM;
	test->priv = c;
	tern_kt_capture_reset();
	return 0;
}

void tern_kt_xlat_exit(struct kunit *test)
{
	struct tern_kt_xlat *c = test->priv;

	tern_kt_capture_reset();
	tern_kt_inst_fini(&c->ki);
}
