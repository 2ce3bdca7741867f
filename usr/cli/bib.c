// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern bib add|remove|list (the Binding Information Base of a
 * NAT64 instance, RFC 6146 3.1).
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "args.h"
#include "nat64.h"
#include "output.h"
#include "tables.h"

static const char help_bib[] =
	"Usage: tern [-i NAME] bib COMMAND [ARGS]\n"
	"\n"
	"Manage the BIB (Binding Information Base, RFC 6146) of a NAT64\n"
	"instance: which IPv4 transport address stands for an IPv6 one, per\n"
	"protocol. Entries are made by traffic (dynamic) or added here (static:\n"
	"they let IPv4 hosts open connections to an IPv6 host).\n"
	"\n"
	"Commands:\n"
	"  add ADDR6#PORT ADDR4#PORT --tcp|--udp|--icmp\n"
	"                            add a static entry\n"
	"  remove ADDR6#PORT|ADDR4#PORT --tcp|--udp|--icmp\n"
	"                            remove the entry (and its sessions)\n"
	"  list [--tcp|--udp|--icmp] [--ipv4 ADDR4[:PORT]] [--ipv6 PREFIX6]\n"
	"       [--subscriber ADDR6] [--json]\n"
	"                            show the entries\n"
	"\n"
	"A transport address is ADDR6#PORT, [ADDR6]:PORT, ADDR4#PORT or\n"
	"ADDR4:PORT; for ICMP the port is the query identifier.\n"
	"Run 'tern bib COMMAND --help' for details.\n";

static const char help_add[] =
	"Usage: tern [-i NAME] bib add ADDR6#PORT ADDR4#PORT --tcp|--udp|--icmp\n"
	"\n"
	"Bind IPv6 transport address ADDR6#PORT to IPv4 transport address\n"
	"ADDR4#PORT for the protocol, e.g. 'tern bib add 2001:db8::2#80\n"
	"192.0.2.1#80 --tcp'. ADDR4#PORT must be in the instance's pool4 for\n"
	"that protocol; neither address may be in another entry.\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  the protocol (one is required)\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

static const char help_remove[] =
	"Usage: tern [-i NAME] bib remove ADDR6#PORT|ADDR4#PORT --tcp|--udp|--icmp\n"
	"\n"
	"Remove the entry of the protocol with this IPv6 or IPv4 transport\n"
	"address, static or dynamic, and its sessions; with both, they must be\n"
	"the same entry's.\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  the protocol (one is required)\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

static const char help_list[] =
	"Usage: tern [-i NAME] bib list [--tcp|--udp|--icmp] [--ipv4 ADDR4[:PORT]]\n"
	"       [--ipv6 PREFIX6] [--subscriber ADDR6] [--json]\n"
	"\n"
	"Show the entries (by default of every protocol: TCP, UDP, then ICMP),\n"
	"one per line under a header, as the kernel sends them: PROTO IPV6 IPV4\n"
	"static|dynamic and the number of its sessions. The filters are applied\n"
	"by the kernel; given together, an entry must match them all.\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  only the entries of this protocol\n"
	"  --ipv4 ADDR4[:PORT]  only those whose IPv4 transport address is\n"
	"                       ADDR4 (and PORT)\n"
	"  --ipv6 PREFIX6       only those whose IPv6 address is in PREFIX6 (an\n"
	"                       address alone: /128)\n"
	"  --subscriber ADDR6   only those of the subscriber of ADDR6 (the\n"
	"                       prefix max-ports-per-subscriber counts)\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print a JSON array of objects with the keys\n"
	"                       protocol, address6, port6, address4, port4,\n"
	"                       static (true/false) and sessions\n"
	"  -h, --help           show this help\n";

/* An entry of a request: either side may be absent (family 0). */
struct bib_arg {
	uint8_t proto;
	struct taddr t6;
	struct taddr t4;
};

