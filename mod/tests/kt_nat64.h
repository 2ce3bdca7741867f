/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the tern_nat64_table* suites: transport addresses, a picker
 * of IPv4 transport addresses, sessions added as the packet path adds
 * them, the table counts.
 */
#ifndef _TERN_KT_NAT64_H
#define _TERN_KT_NAT64_H

#include <kunit/test.h>
#include <linux/err.h>
#include "nat64/table.h"

#define KT_POOL4	htonl(0xc0000201)	/* 192.0.2.1 */
#define KT_REMOTE(n)	htonl(0xcb007100 | (n))	/* 203.0.113.n */

/* pick: KT_POOL4, ports base + attempt, at most @max attempts. */
struct kt_picker {
	u16 base;
	unsigned int max;
	unsigned int calls;
};

static inline bool kt_pick(void *arg, const struct tern_ta6 *t6,
		    unsigned int attempt, struct tern_ta4 *t4)
{
	struct kt_picker *p = arg;

	p->calls++;
	if (attempt >= p->max)
		return false;
	t4->addr = KT_POOL4;
	t4->port = htons(p->base + attempt);
	return true;
}

/* 2001:db8:0:<sub>::<host> port @port, 192.0.2.x port @port */
#define KT6(sub, host, pt)	(&(struct tern_ta6){			\
	.addr.s6_addr32 = { htonl(0x20010db8), htonl(sub), 0, htonl(host) }, \
	.port = htons(pt) })
#define KT4(a, pt)	(&(struct tern_ta4){ .addr = (a), .port = htons(pt) })

static inline struct tern_ta6 kt_t6(u16 sub, u16 host, u16 port)
{
	return *KT6(sub, host, port);
}

static inline struct tern_ta4 kt_t4(__be32 addr, u16 port)
{
	return *KT4(addr, port);
}

/* As the packet path calls it: BHs off, under RCU. */
static inline struct tern_session *kt_add6(struct tern_tables *t, u8 l4,
				    const struct tern_ta6 *src,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim,
				    struct kt_picker *p)
{
	struct tern_session *s;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(t, l4, src, remote, lim, kt_pick, p, 0, 60 * HZ,
			   &made);
	rcu_read_unlock();
	local_bh_enable();
	return s;
}

static inline struct tern_session *kt_add4(struct tern_tables *t, u8 l4,
				    const struct tern_ta4 *local,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim)
{
	struct tern_session *s = ERR_PTR(-ENOENT);
	struct tern_bib *b;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	b = tern_bib_find4(t, l4, local);
	if (b)
		s = tern_sess_add4(t, b, remote, lim, 0, 60 * HZ, &made);
	rcu_read_unlock();
	local_bh_enable();
	return s;
}

/* Is the UDP session of (@t6, @r) there? */
static inline bool kt_has6(struct tern_tables *t, const struct tern_ta6 *t6,
			   const struct tern_ta4 *r)
{
	bool found;

	rcu_read_lock();
	found = tern_sess_find6(t, TERN_L4_UDP, t6, r);
	rcu_read_unlock();
	return found;
}

static inline void kt_count(struct tern_tables *t, u64 *bib, u64 *sess)
{
	struct tern_tables_count c;

	tern_tables_count(t, &c);
	*bib = c.bib;
	*sess = c.sessions;
}

#define KT_EXPECT_COUNT(test, t, nb, ns) do {				\
	u64 __b, __s;							\
	kt_count(t, &__b, &__s);					\
	KUNIT_EXPECT_EQ(test, __b, (u64)(nb));				\
	KUNIT_EXPECT_EQ(test, __s, (u64)(ns));				\
} while (0)

static inline struct tern_tables *kt_tables(struct kunit *test, u32 max)
{
	struct tern_tables *t = tern_tables_alloc(max);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/*
 * Until the whole session-by-6 array was scanned: 1025 runs, each of 2 ms
 * or more (these tests' tables have 2^16 buckets at most).
 */
static inline void kt_gc_all(struct tern_tables *t)
{
	int i;

	for (i = 0; i < 1024 + 1; i++)
		tern_tables_gc(t, NULL);
}

/* The suites run when the module loads, maybe before its init. */
static inline int kt_table_suite_init(struct kunit_suite *suite)
{
	return tern_tables_init();
}

#endif /* _TERN_KT_NAT64_H */
