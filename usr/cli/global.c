// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern global show|set.
 *
 * The keys, with their kinds and help, come from tern_globals
 * (tern_globals.h); the kinds below know how to parse, encode and print
 * their values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "nl.h"
#include "output.h"
#include "tables.h"
#include "tern.h"
#include "tern_globals.h"
#include "values.h"

#define global tern_global_meta
#define globals tern_globals

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
	for (i = 0; globals[i].key; i++) {
		const struct gkind *k = gkind_of(&globals[i]);

		printf("  %-24s %-12s %s\n", globals[i].key, k ? k->name : "?",
		       globals[i].help);
	}
	fputs("\nValues:\n", stdout);
	for (i = 0; i < n_gkinds; i++)
		if (gkinds[i].name)
			printf("  %-12s %s\n", gkinds[i].name, gkinds[i].forms);
}

/* "enabled, pool6, ...": every key, in a string sized from the table. */
static char *key_list(void)
{
	size_t i, size = 1;
	char *buf, *p;

	for (i = 0; globals[i].key; i++)
		size += strlen(globals[i].key) + 2;
	buf = malloc(size);
	if (!buf)
		return NULL;
	p = buf;
	*p = '\0';
	for (i = 0; globals[i].key; i++)
		p += sprintf(p, "%s%s", i ? ", " : "", globals[i].key);
	return buf;
}

/* tern global show */

/* A value as text: a string bare, null "none", an array "a,b,c". */
static void print_text(struct json_object *v)
{
	size_t i, n;

	switch (json_object_get_type(v)) {
	case json_type_null:
		fputs("none", stdout);
		break;
	case json_type_string:
		fputs(json_object_get_string(v), stdout);
		break;
	case json_type_array:
		n = json_object_array_length(v);
		for (i = 0; i < n; i++)
			printf("%s%s", i ? "," : "",
			       json_object_get_string(json_object_array_get_idx(v, i)));
		break;
	default:
		fputs(json_object_get_string(v), stdout);
	}
}

static int show_reply(struct nlattr **tb, void *arg)
{
	struct nla_policy policy[TERN_G_MAX + 1];
	struct nlattr *g[TERN_G_MAX + 1];
	bool json = *(bool *)arg;
	struct json_object *o = NULL, *v;
	size_t i;

	if (!tb[TERN_A_GLOBALS])
		return tern_fail("malformed reply from the kernel: no globals");
	memset(policy, 0, sizeof(policy));
	for (i = 0; globals[i].key; i++) {
		if (!gkind_of(&globals[i]))
			return tern_fail("internal error: no value kind for global %s",
					 globals[i].key);
		policy[globals[i].attr].type = gkind_of(&globals[i])->nla_type;
	}
	if (nla_parse_nested(g, TERN_G_MAX, tb[TERN_A_GLOBALS], policy) < 0)
		return tern_fail("malformed reply from the kernel: bad globals");

	if (json)
		o = json_obj();
	for (i = 0; globals[i].key; i++) {
		const struct global *gl = &globals[i];
		struct nlattr *a = g[gl->attr];

		v = NULL;
		if (a && gkind_of(gl)->value(a, &v) < 0) {
			json_object_put(o);
			return tern_fail("malformed reply from the kernel: bad %s",
					 gl->key);
		}
		if (json) {
			json_add(o, gl->key, v);
			continue;
		}
		printf("%s: ", gl->key);
		if (a)
			print_text(v);
		else
			putchar('-');
		putchar('\n');
		json_object_put(v);
	}
	return json ? json_emit(o) : TERN_EXIT_OK;
}

static int global_show(int argc, char **argv, struct tern_opts *opts)
{
	bool json = opts->json;
	int n, r;

	if (args_want_help(argc, argv)) {
		fputs(help_show, stdout);
		return TERN_EXIT_OK;
	}
	r = table_args("global show", argc, argv, opts, NULL, 0, &n, &json);
	if (r)
		return r;
	return tern_nl_request(TERN_CMD_GLOBAL_GET, false, opts->instance,
			       NULL, NULL, show_reply, &json);
}

/* tern global set */

struct global_value {
	const struct global *gl;
	const struct gkind *kind;
	union gvalue v;
};

static int put_global(struct nl_msg *msg, const void *arg)
{
	const struct global_value *g = arg;
	struct nlattr *nest;

	nest = nla_nest_start(msg, TERN_A_GLOBALS | NLA_F_NESTED);
	if (!nest || g->kind->put(msg, g->gl->attr, &g->v) < 0)
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

static int global_set(int argc, char **argv, struct tern_opts *opts)
{
	const char *pos[2], *key, *value;
	struct global_value *g;
	char *keys;
	int n, r;

	if (args_want_help(argc, argv)) {
		print_help_set();
		return TERN_EXIT_OK;
	}
	r = table_args("global set", argc, argv, opts, pos, 2, &n, NULL);
	if (r)
		return r;
	if (n < 1)
		return args_missing("global set", "KEY and VALUE");
	key = pos[0];
	value = n > 1 ? pos[1] : NULL;
	g = calloc(1, sizeof(*g));	/* the plateaus make it big */
	if (!g)
		return tern_fail("out of memory");
	g->gl = global_find(key);
	if (!g->gl) {
		keys = key_list();
		r = keys ? tern_usage("unknown global '%s' (known: %s)", key, keys) :
			   tern_fail("out of memory");
		free(keys);
	} else if (!(g->kind = gkind_of(g->gl))) {
		r = tern_fail("internal error: no value kind for global %s",
			      key);
	} else if (!value) {
		r = tern_usage("'global set %s' needs a VALUE (%s)", key,
			       g->kind->forms);
	} else if (g->kind->parse(value, &g->v) < 0) {
		r = tern_usage("invalid value '%s' for %s (expected %s)",
			       value, key, g->kind->forms);
	} else {
		r = tern_nl_request(TERN_CMD_GLOBAL_SET, false, opts->instance,
				    put_global, g, NULL, NULL);
	}
	free(g);
	return r;
}

static const struct table_cmd global_cmds[] = {
	{ "show", global_show },
	{ "set", global_set },
	{ NULL, NULL }
};

int cmd_global(int argc, char **argv, struct tern_opts *opts)
{
	return table_dispatch("global", help_global, global_cmds, argc, argv,
			      opts);
}
