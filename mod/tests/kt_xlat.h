/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the suites that push whole packets through tern_xlat_6to4() /
 * tern_xlat_4to6() (the tern_xlat_* suites): a fake instance and a packet
 * buffer per test, packet builders, checks of what the capture saw.
 */
#ifndef _TERN_KT_XLAT_H
#define _TERN_KT_XLAT_H

#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include "kt_util.h"

#define TERN_KT_BUF	4096

/* test->priv of the tern_xlat_* suites (tern_kt_xlat_init()). */
struct tern_kt_xlat {
	struct tern_kt_inst ki;
	u8 *buf;			/* TERN_KT_BUF bytes */
	u64 before[TERN_STAT_MAX + 1];	/* the counters at tern_kt_snap() */
};

static inline struct tern_kt_xlat *tern_kt_xlat_of(struct kunit *test)
{
	return test->priv;
}

/* .init / .exit of the suites. */
int tern_kt_xlat_init(struct kunit *test);
void tern_kt_xlat_exit(struct kunit *test);

/* Takes the counters and empties the capture. */
void tern_kt_snap(struct kunit *test);
void tern_kt_expect_counter(struct kunit *test, int stat);
/* Runs the first @len bytes of the buffer (@linear of them linear). */
unsigned int tern_kt_run_buf(struct kunit *test, unsigned int len, bool v6,
			     unsigned int linear);
/* The same, all linear, after tern_kt_snap(): @verdict, @stat moved. */
void tern_kt_expect_run(struct kunit *test, unsigned int len, bool v6,
			unsigned int verdict, int stat);

void tern_kt_fill(u8 *p, unsigned int len, u8 seed);
/* Whole packets with an L4 segment of @l4len bytes; their length. */
unsigned int tern_kt_pkt6(u8 *p, __be32 s4, __be32 d4, u8 proto,
			  unsigned int l4len, u8 hlim);
unsigned int tern_kt_pkt4(u8 *p, __be32 s, __be32 d, u8 proto,
			  unsigned int l4len, u8 ttl, u16 id, u16 frag_off);

/* @n packets captured; the @i-th of them, of @family. */
struct tern_kt_pkt *tern_kt_expect_captured(struct kunit *test, unsigned int n,
					    unsigned int i, u8 family);
struct iphdr *tern_kt_check4(struct kunit *test, struct tern_kt_pkt *p);
struct ipv6hdr *tern_kt_check6(struct kunit *test, struct tern_kt_pkt *p);
/* @a is the IPv4 address @a4 under pool6. */
void tern_kt_expect_addr6(struct kunit *test, const struct in6_addr *a,
			  __be32 a4);

#endif /* _TERN_KT_XLAT_H */
