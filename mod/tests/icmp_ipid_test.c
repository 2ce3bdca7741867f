// SPDX-License-Identifier: GPL-2.0
/* KUnit: ICMP type classes and mapping; the IPv4 Identification generator. */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/hash.h>
#include "xlat/icmp.h"
#include "xlat/ipid.h"

/* The echo types, mapped to each other both ways. */
static void icmp_echo_classes(struct kunit *test)
{
	static const struct {
		u8 t6, t4;
	} echoes[] = {
		{ ICMPV6_ECHO_REQUEST, ICMP_ECHO },
		{ ICMPV6_ECHO_REPLY, ICMP_ECHOREPLY },
	};
	u8 t4 = 0xff, t6 = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(echoes); i++) {
		KUNIT_EXPECT_EQ(test, tern_icmp6_classify(echoes[i].t6, &t4),
				TERN_ICMP_ECHO);
		KUNIT_EXPECT_EQ(test, t4, echoes[i].t4);
		KUNIT_EXPECT_EQ(test, tern_icmp4_classify(echoes[i].t4, &t6),
				TERN_ICMP_ECHO);
		KUNIT_EXPECT_EQ(test, t6, echoes[i].t6);
	}
}

static void icmp6_classes(struct kunit *test)
{
	u8 t4 = 0xff;
	int t;

	for (t = 1; t <= 4; t++)
		KUNIT_EXPECT_EQ(test, tern_icmp6_classify(t, &t4), TERN_ICMP_ERROR);
	/* Every other type: informational (>= 128) or without counterpart. */
	for (t = 0; t < 256; t++) {
		enum tern_icmp_kind k = tern_icmp6_classify(t, &t4);

		if ((t >= 1 && t <= 4) || t == 128 || t == 129)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, k, t >= 128 ? TERN_ICMP_INFO : TERN_ICMP_OTHER,
				    "ICMPv6 type %d", t);
	}
}

static void icmp4_classes(struct kunit *test)
{
	static const u8 errors[] = { 3, 4, 5, 11, 12 };
	static const u8 infos[] = { 9, 10, 13, 14, 15, 16, 17, 18 };
	u8 t6 = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(errors); i++)
		KUNIT_EXPECT_EQ_MSG(test, tern_icmp4_classify(errors[i], &t6),
				    TERN_ICMP_ERROR, "type %u", errors[i]);
	for (i = 0; i < ARRAY_SIZE(infos); i++)
		KUNIT_EXPECT_EQ_MSG(test, tern_icmp4_classify(infos[i], &t6),
				    TERN_ICMP_INFO, "type %u", infos[i]);
	KUNIT_EXPECT_EQ(test, tern_icmp4_classify(1, &t6), TERN_ICMP_OTHER);
	KUNIT_EXPECT_EQ(test, tern_icmp4_classify(200, &t6), TERN_ICMP_OTHER);
}

/* One flow: consecutive packets get consecutive Identifications. */
static void ipid_per_flow_counter(struct kunit *test)
{
	__be32 s = htonl(0xc6336402), d = htonl(0xcb007102);
	u16 first = ntohs(tern_ipid_next(&init_net, s, d, IPPROTO_UDP));
	int i;

	for (i = 1; i <= 1000; i++)
		KUNIT_EXPECT_EQ(test, ntohs(tern_ipid_next(&init_net, s, d,
							   IPPROTO_UDP)),
				(u16)(first + i));
}

/*
 * The first use of a counter in a jiffy adds a step below the jiffies
 * since its last use (as Linux's generator): none a jiffy later, one of
 * 0 to 999 a thousand jiffies later, and not always the same one.
 */
static void ipid_step_per_jiffy(struct kunit *test)
{
	__be32 d = htonl(0xcb007105);
	unsigned int i, stepped = 0, changed = 0;
	u16 prev = 0xffff;
	u32 now = 5000;

	for (i = 0; i < 64; i++) {
		__be32 s = htonl(0xc6336500 + i);
		u16 a, b, c, step;

		/* A first use at now: its own step; then none in that jiffy. */
		tern_ipid_reserve_at(&init_net, s, d, IPPROTO_UDP, 1, now);
		a = ntohs(tern_ipid_reserve_at(&init_net, s, d, IPPROTO_UDP,
					       1, now));
		b = ntohs(tern_ipid_reserve_at(&init_net, s, d, IPPROTO_UDP,
					       1, now + 1));
		KUNIT_EXPECT_EQ(test, b, (u16)(a + 1));
		c = ntohs(tern_ipid_reserve_at(&init_net, s, d, IPPROTO_UDP,
					       3, now + 1001));
		step = c - b - 1;
		KUNIT_EXPECT_LT(test, step, 1000);
		stepped += step > 0;
		changed += step != prev;
		prev = step;
		/* The reservation of 3 took c, c + 1, c + 2. */
		KUNIT_EXPECT_EQ(test, ntohs(tern_ipid_reserve_at(&init_net, s, d,
								 IPPROTO_UDP, 1,
								 now + 1001)),
				(u16)(c + 3));
		now += 10000;
	}
	/* Each step is 0, or its predecessor's, with odds of 1 in 1000. */
	KUNIT_EXPECT_GE(test, stepped, 60U);
	KUNIT_EXPECT_GE(test, changed, 60U);
}

