// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern session list|flush (the sessions of a NAT64 instance,
 * RFC 6146 3.1).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "args.h"
#include "nat64.h"
#include "output.h"
#include "tables.h"

static const char help_session[] =
	"Usage: tern [-i NAME] session COMMAND [ARGS]\n"
	"\n"
	"Show or flush the sessions of a NAT64 instance (RFC 6146): each is a\n"
	"BIB entry (an IPv6 transport address and the IPv4 one standing for\n"
	"it) and the IPv4 peer it talks to.\n"
	"\n"
	"Commands:\n"
	"  list [--tcp|--udp|--icmp] [--ipv4 ADDR4[:PORT]] [--ipv6 PREFIX6]\n"
	"       [--subscriber ADDR6] [--json]\n"
	"                                       show the sessions\n"
	"  flush [--tcp|--udp|--icmp]           remove the sessions and the\n"
	"                                       dynamic BIB entries\n"
	"\n"
	"Run 'tern session COMMAND --help' for details.\n";

static const char help_list[] =
	"Usage: tern [-i NAME] session list [--tcp|--udp|--icmp] [--ipv4 ADDR4[:PORT]]\n"
	"       [--ipv6 PREFIX6] [--subscriber ADDR6] [--json]\n"
	"\n"
	"Show the sessions (by default of every protocol: TCP, UDP, then ICMP),\n"
	"one per line under a header, as the kernel sends them:\n"
	"\n"
	"  PROTO IPV6 IPV4 REMOTE4 STATE EXPIRES\n"
	"\n"
	"IPV6 is the IPv6 host's transport address (ADDR6#PORT), IPV4 the IPv4\n"
	"one standing for it, REMOTE4 the IPv4 peer (ICMP: identifiers, the\n"
	"peer's is 0), STATE the TCP state (RFC 6146 3.5.2; - but for TCP) and\n"
	"EXPIRES the seconds left. The filters are applied by the kernel; given\n"
	"together, a session must match them all.\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  only the sessions of this protocol\n"
	"  --ipv4 ADDR4[:PORT]  only those whose IPv4 transport address (from\n"
	"                       pool4, not the peer) is ADDR4 (and PORT)\n"
	"  --ipv6 PREFIX6       only those of an IPv6 host in PREFIX6 (an\n"
	"                       address alone: /128)\n"
	"  --subscriber ADDR6   only those of the subscriber of ADDR6 (the\n"
	"                       prefix max-sessions-per-subscriber counts)\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print a JSON array of objects with the keys\n"
	"                       protocol, address6, port6, address4, port4,\n"
	"                       remote4, remote-port4, state (null but for\n"
	"                       TCP) and expires-ms\n"
	"  -h, --help           show this help\n";

static const char help_flush[] =
	"Usage: tern [-i NAME] session flush [--tcp|--udp|--icmp]\n"
	"\n"
	"Remove every session (by default of every protocol) and the dynamic\n"
	"BIB entries; static BIB entries stay.\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  only the sessions of this protocol\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

/* The sessions are printed as they come: a long list is never held. */
struct session_list {
	bool json;
	size_t n;
	struct json_stream js;
};

/* The IPv6 column's width: most entries fit, longer ones push the rest. */
#define SESS_W6 24

static void print_text(const struct nat64_session *s, bool header)
{
	char a6[TADDR_STRLEN], a4[TADDR_STRLEN], r4[TADDR_STRLEN];

	if (header)
		printf("%-5s %-*s %-21s %-21s %-17s %s\n", "PROTO", SESS_W6,
		       "IPV6", "IPV4", "REMOTE4", "STATE", "EXPIRES");
	printf("%-5s %-*s %-21s %-21s %-17s %" PRIu32 "s\n",
	       proto_name(s->proto), SESS_W6, taddr_str(&s->t6, a6),
	       taddr_str(&s->t4, a4), taddr_str(&s->remote, r4),
	       s->state ? s->state : "-", s->expires_ms / 1000);
}

static int list_reply(struct nlattr **tb, void *arg)
{
	struct session_list *list = arg;
	struct json_object *o;
	struct nat64_session e;

	if (nat64_session_parse(tb[TERN_A_SESSION], &e) < 0 || !e.has_expires)
		return tern_fail("malformed reply from the kernel: bad session");
	if (!list->json) {
		print_text(&e, !list->n++);
		return TERN_EXIT_OK;
	}
	o = json_obj();
	nat64_session_json(o, &e);
	return json_stream_add(&list->js, o);
}

static int session_list(int argc, char **argv, struct tern_opts *opts)
{
	struct session_list list = { 0 };
	struct nat64_filter f;
	int status, n;

	if (table_help(argc, argv, help_list))
		return TERN_EXIT_OK;
	list.json = opts->json;
	status = nat64_filter_args("session list", &argc, argv, &f);
	if (status)
		return status;
	status = nat64_args("session list", argc, argv, opts, NULL, 0, &n,
			    &list.json, &f.proto);
	if (status)
		return status;
	status = tern_nl_request(TERN_CMD_SESSION_GET, true, opts->instance,
				 nat64_put_filter, &f, list_reply, &list);
	/* Cut short after some elements: the array is closed all the same. */
	if (list.json && (!status || list.js.n))
		json_stream_end(&list.js);
	return status;
}

static int session_flush(int argc, char **argv, struct tern_opts *opts)
{
	uint8_t proto;
	int status, n;

	if (table_help(argc, argv, help_flush))
		return TERN_EXIT_OK;
	status = nat64_args("session flush", argc, argv, opts, NULL, 0, &n,
			    NULL, &proto);
	if (status)
		return status;
	return tern_nl_request(TERN_CMD_SESSION_FLUSH, false, opts->instance,
			       nat64_put_proto, &proto, NULL, NULL);
}

int cmd_session(int argc, char **argv, struct tern_opts *opts)
{
	static const struct table_cmd cmds[] = {
		{ "list", session_list }, { "flush", session_flush },
		{ NULL, NULL },
	};

	return table_dispatch("session", help_session, cmds, argc, argv, opts);
}
