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
#include "nat64.h"
#include "output.h"
#include "pool4.h"
#include "prefix.h"
#include "tables.h"
#include "tern.h"
#include "tern_det.h"
#include "tern_globals.h"

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
	"Computed from the configuration alone (docs/config.md has the\n"
	"formula): with --config, from that file (tern config apply's format;\n"
	"no module needed), else from the running configuration. -i names\n"
	"the instance (default: the only one with det-space).\n";

/* The shape of one protocol: its pool4 addresses of mark 0, ascending. */
struct det_proto {
	bool present;
	struct tern_det_shape d;
	uint32_t *addrs;		/* host order */
	size_t n, cap;
};

struct det_cfg {
	const char *name;
	struct tern_prefix space;
	struct det_proto p[POOL4_PROTOS];
};

static void det_cfg_free(struct det_cfg *c)
{
	size_t i;

	for (i = 0; i < POOL4_PROTOS; i++)
		free(c->p[i].addrs);
}

/* A global's value in @globals, else its default. */
static int64_t det_global(struct json_object *globals, const char *key)
{
	const struct tern_global_meta *g;
	struct json_object *v;

	if (globals && json_object_object_get_ex(globals, key, &v) &&
	    json_object_is_type(v, json_type_int))
		return json_object_get_int64(v);
	for (g = tern_globals; g->key && strcmp(g->key, key); g++)
		;
	return g->key ? g->def : 0;
}

static int det_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Adds the addresses of @p to protocol @k, whose range must be @pmin-@pmax. */
static int det_add(struct det_cfg *c, size_t k, const struct tern_prefix *p,
		   uint16_t pmin, uint16_t pmax)
{
	struct det_proto *dp = &c->p[k];
	uint64_t a, first = ntohl(p->addr.v4.s_addr), size;
	int err;

	if (dp->present && (dp->d.pmin != pmin || dp->d.pmax != pmax))
		return tern_fail("deterministic mode: %s pool4 ports %u-%u and %u-%u differ",
				 pool4_protos[k].name, dp->d.pmin, dp->d.pmax,
				 pmin, pmax);
	dp->present = true;
	dp->d.pmin = pmin;
	dp->d.pmax = pmax;
	size = 1ULL << (32 - p->len);
	if (dp->n + size > 65536)
		return tern_fail("pool4 would hold more than 65536 addresses");
	for (a = first; a < first + size; a++) {
		err = table_room((void **)&dp->addrs, dp->n, &dp->cap,
				 sizeof(uint32_t));
		if (err)
			return err;
		dp->addrs[dp->n++] = a;
	}
	return TERN_EXIT_OK;
}