/* A reservation of n takes n consecutive values of the flow's counter. */
static void ipid_reserve_block(struct kunit *test)
{
	__be32 s = htonl(0xc6336403), d = htonl(0xcb007103);
	u16 first = ntohs(tern_ipid_next(&init_net, s, d, IPPROTO_TCP));

	KUNIT_EXPECT_EQ(test, ntohs(tern_ipid_reserve(&init_net, s, d,
						      IPPROTO_TCP, 45)),
			(u16)(first + 1));
	KUNIT_EXPECT_EQ(test, ntohs(tern_ipid_next(&init_net, s, d, IPPROTO_TCP)),
			(u16)(first + 46));
	KUNIT_EXPECT_EQ(test, ntohs(tern_ipid_reserve(&init_net, s, d,
						      IPPROTO_TCP, 65535)),
			(u16)(first + 47));
	/* 65535 later: the counter wrapped around to just before that. */
	KUNIT_EXPECT_EQ(test, ntohs(tern_ipid_next(&init_net, s, d, IPPROTO_TCP)),
			(u16)(first + 46));
}

/* Many flows do not all start at the same value (random starts). */
static void ipid_random_starts(struct kunit *test)
{
	u16 first = ntohs(tern_ipid_next(&init_net, htonl(1), htonl(2),
					 IPPROTO_TCP));
	int i, same = 0;

	for (i = 0; i < 64; i++)
		if (ntohs(tern_ipid_next(&init_net, htonl(100 + i), htonl(2),
					 IPPROTO_TCP)) == first)
			same++;
	KUNIT_EXPECT_LT(test, same, 8);
}

/*
 * The same flow in two namespaces: two counters (the namespace is hashed
 * too), so one's packets leave no gap in the other's IDs. A namespace is
 * told by its hash_mix alone; four are tried, one pair may share a bucket.
 */
static void ipid_per_namespace(struct kunit *test)
{
	__be32 s = htonl(0xc6336404), d = htonl(0xcb007104);
	struct net *other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	unsigned int i, apart = 0;
	u16 a;

	KUNIT_ASSERT_NOT_NULL(test, other);
	for (i = 0; i < 4; i++) {
		other->hash_mix = net_hash_mix(&init_net) + 1 + i;
		a = ntohs(tern_ipid_next(&init_net, s, d, IPPROTO_UDP));
		tern_ipid_next(other, s, d, IPPROTO_UDP);
		apart += ntohs(tern_ipid_next(&init_net, s, d,
					      IPPROTO_UDP)) == (u16)(a + 1);
	}
	KUNIT_EXPECT_GE(test, apart, 3U);
}

static struct kunit_case tern_icmp_ipid_cases[] = {
	KUNIT_CASE(icmp_echo_classes),
	KUNIT_CASE(icmp6_classes),
	KUNIT_CASE(icmp4_classes),
	KUNIT_CASE(ipid_per_flow_counter),
	KUNIT_CASE(ipid_reserve_block),
	KUNIT_CASE(ipid_step_per_jiffy),
	KUNIT_CASE(ipid_random_starts),
	KUNIT_CASE(ipid_per_namespace),
	{}
};

/*
 * Module suites run when the module is coming, before tern_init(): seed the
 * generator as module init would.
 */
static int tern_icmp_ipid_suite_init(struct kunit_suite *suite)
{
	tern_ipid_init();
	return 0;
}

static struct kunit_suite tern_icmp_ipid_suite = {
	.name = "tern_icmp_ipid",
	.suite_init = tern_icmp_ipid_suite_init,
	.test_cases = tern_icmp_ipid_cases,
};

kunit_test_suite(tern_icmp_ipid_suite);
