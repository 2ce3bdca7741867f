// SPDX-License-Identifier: GPL-2.0-only
/*
 * tern CLI: command-line argument helpers.
 */
#include <ctype.h>
#include <stdlib.h>
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

/*
 * The short options that take no value (of any command: each command
 * refuses those it does not take), and the one that takes a value.
 */
#define SHORT_FLAGS "ahjvV"
#define SHORT_VALUE 'i'

/* Options whose value is the next argument (never split). */
static bool takes_value(const char *arg)
{
	static const char *const opts[] = {
		"-i", "--instance", "--pool6", "--mark", "--config", "--ipv4",
		"--ipv6", "--subscriber", NULL
	};
	size_t i;

	for (i = 0; opts[i] && strcmp(arg, opts[i]); i++)
		;
	return opts[i] != NULL;
}

/* "-" and @c's letter: a new argument (never freed: the process's). */
static char *short_arg(const char *c, bool rest)
{
	size_t n = rest ? strlen(c) : 1;
	char *a = malloc(n + 2);

	if (a) {
		a[0] = '-';
		memcpy(a + 1, c, n);
		a[n + 1] = '\0';
	}
	return a;
}

char **args_split_short(int *argc, char **argv)
{
	char **out;
	int i, n = 0;
	size_t len = 0;
	const char *c;

	/* Each letter is one argument at most. */
	for (i = 0; i < *argc; i++)
		len += strlen(argv[i]) + 1;
	out = calloc(len + 1, sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; i < *argc; i++) {
		const char *a = argv[i];

		if (i == 0 || !args_is_option(a) || a[1] == '-' || !a[2] ||
		    takes_value(out[n - 1]) || !strchr(SHORT_FLAGS, a[1])) {
			out[n++] = argv[i];
			if (!strcmp(a, "--"))
				break;
			continue;
		}
		/* -jv, -jit: flags, then maybe -i with the rest as its value. */
		for (c = a + 1; *c && strchr(SHORT_FLAGS, *c); c++)
			;
		if (*c && *c != SHORT_VALUE) {
			out[n++] = argv[i];	/* an unknown letter: as is */
			continue;
		}
		for (c = a + 1; *c; c++) {
			out[n] = short_arg(c, *c == SHORT_VALUE);
			if (!out[n++])
				return NULL;
			if (*c == SHORT_VALUE)
				break;
		}
	}
	for (i++; i < *argc; i++)
		out[n++] = argv[i];
	*argc = n;
	return out;
}
