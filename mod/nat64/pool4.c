// SPDX-License-Identifier: GPL-2.0
/*
 * pool4: the IPv4 transport addresses of a NAT64 instance (RFC 6146
 * 3.5.1.1). Same scheme as the EAMT: immutable snapshots published with
 * RCU, O(n) per change, no lock on the packet path.
 *
 * Entries are sorted by address (then length, protocol, mark, first
 * port). Prefixes are aligned blocks, so the entries covering an address
 * have one of the lengths in use (a bitmap): a lookup is one binary search
 * per length in use, O(log n) each. A second order, by (protocol, mark,
 * address), with the running count of addresses, lets tern_pick4() map a
 * hash to an address of the entries of one protocol and mark in O(log n).
 */

#include <linux/bits.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/ip.h>
#include "nat64/pool4.h"
#include "nat64/pool4_int.h"
#include "siit/prefix.h"

static struct tern_pool4 *tern_pool4_alloc(u32 n)
{
	struct tern_pool4 *p;
	size_t size;

	size = size_add(struct_size(p, e, n),
			array_size(2 * n + 1, sizeof(u32)));
	p = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!p)
		return NULL;
	p->n = n;
	p->lens = 0;
	p->lo = U32_MAX;
	p->hi = 0;
	p->dense = false;
	p->by_pick = (u32 *)&p->e[n];
	p->cum = p->by_pick + n;
	return p;
}

void tern_pool4_free(struct tern_pool4 *p)
{
	kvfree(p);
}

void tern_pool4_free_rcu(struct tern_pool4 *p)
{
	if (p)
		kvfree_rcu(p, rcu);
}

u32 tern_pool4_count(const struct tern_pool4 *p)
{
	return p ? p->n : 0;
}

const struct tern_pool4_entry *tern_pool4_entry(const struct tern_pool4 *p,
						 u32 i)
{
	return p && i < p->n ? &p->e[i] : NULL;
}

static u32 tern_pool4_size(const struct tern_pool4_entry *e)
{
	return tern_hostmask4(e->prefix.len) + 1;
}

/* Order of e[]: address, length, protocol, mark, first port. */
static int tern_addr_cmp(const struct tern_pool4_entry *a,
			 const struct tern_pool4_entry *b)
{
	u32 x = ntohl(a->prefix.addr), y = ntohl(b->prefix.addr);

	if (x != y)
		return x < y ? -1 : 1;
	if (a->prefix.len != b->prefix.len)
		return a->prefix.len < b->prefix.len ? -1 : 1;
	if (a->l4 != b->l4)
		return a->l4 < b->l4 ? -1 : 1;
	if (a->mark != b->mark)
		return a->mark < b->mark ? -1 : 1;
	if (a->pmin != b->pmin)
		return a->pmin < b->pmin ? -1 : 1;
	return 0;
}

/* Order of by_pick[]: protocol, mark, then as e[]. */
static int tern_pick_cmp(const struct tern_pool4_entry *a,
			 const struct tern_pool4_entry *b)
{
	if (a->l4 != b->l4)
		return a->l4 < b->l4 ? -1 : 1;
	if (a->mark != b->mark)
		return a->mark < b->mark ? -1 : 1;
	return tern_addr_cmp(a, b);
}

/*
 * The length bitmap, the address range and whether the entries cover it
 * whole (e[] is in address order), the running address counts (from
 * by_pick[]).
 */
static void tern_pool4_index(struct tern_pool4 *p)
{
	u64 covered = 0;	/* [lo, covered) is in entries so far */
	u32 i;

	p->lens = 0;
	p->lo = U32_MAX;
	p->hi = 0;
	p->dense = true;
	p->cum[0] = 0;
	for (i = 0; i < p->n; i++) {
		u32 a = ntohl(p->e[i].prefix.addr);
		u32 end = a | tern_hostmask4(p->e[i].prefix.len);

		if (i && a > covered)
			p->dense = false;
		covered = max_t(u64, covered, (u64)end + 1);
		p->lens |= BIT_ULL(p->e[i].prefix.len);
		p->lo = min(p->lo, a);
		p->hi = max(p->hi, end);
		p->cum[i + 1] = p->cum[i] + tern_pool4_size(&p->e[p->by_pick[i]]);
	}
}

/*
 * Distinct addresses of the pool: prefixes are nested or disjoint, and in
 * e[] a prefix comes right after the ones containing it.
 */
