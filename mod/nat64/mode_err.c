// SPDX-License-Identifier: GPL-2.0
/*
 * The NAT64 mode's ops for ICMP errors (RFC 6146 3.5.4 and 3.8): the
 * session of the packet an error quotes decides the error's addresses and
 * the quoted packet's. Errors never create or refresh state.
 */

#include <net/ipv6.h>
#include "nat64/mode_err.h"
#include "nat64/nat64.h"

/*
 * ICMP errors (RFC 6146 3.5.4 and 3.8): translated through the session of
 * the packet they quote, which they never create nor refresh. 4->6: the
 * quoted packet is one Tern sent from pool4; the error goes to its IPv6
 * host.
 */
int tern_nat64_quote4(struct tern_xlat *x, __be32 s4, __be32 d4,
		      u8 proto, const struct tern_l4id *id)
{
	struct tern_ta4 local = { .addr = s4, .port = id->port[0] };
	struct tern_ta4 remote = { .addr = d4, .port = id->port[1] };
	int l4 = tern_l4_of(proto);
	struct tern_session *s;
	struct tern_bib *b;

	if (l4 < 0 || !id->valid)
		return x->dlocal ? TERN_STAT_PASS_LOCAL :
				   TERN_STAT_DROP_ICMP_INNER;
	if (l4 == TERN_L4_ICMP)
		remote.port = 0;
	s = tern_sess_find4(x->inst->nat64->tables, l4, &local, &remote);
	if (!s)
		return x->dlocal ? TERN_STAT_PASS_LOCAL :
				   TERN_STAT_DROP_NO_SESSION;
	b = s->bib;
	x->q.valid = true;
	x->q.a6[0] = b->t6.addr;
	tern_rfc6052_4to6(&x->cfg->pool6, d4, &x->q.a6[1]);
	x->q.nport[0] = b->t6.port;
	x->q.nport[1] = l4 == TERN_L4_ICMP ? b->t6.port : id->port[1];
	x->q.host6 = b->t6.addr;
	x->q.host4 = b->t4.addr;
	x->a6[1] = b->t6.addr;
	return 0;
}

/* 6->4: the quoted packet is one Tern sent to an IPv6 host of a session. */
int tern_nat64_quote6(struct tern_xlat *x, const struct in6_addr *s6,
		      const struct in6_addr *d6, u8 proto,
		      const struct tern_l4id *id)
{
	struct tern_ta6 host = { .addr = *d6, .port = id->port[1] };
	struct tern_ta4 remote = { .port = id->port[0] };
	int l4 = tern_l4_of(proto);
	struct tern_session *s;
	struct tern_bib *b;

	if (l4 < 0 || !id->valid ||
	    !tern_rfc6052_6to4(&x->cfg->pool6, s6, &remote.addr))
		return TERN_STAT_DROP_ICMP_INNER;
	if (l4 == TERN_L4_ICMP)
		remote.port = 0;
	s = tern_sess_find6(x->inst->nat64->tables, l4, &host, &remote);
	if (!s)
		return TERN_STAT_DROP_NO_SESSION;
	b = s->bib;
	x->q.valid = true;
	x->q.a4[0] = remote.addr;
	x->q.a4[1] = b->t4.addr;
	x->q.nport[0] = l4 == TERN_L4_ICMP ? b->t4.port : id->port[0];
	x->q.nport[1] = b->t4.port;
	x->q.host6 = b->t6.addr;
	x->q.host4 = b->t4.addr;
	return 0;
}

bool tern_nat64_inner6(const struct tern_xlat *x,
		       const struct in6_addr *s6,
		       const struct in6_addr *d6, __be32 *s4,
		       __be32 *d4, const struct tern_l4id *id,
		       __be16 *nport)
{
	if (!x->q.valid)
		return false;
	*s4 = x->q.a4[0];
	*d4 = x->q.a4[1];
	memcpy(nport, x->q.nport, sizeof(x->q.nport));
	return true;
}

bool tern_nat64_inner4(const struct tern_xlat *x, __be32 s4,
		       __be32 d4, struct in6_addr *s6,
		       struct in6_addr *d6, const struct tern_l4id *id,
		       __be16 *nport)
{
	if (!x->q.valid)
		return false;
	*s6 = x->q.a6[0];
	*d6 = x->q.a6[1];
	memcpy(nport, x->q.nport, sizeof(x->q.nport));
	return true;
}
