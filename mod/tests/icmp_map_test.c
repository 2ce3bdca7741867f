// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the ICMP tables of RFC 7915, row by row and both ways (4.2, 5.2),
 * and the Parameter Problem pointer tables (Figures 3 and 6).
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ipv6.h>
#include "xlat/icmp.h"

/* One row of a table: -1 in type means "silently dropped". */
struct tern_map_row {
	int type;
	int code;
};

#define DROP { -1, -1 }

/* RFC 7915 4.2, ICMPv4 Destination Unreachable (type 3), code by code. */
static const struct tern_map_row du4[16] = {
	[0] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* net unreach. */
	[1] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* host unreach. */
	[2] = { ICMPV6_PARAMPROB, ICMPV6_UNK_NEXTHDR },	/* protocol */
	[3] = { ICMPV6_DEST_UNREACH, ICMPV6_PORT_UNREACH },
	[4] = { ICMPV6_PKT_TOOBIG, 0 },			/* frag. needed */
	[5] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* SR failed */
	[6] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* net unknown */
	[7] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* host unknown */
	[8] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* host isolated */
	[9] = { ICMPV6_DEST_UNREACH, ICMPV6_ADM_PROHIBITED },
	[10] = { ICMPV6_DEST_UNREACH, ICMPV6_ADM_PROHIBITED },
	[11] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* net for TOS */
	[12] = { ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE },	/* host for TOS */
	[13] = { ICMPV6_DEST_UNREACH, ICMPV6_ADM_PROHIBITED },
	[14] = DROP,					/* precedence viol. */
	[15] = { ICMPV6_DEST_UNREACH, ICMPV6_ADM_PROHIBITED },
};

/* RFC 7915 5.2, ICMPv6 Destination Unreachable (type 1). */
static const struct tern_map_row du6[5] = {
	[0] = { ICMP_DEST_UNREACH, ICMP_HOST_UNREACH },	/* no route */
	[1] = { ICMP_DEST_UNREACH, ICMP_HOST_ANO },	/* adm. prohibited */
	[2] = { ICMP_DEST_UNREACH, ICMP_HOST_UNREACH },	/* beyond scope */
	[3] = { ICMP_DEST_UNREACH, ICMP_HOST_UNREACH },	/* address unreach. */
	[4] = { ICMP_DEST_UNREACH, ICMP_PORT_UNREACH },
};

/* The expected translation of ICMPv4 error (@type, @code), with pointer. */
static struct tern_map_row expect4(int type, int code, int *ptr)
{
	struct tern_map_row drop = DROP;

	*ptr = -1;
	switch (type) {
	case ICMP_DEST_UNREACH:
		if (code >= ARRAY_SIZE(du4))
			return drop;
		if (code == ICMP_PROT_UNREACH)
			*ptr = 6;	/* IPv6 Next Header */
		return du4[code];
	case ICMP_TIME_EXCEEDED:	/* code unchanged */
		return (struct tern_map_row){ ICMPV6_TIME_EXCEED, code };
	case ICMP_PARAMETERPROB:
		if (code == 0 || code == 2)
			return (struct tern_map_row){ ICMPV6_PARAMPROB,
						      ICMPV6_HDR_FIELD };
		return drop;		/* 1: missing a required option */
	}
	/* Source Quench, Redirect, Alternate Host Address, unknown... */
	return drop;
}

static struct tern_map_row expect6(int type, int code)
{
	struct tern_map_row drop = DROP;

	switch (type) {
	case ICMPV6_DEST_UNREACH:
		return code < ARRAY_SIZE(du6) ? du6[code] : drop;
	case ICMPV6_PKT_TOOBIG:
		return (struct tern_map_row){ ICMP_DEST_UNREACH,
					      ICMP_FRAG_NEEDED };
	case ICMPV6_TIME_EXCEED:
		return (struct tern_map_row){ ICMP_TIME_EXCEEDED, code };
	case ICMPV6_PARAMPROB:
		if (code == ICMPV6_HDR_FIELD)
			return (struct tern_map_row){ ICMP_PARAMETERPROB, 0 };
		if (code == ICMPV6_UNK_NEXTHDR)
			return (struct tern_map_row){ ICMP_DEST_UNREACH,
						      ICMP_PROT_UNREACH };
		return drop;	/* 2: unrecognized option, and unknown */
	}
	return drop;
}

