// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: whole packets translated both ways (TCP, UDP, ICMP echo) through
 * tern_xlat_6to4() / tern_xlat_4to6() on a fake instance in init_net,
 * captured at POST_ROUTING: headers, checksums, the one counter that moves.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <net/ip.h>
#include "kt_eamt.h"
#include "kt_xlat.h"

/* 6 -> 4: UDP, TCP, ICMP echo; small packets: DF clear, per-flow IDs. */
static void xlat_6to4_basic(struct kunit *test)
{
	static const u8 protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_ICMPV6 };
	u8 *b = tern_kt_xlat_of(test)->buf;
	int i, lin;

	for (lin = 0; lin < 2; lin++) {
		for (i = 0; i < ARRAY_SIZE(protos); i++) {
			u8 proto4 = protos[i] == IPPROTO_ICMPV6 ? IPPROTO_ICMP : protos[i];
			unsigned int len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5),
							protos[i], 120, 64);
			struct tern_kt_pkt *p;
			struct iphdr *iph;
			u16 id;

			tern_kt_snap(test);
			KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, true,
							      lin ? 48 : TERN_KT_BUF),
					NF_STOLEN);
			tern_kt_expect_counter(test, TERN_STAT_XLAT_64);
			p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
			iph = tern_kt_check4(test, p);
			KUNIT_EXPECT_EQ(test, p->len, 140U);
			KUNIT_EXPECT_EQ(test, iph->tos, 0x28);
			KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 0);
			KUNIT_EXPECT_EQ(test, iph->ttl, 63);
			KUNIT_EXPECT_EQ(test, iph->protocol, proto4);
			KUNIT_EXPECT_EQ(test, iph->saddr, TERN_KT_H6(1));
			KUNIT_EXPECT_EQ(test, iph->daddr, TERN_KT_H4(5));
			KUNIT_EXPECT_EQ(test, tern_kt_l4check4(p->data + 20, 120, proto4,
							       iph->saddr, iph->daddr), 0);
			if (proto4 == IPPROTO_ICMP)
				KUNIT_EXPECT_EQ(test, p->data[20], ICMP_ECHO);
			/* Data untouched (past the checksum field). */
			TERN_KT_EXPECT_BYTES(test, p->data + 38, b + 58, 100, "data");
			id = ntohs(iph->id);

			/* The next packet of the flow: the next ID. */
			tern_kt_snap(test);
			KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, true, TERN_KT_BUF),
					NF_STOLEN);
			p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
			iph = tern_kt_check4(test, p);
			KUNIT_EXPECT_EQ(test, ntohs(iph->id), (u16)(id + 1));
		}
	}
}

/*
 * The first packet of a flow goes out with the route the kernel gave, a
 * reference of its own; the next ones with the route cache's, lent (no
 * count taken). The cache is per CPU: the test stays on one.
 * test/kunit-net.sh turns IPv6 forwarding on, which the IPv6 cache needs.
 */
static void xlat_route_lent(struct kunit *test)
{
	u8 *b = tern_kt_xlat_of(test)->buf;
	struct tern_kt_pkt *p;
	unsigned int len;
	int v6, i;

	migrate_disable();
	for (v6 = 0; v6 < 2; v6++) {
		len = v6 ? tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5),
					IPPROTO_UDP, 120, 64) :
			   tern_kt_pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1),
					IPPROTO_UDP, 120, 64, 0x1234, IP_DF);
		for (i = 0; i < 3; i++) {
			tern_kt_snap(test);
			KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, v6,
							      TERN_KT_BUF),
					NF_STOLEN);
			p = tern_kt_expect_captured(test, 1, 0, v6 ? NFPROTO_IPV4 :
						    NFPROTO_IPV6);
			KUNIT_EXPECT_EQ_MSG(test, p->dst_lent, i > 0,
					    "%s packet %d", v6 ? "6->4" : "4->6", i);
		}
	}
	migrate_enable();
}

/* 4 -> 6: TCP, UDP, ICMP echo; DF set and clear, small packets. */
static void xlat_4to6_basic(struct kunit *test)
{
	static const u8 protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_ICMP };
	u8 *b = tern_kt_xlat_of(test)->buf;
	int i, df;

	for (df = 0; df < 2; df++) {
		for (i = 0; i < ARRAY_SIZE(protos); i++) {
			u8 proto6 = protos[i] == IPPROTO_ICMP ? IPPROTO_ICMPV6 : protos[i];
			unsigned int len = tern_kt_pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), protos[i],
							300, 64, 0x1234, df ? IP_DF : 0);
			struct tern_kt_pkt *p;
			struct ipv6hdr *ip6;

			tern_kt_snap(test);
			KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, false,
							      df ? TERN_KT_BUF : 34),
					NF_STOLEN);
			tern_kt_expect_counter(test, TERN_STAT_XLAT_46);
			p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV6);
			ip6 = tern_kt_check6(test, p);
			KUNIT_EXPECT_EQ(test, p->len, 340U);
			KUNIT_EXPECT_EQ(test, ntohl(*(__be32 *)ip6), 0x62800000U);
			KUNIT_EXPECT_EQ(test, ip6->nexthdr, proto6);
			KUNIT_EXPECT_EQ(test, ip6->hop_limit, 63);
			tern_kt_expect_addr6(test, &ip6->saddr, TERN_KT_H4(5));
			tern_kt_expect_addr6(test, &ip6->daddr, TERN_KT_H6(1));
			KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 40, 300, proto6,
							       &ip6->saddr, &ip6->daddr), 0);
			if (proto6 == IPPROTO_ICMPV6)
				KUNIT_EXPECT_EQ(test, p->data[40], ICMPV6_ECHO_REQUEST);
			TERN_KT_EXPECT_BYTES(test, p->data + 60, b + 40, 280, "data");
		}
	}
}

