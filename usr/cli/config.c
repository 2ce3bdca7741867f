// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: tern config apply|show, the whole configuration of the network
 * namespace in JSON files (docs/config.md). apply sends every instance of
 * its files in one TERN_CMD_CONFIG_APPLY request: the kernel applies all
 * of it or nothing, and points at the entry it refuses, which this names
 * by file and line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_int.h"
#include "nl.h"
#include "output.h"
#include "tables.h"
#include "tern.h"

static const char help_config[] =
	"Usage: tern config COMMAND [ARGS]\n"
	"\n"
	"The whole configuration of this network namespace as JSON\n"
	"(docs/config.md).\n"
	"\n"
	"Commands:\n"
	"  apply FILE...   make the running configuration what the files say\n"
	"  show            print the running configuration in that format\n";

static const char help_apply[] =
	"Usage: tern config apply FILE...\n"
	"\n"
	"Make the running configuration of this network namespace the one of\n"
	"the files (their instances together; - reads standard input), as one\n"
	"transaction: all of it takes effect or nothing does. Instances of the\n"
	"files that exist are updated in place (a NAT64 instance keeps its\n"
	"sessions), the others are created; instances the files do not name\n"
	"are removed. An error names the file, line and entry at fault.\n";

static const char help_show[] =
	"Usage: tern config show\n"
	"\n"
	"Print the running configuration of this network namespace in the\n"
	"format tern config apply reads: every instance, every global setting.\n";

/* The innermost part of the request holding offset @off. */
static void where(unsigned long off, char *buf, size_t size, void *arg)
{
	const struct cfg_req *r = arg;
	const struct cfg_where *best = NULL;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < r->n; i++) {
		const struct cfg_where *w = &r->w[i];

		if (off < w->start || off >= w->end)
			continue;
		if (!best || w->end - w->start < best->end - best->start)
			best = w;
	}
	if (best)
		snprintf(buf, size, "%s:%d: %s", best->file, best->line,
			 best->what);
}

int cfg_check_file(const char *file, struct json_object *root)
{
	struct cfg_req r = { 0 };
	int status;

	nlmsg_set_default_size(cfg_request_size(cfg_count(root)));
	r.msg = nlmsg_alloc();
	if (!r.msg)
		return tern_fail("out of memory");
	status = cfg_put_file(&r, file, root);
	nlmsg_free(r.msg);
	free(r.w);
	return status;
}

static int apply(int argc, char **argv, struct json_object **roots)
{
	struct cfg_req r = { 0 };
	struct tern_nl *nl;
	size_t entries = 0;
	int i, status;

	for (i = 0; i < argc; i++)
		entries += cfg_count(roots[i]);
	status = tern_nl_open(&nl);
	if (status)
		return status;
	tern_nl_big(nl, cfg_request_size(entries));
	r.msg = tern_nl_msg(nl, TERN_CMD_CONFIG_APPLY, false);
	if (!r.msg) {
		tern_nl_close(nl);
		return TERN_EXIT_FAIL;
	}
	for (i = 0; i < argc && !status; i++)
		status = cfg_put_file(&r, argv[i], roots[i]);
	if (status) {
		nlmsg_free(r.msg);
	} else {
		tern_nl_set_where(nl, where, &r);
		status = tern_nl_run(nl, r.msg, NULL, NULL);
	}
	tern_nl_close(nl);
	free(r.w);
	return status;
}

static int config_apply(int argc, char **argv, struct tern_opts *opts)
{
	struct json_object **roots;
	int i, n = 0, status = TERN_EXIT_OK;

	if (table_help(argc, argv, help_apply))
		return TERN_EXIT_OK;
	if (opts->instance)
		return tern_usage("config apply takes no instance (-i): the files name theirs");
	if (argc < 1)
		return tern_usage("config apply needs a FILE");
	for (i = 0; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return tern_usage("config apply: unknown option '%s'", argv[i]);
	roots = calloc(argc, sizeof(*roots));
	if (!roots)
		return tern_fail("out of memory");
	for (n = 0; n < argc; n++) {
		roots[n] = cfg_read_file(argv[n]);
		if (!roots[n]) {
			status = TERN_EXIT_FAIL;
			break;
		}
	}
	if (!status)
		status = apply(argc, argv, roots);
	for (i = 0; i < n; i++)
		json_object_put(roots[i]);
	free(roots);
	return status;
}

static int config_show(int argc, char **argv, struct tern_opts *opts)
{
	if (table_help(argc, argv, help_show))
		return TERN_EXIT_OK;
	if (opts->instance)
		return tern_usage("config show takes no instance (-i): it shows them all");
	if (argc > 0)
		return tern_usage("config show: unexpected argument '%s'", argv[0]);
	return cfg_show();
}

static const struct table_cmd config_cmds[] = {
	{ "apply", config_apply },
	{ "show", config_show },
	{ NULL, NULL }
};

int cmd_config(int argc, char **argv, struct tern_opts *opts)
{
	return table_dispatch("config", help_config, config_cmds, argc, argv,
			      opts);
}
