// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: packets the translator does not translate: the reason counted
 * once, nothing sent.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "kt_xlat.h"

/* Packets not translated: the reason counted once, nothing sent. */
static void xlat_not_translated(struct kunit *test)
{
	struct tern_kt_xlat *c = tern_kt_xlat_of(test);
	u8 *b = c->buf;
	struct in6_addr other = { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0x99 } } };
	unsigned int len;
	struct sk_buff *skb;

	/* Destination outside pool6. */
	len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	((struct ipv6hdr *)b)->daddr = other;
	tern_kt_expect_run(test, len, true, NF_ACCEPT, TERN_STAT_PASS_NO_MAPPING);
	/* Source outside pool6. */
	len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	((struct ipv6hdr *)b)->saddr = other;
	tern_kt_expect_run(test, len, true, NF_DROP, TERN_STAT_DROP_SRC_UNTRANSLATABLE);
	/* Hop limit 1 and TTL 1. */
	len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 1);
	tern_kt_expect_run(test, len, true, NF_DROP, TERN_STAT_DROP_TTL);
	len = tern_kt_pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, 50, 1, 1, 0);
	tern_kt_expect_run(test, len, false, NF_DROP, TERN_STAT_DROP_TTL);
	/* Special IPv4 addresses. */
	len = tern_kt_pkt4(b, htonl(0x7f000001), TERN_KT_H6(1), IPPROTO_UDP, 50, 64, 1, 0);
	tern_kt_expect_run(test, len, false, NF_ACCEPT, TERN_STAT_PASS_SPECIAL4);
	len = tern_kt_pkt6(b, htonl(0xe0000001), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	tern_kt_expect_run(test, len, true, NF_DROP, TERN_STAT_DROP_SPECIAL4);
	/* A local IPv4 destination (the test interface's address). */
	len = tern_kt_pkt4(b, TERN_KT_H4(5), htonl(0x0aff0001), IPPROTO_UDP, 50, 64, 1, 0);
	tern_kt_expect_run(test, len, false, NF_ACCEPT, TERN_STAT_PASS_LOCAL);
	/* No route (nothing routes 100.64.0.0/10 in the VM). */
	len = tern_kt_pkt6(b, TERN_KT_H6(1), htonl(0x64400001), IPPROTO_UDP, 50, 64);
	tern_kt_expect_run(test, len, true, NF_DROP, TERN_STAT_DROP_NO_ROUTE);
	/* Other host; disabled. */
	len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	skb = tern_kt_skb(b, len, true, TERN_KT_BUF);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->pkt_type = PACKET_OTHERHOST;
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run(&c->ki, skb), NF_ACCEPT);
	tern_kt_expect_counter(test, TERN_STAT_PASS_OTHERHOST);
	c->ki.cfg->enabled = false;
	tern_kt_expect_run(test, len, true, NF_ACCEPT, TERN_STAT_PASS_DISABLED);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, tern_kt_pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1),
								 IPPROTO_UDP, 50, 64, 1, 0),
					      false, TERN_KT_BUF), NF_ACCEPT);
	c->ki.cfg->enabled = true;
	/* ICMP informational other than echo; ICMP fragments. */
	len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_ICMPV6, 50, 64);
	b[40] = 135;	/* neighbour solicitation */
	tern_kt_expect_run(test, len, true, NF_DROP, TERN_STAT_DROP_ICMP_INFO);
	len = tern_kt_pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_ICMP, 50, 64, 1, IP_MF);
	tern_kt_expect_run(test, len, false, NF_DROP, TERN_STAT_DROP_ICMP_FRAGMENT);
	/* A Routing header with Segments Left. */
	len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 58, 64);
	memmove(b + 48, b + 40, 50);
	b[6] = NEXTHDR_ROUTING;
	b[40] = IPPROTO_UDP;
	b[41] = 0;
	b[42] = 4;
	b[43] = 1;
	memset(b + 44, 0, 4);
	tern_kt_expect_run(test, len, true, NF_DROP, TERN_STAT_DROP_ROUTING_HDR);
}

static struct kunit_case tern_xlat_untranslated_cases[] = {
	KUNIT_CASE(xlat_not_translated),
	{}
};

static struct kunit_suite tern_xlat_untranslated_suite = {
	.name = "tern_xlat_untranslated",
	.suite_init = tern_kt_net_suite_init,
	.suite_exit = tern_kt_net_suite_exit,
	.init = tern_kt_xlat_init,
	.exit = tern_kt_xlat_exit,
	.test_cases = tern_xlat_untranslated_cases,
};

kunit_test_suite(tern_xlat_untranslated_suite);
