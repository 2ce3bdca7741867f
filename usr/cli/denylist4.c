// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern denylist4 add|remove|list|flush.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "args.h"
#include "output.h"
#include "prefix.h"
#include "tables.h"

static const char help_denylist4[] =
	"Usage: tern [-i NAME] denylist4 COMMAND [ARGS]\n"
	"\n"
	"Manage the IPv4 prefixes pool6 must not translate, in either\n"
	"direction (the EAMT is not affected).\n"
	"\n"
	"Commands:\n"
	"  add PREFIX4       add a prefix (ADDR/LEN; a bare ADDR is a /32)\n"
	"  remove PREFIX4    remove it (exactly as added)\n"
	"  list [--json]     show the prefixes\n"
	"  flush             remove every prefix\n"
	"\n"
	"Prefixes may not overlap. Run 'tern denylist4 COMMAND --help' for details.\n";

static const char help_add[] =
	"Usage: tern [-i NAME] denylist4 add PREFIX4\n"
	"\n"
	"Stop pool6 from translating the addresses of PREFIX4 (ADDR/LEN, no\n"
	"bits set past LEN; a bare ADDR is a /32).\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

static const char help_remove[] =
	"Usage: tern [-i NAME] denylist4 remove PREFIX4\n"
	"\n"
	"Remove PREFIX4, exactly as it was added.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -h, --help           show this help\n";

static const char help_list[] =
	"Usage: tern [-i NAME] denylist4 list [--json]\n"
	"\n"
	"Show the prefixes, one per line under a PREFIX header, in address\n"
	"order.\n"
	"\n"
	"Options:\n"
	"  -i, --instance NAME  the instance (default: the only one)\n"
	"  -j, --json           print a JSON array of prefix strings\n"
	"  -h, --help           show this help\n";

static const char help_flush[] = TABLE_HELP_FLUSH("denylist4", "prefix");

static int put_prefix4(struct nl_msg *msg, const void *arg)
{
	return prefix_put(msg, TERN_A_PREFIX4, arg);
}

/* add and remove: one IPv4 prefix. */
static int change(const char *cmd, const char *help, uint8_t nlcmd,
		  int argc, char **argv, struct tern_opts *opts)
{
	struct tern_prefix p;
	const char *pos[1];
	int n, r;

	if (table_help(argc, argv, help))
		return TERN_EXIT_OK;
	r = table_args(cmd, argc, argv, opts, pos, 1, &n, NULL);
	if (r)
		return r;
	if (n < 1)
		return args_missing(cmd, "PREFIX4");
	if (prefix_parse_any(pos[0], true, &p) < 0 || p.family != AF_INET)
		return tern_usage("invalid prefix '%s' (expected an IPv4 prefix %s)",
				  pos[0], PREFIX4_FORMS);
	return tern_nl_request(nlcmd, false, opts->instance, put_prefix4, &p,
			       NULL, NULL);
}

struct deny_list {
	char (*v)[PREFIX_STRLEN];
	size_t n, cap;
};

static int list_reply(struct nlattr **tb, void *arg)
{
	struct deny_list *list = arg;
	struct tern_prefix p;
	int status;

	if (!tb[TERN_A_PREFIX4] || prefix_get(tb[TERN_A_PREFIX4], &p) < 0)
		return tern_fail("malformed reply from the kernel: bad denylist4 prefix");
	status = table_room((void **)&list->v, list->n, &list->cap,
			    sizeof(*list->v));
	if (status)
		return status;
	prefix_str(&p, list->v[list->n++]);
	return TERN_EXIT_OK;
}

static int list(int argc, char **argv, struct tern_opts *opts)
{
	struct deny_list list = { 0 };
	struct json_stream js = { 0 };
	bool json = opts->json;
	int status;
	size_t i;

	status = table_list("denylist4 list", help_list, TERN_CMD_DENY4_GET,
			    argc, argv, opts, list_reply, &list, &json);
	if (!status && json) {
		for (i = 0; !status && i < list.n; i++)
			status = json_stream_add(&js,
						 json_object_new_string(list.v[i]));
		json_stream_end(&js);
	} else if (!status) {
		puts("PREFIX");
		for (i = 0; i < list.n; i++)
			puts(list.v[i]);
	}
	free(list.v);
	return status == TABLE_HELPED ? TERN_EXIT_OK : status;
}

static int flush(int argc, char **argv, struct tern_opts *opts)
{
	return table_flush("denylist4 flush", help_flush, TERN_CMD_DENY4_FLUSH,
			   argc, argv, opts);
}

static int add(int argc, char **argv, struct tern_opts *opts)
{
	return change("denylist4 add", help_add, TERN_CMD_DENY4_ADD,
		      argc, argv, opts);
}

static int remove_(int argc, char **argv, struct tern_opts *opts)
{
	return change("denylist4 remove", help_remove, TERN_CMD_DENY4_DEL,
		      argc, argv, opts);
}

int cmd_denylist4(int argc, char **argv, struct tern_opts *opts)
{
	static const struct table_cmd cmds[] = {
		{ "add", add }, { "remove", remove_ }, { "list", list },
		{ "flush", flush }, { NULL, NULL },
	};

	return table_dispatch("denylist4", help_denylist4, cmds, argc, argv,
			      opts);
}
