// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern pool4 add|remove|list|flush (NAT64 instances).
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "args.h"
#include "output.h"
#include "prefix.h"
#include "tables.h"

static const char help_pool4[] =
	"Usage: tern [-i NAME] pool4 COMMAND [ARGS]\n"
	"\n"
	"Manage the IPv4 transport addresses a NAT64 instance gives its IPv6\n"
	"hosts (RFC 6146 3.5.1.1), by protocol (ICMP: query identifiers) and\n"
	"packet mark.\n"
	"\n"
	"Commands:\n"
	"  add PREFIX4 [PORTS] [--tcp] [--udp] [--icmp] [--mark N]\n"
	"  remove PREFIX4 [PORTS] [--tcp] [--udp] [--icmp] [--mark N]\n"
	"  list [--json]\n"
	"  flush\n"
	"\n"
	"Entries of one protocol and mark may not overlap. Run\n"
	"'tern pool4 COMMAND --help' for details.\n";

static const char help_add[] =
	"Usage: tern [-i NAME] pool4 add PREFIX4 [PORTS] [--tcp] [--udp] [--icmp]\n"
	"                            [--mark N]\n"
	"\n"
	"Add the addresses of PREFIX4 (ADDR/LEN with LEN 16..32, no bits set\n"
	"past LEN; a bare ADDR is a /32) with the ports PORTS (MIN-MAX or one\n"
	"port; default 1024-65535 for TCP and UDP, 0-65535 for ICMP).\n"
	"\n"
	"Without a protocol option, the entry is added for TCP, UDP and ICMP, in\n"
	"this order, all or nothing: when the kernel refuses one, the ones\n"
	"already added are removed again. TCP and UDP ports of this host's\n"
	"addresses may not overlap net.ipv4.ip_local_port_range.\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  the protocols (any of them; default: all three)\n"
	"  --mark N              for the packets with mark N (default 0)\n"
	"  -i, --instance NAME   the instance (default: the only one)\n"
	"  -h, --help            show this help\n";

static const char help_remove[] =
	"Usage: tern [-i NAME] pool4 remove PREFIX4 [PORTS] [--tcp] [--udp] [--icmp]\n"
	"                               [--mark N]\n"
	"\n"
	"Remove the entries of PREFIX4 (exactly as added) for the protocols and\n"
	"mark; with PORTS, only the entry with that range. Without a protocol\n"
	"option, from every protocol that has such an entry (at least one must).\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  the protocols (any of them; default: all three)\n"
	"  --mark N              the entries of mark N (default 0)\n"
	"  -i, --instance NAME   the instance (default: the only one)\n"
	"  -h, --help            show this help\n";

static const char help_list[] =
	"Usage: tern [-i NAME] pool4 list [--json]\n"
	"\n"
	"Show the entries, one per line under a PROTO PREFIX PORTS MARK header,\n"
	"in address order.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print a JSON array of objects: protocol (\"tcp\",\n"
	"                       \"udp\" or \"icmp\"), prefix, port_min, port_max, mark\n"
	"  -h, --help           show this help\n";

static const char help_flush[] =
	"Usage: tern [-i NAME] pool4 flush\n"
	"\n"
	"Remove every entry.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

#define PORTS_FORMS "MIN-MAX or PORT, 0..65535"

static const struct {
	const char *name;
	uint8_t proto;
	uint16_t pmin;		/* default range */
} protos[] = {
	{ "tcp", IPPROTO_TCP, 1024 },
	{ "udp", IPPROTO_UDP, 1024 },
	{ "icmp", IPPROTO_ICMP, 0 },
};

/* What add and remove name. */
struct pool4_arg {
	struct tern_prefix prefix;
	unsigned int protos;	/* bit i: protos[i]; 0: all */
	bool ports;		/* a PORTS argument */
	uint16_t pmin, pmax;
	uint32_t mark;
};

