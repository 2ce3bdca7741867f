/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the KUnit suites that push packets through Tern: a
 * fake instance (no pernet state, no hooks), packet builders, and a
 * POST_ROUTING hook in init_net that captures what leaves through the test
 * interface that test/kunit-net.sh creates in the KUnit VM.
 */
#ifndef _TERN_KT_UTIL_H
#define _TERN_KT_UTIL_H

#include <kunit/test.h>
#include <linux/skbuff.h>
#include "core/instance.h"

/* The test network (test/kunit-net.sh routes all of it to TERN_KT_DEV). */
#define TERN_KT_DEV		"tern-kt0"
/* pool6 2001:db8:64::/96 */
#define TERN_KT_POOL6		{ { { 0x20, 0x01, 0x0d, 0xb8, 0, 0x64 } } }
/* The IPv6 side's hosts as seen from IPv4: 192.0.2.0/24 (TEST-NET-1). */
#define TERN_KT_H6(n)		htonl(0xc0000200 | (n))
/* IPv4 hosts: 203.0.113.0/24 (TEST-NET-3) and 198.51.100.0/24. */
#define TERN_KT_H4(n)		htonl(0xcb007100 | (n))
#define TERN_KT_R4(n)		htonl(0xc6336400 | (n))

struct tern_kt_inst {
	struct tern_instance inst;
	struct tern_config *cfg;
};

/* Captured packet: what the POST_ROUTING hook saw, bytes from L3. */
struct tern_kt_pkt {
	u8 family;		/* NFPROTO_IPV4 or NFPROTO_IPV6 */
	bool dst_lent;		/* its route unreferenced (skb_dst_is_noref) */
	unsigned int len;
	u8 data[];
};

#define TERN_KT_CAPTURE_MAX	64

/*
 * .suite_init / .suite_exit of the suites that send packets: the IPv4 ID
 * generator seeded (module suites run before module init), the capture.
 */
int tern_kt_net_suite_init(struct kunit_suite *suite);
void tern_kt_net_suite_exit(struct kunit_suite *suite);

int tern_kt_inst_init(struct tern_kt_inst *ki);
void tern_kt_inst_fini(struct tern_kt_inst *ki);
u64 tern_kt_stats_total(struct tern_kt_inst *ki, u64 *out);

/* Addresses in text form (the test stops if @s does not parse). */
struct in6_addr tern_kt_a6(struct kunit *test, const char *s);
__be32 tern_kt_a4(struct kunit *test, const char *s);

/* Address of the IPv6 side for IPv4 address @a4 (pool6 + a4). */
void tern_kt_map6(__be32 a4, struct in6_addr *a6);

struct sk_buff *tern_kt_skb(const void *data, unsigned int len, bool v6,
			    unsigned int linear);
unsigned int tern_kt_run(struct tern_kt_inst *ki, struct sk_buff *skb);

int tern_kt_capture_register(void);
void tern_kt_capture_unregister(void);
void tern_kt_capture_reset(void);
/* The @i-th captured packet since the last reset, or NULL. */
struct tern_kt_pkt *tern_kt_captured(unsigned int i);
unsigned int tern_kt_ncaptured(void);
/* Packets seen (stolen) on the test interface since the module loaded. */
unsigned long tern_kt_nseen(void);

/* Packet builders: IPv4/IPv6 headers, checksums. */
void tern_kt_ip4(u8 *p, unsigned int tot_len, u8 proto, __be32 s, __be32 d,
		 u8 ttl, u16 id, u16 frag_off);
void tern_kt_ip6(u8 *p, unsigned int payload_len, u8 nexthdr,
		 const struct in6_addr *s, const struct in6_addr *d, u8 hlim);
/* Sets the L4 checksum of @l4 (@len bytes) for an IPv4 or IPv6 header. */
void tern_kt_l4csum4(u8 *l4, unsigned int len, u8 proto, __be32 s, __be32 d);
void tern_kt_l4csum6(u8 *l4, unsigned int len, u8 proto,
		     const struct in6_addr *s, const struct in6_addr *d);
/* 0 if the L4 checksum of @l4 is right (recomputed from scratch). */
int tern_kt_l4check4(const u8 *l4, unsigned int len, u8 proto, __be32 s,
		     __be32 d);
int tern_kt_l4check6(const u8 *l4, unsigned int len, u8 proto,
		     const struct in6_addr *s, const struct in6_addr *d);

/* Offset of the first byte that differs, or -1. */
static inline int tern_kt_memdiff(const void *a, const void *b, unsigned int n)
{
	const u8 *x = a, *y = b;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return i;
	return -1;
}

/* KUnit of 6.1 has no KUNIT_EXPECT_MEMEQ: the first difference is shown. */
#define TERN_KT_EXPECT_BYTES(test, got, want, n, fmt, ...)			\
	do {									\
		const u8 *__g = (const u8 *)(got), *__w = (const u8 *)(want);	\
		int __o = tern_kt_memdiff(__g, __w, (n));			\
										\
		if (__o >= 0)							\
			KUNIT_FAIL(test, fmt ": byte %d is 0x%02x, expected 0x%02x", \
				   ##__VA_ARGS__, __o, __g[__o], __w[__o]);	\
	} while (0)

#endif /* _TERN_KT_UTIL_H */
