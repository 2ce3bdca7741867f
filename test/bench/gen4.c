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
#include <errno.h>
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

#define BATCH		256
#define PAYLOAD		16
#define FRAME_LEN	(14 + 20 + 8 + PAYLOAD)
#define STRIDE		1000003ULL	/* a prime above 65535 */

static void usage(void)
{
	fprintf(stderr, "usage: gen4 -i IFACE -m DSTMAC -n COUNT -P PORTS "
		"-s SRC -d DST -p DPORT [-r PPS] [-t SECS] [-o [-x]]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static uint8_t frames[BATCH][FRAME_LEN];
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	const char *ifname = NULL, *mac = NULL, *s4 = NULL, *d4 = NULL;
	unsigned long count = 0, ports = 0, rate = 0, sent = 0, refused = 0;
	unsigned long dport = 0, i;
	int open_loop = 0, nowait = 0, stop = 0, fd, c;
	uint8_t dmac[6], smac[6];
	struct in_addr src, dst;
	double secs = 0, t0;

	while ((c = getopt(argc, argv, "i:m:n:P:s:d:p:r:t:ox")) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': mac = optarg; break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 'P': ports = strtoul(optarg, NULL, 0); break;
		case 's': s4 = optarg; break;
		case 'd': d4 = optarg; break;
		case 'p': dport = strtoul(optarg, NULL, 0); break;
		case 'r': rate = strtoul(optarg, NULL, 0); break;
		case 't': secs = strtod(optarg, NULL); break;
		case 'o': open_loop = 1; break;
		case 'x': nowait = 1; break;
		default: usage();
		}
	}
	if (!ifname || !mac || !count || !ports || ports > 65535 || !s4 ||
	    !d4 || !dport || dport > 65535 || !parse_mac(mac, dmac) ||
	    inet_pton(AF_INET, s4, &src) != 1 ||
	    inet_pton(AF_INET, d4, &dst) != 1)
		usage();

	fd = open_sender(ifname, ETH_P_IP, nowait, smac);

	memset(msg, 0, sizeof(msg));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = frames[i];
		iov[i].iov_len = FRAME_LEN;
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}

	t0 = now();
	while (sent < count && !stop) {
		unsigned long n = count - sent < BATCH ? count - sent : BATCH;
		unsigned long done = 0;

		/* Built once per batch, as in gen6.c. */
		for (i = 0; i < n; i++) {
			unsigned long k = (sent + i) % ports;
			uint16_t port = 1 + k * STRIDE % ports;

			udp4_frame(frames[i], dmac, smac, src.s_addr,
				   dst.s_addr, htons(port), htons(dport),
				   PAYLOAD);
		}
		while (done < n && !stop) {
			int r = sendmmsg(fd, msg + done, n - done,
					 nowait ? MSG_DONTWAIT : 0);

			if (r < 0) {
				if (errno != ENOBUFS && errno != EAGAIN)
					die("sendmmsg");
				r = 0;
			}
			if (open_loop && done + r < n) {
				r++;
				refused++;
			}
			done += r;
			sent += r;
			if (secs > 0 && now() - t0 >= secs)
				stop = 1;
			if (rate && !stop) {
				double ahead = (double)sent / rate - (now() - t0);

				if (ahead > 0)
					usleep(ahead * 1e6);
			}
		}
	}
	/* The last two fields: the time, "s". */
	printf("%lu sent over ports 1-%lu refused %lu in %.4f s\n", sent,
	       ports, refused, now() - t0);
	return 0;
}
