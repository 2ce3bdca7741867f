/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark's generator (gen6.c) and responder (resp.c) share:
 * errors, the clock, MAC addresses and the Internet checksum.
 */
#ifndef TERN_BENCH_PKTUTIL_H
#define TERN_BENCH_PKTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

#endif