/* One entry of the instance's pool4 (docs/config.md). */
static int det_pool4_entry(struct det_cfg *c, struct json_object *o)
{
	struct json_object *v, *protos = NULL, *ports = NULL, *mark = NULL;
	uint16_t pmin = 0, pmax = 0;
	struct tern_prefix p;
	size_t k, j;
	int err;

	if (!json_object_object_get_ex(o, "prefix", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    prefix_parse_any(json_object_get_string(v), true, &p) < 0 ||
	    p.family != AF_INET)
		return tern_fail("instance \"%s\": a pool4 entry without a valid prefix",
				 c->name);
	json_object_object_get_ex(o, "protocols", &protos);
	json_object_object_get_ex(o, "ports", &ports);
	json_object_object_get_ex(o, "mark", &mark);
	if (mark && json_object_get_int64(mark))
		return tern_fail("deterministic mode: pool4 entries of mark 0 only (not %lld)",
				 (long long)json_object_get_int64(mark));
	if (ports && cfg_ports_of(ports, &pmin, &pmax) < 0)
		return tern_fail("instance \"%s\": pool4 \"ports\" is \"MIN-MAX\" or a port",
				 c->name);
	for (k = 0; k < POOL4_PROTOS; k++) {
		bool in = !protos;

		for (j = 0; protos && j < json_object_array_length(protos); j++)
			in |= !strcmp(json_object_get_string(
				json_object_array_get_idx(protos, j)),
				pool4_protos[k].name);
		if (!in)
			continue;
		err = det_add(c, k, &p, ports ? pmin : pool4_protos[k].pmin,
			      ports ? pmax : 65535);
		if (err)
			return err;
	}
	return TERN_EXIT_OK;
}

/* The shapes of instance @inst, checked as tern.ko checks them. */
static int det_cfg_read(struct det_cfg *c, struct json_object *inst)
{
	struct json_object *g = NULL, *v, *pool = NULL;
	struct det_proto *dp;
	size_t i, j, k;
	int err;

	json_object_object_get_ex(inst, "globals", &g);
	if (!g || !json_object_object_get_ex(g, "det-space", &v) ||
	    !json_object_is_type(v, json_type_string))
		return tern_fail("instance \"%s\": deterministic mode is off (no det-space)",
				 c->name);
	if (prefix6_parse(json_object_get_string(v), &c->space) < 0)
		return tern_fail("instance \"%s\": invalid det-space", c->name);
	json_object_object_get_ex(inst, "pool4", &pool);
	for (i = 0; pool && i < json_object_array_length(pool); i++) {
		err = det_pool4_entry(c, json_object_array_get_idx(pool, i));
		if (err)
			return err;
	}
	for (k = 0; k < POOL4_PROTOS; k++) {
		dp = &c->p[k];
		dp->d.space_len = c->space.len;
		dp->d.sub_len = det_global(g, "subscriber-prefix-len");
		dp->d.block = det_global(g, "det-block-size");
		if (!dp->present)
			continue;
		qsort(dp->addrs, dp->n, sizeof(uint32_t), det_cmp);
		for (i = 0, j = 0; i < dp->n; i++)
			if (!j || dp->addrs[i] != dp->addrs[j - 1])
				dp->addrs[j++] = dp->addrs[i];
		dp->n = j;
		dp->d.n_addrs = j;
		switch (tern_det_check(&dp->d)) {
		case TERN_DET_OK:
			break;
		case TERN_DET_E_LEN:
			return tern_fail("det-space /%u, subscriber-prefix-len %u: need 0 to 32 bits",
					 dp->d.space_len, dp->d.sub_len);
		case TERN_DET_E_BLOCK:
			return tern_fail("det-block-size %u is more than the %u %s ports",
					 dp->d.block, tern_det_ports(&dp->d),
					 pool4_protos[k].name);
		default:
			return tern_fail("det: %llu subscribers > %s: %u addrs x %u blocks of %u",
					 (unsigned long long)tern_det_subs(&dp->d),
					 pool4_protos[k].name, dp->d.n_addrs,
					 tern_det_blocks(&dp->d),
					 tern_det_block(&dp->d));
		}
	}
	return TERN_EXIT_OK;
}

/* The instance named @name, else the only one with a det-space. */
static struct json_object *det_instance(struct json_object *root,
					const char *name, const char *src)
{
	struct json_object *insts, *o, *v, *g, *found = NULL;
	size_t i, n = 0;

	if (!json_object_object_get_ex(root, "instances", &insts) ||
	    !json_object_is_type(insts, json_type_array)) {
		tern_fail("%s: no \"instances\" array", src);
		return NULL;
	}
	for (i = 0; i < json_object_array_length(insts); i++) {
		o = json_object_array_get_idx(insts, i);
		if (!json_object_object_get_ex(o, "name", &v))
			continue;
		if (name) {
			if (!strcmp(json_object_get_string(v), name))
				return o;
			continue;
		}
		if (json_object_object_get_ex(o, "globals", &g) &&
		    json_object_object_get_ex(g, "det-space", &v) &&
		    json_object_is_type(v, json_type_string)) {
			found = o;
			n++;
		}
	}
	if (name)
		tern_fail("%s: no instance \"%s\"", src, name);
	else if (!n)
		tern_fail("%s: no instance has det-space", src);
	else if (n > 1)
		tern_usage("%s: several instances have det-space: name one (-i)",
			   src);
	return n == 1 ? found : NULL;
}

/* Prints the block of subscriber @i for protocol @k. */
static int det_print(const struct det_cfg *c, size_t k, uint32_t i,
		     struct json_stream *js)
{
	const struct det_proto *dp = &c->p[k];
	char pfx[PREFIX_STRLEN], a4[INET_ADDRSTRLEN];
	struct tern_prefix sub = { .family = AF_INET6 };
	uint32_t a, first, last;
	struct in_addr in;
	struct json_object *o;

	tern_det_prefix(&dp->d, c->space.addr.v6.s6_addr, i,
			sub.addr.v6.s6_addr);
	sub.len = dp->d.sub_len;
	prefix_str(&sub, pfx);
	tern_det_map(&dp->d, i, &a, &first);
	last = first + tern_det_block(&dp->d) - 1;
	in.s_addr = htonl(dp->addrs[a]);
	inet_ntop(AF_INET, &in, a4, sizeof(a4));
	if (!js) {
		printf("%s %s %s %u-%u\n", pool4_protos[k].name, pfx, a4,
		       first, last);
		return TERN_EXIT_OK;
	}
	o = json_obj();
	json_add_str(o, "protocol", pool4_protos[k].name);
	json_add_str(o, "subscriber", pfx);
	json_add_u64(o, "index", i);
	json_add_str(o, "address4", a4);
	json_add_u64(o, "port-first", first);
	json_add_u64(o, "port-last", last);
	return json_stream_add(js, o);
}

/* Position of @a in the sorted addresses of @dp; -1 if absent. */
static long det_find(const struct det_proto *dp, uint32_t a)
{
	uint32_t *hit = bsearch(&a, dp->addrs, dp->n, sizeof(a), det_cmp);

	return hit ? hit - dp->addrs : -1;
}

static int det_query(const struct det_cfg *c, const char *arg, int proto,
		     struct json_stream *js)
{
	struct tern_prefix p;
	struct taddr t;
	int k, shown = 0, err;
	uint32_t i;
	long a;

	if (prefix_parse_any(arg, true, &p) == 0 && p.family == AF_INET6) {
		for (k = 0; k < POOL4_PROTOS; k++) {
			const struct det_proto *dp = &c->p[k];

			if (!dp->present || (proto >= 0 && proto != k))
				continue;
			if (!tern_det_in_space(&dp->d, c->space.addr.v6.s6_addr,
					       p.addr.v6.s6_addr))
				return tern_fail("%s is outside det-space", arg);
			if (p.len < dp->d.sub_len)
				return tern_usage("%s is shorter than a subscriber (/%u)",
						  arg, dp->d.sub_len);
			err = det_print(c, k, tern_det_index(&dp->d,
							     p.addr.v6.s6_addr),
					js);
			if (err)
				return err;
			shown++;
		}
		return shown ? TERN_EXIT_OK :
		       tern_fail("pool4 has no entry for this protocol");
	}
	if (taddr_parse(arg, &t) < 0 || t.family != AF_INET)
		return tern_usage("det lookup: '%s' is not ADDR4#PORT, ADDR4:PORT or an IPv6 address or prefix",
				  arg);
	for (k = 0; k < POOL4_PROTOS; k++) {
		const struct det_proto *dp = &c->p[k];

		if (!dp->present || (proto >= 0 && proto != k))
			continue;
		a = det_find(dp, ntohl(t.addr.v4.s_addr));
		if (a < 0 || !tern_det_unmap(&dp->d, a, t.port, &i))
			continue;
		err = det_print(c, k, i, js);
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
	bool json = opts->json;
	int i, r, proto = -1, status;
	size_t k;

	if (table_help(argc, argv, help_lookup))
		return TERN_EXIT_OK;
	for (i = 0; i < argc; i++) {
		if (!args_is_option(argv[i])) {
			if (arg)
				return args_unexpected("det lookup", argv[i]);
			arg = argv[i];
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
