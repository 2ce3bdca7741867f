// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern address query ADDR: what the translator makes of an
 * address, and why.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "args.h"
#include "output.h"
#include "prefix.h"
#include "tables.h"

static const char help_address[] =
	"Usage: tern [-i NAME] address query ADDR [--json]\n"
	"\n"
	"Show what an instance translates IPv6 or IPv4 address ADDR into, and\n"
	"how (\"via eamt\" and the entry, or \"via pool6\" and the prefix), or\n"
	"why it does not (\"not translated: REASON\"):\n"
	"\n"
	"  no mapping        neither the EAMT nor pool6 covers it\n"
	"  in denylist4      pool6 would map it but denylist4 forbids it\n"
	"  special IPv4 address (RFC 6890)\n"
	"                    an IPv4 address never translated (0/8, 127/8,\n"
	"                    169.254/16, multicast, 240/4)\n"
	"  non-global IPv4 address with the Well-Known Prefix (strict-wkp)\n"
	"\n"
	"An address of this host (in the instance's namespace) is said so on a\n"
	"second line: packets addressed to it are delivered here, never\n"
	"translated.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print one JSON object: address, translated\n"
	"                       (null if not), via (eamt, pool6 or none),\n"
	"                       reason (null if translated), eam ({prefix6,\n"
	"                       prefix4} or null), pool6 (or null) and local\n"
	"                       (true for an address of this host)\n"
	"  -h, --help           show this help\n";

static const char *const reasons[][2] = {
	[TERN_WHY_NONE] = { "none", "" },
	[TERN_WHY_NO_MAPPING] = { "no-mapping", "no mapping" },
	[TERN_WHY_DENYLIST4] = { "denylist4", "in denylist4" },
	[TERN_WHY_SPECIAL4] = { "special4",
				"special IPv4 address (RFC 6890)" },
	[TERN_WHY_WKP_NONGLOBAL] = { "wkp-nonglobal",
				     "non-global IPv4 address with the Well-Known Prefix (strict-wkp)" },
};

struct query {
	struct tern_prefix addr;	/* the address asked about */
	bool json;
};

static int put_addr(struct nl_msg *msg, const void *arg)
{
	const struct tern_prefix *a = arg;

	return nla_put(msg, TERN_A_ADDR, a->family == AF_INET6 ? 16 : 4,
		       &a->addr) < 0 ? -1 : 0;
}

