// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern det lookup, the deterministic NAT64 mapping (RFC 7422)
 * both ways: an IPv4 transport address to the subscriber whose block
 * holds it, a subscriber to its IPv4 address and ports. Computed here
 * with include/tern_det.h, the formula tern.ko uses, from a configuration
 * file (--config: no module, no log needed) or from the running
 * configuration (read as tern config show does).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "config_int.h"
#include "det.h"
#include "nat64.h"
#include "output.h"
#include "pool4.h"
#include "prefix.h"
#include "tables.h"
#include "tern.h"
#include "tern_det.h"
#include "tern_share.h"

static const char help_det[] =
	"Usage: tern det COMMAND [ARGS]\n"
	"\n"
	"Deterministic NAT64 (RFC 7422, setting det-space).\n"
	"\n"
	"Commands:\n"
	"  lookup [--config FILE] [--tcp|--udp|--icmp] [--json] ADDR4#PORT|ADDR6[/LEN]\n";

static const char help_lookup[] =
	"Usage: tern det lookup [--config FILE] [--tcp|--udp|--icmp] [--json]\n"
	"                       ADDR4#PORT|ADDR4:PORT|ADDR6[/LEN]\n"
	"\n"
	"The deterministic mapping of a NAT64 instance with det-space set:\n"
	"for ADDR4#PORT, the subscriber whose port block holds it; for an IPv6\n"
	"address or subscriber prefix, its IPv4 address and port block. One\n"
	"line per protocol of pool4: PROTOCOL SUBSCRIBER ADDR4 FIRST-LAST.\n"
	"With box-count > 1, ' box K' ends each line: for ADDR4#PORT the box\n"
	"whose share of pool4 holds the address, for IPv6 one line per box.\n"
	"Computed from the configuration alone (docs/deterministic.md has the\n"
	"formula): with --config, from that file (tern config apply's format;\n"
	"no module needed), else from the running configuration. -i names\n"
	"the instance (default: the only one with det-space).\n";

/* Prints the block of subscriber @i for protocol @k on box @box. */
static int det_print(const struct det_cfg *c, size_t k, uint32_t box,
		     uint32_t i, struct json_stream *js)
{
	const struct det_proto *dp = &c->p[k];
	char pfx[PREFIX_STRLEN], a4[INET_ADDRSTRLEN];
	struct tern_prefix sub = { .family = AF_INET6 };
	uint32_t a, base, first, last;
	struct tern_det_shape d;
	struct in_addr in;
	struct json_object *o;

	det_box_shape(c, dp, box, &d, &base);
	tern_det_prefix(&d, c->space.addr.v6.s6_addr, i, sub.addr.v6.s6_addr);
	sub.len = d.sub_len;
	prefix_str(&sub, pfx);
	tern_det_map(&d, i, &a, &first);
	last = first + tern_det_block(&d) - 1;
	in.s_addr = htonl(dp->addrs[base + a]);
	inet_ntop(AF_INET, &in, a4, sizeof(a4));
	if (!js) {
		printf("%s %s %s %u-%u", pool4_protos[k].name, pfx, a4,
		       first, last);
		if (c->boxes > 1)
			printf(" box %u", box);
		putchar('\n');
		return TERN_EXIT_OK;
	}
	o = json_obj();
	json_add_str(o, "protocol", pool4_protos[k].name);
	json_add_str(o, "subscriber", pfx);
	json_add_u64(o, "index", i);
	json_add_str(o, "address4", a4);
	json_add_u64(o, "port-first", first);
	json_add_u64(o, "port-last", last);
	json_add_u64(o, "box", box);
	return json_stream_add(js, o);
}