/* Reports the first few mismatches only: the loops below have 65536 rows. */
#define ROW_FAIL(test, bad, fmt, ...)				\
	do {							\
		if ((bad)++ < 16)				\
			KUNIT_FAIL(test, fmt, ##__VA_ARGS__);	\
	} while (0)

/* Every (type, code) pair of ICMPv4. */
static void map_4to6_every_row(struct kunit *test)
{
	int type, code, bad = 0, rows = 0;

	for (type = 0; type < 256; type++) {
		for (code = 0; code < 256; code++) {
			struct tern_map_row want;
			u8 t6 = 0xaa, c6 = 0xaa;
			int ptr = 1234, wptr, ret;

			want = expect4(type, code, &wptr);
			ret = tern_icmp4_err_map(type, code, &t6, &c6, &ptr);
			rows++;
			if (want.type < 0) {
				if (ret != -1)
					ROW_FAIL(test, bad, "ICMPv4 %d/%d: %d, expected a drop",
						 type, code, ret);
				continue;
			}
			if (ret != 0 || t6 != want.type || c6 != want.code ||
			    ptr != wptr)
				ROW_FAIL(test, bad,
					 "ICMPv4 %d/%d: ret %d ICMPv6 %u/%u ptr %d, expected %d/%d ptr %d",
					 type, code, ret, t6, c6, ptr, want.type,
					 want.code, wptr);
		}
	}
	KUNIT_EXPECT_EQ(test, rows, 65536);
	KUNIT_EXPECT_EQ(test, bad, 0);
}

static void map_6to4_every_row(struct kunit *test)
{
	int type, code, bad = 0, rows = 0;

	for (type = 0; type < 256; type++) {
		for (code = 0; code < 256; code++) {
			struct tern_map_row want = expect6(type, code);
			u8 t4 = 0xaa, c4 = 0xaa;
			int ret = tern_icmp6_err_map(type, code, &t4, &c4);

			rows++;
			if (want.type < 0) {
				if (ret != -1)
					ROW_FAIL(test, bad, "ICMPv6 %d/%d: %d, expected a drop",
						 type, code, ret);
				continue;
			}
			if (ret != 0 || t4 != want.type || c4 != want.code)
				ROW_FAIL(test, bad,
					 "ICMPv6 %d/%d: ret %d ICMPv4 %u/%u, expected %d/%d",
					 type, code, ret, t4, c4, want.type, want.code);
		}
	}
	KUNIT_EXPECT_EQ(test, rows, 65536);
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/* The rows spelled out once more, with the kernel's names, as RFC 7915 does. */
static void map_named_rows(struct kunit *test)
{
	u8 t, c;
	int ptr;

	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED,
						 &t, &c, &ptr), 0);
	KUNIT_EXPECT_EQ(test, t, ICMPV6_PKT_TOOBIG);
	KUNIT_EXPECT_EQ(test, c, 0);
	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(ICMP_DEST_UNREACH, ICMP_PROT_UNREACH,
						 &t, &c, &ptr), 0);
	KUNIT_EXPECT_EQ(test, t, ICMPV6_PARAMPROB);
	KUNIT_EXPECT_EQ(test, c, ICMPV6_UNK_NEXTHDR);
	KUNIT_EXPECT_EQ(test, ptr, (int)offsetof(struct ipv6hdr, nexthdr));
	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(ICMP_DEST_UNREACH, ICMP_PREC_VIOLATION,
						 &t, &c, &ptr), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(ICMP_SOURCE_QUENCH, 0, &t, &c, &ptr), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(ICMP_REDIRECT, 0, &t, &c, &ptr), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(6, 0, &t, &c, &ptr), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(ICMP_PARAMETERPROB, 1, &t, &c, &ptr), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp4_err_map(ICMP_TIME_EXCEEDED, ICMP_EXC_FRAGTIME,
						 &t, &c, &ptr), 0);
	KUNIT_EXPECT_EQ(test, t, ICMPV6_TIME_EXCEED);
	KUNIT_EXPECT_EQ(test, c, ICMPV6_EXC_FRAGTIME);

	KUNIT_EXPECT_EQ(test, tern_icmp6_err_map(ICMPV6_PARAMPROB, ICMPV6_UNK_OPTION,
						 &t, &c), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp6_err_map(ICMPV6_PKT_TOOBIG, 7, &t, &c), 0);
	KUNIT_EXPECT_EQ(test, t, ICMP_DEST_UNREACH);
	KUNIT_EXPECT_EQ(test, c, ICMP_FRAG_NEEDED);
	KUNIT_EXPECT_EQ(test, tern_icmp6_err_map(ICMPV6_DEST_UNREACH, 5, &t, &c), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp6_err_map(ICMPV6_DEST_UNREACH, 6, &t, &c), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp6_err_map(ICMPV6_ECHO_REQUEST, 0, &t, &c), -1);
}