/* UDP with a zero checksum: dropped, or computed when asked (RFC 7915 4.5). */
static void xlat_4to6_udp_csum0(struct kunit *test)
{
	u8 *b = tern_kt_xlat_of(test)->buf;
	unsigned int len = tern_kt_pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, 100,
					64, 1, 0);
	struct tern_kt_pkt *p;
	struct ipv6hdr *ip6;

	b[26] = b[27] = 0;
	tern_kt_xlat_of(test)->ki.cfg->icmp_on_drop = false;
	tern_kt_expect_run(test, len, false, NF_DROP, TERN_STAT_DROP_UDP_CSUM0);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 0U);
	tern_kt_xlat_of(test)->ki.cfg->icmp_on_drop = true;

	tern_kt_xlat_of(test)->ki.cfg->amend_udp_csum0 = true;
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, false, 30), NF_STOLEN);
	tern_kt_expect_counter(test, TERN_STAT_XLAT_46);
	p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV6);
	ip6 = tern_kt_check6(test, p);
	KUNIT_EXPECT_NE(test, p->data[46] | p->data[47], 0);
	KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 40, 100, IPPROTO_UDP,
					       &ip6->saddr, &ip6->daddr), 0);
	/* Not for a fragment: the whole datagram is not here. */
	tern_kt_pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, 100, 64, 1, IP_MF);
	b[26] = b[27] = 0;
	tern_kt_expect_run(test, len, false, NF_DROP, TERN_STAT_DROP_UDP_CSUM0);
}

/* A 6 -> 4 UDP datagram from 192.0.2.1 by pool6: its IPv4 source. */
static __be32 kt_xlat_source4(struct kunit *test)
{
	u8 *b = tern_kt_xlat_of(test)->buf;
	unsigned int len = tern_kt_pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5),
					IPPROTO_UDP, 40, 64);
	struct tern_kt_pkt *p;

	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, true, TERN_KT_BUF),
			NF_STOLEN);
	p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
	return p ? tern_kt_check4(test, p)->saddr : 0;
}

/*
 * A packet reads the tables through the configuration it read (struct
 * tern_config), not the instance's pointers: during a publish, the
 * instance may already hold the next EAMT while the configuration in
 * force (and its pool6, its other settings) still names the last one.
 */
static void xlat_tables_of_config(struct kunit *test)
{
	struct tern_kt_xlat *kx = tern_kt_xlat_of(test);
	struct tern_eam a = tern_kt_eam(test, "2001:db8:64::c000:201", 128,
					"198.51.100.1", 32);
	struct tern_eam b = tern_kt_eam(test, "2001:db8:64::c000:201", 128,
					"198.51.100.2", 32);
	struct tern_eamt *ta = NULL, *tb = NULL;

	tern_kt_add_eam(test, &ta, &a);
	tern_kt_add_eam(test, &tb, &b);
	RCU_INIT_POINTER(kx->ki.inst.eamt, tb);
	kx->ki.cfg->eamt = ta;
	KUNIT_EXPECT_EQ(test, kt_xlat_source4(test), tern_kt_a4(test, "198.51.100.1"));
	kx->ki.cfg->eamt = NULL;
	KUNIT_EXPECT_EQ(test, kt_xlat_source4(test), TERN_KT_H6(1));
	RCU_INIT_POINTER(kx->ki.inst.eamt, NULL);
	tern_eamt_free(ta);
	tern_eamt_free(tb);
}

static struct kunit_case tern_xlat_basic_cases[] = {
	KUNIT_CASE(xlat_6to4_basic),
	KUNIT_CASE(xlat_route_lent),
	KUNIT_CASE(xlat_4to6_basic),
	KUNIT_CASE(xlat_4to6_udp_csum0),
	KUNIT_CASE(xlat_tables_of_config),
	{}
};

static struct kunit_suite tern_xlat_basic_suite = {
	.name = "tern_xlat_basic",
	.suite_init = tern_kt_net_suite_init,
	.suite_exit = tern_kt_net_suite_exit,
	.init = tern_kt_xlat_init,
	.exit = tern_kt_xlat_exit,
	.test_cases = tern_xlat_basic_cases,
};

kunit_test_suite(tern_xlat_basic_suite);
