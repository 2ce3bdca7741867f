// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 SYNs kept for a simultaneous open (RFC 6146 3.5.2.2); see
 * nat64/synstore.h. Everything an entry is linked in is changed under
 * ss->lock only; an entry is filled before it is linked and used (answered,
 * freed) only once unlinked, so no two CPUs ever hold the same one.
 */

#include <linux/if_ether.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/dst.h>
#include <net/ip.h>
#include "nat64/synstore.h"
#include "nat64/tcp.h"
#include "xlat/icmp.h"

static void tern_syn_expire(struct work_struct *work);
static void tern_syn_grow(struct work_struct *work);

static void tern_syn_first(struct tern_synstore *ss)
{
	unsigned int i;

	for (i = 0; i < TERN_SYN_BUCKETS0; i++)
		INIT_HLIST_HEAD(&ss->first[i]);
	ss->buckets = ss->first;
	ss->nbuckets = TERN_SYN_BUCKETS0;
}

void tern_syn_init(struct tern_synstore *ss, struct net *net)
{
	spin_lock_init(&ss->lock);
	tern_syn_first(ss);
	INIT_LIST_HEAD(&ss->fifo);
	ss->n = 0;
	ss->bytes = 0;
	get_random_bytes(&ss->key, sizeof(ss->key));
	ss->lifetime = TERN_TCP_INCOMING_SYN * HZ;
	ss->net = net;
	INIT_DELAYED_WORK(&ss->expiry, tern_syn_expire);
	INIT_WORK(&ss->grow, tern_syn_grow);
}

static u32 tern_syn_hash(const struct tern_synstore *ss,
			 const struct tern_ta4 *local,
			 const struct tern_ta4 *remote)
{
	return siphash_3u32((__force u32)local->addr, (__force u32)remote->addr,
			    (__force u32)local->port << 16 |
			    (__force u32)remote->port, &ss->key);
}

/* Under ss->lock. */
static struct tern_syn *tern_syn_find(struct tern_synstore *ss, u32 hash,
				      const struct tern_ta4 *local,
				      const struct tern_ta4 *remote)
{
	struct tern_syn *e;

	hlist_for_each_entry(e, &ss->buckets[hash & (ss->nbuckets - 1)], hnode)
		if (e->local.addr == local->addr &&
		    e->local.port == local->port &&
		    e->remote.addr == remote->addr &&
		    e->remote.port == remote->port)
			return e;
	return NULL;
}

/* Under ss->lock; @e stays in the list (of the caller). */
static void tern_syn_unhash(struct tern_synstore *ss, struct tern_syn *e)
{
	hlist_del(&e->hnode);
	WRITE_ONCE(ss->n, ss->n - 1);
	ss->bytes -= tern_syn_size(e->len);
}

/* A copy of what the answer to @skb needs, or NULL (no memory). */
static struct tern_syn *tern_syn_new(const struct sk_buff *skb)
{
	int off = skb_network_offset(skb);
	unsigned int len = min_t(unsigned int, skb->len - off, TERN_SYN_QUOTE);
	struct tern_syn *e;

	e = kmalloc(sizeof(*e) + len, GFP_ATOMIC | __GFP_NOWARN);
	if (!e)
		return NULL;
	if (skb_copy_bits(skb, off, e->data, len)) {
		kfree(e);
		return NULL;
	}
	e->len = len;
	e->mark = skb->mark;
	e->ifindex = skb->dev ? skb->dev->ifindex : 0;
	e->pkt_type = skb->pkt_type;
	return e;
}

int tern_syn_store(struct tern_synstore *ss, u32 max,
		   const struct tern_ta4 *local, const struct tern_ta4 *remote,
		   struct sk_buff *skb)
{
	size_t budget = (size_t)max * TERN_SYN_BYTES_PER, size;
	struct tern_syn *e, *old;
	bool grow = false;
	int ret = 0;

	/*
	 * Full: refused before any copy or lock, so that a flood past the
	 * limit costs each CPU a read (a retransmission of a stored SYN too:
	 * the copy stored first stays, and is answered).
	 */
	if (READ_ONCE(ss->n) >= max)
		return -ENOSPC;
	e = tern_syn_new(skb);
	if (!e)
		return -ENOMEM;
	e->local = *local;
	e->remote = *remote;
	e->hash = tern_syn_hash(ss, local, remote);
	size = tern_syn_size(e->len);

	spin_lock_bh(&ss->lock);
	old = tern_syn_find(ss, e->hash, local, remote);
	if (old) {
		/* In its place: its bucket, its turn, its time. */
		if (ss->bytes - tern_syn_size(old->len) + size > budget) {
			old = NULL;
			ret = -ENOSPC;
		} else {
			e->expires = old->expires;
			hlist_add_before(&e->hnode, &old->hnode);
			hlist_del(&old->hnode);
			list_replace(&old->fifo, &e->fifo);
			ss->bytes += size - tern_syn_size(old->len);
		}
	} else if (ss->n >= max || ss->bytes + size > budget) {
		ret = -ENOSPC;
	} else {
		e->expires = jiffies + ss->lifetime;
		hlist_add_head(&e->hnode,
			       &ss->buckets[e->hash & (ss->nbuckets - 1)]);
		list_add_tail(&e->fifo, &ss->fifo);
		WRITE_ONCE(ss->n, ss->n + 1);
		ss->bytes += size;
		grow = ss->n > ss->nbuckets &&
		       ss->nbuckets < TERN_SYN_BUCKETS_MAX;
		/* Unless it runs already, for an older SYN. */
		queue_delayed_work(system_unbound_wq, &ss->expiry,
				   ss->lifetime + 1);
	}
	spin_unlock_bh(&ss->lock);
	if (ret) {
		kfree(e);
		return ret;
	}
	if (grow)
		queue_work(system_unbound_wq, &ss->grow);
	kfree(old);
	consume_skb(skb);
	return 0;
}