static int put_bib(struct nl_msg *msg, const void *arg)
{
	const struct bib_arg *b = arg;
	struct nlattr *nest;

	nest = nla_nest_start(msg, TERN_A_BIB | NLA_F_NESTED);
	if (!nest || nla_put_u8(msg, TERN_BIB_PROTO, b->proto) < 0)
		return -1;
	if (b->t6.family &&
	    (nla_put(msg, TERN_BIB_ADDR6, 16, &b->t6.addr.v6) < 0 ||
	     nla_put_u16(msg, TERN_BIB_PORT6, b->t6.port) < 0))
		return -1;
	if (b->t4.family &&
	    (nla_put(msg, TERN_BIB_ADDR4, 4, &b->t4.addr.v4) < 0 ||
	     nla_put_u16(msg, TERN_BIB_PORT4, b->t4.port) < 0))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/* Sorts 1 or 2 transport addresses of different families into @b. */
static int bib_taddrs(const char *cmd, const char **pos, int n,
		      struct bib_arg *b)
{
	struct taddr t;
	int i;

	for (i = 0; i < n; i++) {
		if (taddr_parse(pos[i], &t) < 0)
			return tern_usage("invalid transport address '%s' (expected %s)",
					  pos[i], TADDR_FORMS);
		if ((t.family == AF_INET6 ? b->t6 : b->t4).family)
			return tern_usage("'%s' needs one IPv6 and one IPv4 transport address, not two %s ones",
					  cmd, t.family == AF_INET6 ? "IPv6" : "IPv4");
		if (t.family == AF_INET6)
			b->t6 = t;
		else
			b->t4 = t;
	}
	return TERN_EXIT_OK;
}

/* add and remove: 2 or 1 transport addresses and a protocol. */
static int change(const char *cmd, const char *help, uint8_t nlcmd, int min,
		  const char *what, int argc, char **argv,
		  struct tern_opts *opts)
{
	struct bib_arg b = { 0 };
	const char *pos[2];
	int n, r;

	if (table_help(argc, argv, help))
		return TERN_EXIT_OK;
	r = nat64_args(cmd, argc, argv, opts, pos, 2, &n, NULL, &b.proto);
	if (r)
		return r;
	if (n < min)
		return args_missing(cmd, what);
	r = bib_taddrs(cmd, pos, n, &b);
	if (r)
		return r;
	if (!b.proto)
		return args_missing(cmd, "--tcp, --udp or --icmp");
	return tern_nl_request(nlcmd, false, opts->instance, put_bib, &b,
			       NULL, NULL);
}

static int bib_add(int argc, char **argv, struct tern_opts *opts)
{
	return change("bib add", help_add, TERN_CMD_BIB_ADD, 2,
		      "ADDR6#PORT and ADDR4#PORT", argc, argv, opts);
}

static int bib_remove(int argc, char **argv, struct tern_opts *opts)
{
	return change("bib remove", help_remove, TERN_CMD_BIB_DEL, 1,
		      "ADDR6#PORT or ADDR4#PORT", argc, argv, opts);
}

/* The entries are printed as they come: a long list is never held. */
struct bib_list {
	bool json;
	size_t n;
	struct json_stream js;
};

/* The IPv6 column's width: most entries fit, longer ones push the rest. */
#define BIB_W6 24

static int list_reply(struct nlattr **tb, void *arg)
{
	char a6[TADDR_STRLEN], a4[TADDR_STRLEN];
	struct bib_list *list = arg;
	struct json_object *o;
	struct nat64_bib b;

	if (nat64_bib_parse(tb[TERN_A_BIB], &b) < 0)
		return tern_fail("malformed reply from the kernel: bad BIB entry");
	if (!list->json) {
		if (!list->n++)
			printf("%-5s %-*s %-21s %-7s %s\n", "PROTO", BIB_W6,
			       "IPV6", "IPV4", "KIND", "SESSIONS");
		printf("%-5s %-*s %-21s %-7s %u session%s\n",
		       proto_name(b.proto), BIB_W6, taddr_str(&b.t6, a6),
		       taddr_str(&b.t4, a4), b.is_static ? "static" : "dynamic",
		       b.sessions, b.sessions == 1 ? "" : "s");
		return TERN_EXIT_OK;
	}
	o = json_obj();
	nat64_bib_json(o, &b, true);
	return json_stream_add(&list->js, o);
}

static int bib_list(int argc, char **argv, struct tern_opts *opts)
{
	struct bib_list list = { 0 };
	struct nat64_filter f;
	int status, n;

	if (table_help(argc, argv, help_list))
		return TERN_EXIT_OK;
	list.json = opts->json;
	status = nat64_filter_args("bib list", &argc, argv, &f);
	if (status)
		return status;
	status = nat64_args("bib list", argc, argv, opts, NULL, 0, &n,
			    &list.json, &f.proto);
	if (status)
		return status;
	status = tern_nl_request(TERN_CMD_BIB_GET, true, opts->instance,
				 nat64_put_filter, &f, list_reply, &list);
	/* Cut short after some elements: the array is closed all the same. */
	if (list.json && (!status || list.js.n))
		json_stream_end(&list.js);
	return status;
}

int cmd_bib(int argc, char **argv, struct tern_opts *opts)
{
	static const struct table_cmd cmds[] = {
		{ "add", bib_add }, { "remove", bib_remove },
		{ "list", bib_list }, { NULL, NULL },
	};

	return table_dispatch("bib", help_bib, cmds, argc, argv, opts);
}
