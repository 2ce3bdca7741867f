// SPDX-License-Identifier: GPL-2.0
/*
 * gen4: sends COUNT Ethernet/IPv4/UDP frames on an interface through an
 * AF_PACKET socket, all from one IPv4 address to one transport address,
 * over PORTS source ports (the IPv4 side of one NAT64 BIB entry, one
 * session a port):
 *
 *	source       SRC, port 1 + (K * STRIDE) mod PORTS for frame K
 *	             (K = 0 .. COUNT - 1: every run of PORTS frames visits
 *	             each port once, in a scrambled order)
 *	destination  DST:DPORT
 *
 * Batches of sendmmsg(), bypassing the qdisc; with -r, at most that many
 * frames a second; with -t SECS, it stops after SECS seconds. A refused
 * frame is sent again (closed loop: fills) unless -o (open loop: counted
 * lost); with -o -x it never waits for its 64 MB send buffer, as gen6.
 * Prints how many frames the kernel took, then "refused R in T s".
 *
 * Usage: gen4 -i IFACE -m DSTMAC -n COUNT -P PORTS -s SRC -d DST -p DPORT
 *	       [-r PPS] [-t SECS] [-o [-x]]
 */
#define _GNU_SOURCE
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "pktutil.h"

#define PAYLOAD		16
#define FRAME_LEN	(14 + 20 + 8 + PAYLOAD)
#define STRIDE		1000003ULL	/* a prime above 65535 */

/* What frame K is built from. */
struct gen4 {
	uint8_t dmac[6], smac[6];
	struct in_addr src, dst;
	unsigned long ports;	/* source ports 1 .. PORTS */
	uint16_t dport;		/* network order */
};

/* Frame K: from port 1 + (K * STRIDE) mod PORTS (see above). */
static void build(uint8_t *f, unsigned long k, void *arg)
{
	const struct gen4 *g = arg;
	unsigned long m = k % g->ports;
	uint16_t port = 1 + m * STRIDE % g->ports;

	udp4_frame(f, g->dmac, g->smac, g->src.s_addr, g->dst.s_addr,
		   htons(port), g->dport, PAYLOAD);
}

static void usage(void)
{
	fprintf(stderr, "usage: gen4 -i IFACE -m DSTMAC -n COUNT -P PORTS "
		"-s SRC -d DST -p DPORT [-r PPS] [-t SECS] [-o [-x]]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static uint8_t frames[SEND_BATCH][FRAME_LEN];
	const char *ifname = NULL, *mac = NULL, *s4 = NULL, *d4 = NULL;
	struct sender s = { 0 };
	struct gen4 g = { 0 };
	unsigned long dport = 0;
	int c;

	while ((c = getopt(argc, argv, "i:m:n:P:s:d:p:r:t:ox")) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': mac = optarg; break;
		case 'n': s.count = strtoul(optarg, NULL, 0); break;
		case 'P': g.ports = strtoul(optarg, NULL, 0); break;
		case 's': s4 = optarg; break;
		case 'd': d4 = optarg; break;
		case 'p': dport = strtoul(optarg, NULL, 0); break;
		case 'r': s.rate = strtoul(optarg, NULL, 0); break;
		case 't': s.secs = strtod(optarg, NULL); break;
		case 'o': s.open_loop = 1; break;
		case 'x': s.nowait = 1; break;
		default: usage();
		}
	}
	if (!ifname || !mac || !s.count || !g.ports || g.ports > 65535 ||
	    !s4 || !d4 || !dport || dport > 65535 ||
	    !parse_mac(mac, g.dmac) ||
	    inet_pton(AF_INET, s4, &g.src) != 1 ||
	    inet_pton(AF_INET, d4, &g.dst) != 1)
		usage();
	g.dport = htons(dport);

	s.fd = open_sender(ifname, ETH_P_IP, s.nowait, g.smac);
	send_frames(&s, &frames[0][0], FRAME_LEN, build, &g);
	/* The last two fields: the time, "s". */
	printf("%lu sent over ports 1-%lu refused %lu in %.4f s\n", s.sent,
	       g.ports, s.refused, now() - s.t0);
	return 0;
}
