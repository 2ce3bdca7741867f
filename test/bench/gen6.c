// SPDX-License-Identifier: GPL-2.0
/*
 * gen6: sends COUNT Ethernet/IPv6/UDP frames on an interface through an
 * AF_PACKET socket, each from its own IPv6 source address so that each is
 * a new NAT64 flow (its own BIB entry and session):
 *
 *	source       SRC96::I (I = FIRST .. FIRST + COUNT - 1 in the low
 *	             32 bits), port 4000
 *	destination  DST:5000
 *
 * with a computed UDP checksum. Frames go out in batches of sendmmsg()
 * (each batch built once, a partial send going on from its first frame
 * not taken), bypassing the qdisc; with -r, at most that many frames per second.
 * Prints how many frames the kernel took.
 *
 * With -F FLOWS, frame K (K = 0 .. COUNT - 1) belongs to flow
 * FIRST + (K * STRIDE) mod FLOWS, STRIDE a prime that does not divide
 * FLOWS: every run of FLOWS frames visits each flow once, in a scrambled
 * order (so that traffic over established sessions does not walk the
 * tables in address order). With -t SECS, sending stops after SECS
 * seconds even when COUNT frames were not sent yet.
 *
 * A frame the kernel refuses (veth's peer backlog full: ENOBUFS) is sent
 * again, so that by default every frame goes out and the sending rate
 * follows what the receiver takes (closed loop: fills). With -o (open
 * loop, for rates) a refused frame is counted as lost and not resent;
 * with -o -x gen6 also never waits for its socket's send buffer (64 MB,
 * MSG_DONTWAIT): its rate does not follow the translator's.
 *
 * Usage: gen6 -i IFACE -m DSTMAC -n COUNT [-f FIRST] [-r PPS]
 *	       [-F FLOWS] [-t SECS] [-o [-x]] [-s SRC96] [-d DST]
 * Defaults: FIRST 1, SRC96 2001:db8:6::, DST 2001:db8:64::cb00:7163
 * (203.0.113.99 in pool6 2001:db8:64::/96).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "pktutil.h"

#define PAYLOAD		16
#define FRAME_LEN	(14 + 40 + 8 + PAYLOAD)
#define STRIDE		1000003ULL	/* a prime */

/* The UDP checksum over the IPv6 pseudo-header (RFC 8200 8.1). */
static uint16_t udp6_csum(const struct ip6_hdr *ip6, const struct udphdr *uh,
			  size_t ulen)
{
	uint32_t s = sum16(&ip6->ip6_src, 32, 0);
	uint16_t c;

	s += ulen + IPPROTO_UDP;
	c = fold(sum16(uh, ulen, s));
	return htons(c ? c : 0xffff);
}

static void fill(uint8_t *f, const uint8_t *dmac, const uint8_t *smac,
		 const struct in6_addr *src, const struct in6_addr *dst,
		 uint32_t idx)
{
	struct ip6_hdr *ip6 = (struct ip6_hdr *)(f + 14);
	struct udphdr *uh = (struct udphdr *)(f + 54);
	uint32_t low = htonl(idx);

	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	ip6->ip6_flow = htonl(6U << 28);
	ip6->ip6_plen = htons(8 + PAYLOAD);
	ip6->ip6_nxt = IPPROTO_UDP;
	ip6->ip6_hlim = 64;
	ip6->ip6_src = *src;
	memcpy(&ip6->ip6_src.s6_addr[12], &low, 4);
	ip6->ip6_dst = *dst;
	uh->source = htons(4000);
	uh->dest = htons(5000);
	uh->len = htons(8 + PAYLOAD);
	uh->check = 0;
	memset(f + 62, 'x', PAYLOAD);
	uh->check = udp6_csum(ip6, uh, 8 + PAYLOAD);
}

/* The flow of frame K: K itself, or K scrambled over FLOWS (see above). */
static unsigned long flow_of(unsigned long k, unsigned long flows)
{
	if (!flows)
		return k;
	return (unsigned long)((unsigned long long)(k % flows) * STRIDE %
			       flows);
}

/* What frame K is built from. */
struct gen6 {
	uint8_t dmac[6], smac[6];
	struct in6_addr src, dst;
	unsigned long first, flows;
};

/* Frame K: from SRC96::FIRST + its flow (see above). */
static void build(uint8_t *f, unsigned long k, void *arg)
{
	const struct gen6 *g = arg;

	fill(f, g->dmac, g->smac, &g->src, &g->dst,
	     g->first + flow_of(k, g->flows));
}

static void usage(void)
{
	fprintf(stderr, "usage: gen6 -i IFACE -m DSTMAC -n COUNT [-f FIRST] "
		"[-r PPS] [-F FLOWS] [-t SECS] [-o [-x]] [-s SRC96] [-d DST]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static uint8_t frames[SEND_BATCH][FRAME_LEN];
	const char *ifname = NULL, *mac = NULL;
	const char *s96 = "2001:db8:6::", *d6 = "2001:db8:64::cb00:7163";
	struct sender s = { 0 };
	struct gen6 g = { .first = 1 };
	int c;

	while ((c = getopt(argc, argv, "i:m:n:f:r:F:t:oxs:d:")) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': mac = optarg; break;
		case 'n': s.count = strtoul(optarg, NULL, 0); break;
		case 'f': g.first = strtoul(optarg, NULL, 0); break;
		case 'r': s.rate = strtoul(optarg, NULL, 0); break;
		case 'F': g.flows = strtoul(optarg, NULL, 0); break;
		case 't': s.secs = strtod(optarg, NULL); break;
		case 'o': s.open_loop = 1; break;
		case 'x': s.nowait = 1; break;
		case 's': s96 = optarg; break;
		case 'd': d6 = optarg; break;
		default: usage();
		}
	}
	if (!ifname || !mac || !s.count ||
	    !parse_mac(mac, g.dmac) ||
	    inet_pton(AF_INET6, s96, &g.src) != 1 ||
	    inet_pton(AF_INET6, d6, &g.dst) != 1 ||
	    (g.flows && g.flows % STRIDE == 0))
		usage();

	s.fd = open_sender(ifname, ETH_P_IPV6, s.nowait, g.smac);
	send_frames(&s, &frames[0][0], FRAME_LEN, build, &g);
	/* The last two fields: the time, "s"; "refused R" before them. */
	if (g.flows)
		printf("%lu sent over flows %lu-%lu refused %lu in %.4f s\n",
		       s.sent, g.first, g.first + g.flows - 1, s.refused,
		       now() - s.t0);
	else
		printf("%lu sent (%lu-%lu) refused %lu in %.4f s\n", s.sent,
		       g.first, g.first + s.sent - 1, s.refused, now() - s.t0);
	return 0;
}