/* One request: @a for protocol @i (ports: @a's, or its defaults). */
struct pool4_req {
	const struct pool4_arg *a;
	size_t i;
	bool ports;
};

/* A decimal number up to @max (0x hex too with @hex); no sign, no blanks. */
static int num_parse(const char *s, bool hex, uint32_t max, uint32_t *out)
{
	unsigned int base = 10, d;
	uint64_t n = 0;

	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		n = n * base + d;
		if (n > max)
			return -1;
	}
	*out = n;
	return 0;
}

static int ports_parse(const char *s, uint16_t *pmin, uint16_t *pmax)
{
	const char *dash = strchr(s, '-');
	char first[8];
	uint32_t a, b;

	if (!dash) {
		if (num_parse(s, false, 65535, &a) < 0)
			return -1;
		*pmin = *pmax = a;
		return 0;
	}
	if (dash == s || (size_t)(dash - s) >= sizeof(first))
		return -1;
	memcpy(first, s, dash - s);
	first[dash - s] = '\0';
	if (num_parse(first, false, 65535, &a) < 0 ||
	    num_parse(dash + 1, false, 65535, &b) < 0)
		return -1;
	*pmin = a;
	*pmax = b;
	return 0;
}

/* The arguments of add and remove. */
static int pool4_args(const char *cmd, int argc, char **argv,
		      struct tern_opts *opts, struct pool4_arg *a)
{
	bool opts_done = false, have_prefix = false;
	const char *val;
	size_t p;
	int i, r;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (opts_done || !args_is_option(arg)) {
			if (!have_prefix) {
				if (prefix_parse_any(arg, true, &a->prefix) < 0 ||
				    a->prefix.family != AF_INET)
					return tern_usage("invalid prefix '%s' (expected an IPv4 prefix %s)",
							  arg, PREFIX4_FORMS);
				have_prefix = true;
			} else if (!a->ports) {
				if (ports_parse(arg, &a->pmin, &a->pmax) < 0)
					return tern_usage("invalid ports '%s' (expected %s)",
							  arg, PORTS_FORMS);
				a->ports = true;
			} else {
				return args_unexpected(cmd, arg);
			}
			continue;
		}
		if (!strcmp(arg, "--")) {
			opts_done = true;
			continue;
		}
		for (p = 0; p < ARRAY_SIZE(protos); p++)
			if (!strncmp(arg, "--", 2) &&
			    !strcmp(arg + 2, protos[p].name))
				break;
		if (p < ARRAY_SIZE(protos)) {
			a->protos |= 1U << p;
			continue;
		}
		r = args_value(argc, argv, &i, NULL, "--mark", "N", &val);
		if (r < 0)
			return TERN_EXIT_USAGE;
		if (r > 0) {
			if (num_parse(val, true, UINT32_MAX, &a->mark) < 0)
				return tern_usage("invalid mark '%s' (expected 0..4294967295, decimal or 0x hex)",
						  val);
			continue;
		}
		r = args_instance_or_unknown(cmd, argc, argv, &i, opts);
		if (r)
			return r;
	}
	if (!have_prefix)
		return args_missing(cmd, "PREFIX4");
	return TERN_EXIT_OK;
}