static int query_reply(struct nlattr **tb, void *arg)
{
	static struct nla_policy policy[TERN_Q_MAX + 1] = {
		[TERN_Q_ADDR] = { .type = NLA_UNSPEC },
		[TERN_Q_VIA] = { .type = NLA_U8 },
		[TERN_Q_WHY] = { .type = NLA_U8 },
		[TERN_Q_EAM] = { .type = NLA_NESTED },
		[TERN_Q_POOL6] = { .type = NLA_NESTED },
		[TERN_Q_LOCAL] = { .type = NLA_FLAG },
	};
	static struct nla_policy eam_policy[TERN_EAM_MAX + 1] = {
		[TERN_EAM_PREFIX6] = { .type = NLA_NESTED },
		[TERN_EAM_PREFIX4] = { .type = NLA_NESTED },
	};
	char in[INET6_ADDRSTRLEN], out[INET6_ADDRSTRLEN] = "";
	char p6[PREFIX_STRLEN] = "", p4[PREFIX_STRLEN] = "";
	char pool[PREFIX_STRLEN] = "";
	const struct query *q = arg;
	struct nlattr *a[TERN_Q_MAX + 1], *e[TERN_EAM_MAX + 1];
	struct tern_prefix p;
	unsigned int via, why = TERN_WHY_NONE;
	struct json_object *o, *eam;
	bool local;
	int ofam = q->addr.family == AF_INET6 ? AF_INET : AF_INET6;

	if (!tb[TERN_A_QUERY] ||
	    nla_parse_nested(a, TERN_Q_MAX, tb[TERN_A_QUERY], policy) < 0 ||
	    !a[TERN_Q_VIA])
		return tern_fail("malformed reply from the kernel: bad query answer");
	via = nla_get_u8(a[TERN_Q_VIA]);
	local = a[TERN_Q_LOCAL];
	if (a[TERN_Q_WHY])
		why = nla_get_u8(a[TERN_Q_WHY]);
	if (why >= ARRAY_SIZE(reasons) || via > TERN_VIA_POOL6 ||
	    (via != TERN_VIA_NONE &&
	     (!a[TERN_Q_ADDR] ||
	      nla_len(a[TERN_Q_ADDR]) != (ofam == AF_INET6 ? 16 : 4))))
		return tern_fail("malformed reply from the kernel: bad query answer");
	if (via != TERN_VIA_NONE)
		inet_ntop(ofam, nla_data(a[TERN_Q_ADDR]), out, sizeof(out));
	if (a[TERN_Q_EAM]) {
		if (nla_parse_nested(e, TERN_EAM_MAX, a[TERN_Q_EAM],
				     eam_policy) < 0 ||
		    !e[TERN_EAM_PREFIX6] || !e[TERN_EAM_PREFIX4] ||
		    prefix_get(e[TERN_EAM_PREFIX6], &p) < 0)
			return tern_fail("malformed reply from the kernel: bad EAMT entry");
		prefix_str(&p, p6);
		if (prefix_get(e[TERN_EAM_PREFIX4], &p) < 0)
			return tern_fail("malformed reply from the kernel: bad EAMT entry");
		prefix_str(&p, p4);
	}
	if (a[TERN_Q_POOL6]) {
		if (prefix_get(a[TERN_Q_POOL6], &p) < 0)
			return tern_fail("malformed reply from the kernel: bad pool6");
		prefix_str(&p, pool);
	}
	inet_ntop(q->addr.family, &q->addr.addr, in, sizeof(in));

	if (q->json) {
		o = json_obj();
		json_add_str(o, "address", in);
		json_add_str(o, "translated", via != TERN_VIA_NONE ? out : NULL);
		json_add_str(o, "via", via == TERN_VIA_EAMT ? "eamt" :
				       via == TERN_VIA_POOL6 ? "pool6" : "none");
		json_add_str(o, "reason",
			     via == TERN_VIA_NONE ? reasons[why][0] : NULL);
		eam = NULL;
		if (p6[0]) {
			eam = json_obj();
			if (!eam) {	/* reported by json_emit() */
				json_object_put(o);
				o = NULL;
			}
			json_add_str(eam, "prefix6", p6);
			json_add_str(eam, "prefix4", p4);
		}
		json_add(o, "eam", eam);
		json_add_str(o, "pool6", pool[0] ? pool : NULL);
		json_add_bool(o, "local", local);
		return json_emit(o);
	} else if (via == TERN_VIA_EAMT) {
		printf("%s -> %s via eamt %s %s\n", in, out, p6, p4);
	} else if (via == TERN_VIA_POOL6) {
		printf("%s -> %s via pool6 %s\n", in, out, pool);
	} else {
		printf("%s not translated: %s\n", in, reasons[why][1]);
	}
	if (local && !q->json)
		printf("%s is an address of this host: packets to it are delivered here, not translated\n",
		       in);
	return TERN_EXIT_OK;
}

static int address_query(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "address query";
	struct query q = { .json = opts->json };
	const char *pos[1];
	int n, r;

	if (table_help(argc, argv, help_address))
		return TERN_EXIT_OK;
	r = table_args(cmd, argc, argv, opts, pos, 1, &n, &q.json);
	if (r)
		return r;
	if (n < 1)
		return args_missing(cmd, "an ADDR");
	/* An address is a prefix without a length. */
	if (strchr(pos[0], '/') || prefix_parse_any(pos[0], true, &q.addr) < 0)
		return tern_usage("invalid address '%s' (expected an IPv6 or IPv4 address)",
				  pos[0]);
	return tern_nl_request(TERN_CMD_ADDR_QUERY, false, opts->instance,
			       put_addr, &q.addr, query_reply, &q);
}

int cmd_address(int argc, char **argv, struct tern_opts *opts)
{
	static const struct table_cmd cmds[] = {
		{ "query", address_query }, { NULL, NULL },
	};

	return table_dispatch("address", help_address, cmds, argc, argv,
			      opts);
}
