// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern instance add|list|remove.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "nl.h"
#include "output.h"
#include "prefix.h"
#include "tables.h"
#include "tern.h"

static const char help_instance[] =
	"Usage: tern instance COMMAND [ARGS]\n"
	"\n"
	"Manage the translator instances of this network namespace.\n"
	"\n"
	"Commands:\n"
	"  add NAME (--siit|--nat64) [--pool6 PREFIX] [--netfilter|--iptables]\n"
	"                  create an instance\n"
	"  list [--json]   show the instances\n"
	"  remove NAME     delete an instance\n"
	"\n"
	"Run 'tern instance COMMAND --help' for details.\n";

static const char help_add[] =
	"Usage: tern instance add NAME (--siit|--nat64) [--pool6 PREFIX]\n"
	"                         [--netfilter|--iptables]\n"
	"\n"
	"Create a translator instance called NAME. A NAT64 instance needs\n"
	"pool6. A SIIT instance without pool6 translates only the addresses of\n"
	"its EAMT (RFC 7757); 'tern global set pool6' adds one later.\n"
	"\n"
	"Options:\n"
	"  --siit            stateless IP/ICMP translation (RFC 7915)\n"
	"  --nat64           stateful NAT64 (RFC 6146)\n"
	"  --pool6 PREFIX    IPv6 translation prefix (RFC 6052), ADDR/LEN,\n"
	"                    e.g. 64:ff9b::/96\n"
	"  --netfilter       hook into Netfilter directly (default)\n"
	"  --iptables        translate only what an iptables rule sends to it\n"
	"  -h, --help        show this help\n";

static const char help_list[] =
	"Usage: tern instance list [--json]\n"
	"\n"
	"Show the instances of this network namespace: NAME TYPE FRAMEWORK\n"
	"POOL6 (\"-\" if unset) STATUS: enabled or disabled, the iptables\n"
	"rules (-j TERN --instance NAME) naming it, and the packets they let\n"
	"through while no iptables instance NAME existed. Names that rules use\n"
	"without an instance are listed too, with status \"no instance\".\n"
	"\n"
	"Options:\n"
	"  -j, --json        print a JSON array of objects with the keys\n"
	"                    name, type, framework and pool6 (null if unset,\n"
	"                    and all three for a name without instance),\n"
	"                    status (\"enabled\", \"disabled\", \"no-instance\"),\n"
	"                    rules and passed-no-instance\n"
	"  -h, --help        show this help\n";

static const char help_remove[] =
	"Usage: tern instance remove NAME\n"
	"\n"
	"Delete the instance called NAME.\n"
	"\n"
	"Options:\n"
	"  -h, --help        show this help\n";

/* @name (of value @v), or the number if it has none. */
static const char *name_or_num(const char *name, unsigned int v, char *buf,
			       size_t size)
{
	if (name)
		return name;
	snprintf(buf, size, "%u", v);
	return buf;
}

/* tern instance add */

struct add_arg {
	uint8_t type;
	uint8_t fw;
	struct tern_prefix pool6;
};

static int put_add(struct nl_msg *msg, const void *arg)
{
	const struct add_arg *a = arg;

	if (nla_put_u8(msg, TERN_A_TYPE, a->type) < 0 ||
	    nla_put_u8(msg, TERN_A_FRAMEWORK, a->fw) < 0 ||
	    (a->pool6.family && prefix_put(msg, TERN_A_POOL6, &a->pool6) < 0))
		return -1;
	return 0;
}

static int instance_add(int argc, char **argv)
{
	const char *cmd = "instance add";
	const char *name = NULL, *pool6 = NULL, *val;
	struct add_arg add = { 0 };
	int type = 0, fw = 0;
	bool opts_done = false;
	int i, r;

	if (args_want_help(argc, argv)) {
		fputs(help_add, stdout);
		return TERN_EXIT_OK;
	}

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || !args_is_option(a)) {
			if (name)
				return args_unexpected(cmd, a);
			name = a;
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else if (args_is(a, NULL, "--siit") ||
			   args_is(a, NULL, "--nat64")) {
			int t = !strcmp(a, "--siit") ? TERN_TYPE_SIIT
						      : TERN_TYPE_NAT64;

			if (type && type != t)
				return tern_usage("--siit and --nat64 are mutually exclusive");
			type = t;
		} else if (args_is(a, NULL, "--netfilter") ||
			   args_is(a, NULL, "--iptables")) {
			int f = !strcmp(a, "--netfilter") ? TERN_FW_NETFILTER
							   : TERN_FW_IPTABLES;

			if (fw && fw != f)
				return tern_usage("--netfilter and --iptables are mutually exclusive");
			fw = f;
		} else {
			r = args_value(argc, argv, &i, NULL, "--pool6",
				       "PREFIX", &val);
			if (r < 0)
				return TERN_EXIT_USAGE;
			if (r == 0)
				return args_unknown(cmd, a);
			if (pool6)
				return tern_usage("--pool6 given more than once");
			pool6 = val;
		}
	}

	if (!name)
		return args_missing(cmd, "an instance NAME");
	if (!type)
		return args_missing(cmd, "--siit or --nat64");
	if (pool6 && prefix6_parse(pool6, &add.pool6) < 0)
		return tern_usage("invalid --pool6 '%s' (expected %s)",
				  pool6, PREFIX6_FORMS);
	if (!fw)
		fw = TERN_FW_NETFILTER;

	add.type = type;
	add.fw = fw;
	return tern_nl_request(TERN_CMD_INSTANCE_ADD, false, name, put_add, &add,
			       NULL, NULL);
}