static u32 tern_pool4_addrs(const struct tern_pool4 *p)
{
	u64 end = 0, total = 0;
	u32 i;

	for (i = 0; i < p->n; i++) {
		u64 start = ntohl(p->e[i].prefix.addr);

		if (i && start < end)
			continue;
		end = start + tern_pool4_size(&p->e[i]);
		total += tern_pool4_size(&p->e[i]);
	}
	return min_t(u64, total, U32_MAX);
}

/* First entry of e[] at or after (@a, @len) in address order. */
static u32 tern_pool4_lower(const struct tern_pool4 *p, u32 a, u8 len)
{
	u32 lo = 0, hi = p->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 m = ntohl(p->e[mid].prefix.addr);

		if (m < a || (m == a && p->e[mid].prefix.len < len))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The entry covering @a for @l4 and @port; with @any, the first entry
 * covering @a at all.
 */
static bool tern_pool4_lookup(const struct tern_pool4 *p, __be32 a, bool any,
			      u8 l4, u16 port)
{
	u32 h = ntohl(a), start, i;
	DECLARE_BITMAP(lens, 33);
	unsigned int len;

	/*
	 * Every IPv4 packet of a NAT64 instance and every IPv6 one (is it
	 * hairpinning?) asks: the range answers most of them at once.
	 */
	if (!p || h < p->lo || h > p->hi)
		return false;
	/* Most pools are a prefix or a few adjacent ones. */
	if (any && p->dense)
		return true;
	bitmap_from_u64(lens, p->lens);
	for_each_set_bit(len, lens, 33) {
		start = h & ~tern_hostmask4(len);
		i = tern_pool4_lower(p, start, len);
		for (; i < p->n; i++) {
			const struct tern_pool4_entry *e = &p->e[i];

			if (ntohl(e->prefix.addr) != start ||
			    e->prefix.len != len)
				break;
			if (any || (e->l4 == l4 && e->pmin <= port &&
				    port <= e->pmax))
				return true;
		}
	}
	return false;
}

bool tern_pool4_contains(const struct tern_pool4 *p, u8 l4, __be32 a,
			 u16 port)
{
	return tern_pool4_lookup(p, a, false, l4, port);
}

bool tern_pool4_holds(const struct tern_pool4 *p, const struct tern_bib *b)
{
	return b->is_static ||
	       tern_pool4_contains(p, b->l4, b->t4.addr, ntohs(b->t4.port));
}

bool tern_pool4_lost(const struct tern_bib *b, void *pool)
{
	return !tern_pool4_holds(pool, b);
}

bool tern_pool4_has_addr(const struct tern_pool4 *p, __be32 a)
{
	return tern_pool4_lookup(p, a, true, 0, 0);
}

/* Is an address of @p (prefix of length 16 to 32) one of this host's? */
static bool tern_prefix_is_local(struct net *net, const struct tern_prefix4 *p,
				 __be32 *local)
{
	struct net_device *dev;
	bool found = false;

	rcu_read_lock();
	for_each_netdev_rcu(net, dev) {
		struct in_device *in_dev = __in_dev_get_rcu(dev);
		const struct in_ifaddr *ifa;

		if (!in_dev)
			continue;
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			if (tern_prefix4_contains(p, ifa->ifa_local)) {
				*local = ifa->ifa_local;
				found = true;
				goto out;
			}
		}
	}
out:
	rcu_read_unlock();
	return found;
}

int tern_pool4_validate(struct net *net, const struct tern_pool4_entry *e,
			struct tern_pool4_clash *clash,
			struct netlink_ext_ack *extack)
{
	int lo, hi;

	if (e->l4 >= TERN_L4_N) {
		NL_SET_ERR_MSG(extack, "the protocol must be TCP, UDP or ICMP");
		return -EINVAL;
	}
	if (e->prefix.len < 16 || e->prefix.len > 32) {
		NL_SET_ERR_MSG(extack,
			       "the prefix length must be 16 to 32 (a /16 is 65536 addresses)");
		return -EINVAL;
	}
	if (!tern_prefix_host_bits_clear(&e->prefix.addr, 32, e->prefix.len)) {
		NL_SET_ERR_MSG(extack,
			       "the IPv4 prefix has bits set after its length");
		return -EINVAL;
	}
	if (e->pmin > e->pmax) {
		NL_SET_ERR_MSG(extack,
			       "the port range is empty: the first port is after the last");
		return -EINVAL;
	}
	if (e->l4 == TERN_L4_ICMP)
		return 0;
	if (e->pmin == 0) {
		NL_SET_ERR_MSG(extack, "TCP and UDP ports are 1 to 65535 (not 0)");
		return -EINVAL;
	}
	/*
	 * The host's own connections take their source ports from this
	 * range on its addresses: a NAT64 binding there could steal their
	 * replies.
	 */
	inet_get_local_port_range(net, &lo, &hi);
	lo = max_t(int, lo, e->pmin);
	hi = min_t(int, hi, e->pmax);
	if (lo > hi || !tern_prefix_is_local(net, &e->prefix, &clash->addr))
		return 0;
	clash->pmin = lo;
	clash->pmax = hi;
	return -EADDRINUSE;
}

