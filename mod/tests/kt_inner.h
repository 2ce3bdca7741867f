/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the tern_inner_* suites: quoted packets built whole, their
 * expected translations, the calls of inner.c on a fake instance.
 */
#ifndef _TERN_KT_INNER_H
#define _TERN_KT_INNER_H

#include <kunit/test.h>
#include "kt_util.h"

#define TERN_KT_BIG	1600
#define TERN_KT_POISON	0xa5

/* test->priv of the tern_inner_* suites (tern_kt_inner_init()). */
struct tern_kt_inner {
	struct tern_kt_inst ki;
};

int tern_kt_inner_init(struct kunit *test);
void tern_kt_inner_exit(struct kunit *test);
struct tern_config *tern_kt_cfg_of(struct kunit *test);
/* A zeroed buffer of TERN_KT_BIG bytes for the test (asserted). */
u8 *tern_kt_big(struct kunit *test);

/* A quoted packet, built whole: transport segment with a right checksum. */
struct tern_kt_quote {
	u8 proto;		/* IPPROTO_{TCP,UDP,ICMP} as in IPv4 */
	unsigned int l4len;	/* transport header + data */
	u8 l4[64];		/* as sent over IPv4 (checksum for IPv4) */
};

/* The quoted packet's addresses (IPv4 side; pool6 on the IPv6 side). */
static inline __be32 tern_kt_in_s4(void)
{
	return TERN_KT_H6(1);
}

static inline __be32 tern_kt_in_d4(void)
{
	return TERN_KT_H4(9);
}

void tern_kt_quote_fill(struct tern_kt_quote *q, u8 proto, u8 icmp_type,
			bool udp0);
/* Packets quoting @q, and their expected translations; their lengths. */
unsigned int tern_kt_build4(u8 *p, const struct tern_kt_quote *q, u16 frag_off,
			    unsigned int opt, bool udp0);
unsigned int tern_kt_expect6(u8 *e, const struct tern_kt_quote *q, bool udp0);
unsigned int tern_kt_build6(u8 *p, const struct tern_kt_quote *q, u8 nh0,
			    const u8 *ext, unsigned int extlen, bool udp0);
unsigned int tern_kt_expect4(u8 *e, const struct tern_kt_quote *q, bool udp0);
void tern_kt_expect4_next_id(u8 *e);
void tern_kt_dest_chain(u8 *ext, unsigned int n, u8 last);

/* tern_inner_4to6() / tern_inner_6to4() on the test's instance. */
int tern_kt_call4to6(struct kunit *test, const u8 *in, unsigned int in_len,
		     u8 *out, unsigned int out_size, u32 *tot_len);
int tern_kt_call6to4(struct kunit *test, const u8 *in, unsigned int in_len,
		     u8 *out, unsigned int out_size);

/* The kinds of quoted packets every direction is tried with. */
struct tern_kt_inner_case {
	const char *name;
	u8 proto;
	u8 icmp_type;
	bool udp0;
};

#define TERN_KT_INNER_CASES	5
extern const struct tern_kt_inner_case tern_kt_inner_cases[TERN_KT_INNER_CASES];

#endif /* _TERN_KT_INNER_H */