/* tern instance remove */

static int instance_remove(int argc, char **argv)
{
	const char *cmd = "instance remove";
	const char *name = NULL;
	bool opts_done = false;
	int i;

	if (args_want_help(argc, argv)) {
		fputs(help_remove, stdout);
		return TERN_EXIT_OK;
	}

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || !args_is_option(a)) {
			if (name)
				return args_unexpected(cmd, a);
			name = a;
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else {
			return args_unknown(cmd, a);
		}
	}
	if (!name)
		return args_missing(cmd, "an instance NAME");

	return tern_nl_request(TERN_CMD_INSTANCE_DEL, false, name,
			       NULL, NULL, NULL, NULL);
}

/* tern instance list */

struct instance {
	char *name;
	char type[12];			/* "" for a name without instance */
	char fw[12];
	char pool6[PREFIX_STRLEN];	/* "" if unset */
	const char *status;		/* enabled, disabled, no-instance */
	unsigned long rules;		/* iptables rules naming it */
	unsigned long long missed;	/* packets they passed, no instance */
	char status_text[96];
};

/* TERN_A_STATUS: the setting enabled and the rules naming the name. */
static int status_get(struct nlattr *attr, struct instance *in)
{
	static struct nla_policy policy[TERN_STATUS_MAX + 1] = {
		[TERN_STATUS_ENABLED] = { .type = NLA_U8 },
		[TERN_STATUS_RULES] = { .type = NLA_U32 },
		[TERN_STATUS_MISSED] = { .type = NLA_U64 },
	};
	struct nlattr *st[TERN_STATUS_MAX + 1];
	size_t n;

	in->status = "no-instance";
	if (!attr)
		return in->type[0] ? 0 : -1;
	if (nla_parse_nested(st, TERN_STATUS_MAX, attr, policy) < 0)
		return -1;
	if (st[TERN_STATUS_ENABLED])
		in->status = nla_get_u8(st[TERN_STATUS_ENABLED]) ? "enabled"
								 : "disabled";
	if (st[TERN_STATUS_RULES])
		in->rules = nla_get_u32(st[TERN_STATUS_RULES]);
	if (st[TERN_STATUS_MISSED])
		in->missed = nla_get_u64(st[TERN_STATUS_MISSED]);

	n = snprintf(in->status_text, sizeof(in->status_text), "%s",
		     in->type[0] ? in->status : "no instance");
	if (in->rules || !strcmp(in->fw, "iptables") || !in->type[0])
		n += snprintf(in->status_text + n, sizeof(in->status_text) - n,
			      ", %lu rule%s", in->rules,
			      in->rules == 1 ? "" : "s");
	if (in->missed && n < sizeof(in->status_text))
		snprintf(in->status_text + n, sizeof(in->status_text) - n,
			 ", %llu passed (no instance)", in->missed);
	return 0;
}

struct instance_list {
	struct instance *v;
	size_t n;
	size_t cap;
};

static int list_reply(struct nlattr **tb, void *arg)
{
	struct instance_list *list = arg;
	struct instance *in;
	struct tern_prefix prefix;
	char buf[12];
	int status;

	/* A name iptables rules use without an instance: no type. */
	if (!tb[TERN_A_INSTANCE] ||
	    (!tb[TERN_A_TYPE] && !tb[TERN_A_STATUS]) ||
	    !tb[TERN_A_TYPE] != !tb[TERN_A_FRAMEWORK])
		return tern_fail("malformed reply from the kernel: instance without name, type or framework");

	status = table_room((void **)&list->v, list->n, &list->cap,
			    sizeof(*list->v));
	if (status)
		return status;
	in = &list->v[list->n];
	memset(in, 0, sizeof(*in));

	if (tb[TERN_A_POOL6]) {
		if (prefix_get(tb[TERN_A_POOL6], &prefix) < 0)
			return tern_fail("malformed reply from the kernel: bad pool6");
		prefix_str(&prefix, in->pool6);
	}
	if (tb[TERN_A_TYPE]) {
		uint8_t type = nla_get_u8(tb[TERN_A_TYPE]);
		uint8_t fw = nla_get_u8(tb[TERN_A_FRAMEWORK]);

		snprintf(in->type, sizeof(in->type), "%s",
			 name_or_num(tern_type_name(type), type, buf,
				     sizeof(buf)));
		snprintf(in->fw, sizeof(in->fw), "%s",
			 name_or_num(tern_fw_name(fw), fw, buf, sizeof(buf)));
	}
	if (status_get(tb[TERN_A_STATUS], in) < 0)
		return tern_fail("malformed reply from the kernel: bad status");
	in->name = strdup(nla_get_string(tb[TERN_A_INSTANCE]));
	if (!in->name)
		return tern_fail("out of memory");
	list->n++;
	return TERN_EXIT_OK;
}

