// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern session list|flush (the sessions of a NAT64 instance,
 * RFC 6146 3.1).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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
	"  list [--tcp|--udp|--icmp] [--json]   show the sessions\n"
	"  flush [--tcp|--udp|--icmp]           remove the sessions and the\n"
	"                                       dynamic BIB entries\n"
	"\n"
	"Run 'tern session COMMAND --help' for details.\n";

static const char help_list[] =
	"Usage: tern [-i NAME] session list [--tcp|--udp|--icmp] [--json]\n"
	"\n"
	"Show the sessions (by default of every protocol: TCP, UDP, then ICMP),\n"
	"one per line:\n"
	"\n"
	"  PROTOCOL ADDR6#PORT ADDR4#PORT -> REMOTE4#PORT [STATE] EXPIRES\n"
	"\n"
	"ADDR6#PORT is the IPv6 host, ADDR4#PORT its IPv4 transport address,\n"
	"REMOTE4#PORT the IPv4 peer (ICMP: identifiers, the peer's is 0), STATE\n"
	"the TCP state (RFC 6146 3.5.2) and EXPIRES the seconds left.\n"
	"\n"
	"Options:\n"
	"  --tcp, --udp, --icmp  only the sessions of this protocol\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print a JSON array of objects with the keys\n"
	"                       protocol, address6, port6, address4, port4,\n"
	"                       remote4, remote_port4, state (null but for\n"
	"                       TCP) and expires_ms\n"
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

struct session_list {
	struct nat64_session *v;
	size_t n, cap;
};

static int list_reply(struct nlattr **tb, void *arg)
{
	struct session_list *list = arg;
	struct nat64_session e;
	int status;

	if (nat64_session_parse(tb[TERN_A_SESSION], &e) < 0 || !e.has_expires)
		return tern_fail("malformed reply from the kernel: bad session");
	status = table_room((void **)&list->v, list->n, &list->cap,
			    sizeof(*list->v));
	if (status)
		return status;
	list->v[list->n++] = e;
	return TERN_EXIT_OK;
}

static void print_json(const struct session_list *list)
{
	char a[INET6_ADDRSTRLEN];
	bool first;
	size_t i;

	putchar('[');
	for (i = 0; i < list->n; i++) {
		first = true;
		printf("%s{", i ? "," : "");
		json_key(&first, "protocol");
		json_string(proto_name(list->v[i].proto));
		json_key(&first, "address6");
		json_string(inet_ntop(AF_INET6, &list->v[i].t6.addr, a,
				      sizeof(a)));
		json_key(&first, "port6");
		printf("%u", list->v[i].t6.port);
		json_key(&first, "address4");
		json_string(inet_ntop(AF_INET, &list->v[i].t4.addr, a,
				      sizeof(a)));
		json_key(&first, "port4");
		printf("%u", list->v[i].t4.port);
		json_key(&first, "remote4");
		json_string(inet_ntop(AF_INET, &list->v[i].remote.addr, a,
				      sizeof(a)));
		json_key(&first, "remote_port4");
		printf("%u", list->v[i].remote.port);
		json_key(&first, "state");
		if (list->v[i].state)
			json_string(list->v[i].state);
		else
			fputs("null", stdout);
		json_key(&first, "expires_ms");
		printf("%" PRIu32, list->v[i].expires_ms);
		putchar('}');
	}
	puts("]");
}

static void print_text(const struct session_list *list)
{
	char a6[TADDR_STRLEN], a4[TADDR_STRLEN], r4[TADDR_STRLEN];
	size_t i;

	for (i = 0; i < list->n; i++) {
		printf("%s %s %s -> %s ", proto_name(list->v[i].proto),
		       taddr_str(&list->v[i].t6, a6),
		       taddr_str(&list->v[i].t4, a4),
		       taddr_str(&list->v[i].remote, r4));
		if (list->v[i].state)
			printf("%s ", list->v[i].state);
		printf("%" PRIu32 "s\n", list->v[i].expires_ms / 1000);
	}
}

static int session_list(int argc, char **argv, struct tern_opts *opts)
{
	struct session_list list = { 0 };
	bool json = false;
	uint8_t proto;
	int status, n;

	if (table_help(argc, argv, help_list))
		return TERN_EXIT_OK;
	status = nat64_args("session list", argc, argv, opts, NULL, 0, &n,
			    &json, &proto);
	if (status)
		return status;
	status = tern_nl_request(TERN_CMD_SESSION_GET, true, opts->instance,
				 nat64_put_proto, &proto, list_reply, &list);
	if (!status && json)
		print_json(&list);
	else if (!status)
		print_text(&list);
	free(list.v);
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
