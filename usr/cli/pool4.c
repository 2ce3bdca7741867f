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

#include "output.h"
#include "pool4.h"
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
	"                       \"udp\" or \"icmp\"), prefix, port-min, port-max, mark\n"
	"  -h, --help           show this help\n";

static const char help_flush[] = TABLE_HELP_FLUSH("pool4", "entry");

/* Sends @cmd about @a for protocol @i on @nl. Returns the exit status. */
static int pool4_send(struct tern_nl *nl, uint8_t cmd, const char *instance,
		      const struct pool4_arg *a, size_t i, bool ports)
{
	struct pool4_req r = { .a = a, .i = i, .ports = ports };
	struct nl_msg *msg;

	msg = tern_nl_msg(nl, cmd, false);
	if (!msg)
		return TERN_EXIT_FAIL;
	if (tern_nl_put_instance(msg, instance) < 0 || pool4_put(msg, &r) < 0) {
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
		a.protos = (1U << ARRAY_SIZE(pool4_protos)) - 1;
	status = tern_nl_open(&nl);
	if (status)
		return status;
	for (i = 0; i < ARRAY_SIZE(pool4_protos); i++) {
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
				  prefix_str(&a.prefix, buf), pool4_protos[j].name);
	}
	tern_nl_close(nl);
	return status;
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
	want = a.protos ? a.protos : (1U << ARRAY_SIZE(pool4_protos)) - 1;
	/* All or nothing: the protocols that have the entry, first. */
	status = tern_nl_request(TERN_CMD_POOL4_GET, true, opts->instance,
				 NULL, NULL, pool4_list_reply, &list);
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
	for (i = 0; i < ARRAY_SIZE(pool4_protos); i++) {
		/* Named protocols must all have it; else one at least. */
		if ((want & ~found & (1U << i)) && (a.protos || !found)) {
			status = tern_fail("no pool4 entry has prefix %s%s for %s (mark %u)",
					   buf, a.ports ? " and these ports" : "",
					   a.protos ? pool4_protos[i].name : "any protocol",
					   a.mark);
			goto out;
		}
	}
	status = tern_nl_open(&nl);
	if (status)
		goto out;
	for (i = 0; !status && i < ARRAY_SIZE(pool4_protos); i++)
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
	bool json = opts->json;
	int status;

	status = table_list("pool4 list", help_list, TERN_CMD_POOL4_GET, argc,
			    argv, opts, pool4_list_reply, &list, &json);
	if (!status)
		status = pool4_print(&list, json);
	free(list.v);
	return status == TABLE_HELPED ? TERN_EXIT_OK : status;
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
