// SPDX-License-Identifier: GPL-2.0
/*
 * Port selection of new BIB entries over a pool4 snapshot (RFC 6056,
 * paired address pooling; see nat64/pool4.h): a function of the pool,
 * the instance's key, the IPv6 transport address and the address its
 * subscriber's entries have, if they have one.
 */

#include <linux/bits.h>
#include <linux/siphash.h>
#include "nat64/pool4.h"
#include "nat64/pool4_int.h"
#include "siit/prefix.h"
#include "tern_share.h"

/*
 * Port selection (see nat64/pool4.h): RFC 6056 Algorithm 3 without its
 * table of counters, the function being pure.
 */
/* The entries of @l4 and @mark: by_pick[*lo .. *hi). */
void tern_pick_run(const struct tern_pool4 *p, u8 l4, u32 mark, u32 *lo,
		   u32 *hi)
{
	u32 a = 0, b = p->n, c;

	/* The first entry at or after (l4, mark). */
	while (a < b) {
		const struct tern_pool4_entry *e;

		c = a + (b - a) / 2;
		e = &p->e[p->by_pick[c]];
		if (e->l4 < l4 || (e->l4 == l4 && e->mark < mark))
			a = c + 1;
		else
			b = c;
	}
	*lo = a;
	for (b = p->n; a < b;) {
		const struct tern_pool4_entry *e;

		c = a + (b - a) / 2;
		e = &p->e[p->by_pick[c]];
		if (e->l4 == l4 && e->mark == mark)
			a = c + 1;
		else
			b = c;
	}
	*hi = a;
}

/*
 * The entries of @pk's protocol and mark, by_pick[*lo .. *hi), and this
 * box's share of their addresses, slots [*first, *first + *size)
 * (include/tern_share.h); false when the share is empty.
 */
static bool tern_pick_share(const struct tern_pick *pk, u32 *lo, u32 *hi,
			    u32 *first, u32 *size)
{
	const struct tern_pool4 *p = pk->pool;
	u32 total;

	if (!p)
		return false;
	tern_pick_run(p, pk->l4, pk->mark, lo, hi);
	if (*lo == *hi)
		return false;
	total = p->cum[*hi] - p->cum[*lo];
	*first = tern_share_first(total, pk->boxes, pk->box);
	*size = tern_share_size(total, pk->boxes, pk->box);
	return *size;
}

/*
 * Whether @pk's pool4 has addresses for its protocol and mark (this
 * box's share of them): a refusal is then of a full pool, else of none.
 */
bool tern_pick_serves(const struct tern_pick *pk)
{
	u32 lo, hi, first, size;

	return tern_pick_share(pk, &lo, &hi, &first, &size);
}

