// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: command-line argument helpers.
 */
#include <ctype.h>
#include <string.h>

#include "args.h"
#include "output.h"

bool args_is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0' &&
	       !isdigit((unsigned char)arg[1]);
}

bool args_is(const char *arg, const char *shrt, const char *lng)
{
	return (shrt && !strcmp(arg, shrt)) || (lng && !strcmp(arg, lng));
}

bool args_is_help(const char *arg)
{
	return args_is(arg, "-h", "--help");
}

bool args_want_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (args_is_help(argv[i]))
			return true;
	}
	return false;
}

int args_value(int argc, char **argv, int *i, const char *shrt,
	       const char *lng, const char *meta, const char **val)
{
	const char *arg = argv[*i];
	size_t n;

	if (args_is(arg, shrt, lng)) {
		if (*i + 1 >= argc) {
			tern_usage("option '%s' needs a value (%s)", arg, meta);
			return -1;
		}
		*i += 1;
		*val = argv[*i];
		return 1;
	}
	if (lng) {
		n = strlen(lng);
		if (!strncmp(arg, lng, n) && arg[n] == '=') {
			*val = arg + n + 1;
			return 1;
		}
	}
	if (shrt && strlen(shrt) == 2 && !strncmp(arg, shrt, 2) && arg[2]) {
		*val = arg + 2;
		return 1;
	}
	return 0;
}

int args_instance(int argc, char **argv, int *i, struct tern_opts *opts)
{
	const char *val;
	int r;

	r = args_value(argc, argv, i, "-i", "--instance", "NAME", &val);
	if (r <= 0)
		return r;
	if (opts->instance) {
		tern_usage("-i/--instance given more than once");
		return -1;
	}
	opts->instance = val;
	return 1;
}

int args_instance_or_unknown(const char *cmd, int argc, char **argv, int *i,
			     struct tern_opts *opts)
{
	const char *arg = argv[*i];
	int r;

	r = args_instance(argc, argv, i, opts);
	if (r < 0)
		return TERN_EXIT_USAGE;
	if (r == 0)
		return args_unknown(cmd, arg);
	return 0;
}

int args_unknown(const char *cmd, const char *arg)
{
	return tern_usage("unknown option '%s' for '%s' (try 'tern %s --help')",
			  arg, cmd, cmd);
}

int args_unexpected(const char *cmd, const char *arg)
{
	return tern_usage("unexpected argument '%s' for '%s' (try 'tern %s --help')",
			  arg, cmd, cmd);
}

int args_missing(const char *cmd, const char *what)
{
	return tern_usage("'%s' needs %s (try 'tern %s --help')",
			  cmd, what, cmd);
}
