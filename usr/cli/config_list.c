// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the lists of an instance in a configuration file (eamt,
 * denylist4, pool4, bib) as TERN_CMD_CONFIG_APPLY attributes, each entry
 * recorded with its line.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "config_int.h"
#include "nat64.h"
#include "output.h"
#include "pool4.h"
#include "prefix.h"
#include "tern.h"

int cfg_ports_of(struct json_object *v, uint16_t *pmin, uint16_t *pmax)
{
	unsigned long a, b;
	const char *s;
	char *end;

	if (json_object_is_type(v, json_type_int)) {
		int64_t x = json_object_get_int64(v);

		if (x < 0 || x > 65535)
			return -1;
		*pmin = *pmax = x;
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	if (*s < '0' || *s > '9')
		return -1;
	a = strtoul(s, &end, 10);
	b = a;
	if (*end == '-') {
		s = end + 1;
		if (*s < '0' || *s > '9')
			return -1;
		b = strtoul(s, &end, 10);
	}
	if (*end || a > 65535 || b > 65535)
		return -1;
	*pmin = a;
	*pmax = b;
	return 0;
}

static int proto_of(const char *s)
{
	size_t i;

	for (i = 0; i < POOL4_PROTOS; i++)
		if (!strcmp(s, pool4_protos[i].name))
			return i;
	return -1;
}

/* Ends the entry @nla and records it. */
static int entry_done(struct put_ctx *c, struct nlattr *nla,
		      struct json_object *o, const char *list, size_t i)
{
	char what[160];

	snprintf(what, sizeof(what), "%s, %s entry %zu", c->what, list, i + 1);
	if (cfg_where_add(c->r, nla, c->file, cfg_line(o), what) < 0)
		return cfg_too_big();
	return TERN_EXIT_OK;
}

static int put_eam(struct put_ctx *c, struct json_object *o, size_t i)
{
	static const char *const keys[] = { "prefix6", "prefix4", "force",
					    NULL };
	struct json_object *force = NULL;
	struct tern_prefix p6, p4;
	const char *s6, *s4;
	struct nlattr *nest;
	int err;

	err = cfg_check_keys(c, o, keys);
	if (err)
		return err;
	s6 = cfg_str(c, o, "prefix6", true, &err);
	s4 = s6 ? cfg_str(c, o, "prefix4", true, &err) : NULL;
	if (!s4)
		return err;
	if (prefix6_parse(s6, &p6) < 0)
		return cfg_bad(c, o, "invalid IPv6 prefix \"%s\" (expected %s)",
			       s6, PREFIX6_FORMS);
	if (prefix4_parse(s4, &p4) < 0)
		return cfg_bad(c, o, "invalid IPv4 prefix \"%s\" (expected %s)",
			       s4, PREFIX4_FORMS);
	if (json_object_object_get_ex(o, "force", &force) &&
	    !json_object_is_type(force, json_type_boolean))
		return cfg_bad(c, o, "\"force\" is true or false");
	nest = nla_nest_start(c->r->msg, TERN_A_EAM | NLA_F_NESTED);
	if (!nest || prefix_put(c->r->msg, TERN_EAM_PREFIX6, &p6) < 0 ||
	    prefix_put(c->r->msg, TERN_EAM_PREFIX4, &p4) < 0 ||
	    (force && json_object_get_boolean(force) &&
	     nla_put_flag(c->r->msg, TERN_EAM_FORCE) < 0))
		return cfg_too_big();
	nla_nest_end(c->r->msg, nest);
	return entry_done(c, nest, o, "eamt", i);
}

static int put_deny(struct put_ctx *c, struct json_object *o, size_t i)
{
	struct tern_prefix p;
	struct nlattr *a;

	if (!json_object_is_type(o, json_type_string) ||
	    prefix4_parse(json_object_get_string(o), &p) < 0)
		return cfg_bad(c, o, "expected an IPv4 prefix %s",
			       PREFIX4_FORMS);
	a = cfg_tail(c->r);
	if (prefix_put(c->r->msg, TERN_A_PREFIX4, &p) < 0)
		return cfg_too_big();
	return entry_done(c, a, o, "denylist4", i);
}

/*
 * What tern.ko refuses of a pool4 entry on any host (tern_pool4_validate()),
 * in its words: tern det lookup --config reads a file without it.
 */
static const char *pool4_refused(const struct tern_prefix *p, bool ports,
				 uint16_t pmin, uint16_t pmax, unsigned int mask)
{
	uint32_t a = ntohl(p->addr.v4.s_addr);
	size_t j;

	if (p->len < 16 || p->len > 32)
		return "the prefix length must be 16 to 32 (a /16 is 65536 addresses)";
	if (p->len < 32 && a << p->len)
		return "the IPv4 prefix has bits set after its length";
	if (!ports)
		return NULL;
	if (pmin > pmax)
		return "the port range is empty: the first port is after the last";
	for (j = 0; j < POOL4_PROTOS; j++)
		if ((mask & (1U << j)) && pool4_protos[j].pmin && !pmin)
			return "TCP and UDP ports are 1 to 65535 (not 0)";
	return NULL;
}

/* "protocols": their bits in *@mask (0: the key left out). */
static int pool4_protos_of(struct put_ctx *c, struct json_object *o,
			   unsigned int *mask)
{
	struct json_object *protos, *e;
	size_t j;
	int k;

	*mask = 0;
	/* A null member is there, as NULL: refused as another type is. */
	if (!json_object_object_get_ex(o, "protocols", &protos))
		return TERN_EXIT_OK;
	if (!json_object_is_type(protos, json_type_array) ||
	    !json_object_array_length(protos))
		return cfg_bad(c, protos, "\"protocols\" is an array of \"tcp\", \"udp\", \"icmp\" (left out: all three)");
	for (j = 0; j < json_object_array_length(protos); j++) {
		e = json_object_array_get_idx(protos, j);
		k = json_object_is_type(e, json_type_string) ?
		    proto_of(json_object_get_string(e)) : -1;
		if (k < 0)
			return cfg_bad(c, e, "a protocol is \"tcp\", \"udp\" or \"icmp\"");
		if (*mask & (1U << k))
			return cfg_bad(c, e, "\"%s\" is twice in \"protocols\"",
				       pool4_protos[k].name);
		*mask |= 1U << k;
	}
	return TERN_EXIT_OK;
}

/* One TERN_A_POOL4 per protocol (all three by default, as pool4 add). */
static int put_pool4(struct put_ctx *c, struct json_object *o, size_t i)
{
	static const char *const keys[] = {
		"prefix", "protocols", "ports", "mark", NULL
	};
	struct json_object *ports, *mark;
	bool has_ports, has_mark;
	uint16_t pmin = 0, pmax = 0;
	unsigned int mask;
	struct tern_prefix p;
	struct nlattr *nest;
	const char *s, *why;
	int err;
	size_t j;

	err = cfg_check_keys(c, o, keys);
	if (err)
		return err;
	s = cfg_str(c, o, "prefix", true, &err);
	if (!s)
		return err;
	if (prefix_parse_any(s, true, &p) < 0 || p.family != AF_INET)
		return cfg_bad(c, o, "invalid prefix \"%s\" (expected %s)", s,
			       PREFIX4_FORMS);
	err = pool4_protos_of(c, o, &mask);
	if (err)
		return err;
	if (!mask)
		mask = (1U << POOL4_PROTOS) - 1;
	has_ports = json_object_object_get_ex(o, "ports", &ports);
	has_mark = json_object_object_get_ex(o, "mark", &mark);
	if (has_ports && cfg_ports_of(ports, &pmin, &pmax) < 0)
		return cfg_bad(c, ports, "\"ports\" is \"MIN-MAX\" or a port, 0..65535");
	if (has_mark && (!json_object_is_type(mark, json_type_int) ||
			 json_object_get_int64(mark) < 0 ||
			 json_object_get_int64(mark) > UINT32_MAX))
		return cfg_bad(c, mark, "\"mark\" is 0..4294967295");
	/* As config apply reports tern.ko's errors (config.c, where()). */
	why = pool4_refused(&p, has_ports, pmin, pmax, mask);
	if (why)
		return tern_fail("%s:%d: %s, pool4 entry %zu: %s", c->file,
				 cfg_line(o), c->what, i + 1, why);
	for (j = 0; j < POOL4_PROTOS; j++) {
		if (!(mask & (1U << j)))
			continue;
		nest = nla_nest_start(c->r->msg, TERN_A_POOL4 | NLA_F_NESTED);
		if (!nest || prefix_put(c->r->msg, TERN_POOL4_PREFIX, &p) < 0 ||
		    nla_put_u8(c->r->msg, TERN_POOL4_PROTO,
			       pool4_protos[j].proto) < 0 ||
		    (has_ports &&
		     (nla_put_u16(c->r->msg, TERN_POOL4_PORT_MIN, pmin) < 0 ||
		      nla_put_u16(c->r->msg, TERN_POOL4_PORT_MAX, pmax) < 0)) ||
		    (has_mark && nla_put_u32(c->r->msg, TERN_POOL4_MARK,
					     json_object_get_int64(mark)) < 0))
			return cfg_too_big();
		nla_nest_end(c->r->msg, nest);
		err = entry_done(c, nest, o, "pool4", i);
		if (err)
			return err;
	}
	return TERN_EXIT_OK;
}

static int put_bib(struct put_ctx *c, struct json_object *o, size_t i)
{
	static const char *const keys[] = { "protocol", "ipv6", "ipv4", NULL };
	const char *proto, *s6 = NULL, *s4 = NULL;
	struct taddr t6, t4;
	struct nlattr *nest;
	int err, k;

	err = cfg_check_keys(c, o, keys);
	if (err)
		return err;
	proto = cfg_str(c, o, "protocol", true, &err);
	if (proto)
		s6 = cfg_str(c, o, "ipv6", true, &err);
	if (s6)
		s4 = cfg_str(c, o, "ipv4", true, &err);
	if (!s4)
		return err;
	k = proto_of(proto);
	if (k < 0)
		return cfg_bad(c, o, "\"protocol\" is \"tcp\", \"udp\" or \"icmp\"");
	if (taddr_parse(s6, &t6) < 0 || t6.family != AF_INET6)
		return cfg_bad(c, o, "invalid IPv6 transport address \"%s\" (expected ADDR6#PORT)",
			       s6);
	if (taddr_parse(s4, &t4) < 0 || t4.family != AF_INET)
		return cfg_bad(c, o, "invalid IPv4 transport address \"%s\" (expected ADDR4#PORT)",
			       s4);
	nest = nla_nest_start(c->r->msg, TERN_A_BIB | NLA_F_NESTED);
	if (!nest ||
	    nla_put_u8(c->r->msg, TERN_BIB_PROTO, pool4_protos[k].proto) < 0 ||
	    nla_put(c->r->msg, TERN_BIB_ADDR6, 16, &t6.addr.v6) < 0 ||
	    nla_put_u16(c->r->msg, TERN_BIB_PORT6, t6.port) < 0 ||
	    nla_put(c->r->msg, TERN_BIB_ADDR4, 4, &t4.addr.v4) < 0 ||
	    nla_put_u16(c->r->msg, TERN_BIB_PORT4, t4.port) < 0)
		return cfg_too_big();
	nla_nest_end(c->r->msg, nest);
	return entry_done(c, nest, o, "bib", i);
}

int cfg_put_list(struct put_ctx *c, struct json_object *inst, int type)
{
	static const struct {
		const char *key;
		int (*put)(struct put_ctx *c, struct json_object *o, size_t i);
	} lists[] = {
		{ "eamt", put_eam },
		{ "denylist4", put_deny },
		{ "pool4", put_pool4 },
		{ "bib", put_bib },
	};
	struct json_object *l;
	size_t i, j;
	int err;

	(void)type;	/* the kernel says which lists an instance may have */
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		if (!json_object_object_get_ex(inst, lists[i].key, &l))
			continue;
		if (!json_object_is_type(l, json_type_array))
			return cfg_bad(c, l, "\"%s\" is an array", lists[i].key);
		for (j = 0; j < json_object_array_length(l); j++) {
			/* Every error of the entry names it (cfg_bad()). */
			snprintf(c->entry, sizeof(c->entry), "%s entry %zu",
				 lists[i].key, j + 1);
			err = lists[i].put(c, json_object_array_get_idx(l, j), j);
			c->entry[0] = '\0';
			if (err)
				return err;
		}
	}
	return TERN_EXIT_OK;
}