static int max_width(int w, const char *s)
{
	int n = strlen(s);

	return n > w ? n : w;
}

static void list_print_table(const struct instance_list *list)
{
	int wname = strlen("NAME");
	int wtype = strlen("TYPE");
	int wfw = strlen("FRAMEWORK");
	int wpool = strlen("POOL6");
	size_t i;

	for (i = 0; i < list->n; i++) {
		wname = max_width(wname, list->v[i].name);
		wtype = max_width(wtype, list->v[i].type);
		wfw = max_width(wfw, list->v[i].fw);
		wpool = max_width(wpool, list->v[i].pool6);
	}
	printf("%-*s %-*s %-*s %-*s %s\n", wname, "NAME", wtype, "TYPE",
	       wfw, "FRAMEWORK", wpool, "POOL6", "STATUS");
	for (i = 0; i < list->n; i++) {
		const struct instance *in = &list->v[i];

		printf("%-*s %-*s %-*s %-*s %s\n", wname, in->name, wtype,
		       in->type[0] ? in->type : "-", wfw,
		       in->fw[0] ? in->fw : "-", wpool,
		       in->pool6[0] ? in->pool6 : "-", in->status_text);
	}
}

static int list_print_json(const struct instance_list *list)
{
	struct json_object *a = json_object_new_array();
	struct json_object *o;
	size_t i;

	for (i = 0; a && i < list->n; i++) {
		const struct instance *in = &list->v[i];

		o = json_obj();
		json_add_str(o, "name", in->name);
		json_add_str(o, "type", in->type[0] ? in->type : NULL);
		json_add_str(o, "framework", in->fw[0] ? in->fw : NULL);
		json_add_str(o, "pool6", in->pool6[0] ? in->pool6 : NULL);
		json_add_str(o, "status", in->status);
		json_add_u64(o, "rules", in->rules);
		json_add_u64(o, "passed-no-instance", in->missed);
		if (!o || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			a = NULL;
		}
	}
	return json_emit(a);
}

static int instance_list(int argc, char **argv, bool json)
{
	const char *cmd = "instance list";
	struct instance_list list = { 0 };
	bool opts_done = false;
	int status;
	size_t n;
	int i;

	if (args_want_help(argc, argv)) {
		fputs(help_list, stdout);
		return TERN_EXIT_OK;
	}

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || !args_is_option(a))
			return args_unexpected(cmd, a);
		else if (!strcmp(a, "--"))
			opts_done = true;
		else if (args_is(a, "-j", "--json"))
			json = true;
		else
			return args_unknown(cmd, a);
	}

	status = tern_nl_request(TERN_CMD_INSTANCE_GET, true, NULL, NULL, NULL,
				 list_reply, &list);

	if (!status) {
		if (json)
			status = list_print_json(&list);
		else
			list_print_table(&list);
	}

	for (n = 0; n < list.n; n++)
		free(list.v[n].name);
	free(list.v);
	return status;
}

int cmd_instance(int argc, char **argv, struct tern_opts *opts)
{
	const char *sub;

	if (argc < 1)
		return tern_usage("'instance' needs a command: add, list or remove (try 'tern instance --help')");
	sub = argv[0];
	if (args_is_help(sub) || !strcmp(sub, "help")) {
		fputs(help_instance, stdout);
		return TERN_EXIT_OK;
	}

	if (!strcmp(sub, "add") || !strcmp(sub, "list") ||
	    !strcmp(sub, "remove")) {
		if (opts->instance && !args_want_help(argc - 1, argv + 1))
			return tern_usage("-i/--instance does not apply to 'instance %s'",
					  sub);
		if (!strcmp(sub, "add"))
			return instance_add(argc - 1, argv + 1);
		if (!strcmp(sub, "list"))
			return instance_list(argc - 1, argv + 1, opts->json);
		return instance_remove(argc - 1, argv + 1);
	}
	return tern_usage("unknown command 'instance %s' (try 'tern instance --help')",
			  sub);
}
