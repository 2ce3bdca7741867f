// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern global show|set.
 *
 * The keys come from tern_global_names (tern_names.h); each has a kind, and
 * the kinds below know how to parse, encode and print their values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "nl.h"
#include "output.h"
#include "prefix.h"
#include "tern.h"

union gvalue {
	bool b;
	uint8_t u8;
	struct tern_prefix prefix;
};

/* What a kind of global (enum tern_global_kind) knows. */
struct gkind {
	const char *name;
	const char *forms;	/* accepted values, for help and errors */
	int nla_type;		/* libnl policy for the reply attribute */
	int (*parse)(const char *s, union gvalue *v);	/* 0 or -1 */
	int (*put)(struct nl_msg *msg, int attr, const union gvalue *v);
	/* Print the reply attribute as text or JSON; -1 if malformed. */
	int (*print)(struct nlattr *a, bool json);
};

/* BOOL: u8 0/1 */

static int bool_parse(const char *s, union gvalue *v)
{
	static const char *const yes[] = { "true", "on", "yes", "1" };
	static const char *const no[] = { "false", "off", "no", "0" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			v->b = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			v->b = false;
			return 0;
		}
	}
	return -1;
}

static int bool_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	return nla_put_u8(msg, attr, v->b ? 1 : 0);
}

static int bool_print(struct nlattr *a, bool json)
{
	(void)json;	/* same spelling in both */
	fputs(nla_get_u8(a) ? "true" : "false", stdout);
	return 0;
}

/* U8 */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int u8_parse(const char *s, union gvalue *v)
{
	unsigned int base = 10, n = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		d = hexval(*s);
		if (d < 0 || (unsigned int)d >= base)
			return -1;
		n = n * base + d;
		if (n > 255)
			return -1;
	}
	v->u8 = n;
	return 0;
}

static int u8_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	return nla_put_u8(msg, attr, v->u8);
}

static int u8_print(struct nlattr *a, bool json)
{
	(void)json;
	printf("%u", nla_get_u8(a));
	return 0;
}

/* PREFIX6: nested enum tern_prefix_attr */

static int prefix6_value_parse(const char *s, union gvalue *v)
{
	return prefix6_parse(s, &v->prefix);
}

static int prefix6_put(struct nl_msg *msg, int attr, const union gvalue *v)
{
	return prefix_put(msg, attr, &v->prefix);
}

static int prefix6_print(struct nlattr *a, bool json)
{
	struct tern_prefix p;
	char buf[PREFIX_STRLEN];

	if (prefix_get(a, &p) < 0)
		return -1;
	prefix_str(&p, buf);
	if (json)
		json_string(buf);
	else
		fputs(buf, stdout);
	return 0;
}


static const struct gkind gkinds[] = {
	[TERN_KIND_BOOL] = {
		.name = "BOOL",
		.forms = "true/false, on/off, yes/no or 1/0",
		.nla_type = NLA_U8,
		.parse = bool_parse,
		.put = bool_put,
		.print = bool_print,
	},
	[TERN_KIND_U8] = {
		.name = "U8",
		.forms = "an integer 0..255, decimal or 0x hex",
		.nla_type = NLA_U8,
		.parse = u8_parse,
		.put = u8_put,
		.print = u8_print,
	},
	[TERN_KIND_PREFIX6] = {
		.name = "PREFIX6",
		.forms = "an IPv6 prefix " PREFIX6_FORMS,
		.nla_type = NLA_NESTED,
		.parse = prefix6_value_parse,
		.put = prefix6_put,
		.print = prefix6_print,
	},
};

#define global tern_global_name
#define globals tern_global_names

static const struct global *global_find(const char *key)
{
	size_t i;

	for (i = 0; globals[i].key; i++) {
		if (!strcmp(globals[i].key, key))
			return &globals[i];
	}
	return NULL;
}

/* help */

static const char help_global[] =
	"Usage: tern [-i NAME] global COMMAND [ARGS]\n"
	"\n"
	"Show or change the settings of an instance (by default the only\n"
	"instance of this network namespace).\n"
	"\n"
	"Commands:\n"
	"  show [--json]     print every setting\n"
	"  set KEY VALUE     change one setting\n"
	"\n"
	"Run 'tern global COMMAND --help' for details.\n";

static const char help_show[] =
	"Usage: tern [-i NAME] global show [--json]\n"
	"\n"
	"Print every setting of an instance as \"key: value\" lines.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print one JSON object instead\n"
	"  -h, --help           show this help\n";

static void print_help_set(void)
{
	size_t i;

	fputs("Usage: tern [-i NAME] global set KEY VALUE\n"
	      "\n"
	      "Change one setting of an instance.\n"
	      "\n"
	      "Options:\n"
	      "  -i, --instance NAME  the instance (default: the only one)\n"
	      "  -h, --help           show this help\n"
	      "\n"
	      "Keys:\n", stdout);
	for (i = 0; globals[i].key; i++)
		printf("  %-24s %s\n", globals[i].key,
		       gkinds[globals[i].kind].name);
	fputs("\nValues:\n", stdout);
	for (i = 0; i < ARRAY_SIZE(gkinds); i++)
		printf("  %-8s %s\n", gkinds[i].name, gkinds[i].forms);
}

