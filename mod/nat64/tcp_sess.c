// SPDX-License-Identifier: GPL-2.0
/*
 * A TCP segment through a NAT64 session (nat64/tcp_sess.h).
 *
 * A state change goes through tern_sess_set_state(), a compare-and-exchange
 * under the session's lock: if another CPU changed the state (or the
 * expiry rule started to apply) since it was read, the step is computed
 * again from what is there now. Of two FINs on two CPUs, the second steps
 * from the first's V4 (V6) FIN RCV to V4 FIN + V6 FIN RCV.
 *
 * A segment that does not change the state only refreshes the expiry,
 * without lock (one that shortens it, tcp-rst-during-fin-rcv's RST, goes
 * through the lock as a change does). That store may land after a change
 * made meanwhile on another CPU and overwrite the lifetime it gave (a
 * data segment in V4 FIN RCV with TCP_EST, racing the IPv6 FIN that gave
 * TCP_TRANS). So after a store the state is read again, behind a full
 * barrier (one per session every 1/8 s at most: the refresh stores no
 * more often); the change writes its state before its expiry, behind one
 * too. If the state moved, the refresh may have won: the segment is
 * stepped again, through the lock, from the new state, and its lifetime
 * written anew (or, where the step keeps the lifetime, the one the new
 * state was entered with).
 */

#include <linux/jiffies.h>
#include "core/instance.h"
#include "nat64/table.h"
#include "nat64/tcp.h"
#include "nat64/tcp_sess.h"

/* Compare-and-exchange attempts before the segment just passes. */
#define TERN_TCP_SESS_TRIES	16

bool tern_tcp_sess_step(struct tern_tables *t, const struct tern_config *cfg,
			struct tern_session *s, bool from6, u8 flags)
{
	struct tern_tcp_step st;
	unsigned long timeout, kept;
	bool expired, late = false;
	unsigned int i;
	u8 old, state;

	for (i = 0; i < TERN_TCP_SESS_TRIES; i++) {
		old = READ_ONCE(s->state);
		expired = tern_sess_expired(s, (u32)jiffies);
		state = old;
		kept = 0;
		/*
		 * The rule of lookups and the worker: kept, or gone (it
		 * expired after the lookup: the segment is dropped, its
		 * retransmission takes the path of a new flow).
		 */
		if (expired && !tern_sess_tcp_expire(t, &state, &kept))
			return false;
		st = tern_tcp_next_cfg(cfg, state, from6, flags);
		if (!st.ok)
			return false;
		timeout = tern_tcp_timeout(cfg, st.timer);
		if (!expired && !late && st.state == old && !st.shorten) {
			if (!timeout || !tern_sess_refresh(s, timeout))
				return true;
			/* Pairs with the one of tern_sess_set_state(). */
			smp_mb();
			if (READ_ONCE(s->state) == old)
				return true;
			late = true;
			continue;
		}
		if (!timeout && late)
			timeout = tern_tcp_timeout(cfg,
						   tern_tcp_entry_timer(st.state));
		if (!timeout)
			timeout = kept;
		if (tern_sess_set_state(t, s, old, expired, st.state, timeout))
			return true;
	}
	/* Lost every race to other segments of the session: it passes. */
	return true;
}
