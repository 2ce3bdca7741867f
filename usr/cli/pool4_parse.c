// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the arguments of tern pool4 add|remove, and the request they
 * make.
 */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <netlink/attr.h>

#include "args.h"
#include "output.h"
#include "pool4.h"

#define PORTS_FORMS "MIN-MAX or PORT, 0..65535"

const struct pool4_proto pool4_protos[POOL4_PROTOS] = {
	{ "tcp", IPPROTO_TCP, 1024 },
	{ "udp", IPPROTO_UDP, 1024 },
	{ "icmp", IPPROTO_ICMP, 0 },
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

int pool4_args(const char *cmd, int argc, char **argv,
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
		for (p = 0; p < ARRAY_SIZE(pool4_protos); p++)
			if (!strncmp(arg, "--", 2) &&
			    !strcmp(arg + 2, pool4_protos[p].name))
				break;
		if (p < ARRAY_SIZE(pool4_protos)) {
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

int pool4_put(struct nl_msg *msg, const void *arg)
{
	const struct pool4_req *r = arg;
	const struct pool4_arg *a = r->a;
	struct nlattr *nest;

	nest = nla_nest_start(msg, TERN_A_POOL4);
	if (!nest || prefix_put(msg, TERN_POOL4_PREFIX, &a->prefix) < 0 ||
	    nla_put_u8(msg, TERN_POOL4_PROTO, pool4_protos[r->i].proto) < 0 ||
	    nla_put_u32(msg, TERN_POOL4_MARK, a->mark) < 0)
		return -1;
	if (r->ports &&
	    (nla_put_u16(msg, TERN_POOL4_PORT_MIN,
			 a->ports ? a->pmin : pool4_protos[r->i].pmin) < 0 ||
	     nla_put_u16(msg, TERN_POOL4_PORT_MAX,
			 a->ports ? a->pmax : 65535) < 0))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}