static int put_pool4(struct nl_msg *msg, const void *arg)
{
	const struct pool4_req *r = arg;
	const struct pool4_arg *a = r->a;
	struct nlattr *nest;

	nest = nla_nest_start(msg, TERN_A_POOL4);
	if (!nest || prefix_put(msg, TERN_POOL4_PREFIX, &a->prefix) < 0 ||
	    nla_put_u8(msg, TERN_POOL4_PROTO, protos[r->i].proto) < 0 ||
	    nla_put_u32(msg, TERN_POOL4_MARK, a->mark) < 0)
		return -1;
	if (r->ports &&
	    (nla_put_u16(msg, TERN_POOL4_PORT_MIN,
			 a->ports ? a->pmin : protos[r->i].pmin) < 0 ||
	     nla_put_u16(msg, TERN_POOL4_PORT_MAX,
			 a->ports ? a->pmax : 65535) < 0))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/* Sends @cmd about @a for protocol @i on @nl. Returns the exit status. */
static int pool4_send(struct tern_nl *nl, uint8_t cmd, const char *instance,
		      const struct pool4_arg *a, size_t i, bool ports)
{
	struct pool4_req r = { .a = a, .i = i, .ports = ports };
	struct nl_msg *msg;

	msg = tern_nl_msg(nl, cmd, false);
	if (!msg)
		return TERN_EXIT_FAIL;
	if (tern_nl_put_instance(msg, instance) < 0 || put_pool4(msg, &r) < 0) {
		nlmsg_free(msg);
		return tern_nl_build_error();
	}
	return tern_nl_run(nl, msg, NULL, NULL);
}

static int pool4_add(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "pool4 add";
	char buf[PREFIX_STRLEN];
	struct pool4_arg a;
	struct tern_nl *nl;
	int status, undo;
	size_t i, j;

	if (table_help(argc, argv, help_add))
		return TERN_EXIT_OK;
	status = pool4_args(cmd, argc, argv, opts, &a);
	if (status)
		return status;
	if (!a.protos)
		a.protos = (1U << ARRAY_SIZE(protos)) - 1;
	status = tern_nl_open(&nl);
	if (status)
		return status;
	for (i = 0; i < ARRAY_SIZE(protos); i++) {
		if (!(a.protos & (1U << i)))
			continue;
		/* Explicit ports: an undo removes exactly this entry. */
		status = pool4_send(nl, TERN_CMD_POOL4_ADD, opts->instance, &a,
				    i, true);
		if (status)
			break;
	}
	/* All or nothing: undo the protocols added before the refusal. */
	for (j = 0; status && j < i; j++) {
		if (!(a.protos & (1U << j)))
			continue;
		undo = pool4_send(nl, TERN_CMD_POOL4_DEL, opts->instance, &a,
				  j, true);
		if (undo)
			tern_fail("%s stays in pool4 for %s: removing it failed",
				  prefix_str(&a.prefix, buf), protos[j].name);
	}
	tern_nl_close(nl);
	return status;
}

/* The entries of a dump. */
struct pool4_entry {
	char prefix[PREFIX_STRLEN];
	size_t i;		/* in protos[] */
	uint16_t pmin, pmax;
	uint32_t mark;
};

struct pool4_list {
	struct pool4_entry *v;
	size_t n, cap;
};

static int list_reply(struct nlattr **tb, void *arg)
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
	size_t i = ARRAY_SIZE(protos);
	int status;

	if (tb[TERN_A_POOL4] &&
	    nla_parse_nested(e, TERN_POOL4_MAX, tb[TERN_A_POOL4], policy) >= 0 &&
	    e[TERN_POOL4_PREFIX] && e[TERN_POOL4_PROTO] &&
	    e[TERN_POOL4_PORT_MIN] && e[TERN_POOL4_PORT_MAX] &&
	    e[TERN_POOL4_MARK] && prefix_get(e[TERN_POOL4_PREFIX], &p) == 0 &&
	    p.family == AF_INET) {
		proto = nla_get_u8(e[TERN_POOL4_PROTO]);
		for (i = 0; i < ARRAY_SIZE(protos); i++)
			if (protos[i].proto == proto)
				break;
	}
	if (i == ARRAY_SIZE(protos))
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

static int pool4_remove(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "pool4 remove";
	struct pool4_list list = { 0 };
	char buf[PREFIX_STRLEN];
	unsigned int want, found = 0;
	struct pool4_arg a;
	struct tern_nl *nl;
	int status;
	size_t i;

	if (table_help(argc, argv, help_remove))
		return TERN_EXIT_OK;
	status = pool4_args(cmd, argc, argv, opts, &a);
	if (status)
		return status;
	want = a.protos ? a.protos : (1U << ARRAY_SIZE(protos)) - 1;
	/* All or nothing: the protocols that have the entry, first. */
	status = tern_nl_request(TERN_CMD_POOL4_GET, true, opts->instance,
				 NULL, NULL, list_reply, &list);
	if (status)
		goto out;
	prefix_str(&a.prefix, buf);
	for (i = 0; i < list.n; i++)
		if (!strcmp(list.v[i].prefix, buf) &&
		    list.v[i].mark == a.mark &&
		    (!a.ports || (list.v[i].pmin == a.pmin &&
				  list.v[i].pmax == a.pmax)))
			found |= 1U << list.v[i].i;
	found &= want;
	for (i = 0; i < ARRAY_SIZE(protos); i++) {
		/* Named protocols must all have it; else one at least. */
		if ((want & ~found & (1U << i)) && (a.protos || !found)) {
			status = tern_fail("no pool4 entry has prefix %s%s for %s (mark %u)",
					   buf, a.ports ? " and these ports" : "",
					   a.protos ? protos[i].name : "any protocol",
					   a.mark);
			goto out;
		}
	}
	status = tern_nl_open(&nl);
	if (status)
		goto out;
	for (i = 0; !status && i < ARRAY_SIZE(protos); i++)
		if (found & (1U << i))
			status = pool4_send(nl, TERN_CMD_POOL4_DEL,
					    opts->instance, &a, i, a.ports);
	tern_nl_close(nl);
out:
	free(list.v);
	return status;
}

static int pool4_list(int argc, char **argv, struct tern_opts *opts)
{
	struct pool4_list list = { 0 };
	char ports[16];
	bool json = false, first;
	int status, n, w = strlen("PREFIX");
	size_t i;

	if (table_help(argc, argv, help_list))
		return TERN_EXIT_OK;
	status = table_args("pool4 list", argc, argv, opts, NULL, 0, &n, &json);
	if (status)
		return status;
	status = tern_nl_request(TERN_CMD_POOL4_GET, true, opts->instance,
				 NULL, NULL, list_reply, &list);
	if (!status && json) {
		putchar('[');
		for (i = 0; i < list.n; i++) {
			first = true;
			printf("%s{", i ? "," : "");
			json_key(&first, "protocol");
			json_string(protos[list.v[i].i].name);
			json_key(&first, "prefix");
			json_string(list.v[i].prefix);
			json_key(&first, "port_min");
			printf("%u", list.v[i].pmin);
			json_key(&first, "port_max");
			printf("%u", list.v[i].pmax);
			json_key(&first, "mark");
			printf("%u", list.v[i].mark);
			putchar('}');
		}
		puts("]");
	} else if (!status) {
		for (i = 0; i < list.n; i++)
			if ((int)strlen(list.v[i].prefix) > w)
				w = strlen(list.v[i].prefix);
		printf("%-5s %-*s %-11s %s\n", "PROTO", w, "PREFIX", "PORTS",
		       "MARK");
		for (i = 0; i < list.n; i++) {
			snprintf(ports, sizeof(ports), "%u-%u",
				 list.v[i].pmin, list.v[i].pmax);
			printf("%-5s %-*s %-11s %u\n",
			       protos[list.v[i].i].name, w, list.v[i].prefix,
			       ports, list.v[i].mark);
		}
	}
	free(list.v);
	return status;
}

static int pool4_flush(int argc, char **argv, struct tern_opts *opts)
{
	return table_flush("pool4 flush", help_flush, TERN_CMD_POOL4_FLUSH,
			   argc, argv, opts);
}

int cmd_pool4(int argc, char **argv, struct tern_opts *opts)
{
	static const struct table_cmd cmds[] = {
		{ "add", pool4_add }, { "remove", pool4_remove },
		{ "list", pool4_list }, { "flush", pool4_flush },
		{ NULL, NULL },
	};

	return table_dispatch("pool4", help_pool4, cmds, argc, argv, opts);
}
