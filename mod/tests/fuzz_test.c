// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: random packets (kt_fuzz.c) both ways through the translator,
 * linear or paged. Nothing may crash or leak (KASAN, kmemleak), exactly
 * one counter moves per packet, and whatever leaves through the test
 * interface is well formed. The seed is fixed and printed: a failure can
 * be replayed.
 */

#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/slab.h>
#include <net/ip.h>
#include "kt_fuzz.h"

#define FUZZ_SEED	0x7e4e5eedULL
#define FUZZ_PACKETS	4000	/* per direction: about 15 s each in the VM */
#define FUZZ_BUF	4200

/* Every packet that left is well formed (lengths, IPv4 header checksum). */
static void fuzz_check_out(struct kunit *test, struct tern_kt_fuzz *f)
{
	unsigned int i;

	for (i = 0; i < tern_kt_ncaptured(); i++) {
		struct tern_kt_pkt *p = tern_kt_captured(i);
		bool ok;

		if (p->family == NFPROTO_IPV4) {
			const struct iphdr *iph = (const struct iphdr *)p->data;

			ok = p->len >= 20 && iph->version == 4 && iph->ihl >= 5 &&
			     ntohs(iph->tot_len) == p->len &&
			     iph->ihl * 4 <= p->len &&
			     !ip_fast_csum(iph, iph->ihl);
		} else {
			const struct ipv6hdr *ip6 = (const struct ipv6hdr *)p->data;

			ok = p->len >= 40 && ip6->version == 6 &&
			     ntohs(ip6->payload_len) + 40 == p->len &&
			     p->len <= 1500;
		}
		if (!ok && f->bad_out++ < 5)
			KUNIT_FAIL(test, "packet %lu: malformed IPv%d output of %u bytes",
				   f->packets, p->family == NFPROTO_IPV4 ? 4 : 6, p->len);
	}
	tern_kt_capture_reset();
}

static void fuzz_one(struct kunit *test, struct tern_kt_fuzz *f, bool v6)
{
	unsigned int len, lin, l3;
	struct sk_buff *skb;
	u64 before, after;

	memset(f->buf, 0, 64);
	len = v6 ? tern_kt_gen6(f, f->buf, FUZZ_BUF, 0) : tern_kt_gen4(f, f->buf, FUZZ_BUF, 0);
	l3 = v6 ? 40 : ((struct iphdr *)f->buf)->ihl * 4;
	lin = tern_kt_chance(f, 60) ? len : l3 + tern_kt_rnd(f, len - l3 + 1);
	skb = tern_kt_skb(f->buf, len, v6, lin);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	if (tern_kt_chance(f, 5))
		skb->pkt_type = PACKET_OTHERHOST;
	before = tern_kt_stats_total(&f->ki, NULL);
	tern_kt_run(&f->ki, skb);
	after = tern_kt_stats_total(&f->ki, NULL);
	f->packets++;
	if (after - before != 1 && f->bad_count++ < 5)
		KUNIT_FAIL(test, "packet %lu (IPv%d, %u bytes): %llu counters moved",
			   f->packets, v6 ? 6 : 4, len, after - before);
	fuzz_check_out(test, f);
}

static void fuzz_run(struct kunit *test, bool v6, u64 seed)
{
	struct tern_kt_fuzz *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	u64 xlat, err;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->buf = kunit_kzalloc(test, FUZZ_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->buf);
	KUNIT_ASSERT_EQ(test, tern_kt_inst_init(&f->ki), 0);
	prandom_seed_state(&f->rs, seed);
	kunit_info(test, "seed %#llx, %d IPv%d packets", seed, FUZZ_PACKETS,
		   v6 ? 6 : 4);
	for (i = 0; i < FUZZ_PACKETS; i++) {
		/* Configuration changes now and then. */
		if (i % 500 == 250) {
			f->ki.cfg->amend_udp_csum0 ^= 1;
			f->ki.cfg->icmp_on_drop = tern_kt_chance(f, 50);
			f->ki.cfg->lowest_ipv6_mtu = 1280 + 8 * tern_kt_rnd(f, 40);
			f->ki.cfg->rfc6791v4_set = tern_kt_chance(f, 50);
			f->ki.cfg->rfc6791v4.addr = TERN_KT_R4(0);
			f->ki.cfg->rfc6791v4.len = 24 + tern_kt_rnd(f, 9);
			f->ki.cfg->rfc6791v6_set = tern_kt_chance(f, 50);
			tern_kt_map6(TERN_KT_R4(0), &f->ki.cfg->rfc6791v6.addr);
			f->ki.cfg->rfc6791v6.len = 96 + tern_kt_rnd(f, 33);
			f->ki.cfg->zeroize_tc = tern_kt_chance(f, 50);
			f->ki.cfg->override_tos = tern_kt_chance(f, 50);
		}
		fuzz_one(test, f, v6);
	}
	/* The whole breakdown goes to the kernel log (KUnit's is short). */
	tern_stats_sum(f->ki.inst.stats, f->per_stat);
	for (i = 0; i <= TERN_STAT_MAX; i++)
		if (f->per_stat[i])
			pr_info("tern_fuzz: IPv%d seed %#llx: counter %d: %llu\n",
				v6 ? 6 : 4, seed, i, f->per_stat[i]);
	/* The random packets reach the translation paths too. */
	xlat = f->per_stat[v6 ? TERN_STAT_XLAT_64 : TERN_STAT_XLAT_46];
	err = f->per_stat[v6 ? TERN_STAT_XLAT_ICMP_ERR_64 : TERN_STAT_XLAT_ICMP_ERR_46];
	kunit_info(test, "translated %llu, ICMP errors translated %llu", xlat, err);
	KUNIT_EXPECT_GT(test, xlat, 0ULL);
	KUNIT_EXPECT_GT(test, err, 0ULL);
	KUNIT_EXPECT_EQ(test, tern_kt_stats_total(&f->ki, NULL), (u64)FUZZ_PACKETS);
	KUNIT_EXPECT_EQ(test, f->bad_count, 0UL);
	KUNIT_EXPECT_EQ(test, f->bad_out, 0UL);
	tern_kt_inst_fini(&f->ki);
}

static void fuzz_6to4(struct kunit *test)
{
	fuzz_run(test, true, FUZZ_SEED);
}

static void fuzz_4to6(struct kunit *test)
{
	fuzz_run(test, false, FUZZ_SEED + 1);
}

static struct kunit_case tern_fuzz_cases[] = {
	KUNIT_CASE(fuzz_6to4),
	KUNIT_CASE(fuzz_4to6),
	{}
};

static struct kunit_suite tern_fuzz_suite = {
	.name = "tern_fuzz",
	.suite_init = tern_kt_net_suite_init,
	.suite_exit = tern_kt_net_suite_exit,
	.test_cases = tern_fuzz_cases,
};

kunit_test_suite(tern_fuzz_suite);