static bool tern_pool4_overlap(const struct tern_pool4_entry *a,
			       const struct tern_pool4_entry *b)
{
	return a->l4 == b->l4 && a->mark == b->mark &&
	       a->pmin <= b->pmax && b->pmin <= a->pmax &&
	       tern_prefix4_overlap(&a->prefix, &b->prefix);
}

struct tern_pool4 *tern_pool4_add(const struct tern_pool4 *old,
				  const struct tern_pool4_entry *e,
				  const struct tern_pool4_entry **conflict)
{
	u32 n = tern_pool4_count(old), pos = 0, ppos = 0, i, j;
	struct tern_pool4 *p;

	*conflict = NULL;
	for (i = 0; i < n; i++) {
		if (tern_pool4_overlap(&old->e[i], e)) {
			*conflict = &old->e[i];
			return ERR_PTR(-EEXIST);
		}
		if (tern_addr_cmp(&old->e[i], e) < 0)
			pos = i + 1;
		if (tern_pick_cmp(&old->e[old->by_pick[i]], e) < 0)
			ppos = i + 1;
	}
	if (n >= TERN_POOL4_ENTRIES_MAX)
		return ERR_PTR(-ENOSPC);
	p = tern_pool4_alloc(n + 1);
	if (!p)
		return ERR_PTR(-ENOMEM);
	if (old) {
		memcpy(p->e, old->e, pos * sizeof(*e));
		memcpy(&p->e[pos + 1], &old->e[pos], (n - pos) * sizeof(*e));
	}
	p->e[pos] = *e;
	for (i = 0, j = 0; i < n + 1; i++) {
		u32 k;

		if (i == ppos) {
			p->by_pick[i] = pos;
			continue;
		}
		k = old->by_pick[j++];
		p->by_pick[i] = k >= pos ? k + 1 : k;
	}
	tern_pool4_index(p);
	if (tern_pool4_addrs(p) > TERN_POOL4_ADDRS_MAX) {
		tern_pool4_free(p);
		return ERR_PTR(-E2BIG);
	}
	return p;
}

static bool tern_pool4_match(const struct tern_pool4_entry *a,
			     const struct tern_pool4_entry *b, bool ports)
{
	return tern_prefix4_equal(&a->prefix, &b->prefix) && a->l4 == b->l4 &&
	       a->mark == b->mark &&
	       (!ports || (a->pmin == b->pmin && a->pmax == b->pmax));
}

struct tern_pool4 *tern_pool4_del(const struct tern_pool4 *old,
				  const struct tern_pool4_entry *e, bool ports)
{
	u32 n = tern_pool4_count(old), first = n, gone = 0, i, j, k;
	struct tern_pool4 *p;

	/*
	 * They share (address, length, protocol, mark), and the ports when
	 * given: contiguous in e[].
	 */
	for (i = 0; i < n; i++) {
		if (tern_pool4_match(&old->e[i], e, ports)) {
			first = min(first, i);
			gone++;
		}
	}
	if (!gone)
		return ERR_PTR(-ENOENT);
	if (gone == n)
		return NULL;
	p = tern_pool4_alloc(n - gone);
	if (!p)
		return ERR_PTR(-ENOMEM);
	memcpy(p->e, old->e, first * sizeof(*e));
	memcpy(&p->e[first], &old->e[first + gone],
	       (n - first - gone) * sizeof(*e));
	for (i = 0, j = 0; i < n; i++) {
		k = old->by_pick[i];
		if (k >= first && k < first + gone)
			continue;
		p->by_pick[j++] = k < first ? k : k - gone;
	}
	tern_pool4_index(p);
	return p;
}
