// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 SYNs kept for a simultaneous open (RFC 6146 3.5.2.2); see
 * nat64/synstore.h.
 */

#include <linux/icmp.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/dst.h>
#include "nat64/synstore.h"
#include "nat64/tcp.h"
#include "xlat/icmp.h"

struct tern_syn {
	struct list_head node;
	struct tern_ta4 local, remote;
	unsigned long expires;		/* jiffies */
	/*
	 * Kept without route, conntrack entry or device: references that
	 * would hold up the removal of the device or of the namespace. The
	 * device it came in on is looked up again by index to answer it.
	 */
	struct sk_buff *skb;
	int ifindex;
};

static void tern_syn_expire(struct work_struct *work);

void tern_syn_init(struct tern_synstore *ss, struct net *net)
{
	spin_lock_init(&ss->lock);
	INIT_LIST_HEAD(&ss->list);
	ss->n = 0;
	ss->net = net;
	INIT_DELAYED_WORK(&ss->expiry, tern_syn_expire);
}

/* Under ss->lock. */
static struct tern_syn *tern_syn_find(struct tern_synstore *ss,
				      const struct tern_ta4 *local,
				      const struct tern_ta4 *remote)
{
	struct tern_syn *e;

	list_for_each_entry(e, &ss->list, node)
		if (e->local.addr == local->addr &&
		    e->local.port == local->port &&
		    e->remote.addr == remote->addr &&
		    e->remote.port == remote->port)
			return e;
	return NULL;
}

int tern_syn_store(struct tern_synstore *ss, u32 max,
		   const struct tern_ta4 *local, const struct tern_ta4 *remote,
		   struct sk_buff *skb)
{
	int ifindex = skb->dev ? skb->dev->ifindex : 0;
	struct sk_buff *old = NULL;
	struct tern_syn *e;
	int ret = 0;

	spin_lock_bh(&ss->lock);
	e = tern_syn_find(ss, local, remote);
	if (e) {
		old = e->skb;
		e->skb = skb;
		e->ifindex = ifindex;
	} else if (ss->n >= max) {
		ret = -ENOSPC;
	} else {
		e = kmalloc(sizeof(*e), GFP_ATOMIC | __GFP_NOWARN);
		if (!e) {
			ret = -ENOMEM;
		} else {
			e->local = *local;
			e->remote = *remote;
			e->expires = jiffies + TERN_TCP_INCOMING_SYN * HZ;
			e->skb = skb;
			e->ifindex = ifindex;
			list_add_tail(&e->node, &ss->list);
			WRITE_ONCE(ss->n, ss->n + 1);
			/* Unless it runs already, for an older SYN. */
			queue_delayed_work(system_unbound_wq, &ss->expiry,
					   e->expires - jiffies + 1);
		}
	}
	spin_unlock_bh(&ss->lock);
	if (!ret) {
		skb_dst_drop(skb);
		nf_reset_ct(skb);
		skb->dev = NULL;
	}
	if (old)
		kfree_skb(old);
	return ret;
}

void tern_syn_forget(struct tern_synstore *ss, const struct tern_ta4 *local,
		     const struct tern_ta4 *remote)
{
	struct tern_syn *e;

	spin_lock_bh(&ss->lock);
	e = tern_syn_find(ss, local, remote);
	if (e) {
		list_del(&e->node);
		WRITE_ONCE(ss->n, ss->n - 1);
	}
	spin_unlock_bh(&ss->lock);
	if (e) {
		consume_skb(e->skb);
		kfree(e);
	}
}

/*
 * Takes the entries expired by now (all if @all) off the list, into @out.
 * Returns in how many jiffies the oldest one left expires (0: none left).
 */
static unsigned long tern_syn_take(struct tern_synstore *ss, bool all,
				   struct list_head *out)
{
	unsigned long next = 0;
	struct tern_syn *e, *tmp;

	spin_lock_bh(&ss->lock);
	list_for_each_entry_safe(e, tmp, &ss->list, node) {
		if (!all && time_before(jiffies, e->expires)) {
			next = e->expires - jiffies + 1;
			break;
		}
		list_move_tail(&e->node, out);
		WRITE_ONCE(ss->n, ss->n - 1);
	}
	/* A SYN stored from now on queues the work again. */
	if (next)
		queue_delayed_work(system_unbound_wq, &ss->expiry, next);
	spin_unlock_bh(&ss->lock);
	return next;
}

/*
 * Answers (Port Unreachable, out of the device it came in on, if still
 * there) and frees the SYNs kept 6 s.
 */
static void tern_syn_expire(struct work_struct *work)
{
	struct tern_synstore *ss = container_of(to_delayed_work(work),
						struct tern_synstore, expiry);
	struct net *net = ss->net;
	struct tern_syn *e, *tmp;
	struct net_device *dev;
	LIST_HEAD(done);

	tern_syn_take(ss, false, &done);
	list_for_each_entry_safe(e, tmp, &done, node) {
		/* As on the packet path: a route looked up under RCU, BHs off. */
		rcu_read_lock();
		dev = dev_get_by_index_rcu(net, e->ifindex);
		if (dev) {
			e->skb->dev = dev;
			local_bh_disable();
			tern_icmp4_error(e->skb, ICMP_DEST_UNREACH,
					 ICMP_PORT_UNREACH, 0);
			local_bh_enable();
			skb_dst_drop(e->skb);
			e->skb->dev = NULL;
		}
		rcu_read_unlock();
		consume_skb(e->skb);
		kfree(e);
	}
}

void tern_syn_free(struct tern_synstore *ss)
{
	struct tern_syn *e, *tmp;
	LIST_HEAD(done);

	cancel_delayed_work_sync(&ss->expiry);
	tern_syn_take(ss, true, &done);
	list_for_each_entry_safe(e, tmp, &done, node) {
		kfree_skb(e->skb);
		kfree(e);
	}
}