/* Informational messages: echo translated, every other type not. */
static void map_informational(struct kunit *test)
{
	int t;

	for (t = 0; t < 256; t++) {
		u8 out = 0xaa;
		enum tern_icmp_kind k4 = tern_icmp4_classify(t, &out);
		enum tern_icmp_kind k6;

		if (t == ICMP_ECHO || t == ICMP_ECHOREPLY) {
			KUNIT_EXPECT_EQ(test, k4, TERN_ICMP_ECHO);
			KUNIT_EXPECT_EQ(test, out, t == ICMP_ECHO ? ICMPV6_ECHO_REQUEST :
					ICMPV6_ECHO_REPLY);
		} else {
			KUNIT_EXPECT_NE_MSG(test, k4, TERN_ICMP_ECHO, "ICMPv4 type %d", t);
		}
		out = 0xaa;
		k6 = tern_icmp6_classify(t, &out);
		if (t == ICMPV6_ECHO_REQUEST || t == ICMPV6_ECHO_REPLY) {
			KUNIT_EXPECT_EQ(test, k6, TERN_ICMP_ECHO);
			KUNIT_EXPECT_EQ(test, out, t == ICMPV6_ECHO_REQUEST ? ICMP_ECHO :
					ICMP_ECHOREPLY);
		} else {
			KUNIT_EXPECT_NE_MSG(test, k6, TERN_ICMP_ECHO, "ICMPv6 type %d", t);
		}
	}
	/* MLD (130-132), ND (133-137): informational, never translated. */
	for (t = 130; t <= 137; t++) {
		u8 out;

		KUNIT_EXPECT_EQ(test, tern_icmp6_classify(t, &out), TERN_ICMP_INFO);
	}
}

/* RFC 7915 Figure 3: IPv4 header byte -> IPv6 header byte, 0..39 and more. */
static void ptr_4to6_figure3(struct kunit *test)
{
	static const int fig3[20] = {
		0, 1, 4, 4, -1, -1, -1, -1, 7, 6, -1, -1,
		8, 8, 8, 8, 24, 24, 24, 24,
	};
	u32 p;

	for (p = 0; p < 20; p++)
		KUNIT_EXPECT_EQ_MSG(test, tern_icmp_ptr_4to6(p), fig3[p],
				    "IPv4 pointer %u", p);
	/* Options and beyond: not in the table. */
	for (p = 20; p < 300; p++)
		KUNIT_EXPECT_EQ_MSG(test, tern_icmp_ptr_4to6(p), -1,
				    "IPv4 pointer %u", p);
	KUNIT_EXPECT_EQ(test, tern_icmp_ptr_4to6(0x10000), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp_ptr_4to6(0x100000c), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp_ptr_4to6(U32_MAX), -1);
}

/* RFC 7915 Figure 6: IPv6 header byte -> IPv4 header byte. */
static void ptr_6to4_figure6(struct kunit *test)
{
	u32 p;

	for (p = 0; p < 40; p++) {
		int want;

		if (p == 0)
			want = 0;
		else if (p == 1)
			want = 1;
		else if (p == 2 || p == 3)	/* Flow Label */
			want = -1;
		else if (p == 4 || p == 5)
			want = 2;
		else if (p == 6)
			want = 9;
		else if (p == 7)
			want = 8;
		else if (p < 24)
			want = 12;
		else
			want = 16;
		KUNIT_EXPECT_EQ_MSG(test, tern_icmp_ptr_6to4(p), want,
				    "IPv6 pointer %u", p);
	}
	/* Extension headers and beyond. */
	for (p = 40; p < 1500; p++)
		KUNIT_EXPECT_EQ_MSG(test, tern_icmp_ptr_6to4(p), -1,
				    "IPv6 pointer %u", p);
	KUNIT_EXPECT_EQ(test, tern_icmp_ptr_6to4(0x10008), -1);
	KUNIT_EXPECT_EQ(test, tern_icmp_ptr_6to4(U32_MAX), -1);
}

static struct kunit_case tern_icmp_map_cases[] = {
	KUNIT_CASE(map_4to6_every_row),
	KUNIT_CASE(map_6to4_every_row),
	KUNIT_CASE(map_named_rows),
	KUNIT_CASE(map_informational),
	KUNIT_CASE(ptr_4to6_figure3),
	KUNIT_CASE(ptr_6to4_figure6),
	{}
};

static struct kunit_suite tern_icmp_map_suite = {
	.name = "tern_icmp_map",
	.test_cases = tern_icmp_map_cases,
};

kunit_test_suite(tern_icmp_map_suite);
