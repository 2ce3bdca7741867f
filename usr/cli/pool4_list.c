// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the pool4 entries of a dump (tern pool4 list, and remove's
 * check), read and printed.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "output.h"
#include "pool4.h"
#include "tables.h"

int pool4_list_reply(struct nlattr **tb, void *arg)
{
	static struct nla_policy policy[TERN_POOL4_MAX + 1] = {
		[TERN_POOL4_PREFIX] = { .type = NLA_NESTED },
		[TERN_POOL4_PROTO] = { .type = NLA_U8 },
		[TERN_POOL4_PORT_MIN] = { .type = NLA_U16 },
		[TERN_POOL4_PORT_MAX] = { .type = NLA_U16 },
		[TERN_POOL4_MARK] = { .type = NLA_U32 },
	};
	struct nlattr *e[TERN_POOL4_MAX + 1];
	struct pool4_list *list = arg;
	struct pool4_entry *x;
	struct tern_prefix p;
	uint8_t proto;
	size_t i = ARRAY_SIZE(pool4_protos);
	int status;

	if (tb[TERN_A_POOL4] &&
	    nla_parse_nested(e, TERN_POOL4_MAX, tb[TERN_A_POOL4], policy) >= 0 &&
	    e[TERN_POOL4_PREFIX] && e[TERN_POOL4_PROTO] &&
	    e[TERN_POOL4_PORT_MIN] && e[TERN_POOL4_PORT_MAX] &&
	    e[TERN_POOL4_MARK] && prefix_get(e[TERN_POOL4_PREFIX], &p) == 0 &&
	    p.family == AF_INET) {
		proto = nla_get_u8(e[TERN_POOL4_PROTO]);
		for (i = 0; i < ARRAY_SIZE(pool4_protos); i++)
			if (pool4_protos[i].proto == proto)
				break;
	}
	if (i == ARRAY_SIZE(pool4_protos))
		return tern_fail("malformed reply from the kernel: bad pool4 entry");
	status = table_room((void **)&list->v, list->n, &list->cap,
			    sizeof(*list->v));
	if (status)
		return status;
	x = &list->v[list->n++];
	prefix_str(&p, x->prefix);
	x->i = i;
	x->pmin = nla_get_u16(e[TERN_POOL4_PORT_MIN]);
	x->pmax = nla_get_u16(e[TERN_POOL4_PORT_MAX]);
	x->mark = nla_get_u32(e[TERN_POOL4_MARK]);
	return TERN_EXIT_OK;
}

int pool4_print(const struct pool4_list *list, bool json)
{
	struct json_stream js = { 0 };
	struct json_object *o;
	int w = strlen("PREFIX");
	int status = TERN_EXIT_OK;
	char ports[16];
	size_t i;

	if (json) {
		for (i = 0; !status && i < list->n; i++) {
			o = json_obj();
			json_add_str(o, "protocol",
				     pool4_protos[list->v[i].i].name);
			json_add_str(o, "prefix", list->v[i].prefix);
			json_add_u64(o, "port-min", list->v[i].pmin);
			json_add_u64(o, "port-max", list->v[i].pmax);
			json_add_u64(o, "mark", list->v[i].mark);
			status = json_stream_add(&js, o);
		}
		json_stream_end(&js);
		return status;
	}
	for (i = 0; i < list->n; i++)
		if ((int)strlen(list->v[i].prefix) > w)
			w = strlen(list->v[i].prefix);
	printf("%-5s %-*s %-11s %s\n", "PROTO", w, "PREFIX", "PORTS", "MARK");
	for (i = 0; i < list->n; i++) {
		snprintf(ports, sizeof(ports), "%u-%u",
			 list->v[i].pmin, list->v[i].pmax);
		printf("%-5s %-*s %-11s %u\n",
		       pool4_protos[list->v[i].i].name, w, list->v[i].prefix,
		       ports, list->v[i].mark);
	}
	return TERN_EXIT_OK;
}
