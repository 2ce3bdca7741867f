// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: the filters of bib list and session list (--ipv4, --ipv6,
 * --subscriber), sent to the kernel as TERN_A_FILTER: the kernel walks the
 * table and sends only what matches.
 */
#include <arpa/inet.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "args.h"
#include "nat64.h"
#include "output.h"
#include "tern_genl.h"

/* --ipv4 ADDR4[:PORT|#PORT] */
static int parse4(const char *s, struct nat64_filter *f)
{
	struct taddr t;

	if (strchr(s, ':') || strchr(s, '#')) {
		if (taddr_parse(s, &t) < 0 || t.family != AF_INET)
			return -1;
		f->addr4 = t.addr.v4;
		f->port4 = t.port;
		f->has_port4 = true;
	} else if (inet_pton(AF_INET, s, &f->addr4) != 1) {
		return -1;
	}
	f->has4 = true;
	return 0;
}

/* --ipv6 PREFIX6 (an address alone: /128) */
static int parse6(const char *s, struct nat64_filter *f)
{
	if (!strchr(s, ':') || prefix_parse_any(s, true, &f->prefix6) < 0)
		return -1;
	f->has6 = true;
	return 0;
}

static int parse_sub(const char *s, struct nat64_filter *f)
{
	if (inet_pton(AF_INET6, s, &f->sub) != 1)
		return -1;
	f->has_sub = true;
	return 0;
}

int nat64_filter_args(const char *cmd, int *argc, char **argv,
		      struct nat64_filter *f)
{
	static const struct {
		const char *opt, *meta;
		int (*parse)(const char *s, struct nat64_filter *f);
		size_t given;	/* offset of its has_ flag */
	} opts[] = {
		{ "--ipv4", "ADDR4[:PORT]", parse4,
		  offsetof(struct nat64_filter, has4) },
		{ "--ipv6", "PREFIX6", parse6,
		  offsetof(struct nat64_filter, has6) },
		{ "--subscriber", "ADDR6", parse_sub,
		  offsetof(struct nat64_filter, has_sub) },
	};
	const char *val;
	size_t o;
	int i, n = 0, r;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[n++] = argv[i++];
			break;
		}
		for (o = 0, r = 0; o < ARRAY_SIZE(opts) && !r; o++)
			r = args_value(*argc, argv, &i, NULL, opts[o].opt,
				       opts[o].meta, &val);
		if (r < 0)
			return TERN_EXIT_USAGE;
		if (!r) {
			argv[n++] = argv[i];
			continue;
		}
		o--;
		if (*(bool *)((char *)f + opts[o].given))
			return tern_usage("'%s': %s given more than once", cmd,
					  opts[o].opt);
		if (opts[o].parse(val, f) < 0)
			return tern_usage("'%s': invalid %s '%s' (expected %s)",
					  cmd, opts[o].opt, val, opts[o].meta);
	}
	*argc = n;
	return TERN_EXIT_OK;
}

int nat64_put_filter(struct nl_msg *msg, const void *arg)
{
	const struct nat64_filter *f = arg;
	struct nlattr *nest;

	if (f->proto && nla_put_u8(msg, TERN_A_PROTO, f->proto) < 0)
		return -1;
	if (!f->has4 && !f->has6 && !f->has_sub && !f->only_static)
		return 0;
	nest = nla_nest_start(msg, TERN_A_FILTER | NLA_F_NESTED);
	if (!nest)
		return -1;
	if (f->has4 && nla_put(msg, TERN_FILTER_ADDR4, 4, &f->addr4) < 0)
		return -1;
	if (f->has_port4 && nla_put_u16(msg, TERN_FILTER_PORT4, f->port4) < 0)
		return -1;
	if (f->has6 && prefix_put(msg, TERN_FILTER_PREFIX6, &f->prefix6) < 0)
		return -1;
	if (f->has_sub && nla_put(msg, TERN_FILTER_SUBSCRIBER, 16, &f->sub) < 0)
		return -1;
	if (f->only_static && nla_put_flag(msg, TERN_FILTER_STATIC) < 0)
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}
