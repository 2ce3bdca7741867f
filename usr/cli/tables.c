// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: what the address table commands share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "output.h"
#include "tables.h"

int table_args_flags(const char *cmd, int argc, char **argv,
		     struct tern_opts *opts, const char **pos, int max,
		     int *npos, bool *json,
		     int (*flag)(const char *arg, void *data), void *data)
{
	bool opts_done = false;
	int i, r;

	*npos = 0;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || !args_is_option(a)) {
			if (*npos >= max)
				return args_unexpected(cmd, a);
			pos[(*npos)++] = a;
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else if (json && args_is(a, "-j", "--json")) {
			*json = true;
		} else if (flag && (r = flag(a, data)) >= 0) {
			if (r)
				return r;
		} else {
			r = args_instance_or_unknown(cmd, argc, argv, &i, opts);
			if (r)
				return r;
		}
	}
	return TERN_EXIT_OK;
}

int table_args(const char *cmd, int argc, char **argv, struct tern_opts *opts,
	       const char **pos, int max, int *npos, bool *json)
{
	return table_args_flags(cmd, argc, argv, opts, pos, max, npos, json,
				NULL, NULL);
}

bool table_help(int argc, char **argv, const char *help)
{
	if (args_want_help(argc, argv) ||
	    (argc > 0 && !strcmp(argv[0], "help"))) {
		fputs(help, stdout);
		return true;
	}
	return false;
}

int table_room(void **v, size_t n, size_t *cap, size_t size)
{
	size_t c;
	void *nv;

	if (n < *cap)
		return TERN_EXIT_OK;
	c = *cap ? 2 * *cap : 16;
	nv = realloc(*v, c * size);
	if (!nv)
		return tern_fail("out of memory");
	*v = nv;
	*cap = c;
	return TERN_EXIT_OK;
}

int table_flush(const char *cmd, const char *help, uint8_t nlcmd,
		int argc, char **argv, struct tern_opts *opts)
{
	int n, r;

	if (table_help(argc, argv, help))
		return TERN_EXIT_OK;
	r = table_args(cmd, argc, argv, opts, NULL, 0, &n, NULL);
	if (r)
		return r;
	return tern_nl_request(nlcmd, false, opts->instance, NULL, NULL,
			       NULL, NULL);
}

int table_list(const char *cmd, const char *help, uint8_t nlcmd,
	       int argc, char **argv, struct tern_opts *opts,
	       tern_nl_reply_fn fn, void *arg, bool *json)
{
	int n, r;

	if (table_help(argc, argv, help))
		return TABLE_HELPED;
	r = table_args(cmd, argc, argv, opts, NULL, 0, &n, json);
	if (r)
		return r;
	return tern_nl_request(nlcmd, true, opts->instance, NULL, NULL, fn, arg);
}

int table_dispatch(const char *table, const char *help,
		   const struct table_cmd *cmds, int argc, char **argv,
		   struct tern_opts *opts)
{
	const struct table_cmd *c;
	char names[128] = "";
	size_t len = 0;

	if (argc > 0 && (args_is_help(argv[0]) || !strcmp(argv[0], "help"))) {
		fputs(help, stdout);
		return TERN_EXIT_OK;
	}
	for (c = cmds; argc > 0 && c->name; c++)
		if (!strcmp(argv[0], c->name))
			return c->fn(argc - 1, argv + 1, opts);
	if (argc > 0)
		return tern_usage("unknown command '%s %s' (try 'tern %s --help')",
				  table, argv[0], table);
	for (c = cmds; c->name && len < sizeof(names); c++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s",
				c == cmds ? "" : c[1].name ? ", " : " or ",
				c->name);
	return tern_usage("'%s' needs a command: %s (try 'tern %s --help')",
			  table, names, table);
}