void tern_syn_forget(struct tern_synstore *ss, const struct tern_ta4 *local,
		     const struct tern_ta4 *remote)
{
	u32 hash = tern_syn_hash(ss, local, remote);
	struct tern_syn *e;

	spin_lock_bh(&ss->lock);
	e = tern_syn_find(ss, hash, local, remote);
	if (e) {
		tern_syn_unhash(ss, e);
		list_del(&e->fifo);
	}
	spin_unlock_bh(&ss->lock);
	kfree(e);
}

unsigned long tern_syn_take(struct tern_synstore *ss, unsigned long now,
			    bool all, struct list_head *out)
{
	unsigned long next = 0;
	struct tern_syn *e, *tmp;
	unsigned int n = 0;

	spin_lock_bh(&ss->lock);
	list_for_each_entry_safe(e, tmp, &ss->fifo, fifo) {
		if (!all && time_before(now, e->expires)) {
			next = e->expires - now + 1;
			break;
		}
		/* The rest at the next tick: the lock is held BHs off. */
		if (!all && n++ == TERN_SYN_BATCH) {
			next = 1;
			break;
		}
		tern_syn_unhash(ss, e);
		list_move_tail(&e->fifo, out);
	}
	/*
	 * When the oldest left is due: a SYN stored since the work started
	 * queued it for a whole lifetime. With none left, a SYN stored from
	 * now on queues the work again.
	 */
	if (next)
		mod_delayed_work(system_unbound_wq, &ss->expiry, next);
	spin_unlock_bh(&ss->lock);
	return next;
}

/*
 * Port Unreachable about @e, out of the device it came in on if still
 * there: from a packet made of what was kept, as it came in (the quote is
 * the same: never more than TERN_SYN_QUOTE bytes).
 */
static void tern_syn_answer(struct tern_synstore *ss, const struct tern_syn *e)
{
	struct net_device *dev;
	struct sk_buff *skb;

	skb = alloc_skb(e->len, GFP_KERNEL);
	if (!skb)
		return;
	skb_put_data(skb, e->data, e->len);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, ip_hdrlen(skb));
	skb->protocol = htons(ETH_P_IP);
	skb->pkt_type = e->pkt_type;
	skb->mark = e->mark;
	skb->skb_iif = e->ifindex;
	/* As on the packet path: a route looked up under RCU, BHs off. */
	rcu_read_lock();
	dev = dev_get_by_index_rcu(ss->net, e->ifindex);
	if (dev) {
		skb->dev = dev;
		local_bh_disable();
		tern_icmp4_error(skb, ICMP_DEST_UNREACH, ICMP_PORT_UNREACH, 0);
		local_bh_enable();
		skb_dst_drop(skb);
		skb->dev = NULL;
	}
	rcu_read_unlock();
	consume_skb(skb);
}

/* Answers and frees the SYNs kept their time. */
static void tern_syn_expire(struct work_struct *work)
{
	struct tern_synstore *ss = container_of(to_delayed_work(work),
						struct tern_synstore, expiry);
	struct tern_syn *e, *tmp;
	LIST_HEAD(done);

	tern_syn_take(ss, jiffies, false, &done);
	list_for_each_entry_safe(e, tmp, &done, fifo) {
		tern_syn_answer(ss, e);
		kfree(e);
		cond_resched();
	}
}

/*
 * Twice as many buckets as entries (at most TERN_SYN_BUCKETS_MAX): the
 * table is made here, where it may sleep, and filled under the lock from
 * the list (each entry keeps its hash). It never shrinks.
 */
static void tern_syn_grow(struct work_struct *work)
{
	struct tern_synstore *ss = container_of(work, struct tern_synstore,
						grow);
	struct hlist_head *nb, *ob = NULL;
	struct tern_syn *e;
	u32 want;

	want = roundup_pow_of_two(max(2 * READ_ONCE(ss->n), 1U));
	want = min_t(u32, want, TERN_SYN_BUCKETS_MAX);
	/* Only this work and tern_syn_free() (which waits for it) set it. */
	if (want <= ss->nbuckets)
		return;
	nb = kvcalloc(want, sizeof(*nb), GFP_KERNEL);
	if (!nb)
		return;
	spin_lock_bh(&ss->lock);
	if (want > ss->nbuckets) {
		list_for_each_entry(e, &ss->fifo, fifo)
			hlist_add_head(&e->hnode, &nb[e->hash & (want - 1)]);
		if (ss->buckets != ss->first)
			ob = ss->buckets;
		ss->buckets = nb;
		ss->nbuckets = want;
		nb = NULL;
	}
	spin_unlock_bh(&ss->lock);
	kvfree(nb);
	kvfree(ob);
}

void tern_syn_free(struct tern_synstore *ss)
{
	struct tern_syn *e, *tmp;
	LIST_HEAD(done);

	cancel_work_sync(&ss->grow);
	cancel_delayed_work_sync(&ss->expiry);
	tern_syn_take(ss, jiffies, true, &done);
	list_for_each_entry_safe(e, tmp, &done, fifo)
		kfree(e);
	if (ss->buckets != ss->first)
		kvfree(ss->buckets);
	tern_syn_first(ss);
}
