// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: BIB entries and sessions as the kernel sends them (the replies
 * of bib list and session list, and tern monitor's events), and their JSON.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "nat64.h"
#include "output.h"
#include "tern_genl.h"

/* enum tern_tcp_state */
static const char *const tcp_states[__TERN_TCP_STATE_MAX] = {
	[TERN_TCP_CLOSED] = "CLOSED",
	[TERN_TCP_V4_INIT] = "V4_INIT",
	[TERN_TCP_V6_INIT] = "V6_INIT",
	[TERN_TCP_ESTABLISHED] = "ESTABLISHED",
	[TERN_TCP_V4_FIN_RCV] = "V4_FIN_RCV",
	[TERN_TCP_V6_FIN_RCV] = "V6_FIN_RCV",
	[TERN_TCP_V4_FIN_V6_FIN_RCV] = "V4_FIN_V6_FIN_RCV",
	[TERN_TCP_TRANS] = "TRANS",
	[TERN_TCP_V6_REBUILT] = "V6_REBUILT",
};

const char *tcp_state_name(uint8_t state)
{
	return state < __TERN_TCP_STATE_MAX ? tcp_states[state] : NULL;
}

static void taddr_get(struct taddr *t, int family, const struct nlattr *addr,
		      const struct nlattr *port)
{
	t->family = family;
	memcpy(&t->addr, nla_data(addr), family == AF_INET6 ? 16 : 4);
	t->port = nla_get_u16(port);
}

int nat64_bib_parse(struct nlattr *nest, struct nat64_bib *b)
{
	static struct nla_policy policy[TERN_BIB_MAX + 1] = {
		[TERN_BIB_PROTO] = { .type = NLA_U8 },
		[TERN_BIB_ADDR6] = { .minlen = 16 },
		[TERN_BIB_PORT6] = { .type = NLA_U16 },
		[TERN_BIB_ADDR4] = { .minlen = 4 },
		[TERN_BIB_PORT4] = { .type = NLA_U16 },
		[TERN_BIB_STATIC] = { .type = NLA_FLAG },
		[TERN_BIB_SESSIONS] = { .type = NLA_U32 },
	};
	struct nlattr *e[TERN_BIB_MAX + 1];

	memset(b, 0, sizeof(*b));
	if (!nest || nla_parse_nested(e, TERN_BIB_MAX, nest, policy) < 0 ||
	    !e[TERN_BIB_PROTO] || !e[TERN_BIB_ADDR6] || !e[TERN_BIB_PORT6] ||
	    !e[TERN_BIB_ADDR4] || !e[TERN_BIB_PORT4])
		return -1;
	b->proto = nla_get_u8(e[TERN_BIB_PROTO]);
	if (!proto_name(b->proto))
		return -1;
	taddr_get(&b->t6, AF_INET6, e[TERN_BIB_ADDR6], e[TERN_BIB_PORT6]);
	taddr_get(&b->t4, AF_INET, e[TERN_BIB_ADDR4], e[TERN_BIB_PORT4]);
	b->is_static = e[TERN_BIB_STATIC] != NULL;
	if (e[TERN_BIB_SESSIONS])
		b->sessions = nla_get_u32(e[TERN_BIB_SESSIONS]);
	return 0;
}

int nat64_session_parse(struct nlattr *nest, struct nat64_session *s)
{
	static struct nla_policy policy[TERN_SESSION_MAX + 1] = {
		[TERN_SESSION_PROTO] = { .type = NLA_U8 },
		[TERN_SESSION_ADDR6] = { .minlen = 16 },
		[TERN_SESSION_PORT6] = { .type = NLA_U16 },
		[TERN_SESSION_ADDR4] = { .minlen = 4 },
		[TERN_SESSION_PORT4] = { .type = NLA_U16 },
		[TERN_SESSION_REMOTE4] = { .minlen = 4 },
		[TERN_SESSION_RPORT4] = { .type = NLA_U16 },
		[TERN_SESSION_STATE] = { .type = NLA_U8 },
		[TERN_SESSION_EXPIRES] = { .type = NLA_U32 },
	};
	struct nlattr *e[TERN_SESSION_MAX + 1];
	uint8_t state = TERN_TCP_CLOSED;

	memset(s, 0, sizeof(*s));
	if (!nest || nla_parse_nested(e, TERN_SESSION_MAX, nest, policy) < 0 ||
	    !e[TERN_SESSION_PROTO] || !e[TERN_SESSION_ADDR6] ||
	    !e[TERN_SESSION_PORT6] || !e[TERN_SESSION_ADDR4] ||
	    !e[TERN_SESSION_PORT4] || !e[TERN_SESSION_REMOTE4] ||
	    !e[TERN_SESSION_RPORT4])
		return -1;
	s->proto = nla_get_u8(e[TERN_SESSION_PROTO]);
	if (e[TERN_SESSION_STATE])
		state = nla_get_u8(e[TERN_SESSION_STATE]);
	if (!proto_name(s->proto) || !tcp_state_name(state))
		return -1;
	taddr_get(&s->t6, AF_INET6, e[TERN_SESSION_ADDR6],
		  e[TERN_SESSION_PORT6]);
	taddr_get(&s->t4, AF_INET, e[TERN_SESSION_ADDR4],
		  e[TERN_SESSION_PORT4]);
	taddr_get(&s->remote, AF_INET, e[TERN_SESSION_REMOTE4],
		  e[TERN_SESSION_RPORT4]);
	if (s->proto == IPPROTO_TCP)
		s->state = tcp_state_name(state);
	s->has_expires = e[TERN_SESSION_EXPIRES] != NULL;
	if (s->has_expires)
		s->expires_ms = nla_get_u32(e[TERN_SESSION_EXPIRES]);
	return 0;
}

static void taddr_json(struct json_object *o, const char *akey,
		       const char *pkey, const struct taddr *t)
{
	char a[INET6_ADDRSTRLEN];

	json_add_str(o, akey, inet_ntop(t->family, &t->addr, a, sizeof(a)));
	json_add_u64(o, pkey, t->port);
}

void nat64_bib_json(struct json_object *o, const struct nat64_bib *b,
		    bool dump)
{
	json_add_str(o, "protocol", proto_name(b->proto));
	taddr_json(o, "address6", "port6", &b->t6);
	taddr_json(o, "address4", "port4", &b->t4);
	json_add_bool(o, "static", b->is_static);
	if (dump)
		json_add_u64(o, "sessions", b->sessions);
}

void nat64_session_json(struct json_object *o, const struct nat64_session *s)
{
	json_add_str(o, "protocol", proto_name(s->proto));
	taddr_json(o, "address6", "port6", &s->t6);
	taddr_json(o, "address4", "port4", &s->t4);
	taddr_json(o, "remote4", "remote-port4", &s->remote);
	json_add_str(o, "state", s->state);
	if (s->has_expires)
		json_add_u64(o, "expires-ms", s->expires_ms);
}