/* "enabled, pool6, ..." */
static void key_list(char *buf, size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; globals[i].key && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s",
				i ? ", " : "", globals[i].key);
}

/* tern global show */

static int show_reply(struct nlattr **tb, void *arg)
{
	struct nla_policy policy[TERN_G_MAX + 1];
	struct nlattr *g[TERN_G_MAX + 1];
	bool json = *(bool *)arg;
	bool first = true;
	size_t i;

	if (!tb[TERN_A_GLOBALS])
		return tern_fail("malformed reply from the kernel: no globals");
	memset(policy, 0, sizeof(policy));
	for (i = 0; globals[i].key; i++)
		policy[globals[i].attr].type = gkinds[globals[i].kind].nla_type;
	if (nla_parse_nested(g, TERN_G_MAX, tb[TERN_A_GLOBALS], policy) < 0)
		return tern_fail("malformed reply from the kernel: bad globals");

	if (json)
		putchar('{');
	for (i = 0; globals[i].key; i++) {
		const struct global *gl = &globals[i];
		struct nlattr *a = g[gl->attr];

		if (json)
			json_key(&first, gl->key);
		else
			printf("%s: ", gl->key);
		if (!a)
			fputs(json ? "null" : "-", stdout);
		else if (gkinds[gl->kind].print(a, json) < 0)
			return tern_fail("malformed reply from the kernel: bad %s",
					 gl->key);
		if (!json)
			putchar('\n');
	}
	if (json)
		puts("}");
	return TERN_EXIT_OK;
}

static int global_show(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "global show";
	bool opts_done = false;
	bool json = false;
	int i, r;

	if (args_want_help(argc, argv)) {
		fputs(help_show, stdout);
		return TERN_EXIT_OK;
	}

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || !args_is_option(a)) {
			return args_unexpected(cmd, a);
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else if (args_is(a, "-j", "--json")) {
			json = true;
		} else {
			r = args_instance_or_unknown(cmd, argc, argv, &i, opts);
			if (r)
				return r;
		}
	}

	return tern_nl_request(TERN_CMD_GLOBAL_GET, false, opts->instance, show_reply, &json);
}

/* tern global set */

static int global_set(int argc, char **argv, struct tern_opts *opts)
{
	const char *cmd = "global set";
	const char *key = NULL, *value = NULL;
	const struct global *gl;
	const struct gkind *kind;
	union gvalue v;
	struct tern_nl *nl;
	struct nl_msg *msg;
	struct nlattr *nest;
	bool opts_done = false;
	char keys[512];
	int status;
	int i, r;

	if (args_want_help(argc, argv)) {
		print_help_set();
		return TERN_EXIT_OK;
	}

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || !args_is_option(a)) {
			if (!key)
				key = a;
			else if (!value)
				value = a;
			else
				return args_unexpected(cmd, a);
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else {
			r = args_instance_or_unknown(cmd, argc, argv, &i, opts);
			if (r)
				return r;
		}
	}

	if (!key)
		return args_missing(cmd, "KEY and VALUE");
	gl = global_find(key);
	if (!gl) {
		key_list(keys, sizeof(keys));
		return tern_usage("unknown global '%s' (known: %s)", key, keys);
	}
	kind = &gkinds[gl->kind];
	if (!value)
		return tern_usage("'global set %s' needs a VALUE (%s)",
				  key, kind->forms);
	if (kind->parse(value, &v) < 0)
		return tern_usage("invalid value '%s' for %s (expected %s)",
				  value, key, kind->forms);

	status = tern_nl_open(&nl);
	if (status)
		return status;
	msg = tern_nl_msg(nl, TERN_CMD_GLOBAL_SET, false);
	if (!msg) {
		tern_nl_close(nl);
		return TERN_EXIT_FAIL;
	}
	if (tern_nl_put_instance(msg, opts->instance) < 0)
		goto build_error;
	nest = nla_nest_start(msg, TERN_A_GLOBALS | NLA_F_NESTED);
	if (!nest || kind->put(msg, gl->attr, &v) < 0)
		goto build_error;
	nla_nest_end(msg, nest);

	status = tern_nl_run(nl, msg, NULL, NULL);
	tern_nl_close(nl);
	return status;

build_error:
	nlmsg_free(msg);
	tern_nl_close(nl);
	return tern_nl_build_error();
}

int cmd_global(int argc, char **argv, struct tern_opts *opts)
{
	const char *sub;

	if (argc < 1)
		return tern_usage("'global' needs a command: show or set (try 'tern global --help')");
	sub = argv[0];
	if (args_is_help(sub) || !strcmp(sub, "help")) {
		fputs(help_global, stdout);
		return TERN_EXIT_OK;
	}
	if (!strcmp(sub, "show"))
		return global_show(argc - 1, argv + 1, opts);
	if (!strcmp(sub, "set"))
		return global_set(argc - 1, argv + 1, opts);
	return tern_usage("unknown command 'global %s' (try 'tern global --help')",
			  sub);
}
