/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: what the address table commands (eamt, denylist4, address)
 * share: their argument loop and their requests.
 */
#ifndef TERN_CLI_TABLES_H
#define TERN_CLI_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "nl.h"
#include "tern.h"

/*
 * The arguments of command @cmd ("eamt add"): up to @max positional ones
 * into @pos (*@npos of them), -i/--instance NAME into @opts, and -j/--json
 * if @json is not NULL. Returns TERN_EXIT_OK or TERN_EXIT_USAGE (after
 * reporting).
 */
int table_args(const char *cmd, int argc, char **argv, struct tern_opts *opts,
	       const char **pos, int max, int *npos, bool *json);

/* Adds the request's attributes to @msg; returns 0 or -1 (too long). */
typedef int (*table_put_fn)(struct nl_msg *msg, const void *arg);

/*
 * One request of command @cmd for @instance (NULL: the only one) with the
 * attributes @put adds (may be NULL), replies to @fn. Returns the exit
 * status.
 */
int table_request(uint8_t cmd, bool dump, const char *instance,
		  table_put_fn put, const void *put_arg,
		  tern_nl_reply_fn fn, void *arg);

/* Prints @help if the arguments ask for it (or are "help"); true if so. */
bool table_help(int argc, char **argv, const char *help);

#endif /* TERN_CLI_TABLES_H */
