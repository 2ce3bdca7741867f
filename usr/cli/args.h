/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: command-line argument helpers.
 *
 * Every command walks its own arguments; options and positional arguments
 * may be interleaved, "--" ends the options, and "-" or a negative number
 * ("-1") counts as a positional argument.
 */
#ifndef TERN_CLI_ARGS_H
#define TERN_CLI_ARGS_H

#include <stdbool.h>

#include "tern.h"

/* Is @arg an option (as opposed to a positional argument)? */
bool args_is_option(const char *arg);

/* Is @arg the flag @shrt or @lng (either may be NULL)? */
bool args_is(const char *arg, const char *shrt, const char *lng);

/* Is @arg a request for help (-h, --help)? */
bool args_is_help(const char *arg);

/* Does any option before "--" ask for help? */
bool args_want_help(int argc, char **argv);

/*
 * Is argv[*i] the option @shrt/@lng that takes a value?  Accepts
 * "-x VALUE", "-xVALUE", "--long VALUE" and "--long=VALUE".
 *
 * Returns 1 with *@val set (and *@i moved past a separate value), 0 if
 * argv[*i] is something else, or -1 after reporting a missing value
 * (@meta names the value in that message).
 */
int args_value(int argc, char **argv, int *i, const char *shrt,
	       const char *lng, const char *meta, const char **val);

/*
 * Is argv[*i] -i/--instance NAME? Sets @opts->instance; giving it twice
 * (before and after the command) is a usage error. Returns like
 * args_value().
 */
int args_instance(int argc, char **argv, int *i, struct tern_opts *opts);

/*
 * The last branch of the option loop of a command that takes -i: accept
 * -i/--instance NAME, otherwise report an unknown option. Returns 0 if
 * argv[*i] was -i (consumed), else TERN_EXIT_USAGE after reporting.
 */
int args_instance_or_unknown(const char *cmd, int argc, char **argv, int *i,
			     struct tern_opts *opts);

/*
 * Report a usage error about an argument of command @cmd ("instance add")
 * and return TERN_EXIT_USAGE.
 */
int args_unknown(const char *cmd, const char *arg);
int args_unexpected(const char *cmd, const char *arg);
int args_missing(const char *cmd, const char *what);

/*
 * Splits combined short options, like ip and getopt do: "-jv" becomes "-j"
 * "-v", and "-jit" "-j" "-it" (-i takes the rest as its value, or the next
 * argument). Only arguments made of the value-less letters (a, h, j, v, V),
 * maybe ending with i, are split; nothing after "--" or after an option
 * that takes a value. Returns the new argv (*@argc updated), or NULL if
 * out of memory.
 */
char **args_split_short(int *argc, char **argv);

#endif /* TERN_CLI_ARGS_H */