/* Position of @a in the sorted addresses of @dp; -1 if absent. */
static long det_find(const struct det_proto *dp, uint32_t a)
{
	size_t lo = 0, hi = dp->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dp->addrs[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < dp->n && dp->addrs[lo] == a ? (long)lo : -1;
}

/* An IPv6 address or prefix: its block on every box. */
static int det_query6(const struct det_cfg *c, const char *arg,
		      const struct tern_prefix *p, int proto,
		      struct json_stream *js)
{
	int k, shown = 0, err;
	uint32_t box;

	for (k = 0; k < POOL4_PROTOS; k++) {
		const struct det_proto *dp = &c->p[k];

		if (!dp->present || (proto >= 0 && proto != k))
			continue;
		if (!tern_det_in_space(&dp->d, c->space.addr.v6.s6_addr,
				       p->addr.v6.s6_addr))
			return tern_fail("%s is outside det-space", arg);
		if (p->len < dp->d.sub_len)
			return tern_usage("%s is shorter than a subscriber (/%u)",
					  arg, dp->d.sub_len);
		for (box = 0; box < c->boxes; box++) {
			err = det_print(c, k, box,
					tern_det_index(&dp->d,
						       p->addr.v6.s6_addr),
					js);
			if (err)
				return err;
		}
		shown++;
	}
	return shown ? TERN_EXIT_OK :
	       tern_fail("pool4 has no entry for this protocol");
}

static int det_query(const struct det_cfg *c, const char *arg, int proto,
		     struct json_stream *js)
{
	struct tern_det_shape d;
	struct tern_prefix p;
	struct taddr t;
	uint32_t i, box, base;
	int k, shown = 0, err;
	long a;

	if (prefix_parse_any(arg, true, &p) == 0 && p.family == AF_INET6)
		return det_query6(c, arg, &p, proto, js);
	if (taddr_parse(arg, &t) < 0 || t.family != AF_INET)
		return tern_usage("det lookup: '%s' is not ADDR4#PORT, ADDR4:PORT or an IPv6 address or prefix",
				  arg);
	for (k = 0; k < POOL4_PROTOS; k++) {
		const struct det_proto *dp = &c->p[k];

		if (!dp->present || (proto >= 0 && proto != k))
			continue;
		a = det_find(dp, ntohl(t.addr.v4.s_addr));
		if (a < 0)
			continue;
		/* The box whose share holds the address, its own shape. */
		box = tern_share_owner(dp->n, c->boxes, a);
		det_box_shape(c, dp, box, &d, &base);
		if (!tern_det_unmap(&d, a - base, t.port, &i))
			continue;
		err = det_print(c, k, box, i, js);
		if (err)
			return err;
		shown++;
	}
	return shown ? TERN_EXIT_OK :
	       tern_fail("no subscriber's block holds %s", arg);
}

static int det_lookup(int argc, char **argv, struct tern_opts *opts)
{
	const char *file = NULL, *arg = NULL, *v;
	struct json_stream js = { 0 };
	struct det_cfg c = { 0 };
	struct json_object *root, *inst;
	bool json = opts->json, opts_done = false;
	int i, r, proto = -1, status;
	size_t k;

	if (table_help(argc, argv, help_lookup))
		return TERN_EXIT_OK;
	for (i = 0; i < argc; i++) {
		if (opts_done || !args_is_option(argv[i])) {
			if (arg)
				return args_unexpected("det lookup", argv[i]);
			arg = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			opts_done = true;
			continue;
		}
		if (args_is(argv[i], "-j", "--json")) {
			json = true;
			continue;
		}
		for (k = 0; k < POOL4_PROTOS; k++) {
			char opt[8];

			snprintf(opt, sizeof(opt), "--%s", pool4_protos[k].name);
			if (!strcmp(argv[i], opt))
				break;
		}
		if (k < POOL4_PROTOS) {
			if (proto >= 0)
				return tern_usage("det lookup: one of --tcp, --udp, --icmp");
			proto = k;
			continue;
		}
		r = args_value(argc, argv, &i, NULL, "--config", "FILE", &v);
		if (r < 0)
			return TERN_EXIT_USAGE;
		if (r > 0) {
			file = v;
			continue;
		}
		if (args_instance_or_unknown("det lookup", argc, argv, &i, opts))
			return TERN_EXIT_USAGE;
	}
	if (!arg)
		return args_missing("det lookup", "ADDR4#PORT or ADDR6[/LEN]");
	root = file ? cfg_read_file(file) : cfg_running(&status);
	if (!root)
		return file ? TERN_EXIT_FAIL : status;
	/* A file is held to what config apply would take. */
	status = file ? cfg_check_file(file, root) : TERN_EXIT_OK;
	if (status) {
		json_object_put(root);
		return status;
	}
	inst = det_instance(root, opts->instance,
			    file ? file : "running configuration");
	status = TERN_EXIT_FAIL;
	if (inst) {
		json_object *n;

		json_object_object_get_ex(inst, "name", &n);
		c.name = json_object_get_string(n);
		status = det_cfg_read(&c, inst) ?:
			 det_query(&c, arg, proto, json ? &js : NULL);
		if (json && !status)
			json_stream_end(&js);
	}
	det_cfg_free(&c);
	json_object_put(root);
	return status;
}

static const struct table_cmd det_cmds[] = {
	{ "lookup", det_lookup },
	{ NULL, NULL }
};

int cmd_det(int argc, char **argv, struct tern_opts *opts)
{
	return table_dispatch("det", help_det, det_cmds, argc, argv, opts);
}
