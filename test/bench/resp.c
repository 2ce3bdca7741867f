// SPDX-License-Identifier: GPL-2.0
/*
 * resp: the Responder of the stateful NAT64 benchmark (test/bench/
 * stateful-vm.sh), on the IPv4 side of the translator.
 *
 * Preliminary phase: reads every IPv4/UDP frame arriving on IFACE through
 * an AF_PACKET socket of all protocols (so it sees the frames even when tc
 * ingress drops them afterwards) and learns their four-tuples (source
 * address and port: the translator's pool4 transport address; destination
 * address and port: the IPv4 server), each once.
 *
 * It prints "ready PID" when it listens. Real phase, on SIGUSR1 (to PID):
 * stops learning (after reading what is queued), then sends one
 * Ethernet/IPv4/UDP frame per learned four-tuple, addressed back (source
 * and destination swapped) to DSTMAC, the translator's IPv4 side, with
 * computed IPv4 and UDP checksums; with -r, at most PPS frames a second.
 * Replies go to learned four-tuples only. Prints "learned L replied R".
 *
 * Usage: resp -i IFACE -m DSTMAC [-n MAX] [-r PPS]
 * MAX (default 2097152): at most that many four-tuples are learned.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "pktutil.h"

#define BATCH		256
#define PAYLOAD		16
#define RESP_FRAME_LEN	(14 + 20 + 8 + PAYLOAD)
#define RCVBUF		(256 << 20)

struct tuple {
	uint32_t src, dst;	/* network order, as received */
	uint16_t sport, dport;
};

static volatile sig_atomic_t stop_learning;

static void on_usr1(int sig)
{
	(void)sig;
	stop_learning = 1;
}

static struct tuple *set;	/* open addressing; src == 0: free slot */
static struct tuple *learned;	/* in order of arrival */
static unsigned long nlearned, cap, mask;

static uint32_t hash(const struct tuple *t)
{
	uint64_t h = (uint64_t)t->src * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)t->dst << 32 | (uint32_t)t->sport << 16 | t->dport) *
	     0xc2b2ae3d27d4eb4fULL;
	return (uint32_t)(h >> 32 ^ h);
}

static void learn(const struct tuple *t)
{
	unsigned long i = hash(t) & mask;

	while (set[i].src) {
		if (!memcmp(&set[i], t, sizeof(*t)))
			return;
		i = (i + 1) & mask;
	}
	if (nlearned >= cap)
		return;
	set[i] = *t;
	learned[nlearned++] = *t;
}

/* One received frame: learned when it is IPv4/UDP without options. */
static void frame_in(const uint8_t *f, ssize_t len)
{
	const struct iphdr *ip = (const struct iphdr *)(f + 14);
	const struct udphdr *uh = (const struct udphdr *)(f + 34);
	struct tuple t;

	if (len < 42 || f[12] != 0x08 || f[13] != 0x00 || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || !ip->saddr)
		return;
	memset(&t, 0, sizeof(t));
	t.src = ip->saddr;
	t.dst = ip->daddr;
	t.sport = uh->source;
	t.dport = uh->dest;
	learn(&t);
}

/* Reads what is queued; returns when nothing is (or on a signal). */
static void drain(int fd)
{
	static uint8_t buf[BATCH][128];
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	int i, n;

	memset(msg, 0, sizeof(msg));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = sizeof(buf[i]);
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	for (;;) {
		n = recvmmsg(fd, msg, BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0)
			return;
		for (i = 0; i < n; i++)
			frame_in(buf[i], msg[i].msg_len);
	}
}

/* Reply K: back from the server to the pool4 address of learned[K]. */
static void build(uint8_t *f, unsigned long k, void *arg)
{
	const uint8_t *const *macs = arg;
	const struct tuple *t = &learned[k];

	udp4_frame(f, macs[0], macs[1], t->dst, t->src, t->dport, t->sport,
		   PAYLOAD);
}

static unsigned long reply(int fd, const uint8_t *dmac, const uint8_t *smac,
			   unsigned long rate)
{
	static uint8_t frames[SEND_BATCH][RESP_FRAME_LEN];
	const uint8_t *macs[2] = { dmac, smac };
	struct sender s = { .fd = fd, .count = nlearned, .rate = rate };

	send_frames(&s, &frames[0][0], RESP_FRAME_LEN, build, macs);
	return s.sent;
}

int main(int argc, char **argv)
{
	const char *ifname = NULL, *mac = NULL;
	unsigned long max = 1UL << 21, rate = 0, sent;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	uint8_t dmac[6], smac[6];
	int fd, c, one = 1, rcvbuf = RCVBUF;
	struct pollfd pfd;
	char path[64], line[32];
	FILE *fp;

	while ((c = getopt(argc, argv, "i:m:n:r:")) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': mac = optarg; break;
		case 'n': max = strtoul(optarg, NULL, 0); break;
		case 'r': rate = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: resp -i IFACE -m DSTMAC "
				"[-n MAX] [-r PPS]\n");
			return 2;
		}
	}
	if (!ifname || !mac || !max || !parse_mac(mac, dmac)) {
		fprintf(stderr, "usage: resp -i IFACE -m DSTMAC [-n MAX] [-r PPS]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	fp = fopen(path, "r");
	if (!fp || !fgets(line, sizeof(line), fp) || !parse_mac(line, smac))
		die(path);
	fclose(fp);

	cap = max;
	for (mask = 1; mask < 2 * cap; mask <<= 1)
		;
	set = calloc(mask, sizeof(*set));
	learned = calloc(cap, sizeof(*learned));
	if (!set || !learned)
		die("calloc");
	mask--;

	signal(SIGUSR1, on_usr1);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* Not its own replies. */
	setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex)
		die(ifname);
	sll.sll_protocol = htons(ETH_P_ALL);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die("bind");
	/* Ready: the script waits for this line, then signals this pid. */
	printf("ready %d\n", (int)getpid());
	fflush(stdout);

	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!stop_learning) {
		if (poll(&pfd, 1, 100) > 0)
			drain(fd);
	}
	drain(fd);
	sent = reply(fd, dmac, smac, rate);
	printf("learned %lu replied %lu\n", nlearned, sent);
	return 0;
}
