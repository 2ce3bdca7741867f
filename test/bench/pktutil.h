/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark's generators (gen6.c, gen4.c) and responder (resp.c)
 * share: errors, the clock, MAC addresses, the Internet checksum,
 * Ethernet/IPv4/UDP frames and sending frames in paced batches.
 */
#ifndef TERN_BENCH_PKTUTIL_H
#define TERN_BENCH_PKTUTIL_H

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <signal.h>
#include <sys/socket.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Seconds on the monotonic clock. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "aa:bb:cc:dd:ee:ff" from string @s (or stream @fp) into @m: 1 if read. */
static inline int parse_mac(const char *s, uint8_t *m)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &m[0], &m[1], &m[2],
		      &m[3], &m[4], &m[5]) == 6;
}

static inline int read_mac(FILE *fp, uint8_t *m)
{
	return fscanf(fp, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &m[0], &m[1], &m[2],
		      &m[3], &m[4], &m[5]) == 6;
}

/* The 16-bit one's complement sum of @len bytes at @p, added to @s. */
static inline uint32_t sum16(const void *p, size_t len, uint32_t s)
{
	const uint8_t *b = p;

	for (; len > 1; len -= 2, b += 2)
		s += (uint32_t)b[0] << 8 | b[1];
	if (len)
		s += (uint32_t)b[0] << 8;
	return s;
}

/* The checksum of sum @s, in host order (0 stays 0; UDP maps it). */
static inline uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

/*
 * An Ethernet/IPv4/UDP frame of 14 + 20 + 8 + @payload bytes at @f
 * (payload 'y'), addresses and ports in network order, checksums computed.
 */
static inline void udp4_frame(uint8_t *f, const uint8_t *dmac,
			      const uint8_t *smac, uint32_t saddr,
			      uint32_t daddr, uint16_t sport, uint16_t dport,
			      uint16_t payload)
{
	struct iphdr *ip = (struct iphdr *)(f + 14);
	struct udphdr *uh = (struct udphdr *)(f + 34);
	uint16_t ulen = 8 + payload, c;
	uint32_t s;

	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(20 + ulen);
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = saddr;
	ip->daddr = daddr;
	ip->check = htons(fold(sum16(ip, 20, 0)));
	uh->source = sport;
	uh->dest = dport;
	uh->len = htons(ulen);
	uh->check = 0;
	memset(f + 42, 'y', payload);
	/* Pseudo-header: addresses, protocol, UDP length (RFC 768). */
	s = sum16(&ip->saddr, 8, IPPROTO_UDP + ulen);
	c = fold(sum16(uh, ulen, s));
	uh->check = htons(c ? c : 0xffff);
}

/*
 * A raw socket sending frames of @ethertype out of @ifname, straight to
 * the driver (no qdisc); its MAC in @smac. Open loop with @nowait: never
 * wait for the socket's send buffer (a frame holds its share of it until
 * freed, so a slow translator made sendmmsg() sleep and the generator
 * send at the translator's pace): a large buffer, and a frame that finds
 * it full anyway is refused (lost).
 */
static inline int open_sender(const char *ifname, unsigned short ethertype,
			      int nowait, uint8_t *smac)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int fd, one = 1, big = 64 << 20;
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	fp = fopen(path, "r");
	if (!fp || !read_mac(fp, smac))
		die(path);
	fclose(fp);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket");
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex)
		die(ifname);
	sll.sll_protocol = htons(ethertype);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die("bind");
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	if (nowait)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big));
	return fd;
}

#define SEND_BATCH	256

/*
 * How send_frames() sends (set by the caller) and what it did (set by
 * send_frames()).
 */
struct sender {
	int fd;
	unsigned long count;	/* frames to send */
	unsigned long rate;	/* at most this many frames a second; 0: unpaced */
	double secs;		/* stop after this many seconds; 0: never */
	int open_loop;		/* a refused frame is lost (counted), not resent */
	int nowait;		/* never wait for the send buffer (MSG_DONTWAIT) */
	unsigned long sent;	/* frames the kernel took (open loop: and refused) */
	unsigned long refused;	/* frames refused (open loop) */
	double t0;		/* now() when sending started */
};

/* Set by SIGTERM or SIGINT: send_frames() stops (and the caller reports). */
static volatile sig_atomic_t sender_stop;

static void sender_on_signal(int sig)
{
	(void)sig;
	sender_stop = 1;
}

/*
 * Sends s->count frames on s->fd in batches of sendmmsg(): @build writes
 * frame K (K = 0 .. count - 1) at the frame it is given, @frames holding
 * SEND_BATCH frames of @len bytes. Stops early after s->secs seconds, or
 * on SIGTERM or SIGINT (a window that must end while the generator still
 * sends: the caller then prints what was sent as usual).
 */
static inline void send_frames(struct sender *s, uint8_t *frames, size_t len,
			       void (*build)(uint8_t *f, unsigned long k,
					     void *arg),
			       void *arg)
{
	struct mmsghdr msg[SEND_BATCH];
	struct iovec iov[SEND_BATCH];
	struct sigaction sa;
	unsigned long i;
	int stop = 0;

	memset(msg, 0, sizeof(msg));
	for (i = 0; i < SEND_BATCH; i++) {
		iov[i].iov_base = frames + i * len;
		iov[i].iov_len = len;
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sender_on_signal;	/* no SA_RESTART: EINTR */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	s->sent = 0;
	s->refused = 0;
	s->t0 = now();
	while (s->sent < s->count && !stop && !sender_stop) {
		unsigned long n = s->count - s->sent < SEND_BATCH ?
				  s->count - s->sent : SEND_BATCH;
		unsigned long done = 0;

		/*
		 * Each batch is built once; the calls that follow a partial
		 * send go on from its first frame not taken. (Building the
		 * whole batch again after each refused frame made gen6 spend
		 * its time on checksums exactly when the translator fell
		 * behind.)
		 */
		for (i = 0; i < n; i++)
			build(frames + i * len, s->sent + i, arg);
		while (done < n && !stop && !sender_stop) {
			int r = sendmmsg(s->fd, msg + done, n - done,
					 s->nowait ? MSG_DONTWAIT : 0);

			if (r < 0 && errno == EINTR)
				continue;	/* a signal: nothing refused */
			if (r < 0) {
				if (errno != ENOBUFS && errno != EAGAIN)
					die("sendmmsg");
				r = 0;
			}
			/* Frame r, if any, was refused: lost in open loop. */
			if (s->open_loop && done + r < n) {
				r++;
				s->refused++;
			}
			done += r;
			s->sent += r;
			if (s->secs > 0 && now() - s->t0 >= s->secs)
				stop = 1;
			/* Pacing: sleep while ahead of RATE frames a second. */
			if (s->rate && !stop) {
				double ahead = (double)s->sent / s->rate -
					       (now() - s->t0);

				if (ahead > 0)
					usleep(ahead * 1e6);
			}
		}
	}
}

#endif