/* The position in by_pick[lo..hi) of the entry holding address @slot. */
u32 tern_pick_entry(const struct tern_pool4 *p, u32 lo, u32 hi, u32 slot)
{
	u32 v = p->cum[lo] + slot;

	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (p->cum[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Candidate @attempt from offset @h among @n: sequential from @h. */
u32 tern_pick_nth(u64 h, unsigned int attempt, u32 n)
{
	return (do_div(h, n) + (u64)attempt) % n;
}

/*
 * Candidate @attempt from offset @h among the ports of [@min, @max] of
 * the class of @p6 if the range has some, and of these the ones of its
 * parity if there are some.
 */
u16 tern_pick_port(u16 min, u16 max, u16 p6, u64 h, unsigned int attempt)
{
	u32 lo = min, hi = max, first, n;

	if (p6 < 1024 && lo < 1024)
		hi = min_t(u32, hi, 1023);
	else if (p6 >= 1024 && hi >= 1024)
		lo = max_t(u32, lo, 1024);
	first = lo + ((p6 ^ lo) & 1);
	if (first > hi)
		return lo + tern_pick_nth(h, attempt, hi - lo + 1);
	n = (hi - first) / 2 + 1;
	return first + 2 * tern_pick_nth(h, attempt, n);
}

u32 tern_pick_port_count(u16 min, u16 max, u16 p6)
{
	u32 lo = min, hi = max, first;

	if (p6 < 1024 && lo < 1024)
		hi = min_t(u32, hi, 1023);
	else if (p6 >= 1024 && hi >= 1024)
		lo = max_t(u32, lo, 1024);
	first = lo + ((p6 ^ lo) & 1);
	return first > hi ? hi - lo + 1 : (hi - first) / 2 + 1;
}

u64 tern_pick_hash(const siphash_key_t *key, const struct tern_ta6 *t6,
		   __be32 a4, u8 l4)
{
	struct {
		struct in6_addr a6;
		__be32 a4;
		__be16 port6;
		u8 l4;
		u8 zero;
	} __aligned(SIPHASH_ALIGNMENT) in;

	memset(&in, 0, sizeof(in));
	in.a6 = t6->addr;
	in.a4 = a4;
	in.port6 = t6->port;
	in.l4 = l4;
	return siphash(&in, sizeof(in), key);
}

/* Do the ports of @e include some of the class (0-1023, 1024-) of @p6? */
static bool tern_pick_class_in(const struct tern_pool4_entry *e, u16 p6)
{
	return p6 < 1024 ? e->pmin < 1024 : e->pmax >= 1024;
}

/*
 * The entries of one length that hold @a start at one address: for each
 * length of the pool, longest first, a binary search for it in the run
 * (by_pick[] is by address, then length, within a run), then the entries
 * starting there.
 */
bool tern_pick_slot_of(const struct tern_pool4 *p, u32 lo, u32 hi,
		       __be32 a, u16 p6, u32 *slot)
{
	u32 x = ntohl(a), start, b, c, m, any = U32_MAX;
	const struct tern_pool4_entry *e;
	int len;

	for (len = 32; len >= 0; len--) {
		if (!(p->lens & BIT_ULL(len)))
			continue;
		start = x & ~tern_hostmask4(len);
		for (b = lo, c = hi; b < c;) {
			m = b + (c - b) / 2;
			if (ntohl(p->e[p->by_pick[m]].prefix.addr) < start)
				b = m + 1;
			else
				c = m;
		}
		for (; b < hi; b++) {
			e = &p->e[p->by_pick[b]];
			if (ntohl(e->prefix.addr) != start)
				break;
			if (e->prefix.len != len)
				continue;
			m = p->cum[b] - p->cum[lo] + (x - start);
			if (tern_pick_class_in(e, p6)) {
				*slot = m;
				return true;
			}
			if (any == U32_MAX)
				any = m;
		}
	}
	*slot = any;
	return any != U32_MAX;
}

/*
 * The first slot, of the share [@first, @first + @size): the one of the
 * subscriber's address if it has one there, else the hash's.
 */
static u32 tern_pick_base(struct tern_pick *pk, const struct tern_ta6 *t6,
			  u32 lo, u32 hi, u32 first, u32 size)
{
	u32 slot;
	u64 h;

	if (pk->hint && tern_pick_slot_of(pk->pool, lo, hi, pk->hint,
					  ntohs(t6->port), &slot) &&
	    slot - first < size)
		return slot - first;
	h = siphash_4u32(t6->addr.s6_addr32[0], t6->addr.s6_addr32[1],
			 t6->addr.s6_addr32[2], t6->addr.s6_addr32[3], pk->key);
	return do_div(h, size);
}

bool tern_pick4(void *arg, const struct tern_ta6 *t6, unsigned int attempt,
		struct tern_ta4 *t4)
{
	struct tern_pick *pk = arg;
	const struct tern_pool4 *p = pk->pool;
	const struct tern_pool4_entry *e;
	u32 lo, hi, first, size, slot, i, a;
	u64 h;

	if (attempt >= TERN_PICK_PROBES ||
	    !tern_pick_share(pk, &lo, &hi, &first, &size))
		return false;
	/*
	 * With the tables (a packet's picker: one IPv6 transport address),
	 * once a BIB entry: the lock of the subscriber's record, the slot.
	 */
	if (pk->tables && !attempt) {
		pk->hint = tern_sub_addr4(pk->tables, pk->l4, &t6->addr,
					  pk->sub_plen);
		pk->base = tern_pick_base(pk, t6, lo, hi, first, size);
	}
	slot = pk->tables ? pk->base :
			    tern_pick_base(pk, t6, lo, hi, first, size);
	slot = first + (slot + attempt / TERN_PICK_ADDR_PROBES) % size;
	i = tern_pick_entry(p, lo, hi, slot);
	e = &p->e[p->by_pick[i]];
	a = ntohl(e->prefix.addr) + (p->cum[lo] + slot - p->cum[i]);

	h = tern_pick_hash(pk->key, t6, htonl(a), pk->l4);
	t4->addr = htonl(a);
	if (pk->l4 == TERN_L4_ICMP) {
		t4->port = htons(e->pmin + tern_pick_nth(h, attempt,
							 e->pmax - e->pmin + 1));
	} else {
		/*
		 * Of an address's candidates, the second half has the other
		 * parity: parity is kept where it can be (RFC 4787 REQ-4, a
		 * RECOMMENDED), the address first (a SHOULD), and most TCP
		 * ports of Linux hosts are even.
		 */
		u16 p6 = ntohs(t6->port) ^ (attempt % TERN_PICK_ADDR_PROBES >=
					    TERN_PICK_ADDR_PROBES / 2);

		t4->port = htons(tern_pick_port(e->pmin, e->pmax, p6, h,
						attempt));
	}
	return true;
}
