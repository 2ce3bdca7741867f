// SPDX-License-Identifier: GPL-2.0
/* KUnit: offload metadata against the packet (tern_gso_classify()). */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "xlat/gso.h"

#define V4 .l3len = 20, .v6 = false
#define V6 .l3len = 40, .v6 = true
#define TCP4 .proto = IPPROTO_TCP, .thlen = 20, .gso_type = SKB_GSO_TCPV4
#define TCP6 .proto = IPPROTO_TCP, .thlen = 20, .gso_type = SKB_GSO_TCPV6
#define PARTIAL(s, o) .partial = true, .csum_start = (s), .csum_offset = (o)

struct gso_case {
	const char *what;
	struct tern_gso_meta m;
	enum tern_gso_action want;
};

static const struct gso_case gso_cases[] = {
	{ "plain packet", { V4, .proto = IPPROTO_UDP, .len = 100 },
	  TERN_GSO_AS_IS },
	{ "UDP partial at its checksum", { V4, .proto = IPPROTO_UDP,
	  .len = 100, PARTIAL(20, 6) }, TERN_GSO_AS_IS },
	{ "UDP partial at the TCP offset", { V4, .proto = IPPROTO_UDP,
	  .len = 100, PARTIAL(20, 16) }, TERN_GSO_BAD },
	{ "ICMPv6 partial at its checksum", { V6, .proto = IPPROTO_ICMPV6,
	  .len = 100, PARTIAL(40, 2) }, TERN_GSO_AS_IS },
	{ "partial start in the IPv6 header", { V6, .proto = IPPROTO_UDP,
	  .len = 100, PARTIAL(24, 6) }, TERN_GSO_BAD },
	{ "partial start before the packet", { V4, .proto = IPPROTO_TCP,
	  .len = 100, PARTIAL(-10, 16) }, TERN_GSO_BAD },
	{ "partial field past the end", { V4, .proto = 253, .len = 100,
	  PARTIAL(90, 9) }, TERN_GSO_BAD },
	{ "other protocol, partial in its payload", { V4, .proto = 253,
	  .len = 100, PARTIAL(30, 8) }, TERN_GSO_AS_IS },
	{ "TCP partial start in the payload", { V4, .proto = IPPROTO_TCP,
	  .len = 100, PARTIAL(44, 16) }, TERN_GSO_BAD },
	{ "tunnel: inner checksum", { V4, .proto = IPPROTO_UDP, .encap = true,
	  .len = 200, PARTIAL(70, 16) }, TERN_GSO_CSUM_HELP },
	{ "non-first fragment, partial after the header", { V4,
	  .proto = IPPROTO_TCP, .fragment = true, .nonfirst = true,
	  .len = 100, PARTIAL(20, 2) }, TERN_GSO_AS_IS },
	{ "TCPv4 GSO of the kernel's, not partial (LRO)", { V4, TCP4,
	  .gso_size = 1000, .len = 3040 }, TERN_GSO_AS_IS },
	{ "TCPv4 GSO of a writer (dodgy), not partial", { V4,
	  .proto = IPPROTO_TCP, .thlen = 20,
	  .gso_type = SKB_GSO_TCPV4 | SKB_GSO_DODGY, .gso_size = 1000,
	  .len = 3040 }, TERN_GSO_BAD },
	{ "TCPv6 GSO of a writer (dodgy, ECN), not partial", { V6,
	  .proto = IPPROTO_TCP, .thlen = 20,
	  .gso_type = SKB_GSO_TCPV6 | SKB_GSO_DODGY | SKB_GSO_TCP_ECN,
	  .gso_size = 1000, .len = 3060 }, TERN_GSO_BAD },
	{ "TCPv4 GSO, partial", { V4, TCP4, .gso_size = 1000, .len = 3040,
	  PARTIAL(20, 16) }, TERN_GSO_AS_IS },
	{ "TCPv4 GSO, dodgy, ECN, fixed ID", { V4, .proto = IPPROTO_TCP,
	  .thlen = 32, .gso_type = SKB_GSO_TCPV4 | SKB_GSO_DODGY |
	  SKB_GSO_TCP_ECN | SKB_GSO_TCP_FIXEDID, .gso_size = 1000,
	  .len = 3052, PARTIAL(20, 16) }, TERN_GSO_AS_IS },
	{ "TCPv6 GSO, fixed ID", { V6, .proto = IPPROTO_TCP, .thlen = 20,
	  .gso_type = SKB_GSO_TCPV6 | SKB_GSO_TCP_FIXEDID, .gso_size = 1000,
	  .len = 3060, PARTIAL(40, 16) }, TERN_GSO_SEGMENT },
	{ "TCPv4 GSO on ICMP", { V4, .proto = IPPROTO_ICMP,
	  .gso_type = SKB_GSO_TCPV4, .gso_size = 100, .len = 1000 },
	  TERN_GSO_BAD },
	{ "TCPv6 GSO on IPv4 ICMP (an error is rebuilt whole)", { V4,
	  .proto = IPPROTO_ICMP, .gso_type = SKB_GSO_TCPV6, .gso_size = 100,
	  .len = 1000, PARTIAL(20, 16) }, TERN_GSO_BAD },
	{ "tunnel GSO on ICMPv6", { V6, .proto = IPPROTO_ICMPV6,
	  .gso_type = SKB_GSO_GRE, .gso_size = 100, .len = 1000 },
	  TERN_GSO_BAD },
	{ "TCPv6 GSO on UDP", { V6, .proto = IPPROTO_UDP,
	  .gso_type = SKB_GSO_TCPV6 | SKB_GSO_DODGY, .gso_size = 100,
	  .len = 1000, PARTIAL(40, 16) }, TERN_GSO_BAD },
	{ "TCPv6 GSO on IPv4: segmentation judges", { V4, TCP6,
	  .gso_size = 100, .len = 1000, PARTIAL(20, 16) }, TERN_GSO_SEGMENT },
	{ "TCP GSO, data offset 4", { V4, .proto = IPPROTO_TCP, .thlen = 16,
	  .gso_type = SKB_GSO_TCPV4, .gso_size = 100, .len = 1000 },
	  TERN_GSO_BAD },
	{ "TCP GSO, header past the end", { V4, .proto = IPPROTO_TCP,
	  .thlen = 60, .gso_type = SKB_GSO_TCPV4, .gso_size = 8, .len = 60 },
	  TERN_GSO_BAD },
	{ "TCP GSO, partial off the header", { V6, TCP6, .gso_size = 100,
	  .len = 1000, PARTIAL(44, 16) }, TERN_GSO_BAD },
	{ "TCP GSO, partial at the UDP offset", { V6, TCP6, .gso_size = 100,
	  .len = 1000, PARTIAL(40, 6) }, TERN_GSO_BAD },
	{ "TCP GSO by frags", { V4, TCP4, .gso_size = GSO_BY_FRAGS,
	  .len = 1000 }, TERN_GSO_BAD },
	{ "TCP GSO on a fragment", { V4, TCP4, .fragment = true,
	  .gso_size = 100, .len = 1000 }, TERN_GSO_BAD },
	{ "UDP L4 GSO", { V6, .proto = IPPROTO_UDP,
	  .gso_type = SKB_GSO_UDP_L4, .gso_size = 100, .len = 1000,
	  PARTIAL(40, 6) }, TERN_GSO_AS_IS },
	{ "UDP L4 GSO on TCP", { V6, .proto = IPPROTO_TCP, .thlen = 20,
	  .gso_type = SKB_GSO_UDP_L4, .gso_size = 100, .len = 1000,
	  PARTIAL(40, 6) }, TERN_GSO_BAD },
	{ "UDP L4 GSO, no partial", { V4, .proto = IPPROTO_UDP,
	  .gso_type = SKB_GSO_UDP_L4, .gso_size = 100, .len = 1000 },
	  TERN_GSO_BAD },
	{ "UDP L4 GSO, one segment", { V4, .proto = IPPROTO_UDP,
	  .gso_type = SKB_GSO_UDP_L4, .gso_size = 100, .len = 128,
	  PARTIAL(20, 6) }, TERN_GSO_BAD },
	{ "UDP fragmentation offload", { V4, .proto = IPPROTO_UDP,
	  .gso_type = SKB_GSO_UDP | SKB_GSO_DODGY, .gso_size = 1000,
	  .len = 3028 }, TERN_GSO_WHOLE },
	{ "UDP fragmentation offload, partial", { V6, .proto = IPPROTO_UDP,
	  .gso_type = SKB_GSO_UDP, .gso_size = 1000, .len = 3048,
	  PARTIAL(40, 6) }, TERN_GSO_WHOLE },
	{ "UDP fragmentation offload, one segment", { V4,
	  .proto = IPPROTO_UDP, .gso_type = SKB_GSO_UDP, .gso_size = 1000,
	  .len = 500 }, TERN_GSO_WHOLE },
	{ "UDP fragmentation offload, partial at the TCP offset", { V6,
	  .proto = IPPROTO_UDP, .gso_type = SKB_GSO_UDP, .gso_size = 1000,
	  .len = 3048, PARTIAL(40, 16) }, TERN_GSO_BAD },
	{ "UDP fragmentation offload, partial in the payload", { V4,
	  .proto = IPPROTO_UDP, .gso_type = SKB_GSO_UDP, .gso_size = 1000,
	  .len = 3028, PARTIAL(28, 6) }, TERN_GSO_BAD },
	{ "UDP fragmentation offload on TCP", { V4, .proto = IPPROTO_TCP,
	  .thlen = 20, .gso_type = SKB_GSO_UDP, .gso_size = 1000,
	  .len = 3040 },
	  TERN_GSO_BAD },
	{ "UDP fragmentation offload on a fragment", { V6,
	  .proto = IPPROTO_UDP, .fragment = true, .gso_type = SKB_GSO_UDP,
	  .gso_size = 1000, .len = 3048 }, TERN_GSO_BAD },
	{ "UDP fragmentation offload by frags", { V4, .proto = IPPROTO_UDP,
	  .gso_type = SKB_GSO_UDP, .gso_size = GSO_BY_FRAGS, .len = 3028 },
	  TERN_GSO_BAD },
	{ "UDP tunnel", { V6, .proto = IPPROTO_UDP, .encap = true,
	  .gso_type = SKB_GSO_UDP_TUNNEL | SKB_GSO_TCPV4, .gso_size = 1000,
	  .len = 5000, PARTIAL(90, 16) }, TERN_GSO_SEGMENT },
	{ "GSO partial", { V4, .proto = IPPROTO_TCP, .thlen = 20,
	  .gso_type = SKB_GSO_TCPV4 | SKB_GSO_PARTIAL, .gso_size = 1000,
	  .len = 5000, PARTIAL(20, 16) }, TERN_GSO_SEGMENT },
	{ "IPv4 BIG TCP: IPv6 payload too long", { V4, TCP4, .gso_size = 1000,
	  .len = 20 + IPV6_MAXPLEN + 1, PARTIAL(20, 16) }, TERN_GSO_SEGMENT },
	{ "IPv4 super-packet of 65535 bytes", { V4, TCP4, .gso_size = 1000,
	  .len = 65535, PARTIAL(20, 16) }, TERN_GSO_AS_IS },
	{ "IPv6 BIG TCP: IPv4 total length too long", { V6, TCP6,
	  .gso_size = 1000, .len = 40 + IP_MAX_MTU - 20 + 1,
	  PARTIAL(40, 16) }, TERN_GSO_SEGMENT },
	{ "IPv6 super-packet of 65535 bytes in IPv4", { V6, TCP6,
	  .gso_size = 1000, .len = 40 + IP_MAX_MTU - 20, PARTIAL(40, 16) },
	  TERN_GSO_AS_IS },
	{ "headers longer than the packet", { V6, .proto = IPPROTO_UDP,
	  .len = 30, PARTIAL(40, 6) }, TERN_GSO_BAD },
};

static void gso_classify(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(gso_cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, tern_gso_classify(&gso_cases[i].m),
				    gso_cases[i].want, "%s", gso_cases[i].what);
}

static struct kunit_case tern_gso_cases[] = {
	KUNIT_CASE(gso_classify),
	{}
};

static struct kunit_suite tern_gso_suite = {
	.name = "tern_gso",
	.test_cases = tern_gso_cases,
};

kunit_test_suite(tern_gso_suite);
