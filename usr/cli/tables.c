// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: what the address table commands share.
 */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "output.h"
#include "tables.h"

int table_args(const char *cmd, int argc, char **argv, struct tern_opts *opts,
	       const char **pos, int max, int *npos, bool *json)
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
		} else {
			r = args_instance_or_unknown(cmd, argc, argv, &i, opts);
			if (r)
				return r;
		}
	}
	return TERN_EXIT_OK;
}

int table_request(uint8_t cmd, bool dump, const char *instance,
		  table_put_fn put, const void *put_arg,
		  tern_nl_reply_fn fn, void *arg)
{
	struct tern_nl *nl;
	struct nl_msg *msg;
	int status;

	status = tern_nl_open(&nl);
	if (status)
		return status;
	msg = tern_nl_msg(nl, cmd, dump);
	if (!msg) {
		tern_nl_close(nl);
		return TERN_EXIT_FAIL;
	}
	if (tern_nl_put_instance(msg, instance) < 0 ||
	    (put && put(msg, put_arg) < 0)) {
		nlmsg_free(msg);
		tern_nl_close(nl);
		return tern_nl_build_error();
	}
	status = tern_nl_run(nl, msg, fn, arg);
	tern_nl_close(nl);
	return status;
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
